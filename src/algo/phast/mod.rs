//! PHAST: shortest-path trees on a contraction hierarchy (Delling, Goldberg, Nowatzyk, Werneck,
//! IPDPS 2011 / JPDC 2013, `[phast]`). What wins on roads: a road network's hierarchy is built
//! once per graph ([`hierarchy`], source-independent, untimed like a peer's graph build and
//! reported beside the timings), and then each source costs
//!
//! 1. the *upward search*: Dijkstra from s over the arcs that go up the hierarchy — a few hundred
//!    vertices on NY, on the host;
//! 2. the *sweep*: every vertex in descending rank takes δ(v) ← min(δ(v), δ(u) + c(u,v)) over the
//!    downward arcs entering it. Vertices of one level do not depend on each other, so a level
//!    is one parallel phase with no atomics, no frontier and no buckets: a few hundred levels
//!    where near-far on NY needs ~1 800 phases (one per hop of the shortest-path tree).
//!
//! Where it loses: the build (about 6 s on NY on one core of the build machine, 9 s on the GPU
//! machine's) pays back only over many sources (bench/results/gpu-peers-2026-11-28/: ~1 700 NY
//! sources against GAP's 16 threads); graphs without a hierarchy (expanders, power-law graphs)
//! turn dense in the contraction, so past four shortcuts per arc the rest stays an uncontracted
//! core that the upward search crosses by plain Dijkstra: exact, but no faster than Dijkstra.
//!
//! As a stepper, iteration 1 is the upward search (F = the vertices it reached) and iteration
//! 1 + l sweeps level l (F = its vertices, each settled once swept).

mod hierarchy;
mod store;

pub use hierarchy::{Hierarchy, hierarchy};

use super::{
    Algorithm, AlgorithmSpec, Family, IterationRecord, ParamKind, ParamSpec, Phase, PhaseTimes, PlotGroup, RunRecord,
    SeriesSpec, SeriesUnit, SolveError, SolveOptions, Step, StepDelta, Stepper, Values,
};
use crate::graph::{Distance, Graph, INF, VertexId};
use rayon::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// PHAST on a contraction hierarchy.
pub const PHAST: Algorithm = Algorithm(&PHAST_SPEC);

static SERIES: [SeriesSpec; 2] = [
    SeriesSpec {
        key: "level",
        label: "level",
        help: "the sweep level this iteration ran (0 = the top of the hierarchy); the upward search is -1",
        unit: SeriesUnit::Count,
        group: PlotGroup::Table,
    },
    SeriesSpec {
        key: "levels_left",
        label: "levels left",
        help: "sweep levels still to run after this iteration",
        unit: SeriesUnit::Count,
        group: PlotGroup::Table,
    },
];

/// PHAST ([phast]): an upward search, then one sweep phase per hierarchy level.
pub static PHAST_SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "phast",
    name: "PHAST (contraction hierarchy)",
    summary: "PHAST: a contraction hierarchy built once per graph, then an upward search and one parallel sweep \
phase per level (roads)",
    reference: "[phast] §3–4 on a [ch]",
    iteration: "1: the upward search from s; then one level of the sweep: every vertex of the level takes the \
minimum over its downward in-arcs",
    family: Family::Sweep,
    params: &[ParamSpec {
        key: "top",
        label: "top of the hierarchy",
        help: "GPUs only: `shared` sweeps the top levels in one block with their δ in shared memory (a level then \
costs its arcs' loads and a barrier); `global` runs every level through global memory, as [phast] §4 does",
        kind: ParamKind::Choice { values: &["shared", "global"], default: "shared" },
    }],
    series: &SERIES,
    code: |_| {
        vec![
            (Phase::Init, "once per graph: contract vertices by importance, add shortcuts; level(v)"),
            (Phase::Init, "δ(v) ← ∞; δ(s) ← 0"),
            (Phase::Relax, "upward:  Dijkstra from s over arcs (u,w), rank(w) > rank(u)"),
            (Phase::Loop, "for level ℓ = 0, 1, … (top of the hierarchy first) do"),
            (Phase::Relax, "  sweep:   for v in level ℓ, in parallel:"),
            (Phase::Relax, "             δ(v) ← min(δ(v), min over (u,v,w), rank(u) > rank(v): δ(u)+w)"),
            (Phase::Update, "  update:  settle level ℓ"),
        ]
    },
    finished: "no level left",
    exact: |_| true,
    cpu: |g, _, s, o| Ok(Box::new(PhastStepper::new(g, s, 1, o)?)),
    negative_weights: false,
    cpu_parallel: Some(|g, _, s, t, o| Ok(Box::new(PhastStepper::new(g, s, t, o)?))),
};

