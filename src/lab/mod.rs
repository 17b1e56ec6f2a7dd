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

/// Writes `results.csv`, `results.json`, `report.md` and its PNG plots (`plots/`, see
/// [`report::plots`]) into `out_dir` (created if needed).
///
/// Errors: the folder or a file cannot be written, or a plot cannot be drawn (`report.md` is
/// still written then, saying so).
pub fn write_outputs(res: &LabResults, out_dir: &Path) -> Result<()> {
    std::fs::create_dir_all(out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    result::write_csv(&res.rows, &out_dir.join("results.csv"))?;
    result::write_json(res, &out_dir.join("results.json"))?;
    write_report(res, out_dir)
}

/// `report.md` with a `## Plots` section linking the PNGs drawn under `out_dir/plots/`.
fn write_report(res: &LabResults, out_dir: &Path) -> Result<()> {
    let mut md = report::markdown(res);
    // The results are worth more than the plots: a plot that fails still leaves the report.
    let plots = report::plots::write_plots(res, out_dir);
    match &plots {
        Ok(files) if files.is_empty() => {}
        Ok(files) => {
            md.push_str("\n## Plots\n\n");
            files.iter().for_each(|p| md.push_str(&format!("![{}]({})\n\n", p.title, p.file)));
        }
        Err(e) => md.push_str(&format!("\n## Plots\n\n(plots could not be drawn: {e:#})\n")),
    }
    let path = out_dir.join("report.md");
    std::fs::write(&path, md).with_context(|| format!("writing {}", path.display()))?;
    plots.map(|_| ())
}

/// `sssp-lab report RESULTS.json… [--out DIR]`: writes `report.md` and its plots for
/// `results.json` files (e.g. ones brought back from a GPU machine) without running anything.
///
/// Several files are one run done in parts (a time-boxed session, then the graphs it did not
/// reach): see [`merge_results`]. When `out_dir` is another folder (or there are several files)
/// it also gets the merged `results.csv` and `results.json`; a single JSON in its own folder is
/// left alone (the file is the record of the run).
///
/// Errors: a JSON cannot be read or parsed, or the outputs cannot be written.
pub fn regenerate_report(results_json: &[PathBuf], out_dir: &Path) -> Result<()> {
    let parts = results_json.iter().map(|p| result::read_json(p)).collect::<Result<Vec<_>>>()?;
    let res = merge_results(parts).context("no results.json given")?;
    let results_json = match results_json {
        [one] => one.as_path(),
        _ => Path::new(""),
    };
    std::fs::create_dir_all(out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let target = out_dir.join("results.json");
    let same = |a: &Path, b: &Path| a.canonicalize().ok().zip(b.canonicalize().ok()).is_some_and(|(a, b)| a == b);
    if !same(results_json, &target) {
        result::write_csv(&res.rows, &out_dir.join("results.csv"))?;
        result::write_json(&res, &target)?;
    }
    write_report(&res, out_dir)
}

/// One run done in parts: the first part's experiment and devices; each later part's rows
/// replace the earlier rows of the same graph, series and configuration (a re-run cell wins),
/// and its outcome is listed. `None` for no parts.
pub fn merge_results(parts: Vec<LabResults>) -> Option<LabResults> {
    let mut it = parts.into_iter();
    let mut all = it.next()?;
    for part in it {
        let key = |r: &LabResult| (r.graph.clone(), r.series(), r.config());
        let redone: std::collections::HashSet<_> = part.rows.iter().map(key).collect();
        all.rows.retain(|r| !redone.contains(&key(r)));
        all.rows.extend(part.rows);
        all.wall_s += part.wall_s;
        let name = part.experiment.map_or_else(String::new, |e| format!(" ({})", e.name));
        all.outcome = format!("{}; then{name} {}", all.outcome, part.outcome);
    }
    Some(all)
}

/// Command-line changes to an experiment file for one run (`sssp-lab bench --sources 3 …`), so a
/// quick or time-boxed run needs no edited copy of the file.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Overrides {
    /// Random sources per graph (keeps the file's seed).
    #[arg(long)]
    pub sources: Option<usize>,
    /// Timed runs per source.
    #[arg(long)]
    pub repetitions: Option<u32>,
    /// Seconds one cell may take before its remaining sources are left out (the first source
    /// always runs).
    #[arg(long)]
    pub cell_budget: Option<f64>,
}

impl Overrides {
    /// Applies the overrides and validates the result. Errors: what [`Experiment::validate`]
    /// refuses (zero sources, a non-positive budget).
    pub fn apply(&self, exp: &mut Experiment) -> Result<()> {
        if let Some(k) = self.sources {
            exp.sources = match exp.sources {
                SourceSpec::Random { seed, .. } => SourceSpec::Random { count: k, seed },
                SourceSpec::Ids(ref ids) => SourceSpec::Ids(ids.iter().copied().take(k).collect()),
            };
        }
        if let Some(r) = self.repetitions {
            exp.repetitions = r;
        }
        if let Some(b) = self.cell_budget {
            exp.cell_budget_s = Some(b);
        }
        exp.validate().context("the experiment after the command-line overrides")
    }
}

/// `sssp-lab bench EXPERIMENT [--out DIR]`: runs the experiment file headless with a progress
/// line on stderr (`\r[done/total] pct ETA current`), then writes `results.csv`, `results.json`
/// and `report.md` into `out_dir`.
///
/// Errors: the experiment cannot be read or planned, the outputs cannot be written, or the run
/// failed as a whole (per-run failures are rows in the results, not errors).
pub fn run_experiment_cli(path: &Path, out_dir: &Path, overrides: &Overrides) -> Result<()> {
    let mut exp = Experiment::load(path)?;
    overrides.apply(&mut exp)?;
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
                let _ = write_outputs(
                    &LabResults { outcome: "incomplete (checkpoint taken while running)".into(), ..partial.clone() },
                    out_dir,
                );
            }
        }
        _ => {}
    });
    let _ = writeln!(err);
    write_outputs(&res, out_dir)?;
    let _ = writeln!(
        err,
        "{} rows, {}; wrote {}/{{results.csv, results.json, report.md, plots/}}",
        res.rows.len(),
        res.outcome,
        out_dir.display()
    );
    if res.outcome.starts_with("failed") {
        bail!("{}", res.outcome);
    }
    Ok(())
}
