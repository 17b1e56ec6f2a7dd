//! `helper-fold`: seed 001's helper threads (`[seed001]` §2.4, Alg. 4–5) without a lock —
//! the attempt the lock-based `helper` left open (issue 31, item 2: lock waits were 43–54 % of
//! thread time from 4 threads on, and thread 0 alone cost 2.5× the baseline for its lock).
//!
//! Thread 0 runs the baseline's Dijkstra on a heap of its own that no other thread touches.
//! After each ExtractMin it publishes the top of the heap (a window of array positions 0…W−1,
//! seed 001's `ReadMin(Q, k)`) and bumps an epoch. Helper k spins on the epoch, takes window
//! entries k−1, k−1+(T−1), … it has not already relaxed, and relaxes each one's arcs with an
//! atomic minimum on δ. Every δ a helper lowers goes into that helper's single-producer queue
//! as (vertex, δ), and once all of x's arcs are relaxed a mark (x, δ(x)) follows; thread 0
//! folds the queues before each ExtractMin: a lowering becomes a DecreaseKey (or an insert),
//! and when thread 0 extracts x with the marked δ it skips x's arcs: that is the work a helper
//! spares it. Thread 0 reads only its queues, not the shared δ or marks, outside its own scans
//! (each such read is a cache line another core wrote).
//!
//! Measured on 16 cores (bench/results/cpu-peers-2026-11-26, lease 16): helpers spare thread 0
//! 99 % of its scans, yet it is no faster than the baseline — the scans are half of its work,
//! the heap operations stay with it, and the hand-off costs about what the scans did.
//!
//! What differs from the paper, and why it stays exact: without transactional memory a helper
//! cannot DecreaseKey thread 0's heap, so the fold does it; a lowering thread 0 has not folded
//! yet can let it extract a vertex too early, so a vertex whose δ falls after its arcs were
//! relaxed is put back in the heap and relaxed again (label-correcting, as the paper's helpers
//! rely on "re-relaxed when x reaches the top"). Helpers finish a vertex instead of aborting
//! (no transaction to abort; a half-relaxed vertex is not marked, so nothing is lost). Thread 0
//! waits for the helpers only when its heap runs empty: then it publishes an empty window and
//! folds until every helper has acknowledged it, since only the helpers can still hold work.

use super::heap::IndexedHeap;
use crate::algo::{
    Algorithm, AlgorithmSpec, Family, IterationRecord, Phase, PhaseTimes, PlotGroup, RunRecord, SeriesSpec, SeriesUnit,
    SolveError, SolveOptions, Step, StepDelta, Stepper, ThreadTime, Values, dist_value,
};
use crate::graph::{Distance, Graph, INF, VertexId};
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, AtomicUsize};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Instant;

/// Helper threads with lock-free speculation and a fold into thread 0's heap.
pub const HELPER_FOLD: Algorithm = Algorithm(&HELPER_FOLD_SPEC);

/// A window slot with no vertex.
const NONE: u32 = u32::MAX;
/// Most heap positions published a step (two a helper; with the epoch, one cache line).
const WINDOW: usize = 15;
/// Entries in a helper's queue to thread 0 (16 bytes each: 128 KiB).
const RING: usize = 1 << 13;

static SERIES: [SeriesSpec; 5] = [
    SeriesSpec {
        key: "delta",
        label: "δ extracted",
        help: "δ of the vertex extracted (and settled) at the end of this iteration",
        unit: SeriesUnit::Distance,
        group: PlotGroup::Thresholds,
    },
    SeriesSpec {
        key: "barrier_share",
        label: "idle share",
        help: "thread time spent waiting (helpers for the next window, thread 0 for the helpers when its heap ran \
empty) / all thread time since the last record",
        unit: SeriesUnit::Ratio,
        group: PlotGroup::Threads,
    },
    SeriesSpec {
        key: "helper_lowered",
        label: "helper lowered",
        help: "δ values lowered by helper threads since the last record",
        unit: SeriesUnit::Count,
        group: PlotGroup::Work,
    },
    SeriesSpec {
        key: "helper_wasted",
        label: "helper wasted",
        help: "helper-lowered δ values lowered again since the last record (relaxed from a δ that was not final)",
        unit: SeriesUnit::Count,
        group: PlotGroup::Work,
    },
    SeriesSpec {
        key: "spared",
        label: "spared",
        help: "1 when a helper had already relaxed every arc of the vertex thread 0 relaxes now, with its final δ, \
so thread 0 skipped them",
        unit: SeriesUnit::Count,
        group: PlotGroup::Work,
    },
];

