//! The shape drawing of small graphs: anti-aliased discs (with ids), arcs with arrow heads (and
//! weights), as egui shapes rather than by the GPU view.

use super::GraphView;
use super::arcs::{BOTH, SKIP};
use super::camera::Xform;
use super::colors::Shader;
use super::scene::Scene;
use crate::algo::VertexStatus;
use crate::graph::{Graph, VertexId};
use egui::{Align2, Color32, FontId, Rect, Shape, Stroke, pos2, vec2};

/// Weights are written on arcs for graphs with at most this many drawn arcs.
const WEIGHT_LABELS_MAX: usize = 300;

impl GraphView {
    /// Vertex radius of the vector drawing, in points.
    pub(super) fn vector_radius(&self, scene: &Scene) -> f32 {
        ((scene.spacing as f64 * self.camera.scale) as f32 * 0.3).clamp(2.5, 14.0)
    }

    /// Small graphs: arcs with arrow heads (and weights), vertices as discs (with ids).
    pub(super) fn paint_vector(
        &mut self,
        scene: &Scene,
        painter: &egui::Painter,
        screen: &Xform,
        shader: &Shader<'_>,
        visuals: &egui::Visuals,
    ) {
        let r = self.vector_radius(scene);
        let csr = scene.graph.successors();
        let clip = painter.clip_rect().expand(2.0 * r);
        let mut pts = std::mem::take(&mut self.vector_pts);
        pts.clear();
        pts.extend(scene.pos.iter().map(|&p| screen.apply(p)).map(|q| pos2(q[0], q[1])));
        let edge = if visuals.dark_mode { Color32::from_gray(120) } else { Color32::from_gray(140) };
        let stroke = Stroke::new(1.2, edge);
        let labels = scene.arcs_to_draw <= WEIGHT_LABELS_MAX;
        let font = FontId::proportional(11.0);
        let mut arcs_drawn = 0;
        for u in 0..pts.len() {
            let p = pts[u];
            for i in csr.range(u as u32) {
                let f = scene.flags.get(i).copied().unwrap_or(0);
                if f & SKIP != 0 {
                    continue;
                }
                let v = csr.targets[i] as usize;
                let q = pts[v];
                if !clip.intersects(Rect::from_two_pos(p, q)) {
                    continue;
                }
                arcs_drawn += 1;
                painter.line_segment([p, q], stroke);
                let d = q - p;
                let len = d.length();
                if f & BOTH == 0 && len > 3.0 * r {
                    // Arrow head at the target's rim.
                    let dir = d / len;
                    let tip = q - dir * (r + 1.0);
                    let a = (r * 0.9).clamp(4.0, 9.0);
                    let side = vec2(-dir.y, dir.x) * a * 0.5;
                    let back = tip - dir * a;
                    painter.add(Shape::convex_polygon(vec![tip, back + side, back - side], edge, Stroke::NONE));
                }
                if labels && len > 40.0 {
                    let w = csr.weights[i];
                    let text = match (f & BOTH != 0).then(|| reverse_weight(&scene.graph, v as u32, u as u32)).flatten()
                    {
                        Some(rw) if rw != w => format!("{w} / {rw}"),
                        _ => w.to_string(),
                    };
                    let mid = p + d * 0.5 + vec2(-d.y, d.x) / len * 8.0;
                    painter.text(mid, Align2::CENTER_CENTER, text, font.clone(), visuals.weak_text_color());
                }
            }
        }
        self.frontier.clear();
        let outline = Stroke::new(1.0, visuals.extreme_bg_color);
        let id_labels = pts.len() <= 200 && r >= 7.0;
        let label_font = FontId::proportional((r * 0.9).clamp(8.0, 13.0));
        let mut drawn = 0;
        for (v, &q) in pts.iter().enumerate() {
            let s = shader.status(v as u32);
            if s == VertexStatus::Frontier {
                self.frontier.push(v as u32);
            }
            if !clip.contains(q) {
                continue;
            }
            drawn += 1;
            let (c, _) = shader.shade(v as u32, s);
            let (rad, st) = if s == VertexStatus::Frontier {
                (r * 1.35, Stroke::new(2.0, visuals.strong_text_color()))
            } else {
                (r, outline)
            };
            painter.circle(q, rad, c, st);
            if id_labels {
                let text = scene.graph.labels().label(v as u32).to_string();
                let ink =
                    if c.r() as u32 + c.g() as u32 + c.b() as u32 > 380 { Color32::BLACK } else { Color32::WHITE };
                painter.text(q, Align2::CENTER_CENTER, text, label_font.clone(), ink);
            }
        }
        self.stats.vertices_drawn = drawn;
        self.stats.arcs_drawn = arcs_drawn;
        self.vector_pts = pts;
    }
}

/// Weight of the arc u → v, if it exists.
fn reverse_weight(graph: &Graph, u: VertexId, v: VertexId) -> Option<crate::graph::Weight> {
    graph.successors().arcs(u).find(|&(t, _)| t == v).map(|(_, w)| w)
}
