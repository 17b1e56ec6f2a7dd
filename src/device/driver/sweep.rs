//! The device-neutral host side of PHAST on a GPU: `[phast]` Delling, Goldberg, Nowatzyk,
//! Werneck, "PHAST: hardware-accelerated shortest path trees", IPDPS 2011, §4 (the GPU sweep);
//! the algorithm and its CPU stepper are [`crate::algo::phast`], the kernels
//! `kernels/phast.{cu,wgsl}`, the backends `src/device/{cuda,wgpu}/sweep.rs`.
//!
//! A solve is the upward search from the source on the host (a few hundred vertices on roads),
//! one upload of its (sweep position, distance) pairs with a reset on the device (δ ← ∞, then the
//! pairs scattered), and the sweep: one parallel phase per level of the hierarchy, in order.
//! Levels are grouped into launches by a [`plan`] shared by both devices: a maximal run of
//! consecutive levels of at most [`solo_vertices`] vertices each is one single-block launch that
//! loops over its levels with a block barrier between them (the top of the hierarchy: many tiny
//! levels), a bigger level a grid launch of its own. The backend queues a whole plan without a
//! host round trip ([`SweepBackend::run`]).
//!
//! Where the backend can ([`SweepBackend::stage`], `phast:top=shared`, the default), the plan's
//! first launch is a **staged** run instead: one block of up to 1 024 threads sweeps the top of
//! the hierarchy with δ of every position up to the run's last level in shared memory, and on
//! CUDA the run's arcs too. Every tail of a level lies in an earlier level, so δ of positions
//! `0..level_start[last + 1]` is all such a run reads or writes: it loads them once, sweeps level
//! after level with a block barrier between them and no global δ traffic, and writes its own
//! levels back. A level then costs shared-memory loads and a barrier instead of a chain of
//! dependent L2 loads. The run is as long as [`staged_bytes`] fits the device's shared memory
//! (NY: levels 0–70 of 108 in the H200's 227 KiB; `bench/results/gpu-peers-2026-11-28/`, calls
//! p4–p8). CUDA also captures a fast run's plan once as a CUDA graph ([`SweepBackend::ready`],
//! before the timing), so the GPU runs the launches back to back instead of waiting for the host
//! to queue each.
//!
//! - `step` runs iteration 1 (the upward search and the reset) or one level (iteration 1 + l) and
//!   reads that level's δ back: the records and deltas equal the CPU stepper's
//!   ([`crate::algo::PhastStepper`]).
//! - `run_to_end` is the fast path: upward search, upload, reset and every remaining level in one
//!   queue, one wait; `total_ms` is the host clock around all of that, δ is read after it.
//! - `restart` keeps the uploaded hierarchy and the device buffers (many-source runs).
//!
//! δ on the device is u32 (u32::MAX = ∞). Weights of the hierarchy above u32::MAX − 1 are left
//! out of the device arrays ([`device_arrays`]): the family's range check
//! ([`crate::device::gpu::u32_distance_range`]) keeps every shortest distance below u32::MAX − 1,
//! so no shortest path uses such an arc; the kernels guard the sum (`w < ∞ − δ(t)`) and an upward
//! distance beyond u32 is left at ∞ for the same reason.

use super::RunIdent;
use crate::algo::phast::Hierarchy;
use crate::algo::{IterationRecord, PhaseTimes, RunRecord, SolveError, Step, StepDelta, Stepper, Values};
use crate::device::gpu::{SweepRun, widen_u32};
use crate::graph::{Distance, INF, VertexId};
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Vertices per thread of the block up to which a level runs in the single-block launch of its
/// neighbours ([`solo_vertices`]), CUDA's default ([`SweepBackend::SOLO_PER_THREAD`]): 4 × block.
/// A level that small leaves most of a GPU idle whatever the launch, and a block barrier costs far
/// less than a launch. On the H100 (`bench/results/gpu-peers-2026-11-28/`, call p1) 4 × 256 beat
/// 4 096 on NY (0.50–0.53 against 0.64 ms) and tied on luxembourg; every level its own launch
/// (`SSSP_PHAST_SOLO=0`) took 0.69 ms on NY.
pub const SOLO_PER_THREAD: u32 = 4;

