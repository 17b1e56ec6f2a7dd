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
//!   0 has finished u's arcs. Helper writes that are later lowered again were wasted; the rest
//!   spared thread 0 a DecreaseKey. Thread 0 relaxes every vertex it settles with its final δ,
//!   so the result is exact.
//!
//! The paper used hardware transactional memory for `helper` (and for `cgs-tm` / `fgs-tm`).
//! These machines have none, and no maintained software-TM crate for Rust exists: each
//! "transaction" here is a critical section under the heap lock, which gives the same
//! all-or-nothing update of (δ, queue) — helpers stop at the next arc rather than by an abort.
//! Threads meet at real `std::sync::Barrier`s (the paper's Pthreads barriers, not its
//! "perfect" ones). Every thread records its time in barriers, waiting for locks and working;
//! the records carry the shares, so the plots show where the time goes.

mod heap;

use super::{
    Algorithm, AlgorithmSpec, Family, IterationRecord, Phase, PhaseTimes, PlotGroup, RunRecord, SeriesSpec, SeriesUnit,
    SolveError, SolveOptions, Step, StepDelta, Stepper, Values, dist_value,
};
use crate::graph::{Distance, Graph, INF, VertexId};
use heap::{IndexedHeap, PairLockedHeap, Waits, lock};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, Ordering::Relaxed};
use std::sync::{Arc, Barrier, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

/// Coarse-grain locking (`[seed001]` §2.2).
pub const CGS_LOCK: Algorithm = Algorithm(&CGS_LOCK_SPEC);
/// Fine-grain locking of the heap (`[seed001]` §2.2).
pub const FGS_LOCK: Algorithm = Algorithm(&FGS_LOCK_SPEC);
/// Helper threads (`[seed001]` §2.4).
pub const HELPER: Algorithm = Algorithm(&HELPER_SPEC);

const ITERATION: &str = "extract the minimum u of the queue, relax u's out-arcs (shared among the threads, or by \
thread 0 while helpers relax the arcs of the next queue entries)";

static SERIES: [SeriesSpec; 5] = [
    SeriesSpec {
        key: "delta",
        label: "δ extracted",
        help: "δ of the vertex extracted this iteration",
        unit: SeriesUnit::Distance,
        group: PlotGroup::Thresholds,
    },
    SeriesSpec {
        key: "barrier_share",
        label: "share in barriers",
        help: "thread time spent waiting at barriers / all thread time since the last record (seed 001 Fig. 2: \
71 % at 4 threads)",
        unit: SeriesUnit::Ratio,
        group: PlotGroup::Threads,
    },
    SeriesSpec {
        key: "lock_share",
        label: "share waiting for locks",
        help: "thread time spent waiting for a lock held by another thread / all thread time",
        unit: SeriesUnit::Ratio,
        group: PlotGroup::Threads,
    },
    SeriesSpec {
        key: "helper_lowered",
        label: "helper relaxations",
        help: "δ values lowered by helper threads this iteration",
        unit: SeriesUnit::Count,
        group: PlotGroup::Work,
    },
    SeriesSpec {
        key: "helper_wasted",
        label: "helper work wasted",
        help: "helper-lowered δ values lowered again this iteration (the helper had relaxed from a δ that was not \
final)",
        unit: SeriesUnit::Count,
        group: PlotGroup::Work,
    },
];

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
            params: &[],
            series: &SERIES,
            code: |_| code($scheme),
            finished: "Q = ∅",
            exact: |_| true,
            cpu: |g, _, s, o| Ok(Box::new(LockStepper::new(g, $scheme, s, 1, o)?)),
            negative_weights: false,
            cpu_parallel: Some(|g, _, s, t, o| Ok(Box::new(LockStepper::new(g, $scheme, s, t, o)?))),
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

/// How the threads share an iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scheme {
    Cgs,
    Fgs,
    Helper,
}

fn code(scheme: Scheme) -> Vec<super::CodeLine> {
    let mut lines = vec![(Phase::Init, "δ(s) ← 0; δ(v) ← ∞ (v ≠ s); Q ← {s}"), (Phase::Loop, "while Q ≠ ∅ do")];
    match scheme {
        Scheme::Cgs | Scheme::Fgs => {
            lines.push((Phase::Minimum, "  barrier; thread 0: u ← ExtractMin(Q); barrier"));
            lines.push((Phase::Relax, "  for (u,v,w), arc k by thread k mod T, in parallel:"));
            lines.push(if scheme == Scheme::Cgs {
                (Phase::Relax, "    lock(Q); if δ(u)+w < δ(v): DecreaseKey(Q,v); unlock")
            } else {
                (Phase::Relax, "    if δ(u)+w < atomicMin(δ(v)): DecreaseKey (node-pair locks)")
            });
        }
        Scheme::Helper => {
            lines.push((Phase::Minimum, "  thread 0: u ← ExtractMin(Q); done ← 0"));
            lines.push((Phase::Relax, "  thread 0: relax (u,v,w) under lock(Q); done ← 1"));
            lines.push((Phase::Relax, "  helper k: x ← ReadMin(Q,k); relax x's arcs until done"));
        }
    }
    lines.push((Phase::Update, "  u is settled"));
    lines
}

/// What one thread measured, summed since the stepper started (ns and counts).
#[derive(Clone, Copy, Debug, Default)]
struct ThreadStats {
    busy_ns: u64,
    barrier_ns: u64,
    lock_ns: u64,
    contended: u64,
    scanned: u64,
    attempted: u64,
    lowered: u64,
    helper_lowered: u64,
    helper_wasted: u64,
}

