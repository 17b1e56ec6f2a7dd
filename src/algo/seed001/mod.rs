//! Seed 001 (`[seed001]`, Anastopoulos et al., IPDPS 2009): Dijkstra's algorithm on a
//! multicore with locks and with helper threads — the teaching case for why Dijkstra resists
//! parallelism. One iteration extracts the minimum u of the queue and relaxes u's out-arcs.
//!
//! - `cgs-lock` (§2.2, Alg. 2): thread 0 extracts u between two barriers; the T threads then
//!   relax u's arcs cyclically (arc k by thread k mod T), each DecreaseKey under one global lock
//!   on the heap.
//! - `fgs-lock` (§2.2): the same phases, but the heap has a lock per node and a DecreaseKey
//!   locks parent–child pairs as it swaps upwards ([`heap::PairLockedHeap`]), so relaxations
//!   on different parts of the heap proceed in parallel; δ is lowered with an atomic minimum.
//! - `helper` (§2.4, Alg. 4–5): thread 0 runs sequential Dijkstra; helper k (k = 1…T−1) reads
//!   the k-th entry of the queue (ReadMin) and relaxes its arcs with its current δ until thread
//!   0 has finished u's arcs. Thread 0 never waits for a helper: it announces each iteration
//!   (an epoch counter the helpers spin on, or sleep on with `barrier=sleep`) and says "done",
//!   as in the paper, where the main thread aborts the helpers' transactions rather than
//!   meeting them at a barrier. Helper writes that are later lowered again were wasted; the
//!   rest spared thread 0 a DecreaseKey. Thread 0 relaxes every vertex it settles with its
//!   final δ, so the result is exact.
//! - `helper-fold` ([`fold`]): the helpers without a lock — thread 0 owns its heap, helpers lower
//!   δ with atomic minima and hand their lowerings to thread 0 through queues it folds before
//!   each ExtractMin (issue 31's honest next attempt after the lock-based `helper`).
//!
//! The paper used hardware transactional memory for `helper` (and for `cgs-tm` / `fgs-tm`).
//! These machines have none, and no software-TM crate earned its place here (none is widely
//! used or maintained alongside the crates this project depends on): each
//! "transaction" here is a critical section under the heap lock, which gives the same
//! all-or-nothing update of (δ, queue) — helpers stop at the next arc rather than by an abort.
//! Threads meet at real barriers: `barrier=sleep` is `std::sync::Barrier` (a mutex and a
//! condition variable, like the paper's Pthreads barriers), `barrier=spin` (the default) a
//! sense-reversing spin barrier that yields to the OS after a while (so more threads than cores
//! still progress) — the nearest a real machine gets to the paper's zero-latency "perfbar". Every thread records its time in barriers, waiting for locks and working;
//! the records carry the shares, so the plots show where the time goes.

mod baseline;
mod fold;
mod heap;
mod scheme;
mod sync;

use super::{
    Algorithm, AlgorithmSpec, Family, IterationRecord, PhaseTimes, PlotGroup, RunRecord, SeriesSpec, SeriesUnit,
    SolveError, SolveOptions, Step, StepDelta, Stepper, Values, dist_value,
};
use crate::graph::{Distance, Graph, INF, VertexId};
pub use baseline::{BinaryHeapStepper, DIJKSTRA_BHEAP};
pub use fold::{FoldStepper, HELPER_FOLD};
use heap::{IndexedHeap, PairLockedHeap, Waits, lock};
use scheme::{Scheme, code};
use std::sync::atomic::{
    AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering::Acquire, Ordering::Relaxed, Ordering::Release,
};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;
use sync::{Meet, ThreadStats};

/// Coarse-grain locking (`[seed001]` §2.2).
pub const CGS_LOCK: Algorithm = Algorithm(&CGS_LOCK_SPEC);
/// Fine-grain locking of the heap (`[seed001]` §2.2).
pub const FGS_LOCK: Algorithm = Algorithm(&FGS_LOCK_SPEC);
/// Helper threads (`[seed001]` §2.4).
pub const HELPER: Algorithm = Algorithm(&HELPER_SPEC);

const ITERATION: &str = "relax the out-arcs of the vertex settled last (shared among the threads, or by thread 0 \
while helpers relax the arcs of the next queue entries), then extract the queue's minimum and settle it";

