//! What every CUDA solver does with its stream, written once: launch shapes, events, word copies
//! back to the host, the cache preference, and the size and free-memory checks before an upload.

use super::dev_err;
use super::kernels::Gpu;
use crate::algo::{CachePreference, SolveError};
use crate::graph::Graph;
use cudarc::driver::sys::{CUevent_flags, CUfunc_cache_enum, CUfunction_attribute_enum};
use cudarc::driver::{CudaEvent, CudaFunction, CudaSlice, CudaStream, DeviceRepr, LaunchConfig};
use std::sync::Arc;

/// A 1-D launch of `grid` blocks (at least one) of `block` threads.
pub(super) fn cfg(grid: u32, block: u32) -> LaunchConfig {
    LaunchConfig { grid_dim: (grid.max(1), 1, 1), block_dim: (block, 1, 1), shared_mem_bytes: 0 }
}

/// Records an event on `stream` (for kernel times: `a.elapsed_ms(&b)`).
pub(super) fn event(stream: &CudaStream) -> Result<CudaEvent, SolveError> {
    stream.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT)).map_err(dev_err("cannot record a CUDA event"))
}

/// Milliseconds between two recorded events (both must have completed).
pub(super) fn elapsed_ms(a: &CudaEvent, b: &CudaEvent) -> Result<f64, SolveError> {
    Ok(f64::from(a.elapsed_ms(b).map_err(dev_err("cannot read CUDA event times"))?))
}

/// Copies `src` back to the host and waits for it.
pub(super) fn copy_back<T: DeviceRepr + Clone + Default>(
    stream: &Arc<CudaStream>,
    src: &CudaSlice<T>,
    what: &str,
) -> Result<Vec<T>, SolveError> {
    let mut out = vec![T::default(); src.len()];
    stream.memcpy_dtoh(src, &mut out[..]).map_err(dev_err(what))?;
    stream.synchronize().map_err(dev_err(what))?;
    Ok(out)
}

/// Applies the cache preference (shared-memory carveout and cache configuration) to `funcs`.
pub(super) fn apply_cache(funcs: &[&CudaFunction], cache: CachePreference) -> Result<(), SolveError> {
    let (carveout, config) = match cache {
        CachePreference::Default => (-1, CUfunc_cache_enum::CU_FUNC_CACHE_PREFER_NONE),
        CachePreference::PreferL1 => (0, CUfunc_cache_enum::CU_FUNC_CACHE_PREFER_L1),
        CachePreference::PreferShared => (100, CUfunc_cache_enum::CU_FUNC_CACHE_PREFER_SHARED),
    };
    for f in funcs {
        f.set_attribute(CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, carveout)
            .map_err(dev_err("cannot set the shared-memory carveout"))?;
        f.set_function_cache_config(config).map_err(dev_err("cannot set the cache configuration"))?;
    }
    Ok(())
}

/// Refuses graphs the u32-indexed kernels cannot address, and `need` bytes (plus 64 MiB of
/// headroom) beyond the free memory of `gpu` (`what`: the algorithm, for the message). Binds
/// the context to this thread.
pub(super) fn check_memory(gpu: &Gpu, graph: &Graph, need: u64, what: &str) -> Result<(), SolveError> {
    let (n, m) = (graph.n(), graph.m());
    if n >= u32::MAX as usize - 1 || m >= u32::MAX as usize {
        return Err(SolveError::Device(format!("{n} vertices, {m} arcs: the CUDA kernels index both with u32")));
    }
    gpu.ctx.bind_to_thread().map_err(dev_err("cannot bind the CUDA context"))?;
    let (free, _) = gpu.ctx.mem_get_info().map_err(dev_err("cannot read free device memory"))?;
    if need + (64 << 20) > free as u64 {
        return Err(SolveError::Device(format!(
            "graph `{}` needs {:.1} MiB of device memory for {what}; {:.1} MiB are free on {}",
            graph.name,
            need as f64 / 1048576.0,
            free as f64 / 1048576.0,
            gpu.name
        )));
    }
    Ok(())
}
