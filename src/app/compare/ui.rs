//! Drawing the compare tab: the lanes' settings, one set of controls (buttons and the step
//! keys), one legend for the statuses, "differs" and the lanes' colours, the graph views side by
//! side (zoom and pan linked unless switched off), the per-iteration plots on a log axis with
//! one colour per lane and its cursor, and a summary row per lane.

use super::{CompareView, LaneSpec, Lockstep, MAX_LANES};
use crate::algo::{AlgoChoice, IterationRecord};
use crate::app::graph_view::{ColorMode, ViewInput};
use crate::app::palette;
use crate::device::{DeviceId, DeviceInfo};
use crate::graph::{Graph, INF, VertexId};
use egui::Color32;
use egui_plot::{Line, Plot, PlotPoints, VLine};
use std::sync::Arc;

/// A plot's title and the per-iteration value it draws (from the record and the one before).
type Series = (&'static str, fn(&IterationRecord, Option<&IterationRecord>) -> f64);

/// Lane names.
pub const NAMES: [&str; MAX_LANES] = ["A", "B", "C", "D"];
/// One colour per lane: its name, its lines and its cursor in every plot.
pub const LANE_COLORS: [Color32; MAX_LANES] = [
    Color32::from_rgb(60, 110, 230),
    Color32::from_rgb(230, 120, 20),
    Color32::from_rgb(30, 160, 70),
    Color32::from_rgb(170, 70, 200),
];
/// Most points per line (long runs are thinned).
const MAX_POINTS: usize = 2000;
/// What "differs" means, for the legend's hover text.
const DIFFERS: &str = "settled in this lane and not in lane A (or the other way round), or settled in both \
                       with a different δ. Stepped by settled level, the first part counts only up to the common \
                       level (past it a lane may have settled far ahead, shown in its own colours); a different δ \
                       always counts.";

/// The plots: per-iteration counts, each on a log₁₀ axis so lanes orders of magnitude apart
/// stay readable.
const SERIES: [Series; 3] = [
    ("frontier |F| per iteration", |r, _| r.frontier as f64),
    ("vertices settled per iteration", |r, prev| r.settled.saturating_sub(prev.map_or(1, |p| p.settled)) as f64),
    ("relaxations per iteration", |r, _| r.relax_attempted as f64),
];

impl CompareView {
    /// The whole tab. `graph`/`source`: the Step tab's graph and source (what *Start* uses).
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        graph: Option<&Arc<Graph>>,
        source: VertexId,
        devices: Option<&'static [DeviceInfo]>,
    ) {
        self.poll();
        if self.is_busy() {
            ui.ctx().request_repaint();
        }
        if let Some(lesson) = self.lesson {
            ui.group(|ui| {
                ui.strong(lesson.title);
                ui.label(lesson.text);
                for line in self.race_report() {
                    ui.label(egui::RichText::new(line).strong());
                }
            });
        }
        for m in &self.messages {
            ui.colored_label(ui.visuals().error_fg_color, m);
        }
        self.setup(ui, graph, source, devices);
        ui.separator();
        if self.lanes.is_empty() {
            match &self.pending {
                Some((job, _, _)) => {
                    ui.add(egui::ProgressBar::new(job.progress()).text(job.name()).show_percentage());
                }
                None => {
                    ui.label(
                        "Choose the lanes and press Start: every lane runs on the graph and source of the Step tab.",
                    );
                }
            }
            return;
        }
        self.controls(ui);
        self.summary(ui);
        self.legend(ui);
        let plots_h = 150.0;
        let avail = ui.available_size();
        let view_h = (avail.y - plots_h - 24.0).max(160.0);
        let n = self.lanes.len();
        ui.horizontal(|ui| {
            let w = (avail.x - 8.0 * n as f32) / n as f32;
            for ((i, l), view) in self.lanes.iter().enumerate().zip(self.views.iter_mut()) {
                ui.allocate_ui_with_layout(egui::vec2(w, view_h), egui::Layout::top_down(egui::Align::Min), |ui| {
                    ui.set_min_size(egui::vec2(w, view_h));
                    ui.colored_label(
                        LANE_COLORS[i],
                        format!("{}: {} on {}", NAMES[i], l.spec.algorithm, l.spec.device),
                    );
                    let input = ViewInput {
                        trace: l.trace.as_ref(),
                        state_version: l.version,
                        wrong: (i > 0).then_some(l.differs.as_slice()),
                        color_mode: ColorMode::Status,
                        live: None,
                    };
                    view.ui(ui, &input);
                });
            }
        });
        self.link_views();
        self.plots(ui);
    }

    /// Linked zoom and pan: the view whose camera moved this frame gives it to the others.
    fn link_views(&mut self) {
        let n = self.lanes.len().min(self.views.len());
        if !self.linked || n < 2 {
            self.link_camera = None;
            return;
        }
        let moved = (0..n).map(|i| self.views[i].camera()).find(|c| Some(*c) != self.link_camera);
        if let Some(c) = moved {
            self.link_camera = Some(c);
            for v in &mut self.views[..n] {
                v.set_camera(c);
            }
        }
    }

    fn setup(
        &mut self,
        ui: &mut egui::Ui,
        graph: Option<&Arc<Graph>>,
        source: VertexId,
        devices: Option<&'static [DeviceInfo]>,
    ) {
        let mut remove = None;
        egui::Grid::new("compare-lanes").num_columns(5).show(ui, |ui| {
            for (i, spec) in self.specs.iter_mut().enumerate() {
                ui.colored_label(LANE_COLORS[i], egui::RichText::new(NAMES[i]).strong());
                let label = ui.label("algorithm");
                ui.add_sized([220.0, 20.0], egui::TextEdit::singleline(&mut spec.algorithm)).labelled_by(label.id);
                device_combo(ui, i, &mut spec.device, devices);
                let label = ui.label("block");
                ui.add(egui::DragValue::new(&mut spec.block).range(1..=1024)).labelled_by(label.id);
                if ui.add_enabled(i >= 2, egui::Button::new("Remove")).clicked() {
                    remove = Some(i);
                }
                ui.end_row();
            }
        });
        if let Some(i) = remove {
            self.specs.remove(i);
        }
        ui.horizontal(|ui| {
            if ui.add_enabled(self.specs.len() < MAX_LANES, egui::Button::new("Add lane")).clicked() {
                let last = self.specs.last().cloned().unwrap_or_else(|| LaneSpec::new("dijkstra", DeviceId::Cpu));
                self.specs.push(last);
            }
            let start = ui
                .add_enabled(graph.is_some() && self.pending.is_none(), egui::Button::new("Start"))
                .on_hover_text("start the lanes on the Step tab's graph and source");
            if start.clicked()
                && let Some(g) = graph
            {
                // The lesson's text speaks of its own graph and lanes, not of these.
                self.lesson = None;
                self.start(g, source, ui.ctx());
            }
            if let Some(g) = graph {
                ui.label(format!("(Step tab: {} from vertex {})", g.name, g.labels().label(source)));
            }
            if let Some(g) = self.graph.clone() {
                ui.separator();
                let restart = ui
                    .add_enabled(self.pending.is_none(), egui::Button::new("Restart"))
                    .on_hover_text("start the lanes again on this tab's graph and source");
                if restart.clicked() {
                    self.restart(ui.ctx());
                }
                ui.label(format!("lanes on {} from vertex {}", g.name, g.labels().label(self.source)));
            }
        });
    }

    fn controls(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let busy = self.is_busy();
            if ui.add_enabled(!busy && self.at > 0, egui::Button::new("Back")).on_hover_text("←").clicked() {
                self.step_back();
            }
            if ui
                .add_enabled(!busy && !self.at_end(), egui::Button::new("Step all"))
                .on_hover_text("→ or Space")
                .clicked()
            {
                self.step();
            }
            if ui
                .add_enabled(!busy && !self.at_end(), egui::Button::new("Run all to end"))
                .on_hover_text("End")
                .clicked()
            {
                self.run_to_end();
            }
            if ui.add_enabled(busy, egui::Button::new("Stop")).on_hover_text("Esc: end the lanes' run here").clicked() {
                self.stop();
            }
            ui.separator();
            let before = self.lockstep;
            ui.label("lockstep:");
            ui.selectable_value(&mut self.lockstep, Lockstep::Iteration, "by iteration")
                .on_hover_text("every lane one iteration per step");
            ui.selectable_value(&mut self.lockstep, Lockstep::Level, "by settled level").on_hover_text(
                "the lane with the lowest settled level one iteration, the others until every vertex up to that \
                 distance is settled in them too",
            );
            if self.lockstep != before {
                self.mark_differences();
            }
            if self.lockstep == Lockstep::Level {
                let common = self.lanes.iter().filter(|l| l.error.is_none()).map(super::Lane::level).min();
                if let Some(d) = common {
                    let d = if d == INF { "all".to_string() } else { d.to_string() };
                    ui.label(format!("every lane has settled every vertex up to d = {d}"));
                }
            }
            ui.separator();
            ui.checkbox(&mut self.linked, "link zoom and pan")
                .on_hover_text("the graph views and the plots' iteration axes move together");
            if busy {
                ui.spinner();
            }
        });
    }

    /// One legend for the whole tab: vertex statuses, "differs", and the lanes' colours.
    fn legend(&self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            for (status, name, meaning) in palette::LEGEND {
                swatch(ui, palette::status_color(status));
                ui.label(name).on_hover_text(meaning);
            }
            swatch(ui, palette::SOURCE);
            ui.label("source");
            swatch(ui, palette::WRONG);
            ui.label("differs from lane A").on_hover_text(DIFFERS);
            ui.separator();
            for (i, l) in self.lanes.iter().enumerate() {
                swatch(ui, LANE_COLORS[i]);
                ui.label(format!("{} {}", NAMES[i], l.spec.algorithm));
            }
        });
    }

    /// One row per lane, every column at the lane's cursor (so Back moves them all).
    fn summary(&self, ui: &mut egui::Ui) {
        let helper = self.lanes.iter().any(|l| series_index(l, "helper_lowered").is_some());
        egui::Grid::new("compare-summary").striped(true).show(ui, |ui| {
            let mut heads = vec![
                ("lane", ""),
                ("device", ""),
                ("iteration", "iterations done at the cursor, of those recorded"),
                ("settled", "vertices settled at the cursor"),
                ("settled up to d", "every vertex at distance ≤ d is settled in this lane (the lockstep level)"),
                ("relaxations", "arcs relaxed so far (from a settled vertex to an unsettled one)"),
                ("delta lowered", "vertex distances δ lowered so far"),
                ("dummy threads", "relax kernel threads without work so far, of those launched (1 − working/launched)"),
                (
                    "warps: no work / mixed / all work",
                    "relax kernel warps so far, by how many of their 32 threads work",
                ),
                ("kernel ms", "time in the kernels (relax, minimum, update) so far"),
            ];
            if helper {
                heads.push(("helper lowered / wasted", "δ lowered by helper threads; wasted: lowered again later"));
            }
            heads.push(("differs from A", DIFFERS));
            for (h, tip) in heads {
                let r = ui.strong(h);
                if !tip.is_empty() {
                    r.on_hover_text(tip);
                }
            }
            ui.end_row();
            for (i, l) in self.lanes.iter().enumerate() {
                ui.colored_label(LANE_COLORS[i], format!("{} {}", NAMES[i], l.spec.algorithm));
                // The adapter's full description is long; its first part names it.
                let short = l.device_name.split(" · ").next().unwrap_or_default();
                let short = short.split(" (").next().unwrap_or_default();
                ui.label(short).on_hover_text(&l.device_name);
                let Some(t) = &l.trace else {
                    ui.end_row();
                    continue;
                };
                let upto = &t.records()[..t.pos()];
                let end = if l.finished { "finished" } else { "so far" };
                ui.label(format!("{} of {} {end}", t.pos(), t.len()));
                ui.label(upto.last().map_or(1, |r| r.settled).to_string());
                ui.label(match l.level() {
                    INF => "all".to_string(),
                    d => d.to_string(),
                });
                ui.label(upto.iter().map(|r| r.relax_attempted).sum::<u64>().to_string());
                ui.label(upto.iter().map(|r| r.relax_improved).sum::<u64>().to_string());
                let (threads, warps) = thread_totals(upto);
                ui.label(threads.map_or("-".into(), |[launched, working]| {
                    let ratio = if launched == 0 { 0.0 } else { 1.0 - working as f64 / launched as f64 };
                    format!("{:.2} % ({working} of {launched} work)", 100.0 * ratio)
                }));
                ui.label(warps.map_or("-".into(), |[d, m, f]| format!("{d} / {m} / {f}")));
                let ms: f64 = upto.iter().map(|r| r.times.kernels_ms()).sum();
                ui.label(if upto.is_empty() { "-".into() } else { format!("{:.2}", ms.max(0.0)) });
                if helper {
                    let sum =
                        |key| series_index(l, key).map(|k| upto.iter().filter_map(|r| r.values.get(k)).sum::<f64>());
                    ui.label(match (sum("helper_lowered"), sum("helper_wasted")) {
                        (Some(a), Some(b)) => format!("{a} / {b}"),
                        _ => "-".into(),
                    });
                }
                match (&l.error, i) {
                    (Some(e), _) => ui.colored_label(ui.visuals().error_fg_color, e),
                    (None, 0) => ui.label("-"),
                    (None, _) => ui.label(format!("{} vertices", l.differs.len())),
                };
                ui.end_row();
            }
        });
    }

    /// Per-iteration counts, one line per lane in its colour, its cursor as a vertical line of
    /// the same colour; log₁₀(1 + count) on the y axis.
    fn plots(&self, ui: &mut egui::Ui) {
        let k = SERIES.len() as f32;
        let w = (ui.available_width() - 12.0 * k) / k;
        ui.horizontal(|ui| {
            for (title, get) in SERIES {
                ui.vertical(|ui| {
                    ui.label(format!("{title} (log axis)"));
                    let mut plot = Plot::new(("compare-plot", title))
                        .width(w)
                        .height(120.0)
                        .allow_scroll(false)
                        .include_x(0.0)
                        .include_x(1.0)
                        .include_y(0.0)
                        .include_y(1.0)
                        .x_axis_label("iteration")
                        .y_axis_formatter(|mark, _| log_label(mark.value))
                        .y_grid_spacer(decades)
                        .label_formatter(hover);
                    if self.linked {
                        let id = egui::Id::unique("compare-x");
                        plot = plot.link_axis(id, [true, false]).link_cursor(id, [true, false]);
                    }
                    plot.show(ui, |p| {
                        for (i, l) in self.lanes.iter().enumerate() {
                            let Some(t) = &l.trace else { continue };
                            let recs = t.records();
                            let stride = recs.len().div_ceil(MAX_POINTS).max(1);
                            let pts: PlotPoints = (0..recs.len())
                                .step_by(stride)
                                .map(|j| {
                                    let y = get(&recs[j], j.checked_sub(1).map(|q| &recs[q]));
                                    [f64::from(recs[j].iteration), (1.0 + y).log10()]
                                })
                                .collect();
                            // Earlier lanes wider, so a lane drawn over an equal one leaves its edges.
                            let width = 1.5 + 1.5 * (self.lanes.len() - 1 - i) as f32;
                            p.line(Line::new(NAMES[i], pts).color(LANE_COLORS[i]).width(width));
                            p.vline(VLine::new(format!("{} cursor", NAMES[i]), t.pos() as f64).color(LANE_COLORS[i]));
                        }
                    });
                });
            }
        });
    }
}

