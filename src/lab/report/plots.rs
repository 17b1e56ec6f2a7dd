//! PNG plots of a lab run, linked from `report.md` (`plots/*.png`, drawn headless with plotters):
//!
//! - `time-per-graph.png`: median ms per graph of every series at its best configuration, with
//!   min–max whiskers over sources and repetitions;
//! - `speedup.png` (sweeps with a baseline): the report's speedup cells as lines, 1× marked;
//! - `time-vs-block[-GRAPH].png` (more than one relax block size, sweeps): median ms per block
//!   size;
//! - `kernels[-GRAPH].png` (kernel characterization): relax, minimum and update panels, median
//!   ms of the kernel per block size of that kernel (seed 000 Table 1's data);
//! - `memory.png`: peak host resident set and device allocation, MiB (seed 000 Fig. 11);
//! - `gteps.png`: GTEPS per graph;
//! - `timeline-<graph>-<label>-<policy>.png` (many-source experiments): the Gantt timeline of
//!   every configuration that ran ([`super::timeline`]).
//!
//! Plots without data are skipped; the y axis turns logarithmic when values span > 2 decades.

pub(super) mod draw;

use self::draw::{Line, Plot, Point};
use super::{baseline_series, best_config, distinct, measured, speedup};
use crate::lab::experiment::ExperimentKind;
use crate::lab::result::{LabResult, LabResults, median, min_median_max};
use anyhow::{Context, Result};
use std::path::Path;

/// Per-graph plots (block sizes, kernels) stop at this many graphs, so that a big sweep does
/// not bury the report in PNGs.
const MAX_GRAPH_PLOTS: usize = 12;
/// A block-size plot of every graph with more legend entries than this becomes one PNG per graph.
const MAX_LINES: usize = 8;

/// A written plot: its title and its path relative to the output folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlotFile {
    /// What the plot shows (the PNG's caption, and the alt text in `report.md`).
    pub title: String,
    /// Relative path with `/`, e.g. `plots/time-per-graph.png`.
    pub file: String,
}

/// Draws every plot that has data into `dir/plots/` (created if needed) and removes PNGs left
/// there by an earlier run that this one did not draw.
///
/// Errors: the folder cannot be created, or a plot cannot be drawn or written.
pub fn write_plots(res: &LabResults, dir: &Path) -> Result<Vec<PlotFile>> {
    let plots_dir = dir.join("plots");
    let data = Data::new(res);
    let plots: Vec<Plot> = [
        vec![data.time_per_graph()],
        vec![data.speedup()],
        data.time_vs_block(),
        data.kernels(),
        vec![data.memory(), data.gteps()],
    ]
    .into_iter()
    .flatten()
    .filter(|p| !p.is_empty())
    .collect();
    let timelines = timeline_files(res);
    if !plots.is_empty() || !timelines.is_empty() {
        std::fs::create_dir_all(&plots_dir).with_context(|| format!("creating {}", plots_dir.display()))?;
    }
    let mut out = Vec::new();
    for p in &plots {
        draw::render(p, &plots_dir.join(&p.file))?;
        out.push(PlotFile { title: p.title.clone(), file: format!("plots/{}", p.file) });
    }
    for (i, f) in timelines {
        let row = &res.many[i];
        let title = format!("{} · {}", row.graph, row.workers);
        super::timeline::write_timeline_png(&row.run, &title, &dir.join(&f.file))?;
        out.push(f);
    }
    // Stale plots (e.g. of graphs no longer in the experiment) would be mistaken for current ones.
    if let Ok(entries) = std::fs::read_dir(&plots_dir) {
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if name.ends_with(".png") && !out.iter().any(|p| p.file == format!("plots/{name}")) {
                std::fs::remove_file(&path).with_context(|| format!("removing stale {}", path.display()))?;
            }
        }
    }
    Ok(out)
}

/// The timeline PNG of every many-source row that ran (index into `res.many`, file):
/// `plots/timeline-<graph>-<label>-<policy>.png`, with the workers added (then a number) where
/// two configurations share a label and policy (`cpu:16` and `cuda:0,cpu:15` are both `W16`).
pub fn timeline_files(res: &LabResults) -> Vec<(usize, PlotFile)> {
    let mut taken: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for (i, r) in res.many.iter().enumerate() {
        if r.error.is_some() || r.run.tasks.is_empty() {
            continue;
        }
        let base = format!("timeline-{}-{}-{}", sanitize(&r.graph), sanitize(&r.label), sanitize(&r.policy));
        let mut name = format!("{base}.png");
        if taken.contains(&name) {
            let with_workers = format!("{base}-{}", sanitize(&r.workers));
            name = format!("{with_workers}.png");
            for k in 2.. {
                if !taken.contains(&name) {
                    break;
                }
                name = format!("{with_workers}-{k}.png");
            }
        }
        taken.push(name.clone());
        let title = format!("Timeline: {} · {} {} ({})", r.graph, r.label, r.policy, r.workers);
        out.push((i, PlotFile { title, file: format!("plots/{name}") }));
    }
    out
}

