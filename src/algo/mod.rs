//! SSSP solvers as *steppers*: one iteration at a time, with a record of every measurement
//! (`[terms-measurements]` in docs/references.md), or to the end in one call.
//!
//! The algorithms are listed once, in [`registry::ALGORITHMS`]; each lives in its own module
//! with its [`AlgorithmSpec`] and CPU reference stepper. Every device (CPU, CUDA, wgpu)
//! implements [`Stepper`] for the algorithms it supports; the app, the CLI and the benchmarks
//! only ever talk to this trait.
//!
//! Iteration contract (every algorithm): after construction the source is settled (δ(s) = 0).
//! `step` runs one iteration as the algorithm defines it ([`AlgorithmSpec::iteration`]):
//! a frontier solver relaxes the out-arcs of Fᵢ (**relax**), computes the threshold Δᵢ over the
//! unsettled set Uᵢ (**minimum**, [`Thresholds`]) and moves U ∩ {δ ≤ Δᵢ} into Fᵢ₊₁
//! (**update**); sequential Dijkstra does the same with |Fᵢ| = 1; a bucketed solver
//! (Δ-stepping) runs one phase of its current bucket, an edge-parallel one one pass over the arcs. Every
//! [`IterationRecord`] carries the common measurements ([`COMMON_SERIES`]: |F| is the set whose
//! arcs this iteration relaxed) and the values the algorithm declares
//! ([`AlgorithmSpec::series`]). `settled` counts vertices whose distance is known to be final;
//! an algorithm that cannot tell before it converges reports 0 until its last iteration. The
//! run ends when `step` returns `Ok(None)`.

mod bellman_ford;
mod delta_stepping;
mod dijkstra;
mod frontier;
mod frontier_common;
mod kernels;
pub mod model;
mod negative_cycle;
mod parallel;
pub mod phast;
mod radix_heap;
mod records;
mod reference;
pub mod registry;
mod seed001;
mod series;
mod threshold;

pub use bellman_ford::{
    ArcOrder, BELLMAN_FORD, BellmanFordParams, BellmanFordStepper, EdgeList, PassBook, PassFilter, PassStart,
    PassTally, edge_list,
};
pub use delta_stepping::{DELTA_STEPPING, DeltaRule, DeltaSteppingParams, DeltaSteppingStepper, LaneMode, auto_delta};
pub use dijkstra::{DIJKSTRA, DijkstraStepper, dijkstra_distances};
pub use frontier::{CRAUSER_PRED, CRAUSER_SUCC, FrontierStepper, MARTIN_PRED, MARTIN_SUCC};
pub use frontier_common::{
    FrontierParams, FrontierRelax, GraphLayout, HybridSplit, MinimumPasses, frontier_values, relax_lane_use,
};
pub use kernels::{BlockField, KernelSpec};
pub use model::{LaneCounter, lane_use};
pub use negative_cycle::{NegativeCycle, find_negative_cycle, negative_cycle_error};
pub use parallel::ParallelFrontierStepper;
pub use phast::{PHAST, PhastStepper};
pub use records::{IterationRecord, PhaseTimes, RunRecord, StepDelta, ThreadCounts, ThreadTime, fmt_distance};
pub use reference::reference_distances;
pub use registry::{AlgoChoice, Algorithm, AlgorithmSpec, Family, ParamKind, ParamSpec, Params};
pub use seed001::{
    BinaryHeapStepper, CGS_LOCK, DIJKSTRA_BHEAP, FGS_LOCK, FoldStepper, HELPER, HELPER_FOLD, LockStepper,
};
pub use series::{
    COMMON_SERIES, CodeLine, MAX_VALUES, Phase, PlotGroup, SeriesRef, SeriesSpec, SeriesUnit, Values, dist_value,
    series_of,
};
pub use threshold::{RelaxVariant, Threshold, Thresholds};

use crate::graph::{Distance, VertexId};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;

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

/// How a GPU device runs `run_to_end` (stepping always launches the three per-phase kernels).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Launch {
    /// The device's fastest path: CUDA's persistent kernel, wgpu's lists and teams (when the
    /// device and the options allow it).
    #[default]
    Fast,
    /// Relax, minimum and update as separate vertex-parallel launches every iteration, as the
    /// papers launch them (seed 000 §3, seed 004 §4).
    PerPhase,
}

impl std::str::FromStr for Launch {
    type Err = String;
    fn from_str(s: &str) -> Result<Launch, String> {
        match s {
            "fast" => Ok(Launch::Fast),
            "per-phase" => Ok(Launch::PerPhase),
            _ => Err(format!("launch `{s}`: use fast or per-phase")),
        }
    }
}

