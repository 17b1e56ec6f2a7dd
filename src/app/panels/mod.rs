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
mod thread_timeline;

use super::bench_view::BenchView;
use super::command::Command;
use super::graph_view::{ColorMode, GraphView, ViewInput};
use super::series::PlotSeries;
use super::state::{AppState, Verification};
use egui::{CentralPanel, Panel, ScrollArea};

/// Most of the window's width the Step tab's left and right panels may take (the graph view
/// keeps the other 40 %).
pub const LEFT_SHARE: f32 = 0.26;
pub const RIGHT_SHARE: f32 = 0.31;

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
    /// Step tab: the controls (left) and analysis (right) panels folded away.
    pub hide_controls: bool,
    pub hide_analysis: bool,
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
            if panels.tab == Tab::Explore {
                ui.separator();
                let mut show = !panels.hide_controls;
                ui.toggle_value(&mut show, "Controls").on_hover_text("show or fold the left panel");
                panels.hide_controls = !show;
                let mut show = !panels.hide_analysis;
                ui.toggle_value(&mut show, "Plots").on_hover_text("show or fold the right panel (code, record, plots)");
                panels.hide_analysis = !show;
            }
        });
    });
    if !state.errors.is_empty() || state.path_prompt.is_some() || state.confirm.is_some() {
        Panel::top("errors").show(ui, |ui| {
            status::error_banners(ui, state, cmds);
            status::path_prompt(ui, state, cmds);
            status::confirm_change(ui, state, cmds);
        });
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
    // The graph view keeps at least 40 % of the width: the side panels share the rest
    // (26 % and 31 %, with their margins under 60 %), scroll what does not fit, and either can be folded away.
    let width = ui.available_width();
    let (left_max, right_max) = ((width * LEFT_SHARE).max(180.0), (width * RIGHT_SHARE).max(220.0));
    if !panels.hide_controls {
        let left = Panel::left("controls").default_size(330.0_f32.min(left_max)).max_size(left_max);
        left.resizable(true).show(ui, |ui| {
            ScrollArea::both().auto_shrink(false).show(ui, |ui| {
                graph::graph_panel(ui, state, cmds);
                ui.separator();
                run::run_panel(ui, state, cmds);
                panels.record.button(ui, state);
            });
        });
    }
    if !panels.hide_analysis {
        let right = Panel::right("analysis").default_size(480.0_f32.min(right_max)).max_size(right_max);
        right.resizable(true).show(ui, |ui| {
            // Scrolled, not clipped from the left, where the code lines are wider than the panel
            // (the plots still fill the visible height).
            let visible = ui.available_width() - ui.spacing().scroll.bar_width;
            ScrollArea::both().auto_shrink(false).show(ui, |ui| {
                code::code_panel(ui, state);
                ui.separator();
                // As wide as the panel shows, whatever the width of the table above.
                ui.scope(|ui| {
                    ui.set_max_width(visible);
                    plots::plots(ui, state, &mut panels.plots, cmds);
                });
            });
        });
    }
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
