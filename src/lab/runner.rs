//! The lab runner: the cartesian product of an experiment in a background thread, streaming a
//! [`LabResult`] per run over a channel as it finishes, with progress and a cancel flag.
//!
//! Order: graph (built once, shared as `Arc<Graph>`, dropped before the next) → cell (device ×
//! algorithm × block sizes × cache) → source → repetition. GPU cells get one untimed warm-up run.
//! Every run is checked against sequential Dijkstra (computed once per graph and source).

use super::experiment::Experiment;
use super::result::LabResult;
use super::worker::Worker;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;

/// Progress of a run: runs (and skipped cells) done out of the total.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabProgress {
    /// Runs finished (a skipped cell counts as one).
    pub done: usize,
    /// Runs planned (shrinks when a graph has fewer usable sources).
    pub total: usize,
    /// Seconds since the start.
    pub elapsed_s: f64,
    /// Estimated seconds left (elapsed / done × remaining), once something is done.
    pub eta_s: Option<f64>,
    /// What runs now.
    pub current: String,
}

impl LabProgress {
    /// done / total in 0..=1.
    pub fn fraction(&self) -> f32 {
        if self.total == 0 { 0.0 } else { self.done as f32 / self.total as f32 }
    }

    /// `[12/60] 20%  ETA 1m05s  <current>`, for a progress line.
    pub fn line(&self) -> String {
        let eta = self.eta_s.map_or("ETA –".to_string(), |s| format!("ETA {}", fmt_secs(s)));
        format!("[{}/{}] {:3.0}%  {eta}  {}", self.done, self.total, self.fraction() * 100.0, self.current)
    }
}

/// `75.3` → `1m15s`.
pub fn fmt_secs(s: f64) -> String {
    let s = s.max(0.0).round() as u64;
    if s >= 3600 { format!("{}h{:02}m", s / 3600, s % 3600 / 60) } else { format!("{}m{:02}s", s / 60, s % 60) }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum LabOutcome {
    Completed,
    Cancelled,
    /// The experiment could not be planned (the reason); per-run failures are rows instead.
    Failed(String),
}

/// What the runner sends.
#[derive(Clone, Debug)]
pub enum LabEvent {
    /// A line for the log (graph built, warm-up failed, …).
    Log(String),
    /// A finished run or a skipped cell.
    Row(Box<LabResult>),
    Progress(LabProgress),
    /// The last event.
    Finished(LabOutcome),
}

/// A running experiment. Dropping it cancels the run.
pub struct LabRun {
    events: Receiver<LabEvent>,
    cancel: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl LabRun {
    /// Starts `exp` in a background thread. Relative graph paths are resolved against `exp_dir`
    /// (see [`super::plan::resolve_path`]); `wake` is called after every event (e.g. to request
    /// a repaint).
    pub fn start(exp: Experiment, exp_dir: PathBuf, wake: Box<dyn Fn() + Send>) -> LabRun {
        let (tx, events) = channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        let thread = std::thread::Builder::new().name("sssp-lab runner".into()).spawn(move || {
            let mut w = Worker::new(&exp, &exp_dir, &flag, tx, wake);
            let outcome = match w.run_all() {
                Ok(true) => LabOutcome::Completed,
                Ok(false) => LabOutcome::Cancelled,
                Err(e) => LabOutcome::Failed(format!("{e:#}")),
            };
            w.send(LabEvent::Finished(outcome));
        });
        match thread {
            Ok(t) => LabRun { events, cancel, thread: Some(t) },
            Err(e) => {
                let (tx, events) = channel();
                let _ = tx.send(LabEvent::Finished(LabOutcome::Failed(format!("cannot start the runner thread: {e}"))));
                LabRun { events, cancel, thread: None }
            }
        }
    }

    /// Asks the runner to stop after the current run (a long solve is interrupted too).
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The event channel (use `try_iter` once per frame, or `recv` headless).
    pub fn events(&self) -> &Receiver<LabEvent> {
        &self.events
    }

    /// True once the runner thread has ended.
    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(|t| t.is_finished())
    }
}

impl Drop for LabRun {
    fn drop(&mut self) {
        self.cancel();
    }
}
