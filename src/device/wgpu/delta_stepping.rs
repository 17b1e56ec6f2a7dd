//! Δ-stepping on wgpu ([meyer-sanders]; kernels in `kernels/delta_stepping.wgsl`, the twin of
//! the CUDA stepper; design in `docs/gpu-delta-stepping.md`; what both share in
//! [`crate::device::gpu_delta`]).
//!
//! The CSR successors are uploaded as three storage buffers (each must fit one binding: larger
//! graphs are refused); δ is u32. A phase is six dispatches in one compute pass and writes one
//! log entry. `step` runs one phase and reads its entry (and, with `record_deltas`, δ and R's
//! marks for the view); `run_to_end` submits batches of phases (1, 2, 4 … [`BATCH_MAX`]) and
//! reads back only their log entries. Times are host wall-clock.

use super::Gpu;
use super::bellman_ford::{Kernel, grid, read, readback_buffer};
use crate::algo::{Algorithm, PhaseTimes, RunRecord, SolveError, SolveOptions, Step, StepDelta, Stepper};
use crate::device::gpu;
use crate::device::gpu_delta::{self as book, BATCH_MAX, C_SLOT, DeltaRun, L_SERIAL, LOG_WORDS, LogEntry};
use crate::graph::{Distance, Graph, INF, VertexId};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use wgpu::util::DeviceExt;

const SOURCE: &str = include_str!("../../../kernels/delta_stepping.wgsl");

fn dev(msg: String) -> SolveError {
    SolveError::Device(msg)
}

/// The wgpu Δ-stepping stepper.
pub struct DeltaSteppingWgpu {
    gpu: Arc<Gpu>,
    graph: Arc<Graph>,
    algo: Algorithm,
    opts: SolveOptions,
    run: DeltaRun,
    source: VertexId,
    device: String,
    n: usize,
    /// relax, commit, advance, min_far, open, advance2.
    kernels: Vec<Kernel>,
    dist: wgpu::Buffer,
    rr: wgpu::Buffer,
    log: wgpu::Buffer,
    ctl: wgpu::Buffer,
    /// δ as the host last saw it (for the steps' deltas).
    prev: Vec<Distance>,
    iteration: u32,
    done: bool,
    reached: u64,
}

