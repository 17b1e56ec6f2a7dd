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
use crate::algo::{SolveError, Stepper};
use crate::device::driver::nearfar::{self as nf, LOG_CAP, Launched, NearFar, NearFarBackend, NfEntry};
use crate::device::gpu::{Build, DeltaRun, GpuRun};
use crate::device::layout::nearfar::{NF_C_DELTA_MIN, NF_C_KIND, NF_C_LOGGED, NF_C_OVERFLOW, NF_C_WORDS, NF_LOG_WORDS};
use crate::graph::Graph;
use cudarc::driver::{CudaFunction, CudaSlice, CudaStream, PushKernelArg};
use std::sync::{Arc, Mutex};

/// The kernel's three parts, in order (types and appends; the vertex path; phases and the solve).
const SRC: &str = concat!(
    include_str!("../../../kernels/nearfar.cu"),
    include_str!("../../../kernels/nearfar_vertex.cu"),
    include_str!("../../../kernels/nearfar_solve.cu")
);
/// Threads per block (`NF_BLOCK`).
const BLOCK: u32 = 1024;

/// Device bytes of a near-far run: arcs as (head, weight) pairs, row offsets, δ with its stamp
/// (8 B), two near lists, two piece and two far buffers of 8 B entries, the log.
pub fn device_bytes(graph: &Graph) -> u64 {
    let (n, m) = (graph.n() as u64, graph.m() as u64);
    let (pc, fc) = nf::capacities(graph);
    8 * m + 4 * (n + 1) + 16 * n + 16 * (u64::from(pc) + u64::from(fc)) + 4 * (NF_LOG_WORDS as u64) * u64::from(LOG_CAP)
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

/// The kernel's solo-phase cycle counters (words 40–43: body, schedule, phases, stretches).
const NF_C_PROF: usize = 40;

/// The compiled kernels of device `ordinal`: solve (vertex, balanced) and resume; compiled once.
fn kernels(gpu: &Gpu) -> Result<[CudaFunction; 3], SolveError> {
    static CACHE: Mutex<Vec<(u32, [CudaFunction; 3])>> = Mutex::new(Vec::new());
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, f)) = cache.iter().find(|(o, _)| *o == gpu.ordinal) {
        return Ok(f.clone());
    }
    let names = ["nf_solve_vertex", "nf_solve_balanced", "nf_resume"];
    let mut spec = std::env::var("SSSP_NF_DEFINES").unwrap_or_default();
    if std::env::var("SSSP_NF_SKIP").is_ok_and(|v| v == "0") {
        spec.push_str(" NF_SKIP=0"); // the switch wgpu reads too, so one A/B covers both devices
    }
    let src = format!("{}{SRC}", ab_defines(Some(&spec)));
    let f: [CudaFunction; 3] = gpu
        .compile_file("nearfar.cu", &src, &names)?
        .try_into()
        .map_err(|_| SolveError::Device("kernels/nearfar.cu: an entry point is missing".into()))?;
    cache.push((gpu.ordinal, f.clone()));
    Ok(f)
}

