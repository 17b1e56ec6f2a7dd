//! The CUDA frontier stepper: device buffers, the three vertex-parallel kernels per step, the
//! instrumented counters, the host diff for records and deltas, and the persistent fast path.
//! See the module docs of [`super`] for what each mode measures.

use super::kernels::Gpu;
use super::{dev_err, guarded, persistent_blocks_per_sm, solo_work};
use crate::algo::model::{ShrinkingWarpCounter, SparseWarpCounter, launched_threads};
use crate::algo::{
    Algorithm, CachePreference, IterationRecord, PhaseTimes, RelaxVariant, RunRecord, SolveError, SolveOptions, Step,
    StepDelta, Stepper, ThreadCounts, Threshold,
};
use crate::graph::{Distance, Graph, INF, VertexId};
use cudarc::driver::sys::{CUevent_flags, CUfunc_cache_enum, CUfunction_attribute_enum};
use cudarc::driver::{
    CudaEvent, CudaFunction, CudaSlice, CudaStream, DeviceRepr, LaunchConfig, PushKernelArg, ValidAsZeroBits,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// stamp value of an unsettled vertex (kernels/common.cuh `UNSET`).
const UNSET: u32 = u32::MAX;

// Counter slots (kernels/common.cuh C_*).
const C_WORKING: usize = 0;
const C_WARPS_DUMMY: usize = 1;
const C_WARPS_MIXED: usize = 2;
const C_WARPS_FULL: usize = 3;
const C_SCANNED: usize = 4;
const C_ATTEMPTED: usize = 5;
const C_IMPROVED: usize = 6;
const C_REACHED: usize = 7;
const C_NEXT_FRONTIER: usize = 8;
const C_COUNT: usize = 16;

// Control block of the fast kernel as u32 words (struct Ctl in kernels/fast.cu).
const CTL_WORDS: usize = 32;
const CTL_ITER: usize = 19;
const CTL_DONE: usize = 20;

/// Clock cycles the racy relax waits between its read and its write (widens the race window).
const RACY_SPIN_CYCLES: u32 = 2000;

/// First chunk of iterations per persistent launch; later chunks grow ×4 (cancel/progress between).
const FIRST_CHUNK: u32 = 4096;

/// Distance type on the device.
pub(super) trait Dist: DeviceRepr + ValidAsZeroBits + Copy + PartialEq + Send + Sync + 'static {
    const INF: Self;
    const SUFFIX: &'static str;
    fn to_host(self) -> Distance;
    fn from_host(d: Distance) -> Self;
}

impl Dist for u32 {
    const INF: u32 = u32::MAX;
    const SUFFIX: &'static str = "u32";
    fn to_host(self) -> Distance {
        if self == u32::MAX { INF } else { self as Distance }
    }
    fn from_host(d: Distance) -> u32 {
        if d == INF { u32::MAX } else { d as u32 }
    }
}

impl Dist for u64 {
    const INF: u64 = u64::MAX;
    const SUFFIX: &'static str = "u64";
    fn to_host(self) -> Distance {
        self
    }
    fn from_host(d: Distance) -> u64 {
        d
    }
}

/// Whether 32-bit distances are safe: every value a relax can form (a walk of ≤ n arcs) stays
/// below the u32 ∞ marker.
fn narrow_ok(graph: &Graph) -> bool {
    (graph.n() as u128) * u128::from(graph.max_weight()) < u128::from(u32::MAX)
}

/// Device bytes a CUDA stepper allocates for `graph` and `algo` (graph arrays, state, reduction
/// partials, fast-path lists and records). Used for the free-memory check and by benchmarks.
pub fn device_bytes(graph: &Graph, algo: Algorithm, opts: &SolveOptions) -> u64 {
    let n = graph.n() as u64;
    let m = graph.m() as u64;
    let d = if narrow_ok(graph) { 4 } else { 8 };
    let csr = (n + 1) * 4 + m * 8;
    let mut b = csr; // successors
    if algo.variant() == Some(RelaxVariant::Predecessors) {
        b += csr;
    }
    b += n * d * 2 + n * 4; // ω, δ, stamp
    if opts.instrument {
        b += n * d; // δ snapshot
    }
    b += 2 * 8 * (n.div_ceil(64) + 1) + 3 * 8 + C_COUNT as u64 * 8; // partials, Δ, counters
    if algo != Algorithm::Racy {
        b += 5 * n * 4 + (n + 1) * 24 + CTL_WORDS as u64 * 4; // lists, marks, records, control block
        if d == 4 && algo.variant() == Some(RelaxVariant::Successors) {
            b += n * 8; // packed (δ, ω) words
        }
    }
    b
}

