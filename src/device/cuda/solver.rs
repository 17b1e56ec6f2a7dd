//! The CUDA backend of the frontier driver ([`crate::device::driver::frontier::Frontier`]):
//! device buffers, the three vertex-parallel kernels per iteration, the instrumented counters,
//! the hybrids and the persistent fast path. See the module docs of [`super`] for what each mode
//! measures.

use super::kernels::Gpu;
use super::stream::cfg;
use super::{dev_err, guarded};
use crate::algo::{Algorithm, PhaseTimes, RelaxVariant, SolveError, SolveOptions, Stepper};
use crate::device::driver::frontier::{At, FrontierBackend, Phase, StepOut};
use crate::device::gpu::{Build, FrontierRun, HostState};
use crate::graph::{Distance, Graph, INF, VertexId};
use cudarc::driver::{CudaEvent, CudaFunction, CudaSlice, CudaStream, DeviceRepr, PushKernelArg, ValidAsZeroBits};
use std::sync::Arc;

mod build;
mod fast;
mod hybrid;
mod launch;

// Counter slots (kernels/common.cuh C_*) and the fast kernel's control words (struct Ctl in
// kernels/fast.cu), shared with the kernels through the prelude of src/device/layout.rs.
pub(super) use crate::device::layout::cuda_frontier::{
    C_ARC_ITERS, C_ATTEMPTED, C_COUNT, C_IMPROVED, C_NEXT_FRONTIER, C_REACHED, C_SCANNED, C_WARP_ITERS, C_WARPS_DUMMY,
    C_WARPS_FULL, C_WARPS_MIXED, C_WORKING, CTL_DONE, CTL_ITER, CTL_WORDS,
};

/// Clock cycles the racy relax waits between its read and its write (widens the race window).
pub(super) const RACY_SPIN_CYCLES: u32 = 2000;

/// First chunk of iterations per persistent launch; later chunks grow ×4 (cancel/progress between).
pub(super) const FIRST_CHUNK: u32 = 4096;

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
        crate::device::gpu::widen_u64(self)
    }
    fn from_host(d: Distance) -> u64 {
        if d == INF { u64::MAX } else { d as u64 }
    }
}

/// Whether 32-bit distances are safe: every value a relax can form (a walk of ≤ n arcs) stays
/// below the u32 ∞ marker.
fn narrow_ok(graph: &Graph) -> bool {
    (graph.n() as u128) * (graph.max_weight().max(0) as u128) < u128::from(u32::MAX)
}

/// Device bytes a CUDA stepper allocates for `graph` and `algo` (graph arrays, state, reduction
/// partials, fast-path lists and records). Used for the free-memory check and by benchmarks.
pub fn device_bytes(graph: &Graph, algo: Algorithm, opts: &SolveOptions) -> u64 {
    let n = graph.n() as u64;
    let m = graph.m() as u64;
    let d = if narrow_ok(graph) { 4 } else { 8 };
    let csr = (n + 1) * 4 + m * 8;
    let params = crate::algo::FrontierParams::or_defaults(algo, &opts.params);
    let matrix = params.layout == crate::algo::GraphLayout::Matrix;
    let mut b = if matrix { n * n * 4 } else { csr }; // the n × n weights, or successors lists
    if algo.variant() == Some(RelaxVariant::Predecessors) && !matrix {
        b += csr;
    }
    b += n * d * 2 + n * 4; // ω, δ, stamp
    if opts.instrument {
        b += n * d; // δ snapshot
    }
    b += 2 * 8 * (n.div_ceil(64) + 1) + 3 * 8 + C_COUNT as u64 * 8; // partials, Δ, counters
    let racy = params.racy();
    let variant = !crate::device::gpu::seed004_options(algo, &opts.params).is_empty();
    if !racy && !variant {
        b += 5 * n * 4 + (n + 1) * 24 + CTL_WORDS as u64 * 4; // lists, marks, records, control block
        if d == 4 && algo.variant() == Some(RelaxVariant::Successors) {
            b += n * 8; // packed (δ, ω) words
        }
    }
    b
}

/// Creates the stepper (the frontier driver over this backend) with the distance width the
/// graph allows.
pub(super) fn new_stepper(gpu: Arc<Gpu>, run: FrontierRun, b: &Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    if narrow_ok(&b.graph) {
        Ok(Box::new(CudaFrontier::<u32>::stepper(gpu, run, b)?))
    } else {
        Ok(Box::new(CudaFrontier::<u64>::stepper(gpu, run, b)?))
    }
}

/// Kernels one stepper launches.
pub(super) struct Kernels {
    init: CudaFunction,
    relax: CudaFunction,
    min1: CudaFunction,
    min2: CudaFunction,
    update: CudaFunction,
    update_counting: CudaFunction,
    fast: Option<FastKernels>,
}

pub(super) struct FastKernels {
    reset: CudaFunction,
    setup: CudaFunction,
    run: CudaFunction,
}

