//! Error banners, the status bar (hovered vertex, job progress, frame time) and the legend of
//! the graph view.

use crate::app::command::Command;
use crate::app::graph_view::ColorMode;
use crate::app::palette;
use crate::app::state::AppState;

/// One dismissible banner per error, newest last.
pub fn error_banners(ui: &mut egui::Ui, state: &AppState, cmds: &mut Vec<Command>) {
    for (i, msg) in state.errors.iter().enumerate() {
        let fill = ui.visuals().error_fg_color.gamma_multiply(0.25);
        egui::Frame::new().fill(fill).inner_margin(6.0).corner_radius(4.0).show(ui, |ui| {
            ui.horizontal(|ui| {
                if ui.button("Dismiss").on_hover_text("Remove this message").clicked() {
                    cmds.push(Command::DismissError(i));
                }
                let text = egui::RichText::new(format!("Error: {msg}")).color(ui.visuals().strong_text_color());
                ui.add(egui::Label::new(text).wrap());
            });
        });
    }
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
