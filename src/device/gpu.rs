//! What the GPU devices (CUDA, wgpu) share, written once: which algorithms they run, the checks
//! of a request (source, parameters, block sizes), the run header, and the iteration records
//! rebuilt either from the kernels' counters (instrumented runs) or from two copies of the
//! state (stepping without instrumentation). Both devices run the frontier family of
//! `[seed000]` §3 / `[seed004]` §4 with the kernels in `kernels/`; the Δ rule is
//! [`crate::algo::Thresholds`].

use crate::algo::Stepper;
use crate::algo::model::{LaneCounter, SparseWarpCounter, WARP, lane_use, launched_threads};
use crate::algo::{
    Algorithm, ArcOrder, Family, IterationRecord, PhaseTimes, RelaxVariant, RunRecord, SolveError, SolveOptions,
    StepDelta, ThreadCounts, Threshold, Thresholds, frontier_values, relax_lane_use, run_label,
};
use crate::graph::{Distance, Graph, INF, VertexId};
use std::sync::Arc;

/// Stamp of a vertex that is not settled (`kernels/common.*` `UNSET`).
pub const UNSET: u32 = u32::MAX;

/// A checked request: the shape of one family's run, decoded from the algorithm and its
/// parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuRun {
    Frontier(FrontierRun),
    EdgeParallel(BellmanFordRun),
    Bucketed(DeltaRun),
    Sweep(SweepRun),
}

/// What a device can launch: the largest block and whether blocks must be whole warps.
#[derive(Clone, Copy, Debug)]
pub struct Limits<'a> {
    /// `CUDA`, `wgpu`: for messages.
    pub device: &'a str,
    pub max_block: u32,
    /// Every block a multiple of 32 (CUDA).
    pub warp_multiple: bool,
    /// Whether the device has 64-bit distances for the frontier family (CUDA).
    pub wide_distances: bool,
}

/// CUDA's launch limits.
pub const CUDA: Limits<'static> = Limits { device: "CUDA", max_block: 1024, warp_multiple: true, wide_distances: true };
/// wgpu's launch limits before the adapter's own (checked when the stepper is built).
pub const WGPU: Limits<'static> =
    Limits { device: "wgpu", max_block: u32::MAX, warp_multiple: false, wide_distances: false };

/// What a device builder gets: a checked request.
pub struct Build<'a> {
    /// The device's index (`cuda:N`, `wgpu:N`).
    pub index: u32,
    pub graph: Arc<Graph>,
    pub algo: Algorithm,
    pub run: GpuRun,
    pub source: VertexId,
    pub opts: &'a SolveOptions,
}

impl Build<'_> {
    /// The error of a builder handed another family's run (a wrong table row).
    pub fn mismatch(&self, family: &str) -> SolveError {
        SolveError::Device(format!("{}: the {family} builder got a run of {:?}", self.algo, self.run))
    }

    /// What the built stepper knows of its run, with its `device` string.
    pub fn ident(&self, device: String) -> RunIdent {
        RunIdent {
            graph: Arc::clone(&self.graph),
            algo: self.algo,
            opts: self.opts.clone(),
            source: self.source,
            device,
        }
    }
}

/// What every GPU stepper knows of its run: the Stepper getters and the run header come from
/// here (the drivers of `driver/` hold one; it lives in this leaf so that `Build::ident` makes it
/// without importing upwards).
pub struct RunIdent {
    pub graph: Arc<Graph>,
    pub algo: Algorithm,
    pub opts: SolveOptions,
    pub source: VertexId,
    /// The device string of every record, e.g. `CUDA: NVIDIA H100 (cuda:0; blocks …)`.
    pub device: String,
}

impl RunIdent {
    /// An empty record of this run (label, device, graph, source).
    pub fn header(&self) -> RunRecord {
        run_header(self.algo, &self.opts, &self.device, &self.graph, self.source)
    }
}

/// A device builder of one family.
pub type Builder = fn(Build<'_>) -> Result<Box<dyn Stepper>, SolveError>;

/// A Δ-stepping request checked for a GPU: the bucket width (clamped to u32) and the relax
/// kernel (`relax=balanced`: a block shares its frontier's arcs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeltaRun {
    pub delta: u32,
    pub balanced: bool,
}

