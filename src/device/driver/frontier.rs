//! The host side of the frontier family (Martín / Crauser, successors / predecessors:
//! [seed000] §3, [seed004] §4) that CUDA (`src/device/cuda/solver.rs`) and wgpu
//! (`src/device/wgpu/stepper.rs`) share: a stepped iteration ([`step`] over a [`StepRunner`],
//! booked from two copies of the state), `run_to_end` by per-phase launches ([`run_phases`]
//! over a [`PhaseRunner`]) or on the fast path ([`run_fast`] over a [`FastRunner`]: chunks,
//! progress, cancel, records from the log), and the answer of a finished run. The devices
//! implement the traits with device calls and keep what their kernels make different (CUDA's
//! counter slots, persistent kernel and hybrids; wgpu's batched log, 2-D dispatch, two batches
//! in flight and timestamps) behind them.

use super::RunIdent;
use crate::algo::{IterationRecord, PhaseTimes, RunRecord, SolveError, Step, Thresholds, Values};
use crate::device::gpu::{self, FrontierRun, HostState, LaunchModel};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What a stepped iteration's device work gave the host.
pub struct Stepped<'a> {
    /// The iteration (1-based).
    pub iteration: u32,
    pub thresholds: &'a Thresholds,
    /// Kernel times of the iteration (`copy_ms`: copies inside it, the hybrids').
    pub times: PhaseTimes,
    /// Host time of copying δ and the stamps back after it, ms.
    pub copy_ms: f64,
    /// The kernels' own record when they counted (instrumented runs); else the host diff's.
    pub counted: Option<IterationRecord>,
}

/// The [`Step`] of iteration `s.iteration` from the state before (`prev`) and after (`new`)
/// it: the host diff's record (modelled thread counts) unless the kernels counted, the state
/// copy's time added, and the step delta when the run records deltas. Also returns how many
/// vertices the iteration settled (|Fᵢ₊₁|).
pub fn book_step(
    id: &RunIdent,
    run: FrontierRun,
    model: &mut LaunchModel,
    s: Stepped<'_>,
    prev: &HostState,
    new: &HostState,
) -> (Step, u64) {
    let block = id.opts.block.relax;
    let (diffed, delta) =
        gpu::diffed_record(&id.graph, run, block, model, s.iteration, s.thresholds, prev, new, s.times);
    let mut record = s.counted.unwrap_or(diffed);
    record.times.copy_ms = s.times.copy_ms + s.copy_ms;
    let next = delta.settled.len() as u64;
    (Step { record, delta: id.opts.record_deltas.then_some(delta) }, next)
}

/// What a device's stepped iteration gave the host before the state copy.
pub struct StepOut {
    /// The iteration (1-based).
    pub iteration: u32,
    pub thresholds: Thresholds,
    /// Kernel times (`copy_ms`: copies inside the iteration, the hybrids').
    pub times: PhaseTimes,
    /// The kernels' own record when they counted (instrumented runs).
    pub counted: Option<IterationRecord>,
}

/// A device's stepping by per-phase launches, as [`step`] drives it.
pub trait StepRunner {
    /// The host copy of the state before the next iteration (taken; copied back from the
    /// device where the host has none, e.g. after a fast run).
    fn take_host(&mut self) -> Result<HostState, SolveError>;
    /// Runs the next iteration by per-phase launches.
    fn step_launch(&mut self) -> Result<StepOut, SolveError>;
    /// Copies δ and the stamps back (synchronises).
    fn copy_state(&mut self) -> Result<HostState, SolveError>;
    /// The run, its shape and the launch model the host diff books with.
    fn booking(&mut self) -> (&RunIdent, FrontierRun, &mut LaunchModel);
    /// Books a stepped iteration: `settled` vertices after it, |Fᵢ₊₁| = `next`, the state
    /// after it `new`.
    fn step_booked(&mut self, out: &StepOut, settled: u64, next: u64, new: HostState);
}