/// Seed 001's helper threads without locks (`helper-fold`).
pub static HELPER_FOLD_SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "helper-fold",
    name: "Dijkstra with lock-free helpers",
    summary: "Dijkstra on thread 0's own heap; helpers relax the next queue entries with atomic minima and hand \
what they lower to thread 0",
    reference: "[seed001] §2.4 Alg. 4-5 (helper threads; atomics and a fold instead of TM)",
    iteration: "relax the out-arcs of the vertex settled last (unless a helper already did, with the same δ), fold \
the helpers' lowerings into the heap, extract the minimum and publish the heap's top to the helpers",
    family: Family::Sequential,
    params: &[],
    series: &SERIES,
    code: |_| {
        vec![
            (Phase::Init, "δ(s) ← 0; δ(v) ← ∞ (v ≠ s); Q ← ∅; u ← s"),
            (Phase::Loop, "while u ≠ none do"),
            (Phase::Relax, "  thread 0: unless helped(u) = δ(u): for (u,v,w): atomicMin(δ(v), δ(u)+w); DecreaseKey"),
            (
                Phase::Relax,
                "  helper k: x ← window[k]; for (x,y,w): if atomicMin lowers δ(y): queue_k ← y; helped(x) ← δ(x)",
            ),
            (Phase::Minimum, "  thread 0: fold queues into Q; u ← ExtractMin(Q); window ← Q[0..W); epoch++"),
            (Phase::Update, "  u is settled (put back in Q if a late fold lowers δ(u))"),
        ]
    },
    finished: "u = none",
    exact: |_| true,
    cpu: |g, _, s, o| Ok(Box::new(FoldStepper::new(g, s, 1, o)?)),
    negative_weights: false,
    cpu_parallel: Some(|g, _, s, t, o| Ok(Box::new(FoldStepper::new(g, s, t, o)?))),
};

/// On a cache line of its own: words one thread writes and others poll.
#[repr(align(128))]
#[derive(Default)]
struct Padded<T>(T);

/// What thread 0 publishes each iteration, in one cache line, so that a publication costs it
/// one line's ownership however many helpers read it.
struct Board {
    window: [AtomicU32; WINDOW],
    epoch: AtomicU32,
}

/// A queue entry's vertex with this bit: "all arcs relaxed from δ" (a mark), not a lowering.
const MARK: u32 = 1 << 31;

/// One queue entry: a vertex (its [`MARK`] bit set for a mark) and the δ lowered to or
/// relaxed from, so thread 0 reads neither δ nor a shared mark array, only its queues.
#[derive(Default)]
struct Slot {
    v: AtomicU32,
    d: AtomicI64,
}

/// A helper's single-producer, single-consumer queue to thread 0.
struct Ring {
    slots: Box<[Slot]>,
    /// Entries thread 0 has folded (thread 0 writes it).
    head: Padded<AtomicUsize>,
    /// Entries the helper has published (the helper writes it, once a vertex: every write
    /// costs thread 0 a cache miss when it next looks).
    tail: Padded<AtomicUsize>,
}

/// A helper's end of its [`Ring`].
struct Producer<'a> {
    ring: &'a Ring,
    /// Entries written, published or not.
    tail: usize,
    /// Thread 0's head as last read.
    head: usize,
}

