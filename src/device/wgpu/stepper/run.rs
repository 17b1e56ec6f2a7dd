//! Records from the per-iteration log ([`crate::device::gpu`]), and the fast path as the
//! frontier driver runs it ([`FastPath`]: batches of the fast kernels, two in flight).

use super::*;

impl WgpuFrontier {
    pub(super) fn thresholds(&self, l: &[u32; LOG_WORDS]) -> Thresholds {
        gpu::thresholds(self.run, to_distance(l[L_DELTA_MARTIN]), to_distance(l[L_DELTA_CRAUSER]))
    }

    /// The record of a vertex-parallel iteration from its log: every count when instrumented,
    /// else the thresholds and times only.
    pub(super) fn record_from_log(&self, iteration: u32, l: &[u32; LOG_WORDS], times: PhaseTimes) -> IterationRecord {
        let t = self.thresholds(l);
        if !self.opts.instrument {
            return IterationRecord { iteration, times, values: frontier_values(&t, 0, None), ..Default::default() };
        }
        let c = Counters {
            frontier: l[L_FRONTIER] as u64,
            unsettled: l[L_UNSETTLED] as u64,
            reached: l[L_REACHED] as u64,
            next_frontier: l[L_NEXT_FRONTIER] as u64,
            scanned: l[L_EDGES] as u64,
            attempted: l[L_ATTEMPTED] as u64,
            improved: l[L_IMPROVED] as u64,
            working: None,
            warps_full: l[L_WARPS_FULL] as u64,
            warps_mixed: l[L_WARPS_MIXED] as u64,
            warps_dummy: None,
            arc_iters: l[L_EDGES] as u64,
            warp_iters: l[L_WARP_ITERS] as u64,
        };
        gpu::counted_record(iteration, self.run, self.n as u64, self.opts.block.relax, &t, &c, times)
    }

    /// Control words of a fast run from iteration `i0`: no threshold yet, the relax and
    /// update counters and the log base at `i0`, and the first iteration's relax size in the
    /// indirect buffer of its parity.
    fn start_fast(&self, f: &Fast, i0: u32) -> Result<(), SolveError> {
        let mut fctl = [0u32; FCTL_WORDS];
        fctl[..6].fill(U_INF);
        fctl[F_ITER_R] = i0;
        fctl[F_ITER_R + 1] = i0;
        fctl[F_BASE] = i0;
        let gpu = &self.gpu;
        gpu.guarded("starting a fast run", || {
            gpu.queue.write_buffer(&f.fctl, 0, bytemuck::cast_slice(&fctl));
            let first = [f.first_groups, 1, 1, 0u32];
            let none = [0u32, 1, 1, 0];
            let (a, b) = if i0 & 1 == 0 { (first, none) } else { (none, first) };
            gpu.queue.write_buffer(&f.args[0], 0, bytemuck::cast_slice(&a));
            gpu.queue.write_buffer(&f.args[1], 0, bytemuck::cast_slice(&b));
        })
    }
}

/// A fast run in progress: batches in flight (first iteration, size, log half, submission), the
/// next batch's first iteration and log half, the log read so far, the last iteration read and
/// whether the solve ended in it.
pub(super) struct FastRun {
    i0: u32,
    in_flight: std::collections::VecDeque<(u32, u32, u32, wgpu::SubmissionIndex)>,
    next_base: u32,
    half: u32,
    logs: Vec<([u32; LOG_WORDS], PhaseTimes)>,
    last: u32,
    done: bool,
}

impl WgpuFrontier {
    fn take_fast_run(&mut self) -> Result<FastRun, SolveError> {
        self.fast_run.take().ok_or_else(|| dev("internal: no fast run"))
    }

    /// Reads the oldest batch in flight; returns its iterations' log entries and times.
    fn read_oldest(&mut self, r: &mut FastRun) -> Result<Vec<([u32; LOG_WORDS], PhaseTimes)>, SolveError> {
        let Some((base, k, half, index)) = r.in_flight.pop_front() else {
            return Ok(Vec::new());
        };
        let out = self.read_batch(true, base, k, half, index, None)?;
        r.last += out.logs.len() as u32;
        r.done = out.done;
        if out.logs.is_empty() && !r.done {
            return Err(dev(format!("{}: a batch of iterations made no progress", self.gpu.name)));
        }
        Ok(out.logs.into_iter().zip(out.times).collect())
    }
}

impl FastPath for WgpuFrontier {
    /// Lists and teams need indirect dispatch; the racy relax has no fast path.
    fn offers_fast(&self) -> bool {
        !self.run.racy && self.gpu.indirect
    }

    /// 4 iterations per submission, then ×2 up to [`BATCH_MAX`].
    fn fast_chunks(&self) -> ChunkSizes {
        ChunkSizes { first: FAST_FIRST_BATCH, factor: 2, max: BATCH_MAX }
    }

    /// The setup from the current state (the fast path is built on the first fast run).
    fn fast_begin(&mut self, i0: u32) -> Result<(), SolveError> {
        if self.fast.is_none() {
            self.build_fast()?;
        }
        let Some(f) = &self.fast else {
            return Err(dev("internal: fast path missing"));
        };
        self.start_fast(f, i0)?;
        let in_flight = Default::default();
        self.fast_run =
            Some(FastRun { i0, in_flight, next_base: i0, half: 0, logs: Vec::new(), last: i0 - 1, done: false });
        Ok(())
    }

    /// Submits a batch of `count`; with two in flight, reads the older one, so that recording
    /// the next batch overlaps running this one (the first batch starts with the setup kernel).
    fn fast_chunk(&mut self, count: u32) -> Result<Chunk, SolveError> {
        let mut r = self.take_fast_run()?;
        let index = self.submit_batch(true, r.next_base, count, r.half, r.next_base == r.i0)?;
        r.in_flight.push_back((r.next_base, count, r.half, index));
        r.next_base += count;
        r.half ^= 1;
        let logs = if r.in_flight.len() < 2 { Vec::new() } else { self.read_oldest(&mut r)? };
        // Every frontier but the run's first was settled in the run.
        let skip = usize::from(r.logs.is_empty());
        let settled = logs.iter().skip(skip).map(|(l, _)| l[L_FRONTIER] as u64).sum();
        r.logs.extend(logs);
        let chunk = Chunk { settled, iteration: r.last, done: r.done };
        self.fast_run = Some(r);
        Ok(chunk)
    }

    /// Reads the batches still in flight: the state is consistent at the last iteration read.
    fn fast_cancel(&mut self) -> Result<(u32, bool), SolveError> {
        let mut r = self.take_fast_run()?;
        while !r.in_flight.is_empty() {
            self.read_oldest(&mut r)?;
        }
        Ok((r.last, r.done))
    }

    /// A batch submitted after the last one is all no-ops; it finishes before the log is read.
    fn fast_log(&mut self) -> Result<Vec<Sizes>, SolveError> {
        let mut r = self.take_fast_run()?;
        if let Some((_, _, _, index)) = r.in_flight.pop_back() {
            self.gpu.wait(index, "finishing the fast run")?;
        }
        Ok(r.logs
            .iter()
            .map(|(l, times)| Sizes {
                thresholds: self.thresholds(l),
                frontier: l[L_FRONTIER] as u64,
                reached: l[L_REACHED] as u64,
                times: *times,
            })
            .collect())
    }
}