/// The checks every device shares, run once per request by `make_stepper`: the source, the
/// parameter values, negative weights, the block sizes' ranges.
///
/// Errors: [`SolveError::BadSource`], [`SolveError::Options`].
pub fn common_checks(graph: &Graph, algo: Algorithm, source: VertexId, opts: &SolveOptions) -> Result<(), SolveError> {
    crate::algo::check_source(graph, source)?;
    algo.validate(&opts.params).map_err(SolveError::Options)?;
    crate::algo::check_weights(graph, algo).map_err(SolveError::Options)?;
    opts.block.validate().map_err(SolveError::Options)
}

/// The shape of a frontier run on a GPU, from the algorithm and its parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrontierRun {
    pub threshold: Threshold,
    pub variant: RelaxVariant,
    /// The successors relax without atomics (`relax=non-atomic`, `[seed004]` §4.3).
    pub racy: bool,
    /// The successors relax with a block's frontier arcs spread over its threads
    /// (`relax=balanced`; `kernels/frontier.*` `relax_succ_balanced`).
    pub balanced: bool,
    /// The predecessors relax with shared-memory offsets and read-only-cache flags
    /// (`relax=cached`, UGPU_PLUS, `[seed004]` §4.2).
    pub cached: bool,
    /// Which phases run on the CPU (`split`, the hybrids of `[seed004]` §4.1).
    pub split: Split,
    /// The minimum's second pass on the host (`minimum=one-pass`, UGPU) instead of the GPU.
    pub one_pass_min: bool,
    /// The dense adjacency matrix instead of CSR lists (`layout=matrix`, `[seed004]` §5).
    pub matrix: bool,
}

impl FrontierRun {
    /// Whether the run takes one of seed 004's variants that only the per-phase launches have
    /// (no persistent fast path, no instrumented counters).
    pub fn seed004_variant(&self) -> bool {
        self.cached || self.split != Split::Gpu || self.one_pass_min || self.matrix
    }
}

/// Where the phases of a frontier iteration run (`split`; `[seed004]` §4.1's hybrids, the
/// minimum always on the CPU in them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Every phase on the GPU (UGPU / FGPU).
    Gpu,
    /// UH1: update on the GPU; relax and minimum on the CPU.
    Uh1,
    /// UH2: relax on the GPU; update and minimum on the CPU.
    Uh2,
    /// UH3: relax and update on the GPU; minimum on the CPU.
    Uh3,
}

impl Split {
    /// Whether the relax runs on the GPU.
    pub fn relax_on_gpu(self) -> bool {
        self != Split::Uh1
    }

    /// Whether the update runs on the GPU.
    pub fn update_on_gpu(self) -> bool {
        self != Split::Uh2
    }
}

/// Largest n of the adjacency-matrix layout (n² weights of 4 bytes: 8 GiB at this n).
pub const MATRIX_MAX_N: usize = 46_340;

/// Seed 004's option values that only the CUDA frontier kernels implement, as `key=value`
/// (empty for the default kernels). Shared by the devices that refuse them, the lab's planner,
/// CUDA's memory estimate and the tests.
pub fn seed004_options(algo: Algorithm, params: &crate::algo::Params) -> Vec<String> {
    if !matches!(algo.spec().family, crate::algo::Family::Frontier { .. }) {
        return Vec::new();
    }
    crate::algo::FrontierParams::or_defaults(algo, params).cuda_only()
}

/// `Err` names the seed 004 options of `params` (see [`seed004_options`]) for a device that
/// does not implement them (wgpu).
pub fn cuda_only_options(device: &str, algo: Algorithm, params: &crate::algo::Params) -> Result<(), String> {
    let asked = seed004_options(algo, params);
    if asked.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{device} does not implement {} (seed 004's hybrids, one-pass minimum, UGPU_PLUS and adjacency-matrix \
kernels are CUDA only)",
            asked.join(", ")
        ))
    }
}

