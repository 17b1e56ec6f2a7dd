//! Drawing the compare tab: the lanes' settings, one set of controls, the graph views side by
//! side (vertices whose status differs from lane A's marked), the overlaid per-iteration series
//! and a summary row per lane.

use super::{CompareView, LaneSpec, Lockstep, MAX_LANES};
use crate::algo::IterationRecord;
use crate::app::graph_view::{ColorMode, ViewInput};
use crate::device::{DeviceId, DeviceInfo};
use crate::graph::{Graph, INF, VertexId};
use egui_plot::{Legend, Line, Plot, PlotPoints, VLine};
use std::sync::Arc;

/// A plot's title and the value it draws per record.
type Series = (&'static str, fn(&IterationRecord) -> f64);

/// Lane names.
const NAMES: [&str; MAX_LANES] = ["A", "B", "C", "D"];
/// Most points per overlaid line (long runs are thinned).
const MAX_POINTS: usize = 2000;

impl CompareView {
    /// The whole tab. `graph`/`source`: the app's current graph and source (what *Start* uses).
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
            });
        }
        self.setup(ui, graph, source, devices);
        ui.separator();
        if self.lanes.is_empty() {
            ui.label("Choose the lanes and press Start: every lane runs on the graph and source of the first tab.");
            return;
        }
        self.controls(ui);
        self.summary(ui);
        let plots_h = 150.0;
        let avail = ui.available_size();
        let view_h = (avail.y - plots_h - 16.0).max(160.0);
        ui.horizontal(|ui| {
            let w = (avail.x - 8.0 * self.lanes.len() as f32) / self.lanes.len() as f32;
            for ((i, l), view) in self.lanes.iter().enumerate().zip(self.views.iter_mut()) {
                ui.allocate_ui_with_layout(egui::vec2(w, view_h), egui::Layout::top_down(egui::Align::Min), |ui| {
                    ui.set_min_size(egui::vec2(w, view_h));
                    ui.label(format!("{}: {} on {}", NAMES[i], l.spec.algorithm, l.spec.device));
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
        self.plots(ui);
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
                ui.strong(NAMES[i]);
                let label = ui.label("algorithm");
                ui.add_sized([220.0, 20.0], egui::TextEdit::singleline(&mut spec.algorithm)).labelled_by(label.id);
                device_combo(ui, i, &mut spec.device, devices);
                let label = ui.label("block");
                ui.add(egui::DragValue::new(&mut spec.block).range(1..=1024)).labelled_by(label.id);
                if ui.add_enabled(self.lanes.len() <= MAX_LANES && i >= 2, egui::Button::new("Remove")).clicked() {
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
            let start = ui.add_enabled(graph.is_some(), egui::Button::new("Start"));
            if start.clicked()
                && let Some(g) = graph
            {
                self.start(g, source, ui.ctx());
            }
            if let Some(g) = graph {
                ui.label(format!("on {} from vertex {}", g.name, g.labels().label(source)));
            }
        });
    }

    fn controls(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let busy = self.is_busy();
            if ui.add_enabled(!busy && self.at > 0, egui::Button::new("Back")).clicked() {
                self.step_back();
            }
            if ui.add_enabled(!busy && !self.at_end(), egui::Button::new("Step all")).clicked() {
                self.step();
            }
            if ui.add_enabled(!busy && !self.at_end(), egui::Button::new("Run all to end")).clicked() {
                self.run_to_end();
            }
            ui.separator();
            ui.label("lockstep:");
            ui.selectable_value(&mut self.lockstep, Lockstep::Iteration, "by iteration")
                .on_hover_text("every lane one iteration per step");
            ui.selectable_value(&mut self.lockstep, Lockstep::Level, "by settled level").on_hover_text(
                "the lane with the lowest settled distance one iteration, the others until they reach it",
            );
            if busy {
                ui.spinner();
            }
        });
    }

    /// One row per lane: iteration at the cursor, settled, relaxations and time so far.
    fn summary(&self, ui: &mut egui::Ui) {
        egui::Grid::new("compare-summary").striped(true).num_columns(8).show(ui, |ui| {
            for h in [
                "lane",
                "device",
                "iteration",
                "settled",
                "level (max settled d)",
                "relaxations",
                "kernel ms",
                "differs from A",
            ] {
                ui.strong(h);
            }
            ui.end_row();
            for (i, l) in self.lanes.iter().enumerate() {
                ui.label(format!("{} {}", NAMES[i], l.spec.algorithm));
                // The adapter's full description is long; its first part names it.
                let short = l.device_name.split(" · ").next().unwrap_or_default();
                let short = short.split(" (").next().unwrap_or_default();
                ui.label(short).on_hover_text(&l.device_name);
                let Some(t) = &l.trace else { continue };
                let upto = &t.records()[..t.pos()];
                let end = if l.finished { "finished" } else { "so far" };
                ui.label(format!("{} of {} {end}", t.pos(), t.len()));
                ui.label(upto.last().map_or(1, |r| r.settled).to_string());
                ui.label(match l.level {
                    INF => "all".to_string(),
                    d => d.to_string(),
                });
                ui.label(upto.iter().map(|r| r.relax_attempted).sum::<u64>().to_string());
                ui.label(format!("{:.2}", upto.iter().map(|r| r.times.kernels_ms()).sum::<f64>()));
                match (&l.error, i) {
                    (Some(e), _) => ui.colored_label(ui.visuals().error_fg_color, e),
                    (None, 0) => ui.label("-"),
                    (None, _) => ui.label(format!("{} vertices", l.differs.len())),
                };
                ui.end_row();
            }
        });
    }

    /// Frontier size and Δ per iteration, one line per lane, the cursors as vertical lines.
    fn plots(&self, ui: &mut egui::Ui) {
        let w = ui.available_width() / 2.0 - 16.0;
        ui.horizontal(|ui| {
            let series: [Series; 2] = [
                ("|F| frontier per iteration", |r| r.frontier as f64),
                ("settled vertices per iteration", |r| r.settled as f64),
            ];
            for (title, get) in series {
                ui.vertical(|ui| {
                    ui.label(title);
                    Plot::new(("compare-plot", title))
                        .width(w)
                        .height(120.0)
                        .legend(Legend::default())
                        .allow_scroll(false)
                        .show(ui, |p| {
                            for (i, l) in self.lanes.iter().enumerate() {
                                let Some(t) = &l.trace else { continue };
                                let recs = t.records();
                                let stride = recs.len().div_ceil(MAX_POINTS).max(1);
                                let pts: PlotPoints =
                                    recs.iter().step_by(stride).map(|r| [f64::from(r.iteration), get(r)]).collect();
                                p.line(Line::new(NAMES[i], pts));
                                p.vline(VLine::new(format!("{} cursor", NAMES[i]), t.pos() as f64));
                            }
                        });
                });
            }
        });
    }
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