/// The sweep of one level over δ in sweep positions: returns (arcs scanned, vertices lowered).
/// `dist[k]` for every k of `range` is final afterwards.
pub fn sweep_level(h: &Hierarchy, dist: &mut [Distance], range: std::ops::Range<usize>) -> (u64, u64) {
    let (lo, hi) = (range.start, range.end);
    // Every tail is in an earlier level, so `head` and `done` never overlap.
    let (done, head) = dist.split_at_mut(lo);
    let mut arcs = 0u64;
    let mut lowered = 0u64;
    for (i, d) in head[..hi - lo].iter_mut().enumerate() {
        let mut best = *d;
        for (t, c) in h.arcs_into(lo + i) {
            arcs += 1;
            let dt = done[t as usize];
            if dt != INF {
                best = best.min(dt + c);
            }
        }
        lowered += (best < *d) as u64;
        *d = best;
    }
    (arcs, lowered)
}

/// [`sweep_level`] on a rayon pool in chunks of 4 096 vertices; small levels run inline.
fn sweep_level_par(pool: &rayon::ThreadPool, h: &Hierarchy, dist: &mut [Distance], range: std::ops::Range<usize>) {
    const CHUNK: usize = 4_096;
    if range.len() <= CHUNK {
        sweep_level(h, dist, range);
        return;
    }
    let (done, head) = dist.split_at_mut(range.start);
    let done = &*done;
    let lo = range.start;
    pool.install(|| {
        head[..range.len()].par_chunks_mut(CHUNK).enumerate().for_each(|(c, chunk)| {
            for (i, d) in chunk.iter_mut().enumerate() {
                let mut best = *d;
                for (t, w) in h.arcs_into(lo + c * CHUNK + i) {
                    let dt = done[t as usize];
                    if dt != INF {
                        best = best.min(dt + w);
                    }
                }
                *d = best;
            }
        })
    });
}

/// PHAST on the CPU, one thread or a rayon pool.
pub struct PhastStepper {
    graph: Arc<Graph>,
    h: Arc<Hierarchy>,
    opts: SolveOptions,
    pool: Option<rayon::ThreadPool>,
    source: VertexId,
    /// δ by sweep position.
    dist: Vec<Distance>,
    /// Iterations run: 0 before the upward search, 1 + l after level l.
    iteration: u32,
    settled: u64,
}

impl PhastStepper {
    /// Builds (or finds) the graph's hierarchy; δ(s) = 0. `threads`: 1, or 0 = every core.
    ///
    /// Errors: the hierarchy's ([`hierarchy`]); the thread pool cannot be created.
    pub fn new(graph: Arc<Graph>, source: VertexId, threads: usize, opts: &SolveOptions) -> Result<Self, SolveError> {
        let h = hierarchy(&graph)?;
        let mut dist = vec![INF; graph.n()];
        dist[h.pos[source as usize] as usize] = 0;
        Ok(PhastStepper {
            pool: super::thread_pool(threads)?,
            opts: opts.clone(),
            graph,
            h,
            source,
            dist,
            iteration: 0,
            settled: 1,
        })
    }

    fn levels(&self) -> u32 {
        self.h.levels() as u32
    }

    fn upward(&mut self) -> usize {
        let found = self.h.upward_search(self.source);
        for &(k, d) in &found {
            self.dist[k as usize] = d;
        }
        found.len()
    }
}

impl Stepper for PhastStepper {
    fn algorithm(&self) -> Algorithm {
        PHAST
    }

    fn device(&self) -> String {
        super::cpu_device(self.pool.as_ref().map_or(1, |p| p.current_num_threads()))
    }

    fn source(&self) -> VertexId {
        self.source
    }

