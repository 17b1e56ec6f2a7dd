//! The speedup table (baseline picked by the user) and the raw rows.

use super::ResultsOptions;
use crate::lab::report::{best_config, distinct, speedup};
use crate::lab::result::median;
use crate::lab::{LabResult, ManyRow};

/// Series (`algorithm @ device`) with timed runs, in arrival order.
pub fn series(rows: &[LabResult]) -> Vec<String> {
    distinct(rows.iter().filter(|r| r.is_measured()).map(LabResult::series))
}

/// Graphs with timed runs, in arrival order.
pub fn graphs(rows: &[LabResult]) -> Vec<String> {
    distinct(rows.iter().filter(|r| r.is_measured()).map(|r| r.graph.clone()))
}

fn cell<'a>(rows: &'a [LabResult], graph: &str, series: &str) -> Vec<&'a LabResult> {
    best_config(
        &rows.iter().filter(|r| r.is_measured() && r.graph == graph && r.series() == series).collect::<Vec<_>>(),
    )
}

fn median_ms(rows: &[&LabResult]) -> Option<f64> {
    median(&rows.iter().filter_map(|r| r.total_ms).collect::<Vec<_>>())
}

/// Speedups of every series over the chosen baseline, one row per graph (seed 000 Table 2's
/// layout): median over sources of baseline ms / ms, each series at its best configuration.
pub fn speedups(ui: &mut egui::Ui, rows: &[LabResult], opts: &mut ResultsOptions) {
    let all = series(rows);
    if all.is_empty() {
        ui.label("No timed runs yet.");
        return;
    }
    let base = match &opts.baseline {
        Some(b) if all.contains(b) => b.clone(),
        _ => all[0].clone(),
    };
    egui::ComboBox::from_label("baseline").selected_text(&base).show_ui(ui, |ui| {
        for s in &all {
            if ui.selectable_label(*s == base, s).clicked() {
                opts.baseline = Some(s.clone());
            }
        }
    });
    ui.label(
        egui::RichText::new("cells: median over sources of baseline ms / ms (> 1 = faster than the baseline)")
            .small()
            .weak(),
    );
    let others: Vec<&String> = all.iter().filter(|s| **s != base).collect();
    egui::ScrollArea::both().show(ui, |ui| {
        egui::Grid::new("bench-speedups").striped(true).num_columns(others.len() + 2).show(ui, |ui| {
            ui.strong("graph");
            ui.strong(format!("{base} (ms)"));
            for o in &others {
                ui.strong(o.as_str());
            }
            ui.end_row();
            for g in graphs(rows) {
                let b = cell(rows, &g, &base);
                ui.label(&g);
                ui.label(median_ms(&b).map_or("–".into(), |m| format!("{m:.3}")));
                for o in &others {
                    let c = cell(rows, &g, o);
                    match speedup(&b, &c) {
                        Some(x) => {
                            let color =
                                if x >= 1.0 { egui::Color32::from_rgb(60, 170, 90) } else { ui.visuals().text_color() };
                            let tip = format!(
                                "{o} on {g}: median {:.3} ms over {} runs ({}); baseline {:.3} ms",
                                median_ms(&c).unwrap_or(f64::NAN),
                                c.len(),
                                c.first().map(|r| r.config()).unwrap_or_default(),
                                median_ms(&b).unwrap_or(f64::NAN)
                            );
                            ui.colored_label(color, format!("{x:.2}×")).on_hover_text(tip);
                        }
                        None => {
                            ui.label("–");
                        }
                    }
                }
                ui.end_row();
            }
        });
    });
}

/// Every row as received (newest last), one monospace line each.
pub fn rows(ui: &mut egui::Ui, rows: &[LabResult]) {
    let header = format!(
        "{:<32} {:<26} {:<20} {:>7} {:>3} {:>11} {:>9} {:>9} {:>7}  {}",
        "graph", "algorithm @ device", "blocks / cache", "source", "rep", "ms", "iter", "GTEPS", "check", "note"
    );
    ui.monospace(header);
    let h = ui.text_style_height(&egui::TextStyle::Monospace);
    egui::ScrollArea::both().stick_to_bottom(true).auto_shrink(false).show_rows(ui, h, rows.len(), |ui, range| {
        for r in &rows[range] {
            let opt = |v: Option<f64>, p: usize| v.map_or("–".into(), |v| format!("{v:.p$}"));
            let check = match r.correct {
                Some(true) => "ok".to_string(),
                Some(false) => format!("{} bad", r.mismatches.unwrap_or(0)),
                None => "–".into(),
            };
            let note = r.skipped.as_deref().or(r.error.as_deref()).unwrap_or("");
            let graph: String = r.graph.chars().take(32).collect();
            ui.monospace(format!(
                "{graph:<32} {:<26} {:<20} {:>7} {:>3} {:>11} {:>9} {:>9} {:>7}  {note}",
                r.series(),
                r.config(),
                r.source.map_or("–".into(), |s| s.to_string()),
                r.repetition.map_or("–".into(), |s| s.to_string()),
                opt(r.total_ms, 3),
                r.iterations.map_or("–".into(), |s| s.to_string()),
                opt(r.gteps, 4),
                check
            ));
        }
    });
}

/// Many-source configurations as they finish: graph, workers, policy, label, makespan, speedup
/// over the graph's first configuration, tasks on GPUs, idle time at the end, checksum.
pub fn many(ui: &mut egui::Ui, rows: &[ManyRow]) {
    ui.label(
        egui::RichText::new(
            "many-source configurations; vs first = makespan of the graph's first configuration / this one's; timelines: report.md",
        )
        .small()
        .weak(),
    );
    egui::ScrollArea::both().show(ui, |ui| {
        egui::Grid::new("bench-many").striped(true).num_columns(9).show(ui, |ui| {
            for h in ["graph", "workers", "policy", "label", "makespan ms", "vs first", "GPU tasks", "idle at end Σ ms"]
            {
                ui.strong(h);
            }
            ui.strong("checksum");
            ui.end_row();
            for r in rows {
                ui.label(&r.graph);
                ui.label(&r.workers);
                ui.label(&r.policy);
                ui.label(&r.label);
                if let Some(e) = &r.error {
                    ui.label("failed").on_hover_text(e);
                    for _ in 0..4 {
                        ui.label("–");
                    }
                } else {
                    ui.label(format!("{:.1}", r.makespan_ms));
                    ui.label(r.speedup_vs_first.map_or("–".into(), |x| format!("{x:.2}×")));
                    ui.label(r.gpu_tasks().to_string());
                    ui.label(format!("{:.1}", r.idle_end_ms()));
                    ui.label(if r.checksum_ok { "equal" } else { "DIFFERS" });
                }
                ui.end_row();
            }
        });
    });
}