static SERIES: [SeriesSpec; 6] = [
    SeriesSpec {
        key: "delta",
        label: "δ extracted",
        help: "δ of the vertex extracted (and settled) at the end of this iteration",
        unit: SeriesUnit::Distance,
        group: PlotGroup::Thresholds,
    },
    SeriesSpec {
        key: "barrier_share",
        label: "barrier share",
        help: "thread time spent waiting at barriers / all thread time since the last record (seed 001 Fig. 2: \
71 % at 4 threads)",
        unit: SeriesUnit::Ratio,
        group: PlotGroup::Threads,
    },
    SeriesSpec {
        key: "lock_share",
        label: "lock-wait share",
        help: "thread time spent waiting for a lock held by another thread / all thread time",
        unit: SeriesUnit::Ratio,
        group: PlotGroup::Threads,
    },
    SeriesSpec {
        key: "lock_contended",
        label: "lock contended",
        help: "lock acquisitions this iteration that found the lock held by another thread (the heap lock; \
fgs-lock: any node lock)",
        unit: SeriesUnit::Count,
        group: PlotGroup::Work,
    },
    SeriesSpec {
        key: "helper_lowered",
        label: "helper lowered",
        help: "δ values lowered by helper threads this iteration",
        unit: SeriesUnit::Count,
        group: PlotGroup::Work,
    },
    SeriesSpec {
        key: "helper_wasted",
        label: "helper wasted",
        help: "helper-lowered δ values lowered again this iteration (the helper had relaxed from a δ that was not \
final)",
        unit: SeriesUnit::Count,
        group: PlotGroup::Work,
    },
];

/// Which barrier the threads meet at.
static PARAMS: [super::ParamSpec; 1] = [super::ParamSpec {
    key: "barrier",
    label: "Barrier",
    help: "spin: a sense-reversing spin barrier (yields after 256 spins), the nearest to seed 001's zero-latency \
'perfbar'; sleep: std::sync::Barrier (mutex + condition variable), like the paper's Pthreads barriers",
    kind: super::ParamKind::Choice { values: &["spin", "sleep"], default: "spin" },
}];

macro_rules! seed001_spec {
    ($name:ident, $id:literal, $display:literal, $summary:literal, $reference:literal, $scheme:expr) => {
        #[doc = $summary]
        pub static $name: AlgorithmSpec = AlgorithmSpec {
            id: $id,
            name: $display,
            summary: $summary,
            reference: $reference,
            iteration: ITERATION,
            family: Family::Sequential,
            params: &PARAMS,
            series: &SERIES,
            code: |_| code($scheme),
            finished: "u = none",
            exact: |_| true,
            cpu: |g, a, s, o| Ok(Box::new(LockStepper::new(g, a, $scheme, s, 1, o)?)),
            negative_weights: false,
            cpu_parallel: Some(|g, a, s, t, o| Ok(Box::new(LockStepper::new(g, a, $scheme, s, t, o)?))),
        };
    };
}

seed001_spec!(
    CGS_LOCK_SPEC,
    "cgs-lock",
    "Dijkstra, coarse-grain lock",
    "Dijkstra; u's arcs relaxed by all threads, one lock on the heap, barriers",
    "[seed001] §2.2 Alg. 2 (cgs-lock)",
    Scheme::Cgs
);
seed001_spec!(
    FGS_LOCK_SPEC,
    "fgs-lock",
    "Dijkstra, fine-grain locks",
    "Dijkstra; u's arcs relaxed by all threads, a lock per heap node, barriers",
    "[seed001] §2.2 (fgs-lock)",
    Scheme::Fgs
);
seed001_spec!(
    HELPER_SPEC,
    "helper",
    "Dijkstra with helper threads",
    "Dijkstra on thread 0; helpers relax the arcs of the next queue entries",
    "[seed001] §2.4 Alg. 4-5 (helper threads; locks instead of TM)",
    Scheme::Helper
);

/// The device label of a run on `threads` CPU threads: "CPU (1 thread)", "CPU (4 threads)".
fn cpu_device(threads: usize) -> String {
    format!("CPU ({threads} thread{})", if threads == 1 { "" } else { "s" })
}

