//! Edge-parallel Bellman-Ford ([seed002]): every pass relaxes arcs in parallel, one thread per
//! arc, until a pass lowers no δ. It settles nothing before it converges — the case the
//! iteration contract had to admit — so `settled` stays at the source until the last pass.
//!
//! - `filter=all` (seed 002): each pass relaxes every arc whose tail is reached; threads of arcs
//!   with an unreached tail are launched and idle (the dummy threads of an edge-parallel launch).
//! - `filter=frontier`: only the out-arcs of vertices whose δ changed in the previous pass (the
//!   frontier-filtered variant; pass 1 relaxes the source's arcs).
//!
//! Passes are synchronous (Jacobi): a pass reads δ as it was when the pass began and writes the
//! minimum with an atomic `fetch_min`, so one thread and all cores record the same passes and a
//! pass count is the largest number of arcs on a shortest path (+1 to see that nothing
//! changes). A GPU that reads δ in place may converge in fewer passes. Where it loses: every
//! pass touches all arcs (or all arcs of the changed set), so road networks with hundreds of
//! hops need hundreds of full sweeps; `bellman-ford` is Θ(passes · m) against Dijkstra's
//! O(m + n log n).

use super::model::SparseWarpCounter;
use super::{
    Algorithm, AlgorithmSpec, CodeLine, Family, IterationRecord, ParamKind, ParamSpec, Params, Phase, PhaseTimes,
    PlotGroup, RunRecord, SeriesSpec, SeriesUnit, SolveError, SolveOptions, Step, StepDelta, Stepper, Values,
};
use crate::graph::{Distance, Graph, INF, VertexId};
use rayon::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, Ordering::Relaxed};
use std::time::Instant;

/// Edge-parallel Bellman-Ford ([seed002]).
pub const BELLMAN_FORD: Algorithm = Algorithm(&BELLMAN_FORD_SPEC);

static PARAMS: [ParamSpec; 1] = [ParamSpec {
    key: "filter",
    label: "Arcs per pass",
    help: "all: every arc with a reached tail, each pass ([seed002]); frontier: only the out-arcs of vertices \
whose δ changed in the previous pass",
    kind: ParamKind::Choice { values: &["all", "frontier"], default: "all" },
}];

static SERIES: [SeriesSpec; 1] = [SeriesSpec {
    key: "next_frontier",
    label: "next |F|",
    help: "vertices whose δ this pass lowered (the tails of the next frontier-filtered pass)",
    unit: SeriesUnit::Count,
    group: PlotGroup::Sets,
}];

/// Edge-parallel Bellman-Ford, passes until nothing changes.
pub static BELLMAN_FORD_SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "bellman-ford",
    name: "Bellman-Ford (edge-parallel)",
    summary: "Bellman-Ford: relax arcs in parallel, pass after pass, until no δ changes",
    reference: "[seed002]",
    iteration: "one pass: relax every arc with a reached tail (or only the out-arcs of the vertices lowered \
in the previous pass) against δ as the pass began",
    family: Family::EdgeParallel,
    params: &PARAMS,
    series: &SERIES,
    code,
    finished: "no δ changed",
    exact: |_| true,
    cpu: |g, a, s, o| Ok(Box::new(BellmanFordStepper::new(g, a, s, 1, o.clone())?)),
    negative_weights: true,
    cpu_parallel: Some(|g, a, s, t, o| Ok(Box::new(BellmanFordStepper::new(g, a, s, t, o.clone())?))),
};

fn code(params: &Params) -> Vec<CodeLine> {
    let relax = if params.get("filter") == Some("frontier") {
        "  relax:   for (u,v,w), u ∈ F, in parallel:"
    } else {
        "  relax:   for every arc (u,v,w), in parallel:"
    };
    vec![
        (Phase::Init, "δ(s) ← 0; δ(v) ← ∞ (v ≠ s); F ← {s}; changed ← true"),
        (Phase::Loop, "while changed do"),
        (Phase::Relax, relax),
        (Phase::Relax, "             atomicMin(δ(v), δ_prev(u)+w)"),
        (Phase::Update, "  update:  F ← {v : δ(v) < δ_prev(v)}; changed ← F ≠ ∅"),
    ]
}

/// Bellman-Ford on one thread (`threads` = 1) or a rayon pool (0 = every core).
pub struct BellmanFordStepper {
    graph: Arc<Graph>,
    algo: Algorithm,
    opts: SolveOptions,
    frontier_only: bool,
    pool: Option<rayon::ThreadPool>,
    source: VertexId,
    dist: Vec<AtomicI64>,
    /// δ when the current pass began.
    prev: Vec<Distance>,
    /// Pass in which a vertex's δ was last lowered (distinct counts, the next frontier).
    stamp: Vec<AtomicU32>,
    /// Tails whose arcs the next pass relaxes (frontier filter), or every reached vertex.
    active: Vec<VertexId>,
    reached: u64,
    warps: SparseWarpCounter,
    iteration: u32,
    done: bool,
}

