//! Edge-parallel Bellman-Ford ([seed002]): every pass relaxes arcs in parallel, one thread per
//! arc, until a pass lowers no δ. It settles nothing before it converges — the case the
//! iteration contract had to admit — so `settled` stays at the source until the last pass.
//!
//! - `filter=all` (seed 002): each pass relaxes every arc whose tail is reached; threads of arcs
//!   with an unreached tail are launched and idle (the dummy threads of an edge-parallel launch).
//! - `filter=frontier`: only the out-arcs of vertices whose δ changed in the previous pass (the
//!   frontier-filtered variant; pass 1 relaxes the source's arcs).
//!
//! - `order=source|shuffled`: the arc order of the edge list ([`edge_list`]); `ro-cache=on|off`:
//!   CUDA's read-only data path. See `docs/gpu-bellman-ford.md` for the GPU kernels.
//!
//! Passes are synchronous (Jacobi): a pass reads δ as it was when the pass began and writes the
//! minimum with an atomic `fetch_min`, so one thread and all cores record the same passes and a
//! pass count is the largest number of arcs on a shortest path (+1 to see that nothing
//! changes). A GPU that reads δ in place may converge in fewer passes. Where it loses: every
//! pass touches all arcs (or all arcs of the changed set), so road networks with hundreds of
//! hops need hundreds of full sweeps; `bellman-ford` is Θ(passes · m) against Dijkstra's
//! O(m + n log n).

use super::{
    Algorithm, AlgorithmSpec, CodeLine, Family, ParamKind, ParamSpec, Params, Phase, PhaseTimes, PlotGroup, RunRecord,
    SeriesSpec, SeriesUnit, SolveError, SolveOptions, Step, Stepper,
};
use crate::graph::{Distance, Graph, VertexId};
use rayon::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, Ordering::Relaxed};
use std::time::Instant;

mod book;
mod edges;

pub use book::{PassBook, PassStart, PassTally};
pub use edges::{ArcOrder, EdgeList, edge_list};

/// Edge-parallel Bellman-Ford ([seed002]).
pub const BELLMAN_FORD: Algorithm = Algorithm(&BELLMAN_FORD_SPEC);

static PARAMS: [ParamSpec; 3] = [
    ParamSpec {
        key: "filter",
        label: "Arcs per pass",
        help: "all: every arc with a reached tail, each pass ([seed002]); frontier: only the out-arcs of vertices \
whose δ changed in the previous pass",
        kind: ParamKind::Choice { values: &["all", "frontier"], default: "all" },
    },
    ParamSpec {
        key: "order",
        label: "Arc order",
        help: "source: the edge list sorted into source-vertex segments (CSR order; [seed002]'s locality \
optimisation); shuffled: a seeded random permutation, as an unsorted edge list has them (the baseline). Same \
distances and passes; changes the memory access pattern on the GPUs and the modelled warps everywhere",
        kind: ParamKind::Choice { values: &["source", "shuffled"], default: "source" },
    },
    ParamSpec {
        key: "ro-cache",
        label: "Read-only cache",
        help: "CUDA only: on loads the edge arrays, δ_prev and the marks through const __restrict__ + __ldg \
(the read-only data path); off uses plain loads. No effect on the CPU and wgpu",
        kind: ParamKind::Choice { values: &["on", "off"], default: "on" },
    },
];

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

/// Which tails a pass relaxes (`filter`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassFilter {
    /// Every arc with a reached tail ([seed002]).
    All,
    /// Only the out-arcs of vertices lowered in the previous pass.
    Frontier,
}

/// Bellman-Ford's parameters, decoded once ([`BellmanFordParams::decode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BellmanFordParams {
    pub filter: PassFilter,
    pub order: ArcOrder,
    /// `ro-cache=on`: CUDA's read-only data path (`__ldg`).
    pub read_only_cache: bool,
}

