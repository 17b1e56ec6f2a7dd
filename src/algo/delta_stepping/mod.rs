//! Δ-stepping ([meyer-sanders]; the GAP Benchmark Suite's `sssp` is the reference CPU code,
//! [gapbs]): vertices wait in buckets of width Δ, bucket i holding δ ∈ [iΔ, (i+1)Δ). The lowest
//! non-empty bucket is emptied in *light phases*: its vertices relax their light arcs (w ≤ Δ),
//! which may put vertices back into the same bucket, until it stays empty; then the vertices
//! removed from it (R) are final and relax their heavy arcs (w > Δ) once, in one *heavy phase*
//! (skipped when R has none). One `step` is one phase.
//!
//! Parameter `delta`: the bucket width; 0 (the default) derives it from the graph by
//! [`auto_delta`]. Δ = 1 on integer weights is Dial's bucket queue (Dijkstra, one distance per
//! bucket); Δ ≥ the largest distance is one bucket, i.e. frontier-filtered Bellman-Ford.
//! Where it wins: many vertices per bucket (high degree, small Δ: R-MAT; or a Δ spanning many
//! hops on roads) with O(n + m) work for a good Δ ([meyer-sanders] §3). Where it loses: a Δ too
//! small pays one synchronised phase per bucket for little work (roads with Δ = 1), too large
//! re-relaxes vertices many times per bucket (Bellman-Ford's waste); the best Δ depends on the
//! graph, and no rule is right everywhere.
//!
//! Phases are synchronous, so one thread and all cores record the same phases: a light phase
//! relaxes the light arcs of the current bucket's frontier against δ as the phase began
//! (`prev`), lowering δ with an atomic `fetch_min`; a stamp per vertex collects each lowered
//! vertex once, in thread-local lists. After the phase the lowered vertices go, in vertex order,
//! into the bin of their final δ: the current bucket's (the next frontier) or a later one.
//! GAPBS instead pushes a vertex into a thread-local bin every time it is lowered and relaxes
//! whatever the bins hold; binning once per phase by the final δ keeps the sets (and so every
//! count) independent of the interleaving. Later bins are lazy: an entry is skipped when its
//! vertex has since moved to a lower bucket, and a vertex enters a bin only when it changes
//! bucket, so a bin holds each vertex at most once. The light and heavy arcs of each vertex are
//! split once into a copy of the adjacency (skipped when every arc is light).
//!
//! Running to the end (`launch=fast`, the default, as `solve`, `check` and the benchmarks do)
//! takes another path, [`fast`]: GAP's own rounds with thread-local bins, bin fusion and no
//! per-phase records — the speed the issue measures against GAP. `launch=per-phase` runs the
//! recorded phases to the end instead.

mod barrier;
mod fast;
mod fast1;
mod help;
mod relax;
mod stepper;
mod team;
mod wasp;

pub use stepper::DeltaSteppingStepper;

use super::{
    Algorithm, AlgorithmSpec, CodeLine, Family, ParamKind, ParamSpec, Params, Phase, PlotGroup, SeriesSpec, SeriesUnit,
};
use crate::graph::{Distance, Graph};

/// Δ-stepping ([meyer-sanders], [gapbs]).
pub const DELTA_STEPPING: Algorithm = Algorithm(&DELTA_STEPPING_SPEC);

static PARAMS: [ParamSpec; 3] = [
    ParamSpec {
        key: "delta",
        label: "Bucket width Δ",
        help: "Δ-stepping's bucket width; arcs with w ≤ Δ are light. 0 = auto: ceil(w_max / (d̄ · max(1, d̄/4))) with d̄ the \
mean out-degree ([meyer-sanders]' Θ(1/d) for uniform weights, divided again on graphs denser than roads)",
        kind: ParamKind::Int { min: 0, max: 1 << 53, default: 0, tests: &[1, 100_000] },
    },
    ParamSpec {
        key: "relax",
        label: "Arcs per thread",
        help: "GPU relax: vertex = one thread walks all arcs of its frontier vertex (a hub stalls its warp); \
balanced = a block's threads share the arcs of the block's frontier vertices, one arc each, found by binary \
search in the block's degree prefix sums (the load balancing of skewed degrees). The CPU models the lane use \
of either; distances and phases are the same",
        kind: ParamKind::Choice { values: &["vertex", "balanced"], default: "vertex" },
    },
    ParamSpec {
        key: "worklist",
        label: "GPU worklist",
        help: "GPU bucket structure: marks = lazy buckets in per-vertex marks, six vertex-parallel launches per \
phase (the recorded phases of the CPU stepper); near-far = a near list and a far pile split by a moving threshold T \
(Davidson et al. IPDPS 2014), small phases run by one block (CUDA: one persistent kernel; wgpu: one dispatch per larger \
phase), Δ = 0 from a GPU rule (16 mean weights when the maximum degree is ≤ 32, 8 when it is ≥ 64 × the mean, else half a \
mean weight). The CPU runs \
the same Δ-stepping for either value",
        kind: ParamKind::Choice { values: &["marks", "near-far"], default: "marks" },
    },
];

