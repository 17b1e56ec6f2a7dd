//! CUDA devices through `cudarc` (driver API + NVRTC, both loaded at run time, so sssp-lab builds
//! and runs on machines without CUDA). Issue 3.
//!
//! - [`list`] probes the driver once per process (guarded: cudarc's loader panics when
//!   libcuda is missing, so the probe runs under `catch_unwind` with the panic hook silenced) and
//!   lists `CUDA: <device name>` per device, or one `CUDA unavailable: <reason>` entry.
//! - [`stepper`] uploads the graph (after checking free device memory) and returns a
//!   [`Stepper`] running `martin-succ`, `martin-pred`, `crauser-succ`, `crauser-pred` or `racy`:
//!   * `step` launches the three vertex-parallel kernels of `kernels/frontier.cu` (relax,
//!     minimum in two passes, update), times each with CUDA events, copies δ and the settled
//!     stamps back (timed as `copy_ms`) and diffs them against the host copy for the record and
//!     the [`crate::algo::StepDelta`]. With `SolveOptions::instrument` the kernels themselves
//!     count threads, warp classes, arcs and relaxations (`ThreadCounts::modelled = false`);
//!     without it the same figures are derived on the host from the copies (`modelled = true`).
//!   * `bellman-ford` has its own stepper (`bellman_ford.rs`, `kernels/bellman_ford.cu`):
//!     edge-parallel passes over an edge list, signed 32-bit δ.
//!   * `run_to_end` (fast mode) runs the persistent kernel of `kernels/fast.cu`: the whole
//!     solve stays on the GPU, nothing is read back per iteration; its records hold, per
//!     iteration, |F|, |U|, reached, settled, next |F| and the three Δ values, but no arc counts,
//!     thread counts or times (those are 0 / `None`; `RunRecord::total_ms` is the host wall
//!     time of the solve). With `instrument`, or for `racy`, `run_to_end` instead loops the
//!     vertex-parallel kernels (one Δ read-back per iteration) and records everything it counts.
//! - Block sizes (relax / minimum / update, multiples of 32 in 32..=1024) and the cache
//!   preference (`CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT` and the function cache
//!   config) are applied to every kernel and written into the device string of every result.
//! - δ is 32-bit when n · max weight < 2³² − 1, else 64-bit (also in the device string).
//! - Every driver, NVRTC, launch or copy failure is a [`SolveError::Device`], never a panic.

pub mod batch;
mod bellman_ford;
mod delta_stepping;
mod kernels;
pub(super) mod nearfar;
mod solver;
mod stream;
mod sweep;

use super::gpu::{Build, GpuRun};
use super::{DeviceId, DeviceInfo};
use crate::algo::{Algorithm, SolveError, Stepper};
use crate::graph::Graph;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Mutex, OnceLock};

/// One device as the probe found it.
#[derive(Clone, Debug)]
struct Probed {
    name: String,
    total_mem: usize,
}

/// The probe result, cached for the process.
fn probe() -> &'static Result<Vec<Probed>, String> {
    static PROBE: OnceLock<Result<Vec<Probed>, String>> = OnceLock::new();
    PROBE.get_or_init(|| match quietly(probe_inner) {
        Ok(r) => r,
        Err(msg) => Err(format!("the CUDA libraries could not be used ({msg})")),
    })
}

fn probe_inner() -> Result<Vec<Probed>, String> {
    use cudarc::driver::result;
    // SAFETY: only tries to open the library by its usual names.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err("libcuda (the NVIDIA driver library) was not found".into());
    }
    result::init().map_err(|e| format!("cuInit failed: {}", driver_msg(&e)))?;
    let count = result::device::get_count().map_err(|e| format!("cannot count CUDA devices: {}", driver_msg(&e)))?;
    if count <= 0 {
        return Err("the driver reports no CUDA device".into());
    }
    // SAFETY: as above.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        return Err("NVRTC (libnvrtc.so, needed to compile the kernels at run time) was not found".into());
    }
    let mut found = Vec::new();
    for i in 0..count {
        let dev = result::device::get(i).map_err(|e| format!("cannot open CUDA device {i}: {}", driver_msg(&e)))?;
        let name = result::device::get_name(dev).map_err(|e| format!("device {i}: {}", driver_msg(&e)))?;
        // SAFETY: `dev` came from cuDeviceGet.
        let total_mem = unsafe { result::device::total_mem(dev) }.unwrap_or(0);
        found.push(Probed { name, total_mem });
    }
    Ok(found)
}

