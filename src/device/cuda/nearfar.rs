//! `delta-stepping:worklist=near-far` on CUDA: the persistent near-far worklist solver of issue 30
//! (kernel `kernels/nearfar.cu`; design and the prototype's measurements in
//! `docs/gpu-worklist.md`). Near list and far pile split by a moving threshold T (Davidson,
//! Baxter, Garland, Owens, IPDPS 2014), the whole loop in one cooperative launch with a software
//! grid barrier, small phases run by block 0 alone.
//!
//! One launch runs phases until the solve ends or its phase budget is spent (`nf_resume` sets it):
//! `step` runs one phase per launch, `run_to_end` one launch for the whole solve. Every phase
//! writes one log entry ([`LOG_WORDS`]: kind, solo, near items, hub pieces, far pile, T, arcs,
//! decreases), read after the launch and turned into the bucketed family's records.

use super::kernels::Gpu;
use super::stream::{cfg, check_memory, copy_back, elapsed_ms, event};
use super::{dev_err, guarded};
use crate::algo::{
    IterationRecord, PhaseTimes, RunRecord, SolveError, Step, Stepper, ThreadCounts, Values, dist_value,
};
use crate::device::driver::RunIdent;
use crate::device::gpu::{Build, DeltaRun, GpuRun};
use crate::device::gpu_delta as book;
use crate::graph::{Distance, Graph, INF};
use cudarc::driver::{CudaFunction, CudaSlice, CudaStream, PushKernelArg};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

const SRC: &str = include_str!("../../../kernels/nearfar.cu");
/// u32 words of `struct NfCtl` and the words the host reads (static_asserts in the kernel).
const CTL_WORDS: usize = 44;
const C_KIND: usize = 12;
const C_OVERFLOW: usize = 28;
const C_LOGGED: usize = 34;
/// Words of a phase's log entry and its slots.
const LOG_WORDS: usize = 8;
const L_KIND: usize = 0;
const L_SOLO: usize = 1;
const L_ITEMS: usize = 2;
const L_PIECES: usize = 3;
const L_FAR: usize = 4;
const L_T: usize = 5;
const L_ARCS: usize = 6;
const L_IMPROVED: usize = 7;
const K_SPLIT: u32 = 1;
const K_DONE: u32 = 2;
/// Threads per block (`NF_BLOCK`), arcs per hub piece (`NF_PIECE`).
const BLOCK: u32 = 1024;
const PIECE: u64 = 4096;
/// Most phases one launch logs (8 MB); a longer run keeps the first ones.
const LOG_CAP: u32 = 1 << 18;
/// A phase of at most this many estimated arcs (near list × mean degree) runs in one block; a
/// split of at most `SOLO_FAR` far entries too (the prototype's NY optimum, `docs/gpu-worklist.md`).
const SOLO_WORK: u32 = 32_768;
const SOLO_FAR: u32 = 8_192;

/// Capacities of the piles on `graph`: hub pieces (per buffer), far entries (per buffer).
fn capacities(graph: &Graph) -> (u32, u32) {
    let (n, m) = (graph.n() as u64, graph.m() as u64);
    ((2 * m / PIECE + 1024).min(u32::MAX as u64) as u32, (m + n + 1024).min(0xF000_0000) as u32)
}

/// Device bytes of a near-far run: arcs as (head, weight) pairs, row offsets, δ with its stamp
/// (8 B), two near lists, two piece and two far buffers of 8 B entries, the log.
pub fn device_bytes(graph: &Graph) -> u64 {
    let (n, m) = (graph.n() as u64, graph.m() as u64);
    let (pc, fc) = capacities(graph);
    8 * m + 4 * (n + 1) + 16 * n + 16 * (u64::from(pc) + u64::from(fc)) + 4 * (LOG_WORDS as u64) * u64::from(LOG_CAP)
}

/// Whether the request is `worklist=near-far`.
fn near_far(b: &Build<'_>) -> bool {
    crate::algo::DeltaSteppingParams::decode(&b.opts.params).is_ok_and(|p| p.near_far)
}

