//! Live plots of the results: time vs block size (one line per algorithm × device × cache),
//! algorithms × devices as boxes with min / median / max whiskers, and a chosen metric (GTEPS,
//! iterations, dummy-thread ratio, memory) per graph. Log scale, hover values and legend
//! toggles (click a legend entry to hide its series) on every plot.

use super::tables::graphs;
use super::{ResultsOptions, ResultsTab};
use crate::lab::LabResult;
use crate::lab::report::best_config;
use crate::lab::report::distinct;
use crate::lab::result::{median, min_median_max};
use egui_plot::{
    Bar, BarChart, BoxElem, BoxPlot, BoxSpread, GridInput, GridMark, HoverPosition, Legend, Line, Plot, PlotPoints,
    Points,
};
use std::ops::RangeInclusive;

/// The value the metrics plot shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Metric {
    #[default]
    Gteps,
    Iterations,
    DummyRatio,
    LaneUse,
    PeakHostMiB,
    DeviceMiB,
    TotalMs,
}

impl Metric {
    const ALL: [Metric; 7] = [
        Metric::Gteps,
        Metric::Iterations,
        Metric::DummyRatio,
        Metric::LaneUse,
        Metric::PeakHostMiB,
        Metric::DeviceMiB,
        Metric::TotalMs,
    ];

    fn label(self) -> &'static str {
        match self {
            Metric::Gteps => "GTEPS (10⁹ arcs/s)",
            Metric::Iterations => "iterations",
            Metric::DummyRatio => "dummy-thread ratio (%)",
            Metric::LaneUse => "lane use of the relax loop (%)",
            Metric::PeakHostMiB => "peak host memory (MiB)",
            Metric::DeviceMiB => "device memory (MiB)",
            Metric::TotalMs => "time (ms)",
        }
    }

    fn of(self, r: &LabResult) -> Option<f64> {
        match self {
            Metric::Gteps => r.gteps,
            Metric::Iterations => r.iterations.map(f64::from),
            Metric::DummyRatio => r.dummy_ratio.map(|d| d * 100.0),
            Metric::LaneUse => r.lane_use.map(|d| d * 100.0),
            Metric::PeakHostMiB => r.peak_host_bytes.map(|b| b as f64 / 1048576.0),
            Metric::DeviceMiB => r.device_bytes.map(|b| b as f64 / 1048576.0),
            Metric::TotalMs => r.total_ms,
        }
    }
}

/// y value drawn for `v` (log₁₀ when the log scale is on).
fn y(v: f64, log: bool) -> f64 {
    if log { v.max(1e-6).log10() } else { v }
}

/// `v` back from a drawn y.
fn unlog(v: f64, log: bool) -> f64 {
    if log { 10f64.powf(v) } else { v }
}

fn log_axis(mark: GridMark, _r: &RangeInclusive<f64>) -> String {
    let v = 10f64.powf(mark.value);
    if v >= 1.0 { format!("{v:.0}") } else { format!("{v:.prec$}", prec = (-mark.value).ceil().max(0.0) as usize) }
}

fn decades(input: GridInput) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    ((lo.floor() as i32)..=(hi.ceil() as i32)).map(|e| GridMark { value: e as f64, step_size: 1.0 }).collect()
}

/// Distinct colours for series, by index.
pub(super) fn color(i: usize) -> egui::Color32 {
    const C: [(u8, u8, u8); 8] = [
        (230, 97, 80),
        (80, 150, 230),
        (170, 200, 60),
        (200, 120, 220),
        (240, 180, 50),
        (60, 200, 180),
        (160, 160, 160),
        (250, 130, 170),
    ];
    let (r, g, b) = C[i % C.len()];
    egui::Color32::from_rgb(r, g, b)
}

fn base_plot<'a>(id: &str, y_label: &str, log: bool, height: f32) -> Plot<'a> {
    let mut p = Plot::new(id.to_string())
        .legend(Legend::default().follow_insertion_order(true))
        .y_axis_label(if log { format!("{y_label}, log scale") } else { y_label.to_string() })
        .height(height);
    if log {
        p = p.y_axis_formatter(log_axis).y_grid_spacer(decades);
    }
    p
}

/// Draws the plot of `tab`; returns its screen rectangle (for PNG export).
pub fn show(ui: &mut egui::Ui, tab: ResultsTab, rows: &[LabResult], opts: &mut ResultsOptions) -> Option<egui::Rect> {
    let names = graphs(rows);
    if names.is_empty() {
        ui.label("No timed runs yet: results appear here as they arrive.");
        return None;
    }
    let graph = match &opts.graph {
        Some(g) if names.contains(g) => g.clone(),
        _ => names[0].clone(),
    };
    ui.horizontal(|ui| {
        if tab != ResultsTab::Metrics {
            egui::ComboBox::from_label("graph").selected_text(&graph).show_ui(ui, |ui| {
                for g in &names {
                    if ui.selectable_label(*g == graph, g).clicked() {
                        opts.graph = Some(g.clone());
                    }
                }
            });
        } else {
            egui::ComboBox::from_label("metric").selected_text(opts.metric.label()).show_ui(ui, |ui| {
                for m in Metric::ALL {
                    ui.selectable_value(&mut opts.metric, m, m.label());
                }
            });
        }
    });
    let log = opts.log_y;
    let height = (ui.available_height() - 40.0).max(240.0);
    let of_graph: Vec<&LabResult> = rows.iter().filter(|r| r.is_measured() && r.graph == graph).collect();
    let rect = match tab {
        ResultsTab::BlockSize => block_size(ui, &of_graph, log, height),
        ResultsTab::Bars => boxes(ui, &of_graph, log, height),
        ResultsTab::Threads => super::threads::plot(ui, rows, &graph, opts, height),
        _ => metric(ui, rows, &names, opts.metric, log, height),
    };
    Some(rect)
}

