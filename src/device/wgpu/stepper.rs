//! [`WgpuStepper`]: the frontier solvers (Martín / Crauser, successors / predecessors, racy) on
//! a wgpu adapter.
//!
//! Two paths, as on CUDA:
//! - **vertex-parallel** (`kernels/frontier.wgsl`, `racy.wgsl`): each iteration is
//!   three compute passes — relax, minimum (min1 + sssp_min2), update — with one invocation per
//!   vertex, exactly as the papers launch them. Used by [`Stepper::step`] (one iteration per
//!   submission, then δ and the status stamps are copied back — `PhaseTimes::copy_ms`, host
//!   clock — and diffed against the host copy for the record and the [`StepDelta`]), and by
//!   `run_to_end` when instrumented or racy. The threshold Δ never leaves the GPU inside an
//!   iteration: sssp_min2 stores it where update reads it.
//! - **fast** (`kernels/fast.wgsl`): `run_to_end` without instrumentation — frontier lists,
//!   teams of lanes per vertex, the minimum fused into relax and update, two dispatches per
//!   iteration, relax sized on the GPU.
//!
//! `run_to_end` submits batches of iterations (vertex-parallel: 1, 2, 4 … 256; fast: 4, 8 … 256,
//! two batches in flight so that recording the next overlaps running this one) and reads back
//! only the per-iteration log (thresholds, sizes, counters when instrumented) after each batch;
//! iterations past the end of the solve cost (almost) nothing because their dispatch sizes were
//! zeroed on the GPU.
//!
//! Times: the vertex-parallel passes carry timestamp queries where the device has
//! `TIMESTAMP_QUERY` (per-kernel GPU times); otherwise each pass is submitted alone and timed by
//! the host clock around submit-and-wait (the device string says which). The fast path records a
//! whole batch in one compute pass without timestamps, like CUDA's persistent kernel, so its
//! records carry no per-kernel times (`WgpuTuning::fast_timestamps` times every pass, at a cost:
//! see bench/results/wgpu-vs-cuda.md); `RunRecord::total_ms` is the host time of the solve.

use super::kernels::{self, ArcLayout, Compiled, FastShape, Kernel, PipelineKey, bind};
use super::{DISTANCE_RANGE, Gpu, WgpuTuning};
use crate::algo::{
    DeviceVertexState, IterationRecord, PhaseTimes, RelaxVariant, SolveError, SolveOptions, Threshold, Thresholds,
    frontier_values,
};
use crate::device::driver::frontier::{
    At, Chunk, ChunkSizes, FastPath, Frontier, FrontierBackend, Phase, Sizes, StepOut,
};
use crate::device::gpu::{self, Build, Counters, FrontierRun, HostState};
use crate::graph::{Csr, Distance, Graph, INF, VertexId};
use std::sync::Arc;
use std::time::Instant;
use wgpu::util::DeviceExt;

mod batch;
mod build;
mod run;

/// Most iterations per submission in fast mode.
const BATCH_MAX: u32 = 256;
/// Timestamps per iteration: begin and end of relax, minimum and update.
const TS_PER_ITER: u32 = 6;

const U_INF: u32 = u32::MAX;
/// Most relax workgroups of the fast path (its teams loop over longer lists).
const FAST_RELAX_CAP: u32 = 1024;
/// Most update workgroups of the fast path (it strides over the vertices, four per step).
const FAST_UPDATE_CAP: u32 = 1024;
/// Iterations in the first batch of a fast run (later batches double, up to `BATCH_MAX`).
const FAST_FIRST_BATCH: u32 = 4;
/// Control words of the fast path (fctl in fast.wgsl); its log follows them.
const FCTL_WORDS: usize = F_LOG;
// Log fields and control words: the layout prelude's constants (`layout::wgsl_frontier`).
use crate::device::layout::wgsl_frontier::{
    F_BASE, F_DONE, F_ITER_R, F_LOG, L_ATTEMPTED, L_DELTA_CRAUSER, L_DELTA_MARTIN, L_EDGES, L_FRONTIER, L_IMPROVED,
    L_NEXT_FRONTIER, L_REACHED, L_UNSETTLED, L_WARP_ITERS, L_WARPS_FULL, L_WARPS_MIXED, LOG_WORDS,
};

