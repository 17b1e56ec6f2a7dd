//! wgpu device: the frontier solvers (`martin-*`, `crauser-*`, each successors variant also
//! with the non-atomic relax, `relax=non-atomic` / `racy`) as WGSL compute kernels on every adapter wgpu finds (Vulkan, GL, Metal, DX12).
//!
//! - `bellman-ford` and `delta-stepping` run on the device-neutral drivers of
//!   [`crate::device::driver`] over this device's backends (`bellman_ford.rs`,
//!   `delta_stepping.rs`; kernels `kernels/bellman_ford.wgsl`, `kernels/delta_stepping.wgsl`).
//! - [`list`] names every adapter as `wgpu <backend>: <adapter>` in a stable order (index i of
//!   `DeviceId::Wgpu(i)` = position in that list); an adapter that cannot run the kernels, or no
//!   adapter at all, is listed with the reason in `status`.
//! - The kernels live in `kernels/wgpu_*.wgsl` beside the CUDA ones (`frontier.cu` ↔
//!   `frontier.wgsl`, `racy.cu` ↔ `racy.wgsl`, `fast.cu` ↔ `fast.wgsl`,
//!   `common.cuh` ↔ `common.wgsl`; same entry points, algorithms and counters) and are
//!   compiled into the binary with `include_str!` (`kernels.rs`).
//! - One logical device per adapter is created on first use and shared by every stepper of the
//!   process, with a cache of compiled pipelines (block size = workgroup size = the
//!   pipeline-overridable constant `WG`).
//! - Limits are taken from the adapter, not assumed: arc arrays larger than
//!   `max_storage_buffer_binding_size` are split over several bindings, more than
//!   `max_compute_workgroups_per_dimension` workgroups use a 2-D dispatch, block sizes beyond
//!   `max_compute_invocations_per_workgroup` are refused with a clear error.
//! - WGSL has only 32-bit atomics, so distances are `u32` with 2³²−1 as ∞: graphs whose
//!   distances could reach that are refused ([`super::gpu::u32_distance_range`]).
//! - Timing: per-kernel GPU timestamps where the adapter has `TIMESTAMP_QUERY`, otherwise the
//!   host clock around submit-and-wait of each kernel; the stepper's device string says which.
//!   The fast path (`run_to_end` without instrumentation) runs untimed batches (see
//!   [`WgpuStepper`]).
//! - Warp figures of instrumented runs use 32-thread warps like the CPU model, whatever the
//!   adapter's subgroup size (the device string names it when it is not 32).
//!
//! GPU errors (validation, out of memory, device lost) become [`SolveError::Device`]; nothing
//! here panics on a GPU result.

mod bellman_ford;
mod delta_stepping;
mod dispatch;
mod kernels;
mod nearfar;
mod stepper;
mod sweep;

pub use stepper::WgpuStepper;

use super::gpu::{Build, GpuRun};
use super::{DeviceId, DeviceInfo};
use crate::algo::{Algorithm, SolveError, SolveOptions, Stepper};
use crate::graph::{Graph, VertexId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// What wgpu distances can hold, for device strings and UI text.
pub const DISTANCE_RANGE: &str = super::gpu::U32_DISTANCE_RANGE;

/// Knobs for tests and experiments; `Default` is what [`stepper`] uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WgpuTuning {
    /// Split the arc arrays (targets, weights) into bindings of at most this many bytes instead
    /// of the adapter's `max_storage_buffer_binding_size` (tests force the split with small
    /// values).
    pub arc_chunk_bytes: Option<u64>,
    /// Use a 2-D dispatch above this many workgroups instead of the adapter's
    /// `max_compute_workgroups_per_dimension`.
    pub max_workgroups_per_dim: Option<u32>,
    /// Per-pass timestamps in the fast path too (its batches then use two passes per
    /// iteration instead of one pass per batch: for the time split of the benchmark only).
    pub fast_timestamps: bool,
    /// Keep wgpu's bounds checks in the shaders (off by default: every index comes from the
    /// validated CSR or is guarded by `t < n`, and the checks cost time in the inner loops).
    pub bounds_checks: bool,
}

/// Every adapter wgpu finds, as `wgpu <backend>: <name>`; an unusable one (or none at all) is
/// listed with the reason.
pub fn list() -> Vec<DeviceInfo> {
    registry().entries.iter().map(|e| e.info.clone()).collect()
}