/// A file-name-safe form of a graph label: lowercase letters, digits and single dashes.
fn sanitize(name: &str) -> String {
    let mapped: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    let parts: Vec<&str> = mapped.split('-').filter(|p| !p.is_empty()).collect();
    let s: String = parts.join("-").chars().take(60).collect();
    if s.is_empty() { "graph".into() } else { s }
}

/// `stem` when there is one graph, else `stem-<graph label>` (made unique among `taken`).
fn per_graph_name(stem: &str, label: &str, one: bool, taken: &mut Vec<String>) -> String {
    let base = if one { stem.to_string() } else { format!("{stem}-{}", sanitize(label)) };
    let mut name = format!("{base}.png");
    for k in 2.. {
        if !taken.contains(&name) {
            break;
        }
        name = format!("{base}-{k}.png");
    }
    taken.push(name.clone());
    name
}

/// Lines of one series × cache over block sizes: (its rows, block sizes, label, style).
type LinesOf<'a> = dyn Fn(&[&LabResult], &[u32], &str, usize) -> Vec<Line> + 'a;

/// Median of `get` over the rows that have a value.
fn median_of(rows: &[&LabResult], get: impl Fn(&LabResult) -> Option<f64>) -> Option<f64> {
    median(&rows.iter().filter_map(|r| get(r)).collect::<Vec<_>>())
}

/// The measured rows and their categories, in order of first appearance.
struct Data<'a> {
    res: &'a LabResults,
    graphs: Vec<String>,
    labels: Vec<String>,
    series: Vec<String>,
    caches: Vec<String>,
}

impl<'a> Data<'a> {
    fn new(res: &'a LabResults) -> Self {
        let ok: Vec<&LabResult> = res.rows.iter().filter(|r| r.is_measured()).collect();
        let graphs = distinct(ok.iter().map(|r| r.graph.as_str()));
        let labels =
            graphs.iter().map(|g| ok.iter().find(|r| &r.graph == g).map_or_else(|| g.clone(), |r| r.label())).collect();
        let series = distinct(ok.iter().map(|r| r.series()));
        let caches = distinct(ok.iter().map(|r| r.cache.as_str()));
        Data { res, graphs, labels, series, caches }
    }

    fn kind(&self) -> ExperimentKind {
        self.res.experiment.as_ref().map(|e| e.kind).unwrap_or_default()
    }

