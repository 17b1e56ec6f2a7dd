//! The CUDA backend of PHAST's sweep (`[phast]` Delling, Goldberg, Nowatzyk, Werneck, IPDPS 2011
//! §4; kernels `kernels/phast.cu`, compiled by NVRTC on first use; the driver, with the launch
//! plan, is [`crate::device::driver::sweep::Sweep`]).
//!
//! The hierarchy's sweep arrays ([`sweep::device_arrays`]) are uploaded once when the stepper is
//! built; δ is n u32 words by sweep position. A run queues on the backend's stream `phast_fill`
//! and `phast_scatter` (the reset: the upward search's pairs in the scatter's parameters, or
//! uploaded first when there are too many), then one launch per entry of the plan, and
//! synchronises once; events around the reset and the kernels give its GPU time (the driver's
//! `relax_ms`; `total_ms` is the host's clock). A fast run of several launches goes as one CUDA
//! graph captured before the timing, the reset included: each run only sets the scatter node's
//! arguments to its search (`cuGraphExecKernelNodeSetParams`) and launches the graph.

use super::kernels::Gpu;
use super::stream::{apply_cache, cfg, check_memory, elapsed_ms, event};
use super::{dev_err, guarded};
use crate::algo::phast::hierarchy;
use crate::algo::{SolveError, SolveOptions, Stepper};
use crate::device::driver::sweep::{self, Launch, PAIRS_MIN, Stage, Sweep, SweepBackend};
use crate::device::gpu::{Build, GpuRun, SweepRun};
use crate::graph::Graph;
use cudarc::driver::sys::{self, CUgraphInstantiate_flags, CUstreamCaptureMode};
use cudarc::driver::{
    CudaEvent, CudaFunction, CudaGraph, CudaSlice, CudaStream, DeviceRepr, LaunchConfig, PushKernelArg,
};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

const SRC: &str = include_str!("../../../kernels/phast.cu");
/// The entry points of `kernels/phast.cu`, in the order [`kernels`] returns them.
const NAMES: [&str; 5] = ["phast_fill", "phast_scatter", "phast_levels", "phast_staged", "phast_scatter_inline"];
/// Threads of the staged block (the most a block holds on every CUDA device since Fermi).
const STAGE_THREADS: u32 = 1024;

/// Device bytes of a sweep on `graph`, estimated before the hierarchy exists (the family's
/// `cuda_bytes`): δ, offsets and level starts (12 B a vertex) and the downward arcs (8 B each),
/// taken as 2m — a road network's hierarchy adds about as many shortcuts as it has arcs, and
/// about half of all its arcs go down. The builder checks the free memory against the built
/// hierarchy's exact size ([`sweep::device_bytes`]).
pub fn device_bytes(graph: &Graph) -> u64 {
    let (n, m) = (graph.n() as u64, graph.m() as u64);
    12 * (n + 1) + 16 * m + 8 * PAIRS_MIN as u64
}

/// The compiled kernels of device `ordinal` (fill, scatter, levels, staged, inline scatter);
/// compiled once.
fn kernels(gpu: &Gpu) -> Result<[CudaFunction; 5], SolveError> {
    static CACHE: Mutex<Vec<(u32, [CudaFunction; 5])>> = Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, f)) = cache.iter().find(|(o, _)| *o == gpu.ordinal) {
        return Ok(f.clone());
    }
    let f: [CudaFunction; 5] = gpu
        .compile_file("phast.cu", SRC, &NAMES)?
        .try_into()
        .map_err(|_| SolveError::Device("kernels/phast.cu: an entry point is missing".into()))?;
    cache.push((gpu.ordinal, f.clone()));
    Ok(f)
}

/// The sweep family's CUDA builder (`GpuFamily::cuda`).
pub(in crate::device) fn build_sweep(b: Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let GpuRun::Sweep(run) = b.run else { return Err(b.mismatch("sweep")) };
    let gpu = super::kernels::gpu(b.index)?;
    guarded(|| new_stepper(gpu, run, &b))?
}

