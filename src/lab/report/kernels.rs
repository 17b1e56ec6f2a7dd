//! Seed 000 Table 1 (best block size per kernel and L1 state) and Table 4 (gain over the
//! default configuration) for kernel-characterization experiments.

use super::{distinct, measured};
use crate::lab::result::{LabResult, median};
use std::fmt::Write as _;

/// L1 state letter of seed 000 Table 1.
fn l1_letter(cache: &str) -> &'static str {
    match cache {
        "prefer-l1" => "A",
        "prefer-shared" => "S",
        _ => "N",
    }
}

pub(super) fn kernel_tables(s: &mut String, rows: &[LabResult], graphs: &[String], series: &[String]) {
    let sizes = distinct(rows.iter().map(|r| r.size_label.as_str()));
    let degrees = distinct(rows.iter().map(|r| r.degree_label.as_str()));
    let graph_at = |size: &str, d: &str| {
        rows.iter().find(|r| r.size_label == size && r.degree_label == d).map(|r| r.graph.clone())
    };
    let header = |s: &mut String, first: &str| {
        let labels: Vec<&str> = degrees.iter().map(|d| if d.is_empty() { "–" } else { d.as_str() }).collect();
        let _ = writeln!(s, "| {first} | {} |\n|---|{}", labels.join(" | "), "---:|".repeat(degrees.len()));
    };
    for ser in series {
        let _ = writeln!(s, "## {ser}: best block size per kernel and L1 state (seed 000 Table 1 layout)\n");
        let _ = writeln!(
            s,
            "Lowest median per-kernel time over the configurations run (total time where the device does not time kernels).\n"
        );
        header(s, "size/kernel");
        for size in &sizes {
            for (kernel, pick) in [("relax", 0usize), ("min", 1), ("update", 2)] {
                let _ = write!(s, "| {size} {kernel} |");
                for d in &degrees {
                    let best = graph_at(size, d).and_then(|g| best_for_kernel(&measured(rows, &g, ser), pick));
                    let _ = write!(s, " {} |", best.unwrap_or_else(|| "–".into()));
                }
                let _ = writeln!(s);
            }
        }
        // Stepped runs time each kernel: compare kernel time, not the wall time with read-backs.
        let kernels = rows.iter().filter(|r| r.is_measured() && r.series() == *ser).all(|r| r.relax_ms.is_some());
        let _ = writeln!(
            s,
            "\n### {ser}: gain of the best configuration over the default (256 threads, default cache; seed 000 Table 4)\n"
        );
        let what = if kernels { "relax + minimum + update kernel time" } else { "whole-run time" };
        let _ = writeln!(s, "Median {what}; the best configuration in brackets.\n");
        header(s, "size");
        for size in &sizes {
            let _ = write!(s, "| {size} |");
            for d in &degrees {
                let gain = graph_at(size, d)
                    .and_then(|g| gain(&measured(rows, &g, ser)))
                    .map(|(pct, best)| format!("{pct:.1}% ({best})"));
                let _ = write!(s, " {} |", gain.unwrap_or_else(|| "–".into()));
            }
            let _ = writeln!(s);
        }
        let _ = writeln!(s);
    }
    let _ = graphs;
}

/// Gain of the best configuration over the default one (256 threads, default cache) on one
/// graph and series, % of the default's median time, with the best configuration's name.
/// Kernel time when every run timed its kernels, else the whole run.
pub(super) fn gain(all: &[&LabResult]) -> Option<(f64, String)> {
    let kernels = all.iter().all(|r| r.relax_ms.is_some());
    let def: Vec<&LabResult> = all.iter().copied().filter(|r| r.is_default_config()).collect();
    let med = |v: &[&LabResult]| median(&v.iter().filter_map(|r| time(r, kernels)).collect::<Vec<_>>());
    let configs = distinct(all.iter().map(|r| r.config()));
    let of = |c: &str| all.iter().copied().filter(|r| r.config() == c).collect::<Vec<_>>();
    let best = configs
        .iter()
        .map(|c| of(c))
        .min_by(|a, b| med(a).unwrap_or(f64::INFINITY).total_cmp(&med(b).unwrap_or(f64::INFINITY)))?;
    let (td, tb) = (med(&def)?, med(&best)?);
    Some(((td - tb) / td * 100.0, best.first().map(|r| r.config()).unwrap_or_default()))
}

/// The time a configuration is judged by: kernel time when measured, else the whole run, ms.
fn time(r: &LabResult, kernels: bool) -> Option<f64> {
    if kernels { Some(r.relax_ms? + r.minimum_ms? + r.update_ms?) } else { r.total_ms }
}

/// `192-A`: the block size of kernel `pick` (0 relax, 1 minimum, 2 update) and L1 letter of the
/// configuration whose median time of that kernel is lowest.
pub(super) fn best_for_kernel(rows: &[&LabResult], pick: usize) -> Option<String> {
    let kernel_ms = |r: &LabResult| match pick {
        0 => r.relax_ms,
        1 => r.minimum_ms,
        _ => r.update_ms,
    };
    let timed = rows.iter().all(|r| kernel_ms(r).is_some());
    let configs = distinct(rows.iter().map(|r| r.config()));
    let med = |c: &str| {
        let v: Vec<f64> = rows
            .iter()
            .filter(|r| r.config() == c)
            .filter_map(|r| if timed { kernel_ms(r) } else { r.total_ms })
            .collect();
        median(&v).unwrap_or(f64::INFINITY)
    };
    let best = configs.iter().min_by(|a, b| med(a).total_cmp(&med(b)))?;
    let r = rows.iter().find(|r| &r.config() == best)?;
    let b = [r.block_relax, r.block_minimum, r.block_update][pick];
    Some(format!("{b}-{}", l1_letter(&r.cache)))
}
