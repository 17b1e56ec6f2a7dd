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
use crate::algo::model::SparseWarpCounter;
use crate::algo::{
    Algorithm, IterationRecord, PhaseTimes, RelaxVariant, RunRecord, SolveError, SolveOptions, Step, Stepper,
    Threshold, Thresholds, frontier_values,
};
use crate::device::gpu::{self, Counters, FrontierRun, HostState, UNSET};
use crate::graph::{Csr, Distance, Graph, INF, VertexId};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use wgpu::util::DeviceExt;

/// Most iterations per submission in fast mode.
const BATCH_MAX: u32 = 256;
/// u32 words of the log per iteration (LOG_WORDS in common.wgsl).
const LOG_WORDS: usize = 16;
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
const FCTL_WORDS: usize = 16;
const F_ITER_R: usize = 8;
const F_BASE: usize = 10;
const F_DONE: usize = 11;

// Log fields (L_* in common.wgsl).
const L_DELTA_MARTIN: usize = 0;
const L_DELTA_CRAUSER: usize = 1;
const L_FRONTIER: usize = 2;
const L_UNSETTLED: usize = 3;
const L_REACHED: usize = 4;
const L_NEXT_FRONTIER: usize = 5;
const L_EDGES: usize = 6;
const L_ATTEMPTED: usize = 7;
const L_IMPROVED: usize = 8;
const L_WARPS_FULL: usize = 9;
const L_WARPS_MIXED: usize = 10;

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

/// A frontier solver on a wgpu adapter (see the module docs).
pub struct WgpuStepper {
    gpu: Arc<Gpu>,
    graph: Arc<Graph>,
    algo: Algorithm,
    run: FrontierRun,
    opts: SolveOptions,
    tuning: WgpuTuning,
    source: VertexId,
    n: u32,
    arcs: ArcLayout,
    b: Buffers,
    relax: Pass,
    minimum1: Pass,
    minimum2: Pass,
    update: Pass,
    fast: Option<Fast>,
    iteration: u32,
    done: bool,
    /// Host copy of δ and status, current after `step` (None after a fast run).
    host: Option<HostState>,
    /// Vertices settled so far (None when unknown: after a cancelled fast run).
    settled: Option<u64>,
    warps: SparseWarpCounter,
    device_name: String,
    two_d: bool,
}

fn dev(msg: impl Into<String>) -> SolveError {
    SolveError::Device(msg.into())
}

