//! Per-iteration plots: |F| / |U| / reached (log), Δ with Martín's and Crauser's thresholds,
//! the dummy-thread ratio, relaxations (log) — one plot per [`PlotGroup`], each showing the
//! series of the run's algorithm that belong to it. A vertical line marks the cursor; clicking or
//! dragging in a plot moves the cursor there. Solvers with threads of their own (seed 001) add
//! stacked bars of where each thread's time went.

use crate::algo::{PlotGroup, ThreadTime};
use crate::app::command::Command;
use crate::app::palette;
use crate::app::series::PlotSeries;
use crate::app::state::AppState;
use egui::Color32;
use egui_plot::{Bar, BarChart, Corner, GridInput, GridMark, Legend, Line, Plot, PlotPoints, VLine};
use std::ops::RangeInclusive;

struct PlotSpec {
    id: &'static str,
    title: &'static str,
    group: PlotGroup,
    log: bool,
    /// Where the legend covers the least data.
    legend: Corner,
    /// Colours of the plot's lines in declaration order.
    colors: &'static [Color32],
}

/// The plots, one per [`PlotGroup`]; which lines each shows comes from the algorithm's series.
const PLOTS: [PlotSpec; 4] = [
    PlotSpec {
        id: "plot-sets",
        group: PlotGroup::Sets,
        legend: Corner::RightTop,
        title: "Vertex sets per iteration (log scale)",
        log: true,
        colors: &[palette::PLOT_FRONTIER, palette::PLOT_UNSETTLED, palette::PLOT_REACHED, palette::PLOT_MARTIN],
    },
    PlotSpec {
        id: "plot-thresholds",
        group: PlotGroup::Thresholds,
        legend: Corner::LeftTop,
        title: "Threshold Δ: used, Martín's min δ, Crauser's min δ+ω",
        log: false,
        colors: &[palette::PLOT_DELTA, palette::PLOT_MARTIN, palette::PLOT_CRAUSER, palette::PLOT_REACHED],
    },
    PlotSpec {
        id: "plot-dummy",
        group: PlotGroup::Threads,
        legend: Corner::RightBottom,
        title: "Threads: dummy-thread ratio, lane use, time waiting",
        log: false,
        colors: &[palette::PLOT_FRONTIER, palette::PLOT_MARTIN],
    },
    PlotSpec {
        id: "plot-relax",
        group: PlotGroup::Work,
        legend: Corner::RightTop,
        title: "Relaxations (log scale)",
        log: true,
        colors: &[palette::PLOT_MARTIN, palette::PLOT_REACHED, palette::PLOT_CRAUSER, palette::PLOT_FRONTIER],
    },
];

pub fn plots(ui: &mut egui::Ui, state: &AppState, series: &mut PlotSeries, cmds: &mut Vec<Command>) {
    let Some(trace) = &state.trace else { return };
    series.update(state.run_id, state.settings.algorithm.algorithm, trace.records());
    let per_point = series.bucket_size();
    let heading = if per_point > 1 {
        format!("Per iteration ({per_point} iterations per point, min/max)")
    } else {
        "Per iteration".to_string()
    };
    ui.strong(heading).on_hover_text("Click or drag in a plot to move to that iteration");
    let cursor = trace.pos() as f64;
    let len = trace.len();
    let title_h = ui.text_style_height(&egui::TextStyle::Small) + ui.spacing().item_spacing.y;
    // Only the plots the algorithm has series for (Bellman-Ford has no threshold Δ).
    let shown: Vec<&PlotSpec> =
        PLOTS.iter().filter(|p| series.series().iter().any(|s| s.spec.group == p.group)).collect();
    // Per-thread bars (seed 001's schemes): one readable bar per thread, taken off the top.
    let threads = state.thread_times.len() > 1;
    let bars_h = if threads { (12.0 * state.thread_times.len() as f32 + 18.0).min(240.0) } else { 0.0 };
    // A title line and a plot, each followed by item spacing (the title's is in title_h; the
    // plots alone were laid out with one spacing less, kept so their look does not change).
    let pane = title_h + if threads { 2.0 } else { 1.0 } * ui.spacing().item_spacing.y;
    let left = ui.available_height() - if threads { bars_h + pane } else { 0.0 };
    let min_h = if threads { 40.0 } else { 70.0 };
    let each = ((left / shown.len().max(1) as f32) - pane).max(min_h);
    let link = egui::Id::unique("iteration-plots");
    for spec in shown {
        let mut title = plot_title(spec, series);
        if spec.id == "plot-dummy" && series.modelled {
            title.push_str(" (modelled)");
        }
        ui.label(egui::RichText::new(title).small());
        let mut plot = Plot::new(spec.id)
            .height(each)
            .link_axis(link, [true, false])
            .link_cursor(link, [true, false])
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .allow_boxed_zoom(false)
            .allow_double_click_reset(false)
            .include_x(0.0)
            // A little room on the right so the last x label is not cut at the edge.
            .include_x(len.max(1) as f64 * 1.03)
            .include_y(0.0)
            .legend(
                Legend::default()
                    .position(spec.legend)
                    .text_style(egui::TextStyle::Small)
                    .background_alpha(0.6)
                    .follow_insertion_order(true),
            )
            // One y-axis width for every plot (labels are compact, so none grows past it): the
            // plots then share their x mapping and the linked cursor sits at one x in all.
            .y_axis_min_width(Y_AXIS_W)
            .x_axis_formatter(|m, _| compact(m.value));
        plot = plot.x_grid_spacer(nice_steps(10.0, 1.0));
        if spec.log {
            plot = plot.y_axis_formatter(log_label).y_grid_spacer(decades).label_formatter(log_hover);
        } else {
            let min_step = if spec.id == "plot-dummy" { 0.1 } else { 1.0 };
            plot = plot
                .y_grid_spacer(nice_steps(4.0, min_step))
                .y_axis_formatter(|m, _| compact(m.value))
                .label_formatter(linear_hover);
        }
        if spec.id == "plot-dummy" {
            plot = plot.include_y(1.0).y_axis_formatter(|m, _| format!("{:.0}%", m.value * 100.0));
        }
        let response = plot.show(ui, |pui| {
            let lines = series.series().iter().filter(|s| s.spec.group == spec.group);
            for (k, s) in lines.enumerate() {
                let pts = series.points(s.spec.key);
                if !pts.is_empty() {
                    // Δ used coincides with one of the thresholds: drawn wide underneath them.
                    let width = if s.spec.key == "delta" { 5.0 } else { 1.5 };
                    let color = spec.colors.get(k).copied().unwrap_or(palette::PLOT_CURSOR);
                    pui.line(Line::new(s.spec.label, PlotPoints::new(pts)).color(color).width(width));
                }
            }
            pui.vline(VLine::new("", cursor).color(palette::PLOT_CURSOR).width(1.5));
            let r = pui.response();
            (r.clicked() || r.dragged()).then(|| pui.pointer_coordinate()).flatten()
        });
        if let Some(p) = response.inner {
            cmds.push(Command::Seek(p.x.round().clamp(0.0, len as f64) as usize));
        }
    }
    if threads {
        thread_bars(ui, &state.thread_times, bars_h);
        ui.collapsing(egui::RichText::new("Per-thread timeline").small(), |ui| {
            super::thread_timeline::timeline(ui, state.run_id, &state.thread_times, bars_h);
        });
    }
}