/// State every thread of a run shares.
struct Shared {
    graph: Arc<Graph>,
    scheme: Scheme,
    threads: usize,
    dist: Vec<AtomicI64>,
    heap: Mutex<IndexedHeap>,
    fine: Option<PairLockedHeap>,
    /// Whether the last lowering of δ(v) was a helper's (to count wasted helper work).
    by_helper: Vec<AtomicBool>,
    current: AtomicU32,
    /// Helper writes (vertex, old δ, new δ) of this step, kept while the app records deltas.
    logging: AtomicBool,
    log: Mutex<Vec<(VertexId, Distance, Distance)>>,
    done: AtomicBool,
    exit: AtomicBool,
    /// `helper`: iterations announced so far; helpers wait for it to move, thread 0 never waits.
    epoch: AtomicU64,
    /// `helper` with `barrier=sleep`: where helpers sleep until the epoch moves.
    wake: Option<(Mutex<()>, Condvar)>,
    /// `helper`: per thread, the last epoch whose measurements it has recorded.
    finished: Vec<AtomicU64>,
    start: Meet,
    end: Meet,
    stats: Vec<Mutex<ThreadStats>>,
}

impl Shared {
    /// Lowers δ(v) to `sum` if that is lower, keeping the queue in step; true if lowered.
    fn lower(&self, v: VertexId, sum: Distance, waits: &mut Waits) -> bool {
        match &self.fine {
            Some(fine) => {
                if sum < self.dist[v as usize].fetch_min(sum, Relaxed) {
                    fine.push_or_decrease(v, sum, waits);
                    return true;
                }
                false
            }
            None => {
                let mut h = lock(&self.heap, waits);
                if sum < self.dist[v as usize].load(Relaxed) {
                    self.dist[v as usize].store(sum, Relaxed);
                    h.push_or_decrease(v, sum);
                    return true;
                }
                false
            }
        }
    }

    /// Thread `tid`'s part of the relax phase; returns what it did.
    fn relax(&self, tid: usize) -> ThreadStats {
        let t0 = Instant::now();
        let mut s = ThreadStats::default();
        let mut waits: Waits = (0, 0);
        let succ = self.graph.successors();
        if self.scheme == Scheme::Helper && tid > 0 {
            self.help(tid, &mut s, &mut waits);
        } else {
            let u = self.current.load(Relaxed);
            let du = self.dist[u as usize].load(Relaxed);
            let step = if self.scheme == Scheme::Helper { 1 } else { self.threads };
            for (v, w) in succ.arcs(u).skip(tid).step_by(step) {
                s.scanned += 1;
                let sum = du + Distance::from(w);
                if sum < self.dist[v as usize].load(Relaxed) {
                    s.attempted += 1;
                    if self.lower(v, sum, &mut waits) {
                        s.lowered += 1;
                        if self.scheme == Scheme::Helper && self.by_helper[v as usize].swap(false, Relaxed) {
                            s.helper_wasted += 1;
                        }
                    }
                }
            }
            if self.scheme == Scheme::Helper {
                self.done.store(true, Relaxed);
            }
        }
        (s.contended, s.lock_ns) = waits;
        s.busy_ns = (t0.elapsed().as_nanos() as u64).saturating_sub(s.lock_ns);
        s
    }

    /// Helper `tid` (Alg. 5): relax the arcs of the tid-th queue entry with its current δ, one
    /// critical section per arc, until thread 0 says done.
    fn help(&self, tid: usize, s: &mut ThreadStats, waits: &mut Waits) {
        let Some(x) = lock(&self.heap, waits).at(tid - 1) else { return };
        for (y, w) in self.graph.successors().arcs(x) {
            if self.done.load(Relaxed) || self.exit.load(Relaxed) {
                return;
            }
            let mut h = lock(&self.heap, waits);
            if self.done.load(Relaxed) {
                return;
            }
            s.scanned += 1;
            let sum = self.dist[x as usize].load(Relaxed) + Distance::from(w);
            let old = self.dist[y as usize].load(Relaxed);
            if sum < old {
                s.attempted += 1;
                if self.logging.load(Relaxed) {
                    lock(&self.log, waits).push((y, old, sum));
                }
                self.dist[y as usize].store(sum, Relaxed);
                h.push_or_decrease(y, sum);
                s.helper_lowered += 1;
                if self.by_helper[y as usize].swap(true, Relaxed) {
                    s.helper_wasted += 1;
                }
            }
        }
    }

    /// Reached, unsettled vertices: the queue's length.
    fn queue_len(&self) -> usize {
        match &self.fine {
            Some(f) => f.len(),
            None => lock(&self.heap, &mut (0, 0)).len(),
        }
    }