/// The frontier family's builder (`GpuFamily::wgpu`).
pub(super) fn build_frontier(b: Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let GpuRun::Frontier(run) = b.run else { return Err(b.mismatch("frontier")) };
    Ok(Box::new(frontier(b.index, b.graph, b.algo, run, b.source, b.opts, WgpuTuning::default())?))
}

/// The edge-parallel family's builder.
pub(super) fn build_bellman_ford(b: Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let GpuRun::EdgeParallel(run) = b.run else { return Err(b.mismatch("edge-parallel")) };
    let g = gpu(b.index)?;
    settled(&g, bellman_ford::stepper(Arc::clone(&g), run, &b))
}

/// The bucketed family's builder.
pub(super) fn build_delta_stepping(b: Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let GpuRun::Bucketed(run) = b.run else { return Err(b.mismatch("bucketed")) };
    let g = gpu(b.index)?;
    if crate::algo::DeltaSteppingParams::decode(&b.opts.params).is_ok_and(|p| p.near_far) {
        return settled(&g, nearfar::stepper(Arc::clone(&g), run, &b));
    }
    settled(&g, delta_stepping::stepper(Arc::clone(&g), run, &b))
}

/// The sweep family's builder (PHAST, `sweep.rs`).
pub(super) fn build_sweep(b: Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let GpuRun::Sweep(run) = b.run else { return Err(b.mismatch("sweep")) };
    let g = gpu(b.index)?;
    settled(&g, sweep::stepper(Arc::clone(&g), run, &b))
}

/// A built stepper once its uploads have reached the device ([`Gpu::settle`]), so its first
/// timed batch is the solve's own work.
fn settled<S>(gpu: &Gpu, stepper: Result<S, SolveError>) -> Result<S, SolveError> {
    let s = stepper?;
    gpu.settle("uploading the graph")?;
    Ok(s)
}

/// A frontier stepper with [`WgpuTuning`] knobs, returning the concrete type (tests read
/// [`WgpuStepper::arc_chunks`] and [`WgpuStepper::uses_2d_dispatch`]); runs the checks of
/// [`crate::device::make_stepper`] itself.
///
/// Errors: those of `make_stepper` for wgpu, and [`SolveError::Device`] for a family other
/// than the frontier solvers.
pub fn stepper_with(
    index: u32,
    graph: Arc<Graph>,
    algo: Algorithm,
    source: VertexId,
    opts: &SolveOptions,
    tuning: WgpuTuning,
) -> Result<WgpuStepper, SolveError> {
    super::gpu::common_checks(&graph, algo, source, opts)?;
    let run = super::gpu::check_request(&graph, algo, opts, &super::gpu::WGPU)?;
    super::gpu::u32_distance_range(&graph)?;
    frontier(index, graph, algo, run, source, opts, tuning)
}

fn frontier(
    index: u32,
    graph: Arc<Graph>,
    algo: Algorithm,
    run: super::gpu::FrontierRun,
    source: VertexId,
    opts: &SolveOptions,
    tuning: WgpuTuning,
) -> Result<WgpuStepper, SolveError> {
    // Adapter limits on block sizes are checked by the stepper, which knows the adapter.
    super::gpu::cuda_only_options("wgpu", algo, &opts.params).map_err(SolveError::Device)?;
    let gpu = gpu(index)?;
    let b = Build { index, graph, algo, run: super::gpu::GpuRun::Frontier(run), source, opts };
    settled(&gpu, stepper::WgpuFrontier::stepper(Arc::clone(&gpu), run, &b, tuning))
}

/// One adapter in the list.
struct Entry {
    info: DeviceInfo,
    adapter: Option<wgpu::Adapter>,
    /// The opened device: set by the probe, or replaced by the window's ([`share_device`]).
    gpu: Mutex<Option<Result<Arc<Gpu>, String>>>,
}

struct Registry {
    entries: Vec<Entry>,
}