/// The largest level (in vertices) that runs in a single-block launch with the levels around it:
/// `SSSP_PHAST_SOLO` where set to a number (A/B runs), else `per_thread` × `block`.
pub fn solo_vertices(block: u32, per_thread: u32) -> u32 {
    std::env::var("SSSP_PHAST_SOLO")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| per_thread.saturating_mul(block))
}

/// Vertices per thread up to which a level joins the staged run at the top of the hierarchy
/// (module docs): a level of 8 × 1 024 vertices costs one block about what a grid launch costs.
/// `SSSP_PHAST_STAGE_LEVEL` (a vertex count) overrides the product for A/B runs.
pub const STAGE_PER_THREAD: u32 = 8;

/// Levels one staged launch holds at most (the kernels keep their level starts in a fixed array
/// of shared memory: `PHAST_STAGE_LEVELS` in `kernels/phast.{cu,wgsl}`).
pub const STAGE_LEVELS: u32 = 512;

/// What a backend's staged launch can hold ([`SweepBackend::stage`]); all zero where it has none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stage {
    /// Bytes of shared memory the staged block may use ([`staged_bytes`] of a run must fit).
    pub bytes: u32,
    /// Threads of the staged block.
    pub threads: u32,
    /// The run's downward arcs and their offsets are staged too (CUDA), not only δ (wgpu): a
    /// level then reads nothing from global memory at all.
    pub arcs: bool,
}

impl Stage {
    /// The largest level (in vertices) that joins a staged run: `SSSP_PHAST_STAGE_LEVEL` where set
    /// to a number, else [`STAGE_PER_THREAD`] × threads.
    pub fn level_max(&self) -> u32 {
        std::env::var("SSSP_PHAST_STAGE_LEVEL")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| STAGE_PER_THREAD.saturating_mul(self.threads))
    }
}

/// Shared-memory bytes of a staged run of levels `first..=last`: δ of positions
/// `0..level_start[last + 1]` (4 B each), and with `arcs` the run's in-arc offsets (4 B a vertex,
/// plus one) and arcs (a 4 B weight and a 2 B tail each; the tails fit 16 bits because positions
/// below `level_start[last + 1]` do, which [`plan`] keeps), rounded up to 4 B. `in_offsets` is
/// read only with `arcs`.
pub fn staged_bytes(level_start: &[u32], in_offsets: &[u32], first: u32, last: u32, arcs: bool) -> u64 {
    let (lo, hi) = (level_start[first as usize] as usize, level_start[last as usize + 1] as usize);
    let mut bytes = 4 * hi as u64;
    if arcs {
        let a = u64::from(in_offsets[hi] - in_offsets[lo]);
        bytes += 4 * (hi - lo + 1) as u64 + (6 * a).next_multiple_of(4);
    }
    bytes
}

/// Positions a staged run with its arcs may reach (the tails are stored in 16 bits).
pub const STAGE_ARC_POSITIONS: u32 = 1 << 16;

/// One kernel launch of the sweep: levels `first..=last` in order, on `blocks` blocks. A launch of
/// several levels has one block (a block barrier between levels); a grid launch has one level.
/// A `staged` launch is one block of [`Stage::threads`] with δ of positions
/// `0..level_start[last + 1]` in shared memory (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    pub first: u32,
    pub last: u32,
    pub blocks: u32,
    pub staged: bool,
}

impl Launch {
    /// The launch's kind as the profiles print it: `staged`, `grid` (one level on several blocks)
    /// or `solo` (levels in one block).
    pub fn kind(&self) -> &'static str {
        if self.staged {
            "staged"
        } else if self.blocks > 1 {
            "grid"
        } else {
            "solo"
        }
    }
}

