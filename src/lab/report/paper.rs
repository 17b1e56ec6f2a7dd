//! "Ours next to the paper's": the figures an experiment file quotes from its paper, each with a
//! query that computes our number from the results, so a report states both side by side.
//!
//! An experiment lists them under `paper`, e.g. seed 000 Table 2's headline:
//!
//! ```json
//! { "figure": "GPU Crauser over CPU Crauser, 98k deg2", "paper": "18.42× (Fermi)",
//!   "metric": "speedup", "series": "crauser-succ @ cuda:0", "over": "crauser-succ @ cpu",
//!   "graphs": ["98k deg2"] }
//! ```

use super::{best_config, distinct, kernels, measured, speedup};
use crate::lab::experiment::{Aggregate, PaperFigure, PaperMetric};
use crate::lab::result::{LabResult, LabResults, median};
use std::fmt::Write as _;

/// The `## Ours next to the papers'` section; empty when the experiment quotes nothing.
pub fn section(s: &mut String, res: &LabResults, base_series: Option<&str>) {
    let Some(figs) = res.experiment.as_ref().map(|e| &e.paper).filter(|f| !f.is_empty()) else { return };
    let _ = writeln!(s, "## Ours next to the paper's\n");
    let _ = writeln!(
        s,
        "The paper's boards are 2012–2014 GPUs (Fermi GTX 480, Kepler GTX 680, Titan Black) and a Core i7 960; \
         ours are in the header above. `–`: not measured in this run.\n"
    );
    let _ = writeln!(s, "| figure | paper | ours | graphs |\n|---|---|---|---|");
    for f in figs {
        let (ours, graphs) = evaluate(f, &res.rows, base_series);
        let _ = writeln!(s, "| {} | {} | {ours} | {graphs} |", f.figure, f.paper);
    }
    let _ = writeln!(s);
}

/// Our value of `f` as text and the graphs it covers.
pub fn evaluate(f: &PaperFigure, rows: &[LabResult], base_series: Option<&str>) -> (String, String) {
    let graphs: Vec<String> = distinct(rows.iter().filter(|r| selected(f, r)).map(|r| r.graph.as_str()));
    let label = |g: &str| rows.iter().find(|r| r.graph == g).map(LabResult::label).unwrap_or_default();
    let over = f.over.as_deref().or(base_series).unwrap_or_default();
    if f.metric == PaperMetric::BestBlock {
        let pick = match f.kernel.as_deref() {
            Some("min" | "minimum") => 1,
            Some("update") => 2,
            _ => 0,
        };
        let picks: Vec<String> = graphs
            .iter()
            .filter_map(|g| kernels::best_for_kernel(&measured(rows, g, &f.series), pick).map(|b| (g, b)))
            .map(|(g, b)| if graphs.len() > 1 { format!("{} {b}", label(g)) } else { b })
            .collect();
        let cell = if picks.is_empty() { "–".into() } else { picks.join(", ") };
        return (cell, covered(&graphs, &label));
    }
    let values: Vec<(String, f64)> =
        graphs.iter().filter_map(|g| value(f.metric, rows, g, &f.series, over).map(|v| (g.clone(), v))).collect();
    let fmt = |v: f64| match f.metric {
        PaperMetric::Speedup | PaperMetric::MemoryRatio => format!("{v:.2}×"),
        PaperMetric::Saving | PaperMetric::Gain | PaperMetric::DummyPercent => format!("{v:.1}%"),
        PaperMetric::Iterations => format!("{v:.0}"),
        PaperMetric::Gteps => format!("{v:.2} GTEPS"),
        PaperMetric::Ms => format!("{v:.3} ms"),
        PaperMetric::BestBlock => String::new(),
    };
    let by = |a: &&(String, f64), b: &&(String, f64)| a.1.total_cmp(&b.1);
    let cell = match (f.aggregate, values.len()) {
        (_, 0) => "–".into(),
        (_, 1) => fmt(values[0].1),
        (Aggregate::Range, _) => {
            let (lo, hi) = (values.iter().min_by(by), values.iter().max_by(by));
            lo.zip(hi).map_or("–".into(), |(lo, hi)| format!("{} – {} (max: {})", fmt(lo.1), fmt(hi.1), label(&hi.0)))
        }
        (Aggregate::Max, _) => {
            values.iter().max_by(by).map_or("–".into(), |m| format!("{} ({})", fmt(m.1), label(&m.0)))
        }
        (Aggregate::Min, _) => {
            values.iter().min_by(by).map_or("–".into(), |m| format!("{} ({})", fmt(m.1), label(&m.0)))
        }
        (Aggregate::Median, _) => median(&values.iter().map(|v| v.1).collect::<Vec<_>>()).map_or("–".into(), fmt),
    };
    (cell, covered(&graphs, &label))
}

