//! SSSP solvers as *steppers*: one iteration at a time, with a record of every measurement of
//! design.md §3, or to the end in one call.
//!
//! Every device (CPU, CUDA, wgpu) implements [`Stepper`] for the algorithms it supports; the
//! app, the CLI and the benchmarks only ever talk to this trait.
//!
//! Iteration convention (all algorithms): after `reset`, the source is settled and forms the
//! first frontier F₁ = {s}. Iteration i relaxes the out-arcs of Fᵢ (**relax**), computes the
//! threshold Δᵢ over the unsettled set Uᵢ (**minimum**) and moves U ∩ {δ ≤ Δᵢ} into Fᵢ₊₁
//! (**update**). The run ends after the iteration whose minimum finds no reached vertex in U.
//! Sequential Dijkstra fits the same shape with |Fᵢ| = 1.

mod dijkstra;
mod frontier;
pub mod model;
mod parallel;
mod radix_heap;
mod records;

pub use dijkstra::{DijkstraStepper, dijkstra_distances};
pub use frontier::FrontierStepper;
pub use parallel::ParallelFrontierStepper;
pub use records::{IterationRecord, PhaseTimes, RunRecord, StepDelta, ThreadCounts, fmt_distance};

use crate::graph::{Distance, VertexId};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

/// The algorithms of design.md §2 that exist so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Algorithm {
    /// Sequential Dijkstra with a radix heap and lazy deletion: the baseline and second oracle.
    Dijkstra,
    /// Martín et al. (seed 004): Δᵢ = min{δ(u) : u ∈ U}, successors (push, atomicMin).
    MartinSucc,
    /// Martín et al., predecessors variant (pull from frontier in-neighbours, no atomics).
    MartinPred,
    /// Crauser et al. OUT criterion (seed 000 §3.1): Δᵢ = min{δ(u) + ω(u) : u ∈ U}, successors.
    CrauserSucc,
    /// Crauser, predecessors variant.
    CrauserPred,
    /// Martín's successors relax *without* atomics: read-compare-write races (seed 004 §4.3).
    /// Only meaningful on a GPU; on the CPU it is sequential and therefore correct.
    Racy,
}

/// Δ policy of a frontier solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Threshold {
    /// Δᵢ = min δ over U; settle δ = Δᵢ.
    Martin,
    /// Δᵢ = min (δ + ω) over U; settle δ ≤ Δᵢ.
    Crauser,
}

/// How the relax phase reaches the arcs (seed 004 Fig. 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RelaxVariant {
    /// One thread per vertex; frontier vertices push along out-arcs with atomicMin.
    Successors,
    /// One thread per vertex; unsettled vertices pull from frontier in-neighbours, no atomics.
    Predecessors,
}

impl Algorithm {
    /// Every algorithm, in menu order.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Dijkstra,
        Algorithm::MartinSucc,
        Algorithm::MartinPred,
        Algorithm::CrauserSucc,
        Algorithm::CrauserPred,
        Algorithm::Racy,
    ];

    /// The id used on the command line and in result files, e.g. `crauser-pred`.
    pub fn id(self) -> &'static str {
        match self {
            Algorithm::Dijkstra => "dijkstra",
            Algorithm::MartinSucc => "martin-succ",
            Algorithm::MartinPred => "martin-pred",
            Algorithm::CrauserSucc => "crauser-succ",
            Algorithm::CrauserPred => "crauser-pred",
            Algorithm::Racy => "racy",
        }
    }

    /// Δ policy; `None` for sequential Dijkstra.
    pub fn threshold(self) -> Option<Threshold> {
        match self {
            Algorithm::Dijkstra => None,
            Algorithm::MartinSucc | Algorithm::MartinPred | Algorithm::Racy => Some(Threshold::Martin),
            Algorithm::CrauserSucc | Algorithm::CrauserPred => Some(Threshold::Crauser),
        }
    }

    /// Relax variant; `None` for sequential Dijkstra.
    pub fn variant(self) -> Option<RelaxVariant> {
        match self {
            Algorithm::Dijkstra => None,
            Algorithm::MartinPred | Algorithm::CrauserPred => Some(RelaxVariant::Predecessors),
            _ => Some(RelaxVariant::Successors),
        }
    }

    /// One-line description for menus and help.
    pub fn describe(self) -> &'static str {
        match self {
            Algorithm::Dijkstra => "sequential Dijkstra, radix heap (baseline, oracle)",
            Algorithm::MartinSucc => "Martín: Δ = min δ over U; frontier pushes with atomicMin",
            Algorithm::MartinPred => "Martín: Δ = min δ over U; unsettled pull from frontier preds",
            Algorithm::CrauserSucc => "Crauser: Δ = min δ+ω over U; frontier pushes with atomicMin",
            Algorithm::CrauserPred => "Crauser: Δ = min δ+ω over U; unsettled pull from frontier preds",
            Algorithm::Racy => "Martín succ without atomics: races on the GPU (seed 004 §4.3)",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Algorithm::ALL.into_iter().find(|a| a.id() == s).ok_or_else(|| {
            let ids: Vec<&str> = Algorithm::ALL.iter().map(|a| a.id()).collect();
            format!("unknown algorithm `{s}`; expected one of: {}", ids.join(", "))
        })
    }
}

/// Block size (threads per block / workgroup) of each kernel, 32…1024. On the CPU it only feeds
/// the modelled thread and warp figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockSizes {
    pub relax: u32,
    pub minimum: u32,
    pub update: u32,
}