/// The launches of `levels` (a range of level indices) for blocks of `block` threads. First, where
/// `stage` has room ([`Stage::bytes`] > 0): the longest run of levels from `levels.start`, each of
/// at most [`Stage::level_max`] vertices, at most [`STAGE_LEVELS`] of them, whose
/// [`staged_bytes`] fit `stage.bytes`, as one staged launch. Then a maximal run of consecutive
/// levels of at most `solo` vertices each is one single-block launch, any bigger level a launch of
/// ⌈size / block⌉ blocks. `level_start` and `in_offsets` are [`Hierarchy::level_start`] (levels +
/// 1 entries) and the in-arc offsets (n + 1; read only when `stage.arcs`).
pub fn plan(
    level_start: &[u32],
    in_offsets: &[u32],
    levels: Range<u32>,
    block: u32,
    solo: u32,
    stage: Stage,
) -> Vec<Launch> {
    let size = |l: u32| level_start[l as usize + 1] - level_start[l as usize];
    let mut out = Vec::new();
    let mut l = levels.start;
    if stage.bytes > 0 {
        let level_max = stage.level_max();
        let fits = |l: u32| {
            l < levels.end
                && size(l) <= level_max
                && (!stage.arcs || level_start[l as usize + 1] <= STAGE_ARC_POSITIONS)
                && staged_bytes(level_start, in_offsets, levels.start, l, stage.arcs) <= u64::from(stage.bytes)
        };
        while fits(l) && l - levels.start < STAGE_LEVELS {
            l += 1;
        }
        if l > levels.start {
            out.push(Launch { first: levels.start, last: l - 1, blocks: 1, staged: true });
        }
    }
    while l < levels.end {
        if size(l) > solo {
            out.push(Launch { first: l, last: l, blocks: size(l).div_ceil(block.max(1)), staged: false });
        } else {
            let first = l;
            while l + 1 < levels.end && size(l + 1) <= solo {
                l += 1;
            }
            out.push(Launch { first, last: l, blocks: 1, staged: false });
        }
        l += 1;
    }
    out
}

/// The hierarchy's sweep arrays as both devices upload them (u32 words): `level_start` (levels +
/// 1), `in_offsets` (n + 1), `in_tails` and `in_weights` (one per kept downward arc).
pub struct SweepArrays {
    pub level_start: Vec<u32>,
    pub in_offsets: Vec<u32>,
    pub in_tails: Vec<u32>,
    pub in_weights: Vec<u32>,
    /// Arcs left out: weight above u32::MAX − 1 (see the module docs).
    pub dropped: usize,
}

/// [`SweepArrays`] of `h`, with the arcs whose weight does not fit below the u32 ∞ left out.
pub fn device_arrays(h: &Hierarchy) -> SweepArrays {
    const MAX_W: Distance = u32::MAX as Distance - 1;
    let n = h.in_offsets.len().saturating_sub(1);
    let mut in_offsets = Vec::with_capacity(n + 1);
    let mut in_tails = Vec::with_capacity(h.in_tails.len());
    let mut in_weights = Vec::with_capacity(h.in_weights.len());
    in_offsets.push(0u32);
    for k in 0..n {
        for (t, w) in h.arcs_into(k) {
            if (0..=MAX_W).contains(&w) {
                in_tails.push(t);
                in_weights.push(w as u32);
            }
        }
        in_offsets.push(in_tails.len() as u32);
    }
    let dropped = h.in_tails.len() - in_tails.len();
    SweepArrays { level_start: h.level_start.clone(), in_offsets, in_tails, in_weights, dropped }
}

/// Device bytes of a sweep over `arrays` for `n` vertices: the arrays, δ, and the pairs buffer's
/// first capacity ([`PAIRS_MIN`] pairs; it grows with a larger upward search).
pub fn device_bytes(arrays: &SweepArrays, n: usize) -> u64 {
    let words = arrays.level_start.len() + arrays.in_offsets.len() + arrays.in_tails.len() + arrays.in_weights.len();
    4 * (words as u64 + n as u64) + 8 * PAIRS_MIN as u64
}

/// Pairs the backends' upload buffer holds at first (it grows to what an upward search needs).
pub const PAIRS_MIN: usize = 4096;

