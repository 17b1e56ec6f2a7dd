//! Colours shared by the graph view, its legend and the plots, so that "frontier" is the same
//! orange everywhere.

use crate::algo::VertexStatus;
use egui::Color32;

/// Settled in an earlier iteration: final distance known.
pub const SETTLED: Color32 = Color32::from_rgb(70, 130, 220);
/// Settled in the last iteration; its out-arcs are relaxed next.
pub const FRONTIER: Color32 = Color32::from_rgb(250, 150, 30);
/// Unsettled with δ < ∞.
pub const REACHED: Color32 = Color32::from_rgb(90, 190, 110);
/// δ = ∞.
pub const UNREACHED: Color32 = Color32::from_rgb(120, 120, 120);
/// The source vertex (ring around it).
pub const SOURCE: Color32 = Color32::from_rgb(230, 60, 200);
/// A vertex whose δ differs from the Dijkstra oracle.
pub const WRONG: Color32 = Color32::from_rgb(230, 40, 40);
/// Arcs, drawn faintly under the vertices.
pub const EDGE: Color32 = Color32::from_rgba_premultiplied(110, 110, 110, 90);

/// Plot series colours.
pub const PLOT_FRONTIER: Color32 = FRONTIER;
pub const PLOT_UNSETTLED: Color32 = UNREACHED;
pub const PLOT_REACHED: Color32 = REACHED;
pub const PLOT_DELTA: Color32 = Color32::from_rgba_premultiplied(100, 100, 30, 128);
pub const PLOT_MARTIN: Color32 = Color32::from_rgb(90, 170, 250);
pub const PLOT_CRAUSER: Color32 = Color32::from_rgb(240, 90, 90);
pub const PLOT_CURSOR: Color32 = SOURCE;

/// The colour of a vertex status.
pub fn status_color(status: VertexStatus) -> Color32 {
    match status {
        VertexStatus::Settled => SETTLED,
        VertexStatus::Frontier => FRONTIER,
        VertexStatus::Reached => REACHED,
        VertexStatus::Unreached => UNREACHED,
    }
}

/// Legend entries in display order: (status, name, meaning).
pub const LEGEND: [(VertexStatus, &str, &str); 4] = [
    (VertexStatus::Settled, "settled", "final distance known (settled in an earlier iteration)"),
    (VertexStatus::Frontier, "frontier", "settled in the last iteration; its out-arcs are relaxed next"),
    (VertexStatus::Reached, "reached", "unsettled, δ < ∞"),
    (VertexStatus::Unreached, "unreached", "δ = ∞"),
];

/// Lower-case name of a status, as shown in the UI.
pub fn status_name(status: VertexStatus) -> &'static str {
    match status {
        VertexStatus::Settled => "settled",
        VertexStatus::Frontier => "frontier",
        VertexStatus::Reached => "reached",
        VertexStatus::Unreached => "unreached",
    }
}
