//! Moving through a run: step, step back, play, seek, run to the end on a worker, reset, and the
//! oracle check of a finished run.
//!
//! Stepping forward replays the trace's recorded deltas while the cursor is behind its end, and
//! only then asks the solver for a new iteration (a CPU step is fast enough for the UI thread).
//! Running to the end moves the solver to a worker thread that streams batches of steps back
//! through its job; the trace fills as they arrive and the solver comes back when done.

use super::jobs::{Job, repaint, take_finished};
use super::state::{AfterBuild, AppState, BuildJob, RunJob, RunOutput, Verification};
use crate::algo::{SolveOptions, reference_distances};
use crate::device;
use crate::graph::VertexId;
use crate::trace::Trace;
use std::time::{Duration, Instant};

/// Most time per frame spent stepping while playing, or taking in streamed steps.
const FRAME_BUDGET: Duration = Duration::from_millis(8);

/// Graphs with more vertices plus arcs than this get even their CPU solver built on a worker.
const BUILD_SYNC_MAX: usize = 2_000_000;

impl AppState {
    /// Back to iteration 0 with the current settings: drops the solver, any run-to-end job and
    /// the trace, and starts a fresh trace.
    pub(crate) fn reset(&mut self) {
        if let Some(r) = self.jobs.run.take() {
            r.job.cancel();
        }
        if let Some(b) = self.jobs.build.take() {
            b.job.cancel();
        }
        if let Some((_, j)) = self.jobs.verify.take() {
            j.cancel();
        }
        self.run_id += 1;
        self.playing = false;
        self.play_budget = 0.0;
        self.stepper = None;
        self.stepper_lost = false;
        self.thread_times.clear();
        self.verification = Verification::NotYet;
        self.trace = self.graph().map(|g| Trace::new(g.n(), self.source));
    }

    /// Stops playing and cancels the jobs that can be cancelled.
    pub(crate) fn cancel(&mut self) {
        self.playing = false;
        if let Some(r) = &self.jobs.run {
            r.job.cancel();
        }
        if let Some(j) = &self.jobs.graph {
            j.cancel();
        }
        if let Some(j) = &self.jobs.tune {
            j.cancel();
        }
        // The build cannot stop half-way; its solver is dropped when it arrives.
        if let Some(b) = self.jobs.build.take() {
            b.job.cancel();
        }
    }

    /// Creates the solver for the current settings if there is none: at once on the CPU (a
    /// few arrays), on a worker for GPUs (kernel compilation and the upload take up to seconds)
    /// and for graphs of more than [`BUILD_SYNC_MAX`] vertices plus arcs (the CPU solver's
    /// arrays for the 16.8 M-vertex grid took 0.5 s of the UI thread), which then does `then`.
    /// False while there is no solver yet.
    fn ensure_stepper(&mut self, then: AfterBuild) -> bool {
        if self.stepper.is_some() {
            return true;
        }
        if let Some(b) = &mut self.jobs.build {
            b.then = then;
            return false;
        }
        if self.stepper_lost {
            self.error("the solver was lost when its worker failed; press Reset to start again");
            return false;
        }
        let Some(g) = self.graph().cloned() else { return false };
        let choice = &self.settings.algorithm;
        let opts = SolveOptions {
            params: choice.params.clone(),
            block: self.settings.block,
            record_deltas: true,
            ..Default::default()
        };
        let algo = choice.algorithm;
        let dev = self.settings.device;
        // A trace opened from a file was saved before its end: a solver continues it once it
        // has replayed the saved iterations (the same ones for exact algorithms).
        let catch_up = self.trace.as_ref().map_or(0, |t| t.len());
        let gpu = matches!(dev, device::DeviceId::Cuda(_) | device::DeviceId::Wgpu(_));
        // PHAST contracts the graph first (seconds on NY), so it always builds in the background.
        let sweep = algo.spec().family == crate::algo::Family::Sweep;
        if catch_up > 0 || gpu || sweep || g.n() + g.m() > BUILD_SYNC_MAX {
            let source = self.source;
            let name = if catch_up > 0 {
                format!("replaying the trace's {catch_up} iterations with {algo} on {dev} to continue it")
            } else if sweep {
                format!("building {algo} on {dev} (the contraction hierarchy, once per graph)")
            } else if gpu {
                format!("building {algo} on {dev} (kernels, graph upload)")
            } else {
                format!("building {algo} on {dev} (its per-vertex arrays)")
            };
            let job = Job::spawn(name, repaint(&self.egui), move |ctx| {
                let mut st = device::make_stepper(dev, g, algo, source, &opts)
                    .map_err(|e| format!("cannot start {algo} on {dev}: {e}"))?;
                for i in 0..catch_up {
                    if ctx.cancelled() {
                        return Err("cancelled".to_string());
                    }
                    ctx.set_progress(i as f32 / catch_up as f32);
                    st.step().map_err(|e| format!("replaying the trace with {algo} on {dev}: {e}"))?;
                }
                Ok(st)
            });
            self.jobs.build = Some(BuildJob { job, run_id: self.run_id, then });
            return false;
        }
        match device::make_stepper(dev, g, algo, self.source, &opts) {
            Ok(s) => {
                self.stepper = Some(s);
                true
            }
            Err(e) => {
                self.playing = false;
                self.error(format!("cannot start {algo} on {}: {e}", self.settings.device));
                false
            }
        }
    }

