//! The device-neutral host side of `delta-stepping:worklist=near-far` (issue 30; kernels
//! `kernels/nearfar.{cu,wgsl}`, design in `docs/gpu-worklist.md`): records from the phases' log
//! entries, the thread model, stepping one phase per launch, the fast path's loop with cancel and
//! progress, and δ's read-back. The device is a [`NearFarBackend`]: CUDA runs any number of phases
//! in one cooperative launch, wgpu a batch of rounds in one command buffer.
//!
//! Near list and far pile split by a moving threshold T: Davidson, Baxter, Garland, Owens,
//! "Work-efficient parallel GPU methods for single-source shortest paths", IPDPS 2014.

use super::RunIdent;
use crate::algo::{
    IterationRecord, PhaseTimes, RunRecord, SolveError, Step, Stepper, ThreadCounts, Values, dist_value,
};
use crate::device::gpu::DeltaRun;
use crate::device::gpu_delta as book;
use crate::device::layout::nearfar::{
    NF_K_DONE, NF_K_SPLIT, NF_L_ARCS, NF_L_DELTA, NF_L_FAR, NF_L_IMPROVED, NF_L_ITEMS, NF_L_KIND, NF_L_PIECES,
    NF_L_SOLO, NF_L_T, NF_LOG_WORDS, NF_PIECE_ARCS,
};
use crate::graph::{Distance, Graph, INF};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// One phase's log entry (`NF_L_*` slots).
pub type NfEntry = [u32; NF_LOG_WORDS];

/// Most phases a launch logs; a longer launch keeps the first ones (8 MB of log).
pub const LOG_CAP: u32 = 1 << 18;
/// CUDA's solo threshold: a relax phase of at most this many estimated arcs (near list × mean
/// degree) runs in one block (wgpu has its own, `SOLO_WORK` in `device/wgpu/nearfar.rs`). The
/// prototype's NY optimum was 32 768 (`docs/gpu-worklist.md`), but a solo phase of 8 000+
/// vertices took 31 600 cycles on the 4096² grid, where the grid of 132 blocks takes about as
/// long as one barrier; 8 192 halved the grid's time and left the roads even (H100,
/// `bench/results/gpu-peers-2026-11-27/soloq/c8`).
pub const SOLO_WORK_CUDA: u32 = 8_192;
/// A split of at most this many far entries runs in one block (one workgroup).
pub const SOLO_FAR: u32 = 8_192;

/// `default`, or `SSSP_NF_SOLO_WORK` where set to a number (A/B runs on the GPU machine).
pub fn solo_work(default: u32) -> u32 {
    env_number("SSSP_NF_SOLO_WORK").unwrap_or(default)
}

/// The environment variable `name` as a number, if it is set to one (the near-far A/B knobs).
pub fn env_number(name: &str) -> Option<u32> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// What a launch returns: the log entries of the phases it ran, whether the solve ended, and the
/// GPU milliseconds where the device times its kernels (`None`: the driver takes the host clock).
pub struct Launched {
    pub entries: Vec<NfEntry>,
    pub done: bool,
    pub gpu_ms: Option<f64>,
}

/// What a device does for the near-far driver, with the graph and the source's state already
/// uploaded ([`initial_state`]). Every device failure is a [`SolveError::Device`].
pub trait NearFarBackend: Send {
    /// Runs one phase when `size` is 1 (stepping); a larger `size` is a batch of the device's
    /// choosing that grows with it (CUDA: `size` phases in one launch; wgpu: `size` rounds of one
    /// solo stretch and one grid phase each). Returns the log entries of the phases it ran.
    fn launch(&mut self, size: u32) -> Result<Launched, SolveError>;
    /// δ (n u32 words, u32::MAX = unreached).
    fn read_dist(&mut self) -> Result<Vec<u32>, SolveError>;
    /// The `size` of the fast path's first launch (doubling after): `u32::MAX` where one launch
    /// runs the whole solve (CUDA).
    fn first_launch(&self) -> u32;
    /// Threads per block and the threads a grid phase runs on (a solo phase: one block).
    fn threads(&self) -> (u32, u64);
}