/// Grid lines at whole powers of ten (log axis), spaced so their labels fit.
fn decades(input: egui_plot::GridInput) -> Vec<egui_plot::GridMark> {
    let (lo, hi) = input.bounds;
    let step = (3.0 * input.base_step_size).ceil().max(1.0) as i32;
    let (lo, hi) = (lo.ceil().max(0.0) as i32, hi.floor().min(18.0) as i32);
    (lo..=hi)
        .filter(|e| e % step == 0)
        .map(|e| egui_plot::GridMark { value: e as f64, step_size: step as f64 })
        .collect()
}

/// Hover text: the lane, the iteration and the count (undoing the log axis's 1 + count).
fn hover(p: &egui_plot::HoverPosition<'_>) -> Option<String> {
    Some(match p {
        egui_plot::HoverPosition::NearDataPoint { plot_name, position, .. } => {
            format!("{plot_name}\niteration {:.0}: {:.0}", position.x, (10f64.powf(position.y) - 1.0).max(0.0))
        }
        egui_plot::HoverPosition::Elsewhere { position } => format!("iteration {:.0}", position.x),
    })
}

/// A log axis mark: the count at whole powers of ten, nothing between.
fn log_label(v: f64) -> String {
    if v < 0.0 || (v - v.round()).abs() > 1e-9 {
        return String::new();
    }
    match v.round() as i32 {
        0 => "1".into(),
        1 => "10".into(),
        2 => "100".into(),
        e @ 3..=5 => format!("{}k", 10i64.pow(e as u32 - 3)),
        e => format!("{}M", 10i64.pow((e - 6).max(0) as u32)),
    }
}