/// Median ms against the relax block size, one line per series and cache preference.
fn block_size(ui: &mut egui::Ui, rows: &[&LabResult], log: bool, height: f32) -> egui::Rect {
    let keys = distinct(rows.iter().map(|r| format!("{} [{}]", r.series(), r.cache)));
    let plot = base_plot("bench-block-size", "median time (ms)", log, height)
        .x_axis_label("block size (threads per block; relax kernel when they differ)")
        .label_formatter(move |pos| match pos {
            HoverPosition::NearDataPoint { plot_name, position, .. } => {
                Some(format!("{plot_name}\nblock {:.0}\n{:.3} ms", position.x, unlog(position.y, log)))
            }
            HoverPosition::Elsewhere { .. } => None,
        });
    plot.show(ui, |pui| {
        for (ki, key) in keys.iter().enumerate() {
            let mine: Vec<&LabResult> =
                rows.iter().copied().filter(|r| &format!("{} [{}]", r.series(), r.cache) == key).collect();
            let mut pts: Vec<[f64; 2]> = distinct(mine.iter().map(|r| r.block_relax.to_string()))
                .iter()
                .filter_map(|b| {
                    let ms: Vec<f64> =
                        mine.iter().filter(|r| &r.block_relax.to_string() == b).filter_map(|r| r.total_ms).collect();
                    Some([b.parse().ok()?, y(median(&ms)?, log)])
                })
                .collect();
            pts.sort_by(|a, b| a[0].total_cmp(&b[0]));
            pui.line(Line::new(key.clone(), PlotPoints::new(pts.clone())).width(2.0).color(color(ki)));
            pui.points(Points::new(key.clone(), PlotPoints::new(pts)).radius(3.5).color(color(ki)));
        }
    })
    .response
    .rect
}

/// Algorithms on x, one box set per device: whiskers min..max, box q1..q3, line at the median
/// (each series at its best configuration).
fn boxes(ui: &mut egui::Ui, rows: &[&LabResult], log: bool, height: f32) -> egui::Rect {
    let algos = distinct(rows.iter().map(|r| r.algorithm.clone()));
    let devices = distinct(rows.iter().map(|r| r.device.clone()));
    let width = 0.8 / devices.len().max(1) as f64;
    let labels = algos.clone();
    let plot = base_plot("bench-boxes", "time per run (ms)", log, height)
        .x_axis_formatter(move |m, _| {
            let i = m.value.round();
            if (m.value - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .x_grid_spacer(|input| {
            let (lo, hi) = input.bounds;
            ((lo.ceil() as i64).max(0)..=(hi.floor() as i64))
                .map(|i| GridMark { value: i as f64, step_size: 1.0 })
                .collect()
        });
    plot.show(ui, |pui| {
        for (di, dev) in devices.iter().enumerate() {
            let mut elems = Vec::new();
            for (ai, algo) in algos.iter().enumerate() {
                let cell: Vec<&LabResult> =
                    rows.iter().copied().filter(|r| &r.algorithm == algo && &r.device == dev).collect();
                let best = best_config(&cell);
                let mut ms: Vec<f64> = best.iter().filter_map(|r| r.total_ms).collect();
                let Some((lo, med, hi)) = min_median_max(&ms) else { continue };
                ms.sort_by(f64::total_cmp);
                let q = |f: f64| ms[((ms.len() - 1) as f64 * f).round() as usize];
                let x = ai as f64 - 0.4 + width * (di as f64 + 0.5);
                let spread = BoxSpread::new(y(lo, log), y(q(0.25), log), y(med, log), y(q(0.75), log), y(hi, log));
                let name =
                    format!("{algo} @ {dev}: min {lo:.3} / median {med:.3} / max {hi:.3} ms ({} runs)", ms.len());
                elems.push(BoxElem::new(x, spread).box_width(width * 0.9).whisker_width(width * 0.5).name(name));
            }
            pui.box_plot(
                BoxPlot::new(dev.clone(), elems).color(color(di)).element_formatter(Box::new(|e, _| e.name.clone())),
            );
        }
    })
    .response
    .rect
}

/// The chosen metric per graph (x) and series (bars side by side), medians over the runs.
fn metric(ui: &mut egui::Ui, rows: &[LabResult], graphs: &[String], m: Metric, log: bool, height: f32) -> egui::Rect {
    let series = distinct(rows.iter().filter(|r| r.is_measured()).map(LabResult::series));
    let width = 0.8 / series.len().max(1) as f64;
    let labels: Vec<String> = graphs.iter().map(|g| g.chars().take(24).collect()).collect();
    let plot = base_plot("bench-metric", m.label(), log, height).x_axis_formatter(move |mark, _| {
        let i = mark.value.round();
        if (mark.value - i).abs() < 1e-6 && i >= 0.0 {
            labels.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    });
    plot.show(ui, |pui| {
        for (si, s) in series.iter().enumerate() {
            let bars: Vec<Bar> = graphs
                .iter()
                .enumerate()
                .filter_map(|(gi, g)| {
                    let v: Vec<f64> = rows
                        .iter()
                        .filter(|r| r.is_measured() && &r.graph == g && &r.series() == s)
                        .filter_map(|r| m.of(r))
                        .collect();
                    let v = median(&v)?;
                    let x = gi as f64 - 0.4 + width * (si as f64 + 0.5);
                    Some(Bar::new(x, y(v, log)).width(width * 0.9).name(format!("{s} on {g}: {v:.4}")))
                })
                .collect();
            pui.bar_chart(
                BarChart::new(s.clone(), bars).color(color(si)).element_formatter(Box::new(|b, _| b.name.clone())),
            );
        }
    })
    .response
    .rect
}