    /// One iteration forward; false when nothing moved (end of run, solver busy or being
    /// built — then it does `then` once ready —, error).
    fn forward_one(&mut self, then: AfterBuild) -> bool {
        let Some(trace) = &mut self.trace else { return false };
        if trace.pos() < trace.len() {
            return trace.forward();
        }
        if trace.is_finished() || self.jobs.run.is_some() || !self.ensure_stepper(then) {
            return false;
        }
        let (Some(trace), Some(stepper)) = (&mut self.trace, &mut self.stepper) else { return false };
        match stepper.step() {
            Ok(Some(step)) => {
                trace.push(step);
                self.thread_times = stepper.thread_times();
                if stepper.is_done() {
                    trace.set_finished();
                }
                true
            }
            Ok(None) => {
                trace.set_finished();
                false
            }
            Err(e) => {
                self.playing = false;
                self.error(format!("step failed: {e}"));
                false
            }
        }
    }

    pub(crate) fn step_forward(&mut self, n: usize) {
        for i in 0..n {
            if !self.forward_one(AfterBuild::Step(n - i)) {
                break;
            }
        }
    }

    pub(crate) fn step_back(&mut self) {
        self.playing = false;
        if let Some(t) = &mut self.trace {
            t.back();
        }
    }

    pub(crate) fn seek(&mut self, p: usize) {
        self.playing = false;
        if let Some(t) = &mut self.trace {
            t.seek(p);
        }
    }

    pub(crate) fn toggle_play(&mut self) {
        self.playing = !self.playing && !self.at_end() && self.trace.is_some();
        self.play_budget = 0.0;
        if self.playing {
            self.egui.request_repaint();
        }
    }

    /// Plays `speed · dt` iterations (at most [`FRAME_BUDGET`] of them); asks for the next frame.
    pub(crate) fn play_tick(&mut self, dt: f64) {
        if !self.playing {
            return;
        }
        let speed = self.settings.speed;
        // At most a quarter second's worth per frame, so a stalled frame does not cause a burst.
        self.play_budget = (self.play_budget + speed * dt.min(0.25)).min(speed * 0.25 + 1.0);
        let start = Instant::now();
        while self.play_budget >= 1.0 {
            if !self.forward_one(AfterBuild::Play) {
                self.playing = false;
                break;
            }
            self.play_budget -= 1.0;
            if start.elapsed() > FRAME_BUDGET {
                self.play_budget = self.play_budget.min(1.0);
                break;
            }
        }
        if self.playing {
            self.egui.request_repaint();
        }
    }

    /// Moves the solver to a worker that runs the remaining iterations and streams them back.
    pub(crate) fn run_to_end(&mut self) {
        if self.jobs.run.is_some() {
            return;
        }
        let Some(trace) = &mut self.trace else { return };
        trace.seek(trace.len());
        if trace.is_finished() {
            return;
        }
        self.playing = false;
        if !self.ensure_stepper(AfterBuild::RunToEnd) {
            return;
        }
        let (Some(mut stepper), Some(n)) = (self.stepper.take(), self.graph().map(|g| g.n().max(1))) else {
            return;
        };
        let start_len = self.trace.as_ref().map_or(0, Trace::len);
        let name = format!("running {} to the end", self.settings.algorithm);
        let job = Job::streaming(name, repaint(&self.egui), move |jc| {
            let mut batch = Vec::new();
            let mut last_send = Instant::now();
            let outcome = loop {
                if jc.cancelled() {
                    break Ok(false);
                }
                match stepper.step() {
                    Ok(Some(step)) => {
                        let settled = step.record.settled;
                        batch.push(step);
                        if batch.len() >= 8192 || last_send.elapsed() >= Duration::from_millis(20) {
                            jc.send(std::mem::take(&mut batch));
                            last_send = Instant::now();
                            jc.set_progress(settled as f32 / n as f32);
                        }
                        if stepper.is_done() {
                            break Ok(true);
                        }
                    }
                    Ok(None) => break Ok(true),
                    Err(e) => break Err(e.to_string()),
                }
            };
            if !batch.is_empty() {
                jc.send(batch);
            }
            RunOutput { stepper, outcome }
        });
        self.jobs.run = Some(RunJob { job, run_id: self.run_id, started: Instant::now(), start_len });
    }