/// `step` of a frontier stepper (the caller has checked that the run goes on): the next
/// iteration by per-phase launches, the state copied back (`copy_ms`) and the step booked from
/// the two copies ([`book_step`]).
pub fn step<R: StepRunner + ?Sized>(r: &mut R) -> Result<Step, SolveError> {
    let prev = r.take_host()?;
    let mut out = r.step_launch()?;
    let t = Instant::now();
    let new = r.copy_state()?;
    let copy_ms = t.elapsed().as_secs_f64() * 1e3;
    let thresholds = out.thresholds;
    let stepped = Stepped {
        iteration: out.iteration,
        thresholds: &thresholds,
        times: out.times,
        copy_ms,
        counted: out.counted.take(),
    };
    let (id, run, model) = r.booking();
    let (step, next) = book_step(id, run, model, stepped, &prev, &new);
    r.step_booked(&out, step.record.settled, next, new);
    Ok(step)
}

/// Vertices settled in a copy of the state (stamped), e.g. after a cancelled fast run, whose
/// records did not reach the host.
pub fn settled_in(state: &HostState) -> u64 {
    state.stamp.iter().filter(|&&s| s != gpu::UNSET).count() as u64
}

/// One iteration of a fast run as its log gives it: thresholds and set sizes.
pub struct Sizes {
    pub thresholds: Thresholds,
    /// |Fᵢ|.
    pub frontier: u64,
    /// Vertices reached and unsettled after the iteration.
    pub reached: u64,
    pub times: PhaseTimes,
}

/// Appends the records of a fast run's iterations `first …` to `run`, `settled` vertices
/// settled before the first; |Fᵢ₊₁| is the next entry's frontier (0 after the last, which
/// ends the solve). Returns the vertices settled after the last.
pub fn fast_records(run: &mut RunRecord, first: u32, n: u64, mut settled: u64, log: &[Sizes]) -> u64 {
    for (k, s) in log.iter().enumerate() {
        let next = log.get(k + 1).map_or(0, |x| x.frontier);
        let unsettled = n - settled;
        settled += next;
        let mut r = gpu::sizes_record(first + k as u32, &s.thresholds, s.frontier, unsettled, s.reached, settled, next);
        r.times = s.times;
        run.times.add(&r.times);
        run.records.push(r);
    }
    settled
}

/// Fills in the set sizes of uninstrumented per-phase records (thresholds and times only, as
/// the kernels count nothing then) from the stamps after the run: |Fᵢ| is the number of
/// vertices stamped i, so frontier, unsettled, settled and |Fᵢ₊₁| (the last value) come out as
/// the CPU stepper records them; `reached` stays 0 (not counted). Both devices' per-phase runs
/// give these records, CUDA's update counts |Fᵢ₊₁| itself.
pub fn sizes_from_stamps(records: &mut [IterationRecord], stamp: &[u32]) {
    let n = stamp.len() as u64;
    let last = records.iter().map(|r| r.iteration as usize).max().unwrap_or(0);
    let mut hist = vec![0u64; last + 2];
    for &s in stamp {
        if let Some(h) = hist.get_mut(s as usize).filter(|_| s != gpu::UNSET) {
            *h += 1;
        }
    }
    // below[i]: vertices stamped 1 ..= i.
    let below: Vec<u64> = hist
        .iter()
        .scan(0, |acc, &h| {
            *acc += h;
            Some(*acc)
        })
        .collect();
    for r in records {
        let i = r.iteration as usize;
        let next = hist[i + 1];
        r.frontier = hist[i];
        r.unsettled = n - below[i];
        r.settled = below[i + 1];
        let mut v = [f64::NAN; 4];
        for (k, x) in v.iter_mut().enumerate().take(3) {
            *x = r.values.get(k).unwrap_or(f64::NAN);
        }
        v[3] = next as f64;
        r.values = Values::from_slice(&v);
    }
}

/// What one per-phase iteration (relax, minimum, update as separate launches) gave the host.
pub struct Phase {
    pub record: IterationRecord,
    /// Vertices settled after it, where the device counted them (else `None`).
    pub settled: Option<u64>,
    /// Whether it ended the solve (no threshold left).
    pub done: bool,
}

