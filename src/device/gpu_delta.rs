//! What the CUDA and wgpu Δ-stepping steppers share ([meyer-sanders]; kernels
//! `kernels/delta_stepping.{cu,wgsl}`, design in `docs/gpu-delta-stepping.md`): the request
//! check, the device state's layout (control words and the per-phase log entry), the initial
//! state, and the record of a phase rebuilt from its log entry — the same figures as the CPU
//! stepper's (`src/algo/delta_stepping`), so every device draws the same plots.
//!
//! The bucket state machine runs on the device: a phase is relax, commit, advance (and, when
//! the bucket is exhausted, the far set's lowest bucket is opened) with no host round trip, so
//! the host can queue a batch of phases and read back one log entry per phase.

use super::gpu::Limits;
use crate::algo::model::launched_threads;
use crate::algo::{
    Algorithm, Family, IterationRecord, PhaseTimes, SolveError, SolveOptions, StepDelta, ThreadCounts, Values,
    dist_value,
};
use crate::graph::{Distance, Graph, INF, VertexId};

/// Phase kinds (`ctl[C_KIND]`, `L_KIND`): light, heavy, selecting the next bucket, done.
pub const K_LIGHT: usize = 0;
pub const K_HEAVY: usize = 1;
pub const K_SELECT: usize = 2;
pub const K_DONE: usize = 3;

/// Control words (`DS_C_*` in the kernels, through [`crate::device::layout`]).
pub const CTL_WORDS: usize = 16;
pub const C_PHASE: usize = 0;
pub const C_SLOT: usize = 1;
pub const C_BUCKET: usize = 2;
pub const C_KIND: usize = 3;
pub const C_SERIAL: usize = 4;
pub const C_RSIZE: usize = 5;
pub const C_HEAVY_R: usize = 6;
pub const C_SETTLED: usize = 7;
pub const C_REACHED: usize = 8;
pub const C_MINB: usize = 9;
pub const C_OPENED: usize = 10;
pub const C_OPENED_HEAVY: usize = 11;

/// u32 words of a phase's log entry (`DS_LOG_WORDS` in the kernels) and its slots.
pub const LOG_WORDS: usize = 24;
pub const L_VALID: usize = 0;
pub const L_FRONTIER: usize = 1;
pub const L_SCANNED: usize = 2;
pub const L_RELAXED: usize = 3;
pub const L_LOWERED: usize = 4;
pub const L_FRESH: usize = 5;
pub const L_NEXT: usize = 6;
pub const L_NEW_R: usize = 7;
pub const L_NEW_R_HEAVY: usize = 8;
pub const L_BUCKET: usize = 9;
pub const L_KIND: usize = 10;
pub const L_BUCKET_SIZE: usize = 11;
pub const L_NEXT_FRONTIER: usize = 12;
pub const L_SETTLED_BEFORE: usize = 13;
pub const L_SETTLED: usize = 14;
pub const L_REACHED: usize = 15;
pub const L_WARPS_FULL: usize = 16;
pub const L_WARPS_MIXED: usize = 17;
/// The bucket serial of the phase (R's members carry it in `rr`).
pub const L_SERIAL: usize = 18;
pub const L_DONE: usize = 19;
pub const L_ARC_ITERS: usize = 20;
pub const L_WARP_ITERS: usize = 21;
/// Most phases per batch of the fast path (log entries on the device).
pub const BATCH_MAX: u32 = 64;

/// One phase's log entry.
pub type LogEntry = [u32; LOG_WORDS];

pub use super::gpu::DeltaRun;

/// Checks a Δ-stepping request for a GPU with `limits`: its kernels' block sizes (the
/// u32 distance range is the family's [`crate::device::family::GpuFamily`]'s `range`).
///
/// Errors: [`SolveError::Device`].
pub fn check_delta_stepping(
    graph: &Graph,
    algo: Algorithm,
    opts: &SolveOptions,
    limits: &Limits<'_>,
) -> Result<DeltaRun, SolveError> {
    if algo.spec().family != Family::Bucketed {
        return Err(SolveError::Device(format!("{algo} is not Δ-stepping")));
    }
    super::gpu::check_blocks(Family::Bucketed, &opts.block, limits)?;
    let device = limits.device;
    let p = crate::algo::DeltaSteppingParams::decode(&opts.params).map_err(SolveError::Options)?;
    let delta = match (p.near_far, p.delta) {
        (true, crate::algo::DeltaRule::Auto) => nearfar_delta(graph),
        _ => p.delta.width(graph),
    };
    let balanced = p.balanced();
    if balanced && opts.block.relax > 1024 {
        return Err(SolveError::Device(format!(
            "{device}: relax=balanced keeps a block's prefix sums in shared memory for at most 1024 threads; \
             block size {} is larger",
            opts.block.relax
        )));
    }
    Ok(DeltaRun { delta: delta.clamp(1, u32::MAX as Distance) as u32, balanced })
}

