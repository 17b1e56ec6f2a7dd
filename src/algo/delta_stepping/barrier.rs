//! A barrier for rounds that last microseconds: it spins first (a futex wake-up costs tens of
//! µs, longer than a round of Δ-stepping on a road network) and sleeps on a futex after a
//! while, so a thread descheduled by the OS, or more threads than cores, does not keep the
//! others burning cores in `yield` loops. OpenMP's barrier, which GAP meets twice per round,
//! does the same (libgomp spins `GOMP_SPINCOUNT` times, then sleeps on a futex).

use std::sync::atomic::{AtomicU32, Ordering::*};
use std::time::{Duration, Instant};

/// How long a waiting thread spins before it sleeps while every thread has a core: long
/// against a round and against the imbalance of bin fusion (a road round on 16 threads lasts
/// tens to hundreds of µs), so the threads rarely pay a futex wake-up (and a core's way out of a
/// sleep state) per round — libgomp, GAP's barrier, spins for milliseconds by default too.
const SPIN: Duration = Duration::from_millis(2);
/// The same with more threads than cores, where a spinning thread takes the core of one that
/// still has work (the tests run 8 threads on 2 cores).
const SPIN_OVERSUBSCRIBED: Duration = Duration::from_micros(50);

/// After this long a spinning waiter also yields its core once per check (`SSSP_DS_YIELD=1`).
const YIELD_AFTER: Duration = Duration::from_micros(20);

/// `SSSP_DS_YIELD=1` (read once): a waiter that has spun [`YIELD_AFTER`] calls `sched_yield`
/// every 256 spins. A yield hands the core only to a thread queued on the same core — with 16
/// threads on 16 cores, the straggler that the scheduler put beside a spinning waiter (lease 6:
/// runs of 50–90 ms at 95 % barrier share, one thread of 16 missing for whole rounds) — and
/// returns at once when there is none. Lease 7: no difference (NY 3.66 against 3.68 ms,
/// luxembourg 1.88 against 1.91; the stalls of lease 6 did not come back in that call).
pub(super) fn yields() -> bool {
    static YIELD: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *YIELD.get_or_init(|| std::env::var("SSSP_DS_YIELD").is_ok_and(|v| v == "1"))
}

/// The machine's cores, read once (`available_parallelism` reads cgroup files on Linux).
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get))
}