/// What a device does for the sweep driver, with the [`SweepArrays`] uploaded and δ allocated (n
/// u32 words, sweep positions). Every device failure is a [`SolveError::Device`].
pub trait SweepBackend: Send {
    /// Vertices per thread of a block up to which a level joins a single-block launch
    /// ([`solo_vertices`]): higher where a launch costs more (wgpu).
    const SOLO_PER_THREAD: u32 = SOLO_PER_THREAD;
    /// Queues, in order: when `reset` is given, δ ← ∞ everywhere and then δ[pos] ← d for each
    /// (pos, d) of `reset` (pairs of words, positions distinct); then `launches` (each its levels
    /// in order); and waits for all of it. Polls `cancel` between launches while queueing
    /// ([`SolveError::Cancelled`]; levels are idempotent, so what ran is harmless). Returns the
    /// GPU milliseconds from the reset to the last launch where the device times them (CUDA
    /// events), `None` where the driver takes the host clock.
    fn run(
        &mut self,
        reset: Option<&[u32]>,
        launches: &[Launch],
        cancel: &AtomicBool,
    ) -> Result<Option<f64>, SolveError>;
    /// δ of the sweep positions `range` (u32::MAX = ∞); waits for the device.
    fn read_dist(&mut self, range: Range<usize>) -> Result<Vec<u32>, SolveError>;
    /// Called before a step or a fast run, outside its timing (CUDA applies the cache preference).
    fn prepare(&mut self) -> Result<(), SolveError> {
        Ok(())
    }
    /// Called with the plan of a fast run before its timing starts, `reset` when the run starts with
    /// the reset (from iteration 0): what the backend does once per plan (CUDA captures the reset
    /// and the plan as a graph, wgpu encodes the run's commands), kept for the next run of the same
    /// plan.
    fn ready(&mut self, _launches: &[Launch], _reset: bool) -> Result<(), SolveError> {
        Ok(())
    }
    /// What a staged launch of this backend holds (module docs); [`Stage::default`] (none) where
    /// the device's shared memory or block size does not allow one.
    fn stage(&self) -> Stage {
        Stage::default()
    }
}

/// PHAST on a GPU: the [`Stepper`] of either device over its [`SweepBackend`].
pub struct Sweep<B: SweepBackend> {
    backend: B,
    id: RunIdent,
    h: Arc<Hierarchy>,
    block: u32,
    solo: u32,
    /// The staged run's room (`phast:top=shared`), or none (`top=global`).
    stage: Stage,
    /// The plan of every level (the fast path from the start; computed once).
    full: Vec<Launch>,
    /// Iterations run: 0 before the upward search, 1 + l after level l.
    iteration: u32,
    settled: u64,
    /// δ by sweep position as the device holds it after the last step (u32::MAX = ∞); after a
    /// fast run, the δ it read back.
    host: Vec<u32>,
}

impl<B: SweepBackend> Sweep<B> {
    /// The driver over `backend` (its arrays from `h`), at iteration 0 of a solve from
    /// `id.source`.
    pub fn new(backend: B, h: Arc<Hierarchy>, run: SweepRun, id: RunIdent) -> Self {
        let solo = solo_vertices(run.block, B::SOLO_PER_THREAD);
        let levels = h.levels() as u32;
        let stage = if run.staged { backend.stage() } else { Stage::default() };
        let full = plan(&h.level_start, &h.in_offsets, 0..levels, run.block, solo, stage);
        let mut s =
            Sweep { backend, id, h, block: run.block, solo, stage, full, iteration: 0, settled: 1, host: Vec::new() };
        s.reset_host();
        s
    }

    /// The launches of a solve from the start (for the device string and the tests).
    pub fn full_plan(&self) -> &[Launch] {
        &self.full
    }

    fn levels(&self) -> u32 {
        self.h.levels() as u32
    }

    fn source_pos(&self) -> usize {
        self.h.pos[self.id.source as usize] as usize
    }

    /// Iteration 0's δ: the source at 0, everything else ∞.
    fn reset_host(&mut self) {
        self.host.clear();
        self.host.resize(self.h.n, u32::MAX);
        let k = self.source_pos();
        self.host[k] = 0;
    }

    /// The upward search from the source as (position, distance) word pairs; a distance beyond
    /// u32 stays ∞ (module docs).
    fn upward_words(&self) -> Vec<u32> {
        let found = self.h.upward_search(self.id.source);
        let mut words = Vec::with_capacity(2 * found.len());
        for (k, d) in found {
            words.push(k);
            words.push(if (0..u32::MAX as Distance).contains(&d) { d as u32 } else { u32::MAX });
        }
        words
    }