/// Checks a frontier request for a GPU with `limits` and returns its shape (the source and the
/// parameter values were checked by `make_stepper`).
///
/// Errors: [`SolveError::Options`] for combinations of seed 004's variants that do not go
/// together; [`SolveError::Device`] for another family or an impossible block size.
pub fn check_request(
    graph: &Graph,
    algo: Algorithm,
    opts: &SolveOptions,
    limits: &Limits<'_>,
) -> Result<FrontierRun, SolveError> {
    use crate::algo::{FrontierParams, FrontierRelax, GraphLayout, HybridSplit, MinimumPasses};
    let Family::Frontier { threshold, variant } = algo.spec().family else {
        return Err(SolveError::Device(format!("{algo} is not a frontier solver")));
    };
    check_blocks(algo.spec().family, &opts.block, limits)?;
    let p = FrontierParams::decode(algo, &opts.params).map_err(SolveError::Options)?;
    let split = match p.split {
        HybridSplit::Gpu => Split::Gpu,
        HybridSplit::Uh1 => Split::Uh1,
        HybridSplit::Uh2 => Split::Uh2,
        HybridSplit::Uh3 => Split::Uh3,
    };
    let run = FrontierRun {
        threshold,
        variant,
        racy: p.relax == FrontierRelax::NonAtomic,
        balanced: p.relax == FrontierRelax::Balanced,
        cached: p.relax == FrontierRelax::Cached,
        split,
        one_pass_min: p.minimum == MinimumPasses::OnePass,
        matrix: p.layout == GraphLayout::Matrix,
    };
    let clash = |what: &str| Err(SolveError::Options(format!("{algo}: {what}")));
    if run.matrix {
        if run.balanced || run.cached {
            return clash(
                "layout=matrix has its own relax kernels (threads share chunks of the flags in shared memory); use relax=atomic, non-atomic or plain",
            );
        }
        if run.split != Split::Gpu {
            return clash(
                "the hybrids (split=uh1/uh2/uh3) run on adjacency lists, as in seed 004 §4.1; use layout=lists",
            );
        }
        if graph.n() > MATRIX_MAX_N {
            return Err(SolveError::Device(format!(
                "layout=matrix: {} vertices need {:.1} GiB for the n x n weight matrix; the matrix layout takes n <= {MATRIX_MAX_N} (seed 004 §5 used n <= 15 K)",
                graph.n(),
                (graph.n() as f64).powi(2) * 4.0 / (1u64 << 30) as f64
            )));
        }
    }
    if run.split != Split::Gpu && run.cached {
        return clash(
            "relax=cached is a GPU kernel of the all-GPU solution (UGPU_PLUS); the hybrids use the plain relax",
        );
    }
    Ok(run)
}

/// Refuses block sizes a device cannot launch (`warp_multiple`: CUDA's multiples of 32), for
/// the kernels `family` launches only ([`Family::kernels`]): a block size no kernel reads is not
/// checked.
pub(crate) fn check_blocks(
    family: Family,
    block: &crate::algo::BlockSizes,
    limits: &Limits<'_>,
) -> Result<(), SolveError> {
    let Limits { device, max_block, warp_multiple, .. } = *limits;
    for k in family.kernels() {
        let (b, kernel) = (block.get(k.block), k.name);
        if warp_multiple && (!(32..=max_block).contains(&b) || b % 32 != 0) {
            return Err(SolveError::Device(format!(
                "{kernel} block size {b}: {device} needs a multiple of 32 (the warp) in 32…{max_block}"
            )));
        }
        if b == 0 || b > max_block {
            return Err(SolveError::Device(format!(
                "{device}: block size {b} for {kernel} is not possible: workgroups hold 1 to {max_block} invocations"
            )));
        }
    }
    Ok(())
}

/// A PHAST sweep checked for a GPU (`[phast]` Delling, Goldberg, Nowatzyk, Werneck, IPDPS 2011
/// §4, the GPU sweep): the kernel's block size; the hierarchy itself is built by the builder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SweepRun {
    /// Threads per block (workgroup) of `phast_levels` (`BlockSizes::relax`).
    pub block: u32,
    /// `top=shared` (the default): the top of the hierarchy in one staged launch with δ in shared
    /// memory ([`crate::device::driver::sweep`]); `top=global`: every level through global memory.
    pub staged: bool,
}