impl Producer<'_> {
    /// Writes an entry (published with the next [`Producer::publish`]); false if the run ends
    /// while the queue is full.
    fn push(&mut self, v: u32, d: Distance, exit: &AtomicBool) -> bool {
        while self.tail - self.head >= RING {
            // Full: publish what is written and wait for thread 0's fold (it folds while it
            // waits for the helpers, so this cannot deadlock).
            self.publish();
            self.head = self.ring.head.0.load(Acquire);
            if exit.load(Relaxed) {
                return false;
            }
            std::thread::yield_now();
        }
        let slot = &self.ring.slots[self.tail % RING];
        slot.v.store(v, Relaxed);
        slot.d.store(d, Relaxed);
        self.tail += 1;
        true
    }

    fn publish(&self) {
        self.ring.tail.0.store(self.tail, Release);
    }
}

/// What a helper measured, readable while it runs (ns and counts, summed since the start).
#[derive(Default)]
struct HelperCounts {
    busy_ns: AtomicU64,
    wait_ns: AtomicU64,
    lowered: AtomicU64,
    wasted: AtomicU64,
}

/// State thread 0 and the helpers share.
struct Shared {
    graph: Arc<Graph>,
    dist: Vec<AtomicI64>,
    /// δ(x) with which a helper took x (so two helpers do not relax x from the same δ).
    claimed: Vec<AtomicI64>,
    /// Whether the last lowering of δ(v) was a helper's (to count wasted helper work).
    by_helper: Vec<AtomicBool>,
    board: Padded<Board>,
    /// Window slots in use: two a helper, at most [`WINDOW`].
    width: usize,
    /// Per helper (index tid − 1): the last epoch it has finished with.
    acks: Vec<Padded<AtomicU32>>,
    rings: Vec<Ring>,
    counts: Vec<Padded<HelperCounts>>,
    exit: AtomicBool,
    /// Helper lowerings (vertex, old δ, new δ), kept while the app records deltas.
    logging: AtomicBool,
    log: Mutex<Vec<(VertexId, Distance, Distance)>>,
}

impl Shared {
    fn helpers(&self) -> usize {
        self.rings.len()
    }

    /// Thread 0: publish the top of `heap` (or nothing) and start a new epoch; the epoch.
    fn publish(&self, heap: Option<&IndexedHeap>) -> u32 {
        for k in 0..self.width {
            let v = heap.and_then(|h| h.at(k)).unwrap_or(NONE);
            self.board.0.window[k].store(v, Relaxed);
        }
        let e = self.board.0.epoch.load(Relaxed).wrapping_add(1);
        self.board.0.epoch.store(e, Release);
        e
    }

    /// Whether every helper has finished with epoch `e` (thread 0 publishes nothing while it
    /// asks).
    fn quiet(&self, e: u32) -> bool {
        self.acks.iter().all(|a| a.0.load(Acquire) == e)
    }
}