    fn pop_min(&self) -> Option<(Distance, VertexId)> {
        match &self.fine {
            Some(f) => f.pop_min(),
            None => lock(&self.heap, &mut (0, 0)).pop_min(),
        }
    }

    /// `helper`, thread 0: announce the next iteration to the helpers.
    fn next_epoch(&self) {
        match &self.wake {
            Some((m, cv)) => {
                let _g = lock(m, &mut (0, 0));
                self.epoch.fetch_add(1, Release);
                cv.notify_all();
            }
            None => {
                self.epoch.fetch_add(1, Release);
            }
        }
    }

    /// `helper`, a helper: wait until the epoch differs from `seen` (or the run ends); the new
    /// epoch.
    fn await_epoch(&self, seen: u64) -> u64 {
        let moved = || self.epoch.load(Acquire) != seen || self.exit.load(Acquire);
        match &self.wake {
            Some((m, cv)) => {
                let mut g = lock(m, &mut (0, 0));
                while !moved() {
                    g = cv.wait(g).unwrap_or_else(std::sync::PoisonError::into_inner);
                }
            }
            None => {
                let mut spins = 0u32;
                while !moved() {
                    if spins < 256 {
                        spins += 1;
                        std::hint::spin_loop();
                    } else {
                        std::thread::yield_now();
                    }
                }
            }
        }
        self.epoch.load(Acquire)
    }

    /// `helper`, thread 0: wait until every helper has recorded the current epoch.
    fn await_helpers(&self) {
        let epoch = self.epoch.load(Acquire);
        for f in &self.finished[1..] {
            while f.load(Acquire) < epoch {
                std::thread::yield_now();
            }
        }
    }

    fn record(&self, tid: usize, s: &ThreadStats, barrier_ns: u64) {
        let mut st = lock(&self.stats[tid], &mut (0, 0));
        st.add(s);
        st.barrier_ns += barrier_ns;
    }
}

/// Worker `tid` ≥ 1: wait for thread 0's extraction, do its share and record it, meet at the
/// end barrier. The wait at the end barrier and the next start barrier counts for the next
/// iteration, so every iteration's work is recorded before thread 0 reads it.
fn worker(sh: Arc<Shared>, tid: usize) {
    if sh.scheme == Scheme::Helper {
        return helper(sh, tid);
    }
    let mut t = Instant::now();
    sh.start.wait();
    loop {
        let waited = t.elapsed().as_nanos() as u64;
        if sh.exit.load(Relaxed) {
            return;
        }
        let s = sh.relax(tid);
        sh.record(tid, &s, waited);
        t = Instant::now();
        sh.end.wait();
        sh.start.wait();
    }
}

/// Helper `tid`: wait for thread 0 to announce an iteration, help, record; thread 0 never
/// waits for it (a helper late for an iteration helps the next one, with the queue as it is).
fn helper(sh: Arc<Shared>, tid: usize) {
    let mut seen = 0;
    loop {
        let t = Instant::now();
        seen = sh.await_epoch(seen);
        let waited = t.elapsed().as_nanos() as u64;
        if sh.exit.load(Acquire) {
            return;
        }
        let s = sh.relax(tid);
        sh.record(tid, &s, waited);
        sh.finished[tid].store(seen, Release);
    }
}

/// The stepper of the three schemes: thread 0 is the caller of [`Stepper::step`]; T − 1
/// worker threads live as long as the stepper.
pub struct LockStepper {
    sh: Arc<Shared>,
    algo: Algorithm,
    params: super::Params,
    source: VertexId,
    record_deltas: bool,
    workers: Vec<JoinHandle<()>>,
    iteration: u32,
    settled: u64,
    /// The vertex settled last, whose arcs the next step relaxes (`None`: finished).
    current: Option<VertexId>,
    /// Sums over all threads at the last record, to report per-iteration shares.
    last: ThreadStats,
}