/// Creates the stepper with the distance width the graph allows.
pub(super) fn new_stepper(
    gpu: Arc<Gpu>,
    graph: Arc<Graph>,
    algo: Algorithm,
    source: VertexId,
    opts: &SolveOptions,
) -> Result<Box<dyn Stepper>, SolveError> {
    if narrow_ok(&graph) {
        Ok(Box::new(CudaStepper::<u32>::new(gpu, graph, algo, source, opts)?))
    } else {
        Ok(Box::new(CudaStepper::<u64>::new(gpu, graph, algo, source, opts)?))
    }
}

/// Kernels one stepper launches.
struct Kernels {
    init: CudaFunction,
    relax: CudaFunction,
    min1: CudaFunction,
    min2: CudaFunction,
    update: CudaFunction,
    update_counting: CudaFunction,
    fast: Option<FastKernels>,
}

struct FastKernels {
    reset: CudaFunction,
    setup: CudaFunction,
    run: CudaFunction,
}

/// Fast-path buffers.
struct FastBufs {
    ctl: CudaSlice<u32>,
    /// Successors: iteration in which a push lowered δ(u) to exactly Δ (kernels/fast.cu).
    mark: CudaSlice<u32>,
    /// Successors with 32-bit δ: (δ, ω) per vertex in one word during a fast run (else 1 entry).
    packed: CudaSlice<u64>,
    unpack: Option<CudaFunction>,
    lists: [CudaSlice<u32>; 4],
    rec_m: CudaSlice<u64>,
    rec_c: CudaSlice<u64>,
    rec_f: CudaSlice<u32>,
    rec_r: CudaSlice<u32>,
    cap: u32,
}

/// Host copy of the device state at an iteration boundary (stepping mode).
struct HostState {
    dist: Vec<Distance>,
    stamp: Vec<u32>,
    /// Fᵢ of the next iteration (vertices with stamp = iteration + 1).
    frontier: Vec<VertexId>,
}

/// What one vertex-parallel iteration returned.
struct IterOut {
    times: PhaseTimes,
    /// [Δ_martin, Δ_crauser, Δ used]
    deltas: [u64; 3],
    ctr: [u64; C_COUNT],
}

struct CudaStepper<D: Dist> {
    gpu: Arc<Gpu>,
    stream: Arc<CudaStream>,
    graph: Arc<Graph>,
    algo: Algorithm,
    threshold: Threshold,
    variant: RelaxVariant,
    opts: SolveOptions,
    source: VertexId,
    device: String,
    n: u32,
    k: Kernels,
    // graph on the device
    off: CudaSlice<u32>,
    tgt: CudaSlice<u32>,
    wgt: CudaSlice<u32>,
    pred: Option<[CudaSlice<u32>; 3]>,
    omega: CudaSlice<D>,
    // state
    dist: CudaSlice<D>,
    prev: Option<CudaSlice<D>>,
    stamp: CudaSlice<u32>,
    part_m: CudaSlice<u64>,
    part_c: CudaSlice<u64>,
    out: CudaSlice<u64>,
    ctr: CudaSlice<u64>,
    fast: Option<FastBufs>,
    // host side
    iteration: u32,
    done: bool,
    settled_count: u64,
    /// |F| of the next iteration.
    frontier_len: u64,
    host: Option<HostState>,
    unsettled_in_arcs: u64,
    frontier_warps: SparseWarpCounter,
    unsettled_warps: Option<ShrinkingWarpCounter>,
    /// Iteration the fast lists were built for (they stay valid across persistent chunks).
    lists_for: Option<u32>,
}

fn cfg(grid: u32, block: u32) -> LaunchConfig {
    LaunchConfig { grid_dim: (grid.max(1), 1, 1), block_dim: (block, 1, 1), shared_mem_bytes: 0 }
}