/// Options every stepper receives: the algorithm's parameter values and the tuning of the run.
/// Tuning travels with each run (no process-wide state): two runs with different values can
/// share a process, a device and a thread.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SolveOptions {
    /// Parameter values of the algorithm ([`AlgorithmSpec::params`]; unset = default).
    #[serde(default)]
    pub params: Params,
    pub block: BlockSizes,
    pub cache: CachePreference,
    /// How a GPU runs to the end: its fast path, or the papers' per-phase launches.
    #[serde(default)]
    pub launch: Launch,
    /// CUDA fast path: blocks per multiprocessor of the persistent kernel (`None`: as many as
    /// fit). Ignored elsewhere.
    #[serde(default)]
    pub blocks_per_sm: Option<u32>,
    /// CUDA fast path: work (|R| + |F| · mean degree) under which one block runs an iteration
    /// alone (`Some(0)` turns solo mode off; `None`: 4 × the relax block size). Ignored elsewhere.
    #[serde(default)]
    pub solo_work: Option<u64>,
    /// GPU only: count working threads, warp classes and relaxations in the kernels
    /// (slower; never used for timings). The CPU always reports modelled counts.
    pub instrument: bool,
    /// Record [`StepDelta`]s so that a trace can step back (costs O(changes) per iteration).
    pub record_deltas: bool,
}

impl SolveOptions {
    /// Options with `params` for `choice`'s algorithm and defaults otherwise.
    pub fn for_choice(choice: &AlgoChoice) -> SolveOptions {
        SolveOptions { params: choice.params.clone(), ..Default::default() }
    }
}

/// Vertex status at an iteration boundary (`[terms-measurements]`).
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
    /// A negative cycle is reachable from the source, so shortest distances do not exist
    /// (`bellman-ford` reports it; [`negative_cycle_error`] names it). `vertex` and `path` use
    /// the file's ids; `weight` is the stored integer sum, `weight_text` as the file states it
    /// ([`crate::graph::Graph::weight_text`]).
    #[error(
        "negative cycle reachable from the source through vertex {vertex}: {path}, total weight {weight_text}; \
shortest distances are undefined"
    )]
    NegativeCycle { vertex: u64, path: String, weight: Distance, weight_text: String },
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
    /// The parameters the solver was built with (`None`: the algorithm's defaults), for the
    /// default [`Stepper::label`].
    fn params(&self) -> Option<&Params> {
        None
    }
    /// The algorithm with its non-default parameters, as [`run_label`] writes it.
    fn label(&self) -> String {
        match self.params() {
            Some(p) => run_label(self.algorithm(), p),
            None => self.algorithm().id().to_string(),
        }
    }
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
    /// Starts the solve again from `source` on the same graph and options, keeping what was
    /// built for the graph (device buffers, uploaded arrays, compiled kernels): many-source runs
    /// (seed 003) reuse one solver per worker this way. `Ok(false)` when this solver cannot (then
    /// the caller builds a new one); every solver that says `Ok(true)` behaves afterwards as if
    /// newly created from `source`.
    ///
    /// Errors: [`SolveError::BadSource`]; device errors (the solver is then unusable).
    fn restart(&mut self, _source: VertexId) -> Result<bool, SolveError> {
        Ok(false)
    }
    /// Per-thread time split since the run started (work, barriers, lock waits), thread 0
    /// first; empty for solvers that do not keep threads of their own (every solver but seed
    /// 001's schemes). Steps undone in the app stay counted: this is the machine's time.
    fn thread_times(&self) -> Vec<ThreadTime> {
        Vec::new()
    }
    /// Where the solver keeps δ and the settled stamps on a wgpu device, for a renderer on the
    /// same device to read without a host round trip; `None` for solvers without such buffers
    /// or whose buffers do not hold the state after the last [`Stepper::step`] (after a
    /// `run_to_end`, or a layout other than [`DeviceVertexState`]'s).
    fn device_state(&self) -> Option<DeviceVertexState> {
        None
    }
}

/// A GPU solver's vertex state where it lives (the wgpu frontier solvers'; layout of
/// `kernels/common.wgsl`): `dist[v]` is δ(v) as a u32 (2³²−1 = unreached) and `stamp[v]` the
/// 1-based iteration in which v is a frontier vertex (2³²−1 while unsettled), so after
/// `iterations` steps v is settled if `stamp[v] ≤ iterations`, in the frontier if
/// `stamp[v] == iterations + 1`. Both buffers hold n u32 words and have `STORAGE` usage.
#[derive(Clone, Debug)]
pub struct DeviceVertexState {
    pub device: wgpu::Device,
    pub dist: wgpu::Buffer,
    pub stamp: wgpu::Buffer,
    /// Iterations run (the trace position this state belongs to).
    pub iterations: u32,
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
        algorithm: st.label(),
        device: st.device(),
        graph: graph.name.clone(),
        n: graph.n(),
        m: graph.m(),
        source: st.source(),
        ..Default::default()
    };
    // Room for every iteration up front: a settle-based run has at most n + 1, and untouched
    // capacity costs no memory. Growing instead copied the records again and again (on NY,
    // Martín's 227 575 records, that was most of the time not spent relaxing).
    run.records.reserve(graph.n().saturating_add(1).min(1 << 20));
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