/// Buffers and kernels of one sweep on a CUDA device.
struct SweepCuda {
    /// Keeps the device (and its compiled module) alive as long as the stepper.
    _gpu: Arc<Gpu>,
    stream: Arc<CudaStream>,
    opts: SolveOptions,
    fill: CudaFunction,
    scatter: CudaFunction,
    scatter_inline: CudaFunction,
    levels: CudaFunction,
    staged: CudaFunction,
    /// The staged launch's room (none when `top=global` or the device's shared memory is small).
    stage: Stage,
    block: u32,
    n: u32,
    /// The level starts and in-arc offsets as uploaded, on the host: they size a staged launch's
    /// shared memory ([`sweep::staged_bytes`]).
    level_start_host: Vec<u32>,
    in_offsets_host: Vec<u32>,
    /// `SSSP_PHAST_PROFILE` set: an event after every launch, their times printed to stderr (and
    /// no graph).
    profile: bool,
    /// The CUDA graph of the last plan of several launches, that plan, and whether the graph
    /// starts with the reset (`SSSP_PHAST_GRAPH=0`: none, each launch queued on its own).
    graph: Option<(Vec<Launch>, bool, SweepGraph)>,
    graphs: bool,
    /// The scatter's node was not found in a captured graph once: graphs hold the plan alone.
    reset_ungraphable: bool,
    level_start: CudaSlice<u32>,
    in_offsets: CudaSlice<u32>,
    in_tails: CudaSlice<u32>,
    in_weights: CudaSlice<u32>,
    dist: CudaSlice<u32>,
    /// δ's device address: the argument of a graphed scatter's parameters, set each run.
    dist_ptr: u64,
    /// The upward search's (position, distance) pairs, 2 words each; grows when a search finds
    /// more than it holds.
    pairs: CudaSlice<u32>,
}

/// Builds (or finds) the hierarchy, uploads its sweep arrays and returns the driver. Errors
/// ([`SolveError::Device`]; the hierarchy's own as it gives them): too little device memory,
/// NVRTC, upload failures.
fn new_stepper(gpu: Arc<Gpu>, run: SweepRun, b: &Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let graph = &b.graph;
    let h = hierarchy(graph)?;
    let arrays = sweep::device_arrays(&h);
    let n = graph.n();
    check_memory(&gpu, graph, sweep::device_bytes(&arrays, n), "phast")?;
    let [fill, scatter, levels, staged, scatter_inline] = kernels(&gpu)?;
    let stage = if run.staged { stage_room(&gpu, &staged)? } else { Stage::default() };
    let stream = gpu.ctx.new_stream().map_err(dev_err("cannot create a CUDA stream"))?;
    let up = |v: &[u32], what: &str| {
        let v = if v.is_empty() { &[0u32][..] } else { v };
        stream.clone_htod(v).map_err(dev_err(&format!("cannot upload the {what}")))
    };
    let level_start = up(&arrays.level_start, "level starts")?;
    let in_offsets = up(&arrays.in_offsets, "in-arc offsets")?;
    let in_tails = up(&arrays.in_tails, "in-arc tails")?;
    let in_weights = up(&arrays.in_weights, "in-arc weights")?;
    let alloc = |words: usize, what: &str| {
        stream.alloc_zeros::<u32>(words.max(1)).map_err(dev_err(&format!("cannot allocate {what}")))
    };
    let dist = alloc(n, "δ")?;
    let dist_ptr = {
        use cudarc::driver::DevicePtr;
        dist.device_ptr(&stream).0
    };
    let pairs = alloc(2 * PAIRS_MIN, "the upward search's pairs")?;
    stream.synchronize().map_err(dev_err("uploading the hierarchy failed"))?;
    let device = format!(
        "CUDA: {} (cuda:{}; {})",
        gpu.name,
        gpu.ordinal,
        sweep::describe(&h, &arrays, run, sweep::SOLO_PER_THREAD, stage)
    );
    let backend = SweepCuda {
        _gpu: gpu,
        stream,
        opts: b.opts.clone(),
        fill,
        scatter,
        scatter_inline,
        levels,
        staged,
        stage,
        block: run.block,
        n: n as u32,
        level_start_host: arrays.level_start.clone(),
        in_offsets_host: arrays.in_offsets.clone(),
        profile: std::env::var_os("SSSP_PHAST_PROFILE").is_some(),
        graph: None,
        graphs: std::env::var("SSSP_PHAST_GRAPH").map_or(true, |v| v.trim() != "0"),
        reset_ungraphable: std::env::var("SSSP_PHAST_GRAPH_RESET").is_ok_and(|v| v.trim() == "0"),
        level_start,
        in_offsets,
        in_tails,
        in_weights,
        dist,
        dist_ptr,
        pairs,
    };
    Ok(Box::new(Sweep::new(backend, h, run, b.ident(device))))
}

/// Words of `phast_scatter_inline`'s by-value pairs (`PHAST_INLINE_WORDS` in kernels/phast.cu).
const INLINE_WORDS: usize = 960;

