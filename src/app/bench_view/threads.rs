//! Speedup vs threads (seed 001 Figs. 4–6): for the chosen graph, one line per algorithm that
//! ran with several CPU thread counts, y = median over sources of baseline ms / ms, beside the
//! ideal y = T and the paper's best (helper threads, 1.46). Against both sequential baselines
//! when both ran: the chosen one solid, the other (`dijkstra`'s radix heap or seed 001's own
//! binary heap, `dijkstra-bheap`) dashed — the paper divides by a binary-heap Dijkstra, ours is
//! 1.4–2× faster, and a scheme can beat one and not the other.

use super::ResultsOptions;
use crate::lab::LabResult;
use crate::lab::report::distinct;
use crate::lab::report::threads::{BASELINES, speedup_at, threaded_algorithms};
use egui_plot::{HLine, HoverPosition, Legend, Line, LineStyle, Plot, PlotPoints, Points};

/// Seed 001's best speedup (helper threads, Table 3).
pub const PAPER_HELPER_BEST: f64 = 1.46;

/// The speedups' baseline: the user's pick in the Speedups tab, else sequential `dijkstra @
/// cpu`, else the first series with one thread.
pub fn baseline(rows: &[LabResult], opts: &ResultsOptions) -> Option<String> {
    let all = distinct(rows.iter().filter(|r| r.is_measured()).map(LabResult::series));
    opts.baseline
        .clone()
        .filter(|b| all.contains(b))
        .or_else(|| all.iter().find(|s| s.as_str() == "dijkstra @ cpu").cloned())
        .or_else(|| rows.iter().find(|r| r.is_measured() && r.threads == Some(1)).map(LabResult::series))
}

/// The other known baseline beside `base`, when it ran on `graph`.
pub fn second_baseline(rows: &[LabResult], graph: &str, base: &str) -> Option<String> {
    BASELINES
        .iter()
        .find(|b| **b != base && rows.iter().any(|r| r.is_measured() && r.graph == graph && r.series() == **b))
        .map(|b| (*b).to_string())
}

/// Points (threads, speedup) of each algorithm with two thread counts or more on `graph`.
pub fn curves(rows: &[LabResult], graph: &str, base: &str) -> Vec<(String, Vec<[f64; 2]>)> {
    threaded_algorithms(rows)
        .into_iter()
        .map(|(a, counts)| {
            let pts = counts
                .iter()
                .filter_map(|&t| speedup_at(rows, graph, base, &a, t).map(|x| [f64::from(t), x]))
                .collect();
            (a, pts)
        })
        .filter(|(_, p): &(String, Vec<[f64; 2]>)| !p.is_empty())
        .collect()
}

/// Draws the plot; its screen rectangle.
pub fn plot(ui: &mut egui::Ui, rows: &[LabResult], graph: &str, opts: &ResultsOptions, height: f32) -> egui::Rect {
    let Some(base) = baseline(rows, opts) else {
        return ui.label("No baseline yet: speedups appear once a one-thread run has finished.").rect;
    };
    let curves = curves(rows, graph, &base);
    let second = second_baseline(rows, graph, &base);
    let second_curves = second.as_deref().map(|b| self::curves(rows, graph, b)).unwrap_or_default();
    let also = second.as_deref().map_or(String::new(), |b| format!("; dashed: over {b}"));
    ui.label(
        egui::RichText::new(format!(
            "speedup over {base} (pick another baseline in the Speedups tab){also}; > 1 = faster; \
             algorithms run with two thread counts or more"
        ))
        .small()
        .weak(),
    );
    if curves.is_empty() {
        return ui.label("No algorithm has run with two thread counts on this graph yet.").rect;
    }
    let max_t = curves.iter().flat_map(|(_, p)| p.iter().map(|q| q[0])).fold(1.0, f64::max);
    Plot::new("bench-threads")
        .legend(Legend::default().follow_insertion_order(true))
        .x_axis_label("CPU threads T")
        .y_axis_label("speedup over the baseline")
        .height(height)
        .label_formatter(|pos| match pos {
            HoverPosition::NearDataPoint { plot_name, position, .. } => {
                Some(format!("{plot_name}\n{:.0} threads\n{:.3}x", position.x, position.y))
            }
            HoverPosition::Elsewhere { .. } => None,
        })
        .show(ui, |pui| {
            pui.line(
                Line::new("ideal (speedup = T)", PlotPoints::new(vec![[1.0, 1.0], [max_t, max_t]]))
                    .style(LineStyle::dashed_loose())
                    .color(egui::Color32::GRAY),
            );
            pui.hline(
                HLine::new(format!("seed 001 helper threads, best ({PAPER_HELPER_BEST})"), PAPER_HELPER_BEST)
                    .style(LineStyle::dotted_loose())
                    .color(egui::Color32::from_rgb(240, 180, 50)),
            );
            for (i, (name, pts)) in curves.iter().enumerate() {
                let c = super::plots::color(i);
                pui.line(Line::new(name.clone(), PlotPoints::new(pts.clone())).width(2.0).color(c));
                pui.points(Points::new(name.clone(), PlotPoints::new(pts.clone())).radius(3.5).color(c));
                if let (Some(b), Some((_, p2))) = (&second, second_curves.iter().find(|(n, _)| n == name)) {
                    let label = format!("{name} / {b}");
                    pui.line(Line::new(label, PlotPoints::new(p2.clone())).style(LineStyle::dashed_dense()).color(c));
                }
            }
        })
        .response
        .rect
}
