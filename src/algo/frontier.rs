//! Frontier solvers on the CPU: Martín et al. (seed 004, DA2CF) and Crauser et al.'s OUT
//! criterion as implemented on the GPU by seed 000 §3, in the successors and predecessors
//! variants.
//!
//! Each iteration is the three GPU kernels as CPU phases:
//! - **relax**: successors push δ(f) + w(f, u) from every f ∈ F to unsettled u; predecessors
//!   let every unsettled u pull min δ(f) + w(f, u) over its frontier in-neighbours f.
//! - **minimum**: Δᵢ = min{δ(u) : u ∈ U} (Martín) or min{δ(u) + ω(u) : u ∈ U} (Crauser). Both
//!   are computed every iteration so the app can show what the other policy would have done.
//! - **update**: every u ∈ U with δ(u) ≤ Δᵢ (δ(u) < ∞) is settled and forms Fᵢ₊₁.
//!
//! A GPU scans all n vertices in every phase; this CPU version does the same *work* without the
//! empty threads: the minimum keeps two lazy-deletion heaps (δ and δ + ω) and the predecessors
//! relax pulls only at vertices that have a frontier in-neighbour. The figures of the full
//! vertex-parallel launch (threads, warps, arcs a pull thread scans) are computed exactly and
//! reported as modelled. Where it loses: on road networks Martín settles ~1.2 vertices per
//! iteration (docs/references.md `[terms-peers]`), so the per-iteration overhead dominates.

use super::frontier_common::{FrontierParams, FrontierRelax, LaunchFigures, decode};
use super::{
    Algorithm, AlgorithmSpec, CodeLine, Family, ParamKind, ParamSpec, Phase, PhaseTimes, PlotGroup, RelaxVariant,
    RunRecord, SeriesSpec, SeriesUnit, SolveError, SolveOptions, Step, StepDelta, Stepper, Threshold, Thresholds,
};
use crate::graph::{Distance, Graph, INF, VertexId};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Martín et al. (`[seed004]` §4, `[seed000]` §3.3), successors relax.
pub const MARTIN_SUCC: Algorithm = Algorithm(&MARTIN_SUCC_SPEC);
/// Martín et al., predecessors relax.
pub const MARTIN_PRED: Algorithm = Algorithm(&MARTIN_PRED_SPEC);
/// Crauser et al.'s OUT criterion on the GPU (`[seed000]` §3.1), successors relax.
pub const CRAUSER_SUCC: Algorithm = Algorithm(&CRAUSER_SUCC_SPEC);
/// Crauser, predecessors relax.
pub const CRAUSER_PRED: Algorithm = Algorithm(&CRAUSER_PRED_SPEC);

// No "∩": the app's font has no glyph for it (a box in the app, a panic in kittests; tests/soak.rs).
const ITERATION: &str = "relax the out-arcs of the frontier F, compute Δ over the unsettled set U, settle \
every vertex of U with δ ≤ Δ as the next frontier (three kernels on a GPU)";

/// The successors relax may drop its atomics (the teaching variant `racy`, `[seed004]` §4.3) or
/// spread a block's frontier arcs over its threads (`balanced`, `[terms-peers]` load balancing);
/// seed 004's other variants are the shared `minimum` and `layout` options.
static SUCC_PARAMS: [ParamSpec; 3] = [
    ParamSpec {
        key: "relax",
        label: "Relax",
        help: "atomic: one thread per vertex, atomicMin per arc (FGPU); non-atomic: read-compare-write that races \
on a GPU, as in the earlier GPU Dijkstra that [seed004] §4.3 shows is wrong (FGPU_no_Atomic; one CPU thread cannot \
race); balanced: atomicMin, but a block's frontier arcs are spread over all its threads (degree prefix sum + \
binary search), so a hub no longer keeps one lane busy while its warp waits (see the lane-use plot)",
        kind: ParamKind::Choice { values: &["atomic", "non-atomic", "balanced"], default: "atomic" },
    },
    MINIMUM_PARAM,
    LAYOUT_PARAM,
];