/// Probes wgpu once per process. Never panics: a panic inside wgpu's probing becomes the reason
/// of an `Err` entry.
fn registry() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(|| {
        let probed = std::panic::catch_unwind(probe).unwrap_or_else(|p| {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            Err(format!("wgpu unavailable: probing adapters panicked: {msg}"))
        });
        let entries = match probed {
            Ok(e) if !e.is_empty() => e,
            Ok(_) => vec![unavailable(
                "wgpu unavailable: no adapter found (no Vulkan/GL driver; on Debian install \
                 mesa-vulkan-drivers libvulkan1 for the lavapipe software adapter)"
                    .into(),
            )],
            Err(reason) => vec![unavailable(reason)],
        };
        Registry { entries }
    })
}

fn unavailable(reason: String) -> Entry {
    Entry { info: DeviceInfo::new(DeviceId::Wgpu(0), "wgpu".into(), Err(reason)), adapter: None, gpu: Mutex::new(None) }
}

/// The instance lives as long as the process (adapters and devices keep it alive anyway).
fn instance() -> &'static wgpu::Instance {
    static INSTANCE: OnceLock<wgpu::Instance> = OnceLock::new();
    INSTANCE.get_or_init(|| {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::all());
        // No validation layers or indirect-call validation unless asked for through WGPU_* env.
        desc.flags = wgpu::InstanceFlags::empty().with_env();
        wgpu::Instance::new(desc)
    })
}

fn backend_order(b: wgpu::Backend) -> u8 {
    match b {
        wgpu::Backend::Vulkan => 0,
        wgpu::Backend::Metal => 1,
        wgpu::Backend::Dx12 => 2,
        wgpu::Backend::Gl => 3,
        _ => 4,
    }
}

fn backend_name(b: wgpu::Backend) -> &'static str {
    match b {
        wgpu::Backend::Vulkan => "Vulkan",
        wgpu::Backend::Metal => "Metal",
        wgpu::Backend::Dx12 => "DX12",
        wgpu::Backend::Gl => "GL",
        wgpu::Backend::BrowserWebGpu => "WebGPU",
        _ => "other",
    }
}

fn probe() -> Result<Vec<Entry>, String> {
    let mut adapters = pollster::block_on(instance().enumerate_adapters(wgpu::Backends::all()));
    // Stable order: by backend (Vulkan first), then as wgpu enumerated them.
    adapters.sort_by_key(|a| backend_order(a.get_info().backend));
    Ok(adapters
        .into_iter()
        .enumerate()
        .map(|(i, adapter)| {
            let info = adapter.get_info();
            let mut name = format!("wgpu {}: {}", backend_name(info.backend), info.name);
            if info.device_type == wgpu::DeviceType::Cpu && !info.name.contains("software") {
                name.push_str(" (software)");
            }
            let mut gpu = None;
            // Limits first; then open the device and compile one kernel of each kernel file:
            // an adapter can claim compute shaders and still not compile them (seen: wgpu's GL
            // backend on the NVIDIA driver, "The selected version doesn't support
            // Features(BUFFER_STORAGE | COMPUTE_SHADER …)").
            let status = usable(&adapter).and_then(|()| {
                let g = open(&adapter, &name).map(Arc::new)?;
                let checked = compiles(&g);
                gpu = Some(Ok(g));
                checked
            });
            let gpu = Mutex::new(gpu);
            Entry { info: DeviceInfo::new(DeviceId::Wgpu(i as u32), name, status), adapter: Some(adapter), gpu }
        })
        .collect())
}

/// Compiles one kernel of each kernel file with the default settings (they stay cached).
fn compiles(gpu: &Gpu) -> Result<(), String> {
    use kernels::{ArcLayout, FastShape, Kernel, PipelineKey};
    for kernel in [Kernel::Init, Kernel::RelaxRacy, Kernel::FastUpdate] {
        let key = PipelineKey {
            kernel,
            wg: 256,
            instrument: false,
            crauser: false,
            arcs: ArcLayout { chunks: 1, shift: 31 },
            fast: FastShape { team: 1, chunk: 64, relax_wg: 256, relax_cap: 1, relax_fixed: 0 },
            bounds_checks: false,
        };
        kernels::get(gpu, key).map_err(|e| format!("unusable: the kernels do not compile here: {e}"))?;
    }
    Ok(())
}

/// Storage buffers the kernels bind at most with unsplit arc arrays (relax_succ, instrumented).
pub(crate) const MIN_STORAGE_BUFFERS: u32 = 8;