impl Default for BlockSizes {
    /// 256 for every kernel: seed 000's "default configuration".
    fn default() -> Self {
        BlockSizes { relax: 256, minimum: 256, update: 256 }
    }
}

impl BlockSizes {
    /// Checks the sizes are in 1..=1024 and the relax block is a whole number of warps (32…1024,
    /// a multiple of 32): the warp model classifies the relax kernel's warps. Devices may be
    /// stricter (CUDA wants multiples of 32 for every kernel).
    pub fn validate(&self) -> Result<(), String> {
        for (kernel, b) in [("minimum", self.minimum), ("update", self.update)] {
            if !(1..=1024).contains(&b) {
                return Err(format!("{kernel} block size {b}: use 1 to 1024 threads"));
            }
        }
        if !(32..=1024).contains(&self.relax) || !self.relax.is_multiple_of(32) {
            return Err(format!("relax block size {}: use a multiple of 32 between 32 and 1024", self.relax));
        }
        Ok(())
    }

    /// The same block size for all three kernels.
    pub fn uniform(b: u32) -> BlockSizes {
        BlockSizes { relax: b, minimum: b, update: b }
    }
}

/// Preferred split of on-chip memory between L1 and shared memory (CUDA's carveout attribute;
/// seed 000's "L1 augmented 48 KB vs normal 16 KB"). Ignored on the CPU and by wgpu.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CachePreference {
    #[default]
    Default,
    PreferL1,
    PreferShared,
}

/// Options every stepper receives.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SolveOptions {
    pub block: BlockSizes,
    pub cache: CachePreference,
    /// GPU only: count working threads, warp classes and relaxations in the kernels
    /// (slower; never used for timings). The CPU always reports modelled counts.
    pub instrument: bool,
    /// Record [`StepDelta`]s so that a trace can step back (costs O(changes) per iteration).
    pub record_deltas: bool,
}

/// Vertex status at an iteration boundary (design.md §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VertexStatus {
    /// Settled in an earlier iteration.
    Settled,
    /// Settled in the last iteration; its out-arcs are relaxed next.
    Frontier,
    /// Unsettled with δ < ∞.
    Reached,
    /// δ = ∞.
    Unreached,
}

/// Error from a solver or device (launch, copy, out of memory, bad source, cancelled).
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error("source vertex {0} does not exist (the graph has {1} vertices)")]
    BadSource(u64, usize),
    #[error("cancelled")]
    Cancelled,
    #[error("{0}")]
    Options(String),
    #[error("{0}")]
    Device(String),
}

/// One finished iteration: its measurements and (if requested) what changed.
#[derive(Clone, Debug)]
pub struct Step {
    pub record: IterationRecord,
    pub delta: Option<StepDelta>,
}

/// An SSSP solver that can run one iteration at a time.
///
/// Contract: after construction the source is settled (see the module docs); `step` returns
/// `Ok(None)` once finished and keeps returning it; `distances` never changes the run.
pub trait Stepper: Send {
    /// The algorithm it runs.
    fn algorithm(&self) -> Algorithm;
    /// Device name as listed in the UI, e.g. "CPU (1 thread)".
    fn device(&self) -> String;
    /// The source vertex.
    fn source(&self) -> VertexId;
    /// True once the last iteration has run.
    fn is_done(&self) -> bool;
    /// Runs one iteration.
    fn step(&mut self) -> Result<Option<Step>, SolveError>;
    /// Current tentative distances δ, n entries ([`crate::graph::INF`] = unreached).
    fn distances(&mut self) -> Result<Vec<Distance>, SolveError>;
    /// Runs the remaining iterations. `progress` gets the number of settled vertices now and
    /// then; `cancel` is polled between iterations. Per-iteration records are kept (they are
    /// small) but deltas are not.
    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError>;
}

/// Runs a frontier stepper to the end by repeated `step`s, keeping every record (they are small)
/// and polling `cancel` every 256 iterations. The caller switches deltas off around it and fills
/// in `iterations` and `reached`, which only it knows when the run started part-way.
pub(crate) fn run_by_steps(
    st: &mut dyn Stepper,
    graph: &crate::graph::Graph,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64),
) -> Result<RunRecord, SolveError> {
    let start = std::time::Instant::now();
    let mut run = RunRecord {
        algorithm: st.algorithm().id().into(),
        device: st.device(),
        graph: graph.name.clone(),
        n: graph.n(),
        m: graph.m(),
        source: st.source(),
        ..Default::default()
    };
    loop {
        if run.records.len().is_multiple_of(256) {
            if cancel.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(SolveError::Cancelled);
            }
            progress(run.records.last().map_or(1, |r| r.settled));
        }
        let Some(step) = st.step()? else { break };
        run.times.add(&step.record.times);
        run.records.push(step.record);
    }
    run.total_ms = start.elapsed().as_secs_f64() * 1e3;
    Ok(run)
}

/// Creates a CPU stepper for `algo` from `source`.
///
/// Errors: [`SolveError::BadSource`] when `source ≥ n`.
pub fn cpu_stepper(
    graph: std::sync::Arc<crate::graph::Graph>,
    algo: Algorithm,
    source: VertexId,
    opts: &SolveOptions,
) -> Result<Box<dyn Stepper>, SolveError> {
    if source as usize >= graph.n() {
        return Err(SolveError::BadSource(source as u64, graph.n()));
    }
    Ok(match (algo.threshold(), algo.variant()) {
        (Some(t), Some(v)) => Box::new(FrontierStepper::new(graph, algo, t, v, source, opts.clone())),
        _ => Box::new(DijkstraStepper::new(graph, source, opts.record_deltas)),
    })
}