/// Relax threads [launched, working] and warp classes [no work, mixed, all work] summed over
/// `recs`; `None` when the lane's algorithm launches no kernel threads (sequential Dijkstra).
fn thread_totals(recs: &[IterationRecord]) -> (Option<[u64; 2]>, Option<[u64; 3]>) {
    let mut any = false;
    let (mut launched, mut working, mut warps) = (0u64, 0u64, [0u64; 3]);
    for t in recs.iter().filter_map(|r| r.threads) {
        any = true;
        launched += t.launched;
        working += t.working;
        warps[0] += t.warps_all_dummy;
        warps[1] += t.warps_mixed;
        warps[2] += t.warps_all_working;
    }
    if !any {
        return (None, None);
    }
    (Some([launched, working]), Some(warps))
}

/// Index of the lane algorithm's declared series `key`, if it has one.
fn series_index(l: &super::Lane, key: &str) -> Option<usize> {
    l.spec.algorithm.parse::<AlgoChoice>().ok().and_then(|c| c.algorithm.series_index(key))
}

fn swatch(ui: &mut egui::Ui, c: Color32) {
    let (r, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
    ui.painter().rect_filled(r, 2.0, c);
}

fn device_combo(ui: &mut egui::Ui, i: usize, device: &mut DeviceId, devices: Option<&'static [DeviceInfo]>) {
    let label = ui.label("device");
    egui::ComboBox::from_id_salt(("compare-device", i))
        .selected_text(device.to_string())
        .show_ui(ui, |ui| {
            let mut ids: Vec<DeviceId> = devices.map_or_else(Vec::new, |d| d.iter().map(|x| x.id).collect());
            if !ids.contains(&DeviceId::Cpu) {
                ids.insert(0, DeviceId::Cpu);
            }
            for id in ids {
                ui.selectable_value(device, id, id.to_string());
            }
        })
        .response
        .labelled_by(label.id);
}