impl<D: Dist> CudaStepper<D> {
    fn new(
        gpu: Arc<Gpu>,
        graph: Arc<Graph>,
        algo: Algorithm,
        source: VertexId,
        opts: &SolveOptions,
    ) -> Result<Self, SolveError> {
        let (Some(threshold), Some(variant)) = (algo.threshold(), algo.variant()) else {
            return Err(SolveError::Device(format!("`{algo}` does not run on CUDA devices")));
        };
        let n = graph.n();
        if n >= u32::MAX as usize - 1 {
            return Err(SolveError::Device(format!("{n} vertices: the CUDA kernels index vertices with u32")));
        }
        gpu.ctx.bind_to_thread().map_err(dev_err("cannot bind the CUDA context"))?;

        // Room on the device?
        let need = device_bytes(&graph, algo, opts);
        let (free, total) = gpu.ctx.mem_get_info().map_err(dev_err("cannot read free device memory"))?;
        let margin = 64u64 << 20;
        if need + margin > free as u64 {
            return Err(SolveError::Device(format!(
                "graph `{}` ({} vertices, {} arcs) needs {:.1} MiB of device memory for `{algo}` on {}, \
                 but only {:.1} MiB of {:.1} MiB are free",
                graph.name,
                n,
                graph.m(),
                need as f64 / 1048576.0,
                gpu.name,
                free as f64 / 1048576.0,
                total as f64 / 1048576.0
            )));
        }

        let stream = gpu.ctx.new_stream().map_err(dev_err("cannot create a CUDA stream"))?;
        let up = |v: &[u32], what: &str| {
            stream.clone_htod(v).map_err(dev_err(&format!("cannot upload the {what} to the GPU")))
        };
        let succ = graph.successors();
        let off = up(&succ.offsets, "successor offsets")?;
        let tgt = up(&succ.targets, "successor targets")?;
        let wgt = up(&succ.weights, "successor weights")?;
        let pred = if variant == RelaxVariant::Predecessors {
            let p = graph.predecessors();
            Some([
                up(&p.offsets, "predecessor offsets")?,
                up(&p.targets, "predecessor sources")?,
                up(&p.weights, "predecessor weights")?,
            ])
        } else {
            None
        };
        let omega_h: Vec<D> = graph.omega().iter().map(|&w| D::from_host(w)).collect();
        let omega = stream.clone_htod(&omega_h).map_err(dev_err("cannot upload ω"))?;
        let alloc = |len: usize| stream.alloc_zeros::<u64>(len).map_err(dev_err("cannot allocate device memory"));
        let alloc_d = |len: usize| stream.alloc_zeros::<D>(len).map_err(dev_err("cannot allocate device memory"));
        let alloc32 = |len: usize| stream.alloc_zeros::<u32>(len).map_err(dev_err("cannot allocate device memory"));
        let dist = alloc_d(n)?;
        let prev = if opts.instrument { Some(alloc_d(n)?) } else { None };
        let stamp = alloc32(n)?;
        let parts = n.div_ceil(64) + 1;
        let part_m = alloc(parts)?;
        let part_c = alloc(parts)?;
        let out = alloc(3)?;
        let ctr = alloc(C_COUNT)?;

        let s = D::SUFFIX;
        let f = |name: &str| gpu.func(&format!("{name}_{s}"));
        let instr = if opts.instrument { "_instr" } else { "" };
        let relax = match (algo, variant) {
            (Algorithm::Racy, _) => f(&format!("relax_racy{instr}"))?,
            (_, RelaxVariant::Successors) => f(&format!("relax_succ{instr}"))?,
            (_, RelaxVariant::Predecessors) => f(&format!("relax_pred{instr}"))?,
        };
        let (fast, fast_bufs) = if algo == Algorithm::Racy {
            (None, None)
        } else {
            let pv = if variant == RelaxVariant::Predecessors { "pred" } else { "succ" };
            let th = if threshold == Threshold::Crauser { "crauser" } else { "martin" };
            let cap = n as u32 + 1;
            let bufs = FastBufs {
                ctl: alloc32(CTL_WORDS)?,
                mark: alloc32(n)?,
                packed: alloc(if s == "u32" && variant == RelaxVariant::Successors { n } else { 1 })?,
                unpack: if s == "u32" && variant == RelaxVariant::Successors {
                    Some(gpu.func("fast_unpack_u32")?)
                } else {
                    None
                },
                lists: [alloc32(n)?, alloc32(n)?, alloc32(n)?, alloc32(n)?],
                rec_m: alloc(cap as usize)?,
                rec_c: alloc(cap as usize)?,
                rec_f: alloc32(cap as usize)?,
                rec_r: alloc32(cap as usize)?,
                cap,
            };
            let k = FastKernels {
                reset: gpu.func("fast_reset")?,
                setup: f(&format!("fast_setup_{pv}"))?,
                run: f(&format!("fast_{pv}_{th}"))?,
            };
            (Some(k), Some(bufs))
        };
        let k = Kernels {
            init: f("sssp_init")?,
            relax,
            min1: f(if opts.instrument { "min1_instr" } else { "min1" })?,
            min2: gpu.func("sssp_min2")?,
            update: f(if opts.instrument { "update_instr" } else { "update" })?,
            update_counting: f("update_instr")?,
            fast,
        };

        let cache = match opts.cache {
            CachePreference::Default => "default",
            CachePreference::PreferL1 => "prefer L1",
            CachePreference::PreferShared => "prefer shared",
        };
        let device = format!(
            "CUDA: {} (cuda:{}; blocks relax/min/update {}/{}/{}; cache {cache}; {}-bit δ)",
            gpu.name,
            gpu.ordinal,
            opts.block.relax,
            opts.block.minimum,
            opts.block.update,
            if s == "u32" { 32 } else { 64 }
        );
        let unsettled_in_arcs = if variant == RelaxVariant::Predecessors {
            (graph.m() - graph.predecessors().degree(source)) as u64
        } else {
            0
        };
        let unsettled_warps = (variant == RelaxVariant::Predecessors).then(|| {
            let mut w = ShrinkingWarpCounter::full(n);
            w.remove(source);
            w
        });
        let mut host_dist = vec![INF; n];
        host_dist[source as usize] = 0;
        let mut host_stamp = vec![UNSET; n];
        host_stamp[source as usize] = 1;

        let st = CudaStepper {
            stream,
            algo,
            threshold,
            variant,
            opts: opts.clone(),
            source,
            device,
            n: n as u32,
            k,
            off,
            tgt,
            wgt,
            pred,
            omega,
            dist,
            prev,
            stamp,
            part_m,
            part_c,
            out,
            ctr,
            fast: fast_bufs,
            iteration: 0,
            done: false,
            settled_count: 1,
            frontier_len: 1,
            host: Some(HostState { dist: host_dist, stamp: host_stamp, frontier: vec![source] }),
            unsettled_in_arcs,
            frontier_warps: SparseWarpCounter::new(n),
            unsettled_warps,
            lists_for: None,
            graph,
            gpu,
        };
        // δ = ∞ except δ(s) = 0; stamp(s) = 1 (F₁ = {s}).
        let b = st.opts.block.relax;
        let mut l = st.stream.launch_builder(&st.k.init);
        l.arg(&st.n).arg(&st.dist).arg(&st.stamp).arg(&source);
        // SAFETY: arguments match `sssp_init_*` in kernels/frontier.cu; n threads guarded.
        unsafe { l.launch(cfg(st.n.div_ceil(b), b)) }.map_err(dev_err("initialise kernel launch failed"))?;
        st.stream.synchronize().map_err(dev_err("initialisation on the GPU failed"))?;
        Ok(st)
    }