/// The predecessors relax of seed 004 §4: plain (UGPU) or with shared memory and the read-only
/// cache (UGPU_PLUS, §4.2); the hybrids of §4.1 (`split`); the shared `minimum` and `layout`.
static PRED_PARAMS: [ParamSpec; 4] = [
    ParamSpec {
        key: "relax",
        label: "Relax",
        help: "plain: one thread per unsettled vertex pulls from its frontier in-neighbours (UGPU); cached: the \
same, with each block's row offsets staged once in shared memory and the frontier flags read through the \
read-only (texture) cache (UGPU_PLUS, [seed004] §4.2). CUDA only; elsewhere the same iteration",
        kind: ParamKind::Choice { values: &["plain", "cached"], default: "plain" },
    },
    ParamSpec {
        key: "split",
        label: "CPU/GPU split",
        help: "gpu: every phase on the GPU (UGPU); uh1: update on the GPU, relax and minimum on the CPU; uh2: relax \
on the GPU, update and minimum on the CPU; uh3: relax and update on the GPU, minimum on the CPU. The hybrids of \
[seed004] §4.1 copy the state they need across the bus every iteration (the copy time is its own phase). CUDA \
only; the CPU runs the same iteration",
        kind: ParamKind::Choice { values: &["gpu", "uh1", "uh2", "uh3"], default: "gpu" },
    },
    MINIMUM_PARAM,
    LAYOUT_PARAM,
];

/// `minimum`: seed 004 §4.1's one pass (minimum1 on the GPU, the per-block minima reduced on the
/// host: UGPU) or two passes (minimum2 reduces those on the GPU too: UGPU+2min).
const MINIMUM_PARAM: ParamSpec = ParamSpec {
    key: "minimum",
    label: "Minimum",
    help: "two-pass: minimum1 reduces 2 x block-size vertices per block, minimum2 reduces the block minima on the \
GPU, so Δ never leaves the device before the update (UGPU+2min); one-pass: the block minima are copied to the \
host and reduced there, Δ copied back ([seed004] §4.1, UGPU). CUDA only; the persistent fast path is two-pass",
    kind: ParamKind::Choice { values: &["two-pass", "one-pass"], default: "two-pass" },
};

/// `layout`: adjacency lists (CSR) or the dense adjacency matrix of seed 004 §5.
const LAYOUT_PARAM: ParamSpec = ParamSpec {
    key: "layout",
    label: "Graph layout",
    help: "lists: CSR adjacency lists; matrix: an n x n weight matrix on the GPU, each block's threads staging \
chunks of the frontier flags and δ (predecessors) or the unsettled flags (successors) in shared memory ([seed004] \
§5; for dense graphs, e.g. the `dense` generator, n/5 arcs per vertex). CUDA only, n <= 46 340; the CPU runs the \
same iteration on lists",
    kind: ParamKind::Choice { values: &["lists", "matrix"], default: "lists" },
};

/// Declared values of the predecessors solvers, in the order [`frontier_values`] writes them.
static PRED_SERIES: [SeriesSpec; 4] = [SERIES[0], SERIES[1], SERIES[2], SERIES[3]];

/// Declared values of the successors solvers: the four of every frontier solver, then lane use.
static SUCC_SERIES: [SeriesSpec; 5] = [
    SERIES[0],
    SERIES[1],
    SERIES[2],
    SERIES[3],
    SeriesSpec {
        key: "lane_use",
        label: "lane use (relax)",
        help: "arc iterations of the relax loop / lane-iterations its warps spent (1 = every lane busy): with one \
thread per frontier vertex a warp runs as long as its highest-degree vertex; with relax=balanced a block runs \
ceil(its frontier's arcs / block size) rounds",
        unit: SeriesUnit::Ratio,
        group: PlotGroup::Threads,
    },
];

const SERIES: [SeriesSpec; 4] = [
    SeriesSpec {
        key: "delta",
        label: "Δ used",
        help: "threshold Δᵢ of the policy in force",
        unit: SeriesUnit::Distance,
        group: PlotGroup::Thresholds,
    },
    SeriesSpec {
        key: "delta_martin",
        label: "min δ (Martín)",
        help: "Martín's threshold at this state: min δ(u) over U",
        unit: SeriesUnit::Distance,
        group: PlotGroup::Thresholds,
    },
    SeriesSpec {
        key: "delta_crauser",
        label: "min δ+ω (Crauser)",
        help: "Crauser's threshold at this state: min δ(u)+ω(u) over U",
        unit: SeriesUnit::Distance,
        group: PlotGroup::Thresholds,
    },
    SeriesSpec {
        key: "next_frontier",
        label: "next |F|",
        help: "vertices settled by this iteration's update",
        unit: SeriesUnit::Count,
        group: PlotGroup::Table,
    },
];

