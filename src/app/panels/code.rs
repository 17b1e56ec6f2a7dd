//! Pseudo-code of the selected algorithm with the phase that runs next highlighted, and the
//! record of the current iteration as a small table.

use crate::algo::{Algorithm, COMMON_SERIES, IterationRecord, Phase, SeriesUnit, fmt_distance};
use crate::app::state::AppState;
use egui::RichText;

const HIGHLIGHT_HELP: &str = "Highlighted: the phase that runs next. One step runs relax, minimum and update \
together, so at the start and after every step the next phase is relax; once the minimum finds no reached \
vertex (Δ = ∞) the loop test fails and the run is over.";

pub fn code_panel(ui: &mut egui::Ui, state: &AppState) {
    let choice = &state.settings.algorithm;
    let algo = choice.algorithm;
    ui.horizontal(|ui| {
        ui.heading("Pseudo-code");
        ui.label(RichText::new("(?)").weak()).on_hover_text(HIGHLIGHT_HELP);
    });
    let next = if state.at_end() { Phase::Loop } else { Phase::Relax };
    let highlight = ui.visuals().selection.bg_fill;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        for (phase, line) in (algo.spec().code)(&choice.params) {
            let mut text = RichText::new(line).monospace();
            if phase == next {
                text = text.background_color(highlight).strong();
            }
            ui.label(text).on_hover_text(HIGHLIGHT_HELP);
        }
        if state.at_end() {
            ui.label(RichText::new(format!("{}: the run is over", algo.spec().finished)).monospace().strong());
        }
    });
    if let Some(crate::algo::Threshold::Crauser) = algo.threshold() {
        ui.label(RichText::new("ω(u) = weight of u's lightest out-arc (∞ for a sink)").small().weak());
    }
    road_note(ui, state);
    ui.add_space(4.0);
    record_table(ui, state);
}

/// docs/references.md `[terms-peers]`: on road networks the frontier solvers are bound by their iteration count.
fn road_note(ui: &mut egui::Ui, state: &AppState) {
    let road_like = state
        .graph
        .as_ref()
        .is_some_and(|g| g.graph.coords().is_some() && g.stats.n >= 10_000 && g.stats.mean_out_degree < 4.0);
    let short = "Road networks: frontier solvers are bound by the iteration count, not bandwidth.";
    let detail = "On NY from vertex 1, Martín needs 227 575 iterations (mean |F| 1.2) and Crauser 7 502 \
(mean |F| 35). Every iteration costs a few kernel launches and a read-back, so on a GPU the run time is \
iterations × launch latency, whatever the memory bandwidth (docs/references.md [terms-peers]).";
    // Only where it is true: a large sparse graph with coordinates, under a frontier solver.
    if road_like && state.settings.algorithm.algorithm.threshold().is_some() {
        ui.colored_label(ui.visuals().warn_fg_color, short).on_hover_text(detail);
    }
}

fn record_table(ui: &mut egui::Ui, state: &AppState) {
    let Some(trace) = &state.trace else { return };
    ui.strong(format!("Record of iteration {}", trace.pos()));
    let Some(r) = state.current_record() else {
        ui.label("No iteration yet: F = {s}, δ(s) = 0. Step to run the first one.");
        return;
    };
    let (left, right) = rows(r, state.settings.algorithm.algorithm);
    let cell = |ui: &mut egui::Ui, row: Option<&String>| match row {
        Some(text) => ui.label(RichText::new(text).monospace().size(11.0)),
        None => ui.label(""),
    };
    if state.at_end() {
        // |U| in the record counts the vertices unsettled when the last iteration *started*;
        // after it, U holds only what the source cannot reach.
        let n = state.graph().map_or(0, |g| g.n() as u64);
        let left = n.saturating_sub(r.settled);
        let what =
            if left == 0 { "U is empty".to_string() } else { format!("|U| = {left}, all unreachable (δ = ∞)") };
        ui.label(RichText::new(format!("After the last iteration: {what}, F is empty")).small())
            .on_hover_text("the record's |U| counts the vertices unsettled when its iteration started");
    }
    egui::Frame::group(ui.style()).show(ui, |ui| {
        egui::Grid::new("record").num_columns(2).spacing([12.0, 1.0]).show(ui, |ui| {
            for i in 0..left.len().max(right.len()) {
                cell(ui, left.get(i));
                cell(ui, right.get(i));
                ui.end_row();
            }
        });
    });
}

/// The table rows of a record, two columns of "name value" lines: the set sizes and the
/// algorithm's declared values (from its spec) on the left, arcs, threads and times on the right.
fn rows(r: &IterationRecord, algo: Algorithm) -> (Vec<String>, Vec<String>) {
    let mut left: Vec<(&str, String)> = COMMON_SERIES[..3]
        .iter()
        .map(|(spec, get)| (spec.label, get(r).map_or("–".into(), |v| format!("{v:.0}"))))
        .collect();
    for (i, spec) in algo.spec().series.iter().enumerate() {
        let text = match (spec.unit, r.values.get(i)) {
            (_, None) => "–".to_string(),
            (SeriesUnit::Distance, Some(_)) => fmt_distance(r.values.distance(i)),
            (SeriesUnit::Count, Some(v)) => format!("{v:.0}"),
            (SeriesUnit::Ratio, Some(v)) => format!("{:.1} %", v * 100.0),
            (SeriesUnit::Ms, Some(v)) => format!("{v:.3} ms"),
        };
        left.push((spec.label, text));
    }
    left.push(("settled", r.settled.to_string()));
    let mut right = vec![
        ("arcs", format!("{} scanned", r.edges_scanned)),
        ("relax", format!("{} tried, {} improved", r.relax_attempted, r.relax_improved)),
    ];
    if let Some(t) = r.threads {
        let how = if t.modelled { " (modelled)" } else { "" };
        right.push(("threads", format!("{} of {} working, B={}", t.working, t.launched, t.block_size)));
        right.push(("dummy", format!("{:.1} %{how}", t.dummy_ratio() * 100.0)));
        right.push((
            "warps",
            format!("{} dummy, {} mixed, {} full", t.warps_all_dummy, t.warps_mixed, t.warps_all_working),
        ));
    }
    let t = &r.times;
    right.push(("time ms", format!("relax {:.3} min {:.3} upd {:.3}", t.relax_ms, t.minimum_ms, t.update_ms)));
    if t.copy_ms > 0.0 {
        // GPU steps: the state copied back for the view, plus seed 004's hybrids' bus traffic.
        right.push(("copy ms", format!("{:.3} host <-> device", t.copy_ms)));
    }
    (
        left.into_iter().map(|(k, v)| format!("{k:<18}{v}")).collect(),
        right.into_iter().map(|(k, v)| format!("{k:<8} {v}")).collect(),
    )
}
