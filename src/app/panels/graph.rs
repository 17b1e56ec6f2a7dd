//! Graph panel: open a file (dialog or drop), weight rule, format override, generator, and the
//! graph's facts.

use crate::app::command::Command;
use crate::app::state::AppState;
use crate::formats::Format;
use crate::graph::WeightRule;

pub fn graph_panel(ui: &mut egui::Ui, state: &mut AppState, cmds: &mut Vec<Command>) {
    ui.heading("Graph");
    ui.horizontal(|ui| {
        let busy = state.jobs.dialog.is_some();
        if ui
            .add_enabled(!busy, egui::Button::new("Open file…"))
            .on_hover_text("Ctrl+O, or drop a file on the window")
            .clicked()
        {
            cmds.push(Command::OpenDialog);
        }
        if ui
            .button("Generate…")
            .on_hover_text("Generate a graph (all families of docs/references.md [terms-graphs])")
            .clicked()
        {
            cmds.push(Command::ShowGenerator(!state.show_generator));
        }
    });
    egui::Grid::new("load-options").num_columns(2).show(ui, |ui| {
        let label = ui.label("Weights").on_hover_text("For the next file: file, unit, or uniform:MAX:SEED");
        let mut text = state.settings.weight_rule.clone();
        let ok = text.parse::<WeightRule>().is_ok();
        let edit =
            egui::TextEdit::singleline(&mut text).hint_text("file | unit | uniform:MAX:SEED").desired_width(170.0);
        let edit = edit.text_color_opt((!ok).then_some(ui.visuals().error_fg_color));
        let r = ui.add(edit).labelled_by(label.id);
        if r.changed() {
            cmds.push(Command::SetWeightRule(text));
        }
        ui.end_row();

        let label = ui.label("Real weights").on_hover_text(
            "Files with real values store round(x · 10^k): exact integers keep every device's distances \
             identical. Auto picks the smallest k that is exact, or the largest with |w| ≤ 2²⁴.",
        );
        ui.horizontal(|ui| {
            let mut auto = state.settings.weight_decimals.is_none();
            if ui.checkbox(&mut auto, "auto").labelled_by(label.id).changed() {
                cmds.push(Command::SetWeightDecimals(if auto { None } else { Some(3) }));
            }
            if let Some(mut k) = state.settings.weight_decimals {
                let r = ui.add(egui::DragValue::new(&mut k).range(0..=9).prefix("×10^"));
                if r.changed() {
                    cmds.push(Command::SetWeightDecimals(Some(k)));
                }
            }
        });
        ui.end_row();

        let label = ui.label("Format");
        let shown = state.settings.format.map_or("auto (by extension)".to_string(), |f| f.description().to_string());
        egui::ComboBox::from_id_salt("format")
            .selected_text(shown)
            .width(170.0)
            .show_ui(ui, |ui| {
                if ui.selectable_label(state.settings.format.is_none(), "auto (by extension)").clicked() {
                    cmds.push(Command::SetFormat(None));
                }
                for f in Format::EVERY {
                    if ui.selectable_label(state.settings.format == Some(f), f.description()).clicked() {
                        cmds.push(Command::SetFormat(Some(f)));
                    }
                }
            })
            .response
            .labelled_by(label.id);
        ui.end_row();
    });
    if let Some(path) = state.graph.as_ref().and_then(|g| g.path.clone()) {
        let tip = "Load the current file again with the weight rule and format above";
        if ui.button("Reload with these options").on_hover_text(tip).clicked() {
            cmds.push(Command::Open(path));
        }
    }
    if let Some(job) = &state.jobs.graph {
        ui.horizontal(|ui| {
            ui.add(egui::ProgressBar::new(job.progress()).text(job.name()).desired_width(230.0));
            if ui.button("Cancel").on_hover_text("Esc").clicked() {
                cmds.push(Command::Cancel);
            }
        });
    }
    facts(ui, state);
}

fn facts(ui: &mut egui::Ui, state: &AppState) {
    let Some(loaded) = &state.graph else { return };
    let g = &loaded.graph;
    let s = &loaded.stats;
    ui.add_space(4.0);
    ui.strong(&g.name).on_hover_text(loaded.path.as_ref().map_or("generated".into(), |p| p.display().to_string()));
    egui::Grid::new("facts").num_columns(2).striped(true).show(ui, |ui| {
        let mut row = |k: &str, v: String| {
            ui.label(k);
            ui.label(v);
            ui.end_row();
        };
        row("vertices n", thousands(s.n as u64));
        row("arcs m", thousands(s.m as u64));
        row("out-degree", format!("{}…{}, mean {:.2}", s.min_out_degree, s.max_out_degree, s.mean_out_degree));
        row("max in-degree", s.max_in_degree.to_string());
        row("weights", format!("{}…{}", s.min_weight, s.max_weight));
        // A generated graph has no file: its builder's "from file" means "as generated".
        let generated = loaded.path.is_none();
        let origin = match (generated, g.weight_origin.strip_prefix("from file")) {
            (true, Some(rest)) => format!("from the generator{rest}"),
            _ => g.weight_origin.clone(),
        };
        row("weight origin", origin);
        row("self-loops / sinks", format!("{} / {}", s.self_loops, s.sinks));
        row("memory", format!("{:.1} MB", s.bytes as f64 / 1e6));
        let coords = match (g.coords().is_some(), generated) {
            (true, false) => "yes (from the file)",
            (true, true) => "yes (from the generator)",
            (false, _) => "no (laid out)",
        };
        row("coordinates", coords.into());
        row("vertex ids", g.labels().describe(g.n()));
    });
    // What the reader accepted but the user should know (formats::* warnings).
    for w in &g.warnings {
        ui.colored_label(ui.visuals().warn_fg_color, format!("warning: {w}"));
    }
}

/// 264346 → "264 346".
pub fn thousands(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}