/// Workgroups as (x, y) with x ≤ `max_dim`.
fn grid(groups: u32, max_dim: u32) -> (u32, u32) {
    let groups = groups.max(1);
    if groups <= max_dim {
        (groups, 1)
    } else {
        let y = groups.div_ceil(max_dim);
        (groups.div_ceil(y), y)
    }
}

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
    pub(super) fn new(
        gpu: Arc<Gpu>,
        graph: Arc<Graph>,
        algo: Algorithm,
        run: FrontierRun,
        source: VertexId,
        opts: SolveOptions,
        tuning: WgpuTuning,
    ) -> Result<WgpuStepper, SolveError> {
        let variant = run.variant;
        let limits = &gpu.limits;
        let n = graph.n();
        let max_binding = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size);
        if (2 * n as u64 + 1) * 4 > max_binding {
            return Err(dev(format!(
                "{}: graph `{}` has {n} vertices; its per-vertex arrays exceed the adapter's largest storage \
                 binding ({} MiB)",
                gpu.name,
                graph.name,
                max_binding >> 20
            )));
        }
        let n32 = n as u32;
        let max_wg = limits.max_compute_invocations_per_workgroup.min(limits.max_compute_workgroup_size_x);
        for (what, bsize) in
            [("relax", opts.block.relax), ("minimum", opts.block.minimum), ("update", opts.block.update)]
        {
            if bsize == 0 || bsize > max_wg {
                return Err(dev(format!(
                    "{}: block size {bsize} for {what} is not possible: workgroups hold 1 to {max_wg} invocations \
                     on this adapter (max_compute_invocations_per_workgroup)",
                    gpu.name
                )));
            }
        }
        let shared = opts.block.minimum as u64 * 8 + 64;
        if shared > limits.max_compute_workgroup_storage_size as u64 {
            return Err(dev(format!(
                "{}: block size {} for minimum needs {shared} bytes of workgroup memory, the adapter has {}",
                gpu.name, opts.block.minimum, limits.max_compute_workgroup_storage_size
            )));
        }

        // Arc arrays: split into chunks of 2^shift arcs when larger than one binding.
        let csr: &Csr = match variant {
            RelaxVariant::Successors => graph.successors(),
            RelaxVariant::Predecessors => graph.predecessors(),
        };
        let m = csr.m() as u64;
        let chunk_bytes = tuning.arc_chunk_bytes.unwrap_or(max_binding).min(max_binding).max(4);
        let shift = (63 - (chunk_bytes / 4).leading_zeros()).min(31);
        let per_chunk = 1u64 << shift;
        let chunks = m.div_ceil(per_chunk).max(1);
        let storage_limit = limits.max_storage_buffers_per_shader_stage as u64;
        let storage_needed = super::MIN_STORAGE_BUFFERS as u64 + 2 * (chunks - 1);
        if chunks > kernels::MAX_CHUNKS as u64 || storage_needed > storage_limit {
            let fit = (kernels::MAX_CHUNKS as u64)
                .min(storage_limit.saturating_sub(super::MIN_STORAGE_BUFFERS as u64) / 2 + 1);
            return Err(dev(format!(
                "{}: graph `{}` has {m} arcs ({} KiB per arc array), which needs {chunks} bindings of at most {} KiB \
                 each; at most {fit} fit (max_storage_buffers_per_shader_stage = {storage_limit})",
                gpu.name,
                graph.name,
                (m * 4) >> 10,
                (per_chunk * 4) >> 10,
            )));
        }
        let arcs = ArcLayout { chunks: chunks as u32, shift: if chunks == 1 { 31 } else { shift } };

        let max_dim = tuning.max_workgroups_per_dim.unwrap_or(limits.max_compute_workgroups_per_dimension).max(1);
        let relax_grid = grid(n32.div_ceil(opts.block.relax), max_dim);
        let partials = n32.div_ceil(2 * opts.block.minimum).max(1);
        let min1_grid = grid(partials, max_dim);
        let update_grid = grid(n32.div_ceil(opts.block.update), max_dim);
        let two_d = relax_grid.1 > 1 || min1_grid.1 > 1 || update_grid.1 > 1;

        let key = |kernel: Kernel, wg: u32| PipelineKey {
            kernel,
            wg,
            instrument: opts.instrument,
            crauser: run.threshold == Threshold::Crauser,
            arcs,
            fast: FastShape::default(),
            bounds_checks: tuning.bounds_checks,
        };
        let relax_kernel = match (run.racy, variant) {
            (true, _) => Kernel::RelaxRacy,
            (_, RelaxVariant::Predecessors) => Kernel::RelaxPred,
            _ => Kernel::RelaxSucc,
        };
        let c_init = kernels::get(&gpu, key(Kernel::Init, opts.block.update))?;
        let c_relax = kernels::get(&gpu, key(relax_kernel, opts.block.relax))?;
        let c_min1 = kernels::get(&gpu, key(Kernel::Minimum1, opts.block.minimum))?;
        let c_min2 = kernels::get(&gpu, key(Kernel::Minimum2, opts.block.minimum))?;
        let c_update = kernels::get(&gpu, key(Kernel::Update, opts.block.update))?;

        let d = &gpu.device;
        let (b, groups, index) = gpu.guarded("creating buffers", || {
            let storage = wgpu::BufferUsages::STORAGE;
            let init = |label: &str, data: &[u8], usage: wgpu::BufferUsages| {
                let contents = if data.is_empty() { &[0u8; 4][..] } else { data };
                d.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
            };
            let zeroed = |label: &str, size: u64, usage: wgpu::BufferUsages| {
                d.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(label),
                    size: size.max(4).next_multiple_of(4),
                    usage,
                    mapped_at_creation: false,
                })
            };
            let copy = wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
            let omega: Vec<u32> = graph.omega().iter().map(|&w| if w == INF { U_INF } else { w as u32 }).collect();
            let mut targets = Vec::new();
            let mut weights = Vec::new();
            for c in 0..chunks {
                let lo = (c * per_chunk) as usize;
                let hi = ((c + 1) * per_chunk).min(m) as usize;
                targets.push(init("targets", bytemuck::cast_slice(&csr.targets[lo..hi]), storage));
                weights.push(init("weights", bytemuck::cast_slice(&csr.weights[lo..hi]), storage));
            }
            let stamp_len = if opts.instrument && variant == RelaxVariant::Successors { n as u64 * 4 } else { 4 };
            let b = Buffers {
                params: init(
                    "params",
                    bytemuck::cast_slice(&[n32, source, partials, 0u32]),
                    wgpu::BufferUsages::UNIFORM,
                ),
                dist: zeroed("dist", n as u64 * 4, storage | copy),
                status: zeroed("status", n as u64 * 4, storage | copy),
                ctrl: zeroed("ctrl", 16, storage | copy),
                log: zeroed("log", BATCH_MAX as u64 * LOG_WORDS as u64 * 4, storage | copy),
                omega: init("omega", bytemuck::cast_slice(&omega), storage),
                partials: zeroed("partials", partials as u64 * 8, storage),
                offsets: init("offsets", bytemuck::cast_slice(&csr.offsets), storage),
                stamp: zeroed("stamp", stamp_len, storage),
                indirect: init(
                    "indirect",
                    bytemuck::cast_slice(&[relax_grid.0, relax_grid.1, 1, min1_grid.0, min1_grid.1, 1u32]),
                    storage | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST,
                ),
                targets,
                weights,
                readback: [0, 1]
                    .map(|_| zeroed("readback", RB_SIZE, wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST)),
                queries: gpu.timestamps.then(|| {
                    let count = 2 * BATCH_MAX * TS_PER_ITER;
                    let set = d.create_query_set(&wgpu::QuerySetDescriptor {
                        label: Some("kernel times"),
                        ty: wgpu::QueryType::Timestamp,
                        count,
                    });
                    let resolve = zeroed(
                        "timestamps",
                        count as u64 * 8,
                        wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                    );
                    (set, resolve)
                }),
                state_readback: None,
            };
            let g_init = bind_group(d, Kernel::Init, &c_init, &b, &[]);
            let groups = [
                bind_group(d, relax_kernel, &c_relax, &b, &[]),
                bind_group(d, Kernel::Minimum1, &c_min1, &b, &[]),
                bind_group(d, Kernel::Minimum2, &c_min2, &b, &[]),
                bind_group(d, Kernel::Update, &c_update, &b, &[]),
            ];
            // Initialise: δ = ∞, U = V, except the source (the frontier of iteration 1).
            let mut enc = d.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("init") });
            {
                let mut pass = enc
                    .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("init"), timestamp_writes: None });
                pass.set_pipeline(&c_init.pipeline);
                pass.set_bind_group(0, &g_init, &[]);
                pass.dispatch_workgroups(update_grid.0, update_grid.1, 1);
            }
            let index = gpu.queue.submit([enc.finish()]);
            (b, groups, index)
        })?;
        let [g_relax, g_min1, g_min2, g_update] = groups;
        gpu.wait(index, "initialising")?;

        let mut device_name = format!(
            "{} · {DISTANCE_RANGE} · {}",
            gpu.name,
            if gpu.timestamps { "GPU timestamps" } else { "host wall-clock timing" }
        );
        match gpu.subgroup {
            (32, 32) => {}
            (0, _) => device_name.push_str(" · 32-thread warp model (adapter reports no subgroup size)"),
            (lo, hi) if lo == hi => device_name.push_str(&format!(" · 32-thread warp model (subgroup {lo})")),
            (lo, hi) => device_name.push_str(&format!(" · 32-thread warp model (subgroup {lo}–{hi})")),
        }
        let mut dist = vec![INF; n];
        let mut stamp = vec![UNSET; n];
        dist[source as usize] = 0;
        stamp[source as usize] = 1;
        Ok(WgpuStepper {
            relax: Pass { compiled: c_relax, group: g_relax, grid: relax_grid },
            minimum1: Pass { compiled: c_min1, group: g_min1, grid: min1_grid },
            minimum2: Pass { compiled: c_min2, group: g_min2, grid: (1, 1) },
            update: Pass { compiled: c_update, group: g_update, grid: update_grid },
            fast: None,
            gpu,
            algo,
            run,
            tuning,
            source,
            n: n32,
            arcs,
            b,
            iteration: 0,
            done: false,
            host: Some(HostState { dist, stamp }),
            settled: Some(1),
            warps: SparseWarpCounter::new(n),
            device_name,
            two_d,
            opts,
            graph,
        })
    }

    /// Bindings each arc array (targets, weights) is split into.
    pub fn arc_chunks(&self) -> u32 {
        self.arcs.chunks
    }

    /// Whether some kernel needs a 2-D dispatch (more workgroups than one dimension holds).
    pub fn uses_2d_dispatch(&self) -> bool {
        self.two_d
    }

    /// Whether kernel times come from GPU timestamps (else host wall clock).
    pub fn gpu_timestamps(&self) -> bool {
        self.gpu.timestamps
    }

    /// Whether `run_to_end` uses the fast path (lists, teams, fused minimum).
    pub fn uses_fast_path(&self) -> bool {
        !self.opts.instrument && !self.run.racy && self.gpu.indirect && !self.tuning.vertex_parallel
    }

    /// Builds the fast path's pipelines and buffers.
    fn build_fast(&mut self) -> Result<(), SolveError> {
        let gpu = Arc::clone(&self.gpu);
        let n = self.n;
        let relax_wg = self.opts.block.relax;
        let mean_degree = self.graph.m().div_ceil(self.graph.n().max(1)) as u32;
        // Lanes per item: a power of two near the mean degree, ≤ 32, dividing the workgroup.
        let team = mean_degree.max(1).next_power_of_two().min(32).min(1 << relax_wg.trailing_zeros());
        let chunk = 64 * team;
        let max_dim = self.tuning.max_workgroups_per_dim.unwrap_or(gpu.limits.max_compute_workgroups_per_dimension);
        let pred = self.run.variant == RelaxVariant::Predecessors;
        let items_of = |deg: usize| (deg as u32).div_ceil(chunk).max(1);
        // Successors: each vertex's items by out-degree; predecessors: the fixed item list over
        // every vertex's in-arcs.
        let succ = self.graph.successors();
        let vinfo: Vec<[u32; 2]> = (0..n)
            .map(|v| {
                let w = self.graph.omega()[v as usize];
                [if w == INF { U_INF } else { w as u32 }, if pred { 0 } else { items_of(succ.degree(v)) }]
            })
            .collect();
        let (capacity, list): (u64, Vec<[u32; 2]>) = if pred {
            let p = self.graph.predecessors();
            let list: Vec<[u32; 2]> = (0..n)
                .filter(|&v| p.degree(v) > 0)
                .flat_map(|v| (0..items_of(p.degree(v))).map(move |c| [v, c]))
                .collect();
            (list.len() as u64, list)
        } else {
            (vinfo.iter().map(|x| x[1] as u64).sum(), Vec::new())
        };
        let pred_items = list.len() as u32;
        let work = if pred { pred_items as u64 } else { n as u64 };
        let cap =
            (FAST_RELAX_CAP.min(max_dim) as u64).min((work * team as u64).div_ceil(relax_wg as u64).max(1)) as u32;
        let shape = FastShape { team, chunk, relax_wg, relax_cap: cap, relax_fixed: if pred { cap } else { 0 } };
        let key = |kernel: Kernel, wg: u32| PipelineKey {
            kernel,
            wg,
            instrument: false,
            crauser: self.run.threshold == Threshold::Crauser,
            arcs: self.arcs,
            fast: shape,
            bounds_checks: self.tuning.bounds_checks,
        };
        let relax_kernel = if pred { Kernel::FastRelaxPred } else { Kernel::FastRelaxSucc };
        let c_setup = kernels::get(&gpu, key(Kernel::FastSetup, self.opts.block.update))?;
        let c_relax = kernels::get(&gpu, key(relax_kernel, relax_wg))?;
        let c_update = kernels::get(&gpu, key(Kernel::FastUpdate, self.opts.block.update))?;
        let d = &gpu.device;
        let b = &self.b;
        let fast = gpu.guarded("creating the fast path", || {
            let storage = wgpu::BufferUsages::STORAGE;
            let init = |label: &str, data: &[u8], usage: wgpu::BufferUsages| {
                let contents = if data.is_empty() { &[0u8; 8][..] } else { data };
                d.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
            };
            let params = init(
                "fast params",
                bytemuck::cast_slice(&[n, self.source, capacity as u32, pred_items]),
                wgpu::BufferUsages::UNIFORM,
            );
            let vinfo = init("vinfo", bytemuck::cast_slice(&vinfo), storage);
            let flist = if pred {
                init("predecessor items", bytemuck::cast_slice(&list), storage)
            } else {
                d.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("frontier lists"),
                    size: (2 * capacity * 8).max(8),
                    usage: storage,
                    mapped_at_creation: false,
                })
            };
            let fctl = d.create_buffer(&wgpu::BufferDescriptor {
                label: Some("fctl"),
                size: (FCTL_WORDS as u64 + 2 * BATCH_MAX as u64 * LOG_WORDS as u64) * 4,
                usage: storage | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let args = [0, 1].map(|_| {
                d.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("relax size"),
                    size: 16,
                    usage: storage | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                })
            });
            let extra = [
                (bind::PARAMS, &params),
                (bind::OMEGA, &vinfo),
                (bind::FLIST, &flist),
                (bind::FCTL, &fctl),
                (bind::ARGS_A, &args[0]),
                (bind::ARGS_B, &args[1]),
            ];
            // update strides over the vertices with a fixed grid (see fast_update).
            let update_grid = (n.div_ceil(4 * self.opts.block.update).clamp(1, FAST_UPDATE_CAP.min(max_dim)), 1);
            Fast {
                setup: Pass {
                    group: bind_group(d, Kernel::FastSetup, &c_setup, b, &extra),
                    compiled: c_setup,
                    grid: self.update.grid,
                },
                relax: Pass {
                    group: bind_group(d, relax_kernel, &c_relax, b, &extra),
                    compiled: c_relax,
                    grid: (cap, 1),
                },
                update: Pass {
                    group: bind_group(d, Kernel::FastUpdate, &c_update, b, &extra),
                    compiled: c_update,
                    grid: update_grid,
                },
                fctl,
                args,
                first_groups: cap,
                _keep: [params, vinfo, flist],
            }
        })?;
        self.fast = Some(fast);
        Ok(())
    }

    fn dispatch(&self, pass: &mut wgpu::ComputePass<'_>, p: &Pass, indirect: Option<(&wgpu::Buffer, u64)>) {
        pass.set_pipeline(&p.compiled.pipeline);
        pass.set_bind_group(0, &p.group, &[]);
        match indirect {
            Some((buf, offset)) if self.gpu.indirect => pass.dispatch_workgroups_indirect(buf, offset),
            _ => pass.dispatch_workgroups(p.grid.0, p.grid.1, 1),
        }
    }

    fn timestamps(&self, q: Option<u32>) -> Option<wgpu::ComputePassTimestampWrites<'_>> {
        match (&self.b.queries, q) {
            (Some((set, _)), Some(q)) => Some(wgpu::ComputePassTimestampWrites {
                query_set: set,
                beginning_of_pass_write_index: Some(q),
                end_of_pass_write_index: Some(q + 1),
            }),
            _ => None,
        }
    }

    /// Encodes phase `phase` of iteration `it` as one compute pass, with timestamps at queries
    /// `q`, `q + 1`. Vertex-parallel: 0 relax, 1 minimum, 2 update; fast: 0 relax, 2 update.
    fn encode_phase(&self, enc: &mut wgpu::CommandEncoder, fast: bool, it: u32, phase: u32, q: Option<u32>) {
        let label = ["relax", "minimum", "update"][phase as usize];
        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(label),
            timestamp_writes: self.timestamps(q),
        });
        match (fast, &self.fast, phase) {
            (true, Some(f), 0) => self.dispatch(&mut pass, &f.relax, Some((&f.args[(it & 1) as usize], 0))),
            (true, Some(f), _) => self.dispatch(&mut pass, &f.update, None),
            (_, _, 0) => self.dispatch(&mut pass, &self.relax, Some((&self.b.indirect, 0))),
            (_, _, 1) => {
                self.dispatch(&mut pass, &self.minimum1, Some((&self.b.indirect, 12)));
                self.dispatch(&mut pass, &self.minimum2, None);
            }
            _ => self.dispatch(&mut pass, &self.update, None),
        }
    }

    /// Maps `buffer[0..size]`, waits for submission `index`, copies the bytes out.
    fn read(
        &self,
        buffer: &wgpu::Buffer,
        size: u64,
        index: wgpu::SubmissionIndex,
        what: &str,
    ) -> Result<Vec<u8>, SolveError> {
        let result: Arc<Mutex<Option<Result<(), wgpu::BufferAsyncError>>>> = Arc::new(Mutex::new(None));
        let r2 = Arc::clone(&result);
        let slice = buffer.slice(0..size);
        self.gpu.guarded(what, || {
            slice.map_async(wgpu::MapMode::Read, move |r| {
                if let Ok(mut slot) = r2.lock() {
                    *slot = Some(r);
                }
            })
        })?;
        self.gpu.wait(index, what)?;
        // The callback runs in some poll after the submission finished (possibly another
        // thread's); poll until it has.
        let mut mapped = result.lock().ok().and_then(|mut r| r.take());
        for _ in 0..10_000 {
            if mapped.is_some() {
                break;
            }
            self.gpu.poll_once(what)?;
            mapped = result.lock().ok().and_then(|mut r| r.take());
        }
        match mapped {
            Some(Ok(())) => {}
            Some(Err(e)) => return Err(dev(format!("{}: {what}: mapping failed: {e}", self.gpu.name))),
            None => return Err(dev(format!("{}: {what}: mapping did not finish", self.gpu.name))),
        }
        let bytes = {
            let view =
                slice.get_mapped_range().map_err(|e| dev(format!("{}: {what}: mapped range: {e}", self.gpu.name)))?;
            view.to_vec()
        };
        buffer.unmap();
        Ok(bytes)
    }

    /// Runs up to `k` iterations (fewer if the solve ends) on the vertex-parallel or the fast
    /// path and reads back their log.
    fn run_batch(&mut self, k: u32, fast: bool) -> Result<BatchOut, SolveError> {
        let base = self.iteration + 1;
        if self.b.queries.is_some() {
            let k = k.clamp(1, BATCH_MAX);
            let index = self.submit_batch(fast, base, k, 0, false)?;
            return self.read_batch(fast, base, k, 0, index, None);
        }
        // No timestamps: one iteration, each pass submitted alone and timed by the host.
        let gpu = Arc::clone(&self.gpu);
        let mut wall = PhaseTimes::default();
        gpu.guarded("running an iteration", || {
            self.write_base(fast, base, 0);
            let mut enc = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("log") });
            self.clear_log(&mut enc, fast, 1, 0);
            gpu.queue.submit([enc.finish()]);
        })?;
        let phases: &[u32] = if fast { &[0, 2] } else { &[0, 1, 2] };
        for &phase in phases {
            let t0 = Instant::now();
            let index = gpu.guarded("running a kernel", || {
                let mut enc =
                    gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("phase") });
                self.encode_phase(&mut enc, fast, base, phase, None);
                gpu.queue.submit([enc.finish()])
            })?;
            gpu.wait(index, "a kernel")?;
            let ms = t0.elapsed().as_secs_f64() * 1e3;
            match phase {
                0 => wall.relax_ms = ms,
                1 => wall.minimum_ms = ms,
                _ => wall.update_ms = ms,
            }
        }
        let index = gpu.guarded("reading the log", || {
            let mut enc = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("log") });
            self.encode_log_copy(&mut enc, fast, 1, 0);
            gpu.queue.submit([enc.finish()])
        })?;
        self.read_batch(fast, base, 1, 0, index, Some(wall))
    }

    /// Control words before a batch: the vertex-parallel path's ctrl, or the fast path's log
    /// base (slot = i − base lands in the log half `half`).
    fn write_base(&self, fast: bool, base: u32, half: u32) {
        match (&self.fast, fast) {
            (Some(f), true) => {
                let b = base.wrapping_sub(half * BATCH_MAX);
                self.gpu.queue.write_buffer(&f.fctl, F_BASE as u64 * 4, bytemuck::bytes_of(&b));
            }
            _ => self.gpu.queue.write_buffer(&self.b.ctrl, 0, bytemuck::cast_slice(&[0u32, 0, 0, base])),
        }
    }

    fn log_bytes(k: u32) -> u64 {
        k as u64 * LOG_WORDS as u64 * 4
    }

    /// Zeroes the log slots of a batch (the fast path keeps its log behind its control words).
    fn clear_log(&self, enc: &mut wgpu::CommandEncoder, fast: bool, k: u32, half: u32) {
        match self.fast.as_ref().filter(|_| fast) {
            Some(f) => enc.clear_buffer(&f.fctl, RB_LOG + Self::log_bytes(half * BATCH_MAX), Some(Self::log_bytes(k))),
            None => enc.clear_buffer(&self.b.log, 0, Some(Self::log_bytes(k))),
        }
    }

    /// Copies control words and the batch's log slots to read-back buffer `half`.
    fn encode_log_copy(&self, enc: &mut wgpu::CommandEncoder, fast: bool, k: u32, half: u32) {
        let rb = &self.b.readback[half as usize];
        match self.fast.as_ref().filter(|_| fast) {
            Some(f) => {
                enc.copy_buffer_to_buffer(&f.fctl, 0, rb, 0, Some(RB_LOG));
                let from = RB_LOG + Self::log_bytes(half * BATCH_MAX);
                enc.copy_buffer_to_buffer(&f.fctl, from, rb, RB_LOG, Some(Self::log_bytes(k)));
            }
            None => {
                enc.copy_buffer_to_buffer(&self.b.ctrl, 0, rb, 0, Some(16));
                enc.copy_buffer_to_buffer(&self.b.log, 0, rb, RB_LOG, Some(Self::log_bytes(k)));
            }
        }
    }

    /// Whether fast-path batches carry per-pass timestamps (only for analysis: see
    /// [`WgpuTuning::fast_timestamps`]).
    fn fast_timed(&self) -> bool {
        self.tuning.fast_timestamps && self.b.queries.is_some()
    }

    /// Submits `k` iterations starting at `base`, the log going to half `half` of the log,
    /// timestamp and read-back buffers (two batches can be in flight). The vertex-parallel path
    /// puts each kernel in a pass of its own with timestamps; the fast path (unless
    /// `fast_timestamps`) records the whole batch in one compute pass (wgpu still inserts the
    /// barriers between its dispatches), after the setup kernel when `setup` is set.
    fn submit_batch(
        &self,
        fast: bool,
        base: u32,
        k: u32,
        half: u32,
        setup: bool,
    ) -> Result<wgpu::SubmissionIndex, SolveError> {
        let gpu = &self.gpu;
        let phases: &[u32] = if fast { &[0, 2] } else { &[0, 1, 2] };
        let stride = 2 * phases.len() as u32;
        let q0 = half * BATCH_MAX * TS_PER_ITER;
        let timed = !fast || self.fast_timed();
        gpu.guarded("running iterations", || {
            self.write_base(fast, base, half);
            let mut enc = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("batch") });
            self.clear_log(&mut enc, fast, k, half);
            match (&self.fast, timed) {
                (Some(f), false) => {
                    let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                        label: Some("batch"),
                        timestamp_writes: None,
                    });
                    if setup {
                        self.dispatch(&mut pass, &f.setup, None);
                    }
                    for j in 0..k {
                        self.dispatch(&mut pass, &f.relax, Some((&f.args[((base + j) & 1) as usize], 0)));
                        self.dispatch(&mut pass, &f.update, None);
                    }
                }
                _ => {
                    if let (Some(f), true) = (&self.fast, setup) {
                        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                            label: Some("setup"),
                            timestamp_writes: None,
                        });
                        self.dispatch(&mut pass, &f.setup, None);
                    }
                    for j in 0..k {
                        for (x, &phase) in phases.iter().enumerate() {
                            self.encode_phase(&mut enc, fast, base + j, phase, Some(q0 + j * stride + 2 * x as u32));
                        }
                    }
                    if let Some((set, resolve)) = &self.b.queries {
                        // Only written queries are resolved (stride = 2 per pass).
                        let at = q0 as u64 * 8;
                        enc.resolve_query_set(set, q0..q0 + k * stride, resolve, at);
                        let rb = &self.b.readback[half as usize];
                        enc.copy_buffer_to_buffer(resolve, at, rb, RB_TS, Some((k * stride) as u64 * 8));
                    }
                }
            }
            self.encode_log_copy(&mut enc, fast, k, half);
            gpu.queue.submit([enc.finish()])
        })
    }

    /// Reads the log of a batch submitted with `submit_batch` (or the wall-clock path, `wall`).
    fn read_batch(
        &self,
        fast: bool,
        base: u32,
        k: u32,
        half: u32,
        index: wgpu::SubmissionIndex,
        wall: Option<PhaseTimes>,
    ) -> Result<BatchOut, SolveError> {
        let stride = if fast { 4 } else { 6 };
        let timed = wall.is_none() && (!fast || self.fast_timed());
        let size = if timed { RB_TS + (k * stride) as u64 * 8 } else { RB_LOG + Self::log_bytes(k) };
        let bytes = self.read(&self.b.readback[half as usize], size, index, "reading the iteration log")?;
        let words: &[u32] = bytemuck::cast_slice(&bytes);
        let (finished, done) =
            if fast { (words[F_ITER_R].wrapping_sub(base), words[F_DONE] != 0) } else { (words[2], words[1] != 0) };
        let slots = (finished as usize).min(k as usize);
        let mut logs = Vec::with_capacity(slots);
        let mut times = Vec::with_capacity(slots);
        let period = self.gpu.timestamp_period as f64 * 1e-6;
        for s in 0..slots {
            let mut l = [0u32; LOG_WORDS];
            let at = (RB_LOG / 4) as usize + s * LOG_WORDS;
            l.copy_from_slice(&words[at..at + LOG_WORDS]);
            logs.push(l);
            match wall {
                Some(w) => times.push(w),
                None if !timed => times.push(PhaseTimes::default()),
                None => {
                    let ts: &[u64] = bytemuck::cast_slice(&bytes[RB_TS as usize..]);
                    let t = &ts[s * stride as usize..(s + 1) * stride as usize];
                    let span = |x: usize| t[2 * x + 1].saturating_sub(t[2 * x]) as f64 * period;
                    times.push(if fast {
                        PhaseTimes { relax_ms: span(0), minimum_ms: 0.0, update_ms: span(1), copy_ms: 0.0 }
                    } else {
                        PhaseTimes { relax_ms: span(0), minimum_ms: span(1), update_ms: span(2), copy_ms: 0.0 }
                    });
                }
            }
        }
        Ok(BatchOut { logs, times, done })
    }

    /// Copies δ and status back to the host.
    fn read_state(&mut self) -> Result<HostState, SolveError> {
        let n = self.n as u64;
        let gpu = Arc::clone(&self.gpu);
        if self.b.state_readback.is_none() {
            let buf = gpu.guarded("allocating the state read-back", || {
                gpu.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("state readback"),
                    size: 2 * n * 4,
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                })
            })?;
            self.b.state_readback = Some(buf);
        }
        let Some(rb) = &self.b.state_readback else {
            return Err(dev("state read-back buffer missing"));
        };
        let index = gpu.guarded("copying the state", || {
            let mut enc = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("state") });
            enc.copy_buffer_to_buffer(&self.b.dist, 0, rb, 0, Some(n * 4));
            enc.copy_buffer_to_buffer(&self.b.status, 0, rb, n * 4, Some(n * 4));
            gpu.queue.submit([enc.finish()])
        })?;
        let bytes = self.read(rb, 2 * n * 4, index, "reading δ and status")?;
        let words: &[u32] = bytemuck::cast_slice(&bytes);
        Ok(HostState {
            dist: words[..n as usize].iter().map(|&d| to_distance(d)).collect(),
            stamp: words[n as usize..].to_vec(),
        })
    }

    fn thresholds(&self, l: &[u32; LOG_WORDS]) -> Thresholds {
        gpu::thresholds(self.run, to_distance(l[L_DELTA_MARTIN]), to_distance(l[L_DELTA_CRAUSER]))
    }

    /// The record of a vertex-parallel iteration from its log: every count when instrumented,
    /// else the thresholds and times only.
    fn record_from_log(&self, iteration: u32, l: &[u32; LOG_WORDS], times: PhaseTimes) -> IterationRecord {
        let t = self.thresholds(l);
        if !self.opts.instrument {
            return IterationRecord { iteration, times, values: frontier_values(&t, 0), ..Default::default() };
        }
        let c = Counters {
            frontier: l[L_FRONTIER] as u64,
            unsettled: l[L_UNSETTLED] as u64,
            reached: l[L_REACHED] as u64,
            next_frontier: l[L_NEXT_FRONTIER] as u64,
            scanned: l[L_EDGES] as u64,
            attempted: l[L_ATTEMPTED] as u64,
            improved: l[L_IMPROVED] as u64,
            working: None,
            warps_full: l[L_WARPS_FULL] as u64,
            warps_mixed: l[L_WARPS_MIXED] as u64,
            warps_dummy: None,
        };
        gpu::counted_record(iteration, self.run, self.n as u64, self.opts.block.relax, &t, &c, times)
    }

    fn run_header(&self) -> RunRecord {
        gpu::run_header(self.algo, &self.opts, &self.device(), &self.graph, self.source)
    }

    /// Vertices settled so far (reads the state back when unknown).
    fn settled_now(&mut self) -> Result<u64, SolveError> {
        if let Some(s) = self.settled {
            return Ok(s);
        }
        let st = self.read_state()?;
        let s = st.stamp.iter().filter(|&&x| x != UNSET).count() as u64;
        self.host = Some(st);
        self.settled = Some(s);
        Ok(s)
    }

    /// Batches of the vertex-parallel kernels to the end (instrumented or racy runs).
    fn run_kernels(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let start = Instant::now();
        let mut run = self.run_header();
        self.host = None;
        let mut k = 1;
        while !self.done {
            if cancel.load(Ordering::Relaxed) {
                self.settled = None;
                return Err(SolveError::Cancelled);
            }
            let out = self.run_batch(k, false)?;
            for (l, &t) in out.logs.iter().zip(&out.times) {
                self.iteration += 1;
                let r = self.record_from_log(self.iteration, l, t);
                self.settled = self.opts.instrument.then_some(r.settled);
                run.times.add(&r.times);
                run.records.push(r);
            }
            self.done = out.done;
            if out.logs.is_empty() && !self.done {
                return Err(dev(format!("{}: a batch of iterations made no progress", self.gpu.name)));
            }
            if let Some(s) = self.settled {
                progress(s);
            }
            k = (k * 2).min(BATCH_MAX);
        }
        run.total_ms = start.elapsed().as_secs_f64() * 1e3;
        let settled = self.settled_now()?;
        progress(settled);
        run.iterations = self.iteration;
        run.reached = settled;
        Ok(run)
    }

    /// The fast path to the end: setup from the current state, then batches of two-pass
    /// iterations; records carry the thresholds and set sizes.
    fn run_fast(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let mut settled = self.settled_now()?;
        if self.fast.is_none() {
            self.build_fast()?;
        }
        let gpu = Arc::clone(&self.gpu);
        let Some(f) = &self.fast else {
            return Err(dev("internal: fast path missing"));
        };
        let start = Instant::now();
        let mut run = self.run_header();
        let i0 = self.iteration + 1;
        let mut fctl = [0u32; FCTL_WORDS];
        fctl[..6].fill(U_INF);
        fctl[F_ITER_R] = i0;
        fctl[F_ITER_R + 1] = i0;
        fctl[F_BASE] = i0;
        gpu.guarded("starting a fast run", || {
            gpu.queue.write_buffer(&f.fctl, 0, bytemuck::cast_slice(&fctl));
            let first = [f.first_groups, 1, 1, 0u32];
            let none = [0u32, 1, 1, 0];
            let (a, b) = if i0 & 1 == 0 { (first, none) } else { (none, first) };
            gpu.queue.write_buffer(&f.args[0], 0, bytemuck::cast_slice(&a));
            gpu.queue.write_buffer(&f.args[1], 0, bytemuck::cast_slice(&b));
        })?;
        self.host = None;
        let mut logs: Vec<([u32; LOG_WORDS], PhaseTimes)> = Vec::new();
        // Two batches are in flight: the next one is encoded and submitted while the GPU runs
        // the current one (it is all no-ops if the current one ends the solve). The first one
        // starts with the setup kernel.
        let mut k = FAST_FIRST_BATCH;
        let mut in_flight: std::collections::VecDeque<(u32, u32, u32, wgpu::SubmissionIndex)> = Default::default();
        let mut next_base = i0;
        let mut half = 0;
        let mut cancelled = false;
        while !self.done {
            while in_flight.len() < 2 && !cancelled {
                let index = self.submit_batch(true, next_base, k, half, next_base == i0)?;
                in_flight.push_back((next_base, k, half, index));
                next_base += k;
                half ^= 1;
                k = (k * 2).min(BATCH_MAX);
            }
            let Some((base, kb, h, index)) = in_flight.pop_front() else { break };
            let out = self.read_batch(true, base, kb, h, index, None)?;
            self.iteration += out.logs.len() as u32;
            self.done = out.done;
            if out.logs.is_empty() && !self.done {
                return Err(dev(format!("{}: a batch of iterations made no progress", self.gpu.name)));
            }
            logs.extend(out.logs.into_iter().zip(out.times));
            if cancelled && in_flight.is_empty() {
                break;
            }
            // Settled so far: every frontier but the current one was settled before.
            let known: u64 = logs.iter().skip(1).map(|(l, _)| l[L_FRONTIER] as u64).sum();
            progress(settled + known);
            cancelled |= cancel.load(Ordering::Relaxed);
        }
        if cancelled && !self.done {
            // The state is consistent at the last iteration read; stepping can go on from there.
            self.settled = None;
            return Err(SolveError::Cancelled);
        }
        run.total_ms = start.elapsed().as_secs_f64() * 1e3;
        // A batch submitted after the last one is all no-ops; let it finish before returning.
        if let Some((_, _, _, index)) = in_flight.pop_back() {
            gpu.wait(index, "finishing the fast run")?;
        }
        let n = self.n as u64;
        for (j, (l, times)) in logs.iter().enumerate() {
            let next = logs.get(j + 1).map_or(0, |(x, _)| x[L_FRONTIER] as u64);
            let mut r = gpu::sizes_record(
                i0 + j as u32,
                &self.thresholds(l),
                l[L_FRONTIER] as u64,
                n - settled,
                l[L_REACHED] as u64,
                settled + next,
                next,
            );
            r.times = *times;
            settled += next;
            run.times.add(&r.times);
            run.records.push(r);
        }
        self.settled = Some(settled);
        progress(settled);
        run.iterations = self.iteration;
        run.reached = settled;
        Ok(run)
    }
}