    /// Applies the cache preference to every kernel this stepper launches.
    fn apply_cache(&self) -> Result<(), SolveError> {
        let (carveout, config) = match self.opts.cache {
            CachePreference::Default => (-1, CUfunc_cache_enum::CU_FUNC_CACHE_PREFER_NONE),
            CachePreference::PreferL1 => (0, CUfunc_cache_enum::CU_FUNC_CACHE_PREFER_L1),
            CachePreference::PreferShared => (100, CUfunc_cache_enum::CU_FUNC_CACHE_PREFER_SHARED),
        };
        let mut fs = vec![&self.k.relax, &self.k.min1, &self.k.min2, &self.k.update, &self.k.update_counting];
        if let Some(f) = &self.k.fast {
            fs.extend([&f.setup, &f.run]);
        }
        for f in fs {
            f.set_attribute(CUfunction_attribute_enum::CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, carveout)
                .map_err(dev_err("cannot set the shared-memory carveout"))?;
            f.set_function_cache_config(config).map_err(dev_err("cannot set the cache configuration"))?;
        }
        Ok(())
    }

    fn event(&self) -> Result<CudaEvent, SolveError> {
        self.stream.record_event(Some(CUevent_flags::CU_EVENT_DEFAULT)).map_err(dev_err("cannot record a CUDA event"))
    }

    fn sync(&self, what: &str) -> Result<(), SolveError> {
        self.stream.synchronize().map_err(dev_err(what))
    }

    /// Copies δ and the stamps to the host.
    fn copy_state(&self) -> Result<(Vec<Distance>, Vec<u32>), SolveError> {
        let n = self.n as usize;
        let mut d = vec![D::INF; n];
        let mut s = vec![0u32; n];
        self.stream.memcpy_dtoh(&self.dist, &mut d[..]).map_err(dev_err("cannot copy δ from the GPU"))?;
        self.stream
            .memcpy_dtoh(&self.stamp, &mut s[..])
            .map_err(dev_err("cannot copy the settled flags from the GPU"))?;
        self.sync("copying the state from the GPU failed")?;
        Ok((d.into_iter().map(Dist::to_host).collect(), s))
    }

    /// Makes sure the host copy of the state is current (after a fast run was cancelled).
    fn ensure_host(&mut self) -> Result<(), SolveError> {
        if self.host.is_some() {
            return Ok(());
        }
        let (dist, stamp) = self.copy_state()?;
        let next = self.iteration + 1;
        let frontier: Vec<VertexId> = (0..self.n).filter(|&v| stamp[v as usize] == next).collect();
        self.settled_count = stamp.iter().filter(|&&s| s != UNSET).count() as u64;
        self.frontier_len = frontier.len() as u64;
        if self.variant == RelaxVariant::Predecessors {
            let pred = self.graph.predecessors();
            let mut w = ShrinkingWarpCounter::full(self.n as usize);
            let mut arcs = self.graph.m() as u64;
            for v in 0..self.n {
                if stamp[v as usize] != UNSET {
                    w.remove(v);
                    arcs -= pred.degree(v) as u64;
                }
            }
            self.unsettled_warps = Some(w);
            self.unsettled_in_arcs = arcs;
        }
        self.host = Some(HostState { dist, stamp, frontier });
        Ok(())
    }