fn selected(f: &PaperFigure, r: &LabResult) -> bool {
    f.graphs.is_empty() || f.graphs.iter().any(|want| r.label() == *want || r.group == *want || r.graph == *want)
}

fn covered(graphs: &[String], label: &dyn Fn(&str) -> String) -> String {
    match graphs {
        [] => "–".into(),
        [g] => label(g),
        _ => format!("{} graphs", graphs.len()),
    }
}

/// One graph's value of `metric` for `series` (against `over` where it takes one).
fn value(metric: PaperMetric, rows: &[LabResult], graph: &str, series: &str, over: &str) -> Option<f64> {
    let mine = best_config(&measured(rows, graph, series));
    let theirs = || best_config(&measured(rows, graph, over));
    let med = |get: &dyn Fn(&LabResult) -> Option<f64>| median(&mine.iter().filter_map(|r| get(r)).collect::<Vec<_>>());
    match metric {
        PaperMetric::Speedup => speedup(&theirs(), &mine),
        PaperMetric::Saving => speedup(&theirs(), &mine).map(|x| (1.0 - 1.0 / x) * 100.0),
        PaperMetric::Gain => kernels::gain(&measured(rows, graph, series)).map(|(g, _)| g),
        PaperMetric::Iterations => med(&|r| r.iterations.map(f64::from)),
        PaperMetric::DummyPercent => med(&|r| r.dummy_ratio.map(|x| x * 100.0)),
        PaperMetric::Gteps => med(&|r| r.gteps),
        PaperMetric::Ms => med(&|r| r.total_ms),
        PaperMetric::MemoryRatio => {
            let mem = |v: &[&LabResult]| {
                median(
                    &v.iter()
                        .filter_map(|r| r.device_bytes.or(r.peak_host_bytes).map(|b| b as f64))
                        .collect::<Vec<_>>(),
                )
            };
            mem(&theirs()).zip(mem(&mine)).filter(|(_, m)| *m > 0.0).map(|(t, m)| t / m)
        }
        PaperMetric::BestBlock => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(graph: &str, algorithm: &str, device: &str, source: u32, ms: f64) -> LabResult {
        LabResult {
            graph: graph.into(),
            group: "fanout".into(),
            size_label: graph.split(' ').next().unwrap_or_default().into(),
            degree_label: graph.split(' ').nth(1).unwrap_or_default().into(),
            algorithm: algorithm.into(),
            device: device.into(),
            block_relax: 256,
            block_minimum: 256,
            block_update: 256,
            cache: "default".into(),
            source: Some(source),
            total_ms: Some(ms),
            iterations: Some(10),
            ..Default::default()
        }
    }

    #[test]
    fn speedups_are_per_graph_and_ranges_name_their_maximum() {
        let mut rows = Vec::new();
        for s in 0..3 {
            rows.push(row("24k deg2", "crauser-succ", "cpu", s, 10.0));
            rows.push(row("24k deg2", "crauser-succ", "cuda:0", s, 2.0));
            rows.push(row("98k deg2", "crauser-succ", "cpu", s, 40.0));
            rows.push(row("98k deg2", "crauser-succ", "cuda:0", s, 4.0));
        }
        let f = PaperFigure {
            figure: "x".into(),
            paper: "18×".into(),
            series: "crauser-succ @ cuda:0".into(),
            ..Default::default()
        };
        let (all, graphs) = evaluate(&f, &rows, Some("crauser-succ @ cpu"));
        assert_eq!(all, "5.00× – 10.00× (max: 98k deg2)");
        assert_eq!(graphs, "2 graphs");
        let one = PaperFigure { graphs: vec!["24k deg2".into()], ..f.clone() };
        assert_eq!(evaluate(&one, &rows, Some("crauser-succ @ cpu")).0, "5.00×");
        let saving = PaperFigure { metric: PaperMetric::Saving, aggregate: Aggregate::Max, ..f.clone() };
        assert_eq!(evaluate(&saving, &rows, Some("crauser-succ @ cpu")).0, "90.0% (98k deg2)");
        let missing = PaperFigure { series: "martin-succ @ cuda:0".into(), ..f };
        assert_eq!(evaluate(&missing, &rows, Some("crauser-succ @ cpu")).0, "–");
    }
}
