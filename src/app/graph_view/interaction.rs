//! Pan, zoom and the fit of the camera; hover and click picking.

use super::camera::Camera;
use super::scene::Scene;
use super::{GraphView, GraphViewResponse, ViewMode};
use crate::graph::VertexId;
use egui::{Pos2, Rect, Vec2, vec2};

/// Pointer distance (points) within which a vertex is hovered.
const PICK_RADIUS: f32 = 8.0;

/// The camera showing the whole graph below the overlay.
pub fn fit_camera(scene: &Scene, rect: Rect) -> Camera {
    let inset: f32 = if scene.mode == ViewMode::Raster { 56.0 } else { 36.0 };
    let inset = inset.min(rect.height() * 0.3);
    // Room for the discs of the shape drawing at the border.
    let pad = if scene.vector() { 30.0f32.min(rect.width() * 0.1) } else { 0.0 };
    let size = vec2(rect.width() - 2.0 * pad, rect.height() - inset - 2.0 * pad.min(rect.height() * 0.1));
    let mut cam = Camera::fit(&scene.bbox, size.max(vec2(8.0, 8.0)));
    cam.center[1] += inset as f64 / 2.0 / cam.scale;
    cam
}

fn zoom_limits(scene: &Scene, fit: &Camera) -> (f64, f64) {
    let max = (300.0 / scene.spacing as f64).max(fit.scale * 8.0);
    (fit.scale / 4.0, max)
}

impl GraphView {
    /// Pan and zoom.
    pub(super) fn handle_input(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        rect: Rect,
        scene: &Scene,
        fit: &Camera,
    ) {
        let mut moved = false;
        if response.dragged() {
            let d = response.drag_delta();
            if d != Vec2::ZERO {
                self.camera.pan(d);
                moved = true;
            }
        }
        if response.double_clicked() {
            self.user_moved = false;
            return;
        }
        if response.contains_pointer() {
            let (scroll, zoom, hover) = ui.input(|i| (i.smooth_scroll_delta, i.zoom_delta(), i.pointer.hover_pos()));
            let factor = zoom as f64 * (scroll.y as f64 / 200.0).exp();
            if let Some(p) = hover
                && (factor - 1.0).abs() > 1e-6
            {
                let (min, max) = zoom_limits(scene, fit);
                self.camera.zoom_about(rect, p, factor, min, max);
                moved = true;
            }
            if scroll.x != 0.0 {
                self.camera.pan(vec2(scroll.x, 0.0));
                moved = true;
            }
            if scroll != Vec2::ZERO {
                ui.ctx().input_mut(|i| i.smooth_scroll_delta = Vec2::ZERO);
            }
        }
        if moved {
            self.user_moved = true;
        }
    }

    /// The vertices hovered and clicked this frame; `r_pt` is the drawn vertex radius, points.
    pub(super) fn hover_and_click(
        &self,
        scene: &Scene,
        response: &egui::Response,
        rect: Rect,
        r_pt: f32,
    ) -> GraphViewResponse {
        let mut out = GraphViewResponse::default();
        let pick_r = PICK_RADIUS.max(r_pt + 2.0);
        if response.hovered()
            && !response.dragged()
            && let Some(p) = response.hover_pos()
        {
            out.hovered = self.pick(scene, rect, p, pick_r);
        }
        if response.clicked()
            && !response.double_clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            out.clicked = self.pick(scene, rect, p, pick_r);
        }
        out
    }

    /// The vertex under screen point `p` (within `radius` points).
    fn pick(&self, scene: &Scene, rect: Rect, p: Pos2, radius: f32) -> Option<VertexId> {
        let w = self.camera.screen_to_world(rect, p);
        match scene.mode {
            ViewMode::Raster => {
                let i = scene.cells.at(w)?;
                Some(scene.order.as_ref().map_or(i as u32, |(o, _)| o[i]))
            }
            _ => {
                let r = (radius as f64 / self.camera.scale) as f32;
                scene.pick.nearest(&scene.pos, [w[0] as f32, w[1] as f32], r).map(|(v, _)| v)
            }
        }
    }
}
