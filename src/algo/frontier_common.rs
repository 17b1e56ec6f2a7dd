//! What the frontier solvers share, below both CPU steppers ([`super::FrontierStepper`],
//! [`super::ParallelFrontierStepper`]) and the GPU devices: the typed parameters
//! ([`FrontierParams`], decoded once from an [`AlgoChoice`](super::AlgoChoice)'s strings), the
//! declared values of an iteration ([`frontier_values`]) and the modelled thread and lane
//! figures of the relax launch ([`LaunchFigures`], [`relax_lane_use`]).

use super::model::{ShrinkingWarpCounter, SparseWarpCounter};
use super::{
    Algorithm, Family, IterationRecord, LaneCounter, Params, PhaseTimes, RelaxVariant, SolveError, SolveOptions,
    ThreadCounts, Threshold, Thresholds, Values, dist_value,
};
use crate::graph::{Graph, VertexId};

/// The frontier relax (`relax`): the successors' three kernels, the predecessors' two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontierRelax {
    /// Successors, atomicMin per arc (FGPU).
    Atomic,
    /// Successors, read-compare-write that races on parallel devices (`racy`, `[seed004]` §4.3).
    NonAtomic,
    /// Successors, a block's frontier arcs spread over its threads (degree prefix sum).
    Balanced,
    /// Predecessors, one thread per unsettled vertex pulls (UGPU).
    Plain,
    /// Predecessors with shared-memory offsets and read-only-cache flags (UGPU_PLUS, §4.2).
    Cached,
}

/// Where the phases of an iteration run (`split`; `[seed004]` §4.1's hybrids).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HybridSplit {
    /// Every phase on the GPU.
    Gpu,
    /// UH1: update on the GPU; relax and minimum on the CPU.
    Uh1,
    /// UH2: relax on the GPU; update and minimum on the CPU.
    Uh2,
    /// UH3: relax and update on the GPU; minimum on the CPU.
    Uh3,
}

/// The minimum's passes on the GPU (`minimum`; `[seed004]` §4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinimumPasses {
    /// Both reductions on the GPU (UGPU+2min).
    TwoPass,
    /// The block minima reduced on the host (UGPU).
    OnePass,
}

/// The graph on the GPU (`layout`; `[seed004]` §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphLayout {
    Lists,
    /// The n × n weight matrix.
    Matrix,
}

/// A frontier solver's parameters, decoded once ([`FrontierParams::decode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrontierParams {
    pub relax: FrontierRelax,
    /// Always [`HybridSplit::Gpu`] for the successors (they declare no `split`).
    pub split: HybridSplit,
    pub minimum: MinimumPasses,
    pub layout: GraphLayout,
}

impl FrontierParams {
    /// Decodes `params` of the frontier algorithm `algo` (unset keys take the defaults).
    ///
    /// Errors: a value `algo` does not declare, naming the key and the value.
    pub fn decode(algo: Algorithm, params: &Params) -> Result<FrontierParams, String> {
        use FrontierRelax::*;
        let relax = algo.decode(
            params,
            "relax",
            &[
                ("atomic", Atomic),
                ("non-atomic", NonAtomic),
                ("balanced", Balanced),
                ("plain", Plain),
                ("cached", Cached),
            ],
        )?;
        let split = if algo.variant() == Some(RelaxVariant::Predecessors) {
            use HybridSplit::*;
            algo.decode(params, "split", &[("gpu", Gpu), ("uh1", Uh1), ("uh2", Uh2), ("uh3", Uh3)])?
        } else {
            HybridSplit::Gpu
        };
        let minimum = algo.decode(
            params,
            "minimum",
            &[("two-pass", MinimumPasses::TwoPass), ("one-pass", MinimumPasses::OnePass)],
        )?;
        let layout =
            algo.decode(params, "layout", &[("lists", GraphLayout::Lists), ("matrix", GraphLayout::Matrix)])?;
        Ok(FrontierParams { relax, split, minimum, layout })
    }

    /// The defaults (`decode` of no values) for `algo`'s variant.
    pub fn defaults(variant: RelaxVariant) -> FrontierParams {
        let relax = match variant {
            RelaxVariant::Successors => FrontierRelax::Atomic,
            RelaxVariant::Predecessors => FrontierRelax::Plain,
        };
        FrontierParams { relax, split: HybridSplit::Gpu, minimum: MinimumPasses::TwoPass, layout: GraphLayout::Lists }
    }

    /// `decode`, or the variant's defaults for values that do not decode (the pseudo-code and
    /// `exact` of a spec, which cannot fail; runs are validated before they start).
    pub fn or_defaults(algo: Algorithm, params: &Params) -> FrontierParams {
        Self::decode(algo, params)
            .unwrap_or_else(|_| Self::defaults(algo.variant().unwrap_or(RelaxVariant::Successors)))
    }

    /// The successors relax without atomics.
    pub fn racy(&self) -> bool {
        self.relax == FrontierRelax::NonAtomic
    }

    /// The block-balanced successors relax.
    pub fn balanced(&self) -> bool {
        self.relax == FrontierRelax::Balanced
    }

    /// Seed 004's variants that only CUDA's per-phase kernels implement, as `key=value` (empty
    /// for the default kernels).
    pub fn cuda_only(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.relax == FrontierRelax::Cached {
            out.push("relax=cached".to_string());
        }
        match self.split {
            HybridSplit::Gpu => {}
            HybridSplit::Uh1 => out.push("split=uh1".into()),
            HybridSplit::Uh2 => out.push("split=uh2".into()),
            HybridSplit::Uh3 => out.push("split=uh3".into()),
        }
        if self.minimum == MinimumPasses::OnePass {
            out.push("minimum=one-pass".into());
        }
        if self.layout == GraphLayout::Matrix {
            out.push("layout=matrix".into());
        }
        out
    }
}

