//! The lab runner: the cartesian product of an experiment as a background [`Job`], streaming a
//! [`super::LabResult`] per run as it finishes, with progress and a cancel flag.
//!
//! Order: graph (built once, shared as `Arc<Graph>`, dropped before the next) → cell (device ×
//! algorithm × block sizes × cache) → source → repetition. GPU cells get one untimed warm-up run.
//! Every run is checked against sequential Dijkstra (computed once per graph and source).
//! Many-source experiments run their configurations per graph instead (`lab::many`).

use super::experiment::{Experiment, ExperimentKind, LabDevice};
use super::result::{DeviceLine, LabEvent, LabOutcome, LabResults, outcome_text, today_utc};
use super::worker::Worker;
use super::{many, plan};
use crate::jobs::{Job, Repaint, no_repaint};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A running experiment: a [`Job`] that streams [`LabEvent`]s and ends with the
/// [`LabOutcome`] (`Err` only if the runner itself panicked). Dropping it cancels the run.
pub type LabRun = Job<LabOutcome, LabEvent>;

/// Starts `exp` as a background job. Relative graph paths are resolved against `exp_dir`
/// (see [`super::graphs::resolve_path`]); `repaint` is called after every event. The job first
/// keeps freed memory mapped ([`super::memory::keep_freed_memory`]) so CPU cells do not time page
/// faults.
pub fn start_run(exp: Experiment, exp_dir: PathBuf, repaint: Repaint) -> LabRun {
    let name = format!("experiment {}", exp.name);
    Job::streaming(name, repaint, move |jc| {
        super::memory::keep_freed_memory();
        let mut w = Worker::new(&exp, &exp_dir, jc);
        let ran = if exp.kind == ExperimentKind::ManySource { many::run_all(&mut w) } else { w.run_all() };
        match ran {
            Ok(true) => LabOutcome::Completed,
            Ok(false) => LabOutcome::Cancelled,
            Err(e) => LabOutcome::Failed(format!("{e:#}")),
        }
    })
}

/// The devices an experiment names, with their listed names and status (for a many-source
/// experiment: the devices its configurations' workers name, `cpu` for CPU threads).
pub fn device_lines(exp: &Experiment) -> Vec<DeviceLine> {
    let mut devices = exp.devices.clone();
    if let (ExperimentKind::ManySource, Some(spec), Some(algo)) = (exp.kind, &exp.many_source, exp.algorithms.first()) {
        for (workers, _) in spec.configs.iter().filter_map(|c| c.parse(algo).ok()) {
            for d in workers.iter().map(|w| LabDevice::Solver(w.device)) {
                if !devices.contains(&d) {
                    devices.push(d);
                }
            }
        }
    }
    devices
        .iter()
        .map(|&d| {
            let (name, status) = plan::device_status(d);
            DeviceLine { id: d.to_string(), name, status: status.map_or_else(|e| e, |_| "ok".into()) }
        })
        .collect()
}

/// Runs `exp` as a [`LabRun`] job and waits for it, calling `on_event` on this thread with every
/// event and the results so far; returns the collected results (the outcome says whether it
/// completed).
pub fn run_blocking(exp: &Experiment, exp_dir: &Path, on_event: &mut dyn FnMut(&LabEvent, &LabResults)) -> LabResults {
    let started = Instant::now();
    let mut run = start_run(exp.clone(), exp_dir.to_path_buf(), no_repaint());
    let mut res = LabResults {
        experiment: Some(exp.clone()),
        date: today_utc(),
        devices: device_lines(exp),
        outcome: "failed: the runner stopped without a result".into(),
        ..Default::default()
    };
    while let Some(ev) = run.recv() {
        res.wall_s = started.elapsed().as_secs_f64();
        on_event(&ev, &res);
        match ev {
            LabEvent::Row(r) => res.rows.push(*r),
            LabEvent::Many(r) => res.many.push(*r),
            LabEvent::Log(_) | LabEvent::Progress(_) => {}
        }
    }
    res.outcome = outcome_text(&run.wait().unwrap_or_else(LabOutcome::Failed));
    res.wall_s = started.elapsed().as_secs_f64();
    res
}