/// Checks a PHAST request for a GPU with `limits`: the family and the block size of its kernel.
///
/// Errors: [`SolveError::Device`].
pub fn check_sweep(
    _: &Graph,
    algo: Algorithm,
    opts: &SolveOptions,
    limits: &Limits<'_>,
) -> Result<SweepRun, SolveError> {
    if algo.spec().family != Family::Sweep {
        return Err(SolveError::Device(format!("{algo} is not a hierarchy sweep")));
    }
    check_blocks(Family::Sweep, &opts.block, limits)?;
    // `top`'s value was validated by `common_checks`, which every request passes first.
    let staged = opts.params.get("top").is_none_or(|v| v == "shared");
    Ok(SweepRun { block: opts.block.relax, staged })
}

/// The shape of a Bellman-Ford run on a GPU ([seed002]; `docs/gpu-bellman-ford.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BellmanFordRun {
    /// `filter=frontier`: only tails lowered in the previous pass relax.
    pub frontier_only: bool,
    pub order: ArcOrder,
    /// `ro-cache=on` (CUDA's `__ldg` loads).
    pub read_only_cache: bool,
    /// [`Graph::negative_bound`]: a proposal below it proves a negative cycle.
    pub lo: i64,
}

/// Checks a Bellman-Ford request for a GPU with `limits` (the block sizes of its kernels, the
/// i32 range of [`bellman_ford_range`]).
///
/// Errors: [`SolveError::Device`].
pub fn check_bellman_ford(
    graph: &Graph,
    algo: Algorithm,
    opts: &SolveOptions,
    limits: &Limits<'_>,
) -> Result<BellmanFordRun, SolveError> {
    use crate::algo::BellmanFordParams;
    if algo.spec().family != Family::EdgeParallel {
        return Err(SolveError::Device(format!("{algo} is not edge-parallel Bellman-Ford")));
    }
    check_blocks(algo.spec().family, &opts.block, limits)?;
    let lo = bellman_ford_range(graph, limits.device).map_err(SolveError::Device)?;
    let p = BellmanFordParams::decode(&opts.params).map_err(SolveError::Options)?;
    Ok(BellmanFordRun { frontier_only: p.frontier_only(), order: p.order, read_only_cache: p.read_only_cache, lo })
}

/// Whether the Bellman-Ford kernels' signed 32-bit δ (∞ = i32::MAX) hold every shortest-path
/// value of `graph`: from below [`Graph::negative_bound`] (> i32::MIN; it also bounds every
/// weight), from above the smaller of [`Graph::distance_bound`] and [`Graph::path_bound`]
/// (< i32::MAX). Without a negative cycle every value a synchronous pass stores is the length
/// of a simple path, so it lies between the two. Returns the lower bound (the kernels' `lo`).
///
/// Errors: the reason, naming `device` and the bounds.
pub fn bellman_ford_range(graph: &Graph, device: &str) -> Result<i64, String> {
    let upper = graph.distance_bound().min(graph.path_bound());
    let lower = graph.negative_bound();
    if upper < i32::MAX as u128 && lower > i32::MIN as i128 {
        return Ok(lower as i64);
    }
    Err(format!(
        "graph `{}` is outside the {device} Bellman-Ford range: the kernels keep signed 32-bit δ (∞ = 2³¹−1), but          shortest paths here may reach {upper} (bound from above) and {lower} (bound from below); use the CPU",
        graph.name
    ))
}

/// What the u32 kernels' distances can hold, for messages.
pub const U32_DISTANCE_RANGE: &str = "u32 distances < 2³²−1";

