//! `report.md`: summary tables of a lab run in the papers' layouts.
//!
//! - Sweeps: speedups of every algorithm @ device over the experiment's baseline, median over
//!   sources of baseline ms / ms (each series at its best block/cache configuration), as seed 000
//!   Table 2 (one row per graph) and as a size × degree matrix per series; the best speedup per
//!   group (Table 3's layout) when there are several groups.
//! - Kernel characterization: seed 000 Table 1's layout (best block size per kernel and L1 state
//!   per graph, `192-A` = 192 threads, L1 augmented i.e. `prefer-l1`; `N` = default, `S` =
//!   `prefer-shared`) and the gain of the best configuration over the default one (256 threads,
//!   default cache), as Table 4.
//! - When the experiment quotes its paper ([`paper::PaperFigure`]): ours next to the paper's.
//! - Always: a table of every (graph, series, configuration) with min / median / max ms,
//!   iterations, GTEPS, dummy-thread ratio, lane use, barrier and lock shares, memory and
//!   correctness, then skipped cells.
//! - When algorithms ran with several thread counts: speedup vs threads ([`threads`]).
//! - Many-source experiments (seed 003), instead of the tables above: per graph, every
//!   configuration's makespan, speedup over the first, GPU tasks, idle time and checksum
//!   agreement, and its Gantt timeline ([`timeline`]).

mod kernels;
mod many;
pub mod paper;
pub mod plots;
pub mod threads;
pub mod timeline;

pub use timeline::write_timeline_png;

use super::experiment::ExperimentKind;
use super::result::{LabResult, LabResults, median, min_median_max};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Distinct values in order of first appearance.
pub fn distinct<S: AsRef<str>>(it: impl IntoIterator<Item = S>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in it {
        if !out.iter().any(|o| o == s.as_ref()) {
            out.push(s.as_ref().to_string());
        }
    }
    out
}

pub(crate) fn measured<'a>(rows: &'a [LabResult], graph: &str, series: &str) -> Vec<&'a LabResult> {
    rows.iter().filter(|r| r.is_measured() && r.graph == graph && r.series() == series).collect()
}

/// Mean ms per source over the repetitions.
fn per_source(rows: &[&LabResult]) -> BTreeMap<u32, f64> {
    let mut acc: BTreeMap<u32, (f64, u32)> = BTreeMap::new();
    for r in rows {
        let e = acc.entry(r.source.unwrap_or(0)).or_default();
        e.0 += r.total_ms.unwrap_or(0.0);
        e.1 += 1;
    }
    acc.into_iter().map(|(s, (t, k))| (s, t / k as f64)).collect()
}

/// The rows of the configuration with the lowest median time.
pub fn best_config<'a>(rows: &[&'a LabResult]) -> Vec<&'a LabResult> {
    let configs = distinct(rows.iter().map(|r| r.config()));
    let of = |c: &str| rows.iter().copied().filter(|r| r.config() == c).collect::<Vec<_>>();
    let med =
        |v: &[&LabResult]| median(&v.iter().filter_map(|r| r.total_ms).collect::<Vec<_>>()).unwrap_or(f64::INFINITY);
    configs.iter().map(|c| of(c)).min_by(|a, b| med(a).total_cmp(&med(b))).unwrap_or_default()
}

/// The series every speedup is measured against, `algorithm @ device`. Boost runs its own
/// Dijkstra whatever the experiment's baseline algorithm, and its rows say `dijkstra`.
pub(crate) fn baseline_series(res: &LabResults) -> Option<String> {
    let base = res.experiment.as_ref()?.baseline.clone()?;
    let boost = base.device.to_string() == "boost";
    Some(format!("{} @ {}", if boost { "dijkstra".into() } else { base.algorithm.to_string() }, base.device))
}

/// Median over common sources of `base(s) / other(s)`.
pub fn speedup(base: &[&LabResult], other: &[&LabResult]) -> Option<f64> {
    let (b, o) = (per_source(base), per_source(other));
    let ratios: Vec<f64> = b.iter().filter_map(|(s, tb)| o.get(s).filter(|t| **t > 0.0).map(|t| tb / t)).collect();
    median(&ratios)
}

fn fmt_x(x: Option<f64>) -> String {
    x.map_or("–".into(), |x| format!("{x:.2}×"))
}

fn mib(b: Option<u64>) -> String {
    b.map_or("–".into(), |b| format!("{:.1}", b as f64 / 1048576.0))
}