/// Seed 001's question, where the threads' time goes: one stacked horizontal bar per thread
/// (work, barriers, waiting for the next iteration or for work to steal, lock waits; ms since the run started, as
/// of the solver's last step).
fn thread_bars(ui: &mut egui::Ui, times: &[ThreadTime], height: f32) {
    let (barrier, lock) = ThreadTime::shares(times).unwrap_or((0.0, 0.0));
    let small = |t: &str, c: Color32| egui::RichText::new(t).small().color(c);
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        ui.label(egui::RichText::new("Per thread since the start (ms):").small());
        ui.label(small("work", palette::PLOT_REACHED));
        ui.label(small(&format!("barriers / idle {:.0} %", barrier * 100.0), palette::PLOT_CRAUSER));
        ui.label(small(&format!("lock waits {:.0} %", lock * 100.0), palette::PLOT_MARTIN));
        ui.label(egui::RichText::new("of all thread time").small());
    })
    .response
    .on_hover_text(
        "Summed over the iterations the solver has run (up to its last step, not the cursor). \
         Helper threads count waiting for the next iteration as barrier time. Δ-stepping run to \
         the end on several threads of a road network has no barriers (asynchronous buckets): \
         there it is the time a thread found no work to take.",
    );
    let bars = |f: fn(&ThreadTime) -> f64| {
        times.iter().enumerate().map(|(i, t)| Bar::new(i as f64, f(t)).width(0.7)).collect::<Vec<_>>()
    };
    let work = BarChart::new("work", bars(|t| t.work_ms)).horizontal().color(palette::PLOT_REACHED);
    let wait = BarChart::new("barrier / idle", bars(|t| t.barrier_ms))
        .horizontal()
        .color(palette::PLOT_CRAUSER)
        .stack_on(&[&work]);
    let locks = BarChart::new("lock wait", bars(|t| t.lock_ms))
        .horizontal()
        .color(palette::PLOT_MARTIN)
        .stack_on(&[&work, &wait]);
    let n = times.len();
    thread_rows_plot("plot-thread-time", height, n).show(ui, |pui| {
        pui.bar_chart(work);
        pui.bar_chart(wait);
        pui.bar_chart(locks);
    });
}

/// A fixed plot of one horizontal bar row per thread (T0 at the bottom), x from 0: the
/// per-thread totals here and the per-thread timeline (`thread_timeline.rs`) share it.
pub(super) fn thread_rows_plot(id: &str, height: f32, n: usize) -> Plot<'static> {
    Plot::new(id)
        .height(height)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .include_x(0.0)
        .include_y(-0.5)
        .include_y(n as f64 - 0.5)
        .show_grid([true, false])
        .y_axis_min_width(36.0)
        .y_axis_formatter(move |m, _| {
            let i = m.value.round();
            if (m.value - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n { format!("T{i:.0}") } else { String::new() }
        })
        .y_grid_spacer(move |_| (0..n).map(|i| GridMark { value: i as f64, step_size: 1.0 }).collect())
}

