//! A persistent team of worker threads for Δ-stepping's fast path, as OpenMP keeps one for
//! GAP's `#pragma omp parallel`: the threads are started once per process and stay, parked on
//! a futex between runs (after a short spin), so a run pays one wake-up per thread instead of
//! a fresh pool's thread start-up, and each thread's allocator arena and bins stay warm across
//! runs (the bins are kept in the thread's own storage by [`super::fast`]). After a run a
//! worker spins [`HOT`] (50 ms) before it parks, so that a series of runs finds it running.
//!
//! A fresh `rayon` pool per run (what the fast path used before) started its threads
//! asynchronously inside the timed region — `ThreadPoolBuilder::build` does not wait for
//! them — and the previous run's pool was still tearing its threads down beside it.
//!
//! One run at a time holds the team; a run that finds it busy (two solves at once, e.g. the
//! app's lanes) gets scoped threads of its own for that run, which is correct, only colder.

use super::barrier::{Padded, futex_wait, futex_wake, spin_for};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicUsize, Ordering::*};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One run's job as the workers see it.
struct Job<'a> {
    f: &'a (dyn Fn(usize) + Sync),
    /// Workers that have returned from `f`.
    done: &'a AtomicUsize,
    panicked: &'a AtomicBool,
}

/// A worker's mailbox: the caller stores the job, then bumps `generation`.
#[derive(Default)]
struct Slot {
    generation: Padded<AtomicU32>,
    /// Set while the worker sleeps (or is about to) on `generation`.
    asleep: AtomicU32,
    /// A `*const Job<'_>` valid until the worker counts itself done.
    job: AtomicPtr<()>,
}

/// The started workers; worker i runs thread index i + 1 (the caller is thread 0).
static TEAM: Mutex<Vec<Arc<Slot>>> = Mutex::new(Vec::new());

/// Calls `f(t)` for every t in 0..threads at once — t = 0 on the calling thread, every other t
/// on its own thread, all running concurrently (so `f` may meet at a barrier) — and returns when
/// every call has returned. A panic in any call is raised here after all have returned.
pub fn run(threads: usize, f: &(dyn Fn(usize) + Sync)) {
    let helpers = threads.saturating_sub(1);
    if helpers == 0 {
        f(0);
        return;
    }
    let Ok(mut team) = TEAM.try_lock() else {
        return scoped(threads, f);
    };
    if !grow(&mut team, helpers) {
        // The OS gives no more threads now: this run starts its own (as the rayon pool did,
        // a run that cannot start its threads at all panics there).
        drop(team);
        return scoped(threads, f);
    }
    if knobs().pin {
        pin::caller();
    }
    let done = AtomicUsize::new(0);
    let panicked = AtomicBool::new(false);
    let job = Job { f, done: &done, panicked: &panicked };
    for slot in &team[..helpers] {
        slot.job.store(std::ptr::from_ref(&job).cast_mut().cast(), Relaxed);
        // SeqCst pairs with the worker's `asleep` store before it sleeps: either it sees the new
        // generation or this sees it asleep.
        slot.generation.fetch_add(1, SeqCst);
        if slot.asleep.load(SeqCst) != 0 {
            futex_wake(&slot.generation);
        }
    }
    let mine = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(0)));
    // `job` lives on this stack: no worker may still hold it when this returns.
    let mut spins = 0u32;
    while done.load(Acquire) < helpers {
        spins += 1;
        if spins < 1 << 14 { std::hint::spin_loop() } else { std::thread::yield_now() }
    }
    drop(team);
    if let Err(p) = mine {
        std::panic::resume_unwind(p);
    }
    assert!(!panicked.load(Relaxed), "a Δ-stepping worker thread panicked");
}

/// Starts the team's workers for runs on `threads` threads now, outside any timed region (the
/// solver calls it when it is built): the first timed run of a process then wakes 15 parked
/// threads instead of starting them (lease 6: the first of five runs was the slowest on the
/// roads, luxembourg 4.1 against 1.9–2.7 ms). Does nothing while another run holds the team or
/// when the OS gives no threads (the run then starts its own).
pub fn prepare(threads: usize) {
    let helpers = threads.saturating_sub(1);
    if helpers == 0 {
        return;
    }
    if let Ok(mut team) = TEAM.try_lock() {
        grow(&mut team, helpers);
    }
    if knobs().pin {
        pin::caller();
    }
}