/// Δ of `worklist=near-far` when the parameter is 0 (auto), in the graph's weight units:
/// - **16 mean weights** when the maximum out-degree is ≤ 32 (roads, grids, meshes);
/// - **8 mean weights** when the degrees are skewed, the maximum out-degree ≥ 64 × the mean
///   (Kronecker, R-MAT, social networks);
/// - else **half a mean weight** (uniform random graphs);
///
/// at least 1.
///
/// Fitted on the prototype's sweep (`bench/results/gpu30-prototype/`, H100, Δ from ½ to 64 mean
/// weights): roads and grids want buckets spanning many hops, because each phase costs a fixed
/// ~4 µs in one block and extra relaxations are cheap there (NY 16 w̄: 1 738 phases, 1.7 arcs
/// scanned per arc; grid 16–32 w̄). On power-law graphs a few hubs reach most vertices within a
/// couple of hops, so wide buckets mean few, full grid phases (Kronecker 21: 4.66 ms at 8 w̄
/// against 6.64 ms at ½ w̄, 12 phases). On uniform random graphs a bucket of one mean weight
/// already holds a large share of the vertices and more Δ only rescans arcs (uniform 21: 2 w̄
/// scans 4.2 m arcs and takes 1.8× longer than ½ w̄). The maximum degree alone does not separate
/// the last two (both exceed 32); its ratio to the mean does (Kronecker 21 ≈ 3 400, uniform 21
/// < 4). The CPU's [`crate::algo::auto_delta`] gives Δ ≈ 1–2 on Kronecker/uniform (too small for
/// one kernel per phase) and so is not reused. `tune::rules` (D4) predicts the same value.
pub fn nearfar_delta(graph: &Graph) -> Distance {
    let succ = graph.successors();
    let m = succ.weights.len() as u128;
    if m == 0 {
        return 1;
    }
    let n = (succ.offsets.len().max(2) - 1) as u128;
    let sum: u128 = succ.weights.iter().map(|&w| w.max(0) as u128).sum();
    let max_degree = succ.offsets.windows(2).map(|w| w[1].saturating_sub(w[0])).max().unwrap_or(0) as u128;
    let delta = match nearfar_width(max_degree, n, m) {
        NearFarWidth::Hops => (16 * sum).div_ceil(m),
        NearFarWidth::Hubs => (8 * sum).div_ceil(m),
        NearFarWidth::Narrow => sum.div_ceil(2 * m),
    };
    delta.clamp(1, u32::MAX as u128) as Distance
}

/// Which of [`nearfar_delta`]'s three widths a graph of `n` vertices, `m` arcs and largest
/// out-degree `max_degree` gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NearFarWidth {
    /// Maximum degree ≤ 32: 16 mean weights.
    Hops,
    /// Maximum degree ≥ 64 × the mean: 8 mean weights.
    Hubs,
    /// Otherwise: half a mean weight.
    Narrow,
}

/// The width class of [`nearfar_delta`] (shared with the tuner's rule D4).
pub fn nearfar_width(max_degree: u128, n: u128, m: u128) -> NearFarWidth {
    if max_degree <= 32 {
        NearFarWidth::Hops
    } else if max_degree * n >= 64 * m {
        NearFarWidth::Hubs
    } else {
        NearFarWidth::Narrow
    }
}

/// Initial device state for `source`: δ (= δ_prev), fr, rr, pend, and the control words.
/// The source is bucket 0's frontier of phase 1 and its R (serial 1); it counts as reached and
/// settled, as on the CPU.
pub struct InitialState {
    pub dist: Vec<u32>,
    pub fr: Vec<u32>,
    pub rr: Vec<u32>,
    pub pend: Vec<u32>,
    pub ctl: [u32; CTL_WORDS],
}