impl BellmanFordStepper {
    /// δ(s) = 0, nothing else reached. Errors: the thread pool cannot be created.
    pub fn new(
        graph: Arc<Graph>,
        algo: Algorithm,
        source: VertexId,
        threads: usize,
        opts: SolveOptions,
    ) -> Result<Self, SolveError> {
        let pool = if threads == 1 {
            None
        } else {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| SolveError::Device(format!("cannot start CPU threads: {e}")))?,
            )
        };
        let n = graph.n();
        let mut prev = vec![INF; n];
        prev[source as usize] = 0;
        Ok(BellmanFordStepper {
            frontier_only: algo.choice(&opts.params, "filter") == "frontier",
            dist: prev.iter().map(|&d| AtomicI64::new(d)).collect(),
            prev,
            stamp: (0..n).map(|_| AtomicU32::new(0)).collect(),
            active: vec![source],
            reached: 1,
            warps: SparseWarpCounter::new(graph.m().max(1)),
            pool,
            algo,
            opts,
            source,
            iteration: 0,
            done: false,
            graph,
        })
    }

    /// Relaxes the out-arcs of `u` against δ_prev(u); returns (arcs, lowered vertices).
    fn relax_tail(&self, u: VertexId, pass: u32, lowered: &mut Vec<VertexId>) -> u64 {
        let du = self.prev[u as usize];
        let mut arcs = 0;
        for (v, w) in self.graph.successors().arcs(u) {
            arcs += 1;
            let nd = du + Distance::from(w);
            if nd < self.dist[v as usize].fetch_min(nd, Relaxed) && self.stamp[v as usize].swap(pass, Relaxed) != pass {
                lowered.push(v);
            }
        }
        arcs
    }

    /// One pass over the active tails: (arcs relaxed, vertices lowered).
    fn pass(&self, pass: u32) -> (u64, Vec<VertexId>) {
        let fold = |(arcs, mut low): (u64, Vec<VertexId>), &u: &VertexId| {
            let a = self.relax_tail(u, pass, &mut low);
            (arcs + a, low)
        };
        let join = |a: (u64, Vec<VertexId>), mut b: (u64, Vec<VertexId>)| {
            b.1.extend(a.1);
            (a.0 + b.0, b.1)
        };
        match &self.pool {
            Some(pool) if self.active.len() >= 1024 => {
                pool.install(|| self.active.par_iter().fold(|| (0, Vec::new()), fold).reduce(|| (0, Vec::new()), join))
            }
            _ => self.active.iter().fold((0, Vec::new()), fold),
        }
    }

    /// Threads of an edge-parallel launch (one per arc, CSR order) whose arc has an active tail.
    fn threads(&mut self, block: u32) -> super::ThreadCounts {
        let off = &self.graph.successors().offsets;
        let arcs: Vec<VertexId> = self.active.iter().flat_map(|&u| off[u as usize]..off[u as usize + 1]).collect();
        self.warps.count(self.graph.m() as u64, block, &arcs)
    }
}

impl Stepper for BellmanFordStepper {
    fn algorithm(&self) -> Algorithm {
        self.algo
    }

    fn label(&self) -> String {
        super::run_label(self.algo, &self.opts.params)
    }

    fn device(&self) -> String {
        match &self.pool {
            None => "CPU (1 thread)".into(),
            Some(p) => format!("CPU ({} threads)", p.current_num_threads()),
        }
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
        let pass = self.iteration;
        let n = self.graph.n() as u64;
        let threads = self.threads(self.opts.block.relax);
        let frontier = self.active.len() as u64;
        let t0 = Instant::now();
        let (scanned, mut lowered) = self.pass(pass);
        let t1 = Instant::now();
        lowered.sort_unstable();
        // Without a negative cycle a shortest path has at most n − 1 arcs, so pass n lowers
        // nothing (synchronous passes: pass k finds the shortest walks of at most k arcs).
        if !lowered.is_empty() && pass as usize >= self.graph.n() {
            self.done = true;
            return Err(super::negative_cycle_error(&self.graph, self.source));
        }
        let mut delta = StepDelta::default();
        for &v in &lowered {
            let d = self.dist[v as usize].load(Relaxed);
            if self.prev[v as usize] == INF {
                self.reached += 1;
            }
            delta.lowered.push((v, self.prev[v as usize], d));
            self.prev[v as usize] = d;
        }
        self.done = lowered.is_empty();
        let settled = if self.done {
            delta.settled = (0..n as VertexId).filter(|&v| v != self.source && self.prev[v as usize] != INF).collect();
            self.reached
        } else {
            1
        };
        self.active = if self.frontier_only {
            lowered.clone()
        } else {
            (0..n as VertexId).filter(|&v| self.prev[v as usize] != INF).collect()
        };
        let t2 = Instant::now();
        let record = IterationRecord {
            iteration: pass,
            frontier,
            unsettled: n - 1,
            reached: self.reached - 1,
            settled,
            edges_scanned: scanned,
            relax_attempted: scanned,
            relax_improved: lowered.len() as u64,
            threads: Some(threads),
            times: PhaseTimes {
                relax_ms: (t1 - t0).as_secs_f64() * 1e3,
                update_ms: (t2 - t1).as_secs_f64() * 1e3,
                ..Default::default()
            },
            values: Values::from_slice(&[lowered.len() as f64]),
        };
        Ok(Some(Step { record, delta: self.opts.record_deltas.then_some(delta) }))
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
        run.reached = self.reached;
        Ok(run)
    }
}