/// Helper `tid` ≥ 1 (Alg. 5 without transactions): for each new epoch, relax the arcs of the
/// window entries it owns that no helper relaxed from their current δ, queue each lowering and
/// then the mark, then acknowledge.
fn helper(sh: Arc<Shared>, tid: usize) {
    let mut out = Producer { ring: &sh.rings[tid - 1], tail: 0, head: 0 };
    let counts = &sh.counts[tid - 1].0;
    let succ = sh.graph.successors();
    let stride = sh.helpers();
    let mut seen = 0u32;
    loop {
        let t0 = Instant::now();
        let mut spins = 0u32;
        while sh.board.0.epoch.load(Acquire) == seen && !sh.exit.load(Relaxed) {
            // Spin while thread 0 is busy; yield, then nap, once the app is only stepping.
            spins = spins.saturating_add(1);
            if spins < 256 {
                std::hint::spin_loop();
            } else if spins < 20_000 {
                std::thread::yield_now();
            } else {
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
        }
        if sh.exit.load(Relaxed) {
            return;
        }
        seen = sh.board.0.epoch.load(Acquire);
        let t1 = Instant::now();
        let (mut lowered, mut wasted) = (0u64, 0u64);
        for slot in (tid - 1..sh.width).step_by(stride) {
            let x = sh.board.0.window[slot].load(Relaxed);
            if x == NONE {
                break;
            }
            let dx = sh.dist[x as usize].load(Relaxed);
            // A load first: most entries are already taken, and a swap would take the line.
            let claim = &sh.claimed[x as usize];
            if claim.load(Relaxed) == dx || claim.swap(dx, Relaxed) == dx {
                continue;
            }
            for (y, w) in succ.arcs(x) {
                let sum = dx + Distance::from(w);
                if sum >= sh.dist[y as usize].load(Relaxed) {
                    continue;
                }
                let old = sh.dist[y as usize].fetch_min(sum, Relaxed);
                if sum >= old {
                    continue;
                }
                lowered += 1;
                if sh.by_helper[y as usize].load(Relaxed) {
                    wasted += 1;
                } else {
                    sh.by_helper[y as usize].store(true, Relaxed);
                }
                if sh.logging.load(Relaxed) {
                    sh.log.lock().unwrap_or_else(PoisonError::into_inner).push((y, old, sum));
                }
                if !out.push(y, sum, &sh.exit) {
                    return;
                }
            }
            // The lowerings are queued before the mark that lets thread 0 skip x.
            if !out.push(x | MARK, dx, &sh.exit) {
                return;
            }
            out.publish();
            if sh.board.0.epoch.load(Relaxed) != seen {
                break;
            }
        }
        let t2 = Instant::now();
        counts.wait_ns.fetch_add((t1 - t0).as_nanos() as u64, Relaxed);
        counts.busy_ns.fetch_add((t2 - t1).as_nanos() as u64, Relaxed);
        counts.lowered.fetch_add(lowered, Relaxed);
        counts.wasted.fetch_add(wasted, Relaxed);
        sh.acks[tid - 1].0.store(seen, Release);
    }
}

/// Thread 0's measurements (ns and counts, summed since the start).
#[derive(Clone, Copy, Default)]
struct MainCounts {
    busy_ns: u64,
    wait_ns: u64,
    /// Vertices whose arcs a helper had relaxed with their final δ (thread 0 skipped them).
    spared: u64,
    /// Vertices relaxed a second time (δ fell after their first relaxation).
    again: u64,
    /// Helper-lowered δ values thread 0 lowered again.
    wasted: u64,
    scanned: u64,
    lowered: u64,
    folded: u64,
}

/// The stepper: thread 0 is the caller of [`Stepper::step`]; T − 1 helpers live as long as
/// the stepper.
pub struct FoldStepper {
    sh: Arc<Shared>,
    main: Main,
    source: VertexId,
    record_deltas: bool,
    workers: Vec<JoinHandle<()>>,
    current: Option<VertexId>,
    iteration: u32,
    settled: u64,
    /// Sums at the last record (thread 0's and the helpers'), for per-iteration values.
    last: (MainCounts, Vec<ThreadTime>),
}

impl FoldStepper {
    /// A run from `source` on `threads` threads (0 = every core); the caller checks
    /// `source < n`.
    ///
    /// Errors: a helper thread cannot be started.
    fn new(graph: Arc<Graph>, source: VertexId, threads: usize, opts: &SolveOptions) -> Result<Self, SolveError> {
        let threads = if threads == 0 {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        } else {
            threads
        };
        let n = graph.n();
        if n >= MARK as usize {
            return Err(SolveError::Options(format!(
                "helper-fold marks queue entries in a vertex id's top bit: at most {} vertices, the graph has {n}",
                MARK - 1
            )));
        }
        let helpers = threads - 1;
        let dist: Vec<AtomicI64> = (0..n).map(|v| AtomicI64::new(if v == source as usize { 0 } else { INF })).collect();
        let flags = |k: usize| (0..k).map(|_| AtomicBool::new(false)).collect();
        let marks = |k: usize| (0..k).map(|_| AtomicI64::new(-1)).collect();
        let sh = Arc::new(Shared {
            graph,
            dist,
            claimed: marks(if helpers > 0 { n } else { 0 }),
            by_helper: flags(if helpers > 0 { n } else { 0 }),
            board: Padded(Board { window: std::array::from_fn(|_| AtomicU32::new(NONE)), epoch: AtomicU32::new(0) }),
            width: (2 * helpers).min(WINDOW),
            acks: (0..helpers).map(|_| Padded::default()).collect(),
            rings: (0..helpers)
                .map(|_| Ring {
                    slots: (0..RING).map(|_| Slot::default()).collect(),
                    head: Padded::default(),
                    tail: Padded::default(),
                })
                .collect(),
            counts: (0..helpers).map(|_| Padded::default()).collect(),
            exit: AtomicBool::new(false),
            logging: AtomicBool::new(false),
            log: Mutex::new(Vec::new()),
        });
        let mut expanded = vec![INF; n];
        expanded[source as usize] = 0;
        let mut st = FoldStepper {
            sh: Arc::clone(&sh),
            main: Main {
                heap: IndexedHeap::new(n),
                expanded,
                helped: if helpers > 0 { vec![-1; n] } else { Vec::new() },
                key: 0,
                helpers: helpers > 0,
                every: publish_every(),
                iterations: 0,
                counts: MainCounts::default(),
                profile: profiling().then(Profile::default),
            },
            source,
            record_deltas: opts.record_deltas,
            workers: Vec::new(),
            current: Some(source),
            iteration: 0,
            settled: 1,
            last: (MainCounts::default(), Vec::new()),
        };
        for tid in 1..threads {
            let sh = Arc::clone(&sh);
            let h = std::thread::Builder::new()
                .name(format!("helper-fold-{tid}"))
                .spawn(move || helper(sh, tid))
                .map_err(|e| SolveError::Device(format!("cannot start helper {tid} of helper-fold: {e}")))?;
            st.workers.push(h);
        }
        st.last.1 = st.thread_times();
        Ok(st)
    }

    /// One iteration, untimed (see [`Main::advance`]).
    fn advance(&mut self, u: VertexId, log: bool) -> Vec<(VertexId, Distance, Distance)> {
        self.iteration += 1;
        let (next, lowered) = self.main.advance(&self.sh, u, log);
        if let Some(v) = next {
            if self.main.expanded[v as usize] == INF {
                self.settled += 1;
            } else {
                self.main.counts.again += 1;
            }
        }
        self.current = next;
        lowered
    }
}

/// Thread 0's own state: its heap and what it relaxed.
struct Main {
    heap: IndexedHeap,
    /// δ(v) with which v's arcs were last relaxed (by thread 0 or, spared, by a helper); INF:
    /// never.
    expanded: Vec<Distance>,
    /// Thread 0's copy of the helpers' marks: δ(x) with which a helper relaxed every arc of x
    /// (−1: none), from the marks in the queues.
    helped: Vec<Distance>,
    /// The key with which the vertex to relax next was extracted (the δ it is relaxed from).
    key: Distance,
    helpers: bool,
    /// Fold the queues and publish the window every this many iterations (`SSSP_FOLD_EVERY`,
    /// default 1).
    every: u64,
    iterations: u64,
    counts: MainCounts,
    /// Thread 0's time by part (`SSSP_SEED001_PROFILE=1`).
    profile: Option<Profile>,
}

/// Thread 0's time-stamp-counter cycles by part of the iteration: what seed 001's Table 2 splits
/// into the sequential part (ExtractMin) and the parallelisable part (relaxations and
/// DecreaseKey), here with the fold and the window apart.
#[derive(Clone, Copy, Debug, Default)]
struct Profile {
    /// ExtractMin (the pops, stale entries included).
    extract: u64,
    /// DecreaseKey and inserts: thread 0's own lowerings and the folded ones.
    decrease: u64,
    /// Reading u's arcs and δ, lowering δ (without the DecreaseKeys).
    scan: u64,
    /// Reading the helpers' queues and δ of their vertices (without the DecreaseKeys).
    fold: u64,
    /// Publishing the window.
    publish: u64,
}

/// How often thread 0 hands off (`SSSP_FOLD_EVERY=k`: folds the queues and publishes the window
/// every k-th iteration; 1 by default), read once: each publication costs it the board's cache
/// line, each fold a miss on every queue a helper has added to since.
fn publish_every() -> u64 {
    static EVERY: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *EVERY.get_or_init(|| std::env::var("SSSP_FOLD_EVERY").ok().and_then(|v| v.parse().ok()).unwrap_or(1).max(1))
}

/// Whether thread 0 profiles its iterations (`SSSP_SEED001_PROFILE=1`), read once.
fn profiling() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("SSSP_SEED001_PROFILE").is_ok_and(|v| v == "1"))
}