/// The bucketed family's CUDA builder: near-far when asked, else the vertex-mark kernels.
pub(in crate::device) fn build_bucketed(b: Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    if !near_far(&b) {
        return super::build_delta_stepping(b);
    }
    let GpuRun::Bucketed(run) = b.run else { return Err(b.mismatch("bucketed")) };
    let gpu = super::kernels::gpu(b.index)?;
    guarded(|| new_stepper(gpu, run, &b))?
}

/// Device bytes of the bucketed family's CUDA run (`GpuFamily::cuda_bytes`).
pub(in crate::device) fn bucketed_bytes(graph: &Graph, opts: &crate::algo::SolveOptions) -> u64 {
    match crate::algo::DeltaSteppingParams::decode(&opts.params) {
        Ok(p) if p.near_far => device_bytes(graph),
        _ => super::delta_stepping_bytes(graph),
    }
}

/// The compiled kernels of device `ordinal`: solve (vertex, balanced) and resume; compiled once.
fn kernels(gpu: &Gpu) -> Result<[CudaFunction; 3], SolveError> {
    static CACHE: Mutex<Vec<(u32, [CudaFunction; 3])>> = Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, f)) = cache.iter().find(|(o, _)| *o == gpu.ordinal) {
        return Ok(f.clone());
    }
    let names = ["nf_solve_vertex", "nf_solve_balanced", "nf_resume"];
    let f: [CudaFunction; 3] = gpu
        .compile_file("nearfar.cu", SRC, &names)?
        .try_into()
        .map_err(|_| SolveError::Device("kernels/nearfar.cu: an entry point is missing".into()))?;
    cache.push((gpu.ordinal, f.clone()));
    Ok(f)
}

/// One near-far run on a CUDA device.
struct NearFarCuda {
    gpu: Arc<Gpu>,
    stream: Arc<CudaStream>,
    id: RunIdent,
    run: DeltaRun,
    solve: CudaFunction,
    resume: CudaFunction,
    grid: u32,
    n: u32,
    /// rowptr, (head, weight) pairs, δ << 32 | stamp.
    off: CudaSlice<u32>,
    arcs: CudaSlice<u32>,
    dist: CudaSlice<u64>,
    /// near lists, hub pieces and far piles (pairs as two u32 words), double-buffered.
    lists: [CudaSlice<u32>; 6],
    ctl: CudaSlice<u32>,
    log: CudaSlice<u32>,
    caps: (u32, u32, u32),
    iteration: u32,
    done: bool,
    /// δ as the host last saw it (the steps' deltas).
    prev: Vec<Distance>,
}