    /// Launches relax, minimum (two passes) and update of iteration `i`, timing each with
    /// events, and reads back the thresholds (and counters when instrumented or `count_update`).
    fn launch_iteration(&mut self, i: u32, count_update: bool) -> Result<IterOut, SolveError> {
        let instr = self.opts.instrument;
        if instr || count_update {
            self.stream.memset_zeros(&mut self.ctr).map_err(dev_err("cannot clear the counters"))?;
        }
        if let Some(prev) = &mut self.prev {
            self.stream.memcpy_dtod(&self.dist, prev).map_err(dev_err("cannot snapshot δ"))?;
        }
        let s = &self.stream;
        let n = self.n;
        let b = self.opts.block;
        let e0 = self.event()?;
        {
            let mut l = s.launch_builder(&self.k.relax);
            l.arg(&n);
            match (&self.pred, self.variant) {
                (Some([po, ps, pw]), RelaxVariant::Predecessors) => {
                    l.arg(po).arg(ps).arg(pw);
                }
                _ => {
                    l.arg(&self.off).arg(&self.tgt).arg(&self.wgt);
                }
            }
            l.arg(&self.dist).arg(&self.stamp).arg(&i).arg(&self.ctr);
            let spin = RACY_SPIN_CYCLES;
            if self.algo == Algorithm::Racy {
                l.arg(&spin);
            }
            // SAFETY: arguments match relax_{succ,pred,racy}[_instr]_* (n, csr×3, dist, stamp, iter,
            // ctr[, spin]); threads past n only vote in the warp ballot.
            unsafe { l.launch(cfg(n.div_ceil(b.relax), b.relax)) }.map_err(dev_err("relax kernel launch failed"))?;
        }
        let e1 = self.event()?;
        let parts = n.div_ceil(2 * b.minimum);
        {
            let prev = self.prev.as_ref().unwrap_or(&self.dist);
            let mut l = s.launch_builder(&self.k.min1);
            l.arg(&n).arg(&self.dist).arg(prev).arg(&self.stamp).arg(&self.omega);
            l.arg(&self.part_m).arg(&self.part_c).arg(&self.ctr);
            // SAFETY: matches min1[_instr]_*; part_* hold ⌈n/64⌉+1 ≥ `parts` entries.
            unsafe { l.launch(cfg(parts, b.minimum)) }.map_err(dev_err("minimum kernel launch failed"))?;
            let crauser = u32::from(self.threshold == Threshold::Crauser);
            let mut l = s.launch_builder(&self.k.min2);
            l.arg(&parts).arg(&self.part_m).arg(&self.part_c).arg(&crauser).arg(&self.out);
            // SAFETY: matches sssp_min2; one block.
            unsafe { l.launch(cfg(1, b.minimum)) }.map_err(dev_err("minimum (second pass) kernel launch failed"))?;
        }
        let e2 = self.event()?;
        {
            let f = if count_update && !instr { &self.k.update_counting } else { &self.k.update };
            let mut l = s.launch_builder(f);
            l.arg(&n).arg(&self.dist).arg(&self.stamp).arg(&i).arg(&self.out).arg(&self.ctr);
            // SAFETY: matches update[_instr]_*.
            unsafe { l.launch(cfg(n.div_ceil(b.update), b.update)) }.map_err(dev_err("update kernel launch failed"))?;
        }
        let e3 = self.event()?;
        let mut deltas = [0u64; 3];
        s.memcpy_dtoh(&self.out, &mut deltas[..]).map_err(dev_err("cannot read Δ from the GPU"))?;
        let mut ctr = [0u64; C_COUNT];
        if instr || count_update {
            s.memcpy_dtoh(&self.ctr, &mut ctr[..]).map_err(dev_err("cannot read the counters from the GPU"))?;
        }
        self.sync("an iteration on the GPU failed")?;
        let ms = |a: &CudaEvent, z: &CudaEvent| -> Result<f64, SolveError> {
            Ok(a.elapsed_ms(z).map_err(dev_err("cannot read CUDA event times"))? as f64)
        };
        let times =
            PhaseTimes { relax_ms: ms(&e0, &e1)?, minimum_ms: ms(&e1, &e2)?, update_ms: ms(&e2, &e3)?, copy_ms: 0.0 };
        Ok(IterOut { times, deltas, ctr })
    }

    fn delta_used(&self, m: u64, c: u64) -> Distance {
        if m == INF {
            INF
        } else if self.threshold == Threshold::Crauser {
            c.max(m)
        } else {
            m
        }
    }

    /// Record of an instrumented iteration, from the kernels' counters.
    fn counted_record(&self, i: u32, out: &IterOut) -> IterationRecord {
        let c = &out.ctr;
        let b = self.opts.block.relax;
        let next = c[C_NEXT_FRONTIER];
        IterationRecord {
            iteration: i,
            frontier: self.frontier_len,
            unsettled: self.n as u64 - self.settled_count,
            reached: c[C_REACHED],
            settled: self.settled_count + next,
            delta: self.delta_used(out.deltas[0], out.deltas[1]),
            delta_martin: out.deltas[0],
            delta_crauser: out.deltas[1],
            next_frontier: next,
            edges_scanned: c[C_SCANNED],
            relax_attempted: c[C_ATTEMPTED],
            relax_improved: c[C_IMPROVED],
            threads: Some(ThreadCounts {
                block_size: b,
                launched: launched_threads(self.n as u64, b),
                working: c[C_WORKING],
                warps_all_dummy: c[C_WARPS_DUMMY],
                warps_mixed: c[C_WARPS_MIXED],
                warps_all_working: c[C_WARPS_FULL],
                modelled: false,
            }),
            times: out.times,
        }
    }

