//! Frontier solvers on all CPU cores (rayon): the same three phases and the same records as
//! [`super::FrontierStepper`], with the relax, minimum and update phases data-parallel.
//!
//! - relax (successors): frontier arcs in parallel, `AtomicI64::fetch_min` on δ — the CPU twin
//!   of the GPU's atomicMin (seed 000 Alg. 2). `racy` replaces it with a plain load, compare
//!   and store, so concurrent writers can lose the smaller value (seed 004 §4.3) on a
//!   multi-core CPU as well as on a GPU. On small frontiers the threads relax in lockstep
//!   rounds, as a warp does ([`ParallelFrontierStepper::relax_racy_rounds`]), so the race shows
//!   on seed 004's counterexample too, not only on frontiers big enough for the pool.
//! - relax (predecessors): every unsettled vertex with a frontier in-neighbour pulls in
//!   parallel; each δ has one writer, so no atomics are needed for the minimum.
//! - minimum/update: a parallel reduction and partition over the *active* set (reached and
//!   unsettled vertices) instead of all n, which is what keeps road networks fast.
//!
//! A phase goes to the pool only when it has enough work: the relax phase from 4096 vertices
//! plus arcs (frontier arcs; for predecessors the candidates' in-arcs), minimum and update from
//! 32 768 active vertices. Below that the same per-item closures run as a plain fold on the
//! calling thread, without `install` (a wake-up and a wait costing tens of µs). On a 2-core
//! machine the relax cutoff was flat between 1024 and 16 384 and the scan cutoff flat from
//! 32 768 up (fan-out, R-MAT, Martín graphs); lower scan cutoffs lost up to 1.5×. More cores
//! should favour lower cutoffs; these were not measured there.
//!
//! Where it loses (2 cores, medians): Martín on road networks (NY: 227 575 iterations, |F| ≈ 1,
//! ~390 active) is 2.6× slower than one thread (282 vs 107 ms; 16.4 s when every phase forked),
//! because each iteration scans the active set where [`super::FrontierStepper`] pops a heap.
//! Crauser on NY and every algorithm on small fan-out graphs (n = 24 576, d = 2) now run on the
//! caller, level with or faster than one thread (NY crauser-succ 29 vs 46 ms, was 480 ms); big
//! frontiers (fan-out n = 98 304, d = 200) stay on the pool, ~2.5× faster than one thread.

use super::frontier_common::{FrontierParams, LaunchFigures, decode};
use super::{
    Algorithm, PhaseTimes, RelaxVariant, RunRecord, SolveError, SolveOptions, Step, StepDelta, Stepper, Threshold,
    Thresholds,
};
use crate::graph::{Csr, Distance, Graph, INF, VertexId};
use rayon::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU8, AtomicU32, Ordering::Relaxed};
use std::time::Instant;

/// A relax phase visiting fewer vertices plus arcs than this runs on the calling thread: a
/// fork-join on the pool costs tens of µs (wake the workers, wait for the last one), about what
/// one thread needs for a few thousand arcs. Measured in the module docs.
const RELAX_CUTOFF: usize = 4096;
/// The same for the minimum and update scans over the active set; each item is one δ read (and
/// ω for the minimum), several times cheaper than an arc, so the break-even is later.
const SCAN_CUTOFF: usize = 32_768;

/// Per-vertex flags.
const SETTLED: u8 = 1;
const IN_FRONTIER: u8 = 2;

/// Multi-core frontier stepper for `martin-*`, `crauser-*` and `racy`.
pub struct ParallelFrontierStepper {
    graph: Arc<Graph>,
    pool: rayon::ThreadPool,
    algo: Algorithm,
    threshold: Threshold,
    variant: RelaxVariant,
    params: FrontierParams,
    opts: SolveOptions,
    source: VertexId,
    dist: Vec<AtomicI64>,
    /// δ at the start of the current iteration, for the deltas' "before" values.
    prev: Vec<Distance>,
    flags: Vec<AtomicU8>,
    /// Iteration stamp of the last lowering (first lowering per iteration claims the vertex).
    stamp: Vec<AtomicU32>,
    frontier: Vec<VertexId>,
    /// Reached, unsettled vertices.
    active: Vec<VertexId>,
    settled_count: u64,
    figures: LaunchFigures,
    /// [`RELAX_CUTOFF`] and [`SCAN_CUTOFF`] unless set by [`Self::with_cutoffs`].
    relax_cutoff: usize,
    scan_cutoff: usize,
    iteration: u32,
    done: bool,
}

