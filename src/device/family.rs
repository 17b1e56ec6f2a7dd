//! A GPU family as one entry: what the device layer needs to know about an algorithm
//! [`Family`] — its request check, which distance range its kernels keep, the device bytes
//! CUDA reserves for it, and how CUDA and wgpu build it — in one [`GpuFamily`] table row.
//! [`crate::device::make_stepper`] runs the checks every device shares once and then asks
//! the family; the devices hold no per-family `if` chains.
//!
//! A new GPU family adds a [`GpuRun`] variant, its check, a row here ([`gpu_family`]) and its
//! builders on CUDA and wgpu (see `docs/architecture.md`, Checklists).

use super::gpu::{self};
pub use super::gpu::{Build, Builder, CUDA, GpuRun, Limits, WGPU};
use super::gpu_delta;
use crate::algo::{Algorithm, Family, SolveError, SolveOptions};
use crate::graph::Graph;

/// What the device layer knows of one GPU family.
pub struct GpuFamily {
    /// For messages, e.g. `edge-parallel`.
    pub name: &'static str,
    /// The run's shape from the algorithm's parameters and the block sizes; refuses what the
    /// family's kernels cannot do on a device with `Limits` (source, parameter values, weights
    /// and block-size ranges are checked before, once, by `make_stepper`).
    pub check: fn(&Graph, Algorithm, &SolveOptions, &Limits<'_>) -> Result<GpuRun, SolveError>,
    /// Whether the kernels' distance width holds `graph`'s shortest paths on a device with
    /// `Limits`; `Err` says why not.
    pub range: fn(&Graph, &Limits<'_>) -> Result<(), String>,
    /// Device bytes a CUDA stepper allocates (`sssp-lab`'s memory check and the lab's column).
    pub cuda_bytes: fn(&Graph, Algorithm, &SolveOptions) -> u64,
    pub cuda: Builder,
    pub wgpu: Builder,
}

static FRONTIER: GpuFamily = GpuFamily {
    name: "frontier",
    check: |g, a, o, l| gpu::check_request(g, a, o, l).map(GpuRun::Frontier),
    range: |g, l| if l.wide_distances { Ok(()) } else { gpu::u32_distance_range(g).map_err(|e| e.to_string()) },
    cuda_bytes: super::cuda::frontier_bytes,
    cuda: super::cuda::build_frontier,
    wgpu: super::wgpu::build_frontier,
};

static EDGE_PARALLEL: GpuFamily = GpuFamily {
    name: "edge-parallel",
    check: |g, a, o, l| gpu::check_bellman_ford(g, a, o, l).map(GpuRun::EdgeParallel),
    range: |g, l| gpu::bellman_ford_range(g, l.device).map(|_| ()),
    cuda_bytes: |g, _, _| super::cuda::bellman_ford_bytes(g),
    cuda: super::cuda::build_bellman_ford,
    wgpu: super::wgpu::build_bellman_ford,
};

static BUCKETED: GpuFamily = GpuFamily {
    name: "bucketed",
    check: |g, a, o, l| gpu_delta::check_delta_stepping(g, a, o, l).map(GpuRun::Bucketed),
    range: |g, _| gpu::u32_distance_range(g).map_err(|e| e.to_string()),
    cuda_bytes: |g, _, o| super::cuda::nearfar::bucketed_bytes(g, o),
    // worklist=marks: the vertex-mark kernels; worklist=near-far: the near-far kernels (CUDA: one
    // persistent launch; wgpu: rounds of indirect dispatches). Both builders pick.
    cuda: super::cuda::nearfar::build_bucketed,
    wgpu: super::wgpu::build_delta_stepping,
};

static SWEEP: GpuFamily = GpuFamily {
    name: "sweep",
    check: |g, a, o, l| gpu::check_sweep(g, a, o, l).map(GpuRun::Sweep),
    range: |g, _| gpu::u32_distance_range(g).map_err(|e| e.to_string()),
    cuda_bytes: |g, _, _| super::cuda::sweep_bytes(g),
    // PHAST ([phast] §4): the host's upward search, then one launch per big level and one
    // single-block launch per run of small levels (`driver::sweep`).
    cuda: super::cuda::build_sweep,
    wgpu: super::wgpu::build_sweep,
};

/// The GPU family of `algo`, or why the GPUs (`device`) do not run it.
pub fn gpu_family(device: &str, algo: Algorithm) -> Result<&'static GpuFamily, String> {
    match algo.spec().family {
        Family::Frontier { .. } => Ok(&FRONTIER),
        Family::EdgeParallel => Ok(&EDGE_PARALLEL),
        Family::Bucketed => Ok(&BUCKETED),
        Family::Sweep => Ok(&SWEEP),
        Family::Sequential => Err(format!(
            "{algo} does not run on {device}: the GPU kernels are the frontier solvers ({}), bellman-ford, \
delta-stepping and phast",
            Algorithm::all().iter().filter(|a| a.threshold().is_some()).map(|a| a.id()).collect::<Vec<_>>().join(", ")
        )),
    }
}

/// Checks a request for a GPU on a device with `limits` and returns the family and the run.
pub fn check(
    graph: &Graph,
    algo: Algorithm,
    opts: &SolveOptions,
    limits: &Limits<'_>,
) -> Result<(&'static GpuFamily, GpuRun), SolveError> {
    let family = gpu_family(limits.device, algo).map_err(SolveError::Device)?;
    let run = (family.check)(graph, algo, opts, limits)?;
    (family.range)(graph, limits).map_err(SolveError::Device)?;
    Ok((family, run))
}

/// Device bytes a CUDA stepper of `algo` allocates on `graph` (its family's estimate; 0 for
/// algorithms the GPUs do not run).
pub fn cuda_device_bytes(graph: &Graph, algo: Algorithm, opts: &SolveOptions) -> u64 {
    gpu_family("CUDA", algo).map_or(0, |f| (f.cuda_bytes)(graph, algo, opts))
}