    fn step_inner(&mut self) -> Result<Option<Step>, SolveError> {
        if self.done {
            return Ok(None);
        }
        self.apply_cache()?;
        self.ensure_host()?;
        let i = self.iteration + 1;
        let out = self.launch_iteration(i, false)?;
        let t = Instant::now();
        let (dist, stamp) = self.copy_state()?;
        let copy_ms = t.elapsed().as_secs_f64() * 1e3;
        self.lists_for = None;

        let Some(host) = self.host.take() else {
            return Err(SolveError::Device("internal: host state missing".into()));
        };
        let succ = self.graph.successors();
        let n = self.n as usize;
        // What the relax saw: Fᵢ and the unsettled set before this iteration.
        let (mut scanned, mut attempted) = (0u64, 0u64);
        for &f in &host.frontier {
            for (u, _) in succ.arcs(f) {
                scanned += 1;
                attempted += u64::from(host.stamp[u as usize] == UNSET);
            }
        }
        if self.variant == RelaxVariant::Predecessors {
            scanned = self.unsettled_in_arcs;
        }
        let threads = match &self.unsettled_warps {
            Some(w) if self.variant == RelaxVariant::Predecessors => w.counts(self.opts.block.relax),
            _ => self.frontier_warps.count(self.n as u64, self.opts.block.relax, &host.frontier),
        };
        let mut lowered = Vec::new();
        let mut settled = Vec::new();
        let mut reached_left = 0u64;
        for v in 0..n {
            if dist[v] != host.dist[v] {
                lowered.push((v as VertexId, host.dist[v], dist[v]));
            }
            if host.stamp[v] == UNSET {
                if stamp[v] != UNSET {
                    settled.push(v as VertexId);
                } else if dist[v] != INF {
                    reached_left += 1;
                }
            }
        }
        let next = settled.len() as u64;
        let mut record = if self.opts.instrument {
            self.counted_record(i, &out)
        } else {
            IterationRecord {
                iteration: i,
                frontier: host.frontier.len() as u64,
                unsettled: self.n as u64 - self.settled_count,
                reached: reached_left + next,
                settled: self.settled_count + next,
                delta: self.delta_used(out.deltas[0], out.deltas[1]),
                delta_martin: out.deltas[0],
                delta_crauser: out.deltas[1],
                next_frontier: next,
                edges_scanned: scanned,
                relax_attempted: attempted,
                relax_improved: lowered.len() as u64,
                threads: Some(threads),
                times: out.times,
            }
        };
        record.times.copy_ms = copy_ms;

        // Advance the host bookkeeping.
        if self.variant == RelaxVariant::Predecessors {
            let pred = self.graph.predecessors();
            for &v in &settled {
                self.unsettled_in_arcs -= pred.degree(v) as u64;
                if let Some(w) = &mut self.unsettled_warps {
                    w.remove(v);
                }
            }
        }
        self.iteration = i;
        self.settled_count += next;
        self.frontier_len = next;
        if out.deltas[0] == INF {
            self.done = true;
        }
        let delta = self.opts.record_deltas.then(|| StepDelta { lowered, settled: settled.clone() });
        self.host = Some(HostState { dist, stamp, frontier: settled });
        Ok(Some(Step { record, delta }))
    }

    /// `run_to_end` by vertex-parallel launches (instrumented runs, `racy`, devices without
    /// cooperative launch): one Δ read-back per iteration, no state copies.
    fn run_kernels(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        self.apply_cache()?;
        if self.host.is_none() {
            self.ensure_host()?;
        }
        let start = Instant::now();
        let mut run = self.run_header();
        while !self.done {
            if run.records.len().is_multiple_of(256) {
                if cancel.load(Ordering::Relaxed) {
                    return Err(SolveError::Cancelled);
                }
                progress(self.settled_count);
            }
            let i = self.iteration + 1;
            let out = self.launch_iteration(i, true)?;
            self.host = None;
            self.lists_for = None;
            let mut rec = self.counted_record(i, &out);
            if !self.opts.instrument {
                // Only the update counted: keep what was measured.
                rec.threads = None;
                rec.reached = 0;
            }
            run.times.add(&rec.times);
            self.iteration = i;
            self.settled_count = rec.settled;
            self.frontier_len = rec.next_frontier;
            self.done = out.deltas[0] == INF;
            run.records.push(rec);
        }
        run.total_ms = start.elapsed().as_secs_f64() * 1e3;
        run.iterations = self.iteration;
        run.reached = self.settled_count;
        Ok(run)
    }

