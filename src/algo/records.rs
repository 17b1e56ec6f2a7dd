//! Serde records of iterations and runs (docs/references.md `[terms-measurements]`): what the plots, the CLI and the
//! benchmark exports read.

use super::{Algorithm, Values};
use crate::graph::{Distance, INF, VertexId};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Threads and warps of the relax kernel for one iteration.
///
/// Vertex-parallel launch: `launched` = ⌈n/B⌉·B with B the relax block size. A thread *works*
/// when its vertex has work: v ∈ Fᵢ for successors, v ∈ Uᵢ for predecessors. Warps are 32
/// consecutive threads; padding threads past n are dummies. On the CPU these figures are
/// computed from the vertex sets as a GPU launch would have them (`modelled = true`); GPU
/// devices in instrumented mode count them in the kernel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadCounts {
    pub block_size: u32,
    pub launched: u64,
    pub working: u64,
    pub warps_all_dummy: u64,
    pub warps_mixed: u64,
    pub warps_all_working: u64,
    pub modelled: bool,
}

impl ThreadCounts {
    /// 1 − working / launched (seed 000 Fig. 2d), in 0..=1.
    pub fn dummy_ratio(&self) -> f64 {
        if self.launched == 0 { 0.0 } else { 1.0 - self.working as f64 / self.launched as f64 }
    }
}

/// Time of each phase of an iteration in milliseconds: monotonic clock on the CPU, device
/// events on a GPU. `copy` is the read-back of state for the view (stepping mode only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PhaseTimes {
    pub relax_ms: f64,
    pub minimum_ms: f64,
    pub update_ms: f64,
    pub copy_ms: f64,
}

impl PhaseTimes {
    /// Sum of the kernel phases (without the copy).
    pub fn kernels_ms(&self) -> f64 {
        self.relax_ms + self.minimum_ms + self.update_ms
    }

    /// Relax from `t0` to `t1`, minimum to `t2`, update to `t3`, in ms (no copy): a CPU
    /// iteration timed at its phase boundaries.
    pub fn from_instants(t0: Instant, t1: Instant, t2: Instant, t3: Instant) -> PhaseTimes {
        let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1e3;
        PhaseTimes { relax_ms: ms(t0, t1), minimum_ms: ms(t1, t2), update_ms: ms(t2, t3), copy_ms: 0.0 }
    }

    /// Adds `o` phase by phase.
    pub fn add(&mut self, o: &PhaseTimes) {
        self.relax_ms += o.relax_ms;
        self.minimum_ms += o.minimum_ms;
        self.update_ms += o.update_ms;
        self.copy_ms += o.copy_ms;
    }
}

/// Everything measured in iteration i (1-based) of a solver.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct IterationRecord {
    pub iteration: u32,
    /// |Fᵢ|: vertices whose out-arcs this iteration relaxed.
    pub frontier: u64,
    /// |Uᵢ|: unsettled vertices (reached or not) when the iteration started.
    pub unsettled: u64,
    /// Unsettled vertices with δ < ∞ after the relax.
    pub reached: u64,
    /// Vertices settled so far, including Fᵢ₊₁.
    pub settled: u64,
    /// Arcs the relax phase looked at: out-arcs of F (successors) or in-arcs of U
    /// (predecessors).
    pub edges_scanned: u64,
    /// Arcs actually relaxed: from F to an unsettled vertex.
    pub relax_attempted: u64,
    /// Distinct vertices whose δ went down in this relax. (Per-arc success counts depend on the
    /// order of atomics on a GPU; this count does not.)
    pub relax_improved: u64,
    /// Relax-kernel threads and warps; `None` for sequential Dijkstra.
    pub threads: Option<ThreadCounts>,
    pub times: PhaseTimes,
    /// The values the algorithm declares ([`super::AlgorithmSpec::series`]: thresholds, next
    /// frontier, bucket, …), in declaration order; read them through [`super::series_of`] or
    /// [`IterationRecord::value`].
    #[serde(default)]
    pub values: Values,
}