    /// Iteration 1: the upward search, the reset on the device, its record and delta.
    fn step_upward(&mut self) -> Result<Step, SolveError> {
        let unsettled = self.h.n as u64 - self.settled;
        let t0 = Instant::now();
        let words = self.upward_words();
        self.backend.run(Some(&words), &[], &AtomicBool::new(false))?;
        // The host's search and the device's reset, on the host clock (the CPU stepper times its
        // search alone).
        let ms = t0.elapsed().as_secs_f64() * 1e3;
        self.host.fill(u32::MAX);
        for p in words.chunks_exact(2) {
            self.host[p[0] as usize] = p[1];
        }
        self.iteration = 1;
        let found = (words.len() / 2) as u64;
        let reached = self.host.iter().filter(|&&d| d != u32::MAX).count() as u64;
        let record = self.record(found, unsettled, reached, 0, found.saturating_sub(1), -1.0, ms, 0.0);
        let delta = self.id.opts.record_deltas.then(|| {
            let order = &self.h.order;
            let lowered = (0..self.h.n)
                .filter(|&k| self.host[k] != u32::MAX && order[k] != self.id.source)
                .map(|k| (order[k], INF, widen_u32(self.host[k])))
                .collect();
            StepDelta { lowered, settled: Vec::new() }
        });
        Ok(Step { record, delta })
    }

    /// Iteration 1 + l: level l on the device, its δ read back, its record and delta.
    fn step_level(&mut self, l: u32) -> Result<Step, SolveError> {
        let unsettled = self.h.n as u64 - self.settled;
        let range = self.h.level(l as usize);
        // One level a step: staging δ for a single level would cost more than the level.
        let launches = plan(&self.h.level_start, &[], l..l + 1, self.block, self.solo, Stage::default());
        let t0 = Instant::now();
        let gpu_ms = self.backend.run(None, &launches, &AtomicBool::new(false))?;
        let relax_ms = gpu_ms.unwrap_or_else(|| t0.elapsed().as_secs_f64() * 1e3);
        let t1 = Instant::now();
        let new = self.backend.read_dist(range.clone())?;
        let copy_ms = t1.elapsed().as_secs_f64() * 1e3;
        if new.len() != range.len() {
            return Err(SolveError::Device(format!(
                "{}: level {l}: read {} words of δ back, expected {}",
                self.id.device,
                new.len(),
                range.len()
            )));
        }
        let src = self.source_pos();
        let order = &self.h.order;
        let mut lowered = Vec::new();
        let mut settled = Vec::new();
        let mut improved = 0u64;
        for (i, &d) in new.iter().enumerate() {
            let k = range.start + i;
            let before = self.host[k];
            if d < before {
                improved += 1;
                lowered.push((order[k], widen_u32(before), widen_u32(d)));
            }
            if d != u32::MAX && k != src {
                settled.push(order[k]);
            }
        }
        self.host[range.clone()].copy_from_slice(&new);
        self.iteration += 1;
        self.settled += settled.len() as u64;
        let arcs = u64::from(self.h.in_offsets[range.end] - self.h.in_offsets[range.start]);
        let reached = self.host[range.end..].iter().filter(|&&d| d != u32::MAX).count() as u64;
        let frontier = range.len() as u64;
        let record = self.record(frontier, unsettled, reached, arcs, improved, f64::from(l), relax_ms, copy_ms);
        let delta = self.id.opts.record_deltas.then_some(StepDelta { lowered, settled });
        Ok(Step { record, delta })
    }

    /// The record of the iteration just run (the CPU stepper's fields and values).
    #[allow(clippy::too_many_arguments)]
    fn record(
        &self,
        frontier: u64,
        unsettled: u64,
        reached: u64,
        arcs: u64,
        improved: u64,
        level: f64,
        relax_ms: f64,
        copy_ms: f64,
    ) -> IterationRecord {
        IterationRecord {
            iteration: self.iteration,
            frontier,
            unsettled,
            reached,
            settled: self.settled,
            edges_scanned: arcs,
            relax_attempted: arcs,
            relax_improved: improved,
            threads: None,
            times: PhaseTimes { relax_ms, copy_ms, ..Default::default() },
            values: Values::from_slice(&[level, f64::from(self.levels() + 1 - self.iteration)]),
        }
    }
}