/// A device's per-phase launches, as [`run_phases`] drives them. The device keeps its own
/// iteration counter and state; the loop around it (batch sizes, cancel, progress, records,
/// the run's time) is written once here.
pub trait PhaseRunner {
    /// Most iterations one [`Self::run_phases`] call runs: 1 where the host reads Δ back every
    /// iteration (CUDA), a batch size where a submission holds several (wgpu).
    fn phase_batch_max(&self) -> u32;
    /// Runs up to `count` iterations after the last one run and returns them in order (at
    /// least one while the solve has not ended).
    fn run_phases(&mut self, count: u32) -> Result<Vec<Phase>, SolveError>;
}

/// Iterations between two cancel / progress polls of a backend that runs one per call.
const POLL_EVERY: u32 = 256;

/// `run_to_end` by per-phase launches: batches of 1, 2, 4 … the backend's maximum until an
/// iteration ends the solve; cancel and progress (the last settled count known, starting at
/// `settled`) are polled before every batch of a batching backend, every [`POLL_EVERY`]
/// iterations otherwise. Returns `header` with the records, their time sum and the host
/// time; the caller fills in `iterations` and `reached`.
pub fn run_phases<R: PhaseRunner + ?Sized>(
    r: &mut R,
    mut run: RunRecord,
    mut settled: Option<u64>,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64),
) -> Result<RunRecord, SolveError> {
    let start = Instant::now();
    let max = r.phase_batch_max().max(1);
    let mut count = 1;
    let mut since_poll = POLL_EVERY;
    loop {
        if max > 1 || since_poll >= POLL_EVERY {
            if cancel.load(Ordering::Relaxed) {
                return Err(SolveError::Cancelled);
            }
            if let Some(s) = settled {
                progress(s);
            }
            since_poll = 0;
        }
        let phases = r.run_phases(count)?;
        if phases.is_empty() {
            return Err(SolveError::Device("a batch of iterations made no progress".into()));
        }
        since_poll += phases.len() as u32;
        let mut done = false;
        for p in phases {
            settled = p.settled.or(settled);
            done |= p.done;
            run.times.add(&p.record.times);
            run.records.push(p.record);
        }
        if done {
            break;
        }
        count = (count * 2).min(max);
    }
    run.total_ms = start.elapsed().as_secs_f64() * 1e3;
    Ok(run)
}

/// Chunk sizes of a fast run: `first`, then ×`factor` up to `max` iterations, so a short run
/// reads back early and a long one amortises its read-backs.
pub struct ChunkSizes {
    pub first: u32,
    pub factor: u32,
    pub max: u32,
}

/// Where a fast run starts: its first iteration and the vertices settled before it.
pub struct FastStart {
    pub first: u32,
    pub settled: u64,
}

/// What one chunk of a fast run gave the host.
pub struct Chunk {
    /// Vertices the chunk's finished iterations settled (for progress).
    pub settled: u64,
    /// Whether the solve ended in it.
    pub done: bool,
}

/// A device's fast path (CUDA's persistent kernel, wgpu's lists and teams), as [`run_fast`]
/// drives it: the device keeps its own iteration counter and the run's device state.
pub trait FastRunner {
    fn fast_chunks(&self) -> ChunkSizes;
    /// Prepares a fast run from the current state.
    fn fast_begin(&mut self) -> Result<FastStart, SolveError>;
    /// Runs (or submits) `count` more iterations and returns what has finished since the last
    /// call (possibly nothing, where the device keeps chunks in flight).
    fn fast_chunk(&mut self, count: u32) -> Result<Chunk, SolveError>;
    /// Stops a cancelled run, leaving δ and the stamps consistent after the last iteration it
    /// finished, so that stepping can go on from there.
    fn fast_cancel(&mut self) -> Result<(), SolveError>;
    /// The per-iteration log of a run that ended (one entry per iteration from its first).
    fn fast_log(&mut self) -> Result<Vec<Sizes>, SolveError>;
    /// Books the end of a run: `settled` vertices in all.
    fn fast_end(&mut self, settled: u64);
}

