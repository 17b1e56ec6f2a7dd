//! Edge-parallel Bellman-Ford on CUDA ([seed002]; kernels in `kernels/bellman_ford.cu`, design
//! in `docs/gpu-bellman-ford.md`).
//!
//! The edge list ([`crate::algo::edge_list`], in the `order=` the run names) is uploaded once
//! as three arrays of m words; δ and δ_prev are signed 32-bit. A pass is two launches (relax:
//! one thread per arc; commit: one thread per vertex) and a pass's counts land in a log entry
//! of [`LOG_WORDS`] words.
//! - `step` runs one pass, times both kernels with events, reads the log entry and δ back, and
//!   books the pass on the host ([`PassBook`]): the same records and deltas as the CPU stepper,
//!   with modelled thread counts.
//! - `run_to_end` queues batches of passes (1, 2, 4 … [`BATCH_MAX`]) and reads back only the
//!   batch's log (8 words per pass); passes queued past convergence return at once on the
//!   device. Its records carry the counts (frontier, arcs scanned, vertices lowered, reached)
//!   but no thread counts or per-kernel times. With `instrument` it steps instead.

use super::kernels::Gpu;
use super::solver::cfg;
use super::{dev_err, guarded};
use crate::algo::{
    Algorithm, CachePreference, PassBook, PassTally, PhaseTimes, RunRecord, SolveError, SolveOptions, Step, Stepper,
};
use crate::device::gpu::{self, BellmanFordRun};
use crate::graph::{Distance, Graph, INF, VertexId};
use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{CudaEvent, CudaFunction, CudaSlice, CudaStream, PushKernelArg};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// u32 words per pass in the log (BF_LOG_WORDS in the kernel file) and the fields used.
pub(super) const LOG_WORDS: usize = 8;
const LOWERED: usize = 0;
const FRESH: usize = 1;
const NEGATIVE: usize = 2;
const LOWERED_ARCS: usize = 3;
const FRESH_ARCS: usize = 4;
/// Most passes per batch of the fast path.
pub(super) const BATCH_MAX: u32 = 64;

/// Device bytes of a Bellman-Ford stepper: the edge list (12 B per arc), offsets, δ, δ_prev,
/// marks, the log.
pub fn device_bytes(graph: &Graph) -> u64 {
    let (n, m) = (graph.n() as u64, graph.m() as u64);
    12 * m + 4 * (n + 1) + 12 * n + 4 * LOG_WORDS as u64 * (u64::from(BATCH_MAX) + 1)
}

/// i32 δ from the device; i32::MAX is ∞.
fn widen(d: i32) -> Distance {
    if d == i32::MAX { INF } else { Distance::from(d) }
}

/// The CUDA Bellman-Ford stepper.
pub(super) struct BellmanFordCuda {
    /// Keeps the device (and its compiled module) alive as long as the stepper.
    _gpu: Arc<Gpu>,
    stream: Arc<CudaStream>,
    graph: Arc<Graph>,
    algo: Algorithm,
    opts: SolveOptions,
    run: BellmanFordRun,
    source: VertexId,
    device: String,
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
    /// Log entry of the last pass (slot 0 of the next batch).
    last: [u32; LOG_WORDS],
    book: PassBook,
    /// Whether `book` matches the device (false after a fast run).
    host_valid: bool,
}

