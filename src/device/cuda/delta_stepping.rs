//! The CUDA backend of Δ-stepping ([meyer-sanders]; kernels in `kernels/delta_stepping.cu`; the
//! driver is [`crate::device::driver::Bucketed`]; design in `docs/gpu-delta-stepping.md`).
//!
//! The CSR successors are uploaded once; δ, δ_prev, fr, rr and pend are n words each. A phase
//! is six launches on the backend's stream (relax and commit: one thread per vertex; advance,
//! min over the far set, open, advance2) and writes one log entry; a batch's launches are
//! timed with events.

use super::kernels::Gpu;
use super::stream::{apply_cache, cfg, check_memory, copy_back, elapsed_ms, event};
use super::{dev_err, guarded};
use crate::algo::{SolveError, SolveOptions, Stepper};
use crate::device::driver::{Backend, Batch, Bucketed, Words};
use crate::device::gpu::Build;
use crate::device::gpu_delta::{self as book, BATCH_MAX, C_SLOT, CTL_WORDS, DeltaRun, LOG_WORDS};
use crate::graph::Graph;
use cudarc::driver::{CudaFunction, CudaSlice, CudaStream, PushKernelArg};
use std::sync::Arc;

/// Device bytes of a Δ-stepping stepper: CSR successors (8 B per arc + offsets), five n-word
/// arrays, the log and the control words.
pub fn device_bytes(graph: &Graph) -> u64 {
    let (n, m) = (graph.n() as u64, graph.m() as u64);
    8 * m + 4 * (n + 1) + 20 * n + 4 * (LOG_WORDS as u64 * u64::from(BATCH_MAX) + CTL_WORDS as u64)
}

/// Buffers and kernels of one Δ-stepping run on a CUDA device.
struct DeltaSteppingCuda {
    /// Keeps the device (and its compiled module) alive as long as the stepper.
    _gpu: Arc<Gpu>,
    stream: Arc<CudaStream>,
    opts: SolveOptions,
    run: DeltaRun,
    n: u32,
    /// relax, commit, advance, min_far, open, advance2.
    funcs: [CudaFunction; 6],
    off: CudaSlice<u32>,
    tgt: CudaSlice<u32>,
    wgt: CudaSlice<u32>,
    prev: CudaSlice<u32>,
    dist: CudaSlice<u32>,
    fr: CudaSlice<u32>,
    rr: CudaSlice<u32>,
    pend: CudaSlice<u32>,
    log: CudaSlice<u32>,
    ctl: CudaSlice<u32>,
}

/// Uploads the successors and the initial state and returns the driver. Errors:
/// [`SolveError::Device`] (memory, NVRTC, driver).
pub(super) fn new_stepper(gpu: Arc<Gpu>, run: DeltaRun, b: &Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let (graph, source, opts) = (&b.graph, b.source, b.opts);
    let funcs = [
        gpu.func(if run.balanced { "ds_relax_balanced" } else { "ds_relax" })?,
        gpu.func("ds_commit")?,
        gpu.func("ds_advance")?,
        gpu.func("ds_min_far")?,
        gpu.func("ds_open")?,
        gpu.func("ds_advance2")?,
    ];
    check_memory(&gpu, graph, device_bytes(graph), "delta-stepping")?;
    let stream = gpu.ctx.new_stream().map_err(dev_err("cannot create a CUDA stream"))?;
    let state = book::initial_state(graph, source, run);
    let succ = graph.successors();
    let weights: Vec<u32> = succ.weights.iter().map(|&w| w.max(0) as u32).collect();
    let up = |v: &[u32], what: &str| stream.clone_htod(v).map_err(dev_err(&format!("cannot upload the {what}")));
    let off = up(&succ.offsets, "successor offsets")?;
    let tgt = up(&succ.targets, "arc heads")?;
    let wgt = up(&weights, "arc weights")?;
    drop(weights);
    let prev = up(&state.dist, "initial δ")?;
    let dist = up(&state.dist, "initial δ")?;
    let fr = up(&state.fr, "frontier marks")?;
    let rr = up(&state.rr, "R marks")?;
    let pend = up(&state.pend, "far-set marks")?;
    let ctl = up(&state.ctl, "control words")?;
    let log = stream.alloc_zeros::<u32>(LOG_WORDS * BATCH_MAX as usize).map_err(dev_err("cannot allocate the log"))?;
    stream.synchronize().map_err(dev_err("uploading the graph failed"))?;
    let device = format!(
        "CUDA: {} (cuda:{}; blocks relax/commit {}/{}; u32 δ; Δ = {}; {} relax)",
        gpu.name,
        gpu.ordinal,
        opts.block.relax,
        opts.block.update,
        run.delta,
        if run.balanced { "balanced" } else { "vertex" }
    );
    let backend = DeltaSteppingCuda {
        n: graph.n() as u32,
        funcs,
        off,
        tgt,
        wgt,
        prev,
        dist,
        fr,
        rr,
        pend,
        log,
        ctl,
        stream,
        opts: opts.clone(),
        run,
        _gpu: gpu,
    };
    Ok(Box::new(Bucketed::new(backend, run, b.ident(device))))
}

