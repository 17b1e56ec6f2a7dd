//! Frontier, wrong, source and hover rings, drawn as shapes on top of the vertices so they stay
//! visible at any zoom.

use super::camera::{Camera, Xform};
use super::colors::{FRONTIER, SOURCE, WRONG};
use super::scene::Scene;
use crate::graph::VertexId;
use crate::trace::Trace;
use egui::{Color32, Pos2, Rect, Stroke, pos2};

/// At most this many frontier / wrong vertices get a ring drawn as a shape on top of the raster.
const OVERLAY_MAX: usize = 2000;

/// Where the rings go this frame.
pub struct Marks<'a> {
    pub painter: &'a egui::Painter,
    pub scene: &'a Scene,
    /// The view's rectangle.
    pub rect: Rect,
    /// World → screen map of the current camera.
    pub screen: Xform,
    /// Radius of the frontier dots, points.
    pub fr_pt: f32,
}

impl Marks<'_> {
    /// Screen position of vertex `v`.
    fn at(&self, v: VertexId) -> Option<Pos2> {
        self.scene.world(v).map(|p| self.screen.apply(p)).map(|q| pos2(q[0], q[1]))
    }

    /// Frontier rings on top of the raster, at the exact current position (none for a frontier
    /// of more than [`OVERLAY_MAX`] vertices).
    pub fn frontier(&self, frontier: &[VertexId]) {
        if frontier.len() > OVERLAY_MAX {
            return;
        }
        let stroke = Stroke::new(1.5, FRONTIER);
        for &v in frontier {
            if let Some(q) = self.at(v).filter(|q| self.rect.expand(10.0).contains(*q)) {
                self.painter.circle_stroke(q, self.fr_pt + 2.0, stroke);
            }
        }
    }

    /// Rings around the vertices whose δ is wrong (none for more than [`OVERLAY_MAX`]).
    pub fn wrong(&self, wrong: &[VertexId]) {
        if wrong.len() > OVERLAY_MAX {
            return;
        }
        for &v in wrong {
            if let Some(q) = self.at(v).filter(|q| self.rect.expand(10.0).contains(*q)) {
                self.painter.circle_stroke(q, self.fr_pt + 3.5, Stroke::new(2.0, WRONG));
            }
        }
    }

    /// The ring around the run's source.
    pub fn source(&self, trace: Option<&Trace>) {
        if let Some(q) = trace.and_then(|t| self.at(t.source)) {
            self.painter.circle_stroke(q, self.fr_pt + 5.5, Stroke::new(2.0, SOURCE));
        }
    }

    /// The ring around the hovered vertex `v`, whose dot has radius `r_pt` points.
    pub fn hovered(&self, camera: &Camera, v: VertexId, r_pt: f32, color: Color32) {
        if let Some(p) = self.scene.world(v) {
            let q = camera.world_to_screen(self.rect, [p[0] as f64, p[1] as f64]);
            self.painter.circle_stroke(q, r_pt.max(3.0) + 2.5, Stroke::new(1.5, color));
        }
    }
}