/// The control block (`NF_C_WORDS` u32 words) and the first near list or hub pieces of a solve
/// from `source`: phase 1 is a solo relax phase of the source, T = Δ.
pub struct InitialState {
    pub ctl: Vec<u32>,
    /// The source as the first near list, or empty when it goes out as hub pieces.
    pub near: Vec<u32>,
    /// (vertex, first arc) pairs of the source's pieces when its degree is above `hub_deg`.
    pub pieces: Vec<u32>,
}

/// The state of phase 1 (see [`InitialState`]); `hub_deg` = u32::MAX when no vertex is a hub.
/// Δ starts at `delta` and may grow up to `delta_max` (≥ `delta`; equal: fixed Δ) where the
/// kernel adapts it ([`adaptive_delta_max`]); a relax phase of at most `solo_work` estimated arcs
/// runs in one block ([`solo_work`]).
pub fn initial_state(
    graph: &Graph,
    source: u32,
    delta: u32,
    delta_max: u32,
    hub_deg: u32,
    solo_work: u32,
) -> InitialState {
    use crate::device::layout::nearfar::*;
    let n = graph.n();
    let succ = graph.successors();
    let deg = u64::from(succ.offsets[source as usize + 1] - succ.offsets[source as usize]);
    let mut ctl = vec![0u32; NF_C_WORDS];
    ctl[NF_C_KIND] = NF_K_RELAX as u32;
    ctl[NF_C_SOLO] = 1;
    ctl[NF_C_FAR_MIN] = u32::MAX;
    ctl[NF_C_FAR_MIN_NEXT] = u32::MAX;
    ctl[NF_C_T] = delta;
    ctl[NF_C_DELTA] = delta;
    ctl[NF_C_DELTA_MAX] = delta_max.max(delta);
    ctl[NF_C_DELTA_MIN] = delta;
    ctl[NF_C_STAMP] = 2;
    ctl[NF_C_SOLO_WORK] = solo_work;
    ctl[NF_C_SOLO_FAR] = SOLO_FAR;
    ctl[NF_C_AVG16] = if n == 0 { 16 } else { (16 * graph.m() as u64 / n as u64).clamp(16, u32::MAX as u64) as u32 };
    ctl[NF_C_STARTED] = 1;
    let piece = NF_PIECE_ARCS as u64;
    if hub_deg != u32::MAX && deg > u64::from(hub_deg) {
        let b = u64::from(succ.offsets[source as usize]);
        let pieces: Vec<u32> = (0..deg.div_ceil(piece)).flat_map(|k| [source, (b + k * piece) as u32]).collect();
        ctl[NF_C_PIECES] = (pieces.len() / 2) as u32;
        ctl[NF_C_REC_PIECES] = ctl[NF_C_PIECES];
        InitialState { ctl, near: Vec::new(), pieces }
    } else {
        ctl[NF_C_NEAR] = 1;
        ctl[NF_C_REC_ITEMS] = 1;
        InitialState { ctl, near: vec![source], pieces: Vec::new() }
    }
}

/// How far the CUDA kernel may widen the buckets of the vertex relax (roads, grids): Δ ×
/// `ADAPT_GROWTH` (ADDS's adaptive Δ, `kernels/nearfar.cu` `nf_adapt_delta`); a fixed Δ on the
/// balanced relax, whose phases are never short of work, and with `SSSP_NF_ADELTA=0` (A/B runs).
pub fn adaptive_delta_max(delta: u32, balanced: bool) -> u32 {
    let off = std::env::var("SSSP_NF_ADELTA").is_ok_and(|v| v == "0");
    if balanced || off { delta } else { delta.saturating_mul(ADAPT_GROWTH) }
}