/// Refuses graphs whose arithmetic could reach the u32 ∞ sentinel (2³²−1): the frontier family
/// on wgpu and Δ-stepping on every GPU keep u32 δ.
///
/// What the kernels compute: final distances, relaxation values δ(f) + w(f, v) from a settled
/// frontier vertex f to an unsettled v, and Crauser keys δ(u) + ω(u). The value δ(f) was set
/// along a chain of settled vertices (a simple path), and v is not on it, so a relaxation value
/// is the length of a simple path: at most B = Σ_v (heaviest arc into v). Keys add at most w_max.
/// The check is first (n − 1)·w_max + 2·w_max ([`Graph::distance_bound`] plus one arc and ω),
/// then B + w_max ([`Graph::path_bound`]) — road networks such as NY ((n − 1)·w_max ≈ 9.8·10⁹,
/// B ≈ 10⁹) pass the second.
pub fn u32_distance_range(graph: &Graph) -> Result<(), SolveError> {
    let limit = u32::MAX as u128;
    let max_w = graph.max_weight() as u128;
    let bound = graph.distance_bound();
    if bound + 2 * max_w < limit {
        return Ok(());
    }
    let path_bound = graph.path_bound();
    if path_bound + max_w < limit {
        return Ok(());
    }
    Err(SolveError::Device(format!(
        "graph `{}` is outside the wgpu distance range: wgpu keeps {U32_DISTANCE_RANGE} (WGSL has only 32-bit \
         atomics), but a path here can reach Σ (heaviest arc into each vertex) = {path_bound} (and (n − 1)·w_max = \
         {bound}, n = {}, w_max = {max_w}); the kernels need that plus w_max below 2³²−1 = {}; use the CPU or \
         CUDA device",
        graph.name,
        graph.n(),
        u32::MAX
    )))
}

/// The header of a run's record: label, device, graph, source; times and records follow.
pub fn run_header(algo: Algorithm, opts: &SolveOptions, device: &str, graph: &Graph, source: VertexId) -> RunRecord {
    RunRecord {
        algorithm: run_label(algo, &opts.params),
        device: device.to_string(),
        graph: graph.name.clone(),
        n: graph.n(),
        m: graph.m(),
        source,
        ..Default::default()
    }
}

/// What an instrumented iteration counted on the GPU (the `C_*` / `L_*` slots of the kernels).
#[derive(Clone, Copy, Debug, Default)]
pub struct Counters {
    pub frontier: u64,
    pub unsettled: u64,
    pub reached: u64,
    pub next_frontier: u64,
    pub scanned: u64,
    pub attempted: u64,
    pub improved: u64,
    /// Relax threads with work; `None`: |F| for successors, |U| for predecessors.
    pub working: Option<u64>,
    pub warps_full: u64,
    pub warps_mixed: u64,
    /// All-dummy warps; `None`: the launched warps minus full and mixed.
    pub warps_dummy: Option<u64>,
    /// Successors relax: arc iterations and warp iterations of its loop ([`crate::algo::LaneCounter`]).
    pub arc_iters: u64,
    pub warp_iters: u64,
}

/// The record of iteration `i` from the kernels' counters (`modelled = false`).
pub fn counted_record(
    i: u32,
    run: FrontierRun,
    n: u64,
    block: u32,
    t: &Thresholds,
    c: &Counters,
    times: PhaseTimes,
) -> IterationRecord {
    let launched = launched_threads(n, block);
    let working = c.working.unwrap_or(match run.variant {
        RelaxVariant::Successors => c.frontier,
        RelaxVariant::Predecessors => c.unsettled,
    });
    IterationRecord {
        iteration: i,
        frontier: c.frontier,
        unsettled: c.unsettled,
        reached: c.reached,
        settled: n - c.unsettled + c.next_frontier,
        edges_scanned: c.scanned,
        relax_attempted: c.attempted,
        relax_improved: c.improved,
        threads: Some(ThreadCounts {
            block_size: block,
            launched,
            working,
            warps_all_dummy: c.warps_dummy.unwrap_or((launched / WARP).saturating_sub(c.warps_full + c.warps_mixed)),
            warps_mixed: c.warps_mixed,
            warps_all_working: c.warps_full,
            modelled: false,
        }),
        times,
        values: frontier_values(
            t,
            c.next_frontier,
            (run.variant == RelaxVariant::Successors).then(|| lane_use(c.arc_iters, c.warp_iters)),
        ),
    }
}

/// What the records rebuilt from state copies model per launch: warp classes of the frontier
/// and lane use of the successors relax.
#[derive(Clone, Debug, Default)]
pub struct LaunchModel {
    pub warps: SparseWarpCounter,
    pub lanes: LaneCounter,
}

