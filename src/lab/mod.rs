//! The benchmark lab (issue 5): experiment files, a background runner that streams one row per
//! run, Boost's Dijkstra as a pseudo-device, and the headless `sssp-lab bench EXPERIMENT`.
//!
//! Data path: `experiments/*.json` → [`Experiment`] → [`plan`] (graphs × cells) →
//! [`LabRun`] (background thread, [`LabEvent`]s over `std::sync::mpsc`) → [`LabResult`] rows →
//! `results.csv`, `results.json`, `report.md` ([`report`]) or the app's Bench view.

pub mod boost;
pub mod experiment;
pub mod memory;
pub mod plan;
pub mod report;
pub mod result;
pub mod runner;
mod serde_str;
mod worker;

pub use experiment::{Baseline, BlockSpec, Experiment, ExperimentKind, GraphEntry, LabDevice, SourceSpec};
pub use result::{DeviceLine, LabResult, LabResults};
pub use runner::{LabEvent, LabOutcome, LabProgress, LabRun};

use anyhow::{Context, Result, bail};
use std::io::{IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where `sssp-lab bench EXPERIMENT` writes by default: `bench/results/<experiment stem>/`.
pub fn default_out_dir(experiment: &Path) -> PathBuf {
    let stem = experiment.file_stem().map_or_else(|| "experiment".into(), |s| s.to_string_lossy().into_owned());
    PathBuf::from("bench/results").join(stem)
}

/// The devices an experiment names, with their listed names and status.
pub fn device_lines(exp: &Experiment) -> Vec<DeviceLine> {
    exp.devices
        .iter()
        .map(|&d| {
            let (name, status) = plan::device_status(d);
            DeviceLine { id: d.to_string(), name, status: status.map_or_else(|e| e, |_| "ok".into()) }
        })
        .collect()
}

/// Runs `exp` to the end on this thread, calling `on_event` with every event and the results
/// so far, and returns the collected results (the outcome says whether it completed).
pub fn run_blocking(exp: &Experiment, exp_dir: &Path, on_event: &mut dyn FnMut(&LabEvent, &LabResults)) -> LabResults {
    let started = Instant::now();
    let run = LabRun::start(exp.clone(), exp_dir.to_path_buf(), Box::new(|| {}));
    let mut res = LabResults {
        experiment: Some(exp.clone()),
        date: crate::bench::today_utc(),
        devices: device_lines(exp),
        outcome: "failed: the runner stopped without a result".into(),
        ..Default::default()
    };
    while let Ok(ev) = run.events().recv() {
        res.wall_s = started.elapsed().as_secs_f64();
        on_event(&ev, &res);
        match ev {
            LabEvent::Row(r) => res.rows.push(*r),
            LabEvent::Finished(o) => {
                res.outcome = outcome_text(&o);
                break;
            }
            _ => {}
        }
    }
    res.wall_s = started.elapsed().as_secs_f64();
    res
}

/// `completed`, `cancelled`, `failed: …`.
pub fn outcome_text(o: &LabOutcome) -> String {
    match o {
        LabOutcome::Completed => "completed".into(),
        LabOutcome::Cancelled => "cancelled".into(),
        LabOutcome::Failed(e) => format!("failed: {e}"),
    }
}

/// Writes `results.csv`, `results.json` and `report.md` into `out_dir` (created if needed).
///
/// Errors: the folder or a file cannot be written.
pub fn write_outputs(res: &LabResults, out_dir: &Path) -> Result<()> {
    std::fs::create_dir_all(out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    result::write_csv(&res.rows, &out_dir.join("results.csv"))?;
    result::write_json(res, &out_dir.join("results.json"))?;
    let md = out_dir.join("report.md");
    std::fs::write(&md, report::markdown(res)).with_context(|| format!("writing {}", md.display()))
}

/// `sssp-lab bench EXPERIMENT [--out DIR]`: runs the experiment file headless with a progress
/// line on stderr (`\r[done/total] pct ETA current`), then writes `results.csv`, `results.json`
/// and `report.md` into `out_dir`.
///
/// Errors: the experiment cannot be read or planned, the outputs cannot be written, or the run
/// failed as a whole (per-run failures are rows in the results, not errors).
pub fn run_experiment_cli(path: &Path, out_dir: &Path) -> Result<()> {
    let exp = Experiment::load(path)?;
    let exp_dir = path.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let mut err = std::io::stderr();
    let _ = writeln!(err, "{}: {} graphs entries, devices {}", exp.name, exp.graphs.len(), {
        let v: Vec<String> = device_lines(&exp).iter().map(|d| format!("{} ({})", d.id, d.status)).collect();
        v.join(", ")
    });
    // Progress: a `\r` line on a terminal (10 updates a second), a plain line every 10 s in a log.
    let tty = err.is_terminal();
    let every = std::time::Duration::from_millis(if tty { 100 } else { 10_000 });
    let (mut width, mut shown, mut saved) = (0usize, Instant::now() - every, Instant::now());
    let res = run_blocking(&exp, &exp_dir, &mut |ev, partial| match ev {
        LabEvent::Progress(p) if shown.elapsed() >= every || p.done == p.total => {
            shown = Instant::now();
            let line: String = p.line().chars().take(110).collect();
            if tty {
                let pad = width.saturating_sub(line.chars().count());
                width = line.chars().count();
                let _ = write!(err, "\r{line}{}", " ".repeat(pad));
            } else {
                let _ = writeln!(err, "{line}");
            }
            let _ = err.flush();
        }
        LabEvent::Log(l) => {
            let _ = writeln!(err, "\r{l}{}", " ".repeat(width.saturating_sub(l.chars().count())));
        }
        LabEvent::Row(r) => {
            if r.correct == Some(false) {
                let _ = writeln!(
                    err,
                    "\rWRONG: {} {} source {:?}: {:?} mismatches",
                    r.graph,
                    r.series(),
                    r.source,
                    r.mismatches
                );
            }
            // Checkpoint every 30 s, so a run killed half-way leaves its rows behind.
            if saved.elapsed().as_secs() >= 30 {
                saved = Instant::now();
                let _ = write_outputs(&LabResults { outcome: "running".into(), ..partial.clone() }, out_dir);
            }
        }
        _ => {}
    });
    let _ = writeln!(err);
    write_outputs(&res, out_dir)?;
    let _ = writeln!(
        err,
        "{} rows, {}; wrote {}/{{results.csv, results.json, report.md}}",
        res.rows.len(),
        res.outcome,
        out_dir.display()
    );
    if res.outcome.starts_with("failed") {
        bail!("{}", res.outcome);
    }
    Ok(())
}
