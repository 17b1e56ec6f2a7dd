//! One CUDA device as the solvers use it: its context (primary, event tracking off: every
//! stepper uses one stream of its own), its properties, and the kernels of `kernels/*.cu`
//! compiled once per process by NVRTC for the device's compute capability. Every file is
//! compiled as the layout prelude ([`crate::device::layout::cuda_prelude`]: slots and control
//! words), `kernels/common.cuh` (the shared operators: balanced advance, successors relax, warp
//! counting, scans) and the file itself.

use super::{dev_err, guarded};
use crate::algo::SolveError;
use cudarc::driver::sys::CUdevice_attribute;
use cudarc::driver::{CudaContext, CudaFunction};
use cudarc::nvrtc::{CompileError, CompileOptions, compile_ptx_with_opts};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The shared operators, prepended to every kernel file (NVRTC has no include path here).
pub(super) const COMMON_SRC: &str = include_str!("../../../kernels/common.cuh");
/// Vertex-parallel relax / minimum / update (stepping and instrumented modes).
pub(super) const FRONTIER_SRC: &str = include_str!("../../../kernels/frontier.cu");
/// The racy relax (seed 004 §4.3): `relax_succ_k` of common.cuh with the racy push.
pub(super) const RACY_SRC: &str = include_str!("../../../kernels/racy.cu");
/// The persistent fast path.
pub(super) const FAST_SRC: &str = include_str!("../../../kernels/fast.cu");
/// Edge-parallel Bellman-Ford (signed 32-bit δ, no width variants).
pub(super) const BELLMAN_FORD_SRC: &str = include_str!("../../../kernels/bellman_ford.cu");

/// Δ-stepping (u32 δ, no width variants), compiled apart from the others: a failure there
/// leaves the frontier solvers and Bellman-Ford usable and is reported when Δ-stepping asks.
pub(super) const DELTA_STEPPING_SRC: &str = include_str!("../../../kernels/delta_stepping.cu");
const DELTA_STEPPING_FUNCS: [&str; 7] =
    ["ds_relax", "ds_relax_balanced", "ds_commit", "ds_advance", "ds_min_far", "ds_open", "ds_advance2"];

/// Seed 004's variant relax kernels (UGPU_PLUS, adjacency matrices), compiled apart like
/// Δ-stepping's; entry points of both distance widths.
pub(super) const SEED004_SRC: &str = include_str!("../../../kernels/seed004.cu");
const SEED004_FUNCS: [&str; 8] = [
    "relax_pred_plus_u32",
    "relax_pred_plus_u64",
    "relax_pred_mat_u32",
    "relax_pred_mat_u64",
    "relax_succ_mat_u32",
    "relax_succ_mat_u64",
    "relax_succ_mat_racy_u32",
    "relax_succ_mat_racy_u64",
];

/// Kernel files and the entry points each defines (both distance widths).
const FILES: [(&str, &str, &[&str]); 4] = [
    (
        "frontier.cu",
        FRONTIER_SRC,
        &[
            "sssp_init",
            "relax_succ",
            "relax_succ_instr",
            "relax_succ_bal",
            "relax_succ_bal_instr",
            "relax_pred",
            "relax_pred_instr",
            "min1",
            "min1_instr",
            "update",
            "update_instr",
        ],
    ),
    ("racy.cu", RACY_SRC, &["relax_racy", "relax_racy_instr"]),
    (
        "fast.cu",
        FAST_SRC,
        &[
            "fast_setup_succ",
            "fast_setup_pred",
            "fast_succ_martin",
            "fast_succ_crauser",
            "fast_pred_martin",
            "fast_pred_crauser",
        ],
    ),
    ("bellman_ford.cu", BELLMAN_FORD_SRC, &[]),
];

/// Entry points with no distance-width suffix.
const PLAIN: [(&str, &str); 9] = [
    ("frontier.cu", "sssp_min2"),
    ("fast.cu", "fast_reset"),
    ("fast.cu", "fast_unpack_u32"),
    ("bellman_ford.cu", "bf_init"),
    ("bellman_ford.cu", "bf_commit"),
    ("bellman_ford.cu", "bf_relax_all_ldg"),
    ("bellman_ford.cu", "bf_relax_frontier_ldg"),
    ("bellman_ford.cu", "bf_relax_all_plain"),
    ("bellman_ford.cu", "bf_relax_frontier_plain"),
];