impl ThreadStats {
    fn minus(mut self, o: &ThreadStats) -> ThreadStats {
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

    fn add(&mut self, o: &ThreadStats) {
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
    done: AtomicBool,
    exit: AtomicBool,
    start: Barrier,
    end: Barrier,
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
            if self.done.load(Relaxed) {
                return;
            }
            let mut h = lock(&self.heap, waits);
            if self.done.load(Relaxed) {
                return;
            }
            s.scanned += 1;
            let sum = self.dist[x as usize].load(Relaxed) + Distance::from(w);
            if sum < self.dist[y as usize].load(Relaxed) {
                s.attempted += 1;
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

/// The stepper of the three schemes: thread 0 is the caller of [`Stepper::step`]; T − 1
/// worker threads live as long as the stepper.
pub struct LockStepper {
    sh: Arc<Shared>,
    algo: Algorithm,
    source: VertexId,
    record_deltas: bool,
    workers: Vec<JoinHandle<()>>,
    iteration: u32,
    settled: u64,
    done: bool,
    /// Sums over all threads at the last record, to report per-iteration shares.
    last: ThreadStats,
}

impl LockStepper {
    /// A run of `scheme` from `source` on `threads` threads (0 = every core).
    ///
    /// Errors: a worker thread cannot be started.
    fn new(
        graph: Arc<Graph>,
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
        let n = graph.n();
        let mut heap = IndexedHeap::new(n);
        heap.push_or_decrease(source, 0);
        let fine = (scheme == Scheme::Fgs).then(|| {
            let f = PairLockedHeap::new(n);
            f.push_or_decrease(source, 0, &mut (0, 0));
            f
        });
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
            done: AtomicBool::new(false),
            exit: AtomicBool::new(false),
            start: Barrier::new(threads),
            end: Barrier::new(threads),
            stats: (0..threads).map(|_| Mutex::new(ThreadStats::default())).collect(),
        });
        let algo = match scheme {
            Scheme::Cgs => CGS_LOCK,
            Scheme::Fgs => FGS_LOCK,
            Scheme::Helper => HELPER,
        };
        let mut st = LockStepper {
            sh: Arc::clone(&sh),
            algo,
            source,
            record_deltas: opts.record_deltas,
            workers: Vec::new(),
            iteration: 0,
            settled: 0,
            done: false,
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
        self.sh.exit.store(true, Relaxed);
        if !self.workers.is_empty() {
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

    fn device(&self) -> String {
        let t = self.sh.threads;
        format!("CPU ({t} thread{})", if t == 1 { "" } else { "s" })
    }

    fn source(&self) -> VertexId {
        self.source
    }

    fn is_done(&self) -> bool {
        self.done
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        if self.done {
            return Ok(None);
        }
        let sh = Arc::clone(&self.sh);
        let t0 = Instant::now();
        let Some((du, u)) = sh.pop_min() else {
            self.done = true;
            return Ok(None);
        };
        self.iteration += 1;
        self.settled += 1;
        let unsettled = sh.graph.n() as u64 - self.settled + 1;
        sh.current.store(u, Relaxed);
        sh.done.store(false, Relaxed);
        let before: Vec<Distance> = if self.record_deltas {
            sh.graph.successors().arcs(u).map(|(v, _)| sh.dist[v as usize].load(Relaxed)).collect()
        } else {
            Vec::new()
        };
        let t1 = Instant::now();
        sh.start.wait();
        let waited = t1.elapsed().as_nanos() as u64;
        let s = sh.relax(0);
        let t2 = Instant::now();
        sh.end.wait();
        let t3 = Instant::now();
        sh.record(0, &s, waited + (t3 - t2).as_nanos() as u64);
        let now = self.totals();
        let d = now.minus(&self.last);
        self.last = now;
        let all = (d.busy_ns + d.barrier_ns + d.lock_ns).max(1) as f64;
        let mut lowered = Vec::new();
        if self.record_deltas {
            for ((v, _), old) in sh.graph.successors().arcs(u).zip(before) {
                let new = sh.dist[v as usize].load(Relaxed);
                if new < old && !lowered.iter().any(|&(x, _, _)| x == v) {
                    lowered.push((v, old, new));
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
            times: PhaseTimes {
                relax_ms: (t3 - t1).as_secs_f64() * 1e3,
                minimum_ms: (t1 - t0).as_secs_f64() * 1e3,
                update_ms: 0.0,
                copy_ms: 0.0,
            },
            values: Values::from_slice(&[
                dist_value(du),
                d.barrier_ns as f64 / all,
                d.lock_ns as f64 / all,
                d.helper_lowered as f64,
                d.helper_wasted as f64,
            ]),
        };
        let delta = self.record_deltas.then(|| StepDelta { lowered, settled: vec![u] });
        Ok(Some(Step { record, delta }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.sh.dist.iter().map(|d| d.load(Relaxed)).collect())
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let deltas = std::mem::replace(&mut self.record_deltas, false);
        let graph = Arc::clone(&self.sh.graph);
        let run = super::run_by_steps(self, &graph, cancel, progress);
        self.record_deltas = deltas;
        let mut run = run?;
        run.iterations = self.iteration;
        run.reached = self.settled;
        Ok(run)
    }
}