/// Starts workers until the team has `helpers`; false when the OS refuses a thread.
fn grow(team: &mut Vec<Arc<Slot>>, helpers: usize) -> bool {
    while team.len() < helpers {
        let slot = Arc::new(Slot::default());
        let mine = Arc::clone(&slot);
        let index = team.len() + 1;
        let started =
            std::thread::Builder::new().name(format!("sssp-team-{index}")).spawn(move || worker(&mine, index));
        if started.is_err() {
            return false;
        }
        team.push(slot);
    }
    true
}

/// How long a worker keeps spinning after a run before it parks, so that the next run of a
/// series (the bench's repetitions, a few ms apart once the oracle is cached) finds the team
/// running, as GAP's trials find OpenMP's threads, instead of waking 15 parked threads and
/// waiting for their cores. Lease 7 (`bench/results/cpu-peers-2026-11-26/`, interleaved
/// processes, 12 rounds, 16 cores): NY 3.27 against 3.68 ms, luxembourg 1.75 against 1.91 ms
/// (medians; bootstrap 90 % of the ratio 1.05–1.18 and 1.06–1.19), Kronecker 21 even. Only
/// while every thread has a core (the spin would take an oversubscribed core from real work).
const HOT: Duration = Duration::from_millis(50);

/// Switches for the stall A/B of lease 7 (`bench/results/cpu-peers-2026-11-26/`), read once.
#[derive(Clone, Copy)]
struct Knobs {
    /// `SSSP_DS_PIN=1`: worker i runs on the i-th CPU the process may use, the caller on the
    /// first (no two team threads share a core, none migrates). Lease 7: slower, NY 4.00
    /// against 3.68 ms, luxembourg 2.03 against 1.91 (not measured why; a pinned thread cannot
    /// leave a core that a kernel thread takes, and every other thread waits for it).
    pin: bool,
    /// `SSSP_DS_HOT=ms`: how long a worker spins after a run before it parks, while the team
    /// has a core per thread (unset: [`HOT`]; 0: as long as the barrier spins, lease 6's rule).
    hot: Duration,
}

fn knobs() -> Knobs {
    static KNOBS: std::sync::OnceLock<Knobs> = std::sync::OnceLock::new();
    *KNOBS.get_or_init(|| {
        let var = |k| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
        Knobs { pin: var("SSSP_DS_PIN") == Some(1), hot: var("SSSP_DS_HOT").map_or(HOT, Duration::from_millis) }
    })
}

/// Thread placement behind `SSSP_DS_PIN=1` (Linux; a no-op elsewhere).
mod pin {
    /// The CPUs this process may run on, read once (before any thread is pinned).
    #[cfg(target_os = "linux")]
    fn allowed() -> &'static [usize] {
        static CPUS: std::sync::OnceLock<Vec<usize>> = std::sync::OnceLock::new();
        CPUS.get_or_init(|| {
            // SAFETY: a zeroed cpu_set_t is a valid empty set; sched_getaffinity writes at most
            // its size into it.
            unsafe {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
                    return Vec::new();
                }
                (0..libc::CPU_SETSIZE as usize).filter(|&c| libc::CPU_ISSET(c, &set)).collect()
            }
        })
    }

    /// Pins the calling thread to the `i`-th allowed CPU (modulo their number); false when
    /// the kernel refuses (the thread then runs where the scheduler puts it).
    #[cfg(target_os = "linux")]
    pub(super) fn to(i: usize) -> bool {
        let cpus = allowed();
        if cpus.is_empty() {
            return false;
        }
        // SAFETY: as above; sched_setaffinity(0, …) changes only the calling thread.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpus[i % cpus.len()], &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
        }
    }

    #[cfg(not(target_os = "linux"))]
    pub(super) fn to(_i: usize) -> bool {
        false
    }

    /// Pins the calling thread (a run's thread 0) to the first allowed CPU, once per thread.
    pub(super) fn caller() {
        thread_local!(static PINNED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });
        if !PINNED.get() {
            PINNED.set(true);
            to(0);
        }
    }
}