impl LockStepper {
    /// A run of `scheme` from `source` on `threads` threads (0 = every core).
    ///
    /// Errors: a worker thread cannot be started.
    fn new(
        graph: Arc<Graph>,
        algo: Algorithm,
        scheme: Scheme,
        source: VertexId,
        threads: usize,
        opts: &SolveOptions,
    ) -> Result<Self, SolveError> {
        let threads = if threads == 0 {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        } else {
            threads
        };
        let spin = algo.choice(&opts.params, "barrier") != "sleep";
        let n = graph.n();
        // The source is settled from the start (δ = 0): the queues begin empty.
        let heap = IndexedHeap::new(n);
        let fine = (scheme == Scheme::Fgs).then(|| PairLockedHeap::new(n));
        let dist: Vec<AtomicI64> = (0..n).map(|v| AtomicI64::new(if v == source as usize { 0 } else { INF })).collect();
        let sh = Arc::new(Shared {
            graph,
            scheme,
            threads,
            dist,
            heap: Mutex::new(heap),
            fine,
            by_helper: (0..if scheme == Scheme::Helper { n } else { 0 }).map(|_| AtomicBool::new(false)).collect(),
            current: AtomicU32::new(source),
            logging: AtomicBool::new(false),
            log: Mutex::new(Vec::new()),
            done: AtomicBool::new(false),
            exit: AtomicBool::new(false),
            epoch: AtomicU64::new(0),
            wake: (scheme == Scheme::Helper && !spin).then(|| (Mutex::new(()), Condvar::new())),
            finished: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            start: Meet::new(threads, spin),
            end: Meet::new(threads, spin),
            stats: (0..threads).map(|_| Mutex::new(ThreadStats::default())).collect(),
        });
        let mut st = LockStepper {
            sh: Arc::clone(&sh),
            algo,
            params: opts.params.clone(),
            source,
            record_deltas: opts.record_deltas,
            workers: Vec::new(),
            iteration: 0,
            settled: 1,
            current: Some(source),
            last: ThreadStats::default(),
        };
        for tid in 1..threads {
            let sh = Arc::clone(&sh);
            let h = std::thread::Builder::new()
                .name(format!("{}-{tid}", algo.id()))
                .spawn(move || worker(sh, tid))
                .map_err(|e| SolveError::Device(format!("cannot start thread {tid} of {algo}: {e}")))?;
            st.workers.push(h);
        }
        Ok(st)
    }

    /// Per-thread totals so far (busy, barrier and lock-wait ns, counts), thread 0 first.
    /// One iteration without its record: relax u's out-arcs (shared among the threads as the
    /// scheme says) and settle the queue's minimum; that minimum (δ, v) and the phase times.
    fn advance(&mut self, u: VertexId) -> (Option<(Distance, VertexId)>, PhaseTimes) {
        let sh = &self.sh;
        self.iteration += 1;
        sh.current.store(u, Relaxed);
        sh.done.store(false, Relaxed);
        let t1 = Instant::now();
        let helpers = sh.scheme == Scheme::Helper;
        if helpers {
            sh.next_epoch();
        } else {
            sh.start.wait();
        }
        let waited = t1.elapsed().as_nanos() as u64;
        let mut s = sh.relax(0);
        let t2 = Instant::now();
        if !helpers {
            sh.end.wait();
        }
        let t3 = Instant::now();
        // Alone, thread 0 waits for nobody: what the clock saw there is its own overhead.
        let barrier_ns = if sh.threads > 1 { waited + (t3 - t2).as_nanos() as u64 } else { 0 };
        let next = sh.pop_min();
        let t4 = Instant::now();
        s.busy_ns += (t4 - t3).as_nanos() as u64;
        sh.record(0, &s, barrier_ns);
        if helpers && next.is_none() {
            // The last iteration: let every helper record it (the queue is empty, so each
            // returns at once) so that the run's totals are complete.
            sh.await_helpers();
        }
        self.current = next.map(|(_, v)| v);
        self.settled += u64::from(next.is_some());
        let times = PhaseTimes {
            relax_ms: (t3 - t1).as_secs_f64() * 1e3,
            minimum_ms: (t4 - t3).as_secs_f64() * 1e3,
            update_ms: 0.0,
            copy_ms: 0.0,
        };
        (next, times)
    }

    fn totals(&self) -> ThreadStats {
        let mut t = ThreadStats::default();
        for s in &self.sh.stats {
            t.add(&lock(s, &mut (0, 0)));
        }
        t
    }
}

impl Drop for LockStepper {
    fn drop(&mut self) {
        self.sh.exit.store(true, Release);
        if self.sh.scheme == Scheme::Helper {
            self.sh.next_epoch();
        } else if !self.workers.is_empty() {
            self.sh.start.wait();
        }
        for h in self.workers.drain(..) {
            let _ = h.join();
        }
    }
}

impl Stepper for LockStepper {
    fn algorithm(&self) -> Algorithm {
        self.algo
    }