impl DeltaSteppingWgpu {
    /// Uploads the successors and the initial state. Errors ([`SolveError::Device`]): an array
    /// larger than one storage binding, block sizes beyond the adapter, GPU errors.
    pub(super) fn new(
        gpu: Arc<Gpu>,
        graph: Arc<Graph>,
        algo: Algorithm,
        run: DeltaRun,
        source: VertexId,
        opts: &SolveOptions,
    ) -> Result<Self, SolveError> {
        let (n, m) = (graph.n(), graph.m());
        let limits = &gpu.limits;
        let max_wg = limits.max_compute_invocations_per_workgroup.min(limits.max_compute_workgroup_size_x);
        for (what, b) in [("relax", opts.block.relax), ("update", opts.block.update)] {
            if b > max_wg {
                return Err(dev(format!("{}: block size {b} for {what}: the adapter allows {max_wg}", gpu.name)));
            }
        }
        let biggest = 4 * (m.max(n + 1) as u64);
        if biggest > limits.max_storage_buffer_binding_size {
            return Err(dev(format!(
                "graph `{}` ({m} arcs) is too large for delta-stepping on {}: an arc array of {biggest} bytes exceeds \
                 the adapter's storage binding ({} bytes); use CUDA or the CPU",
                graph.name, gpu.name, limits.max_storage_buffer_binding_size
            )));
        }
        let state = book::initial_state(&graph, source, run);
        let succ = graph.successors();
        let weights: Vec<u32> = succ.weights.iter().map(|&w| w.max(0) as u32).collect();
        let d = &gpu.device;
        let max_dim = limits.max_compute_workgroups_per_dimension;
        let built = gpu.guarded("building the Δ-stepping stepper", || {
            let storage = wgpu::BufferUsages::STORAGE;
            let copy = wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
            let init = |label: &str, data: &[u8], usage: wgpu::BufferUsages| {
                let contents = if data.is_empty() { &[0u8; 4][..] } else { data };
                d.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
            };
            let params = init(
                "ds params",
                bytemuck::cast_slice(&[n as u32, source, run.delta, 0u32]),
                wgpu::BufferUsages::UNIFORM,
            );
            let offsets = init("ds offsets", bytemuck::cast_slice(&succ.offsets), storage);
            let targets = init("ds targets", bytemuck::cast_slice(&succ.targets), storage);
            let weights = init("ds weights", bytemuck::cast_slice(&weights), storage);
            let prev = init("ds prev", bytemuck::cast_slice(&state.dist), storage | copy);
            let dist = init("ds dist", bytemuck::cast_slice(&state.dist), storage | copy);
            let fr = init("ds fr", bytemuck::cast_slice(&state.fr), storage | copy);
            let rr = init("ds rr", bytemuck::cast_slice(&state.rr), storage | copy);
            let pend = init("ds pend", bytemuck::cast_slice(&state.pend), storage | copy);
            let log = init("ds log", &vec![0u8; 4 * LOG_WORDS * BATCH_MAX as usize], storage | copy);
            let ctl = init("ds ctl", bytemuck::cast_slice(&state.ctl), storage | copy);
            let module = d.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("delta_stepping.wgsl"),
                source: wgpu::ShaderSource::Wgsl(SOURCE.into()),
            });
            let all: [(u32, &wgpu::Buffer); 11] = [
                (0, &params),
                (1, &offsets),
                (2, &targets),
                (3, &weights),
                (4, &prev),
                (5, &dist),
                (6, &fr),
                (7, &rr),
                (8, &pend),
                (9, &log),
                (10, &ctl),
            ];
            // wg: None for the one-invocation kernels (they do not use the WG constant).
            let kernel = |entry: &str, wg: Option<u32>, used: &[u32], grid: (u32, u32)| {
                let constants: Vec<(&str, f64)> = wg.map(|w| vec![("WG", f64::from(w))]).unwrap_or_default();
                Kernel::new(d, &module, entry, &constants, &all, used, grid)
            };
            let (rb, cb) = (opts.block.relax, opts.block.update);
            let (gr, gc) = (grid(n as u32, rb, max_dim), grid(n as u32, cb, max_dim));
            let kernels = vec![
                kernel(
                    if run.balanced { "ds_relax_balanced" } else { "ds_relax" },
                    Some(rb),
                    &[0, 1, 2, 3, 4, 5, 6, 7, 9, 10],
                    gr,
                ),
                kernel("ds_commit", Some(cb), &[0, 1, 3, 4, 5, 6, 7, 8, 9, 10], gc),
                kernel("ds_advance", None, &[9, 10], (1, 1)),
                kernel("ds_min_far", Some(cb), &[0, 4, 8, 10], gc),
                kernel("ds_open", Some(cb), &[0, 1, 3, 4, 6, 7, 8, 10], gc),
                kernel("ds_advance2", None, &[9, 10], (1, 1)),
            ];
            (kernels, dist, rr, log, ctl)
        })?;
        let (kernels, dist, rr, log, ctl) = built;
        let prev = state.dist.iter().map(|&d| book::widen(d)).collect();
        Ok(DeltaSteppingWgpu {
            device: format!(
                "{} · u32 δ (Δ-stepping, Δ = {}, {} relax) · host wall-clock timing",
                gpu.name,
                run.delta,
                if run.balanced { "balanced" } else { "vertex" }
            ),
            kernels,
            dist,
            rr,
            log,
            ctl,
            prev,
            iteration: 0,
            done: false,
            reached: 1,
            n,
            algo,
            opts: opts.clone(),
            run,
            source,
            graph,
            gpu,
        })
    }

    /// Runs up to `count` phases in one submission and returns the log entries of those that ran.
    fn run_phases(&mut self, count: u32) -> Result<Vec<LogEntry>, SolveError> {
        let bytes = (4 * LOG_WORDS * count as usize) as u64;
        let gpu = Arc::clone(&self.gpu);
        let readback = gpu.guarded("queueing Δ-stepping phases", || {
            gpu.queue.write_buffer(&self.log, 0, &vec![0u8; bytes as usize]);
            gpu.queue.write_buffer(&self.ctl, 4 * C_SLOT as u64, bytemuck::cast_slice(&[0u32]));
            let mut enc = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("ds") });
            {
                let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("ds phases"),
                    timestamp_writes: None,
                });
                for _ in 0..count {
                    for k in &self.kernels {
                        k.dispatch(&mut pass);
                    }
                }
            }
            let rb = readback_buffer(&gpu, bytes);
            enc.copy_buffer_to_buffer(&self.log, 0, &rb, 0, Some(bytes));
            let index = gpu.queue.submit([enc.finish()]);
            (rb, index)
        })?;
        let raw = read(&gpu, &readback.0, bytes, readback.1, "reading the phase log")?;
        let words: &[u32] = bytemuck::cast_slice(&raw);
        Ok(words.chunks_exact(LOG_WORDS).map(|c| std::array::from_fn(|i| c[i])).filter(book::ran).collect())
    }

    fn copy_words(&self, src: &wgpu::Buffer, what: &str) -> Result<Vec<u32>, SolveError> {
        let bytes = 4 * self.n.max(1) as u64;
        let (rb, index) = self.gpu.guarded(what, || {
            let rb = readback_buffer(&self.gpu, bytes);
            let mut enc = self.gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(what) });
            enc.copy_buffer_to_buffer(src, 0, &rb, 0, Some(bytes));
            (rb, self.gpu.queue.submit([enc.finish()]))
        })?;
        let raw = read(&self.gpu, &rb, bytes, index, what)?;
        let mut words: Vec<u32> = bytemuck::cast_slice(&raw).to_vec();
        words.truncate(self.n);
        Ok(words)
    }

    /// Books a phase that ran: iteration, reached, done.
    fn note(&mut self, e: &LogEntry) {
        self.iteration += 1;
        self.done = book::finished(e);
        self.reached = book::reached_total(e);
    }

    fn run_fast(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let begin = Instant::now();
        let mut run = gpu::run_header(self.algo, &self.opts, &self.device, &self.graph, self.source);
        let n = self.n as u64;
        let mut batch = 1u32;
        while !self.done {
            if cancel.load(Ordering::Relaxed) {
                return Err(SolveError::Cancelled);
            }
            progress(self.reached);
            let entries = self.run_phases(batch)?;
            if entries.is_empty() {
                return Err(dev(format!("{}: a Δ-stepping phase did not run", self.gpu.name)));
            }
            for e in &entries {
                self.note(e);
                let rec =
                    book::record(e, self.iteration, n, self.opts.block.relax, self.run.delta, PhaseTimes::default());
                run.records.push(rec);
            }
            batch = (batch * 2).min(BATCH_MAX);
        }
        // The host's δ is stale after a fast run; `distances` copies from the device.
        self.prev.clear();
        run.total_ms = begin.elapsed().as_secs_f64() * 1e3;
        run.iterations = self.iteration;
        run.reached = self.reached;
        Ok(run)
    }
}