    fn run_header(&self) -> RunRecord {
        RunRecord {
            algorithm: self.algo.id().into(),
            device: self.device.clone(),
            graph: self.graph.name.clone(),
            n: self.graph.n(),
            m: self.graph.m(),
            source: self.source,
            ..Default::default()
        }
    }

    /// Blocks of the persistent kernel: as many as can be co-resident (cooperative launch),
    /// optionally capped per multiprocessor, never more than the vertices need.
    fn persistent_grid(&self, f: &CudaFunction) -> Result<u32, SolveError> {
        let block = self.opts.block.relax;
        let occ = f
            .occupancy_max_active_blocks_per_multiprocessor(block, 0, None)
            .map_err(dev_err("cannot compute the occupancy of the fast kernel"))?;
        if occ == 0 {
            return Err(SolveError::Device(format!("the fast kernel cannot run {block} threads per block here")));
        }
        // Successors: ~1024 threads per multiprocessor (bench/results/cuda-tune.md: fewer blocks make
        // the grid barrier cheaper, too few starve R-MAT of loads in flight); predecessors pull
        // over all of U and want every thread the GPU can hold.
        let default = if self.variant == RelaxVariant::Successors { (1024 / block).clamp(1, occ) } else { occ };
        let per_sm = persistent_blocks_per_sm().map_or(default, |p| p.clamp(1, occ));
        Ok((self.gpu.multiprocessors * per_sm).min(self.n.div_ceil(block)).max(1))
    }

