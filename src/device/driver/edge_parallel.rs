//! The edge-parallel Bellman-Ford driver ([seed002]; design in `docs/gpu-bellman-ford.md`;
//! kernels `kernels/bellman_ford.{cu,wgsl}`; backends `src/device/{cuda,wgpu}/bellman_ford.rs`).
//!
//! A pass's counts land in a log entry of [`LOG_WORDS`] words; log slot 0 holds the previous
//! pass's entry (the kernels read it to skip passes queued past convergence).
//! - `step` runs one pass, reads δ back and books the pass on the host ([`PassBook`]): the same
//!   records and deltas as the CPU stepper, with modelled thread counts.
//! - `run_to_end` runs batches of passes and reads back only their log entries; its records
//!   carry the counts (frontier, arcs scanned, vertices lowered, reached) but no thread counts
//!   or kernel times. With `instrument` it steps instead.
//! - A pass that reports a proposal below the graph's negative bound, or pass n lowering
//!   anything, proves a negative cycle: [`crate::algo::negative_cycle_error`] names it.

use super::{Backend, Doubling, RunIdent, Words};
use crate::algo::{PassBook, PassTally, PhaseTimes, RunRecord, SolveError, Step, Stepper};
use crate::device::gpu::BellmanFordRun;
use crate::graph::{Distance, INF};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

// The log's words and slots, shared with the kernels through the prelude.
pub use crate::device::layout::edge_parallel::{FRESH, FRESH_ARCS, LOG_WORDS, LOWERED, LOWERED_ARCS, NEGATIVE};
/// Most passes per batch of the fast path (the log holds `BATCH_MAX + 1` entries).
pub const BATCH_MAX: u32 = 64;

/// One pass's log entry.
pub type Entry = [u32; LOG_WORDS];

/// i32 δ from the device; i32::MAX is ∞.
fn widen(w: u32) -> Distance {
    let d = w as i32;
    if d == i32::MAX { INF } else { Distance::from(d) }
}

/// The Bellman-Ford stepper of any device.
pub struct EdgeParallel<B> {
    backend: B,
    id: RunIdent,
    /// Log entry of the last pass (slot 0 of the next batch).
    last: Entry,
    book: PassBook,
    /// Whether `book` matches the device (false after a fast run).
    host_valid: bool,
}

impl<B: Backend> EdgeParallel<B> {
    /// A driver over `backend`, whose δ holds the source at 0 and everything else at ∞.
    pub fn new(backend: B, run: BellmanFordRun, id: RunIdent) -> Self {
        let mut last = [0u32; LOG_WORDS];
        last[LOWERED] = 1; // pass 0 "lowered" the source: pass 1 runs
        EdgeParallel {
            book: PassBook::new(Arc::clone(&id.graph), id.source, run.frontier_only, run.order),
            id,
            backend,
            last,
            host_valid: true,
        }
    }

    fn passes(&mut self, first: u32, count: u32, timed: bool) -> Result<(Vec<Entry>, Option<f64>), SolveError> {
        let batch = self.backend.run_batch(first, count, &self.last, timed)?;
        let entries = batch.words.chunks_exact(LOG_WORDS).map(|c| std::array::from_fn(|i| c[i])).collect();
        Ok((entries, batch.gpu_ms))
    }

    fn copy_dist(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.backend.read_words(Words::Dist)?.into_iter().map(widen).collect())
    }

    /// Brings the host book up to date after a fast run.
    fn ensure_host(&mut self) -> Result<(), SolveError> {
        if self.host_valid {
            return Ok(());
        }
        let dist = self.copy_dist()?;
        let mark = self.backend.read_words(Words::Mark)?;
        self.book.resync(self.book.iteration, dist, &mark);
        self.host_valid = true;
        Ok(())
    }

    fn negative_cycle(&mut self) -> SolveError {
        self.book.done = true;
        crate::algo::negative_cycle_error(&self.id.graph, self.id.source)
    }

    /// Batches of passes with one log read-back each (see the module docs).
    fn run_fast(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        self.backend.prepare()?;
        self.ensure_host()?;
        let begin = Instant::now();
        let mut run = self.id.header();
        let mut tally = PassTally::from_book(&self.book);
        let n = self.id.graph.n() as u32;
        let mut sizes = Doubling::new(BATCH_MAX);
        self.host_valid = false;
        while !self.book.done {
            let batch = sizes.next(cancel, progress, tally.reached)?;
            // Never past pass n: pass n lowering anything proves a negative cycle.
            let first = self.book.iteration + 1;
            let count = batch.min(n.saturating_sub(self.book.iteration)).max(1);
            for (j, e) in self.passes(first, count, false)?.0.into_iter().enumerate() {
                let pass = first + j as u32;
                if e[NEGATIVE] != 0 || (e[LOWERED] != 0 && pass >= n) {
                    return Err(self.negative_cycle());
                }
                let (lowered, fresh) = (e[LOWERED].into(), e[FRESH].into());
                run.records.push(tally.record(pass, lowered, e[LOWERED_ARCS].into(), fresh, e[FRESH_ARCS].into()));
                self.last = e;
                self.book.iteration = pass;
                if e[LOWERED] == 0 {
                    self.book.done = true;
                    break;
                }
            }
        }
        run.total_ms = begin.elapsed().as_secs_f64() * 1e3;
        run.iterations = self.book.iteration;
        run.reached = tally.reached;
        Ok(run)
    }
}

impl<B: Backend> Stepper for EdgeParallel<B> {
    super::ident_getters!();

    fn is_done(&self) -> bool {
        self.book.done
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        if self.book.done {
            return Ok(None);
        }
        self.backend.prepare()?;
        self.ensure_host()?;
        let start = self.book.start();
        let threads = self.book.threads(self.id.opts.block.relax);
        let t0 = Instant::now();
        let (entries, gpu_ms) = self.passes(start.pass, 1, true)?;
        let relax_ms = gpu_ms.unwrap_or_else(|| t0.elapsed().as_secs_f64() * 1e3);
        let Some(&entry) = entries.first() else {
            return Err(SolveError::Device(format!("{}: a Bellman-Ford pass returned no log", self.id.device)));
        };
        if entry[NEGATIVE] != 0 {
            return Err(self.negative_cycle());
        }
        let t1 = Instant::now();
        let new = self.copy_dist()?;
        let times = PhaseTimes { relax_ms, copy_ms: t1.elapsed().as_secs_f64() * 1e3, ..Default::default() };
        self.last = entry;
        let (record, delta) = self.book.finish_from(start, &new, Some(threads), times)?;
        Ok(Some(Step { record, delta: self.id.opts.record_deltas.then_some(delta) }))
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        if self.host_valid {
            return Ok(self.book.prev.clone());
        }
        self.copy_dist()
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        let mut run = if self.id.opts.instrument {
            let graph = Arc::clone(&self.id.graph);
            super::run_by_steps_quietly(self, |s| &mut s.id.opts.record_deltas, cancel, progress, &graph)?
        } else if self.book.done {
            self.id.header()
        } else {
            return self.run_fast(cancel, progress);
        };
        run.iterations = self.book.iteration;
        run.reached = self.book.reached;
        Ok(run)
    }
}
