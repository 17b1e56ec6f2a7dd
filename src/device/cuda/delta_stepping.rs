//! Δ-stepping on CUDA ([meyer-sanders]; kernels in `kernels/delta_stepping.cu`, the twin of the
//! wgpu stepper; design in `docs/gpu-delta-stepping.md`; what both share in
//! [`crate::device::gpu_delta`]).
//!
//! The CSR successors are uploaded once; δ, δ_prev, fr, rr and pend are n words each. A phase
//! is six launches on the stepper's stream (relax and commit: one thread per vertex; advance,
//! min over the far set, open, advance2) and writes one log entry, so
//! - `step` runs one phase (timed with events), reads its entry and, with `record_deltas`, δ
//!   and R's marks for the view: the CPU stepper's records, with the warp figures of the
//!   device's own ballots;
//! - `run_to_end` queues batches of phases (1, 2, 4 … [`BATCH_MAX`]) and reads back only their
//!   log entries; phases queued past the end return at once on the device.

use super::kernels::Gpu;
use super::solver::cfg;
use super::{dev_err, guarded};
use crate::algo::{Algorithm, PhaseTimes, RunRecord, SolveError, SolveOptions, Step, Stepper};
use crate::device::gpu;
use crate::device::gpu_delta::{self as book, BATCH_MAX, C_SLOT, DeltaRun, L_SERIAL, LOG_WORDS, LogEntry};
use crate::graph::{Distance, Graph, INF, VertexId};
use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaEvent, CudaFunction, CudaSlice, CudaStream, PushKernelArg};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Device bytes of a Δ-stepping stepper: CSR successors (8 B per arc + offsets), five n-word
/// arrays, the log and the control words.
pub fn device_bytes(graph: &Graph) -> u64 {
    let (n, m) = (graph.n() as u64, graph.m() as u64);
    8 * m + 4 * (n + 1) + 20 * n + 4 * (LOG_WORDS as u64 * u64::from(BATCH_MAX) + 16)
}

/// The CUDA Δ-stepping stepper.
pub(super) struct DeltaSteppingCuda {
    /// Keeps the device (and its compiled module) alive as long as the stepper.
    _gpu: Arc<Gpu>,
    stream: Arc<CudaStream>,
    graph: Arc<Graph>,
    algo: Algorithm,
    opts: SolveOptions,
    run: DeltaRun,
    source: VertexId,
    device: String,
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
    /// δ as the host last saw it (for the steps' deltas).
    prev_host: Vec<Distance>,
    iteration: u32,
    done: bool,
    reached: u64,
}

/// Builds the stepper: uploads the successors and the initial state. Errors:
/// [`SolveError::Device`] (memory, NVRTC, driver).
pub(super) fn new_stepper(
    gpu: Arc<Gpu>,
    graph: Arc<Graph>,
    algo: Algorithm,
    run: DeltaRun,
    source: VertexId,
    opts: &SolveOptions,
) -> Result<Box<dyn Stepper>, SolveError> {
    let (n, m) = (graph.n(), graph.m());
    if n >= u32::MAX as usize - 1 || m >= u32::MAX as usize {
        return Err(SolveError::Device(format!("{n} vertices, {m} arcs: the CUDA kernels index both with u32")));
    }
    let funcs = [
        gpu.func(if run.balanced { "ds_relax_balanced" } else { "ds_relax" })?,
        gpu.func("ds_commit")?,
        gpu.func("ds_advance")?,
        gpu.func("ds_min_far")?,
        gpu.func("ds_open")?,
        gpu.func("ds_advance2")?,
    ];
    gpu.ctx.bind_to_thread().map_err(dev_err("cannot bind the CUDA context"))?;
    let need = device_bytes(&graph);
    let (free, _) = gpu.ctx.mem_get_info().map_err(dev_err("cannot read free device memory"))?;
    if need + (64 << 20) > free as u64 {
        return Err(SolveError::Device(format!(
            "graph `{}` needs {:.1} MiB of device memory for delta-stepping; {:.1} MiB are free on {}",
            graph.name,
            need as f64 / 1048576.0,
            free as f64 / 1048576.0,
            gpu.name
        )));
    }
    let stream = gpu.ctx.new_stream().map_err(dev_err("cannot create a CUDA stream"))?;
    let state = book::initial_state(&graph, source, run);
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
    Ok(Box::new(DeltaSteppingCuda {
        prev_host: state.dist.iter().map(|&d| book::widen(d)).collect(),
        iteration: 0,
        done: false,
        reached: 1,
        n: n as u32,
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
        algo,
        opts: opts.clone(),
        run,
        source,
        device,
        graph,
        _gpu: gpu,
    }))
}