    /// `run_to_end` on the persistent kernel.
    fn run_fast(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        if let Some(fb) = &mut self.fast {
            self.stream.memset_zeros(&mut fb.rec_r).map_err(dev_err("cannot clear the records"))?;
        }
        let (Some(fk), Some(fb)) = (&self.k.fast, &self.fast) else {
            return Err(SolveError::Device("internal: fast kernels missing".into()));
        };
        self.apply_cache()?;
        let s = &self.stream;
        let n = self.n;
        let block = self.opts.block.relax;
        let start_iter = self.iteration + 1;
        let grid = self.persistent_grid(&fk.run)?;
        let avg_deg: u64 = (self.graph.m() as u64).div_ceil(n.max(1) as u64);
        let solo: u64 = solo_work().unwrap_or(4 * block as u64);
        let start = Instant::now();
        if self.lists_for != Some(start_iter) {
            let mut l = s.launch_builder(&fk.reset);
            l.arg(&fb.ctl).arg(&start_iter);
            // SAFETY: matches fast_reset(Ctl*, u32); ctl has 32 words ≥ sizeof(Ctl).
            unsafe { l.launch(cfg(1, 32)) }.map_err(dev_err("fast reset kernel launch failed"))?;
            let [l0, l1, l2, l3] = &fb.lists;
            let mut l = s.launch_builder(&fk.setup);
            l.arg(&n).arg(&self.dist).arg(&self.stamp).arg(&self.omega).arg(&start_iter);
            l.arg(l0).arg(l1).arg(l2).arg(l3).arg(&fb.ctl).arg(&fb.packed);
            // SAFETY: matches fast_setup_{succ,pred}_*; lists hold n entries each.
            unsafe { l.launch(cfg(n.div_ceil(block), block)) }.map_err(dev_err("fast setup kernel launch failed"))?;
        }
        let rec_base = start_iter;
        let mut i_begin = start_iter;
        let mut chunk = FIRST_CHUNK;
        let mut ctl = [0u32; CTL_WORDS];
        let mut rec_f_host: Vec<u32> = Vec::new();
        let mut settled_progress = self.settled_count;
        loop {
            let i_end = i_begin.saturating_add(chunk);
            let mut l = s.launch_builder(&fk.run);
            l.arg(&n);
            match (&self.pred, self.variant) {
                (Some([po, ps, pw]), RelaxVariant::Predecessors) => {
                    l.arg(po).arg(ps).arg(pw).arg(&self.omega).arg(&self.dist).arg(&self.stamp);
                    l.arg(&fb.lists[2]).arg(&fb.lists[3]);
                }
                _ => {
                    l.arg(&self.off).arg(&self.tgt).arg(&self.wgt).arg(&self.omega).arg(&self.dist).arg(&fb.packed);
                    l.arg(&self.stamp).arg(&fb.mark).arg(&fb.lists[0]).arg(&fb.lists[2]).arg(&fb.lists[3]);
                }
            }
            l.arg(&fb.ctl).arg(&fb.rec_m).arg(&fb.rec_c).arg(&fb.rec_f).arg(&fb.rec_r);
            l.arg(&rec_base).arg(&fb.cap).arg(&i_begin).arg(&i_end);
            if self.variant == RelaxVariant::Successors {
                l.arg(&avg_deg).arg(&solo);
            }
            // SAFETY: matches fast_{succ,pred}_{martin,crauser}_*; grid ≤ co-resident blocks
            // (cooperative launch checks it), records hold n + 1 ≥ iterations entries.
            unsafe { l.launch_cooperative(cfg(grid, block)) }
                .map_err(dev_err("fast (persistent) kernel launch failed"))?;
            s.memcpy_dtoh(&fb.ctl, &mut ctl[..]).map_err(dev_err("cannot read the fast kernel's state"))?;
            self.sync("the fast kernel failed")?;
            let last = ctl[CTL_ITER];
            let done = ctl[CTL_DONE] != 0;
            // Records of this chunk (frontier sizes give the settled count for progress).
            let have = rec_f_host.len();
            let upto = (last + 1 - rec_base) as usize;
            if upto > have {
                rec_f_host.resize(upto, 0);
                s.memcpy_dtoh(&fb.rec_f.slice(have..upto), &mut rec_f_host[have..upto])
                    .map_err(dev_err("cannot read the records"))?;
                self.sync("reading the records failed")?;
                settled_progress += rec_f_host[have.max(1)..upto].iter().map(|&x| x as u64).sum::<u64>();
            }
            self.iteration = last;
            self.lists_for = Some(last + 1);
            self.host = None;
            let stop = done || {
                progress(settled_progress);
                cancel.load(Ordering::Relaxed)
            };
            if stop && let Some(f) = &fb.unpack {
                // δ lives in the packed words during the run; give it back to `dist`.
                let mut l = s.launch_builder(f);
                l.arg(&n).arg(&fb.packed).arg(&self.dist);
                // SAFETY: matches fast_unpack_u32(n, packed, dist); n threads guarded.
                unsafe { l.launch(cfg(n.div_ceil(256), 256)) }.map_err(dev_err("unpack kernel launch failed"))?;
            }
            if done {
                break;
            }
            if stop {
                // δ and the stamps are consistent after iteration `last` (for successors the relax
                // of the next iteration is already applied, which a later step re-runs harmlessly);
                // stepping can go on from there (ensure_host recounts from the stamps).
                return Err(SolveError::Cancelled);
            }
            i_begin = last + 1;
            chunk = chunk.saturating_mul(4).min(1 << 20);
        }
        let iters = (self.iteration + 1 - rec_base) as usize;
        let mut rec_m = vec![0u64; iters];
        let mut rec_c = vec![0u64; iters];
        let mut rec_r = vec![0u32; iters];
        s.memcpy_dtoh(&fb.rec_m.slice(0..iters), &mut rec_m[..]).map_err(dev_err("cannot read the records"))?;
        s.memcpy_dtoh(&fb.rec_c.slice(0..iters), &mut rec_c[..]).map_err(dev_err("cannot read the records"))?;
        s.memcpy_dtoh(&fb.rec_r.slice(0..iters), &mut rec_r[..]).map_err(dev_err("cannot read the records"))?;
        self.sync("reading the records failed")?;
        let total_ms = start.elapsed().as_secs_f64() * 1e3;

        let mut run = self.run_header();
        let mut settled = self.settled_count;
        for k in 0..iters {
            let next = if k + 1 < iters { rec_f_host[k + 1] as u64 } else { 0 };
            let unsettled = n as u64 - settled;
            settled += next;
            run.records.push(IterationRecord {
                iteration: rec_base + k as u32,
                frontier: rec_f_host[k] as u64,
                unsettled,
                reached: rec_r[k] as u64,
                settled,
                delta: self.delta_used(rec_m[k], rec_c[k]),
                delta_martin: rec_m[k],
                delta_crauser: rec_c[k],
                next_frontier: next,
                edges_scanned: 0,
                relax_attempted: 0,
                relax_improved: 0,
                threads: None,
                times: PhaseTimes::default(),
            });
        }
        self.settled_count = settled;
        self.frontier_len = 0;
        self.done = true;
        run.total_ms = total_ms;
        run.iterations = self.iteration;
        run.reached = settled;
        Ok(run)
    }
}

impl<D: Dist> Stepper for CudaStepper<D> {
    fn algorithm(&self) -> Algorithm {
        self.algo
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
        guarded(|| self.step_inner())?
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        if let Some(h) = &self.host {
            return Ok(h.dist.clone());
        }
        guarded(|| {
            let mut d = vec![D::INF; self.n as usize];
            self.stream.memcpy_dtoh(&self.dist, &mut d[..]).map_err(dev_err("cannot copy δ from the GPU"))?;
            self.sync("copying δ from the GPU failed")?;
            Ok(d.into_iter().map(Dist::to_host).collect())
        })?
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        if self.done {
            let mut run = self.run_header();
            run.iterations = self.iteration;
            run.reached = self.settled_count;
            return Ok(run);
        }
        let persistent = self.k.fast.is_some() && !self.opts.instrument && self.gpu.cooperative;
        guarded(|| if persistent { self.run_fast(cancel, progress) } else { self.run_kernels(cancel, progress) })?
    }
}
