//! The Δ-stepping driver ([meyer-sanders]; design in `docs/gpu-delta-stepping.md`; kernels
//! `kernels/delta_stepping.{cu,wgsl}`; backends `src/device/{cuda,wgpu}/delta_stepping.rs`; the
//! log layout and the records in [`crate::device::gpu_delta`]).
//!
//! The bucket state machine runs on the device, a phase writes one log entry, so
//! - `step` runs one phase and reads its entry (and, with `record_deltas`, δ and R's marks for
//!   the view): the CPU stepper's records, with the warp figures of the device's own votes;
//! - `run_to_end` runs batches of phases and reads back only their log entries; phases queued
//!   past the end return at once on the device.

use super::{Backend, Doubling, RunIdent, Words};
use crate::algo::{PhaseTimes, RunRecord, SolveError, Step, Stepper};
use crate::device::gpu_delta::{self as book, BATCH_MAX, DeltaRun, L_SERIAL, LOG_WORDS, LogEntry};
use crate::graph::{Distance, INF};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The Δ-stepping stepper of any device.
pub struct Bucketed<B> {
    backend: B,
    id: RunIdent,
    run: DeltaRun,
    /// δ as the host last saw it (for the steps' deltas; empty after a fast run).
    prev: Vec<Distance>,
    iteration: u32,
    done: bool,
    reached: u64,
}

impl<B: Backend> Bucketed<B> {
    /// A driver over `backend`, which holds [`book::initial_state`].
    pub fn new(backend: B, run: DeltaRun, id: RunIdent) -> Self {
        let mut prev = vec![INF; id.graph.n()];
        if let Some(p) = prev.get_mut(id.source as usize) {
            *p = 0;
        }
        Bucketed { id, backend, run, prev, iteration: 0, done: false, reached: 1 }
    }

    /// Runs up to `count` phases and returns the entries of those that ran (at least one).
    fn phases(&mut self, count: u32, timed: bool) -> Result<(Vec<LogEntry>, Option<f64>), SolveError> {
        let batch = self.backend.run_batch(0, count, &[], timed)?;
        let entries: Vec<LogEntry> =
            batch.words.chunks_exact(LOG_WORDS).map(|c| std::array::from_fn(|i| c[i])).filter(book::ran).collect();
        if entries.is_empty() {
            return Err(SolveError::Device(format!("{}: a Δ-stepping phase did not run", self.id.device)));
        }
        Ok((entries, batch.gpu_ms))
    }

    /// Books a phase that ran: iteration, reached, done.
    fn note(&mut self, e: &LogEntry) {
        self.iteration += 1;
        self.done = book::finished(e);
        self.reached = book::reached_total(e);
    }

    fn record(&self, e: &LogEntry, times: PhaseTimes) -> crate::algo::IterationRecord {
        let n = self.id.graph.n() as u64;
        book::record(e, self.iteration, n, self.id.opts.block.relax, self.run.delta, times)
    }

    fn run_fast(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        self.backend.prepare()?;
        let begin = Instant::now();
        let mut run = self.id.header();
        let mut sizes = Doubling::new(BATCH_MAX);
        while !self.done {
            let batch = sizes.next(cancel, progress, self.reached)?;
            for e in &self.phases(batch, false)?.0 {
                self.note(e);
                run.records.push(self.record(e, PhaseTimes::default()));
            }
        }
        // The host's δ is stale after a fast run; `distances` copies from the device.
        self.prev.clear();
        run.total_ms = begin.elapsed().as_secs_f64() * 1e3;
        run.iterations = self.iteration;
        run.reached = self.reached;
        Ok(run)
    }
}

impl<B: Backend> Stepper for Bucketed<B> {
    super::ident_getters!();

    fn is_done(&self) -> bool {
        self.done
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        if self.done {
            return Ok(None);
        }
        self.backend.prepare()?;
        let t0 = Instant::now();
        let (entries, gpu_ms) = self.phases(1, true)?;
        let relax_ms = gpu_ms.unwrap_or_else(|| t0.elapsed().as_secs_f64() * 1e3);
        let e = entries[0];
        self.note(&e);
        let t1 = Instant::now();
        let delta = if self.id.opts.record_deltas {
            if self.prev.is_empty() {
                self.prev = vec![INF; self.id.graph.n()];
            }
            let new = self.backend.read_words(Words::Dist)?;
            let rr = if book::settles(&e) { Some(self.backend.read_words(Words::Rr)?) } else { None };
            Some(book::step_delta(&mut self.prev, &new, rr.as_deref(), e[L_SERIAL], self.id.source))
        } else {
            None
        };
        let times = PhaseTimes { relax_ms, copy_ms: t1.elapsed().as_secs_f64() * 1e3, ..Default::default() };
        Ok(Some(Step { record: self.record(&e, times), delta }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.backend.read_words(Words::Dist)?.into_iter().map(book::widen).collect())
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        if !self.id.opts.instrument {
            return self.run_fast(cancel, progress);
        }
        let graph = Arc::clone(&self.id.graph);
        let mut run = super::run_by_steps_quietly(self, |s| &mut s.id.opts.record_deltas, cancel, progress, &graph)?;
        run.iterations = self.iteration;
        run.reached = self.reached;
        Ok(run)
    }
}
