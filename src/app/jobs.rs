//! The one mechanism for background work: a named job runs a closure on its own thread,
//! reports progress through an atomic, checks a cancel flag and wakes the UI with
//! `request_repaint`. The UI polls every job once per frame.
//!
//! A panic in the worker is caught and comes back as an error message, never as a crash.
//! Loading, generating, file dialogs, running to the end and verifying use it.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

/// What a worker gets: progress, cancel flag, a way to wake the UI.
pub struct JobCtx {
    progress: Arc<AtomicU32>,
    cancel: Arc<AtomicBool>,
    egui: egui::Context,
    last_repaint: Instant,
}

impl JobCtx {
    /// Sets the progress fraction (0..=1) and wakes the UI at most every 30 ms.
    pub fn set_progress(&mut self, fraction: f32) {
        self.progress.store(fraction.clamp(0.0, 1.0).to_bits(), Ordering::Relaxed);
        if self.last_repaint.elapsed() >= Duration::from_millis(30) {
            self.repaint();
        }
    }

    /// True once the UI asked the job to stop.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The cancel flag, for APIs that poll an `AtomicBool` themselves.
    pub fn cancel_flag(&self) -> &AtomicBool {
        &self.cancel
    }

    /// Asks for a frame now (e.g. after sending a batch of results over a channel).
    pub fn repaint(&mut self) {
        self.last_repaint = Instant::now();
        self.egui.request_repaint();
    }
}

/// A job running on its own thread, yielding a `T`.
pub struct Job<T> {
    name: String,
    progress: Arc<AtomicU32>,
    cancel: Arc<AtomicBool>,
    result: Receiver<Result<T, String>>,
    started: Instant,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` on a new thread named `name`.
    pub fn spawn(
        egui: &egui::Context,
        name: impl Into<String>,
        work: impl FnOnce(&mut JobCtx) -> T + Send + 'static,
    ) -> Job<T> {
        let name = name.into();
        let progress = Arc::new(AtomicU32::new(0f32.to_bits()));
        let cancel = Arc::new(AtomicBool::new(false));
        let (tx, rx) = mpsc::channel();
        let mut ctx = JobCtx {
            progress: progress.clone(),
            cancel: cancel.clone(),
            egui: egui.clone(),
            last_repaint: Instant::now(),
        };
        let thread_name = format!("job: {name}");
        let spawned = std::thread::Builder::new().name(thread_name).spawn(move || {
            let out = catch_unwind(AssertUnwindSafe(|| work(&mut ctx))).map_err(|p| panic_message(&*p));
            // The receiver may be gone (app closed); nothing to do then.
            let _ = tx.send(out);
            ctx.repaint();
        });
        if let Err(e) = spawned {
            let (tx, rx) = mpsc::channel();
            let _ = tx.send(Err(format!("could not start a thread for {name}: {e}")));
            return Job { name, progress, cancel, result: rx, started: Instant::now() };
        }
        Job { name, progress, cancel, result: rx, started: Instant::now() }
    }

    /// The job's name, e.g. "loading USA-road-d.NY.gr.gz".
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Progress fraction reported by the worker.
    pub fn progress(&self) -> f32 {
        f32::from_bits(self.progress.load(Ordering::Relaxed))
    }

    /// Time since the job started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// Asks the worker to stop (it decides when).
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// True once [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The result once the worker is done: `Err` with the panic message if it panicked.
    pub fn poll(&self) -> Option<Result<T, String>> {
        match self.result.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(format!("{}: the worker ended without a result", self.name))),
        }
    }
}

/// Polls `slot`'s job; takes it out and returns its result when done.
pub fn take_finished<T: Send + 'static>(slot: &mut Option<Job<T>>) -> Option<(String, Result<T, String>)> {
    let out = slot.as_ref()?.poll()?;
    let job = slot.take()?;
    Some((job.name, out))
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        format!("internal error (worker panicked): {s}")
    } else if let Some(s) = payload.downcast_ref::<String>() {
        format!("internal error (worker panicked): {s}")
    } else {
        "internal error: the worker panicked".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait<T: Send + 'static>(mut job: Option<Job<T>>) -> Result<T, String> {
        let t = Instant::now();
        loop {
            if let Some((_, r)) = take_finished(&mut job) {
                return r;
            }
            assert!(t.elapsed() < Duration::from_secs(10), "job did not finish");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn a_finished_job_returns_its_value_and_progress() {
        let ctx = egui::Context::default();
        let job = Job::spawn(&ctx, "add", |c| {
            c.set_progress(1.0);
            2 + 2
        });
        let job = Some(job);
        let p = job.as_ref().map(|j| j.name().to_string());
        assert_eq!(p.as_deref(), Some("add"));
        assert_eq!(wait(job), Ok(4));
    }

    #[test]
    fn a_panicking_worker_becomes_an_error_message() {
        let ctx = egui::Context::default();
        let job: Job<u32> = Job::spawn(&ctx, "boom", |_| panic!("bad input"));
        let err = wait(Some(job)).unwrap_err();
        assert!(err.contains("bad input"), "{err}");
    }

    #[test]
    fn cancel_is_seen_by_the_worker() {
        let ctx = egui::Context::default();
        let job = Job::spawn(&ctx, "spin", |c| {
            while !c.cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
            "stopped"
        });
        job.cancel();
        assert!(job.is_cancelled());
        assert_eq!(wait(Some(job)), Ok("stopped"));
    }
}