// Readback buffer layout: ctrl (4 words) or fctl (16 words), the log, the timestamps.
const RB_LOG: u64 = 64;
const RB_TS: u64 = RB_LOG + (BATCH_MAX as u64) * (LOG_WORDS as u64) * 4;
const RB_SIZE: u64 = RB_TS + (BATCH_MAX * TS_PER_ITER) as u64 * 8;

/// One kernel ready to dispatch.
struct Pass {
    compiled: Arc<Compiled>,
    group: wgpu::BindGroup,
    /// Workgroups in x and y (2-D beyond the per-dimension limit).
    grid: (u32, u32),
}

/// Every buffer of a stepper.
struct Buffers {
    params: wgpu::Buffer,
    dist: wgpu::Buffer,
    status: wgpu::Buffer,
    ctrl: wgpu::Buffer,
    log: wgpu::Buffer,
    omega: wgpu::Buffer,
    partials: wgpu::Buffer,
    offsets: wgpu::Buffer,
    stamp: wgpu::Buffer,
    /// Indirect sizes: [0..3) relax, [3..6) min1 (vertex-parallel path).
    indirect: wgpu::Buffer,
    targets: Vec<wgpu::Buffer>,
    weights: Vec<wgpu::Buffer>,
    /// Two, so that two batches can be in flight.
    readback: [wgpu::Buffer; 2],
    queries: Option<(wgpu::QuerySet, wgpu::Buffer)>,
    /// δ and status for the host (created on first use).
    state_readback: Option<wgpu::Buffer>,
}

impl Buffers {
    fn get(&self, binding: u32) -> &wgpu::Buffer {
        match binding {
            bind::PARAMS => &self.params,
            bind::DIST => &self.dist,
            bind::STATUS => &self.status,
            bind::CTRL => &self.ctrl,
            bind::LOG => &self.log,
            bind::OMEGA => &self.omega,
            bind::PARTIALS => &self.partials,
            bind::OFFSETS => &self.offsets,
            bind::STAMP => &self.stamp,
            _ => &self.indirect,
        }
    }
}

/// The fast path's kernels and buffers (built on the first fast run).
struct Fast {
    setup: Pass,
    relax: Pass,
    update: Pass,
    /// Control words and, from word 16, the per-iteration log.
    fctl: wgpu::Buffer,
    args: [wgpu::Buffer; 2],
    /// Relax workgroups of the first iteration of a run (its teams loop over any list length).
    first_groups: u32,
    _keep: [wgpu::Buffer; 3],
}

/// What one batch read back.
struct BatchOut {
    /// Log words of each finished iteration.
    logs: Vec<[u32; LOG_WORDS]>,
    times: Vec<PhaseTimes>,
    done: bool,
}

/// A frontier solver on a wgpu adapter (see the module docs): the frontier driver over this
/// adapter's backend.
pub type WgpuStepper = Frontier<WgpuFrontier>;

/// The wgpu backend of the frontier driver: buffers, pipelines and the fast run in flight.
pub struct WgpuFrontier {
    gpu: Arc<Gpu>,
    graph: Arc<Graph>,
    opts: SolveOptions,
    source: VertexId,
    run: FrontierRun,
    tuning: WgpuTuning,
    n: u32,
    arcs: ArcLayout,
    b: Buffers,
    relax: Pass,
    minimum1: Pass,
    minimum2: Pass,
    update: Pass,
    fast: Option<Fast>,
    two_d: bool,
    /// The fast run in progress (`stepper/run.rs`).
    fast_run: Option<run::FastRun>,
}