impl<B: SweepBackend> Stepper for Sweep<B> {
    super::ident_getters!();

    fn is_done(&self) -> bool {
        self.iteration > self.levels()
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        if self.is_done() {
            return Ok(None);
        }
        self.backend.prepare()?;
        let step = if self.iteration == 0 { self.step_upward()? } else { self.step_level(self.iteration - 1)? };
        Ok(Some(step))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        let mut out = vec![INF; self.h.n];
        for (k, &d) in self.host.iter().enumerate() {
            out[self.h.order[k] as usize] = widen_u32(d);
        }
        Ok(out)
    }

    /// The fast path (module docs): the host clock around the upward search, the upload, the
    /// reset and every remaining level queued at once; δ is read back after the timed part.
    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let mut run = self.id.header();
        let levels = self.levels();
        if !self.is_done() {
            if cancel.load(Ordering::Relaxed) {
                return Err(SolveError::Cancelled);
            }
            progress(self.settled);
            self.backend.prepare()?;
            let rest;
            let launches = if self.iteration == 0 {
                &self.full[..]
            } else {
                let h = &self.h;
                rest =
                    plan(&h.level_start, &h.in_offsets, self.iteration - 1..levels, self.block, self.solo, self.stage);
                &rest[..]
            };
            self.backend.ready(launches, self.iteration == 0)?;
            let begin = Instant::now();
            let reset = (self.iteration == 0).then(|| self.upward_words());
            let t0 = Instant::now();
            let gpu_ms = self.backend.run(reset.as_deref(), launches, cancel)?;
            run.times.relax_ms = gpu_ms.unwrap_or_else(|| t0.elapsed().as_secs_f64() * 1e3);
            run.total_ms = begin.elapsed().as_secs_f64() * 1e3;
            self.iteration = levels + 1;
            self.host = self.backend.read_dist(0..self.h.n)?;
            if self.host.len() != self.h.n {
                return Err(SolveError::Device(format!("{}: δ read back has the wrong length", self.id.device)));
            }
        }
        run.iterations = self.iteration;
        run.reached = self.host.iter().filter(|&&d| d != u32::MAX).count() as u64;
        self.settled = run.reached;
        progress(run.reached);
        Ok(run)
    }

    fn restart(&mut self, source: VertexId) -> Result<bool, SolveError> {
        if source as usize >= self.h.n {
            return Err(SolveError::BadSource(u64::from(source), self.h.n));
        }
        self.id.source = source;
        self.iteration = 0;
        self.settled = 1;
        self.reset_host();
        Ok(true)
    }
}

/// The device string's description of a sweep: levels, launches, block, solo threshold, and the
/// staged run at the top where `run.staged` and `stage` has room.
pub fn describe(h: &Hierarchy, arrays: &SweepArrays, run: SweepRun, per_thread: u32, stage: Stage) -> String {
    let solo = solo_vertices(run.block, per_thread);
    let stage = if run.staged { stage } else { Stage::default() };
    let launches = plan(&h.level_start, &h.in_offsets, 0..h.levels() as u32, run.block, solo, stage);
    let grid = launches.iter().filter(|l| l.blocks > 1).count();
    let top = match launches.first() {
        Some(l) if l.staged => format!(
            "levels 0–{} ({} vertices) in one block of {} with δ{} in shared memory, then ",
            l.last,
            h.level_start[l.last as usize + 1],
            stage.threads,
            if stage.arcs { " and their arcs" } else { "" }
        ),
        _ => String::new(),
    };
    let dropped =
        if arrays.dropped > 0 { format!("; {} arcs beyond u32 left out", arrays.dropped) } else { String::new() };
    format!(
        "phast sweep: {} levels in {} launches ({grid} grid), block {}, {top}levels of ≤ {solo} vertices in one \
block; u32 δ{dropped}",
        h.levels(),
        launches.len(),
        run.block
    )
}

#[cfg(test)]
mod tests {
    use super::{Launch, STAGE_PER_THREAD, Stage, plan, staged_bytes};