/// The upward search's pairs as `phast_scatter_inline`'s parameter (`PhastPairs`).
#[repr(C)]
struct InlinePairs([u32; INLINE_WORDS]);

// SAFETY: a plain array of u32, laid out as the kernel's `struct PhastPairs { u32 w[960]; }`.
unsafe impl DeviceRepr for InlinePairs {}

/// A captured sweep: the CUDA graph and, where it starts with the reset, the scatter's node with
/// its captured launch parameters (each run sets the node's arguments to its upward search).
/// Owned by one [`SweepCuda`] and used only through its `&mut self`, so never from two threads at
/// once.
struct SweepGraph {
    graph: CudaGraph,
    scatter: Option<(sys::CUgraphNode, sys::CUDA_KERNEL_NODE_PARAMS)>,
}

// SAFETY: CUDA graphs are not internally synchronised and must not be used from two threads
// concurrently ("Graph object thread safety" in the CUDA driver API docs); moving one between
// threads is allowed. The graph (and its node handle, and the captured parameters' pointers into
// it) is reached only through the stepper that owns it, which the app moves to a worker thread and
// uses from one thread at a time (`&mut self`).
unsafe impl Send for SweepGraph {}

/// The staged launch's room on `gpu`: the shared memory a block may opt into, less the kernel's
/// static array, for δ and the run's arcs, on [`STAGE_THREADS`] threads (fewer where the kernel's
/// registers allow fewer). Raises the kernel's dynamic shared-memory limit to that room.
fn stage_room(gpu: &Gpu, staged: &CudaFunction) -> Result<Stage, SolveError> {
    use cudarc::driver::sys::{CUdevice_attribute, CUfunction_attribute_enum};
    let optin = gpu
        .ctx
        .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
        .map_err(dev_err("cannot read the shared memory a block may use"))?;
    let fixed = staged.shared_size_bytes().map_err(dev_err("cannot read phast_staged's shared memory"))?;
    let threads = staged.max_threads_per_block().map_err(dev_err("cannot read phast_staged's block limit"))?;
    let room = (optin - fixed).max(0);
    staged
        .set_attribute(CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, room)
        .map_err(dev_err("cannot raise phast_staged's shared memory"))?;
    // Whole warps: the kernel's shuffles take every lane of a warp.
    let threads = (threads.max(0) as u32).min(STAGE_THREADS) & !31;
    if threads == 0 {
        return Ok(Stage::default());
    }
    Ok(Stage { bytes: room as u32 & !3, threads, arcs: true })
}

/// The kernel node of `graph` that launches `func` and its parameters, or `None` (none, or the
/// driver would not say).
fn kernel_node(graph: &CudaGraph, func: sys::CUfunction) -> Option<(sys::CUgraphNode, sys::CUDA_KERNEL_NODE_PARAMS)> {
    let g = graph.cu_graph();
    let mut count = 0usize;
    // SAFETY: g is the captured graph, alive while `graph` is; the first call asks for the count
    // (null array), the second fills `count` handles.
    unsafe { sys::cuGraphGetNodes(g, std::ptr::null_mut(), &mut count) }.result().ok()?;
    let mut nodes = vec![std::ptr::null_mut(); count];
    unsafe { sys::cuGraphGetNodes(g, nodes.as_mut_ptr(), &mut count) }.result().ok()?;
    nodes.truncate(count);
    nodes.into_iter().find_map(|node| {
        let mut ty = std::mem::MaybeUninit::uninit();
        // SAFETY: node is one of g's nodes; the type is written on success.
        unsafe { sys::cuGraphNodeGetType(node, ty.as_mut_ptr()) }.result().ok()?;
        if unsafe { ty.assume_init() } != sys::CUgraphNodeType::CU_GRAPH_NODE_TYPE_KERNEL {
            return None;
        }
        let mut p = std::mem::MaybeUninit::<sys::CUDA_KERNEL_NODE_PARAMS>::zeroed();
        // SAFETY: a kernel node; the parameters (v2 layout, as the type is for CUDA ≥ 12) are
        // written on success.
        unsafe { sys::cuGraphKernelNodeGetParams_v2(node, p.as_mut_ptr()) }.result().ok()?;
        let p = unsafe { p.assume_init() };
        (p.func == func).then_some((node, p))
    })
}

