//! What seed 001's threads share besides the queue: the barrier they meet at and what each
//! thread measured.

use std::sync::Barrier;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// A barrier of either kind (`barrier=spin|sleep`).
pub(super) enum Meet {
    Spin { n: usize, count: AtomicUsize, generation: AtomicUsize },
    Sleep(Barrier),
}

impl Meet {
    pub(super) fn new(n: usize, spin: bool) -> Meet {
        if spin {
            Meet::Spin { n, count: AtomicUsize::new(0), generation: AtomicUsize::new(0) }
        } else {
            Meet::Sleep(Barrier::new(n))
        }
    }

    pub(super) fn wait(&self) {
        use std::sync::atomic::Ordering::{AcqRel, Acquire, Release};
        match self {
            Meet::Sleep(b) => {
                b.wait();
            }
            Meet::Spin { n, count, generation } => {
                let g = generation.load(Acquire);
                if count.fetch_add(1, AcqRel) + 1 == *n {
                    count.store(0, Relaxed);
                    generation.fetch_add(1, Release);
                    return;
                }
                let mut spins = 0u32;
                while generation.load(Acquire) == g {
                    if spins < 256 {
                        spins += 1;
                        std::hint::spin_loop();
                    } else {
                        std::thread::yield_now();
                    }
                }
            }
        }
    }
}

/// What one thread measured, summed since the stepper started (ns and counts).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct ThreadStats {
    pub(super) busy_ns: u64,
    pub(super) barrier_ns: u64,
    pub(super) lock_ns: u64,
    pub(super) contended: u64,
    pub(super) scanned: u64,
    pub(super) attempted: u64,
    pub(super) lowered: u64,
    pub(super) helper_lowered: u64,
    pub(super) helper_wasted: u64,
}

impl ThreadStats {
    pub(super) fn minus(mut self, o: &ThreadStats) -> ThreadStats {
        self.busy_ns -= o.busy_ns;
        self.barrier_ns -= o.barrier_ns;
        self.lock_ns -= o.lock_ns;
        self.contended -= o.contended;
        self.scanned -= o.scanned;
        self.attempted -= o.attempted;
        self.lowered -= o.lowered;
        self.helper_lowered -= o.helper_lowered;
        self.helper_wasted -= o.helper_wasted;
        self
    }

    pub(super) fn add(&mut self, o: &ThreadStats) {
        self.busy_ns += o.busy_ns;
        self.barrier_ns += o.barrier_ns;
        self.lock_ns += o.lock_ns;
        self.contended += o.contended;
        self.scanned += o.scanned;
        self.attempted += o.attempted;
        self.lowered += o.lowered;
        self.helper_lowered += o.helper_lowered;
        self.helper_wasted += o.helper_wasted;
    }
}
