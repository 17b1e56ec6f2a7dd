//! The wgpu backend of Δ-stepping ([meyer-sanders]; kernels in `kernels/delta_stepping.wgsl`;
//! the driver is [`crate::device::driver::Bucketed`]; design in `docs/gpu-delta-stepping.md`).
//!
//! The CSR successors are uploaded as three storage buffers (each must fit one binding: larger
//! graphs are refused); δ is u32. A phase is six dispatches in one compute pass and writes one
//! log entry; a batch is one submission. Times are the host's (the driver's clock).

use super::Gpu;
use super::dispatch::{Kernel, buffer_init, check_limits, copy_words, grid, run_batch};
use crate::algo::{SolveError, Stepper};
use crate::device::driver::{Backend, Batch, Bucketed, Words};
use crate::device::gpu::Build;
use crate::device::gpu_delta::{self as book, BATCH_MAX, C_SLOT, DeltaRun, LOG_WORDS};
use std::sync::Arc;

const SOURCE: &str = include_str!("../../../kernels/delta_stepping.wgsl");

/// Buffers and pipelines of one Δ-stepping run on a wgpu device.
struct DeltaSteppingWgpu {
    gpu: Arc<Gpu>,
    n: usize,
    /// relax, commit, advance, min_far, open, advance2.
    kernels: Vec<Kernel>,
    dist: wgpu::Buffer,
    rr: wgpu::Buffer,
    log: wgpu::Buffer,
    ctl: wgpu::Buffer,
}

/// Uploads the successors and the initial state and returns the driver over them. Errors
/// ([`SolveError::Device`]): an array larger than one storage binding, block sizes beyond the
/// adapter, GPU errors.
pub(super) fn stepper(gpu: Arc<Gpu>, run: DeltaRun, b: &Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let (graph, source, opts) = (&b.graph, b.source, b.opts);
    let (n, m) = (graph.n(), graph.m());
    let blocks = [("relax", opts.block.relax), ("update", opts.block.update)];
    check_limits(&gpu, graph, "delta-stepping", &blocks, m.max(n + 1) as u64)?;
    let state = book::initial_state(graph, source, run);
    let succ = graph.successors();
    let weights: Vec<u32> = succ.weights.iter().map(|&w| w.max(0) as u32).collect();
    let d = &gpu.device;
    let max_dim = gpu.limits.max_compute_workgroups_per_dimension;
    let built = gpu.guarded("building the Δ-stepping stepper", || {
        let storage = wgpu::BufferUsages::STORAGE;
        let copy = wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
        let init = |label: &str, data: &[u8], usage| buffer_init(d, label, data, usage);
        let params =
            init("ds params", bytemuck::cast_slice(&[n as u32, source, run.delta, 0u32]), wgpu::BufferUsages::UNIFORM);
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
            source: wgpu::ShaderSource::Wgsl(super::kernels::with_common(SOURCE).into()),
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
        let (gr, gc) = (grid((n as u32).div_ceil(rb), max_dim), grid((n as u32).div_ceil(cb), max_dim));
        let relax = if run.balanced { "ds_relax_balanced" } else { "ds_relax" };
        let kernels = vec![
            kernel(relax, Some(rb), &[0, 1, 2, 3, 4, 5, 6, 7, 9, 10], gr),
            kernel("ds_commit", Some(cb), &[0, 1, 3, 4, 5, 6, 7, 8, 9, 10], gc),
            kernel("ds_advance", None, &[9, 10], (1, 1)),
            kernel("ds_min_far", Some(cb), &[0, 4, 8, 10], gc),
            kernel("ds_open", Some(cb), &[0, 1, 3, 4, 6, 7, 8, 10], gc),
            kernel("ds_advance2", None, &[9, 10], (1, 1)),
        ];
        (kernels, dist, rr, log, ctl)
    })?;
    let (kernels, dist, rr, log, ctl) = built;
    let device = format!(
        "{} · u32 δ (Δ-stepping, Δ = {}, {} relax) · host wall-clock timing",
        gpu.name,
        run.delta,
        if run.balanced { "balanced" } else { "vertex" }
    );
    let backend = DeltaSteppingWgpu { gpu, n, kernels, dist, rr, log, ctl };
    Ok(Box::new(Bucketed::new(backend, run, b.ident(device))))
}

impl Backend for DeltaSteppingWgpu {
    fn run_batch(&mut self, _first: u32, count: u32, _head: &[u32], _timed: bool) -> Result<Batch, SolveError> {
        let words = LOG_WORDS * count as usize;
        let setup = |q: &wgpu::Queue| {
            q.write_buffer(&self.log, 0, &vec![0u8; 4 * words]);
            q.write_buffer(&self.ctl, 4 * C_SLOT as u64, bytemuck::cast_slice(&[0u32]));
        };
        let kernels: Vec<&Kernel> = self.kernels.iter().collect();
        let words = run_batch(&self.gpu, &kernels, count, setup, &self.log, words, "running Δ-stepping phases")?;
        Ok(Batch { words, gpu_ms: None })
    }

    fn read_words(&mut self, which: Words) -> Result<Vec<u32>, SolveError> {
        let (buf, what) = match which {
            Words::Rr => (&self.rr, "copying R from the GPU"),
            _ => (&self.dist, "copying δ from the GPU"),
        };
        copy_words(&self.gpu, buf, self.n, what)
    }
}