impl DeltaSteppingCuda {
    fn event(&self) -> Result<CudaEvent, SolveError> {
        self.stream.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT)).map_err(dev_err("cannot record a CUDA event"))
    }

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

    /// Runs up to `count` phases and returns the log entries of those that ran (synchronises).
    fn run_phases(&mut self, count: u32) -> Result<Vec<LogEntry>, SolveError> {
        let words = LOG_WORDS * count as usize;
        self.stream.memset_zeros(&mut self.log.slice_mut(..words)).map_err(dev_err("cannot clear the phase log"))?;
        let mut slot = self.ctl.slice_mut(C_SLOT..C_SLOT + 1);
        self.stream.memcpy_htod(&[0u32], &mut slot).map_err(dev_err("cannot reset the log slot"))?;
        for _ in 0..count {
            self.launch_phase()?;
        }
        let mut out = vec![0u32; words];
        self.stream
            .memcpy_dtoh(&self.log.slice(..words), &mut out[..])
            .map_err(dev_err("cannot read the phase log"))?;
        self.stream.synchronize().map_err(dev_err("a Δ-stepping phase on the GPU failed"))?;
        Ok(out.chunks_exact(LOG_WORDS).map(|c| std::array::from_fn(|i| c[i])).filter(book::ran).collect())
    }

    fn copy(&self, src: &CudaSlice<u32>, what: &str) -> Result<Vec<u32>, SolveError> {
        let mut out = vec![0u32; self.n as usize];
        self.stream.memcpy_dtoh(src, &mut out[..]).map_err(dev_err(what))?;
        self.stream.synchronize().map_err(dev_err(what))?;
        Ok(out)
    }

    fn note(&mut self, e: &LogEntry) {
        self.iteration += 1;
        self.done = book::finished(e);
        self.reached = book::reached_total(e);
    }

    fn step_inner(&mut self) -> Result<Option<Step>, SolveError> {
        if self.done {
            return Ok(None);
        }
        let e0 = self.event()?;
        let entries = self.run_phases(1)?;
        let e1 = self.event()?;
        let Some(e) = entries.into_iter().next() else {
            return Err(SolveError::Device("a Δ-stepping phase did not run on the GPU".into()));
        };
        self.stream.synchronize().map_err(dev_err("a Δ-stepping phase on the GPU failed"))?;
        let relax_ms = e0.elapsed_ms(&e1).map_err(dev_err("cannot read CUDA event times"))? as f64;
        self.note(&e);
        let t = Instant::now();
        let delta = if self.opts.record_deltas {
            if self.prev_host.is_empty() {
                self.prev_host = vec![INF; self.n as usize];
            }
            let new = self.copy(&self.dist, "cannot copy δ from the GPU")?;
            let rr = if book::settles(&e) { Some(self.copy(&self.rr, "cannot copy R from the GPU")?) } else { None };
            Some(book::step_delta(&mut self.prev_host, &new, rr.as_deref(), e[L_SERIAL], self.source))
        } else {
            None
        };
        let times = PhaseTimes { relax_ms, copy_ms: t.elapsed().as_secs_f64() * 1e3, ..Default::default() };
        let record = book::record(&e, self.iteration, u64::from(self.n), self.opts.block.relax, self.run.delta, times);
        Ok(Some(Step { record, delta }))
    }

    fn run_fast(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let begin = Instant::now();
        let mut run = gpu::run_header(self.algo, &self.opts, &self.device, &self.graph, self.source);
        let mut batch = 1u32;
        while !self.done {
            if cancel.load(Ordering::Relaxed) {
                return Err(SolveError::Cancelled);
            }
            progress(self.reached);
            let entries = self.run_phases(batch)?;
            if entries.is_empty() {
                return Err(SolveError::Device("a Δ-stepping phase did not run on the GPU".into()));
            }
            for e in &entries {
                self.note(e);
                let (n, block) = (u64::from(self.n), self.opts.block.relax);
                run.records.push(book::record(e, self.iteration, n, block, self.run.delta, PhaseTimes::default()));
            }
            batch = (batch * 2).min(BATCH_MAX);
        }
        self.prev_host.clear();
        run.total_ms = begin.elapsed().as_secs_f64() * 1e3;
        run.iterations = self.iteration;
        run.reached = self.reached;
        Ok(run)
    }
}

impl Stepper for DeltaSteppingCuda {
    fn algorithm(&self) -> Algorithm {
        self.algo
    }

    fn label(&self) -> String {
        crate::algo::run_label(self.algo, &self.opts.params)
    }

    fn device(&self) -> String {
        self.device.clone()
    }

    fn source(&self) -> VertexId {
        self.source
    }

    fn is_done(&self) -> bool {
        self.done
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        guarded(|| self.step_inner())?
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        let words = guarded(|| self.copy(&self.dist, "cannot copy δ from the GPU"))??;
        Ok(words.into_iter().map(book::widen).collect())
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        if self.opts.instrument {
            let record_deltas = std::mem::replace(&mut self.opts.record_deltas, false);
            let graph = Arc::clone(&self.graph);
            let run = crate::algo::run_by_steps(self, &graph, cancel, progress);
            self.opts.record_deltas = record_deltas;
            let mut run = run?;
            run.iterations = self.iteration;
            run.reached = self.reached;
            return Ok(run);
        }
        guarded(|| self.run_fast(cancel, progress))?
    }
}