fn dev(msg: impl Into<String>) -> SolveError {
    SolveError::Device(msg.into())
}

use super::dispatch::grid;

fn to_distance(d: u32) -> Distance {
    gpu::widen_u32(d)
}

/// Creates a bind group for `kernel` from the stepper's buffers (`extra` adds the fast path's).
fn bind_group(
    d: &wgpu::Device,
    kernel: Kernel,
    c: &Compiled,
    b: &Buffers,
    extra: &[(u32, &wgpu::Buffer)],
) -> wgpu::BindGroup {
    let mut entries: Vec<wgpu::BindGroupEntry> = kernel
        .bindings()
        .iter()
        .map(|&(binding, _)| {
            let buf = extra.iter().find(|(x, _)| *x == binding).map_or_else(|| b.get(binding), |(_, buf)| *buf);
            wgpu::BindGroupEntry { binding, resource: buf.as_entire_binding() }
        })
        .collect();
    if kernel.uses_arcs() {
        for (ci, (t, w)) in b.targets.iter().zip(&b.weights).enumerate() {
            entries
                .push(wgpu::BindGroupEntry { binding: kernels::TARGETS + ci as u32, resource: t.as_entire_binding() });
            entries
                .push(wgpu::BindGroupEntry { binding: kernels::WEIGHTS + ci as u32, resource: w.as_entire_binding() });
        }
    }
    d.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(kernel.entry()),
        layout: &c.layout,
        entries: &entries,
    })
}

impl WgpuStepper {
    /// Bindings each arc array (targets, weights) is split into.
    pub fn arc_chunks(&self) -> u32 {
        self.backend().arcs.chunks
    }

    /// Whether some kernel needs a 2-D dispatch (more workgroups than one dimension holds).
    pub fn uses_2d_dispatch(&self) -> bool {
        self.backend().two_d
    }

    /// Whether kernel times come from GPU timestamps (else host wall clock).
    pub fn gpu_timestamps(&self) -> bool {
        self.backend().gpu.timestamps
    }
}

impl FrontierBackend for WgpuFrontier {
    fn read_dist(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.read_state()?.dist)
    }

    fn read_state(&mut self) -> Result<HostState, SolveError> {
        self.copy_state()
    }

    fn step_launch(&mut self, at: At) -> Result<StepOut, SolveError> {
        let i = at.iteration + 1;
        let out = self.run_batch(i, 1, false)?;
        let (Some(l), Some(&times)) = (out.logs.first(), out.times.first()) else {
            return Err(dev(format!("{}: the iteration did not run", self.gpu.name)));
        };
        let counted = self.opts.instrument.then(|| self.record_from_log(i, l, times));
        Ok(StepOut { thresholds: self.thresholds(l), times, counted, done: out.done })
    }

    /// A submission holds up to [`BATCH_MAX`] iterations; their log is read back once.
    fn phase_batch_max(&self) -> u32 {
        BATCH_MAX
    }

    fn run_phases(&mut self, at: At, count: u32) -> Result<Vec<Phase>, SolveError> {
        let out = self.run_batch(at.iteration + 1, count, false)?;
        let last = out.logs.len();
        let mut phases = Vec::with_capacity(last);
        for (k, (l, &t)) in out.logs.iter().zip(&out.times).enumerate() {
            let record = self.record_from_log(at.iteration + 1 + k as u32, l, t);
            let settled = self.opts.instrument.then_some((record.settled, l[L_NEXT_FRONTIER] as u64));
            phases.push(Phase { settled, done: out.done && k + 1 == last, record });
        }
        Ok(phases)
    }

    fn device_state(&self, iterations: u32) -> Option<DeviceVertexState> {
        Some(DeviceVertexState {
            device: self.gpu.device.clone(),
            dist: self.b.dist.clone(),
            stamp: self.b.status.clone(),
            iterations,
        })
    }
}
