//! Seed 001's baseline (`[seed001]` §3, the serial code its speedups divide): sequential
//! Dijkstra on an indexed binary heap with DecreaseKey — the same heap the lock schemes and the
//! helper threads share ([`super::heap::IndexedHeap`]), so a speedup over it measures the
//! threads, not the queue. The project's `dijkstra` (radix heap, lazy deletion) is 1.4–2×
//! faster on these graphs and stays the oracle; the speedup views show both baselines.
//!
//! A separate algorithm rather than a `heap=binary` parameter of `dijkstra`: `dijkstra` is the
//! oracle every run is checked against, and its stepper and tight loop stay one queue; the
//! lab names series by algorithm, so `dijkstra-bheap @ cpu` is a baseline one picks by name.

use super::heap::IndexedHeap;
use crate::algo::{
    Algorithm, AlgorithmSpec, Family, IterationRecord, Phase, PhaseTimes, PlotGroup, RunRecord, SeriesSpec, SeriesUnit,
    SolveError, SolveOptions, Step, StepDelta, Stepper, Values, dist_value,
};
use crate::graph::{Distance, Graph, INF, VertexId};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Sequential Dijkstra on a binary heap with DecreaseKey (seed 001's baseline).
pub const DIJKSTRA_BHEAP: Algorithm = Algorithm(&DIJKSTRA_BHEAP_SPEC);

static SERIES: [SeriesSpec; 1] = [SeriesSpec {
    key: "delta",
    label: "δ extracted",
    help: "δ of the vertex extracted (and settled) at the end of this iteration",
    unit: SeriesUnit::Distance,
    group: PlotGroup::Thresholds,
}];

/// Sequential Dijkstra, binary heap with DecreaseKey (`[seed001]`'s baseline).
pub static DIJKSTRA_BHEAP_SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "dijkstra-bheap",
    name: "Dijkstra, binary heap",
    summary: "sequential Dijkstra, binary heap with DecreaseKey (seed 001's baseline)",
    reference: "[dijkstra59]; [seed001] §3 (serial baseline of the speedups)",
    iteration: "relax the out-arcs of the vertex settled last (DecreaseKey), extract the minimum and settle it",
    family: Family::Sequential,
    params: &[],
    series: &SERIES,
    code: |_| {
        vec![
            (Phase::Init, "δ(s) ← 0; δ(v) ← ∞ (v ≠ s); Q ← ∅; u ← s"),
            (Phase::Loop, "while u ≠ none do"),
            (Phase::Relax, "  for (u,v,w): if δ(u)+w < δ(v): δ(v) ← δ(u)+w; DecreaseKey(Q,v)"),
            (Phase::Minimum, "  u ← ExtractMin(Q) (none if empty)"),
            (Phase::Update, "  u is settled"),
        ]
    },
    finished: "u = none",
    exact: |_| true,
    cpu: |g, _, s, o| Ok(Box::new(BinaryHeapStepper::new(g, s, o))),
    negative_weights: false,
    cpu_parallel: None,
};

/// [`DIJKSTRA_BHEAP`] as a stepper: one settled vertex per iteration.
pub struct BinaryHeapStepper {
    graph: Arc<Graph>,
    source: VertexId,
    record_deltas: bool,
    dist: Vec<Distance>,
    heap: IndexedHeap,
    /// The vertex settled last, whose arcs the next iteration relaxes (`None`: finished).
    current: Option<VertexId>,
    settled: u64,
    iteration: u32,
}

impl BinaryHeapStepper {
    /// δ(s) = 0, s settled and current; the caller checks `source < n`.
    fn new(graph: Arc<Graph>, source: VertexId, opts: &SolveOptions) -> Self {
        let n = graph.n();
        let mut dist = vec![INF; n];
        dist[source as usize] = 0;
        BinaryHeapStepper {
            graph,
            source,
            record_deltas: opts.record_deltas,
            dist,
            heap: IndexedHeap::new(n),
            current: Some(source),
            settled: 1,
            iteration: 0,
        }
    }

    /// Relaxes u's arcs, then extracts and settles the next vertex; the lowered (v, old, new).
    fn advance(&mut self, u: VertexId, log: bool) -> Vec<(VertexId, Distance, Distance)> {
        let du = self.dist[u as usize];
        let mut lowered = Vec::new();
        for (v, w) in self.graph.successors().arcs(u) {
            let nd = du + Distance::from(w);
            let old = self.dist[v as usize];
            if nd < old {
                self.dist[v as usize] = nd;
                self.heap.push_or_decrease(v, nd);
                if log {
                    lowered.push((v, old, nd));
                }
            }
        }
        self.current = self.heap.pop_min().map(|(_, v)| v);
        self.settled += u64::from(self.current.is_some());
        self.iteration += 1;
        lowered
    }
}

impl Stepper for BinaryHeapStepper {
    crate::algo::stepper_getters!(sequential = DIJKSTRA_BHEAP);

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        let Some(u) = self.current else { return Ok(None) };
        let unsettled = self.graph.n() as u64 - self.settled;
        let t0 = Instant::now();
        let lowered = self.advance(u, true);
        let t1 = Instant::now();
        let next = self.current.map_or(INF, |v| self.dist[v as usize]);
        let record = IterationRecord {
            iteration: self.iteration,
            frontier: 1,
            unsettled,
            reached: self.heap.len() as u64,
            settled: self.settled,
            edges_scanned: self.graph.successors().degree(u) as u64,
            relax_attempted: self.graph.successors().degree(u) as u64,
            relax_improved: lowered.len() as u64,
            threads: None,
            times: PhaseTimes { relax_ms: (t1 - t0).as_secs_f64() * 1e3, ..Default::default() },
            values: Values::from_slice(&[dist_value(next)]),
        };
        let delta = self.record_deltas.then(|| StepDelta { lowered, settled: self.current.into_iter().collect() });
        Ok(Some(Step { record, delta }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.dist.clone())
    }

    /// The remaining iterations without records; cancel is read every 65 536 vertices.
    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let start = Instant::now();
        while let Some(u) = self.current {
            if self.iteration.is_multiple_of(65_536) {
                if cancel.load(Ordering::Relaxed) {
                    return Err(SolveError::Cancelled);
                }
                progress(self.settled);
            }
            self.advance(u, false);
        }
        let total_ms = start.elapsed().as_secs_f64() * 1e3;
        Ok(RunRecord {
            algorithm: DIJKSTRA_BHEAP.id().into(),
            device: self.device(),
            graph: self.graph.name.clone(),
            n: self.graph.n(),
            m: self.graph.m(),
            source: self.source,
            iterations: self.iteration,
            total_ms,
            times: PhaseTimes { relax_ms: total_ms, ..Default::default() },
            reached: self.settled,
            records: Vec::new(),
        })
    }
}