    fn label(&self) -> String {
        super::run_label(self.algo, &self.params)
    }

    fn device(&self) -> String {
        cpu_device(self.sh.threads)
    }

    fn source(&self) -> VertexId {
        self.source
    }

    fn is_done(&self) -> bool {
        self.current.is_none()
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        // As `dijkstra`'s stepper: iteration i relaxes the out-arcs of the vertex settled last
        // (the source first) and extracts the next minimum, which it settles.
        let Some(u) = self.current else { return Ok(None) };
        let sh = Arc::clone(&self.sh);
        let unsettled = sh.graph.n() as u64 - self.settled;
        let before: Vec<Distance> = if self.record_deltas {
            sh.graph.successors().arcs(u).map(|(v, _)| sh.dist[v as usize].load(Relaxed)).collect()
        } else {
            Vec::new()
        };
        sh.logging.store(self.record_deltas, Relaxed);
        let (next, times) = self.advance(u);
        let now = self.totals();
        let d = now.minus(&self.last);
        self.last = now;
        let all = (d.busy_ns + d.barrier_ns + d.lock_ns).max(1) as f64;
        let mut lowered: Vec<(VertexId, Distance, Distance)> = Vec::new();
        if self.record_deltas {
            // u's arcs (thread 0 and the workers), then the helpers' writes; one entry per vertex
            // with its δ before the step and now.
            let helpers = std::mem::take(&mut *lock(&sh.log, &mut (0, 0)));
            let arcs = sh.graph.successors().arcs(u).map(|(v, _)| v).zip(before);
            for (v, old) in arcs.chain(helpers.into_iter().map(|(v, old, _)| (v, old))) {
                let new = sh.dist[v as usize].load(Relaxed);
                match lowered.iter_mut().find(|e| e.0 == v) {
                    Some(e) => e.1 = e.1.max(old),
                    None if new < old => lowered.push((v, old, new)),
                    None => {}
                }
            }
        }
        let record = IterationRecord {
            iteration: self.iteration,
            frontier: 1,
            unsettled,
            reached: sh.queue_len() as u64,
            settled: self.settled,
            edges_scanned: d.scanned,
            relax_attempted: d.attempted,
            relax_improved: d.lowered + d.helper_lowered,
            threads: None,
            times,
            values: Values::from_slice(&[
                dist_value(next.map_or(INF, |(d, _)| d)),
                d.barrier_ns as f64 / all,
                d.lock_ns as f64 / all,
                d.contended as f64,
                d.helper_lowered as f64,
                d.helper_wasted as f64,
            ]),
        };
        let delta = self.record_deltas.then(|| StepDelta { lowered, settled: self.current.into_iter().collect() });
        Ok(Some(Step { record, delta }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.sh.dist.iter().map(|d| d.load(Relaxed)).collect())
    }

    fn thread_times(&self) -> Vec<super::ThreadTime> {
        let ms = |ns: u64| ns as f64 * 1e-6;
        self.sh
            .stats
            .iter()
            .map(|s| {
                let s = *lock(s, &mut (0, 0));
                super::ThreadTime {
                    work_ms: ms(s.busy_ns),
                    barrier_ms: ms(s.barrier_ns),
                    lock_ms: ms(s.lock_ns),
                    contended: s.contended,
                    helper_lowered: s.helper_lowered,
                    helper_wasted: s.helper_wasted,
                    spared: 0,
                }
            })
            .collect()
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        // No per-iteration records (like a fast GPU run): reading every thread's totals and
        // building a record each iteration cost more than a vertex's relaxations.
        let start = Instant::now();
        let graph = Arc::clone(&self.sh.graph);
        let mut run = RunRecord {
            algorithm: self.label(),
            device: self.device(),
            graph: graph.name.clone(),
            n: graph.n(),
            m: graph.m(),
            source: self.source,
            ..Default::default()
        };
        self.sh.logging.store(false, Relaxed);
        let mut k = 0u64;
        while let Some(u) = self.current {
            if k.is_multiple_of(256) {
                if cancel.load(Relaxed) {
                    return Err(SolveError::Cancelled);
                }
                progress(self.settled);
            }
            k += 1;
            let (_, times) = self.advance(u);
            run.times.add(&times);
        }
        self.last = self.totals();
        run.total_ms = start.elapsed().as_secs_f64() * 1e3;
        run.iterations = self.iteration;
        run.reached = self.settled;
        Ok(run)
    }
}
