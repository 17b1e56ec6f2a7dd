//! Frontier solvers on all CPU cores (rayon): the same three phases and the same records as
//! [`super::FrontierStepper`], with the relax, minimum and update phases data-parallel.
//!
//! - relax (successors): frontier arcs in parallel, `AtomicU64::fetch_min` on δ — the CPU twin
//!   of the GPU's atomicMin (seed 000 Alg. 2). `racy` replaces it with a plain load, compare
//!   and store, so concurrent writers can lose the smaller value (seed 004 §4.3) on a
//!   multi-core CPU as well as on a GPU.
//! - relax (predecessors): every unsettled vertex with a frontier in-neighbour pulls in
//!   parallel; each δ has one writer, so no atomics are needed for the minimum.
//! - minimum/update: a parallel reduction and partition over the *active* set (reached and
//!   unsettled vertices) instead of all n, which is what keeps road networks fast.
//!
//! Where it loses: with |F| ≈ 1 (Martín on road networks) every phase is a fork-join of a few
//! items, so one thread is faster.

use super::model::{ShrinkingWarpCounter, SparseWarpCounter};
use super::{
    Algorithm, IterationRecord, PhaseTimes, RelaxVariant, RunRecord, SolveError, SolveOptions, Step, StepDelta,
    Stepper, Threshold,
};
use crate::graph::{Distance, Graph, INF, VertexId};
use rayon::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

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
    opts: SolveOptions,
    source: VertexId,
    dist: Vec<AtomicU64>,
    /// δ at the start of the current iteration, for the deltas' "before" values.
    prev: Vec<Distance>,
    flags: Vec<AtomicU8>,
    /// Iteration stamp of the last lowering (first lowering per iteration claims the vertex).
    stamp: Vec<AtomicU32>,
    frontier: Vec<VertexId>,
    /// Reached, unsettled vertices.
    active: Vec<VertexId>,
    settled_count: u64,
    unsettled_in_arcs: u64,
    frontier_warps: SparseWarpCounter,
    unsettled_warps: ShrinkingWarpCounter,
    iteration: u32,
    done: bool,
}

impl ParallelFrontierStepper {
    /// Initial state as [`super::FrontierStepper::new`]; `threads` = 0 uses every core.
    ///
    /// Errors: the thread pool cannot be created.
    pub fn new(
        graph: Arc<Graph>,
        algo: Algorithm,
        source: VertexId,
        threads: usize,
        opts: SolveOptions,
    ) -> Result<Self, SolveError> {
        let (Some(threshold), Some(variant)) = (algo.threshold(), algo.variant()) else {
            return Err(SolveError::Device(format!("{algo} has no multi-core version")));
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| SolveError::Device(format!("cannot start CPU threads: {e}")))?;
        let n = graph.n();
        let mut prev = vec![INF; n];
        prev[source as usize] = 0;
        let dist = prev.iter().map(|&d| AtomicU64::new(d)).collect();
        let flags: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
        flags[source as usize].store(SETTLED, Relaxed);
        let mut unsettled_warps = ShrinkingWarpCounter::full(n);
        unsettled_warps.remove(source);
        let unsettled_in_arcs = if variant == RelaxVariant::Predecessors {
            (graph.m() - graph.predecessors().degree(source)) as u64
        } else {
            0
        };
        Ok(ParallelFrontierStepper {
            pool,
            algo,
            threshold,
            variant,
            opts,
            source,
            dist,
            prev,
            flags,
            stamp: (0..n).map(|_| AtomicU32::new(u32::MAX)).collect(),
            frontier: vec![source],
            active: Vec::new(),
            settled_count: 1,
            unsettled_in_arcs,
            frontier_warps: SparseWarpCounter::new(n),
            unsettled_warps,
            iteration: 0,
            done: false,
            graph,
        })
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

    /// Relax phase: (arcs scanned, arcs relaxed, vertices lowered).
    fn relax(&self) -> (u64, u64, Vec<VertexId>) {
        let g = &*self.graph;
        let racy = self.algo == Algorithm::Racy;
        match self.variant {
            RelaxVariant::Successors => {
                let (scanned, attempted, lowered) = self
                    .frontier
                    .par_iter()
                    .fold(
                        || (0u64, 0u64, Vec::new()),
                        |(mut s, mut a, mut low), &f| {
                            let df = self.dist[f as usize].load(Relaxed);
                            for (u, w) in g.successors().arcs(f) {
                                s += 1;
                                if !self.settled(u) {
                                    a += 1;
                                    low.extend(self.lower(u, df + w as Distance, racy));
                                }
                            }
                            (s, a, low)
                        },
                    )
                    .reduce(|| (0, 0, Vec::new()), merge);
                (scanned, attempted, lowered)
            }
            RelaxVariant::Predecessors => {
                let pred = g.predecessors();
                self.frontier.par_iter().for_each(|&f| {
                    self.flags[f as usize].fetch_or(IN_FRONTIER, Relaxed);
                });
                // Candidates: unsettled out-neighbours of F, each claimed once through the stamp
                // of the *previous* iteration's slot (iteration − 1 never equals a claim value).
                let claim = self.iteration.wrapping_add(u32::MAX / 2);
                let candidates: Vec<VertexId> = self
                    .frontier
                    .par_iter()
                    .flat_map_iter(|&f| g.successors().arcs(f).map(|(u, _)| u))
                    .filter(|&u| !self.settled(u))
                    .filter(|&u| self.stamp[u as usize].swap(claim, Relaxed) != claim)
                    .collect();
                let (attempted, lowered) = candidates
                    .par_iter()
                    .fold(
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
                    )
                    .reduce(
                        || (0, Vec::new()),
                        |(a, mut x), (b, y)| {
                            x.extend(y);
                            (a + b, x)
                        },
                    );
                // Candidates that were not lowered keep the claim stamp; reset so a later
                // iteration's first lowering is seen.
                candidates.par_iter().for_each(|&u| {
                    let _ = self.stamp[u as usize].compare_exchange(claim, u32::MAX, Relaxed, Relaxed);
                });
                self.frontier.par_iter().for_each(|&f| {
                    self.flags[f as usize].fetch_and(!IN_FRONTIER, Relaxed);
                });
                (self.unsettled_in_arcs, attempted, lowered)
            }
        }
    }
}

fn merge(a: (u64, u64, Vec<VertexId>), b: (u64, u64, Vec<VertexId>)) -> (u64, u64, Vec<VertexId>) {
    let (mut low, other) = if a.2.len() >= b.2.len() { (a.2, b.2) } else { (b.2, a.2) };
    low.extend(other);
    (a.0 + b.0, a.1 + b.1, low)
}

impl Stepper for ParallelFrontierStepper {
    fn algorithm(&self) -> Algorithm {
        self.algo
    }