/// A CUDA device with its compiled kernels.
pub(super) struct Gpu {
    pub ordinal: u32,
    pub ctx: Arc<CudaContext>,
    pub name: String,
    pub multiprocessors: u32,
    pub cooperative: bool,
    pub compute_capability: (i32, i32),
    /// Time NVRTC took to compile all kernel files (ms), shown by benchmarks.
    pub compile_ms: f64,
    /// Peak memory bandwidth from the driver: 2 (double data rate) × memory clock × bus width,
    /// bytes/s (the roofline's limit).
    pub peak_bytes_per_s: f64,
    funcs: HashMap<String, CudaFunction>,
    /// Why kernels/delta_stepping.cu did not compile or load, if it did not.
    delta_stepping_error: Option<String>,
    /// Why kernels/seed004.cu did not compile or load, if it did not.
    seed004_error: Option<String>,
}

impl Gpu {
    /// Compiles one more kernel file (`kernels/{file}`, with the layout prelude and common.cuh,
    /// as the files compiled at start-up) for this device and loads `names`, in that order: for
    /// solvers that compile their kernels on first use (near-far, the many-source batch).
    ///
    /// Errors: NVRTC's log, or the entry point missing, as a [`SolveError::Device`].
    pub fn compile_file(&self, file: &str, src: &str, names: &[&str]) -> Result<Vec<CudaFunction>, SolveError> {
        let (major, minor) = self.compute_capability;
        let arch: &'static str = Box::leak(format!("compute_{major}{minor}").into_boxed_str());
        Ok(load_plain(&self.ctx, arch, file, src, names)?.into_iter().map(|(_, f)| f).collect())
    }

    /// The kernel `name` (e.g. `relax_succ_u32`).
    pub fn func(&self, name: &str) -> Result<CudaFunction, SolveError> {
        if let (Some(e), true) = (&self.delta_stepping_error, name.starts_with("ds_")) {
            return Err(SolveError::Device(e.clone()));
        }
        if let (Some(e), true) = (&self.seed004_error, SEED004_FUNCS.contains(&name)) {
            return Err(SolveError::Device(e.clone()));
        }
        self.funcs
            .get(name)
            .cloned()
            .ok_or_else(|| SolveError::Device(format!("CUDA kernel `{name}` is missing from the compiled module")))
    }
}

/// The device `index`, created and compiled on first use, then shared by every stepper.
pub(super) fn gpu(index: u32) -> Result<Arc<Gpu>, SolveError> {
    static GPUS: Mutex<Vec<Arc<Gpu>>> = Mutex::new(Vec::new());
    let mut gpus = GPUS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(g) = gpus.iter().find(|g| g.ordinal == index) {
        return Ok(Arc::clone(g));
    }
    let g = Arc::new(guarded(|| open(index))??);
    gpus.push(Arc::clone(&g));
    Ok(g)
}