/// The time-stamp counter (cycles); 0 where there is none.
fn tsc() -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: RDTSC has no preconditions on x86-64.
    unsafe {
        std::arch::x86_64::_rdtsc()
    }
    #[cfg(not(target_arch = "x86_64"))]
    0
}

impl Main {
    /// Folds every helper's queue into the heap: a vertex whose δ is below the δ its arcs were
    /// relaxed with goes in (or its key down).
    fn fold(&mut self, sh: &Shared) {
        let t = self.profile.map(|_| tsc());
        let d0 = self.profile.map_or(0, |p| p.decrease);
        for ring in &sh.rings {
            let tail = ring.tail.0.load(Acquire);
            let head = ring.head.0.load(Relaxed);
            if tail == head {
                continue;
            }
            for i in head..tail {
                let slot = &ring.slots[i % RING];
                let (y, d) = (slot.v.load(Relaxed), slot.d.load(Relaxed));
                if y & MARK != 0 {
                    self.helped[(y & !MARK) as usize] = d;
                } else if d < self.expanded[y as usize] {
                    self.decrease(y, d);
                }
            }
            self.counts.folded += (tail - head) as u64;
            ring.head.0.store(tail, Release);
        }
        if let (Some(p), Some(t)) = (self.profile.as_mut(), t) {
            p.fold += (tsc() - t).saturating_sub(p.decrease - d0);
        }
    }