fn new_stepper(gpu: Arc<Gpu>, run: DeltaRun, b: &Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let graph = &b.graph;
    if !gpu.cooperative {
        return Err(SolveError::Device(format!(
            "{}: worklist=near-far needs cooperative launches (one persistent kernel)",
            gpu.name
        )));
    }
    let [vertex, balanced, resume] = kernels(&gpu)?;
    check_memory(&gpu, graph, device_bytes(graph), "delta-stepping:worklist=near-far")?;
    let succ = graph.successors();
    let max_degree = succ.offsets.windows(2).map(|w| w[1].saturating_sub(w[0])).max().unwrap_or(0);
    let bal = max_degree > 32;
    let solve = if bal { balanced } else { vertex };
    let occ = solve
        .occupancy_max_active_blocks_per_multiprocessor(BLOCK, 0, None)
        .map_err(dev_err("cannot compute the occupancy of the near-far kernel"))?;
    if occ == 0 {
        return Err(SolveError::Device("the near-far kernel does not fit a multiprocessor".into()));
    }
    let grid = gpu.multiprocessors * occ;
    let stream = gpu.ctx.new_stream().map_err(dev_err("cannot create a CUDA stream"))?;
    let (n, m) = (graph.n(), graph.m());
    let mut pairs = Vec::with_capacity(2 * m);
    for (&t, &w) in succ.targets.iter().zip(&succ.weights) {
        pairs.push(t);
        pairs.push(w.max(0) as u32);
    }
    let up = |v: &[u32], what: &str| stream.clone_htod(v).map_err(dev_err(&format!("cannot upload the {what}")));
    let off = up(&succ.offsets, "row offsets")?;
    let arcs = up(if pairs.is_empty() { &[0, 0] } else { &pairs }, "arcs")?;
    drop(pairs);
    let (pc, fc) = capacities(graph);
    let hub_deg = if max_degree as u64 > PIECE { PIECE as u32 } else { u32::MAX };
    let alloc = |words: usize, what: &str| {
        stream.alloc_zeros::<u32>(words.max(2)).map_err(dev_err(&format!("cannot allocate the {what}")))
    };
    let lists = [
        alloc(n, "near list")?,
        alloc(n, "near list")?,
        alloc(2 * pc as usize, "hub pieces")?,
        alloc(2 * pc as usize, "hub pieces")?,
        alloc(2 * fc as usize, "far pile")?,
        alloc(2 * fc as usize, "far pile")?,
    ];
    let dist = stream.alloc_zeros::<u64>(n.max(1)).map_err(dev_err("cannot allocate δ"))?;
    let ctl = alloc(CTL_WORDS, "control block")?;
    let log = alloc(LOG_WORDS * LOG_CAP as usize, "phase log")?;
    let device = format!(
        "CUDA: {} (cuda:{}; near-far, one persistent kernel of {grid} × {BLOCK}; u32 δ; Δ = {}; {} relax)",
        gpu.name,
        gpu.ordinal,
        run.delta,
        if bal { "balanced" } else { "vertex" }
    );
    let mut s = NearFarCuda {
        id: b.ident(device),
        gpu,
        stream,
        run,
        solve,
        resume,
        grid,
        n: n as u32,
        off,
        arcs,
        dist,
        lists,
        ctl,
        log,
        caps: (pc, fc, hub_deg),
        iteration: 0,
        done: false,
        prev: Vec::new(),
    };
    s.init(graph, b.source)?;
    Ok(Box::new(s))
}

impl NearFarCuda {
    /// δ = ∞ but the source (δ 0, stamp 1), the source as the first near list (or its hub
    /// pieces), and the control block of phase 1 (a solo relax phase, T = Δ).
    fn init(&mut self, graph: &Graph, source: u32) -> Result<(), SolveError> {
        let n = graph.n();
        let mut dist = vec![u64::from(u32::MAX) << 32; n];
        dist[source as usize] = 1;
        let succ = graph.successors();
        let deg = u64::from(succ.offsets[source as usize + 1] - succ.offsets[source as usize]);
        let mut ctl = [0u32; CTL_WORDS];
        // Word indices of struct NfCtl (kernels/nearfar.cu).
        let (kind, solo, cur, fsel, near0, piece0) = (12, 13, 15, 16, 17, 19);
        let (far_min, far_min_next, t, delta, stamp) = (23, 24, 25, 26, 27);
        let (solo_work, solo_far, avg16, started, rec_items, rec_pieces) = (29, 30, 31, 32, 37, 38);
        ctl[kind] = 0;
        ctl[solo] = 1;
        ctl[cur] = 0;
        ctl[fsel] = 0;
        ctl[far_min] = u32::MAX;
        ctl[far_min_next] = u32::MAX;
        ctl[t] = self.run.delta;
        ctl[delta] = self.run.delta;
        ctl[stamp] = 2;
        ctl[solo_work] = SOLO_WORK;
        ctl[solo_far] = SOLO_FAR;
        ctl[avg16] = if n == 0 { 16 } else { (16 * graph.m() as u64 / n as u64).clamp(16, u32::MAX as u64) as u32 };
        ctl[started] = 1;
        if self.caps.2 != u32::MAX && deg > u64::from(self.caps.2) {
            let b = u64::from(succ.offsets[source as usize]);
            let pieces: Vec<u32> = (0..deg.div_ceil(PIECE)).flat_map(|k| [source, (b + k * PIECE) as u32]).collect();
            ctl[piece0] = (pieces.len() / 2) as u32;
            ctl[rec_pieces] = ctl[piece0];
            let mut dst = self.lists[2].slice_mut(..pieces.len());
            self.stream.memcpy_htod(&pieces, &mut dst).map_err(dev_err("cannot upload the source's pieces"))?;
        } else {
            ctl[near0] = 1;
            ctl[rec_items] = 1;
            let mut dst = self.lists[0].slice_mut(..1);
            self.stream.memcpy_htod(&[source], &mut dst).map_err(dev_err("cannot upload the source"))?;
        }
        self.stream.memcpy_htod(&dist, &mut self.dist).map_err(dev_err("cannot upload the initial δ"))?;
        self.stream.memcpy_htod(&ctl, &mut self.ctl).map_err(dev_err("cannot upload the control block"))?;
        self.stream.synchronize().map_err(dev_err("uploading the graph failed"))?;
        self.prev = vec![INF; n];
        self.prev[source as usize] = 0;
        Ok(())
    }

