//! `sssp-lab bench EXPERIMENT` and `sssp-lab report RESULTS.json…`: the benchmark lab
//! ([`crate::lab`]) headless. The run is the same [`crate::lab::LabRun`] job the app's Bench view
//! polls; here [`crate::lab::run_blocking`] waits on it and draws a progress line.

use crate::lab::{Experiment, LabEvent, LabResults, SourceSpec, device_lines, run_blocking, write_outputs};
use crate::manysource::SourceSet;
use anyhow::{Context, Result, bail};
use std::io::{IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where `sssp-lab bench EXPERIMENT` writes by default: `bench/results/<experiment stem>/`.
pub fn default_out_dir(experiment: &Path) -> PathBuf {
    let stem = experiment.file_stem().map_or_else(|| "experiment".into(), |s| s.to_string_lossy().into_owned());
    PathBuf::from("bench/results").join(stem)
}

/// Command-line changes to an experiment file for one run (`sssp-lab bench --sources 3 …`), so a
/// quick or time-boxed run needs no edited copy of the file.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct Overrides {
    /// Random sources per graph (keeps the file's seed; many-source experiments: every
    /// `K:SEED` source set becomes `SOURCES:SEED`).
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
            if let Some(spec) = exp.many_source.as_mut() {
                let resize = |s: &mut String| {
                    if let Ok(SourceSet::Random { seed, .. }) = s.parse() {
                        *s = format!("{k}:{seed}");
                    }
                };
                resize(&mut spec.sources);
                spec.sources_by_group.values_mut().for_each(resize);
            }
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
/// Errors: the experiment cannot be read or planned, the outputs cannot be written, the run
/// failed as a whole, or some cells failed ([`crate::lab::failed_cells`]: listed on stderr and in
/// `report.md`; the results are written first).
pub fn run_experiment(path: &Path, out_dir: &Path, overrides: &Overrides) -> Result<()> {
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
    let mut show = |ev: &LabEvent| match ev {
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
        LabEvent::Many(r) => {
            let what = match (&r.error, r.speedup_vs_first) {
                (Some(e), _) => format!("FAILED: {e}"),
                (None, x) => format!(
                    "makespan {:.1} ms, {} vs first, checksum {}",
                    r.makespan_ms,
                    x.map_or("–".into(), |x| format!("{x:.2}×")),
                    if r.checksum_ok { "ok" } else { "DIFFERS" }
                ),
            };
            let line = format!("{} · {} {} ({}): {what}", r.graph, r.label, r.policy, r.workers);
            let _ = writeln!(err, "\r{line}{}", " ".repeat(width.saturating_sub(line.chars().count())));
        }
        LabEvent::Row(r) if r.correct == Some(false) => {
            let _ = writeln!(
                err,
                "\rWRONG: {} {} source {:?}: {:?} mismatches",
                r.graph,
                r.series(),
                r.source,
                r.mismatches
            );
        }
        _ => {}
    };
    let res = run_blocking(&exp, &exp_dir, &mut |ev, partial| {
        show(ev);
        // Checkpoint every 30 s, so a run killed half-way leaves its rows behind.
        if matches!(ev, LabEvent::Row(_) | LabEvent::Many(_)) && saved.elapsed().as_secs() >= 30 {
            saved = Instant::now();
            let _ = write_outputs(
                &LabResults { outcome: "incomplete (checkpoint taken while running)".into(), ..partial.clone() },
                out_dir,
            );
        }
    });
    let _ = writeln!(err);
    write_outputs(&res, out_dir)?;
    let rows = if res.many.is_empty() {
        format!("{} rows", res.rows.len())
    } else {
        format!("{} many-source configurations", res.many.len())
    };
    let _ = writeln!(
        err,
        "{rows}, {}; wrote {}/{{results.csv, results.json, report.md, plots/}}",
        res.outcome,
        out_dir.display()
    );
    if res.outcome.starts_with("failed") {
        bail!("{}", res.outcome);
    }
    // A run whose cells failed is not a success, even if the runner completed it.
    let failed = crate::lab::failed_cells(&res);
    if !failed.is_empty() {
        let _ = writeln!(err, "failed cells ({}, also in report.md):", failed.len());
        failed.iter().for_each(|l| {
            let _ = writeln!(err, "  {l}");
        });
        bail!("{} of the experiment's cells failed", failed.len());
    }
    Ok(())
}