/// The whole report.
pub fn markdown(res: &LabResults) -> String {
    let mut s = String::new();
    let rows = &res.rows;
    let (name, kind, description) = match &res.experiment {
        Some(e) => (e.name.as_str(), e.kind, e.description.as_str()),
        None => ("experiment", ExperimentKind::Sweep, ""),
    };
    let _ = writeln!(s, "# {name} ({})\n", res.date);
    if !description.is_empty() {
        let _ = writeln!(s, "{description}\n");
    }
    let ok = rows.iter().filter(|r| r.is_measured()).count();
    let wrong = rows.iter().filter(|r| r.correct == Some(false)).count();
    let is_many = kind == ExperimentKind::ManySource;
    let _ = writeln!(s, "- outcome: {}, wall time {:.1} s", res.outcome, res.wall_s);
    if is_many {
        many::header(&mut s, res);
    } else {
        let _ = writeln!(
            s,
            "- runs: {ok} timed, {} skipped, {} failed; correctness vs sequential Dijkstra: {}",
            rows.iter().filter(|r| r.skipped.is_some()).count(),
            rows.iter().filter(|r| r.error.is_some()).count(),
            if wrong == 0 { "every checked run correct".to_string() } else { format!("**{wrong} runs WRONG**") }
        );
    }
    for d in &res.devices {
        let _ = writeln!(s, "- device `{}`: {} ({})", d.id, d.name, d.status);
    }
    if is_many {
        many::times_line(&mut s);
    } else {
        let _ = writeln!(
            s,
            "- times: wall time of the solve (graph upload and set-up excluded; GPUs after one warm-up run)\n"
        );
    }
    let graphs = distinct(rows.iter().map(|r| r.graph.as_str()));
    let series = distinct(rows.iter().filter(|r| r.is_measured()).map(|r| r.series()));
    paper::section(&mut s, res, baseline_series(res).as_deref());
    match kind {
        ExperimentKind::Sweep => sweep_tables(&mut s, res, &graphs, &series),
        ExperimentKind::KernelCharacterization => kernels::kernel_tables(&mut s, rows, &graphs, &series),
        // Its configurations are the whole report: there are no per-source rows.
        ExperimentKind::ManySource => {
            many::section(&mut s, res);
            return s;
        }
    }
    threads::section(&mut s, rows, &graphs, baseline_series(res).as_deref());
    every_cell(&mut s, rows, &graphs, &series);
    s
}

fn sweep_tables(s: &mut String, res: &LabResults, graphs: &[String], series: &[String]) {
    let rows = &res.rows;
    let (Some(base), Some(base_series)) =
        (res.experiment.as_ref().and_then(|e| e.baseline.clone()), baseline_series(res))
    else {
        let _ = writeln!(s, "(no baseline in the experiment: no speedup tables)\n");
        return;
    };
    let others: Vec<&String> = series.iter().filter(|x| **x != base_series).collect();
    let cell = |g: &str, ser: &str| {
        let b = best_config(&measured(rows, g, &base_series));
        speedup(&b, &best_config(&measured(rows, g, ser)))
    };
    let _ = writeln!(s, "## Speedups over {base_series} (seed 000 Table 2 layout)\n");
    let _ = writeln!(s, "Median over sources of baseline ms / ms; each series at its best configuration.\n");
    let _ = write!(s, "| graph | {base_series} median ms |");
    others.iter().for_each(|o| _ = write!(s, " {o} |"));
    let _ = writeln!(s, "\n|---|---:|{}", "---:|".repeat(others.len()));
    let label = |g: &String| rows.iter().find(|r| &r.graph == g).map_or_else(|| g.clone(), LabResult::label);
    for g in graphs {
        let b = best_config(&measured(rows, g, &base_series));
        let bm = median(&b.iter().filter_map(|r| r.total_ms).collect::<Vec<_>>());
        let _ = write!(s, "| {} | {} |", label(g), bm.map_or("–".into(), |m| format!("{m:.3}")));
        others.iter().for_each(|o| _ = write!(s, " {} |", fmt_x(cell(g, o))));
        let _ = writeln!(s);
    }
    let _ = writeln!(s);
    let generated = || rows.iter().filter(|r| !r.degree_label.is_empty());
    let sizes = distinct(generated().map(|r| r.size_label.as_str()));
    let degrees = distinct(generated().map(|r| r.degree_label.as_str()));
    if sizes.len() > 1 && degrees.len() > 1 {
        for o in &others {
            let _ = writeln!(s, "### {o} vs {base_series}: sizes × degrees\n");
            let _ = writeln!(s, "| n \\ d | {} |\n|---|{}", degrees.join(" | "), "---:|".repeat(degrees.len()));
            for size in &sizes {
                let _ = write!(s, "| {size} |");
                for d in &degrees {
                    let g =
                        rows.iter().find(|r| &r.size_label == size && &r.degree_label == d).map(|r| r.graph.clone());
                    let _ = write!(s, " {} |", fmt_x(g.and_then(|g| cell(&g, o))));
                }
                let _ = writeln!(s);
            }
            let _ = writeln!(s);
        }
    }
    // Seed 000 Table 2's "GPU M" column: the baseline algorithm against the others on the same
    // device (e.g. GPU Crauser vs GPU Martín).
    let algo = base_series.split(" @ ").next().unwrap_or_default().to_string();
    for dev in distinct(rows.iter().filter(|r| r.is_measured()).map(|r| r.device.as_str())) {
        let mine = format!("{algo} @ {dev}");
        let rivals: Vec<&String> = series.iter().filter(|x| x.ends_with(&format!(" @ {dev}")) && **x != mine).collect();
        if dev == base.device.to_string() || !series.contains(&mine) || rivals.is_empty() {
            continue;
        }
        let _ = writeln!(s, "## {mine} vs the other algorithms on {dev} (seed 000 Table 2's GPU M column)\n");
        let _ = writeln!(
            s,
            "| graph |{}\n|---|{}",
            rivals.iter().map(|r| format!(" vs {r} |")).collect::<String>(),
            "---:|".repeat(rivals.len())
        );
        for g in graphs {
            let _ = write!(s, "| {} |", label(g));
            rivals
                .iter()
                .for_each(|r| _ = write!(s, " {} |", fmt_x(cell(g, r).zip(cell(g, &mine)).map(|(a, b)| b / a))));
            let _ = writeln!(s);
        }
        let _ = writeln!(s);
    }
    let groups = distinct(rows.iter().map(|r| r.group.as_str()));
    if groups.len() > 1 {
        let _ = writeln!(s, "## Best speedup per group (seed 000 Table 3 layout)\n");
        let _ = writeln!(
            s,
            "| group |{}\n|---|{}",
            others.iter().map(|o| format!(" {o} |")).collect::<String>(),
            "---:|".repeat(others.len())
        );
        for grp in &groups {
            let _ = write!(s, "| {grp} |");
            for o in &others {
                let best = graphs
                    .iter()
                    .filter(|g| rows.iter().any(|r| &r.graph == *g && &r.group == grp))
                    .filter_map(|g| cell(g, o))
                    .max_by(f64::total_cmp);
                let _ = write!(s, " {} |", fmt_x(best));
            }
            let _ = writeln!(s);
        }
        let _ = writeln!(s);
    }
}