impl SweepCuda {
    /// Uploads `words` (pairs) and queues the fill and the scatter: the pairs in the scatter's
    /// parameters where they fit ([`INLINE_WORDS`]), else copied to the device first.
    fn reset(&mut self, words: &[u32]) -> Result<(), SolveError> {
        let count = (words.len() / 2) as u32;
        let b = self.block;
        self.fill()?;
        if count == 0 {
            return Ok(());
        }
        if words.len() <= INLINE_WORDS {
            return self.scatter_inline(words);
        }
        if words.len() > self.pairs.len() {
            let cap = words.len().next_power_of_two();
            self.pairs =
                self.stream.alloc_zeros::<u32>(cap).map_err(dev_err("cannot allocate the upward search's pairs"))?;
        }
        let mut dst = self.pairs.slice_mut(..2 * count as usize);
        self.stream
            .memcpy_htod(&words[..2 * count as usize], &mut dst)
            .map_err(dev_err("cannot upload the upward search"))?;
        let mut l = self.stream.launch_builder(&self.scatter);
        l.arg(&self.pairs).arg(&count).arg(&self.dist);
        // SAFETY: matches phast_scatter(const u32 *pairs, u32 count, u32 *dist); pairs holds
        // 2 count words whose positions are < n; grid-stride.
        unsafe { l.launch(cfg(count.div_ceil(b), b)) }.map_err(dev_err("phast scatter launch failed"))?;
        Ok(())
    }

    /// Queues δ ← ∞ everywhere.
    fn fill(&self) -> Result<(), SolveError> {
        let b = self.block;
        let mut l = self.stream.launch_builder(&self.fill);
        l.arg(&self.n).arg(&self.dist);
        // SAFETY: matches phast_fill(u32 n, u32 *dist); dist holds max(n, 1) words; grid-stride.
        unsafe { l.launch(cfg(self.n.div_ceil(b), b)) }.map_err(dev_err("phast fill launch failed"))?;
        Ok(())
    }

    /// Queues the scatter of `words` (at most [`INLINE_WORDS`]) passed in its parameters.
    fn scatter_inline(&self, words: &[u32]) -> Result<(), SolveError> {
        let count = (words.len() / 2) as u32;
        let b = self.block;
        let mut inline = InlinePairs([0; INLINE_WORDS]);
        inline.0[..words.len()].copy_from_slice(words);
        let mut l = self.stream.launch_builder(&self.scatter_inline);
        l.arg(&inline).arg(&count).arg(&self.dist);
        // SAFETY: matches phast_scatter_inline(PhastPairs pairs, u32 count, u32 *dist): the
        // struct is INLINE_WORDS u32 by value (copied at launch), count ≤ INLINE_WORDS / 2
        // pairs whose positions are < n; grid-stride.
        unsafe { l.launch(cfg(count.div_ceil(b), b)) }.map_err(dev_err("phast scatter launch failed"))?;
        Ok(())
    }

    /// Sets the graph's scatter node to `words` (at most [`INLINE_WORDS`]): the arguments of
    /// `phast_scatter_inline` as [`Self::scatter_inline`] passes them, copied by the driver.
    fn set_scatter(&self, words: &[u32]) -> Result<(), SolveError> {
        let Some((_, _, SweepGraph { graph, scatter: Some((node, base)) })) = &self.graph else {
            return Err(SolveError::Device("the PHAST sweep's CUDA graph has no scatter".into()));
        };
        let mut inline = InlinePairs([0; INLINE_WORDS]);
        inline.0[..words.len()].copy_from_slice(words);
        let mut count = (words.len() / 2) as u32;
        let mut dist = self.dist_ptr;
        let mut args: [*mut std::ffi::c_void; 3] =
            [(&raw mut inline).cast(), (&raw mut count).cast(), (&raw mut dist).cast()];
        let mut p = *base;
        p.gridDimX = count.div_ceil(self.block).max(1);
        p.kernelParams = args.as_mut_ptr();
        p.extra = std::ptr::null_mut();
        self._gpu.ctx.bind_to_thread().map_err(dev_err("cannot bind the CUDA context"))?;
        // SAFETY: the node is the graph's phast_scatter_inline (found by its function after the
        // capture), p its captured parameters with the grid and the three arguments replaced: the
        // arguments point to values of the kernel's types (PhastPairs by value, u32, u32 *) that
        // live until the call returns, which copies them; no run of the graph is in flight (every
        // run waits for its end).
        unsafe { sys::cuGraphExecKernelNodeSetParams_v2(graph.cu_graph_exec(), *node, &p) }
            .result()
            .map_err(dev_err("cannot set the PHAST graph's upward search"))
    }