    /// Runs of small levels merge into one single-block launch; a big level is a grid launch.
    #[test]
    fn plan_groups_small_levels() {
        // Sizes 1, 2, 300, 5, 6, 1000, 3.
        let sizes = [1u32, 2, 300, 5, 6, 1000, 3];
        let mut start = vec![0u32];
        for s in sizes {
            start.push(start.last().copied().unwrap_or(0) + s);
        }
        // Two in-arcs a vertex.
        let offsets: Vec<u32> = (0..=start[7]).map(|k| 2 * k).collect();
        let p = plan(&start, &offsets, 0..7, 32, 128, Stage::default());
        assert_eq!(
            p,
            vec![
                Launch { first: 0, last: 1, blocks: 1, staged: false },
                Launch { first: 2, last: 2, blocks: 10, staged: false },
                Launch { first: 3, last: 4, blocks: 1, staged: false },
                Launch { first: 5, last: 5, blocks: 32, staged: false },
                Launch { first: 6, last: 6, blocks: 1, staged: false },
            ]
        );
        assert_eq!(
            plan(&start, &offsets, 4..6, 32, 128, Stage::default()),
            vec![
                Launch { first: 4, last: 4, blocks: 1, staged: false },
                Launch { first: 5, last: 5, blocks: 32, staged: false }
            ]
        );
        assert!(plan(&start, &offsets, 3..3, 32, 128, Stage::default()).is_empty());
    }

    /// The staged run takes levels from the start while they fit in shared memory and are at most
    /// `STAGE_PER_THREAD` × threads; the rest is planned as before.
    #[test]
    fn plan_stages_the_top() {
        if std::env::var("SSSP_PHAST_STAGE_LEVEL").is_ok() {
            return;
        }
        // Sizes 1, 2, 300, 5, 6, 1000, 3 (ends 1, 3, 303, 308, 314, 1314, 1317).
        let sizes = [1u32, 2, 300, 5, 6, 1000, 3];
        let mut start = vec![0u32];
        for s in sizes {
            start.push(start.last().copied().unwrap_or(0) + s);
        }
        // Two in-arcs a vertex.
        let offsets: Vec<u32> = (0..=start[7]).map(|k| 2 * k).collect();
        // Room for 310 words of δ: levels 0–3 staged (level 4 would end at 314).
        let stage = Stage { bytes: 4 * 310, threads: 64, arcs: false };
        assert_eq!(stage.level_max(), STAGE_PER_THREAD * 64);
        let p = plan(&start, &offsets, 0..7, 32, 128, stage);
        assert_eq!(
            p,
            vec![
                Launch { first: 0, last: 3, blocks: 1, staged: true },
                Launch { first: 4, last: 4, blocks: 1, staged: false },
                Launch { first: 5, last: 5, blocks: 32, staged: false },
                Launch { first: 6, last: 6, blocks: 1, staged: false },
            ]
        );
        // Room for everything, but level 5 (1 000) is over 8 × 64 = 512 vertices.
        let p = plan(&start, &offsets, 1..7, 32, 128, Stage { bytes: 1 << 20, threads: 64, arcs: false });
        assert_eq!(p[0], Launch { first: 1, last: 4, blocks: 1, staged: true });
        assert_eq!(p[1], Launch { first: 5, last: 5, blocks: 32, staged: false });
        // No room for the first level: no staged launch.
        let p = plan(&start, &offsets, 2..4, 32, 128, Stage { bytes: 4 * 200, threads: 64, arcs: false });
        assert!(p.iter().all(|l| !l.staged));
        // With the arcs: levels 0–3 need 4·308 + 4·309 + 6·616 = 6 164 B; level 4 adds 6 + 6
        // vertices (48 B) and 12 arcs (72 B): 6 284 B.
        assert_eq!(staged_bytes(&start, &offsets, 0, 3, true), 6164);
        assert_eq!(staged_bytes(&start, &offsets, 0, 4, true), 6284);
        let p = plan(&start, &offsets, 0..7, 32, 128, Stage { bytes: 6200, threads: 64, arcs: true });
        assert_eq!(p[0], Launch { first: 0, last: 3, blocks: 1, staged: true });
    }
}
