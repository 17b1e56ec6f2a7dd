//! The CUDA backend of edge-parallel Bellman-Ford ([seed002]; kernels in
//! `kernels/bellman_ford.cu`; the driver is [`crate::device::driver::EdgeParallel`]; design in
//! `docs/gpu-bellman-ford.md`).
//!
//! The edge list ([`crate::algo::edge_list`], in the `order=` the run names) is uploaded once
//! as three arrays of m words; δ and δ_prev are signed 32-bit. A pass is two launches (relax:
//! one thread per arc; commit: one thread per vertex) on the backend's stream; a batch's
//! launches are timed with events.

use super::kernels::Gpu;
use super::stream::{apply_cache, cfg, check_memory, copy_back, elapsed_ms, event};
use super::{dev_err, guarded};
use crate::algo::{SolveError, SolveOptions, Stepper};
use crate::device::driver::edge_parallel::{BATCH_MAX, LOG_WORDS};
use crate::device::driver::{Backend, Batch, EdgeParallel, Words};
use crate::device::gpu::BellmanFordRun;
use crate::device::gpu::Build;
use crate::graph::Graph;
use cudarc::driver::{CudaFunction, CudaSlice, CudaStream, PushKernelArg};
use std::sync::Arc;

/// Device bytes of a Bellman-Ford stepper: the edge list (12 B per arc), offsets, δ, δ_prev,
/// marks, the log.
pub fn device_bytes(graph: &Graph) -> u64 {
    let (n, m) = (graph.n() as u64, graph.m() as u64);
    12 * m + 4 * (n + 1) + 12 * n + 4 * LOG_WORDS as u64 * (u64::from(BATCH_MAX) + 1)
}

/// Buffers and kernels of one Bellman-Ford run on a CUDA device.
struct BellmanFordCuda {
    /// Keeps the device (and its compiled module) alive as long as the stepper.
    _gpu: Arc<Gpu>,
    stream: Arc<CudaStream>,
    opts: SolveOptions,
    run: BellmanFordRun,
    n: u32,
    m: u32,
    relax: CudaFunction,
    commit: CudaFunction,
    tails: CudaSlice<u32>,
    heads: CudaSlice<u32>,
    weights: CudaSlice<i32>,
    off: CudaSlice<u32>,
    dist: CudaSlice<i32>,
    prev: CudaSlice<i32>,
    mark: CudaSlice<u32>,
    log: CudaSlice<u32>,
}

/// Uploads the edge list, initialises δ and returns the driver. Errors: [`SolveError::Device`].
pub(super) fn new_stepper(gpu: Arc<Gpu>, run: BellmanFordRun, b: &Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let (graph, source, opts) = (&b.graph, b.source, b.opts);
    check_memory(&gpu, graph, device_bytes(graph), "bellman-ford")?;
    let n = graph.n();
    let stream = gpu.ctx.new_stream().map_err(dev_err("cannot create a CUDA stream"))?;
    let edges = crate::algo::edge_list(graph, run.order);
    let up = |v: &[u32], what: &str| stream.clone_htod(v).map_err(dev_err(&format!("cannot upload the {what}")));
    let tails = up(&edges.tails, "arc tails")?;
    let heads = up(&edges.heads, "arc heads")?;
    let weights = stream.clone_htod(&edges.weights).map_err(dev_err("cannot upload the arc weights"))?;
    let off = up(&graph.successors().offsets, "successor offsets")?;
    drop(edges);
    let alloc_i = |len: usize| stream.alloc_zeros::<i32>(len).map_err(dev_err("cannot allocate device memory"));
    let alloc_u = |len: usize| stream.alloc_zeros::<u32>(len).map_err(dev_err("cannot allocate device memory"));
    let (dist, prev, mark) = (alloc_i(n)?, alloc_i(n)?, alloc_u(n)?);
    let log = alloc_u(LOG_WORDS * (BATCH_MAX as usize + 1))?;
    let filter = if run.frontier_only { "frontier" } else { "all" };
    let path = if run.read_only_cache { "ldg" } else { "plain" };
    let relax = gpu.func(&format!("bf_relax_{filter}_{path}"))?;
    let commit = gpu.func("bf_commit")?;
    let init = gpu.func("bf_init")?;
    let device = format!(
        "CUDA: {} (cuda:{}; blocks relax/commit {}/{}; 32-bit signed δ)",
        gpu.name, gpu.ordinal, opts.block.relax, opts.block.update
    );
    let n32 = n as u32;
    {
        let b = opts.block.update;
        let mut l = stream.launch_builder(&init);
        l.arg(&n32).arg(&dist).arg(&prev).arg(&mark).arg(&source);
        // SAFETY: matches bf_init(n, dist, prev, mark, source); threads past n do nothing.
        unsafe { l.launch(cfg(n32.div_ceil(b), b)) }.map_err(dev_err("initialise kernel launch failed"))?;
    }
    stream.synchronize().map_err(dev_err("initialisation on the GPU failed"))?;
    let backend = BellmanFordCuda {
        stream,
        opts: opts.clone(),
        run,
        n: n32,
        m: graph.m() as u32,
        relax,
        commit,
        tails,
        heads,
        weights,
        off,
        dist,
        prev,
        mark,
        log,
        _gpu: gpu,
    };
    Ok(Box::new(EdgeParallel::new(backend, run, b.ident(device))))
}