/// Why an adapter cannot run the kernels, if it cannot.
fn usable(adapter: &wgpu::Adapter) -> Result<(), String> {
    let caps = adapter.get_downlevel_capabilities();
    if !caps.flags.contains(wgpu::DownlevelFlags::COMPUTE_SHADERS) {
        return Err("unusable: the adapter has no compute shaders".into());
    }
    let l = adapter.limits();
    if l.max_storage_buffers_per_shader_stage < MIN_STORAGE_BUFFERS {
        return Err(format!(
            "unusable: the kernels bind {MIN_STORAGE_BUFFERS} storage buffers, the adapter allows {}",
            l.max_storage_buffers_per_shader_stage
        ));
    }
    if l.max_compute_invocations_per_workgroup < 32 {
        return Err(format!(
            "unusable: at most {} invocations per workgroup (need 32)",
            l.max_compute_invocations_per_workgroup
        ));
    }
    Ok(())
}

/// A logical device on one adapter, shared by all steppers on it.
pub(crate) struct Gpu {
    /// `wgpu <backend>: <adapter>`.
    pub name: String,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub limits: wgpu::Limits,
    /// `TIMESTAMP_QUERY` enabled: per-kernel GPU times.
    pub timestamps: bool,
    /// Nanoseconds per timestamp tick.
    pub timestamp_period: f32,
    /// Indirect dispatch available (lets finished iterations of a batch cost nothing).
    pub indirect: bool,
    /// Subgroup size range reported by the adapter, (0, 0) if none.
    pub subgroup: (u32, u32),
    /// How long [`Gpu::wait`] checks for a submission's end without blocking before it sleeps in
    /// the driver ([`spin_budget`]).
    spin: std::time::Duration,
    /// Set by the device-lost callback.
    lost: Arc<Mutex<Option<String>>>,
    /// Errors outside every error scope (recorded instead of wgpu's default panic).
    uncaptured: Arc<Mutex<Vec<String>>>,
    pub(crate) cache: kernels::Cache,
}

impl Gpu {
    /// Runs `f` inside validation / out-of-memory / internal error scopes and turns any error
    /// caught, a lost device or an uncaptured error into [`SolveError::Device`].
    pub fn guarded<T>(&self, what: &str, f: impl FnOnce() -> T) -> Result<T, SolveError> {
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let internal = self.device.push_error_scope(wgpu::ErrorFilter::Internal);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let out = f();
        let errors = [validation.pop(), internal.pop(), oom.pop()];
        for e in errors {
            if let Some(e) = pollster::block_on(e) {
                return Err(SolveError::Device(format!("{}: {what}: {e}", self.name)));
            }
        }
        self.check(what)?;
        Ok(out)
    }

    /// Reports a lost device or a recorded uncaptured error.
    pub fn check(&self, what: &str) -> Result<(), SolveError> {
        if let Some(reason) = self.lost.lock().ok().and_then(|l| l.clone()) {
            return Err(SolveError::Device(format!("{}: device lost ({what}): {reason}", self.name)));
        }
        if let Some(e) = self.uncaptured.lock().ok().and_then(|mut u| u.pop()) {
            return Err(SolveError::Device(format!("{}: {what}: {e}", self.name)));
        }
        Ok(())
    }