    fn device(&self) -> String {
        format!("CPU ({} threads)", self.pool.current_num_threads())
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
        self.iteration += 1;
        let n = self.graph.n() as u64;
        let unsettled = n - self.settled_count;
        let threads = match self.variant {
            RelaxVariant::Successors => self.frontier_warps.count(n, self.opts.block.relax, &self.frontier),
            RelaxVariant::Predecessors => self.unsettled_warps.counts(self.opts.block.relax),
        };
        let frontier_len = self.frontier.len() as u64;

        let t0 = Instant::now();
        let (edges_scanned, relax_attempted, lowered) = self.pool.install(|| self.relax());
        for &u in &lowered {
            if self.prev[u as usize] == INF {
                self.active.push(u);
            }
        }
        let t1 = Instant::now();
        let omega = self.graph.omega();
        let (delta_martin, min_crauser) = self.pool.install(|| {
            self.active
                .par_iter()
                .map(|&u| {
                    let d = self.dist[u as usize].load(Relaxed);
                    (d, d.saturating_add(omega[u as usize]))
                })
                .reduce(|| (INF, INF), |a, b| (a.0.min(b.0), a.1.min(b.1)))
        });
        let delta_crauser = if delta_martin == INF { INF } else { min_crauser };
        let delta = match self.threshold {
            Threshold::Martin => delta_martin,
            Threshold::Crauser => delta_crauser.max(delta_martin),
        };
        let reached = self.active.len() as u64;
        let t2 = Instant::now();
        if delta_martin == INF {
            self.frontier.clear();
            self.done = true;
        } else {
            let dist = &self.dist;
            let (next, keep): (Vec<VertexId>, Vec<VertexId>) =
                self.pool.install(|| self.active.par_iter().partition(|&&u| dist[u as usize].load(Relaxed) <= delta));
            self.active = keep;
            self.frontier = next;
            let pred = (self.variant == RelaxVariant::Predecessors).then(|| self.graph.predecessors());
            for &u in &self.frontier {
                self.flags[u as usize].store(SETTLED, Relaxed);
                self.unsettled_warps.remove(u);
                if let Some(p) = pred {
                    self.unsettled_in_arcs -= p.degree(u) as u64;
                }
            }
            self.settled_count += self.frontier.len() as u64;
        }
        let t3 = Instant::now();

        let delta_rec = self.opts.record_deltas.then(|| StepDelta {
            lowered: lowered.iter().map(|&u| (u, self.prev[u as usize], self.dist[u as usize].load(Relaxed))).collect(),
            settled: self.frontier.clone(),
        });
        for &u in &lowered {
            self.prev[u as usize] = self.dist[u as usize].load(Relaxed);
        }
        let record = IterationRecord {
            iteration: self.iteration,
            frontier: frontier_len,
            unsettled,
            reached,
            settled: self.settled_count,
            delta: if delta_martin == INF { INF } else { delta },
            delta_martin,
            delta_crauser,
            next_frontier: self.frontier.len() as u64,
            edges_scanned,
            relax_attempted,
            relax_improved: lowered.len() as u64,
            threads: Some(threads),
            times: PhaseTimes {
                relax_ms: (t1 - t0).as_secs_f64() * 1e3,
                minimum_ms: (t2 - t1).as_secs_f64() * 1e3,
                update_ms: (t3 - t2).as_secs_f64() * 1e3,
                copy_ms: 0.0,
            },
        };
        Ok(Some(Step { record, delta: delta_rec }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.dist.iter().map(|d| d.load(Relaxed)).collect())
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let record_deltas = std::mem::replace(&mut self.opts.record_deltas, false);
        let graph = Arc::clone(&self.graph);
        let run = super::run_by_steps(self, &graph, cancel, progress);
        self.opts.record_deltas = record_deltas;
        let mut run = run?;
        run.iterations = self.iteration;
        run.reached = self.settled_count;
        Ok(run)
    }
}