impl IterationRecord {
    /// Declared value `key` of `algo` (the algorithm that produced the record), if set.
    pub fn value(&self, algo: Algorithm, key: &str) -> Option<f64> {
        algo.series_index(key).and_then(|i| self.values.get(i))
    }

    /// Declared distance value `key` (e.g. `delta`), [`INF`] when unset or ∞.
    pub fn distance(&self, algo: Algorithm, key: &str) -> Distance {
        algo.series_index(key).map_or(INF, |i| self.values.distance(i))
    }
}

/// What changed in one iteration, so a trace can replay it forwards and backwards.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepDelta {
    /// (vertex, δ before, δ after) for every vertex whose δ went down.
    pub lowered: Vec<(VertexId, Distance, Distance)>,
    /// Fᵢ₊₁: the vertices settled by this iteration.
    pub settled: Vec<VertexId>,
}

/// A whole run.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RunRecord {
    pub algorithm: String,
    pub device: String,
    pub graph: String,
    pub n: usize,
    pub m: usize,
    pub source: VertexId,
    pub iterations: u32,
    /// Wall time of the solve in ms (host clock around the whole run).
    pub total_ms: f64,
    /// Per-phase sums over all iterations.
    pub times: PhaseTimes,
    /// Vertices reached (δ < ∞), the source included.
    pub reached: u64,
    /// Per-iteration records (may be empty for a fast GPU run).
    pub records: Vec<IterationRecord>,
}

impl RunRecord {
    /// GTEPS = m / time / 10⁹ (Graph500/GAP convention: arcs of the input graph per second).
    pub fn gteps(&self) -> f64 {
        if self.total_ms <= 0.0 { 0.0 } else { self.m as f64 / (self.total_ms * 1e-3) / 1e9 }
    }

    /// Maximum |F| over the run.
    pub fn max_frontier(&self) -> u64 {
        self.records.iter().map(|r| r.frontier).max().unwrap_or(0)
    }

    /// Mean |F| over the run.
    pub fn mean_frontier(&self) -> f64 {
        if self.records.is_empty() {
            0.0
        } else {
            self.records.iter().map(|r| r.frontier as f64).sum::<f64>() / self.records.len() as f64
        }
    }
}

/// Formats a distance, `∞` for [`INF`].
pub fn fmt_distance(d: Distance) -> String {
    if d == INF { "∞".to_string() } else { d.to_string() }
}

/// Where one CPU thread's time went since its run started, for the schemes that keep threads
/// of their own (seed 001's `cgs-lock`, `fgs-lock`, `helper`; `[seed001]` Fig. 2 splits the run
/// the same way). Index 0 of [`crate::algo::Stepper::thread_times`] is the calling thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ThreadTime {
    /// Relaxing and queue work, ms.
    pub work_ms: f64,
    /// Waiting at barriers (or, for helpers, for the next iteration), ms.
    pub barrier_ms: f64,
    /// Waiting for a lock another thread held, ms.
    pub lock_ms: f64,
    /// Lock acquisitions that found the lock held (contention events).
    pub contended: u64,
    /// δ values this thread lowered as a helper (speculatively).
    pub helper_lowered: u64,
    /// Of those, the ones lowered again later (relaxed from a δ that was not final).
    pub helper_wasted: u64,
    /// Vertices whose arcs a helper had already relaxed with their final δ, so this thread
    /// (thread 0 of `helper-fold`) skipped them.
    pub spared: u64,
}

impl ThreadTime {
    /// All of the thread's time, ms.
    pub fn total_ms(&self) -> f64 {
        self.work_ms + self.barrier_ms + self.lock_ms
    }

    /// (barrier share, lock-wait share) of the summed time of `threads` (0..=1); `None` when
    /// there is no thread time.
    pub fn shares(threads: &[ThreadTime]) -> Option<(f64, f64)> {
        let all: f64 = threads.iter().map(ThreadTime::total_ms).sum();
        (all > 0.0).then(|| {
            let b: f64 = threads.iter().map(|t| t.barrier_ms).sum();
            let l: f64 = threads.iter().map(|t| t.lock_ms).sum();
            (b / all, l / all)
        })
    }
}
