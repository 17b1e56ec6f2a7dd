//! What is written over the view: counts, mode and timings with the fit button in the top-left
//! corner, and the tooltip of the hovered vertex.

use super::colors::{WRONG, status_name};
use super::scene::Scene;
use super::{GraphView, ViewMode};
use crate::algo::{VertexStatus, fmt_distance};
use crate::graph::{Graph, VertexId};
use crate::trace::Trace;
use egui::{Align, Align2, FontId, Frame, Layout, Rect, RichText, UiBuilder};

impl GraphView {
    /// The view without a graph (or while a large one's scene is built): its space, with a note.
    pub(super) fn no_graph(&mut self, ui: &mut egui::Ui) {
        let (rect, _, _) = self.allocate(ui);
        let weak = ui.visuals().weak_text_color();
        let text = match (&self.incoming, &self.gpu.failed) {
            (Some((g, _, _)), _) => format!("preparing the view of {}…", g.name),
            (None, Some(e)) => e.clone(),
            (None, None) => "no graph".to_string(),
        };
        ui.painter_at(rect).text(rect.center(), Align2::CENTER_CENTER, text, FontId::proportional(16.0), weak);
    }

    /// Counts, mode and timings in the top-left corner, with the fit button (and the cell order
    /// toggle in the raster mode).
    pub(super) fn overlay(&mut self, ui: &mut egui::Ui, rect: Rect, scene: &Scene) {
        let mode = match (scene.mode, &scene.layout) {
            (ViewMode::Layout, Some(job)) if !job.is_done() => {
                format!("layout {}/{}", job.iteration(), job.iterations)
            }
            (ViewMode::Raster, _) => {
                if self.order_by_distance {
                    "raster by δ".to_string()
                } else {
                    "raster by id".to_string()
                }
            }
            (m, _) => m.name().to_string(),
        };
        let st = self.stats;
        let counts = if scene.mode == ViewMode::Raster {
            format!("{} of {} cells", fmt_count(st.vertices_drawn), fmt_count(scene.graph.n()))
        } else {
            format!("{} vertices · {} arcs drawn", fmt_count(st.vertices_drawn), fmt_count(st.arcs_drawn))
        };
        let timing = if st.vector {
            "shapes".to_string()
        } else if st.gpu && st.zero_copy {
            "GPU · zero-copy from the solver".to_string()
        } else if st.gpu {
            "GPU".to_string()
        } else {
            "not drawn".to_string()
        };
        let is_raster = scene.mode == ViewMode::Raster;
        let mut child = ui.new_child(
            UiBuilder::new()
                .max_rect(rect.shrink(6.0))
                .layout(Layout::top_down(Align::LEFT))
                .id_salt("graph_view_overlay"),
        );
        let fill = ui.visuals().window_fill().gamma_multiply(0.85);
        Frame::new().fill(fill).corner_radius(4.0).inner_margin(5.0).show(&mut child, |ui| {
            ui.horizontal(|ui| {
                if ui.small_button("Fit").on_hover_text("Show the whole graph (or double-click)").clicked() {
                    self.user_moved = false;
                }
                ui.label(RichText::new(format!("{mode} · {counts} · {timing}")).small());
            });
            // Why the GPU draws less than all, or is still preparing (why it draws nothing is
            // written in the middle of the view).
            let gpu_note = if st.gpu { self.gpu.note.clone() } else { None };
            if let Some(note) = gpu_note {
                ui.label(RichText::new(note).small().color(ui.visuals().warn_fg_color));
            }
            if is_raster {
                ui.checkbox(&mut self.order_by_distance, RichText::new("order cells by δ").small())
                    .on_hover_text("Cells in order of distance from the source instead of by vertex id");
            }
        });
    }
}

/// Written in the middle of the view when a large graph cannot be drawn: the GPU view's error,
/// or that there is no wgpu render state.
pub fn gpu_unavailable(painter: &egui::Painter, rect: Rect, failed: Option<&str>, visuals: &egui::Visuals) {
    let why = match failed {
        Some(e) => format!("The GPU view could not draw this graph:\n{e}"),
        None => "No wgpu renderer: large graphs are drawn on the GPU (eframe's wgpu backend).".to_string(),
    };
    let text = format!("{why}\nHover and click still pick vertices; marks are drawn on top.");
    painter.text(rect.center(), Align2::CENTER_CENTER, text, FontId::proportional(14.0), visuals.warn_fg_color);
}

/// 264346 → "264 346".
pub fn fmt_count(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push('\u{2009}');
        }
        out.push(ch);
    }
    out
}

pub fn vertex_tooltip(ui: &mut egui::Ui, graph: &Graph, trace: Option<&Trace>, wrong: &[VertexId], v: VertexId) {
    ui.label(RichText::new(format!("vertex {}", graph.labels().label(v))).strong());
    match trace {
        Some(t) => {
            let d = t.distances()[v as usize];
            ui.label(format!("δ = {}", fmt_distance(d)));
            let s = t.status(v);
            let line = match (s, t.settled_at(v)) {
                (VertexStatus::Settled, Some(it)) => format!("settled (iteration {it})"),
                _ => status_name(s).to_string(),
            };
            ui.label(line);
        }
        None => {
            ui.label("δ = ∞ (no run yet)");
        }
    }
    ui.label(format!("out-degree {}", graph.successors().degree(v)));
    if wrong.contains(&v) {
        ui.colored_label(WRONG, "δ differs from the Dijkstra oracle");
    }
    ui.weak("click: make it the source");
}