/// Aligns its value to its own cache line (two, for the adjacent-line prefetcher): a word
/// that threads spin on or bump must not share a line with what other threads read or write.
#[repr(align(128))]
#[derive(Default)]
pub(super) struct Padded<T>(pub T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// A reusable barrier for `threads` threads (spin, then futex).
pub struct FutexBarrier {
    threads: u32,
    spin: Duration,
    /// Whether spinning waiters yield ([`yields`]).
    yields: bool,
    /// Bumped by every arrival: on a line of its own, away from the word the waiters spin on,
    /// so an arrival does not steal the line from 15 spinning readers (and they from it).
    arrived: Padded<AtomicU32>,
    /// Bumped by the last arrival; waiters spin and sleep on it changing.
    generation: Padded<AtomicU32>,
    /// Threads asleep (or about to sleep) on `generation`: the last arrival wakes only if any.
    sleepers: Padded<AtomicU32>,
}

impl FutexBarrier {
    /// A barrier for `threads` threads (at least 1).
    pub fn new(threads: usize) -> FutexBarrier {
        FutexBarrier {
            threads: threads.clamp(1, u32::MAX as usize) as u32,
            spin: spin_for(threads),
            yields: yields(),
            arrived: Padded(AtomicU32::new(0)),
            generation: Padded(AtomicU32::new(0)),
            sleepers: Padded(AtomicU32::new(0)),
        }
    }

    /// Threads waiting in the current round now (a hint: it changes as they arrive and leave).
    pub fn waiting(&self) -> usize {
        self.arrived.load(Relaxed) as usize
    }

    /// Waits until all threads have called `wait`; every write made before it by any thread is
    /// visible after it. Returns the time this thread waited (0 for the last arrival).
    pub fn wait(&self) -> Duration {
        if self.threads == 1 {
            return Duration::ZERO;
        }
        let generation = self.generation.load(Acquire);
        if self.arrived.fetch_add(1, AcqRel) + 1 == self.threads {
            self.arrived.store(0, Relaxed);
            self.generation.fetch_add(1, SeqCst);
            if self.sleepers.load(SeqCst) > 0 {
                futex_wake(&self.generation);
            }
            return Duration::ZERO;
        }
        let start = Instant::now();
        let mut spins = 0u32;
        while self.generation.load(Acquire) == generation {
            spins += 1;
            if !spins.is_multiple_of(256) {
                std::hint::spin_loop();
                continue;
            }
            let spun = start.elapsed();
            if spun < self.spin {
                if self.yields && spun > YIELD_AFTER {
                    std::thread::yield_now();
                }
                continue;
            }
            // SeqCst pairs with the last arrival's check of `sleepers`: either it sees this
            // thread counted, or this thread sees the new generation before it sleeps.
            self.sleepers.fetch_add(1, SeqCst);
            if self.generation.load(SeqCst) == generation {
                futex_wait(&self.generation, generation);
            }
            self.sleepers.fetch_sub(1, SeqCst);
        }
        start.elapsed()
    }
}

/// Spin time for a waiter among `threads` threads: long while every thread has a core, short
/// when there are more threads than cores.
pub(super) fn spin_for(threads: usize) -> Duration {
    if threads <= cores() { SPIN } else { SPIN_OVERSUBSCRIBED }
}

/// Sleeps while `word` still holds `seen` (or until a spurious wake-up; callers re-check).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(super) fn futex_wait(word: &AtomicU32, seen: u32) {
    // SAFETY: FUTEX_WAIT reads the u32 behind the pointer, which outlives the call; it returns
    // at once when the value differs from `seen`.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
            seen,
            std::ptr::null::<libc::timespec>(),
        );
    }
}

/// Wakes every thread asleep in [`futex_wait`] on `word`.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(super) fn futex_wake(word: &AtomicU32) {
    // SAFETY: FUTEX_WAKE only uses the address as a key.
    unsafe {
        libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG, i32::MAX);
    }
}

/// Elsewhere one lock and condition variable for every word: a wake-up wakes every sleeper,
/// which re-checks its own word (and a timeout bounds a missed one).
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
static PARK: (std::sync::Mutex<()>, std::sync::Condvar) = (std::sync::Mutex::new(()), std::sync::Condvar::new());

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(super) fn futex_wait(word: &AtomicU32, seen: u32) {
    let (m, cv) = &PARK;
    let g = m.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if word.load(SeqCst) == seen {
        drop(cv.wait_timeout(g, Duration::from_millis(10)));
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(super) fn futex_wake(_word: &AtomicU32) {
    let (m, cv) = &PARK;
    // Taking the lock orders the wake-up after a sleeper's check of its word.
    drop(m.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    cv.notify_all();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Every thread sees every other thread's increment of the round before it leaves the
    /// barrier, through rounds long enough for the waiters to fall asleep.
    #[test]
    fn no_thread_leaves_a_round_early() {
        let threads = 4;
        let b = FutexBarrier::new(threads);
        let count = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for t in 0..threads {
                let (b, count) = (&b, &count);
                s.spawn(move || {
                    for round in 0..50 {
                        count.fetch_add(1, Relaxed);
                        if t == 0 && round % 10 == 0 {
                            std::thread::sleep(Duration::from_millis(1));
                        }
                        b.wait();
                        assert!(count.load(Relaxed) >= (round + 1) * threads);
                        b.wait();
                    }
                });
            }
        });
        assert_eq!(count.load(Relaxed), 50 * threads);
    }
}