/// CUDA devices found, or one entry saying why there are none. Never panics; probes once.
pub fn list() -> Vec<DeviceInfo> {
    match probe() {
        Ok(devs) => devs
            .iter()
            .enumerate()
            .map(|(i, d)| DeviceInfo::new(DeviceId::Cuda(i as u32), format!("CUDA: {}", d.name), Ok(())))
            .collect(),
        Err(reason) => vec![DeviceInfo::new(
            DeviceId::Cuda(0),
            "CUDA unavailable".into(),
            Err(format!("CUDA unavailable: {reason}")),
        )],
    }
}

/// Whether `need` bytes (the family's estimate for `algo` on `graph`) fit device `index`'s
/// total memory (the free memory is checked again when a stepper is built).
pub(super) fn fits_memory(index: u32, graph: &Graph, algo: Algorithm, need: u64) -> Result<(), String> {
    match total_memory(index) {
        Some(total) if need > total as u64 => Err(format!(
            "graph `{}` needs {:.1} MiB of device memory for {algo}; cuda:{index} has {:.1} MiB",
            graph.name,
            need as f64 / 1048576.0,
            total as f64 / 1048576.0
        )),
        _ => Ok(()),
    }
}

pub(super) use bellman_ford::device_bytes as bellman_ford_bytes;
pub(super) use delta_stepping::device_bytes as delta_stepping_bytes;
pub(super) use solver::device_bytes as frontier_bytes;
pub(super) use sweep::{build_sweep, device_bytes as sweep_bytes};

/// Total memory of device `index` in bytes, when the probe found it.
pub fn total_memory(index: u32) -> Option<usize> {
    probe().as_ref().ok()?.get(index as usize).map(|d| d.total_mem)
}

/// A CUDA stepper for a request that `make_stepper` checked (source, parameters, weights) and
/// `family` checked into `run`.
///
/// Errors ([`SolveError::Device`]): CUDA unavailable, no device `index`, a graph larger than
/// the free device memory, NVRTC or driver failures.
pub(super) fn stepper(builder: super::gpu::Builder, build: Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    check_index(build.index)?;
    builder(build)
}

/// The frontier family's builder (`GpuFamily::cuda`).
pub(super) fn build_frontier(b: Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let GpuRun::Frontier(run) = b.run else { return Err(b.mismatch("frontier")) };
    let gpu = kernels::gpu(b.index)?;
    guarded(|| solver::new_stepper(gpu, run, &b))?
}

/// The edge-parallel family's builder.
pub(super) fn build_bellman_ford(b: Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let GpuRun::EdgeParallel(run) = b.run else { return Err(b.mismatch("edge-parallel")) };
    let gpu = kernels::gpu(b.index)?;
    guarded(|| bellman_ford::new_stepper(gpu, run, &b))?
}

/// The bucketed family's builder.
pub(super) fn build_delta_stepping(b: Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let GpuRun::Bucketed(run) = b.run else { return Err(b.mismatch("bucketed")) };
    let gpu = kernels::gpu(b.index)?;
    guarded(|| delta_stepping::new_stepper(gpu, run, &b))?
}

/// Peak memory bandwidth of device `index` from the driver (memory clock × bus width × 2),
/// bytes/s. Errors: CUDA unavailable, no such device.
pub fn peak_bandwidth(index: u32) -> Result<f64, SolveError> {
    check_index(index)?;
    Ok(kernels::gpu(index)?.peak_bytes_per_s)
}

/// Errors when CUDA is unavailable or there is no device `index`.
fn check_index(index: u32) -> Result<(), SolveError> {
    let devs = probe().as_ref().map_err(|r| SolveError::Device(format!("CUDA unavailable: {r}")))?;
    if index as usize >= devs.len() {
        return Err(SolveError::Device(format!(
            "there is no CUDA device {index} (found {}: cuda:0 … cuda:{})",
            devs.len(),
            devs.len() - 1
        )));
    }
    Ok(())
}