/// Builds the stepper: uploads the edge list and initialises δ. Errors: [`SolveError::Device`].
pub(super) fn new_stepper(
    gpu: Arc<Gpu>,
    graph: Arc<Graph>,
    algo: Algorithm,
    run: BellmanFordRun,
    source: VertexId,
    opts: &SolveOptions,
) -> Result<Box<dyn Stepper>, SolveError> {
    let (n, m) = (graph.n(), graph.m());
    if n >= u32::MAX as usize - 1 || m >= u32::MAX as usize {
        return Err(SolveError::Device(format!("{n} vertices, {m} arcs: the CUDA kernels index both with u32")));
    }
    gpu.ctx.bind_to_thread().map_err(dev_err("cannot bind the CUDA context"))?;
    let need = device_bytes(&graph);
    let (free, _) = gpu.ctx.mem_get_info().map_err(dev_err("cannot read free device memory"))?;
    if need + (64 << 20) > free as u64 {
        return Err(SolveError::Device(format!(
            "graph `{}` needs {:.1} MiB of device memory for bellman-ford; {:.1} MiB are free on {}",
            graph.name,
            need as f64 / 1048576.0,
            free as f64 / 1048576.0,
            gpu.name
        )));
    }
    let stream = gpu.ctx.new_stream().map_err(dev_err("cannot create a CUDA stream"))?;
    let edges = crate::algo::edge_list(&graph, run.order);
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
    let mut last = [0u32; LOG_WORDS];
    last[LOWERED] = 1; // pass 0 "lowered" the source: pass 1 runs
    let frontier_only = run.frontier_only;
    Ok(Box::new(BellmanFordCuda {
        book: PassBook::new(Arc::clone(&graph), source, frontier_only, run.order),
        host_valid: true,
        last,
        stream,
        algo,
        opts: opts.clone(),
        run,
        source,
        device,
        n: n32,
        m: m as u32,
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
        graph,
        _gpu: gpu,
    }))
}