    /// DecreaseKey (or insert) on thread 0's heap, timed when profiling.
    fn decrease(&mut self, v: VertexId, key: Distance) {
        match self.profile.as_mut() {
            None => self.heap.push_or_decrease(v, key),
            Some(p) => {
                let t = tsc();
                self.heap.push_or_decrease(v, key);
                p.decrease += tsc() - t;
            }
        }
    }

    /// The heap is empty: wait until no helper can hold work (folding meanwhile); true if
    /// their lowerings refilled the heap.
    fn drain_helpers(&mut self, sh: &Shared) -> bool {
        if !self.helpers {
            return false;
        }
        let t = Instant::now();
        let e = sh.publish(None);
        while !sh.quiet(e) {
            self.fold(sh);
            std::thread::yield_now();
        }
        self.fold(sh);
        self.counts.wait_ns += t.elapsed().as_nanos() as u64;
        self.heap.len() > 0
    }

    /// One iteration: relax u's arcs from the key it was extracted with (unless a helper did,
    /// from the same δ), fold, extract the next vertex to relax and publish the heap's top;
    /// that vertex, and thread 0's lowerings (v, old, new) when `log`. Thread 0 reads no δ a
    /// helper may have just written except in its own relaxations: a key above δ(u) is a
    /// path's length all the same, and the fold puts u back when its lowering arrives.
    /// Untimed: the callers time it (a clock read per vertex cost more than a vertex's
    /// relaxations in the lock-based `helper`).
    fn advance(
        &mut self,
        sh: &Shared,
        u: VertexId,
        log: bool,
    ) -> (Option<VertexId>, Vec<(VertexId, Distance, Distance)>) {
        let du = self.key;
        self.expanded[u as usize] = du;
        let mut lowered = Vec::new();
        let t = self.profile.map(|_| tsc());
        let d0 = self.profile.map_or(0, |p| p.decrease);
        if self.helpers && self.helped[u as usize] == du {
            self.counts.spared += 1;
        } else {
            for (v, w) in sh.graph.successors().arcs(u) {
                self.counts.scanned += 1;
                let sum = du + Distance::from(w);
                let d = &sh.dist[v as usize];
                let old = d.load(Relaxed);
                if sum >= old {
                    continue;
                }
                // Alone, thread 0 is the only writer: a plain store, as the baseline's.
                let old = if self.helpers {
                    d.fetch_min(sum, Relaxed)
                } else {
                    d.store(sum, Relaxed);
                    old
                };
                if sum < old {
                    self.decrease(v, sum);
                    self.counts.lowered += 1;
                    if self.helpers && sh.by_helper[v as usize].load(Relaxed) {
                        sh.by_helper[v as usize].store(false, Relaxed);
                        self.counts.wasted += 1;
                    }
                    if log {
                        lowered.push((v, old, sum));
                    }
                }
            }
        }
        if let (Some(p), Some(t)) = (self.profile.as_mut(), t) {
            p.scan += (tsc() - t).saturating_sub(p.decrease - d0);
        }
        self.iterations += 1;
        let hand_off = self.iterations.is_multiple_of(self.every);
        let mut first = true;
        let next = loop {
            // Between hand-offs a vertex may be extracted before a lowering in a queue reaches
            // the heap: it is put back when the lowering is folded (see the module's note).
            if hand_off || !first {
                self.fold(sh);
            }
            first = false;
            let t = self.profile.map(|_| tsc());
            let top = self.heap.pop_min();
            if let (Some(p), Some(t)) = (self.profile.as_mut(), t) {
                p.extract += tsc() - t;
            }
            match top {
                Some((key, v)) => {
                    if key < self.expanded[v as usize] {
                        self.key = key;
                        break Some(v);
                    }
                }
                None if self.drain_helpers(sh) => {}
                None => break None,
            }
        };
        if self.helpers && next.is_some() && hand_off {
            let t = self.profile.map(|_| tsc());
            sh.publish(Some(&self.heap));
            if let (Some(p), Some(t)) = (self.profile.as_mut(), t) {
                p.publish += tsc() - t;
            }
        }
        (next, lowered)
    }
}