    /// Waits for the most recent submission and runs pending callbacks.
    pub fn poll_once(&self, what: &str) -> Result<(), SolveError> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| SolveError::Device(format!("{}: waiting for {what}: {e}", self.name)))?;
        std::thread::yield_now();
        self.check(what)
    }

    /// Submits what the queue holds back and waits for it: the copies of buffers made with
    /// contents (`create_buffer_init` stages them and copies in the next submission) and queued
    /// writes. Builders call it so a solve's first batch does not carry the graph's upload — on
    /// the H100 the 134 MB of R-MAT 20's arcs took ~6 ms of a 7.5 ms "solve" — and wgpu's
    /// timings stay comparable with CUDA's, whose uploads finish before the run.
    pub fn settle(&self, what: &str) -> Result<(), SolveError> {
        let index = self.queue.submit(std::iter::empty());
        self.wait(index, what)
    }

    /// Blocks until submission `index` has finished: first checking without blocking for up to
    /// [`Gpu::spin`], then asleep in the driver. Sleeping costs a short run its wake-up: on the
    /// H200 a PHAST run on luxembourg waited ~100 µs past its 175 µs of GPU time
    /// (`bench/results/gpu-peers-2026-11-28/d3`); CUDA's synchronisation spins likewise.
    pub fn wait(&self, index: wgpu::SubmissionIndex, what: &str) -> Result<(), SolveError> {
        let t0 = std::time::Instant::now();
        while !self.spin.is_zero() {
            let now = wgpu::PollType::Wait { submission_index: Some(index.clone()), timeout: Some(Default::default()) };
            match self.device.poll(now) {
                Ok(_) => return self.check(what),
                Err(wgpu::PollError::Timeout) if t0.elapsed() < self.spin => std::hint::spin_loop(),
                Err(wgpu::PollError::Timeout) => break,
                Err(e) => return Err(SolveError::Device(format!("{}: waiting for {what}: {e}", self.name))),
            }
        }
        self.device
            .poll(wgpu::PollType::Wait { submission_index: Some(index), timeout: None })
            .map_err(|e| SolveError::Device(format!("{}: waiting for {what}: {e}", self.name)))?;
        self.check(what)
    }
}

/// Device-memory copy bandwidth of adapter `index`, bytes/s (read + write): the best of four
/// 64 MiB buffer-to-buffer copies, timed on the host around submit-and-wait (wgpu reports no
/// memory clock). Errors: no such adapter, a device error.
pub fn copy_bandwidth(index: u32) -> Result<f64, SolveError> {
    let g = gpu(index)?;
    let size: u64 = (64u64 << 20).min(g.limits.max_buffer_size / 2) & !3;
    let usage = wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let (src, dst) = g.guarded("allocating the copy buffers", || {
        let mk = |label| {
            g.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        (mk("copy source"), mk("copy target"))
    })?;
    let mut best = f64::INFINITY;
    for _ in 0..4 {
        let mut enc =
            g.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("copy bandwidth") });
        enc.copy_buffer_to_buffer(&src, 0, &dst, 0, size);
        let t = std::time::Instant::now();
        let index = g.queue.submit([enc.finish()]);
        g.wait(index, "the bandwidth copy")?;
        best = best.min(t.elapsed().as_secs_f64());
    }
    Ok(2.0 * size as f64 / best.max(1e-9))
}

/// The shared device of adapter `index`, created on first use.
pub(crate) fn gpu(index: u32) -> Result<Arc<Gpu>, SolveError> {
    let reg = registry();
    let entry = reg.entries.get(index as usize).ok_or_else(|| {
        SolveError::Device(format!(
            "no wgpu adapter {index}: found {} ({})",
            reg.entries.len(),
            reg.entries.iter().map(|e| e.info.name.as_str()).collect::<Vec<_>>().join("; ")
        ))
    })?;
    if let Err(reason) = &entry.info.status {
        return Err(SolveError::Device(format!("{}: {reason}", entry.info.name)));
    }
    let Some(adapter) = &entry.adapter else {
        return Err(SolveError::Device(format!("{}: no adapter", entry.info.name)));
    };
    let mut slot =
        entry.gpu.lock().map_err(|_| SolveError::Device(format!("{}: registry poisoned", entry.info.name)))?;
    slot.get_or_insert_with(|| open(adapter, &entry.info.name).map(Arc::new)).clone().map_err(SolveError::Device)
}

/// Makes the solvers of the adapter described by `info` run on `device` and `queue` (the
/// window's, which eframe opened on the same physical adapter through another `wgpu::Instance`),
/// so that a renderer on that device can read a solver's buffers directly
/// ([`crate::algo::DeviceVertexState`]). Steppers built before keep their device. Returns the
/// adapter's index in [`list`], or `None` when no usable adapter matches (the solvers then keep
/// their own device, and the view uploads what they read back).
///
/// The device should have been requested with [`device_descriptor`]: the kernels size
/// themselves to the device's limits, and time themselves only with `TIMESTAMP_QUERY`.
pub fn share_device(info: &wgpu::AdapterInfo, device: wgpu::Device, queue: wgpu::Queue) -> Option<u32> {
    let reg = registry();
    let (i, entry) = reg.entries.iter().enumerate().find(|(_, e)| {
        e.info.status.is_ok() && e.adapter.as_ref().is_some_and(|a| same_adapter(&a.get_info(), info))
    })?;
    let adapter = entry.adapter.as_ref()?;
    let g = wrap(adapter, &entry.info.name, device, queue);
    *entry.gpu.lock().ok()? = Some(Ok(Arc::new(g)));
    Some(i as u32)
}