static SERIES: [SeriesSpec; 7] = [
    SeriesSpec {
        key: "bucket",
        label: "bucket i",
        help: "index of the current bucket, δ ∈ [iΔ, (i+1)Δ)",
        unit: SeriesUnit::Count,
        group: PlotGroup::Table,
    },
    SeriesSpec {
        key: "bucket_size",
        label: "bucket size",
        help: "vertices of the current bucket so far: removed in its earlier phases or in this frontier",
        unit: SeriesUnit::Count,
        group: PlotGroup::Sets,
    },
    SeriesSpec {
        key: "light_relax",
        label: "light relaxations",
        help: "light arcs (w ≤ Δ) relaxed this phase",
        unit: SeriesUnit::Count,
        group: PlotGroup::Work,
    },
    SeriesSpec {
        key: "heavy_relax",
        label: "heavy relaxations",
        help: "heavy arcs (w > Δ) relaxed this phase (only in the heavy phase that ends a bucket)",
        unit: SeriesUnit::Count,
        group: PlotGroup::Work,
    },
    SeriesSpec {
        key: "delta",
        label: "Δ bucket width",
        help: "the bucket width used (the auto rule's value when the parameter is 0)",
        unit: SeriesUnit::Distance,
        group: PlotGroup::Thresholds,
    },
    SeriesSpec {
        key: "next_frontier",
        label: "next |F|",
        help: "vertices whose arcs the next phase relaxes",
        unit: SeriesUnit::Count,
        group: PlotGroup::Table,
    },
    SeriesSpec {
        key: "lane_use",
        label: "lane use (relax)",
        help: "arc iterations of the relax loop / lane-iterations its warps spent (1 = every lane busy): with \
relax=vertex a warp runs as long as its highest-degree frontier vertex; with relax=balanced a block runs \
ceil(its frontier's arcs / block size) rounds",
        unit: SeriesUnit::Ratio,
        group: PlotGroup::Threads,
    },
];

/// Δ-stepping, one phase per step.
pub static DELTA_STEPPING_SPEC: AlgorithmSpec = AlgorithmSpec {
    id: "delta-stepping",
    name: "Δ-stepping",
    summary: "Δ-stepping: buckets of width Δ, light arcs in phases, heavy arcs once per bucket",
    reference: "[meyer-sanders] §2–3; [gapbs] sssp",
    iteration: "one phase: relax the light arcs of the current bucket's frontier against δ as the phase began, \
or, once the bucket stays empty, the heavy arcs of the vertices removed from it",
    family: Family::Bucketed,
    params: &PARAMS,
    series: &SERIES,
    code,
    finished: "every bucket is empty",
    exact: |_| true,
    cpu: |g, a, s, o| Ok(Box::new(DeltaSteppingStepper::new(g, a, s, 1, o.clone())?)),
    negative_weights: false,
    cpu_parallel: Some(|g, a, s, t, o| Ok(Box::new(DeltaSteppingStepper::new(g, a, s, t, o.clone())?))),
};

/// The bucket width rule (`delta`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeltaRule {
    /// `delta=0`: [`auto_delta`] of the graph.
    Auto,
    /// A fixed width, ≥ 1.
    Fixed(Distance),
}

impl DeltaRule {
    /// The width on `graph`.
    pub fn width(self, graph: &Graph) -> Distance {
        match self {
            DeltaRule::Auto => auto_delta(graph),
            DeltaRule::Fixed(d) => d,
        }
    }
}

/// How the relax spreads arcs over a GPU's lanes (`relax`); the CPU models either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneMode {
    /// One thread walks all arcs of its frontier vertex.
    Vertex,
    /// A block's threads share the arcs of its frontier vertices.
    Balanced,
}