impl BellmanFordCuda {
    /// Queues relax and commit of pass `pass` writing log slot `slot` (≥ 1).
    fn launch_pass(&self, pass: u32, slot: u32) -> Result<(), SolveError> {
        let (rb, cb) = (self.opts.block.relax, self.opts.block.update);
        let mut l = self.stream.launch_builder(&self.relax);
        l.arg(&self.m).arg(&self.tails).arg(&self.heads).arg(&self.weights).arg(&self.prev).arg(&self.mark);
        l.arg(&self.dist).arg(&pass).arg(&self.run.lo).arg(&self.log).arg(&slot);
        // SAFETY: matches bf_relax_*(m, tails, heads, weights, prev, mark, dist, pass, lo, log,
        // slot); one thread per arc, threads past m return; slot ≤ BATCH_MAX.
        unsafe { l.launch(cfg(self.m.div_ceil(rb), rb)) }.map_err(dev_err("relax kernel launch failed"))?;
        let mut l = self.stream.launch_builder(&self.commit);
        l.arg(&self.n).arg(&self.dist).arg(&self.prev).arg(&self.mark).arg(&self.off);
        l.arg(&pass).arg(&self.log).arg(&slot);
        // SAFETY: matches bf_commit(n, dist, prev, mark, off, pass, log, slot); threads past n
        // only vote; the block is a multiple of 32 (checked by check_bellman_ford).
        unsafe { l.launch(cfg(self.n.div_ceil(cb), cb)) }.map_err(dev_err("commit kernel launch failed"))?;
        Ok(())
    }

    fn batch(&mut self, first: u32, count: u32, head: &[u32], timed: bool) -> Result<Batch, SolveError> {
        let count = count.clamp(1, BATCH_MAX);
        // Slot 0 = the last pass, slots 1..=count zero.
        let mut words = vec![0u32; LOG_WORDS * (count as usize + 1)];
        words.iter_mut().zip(head).for_each(|(w, &h)| *w = h);
        let mut dst = self.log.slice_mut(..words.len());
        self.stream.memcpy_htod(&words, &mut dst).map_err(dev_err("cannot write the pass log"))?;
        let e0 = if timed { Some(event(&self.stream)?) } else { None };
        for j in 1..=count {
            self.launch_pass(first + j - 1, j)?;
        }
        let e1 = if timed { Some(event(&self.stream)?) } else { None };
        self.stream
            .memcpy_dtoh(&self.log.slice(..words.len()), &mut words[..])
            .map_err(dev_err("cannot read the pass log"))?;
        self.stream.synchronize().map_err(dev_err("a Bellman-Ford pass on the GPU failed"))?;
        let gpu_ms = match (e0, e1) {
            (Some(a), Some(z)) => Some(elapsed_ms(&a, &z)?),
            _ => None,
        };
        Ok(Batch { words: words.split_off(LOG_WORDS), gpu_ms })
    }
}

impl Backend for BellmanFordCuda {
    fn run_batch(&mut self, first: u32, count: u32, head: &[u32], timed: bool) -> Result<Batch, SolveError> {
        guarded(|| self.batch(first, count, head, timed))?
    }

    fn read_words(&mut self, which: Words) -> Result<Vec<u32>, SolveError> {
        guarded(|| match which {
            Words::Mark => copy_back(&self.stream, &self.mark, "cannot copy the marks from the GPU"),
            _ => Ok(copy_back(&self.stream, &self.dist, "cannot copy δ from the GPU")?
                .into_iter()
                .map(|d| d as u32)
                .collect()),
        })?
    }

    fn prepare(&mut self) -> Result<(), SolveError> {
        guarded(|| apply_cache(&[&self.relax, &self.commit], self.opts.cache))?
    }
}