/// Fast-path buffers.
pub(super) struct FastBufs {
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

/// What one vertex-parallel iteration returned.
pub(super) struct IterOut {
    times: PhaseTimes,
    /// [Δ_martin, Δ_crauser, Δ used]
    deltas: [u64; 3],
    ctr: [u64; C_COUNT],
}

/// The graph's arrays on the device.
pub(super) struct GraphBufs {
    off: CudaSlice<u32>,
    tgt: CudaSlice<u32>,
    wgt: CudaSlice<u32>,
    pred: Option<[CudaSlice<u32>; 3]>,
    matrix: Option<CudaSlice<u32>>,
}

/// The run's state on the device.
pub(super) struct StateBufs<D: Dist> {
    omega: CudaSlice<D>,
    dist: CudaSlice<D>,
    prev: Option<CudaSlice<D>>,
    stamp: CudaSlice<u32>,
    part_m: CudaSlice<u64>,
    part_c: CudaSlice<u64>,
    out: CudaSlice<u64>,
    ctr: CudaSlice<u64>,
}

/// The CUDA backend of the frontier driver (fields shared by `launch.rs` and `fast.rs`).
pub(super) struct CudaFrontier<D: Dist> {
    gpu: Arc<Gpu>,
    stream: Arc<CudaStream>,
    graph: Arc<Graph>,
    opts: SolveOptions,
    run: FrontierRun,
    n: u32,
    k: Kernels,
    /// The graph on the device.
    g: GraphBufs,
    /// The run's state on the device.
    st: StateBufs<D>,
    fast: Option<FastBufs>,
    /// Iteration the fast lists were built for (they stay valid across persistent chunks).
    lists_for: Option<u32>,
    /// The hybrids' host copies of δ and the stamps, reused across iterations (`solver/hybrid.rs`).
    hybrid_host: (Vec<D>, Vec<u32>),
    /// The persistent run in progress (`solver/fast.rs`).
    persistent: Option<fast::PersistentRun>,
}

impl<D: Dist> CudaFrontier<D> {
    /// Applies the cache preference to every kernel this backend launches.
    fn apply_cache(&self) -> Result<(), SolveError> {
        let mut fs = vec![&self.k.relax, &self.k.min1, &self.k.min2, &self.k.update, &self.k.update_counting];
        if let Some(f) = &self.k.fast {
            fs.extend([&f.setup, &f.run]);
        }
        super::stream::apply_cache(&fs, self.opts.cache)
    }

    fn event(&self) -> Result<CudaEvent, SolveError> {
        super::stream::event(&self.stream)
    }

    fn sync(&self, what: &str) -> Result<(), SolveError> {
        self.stream.synchronize().map_err(dev_err(what))
    }
}

impl<D: Dist> FrontierBackend for CudaFrontier<D> {
    const RESTARTS: bool = true;

    fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, SolveError> {
        guarded(f)
    }

    /// δ = ∞ except δ(s) = 0, stamp(s) = 1 (F₁ = {s}), the fast path's marks cleared (they hold
    /// iteration numbers, which start again at 1) and its lists dropped. The graph arrays stay
    /// where they are.
    fn reset(&mut self, source: VertexId) -> Result<(), SolveError> {
        if let Some(fb) = &mut self.fast {
            self.stream.memset_zeros(&mut fb.mark).map_err(dev_err("cannot clear the fast path's marks"))?;
        }
        let b = self.opts.block.relax;
        let mut l = self.stream.launch_builder(&self.k.init);
        l.arg(&self.n).arg(&self.st.dist).arg(&self.st.stamp).arg(&source);
        // SAFETY: arguments match `sssp_init_*` in kernels/frontier.cu; n threads guarded.
        unsafe { l.launch(cfg(self.n.div_ceil(b), b)) }.map_err(dev_err("initialise kernel launch failed"))?;
        self.stream.synchronize().map_err(dev_err("initialisation on the GPU failed"))?;
        self.lists_for = None;
        self.persistent = None;
        Ok(())
    }

    fn read_dist(&mut self) -> Result<Vec<Distance>, SolveError> {
        let mut d = vec![D::INF; self.n as usize];
        self.stream.memcpy_dtoh(&self.st.dist, &mut d[..]).map_err(dev_err("cannot copy δ from the GPU"))?;
        self.sync("copying δ from the GPU failed")?;
        Ok(d.into_iter().map(Dist::to_host).collect())
    }

    fn read_state(&mut self) -> Result<HostState, SolveError> {
        let n = self.n as usize;
        let mut d = vec![D::INF; n];
        let mut s = vec![0u32; n];
        self.stream.memcpy_dtoh(&self.st.dist, &mut d[..]).map_err(dev_err("cannot copy δ from the GPU"))?;
        self.stream
            .memcpy_dtoh(&self.st.stamp, &mut s[..])
            .map_err(dev_err("cannot copy the settled flags from the GPU"))?;
        self.sync("copying the state from the GPU failed")?;
        Ok(HostState { dist: d.into_iter().map(Dist::to_host).collect(), stamp: s })
    }

    fn prepare(&mut self) -> Result<(), SolveError> {
        self.apply_cache()
    }

    fn step_launch(&mut self, at: At) -> Result<StepOut, SolveError> {
        self.step_iteration(at)
    }

    /// One: the host reads Δ (and the counters) back after every iteration.
    fn phase_batch_max(&self) -> u32 {
        1
    }

    fn run_phases(&mut self, at: At, _count: u32) -> Result<Vec<Phase>, SolveError> {
        Ok(vec![self.phase_iteration(at)?])
    }
}

/// The n × n weight matrix of `layout=matrix` (kernels/seed004.cu), u32::MAX where there is no
/// arc, the lightest of parallel arcs: predecessors read column v (W[p·n + v] = w(p → v)),
/// successors row f through the transpose (WT[j·n + f] = w(f → j)), so a warp's threads read
/// consecutive words. The caller checks n ≤ `gpu::MATRIX_MAX_N`.
fn dense_weights(graph: &Graph, variant: RelaxVariant) -> Vec<u32> {
    let n = graph.n();
    let mut w = vec![u32::MAX; n * n];
    let succ = graph.successors();
    for u in 0..n {
        for (v, wt) in succ.arcs(u as VertexId) {
            let at = match variant {
                RelaxVariant::Predecessors => u * n + v as usize,
                RelaxVariant::Successors => v as usize * n + u,
            };
            w[at] = w[at].min(wt as u32);
        }
    }
    w
}
