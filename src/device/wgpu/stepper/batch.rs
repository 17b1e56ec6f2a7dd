//! Encoding, submitting and reading back batches of iterations (vertex-parallel and fast), and
//! the state copies that stepping diffs.

use super::*;

impl WgpuFrontier {
    pub(super) fn dispatch(&self, pass: &mut wgpu::ComputePass<'_>, p: &Pass, indirect: Option<(&wgpu::Buffer, u64)>) {
        pass.set_pipeline(&p.compiled.pipeline);
        pass.set_bind_group(0, &p.group, &[]);
        match indirect {
            Some((buf, offset)) if self.gpu.indirect => pass.dispatch_workgroups_indirect(buf, offset),
            _ => pass.dispatch_workgroups(p.grid.0, p.grid.1, 1),
        }
    }

    pub(super) fn timestamps(&self, q: Option<u32>) -> Option<wgpu::ComputePassTimestampWrites<'_>> {
        match (&self.b.queries, q) {
            (Some((set, _)), Some(q)) => Some(wgpu::ComputePassTimestampWrites {
                query_set: set,
                beginning_of_pass_write_index: Some(q),
                end_of_pass_write_index: Some(q + 1),
            }),
            _ => None,
        }
    }

    /// Encodes phase `phase` of iteration `it` as one compute pass, with timestamps at queries
    /// `q`, `q + 1`. Vertex-parallel: 0 relax, 1 minimum, 2 update; fast: 0 relax, 2 update.
    pub(super) fn encode_phase(&self, enc: &mut wgpu::CommandEncoder, fast: bool, it: u32, phase: u32, q: Option<u32>) {
        let label = ["relax", "minimum", "update"][phase as usize];
        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(label),
            timestamp_writes: self.timestamps(q),
        });
        match (fast, &self.fast, phase) {
            (true, Some(f), 0) => self.dispatch(&mut pass, &f.relax, Some((&f.args[(it & 1) as usize], 0))),
            (true, Some(f), _) => self.dispatch(&mut pass, &f.update, None),
            (_, _, 0) => self.dispatch(&mut pass, &self.relax, Some((&self.b.indirect, 0))),
            (_, _, 1) => {
                self.dispatch(&mut pass, &self.minimum1, Some((&self.b.indirect, 12)));
                self.dispatch(&mut pass, &self.minimum2, None);
            }
            _ => self.dispatch(&mut pass, &self.update, None),
        }
    }

    /// Maps `buffer[0..size]`, waits for submission `index`, copies the bytes out.
    pub(super) fn read(
        &self,
        buffer: &wgpu::Buffer,
        size: u64,
        index: wgpu::SubmissionIndex,
        what: &str,
    ) -> Result<Vec<u8>, SolveError> {
        super::super::dispatch::read(&self.gpu, buffer, size, index, what)
    }

    /// Runs up to `k` iterations from `base` (fewer if the solve ends) on the vertex-parallel or
    /// the fast path and reads back their log.
    pub(super) fn run_batch(&mut self, base: u32, k: u32, fast: bool) -> Result<BatchOut, SolveError> {
        if self.b.queries.is_some() {
            let k = k.clamp(1, BATCH_MAX);
            let index = self.submit_batch(fast, base, k, 0, false)?;
            return self.read_batch(fast, base, k, 0, index, None);
        }
        // No timestamps: one iteration, each pass submitted alone and timed by the host.
        let gpu = Arc::clone(&self.gpu);
        let mut wall = PhaseTimes::default();
        gpu.guarded("running an iteration", || {
            self.write_base(fast, base, 0);
            let mut enc = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("log") });
            self.clear_log(&mut enc, fast, 1, 0);
            gpu.queue.submit([enc.finish()]);
        })?;
        let phases: &[u32] = if fast { &[0, 2] } else { &[0, 1, 2] };
        for &phase in phases {
            let t0 = Instant::now();
            let index = gpu.guarded("running a kernel", || {
                let mut enc =
                    gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("phase") });
                self.encode_phase(&mut enc, fast, base, phase, None);
                gpu.queue.submit([enc.finish()])
            })?;
            gpu.wait(index, "a kernel")?;
            let ms = t0.elapsed().as_secs_f64() * 1e3;
            match phase {
                0 => wall.relax_ms = ms,
                1 => wall.minimum_ms = ms,
                _ => wall.update_ms = ms,
            }
        }
        let index = gpu.guarded("reading the log", || {
            let mut enc = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("log") });
            self.encode_log_copy(&mut enc, fast, 1, 0);
            gpu.queue.submit([enc.finish()])
        })?;
        self.read_batch(fast, base, 1, 0, index, Some(wall))
    }

    /// Control words before a batch: the vertex-parallel path's ctrl, or the fast path's log
    /// base (slot = i − base lands in the log half `half`).
    pub(super) fn write_base(&self, fast: bool, base: u32, half: u32) {
        match (&self.fast, fast) {
            (Some(f), true) => {
                let b = base.wrapping_sub(half * BATCH_MAX);
                self.gpu.queue.write_buffer(&f.fctl, F_BASE as u64 * 4, bytemuck::bytes_of(&b));
            }
            _ => self.gpu.queue.write_buffer(&self.b.ctrl, 0, bytemuck::cast_slice(&[0u32, 0, 0, base])),
        }
    }

    pub(super) fn log_bytes(k: u32) -> u64 {
        k as u64 * LOG_WORDS as u64 * 4
    }

    /// Zeroes the log slots of a batch (the fast path keeps its log behind its control words).
    pub(super) fn clear_log(&self, enc: &mut wgpu::CommandEncoder, fast: bool, k: u32, half: u32) {
        match self.fast.as_ref().filter(|_| fast) {
            Some(f) => enc.clear_buffer(&f.fctl, RB_LOG + Self::log_bytes(half * BATCH_MAX), Some(Self::log_bytes(k))),
            None => enc.clear_buffer(&self.b.log, 0, Some(Self::log_bytes(k))),
        }
    }

    /// Copies control words and the batch's log slots to read-back buffer `half`.
    pub(super) fn encode_log_copy(&self, enc: &mut wgpu::CommandEncoder, fast: bool, k: u32, half: u32) {
        let rb = &self.b.readback[half as usize];
        match self.fast.as_ref().filter(|_| fast) {
            Some(f) => {
                enc.copy_buffer_to_buffer(&f.fctl, 0, rb, 0, Some(RB_LOG));
                let from = RB_LOG + Self::log_bytes(half * BATCH_MAX);
                enc.copy_buffer_to_buffer(&f.fctl, from, rb, RB_LOG, Some(Self::log_bytes(k)));
            }
            None => {
                enc.copy_buffer_to_buffer(&self.b.ctrl, 0, rb, 0, Some(16));
                enc.copy_buffer_to_buffer(&self.b.log, 0, rb, RB_LOG, Some(Self::log_bytes(k)));
            }
        }
    }

    /// Whether fast-path batches carry per-pass timestamps (only for analysis: see
    /// [`WgpuTuning::fast_timestamps`]).
    pub(super) fn fast_timed(&self) -> bool {
        self.tuning.fast_timestamps && self.b.queries.is_some()
    }

    /// Submits `k` iterations starting at `base`, the log going to half `half` of the log,
    /// timestamp and read-back buffers (two batches can be in flight). The vertex-parallel path
    /// puts each kernel in a pass of its own with timestamps; the fast path (unless
    /// `fast_timestamps`) records the whole batch in one compute pass (wgpu still inserts the
    /// barriers between its dispatches), after the setup kernel when `setup` is set.
    pub(super) fn submit_batch(
        &self,
        fast: bool,
        base: u32,
        k: u32,
        half: u32,
        setup: bool,
    ) -> Result<wgpu::SubmissionIndex, SolveError> {
        let gpu = &self.gpu;
        let phases: &[u32] = if fast { &[0, 2] } else { &[0, 1, 2] };
        let stride = 2 * phases.len() as u32;
        let q0 = half * BATCH_MAX * TS_PER_ITER;
        let timed = !fast || self.fast_timed();
        gpu.guarded("running iterations", || {
            self.write_base(fast, base, half);
            let mut enc = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("batch") });
            self.clear_log(&mut enc, fast, k, half);
            match (&self.fast, timed) {
                (Some(f), false) => {
                    let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                        label: Some("batch"),
                        timestamp_writes: None,
                    });
                    if setup {
                        self.dispatch(&mut pass, &f.setup, None);
                    }
                    for j in 0..k {
                        self.dispatch(&mut pass, &f.relax, Some((&f.args[((base + j) & 1) as usize], 0)));
                        self.dispatch(&mut pass, &f.update, None);
                    }
                }
                _ => {
                    if let (Some(f), true) = (&self.fast, setup) {
                        let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                            label: Some("setup"),
                            timestamp_writes: None,
                        });
                        self.dispatch(&mut pass, &f.setup, None);
                    }
                    for j in 0..k {
                        for (x, &phase) in phases.iter().enumerate() {
                            self.encode_phase(&mut enc, fast, base + j, phase, Some(q0 + j * stride + 2 * x as u32));
                        }
                    }
                    if let Some((set, resolve)) = &self.b.queries {
                        // Only written queries are resolved (stride = 2 per pass).
                        let at = q0 as u64 * 8;
                        enc.resolve_query_set(set, q0..q0 + k * stride, resolve, at);
                        let rb = &self.b.readback[half as usize];
                        enc.copy_buffer_to_buffer(resolve, at, rb, RB_TS, Some((k * stride) as u64 * 8));
                    }
                }
            }
            self.encode_log_copy(&mut enc, fast, k, half);
            gpu.queue.submit([enc.finish()])
        })
    }

    /// Reads the log of a batch submitted with `submit_batch` (or the wall-clock path, `wall`).
    pub(super) fn read_batch(
        &self,
        fast: bool,
        base: u32,
        k: u32,
        half: u32,
        index: wgpu::SubmissionIndex,
        wall: Option<PhaseTimes>,
    ) -> Result<BatchOut, SolveError> {
        let stride = if fast { 4 } else { 6 };
        let timed = wall.is_none() && (!fast || self.fast_timed());
        let size = if timed { RB_TS + (k * stride) as u64 * 8 } else { RB_LOG + Self::log_bytes(k) };
        let bytes = self.read(&self.b.readback[half as usize], size, index, "reading the iteration log")?;
        let words: &[u32] = bytemuck::cast_slice(&bytes);
        let (finished, done) =
            if fast { (words[F_ITER_R].wrapping_sub(base), words[F_DONE] != 0) } else { (words[2], words[1] != 0) };
        let slots = (finished as usize).min(k as usize);
        let mut logs = Vec::with_capacity(slots);
        let mut times = Vec::with_capacity(slots);
        let period = self.gpu.timestamp_period as f64 * 1e-6;
        for s in 0..slots {
            let mut l = [0u32; LOG_WORDS];
            let at = (RB_LOG / 4) as usize + s * LOG_WORDS;
            l.copy_from_slice(&words[at..at + LOG_WORDS]);
            logs.push(l);
            match wall {
                Some(w) => times.push(w),
                None if !timed => times.push(PhaseTimes::default()),
                None => {
                    let ts: &[u64] = bytemuck::cast_slice(&bytes[RB_TS as usize..]);
                    let t = &ts[s * stride as usize..(s + 1) * stride as usize];
                    let span = |x: usize| t[2 * x + 1].saturating_sub(t[2 * x]) as f64 * period;
                    times.push(if fast {
                        PhaseTimes { relax_ms: span(0), minimum_ms: 0.0, update_ms: span(1), copy_ms: 0.0 }
                    } else {
                        PhaseTimes { relax_ms: span(0), minimum_ms: span(1), update_ms: span(2), copy_ms: 0.0 }
                    });
                }
            }
        }
        Ok(BatchOut { logs, times, done })
    }

    /// Copies δ and status back to the host.
    pub(super) fn copy_state(&mut self) -> Result<HostState, SolveError> {
        let n = self.n as u64;
        let gpu = Arc::clone(&self.gpu);
        if self.b.state_readback.is_none() {
            let buf = gpu.guarded("allocating the state read-back", || {
                gpu.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("state readback"),
                    size: 2 * n * 4,
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                })
            })?;
            self.b.state_readback = Some(buf);
        }
        let Some(rb) = &self.b.state_readback else {
            return Err(dev("state read-back buffer missing"));
        };
        let index = gpu.guarded("copying the state", || {
            let mut enc = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("state") });
            enc.copy_buffer_to_buffer(&self.b.dist, 0, rb, 0, Some(n * 4));
            enc.copy_buffer_to_buffer(&self.b.status, 0, rb, n * 4, Some(n * 4));
            gpu.queue.submit([enc.finish()])
        })?;
        let bytes = self.read(rb, 2 * n * 4, index, "reading δ and status")?;
        let words: &[u32] = bytemuck::cast_slice(&bytes);
        Ok(HostState {
            dist: words[..n as usize].iter().map(|&d| to_distance(d)).collect(),
            stamp: words[n as usize..].to_vec(),
        })
    }
}
