//! The CUDA backend of PHAST's sweep (`[phast]` Delling, Goldberg, Nowatzyk, Werneck, IPDPS 2011
//! §4; kernels `kernels/phast.cu`, compiled by NVRTC on first use; the driver, with the launch
//! plan, is [`crate::device::driver::sweep::Sweep`]).
//!
//! The hierarchy's sweep arrays ([`sweep::device_arrays`]) are uploaded once when the stepper is
//! built; δ is n u32 words by sweep position. A run queues on the backend's stream the upload of
//! the upward search's pairs, `phast_fill` and `phast_scatter` (the reset), then one
//! `phast_levels` launch per entry of the plan, and synchronises once; events around the upload
//! and the kernels give its GPU time (the driver's `relax_ms`; `total_ms` is the host's clock).

use super::kernels::Gpu;
use super::stream::{apply_cache, cfg, check_memory, elapsed_ms, event};
use super::{dev_err, guarded};
use crate::algo::phast::hierarchy;
use crate::algo::{SolveError, SolveOptions, Stepper};
use crate::device::driver::sweep::{self, Launch, PAIRS_MIN, Sweep, SweepBackend};
use crate::device::gpu::{Build, GpuRun, SweepRun};
use crate::graph::Graph;
use cudarc::driver::{CudaFunction, CudaSlice, CudaStream, PushKernelArg};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

const SRC: &str = include_str!("../../../kernels/phast.cu");
/// The entry points of `kernels/phast.cu`, in the order [`kernels`] returns them.
const NAMES: [&str; 3] = ["phast_fill", "phast_scatter", "phast_levels"];

/// Device bytes of a sweep on `graph`, estimated before the hierarchy exists (the family's
/// `cuda_bytes`): δ, offsets and level starts (12 B a vertex) and the downward arcs (8 B each),
/// taken as 2m — a road network's hierarchy adds about as many shortcuts as it has arcs, and
/// about half of all its arcs go down. The builder checks the free memory against the built
/// hierarchy's exact size ([`sweep::device_bytes`]).
pub fn device_bytes(graph: &Graph) -> u64 {
    let (n, m) = (graph.n() as u64, graph.m() as u64);
    12 * (n + 1) + 16 * m + 8 * PAIRS_MIN as u64
}

/// The compiled kernels of device `ordinal` (fill, scatter, levels); compiled once.
fn kernels(gpu: &Gpu) -> Result<[CudaFunction; 3], SolveError> {
    static CACHE: Mutex<Vec<(u32, [CudaFunction; 3])>> = Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, f)) = cache.iter().find(|(o, _)| *o == gpu.ordinal) {
        return Ok(f.clone());
    }
    let f: [CudaFunction; 3] = gpu
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
    levels: CudaFunction,
    block: u32,
    n: u32,
    level_start: CudaSlice<u32>,
    in_offsets: CudaSlice<u32>,
    in_tails: CudaSlice<u32>,
    in_weights: CudaSlice<u32>,
    dist: CudaSlice<u32>,
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
    let [fill, scatter, levels] = kernels(&gpu)?;
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
    let pairs = alloc(2 * PAIRS_MIN, "the upward search's pairs")?;
    stream.synchronize().map_err(dev_err("uploading the hierarchy failed"))?;
    let device = format!(
        "CUDA: {} (cuda:{}; {})",
        gpu.name,
        gpu.ordinal,
        sweep::describe(&h, &arrays, run, sweep::SOLO_PER_THREAD)
    );
    let backend = SweepCuda {
        _gpu: gpu,
        stream,
        opts: b.opts.clone(),
        fill,
        scatter,
        levels,
        block: run.block,
        n: n as u32,
        level_start,
        in_offsets,
        in_tails,
        in_weights,
        dist,
        pairs,
    };
    Ok(Box::new(Sweep::new(backend, h, run, b.ident(device))))
}

impl SweepCuda {
    /// Uploads `words` (pairs) and queues the fill and the scatter.
    fn reset(&mut self, words: &[u32]) -> Result<(), SolveError> {
        let count = (words.len() / 2) as u32;
        if words.len() > self.pairs.len() {
            let cap = words.len().next_power_of_two();
            self.pairs =
                self.stream.alloc_zeros::<u32>(cap).map_err(dev_err("cannot allocate the upward search's pairs"))?;
        }
        if count > 0 {
            let mut dst = self.pairs.slice_mut(..2 * count as usize);
            self.stream
                .memcpy_htod(&words[..2 * count as usize], &mut dst)
                .map_err(dev_err("cannot upload the upward search"))?;
        }
        let b = self.block;
        let mut l = self.stream.launch_builder(&self.fill);
        l.arg(&self.n).arg(&self.dist);
        // SAFETY: matches phast_fill(u32 n, u32 *dist); dist holds max(n, 1) words; grid-stride.
        unsafe { l.launch(cfg(self.n.div_ceil(b), b)) }.map_err(dev_err("phast fill launch failed"))?;
        if count > 0 {
            let mut l = self.stream.launch_builder(&self.scatter);
            l.arg(&self.pairs).arg(&count).arg(&self.dist);
            // SAFETY: matches phast_scatter(const u32 *pairs, u32 count, u32 *dist); pairs holds
            // 2 count words whose positions are < n; grid-stride.
            unsafe { l.launch(cfg(count.div_ceil(b), b)) }.map_err(dev_err("phast scatter launch failed"))?;
        }
        Ok(())
    }

    /// Queues one launch of the plan.
    fn launch(&self, x: &Launch) -> Result<(), SolveError> {
        let mut l = self.stream.launch_builder(&self.levels);
        l.arg(&self.level_start).arg(&self.in_offsets).arg(&self.in_tails).arg(&self.in_weights).arg(&self.dist);
        l.arg(&x.first).arg(&x.last);
        // SAFETY: matches phast_levels(level_start, in_offsets, in_tails, in_weights, dist, first,
        // last): level_start has levels + 1 words and last < levels (the plan's), in_offsets n + 1,
        // the tails positions < n; a launch of several levels has one block (its barrier is then
        // the whole launch's); grid-stride over each level.
        unsafe { l.launch(cfg(x.blocks, self.block)) }.map_err(dev_err("phast_levels launch failed"))?;
        Ok(())
    }

    fn run_queued(
        &mut self,
        reset: Option<&[u32]>,
        launches: &[Launch],
        cancel: &AtomicBool,
    ) -> Result<Option<f64>, SolveError> {
        let e0 = event(&self.stream)?;
        if let Some(words) = reset {
            self.reset(words)?;
        }
        for x in launches {
            if cancel.load(Ordering::Relaxed) {
                self.stream.synchronize().map_err(dev_err("the PHAST sweep on the GPU failed"))?;
                return Err(SolveError::Cancelled);
            }
            self.launch(x)?;
        }
        let e1 = event(&self.stream)?;
        self.stream.synchronize().map_err(dev_err("the PHAST sweep on the GPU failed"))?;
        Ok(Some(elapsed_ms(&e0, &e1)?))
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
}