fn every_cell(s: &mut String, rows: &[LabResult], graphs: &[String], series: &[String]) {
    let _ = writeln!(s, "## Every configuration\n");
    let _ = writeln!(
        s,
        "| graph | n | m | series | blocks / cache | runs | min ms | median ms | max ms | iterations | GTEPS | dummy % | lane use % | barrier % | lock % | peak host MiB | device MiB | correct |"
    );
    let _ = writeln!(s, "|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for g in graphs {
        for ser in series {
            let all = measured(rows, g, ser);
            for c in distinct(all.iter().map(|r| r.config())) {
                let v: Vec<&LabResult> = all.iter().copied().filter(|r| r.config() == c).collect();
                let Some((lo, med, hi)) = min_median_max(&v.iter().filter_map(|r| r.total_ms).collect::<Vec<_>>())
                else {
                    continue;
                };
                let f = |get: &dyn Fn(&LabResult) -> Option<f64>| {
                    median(&v.iter().filter_map(|r| get(r)).collect::<Vec<_>>())
                };
                let bad = v.iter().filter(|r| r.correct == Some(false)).count();
                let _ = writeln!(
                    s,
                    "| {g} | {} | {} | {ser} | {c} | {} | {lo:.3} | {med:.3} | {hi:.3} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                    v[0].n,
                    v[0].m,
                    v.len(),
                    f(&|r| r.iterations.map(f64::from)).map_or("–".into(), |x| format!("{x:.0}")),
                    f(&|r| r.gteps).map_or("–".into(), |x| format!("{x:.4}")),
                    f(&|r| r.dummy_ratio).map_or("–".into(), |x| format!("{:.1}", x * 100.0)),
                    f(&|r| r.lane_use).map_or("–".into(), |x| format!("{:.1}", x * 100.0)),
                    f(&|r| r.barrier_share).map_or("–".into(), |x| format!("{:.1}", x * 100.0)),
                    f(&|r| r.lock_share).map_or("–".into(), |x| format!("{:.1}", x * 100.0)),
                    mib(f(&|r| r.peak_host_bytes.map(|b| b as f64)).map(|b| b as u64)),
                    mib(v[0].device_bytes),
                    if bad > 0 {
                        format!("**{bad} wrong**")
                    } else if v.iter().all(|r| r.correct == Some(true)) {
                        "ok".into()
                    } else {
                        "not checked".into()
                    }
                );
            }
        }
    }
    let mut reasons: Vec<String> = rows
        .iter()
        .filter_map(|r| {
            r.skipped.as_ref().or(r.error.as_ref()).map(|why| format!("| {} | {} | {why} |", r.graph, r.series()))
        })
        .collect();
    reasons.dedup();
    if !reasons.is_empty() {
        let _ =
            writeln!(s, "\n## Skipped or failed\n\n| graph | series | reason |\n|---|---|---|\n{}", reasons.join("\n"));
    }
}