macro_rules! frontier_spec {
    ($name:ident, $id:literal, $display:literal, $summary:literal, $reference:literal, $t:expr, $v:expr, $params:expr, $series:expr) => {
        #[doc = $summary]
        pub static $name: AlgorithmSpec = AlgorithmSpec {
            id: $id,
            name: $display,
            summary: $summary,
            reference: $reference,
            iteration: ITERATION,
            family: Family::Frontier { threshold: $t, variant: $v },
            params: $params,
            series: $series,
            code: |p| code($t, FrontierParams::or_defaults(Algorithm(&$name), p)),
            finished: "Δ = ∞",
            exact: |p| !FrontierParams::or_defaults(Algorithm(&$name), p).racy(),
            cpu: cpu_stepper,
            negative_weights: false,
            cpu_parallel: Some(super::parallel::parallel_stepper),
        };
    };
}

frontier_spec!(
    MARTIN_SUCC_SPEC,
    "martin-succ",
    "Martín (successors)",
    "Martín: Δ = min δ over U; frontier pushes with atomicMin",
    "[seed004] §4 (DA2CF), [seed000] §3.3",
    Threshold::Martin,
    RelaxVariant::Successors,
    &SUCC_PARAMS,
    &SUCC_SERIES
);
frontier_spec!(
    MARTIN_PRED_SPEC,
    "martin-pred",
    "Martín (predecessors)",
    "Martín: Δ = min δ over U; unsettled pull from frontier preds",
    "[seed004] §4 Fig. 3, [seed000] §3.2",
    Threshold::Martin,
    RelaxVariant::Predecessors,
    &PRED_PARAMS,
    &PRED_SERIES
);
frontier_spec!(
    CRAUSER_SUCC_SPEC,
    "crauser-succ",
    "Crauser (successors)",
    "Crauser: Δ = min δ+ω over U; frontier pushes with atomicMin",
    "[seed000] §3.1–3.3, [crauser98] OUT criterion",
    Threshold::Crauser,
    RelaxVariant::Successors,
    &SUCC_PARAMS,
    &SUCC_SERIES
);
frontier_spec!(
    CRAUSER_PRED_SPEC,
    "crauser-pred",
    "Crauser (predecessors)",
    "Crauser: Δ = min δ+ω over U; unsettled pull from frontier preds",
    "[seed000] §3.1–3.3, [crauser98] OUT criterion",
    Threshold::Crauser,
    RelaxVariant::Predecessors,
    &PRED_PARAMS,
    &PRED_SERIES
);

/// The reference CPU stepper of a frontier spec.
fn cpu_stepper(
    graph: Arc<Graph>,
    algo: Algorithm,
    source: VertexId,
    opts: &SolveOptions,
) -> Result<Box<dyn Stepper>, SolveError> {
    Ok(Box::new(FrontierStepper::new(graph, algo, source, opts.clone())?))
}

/// Pseudo-code of a frontier solver with the phase of each line.
fn code(threshold: Threshold, params: FrontierParams) -> Vec<CodeLine> {
    let mut lines =
        vec![(Phase::Init, "δ(s) ← 0; δ(v) ← ∞ (v ≠ s); F ← {s}; U ← V − {s}"), (Phase::Loop, "while Δ ≠ ∞ do")];
    lines.extend(match params.relax {
        FrontierRelax::NonAtomic => [
            (Phase::Relax, "  relax:   for f ∈ F, (f,u,w), u ∈ U, in parallel"),
            (Phase::Relax, "             if δ(f)+w < δ(u): δ(u) ← δ(f)+w (race!)"),
        ],
        FrontierRelax::Plain | FrontierRelax::Cached => [
            (Phase::Relax, "  relax:   for u ∈ U in parallel (pull):"),
            (Phase::Relax, "             δ(u) ← min(δ(u), min{δ(f)+w : f ∈ F})"),
        ],
        FrontierRelax::Balanced => [
            (Phase::Relax, "  relax:   for f ∈ F, (f,u,w): arcs shared by the block"),
            (Phase::Relax, "             if u ∈ U: atomicMin(δ(u), δ(f)+w)"),
        ],
        FrontierRelax::Atomic => [
            (Phase::Relax, "  relax:   for f ∈ F, (f,u,w), u ∈ U, in parallel"),
            (Phase::Relax, "             atomicMin(δ(u), δ(f)+w)"),
        ],
    });
    lines.push(match threshold {
        Threshold::Martin => (Phase::Minimum, "  minimum: Δ ← min{δ(u) : u ∈ U}"),
        Threshold::Crauser => (Phase::Minimum, "  minimum: Δ ← min{δ(u)+ω(u) : u ∈ U}"),
    });
    lines.push((Phase::Update, "  update:  F ← {u ∈ U : δ(u) ≤ Δ}; U ← U − F"));
    lines
}