/// Axis label of a log₁₀ value: 10^v as 1, 10, 100, 1k, …, 1M.
fn log_label(mark: GridMark, _range: &RangeInclusive<f64>) -> String {
    let v = 10f64.powf(mark.value).round();
    match v {
        v if v >= 1e9 => format!("{:.0}G", v / 1e9),
        v if v >= 1e6 => format!("{:.0}M", v / 1e6),
        v if v >= 1e3 => format!("{:.0}k", v / 1e3),
        v if v >= 1.0 => format!("{v:.0}"),
        _ => String::new(),
    }
}

/// Grid lines of a linear axis at 1, 2 or 5 × 10^k, at least `spread` × the minimal grid spacing
/// apart so that their labels fit, and at least `min_step` apart (iterations are integers).
fn nice_steps(spread: f64, min_step: f64) -> impl Fn(GridInput) -> Vec<GridMark> {
    move |input| {
        let (lo, hi) = input.bounds;
        let want = (spread * input.base_step_size).max(min_step);
        let decade = 10f64.powf(want.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0].into_iter().map(|f| f * decade).find(|s| *s >= want).unwrap_or(10.0 * decade);
        let (first, last) = ((lo / step).ceil() as i64, (hi / step).floor() as i64);
        if last < first || last - first > 1000 {
            return Vec::new();
        }
        (first..=last).map(|i| GridMark { value: i as f64 * step, step_size: step }).collect()
    }
}

/// Grid lines of a log₁₀ axis: one per decade, or every k-th decade when they would be too close
/// for their labels.
fn decades(input: GridInput) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    let step = (3.0 * input.base_step_size).ceil().max(1.0) as i32;
    let (lo, hi) = (lo.ceil().max(0.0) as i32, hi.floor().min(18.0) as i32);
    (lo..=hi).filter(|e| e % step == 0).map(|e| GridMark { value: e as f64, step_size: step as f64 }).collect()
}

/// Width of every plot's y axis, points.
const Y_AXIS_W: f32 = 44.0;

/// The plot's title from the series it shows (a Δ-stepping run has no Martín or Crauser
/// threshold, seed 001's schemes no dummy threads), or its fixed title.
fn plot_title(spec: &PlotSpec, series: &PlotSeries) -> String {
    let labels: Vec<&str> =
        series.series().iter().filter(|s| s.spec.group == spec.group).map(|s| s.spec.label).collect();
    match spec.group {
        PlotGroup::Thresholds => format!("Thresholds: {}", labels.join(", ")),
        PlotGroup::Threads => format!("Threads: {}", labels.join(", ")),
        _ => spec.title.to_string(),
    }
}

/// An axis label of at most five characters: 950, 9500, 95k, 950k, 9.5M, 0.25.
fn compact(v: f64) -> String {
    let trim = |t: String, unit: &str| format!("{}{unit}", t.strip_suffix(".0").unwrap_or(&t));
    match v.abs() {
        a if a >= 1e9 => trim(format!("{:.1}", v / 1e9), "G"),
        a if a >= 1e6 => trim(format!("{:.1}", v / 1e6), "M"),
        a if a >= 1e4 => format!("{:.0}k", v / 1e3),
        a if a >= 1.0 || v.fract() == 0.0 => format!("{v:.0}"),
        _ => format!("{v:.2}"),
    }
}

/// The iteration a hover is at: rounded as a click rounds it ([`Command::Seek`]), so the text
/// names the iteration whose record a click shows.
fn hover_iteration(p: &egui_plot::HoverPosition<'_>) -> f64 {
    match p {
        egui_plot::HoverPosition::NearDataPoint { position, .. } | egui_plot::HoverPosition::Elsewhere { position } => {
            position.x.round().max(0.0)
        }
    }
}

fn log_hover(p: &egui_plot::HoverPosition<'_>) -> Option<String> {
    let it = hover_iteration(p);
    Some(match p {
        egui_plot::HoverPosition::NearDataPoint { plot_name, position, .. } => {
            format!("{plot_name}\niteration {it:.0}: {:.0}", 10f64.powf(position.y))
        }
        egui_plot::HoverPosition::Elsewhere { .. } => format!("iteration {it:.0}"),
    })
}

fn linear_hover(p: &egui_plot::HoverPosition<'_>) -> Option<String> {
    let it = hover_iteration(p);
    Some(match p {
        egui_plot::HoverPosition::NearDataPoint { plot_name, position, .. } => {
            format!(
                "{plot_name}\niteration {it:.0}: {}",
                if position.y.fract() == 0.0 { format!("{:.0}", position.y) } else { format!("{:.3}", position.y) }
            )
        }
        egui_plot::HoverPosition::Elsewhere { .. } => format!("iteration {it:.0}"),
    })
}