    /// Runs up to `budget` phases in one launch; returns their log entries and the launch's
    /// milliseconds (events around resume and the solve).
    fn launch(&mut self, budget: u32) -> Result<(Vec<[u32; LOG_WORDS]>, f64), SolveError> {
        let mut slot = self.ctl.slice_mut(C_LOGGED..C_LOGGED + 1);
        self.stream.memcpy_htod(&[0u32], &mut slot).map_err(dev_err("cannot reset the log count"))?;
        let e0 = event(&self.stream)?;
        let mut l = self.stream.launch_builder(&self.resume);
        l.arg(&self.ctl).arg(&budget);
        // SAFETY: matches nf_resume(NfCtl *ctl, u32 count); ctl holds CTL_WORDS words; one thread.
        unsafe { l.launch(cfg(1, 32)) }.map_err(dev_err("near-far resume launch failed"))?;
        let (pc, fc, hub) = self.caps;
        let [near0, near1, p0, p1, f0, f1] = &self.lists;
        let mut l = self.stream.launch_builder(&self.solve);
        l.arg(&self.off).arg(&self.arcs).arg(&self.dist).arg(near0).arg(near1).arg(p0).arg(p1).arg(f0).arg(f1);
        l.arg(&self.ctl).arg(&self.log).arg(&self.n).arg(&pc).arg(&fc).arg(&hub).arg(&LOG_CAP);
        // SAFETY: matches nf_solve_{vertex,balanced}(rowptr, arcs, dist, near0, near1, pieces0,
        // pieces1, far0, far1, ctl, log, n, piece_cap, far_cap, hub_deg, log_cap): near lists n
        // words, piece/far buffers 2 × cap words, log LOG_WORDS × LOG_CAP; blocks of 1024 threads
        // as the kernel's launch bounds say; the grid is the co-resident maximum (cooperative).
        unsafe { l.launch_cooperative(cfg(self.grid, BLOCK)) }.map_err(dev_err("near-far kernel launch failed"))?;
        let e1 = event(&self.stream)?;
        let ctl = copy_back(&self.stream, &self.ctl, "cannot read the near-far control block")?;
        let ms = elapsed_ms(&e0, &e1)?;
        if ctl[C_OVERFLOW] != 0 {
            return Err(SolveError::Device(format!(
                "{}: a near-far pile overflowed (far capacity {fc} entries)",
                self.id.device
            )));
        }
        self.done = ctl[C_KIND] == K_DONE;
        let count = ctl[C_LOGGED].min(LOG_CAP) as usize;
        let mut words = vec![0u32; count * LOG_WORDS];
        if count > 0 {
            self.stream
                .memcpy_dtoh(&self.log.slice(..words.len()), &mut words[..])
                .map_err(dev_err("cannot read the phase log"))?;
            self.stream.synchronize().map_err(dev_err("a near-far phase on the GPU failed"))?;
        }
        let entries = words.chunks_exact(LOG_WORDS).map(|c| std::array::from_fn(|i| c[i])).collect();
        Ok((entries, ms))
    }

