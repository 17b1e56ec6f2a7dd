//! Edge-parallel Bellman-Ford on wgpu ([seed002]; kernels in `kernels/bellman_ford.wgsl`, the
//! twin of the CUDA stepper `src/device/cuda/bellman_ford.rs`; design in
//! `docs/gpu-bellman-ford.md`).
//!
//! The edge list ([`crate::algo::edge_list`]) is uploaded as three storage buffers (each must
//! fit one binding: larger graphs are refused); δ and δ_prev are i32. A pass is three
//! dispatches (relax, commit, advance) in one compute pass; its counts land in a log entry.
//! `step` runs one pass, copies δ back (host clock) and books it on the host ([`PassBook`]):
//! the CPU stepper's records and deltas. `run_to_end` (not instrumented) submits batches of
//! passes (1, 2, 4 … [`BATCH_MAX`]) and reads back the batch's log only; its records carry the
//! counts but no thread counts or times. `ro-cache` has no effect here.

use super::Gpu;
use crate::algo::{Algorithm, PassBook, PassTally, PhaseTimes, RunRecord, SolveError, SolveOptions, Step, Stepper};
use crate::device::gpu::{self, BellmanFordRun};
use crate::graph::{Distance, Graph, INF, VertexId};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use wgpu::util::DeviceExt;

const SOURCE: &str = include_str!("../../../kernels/bellman_ford.wgsl");
/// u32 words per pass in the log (LOG_WORDS in the kernel) and the fields used.
const LOG_WORDS: usize = 8;
const LOWERED: usize = 0;
const FRESH: usize = 1;
const NEGATIVE: usize = 2;
const LOWERED_ARCS: usize = 3;
const FRESH_ARCS: usize = 4;
/// Most passes per submission of the fast path.
const BATCH_MAX: u32 = 64;

fn dev(msg: String) -> SolveError {
    SolveError::Device(msg)
}

/// One dispatch: pipeline, bind group, workgroups in x and y (shared with the Δ-stepping
/// stepper, as are [`grid`], [`readback_buffer`] and [`read`]).
pub(super) struct Kernel {
    pipeline: wgpu::ComputePipeline,
    group: wgpu::BindGroup,
    grid: (u32, u32),
}

impl Kernel {
    /// Pipeline `entry` of `module` with its override `constants`, bound to the `buffers` whose
    /// binding numbers are in `used` (exactly the ones the entry point uses: the layout is
    /// derived from the shader).
    pub(super) fn new(
        d: &wgpu::Device,
        module: &wgpu::ShaderModule,
        entry: &str,
        constants: &[(&str, f64)],
        buffers: &[(u32, &wgpu::Buffer)],
        used: &[u32],
        grid: (u32, u32),
    ) -> Kernel {
        let pipeline = d.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry),
            layout: None,
            module,
            entry_point: Some(entry),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants,
                zero_initialize_workgroup_memory: false,
            },
            cache: None,
        });
        let entries: Vec<wgpu::BindGroupEntry> = buffers
            .iter()
            .filter(|(b, _)| used.contains(b))
            .map(|&(binding, buf)| wgpu::BindGroupEntry { binding, resource: buf.as_entire_binding() })
            .collect();
        let group = d.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(entry),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        Kernel { pipeline, group, grid }
    }

    /// Records the dispatch into `pass`.
    pub(super) fn dispatch(&self, pass: &mut wgpu::ComputePass) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.group, &[]);
        pass.dispatch_workgroups(self.grid.0, self.grid.1, 1);
    }
}

/// The wgpu Bellman-Ford stepper.
pub struct BellmanFordWgpu {
    gpu: Arc<Gpu>,
    graph: Arc<Graph>,
    algo: Algorithm,
    opts: SolveOptions,
    source: VertexId,
    device: String,
    n: usize,
    relax: Kernel,
    commit: Kernel,
    advance: Kernel,
    dist: wgpu::Buffer,
    mark: wgpu::Buffer,
    log: wgpu::Buffer,
    ctl: wgpu::Buffer,
    /// Log entry of the last pass (slot 0 of the next batch).
    last: [u32; LOG_WORDS],
    book: PassBook,
    /// Whether `book` matches the device (false after a fast run).
    host_valid: bool,
}