impl LaunchModel {
    /// A model for `n` vertices.
    pub fn new(n: usize) -> Self {
        LaunchModel { warps: SparseWarpCounter::new(n), lanes: LaneCounter::default() }
    }
}

/// A copy of the device state: δ per vertex ([`INF`] = ∞) and the stamp (the iteration in
/// which the vertex is the frontier, i.e. settled by the update before it; [`UNSET`] if not).
#[derive(Clone, Debug, Default)]
pub struct HostState {
    pub dist: Vec<Distance>,
    pub stamp: Vec<u32>,
}

/// The record and the step delta of iteration `i` from the state before (`prev`) and after
/// (`new`) it, with the thread figures a vertex-parallel launch has (`modelled = true`): what
/// a stepper reports when the kernels did not count. O(n + arcs of Fᵢ [+ in-arcs of U]).
#[allow(clippy::too_many_arguments)]
pub fn diffed_record(
    graph: &Graph,
    run: FrontierRun,
    block: u32,
    model: &mut LaunchModel,
    i: u32,
    t: &Thresholds,
    prev: &HostState,
    new: &HostState,
    times: PhaseTimes,
) -> (IterationRecord, StepDelta) {
    let n = graph.n();
    let succ = graph.successors();
    let mut frontier = Vec::new();
    let mut unsettled = Vec::new();
    let mut delta = StepDelta::default();
    let mut reached = 0u64;
    for v in 0..n {
        let st = prev.stamp[v];
        if st == i {
            frontier.push(v as VertexId);
        } else if st == UNSET {
            unsettled.push(v as VertexId);
            if new.stamp[v] != UNSET {
                delta.settled.push(v as VertexId);
            }
            reached += u64::from(new.dist[v] != INF);
        }
        if new.dist[v] != prev.dist[v] {
            delta.lowered.push((v as VertexId, prev.dist[v], new.dist[v]));
        }
    }
    let mut scanned = 0u64;
    let mut attempted = 0u64;
    for &f in &frontier {
        scanned += succ.degree(f) as u64;
        attempted += succ.arcs(f).filter(|&(u, _)| prev.stamp[u as usize] == UNSET).count() as u64;
    }
    let working = match run.variant {
        RelaxVariant::Successors => &frontier,
        RelaxVariant::Predecessors => {
            let pred = graph.predecessors();
            scanned = unsettled.iter().map(|&u| pred.degree(u) as u64).sum();
            &unsettled
        }
    };
    let next = delta.settled.len() as u64;
    let record = IterationRecord {
        iteration: i,
        frontier: frontier.len() as u64,
        unsettled: unsettled.len() as u64,
        reached,
        settled: (n - unsettled.len()) as u64 + next,
        edges_scanned: scanned,
        relax_attempted: attempted,
        relax_improved: delta.lowered.len() as u64,
        threads: Some(model.warps.count(n as u64, block, working)),
        times,
        values: frontier_values(
            t,
            next,
            relax_lane_use(&mut model.lanes, graph, run.variant, run.balanced, &frontier, block),
        ),
    };
    (record, delta)
}

/// The record of a fast-path iteration: thresholds and set sizes, no arc or thread counts.
pub fn sizes_record(
    i: u32,
    t: &Thresholds,
    frontier: u64,
    unsettled: u64,
    reached: u64,
    settled: u64,
    next: u64,
) -> IterationRecord {
    IterationRecord {
        iteration: i,
        frontier,
        unsettled,
        reached,
        settled,
        values: frontier_values(t, next, None),
        ..Default::default()
    }
}

/// Thresholds from a device's two minima, with the device's ∞ already mapped to [`INF`].
pub fn thresholds(run: FrontierRun, martin: Distance, crauser: Distance) -> Thresholds {
    Thresholds::from_minima(run.threshold, martin, crauser)
}

/// `INF` for the u64 ∞ marker of 64-bit device distances (which are never negative: the
/// frontier kernels refuse negative weights).
pub fn widen_u64(d: u64) -> Distance {
    if d == u64::MAX { INF } else { d as Distance }
}

/// `INF` for the u32 ∞ marker of 32-bit device distances.
pub fn widen_u32(d: u32) -> Distance {
    if d == u32::MAX { INF } else { Distance::from(d) }
}