impl Stepper for DeltaSteppingWgpu {
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
        if self.done {
            return Ok(None);
        }
        let t0 = Instant::now();
        let Some(e) = self.run_phases(1)?.into_iter().next() else {
            return Err(dev(format!("{}: a Δ-stepping phase did not run", self.gpu.name)));
        };
        let relax_ms = t0.elapsed().as_secs_f64() * 1e3;
        self.note(&e);
        let t1 = Instant::now();
        let delta = if self.opts.record_deltas {
            if self.prev.is_empty() {
                self.prev = vec![INF; self.n];
            }
            let new = self.copy_words(&self.dist, "copying δ from the GPU")?;
            let rr = if book::settles(&e) { Some(self.copy_words(&self.rr, "copying R from the GPU")?) } else { None };
            Some(book::step_delta(&mut self.prev, &new, rr.as_deref(), e[L_SERIAL], self.source))
        } else {
            None::<StepDelta>
        };
        let times = PhaseTimes { relax_ms, copy_ms: t1.elapsed().as_secs_f64() * 1e3, ..Default::default() };
        let record = book::record(&e, self.iteration, self.n as u64, self.opts.block.relax, self.run.delta, times);
        Ok(Some(Step { record, delta }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.copy_words(&self.dist, "copying δ from the GPU")?.into_iter().map(book::widen).collect())
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
        self.run_fast(cancel, progress)
    }
}