/// Workgroups for `threads` invocations of `wg`, 2-D beyond `max_dim` per dimension.
pub(super) fn grid(threads: u32, wg: u32, max_dim: u32) -> (u32, u32) {
    let groups = threads.div_ceil(wg).max(1);
    if groups <= max_dim { (groups, 1) } else { (max_dim, groups.div_ceil(max_dim)) }
}

impl BellmanFordWgpu {
    /// Uploads the edge list and δ. Errors ([`SolveError::Device`]): an array larger than one
    /// storage binding, block sizes beyond the adapter, GPU errors.
    pub(super) fn new(
        gpu: Arc<Gpu>,
        graph: Arc<Graph>,
        algo: Algorithm,
        run: BellmanFordRun,
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
                "graph `{}` ({m} arcs) is too large for bellman-ford on {}: an edge array of {biggest} bytes exceeds \
                 the adapter's storage binding ({} bytes); use CUDA or the CPU",
                graph.name, gpu.name, limits.max_storage_buffer_binding_size
            )));
        }
        let edges = crate::algo::edge_list(&graph, run.order);
        let mut init_dist = vec![i32::MAX; n];
        init_dist[source as usize] = 0;
        let mut init_mark = vec![u32::MAX; n];
        init_mark[source as usize] = 0; // the source counts as lowered in pass 0
        let d = &gpu.device;
        let max_dim = limits.max_compute_workgroups_per_dimension;
        let built = gpu.guarded("building the Bellman-Ford stepper", || {
            let storage = wgpu::BufferUsages::STORAGE;
            let copy = wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
            let init = |label: &str, data: &[u8], usage: wgpu::BufferUsages| {
                let contents = if data.is_empty() { &[0u8; 4][..] } else { data };
                d.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
            };
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
                source: wgpu::ShaderSource::Wgsl(SOURCE.into()),
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
            let relax = kernel("bf_relax", rb, &[0, 1, 2, 3, 4, 5, 6, 7, 8], grid(m as u32, rb, max_dim));
            let commit = kernel("bf_commit", cb, &[0, 4, 5, 6, 7, 8, 9], grid(n as u32, cb, max_dim));
            let advance = kernel("bf_advance", 1, &[8], (1, 1));
            (relax, commit, advance, dist, mark, log, ctl)
        })?;
        let (relax, commit, advance, dist, mark, log, ctl) = built;
        let mut last = [0u32; LOG_WORDS];
        last[LOWERED] = 1; // pass 1 runs
        Ok(BellmanFordWgpu {
            device: format!("{} · i32 δ (bellman-ford) · host wall-clock timing", gpu.name),
            book: PassBook::new(Arc::clone(&graph), source, run.frontier_only, run.order),
            host_valid: true,
            last,
            n,
            relax,
            commit,
            advance,
            dist,
            mark,
            log,
            ctl,
            algo,
            opts: opts.clone(),
            source,
            graph,
            gpu,
        })
    }

    /// Runs passes `first..first + count` in one submission and returns their log entries.
    fn run_passes(&mut self, first: u32, count: u32) -> Result<Vec<[u32; LOG_WORDS]>, SolveError> {
        let mut words = vec![0u32; LOG_WORDS * (count as usize + 1)];
        words[..LOG_WORDS].copy_from_slice(&self.last);
        let bytes = 4 * words.len() as u64;
        let gpu = Arc::clone(&self.gpu);
        let readback = gpu.guarded("queueing Bellman-Ford passes", || {
            gpu.queue.write_buffer(&self.log, 0, bytemuck::cast_slice(&words));
            gpu.queue.write_buffer(&self.ctl, 0, bytemuck::cast_slice(&[first, 1u32, 0, 0]));
            let mut enc = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("bf") });
            {
                let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("bf passes"),
                    timestamp_writes: None,
                });
                for _ in 0..count {
                    for k in [&self.relax, &self.commit, &self.advance] {
                        k.dispatch(&mut pass);
                    }
                }
            }
            let rb = readback_buffer(&gpu, bytes);
            enc.copy_buffer_to_buffer(&self.log, 0, &rb, 0, Some(bytes));
            let index = gpu.queue.submit([enc.finish()]);
            (rb, index)
        })?;
        let raw = read(&gpu, &readback.0, bytes, readback.1, "reading the pass log")?;
        let words: &[u32] = bytemuck::cast_slice(&raw);
        Ok(words[LOG_WORDS..].chunks_exact(LOG_WORDS).map(|c| std::array::from_fn(|i| c[i])).collect())
    }

    /// Copies a device buffer of n words back.
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

    fn copy_dist(&self) -> Result<Vec<Distance>, SolveError> {
        let words = self.copy_words(&self.dist, "copying δ from the GPU")?;
        Ok(words.into_iter().map(|w| if w as i32 == i32::MAX { INF } else { Distance::from(w as i32) }).collect())
    }

    fn ensure_host(&mut self) -> Result<(), SolveError> {
        if self.host_valid {
            return Ok(());
        }
        let dist = self.copy_dist()?;
        let mark = self.copy_words(&self.mark, "copying the marks from the GPU")?;
        self.book.resync(self.book.iteration, dist, &mark);
        self.host_valid = true;
        Ok(())
    }

    fn negative_cycle(&mut self) -> SolveError {
        self.book.done = true;
        crate::algo::negative_cycle_error(&self.graph, self.source)
    }

    fn run_fast(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        self.ensure_host()?;
        let begin = Instant::now();
        let mut run = gpu::run_header(self.algo, &self.opts, &self.device, &self.graph, self.source);
        let mut tally = PassTally::from_book(&self.book);
        let n = self.n as u32;
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
            for (j, e) in self.run_passes(first, count)?.into_iter().enumerate() {
                let pass = first + j as u32;
                if e[NEGATIVE] != 0 || (e[LOWERED] != 0 && pass >= n) {
                    return Err(self.negative_cycle());
                }
                let (lowered, fresh) = (e[LOWERED].into(), e[FRESH].into());
                run.records.push(tally.record(pass, lowered, e[LOWERED_ARCS].into(), fresh, e[FRESH_ARCS].into()));
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

pub(super) fn readback_buffer(gpu: &Gpu, bytes: u64) -> wgpu::Buffer {
    gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("bf readback"),
        size: bytes.next_multiple_of(4),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Maps `buffer[0..size]` after submission `index` and copies the bytes out.
pub(super) fn read(
    gpu: &Gpu,
    buffer: &wgpu::Buffer,
    size: u64,
    index: wgpu::SubmissionIndex,
    what: &str,
) -> Result<Vec<u8>, SolveError> {
    let result: Arc<Mutex<Option<Result<(), wgpu::BufferAsyncError>>>> = Arc::new(Mutex::new(None));
    let r2 = Arc::clone(&result);
    let slice = buffer.slice(0..size);
    gpu.guarded(what, || {
        slice.map_async(wgpu::MapMode::Read, move |r| {
            if let Ok(mut slot) = r2.lock() {
                *slot = Some(r);
            }
        })
    })?;
    gpu.wait(index, what)?;
    let mut mapped = result.lock().ok().and_then(|mut r| r.take());
    for _ in 0..10_000 {
        if mapped.is_some() {
            break;
        }
        gpu.poll_once(what)?;
        mapped = result.lock().ok().and_then(|mut r| r.take());
    }
    match mapped {
        Some(Ok(())) => {}
        Some(Err(e)) => return Err(dev(format!("{}: {what}: mapping failed: {e}", gpu.name))),
        None => return Err(dev(format!("{}: {what}: mapping did not finish", gpu.name))),
    }
    let bytes = slice.get_mapped_range().map_err(|e| dev(format!("{}: {what}: mapped range: {e}", gpu.name)))?.to_vec();
    buffer.unmap();
    Ok(bytes)
}

impl Stepper for BellmanFordWgpu {
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
        if self.book.done {
            return Ok(None);
        }
        self.ensure_host()?;
        let start = self.book.start();
        let threads = self.book.threads(self.opts.block.relax);
        let t0 = Instant::now();
        let entry = self.run_passes(start.pass, 1)?[0];
        let relax_ms = t0.elapsed().as_secs_f64() * 1e3;
        if entry[NEGATIVE] != 0 {
            return Err(self.negative_cycle());
        }
        let t1 = Instant::now();
        let new = self.copy_dist()?;
        let times = PhaseTimes { relax_ms, copy_ms: t1.elapsed().as_secs_f64() * 1e3, ..Default::default() };
        self.last = entry;
        let (record, delta) = self.book.finish_from(start, &new, Some(threads), times)?;
        Ok(Some(Step { record, delta: self.opts.record_deltas.then_some(delta) }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        if self.host_valid {
            return Ok(self.book.prev.clone());
        }
        self.copy_dist()
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
        self.run_fast(cancel, progress)
    }
}