/// What benchmarks print about a CUDA device.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CudaDetails {
    pub index: u32,
    pub name: String,
    pub compute_capability: (i32, i32),
    pub multiprocessors: u32,
    pub total_mem_bytes: usize,
    /// `cuDriverGetVersion`, e.g. 13000 for CUDA 13.0.
    pub driver_api_version: i32,
    pub cooperative_launch: bool,
    /// Time NVRTC took to compile the kernels for this device, ms.
    pub nvrtc_compile_ms: f64,
}

/// Opens device `index` (compiling the kernels if not done yet) and describes it.
pub fn details(index: u32) -> Result<CudaDetails, SolveError> {
    probe().as_ref().map_err(|r| SolveError::Device(format!("CUDA unavailable: {r}")))?;
    let g = kernels::gpu(index)?;
    let mut version = 0i32;
    // SAFETY: plain out-parameter call into the loaded driver.
    let _ = guarded(|| unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) })?;
    Ok(CudaDetails {
        index,
        name: g.name.clone(),
        compute_capability: g.compute_capability,
        multiprocessors: g.multiprocessors,
        total_mem_bytes: total_memory(index).unwrap_or(0),
        driver_api_version: version,
        cooperative_launch: g.cooperative,
        nvrtc_compile_ms: g.compile_ms,
    })
}

/// Text of a driver error: `CUDA_ERROR_X (description)`.
fn driver_msg(e: &cudarc::driver::DriverError) -> String {
    let name = e.error_name().map(|c| c.to_string_lossy().into_owned()).unwrap_or_else(|_| format!("{:?}", e.0));
    match e.error_string() {
        Ok(s) => format!("{name} ({})", s.to_string_lossy()),
        Err(_) => name,
    }
}

/// `map_err` helper: a driver error with what was being done.
fn dev_err(what: &str) -> impl Fn(cudarc::driver::DriverError) -> SolveError + '_ {
    move |e| SolveError::Device(format!("{what}: {}", driver_msg(&e)))
}

/// Runs `f`, turning a panic inside cudarc (a missing library symbol, say) into
/// [`SolveError::Device`].
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, SolveError> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| SolveError::Device(format!("CUDA failure: {}", panic_text(&p))))
}

/// Runs `f` with the panic hook silenced (the probe must print nothing when CUDA is missing).
fn quietly<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: Mutex<()> = Mutex::new(());
    let _lock = HOOK.lock().unwrap_or_else(|p| p.into_inner());
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = catch_unwind(AssertUnwindSafe(f));
    std::panic::set_hook(previous);
    result.map_err(|p| panic_text(&p))
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::SolveOptions;
    use std::sync::Arc;

    #[test]
    fn listing_never_panics_and_is_cached() {
        let a = list();
        let b = list();
        assert!(!a.is_empty());
        assert_eq!(a.len(), b.len());
        for d in &a {
            match &d.status {
                Ok(()) => assert!(d.name.starts_with("CUDA: ")),
                Err(e) => assert!(e.starts_with("CUDA unavailable: "), "{e}"),
            }
        }
    }

    #[test]
    fn stepper_errors_are_device_errors() {
        use crate::device::{DeviceId, make_stepper};
        let g = Arc::new(crate::generate::teaching());
        let opts = SolveOptions::default();
        let martin = crate::algo::MARTIN_SUCC;
        let cuda = DeviceId::Cuda(0);
        assert!(matches!(make_stepper(cuda, Arc::clone(&g), martin, 99, &opts), Err(SolveError::BadSource(..))));
        let r = make_stepper(cuda, Arc::clone(&g), crate::algo::DIJKSTRA, 0, &opts);
        assert!(matches!(r, Err(SolveError::Device(_))));
        // Valid on the CPU, not a whole number of warps for CUDA.
        let block = crate::algo::BlockSizes { minimum: 100, ..crate::algo::BlockSizes::uniform(64) };
        let bad = SolveOptions { block, ..Default::default() };
        assert!(matches!(make_stepper(cuda, g, martin, 0, &bad), Err(SolveError::Device(_))));
    }
}
