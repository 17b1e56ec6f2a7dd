//! Records from the per-iteration log ([`crate::device::gpu`]), and the two ways to the end the
//! frontier driver runs: batches of the vertex-parallel kernels ([`PhaseRunner`]) or of the
//! fast path ([`FastRunner`], two batches in flight).

use super::*;

impl WgpuStepper {
    pub(super) fn thresholds(&self, l: &[u32; LOG_WORDS]) -> Thresholds {
        gpu::thresholds(self.run, to_distance(l[L_DELTA_MARTIN]), to_distance(l[L_DELTA_CRAUSER]))
    }

    /// The record of a vertex-parallel iteration from its log: every count when instrumented,
    /// else the thresholds and times only.
    pub(super) fn record_from_log(&self, iteration: u32, l: &[u32; LOG_WORDS], times: PhaseTimes) -> IterationRecord {
        let t = self.thresholds(l);
        if !self.id.opts.instrument {
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
        gpu::counted_record(iteration, self.run, self.n as u64, self.id.opts.block.relax, &t, &c, times)
    }

    pub(super) fn run_header(&self) -> RunRecord {
        self.id.header()
    }

    /// Vertices settled so far (reads the state back when unknown).
    pub(super) fn settled_now(&mut self) -> Result<u64, SolveError> {
        if let Some(s) = self.settled {
            return Ok(s);
        }
        let st = self.read_state()?;
        let s = frontier::settled_in(&st);
        self.host = Some(st);
        self.settled = Some(s);
        Ok(s)
    }

    /// Batches of the vertex-parallel kernels to the end (instrumented or racy runs; the loop
    /// is [`frontier::run_phases`]).
    pub(super) fn run_kernels(
        &mut self,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(u64),
    ) -> Result<RunRecord, SolveError> {
        self.host = None;
        self.stepped = false;
        let header = self.run_header();
        let settled = self.settled;
        let mut run = frontier::run_phases(self, header, settled, cancel, progress).inspect_err(|_| {
            // The state is consistent at the last iteration read; the settled count is recounted from it.
            self.settled = None;
        })?;
        let settled = self.settled_now()?;
        if !self.id.opts.instrument {
            // The kernels counted nothing: the stamps give the sets' sizes (as CUDA's records).
            if let Some(h) = &self.host {
                frontier::sizes_from_stamps(&mut run.records, &h.stamp);
            }
        }
        progress(settled);
        run.iterations = self.iteration;
        run.reached = settled;
        Ok(run)
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

impl PhaseRunner for WgpuStepper {
    /// A submission holds up to [`BATCH_MAX`] iterations; their log is read back once.
    fn phase_batch_max(&self) -> u32 {
        BATCH_MAX
    }

    fn run_phases(&mut self, count: u32) -> Result<Vec<Phase>, SolveError> {
        let out = self.run_batch(count, false)?;
        let last = out.logs.len();
        let mut phases = Vec::with_capacity(last);
        for (k, (l, &t)) in out.logs.iter().zip(&out.times).enumerate() {
            self.iteration += 1;
            let record = self.record_from_log(self.iteration, l, t);
            self.settled = self.id.opts.instrument.then_some(record.settled);
            phases.push(Phase { settled: self.settled, done: out.done && k + 1 == last, record });
        }
        self.done = out.done;
        Ok(phases)
    }
}

/// A fast run in progress: batches in flight (first iteration, size, log half, submission), the
/// next batch's first iteration and log half, and the log read so far.
pub(super) struct FastRun {
    i0: u32,
    in_flight: std::collections::VecDeque<(u32, u32, u32, wgpu::SubmissionIndex)>,
    next_base: u32,
    half: u32,
    logs: Vec<([u32; LOG_WORDS], PhaseTimes)>,
}

impl WgpuStepper {
    fn take_fast_run(&mut self) -> Result<FastRun, SolveError> {
        self.fast_run.take().ok_or_else(|| dev("internal: no fast run"))
    }

    /// Reads the oldest batch in flight; returns its iterations' log entries and times.
    fn read_oldest(&mut self, r: &mut FastRun) -> Result<Vec<([u32; LOG_WORDS], PhaseTimes)>, SolveError> {
        let Some((base, k, half, index)) = r.in_flight.pop_front() else {
            return Ok(Vec::new());
        };
        let out = self.read_batch(true, base, k, half, index, None)?;
        self.iteration += out.logs.len() as u32;
        self.done = out.done;
        if out.logs.is_empty() && !self.done {
            return Err(dev(format!("{}: a batch of iterations made no progress", self.gpu.name)));
        }
        Ok(out.logs.into_iter().zip(out.times).collect())
    }
}

impl FastRunner for WgpuStepper {
    /// 4 iterations per submission, then ×2 up to [`BATCH_MAX`].
    fn fast_chunks(&self) -> ChunkSizes {
        ChunkSizes { first: FAST_FIRST_BATCH, factor: 2, max: BATCH_MAX }
    }

    /// The setup from the current state (the fast path is built on the first fast run).
    fn fast_begin(&mut self) -> Result<FastStart, SolveError> {
        let settled = self.settled_now()?;
        if self.fast.is_none() {
            self.build_fast()?;
        }
        let Some(f) = &self.fast else {
            return Err(dev("internal: fast path missing"));
        };
        let i0 = self.iteration + 1;
        self.start_fast(f, i0)?;
        self.host = None;
        self.stepped = false;
        self.fast_run = Some(FastRun { i0, in_flight: Default::default(), next_base: i0, half: 0, logs: Vec::new() });
        Ok(FastStart { first: i0, settled })
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
        self.fast_run = Some(r);
        Ok(Chunk { settled, done: self.done })
    }

    /// Reads the batches still in flight: the state is consistent at the last iteration read.
    fn fast_cancel(&mut self) -> Result<(), SolveError> {
        self.settled = None;
        let mut r = self.take_fast_run()?;
        while !r.in_flight.is_empty() {
            self.read_oldest(&mut r)?;
        }
        Ok(())
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

    fn fast_end(&mut self, settled: u64) {
        self.settled = Some(settled);
    }
}

impl StepRunner for WgpuStepper {
    fn take_host(&mut self) -> Result<HostState, SolveError> {
        match self.host.take() {
            Some(h) => Ok(h),
            None => self.read_state(),
        }
    }

    fn step_launch(&mut self) -> Result<StepOut, SolveError> {
        let out = self.run_batch(1, false)?;
        let (Some(l), Some(&times)) = (out.logs.first(), out.times.first()) else {
            return Err(dev(format!("{}: the iteration did not run", self.gpu.name)));
        };
        let i = self.iteration + 1;
        self.iteration = i;
        self.done = out.done;
        let counted = self.id.opts.instrument.then(|| self.record_from_log(i, l, times));
        Ok(StepOut { iteration: i, thresholds: self.thresholds(l), times, counted })
    }

    fn copy_state(&mut self) -> Result<HostState, SolveError> {
        self.read_state()
    }

    fn booking(&mut self) -> (&RunIdent, FrontierRun, &mut gpu::LaunchModel) {
        (&self.id, self.run, &mut self.model)
    }

    fn step_booked(&mut self, _out: &StepOut, settled: u64, _next: u64, new: HostState) {
        self.settled = Some(settled);
        self.host = Some(new);
    }
}