/// `#define` lines for A/B runs on the GPU machine from `SSSP_NF_DEFINES`, e.g. `NF_STAGE=0
/// NF_BAL_U=4 NF_SKIP=0 NF_CONTIG=0` (the kernel's `#ifndef` switches: the old per-warp global
/// appends, arcs in flight per lane, expanding near items already queued again, one binary search
/// per arc). Tokens that are not `NAME=DIGITS` with an upper-case name are ignored.
fn ab_defines(spec: Option<&str>) -> String {
    let ok_name =
        |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
    spec.unwrap_or_default()
        .split_whitespace()
        .filter_map(|t| t.split_once('='))
        .filter(|(n, v)| ok_name(n) && !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
        .map(|(n, v)| format!("#define {n} {v}\n"))
        .collect()
}

/// One near-far run on a CUDA device (the backend of [`NearFar`]).
struct NearFarCuda {
    gpu: Arc<Gpu>,
    stream: Arc<CudaStream>,
    device: String,
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
    /// The widest Δ the kernel may adapt to ([`nf::adaptive_delta_max`]).
    delta_max: u32,
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
    let (hub_deg, bal) = nf::hubs(graph);
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
    let (pc, fc) = nf::capacities(graph);
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
    let ctl = alloc(NF_C_WORDS, "control block")?;
    let log = alloc(NF_LOG_WORDS * LOG_CAP as usize, "phase log")?;
    let delta_max = nf::adaptive_delta_max(run.delta, bal);
    let device = format!(
        "CUDA: {} (cuda:{}; near-far, one persistent kernel of {grid} × {BLOCK}; u32 δ; Δ = {}{}; {} relax)",
        gpu.name,
        gpu.ordinal,
        run.delta,
        if delta_max > run.delta { format!(", adaptive up to {delta_max}") } else { String::new() },
        if bal { "balanced" } else { "vertex" }
    );
    let id = b.ident(device.clone());
    let mut s = NearFarCuda {
        device,
        gpu,
        stream,
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
        delta_max,
    };
    s.init(graph, b.source, run)?;
    Ok(Box::new(NearFar::new(s, run, id)))
}

impl NearFarCuda {
    /// δ = ∞ but the source (δ 0, stamp 1), the source as the first near list (or its hub
    /// pieces), and the control block of phase 1 ([`nf::initial_state`]).
    fn init(&mut self, graph: &Graph, source: u32, run: DeltaRun) -> Result<(), SolveError> {
        let n = graph.n();
        let mut dist = vec![u64::from(u32::MAX) << 32; n];
        dist[source as usize] = 1;
        let solo = nf::solo_work(nf::SOLO_WORK_CUDA);
        let mut st = nf::initial_state(graph, source, run.delta, self.delta_max, self.caps.2, solo);
        st.ctl[NF_C_DELTA_MIN] = nf::adaptive_delta_min(run.delta, self.delta_max, 1);
        if !st.pieces.is_empty() {
            let mut dst = self.lists[2].slice_mut(..st.pieces.len());
            self.stream.memcpy_htod(&st.pieces, &mut dst).map_err(dev_err("cannot upload the source's pieces"))?;
        } else {
            let mut dst = self.lists[0].slice_mut(..st.near.len());
            self.stream.memcpy_htod(&st.near, &mut dst).map_err(dev_err("cannot upload the source"))?;
        }
        self.stream.memcpy_htod(&dist, &mut self.dist).map_err(dev_err("cannot upload the initial δ"))?;
        self.stream.memcpy_htod(&st.ctl, &mut self.ctl).map_err(dev_err("cannot upload the control block"))?;
        self.stream.synchronize().map_err(dev_err("uploading the graph failed"))?;
        Ok(())
    }

    /// Runs up to `budget` phases in one launch; returns their log entries and the launch's
    /// milliseconds (events around resume and the solve).
    fn launch_once(&mut self, budget: u32) -> Result<Launched, SolveError> {
        let mut slot = self.ctl.slice_mut(NF_C_LOGGED..NF_C_LOGGED + 1);
        self.stream.memcpy_htod(&[0u32], &mut slot).map_err(dev_err("cannot reset the log count"))?;
        let e0 = event(&self.stream)?;
        let mut l = self.stream.launch_builder(&self.resume);
        l.arg(&self.ctl).arg(&budget);
        // SAFETY: matches nf_resume(NfCtl *ctl, u32 count); ctl holds NF_C_WORDS words; one thread.
        unsafe { l.launch(cfg(1, 32)) }.map_err(dev_err("near-far resume launch failed"))?;
        let (pc, fc, hub) = self.caps;
        let [near0, near1, p0, p1, f0, f1] = &self.lists;
        let mut l = self.stream.launch_builder(&self.solve);
        l.arg(&self.off).arg(&self.arcs).arg(&self.dist).arg(near0).arg(near1).arg(p0).arg(p1).arg(f0).arg(f1);
        l.arg(&self.ctl).arg(&self.log).arg(&self.n).arg(&pc).arg(&fc).arg(&hub).arg(&LOG_CAP);
        // SAFETY: matches nf_solve_{vertex,balanced}(rowptr, arcs, dist, near0, near1, pieces0,
        // pieces1, far0, far1, ctl, log, n, piece_cap, far_cap, hub_deg, log_cap): near lists n
        // words, piece/far buffers 2 × cap words, log NF_LOG_WORDS × LOG_CAP; blocks of 1024 threads
        // as the kernel's launch bounds say; the grid is the co-resident maximum (cooperative).
        unsafe { l.launch_cooperative(cfg(self.grid, BLOCK)) }.map_err(dev_err("near-far kernel launch failed"))?;
        let e1 = event(&self.stream)?;
        let ctl = copy_back(&self.stream, &self.ctl, "cannot read the near-far control block")?;
        let ms = elapsed_ms(&e0, &e1)?;
        if ctl[NF_C_OVERFLOW] != 0 {
            return Err(SolveError::Device(format!(
                "{}: a near-far pile overflowed (far capacity {fc} entries)",
                self.device
            )));
        }
        if let Some(&[body, sched, phases, stretches]) = ctl.get(NF_C_PROF..NF_C_PROF + 4).filter(|w| w[2] > 0) {
            // Only a kernel built with SSSP_NF_DEFINES="NF_PROF=1" counts (issue 30 measurements).
            let per = |c: u32| f64::from(c) / f64::from(phases);
            eprintln!(
                "nf-prof: {phases} solo phases in {stretches} stretches; cycles per phase: body {:.0}, schedule {:.0}",
                per(body),
                per(sched)
            );
        }
        let done = nf::is_done(ctl[NF_C_KIND]);
        let count = ctl[NF_C_LOGGED].min(LOG_CAP) as usize;
        let mut words = vec![0u32; count * NF_LOG_WORDS];
        if count > 0 {
            self.stream
                .memcpy_dtoh(&self.log.slice(..words.len()), &mut words[..])
                .map_err(dev_err("cannot read the phase log"))?;
            self.stream.synchronize().map_err(dev_err("a near-far phase on the GPU failed"))?;
        }
        let entries: Vec<NfEntry> = words.chunks_exact(NF_LOG_WORDS).map(|c| std::array::from_fn(|i| c[i])).collect();
        Ok(Launched { entries, done, gpu_ms: Some(ms) })
    }

    fn read_dist(&self) -> Result<Vec<u32>, SolveError> {
        let d = copy_back(&self.stream, &self.dist, "cannot copy δ from the GPU")?;
        Ok(d.into_iter().map(|w| (w >> 32) as u32).collect())
    }
}

impl NearFarBackend for NearFarCuda {
    fn launch(&mut self, phases: u32) -> Result<Launched, SolveError> {
        guarded(|| self.launch_once(phases))?
    }

    fn read_dist(&mut self) -> Result<Vec<u32>, SolveError> {
        guarded(|| NearFarCuda::read_dist(self))?
    }

    fn first_launch(&self) -> u32 {
        u32::MAX
    }

    fn threads(&self) -> (u32, u64) {
        let _ = &self.gpu;
        (BLOCK, u64::from(BLOCK) * u64::from(self.grid))
    }
}

#[cfg(test)]
mod tests {
    /// Only `NAME=DIGITS` tokens become defines.
    #[test]
    fn ab_defines_take_only_numeric_switches() {
        assert_eq!(super::ab_defines(None), "");
        assert_eq!(
            super::ab_defines(Some("NF_STAGE=0 bad=1 NF_BAL_U=4 X=y Z")),
            "#define NF_STAGE 0\n#define NF_BAL_U 4\n"
        );
    }
}