pub fn initial_state(graph: &Graph, source: VertexId, run: DeltaRun) -> InitialState {
    let n = graph.n();
    let mut dist = vec![u32::MAX; n];
    dist[source as usize] = 0;
    let mut fr = vec![0u32; n];
    fr[source as usize] = 1;
    let mut rr = vec![0u32; n];
    rr[source as usize] = 1;
    let heavy = graph.successors().arcs(source).filter(|&(_, w)| w as u64 > u64::from(run.delta)).count();
    let mut ctl = [0u32; CTL_WORDS];
    ctl[C_PHASE] = 1;
    ctl[C_SERIAL] = 1;
    ctl[C_RSIZE] = 1;
    ctl[C_HEAVY_R] = heavy as u32;
    ctl[C_SETTLED] = 1;
    ctl[C_REACHED] = 1;
    ctl[C_MINB] = u32::MAX;
    InitialState { dist, fr, rr, pend: vec![0; n], ctl }
}

/// Whether a log entry belongs to a phase that ran (queued phases after the end write nothing).
pub fn ran(e: &LogEntry) -> bool {
    e[L_VALID] != 0
}

/// Whether the phase of `e` ended the run.
pub fn finished(e: &LogEntry) -> bool {
    e[L_DONE] != 0
}

/// Reached vertices (the source included) after the phase of `e`.
pub fn reached_total(e: &LogEntry) -> u64 {
    u64::from(e[L_REACHED]) + u64::from(e[L_SETTLED_BEFORE])
}

/// Whether the phase of `e` settled R (a light phase that left the bucket empty).
pub fn settles(e: &LogEntry) -> bool {
    e[L_SETTLED] != e[L_SETTLED_BEFORE]
}

/// The record of phase `iteration` from its log entry; thread counts from the device's warp
/// votes (one relax thread per vertex, `block` per block).
pub fn record(e: &LogEntry, iteration: u32, n: u64, block: u32, delta: u32, times: PhaseTimes) -> IterationRecord {
    let light = e[L_KIND] as usize == K_LIGHT;
    let relaxed = u64::from(e[L_RELAXED]);
    let launched = launched_threads(n, block);
    let (full, mixed) = (u64::from(e[L_WARPS_FULL]), u64::from(e[L_WARPS_MIXED]));
    IterationRecord {
        iteration,
        frontier: e[L_FRONTIER].into(),
        unsettled: n - u64::from(e[L_SETTLED_BEFORE]),
        reached: e[L_REACHED].into(),
        settled: e[L_SETTLED].into(),
        edges_scanned: e[L_SCANNED].into(),
        relax_attempted: relaxed,
        relax_improved: e[L_LOWERED].into(),
        threads: Some(ThreadCounts {
            block_size: block,
            launched,
            working: e[L_FRONTIER].into(),
            warps_all_dummy: launched.div_ceil(32).saturating_sub(full + mixed),
            warps_mixed: mixed,
            warps_all_working: full,
            modelled: false,
        }),
        times,
        values: Values::from_slice(&[
            e[L_BUCKET] as f64,
            e[L_BUCKET_SIZE] as f64,
            if light { relaxed as f64 } else { 0.0 },
            if light { 0.0 } else { relaxed as f64 },
            dist_value(Distance::from(delta)),
            e[L_NEXT_FRONTIER] as f64,
            crate::algo::lane_use(e[L_ARC_ITERS].into(), e[L_WARP_ITERS].into()),
        ]),
    }
}

/// δ from the device (u32::MAX = ∞).
pub fn widen(d: u32) -> Distance {
    if d == u32::MAX { INF } else { Distance::from(d) }
}

/// The step's delta for the view: vertices whose δ went down (against the host's copy `prev`,
/// updated in place) and, when the phase settled R, R's members (`rr[v]` = the phase's serial)
/// without the source, as the CPU stepper reports them.
pub fn step_delta(prev: &mut [Distance], new: &[u32], rr: Option<&[u32]>, serial: u32, source: VertexId) -> StepDelta {
    let mut delta = StepDelta::default();
    for (v, (p, &d)) in prev.iter_mut().zip(new).enumerate() {
        let d = widen(d);
        if d < *p {
            delta.lowered.push((v as VertexId, *p, d));
            *p = d;
        }
    }
    if let Some(rr) = rr {
        delta.settled = rr
            .iter()
            .enumerate()
            .filter(|&(v, &r)| r == serial && v as VertexId != source)
            .map(|(v, _)| v as VertexId)
            .collect();
    }
    delta
}