/// Iteration stamp meaning "never".
const NEVER: u32 = u32::MAX;

/// CPU stepper for `martin-*` and `crauser-*` (the non-atomic relax is sequential here, hence
/// race-free).
pub struct FrontierStepper {
    graph: Arc<Graph>,
    algo: Algorithm,
    threshold: Threshold,
    variant: RelaxVariant,
    opts: SolveOptions,
    source: VertexId,
    dist: Vec<Distance>,
    settled: Vec<bool>,
    frontier: Vec<VertexId>,
    in_frontier: Vec<bool>,
    /// Lazy-deletion heaps over reached unsettled vertices keyed by δ and by δ + ω.
    by_delta: BinaryHeap<Reverse<(Distance, VertexId)>>,
    by_crauser: BinaryHeap<Reverse<(Distance, VertexId)>>,
    /// Iteration in which a vertex's δ was last lowered (for distinct-improvement counts).
    lowered_in: Vec<u32>,
    lowered: Vec<(VertexId, Distance)>,
    candidates: Vec<VertexId>,
    settled_count: u64,
    reached_unsettled: u64,
    figures: LaunchFigures,
    iteration: u32,
    done: bool,
}

impl FrontierStepper {
    /// A solver at its initial state: δ(s) = 0, F₁ = {s}, every other vertex unsettled.
    /// Caller checks `source < n`.
    ///
    /// Errors: [`SolveError::Options`] when `algo` is not a frontier solver or a parameter
    /// value does not decode.
    pub fn new(graph: Arc<Graph>, algo: Algorithm, source: VertexId, opts: SolveOptions) -> Result<Self, SolveError> {
        let (threshold, variant, params) = decode(algo, &opts)?;
        let n = graph.n();
        let mut dist = vec![INF; n];
        dist[source as usize] = 0;
        let mut settled = vec![false; n];
        settled[source as usize] = true;
        Ok(FrontierStepper {
            algo,
            threshold,
            variant,
            opts,
            source,
            dist,
            settled,
            frontier: vec![source],
            in_frontier: vec![false; n],
            by_delta: BinaryHeap::new(),
            by_crauser: BinaryHeap::new(),
            lowered_in: vec![NEVER; n],
            lowered: Vec::new(),
            candidates: Vec::new(),
            settled_count: 1,
            reached_unsettled: 0,
            figures: LaunchFigures::new(&graph, variant, &params, source),
            iteration: 0,
            done: false,
            graph,
        })
    }

    /// Lowers δ(u) to `d` if that is smaller; returns whether it did.
    #[inline]
    fn lower(&mut self, u: VertexId, d: Distance) -> bool {
        let old = self.dist[u as usize];
        if d >= old {
            return false;
        }
        if old == INF {
            self.reached_unsettled += 1;
        }
        if self.lowered_in[u as usize] != self.iteration {
            self.lowered_in[u as usize] = self.iteration;
            self.lowered.push((u, old));
        }
        self.dist[u as usize] = d;
        true
    }

    /// Relax phase. Returns (arcs scanned, arcs relaxed).
    fn relax(&mut self) -> (u64, u64) {
        let g = Arc::clone(&self.graph);
        let succ = g.successors();
        let mut attempted = 0u64;
        match self.variant {
            RelaxVariant::Successors => {
                let mut scanned = 0u64;
                for i in 0..self.frontier.len() {
                    let f = self.frontier[i];
                    let df = self.dist[f as usize];
                    for (u, w) in succ.arcs(f) {
                        scanned += 1;
                        if !self.settled[u as usize] {
                            attempted += 1;
                            self.lower(u, df + w as Distance);
                        }
                    }
                }
                (scanned, attempted)
            }
            RelaxVariant::Predecessors => {
                // Threads with work: unsettled out-neighbours of F. Each pulls over all its
                // in-arcs, reading δ only from frontier predecessors; no two threads write the
                // same vertex, so no atomics are needed.
                let pred = g.predecessors();
                for &f in &self.frontier {
                    self.in_frontier[f as usize] = true;
                }
                self.candidates.clear();
                for &f in &self.frontier {
                    for (u, _) in succ.arcs(f) {
                        if !self.settled[u as usize] && !self.in_frontier[u as usize] {
                            // in_frontier doubles as "already a candidate" for unsettled u.
                            self.in_frontier[u as usize] = true;
                            self.candidates.push(u);
                        }
                    }
                }
                for i in 0..self.candidates.len() {
                    let u = self.candidates[i];
                    let mut best = self.dist[u as usize];
                    for (p, w) in pred.arcs(u) {
                        if self.in_frontier[p as usize] && self.settled[p as usize] {
                            attempted += 1;
                            best = best.min(self.dist[p as usize] + w as Distance);
                        }
                    }
                    self.lower(u, best);
                }
                for &f in &self.frontier {
                    self.in_frontier[f as usize] = false;
                }
                for &u in &self.candidates {
                    self.in_frontier[u as usize] = false;
                }
                (self.figures.unsettled_in_arcs, attempted)
            }
        }
    }