impl BellmanFordParams {
    /// Decodes `params` (unset keys take the defaults).
    ///
    /// Errors: a value not declared, naming the key and the value.
    pub fn decode(params: &Params) -> Result<BellmanFordParams, String> {
        let a = BELLMAN_FORD;
        Ok(BellmanFordParams {
            filter: a.decode(params, "filter", &[("all", PassFilter::All), ("frontier", PassFilter::Frontier)])?,
            order: a.decode(params, "order", &[("source", ArcOrder::Source), ("shuffled", ArcOrder::Shuffled)])?,
            read_only_cache: a.decode(params, "ro-cache", &[("on", true), ("off", false)])?,
        })
    }

    /// Whether only the tails lowered in the previous pass relax.
    pub fn frontier_only(&self) -> bool {
        self.filter == PassFilter::Frontier
    }
}

fn code(params: &Params) -> Vec<CodeLine> {
    let frontier = BellmanFordParams::decode(params).is_ok_and(|p| p.frontier_only());
    let relax = if frontier {
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
    pool: Option<rayon::ThreadPool>,
    source: VertexId,
    dist: Vec<AtomicI64>,
    /// Pass in which a vertex's δ was last lowered (distinct counts, the next frontier).
    stamp: Vec<AtomicU32>,
    /// δ as the pass began, the active tails, the records.
    book: PassBook,
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
        let pool = super::thread_pool(threads)?;
        let params = BellmanFordParams::decode(&opts.params).map_err(SolveError::Options)?;
        let book = PassBook::new(Arc::clone(&graph), source, params.frontier_only(), params.order);
        Ok(BellmanFordStepper {
            dist: book.prev.iter().map(|&d| AtomicI64::new(d)).collect(),
            stamp: (0..graph.n()).map(|_| AtomicU32::new(0)).collect(),
            book,
            pool,
            algo,
            opts,
            source,
            graph,
        })
    }

    /// Relaxes the out-arcs of `u` against δ_prev(u); returns the arcs scanned and pushes the
    /// vertices this pass lowered first.
    fn relax_tail(&self, u: VertexId, pass: u32, lowered: &mut Vec<VertexId>) -> u64 {
        let du = self.book.prev[u as usize];
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
        let active = &self.book.active;
        match &self.pool {
            Some(pool) if active.len() >= 1024 => {
                pool.install(|| active.par_iter().fold(|| (0, Vec::new()), fold).reduce(|| (0, Vec::new()), join))
            }
            _ => active.iter().fold((0, Vec::new()), fold),
        }
    }
}

impl Stepper for BellmanFordStepper {
    super::stepper_getters!(done = book.done);

    fn device(&self) -> String {
        super::cpu_device(self.pool.as_ref().map_or(1, |p| p.current_num_threads()))
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        if self.book.done {
            return Ok(None);
        }
        let start = self.book.start();
        let threads = self.book.threads(self.opts.block.relax);
        let t0 = Instant::now();
        let (scanned, mut lowered) = self.pass(start.pass);
        debug_assert_eq!(scanned, start.scanned);
        let t1 = Instant::now();
        lowered.sort_unstable();
        let dist = &self.dist;
        let (mut record, delta) = self.book.finish(
            start,
            &lowered,
            |v| dist[v as usize].load(Relaxed),
            Some(threads),
            PhaseTimes { relax_ms: (t1 - t0).as_secs_f64() * 1e3, ..Default::default() },
        )?;
        record.times.update_ms = t1.elapsed().as_secs_f64() * 1e3;
        Ok(Some(Step { record, delta: self.opts.record_deltas.then_some(delta) }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.dist.iter().map(|d| d.load(Relaxed)).collect())
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let graph = Arc::clone(&self.graph);
        let mut run = super::run_without_deltas(self, |s| &mut s.opts.record_deltas, &graph, cancel, progress)?;
        run.iterations = self.book.iteration;
        run.reached = self.book.reached;
        Ok(run)
    }
}
