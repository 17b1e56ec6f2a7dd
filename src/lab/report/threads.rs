//! Speedup vs threads (seed 001 Figs. 4–6): for each graph and algorithm run with several
//! thread counts, the speedup over the baseline per thread count, and where the threads' time
//! went (barrier and lock-wait shares, from the solvers that measure them).

use super::{best_config, distinct, measured, speedup};
use crate::lab::result::{LabResult, median};
use std::fmt::Write as _;

/// The algorithms of `rows` (measured) that ran with at least two thread counts, with their
/// thread counts ascending.
pub fn threaded_algorithms(rows: &[LabResult]) -> Vec<(String, Vec<u32>)> {
    let algos = distinct(rows.iter().filter(|r| r.is_measured() && r.threads.is_some()).map(|r| r.algorithm.as_str()));
    algos
        .into_iter()
        .filter_map(|a| {
            let mut t: Vec<u32> =
                rows.iter().filter(|r| r.is_measured() && r.algorithm == a).filter_map(|r| r.threads).collect();
            t.sort_unstable();
            t.dedup();
            (t.len() >= 2).then_some((a, t))
        })
        .collect()
}

/// Speedup over `base_series` of `algorithm` with `threads` CPU threads on `graph` (median over
/// sources of baseline ms / ms, best configuration of each); `None` without common sources.
pub fn speedup_at(rows: &[LabResult], graph: &str, base_series: &str, algorithm: &str, threads: u32) -> Option<f64> {
    let base = best_config(&measured(rows, graph, base_series));
    let mine: Vec<&LabResult> = rows
        .iter()
        .filter(|r| r.is_measured() && r.graph == graph && r.algorithm == algorithm && r.threads == Some(threads))
        .collect();
    let series = mine.first()?.series();
    speedup(&base, &best_config(&measured(rows, graph, &series)))
}

/// Median (barrier share, lock share) of `algorithm` with `threads` threads on `graph`.
fn shares_at(rows: &[LabResult], graph: &str, algorithm: &str, threads: u32) -> (Option<f64>, Option<f64>) {
    let v: Vec<&LabResult> = rows
        .iter()
        .filter(|r| r.is_measured() && r.graph == graph && r.algorithm == algorithm && r.threads == Some(threads))
        .collect();
    let med = |get: fn(&LabResult) -> Option<f64>| median(&v.iter().filter_map(|r| get(r)).collect::<Vec<_>>());
    (med(|r| r.barrier_share), med(|r| r.lock_share))
}

/// Share of the helpers' lowerings that were lowered again (%), over every run of `algorithm`
/// with `threads` threads on `graph`; `None` for runs without helpers.
fn wasted_at(rows: &[LabResult], graph: &str, algorithm: &str, threads: u32) -> Option<f64> {
    let (lowered, wasted) = rows
        .iter()
        .filter(|r| r.is_measured() && r.graph == graph && r.algorithm == algorithm && r.threads == Some(threads))
        .filter_map(|r| r.helper_lowered.zip(r.helper_wasted))
        .fold((0, 0), |(l, w), (a, b)| (l + a, w + b));
    (lowered > 0).then(|| wasted as f64 / lowered as f64 * 100.0)
}

/// The sequential baselines a speedup table is written against when they ran: the project's
/// radix-heap `dijkstra` and seed 001's binary-heap baseline (the paper's divisor).
pub const BASELINES: [&str; 2] = ["dijkstra @ cpu", "dijkstra-bheap @ cpu"];

/// Writes the section (nothing when no algorithm ran with two thread counts or more): one
/// table over the experiment's baseline, and one over each other of [`BASELINES`] that ran.
pub fn section(s: &mut String, rows: &[LabResult], graphs: &[String], base_series: Option<&str>) {
    let algos = threaded_algorithms(rows);
    let Some(base) = base_series.filter(|_| !algos.is_empty()) else { return };
    let mut counts: Vec<u32> = algos.iter().flat_map(|(_, t)| t.iter().copied()).collect();
    counts.sort_unstable();
    counts.dedup();
    let _ = writeln!(s, "## Speedup vs threads (seed 001 Figs. 4–6 layout)\n");
    let others = BASELINES.iter().filter(|b| **b != base && rows.iter().any(|r| r.is_measured() && r.series() == **b));
    for b in std::iter::once(base).chain(others.copied()) {
        table(s, rows, graphs, b, &algos, &counts);
    }
}

/// One table of the section: speedups over `base` with each thread count.
fn table(
    s: &mut String,
    rows: &[LabResult],
    graphs: &[String],
    base: &str,
    algos: &[(String, Vec<u32>)],
    counts: &[u32],
) {
    let _ = writeln!(
        s,
        "Speedup over `{base}` with T threads; in brackets the share of the threads' summed time spent \
         at barriers (helpers: waiting for the next iteration) and waiting for locks, where the solver \
         measures them; for helper threads, the share of their δ lowerings that were lowered again \
         (wasted).\n"
    );
    let _ = writeln!(
        s,
        "| graph | algorithm |{}\n|---|---|{}",
        counts.iter().map(|t| format!(" {t} |")).collect::<String>(),
        "---:|".repeat(counts.len())
    );
    for g in graphs {
        for (a, _) in algos {
            let cells: Vec<String> = counts
                .iter()
                .map(|&t| {
                    let x = speedup_at(rows, g, base, a, t);
                    let (b, l) = shares_at(rows, g, a, t);
                    let shares = match (b, l) {
                        (Some(b), Some(l)) => format!(" ({:.0} % / {:.0} %)", b * 100.0, l * 100.0),
                        _ => String::new(),
                    };
                    let wasted = wasted_at(rows, g, a, t).map_or(String::new(), |w| format!(", {w:.0} % wasted"));
                    x.map_or("–".into(), |x| format!("{x:.2}×{shares}{wasted}"))
                })
                .collect();
            if cells.iter().all(|c| c == "–") {
                continue;
            }
            let _ = writeln!(s, "| {g} | {a} | {} |", cells.join(" | "));
        }
    }
    let _ = writeln!(s);
}
