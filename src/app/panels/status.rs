//! Error banners, the status bar (hovered vertex, job progress, frame time) and the legend of
//! the graph view.

use crate::app::command::Command;
use crate::app::graph_view::ColorMode;
use crate::app::palette;
use crate::app::state::AppState;

/// One banner for all errors: the newest in full, the earlier ones folded under it, and one
/// button that dismisses them all (stacked banners pushed the panels off a projector's screen).
pub fn error_banners(ui: &mut egui::Ui, state: &AppState, cmds: &mut Vec<Command>) {
    let Some((newest, earlier)) = state.errors.split_last() else { return };
    let fill = ui.visuals().error_fg_color.gamma_multiply(0.25);
    egui::Frame::new().fill(fill).inner_margin(6.0).corner_radius(4.0).show(ui, |ui| {
        ui.horizontal(|ui| {
            let (label, hover) = if earlier.is_empty() {
                ("Dismiss", "Remove this message")
            } else {
                ("Dismiss all", "Remove this message and the earlier ones")
            };
            if ui.button(label).on_hover_text(hover).clicked() {
                cmds.push(Command::DismissErrors);
            }
            let text = egui::RichText::new(format!("Error: {newest}")).color(ui.visuals().strong_text_color());
            ui.add(egui::Label::new(text).wrap());
        });
        if !earlier.is_empty() {
            let n = earlier.len();
            egui::CollapsingHeader::new(format!("{n} earlier message{}", if n == 1 { "" } else { "s" }))
                .id_salt("earlier-errors")
                .show(ui, |ui| {
                    for msg in earlier.iter().rev() {
                        ui.add(egui::Label::new(format!("Error: {msg}")).wrap());
                    }
                });
        }
    });
}

/// The typed-path field shown where no file dialog can appear: says what is missing, takes a
/// path, and opens or saves there.
pub fn path_prompt(ui: &mut egui::Ui, state: &mut AppState, cmds: &mut Vec<Command>) {
    let Some(p) = &mut state.path_prompt else { return };
    ui.label(egui::RichText::new(&p.why).color(ui.visuals().warn_fg_color));
    ui.horizontal(|ui| {
        let label = ui.label(if p.save_trace { "Save the trace to" } else { "Open the file" });
        let hint = if p.save_trace { "path/run.trace.json.gz" } else { "path/graph.gr or path/run.trace.json.gz" };
        let edit = egui::TextEdit::singleline(&mut p.text).hint_text(hint).desired_width(360.0);
        let r = ui.add(edit).labelled_by(label.id);
        let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let go = if p.save_trace { "Save" } else { "Open" };
        let text = p.text.trim();
        if (ui.add_enabled(!text.is_empty(), egui::Button::new(go)).clicked() || enter) && !text.is_empty() {
            let path = std::path::PathBuf::from(text);
            cmds.push(if p.save_trace { Command::SaveTrace(path) } else { Command::Open(path) });
            cmds.push(Command::ClosePathPrompt);
        }
        if ui.button("Close").clicked() {
            cmds.push(Command::ClosePathPrompt);
        }
    });
}

/// The question of a change that would discard the run ([`Command::AskFirst`]).
pub fn confirm_change(ui: &mut egui::Ui, state: &AppState, cmds: &mut Vec<Command>) {
    let Some(change) = &state.confirm else { return };
    let what = match change {
        Command::SetAlgorithm(a) => format!("the algorithm to {a}"),
        Command::SetDevice(d) => format!("the device to {d}"),
        Command::SetBlockSizes(_) => "the block sizes".to_string(),
        _ => "this setting".to_string(),
    };
    let n = state.trace.as_ref().map_or(0, |t| t.len());
    let running = if state.jobs.run.is_some() { ", still running" } else { "" };
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("Changing {what} starts a new run: the current one ({n} iterations{running}) is discarded."));
        if ui.button("Change and discard the run").clicked() {
            cmds.push(Command::Confirm(true));
        }
        if ui.button("Keep the run").clicked() {
            cmds.push(Command::Confirm(false));
        }
    });
}

pub fn status_bar(ui: &mut egui::Ui, state: &AppState, cmds: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        ui.monospace(format!("frame {:5.1} ms", state.frame_ms)).on_hover_text(format!(
            "CPU time of the last frames, rendering included (smoothed).\nApp ui {:.2} ms, of which the graph view {:.2} ms.",
            state.ui_ms, state.view_ms
        ));
        ui.monospace(format!("ui {:4.1} ms", state.ui_ms))
            .on_hover_text("time in the app's ui code (panels, plots, graph view, stepping), smoothed");
        ui.separator();
        for (name, progress) in state.job_progress() {
            ui.add(egui::ProgressBar::new(progress).text(name).desired_width(240.0));
        }
        if state.is_busy() && ui.button("Cancel job").on_hover_text("Esc").clicked() {
            cmds.push(Command::Cancel);
        }
        if state.playing {
            ui.label(format!("playing at {:.0} it/s", state.settings.speed));
        }
        ui.separator();
        match state.hovered {
            Some(v) => ui.label(format!("Hover: {}", state.describe_vertex(v))),
            None => ui.label(egui::RichText::new("Hover a vertex to see its δ and status").weak()),
        };
    });
}

/// Colour legend (the graph view draws with the same [`palette`]) and the colouring choice.
pub fn legend(ui: &mut egui::Ui, state: &AppState, mode: &mut ColorMode) {
    ui.horizontal_wrapped(|ui| {
        match *mode {
            ColorMode::Status => {
                for (status, name, meaning) in palette::LEGEND {
                    swatch(ui, palette::status_color(status));
                    ui.label(name).on_hover_text(meaning);
                }
                swatch(ui, palette::SOURCE);
                ui.label("source");
            }
            ColorMode::Distance => {
                ui.label("δ on a colour ramp, unreached grey");
            }
        }
        if matches!(state.verification, crate::app::Verification::Mismatch(_)) {
            swatch(ui, palette::WRONG);
            ui.label("δ ≠ Dijkstra");
        }
        ui.separator();
        let label = ui.label("Colour by");
        egui::ComboBox::from_id_salt("color-mode")
            .selected_text(match mode {
                ColorMode::Status => "status",
                ColorMode::Distance => "distance δ",
            })
            .show_ui(ui, |ui| {
                ui.selectable_value(mode, ColorMode::Status, "status");
                ui.selectable_value(mode, ColorMode::Distance, "distance δ");
            })
            .response
            .labelled_by(label.id);
    });
}

fn swatch(ui: &mut egui::Ui, color: egui::Color32) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
    ui.painter().circle_filled(rect.center(), 5.5, color);
}
