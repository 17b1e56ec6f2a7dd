//! Drawing. Each panel reads the [`AppState`] and pushes [`Command`]s; only text-field buffers
//! and the hovered vertex are written directly.
//!
//! Layout: a tab bar (step through a run / bench lab / many sources) and error banners on top, status bar at
//! the bottom; in the stepping tab, graph and run controls on the left, pseudo-code, the current
//! record and the plots on the right, the graph view in the middle; the bench tab is the
//! [`BenchView`] alone, the many-sources tab the [`super::many_view::ManyView`] alone.

mod code;
mod generator;
mod graph;
mod plots;
mod run;
mod status;

use super::bench_view::BenchView;
use super::command::Command;
use super::graph_view::{ColorMode, GraphView, ViewInput};
use super::series::PlotSeries;
use super::state::{AppState, Verification};
use egui::{CentralPanel, Panel, ScrollArea};

/// Which half of the app fills the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Tab {
    /// Step one solver through one graph.
    #[default]
    Explore,
    /// Sweep algorithms × devices × block sizes × graphs.
    Bench,
    /// Many sources over several workers (seed 003).
    Many,
    /// Two to four runs side by side, stepped together.
    Compare,
}

/// Drawing-side state that is not part of the app state: view options, plot caches and the
/// bench lab (which runs its own sweeps).
#[derive(Default)]
pub struct Panels {
    pub color_mode: ColorMode,
    pub plots: PlotSeries,
    pub tab: Tab,
    pub bench: BenchView,
    pub many: super::many_view::ManyView,
    pub compare: super::compare::CompareView,
    pub record: super::record::RecordDialog,
}

/// Draws the whole window.
pub fn show(
    ui: &mut egui::Ui,
    state: &mut AppState,
    view: &mut GraphView,
    panels: &mut Panels,
    cmds: &mut Vec<Command>,
) {
    Panel::top("tabs").show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.selectable_value(&mut panels.tab, Tab::Explore, "Step through a run");
            ui.selectable_value(&mut panels.tab, Tab::Bench, "Bench lab");
            ui.selectable_value(&mut panels.tab, Tab::Many, "Many sources");
            ui.selectable_value(&mut panels.tab, Tab::Compare, "Compare");
            ui.menu_button("Lessons", |ui| {
                for (i, l) in super::compare::LESSONS.iter().enumerate() {
                    if ui.button(l.title).clicked() {
                        cmds.push(Command::OpenLesson(i));
                        ui.close();
                    }
                }
            });
        });
    });
    if !state.errors.is_empty() {
        Panel::top("errors").show(ui, |ui| status::error_banners(ui, state, cmds));
    }
    Panel::bottom("status").show(ui, |ui| status::status_bar(ui, state, cmds));
    if panels.tab == Tab::Bench {
        CentralPanel::default().show(ui, |ui| panels.bench.ui(ui));
        drop_overlay(ui.ctx());
        return;
    }
    if panels.tab == Tab::Compare {
        Panel::bottom("compare-record").show(ui, |ui| panels.record.lanes_button(ui, state, &panels.compare));
        panels.record.window(ui.ctx(), state, &panels.compare);
        let graph = state.graph().cloned();
        let (source, devices) = (state.source, state.devices);
        CentralPanel::default().show(ui, |ui| panels.compare.ui(ui, graph.as_ref(), source, devices));
        return;
    }
    if panels.tab == Tab::Many {
        let graph = state.graph().cloned();
        CentralPanel::default().show(ui, |ui| panels.many.ui(ui, graph.as_ref()));
        drop_overlay(ui.ctx());
        return;
    }
    Panel::left("controls").default_size(330.0).resizable(true).show(ui, |ui| {
        ScrollArea::vertical().auto_shrink(false).show(ui, |ui| {
            graph::graph_panel(ui, state, cmds);
            ui.separator();
            run::run_panel(ui, state, cmds);
            panels.record.button(ui, state);
        });
    });
    Panel::right("analysis").default_size(480.0).resizable(true).show(ui, |ui| {
        code::code_panel(ui, state);
        ui.separator();
        plots::plots(ui, state, &mut panels.plots, cmds);
    });
    CentralPanel::default().show(ui, |ui| {
        status::legend(ui, state, &mut panels.color_mode);
        if state.graph.is_none() {
            ui.centered_and_justified(|ui| match &state.jobs.graph {
                Some(job) => ui.add(egui::ProgressBar::new(job.progress()).text(job.name()).show_percentage()),
                None => ui.label("No graph: open a file (Ctrl+O), drop one here, or generate one."),
            });
            return;
        }
        let wrong = match &state.verification {
            Verification::Mismatch(w) => Some(w.as_slice()),
            _ => None,
        };
        // A wgpu solver stepped on the window's device: the view reads its buffers while the
        // trace's cursor is where the solver is (Arc clones of two buffer handles per frame).
        let live = state.stepper.as_ref().and_then(|s| s.device_state());
        let input = ViewInput {
            trace: state.trace.as_ref(),
            state_version: state.state_version,
            wrong,
            color_mode: panels.color_mode,
            live: live.as_ref(),
        };
        let t = std::time::Instant::now();
        let response = view.ui(ui, &input);
        state.view_ms = AppState::smooth(state.view_ms, t.elapsed().as_secs_f32() * 1e3);
        state.hovered = response.hovered;
        if let Some(v) = response.clicked {
            cmds.push(Command::SetSource(v));
        }
    });
    if state.show_generator {
        generator::generator_window(ui.ctx(), state, cmds);
    }
    panels.record.window(ui.ctx(), state, &panels.compare);
    drop_overlay(ui.ctx());
}

/// Darkens the window while a file is dragged over it.
fn drop_overlay(ctx: &egui::Context) {
    let hovering = ctx.input(|i| !i.raw.hovered_files.is_empty());
    if !hovering {
        return;
    }
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::unique("drop-overlay")));
    let rect = ctx.content_rect();
    painter.rect_filled(rect, 0.0, egui::Color32::from_black_alpha(160));
    painter.text(
        rect.center(),
        egui::Align2::CENTER_CENTER,
        "Drop a graph file to open it",
        egui::FontId::proportional(28.0),
        egui::Color32::WHITE,
    );
}