/// The least an adaptive Δ may shrink to: `delta / div`, `div` = `SSSP_NF_ADELTA_MIN_DIV` where set
/// to a number (A/B runs), else `default_div`; `delta` itself where Δ does not adapt
/// (`delta_max` = `delta`). Never 0.
pub fn adaptive_delta_min(delta: u32, delta_max: u32, default_div: u32) -> u32 {
    if delta_max <= delta {
        return delta;
    }
    let div = env_number("SSSP_NF_ADELTA_MIN_DIV").unwrap_or(default_div);
    (delta / div.max(1)).max(1)
}

/// The most an adaptive Δ grows over the auto rule's (lux took 5.0 ms at ×16, 8.4 at ×1).
pub const ADAPT_GROWTH: u32 = 64;

/// Capacities of the piles on `graph`: hub pieces (per list), far entries (per pile).
pub fn capacities(graph: &Graph) -> (u32, u32) {
    let (n, m) = (graph.n() as u64, graph.m() as u64);
    ((2 * m / NF_PIECE_ARCS as u64 + 1024).min(u32::MAX as u64) as u32, (m + n + 1024).min(0xF000_0000) as u32)
}

/// The hub degree of `graph`: vertices of more arcs than a piece go out as pieces when any vertex
/// has more (u32::MAX: none), and whether the balanced relax runs (maximum degree above 32).
pub fn hubs(graph: &Graph) -> (u32, bool) {
    let succ = graph.successors();
    let max_degree = succ.offsets.windows(2).map(|w| w[1].saturating_sub(w[0])).max().unwrap_or(0);
    let hub = if max_degree as usize > NF_PIECE_ARCS { NF_PIECE_ARCS as u32 } else { u32::MAX };
    (hub, max_degree > 32)
}

/// The near-far stepper of one device: one record per phase (the bucketed family's series).
pub struct NearFar<B: NearFarBackend> {
    backend: B,
    id: RunIdent,
    run: DeltaRun,
    n: u32,
    iteration: u32,
    done: bool,
    /// δ as the host last saw it (the steps' deltas).
    prev: Vec<Distance>,
}

impl<B: NearFarBackend> NearFar<B> {
    /// The driver over `backend`, whose state is phase 1 of a solve from `id.source`.
    pub fn new(backend: B, run: DeltaRun, id: RunIdent) -> NearFar<B> {
        let n = id.graph.n();
        let mut prev = vec![INF; n];
        if let Some(p) = prev.get_mut(id.source as usize) {
            *p = 0;
        }
        NearFar { backend, n: n as u32, id, run, iteration: 0, done: false, prev }
    }

    /// The bucketed family's record of a logged phase (bucket, its size, arcs, Δ; the next
    /// frontier and lane counts are not logged: unset, not drawn).
    fn record(&self, e: &NfEntry, times: PhaseTimes) -> IterationRecord {
        let split = e[NF_L_KIND] == NF_K_SPLIT as u32;
        let delta = self.run.delta.max(1);
        let arcs = u64::from(e[NF_L_ARCS]);
        IterationRecord {
            iteration: self.iteration,
            frontier: u64::from(if split { e[NF_L_FAR] } else { e[NF_L_ITEMS] + e[NF_L_PIECES] }),
            unsettled: u64::from(self.n),
            edges_scanned: arcs,
            relax_attempted: arcs,
            relax_improved: e[NF_L_IMPROVED].into(),
            times,
            threads: Some(self.threads(e, split, arcs)),
            values: Values::from_slice(&[
                f64::from(e[NF_L_T] / delta).max(1.0) - 1.0,
                f64::from(e[NF_L_ITEMS]),
                arcs as f64,
                0.0,
                dist_value(Distance::from(if e[NF_L_DELTA] == 0 { self.run.delta } else { e[NF_L_DELTA] })),
                f64::NAN,
                f64::NAN,
            ]),
            ..Default::default()
        }
    }