    fn is_done(&self) -> bool {
        self.iteration > self.levels()
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        if self.is_done() {
            return Ok(None);
        }
        let n = self.graph.n() as u64;
        let unsettled = n - self.settled;
        let t0 = Instant::now();
        let before: Vec<Distance>;
        let (range, frontier, arcs, improved, level) = if self.iteration == 0 {
            before = Vec::new();
            let found = self.upward();
            (0..0, found as u64, 0, found as u64 - 1, -1.0)
        } else {
            let l = self.iteration as usize - 1;
            let range = self.h.level(l);
            before = self.dist[range.clone()].to_vec();
            let (arcs, lowered) = sweep_level(&self.h, &mut self.dist, range.clone());
            (range.clone(), range.len() as u64, arcs, lowered, l as f64)
        };
        let t1 = Instant::now();
        self.iteration += 1;
        let newly: Vec<usize> =
            range.clone().filter(|&k| self.dist[k] != INF && k != self.h.pos[self.source as usize] as usize).collect();
        self.settled += newly.len() as u64;
        let reached = self.dist.iter().enumerate().filter(|&(k, &d)| d != INF && k >= range.end).count() as u64;
        let record = IterationRecord {
            iteration: self.iteration,
            frontier,
            unsettled,
            reached,
            settled: self.settled,
            edges_scanned: arcs,
            relax_attempted: arcs,
            relax_improved: improved,
            threads: None,
            times: PhaseTimes { relax_ms: (t1 - t0).as_secs_f64() * 1e3, ..Default::default() },
            values: Values::from_slice(&[level, (self.levels() + 1 - self.iteration) as f64]),
        };
        let delta = self.opts.record_deltas.then(|| {
            let order = &self.h.order;
            let lowered = if self.iteration == 1 {
                self.dist
                    .iter()
                    .enumerate()
                    .filter(|&(k, &d)| d != INF && order[k] != self.source)
                    .map(|(k, &d)| (order[k], INF, d))
                    .collect()
            } else {
                range
                    .clone()
                    .zip(&before)
                    .filter(|&(k, &b)| self.dist[k] < b)
                    .map(|(k, &b)| (order[k], b, self.dist[k]))
                    .collect()
            };
            StepDelta { lowered, settled: newly.iter().map(|&k| order[k]).collect() }
        });
        Ok(Some(Step { record, delta }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        let mut out = vec![INF; self.graph.n()];
        for (k, &d) in self.dist.iter().enumerate() {
            out[self.h.order[k] as usize] = d;
        }
        Ok(out)
    }

    /// The whole solve without records: the upward search and every level, polling `cancel`
    /// between levels.
    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let start = Instant::now();
        if self.iteration == 0 {
            self.upward();
            self.iteration = 1;
        }
        while self.iteration <= self.levels() {
            if cancel.load(Ordering::Relaxed) {
                return Err(SolveError::Cancelled);
            }
            let range = self.h.level(self.iteration as usize - 1);
            match &self.pool {
                Some(pool) => sweep_level_par(pool, &self.h, &mut self.dist, range.clone()),
                None => {
                    sweep_level(&self.h, &mut self.dist, range.clone());
                }
            }
            if self.iteration.is_multiple_of(64) {
                progress(range.end as u64);
            }
            self.iteration += 1;
        }
        let total_ms = start.elapsed().as_secs_f64() * 1e3;
        let reached = self.dist.iter().filter(|&&d| d != INF).count() as u64;
        self.settled = reached;
        Ok(RunRecord {
            algorithm: PHAST.id().into(),
            device: self.device(),
            graph: self.graph.name.clone(),
            n: self.graph.n(),
            m: self.graph.m(),
            source: self.source,
            iterations: self.iteration,
            total_ms,
            times: PhaseTimes::default(),
            reached,
            records: Vec::new(),
        })
    }

    fn restart(&mut self, source: VertexId) -> Result<bool, SolveError> {
        if source as usize >= self.graph.n() {
            return Err(SolveError::BadSource(source as u64, self.graph.n()));
        }
        self.dist.fill(INF);
        self.dist[self.h.pos[source as usize] as usize] = 0;
        self.source = source;
        self.iteration = 0;
        self.settled = 1;
        Ok(true)
    }
}