    /// The bucketed family's record of a logged phase (`book::record`'s series: bucket, its
    /// size, light and heavy relaxations, Δ, next frontier, lane use).
    fn record(&self, e: &[u32; LOG_WORDS], times: PhaseTimes) -> IterationRecord {
        let split = e[L_KIND] == K_SPLIT;
        let delta = self.run.delta.max(1);
        let arcs = u64::from(e[L_ARCS]);
        IterationRecord {
            iteration: self.iteration,
            frontier: u64::from(if split { e[L_FAR] } else { e[L_ITEMS] + e[L_PIECES] }),
            unsettled: u64::from(self.n),
            edges_scanned: arcs,
            relax_attempted: arcs,
            relax_improved: e[L_IMPROVED].into(),
            times,
            threads: Some(self.threads(e, split, arcs)),
            values: Values::from_slice(&[
                f64::from(e[L_T] / delta).max(1.0) - 1.0,
                f64::from(e[L_ITEMS]),
                arcs as f64,
                0.0,
                dist_value(Distance::from(self.run.delta)),
                // The next near list is the next entry's; the far pile (e[L_FAR]) is not a
                // frontier. Neither the next |F| nor lane counts are logged: unset, not drawn.
                f64::NAN,
                f64::NAN,
            ]),
            ..Default::default()
        }
    }

    /// The threads the phase ran on (block 0 alone for a solo phase, the whole persistent grid
    /// otherwise) and a model of those with work: one per arc of a relax phase, one per far
    /// entry of a split, on the lowest threads first (the balanced expansion and the strided
    /// split hand out work that way). Its dummy ratio is the idle share of the lanes that phase held.
    fn threads(&self, e: &[u32; LOG_WORDS], split: bool, arcs: u64) -> ThreadCounts {
        let launched = u64::from(BLOCK) * if e[L_SOLO] != 0 { 1 } else { u64::from(self.grid) };
        let working = if split { u64::from(e[L_FAR]) } else { arcs }.min(launched);
        let (full, mixed) = (working / 32, u64::from(working % 32 != 0));
        ThreadCounts {
            block_size: BLOCK,
            launched,
            working,
            warps_all_dummy: launched / 32 - full - mixed,
            warps_mixed: mixed,
            warps_all_working: full,
            modelled: true,
        }
    }

    fn read_dist(&self) -> Result<Vec<u32>, SolveError> {
        let d = copy_back(&self.stream, &self.dist, "cannot copy δ from the GPU")?;
        Ok(d.into_iter().map(|w| (w >> 32) as u32).collect())
    }
}

impl Stepper for NearFarCuda {
    crate::device::driver::ident_getters!();

    fn is_done(&self) -> bool {
        self.done
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        if self.done {
            return Ok(None);
        }
        let (entries, ms) = guarded(|| self.launch(1))??;
        let Some(e) = entries.first() else {
            return Err(SolveError::Device(format!("{}: a near-far phase did not run", self.id.device)));
        };
        self.iteration += 1;
        let t1 = Instant::now();
        let delta = if self.id.opts.record_deltas {
            let new = guarded(|| self.read_dist())??;
            Some(book::step_delta(&mut self.prev, &new, None, 0, self.id.source))
        } else {
            None
        };
        let times = PhaseTimes { relax_ms: ms, copy_ms: t1.elapsed().as_secs_f64() * 1e3, ..Default::default() };
        Ok(Some(Step { record: self.record(e, times), delta }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(guarded(|| self.read_dist())??.into_iter().map(book::widen).collect())
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let mut run = self.id.header();
        if cancel.load(Ordering::Relaxed) {
            return Err(SolveError::Cancelled);
        }
        let begin = Instant::now();
        if !self.done {
            let (entries, ms) = guarded(|| self.launch(u32::MAX))??;
            for e in &entries {
                self.iteration += 1;
                run.records.push(self.record(e, PhaseTimes::default()));
            }
            run.times.relax_ms = ms;
        }
        run.total_ms = begin.elapsed().as_secs_f64() * 1e3;
        run.iterations = self.iteration;
        let d = guarded(|| self.read_dist())??;
        run.reached = d.iter().filter(|&&x| x != u32::MAX).count() as u64;
        progress(run.reached);
        let _ = &self.gpu;
        Ok(run)
    }
}