    /// The threads the phase ran on (one block for a solo phase, the grid otherwise) and a model
    /// of those with work: one per arc of a relax phase, one per far entry of a split, lowest
    /// threads first; its dummy ratio is the idle share of the lanes the phase held.
    fn threads(&self, e: &NfEntry, split: bool, arcs: u64) -> ThreadCounts {
        let (block, grid) = self.backend.threads();
        let launched = if e[NF_L_SOLO] != 0 { u64::from(block) } else { grid.max(u64::from(block)) };
        let working = if split { u64::from(e[NF_L_FAR]) } else { arcs }.min(launched);
        let (full, mixed) = (working / 32, u64::from(working % 32 != 0));
        ThreadCounts {
            block_size: block,
            launched,
            working,
            warps_all_dummy: (launched / 32).saturating_sub(full + mixed),
            warps_mixed: mixed,
            warps_all_working: full,
            modelled: true,
        }
    }
}

impl<B: NearFarBackend> Stepper for NearFar<B> {
    super::ident_getters!();

    fn is_done(&self) -> bool {
        self.done
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        if self.done {
            return Ok(None);
        }
        let t0 = Instant::now();
        let l = self.backend.launch(1)?;
        let ms = l.gpu_ms.unwrap_or_else(|| t0.elapsed().as_secs_f64() * 1e3);
        self.done = l.done;
        let Some(e) = l.entries.first() else {
            return Err(SolveError::Device(format!("{}: a near-far phase did not run", self.id.device)));
        };
        self.iteration += 1;
        let t1 = Instant::now();
        let delta = if self.id.opts.record_deltas {
            let new = self.backend.read_dist()?;
            Some(book::step_delta(&mut self.prev, &new, None, 0, self.id.source))
        } else {
            None
        };
        let times = PhaseTimes { relax_ms: ms, copy_ms: t1.elapsed().as_secs_f64() * 1e3, ..Default::default() };
        Ok(Some(Step { record: self.record(e, times), delta }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.backend.read_dist()?.into_iter().map(book::widen).collect())
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let mut run = self.id.header();
        let begin = Instant::now();
        let mut phases = self.backend.first_launch().max(1);
        let mut gpu_ms = 0.0;
        while !self.done {
            if cancel.load(Ordering::Relaxed) {
                return Err(SolveError::Cancelled);
            }
            progress(u64::from(self.iteration));
            let t0 = Instant::now();
            let l = self.backend.launch(phases)?;
            gpu_ms += l.gpu_ms.unwrap_or_else(|| t0.elapsed().as_secs_f64() * 1e3);
            self.done = l.done;
            for e in &l.entries {
                self.iteration += 1;
                run.records.push(self.record(e, PhaseTimes::default()));
            }
            phases = phases.saturating_mul(2);
        }
        run.times.relax_ms = gpu_ms;
        run.total_ms = begin.elapsed().as_secs_f64() * 1e3;
        run.iterations = self.iteration;
        let d = self.backend.read_dist()?;
        run.reached = d.iter().filter(|&&x| x != u32::MAX).count() as u64;
        progress(run.reached);
        Ok(run)
    }
}

/// Whether a launch's control block says the solve ended.
pub fn is_done(kind: u32) -> bool {
    kind == NF_K_DONE as u32
}

#[cfg(test)]
mod tests {
    /// Δ's floor: the auto Δ over the divisor where Δ adapts, never 0, and the auto Δ itself where
    /// it does not (`SSSP_NF_ADELTA_MIN_DIV` is not set in the tests).
    #[test]
    fn adaptive_delta_floor() {
        assert_eq!(super::adaptive_delta_min(808, 51_712, 4), 202);
        assert_eq!(super::adaptive_delta_min(808, 51_712, 1), 808);
        assert_eq!(super::adaptive_delta_min(808, 808, 4), 808);
        assert_eq!(super::adaptive_delta_min(3, 192, 4), 1);
        assert_eq!(super::adaptive_delta_min(3, 192, 0), 3);
    }
}