/// Whether two `AdapterInfo`s from different instances name one physical adapter (the PCI bus
/// id tells apart two cards of one model where the driver reports it).
fn same_adapter(a: &wgpu::AdapterInfo, b: &wgpu::AdapterInfo) -> bool {
    a.name == b.name
        && a.vendor == b.vendor
        && a.device == b.device
        && a.device_type == b.device_type
        && a.backend == b.backend
        && a.driver == b.driver
        && a.device_pci_bus_id == b.device_pci_bus_id
}

/// The device request the solvers make of `adapter`: every limit it has (the kernels bind up
/// to eight storage buffers and size arc chunks to the largest binding), and `TIMESTAMP_QUERY`
/// (per-kernel GPU times; `_INSIDE_PASSES` for the near-far profile, `SSSP_NF_WG_PROFILE=1`) and
/// `SUBGROUP` (the near-far vertex relax's appends) where they exist.
/// The app asks eframe for the same, so the window's device can run the solvers ([`share_device`]).
pub fn device_descriptor(adapter: &wgpu::Adapter) -> wgpu::DeviceDescriptor<'static> {
    wgpu::DeviceDescriptor {
        label: Some("sssp-lab compute"),
        required_features: adapter.features()
            & (wgpu::Features::TIMESTAMP_QUERY
                | wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES
                | wgpu::Features::SUBGROUP),
        required_limits: adapter.limits(),
        ..Default::default()
    }
}

fn open(adapter: &wgpu::Adapter, name: &str) -> Result<Gpu, String> {
    let (device, queue) = pollster::block_on(adapter.request_device(&device_descriptor(adapter)))
        .map_err(|e| format!("{name}: cannot open the device: {e}"))?;
    Ok(wrap(adapter, name, device, queue))
}

/// [`Gpu::wait`]'s spin before it blocks: `SSSP_WGPU_SPIN_US` µs where set (0: block at once),
/// else 2 ms on a hardware adapter and none on a software one (lavapipe runs the kernels on the
/// CPU's cores, which a spinning host thread would take from it).
fn spin_budget(kind: wgpu::DeviceType) -> std::time::Duration {
    let us = std::env::var("SSSP_WGPU_SPIN_US").ok().and_then(|v| v.trim().parse::<u64>().ok());
    let us = us.unwrap_or(if kind == wgpu::DeviceType::Cpu { 0 } else { 2000 });
    std::time::Duration::from_micros(us)
}

/// A [`Gpu`] around an opened device: lost-device and uncaptured-error reports go where
/// [`Gpu::check`] finds them (wgpu's default for uncaptured errors is a panic).
fn wrap(adapter: &wgpu::Adapter, name: &str, device: wgpu::Device, queue: wgpu::Queue) -> Gpu {
    let lost = Arc::new(Mutex::new(None));
    let lost2 = Arc::clone(&lost);
    device.set_device_lost_callback(move |reason, msg| {
        if let Ok(mut l) = lost2.lock() {
            *l = Some(format!("{reason:?}: {msg}"));
        }
    });
    let uncaptured = Arc::new(Mutex::new(Vec::new()));
    let unc2 = Arc::clone(&uncaptured);
    device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
        if let Ok(mut u) = unc2.lock() {
            u.push(e.to_string());
        }
    }));
    let info = adapter.get_info();
    let indirect = adapter.get_downlevel_capabilities().flags.contains(wgpu::DownlevelFlags::INDIRECT_EXECUTION);
    Gpu {
        name: name.to_string(),
        timestamp_period: queue.get_timestamp_period(),
        timestamps: device.features().contains(wgpu::Features::TIMESTAMP_QUERY),
        limits: device.limits(),
        device,
        queue,
        indirect,
        subgroup: (info.subgroup_min_size, info.subgroup_max_size),
        spin: spin_budget(info.device_type),
        lost,
        uncaptured,
        cache: kernels::Cache { inner: Mutex::new(HashMap::new()) },
    }
}
