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

mod kernels;
mod solver;

use super::{DeviceId, DeviceInfo};
use crate::algo::{Algorithm, SolveError, SolveOptions, Stepper};
use crate::graph::{Graph, VertexId};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

pub use solver::device_bytes;

/// The algorithms a CUDA device runs.
pub const ALGORITHMS: [Algorithm; 5] =
    [Algorithm::MartinSucc, Algorithm::MartinPred, Algorithm::CrauserSucc, Algorithm::CrauserPred, Algorithm::Racy];

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
            .map(|(i, d)| DeviceInfo {
                id: DeviceId::Cuda(i as u32),
                name: format!("CUDA: {}", d.name),
                status: Ok(()),
                algorithms: ALGORITHMS.to_vec(),
            })
            .collect(),
        Err(reason) => vec![DeviceInfo {
            id: DeviceId::Cuda(0),
            name: "CUDA unavailable".into(),
            status: Err(format!("CUDA unavailable: {reason}")),
            algorithms: Vec::new(),
        }],
    }
}

/// Total memory of device `index` in bytes, when the probe found it.
pub fn total_memory(index: u32) -> Option<usize> {
    probe().as_ref().ok()?.get(index as usize).map(|d| d.total_mem)
}

/// A CUDA stepper for `algo` from `source` on device `index`.
///
/// Errors ([`SolveError::Device`] unless said otherwise): CUDA unavailable, no device `index`,
/// an algorithm the GPU does not run (`dijkstra`), a block size that is not a multiple of 32 in
/// 32..=1024, a graph larger than the free device memory, NVRTC or driver failures;
/// [`SolveError::BadSource`] for `source ≥ n`.
pub fn stepper(
    index: u32,
    graph: Arc<Graph>,
    algo: Algorithm,
    source: VertexId,
    opts: &SolveOptions,
) -> Result<Box<dyn Stepper>, SolveError> {
    if source as usize >= graph.n() {
        return Err(SolveError::BadSource(source as u64, graph.n()));
    }
    let devs = probe().as_ref().map_err(|r| SolveError::Device(format!("CUDA unavailable: {r}")))?;
    if index as usize >= devs.len() {
        return Err(SolveError::Device(format!(
            "there is no CUDA device {index} (found {}: cuda:0 … cuda:{})",
            devs.len(),
            devs.len() - 1
        )));
    }
    if !ALGORITHMS.contains(&algo) {
        return Err(SolveError::Device(format!(
            "`{algo}` does not run on CUDA devices; they run {}",
            ALGORITHMS.iter().map(|a| a.id()).collect::<Vec<_>>().join(", ")
        )));
    }
    for (kernel, b) in [("relax", opts.block.relax), ("minimum", opts.block.minimum), ("update", opts.block.update)] {
        if !(32..=1024).contains(&b) || b % 32 != 0 {
            return Err(SolveError::Device(format!(
                "{kernel} block size {b}: CUDA needs a multiple of 32 (the warp) in 32…1024"
            )));
        }
    }
    let gpu = kernels::gpu(index)?;
    guarded(|| solver::new_stepper(gpu, graph, algo, source, opts))?
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

/// Overrides the number of blocks per multiprocessor of the persistent fast-path kernel (`None`:
/// as many as fit, the default; also settable with env `SSSP_LAB_CUDA_BLOCKS_PER_SM`). For
/// tuning sweeps.
pub fn set_persistent_blocks_per_sm(blocks: Option<u32>) {
    PERSISTENT_BLOCKS_PER_SM.store(blocks.unwrap_or(0), Ordering::Relaxed);
}

static PERSISTENT_BLOCKS_PER_SM: AtomicU32 = AtomicU32::new(u32::MAX);

fn persistent_blocks_per_sm() -> Option<u32> {
    let v = PERSISTENT_BLOCKS_PER_SM.load(Ordering::Relaxed);
    if v == u32::MAX {
        let env = std::env::var("SSSP_LAB_CUDA_BLOCKS_PER_SM").ok().and_then(|s| s.parse::<u32>().ok()).unwrap_or(0);
        PERSISTENT_BLOCKS_PER_SM.store(env, Ordering::Relaxed);
        (env > 0).then_some(env)
    } else {
        (v > 0).then_some(v)
    }
}

/// Overrides the work limit under which one block of the persistent successors kernel runs
/// iterations alone (|R| + |F| · mean degree; `Some(0)` turns solo mode off; `None`: 4 × the
/// relax block size, the default; also env `SSSP_LAB_CUDA_SOLO`). For tuning sweeps.
pub fn set_solo_work(limit: Option<u64>) {
    SOLO_WORK.store(limit.map_or(u64::MAX - 1, |l| l), Ordering::Relaxed);
}

/// u64::MAX: not read yet; u64::MAX − 1: default.
static SOLO_WORK: AtomicU64 = AtomicU64::new(u64::MAX);

fn solo_work() -> Option<u64> {
    let mut v = SOLO_WORK.load(Ordering::Relaxed);
    if v == u64::MAX {
        v = std::env::var("SSSP_LAB_CUDA_SOLO").ok().and_then(|s| s.parse::<u64>().ok()).unwrap_or(u64::MAX - 1);
        SOLO_WORK.store(v, Ordering::Relaxed);
    }
    (v != u64::MAX - 1).then_some(v)
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
        let g = Arc::new(crate::generate::teaching());
        let opts = SolveOptions::default();
        assert!(matches!(stepper(0, Arc::clone(&g), Algorithm::MartinSucc, 99, &opts), Err(SolveError::BadSource(..))));
        let r = stepper(0, Arc::clone(&g), Algorithm::Dijkstra, 0, &opts);
        assert!(matches!(r, Err(SolveError::Device(_))));
        let bad = SolveOptions { block: crate::algo::BlockSizes::uniform(100), ..Default::default() };
        assert!(matches!(stepper(0, g, Algorithm::MartinSucc, 0, &bad), Err(SolveError::Device(_))));
    }
}