/// The [`Stepper`] getters every solver writes alike, from its fields `algo` (an
/// [`Algorithm`]), `opts` (its [`SolveOptions`]) and `source`: `algorithm`, `params` (hence
/// the default [`Stepper::label`]), `source`, and `is_done` from the field path given
/// (`stepper_getters!(done = book.done)`). Written once for the CPU steppers and the GPU ones.
macro_rules! stepper_getters {
    // A one-thread CPU stepper of a fixed algorithm without options (the Dijkstras): its
    // `algorithm`, `device`, `source` and `is_done` (the heap's next vertex is `current`).
    (sequential = $algo:path) => {
        fn algorithm(&self) -> $crate::algo::Algorithm {
            $algo
        }

        fn device(&self) -> String {
            "CPU (1 thread)".into()
        }

        fn source(&self) -> $crate::graph::VertexId {
            self.source
        }

        fn is_done(&self) -> bool {
            self.current.is_none()
        }
    };
    (done = $($done:ident).+) => {
        fn algorithm(&self) -> $crate::algo::Algorithm {
            self.algo
        }

        fn params(&self) -> Option<&$crate::algo::Params> {
            Some(&self.opts.params)
        }

        fn source(&self) -> $crate::graph::VertexId {
            self.source
        }

        fn is_done(&self) -> bool {
            self.$($done).+
        }
    };
}
pub(crate) use stepper_getters;

/// [`run_by_steps`] with step deltas switched off for the run (`deltas` finds the stepper's
/// switch) and back on after it, as every CPU stepper's `run_to_end` does.
pub(crate) fn run_without_deltas<S: Stepper>(
    st: &mut S,
    deltas: fn(&mut S) -> &mut bool,
    graph: &crate::graph::Graph,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64),
) -> Result<RunRecord, SolveError> {
    let keep = std::mem::replace(deltas(st), false);
    let run = run_by_steps(st, graph, cancel, progress);
    *deltas(st) = keep;
    run
}

/// A rayon pool of `threads` threads (0 = every core), or `None` for one thread (the caller
/// runs the phases itself).
///
/// Errors: [`SolveError::Device`] when the threads cannot be started.
pub(crate) fn thread_pool(threads: usize) -> Result<Option<rayon::ThreadPool>, SolveError> {
    if threads == 1 {
        return Ok(None);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map(Some)
        .map_err(|e| SolveError::Device(format!("cannot start CPU threads: {e}")))
}

/// The device name of a CPU stepper on `threads` threads: "CPU (1 thread)", "CPU (4 threads)".
pub(crate) fn cpu_device(threads: usize) -> String {
    if threads == 1 { "CPU (1 thread)".into() } else { format!("CPU ({threads} threads)") }
}

/// Creates the CPU reference stepper (one thread) for `algo` from `source`.
///
/// Errors: [`SolveError::BadSource`] when `source ≥ n`; [`SolveError::Options`] for parameter
/// values the algorithm does not declare.
pub fn cpu_stepper(
    graph: std::sync::Arc<crate::graph::Graph>,
    algo: Algorithm,
    source: VertexId,
    opts: &SolveOptions,
) -> Result<Box<dyn Stepper>, SolveError> {
    check_source(&graph, source)?;
    algo.validate(&opts.params).map_err(SolveError::Options)?;
    check_weights(&graph, algo).map_err(SolveError::Options)?;
    (algo.spec().cpu)(graph, algo, source, opts)
}

/// `Err` with the first negative arc (in the file's vertex ids) when `graph` has negative
/// weights and `algo` does not declare [`AlgorithmSpec::negative_weights`]: label-setting and
/// bucketed solvers assume δ never drops below a settled value.
pub fn check_weights(graph: &crate::graph::Graph, algo: Algorithm) -> Result<(), String> {
    match graph.first_negative_arc() {
        Some((u, v, w)) if !algo.spec().negative_weights => {
            let l = graph.labels();
            let with = Algorithm::all().iter().filter(|a| a.spec().negative_weights).map(|a| a.id());
            Err(format!(
                "{algo} needs non-negative weights, but `{}` has negative ones (first: the arc from {} to {}, weight {}); \
                 use {}",
                graph.name,
                l.label(u),
                l.label(v),
                graph.weight_text(i64::from(w)),
                with.collect::<Vec<_>>().join(" or ")
            ))
        }
        _ => Ok(()),
    }
}

/// [`SolveError::BadSource`] unless `source < n`: every device's first check.
pub fn check_source(graph: &crate::graph::Graph, source: VertexId) -> Result<(), SolveError> {
    if source as usize >= graph.n() { Err(SolveError::BadSource(source as u64, graph.n())) } else { Ok(()) }
}

/// The label of a run of `algo` with `params` in records and reports: the id, or
/// `id:key=value` when parameters differ from the defaults (aliases such as `racy` print as
/// themselves).
pub fn run_label(algo: Algorithm, params: &Params) -> String {
    AlgoChoice { algorithm: algo, params: params.clone() }.to_string()
}