/// `run_to_end` on a device's fast path: chunks of iterations, progress and cancel between
/// them, the records from the log at the end ([`fast_records`]). `header` is the run's empty
/// record, `n` the vertices.
pub fn run_fast<R: FastRunner + ?Sized>(
    r: &mut R,
    mut run: RunRecord,
    n: u64,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64),
) -> Result<RunRecord, SolveError> {
    let begin = r.fast_begin()?;
    let start = Instant::now();
    let sizes = r.fast_chunks();
    let mut count = sizes.first;
    let mut known = begin.settled;
    loop {
        let c = r.fast_chunk(count)?;
        known += c.settled;
        if c.done {
            break;
        }
        progress(known);
        if cancel.load(Ordering::Relaxed) {
            r.fast_cancel()?;
            return Err(SolveError::Cancelled);
        }
        count = count.saturating_mul(sizes.factor).min(sizes.max);
    }
    let log = r.fast_log()?;
    run.total_ms = start.elapsed().as_secs_f64() * 1e3;
    let settled = fast_records(&mut run, begin.first, n, begin.settled, &log);
    r.fast_end(settled);
    progress(settled);
    run.iterations = begin.first - 1 + log.len() as u32;
    run.reached = settled;
    Ok(run)
}

/// The record `run_to_end` returns for a run that already finished: the header, its
/// iterations and the vertices it settled.
pub fn finished_run(id: &RunIdent, iterations: u32, reached: u64) -> RunRecord {
    let mut run = id.header();
    run.iterations = iterations;
    run.reached = reached;
    run
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::Threshold;

    /// A fast run of three iterations on 10 vertices, 2 settled before it: |F| = 3, 4, 1; each
    /// iteration settles the next one's frontier, the last settles nothing.
    /// Stamps of 8 vertices: F₁ = {0}, F₂ = {1, 2}, F₃ = {3}, F₄ = {6, 7}, two never settled;
    /// the records of iterations 2 and 3 get the CPU stepper's sizes.
    #[test]
    fn sizes_from_stamps_count_each_frontier() {
        let u = gpu::UNSET;
        let stamp = [1, 2, 2, 3, u, u, 4, 4];
        let t = Thresholds::from_minima(Threshold::Martin, 5, 7);
        let rec = |iteration| IterationRecord {
            iteration,
            values: crate::algo::frontier_values(&t, 0, None),
            ..Default::default()
        };
        let mut records = [rec(2), rec(3)];
        sizes_from_stamps(&mut records, &stamp);
        let got: Vec<(u64, u64, u64)> = records.iter().map(|r| (r.frontier, r.unsettled, r.settled)).collect();
        assert_eq!(got, [(2, 5, 4), (1, 4, 6)]);
        assert_eq!(records[0].values, crate::algo::frontier_values(&t, 1, None));
        assert_eq!(records[1].values, crate::algo::frontier_values(&t, 2, None));
    }

    #[test]
    fn fast_records_chain_the_settled_counts() {
        let sizes = |frontier, reached| Sizes {
            thresholds: Thresholds::from_minima(Threshold::Martin, 5, 7),
            frontier,
            reached,
            times: PhaseTimes { relax_ms: 1.0, ..Default::default() },
        };
        let mut run = RunRecord::default();
        let log = [sizes(3, 6), sizes(4, 2), sizes(1, 0)];
        let settled = fast_records(&mut run, 4, 10, 2, &log);
        assert_eq!(settled, 7);
        let got: Vec<(u32, u64, u64, u64)> =
            run.records.iter().map(|r| (r.iteration, r.frontier, r.unsettled, r.settled)).collect();
        assert_eq!(got, [(4, 3, 8, 6), (5, 4, 4, 7), (6, 1, 3, 7)]);
        assert_eq!(run.times.relax_ms, 3.0);
    }
}
