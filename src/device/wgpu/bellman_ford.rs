//! The wgpu backend of edge-parallel Bellman-Ford ([seed002]; kernels in
//! `kernels/bellman_ford.wgsl`; the driver is [`crate::device::driver::EdgeParallel`]; design
//! in `docs/gpu-bellman-ford.md`).
//!
//! The edge list ([`crate::algo::edge_list`]) is uploaded as three storage buffers (each must
//! fit one binding: larger graphs are refused); δ and δ_prev are i32. A pass is three
//! dispatches (relax, commit, advance) in one compute pass; a batch is one submission. Times
//! are the host's (the driver's clock); `ro-cache` has no effect here.

use super::Gpu;
use super::dispatch::{Kernel, buffer_init, check_limits, copy_words, grid, run_batch};
use crate::algo::{SolveError, Stepper};
use crate::device::driver::edge_parallel::{BATCH_MAX, LOG_WORDS};
use crate::device::driver::{Backend, Batch, EdgeParallel, Words};
use crate::device::gpu::BellmanFordRun;
use crate::device::gpu::Build;
use std::sync::Arc;

const SOURCE: &str = include_str!("../../../kernels/bellman_ford.wgsl");

/// Buffers and pipelines of one Bellman-Ford run on a wgpu device.
struct BellmanFordWgpu {
    gpu: Arc<Gpu>,
    n: usize,
    relax: Kernel,
    commit: Kernel,
    advance: Kernel,
    dist: wgpu::Buffer,
    mark: wgpu::Buffer,
    log: wgpu::Buffer,
    ctl: wgpu::Buffer,
}

/// Uploads the edge list and δ and returns the driver over them. Errors
/// ([`SolveError::Device`]): an array larger than one storage binding, block sizes beyond the
/// adapter, GPU errors.
pub(super) fn stepper(gpu: Arc<Gpu>, run: BellmanFordRun, b: &Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let (graph, source, opts) = (&b.graph, b.source, b.opts);
    let (n, m) = (graph.n(), graph.m());
    let blocks = [("relax", opts.block.relax), ("update", opts.block.update)];
    check_limits(&gpu, graph, "bellman-ford", &blocks, m.max(n + 1) as u64)?;
    let edges = crate::algo::edge_list(graph, run.order);
    let mut init_dist = vec![i32::MAX; n];
    init_dist[source as usize] = 0;
    let mut init_mark = vec![u32::MAX; n];
    init_mark[source as usize] = 0; // the source counts as lowered in pass 0
    let d = &gpu.device;
    let max_dim = gpu.limits.max_compute_workgroups_per_dimension;
    let built = gpu.guarded("building the Bellman-Ford stepper", || {
        let storage = wgpu::BufferUsages::STORAGE;
        let copy = wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
        let init = |label: &str, data: &[u8], usage| buffer_init(d, label, data, usage);
        let params = init(
            "bf params",
            bytemuck::cast_slice(&[m as u32, n as u32, run.lo as i32 as u32, 0u32]),
            wgpu::BufferUsages::UNIFORM,
        );
        let tails = init("bf tails", bytemuck::cast_slice(&edges.tails), storage);
        let heads = init("bf heads", bytemuck::cast_slice(&edges.heads), storage);
        let weights = init("bf weights", bytemuck::cast_slice(&edges.weights), storage);
        let prev = init("bf prev", bytemuck::cast_slice(&init_dist), storage | copy);
        let dist = init("bf dist", bytemuck::cast_slice(&init_dist), storage | copy);
        let mark = init("bf mark", bytemuck::cast_slice(&init_mark), storage | copy);
        let log = init("bf log", &vec![0u8; 4 * LOG_WORDS * (BATCH_MAX as usize + 1)], storage | copy);
        let ctl = init("bf ctl", &[0u8; 16], storage | copy);
        let offsets = init("bf offsets", bytemuck::cast_slice(&graph.successors().offsets), storage);
        let module = d.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("bellman_ford.wgsl"),
            source: wgpu::ShaderSource::Wgsl(super::kernels::with_common(SOURCE).into()),
        });
        let all: [(u32, &wgpu::Buffer); 10] = [
            (0, &params),
            (1, &tails),
            (2, &heads),
            (3, &weights),
            (4, &prev),
            (5, &mark),
            (6, &dist),
            (7, &log),
            (8, &ctl),
            (9, &offsets),
        ];
        let kernel = |entry: &str, wg: u32, used: &[u32], grid: (u32, u32)| {
            let constants: Vec<(&str, f64)> = if entry == "bf_advance" {
                vec![]
            } else {
                vec![("WG", f64::from(wg)), ("FRONTIER", if run.frontier_only { 1.0 } else { 0.0 })]
            };
            Kernel::new(d, &module, entry, &constants, &all, used, grid)
        };
        let (rb, cb) = (opts.block.relax, opts.block.update);
        let relax = kernel("bf_relax", rb, &[0, 1, 2, 3, 4, 5, 6, 7, 8], grid((m as u32).div_ceil(rb), max_dim));
        let commit = kernel("bf_commit", cb, &[0, 4, 5, 6, 7, 8, 9], grid((n as u32).div_ceil(cb), max_dim));
        let advance = kernel("bf_advance", 1, &[8], (1, 1));
        (relax, commit, advance, dist, mark, log, ctl)
    })?;
    let (relax, commit, advance, dist, mark, log, ctl) = built;
    let device = format!("{} · i32 δ (bellman-ford) · host wall-clock timing", gpu.name);
    let backend = BellmanFordWgpu { gpu, n, relax, commit, advance, dist, mark, log, ctl };
    Ok(Box::new(EdgeParallel::new(backend, run, b.ident(device))))
}

impl Backend for BellmanFordWgpu {
    fn run_batch(&mut self, first: u32, count: u32, head: &[u32], _timed: bool) -> Result<Batch, SolveError> {
        let mut words = vec![0u32; LOG_WORDS * (count as usize + 1)];
        words.iter_mut().zip(head).for_each(|(w, &h)| *w = h);
        let setup = |q: &wgpu::Queue| {
            q.write_buffer(&self.log, 0, bytemuck::cast_slice(&words));
            q.write_buffer(&self.ctl, 0, bytemuck::cast_slice(&[first, 1u32, 0, 0]));
        };
        let kernels = [&self.relax, &self.commit, &self.advance];
        let log = run_batch(&self.gpu, &kernels, count, setup, &self.log, words.len(), "running Bellman-Ford passes")?;
        Ok(Batch { words: log[LOG_WORDS..].to_vec(), gpu_ms: None })
    }

    fn read_words(&mut self, which: Words) -> Result<Vec<u32>, SolveError> {
        let (buf, what) = match which {
            Words::Mark => (&self.mark, "copying the marks from the GPU"),
            _ => (&self.dist, "copying δ from the GPU"),
        };
        copy_words(&self.gpu, buf, self.n, what)
    }
}
