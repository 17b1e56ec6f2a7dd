//! Writing a run's outputs: `results.csv`, `results.json`, `report.md` and its plots, and
//! redrawing a report from `results.json` files (several are one run done in parts).

use super::report;
use super::result::{self, LabResult, LabResults, ManyRow};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// Writes `results.csv`, `results.json`, `report.md` and its PNG plots (`plots/`, see
/// [`report::plots`]; the timelines of many-source runs among them) into `out_dir` (created if
/// needed). Many-source rows are in `results.json` only (`many`), not in the CSV.
///
/// Errors: the folder or a file cannot be written, or a plot cannot be drawn (`report.md` is
/// still written then, saying so).
pub fn write_outputs(res: &LabResults, out_dir: &Path) -> Result<()> {
    std::fs::create_dir_all(out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    result::write_csv(&res.rows, &out_dir.join("results.csv"))?;
    result::write_json(res, &out_dir.join("results.json"))?;
    write_report(res, out_dir)
}

/// The cells of a run that failed, one line each (`graph · algorithm @ device (config): why`,
/// with the number of runs): an error (a graph that could not be loaded or generated, a source
/// out of range, negative weights for an algorithm that needs non-negative ones, a device error)
/// or wrong distances from an exact algorithm (the non-atomic relax, `racy`, is wrong by design
/// and not counted), and many-source configurations that failed. Skipped cells are not failures.
/// Empty when every cell ran.
pub fn failed_cells(res: &LabResults) -> Vec<String> {
    let mut cells: Vec<(String, String, usize)> = Vec::new();
    for r in &res.rows {
        let exact = r.algorithm.parse::<crate::algo::AlgoChoice>().map_or(true, |a| a.exact());
        let why = match (&r.error, r.correct) {
            (Some(e), _) => e.clone(),
            (None, Some(false)) if exact => format!("{} wrong distances", r.mismatches.unwrap_or(0)),
            _ => continue,
        };
        let key = format!("{} · {} ({})", r.graph, r.series(), r.config());
        match cells.iter_mut().find(|(k, w, _)| *k == key && *w == why) {
            Some(c) => c.2 += 1,
            None => cells.push((key, why, 1)),
        }
    }
    let mut lines: Vec<String> = cells
        .into_iter()
        .map(|(k, why, runs)| format!("{k}: {why} ({runs} run{})", if runs == 1 { "" } else { "s" }))
        .collect();
    lines.extend(
        res.many
            .iter()
            .filter_map(|m| m.error.as_ref().map(|e| format!("{} · {} {}: {e}", m.graph, m.label, m.policy))),
    );
    lines
}

/// `report.md` with a `## Failed cells` section when some failed ([`failed_cells`]) and a
/// `## Plots` section linking the PNGs drawn under `out_dir/plots/`.
fn write_report(res: &LabResults, out_dir: &Path) -> Result<()> {
    let mut md = report::markdown(res);
    let failed = failed_cells(res);
    if !failed.is_empty() {
        md.push_str(&format!("\n## Failed cells ({})\n\n", failed.len()));
        failed.iter().for_each(|l| md.push_str(&format!("- {l}\n")));
    }
    // The results are worth more than the plots: a plot that fails still leaves the report.
    let plots = report::plots::write_plots(res, out_dir);
    match &plots {
        Ok(files) => {
            // The timelines are linked under their graph's table already.
            let rest: Vec<_> = files.iter().filter(|p| !md.contains(&format!("]({})", p.file))).collect();
            if !rest.is_empty() {
                md.push_str("\n## Plots\n\n");
                rest.iter().for_each(|p| md.push_str(&format!("![{}]({})\n\n", p.title, p.file)));
            }
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
/// many-source rows those of the same graph, workers and policy, and its outcome is listed.
/// `None` for no parts.
pub fn merge_results(parts: Vec<LabResults>) -> Option<LabResults> {
    let mut it = parts.into_iter();
    let mut all = it.next()?;
    for part in it {
        let key = |r: &LabResult| (r.graph.clone(), r.series(), r.config());
        let redone: std::collections::HashSet<_> = part.rows.iter().map(key).collect();
        all.rows.retain(|r| !redone.contains(&key(r)));
        all.rows.extend(part.rows);
        let many_key = |r: &ManyRow| (r.graph.clone(), r.workers.clone(), r.policy.clone());
        let redone: std::collections::HashSet<_> = part.many.iter().map(many_key).collect();
        all.many.retain(|r| !redone.contains(&many_key(r)));
        all.many.extend(part.many);
        all.wall_s += part.wall_s;
        let name = part.experiment.map_or_else(String::new, |e| format!(" ({})", e.name));
        all.outcome = format!("{}; then{name} {}", all.outcome, part.outcome);
    }
    Some(all)
}
