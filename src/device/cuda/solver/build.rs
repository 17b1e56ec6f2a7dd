//! Building a CUDA frontier stepper in named stages: the checks (vertex ids, free memory), the
//! graph's upload, the state's allocation, the kernels of the run's mode and the fast path's
//! buffers, and the device string.

use super::super::dev_err;
use super::{
    C_COUNT, CTL_WORDS, CudaFrontier, Dist, FastBufs, FastKernels, GraphBufs, Kernels, StateBufs, dense_weights,
    device_bytes,
};
use crate::algo::{CachePreference, RelaxVariant, SolveError, SolveOptions, Threshold};
use crate::device::cuda::kernels::Gpu;
use crate::device::driver::frontier::{Frontier, FrontierBackend};
use crate::device::gpu::{Build, FrontierRun};
use crate::graph::Graph;
use cudarc::driver::{CudaFunction, CudaStream};
use std::sync::Arc;

impl<D: Dist> CudaFrontier<D> {
    /// The frontier stepper on this device: checks, uploads, allocates and loads everything
    /// the run needs, then initialises the state from the source. Errors: [`SolveError::Device`].
    pub(super) fn stepper(gpu: Arc<Gpu>, run: FrontierRun, b: &Build<'_>) -> Result<Frontier<Self>, SolveError> {
        check_fits(&gpu, b)?;
        let (graph, opts) = (&b.graph, b.opts);
        let n = graph.n();
        let stream = gpu.ctx.new_stream().map_err(dev_err("cannot create a CUDA stream"))?;
        let g = upload_graph(&stream, graph, run)?;
        let counting = opts.instrument && !run.seed004_variant();
        let st = alloc_state::<D>(&stream, graph, counting)?;
        let (k, fast) = load_kernels::<D>(&gpu, &stream, run, n, counting)?;
        let device = device_string(&gpu, opts, D::SUFFIX == "u32");
        let mut backend = CudaFrontier {
            stream,
            graph: Arc::clone(graph),
            opts: opts.clone(),
            run,
            n: n as u32,
            k,
            g,
            st,
            fast,
            lists_for: None,
            persistent: None,
            hybrid_host: (Vec::new(), Vec::new()),
            gpu,
        };
        backend.reset(b.source)?;
        Ok(Frontier::new(backend, run, b.ident(device)))
    }
}

/// Refuses a graph the kernels cannot index (u32 vertex ids) or the device cannot hold (with a
/// 64 MiB margin), binding the context to this thread first.
fn check_fits(gpu: &Gpu, b: &Build<'_>) -> Result<(), SolveError> {
    let (graph, algo) = (&b.graph, b.algo);
    let n = graph.n();
    if n >= u32::MAX as usize - 1 {
        return Err(SolveError::Device(format!("{n} vertices: the CUDA kernels index vertices with u32")));
    }
    gpu.ctx.bind_to_thread().map_err(dev_err("cannot bind the CUDA context"))?;
    let need = device_bytes(graph, algo, b.opts);
    let (free, total) = gpu.ctx.mem_get_info().map_err(dev_err("cannot read free device memory"))?;
    let margin = 64u64 << 20;
    if need + margin > free as u64 {
        return Err(SolveError::Device(format!(
            "graph `{}` ({} vertices, {} arcs) needs {:.1} MiB of device memory for `{algo}` on {}, \
             but only {:.1} MiB of {:.1} MiB are free",
            graph.name,
            n,
            graph.m(),
            need as f64 / 1048576.0,
            gpu.name,
            free as f64 / 1048576.0,
            total as f64 / 1048576.0
        )));
    }
    Ok(())
}

/// Uploads the successor lists (one word each under `layout=matrix`), the predecessor lists of
/// the predecessors variant and the n × n matrix of `layout=matrix`.
fn upload_graph(stream: &Arc<CudaStream>, graph: &Graph, run: FrontierRun) -> Result<GraphBufs, SolveError> {
    let up =
        |v: &[u32], what: &str| stream.clone_htod(v).map_err(dev_err(&format!("cannot upload the {what} to the GPU")));
    let succ = graph.successors();
    // `layout=matrix` keeps one word of each list (the kernels do not read them).
    fn lists(matrix: bool, v: &[u32]) -> &[u32] {
        if matrix { &[0] } else { v }
    }
    let off = up(lists(run.matrix, &succ.offsets), "successor offsets")?;
    let tgt = up(lists(run.matrix, &succ.targets), "successor targets")?;
    // Same bits: the frontier kernels only see graphs without negative weights.
    let wgt = up(lists(run.matrix, bytemuck::cast_slice(&succ.weights)), "successor weights")?;
    let matrix = if run.matrix { Some(up(&dense_weights(graph, run.variant), "adjacency matrix")?) } else { None };
    let pred = if run.variant == RelaxVariant::Predecessors && !run.matrix {
        let p = graph.predecessors();
        Some([
            up(&p.offsets, "predecessor offsets")?,
            up(&p.targets, "predecessor sources")?,
            up(bytemuck::cast_slice(&p.weights), "predecessor weights")?,
        ])
    } else {
        None
    };
    Ok(GraphBufs { off, tgt, wgt, pred, matrix })
}