    /// Queues one launch of the plan.
    fn launch(&self, x: &Launch) -> Result<(), SolveError> {
        if x.staged {
            let bytes = sweep::staged_bytes(&self.level_start_host, &self.in_offsets_host, x.first, x.last, true);
            let mut l = self.stream.launch_builder(&self.staged);
            l.arg(&self.level_start).arg(&self.in_offsets).arg(&self.in_tails).arg(&self.in_weights).arg(&self.dist);
            l.arg(&x.first).arg(&x.last);
            let c = LaunchConfig {
                grid_dim: (1, 1, 1),
                block_dim: (self.stage.threads, 1, 1),
                shared_mem_bytes: bytes as u32,
            };
            // SAFETY: matches phast_staged(level_start, in_offsets, in_tails, in_weights, dist,
            // first, last): the plan keeps last − first < STAGE_LEVELS (the kernel's static array),
            // level_start[last + 1] ≤ 2¹⁶ (its 16-bit tails) and the run's staged_bytes (computed
            // here from the uploaded offsets, which hold no more arcs than the hierarchy's the plan
            // used) within the limit stage_room raised; the kernel lays out exactly those bytes.
            // Every tail of those levels lies in an earlier level (the hierarchy's invariant,
            // tests/phast), so below level_start[last + 1].
            unsafe { l.launch(c) }.map_err(dev_err("phast_staged launch failed"))?;
            return Ok(());
        }
        let mut l = self.stream.launch_builder(&self.levels);
        l.arg(&self.level_start).arg(&self.in_offsets).arg(&self.in_tails).arg(&self.in_weights).arg(&self.dist);
        let (lo, hi) = (self.level_start_host[x.first as usize], self.level_start_host[x.first as usize + 1]);
        l.arg(&x.first).arg(&x.last).arg(&lo).arg(&hi);
        // SAFETY: matches phast_levels(level_start, in_offsets, in_tails, in_weights, dist, first,
        // last, first_lo, first_hi): level_start has levels + 1 words and last < levels (the
        // plan's), first_lo..first_hi are level first's positions, in_offsets n + 1,
        // the tails positions < n; a launch of several levels has one block (its barrier is then
        // the whole launch's); grid-stride over each level.
        unsafe { l.launch(cfg(x.blocks, self.block)) }.map_err(dev_err("phast_levels launch failed"))?;
        Ok(())
    }

    /// Whether `launches` run as a CUDA graph: a plan of several launches, unless
    /// `SSSP_PHAST_GRAPH=0` or the profile (which times each launch) is on.
    fn graphed(&self, launches: &[Launch]) -> bool {
        self.graphs && !self.profile && launches.len() > 1
    }

    /// The plan `launches` captured once as a CUDA graph (kept for the next run of the same plan),
    /// after the reset (the fill and the scatter) where `reset`: one graph launch then replaces a
    /// host call per launch, and the GPU runs the kernels back to back instead of waiting for the
    /// host to queue each (a grid level takes a few µs, about what queueing its launch costs the
    /// host). Returns whether the graph holds the reset: not where its scatter node cannot be
    /// found, and then the plan alone is captured.
    fn graph(&mut self, launches: &[Launch], reset: bool) -> Result<bool, SolveError> {
        if let Some((plan, has, _)) = &self.graph
            && plan == launches
            && (*has == reset || !*has && self.reset_ungraphable)
        {
            return Ok(*has);
        }
        self.graph = None;
        let reset = reset && !self.reset_ungraphable;
        let mode = CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
        self.stream.begin_capture(mode).map_err(dev_err("cannot capture the PHAST sweep as a CUDA graph"))?;
        let queued = (|| {
            if reset {
                self.fill()?;
                self.scatter_inline(&[])?;
            }
            launches.iter().try_for_each(|x| self.launch(x))
        })();
        let flags = CUgraphInstantiate_flags(0);
        let ended = self.stream.end_capture(flags).map_err(dev_err("cannot capture the PHAST sweep as a CUDA graph"));
        queued?;
        let graph = ended?.ok_or_else(|| SolveError::Device("the PHAST sweep's CUDA graph is empty".into()))?;
        let scatter = if reset { kernel_node(&graph, self.scatter_inline.cu_function()) } else { None };
        if reset && scatter.is_none() {
            // The plan alone then, with the reset queued before it.
            self.reset_ungraphable = true;
            return self.graph(launches, false);
        }
        graph.upload().map_err(dev_err("cannot upload the PHAST sweep's CUDA graph"))?;
        let has = scatter.is_some();
        self.graph = Some((launches.to_vec(), has, SweepGraph { graph, scatter }));
        Ok(has)
    }