    fn rows(&self, graph: &str, series: &str) -> Vec<&'a LabResult> {
        measured(&self.res.rows, graph, series)
    }

    /// A plot over the graphs with one line per series: `value` of the series' best
    /// configuration rows on each graph.
    fn per_graph(&self, value: impl Fn(&[&LabResult]) -> Option<Point>) -> Vec<Line> {
        let line = |(k, ser): (usize, &String)| Line {
            label: ser.clone(),
            style: Some(k),
            panel: 0,
            points: (0..self.graphs.len())
                .filter_map(|x| value(&best_config(&self.rows(&self.graphs[x], ser))).map(|p| Point { x, ..p }))
                .collect(),
        };
        self.series.iter().enumerate().map(line).collect()
    }

    fn graph_plot(&self, file: &str, title: &str, y_desc: &str, lines: Vec<Line>) -> Plot {
        Plot {
            file: file.into(),
            title: title.into(),
            x_desc: "graph".into(),
            y_desc: y_desc.into(),
            categories: self.labels.clone(),
            lines,
            ..Default::default()
        }
    }

    fn time_per_graph(&self) -> Plot {
        let lines = self.per_graph(|rows| {
            let (lo, med, hi) = min_median_max(&rows.iter().filter_map(|r| r.total_ms).collect::<Vec<_>>())?;
            Some(Point { x: 0, y: med, range: (hi > lo).then_some((lo, hi)) })
        });
        let title = "Time per graph (best configuration of each series)";
        self.graph_plot("time-per-graph.png", title, "time, ms (median; whiskers: min–max over sources)", lines)
    }

    fn speedup(&self) -> Plot {
        let Some(base) = baseline_series(self.res).filter(|_| self.kind() == ExperimentKind::Sweep) else {
            return Plot::default();
        };
        let others = self.series.iter().enumerate().filter(|(_, s)| **s != base);
        let lines = others
            .map(|(k, ser)| Line {
                label: ser.to_string(),
                style: Some(k),
                panel: 0,
                points: (0..self.graphs.len())
                    .filter_map(|x| {
                        let g = &self.graphs[x];
                        let y = speedup(&best_config(&self.rows(g, &base)), &best_config(&self.rows(g, ser)))?;
                        Some(Point { x, y, range: None })
                    })
                    .collect(),
            })
            .collect();
        Plot {
            reference: Some((1.0, format!("1× = {base}"))),
            ..self.graph_plot(
                "speedup.png",
                &format!("Speedup over {base} (best configurations)"),
                "speedup, × (median over sources of baseline ms / ms)",
                lines,
            )
        }
    }

    /// Plots over block sizes: `lines_of(rows, blocks, label, style)` for each series × cache of
    /// each graph, with the cache named only when the experiment has several. One PNG for all
    /// graphs when that stays readable, else one per graph (the first [`MAX_GRAPH_PLOTS`]).
    fn block_plots(
        &self,
        stem: &str,
        title: &str,
        y_desc: &str,
        panels: &[&str],
        lines_of: &LinesOf,
        blocks: &[u32],
    ) -> Vec<Plot> {
        let plot = |file: String, title: String, lines: Vec<Line>| Plot {
            file,
            title,
            x_desc: "threads per block".into(),
            y_desc: y_desc.into(),
            categories: blocks.iter().map(|b| b.to_string()).collect(),
            lines,
            panels: panels.iter().map(|p| p.to_string()).collect(),
            ..Default::default()
        };
        // Styles by series × cache, so that a series has the same colour in every graph's PNG.
        let lines_for = |g: &str, prefix: &str| -> Vec<Line> {
            let mut out = Vec::new();
            for (i, ser) in self.series.iter().enumerate() {
                for (j, cache) in self.caches.iter().enumerate() {
                    let rows: Vec<&LabResult> = self.rows(g, ser).into_iter().filter(|r| &r.cache == cache).collect();
                    let cache = if self.caches.len() > 1 { format!(" {cache}") } else { String::new() };
                    let k = i * self.caches.len() + j;
                    out.extend(lines_of(&rows, blocks, &format!("{prefix}{ser}{cache}"), k));
                }
            }
            // A series that ran one block size only (CPUs run the first configuration) has no
            // trend to show, and its lone point squeezes the others' scale.
            out.retain(|l| l.points.len() >= blocks.len().min(2));
            out
        };
        let mut all: Vec<Line> =
            self.graphs.iter().zip(&self.labels).flat_map(|(g, l)| lines_for(g, &format!("{l}: "))).collect();
        let entries = distinct(all.iter().map(|l| l.label.as_str()));
        if self.graphs.len() > 1 && entries.len() <= MAX_LINES {
            // One colour per legend entry (graph × series × cache).
            all.iter_mut().for_each(|l| l.style = entries.iter().position(|e| *e == l.label));
            return vec![plot(format!("{stem}.png"), title.into(), all)];
        }
        let mut taken = Vec::new();
        let one = self.graphs.len() == 1;
        (self.graphs.iter().zip(&self.labels))
            .take(MAX_GRAPH_PLOTS)
            .map(|(g, l)| plot(per_graph_name(stem, l, one, &mut taken), format!("{title}: {l}"), lines_for(g, "")))
            .collect()
    }

    fn time_vs_block(&self) -> Vec<Plot> {
        // Kernel characterizations get the per-kernel plots instead (half as many PNGs).
        let kernel_times = self.res.rows.iter().any(|r| r.is_measured() && r.relax_ms.is_some());
        if self.kind() == ExperimentKind::KernelCharacterization && kernel_times {
            return Vec::new();
        }
        let mut blocks: Vec<u32> = self.res.rows.iter().filter(|r| r.is_measured()).map(|r| r.block_relax).collect();
        blocks.sort_unstable();
        blocks.dedup();
        if blocks.len() < 2 {
            return Vec::new();
        }
        // Other kernels' block sizes and the sources are folded into the median.
        let lines = |rows: &[&LabResult], blocks: &[u32], label: &str, style: usize| {
            let points = (blocks.iter().enumerate())
                .filter_map(|(x, b)| {
                    let at: Vec<&LabResult> = rows.iter().copied().filter(|r| r.block_relax == *b).collect();
                    Some(Point { x, y: median_of(&at, |r| r.total_ms)?, range: None })
                })
                .collect();
            vec![Line { label: label.into(), points, style: Some(style), panel: 0 }]
        };
        let y_desc = "time, ms (median over sources and other kernels' blocks)";
        self.block_plots("time-vs-block", "Time vs relax block size", y_desc, &[], &lines, &blocks)
    }

    fn kernels(&self) -> Vec<Plot> {
        if self.kind() != ExperimentKind::KernelCharacterization {
            return Vec::new();
        }
        let timed = || self.res.rows.iter().filter(|r| r.is_measured() && r.relax_ms.is_some());
        let mut blocks: Vec<u32> = timed().flat_map(|r| [r.block_relax, r.block_minimum, r.block_update]).collect();
        blocks.sort_unstable();
        blocks.dedup();
        type Kernel = (fn(&LabResult) -> u32, fn(&LabResult) -> Option<f64>);
        let kernels: [Kernel; 3] = [
            (|r| r.block_relax, |r| r.relax_ms),
            (|r| r.block_minimum, |r| r.minimum_ms),
            (|r| r.block_update, |r| r.update_ms),
        ];
        // Each kernel (a panel) against its own block size; the other kernels' sizes are folded
        // into the median (a kernel's time barely depends on them).
        let lines = |rows: &[&LabResult], blocks: &[u32], label: &str, style: usize| {
            (kernels.iter().enumerate())
                .map(|(panel, (block, time))| Line {
                    label: label.into(),
                    style: Some(style),
                    panel,
                    points: (blocks.iter().enumerate())
                        .filter_map(|(x, b)| {
                            let at: Vec<&LabResult> = rows.iter().copied().filter(|r| block(r) == *b).collect();
                            Some(Point { x, y: median_of(&at, time)?, range: None })
                        })
                        .collect(),
                })
                .collect()
        };
        let (title, y_desc) = ("Kernel time vs its block size", "kernel time, ms (sum over iterations, median)");
        self.block_plots("kernels", title, y_desc, &["relax", "minimum", "update"], &lines, &blocks)
    }

    fn memory(&self) -> Plot {
        let mib = |b: Option<u64>| b.map(|b| b as f64 / 1048576.0);
        let host =
            self.per_graph(|rows| Some(Point { x: 0, y: median_of(rows, |r| mib(r.peak_host_bytes))?, range: None }));
        let device =
            self.per_graph(|rows| Some(Point { x: 0, y: median_of(rows, |r| mib(r.device_bytes))?, range: None }));
        let mut lines: Vec<Line> = Vec::new();
        for (h, d) in host.into_iter().zip(device) {
            lines.push(Line { label: format!("{} host peak", h.label), ..h });
            lines.push(Line { label: format!("{} device", d.label), ..d });
        }
        lines.retain(|l| !l.points.is_empty());
        // Host and device bars of one series need two colours; host bars alone keep the series'.
        if lines.iter().any(|l| l.label.ends_with(" device")) {
            lines.iter_mut().for_each(|l| l.style = None);
        }
        let title = "Memory per graph: peak host resident set and device allocation";
        Plot { bars: true, ..self.graph_plot("memory.png", title, "MiB (median over runs)", lines) }
    }

    fn gteps(&self) -> Plot {
        let lines = self.per_graph(|rows| Some(Point { x: 0, y: median_of(rows, |r| r.gteps)?, range: None }));
        let title = "Throughput per graph (best configuration of each series)";
        self.graph_plot("gteps.png", title, "GTEPS (10⁹ arcs / s, median)", lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_names_become_safe_unique_file_names() {
        assert_eq!(sanitize("tests/data/add20.graph.gz"), "tests-data-add20-graph-gz");
        assert_eq!(sanitize("fanout n=2000 d=2 w≤100 seed 1"), "fanout-n-2000-d-2-w-100-seed-1");
        let mut taken = Vec::new();
        assert_eq!(per_graph_name("kernels", "a/b", false, &mut taken), "kernels-a-b.png");
        assert_eq!(per_graph_name("kernels", "a b", false, &mut taken), "kernels-a-b-2.png");
        assert_eq!(per_graph_name("kernels", "x", true, &mut taken), "kernels.png");
    }
}