impl Stepper for WgpuStepper {
    fn algorithm(&self) -> Algorithm {
        self.algo
    }

    fn label(&self) -> String {
        crate::algo::run_label(self.algo, &self.opts.params)
    }

    fn device(&self) -> String {
        self.device_name.clone()
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
        let prev = match self.host.take() {
            Some(h) => h,
            None => self.read_state()?,
        };
        let out = self.run_batch(1, false)?;
        let (Some(l), Some(&times)) = (out.logs.first(), out.times.first()) else {
            return Err(dev(format!("{}: the iteration did not run", self.gpu.name)));
        };
        let i = self.iteration + 1;
        self.iteration = i;
        self.done = out.done;
        let t0 = Instant::now();
        let new = self.read_state()?;
        let copy_ms = t0.elapsed().as_secs_f64() * 1e3;
        let th = self.thresholds(l);
        let block = self.opts.block.relax;
        let (diffed, delta) =
            gpu::diffed_record(&self.graph, self.run, block, &mut self.warps, i, &th, &prev, &new, times);
        let mut record = if self.opts.instrument { self.record_from_log(i, l, times) } else { diffed };
        record.times.copy_ms = copy_ms;
        self.settled = Some(record.settled);
        let delta = self.opts.record_deltas.then_some(delta);
        self.host = Some(new);
        Ok(Some(Step { record, delta }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        if self.host.is_none() {
            let s = self.read_state()?;
            self.host = Some(s);
        }
        Ok(self.host.as_ref().map(|h| h.dist.clone()).unwrap_or_default())
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        if self.done {
            let mut run = self.run_header();
            run.iterations = self.iteration;
            run.reached = self.settled_now()?;
            return Ok(run);
        }
        if self.uses_fast_path() { self.run_fast(cancel, progress) } else { self.run_kernels(cancel, progress) }
    }
}