    fn run_queued(
        &mut self,
        reset: Option<&[u32]>,
        launches: &[Launch],
        cancel: &AtomicBool,
    ) -> Result<Option<f64>, SolveError> {
        if self.graphed(launches) {
            if cancel.load(Ordering::Relaxed) {
                return Err(SolveError::Cancelled);
            }
            // Captured before the first event (capturing runs nothing), and already by `ready`
            // for a fast run; a search too large for the scatter's parameters (or a graph without
            // the reset) has its reset queued before the graph.
            let inline = reset.is_some_and(|w| w.len() <= INLINE_WORDS);
            let has_reset = self.graph(launches, inline)?;
            if let Some(words) = reset.filter(|_| has_reset) {
                self.set_scatter(words)?;
            }
            let e0 = event(&self.stream)?;
            if let Some(words) = reset.filter(|_| !has_reset) {
                self.reset(words)?;
            }
            if let Some((_, _, SweepGraph { graph, .. })) = &self.graph {
                graph.launch().map_err(dev_err("the PHAST sweep's CUDA graph did not launch"))?;
            }
            let e1 = event(&self.stream)?;
            self.stream.synchronize().map_err(dev_err("the PHAST sweep on the GPU failed"))?;
            return Ok(Some(elapsed_ms(&e0, &e1)?));
        }
        let e0 = event(&self.stream)?;
        if let Some(words) = reset {
            self.reset(words)?;
        }
        let mut marks = Vec::new();
        for x in launches {
            if cancel.load(Ordering::Relaxed) {
                self.stream.synchronize().map_err(dev_err("the PHAST sweep on the GPU failed"))?;
                return Err(SolveError::Cancelled);
            }
            if self.profile {
                marks.push(event(&self.stream)?);
            }
            self.launch(x)?;
        }
        let e1 = event(&self.stream)?;
        self.stream.synchronize().map_err(dev_err("the PHAST sweep on the GPU failed"))?;
        if self.profile && !marks.is_empty() {
            marks.push(e1);
            self.print_profile(launches, &e0, &marks)?;
            return Ok(Some(elapsed_ms(&e0, &marks[marks.len() - 1])?));
        }
        Ok(Some(elapsed_ms(&e0, &e1)?))
    }

    /// `SSSP_PHAST_PROFILE`: one line per launch (its levels, blocks, kind, GPU µs) on stderr;
    /// `marks[i]` was recorded before launch i, the last after them all.
    fn print_profile(&self, launches: &[Launch], e0: &CudaEvent, marks: &[CudaEvent]) -> Result<(), SolveError> {
        let mut line = format!("phast profile: reset {:.1} µs", 1e3 * elapsed_ms(e0, &marks[0])?);
        for (i, x) in launches.iter().enumerate() {
            let kind = x.kind();
            let us = 1e3 * elapsed_ms(&marks[i], &marks[i + 1])?;
            line += &format!("; {}-{} {kind} {} {us:.1} µs", x.first, x.last, x.blocks);
        }
        eprintln!("{line}");
        Ok(())
    }

    fn read(&self, range: Range<usize>) -> Result<Vec<u32>, SolveError> {
        let mut out = vec![0u32; range.len()];
        if range.is_empty() {
            return Ok(out);
        }
        self.stream
            .memcpy_dtoh(&self.dist.slice(range), &mut out[..])
            .map_err(dev_err("cannot copy δ from the GPU"))?;
        self.stream.synchronize().map_err(dev_err("cannot copy δ from the GPU"))?;
        Ok(out)
    }
}

impl SweepBackend for SweepCuda {
    fn run(
        &mut self,
        reset: Option<&[u32]>,
        launches: &[Launch],
        cancel: &AtomicBool,
    ) -> Result<Option<f64>, SolveError> {
        guarded(|| self.run_queued(reset, launches, cancel))?
    }

    fn read_dist(&mut self, range: Range<usize>) -> Result<Vec<u32>, SolveError> {
        guarded(|| self.read(range))?
    }

    fn prepare(&mut self) -> Result<(), SolveError> {
        guarded(|| apply_cache(&[&self.levels], self.opts.cache))?
    }

    fn stage(&self) -> Stage {
        self.stage
    }

    fn ready(&mut self, launches: &[Launch], reset: bool) -> Result<(), SolveError> {
        if self.graphed(launches) {
            guarded(|| self.graph(launches, reset))??;
        }
        Ok(())
    }
}