/// The same on threads started for this run only.
fn scoped(threads: usize, f: &(dyn Fn(usize) + Sync)) {
    std::thread::scope(|s| {
        for t in 1..threads {
            s.spawn(move || f(t));
        }
        f(0);
    });
}

/// Runs the jobs posted to `slot`, spinning a while after each before it sleeps.
fn worker(slot: &Slot, index: usize) {
    let knobs = knobs();
    if knobs.pin {
        pin::to(index);
    }
    // Stay hot while every thread has a core, else spin only as long as the oversubscribed
    // barrier does; the thread count that matters is the team's size so far.
    let spin = if knobs.hot.is_zero() || spin_for(index + 1) < spin_for(1) { spin_for(index + 1) } else { knobs.hot };
    let yields = super::barrier::yields();
    let mut seen = 0u32;
    loop {
        let start = Instant::now();
        let mut spins = 0u32;
        while slot.generation.load(Acquire) == seen {
            spins += 1;
            if !spins.is_multiple_of(256) {
                std::hint::spin_loop();
                continue;
            }
            let spun = start.elapsed();
            if spun < spin {
                if yields {
                    std::thread::yield_now();
                }
                continue;
            }
            slot.asleep.store(1, SeqCst);
            if slot.generation.load(SeqCst) == seen {
                futex_wait(&slot.generation, seen);
            }
            slot.asleep.store(0, SeqCst);
        }
        seen = slot.generation.load(Acquire);
        // SAFETY: the caller stored a live `Job` before bumping `generation` (Release/Acquire)
        // and keeps it alive until this worker has counted itself done below.
        let job = unsafe { &*slot.job.load(Relaxed).cast::<Job<'_>>() };
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (job.f)(index))).is_err() {
            job.panicked.store(true, Relaxed);
        }
        // The last touch of `job`: after this the caller may return and free it.
        job.done.fetch_add(1, Release);
    }
}

/// The stepped phases' rayon pool, started on first use: a run to the end on the fast path
/// never starts it (its threads would start beside the team's inside the timed region).
pub struct LazyPool {
    threads: usize,
    pool: std::sync::OnceLock<Option<rayon::ThreadPool>>,
}

impl LazyPool {
    /// A pool of `threads` threads (0 = one per core), not started yet.
    pub fn new(threads: usize) -> LazyPool {
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
            t => t,
        };
        LazyPool { threads, pool: std::sync::OnceLock::new() }
    }

    /// Its thread count.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The pool, started now if it is not yet; `None` when the threads cannot be started (the
    /// caller then works on its own thread: same result, slower).
    pub fn get(&self) -> Option<&rayon::ThreadPool> {
        self.pool.get_or_init(|| rayon::ThreadPoolBuilder::new().num_threads(self.threads).build().ok()).as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every index runs once per run, concurrently (they meet at a barrier), over many runs
    /// and changing thread counts, with the team reused.
    #[test]
    fn every_index_runs_once_and_together() {
        for round in 0..40 {
            let threads = 1 + round % 5;
            let barrier = super::super::barrier::FutexBarrier::new(threads);
            let hits: Vec<AtomicUsize> = (0..threads).map(|_| AtomicUsize::new(0)).collect();
            run(threads, &|t| {
                hits[t].fetch_add(1, Relaxed);
                barrier.wait();
            });
            assert!(hits.iter().all(|h| h.load(Relaxed) == 1));
        }
    }

    /// Pinning (`SSSP_DS_PIN=1`) takes effect on Linux and leaves a thread on an allowed CPU;
    /// [`prepare`] starts the team without running anything.
    #[test]
    fn pinning_and_preparing() {
        let pinned = std::thread::spawn(|| pin::to(1)).join().expect("no panic");
        assert_eq!(pinned, cfg!(target_os = "linux"));
        prepare(3);
        let sum = AtomicUsize::new(0);
        run(3, &|t| {
            sum.fetch_add(t, Relaxed);
        });
        assert_eq!(sum.load(Relaxed), 3);
    }
}
