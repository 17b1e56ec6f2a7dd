//! The frontier driver's loops, written once for every device: a step, `run_to_end` by
//! per-phase launches and `run_to_end` on the fast path.

use super::{FrontierBackend, Stepped, book_step, fast_records, sizes_from_stamps};
use crate::algo::{RunRecord, SolveError, Step};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Iterations between two cancel / progress polls of a backend that runs one per call.
const POLL_EVERY: u32 = 256;

impl<B: FrontierBackend> super::Frontier<B> {
    /// The next iteration by per-phase launches, the state copied back (`copy_ms`) and the step
    /// booked from the two copies ([`book_step`]).
    pub(super) fn step_once(&mut self) -> Result<Option<Step>, SolveError> {
        if self.done {
            return Ok(None);
        }
        self.backend.prepare()?;
        let prev = self.take_host()?;
        let out = self.backend.step_launch(self.at())?;
        let t = Instant::now();
        let new = self.backend.read_state()?;
        let copy_ms = t.elapsed().as_secs_f64() * 1e3;
        let iteration = self.iteration + 1;
        let stepped =
            Stepped { iteration, thresholds: &out.thresholds, times: out.times, copy_ms, counted: out.counted };
        let (step, next) = book_step(&self.id, self.run, &mut self.model, stepped, &prev, &new);
        self.iteration = iteration;
        self.settled = self.settled.map(|s| s + next);
        self.next = next;
        self.done = out.done;
        self.host = Some(new);
        Ok(Some(step))
    }

    /// `run_to_end` by per-phase launches: batches of 1, 2, 4 … the backend's maximum until an
    /// iteration ends the solve; cancel and progress are polled before every batch of a
    /// batching backend, every [`POLL_EVERY`] iterations otherwise. Where the kernels counted
    /// nothing, the set sizes of the records come from the stamps after the run.
    pub(super) fn run_phases(
        &mut self,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(u64),
    ) -> Result<RunRecord, SolveError> {
        self.backend.prepare()?;
        self.settled_now()?;
        self.host = None;
        self.stepped = false;
        let mut run = self.id.header();
        let start = Instant::now();
        self.phase_loop(&mut run, cancel, progress).inspect_err(|_| {
            // The state is consistent at the last iteration read; the settled count is recounted from it.
            self.settled = None;
        })?;
        run.total_ms = start.elapsed().as_secs_f64() * 1e3;
        let counted = self.settled.is_some();
        let settled = self.settled_now()?;
        if !counted && let Some(h) = &self.host {
            sizes_from_stamps(&mut run.records, &h.stamp);
        }
        progress(settled);
        run.iterations = self.iteration;
        run.reached = settled;
        Ok(run)
    }

    /// The batches of [`Self::run_phases`], their records appended to `run`.
    fn phase_loop(
        &mut self,
        run: &mut RunRecord,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), SolveError> {
        let max = self.backend.phase_batch_max().max(1);
        let mut known = self.settled;
        let mut count = 1;
        let mut since_poll = POLL_EVERY;
        while !self.done {
            if max > 1 || since_poll >= POLL_EVERY {
                if cancel.load(Ordering::Relaxed) {
                    return Err(SolveError::Cancelled);
                }
                if let Some(s) = known {
                    progress(s);
                }
                since_poll = 0;
            }
            let phases = self.backend.run_phases(self.at(), count)?;
            if phases.is_empty() {
                return Err(SolveError::Device("a batch of iterations made no progress".into()));
            }
            since_poll += phases.len() as u32;
            for p in phases {
                self.iteration = p.record.iteration;
                self.settled = p.settled.map(|(s, _)| s);
                self.next = p.settled.map_or(0, |(_, next)| next);
                known = self.settled.or(known);
                self.done |= p.done;
                run.times.add(&p.record.times);
                run.records.push(p.record);
            }
            count = (count * 2).min(max);
        }
        Ok(())
    }

    /// `run_to_end` on the device's fast path: chunks of iterations, progress and cancel
    /// between them, the records from the log at the end ([`fast_records`]).
    pub(super) fn run_fast(
        &mut self,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(u64),
    ) -> Result<RunRecord, SolveError> {
        self.backend.prepare()?;
        let settled = self.settled_now()?;
        let first = self.iteration + 1;
        self.backend.fast_begin(first)?;
        // The device runs ahead of the host from here; the end of the run books it again.
        self.host = None;
        self.stepped = false;
        self.settled = None;
        let mut run = self.id.header();
        let start = Instant::now();
        let sizes = self.backend.fast_chunks();
        let mut count = sizes.first;
        let mut known = settled;
        loop {
            let c = self.backend.fast_chunk(count)?;
            (self.iteration, self.done) = (c.iteration, c.done);
            known += c.settled;
            if c.done {
                break;
            }
            progress(known);
            if cancel.load(Ordering::Relaxed) {
                (self.iteration, self.done) = self.backend.fast_cancel()?;
                return Err(SolveError::Cancelled);
            }
            count = count.saturating_mul(sizes.factor).min(sizes.max);
        }
        let log = self.backend.fast_log()?;
        run.total_ms = start.elapsed().as_secs_f64() * 1e3;
        let settled = fast_records(&mut run, first, self.id.graph.n() as u64, settled, &log);
        self.settled = Some(settled);
        self.next = 0;
        progress(settled);
        run.iterations = first - 1 + log.len() as u32;
        run.reached = settled;
        Ok(run)
    }
}