/// The multi-core stepper of a frontier spec ([`super::AlgorithmSpec::cpu_parallel`]).
pub(super) fn parallel_stepper(
    graph: Arc<Graph>,
    algo: Algorithm,
    source: VertexId,
    threads: usize,
    opts: &SolveOptions,
) -> Result<Box<dyn Stepper>, SolveError> {
    Ok(Box::new(ParallelFrontierStepper::new(graph, algo, source, threads, opts.clone())?))
}

impl ParallelFrontierStepper {
    /// Initial state as [`super::FrontierStepper::new`]; `threads` = 0 uses every core.
    ///
    /// Errors: [`SolveError::Options`] when `algo` is not a frontier solver or a parameter value
    /// does not decode; the thread pool cannot be created.
    pub fn new(
        graph: Arc<Graph>,
        algo: Algorithm,
        source: VertexId,
        threads: usize,
        opts: SolveOptions,
    ) -> Result<Self, SolveError> {
        let (threshold, variant, params) = decode(algo, &opts)?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| SolveError::Device(format!("cannot start CPU threads: {e}")))?;
        let n = graph.n();
        let mut prev = vec![INF; n];
        prev[source as usize] = 0;
        let dist = prev.iter().map(|&d| AtomicI64::new(d)).collect();
        let flags: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
        flags[source as usize].store(SETTLED, Relaxed);
        Ok(ParallelFrontierStepper {
            pool,
            algo,
            threshold,
            variant,
            params,
            opts,
            source,
            dist,
            prev,
            flags,
            stamp: (0..n).map(|_| AtomicU32::new(u32::MAX)).collect(),
            frontier: vec![source],
            active: Vec::new(),
            settled_count: 1,
            figures: LaunchFigures::new(&graph, variant, &params, source),
            relax_cutoff: RELAX_CUTOFF,
            scan_cutoff: SCAN_CUTOFF,
            iteration: 0,
            done: false,
            graph,
        })
    }

    /// Sets the work from which a phase runs on the pool: `relax` vertices plus arcs for the
    /// relax phase (default 4096), `scan` active vertices for minimum and update (default 32 768).
    /// 0 puts every phase on the pool, `usize::MAX` every phase on the calling thread; for tests
    /// and for measuring the cutoffs.
    pub fn with_cutoffs(mut self, relax: usize, scan: usize) -> Self {
        (self.relax_cutoff, self.scan_cutoff) = (relax, scan);
        self
    }

    fn settled(&self, v: VertexId) -> bool {
        self.flags[v as usize].load(Relaxed) & SETTLED != 0
    }

    /// Lowers δ(u) to `d`; returns u if this call was the first lowering of u this iteration.
    #[inline]
    fn lower(&self, u: VertexId, d: Distance, racy: bool) -> Option<VertexId> {
        let cell = &self.dist[u as usize];
        let lowered = if racy {
            // Read-compare-write without atomicity: another thread's smaller value can be
            // overwritten between the load and the store.
            let old = cell.load(Relaxed);
            if d < old {
                std::hint::spin_loop();
                cell.store(d, Relaxed);
            }
            d < old
        } else {
            cell.fetch_min(d, Relaxed) > d
        };
        (lowered && self.stamp[u as usize].swap(self.iteration, Relaxed) != self.iteration).then_some(u)
    }

    /// The `racy` successors relax of a small frontier, made to race as a GPU warp does: the
    /// frontier's arcs into unsettled vertices are dealt round-robin to the T threads, and in
    /// each round every thread reads its target's δ, all wait at a barrier (the window between
    /// read and write that kernels/racy.cu widens with a spin), then each compares and writes
    /// after a random pause of up to 5 µs. Two threads that lower the same vertex in a round
    /// both pass the test on the same old δ and the later store wins, smaller or not: a lost
    /// update. On seed 004's counterexample every middle vertex lowers the sink in iteration 2,
    /// so the sink ends above its distance in about half the runs. Returns what
    /// [`Self::relax`] returns.
    fn relax_racy_rounds(&self) -> (u64, u64, Vec<VertexId>) {
        let succ = self.graph.successors();
        let mut scanned = 0u64;
        let mut arcs: Vec<(VertexId, Distance)> = Vec::new();
        for &f in &self.frontier {
            let df = self.dist[f as usize].load(Relaxed);
            for (u, w) in succ.arcs(f) {
                scanned += 1;
                if !self.settled(u) {
                    arcs.push((u, df + w as Distance));
                }
            }
        }
        let threads = self.pool.current_num_threads();
        let rounds = arcs.len().div_ceil(threads);
        let barrier = std::sync::Barrier::new(threads);
        let clock = Instant::now();
        let lowered = self.pool.broadcast(|ctx| {
            let me = ctx.index();
            // xorshift seeded per thread and run: the pauses differ from run to run.
            let mut rng = (clock.elapsed().as_nanos() as u64 ^ (me as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1;
            let mut low = Vec::new();
            for r in 0..rounds {
                let arc = arcs.get(r * threads + me);
                let seen = arc.map(|&(u, _)| self.dist[u as usize].load(Relaxed));
                barrier.wait();
                let (Some(&(u, d)), Some(seen)) = (arc, seen) else { continue };
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let pause = std::time::Duration::from_nanos(rng % 5000);
                let t = Instant::now();
                while t.elapsed() < pause {
                    std::hint::spin_loop();
                }
                if d < seen {
                    self.dist[u as usize].store(d, Relaxed);
                    if self.stamp[u as usize].swap(self.iteration, Relaxed) != self.iteration {
                        low.push(u);
                    }
                }
            }
            low
        });
        (scanned, arcs.len() as u64, lowered.into_iter().flatten().collect())
    }

    /// Whether a phase with `work` units is worth a fork-join (never on a one-thread pool).
    fn par(&self, work: usize, cutoff: usize) -> bool {
        work >= cutoff && self.pool.current_num_threads() > 1
    }

    /// Folds `items` from `identity()` with `fold`: per worker on the pool, merged by `reduce`,
    /// when `par`; else in one fold on the calling thread (no `install`, no wake-ups).
    fn fold<T: Sync, A: Send>(
        &self,
        par: bool,
        items: &[T],
        identity: impl Fn() -> A + Send + Sync,
        fold: impl Fn(A, &T) -> A + Send + Sync,
        reduce: impl Fn(A, A) -> A + Send + Sync,
    ) -> A {
        if par {
            self.pool.install(|| items.par_iter().fold(&identity, &fold).reduce(&identity, &reduce))
        } else {
            items.iter().fold(identity(), fold)
        }
    }

    /// `f` on every item: on the pool when `par`, else on the calling thread.
    fn for_each<T: Sync>(&self, par: bool, items: &[T], f: impl Fn(&T) + Send + Sync) {
        if par {
            self.pool.install(|| items.par_iter().for_each(&f));
        } else {
            items.iter().for_each(f);
        }
    }

    /// Relax phase: (arcs scanned, arcs relaxed, vertices lowered).
    fn relax(&self) -> (u64, u64, Vec<VertexId>) {
        let succ = self.graph.successors();
        let par = self.par(arc_work(succ, &self.frontier, self.relax_cutoff), self.relax_cutoff);
        match self.variant {
            RelaxVariant::Successors => self.relax_push(par),
            RelaxVariant::Predecessors => self.relax_pull(par),
        }
    }

    /// The successors relax: frontier arcs pushed with `fetch_min` (or raced, `relax=non-atomic`).
    fn relax_push(&self, par: bool) -> (u64, u64, Vec<VertexId>) {
        let succ = self.graph.successors();
        // `racy` on a frontier too small for the pool still races, in lockstep rounds (one
        // thread alone could not lose an update); on a big one the pool's threads race as they go.
        let racy = self.params.racy();
        if racy && !par && self.pool.current_num_threads() > 1 && self.frontier.len() > 1 {
            return self.relax_racy_rounds();
        }
        let racy = racy && par;
        self.fold(
            par,
            &self.frontier,
            || (0u64, 0u64, Vec::new()),
            |(mut s, mut a, mut low), &f| {
                let df = self.dist[f as usize].load(Relaxed);
                for (u, w) in succ.arcs(f) {
                    s += 1;
                    if !self.settled(u) {
                        a += 1;
                        low.extend(self.lower(u, df + w as Distance, racy));
                    }
                }
                (s, a, low)
            },
            |a, b| (a.0 + b.0, a.1 + b.1, concat(a.2, b.2)),
        )
    }

    /// The predecessors relax: the unsettled out-neighbours of F pull over their in-arcs.
    fn relax_pull(&self, par: bool) -> (u64, u64, Vec<VertexId>) {
        self.for_each(par, &self.frontier, |&f| {
            self.flags[f as usize].fetch_or(IN_FRONTIER, Relaxed);
        });
        // Candidates: unsettled out-neighbours of F, each claimed once through the stamp of the
        // *previous* iteration's slot (iteration − 1 never equals a claim value).
        let claim = self.iteration.wrapping_add(u32::MAX / 2);
        let candidates = self.candidates(par, claim);
        // Each candidate pulls over all its in-arcs: decide on those.
        let pred = self.graph.predecessors();
        let par_pull = self.par(arc_work(pred, &candidates, self.relax_cutoff), self.relax_cutoff);
        let (attempted, lowered) = self.fold(
            par_pull,
            &candidates,
            || (0u64, Vec::new()),
            |(mut a, mut low), &u| {
                let mut best = self.dist[u as usize].load(Relaxed);
                for (p, w) in pred.arcs(u) {
                    if self.flags[p as usize].load(Relaxed) & IN_FRONTIER != 0 {
                        a += 1;
                        best = best.min(self.dist[p as usize].load(Relaxed) + w as Distance);
                    }
                }
                if best < self.dist[u as usize].load(Relaxed) {
                    self.dist[u as usize].store(best, Relaxed);
                    self.stamp[u as usize].store(self.iteration, Relaxed);
                    low.push(u);
                }
                (a, low)
            },
            |a, b| (a.0 + b.0, concat(a.1, b.1)),
        );
        // Candidates that were not lowered keep the claim stamp; reset so a later iteration's
        // first lowering is seen.
        self.for_each(par_pull, &candidates, |&u| {
            let _ = self.stamp[u as usize].compare_exchange(claim, u32::MAX, Relaxed, Relaxed);
        });
        self.for_each(par, &self.frontier, |&f| {
            self.flags[f as usize].fetch_and(!IN_FRONTIER, Relaxed);
        });
        (self.figures.unsettled_in_arcs, attempted, lowered)
    }

    /// The unsettled out-neighbours of F, each once (claimed with stamp `claim`).
    fn candidates(&self, par: bool, claim: u32) -> Vec<VertexId> {
        let succ = self.graph.successors();
        self.fold(
            par,
            &self.frontier,
            Vec::new,
            |mut c, &f| {
                c.extend(
                    succ.arcs(f)
                        .map(|(u, _)| u)
                        .filter(|&u| !self.settled(u) && self.stamp[u as usize].swap(claim, Relaxed) != claim),
                );
                c
            },
            concat,
        )
    }

    /// Minimum phase over the active set: the thresholds (Martín's and Crauser's minima).
    fn minimum(&self, par: bool) -> Thresholds {
        let omega = self.graph.omega();
        let (delta_martin, min_crauser) = self.fold(
            par,
            &self.active,
            || (INF, INF),
            |(m, c), &u| {
                let d = self.dist[u as usize].load(Relaxed);
                (m.min(d), c.min(d.saturating_add(omega[u as usize])))
            },
            |a, b| (a.0.min(b.0), a.1.min(b.1)),
        );
        Thresholds::from_minima(self.threshold, delta_martin, min_crauser)
    }

    /// Update phase: the active vertices with δ ≤ `delta` settle as the next frontier.
    fn update(&mut self, par: bool, delta: Distance) {
        let dist = &self.dist;
        let settles = |&&u: &&VertexId| dist[u as usize].load(Relaxed) <= delta;
        if par {
            (self.frontier, self.active) = self.pool.install(|| self.active.par_iter().partition(settles));
        } else {
            // In place: no allocation per iteration, which matters at |F| ≈ 1.
            let next = &mut self.frontier;
            next.clear();
            self.active.retain(|u| {
                let settle = settles(&u);
                if settle {
                    next.push(*u);
                }
                !settle
            });
        }
        for &u in &self.frontier {
            self.flags[u as usize].store(SETTLED, Relaxed);
        }
        self.figures.settle(&self.graph, &self.frontier);
        self.settled_count += self.frontier.len() as u64;
    }
}

/// Work of visiting `vs` and their arcs in `csr`, exact only below `cutoff` (enough to choose
/// between one thread and the pool, at O(cutoff) cost).
fn arc_work(csr: &Csr, vs: &[VertexId], cutoff: usize) -> usize {
    if vs.len() >= cutoff {
        return vs.len();
    }
    vs.len() + vs.iter().map(|&v| csr.degree(v)).sum::<usize>()
}

/// Appends the shorter list to the longer.
fn concat(a: Vec<VertexId>, b: Vec<VertexId>) -> Vec<VertexId> {
    let (mut long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    long.extend(short);
    long
}

impl Stepper for ParallelFrontierStepper {
    super::stepper_getters!(done = done);

    fn device(&self) -> String {
        super::cpu_device(self.pool.current_num_threads())
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        if self.done {
            return Ok(None);
        }
        self.iteration += 1;
        let start =
            self.figures.start(&self.graph, &self.frontier, self.opts.block.relax, self.iteration, self.settled_count);

        let t0 = Instant::now();
        let (edges_scanned, relax_attempted, lowered) = self.relax();
        for &u in &lowered {
            if self.prev[u as usize] == INF {
                self.active.push(u);
            }
        }
        let t1 = Instant::now();
        let par = self.par(self.active.len(), self.scan_cutoff);
        let t = self.minimum(par);
        let reached = self.active.len() as u64;
        let t2 = Instant::now();
        if t.finished() {
            self.frontier.clear();
            self.done = true;
        } else {
            self.update(par, t.delta);
        }
        let t3 = Instant::now();

        let delta_rec = self.opts.record_deltas.then(|| StepDelta {
            lowered: lowered.iter().map(|&u| (u, self.prev[u as usize], self.dist[u as usize].load(Relaxed))).collect(),
            settled: self.frontier.clone(),
        });
        for &u in &lowered {
            self.prev[u as usize] = self.dist[u as usize].load(Relaxed);
        }
        let relax = (edges_scanned, relax_attempted, lowered.len() as u64);
        let times = PhaseTimes::from_instants(t0, t1, t2, t3);
        let record = start.record(reached, self.settled_count, relax, times, &t, self.frontier.len() as u64);
        Ok(Some(Step { record, delta: delta_rec }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.dist.iter().map(|d| d.load(Relaxed)).collect())
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let graph = Arc::clone(&self.graph);
        let mut run = super::run_without_deltas(self, |s| &mut s.opts.record_deltas, &graph, cancel, progress)?;
        run.iterations = self.iteration;
        run.reached = self.settled_count;
        Ok(run)
    }
}