impl DeltaSteppingCuda {
    /// Queues the six launches of one phase.
    fn launch_phase(&self) -> Result<(), SolveError> {
        let (n, delta) = (self.n, self.run.delta);
        let (rb, cb) = (self.opts.block.relax, self.opts.block.update);
        let (gr, gc) = (cfg(n.div_ceil(rb), rb), cfg(n.div_ceil(cb), cb));
        let [relax, commit, advance, min_far, open, advance2] = &self.funcs;
        let s = &self.stream;
        let mut l = s.launch_builder(relax);
        l.arg(&n).arg(&delta).arg(&self.off).arg(&self.tgt).arg(&self.wgt).arg(&self.prev).arg(&self.dist);
        l.arg(&self.fr).arg(&self.rr).arg(&self.log).arg(&self.ctl);
        // SAFETY: matches ds_relax and ds_relax_balanced(n, delta, off, tgt, wgt, prev, dist, fr,
        // rr, log, ctl); one thread per vertex, threads past n only vote; blocks are whole warps
        // of at most 1024 threads (checked).
        unsafe { l.launch(gr) }.map_err(dev_err("relax kernel launch failed"))?;
        let mut l = s.launch_builder(commit);
        l.arg(&n).arg(&delta).arg(&self.off).arg(&self.wgt).arg(&self.prev).arg(&self.dist);
        l.arg(&self.fr).arg(&self.rr).arg(&self.pend).arg(&self.log).arg(&self.ctl);
        // SAFETY: matches ds_commit(n, delta, off, wgt, prev, dist, fr, rr, pend, log, ctl).
        unsafe { l.launch(gc) }.map_err(dev_err("commit kernel launch failed"))?;
        let mut l = s.launch_builder(advance);
        l.arg(&self.log).arg(&self.ctl);
        // SAFETY: matches ds_advance(log, ctl); one thread.
        unsafe { l.launch(cfg(1, 1)) }.map_err(dev_err("advance kernel launch failed"))?;
        let mut l = s.launch_builder(min_far);
        l.arg(&n).arg(&delta).arg(&self.prev).arg(&self.pend).arg(&self.ctl);
        // SAFETY: matches ds_min_far(n, delta, prev, pend, ctl).
        unsafe { l.launch(gc) }.map_err(dev_err("far-set minimum kernel launch failed"))?;
        let mut l = s.launch_builder(open);
        l.arg(&n).arg(&delta).arg(&self.off).arg(&self.wgt).arg(&self.prev);
        l.arg(&self.fr).arg(&self.rr).arg(&self.pend).arg(&self.ctl);
        // SAFETY: matches ds_open(n, delta, off, wgt, prev, fr, rr, pend, ctl).
        unsafe { l.launch(gc) }.map_err(dev_err("open kernel launch failed"))?;
        let mut l = s.launch_builder(advance2);
        l.arg(&self.log).arg(&self.ctl);
        // SAFETY: matches ds_advance2(log, ctl); one thread.
        unsafe { l.launch(cfg(1, 1)) }.map_err(dev_err("advance kernel launch failed"))?;
        Ok(())
    }

    /// Runs up to `count` phases and returns their log entries (synchronises).
    fn batch(&mut self, count: u32, timed: bool) -> Result<Batch, SolveError> {
        let count = count.clamp(1, BATCH_MAX);
        let words = LOG_WORDS * count as usize;
        self.stream.memset_zeros(&mut self.log.slice_mut(..words)).map_err(dev_err("cannot clear the phase log"))?;
        let mut slot = self.ctl.slice_mut(C_SLOT..C_SLOT + 1);
        self.stream.memcpy_htod(&[0u32], &mut slot).map_err(dev_err("cannot reset the log slot"))?;
        let e0 = if timed { Some(event(&self.stream)?) } else { None };
        for _ in 0..count {
            self.launch_phase()?;
        }
        let e1 = if timed { Some(event(&self.stream)?) } else { None };
        let mut out = vec![0u32; words];
        self.stream
            .memcpy_dtoh(&self.log.slice(..words), &mut out[..])
            .map_err(dev_err("cannot read the phase log"))?;
        self.stream.synchronize().map_err(dev_err("a Δ-stepping phase on the GPU failed"))?;
        let gpu_ms = match (e0, e1) {
            (Some(a), Some(z)) => Some(elapsed_ms(&a, &z)?),
            _ => None,
        };
        Ok(Batch { words: out, gpu_ms })
    }
}

impl Backend for DeltaSteppingCuda {
    fn run_batch(&mut self, _first: u32, count: u32, _head: &[u32], timed: bool) -> Result<Batch, SolveError> {
        guarded(|| self.batch(count, timed))?
    }

    fn read_words(&mut self, which: Words) -> Result<Vec<u32>, SolveError> {
        guarded(|| match which {
            Words::Rr => copy_back(&self.stream, &self.rr, "cannot copy R from the GPU"),
            _ => copy_back(&self.stream, &self.dist, "cannot copy δ from the GPU"),
        })?
    }

    fn prepare(&mut self) -> Result<(), SolveError> {
        let funcs: Vec<&CudaFunction> = self.funcs.iter().collect();
        guarded(|| apply_cache(&funcs, self.opts.cache))?
    }
}