/// Δ-stepping's parameters, decoded once ([`DeltaSteppingParams::decode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeltaSteppingParams {
    pub delta: DeltaRule,
    pub relax: LaneMode,
    /// `worklist=near-far`: the persistent near-far kernel on CUDA (the CPU ignores it).
    pub near_far: bool,
}

impl DeltaSteppingParams {
    /// Decodes `params` (unset keys take the defaults).
    ///
    /// Errors: a value not declared or out of range, naming the key and the value.
    pub fn decode(params: &Params) -> Result<DeltaSteppingParams, String> {
        let a = DELTA_STEPPING;
        let delta = match a.decode_int(params, "delta")? {
            d if d <= 0 => DeltaRule::Auto,
            d => DeltaRule::Fixed(d as Distance),
        };
        let relax = a.decode(params, "relax", &[("vertex", LaneMode::Vertex), ("balanced", LaneMode::Balanced)])?;
        let near_far = a.decode(params, "worklist", &[("marks", false), ("near-far", true)])?;
        Ok(DeltaSteppingParams { delta, relax, near_far })
    }

    /// Whether a block's threads share its frontier's arcs.
    pub fn balanced(&self) -> bool {
        self.relax == LaneMode::Balanced
    }
}

/// The pseudo-code, the same for every parameter value.
static CODE: [CodeLine; 11] = [
    (Phase::Init, "δ(s) ← 0; δ(v) ← ∞ (v ≠ s); B[0] ← {s}"),
    (Phase::Loop, "while some B[j] ≠ ∅ do"),
    (Phase::Minimum, "  i ← min{j : B[j] ≠ ∅}; R ← ∅"),
    (Phase::Loop, "  while B[i] ≠ ∅ do                  (a light phase)"),
    (Phase::Relax, "    F ← B[i]; R ← R ∪ F; B[i] ← ∅"),
    (Phase::Relax, "    for (u,v,w), u ∈ F, w ≤ Δ, in parallel:"),
    (Phase::Relax, "      atomicMin(δ(v), δ_prev(u)+w)"),
    (Phase::Update, "    move each lowered v to B[floor(δ(v)/Δ)]"),
    (Phase::Relax, "  for (u,v,w), u ∈ R, w > Δ, in parallel:  (the heavy phase)"),
    (Phase::Relax, "    atomicMin(δ(v), δ(u)+w)"),
    (Phase::Update, "  move each lowered v to B[floor(δ(v)/Δ)]; R is settled"),
];

fn code(_: &Params) -> Vec<CodeLine> {
    CODE.to_vec()
}

/// Δ when the parameter is 0: ⌈w_max / (d̄ · max(1, d̄ / 4))⌉ with d̄ = m / n the mean
/// out-degree, at least 1 (1 for a graph without arcs or with only zero weights).
///
/// [meyer-sanders] prove O(n + m) work for Δ = Θ(1/d) on weights uniform in [0, 1] and maximum
/// degree d; with weights up to w_max that is w_max / d. The mean degree stands in for d so one
/// hub does not shrink Δ for the whole graph. On roads (d̄ < 4; NY: w_max = 36 946, d̄ = 2.8)
/// that is the whole rule: Δ ≈ 13 300, about ten mean arcs, buckets spanning several hops
/// (GAP tunes NY by hand to 25 000–50 000, the same order). Where d̄ > 4 the number of vertices
/// within a distance grows like d̄ per hop, so a bucket of width w_max / d̄ already holds far
/// more vertices than the threads need and relaxes many of them again: the rule divides once
/// more by d̄ / 4. On GAP's Kronecker and uniform random graphs (weights 1..255, d̄ ≈ 30–32)
/// it gives 2 and 1, GAP's hand-tuned values; w_max / d̄ alone gave 9, 25–30 % slower on 16
/// cores (`bench/results/cpu-peers-2026-11-26/`). The factor 4 is fitted on those four graphs.
pub fn auto_delta(graph: &Graph) -> Distance {
    let (n, m, w_max) = (graph.n() as u128, graph.m() as u128, graph.max_weight().max(0) as u128);
    if m == 0 {
        return 1;
    }
    // In integers: ⌈w_max · n / m⌉ up to d̄ = 4, then ⌈4 · w_max · n² / m²⌉.
    let delta = if m <= 4 * n { (w_max * n).div_ceil(m) } else { (4 * w_max * n * n).div_ceil(m * m) };
    delta.clamp(1, 1 << 53) as Distance
}