    /// Installs a solver built on a worker and does what was asked meanwhile.
    pub(crate) fn poll_build(&mut self) {
        let Some(b) = &mut self.jobs.build else { return };
        let Some(built) = b.job.poll() else { return };
        let (run_id, then) = (b.run_id, b.then);
        self.jobs.build = None;
        if run_id != self.run_id {
            return;
        }
        match built.and_then(|r| r) {
            Ok(st) => {
                self.stepper = Some(st);
                match then {
                    AfterBuild::Step(n) => self.step_forward(n),
                    AfterBuild::Play => {
                        self.playing = !self.at_end();
                        self.egui.request_repaint();
                    }
                    AfterBuild::RunToEnd => self.run_to_end(),
                }
            }
            Err(e) => {
                self.playing = false;
                self.error(e);
            }
        }
    }

    /// Takes in streamed steps (within the frame budget) and the solver when the job is done.
    pub(crate) fn poll_run(&mut self) {
        let Some(run) = &mut self.jobs.run else { return };
        let Some(trace) = &mut self.trace else { return };
        let start = Instant::now();
        while start.elapsed() < FRAME_BUDGET {
            match run.job.try_event() {
                Some(batch) => batch.into_iter().for_each(|s| trace.push(s)),
                None => break,
            }
        }
        let Some(RunJob { job, run_id, started, start_len }) = self.jobs.run.take() else { return };
        let mut slot = Some(job);
        match take_finished(&mut slot) {
            None => {
                // Still running, or steps left for the next frame.
                if let Some(job) = slot {
                    self.jobs.run = Some(RunJob { job, run_id, started, start_len });
                }
                self.egui.request_repaint();
            }
            Some((_, Ok(RunOutput { stepper, outcome }))) => {
                self.thread_times = stepper.thread_times();
                self.stepper = Some(stepper);
                match outcome {
                    Ok(true) => {
                        if let Some(t) = &mut self.trace {
                            t.set_finished();
                        }
                    }
                    Ok(false) => {}
                    Err(e) => self.error(format!("run failed: {e}")),
                }
            }
            Some((_, Err(e))) => {
                self.stepper_lost = true;
                self.error(e);
            }
        }
    }

    /// Starts the oracle check once a run has finished; collects its result.
    pub(crate) fn poll_verify(&mut self) {
        if let Some((run_id, out)) = self.jobs.verify.as_mut().and_then(|(id, j)| Some((*id, j.poll()?))) {
            self.jobs.verify = None;
            if run_id == self.run_id {
                self.verification = match out.and_then(|r| r) {
                    Ok(wrong) if wrong.is_empty() => Verification::Match,
                    Ok(wrong) => Verification::Mismatch(wrong),
                    Err(e) => Verification::Unavailable(e),
                };
            }
            return;
        }
        let finished = self.trace.as_ref().is_some_and(Trace::is_finished);
        if self.verification != Verification::NotYet || !finished || self.jobs.run.is_some() {
            return;
        }
        let (Some(g), Some(stepper)) = (self.graph().cloned(), &mut self.stepper) else { return };
        let dist = match stepper.distances() {
            Ok(d) => d,
            Err(e) => return self.verification = Verification::Unavailable(format!("reading distances: {e}")),
        };
        self.verification = Verification::Running;
        let source = self.source;
        let job = Job::spawn("checking against the reference", repaint(&self.egui), move |_| {
            if dist.len() != g.n() {
                return Err(format!("the solver returned {} distances for {} vertices", dist.len(), g.n()));
            }
            let oracle = reference_distances(&g, source)?;
            let wrong = oracle.iter().zip(&dist).enumerate().filter(|(_, (a, b))| a != b);
            Ok(wrong.map(|(v, _)| v as VertexId).collect())
        });
        self.jobs.verify = Some((self.run_id, job));
    }
}