fn open(index: u32) -> Result<Gpu, SolveError> {
    let ctx = CudaContext::new(index as usize).map_err(dev_err(&format!("cannot open CUDA device {index}")))?;
    // Each stepper works on one stream of its own and synchronises explicitly, so cudarc's
    // per-buffer event tracking (two events per buffer and per launch) is pure overhead.
    // SAFETY: called before any buffer of this context exists; see the docs of the call.
    unsafe { ctx.disable_event_tracking() };
    let name = ctx.name().map_err(dev_err("cannot read the CUDA device name"))?;
    let attr = |a| ctx.attribute(a).map_err(dev_err("cannot read a CUDA device attribute"));
    let multiprocessors = attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)? as u32;
    let cooperative = attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH)? != 0;
    let mem_khz = attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE)? as f64;
    let bus_bits = attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH)? as f64;
    let peak_bytes_per_s = 2.0 * mem_khz * 1e3 * bus_bits / 8.0;
    let compute_capability = ctx.compute_capability().map_err(dev_err("cannot read the compute capability"))?;
    // PTX for the device's own virtual architecture; the driver JIT-compiles it once per load.
    let arch: &'static str =
        Box::leak(format!("compute_{}{}", compute_capability.0, compute_capability.1).into_boxed_str());
    let t0 = Instant::now();
    let mut funcs = HashMap::new();
    for (file, src, names) in FILES {
        let source = format!("{}{COMMON_SRC}\n{src}", crate::device::layout::cuda_prelude());
        let opts = CompileOptions {
            arch: Some(arch),
            name: Some(file.to_string()),
            options: vec!["--std=c++17".into()],
            ..Default::default()
        };
        let ptx = compile_ptx_with_opts(source, opts).map_err(|e| compile_error(file, e))?;
        let module = ctx.load_module(ptx).map_err(dev_err(&format!("cannot load the module of kernels/{file}")))?;
        let mut load = |fname: String| -> Result<(), SolveError> {
            let f = module.load_function(&fname).map_err(dev_err(&format!("kernel {fname} not in kernels/{file}")))?;
            funcs.insert(fname, f);
            Ok(())
        };
        for base in names {
            for width in ["u32", "u64"] {
                load(format!("{base}_{width}"))?;
            }
        }
        for (f, plain) in PLAIN {
            if f == file {
                load(plain.to_string())?;
            }
        }
    }
    let delta_stepping_error = load_plain(&ctx, arch, "delta_stepping.cu", DELTA_STEPPING_SRC, &DELTA_STEPPING_FUNCS)
        .map(|loaded| funcs.extend(loaded))
        .err()
        .map(|e| e.to_string());
    let seed004_error = load_plain(&ctx, arch, "seed004.cu", SEED004_SRC, &SEED004_FUNCS)
        .map(|loaded| funcs.extend(loaded))
        .err()
        .map(|e| e.to_string());
    Ok(Gpu {
        delta_stepping_error,
        seed004_error,
        ordinal: index,
        ctx,
        name,
        multiprocessors,
        cooperative,
        compute_capability,
        compile_ms: t0.elapsed().as_secs_f64() * 1e3,
        peak_bytes_per_s,
        funcs,
    })
}

/// Compiles one kernel file (with common.cuh) and loads the entry points `names`.
fn load_plain(
    ctx: &Arc<CudaContext>,
    arch: &'static str,
    file: &str,
    src: &str,
    names: &[&str],
) -> Result<Vec<(String, CudaFunction)>, SolveError> {
    let opts = CompileOptions {
        arch: Some(arch),
        name: Some(file.to_string()),
        // line tables only (no code change): compute-sanitizer and profilers then name source lines
        options: vec!["--std=c++17".into(), "--generate-line-info".into()],
        ..Default::default()
    };
    let full = format!("{}{COMMON_SRC}\n{src}", crate::device::layout::cuda_prelude());
    if let Some(dir) = std::env::var_os("SSSP_CUDA_DUMP_DIR") {
        // The source as compiled, for mapping a sanitizer's line numbers back (best effort).
        let _ = std::fs::write(std::path::Path::new(&dir).join(file), &full);
    }
    let ptx = compile_ptx_with_opts(full, opts).map_err(|e| compile_error(file, e))?;
    let module = ctx.load_module(ptx).map_err(dev_err(&format!("cannot load the module of kernels/{file}")))?;
    names
        .iter()
        .map(|&name| {
            let f = module.load_function(name).map_err(dev_err(&format!("kernel {name} not in kernels/{file}")))?;
            Ok((name.to_string(), f))
        })
        .collect()
}

fn compile_error(file: &str, e: CompileError) -> SolveError {
    match e {
        CompileError::CompileError { log, .. } => {
            SolveError::Device(format!("NVRTC could not compile kernels/{file}:\n{}", log.to_string_lossy()))
        }
        other => SolveError::Device(format!("NVRTC failed on kernels/{file}: {other:?}")),
    }
}