impl Drop for FoldStepper {
    fn drop(&mut self) {
        self.sh.exit.store(true, Release);
        for h in self.workers.drain(..) {
            let _ = h.join();
        }
    }
}

impl Stepper for FoldStepper {
    fn algorithm(&self) -> Algorithm {
        HELPER_FOLD
    }

    fn device(&self) -> String {
        super::cpu_device(self.workers.len() + 1)
    }

    fn source(&self) -> VertexId {
        self.source
    }

    fn is_done(&self) -> bool {
        self.current.is_none()
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        let Some(u) = self.current else { return Ok(None) };
        let sh = Arc::clone(&self.sh);
        let unsettled = sh.graph.n() as u64 - self.settled;
        sh.logging.store(self.record_deltas, Relaxed);
        let (t0, wait0) = (Instant::now(), self.main.counts.wait_ns);
        let mine = self.advance(u, self.record_deltas);
        let t1 = Instant::now();
        self.main.counts.busy_ns += ((t1 - t0).as_nanos() as u64).saturating_sub(self.main.counts.wait_ns - wait0);
        let times = self.thread_times();
        let m = self.main.counts;
        let (m0, t0s) = std::mem::replace(&mut self.last, (m, times.clone()));
        let sum = |f: fn(&ThreadTime) -> f64, v: &[ThreadTime]| v.iter().map(f).sum::<f64>();
        let all = (sum(ThreadTime::total_ms, &times) - sum(ThreadTime::total_ms, &t0s)).max(1e-9);
        let idle = sum(|t| t.barrier_ms, &times) - sum(|t| t.barrier_ms, &t0s);
        let count = |f: fn(&ThreadTime) -> u64, v: &[ThreadTime]| v.iter().map(f).sum::<u64>();
        let helper_lowered = count(|t| t.helper_lowered, &times) - count(|t| t.helper_lowered, &t0s);
        let helper_wasted = count(|t| t.helper_wasted, &times) - count(|t| t.helper_wasted, &t0s);
        let mut lowered: Vec<(VertexId, Distance, Distance)> = Vec::new();
        if self.record_deltas {
            // Thread 0's lowerings, then the helpers': one entry per vertex, its δ before and now.
            let helpers = std::mem::take(&mut *sh.log.lock().unwrap_or_else(PoisonError::into_inner));
            for (v, old, _) in mine.into_iter().chain(helpers) {
                let new = sh.dist[v as usize].load(Relaxed);
                match lowered.iter_mut().find(|e| e.0 == v) {
                    Some(e) => e.1 = e.1.max(old),
                    None if new < old => lowered.push((v, old, new)),
                    None => {}
                }
            }
        }
        let next = self.current.map_or(INF, |v| sh.dist[v as usize].load(Relaxed));
        let record = IterationRecord {
            iteration: self.iteration,
            frontier: 1,
            unsettled,
            reached: self.main.heap.len() as u64,
            settled: self.settled,
            edges_scanned: m.scanned - m0.scanned,
            relax_attempted: m.scanned - m0.scanned,
            relax_improved: m.lowered - m0.lowered + helper_lowered,
            threads: None,
            times: PhaseTimes { relax_ms: (t1 - t0).as_secs_f64() * 1e3, ..Default::default() },
            values: Values::from_slice(&[
                dist_value(next),
                (idle / all).clamp(0.0, 1.0),
                helper_lowered as f64,
                helper_wasted as f64,
                (m.spared - m0.spared) as f64,
            ]),
        };
        let delta = self.record_deltas.then(|| StepDelta { lowered, settled: self.current.into_iter().collect() });
        Ok(Some(Step { record, delta }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.sh.dist.iter().map(|d| d.load(Relaxed)).collect())
    }

    /// Thread 0 first: its work and its waits for the helpers (as `barrier_ms`), the vertices
    /// helpers spared it and the helper-lowered δ it lowered again; then each helper: its
    /// relaxing, its waits for the next window, its lowerings. No locks: `lock_ms` is 0.
    fn thread_times(&self) -> Vec<ThreadTime> {
        let ms = |ns: u64| ns as f64 * 1e-6;
        let m = &self.main.counts;
        let main = ThreadTime {
            work_ms: ms(m.busy_ns),
            barrier_ms: ms(m.wait_ns),
            helper_wasted: m.wasted,
            spared: m.spared,
            ..Default::default()
        };
        std::iter::once(main)
            .chain(self.sh.counts.iter().map(|c| ThreadTime {
                work_ms: ms(c.0.busy_ns.load(Relaxed)),
                barrier_ms: ms(c.0.wait_ns.load(Relaxed)),
                helper_lowered: c.0.lowered.load(Relaxed),
                helper_wasted: c.0.wasted.load(Relaxed),
                ..Default::default()
            }))
            .collect()
    }

    /// The remaining iterations without records; cancel is read every 4 096 vertices.
    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let (start, wait0) = (Instant::now(), self.main.counts.wait_ns);
        self.sh.logging.store(false, Relaxed);
        while let Some(u) = self.current {
            if self.iteration.is_multiple_of(4096) {
                if cancel.load(Relaxed) {
                    return Err(SolveError::Cancelled);
                }
                progress(self.settled);
            }
            self.advance(u, false);
        }
        let total = start.elapsed().as_nanos() as u64;
        self.main.counts.busy_ns += total.saturating_sub(self.main.counts.wait_ns - wait0);
        self.last = (self.main.counts, self.thread_times());
        let total_ms = total as f64 * 1e-6;
        if let Some(p) = self.main.profile {
            // One line a run, for the call logs (bench/results/cpu-peers-2026-11-26, lease 16).
            let m = &self.main.counts;
            eprintln!(
                "helper-fold profile: n {} threads {} ms {total_ms:.3} wait_ms {:.3} cycles extract {} decrease {} scan {} \
fold {} publish {} spared {} folded {} lowered {} scanned {}",
                self.sh.graph.n(),
                self.workers.len() + 1,
                m.wait_ns as f64 * 1e-6,
                p.extract,
                p.decrease,
                p.scan,
                p.fold,
                p.publish,
                m.spared,
                m.folded,
                m.lowered,
                m.scanned
            );
        }
        let g = &self.sh.graph;
        Ok(RunRecord {
            algorithm: HELPER_FOLD.id().into(),
            device: self.device(),
            graph: g.name.clone(),
            n: g.n(),
            m: g.m(),
            source: self.source,
            iterations: self.iteration,
            total_ms,
            times: PhaseTimes { relax_ms: total_ms, ..Default::default() },
            reached: self.settled,
            records: Vec::new(),
        })
    }
}