impl BellmanFordCuda {
    fn event(&self) -> Result<CudaEvent, SolveError> {
        self.stream.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT)).map_err(dev_err("cannot record a CUDA event"))
    }

    /// Applies the cache preference to both kernels.
    fn apply_cache(&self) -> Result<(), SolveError> {
        use cudarc::driver::sys::{CUfunc_cache_enum, CUfunction_attribute_enum};
        let (carveout, config) = match self.opts.cache {
            CachePreference::Default => (-1, CUfunc_cache_enum::CU_FUNC_CACHE_PREFER_NONE),
            CachePreference::PreferL1 => (0, CUfunc_cache_enum::CU_FUNC_CACHE_PREFER_L1),
            CachePreference::PreferShared => (100, CUfunc_cache_enum::CU_FUNC_CACHE_PREFER_SHARED),
        };
        for f in [&self.relax, &self.commit] {
            f.set_attribute(CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, carveout)
                .map_err(dev_err("cannot set the shared-memory carveout"))?;
            f.set_function_cache_config(config).map_err(dev_err("cannot set the cache configuration"))?;
        }
        Ok(())
    }

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

    /// Writes the log (slot 0 = the last pass, slots 1..=count zero) before a batch.
    fn reset_log(&mut self, count: u32) -> Result<(), SolveError> {
        let mut words = vec![0u32; LOG_WORDS * (count as usize + 1)];
        words[..LOG_WORDS].copy_from_slice(&self.last);
        let mut dst = self.log.slice_mut(..words.len());
        self.stream.memcpy_htod(&words, &mut dst).map_err(dev_err("cannot write the pass log"))
    }

    /// Reads log slots 1..=count after a batch (synchronises).
    fn read_log(&self, count: u32) -> Result<Vec<[u32; LOG_WORDS]>, SolveError> {
        let mut words = vec![0u32; LOG_WORDS * (count as usize + 1)];
        self.stream
            .memcpy_dtoh(&self.log.slice(..words.len()), &mut words[..])
            .map_err(dev_err("cannot read the pass log"))?;
        self.stream.synchronize().map_err(dev_err("a Bellman-Ford pass on the GPU failed"))?;
        Ok(words[LOG_WORDS..].chunks_exact(LOG_WORDS).map(|c| std::array::from_fn(|i| c[i])).collect())
    }

    fn copy_dist(&self) -> Result<Vec<Distance>, SolveError> {
        let mut d = vec![0i32; self.n as usize];
        self.stream.memcpy_dtoh(&self.dist, &mut d[..]).map_err(dev_err("cannot copy δ from the GPU"))?;
        self.stream.synchronize().map_err(dev_err("copying δ from the GPU failed"))?;
        Ok(d.into_iter().map(widen).collect())
    }

    /// Brings the host book up to date after a fast run.
    fn ensure_host(&mut self) -> Result<(), SolveError> {
        if self.host_valid {
            return Ok(());
        }
        let dist = self.copy_dist()?;
        let mut mark = vec![0u32; self.n as usize];
        self.stream.memcpy_dtoh(&self.mark, &mut mark[..]).map_err(dev_err("cannot copy the marks from the GPU"))?;
        self.stream.synchronize().map_err(dev_err("copying the marks from the GPU failed"))?;
        self.book.resync(self.book.iteration, dist, &mark);
        self.host_valid = true;
        Ok(())
    }

    fn negative_cycle(&mut self) -> SolveError {
        self.book.done = true;
        crate::algo::negative_cycle_error(&self.graph, self.source)
    }

    fn step_inner(&mut self) -> Result<Option<Step>, SolveError> {
        if self.book.done {
            return Ok(None);
        }
        self.apply_cache()?;
        self.ensure_host()?;
        let start = self.book.start();
        let threads = self.book.threads(self.opts.block.relax);
        self.reset_log(1)?;
        let e0 = self.event()?;
        self.launch_pass(start.pass, 1)?;
        let e1 = self.event()?;
        let entry = self.read_log(1)?[0];
        let ms = |a: &CudaEvent, z: &CudaEvent| -> Result<f64, SolveError> {
            Ok(a.elapsed_ms(z).map_err(dev_err("cannot read CUDA event times"))? as f64)
        };
        let relax_ms = ms(&e0, &e1)?;
        if entry[NEGATIVE] != 0 {
            return Err(self.negative_cycle());
        }
        let t = Instant::now();
        let new = self.copy_dist()?;
        let times = PhaseTimes { relax_ms, copy_ms: t.elapsed().as_secs_f64() * 1e3, ..Default::default() };
        self.last = entry;
        let (record, delta) = self.book.finish_from(start, &new, Some(threads), times)?;
        Ok(Some(Step { record, delta: self.opts.record_deltas.then_some(delta) }))
    }

    /// Batches of passes with one log read-back each (see the module docs).
    fn run_fast(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        self.apply_cache()?;
        self.ensure_host()?;
        let begin = Instant::now();
        let mut run = gpu::run_header(self.algo, &self.opts, &self.device, &self.graph, self.source);
        let mut tally = PassTally::from_book(&self.book);
        let n = self.n;
        let mut batch = 1u32;
        self.host_valid = false;
        while !self.book.done {
            if cancel.load(Ordering::Relaxed) {
                return Err(SolveError::Cancelled);
            }
            progress(tally.reached);
            // Never past pass n: pass n lowering anything proves a negative cycle.
            let first = self.book.iteration + 1;
            let count = batch.min(n.saturating_sub(self.book.iteration)).max(1);
            self.reset_log(count)?;
            for j in 1..=count {
                self.launch_pass(first + j - 1, j)?;
            }
            for (j, e) in self.read_log(count)?.into_iter().enumerate() {
                let pass = first + j as u32;
                if e[NEGATIVE] != 0 || (e[LOWERED] != 0 && pass >= n) {
                    return Err(self.negative_cycle());
                }
                let rec = tally.record(
                    pass,
                    e[LOWERED].into(),
                    e[LOWERED_ARCS].into(),
                    e[FRESH].into(),
                    e[FRESH_ARCS].into(),
                );
                run.records.push(rec);
                self.last = e;
                self.book.iteration = pass;
                if e[LOWERED] == 0 {
                    self.book.done = true;
                    break;
                }
            }
            batch = (batch * 2).min(BATCH_MAX);
        }
        run.total_ms = begin.elapsed().as_secs_f64() * 1e3;
        run.iterations = self.book.iteration;
        run.reached = tally.reached;
        Ok(run)
    }
}

impl Stepper for BellmanFordCuda {
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
        self.book.done
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        guarded(|| self.step_inner())?
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        if self.host_valid {
            return Ok(self.book.prev.clone());
        }
        guarded(|| self.copy_dist())?
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        if self.opts.instrument {
            let record_deltas = std::mem::replace(&mut self.opts.record_deltas, false);
            let graph = Arc::clone(&self.graph);
            let run = crate::algo::run_by_steps(self, &graph, cancel, progress);
            self.opts.record_deltas = record_deltas;
            let mut run = run?;
            run.iterations = self.book.iteration;
            run.reached = self.book.reached;
            return Ok(run);
        }
        if self.book.done {
            let mut run = gpu::run_header(self.algo, &self.opts, &self.device, &self.graph, self.source);
            run.iterations = self.book.iteration;
            run.reached = self.book.reached;
            return Ok(run);
        }
        guarded(|| self.run_fast(cancel, progress))?
    }
}