/// The shape and typed parameters of frontier algorithm `algo` (both CPU steppers).
///
/// Errors: [`SolveError::Options`] for another family or a value that does not decode.
pub(crate) fn decode(
    algo: Algorithm,
    opts: &SolveOptions,
) -> Result<(Threshold, RelaxVariant, FrontierParams), SolveError> {
    let Family::Frontier { threshold, variant } = algo.spec().family else {
        return Err(SolveError::Options(format!("{algo} is not a frontier solver")));
    };
    let params = FrontierParams::decode(algo, &opts.params).map_err(SolveError::Options)?;
    Ok((threshold, variant, params))
}

/// The declared values of a frontier iteration (every device writes them through this);
/// `lane_use` ([`crate::algo::lane_use`]) only for the successors relax, `None` where the run
/// did not count it (the fast paths).
pub fn frontier_values(t: &Thresholds, next_frontier: u64, lane_use: Option<f64>) -> Values {
    let v = [dist_value(t.delta), dist_value(t.martin), dist_value(t.crauser), next_frontier as f64];
    match lane_use {
        Some(l) => Values::from_slice(&[v[0], v[1], v[2], v[3], l]),
        None => Values::from_slice(&v),
    }
}

/// Lane use of the successors relax over `frontier` (`None` for predecessors, which declare no
/// such series): one thread per vertex, or block-balanced (`balanced`: `relax=balanced`). Shared by the
/// CPU steppers and the GPU records rebuilt from state copies, so all model it the same way.
pub fn relax_lane_use(
    lanes: &mut LaneCounter,
    graph: &Graph,
    variant: RelaxVariant,
    balanced: bool,
    frontier: &[VertexId],
    block: u32,
) -> Option<f64> {
    if variant != RelaxVariant::Successors {
        return None;
    }
    let succ = graph.successors();
    let (arcs, warps) = lanes.count(frontier, |v| succ.degree(v) as u64, block, balanced);
    Some(super::lane_use(arcs, warps))
}

/// The modelled relax launch of a CPU frontier stepper: threads and warp classes (a thread per
/// frontier vertex for successors, per unsettled vertex for predecessors) and lane use.
pub(crate) struct LaunchFigures {
    variant: RelaxVariant,
    balanced: bool,
    frontier_warps: SparseWarpCounter,
    unsettled_warps: ShrinkingWarpCounter,
    lanes: LaneCounter,
    /// Σ in-degree over U: the arcs a full predecessors launch scans.
    pub unsettled_in_arcs: u64,
}

impl LaunchFigures {
    /// At the start of a run from `source` (settled, in F₁).
    pub fn new(graph: &Graph, variant: RelaxVariant, params: &FrontierParams, source: VertexId) -> LaunchFigures {
        let n = graph.n();
        let mut unsettled_warps = ShrinkingWarpCounter::full(n);
        unsettled_warps.remove(source);
        let unsettled_in_arcs = if variant == RelaxVariant::Predecessors {
            (graph.m() - graph.predecessors().degree(source)) as u64
        } else {
            0
        };
        LaunchFigures {
            variant,
            balanced: params.balanced(),
            frontier_warps: SparseWarpCounter::new(n),
            unsettled_warps,
            lanes: LaneCounter::default(),
            unsettled_in_arcs,
        }
    }

    /// Iteration `iteration` begins with `frontier` and `settled` vertices settled: its
    /// modelled relax launch with `block` threads per block.
    pub fn start(
        &mut self,
        graph: &Graph,
        frontier: &[VertexId],
        block: u32,
        iteration: u32,
        settled: u64,
    ) -> IterationStart {
        let n = graph.n() as u64;
        let threads = match self.variant {
            RelaxVariant::Successors => self.frontier_warps.count(n, block, frontier),
            RelaxVariant::Predecessors => self.unsettled_warps.counts(block),
        };
        let lane_use = relax_lane_use(&mut self.lanes, graph, self.variant, self.balanced, frontier, block);
        IterationStart { iteration, frontier: frontier.len() as u64, unsettled: n - settled, threads, lane_use }
    }

    /// `settled` left U (for the predecessors' scanned in-arcs too).
    pub fn settle(&mut self, graph: &Graph, settled: &[VertexId]) {
        let pred = (self.variant == RelaxVariant::Predecessors).then(|| graph.predecessors());
        for &u in settled {
            self.unsettled_warps.remove(u);
            if let Some(p) = pred {
                self.unsettled_in_arcs -= p.degree(u) as u64;
            }
        }
    }
}

/// What a CPU frontier iteration knows before its relax: the record's first half.
pub(crate) struct IterationStart {
    iteration: u32,
    frontier: u64,
    unsettled: u64,
    threads: ThreadCounts,
    lane_use: Option<f64>,
}

impl IterationStart {
    /// The iteration's record: `reached` unsettled after the relax, `settled` in all after the
    /// update, the relax's (arcs scanned, arcs relaxed, vertices lowered), the phase times,
    /// the thresholds and the next frontier's size.
    pub fn record(
        self,
        reached: u64,
        settled: u64,
        (scanned, attempted, improved): (u64, u64, u64),
        times: PhaseTimes,
        t: &Thresholds,
        next_frontier: u64,
    ) -> IterationRecord {
        IterationRecord {
            iteration: self.iteration,
            frontier: self.frontier,
            unsettled: self.unsettled,
            reached,
            settled,
            edges_scanned: scanned,
            relax_attempted: attempted,
            relax_improved: improved,
            threads: Some(self.threads),
            times,
            values: frontier_values(t, next_frontier, self.lane_use),
        }
    }
}