/// ω, δ (and its snapshot when the kernels count), the stamps, the minimum's partials, Δ and
/// the counters.
fn alloc_state<D: Dist>(stream: &Arc<CudaStream>, graph: &Graph, counting: bool) -> Result<StateBufs<D>, SolveError> {
    let n = graph.n();
    let omega_h: Vec<D> = graph.omega().iter().map(|&w| D::from_host(w)).collect();
    let omega = stream.clone_htod(&omega_h).map_err(dev_err("cannot upload ω"))?;
    let alloc = |len: usize| stream.alloc_zeros::<u64>(len).map_err(dev_err("cannot allocate device memory"));
    let alloc_d = |len: usize| stream.alloc_zeros::<D>(len).map_err(dev_err("cannot allocate device memory"));
    let parts = n.div_ceil(64) + 1;
    Ok(StateBufs {
        omega,
        dist: alloc_d(n)?,
        prev: if counting { Some(alloc_d(n)?) } else { None },
        stamp: stream.alloc_zeros::<u32>(n).map_err(dev_err("cannot allocate device memory"))?,
        part_m: alloc(parts)?,
        part_c: alloc(parts)?,
        out: alloc(3)?,
        ctr: alloc(C_COUNT)?,
    })
}

/// The relax kernel of the run's mode: matrix, cached predecessors (`pred_plus`), racy,
/// block-balanced successors, successors or predecessors, counting (`_instr`) when asked.
fn relax_kernel<D: Dist>(gpu: &Gpu, run: FrontierRun, counting: bool) -> Result<CudaFunction, SolveError> {
    let f = |name: &str| gpu.func(&format!("{name}_{}", D::SUFFIX));
    let instr = if counting { "_instr" } else { "" };
    match (run.racy, run.variant) {
        _ if run.matrix => match (run.variant, run.racy) {
            (RelaxVariant::Predecessors, _) => f("relax_pred_mat"),
            (RelaxVariant::Successors, false) => f("relax_succ_mat"),
            (RelaxVariant::Successors, true) => f("relax_succ_mat_racy"),
        },
        _ if run.cached => f("relax_pred_plus"),
        (true, _) => f(&format!("relax_racy{instr}")),
        (_, RelaxVariant::Successors) if run.balanced => f(&format!("relax_succ_bal{instr}")),
        (_, RelaxVariant::Successors) => f(&format!("relax_succ{instr}")),
        (_, RelaxVariant::Predecessors) => f(&format!("relax_pred{instr}")),
    }
}

/// The per-phase kernels and, unless the run is racy or one of seed 004's variants, the
/// persistent fast path's kernels and buffers.
fn load_kernels<D: Dist>(
    gpu: &Gpu,
    stream: &Arc<CudaStream>,
    run: FrontierRun,
    n: usize,
    counting: bool,
) -> Result<(Kernels, Option<FastBufs>), SolveError> {
    let f = |name: &str| gpu.func(&format!("{name}_{}", D::SUFFIX));
    let instr = if counting { "_instr" } else { "" };
    let (fast, bufs) = if run.racy || run.seed004_variant() {
        (None, None)
    } else {
        let pv = if run.variant == RelaxVariant::Predecessors { "pred" } else { "succ" };
        let th = if run.threshold == Threshold::Crauser { "crauser" } else { "martin" };
        let k = FastKernels {
            reset: gpu.func("fast_reset")?,
            setup: f(&format!("fast_setup_{pv}"))?,
            run: f(&format!("fast_{pv}_{th}"))?,
        };
        (Some(k), Some(fast_bufs::<D>(gpu, stream, run, n)?))
    };
    let k = Kernels {
        init: f("sssp_init")?,
        relax: relax_kernel::<D>(gpu, run, counting)?,
        min1: f(&format!("min1{instr}"))?,
        min2: gpu.func("sssp_min2")?,
        update: f(&format!("update{instr}"))?,
        update_counting: f("update_instr")?,
        fast,
    };
    Ok((k, bufs))
}

/// The fast path's control block, marks, packed (δ, ω) words (successors with 32-bit δ),
/// frontier lists and per-iteration records.
fn fast_bufs<D: Dist>(gpu: &Gpu, stream: &Arc<CudaStream>, run: FrontierRun, n: usize) -> Result<FastBufs, SolveError> {
    let alloc = |len: usize| stream.alloc_zeros::<u64>(len).map_err(dev_err("cannot allocate device memory"));
    let alloc32 = |len: usize| stream.alloc_zeros::<u32>(len).map_err(dev_err("cannot allocate device memory"));
    let packed = D::SUFFIX == "u32" && run.variant == RelaxVariant::Successors;
    let cap = n as u32 + 1;
    Ok(FastBufs {
        ctl: alloc32(CTL_WORDS)?,
        mark: alloc32(n)?,
        packed: alloc(if packed { n } else { 1 })?,
        unpack: if packed { Some(gpu.func("fast_unpack_u32")?) } else { None },
        lists: [alloc32(n)?, alloc32(n)?, alloc32(n)?, alloc32(n)?],
        rec_m: alloc(cap as usize)?,
        rec_c: alloc(cap as usize)?,
        rec_f: alloc32(cap as usize)?,
        rec_r: alloc32(cap as usize)?,
        cap,
    })
}

/// `CUDA: NVIDIA H100 (cuda:0; blocks relax/min/update …; cache …; 32-bit δ)`.
fn device_string(gpu: &Gpu, opts: &SolveOptions, narrow: bool) -> String {
    let cache = match opts.cache {
        CachePreference::Default => "default",
        CachePreference::PreferL1 => "prefer L1",
        CachePreference::PreferShared => "prefer shared",
    };
    format!(
        "CUDA: {} (cuda:{}; blocks relax/min/update {}/{}/{}; cache {cache}; {}-bit δ)",
        gpu.name,
        gpu.ordinal,
        opts.block.relax,
        opts.block.minimum,
        opts.block.update,
        if narrow { 32 } else { 64 }
    )
}