    /// Pops stale entries; returns the valid minimum of each heap.
    fn minimum(&mut self) -> (Distance, Distance) {
        let omega = self.graph.omega();
        for &(u, _) in &self.lowered {
            let d = self.dist[u as usize];
            self.by_delta.push(Reverse((d, u)));
            let w = omega[u as usize];
            if w != INF {
                self.by_crauser.push(Reverse((d + w, u)));
            }
        }
        while let Some(&Reverse((d, u))) = self.by_delta.peek() {
            if self.settled[u as usize] || self.dist[u as usize] != d {
                self.by_delta.pop();
            } else {
                break;
            }
        }
        while let Some(&Reverse((k, u))) = self.by_crauser.peek() {
            if self.settled[u as usize] || self.dist[u as usize] + omega[u as usize] != k {
                self.by_crauser.pop();
            } else {
                break;
            }
        }
        let martin = self.by_delta.peek().map_or(INF, |Reverse((d, _))| *d);
        // If every reached unsettled vertex is a sink, min(δ + ω) = ∞ and all of them are final.
        let crauser = if martin == INF { INF } else { self.by_crauser.peek().map_or(INF, |Reverse((k, _))| *k) };
        (martin, crauser)
    }

    /// Update phase: settles U ∩ {δ ≤ Δ} into the next frontier.
    fn update(&mut self, delta: Distance) {
        self.frontier.clear();
        while let Some(&Reverse((d, u))) = self.by_delta.peek() {
            if d > delta {
                break;
            }
            self.by_delta.pop();
            if self.settled[u as usize] || self.dist[u as usize] != d {
                continue;
            }
            self.settled[u as usize] = true;
            self.frontier.push(u);
        }
        self.figures.settle(&self.graph, &self.frontier);
        self.settled_count += self.frontier.len() as u64;
        self.reached_unsettled -= self.frontier.len() as u64;
    }
}

impl Stepper for FrontierStepper {
    super::stepper_getters!(done = done);

    fn device(&self) -> String {
        super::cpu_device(1)
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        if self.done {
            return Ok(None);
        }
        self.iteration += 1;
        let start =
            self.figures.start(&self.graph, &self.frontier, self.opts.block.relax, self.iteration, self.settled_count);
        self.lowered.clear();

        let t0 = Instant::now();
        let (edges_scanned, relax_attempted) = self.relax();
        let t1 = Instant::now();
        let (min_delta, min_crauser) = self.minimum();
        let t = Thresholds::from_minima(self.threshold, min_delta, min_crauser);
        let reached = self.reached_unsettled;
        let t2 = Instant::now();
        if t.finished() {
            self.frontier.clear();
            self.done = true;
        } else {
            self.update(t.delta);
        }
        let t3 = Instant::now();

        let relax = (edges_scanned, relax_attempted, self.lowered.len() as u64);
        let times = PhaseTimes::from_instants(t0, t1, t2, t3);
        let record = start.record(reached, self.settled_count, relax, times, &t, self.frontier.len() as u64);
        let delta = self.opts.record_deltas.then(|| StepDelta {
            lowered: self.lowered.iter().map(|&(u, old)| (u, old, self.dist[u as usize])).collect(),
            settled: self.frontier.clone(),
        });
        Ok(Some(Step { record, delta }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.dist.clone())
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let graph = Arc::clone(&self.graph);
        let mut run = super::run_without_deltas(self, |s| &mut s.opts.record_deltas, &graph, cancel, progress)?;
        run.iterations = self.iteration;
        run.reached = self.settled_count;
        Ok(run)
    }
}
