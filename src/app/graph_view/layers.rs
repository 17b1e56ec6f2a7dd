//! The raster drawing of large graphs: two CPU rasters the size of the view, each an egui
//! texture. The arc layer is made on a background thread ([`ArcWorker`]), the vertex layer on the
//! UI thread; both are painted moved and scaled from the camera they were made with.

use super::arcs::{ArcKey, ArcWorker};
use super::camera::{Xform, raster_rect};
use super::colors::{Shader, distance_ramp};
use super::raster::{PixBox, Splat};
use super::scene::Scene;
use super::vertices::{self, DotStyle};
use super::{ColorMode, GraphView, ViewMode};
use crate::graph::VertexId;
use crate::trace::Trace;
use egui::{Color32, ColorImage, Rect, TextureHandle, TextureOptions, pos2};
use std::time::{Duration, Instant};

/// While the user drags or zooms, new rasters are made at most this often.
const INTERACTIVE_INTERVAL: Duration = Duration::from_millis(60);

/// Everything that determines the vertex raster.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VertexKey {
    pub generation: u64,
    pub state_version: u64,
    pub has_trace: bool,
    pub color_mode: ColorMode,
    pub wrong: u64,
    pub xform: Xform,
    pub size: [usize; 2],
    pub style: DotStyle,
}

/// A texture and what it was made from.
pub struct Layer<K> {
    tex: Option<TextureHandle>,
    pub made: Option<K>,
    /// The part of the raster the texture holds (nothing drawn outside it).
    crop: PixBox,
}

impl<K> Default for Layer<K> {
    fn default() -> Self {
        Layer { tex: None, made: None, crop: PixBox::EMPTY }
    }
}

impl<K> Layer<K> {
    /// Uploads `image`, the `crop` part of a raster (nothing when it is empty).
    pub fn set(
        &mut self,
        ctx: &egui::Context,
        name: &str,
        image: ColorImage,
        crop: PixBox,
        made: K,
        opts: TextureOptions,
    ) {
        if !crop.is_empty() {
            upload(ctx, &mut self.tex, name, image, opts);
        }
        self.crop = crop;
        self.made = Some(made);
    }

    /// Paints the texture where its crop lands under the current world → screen map `now`,
    /// given the world → pixel map `made` it was rasterized with.
    fn paint(&self, painter: &egui::Painter, made: &Xform, now: &Xform) {
        let Some(tex) = &self.tex else { return };
        if self.crop.is_empty() {
            return;
        }
        let c = self.crop;
        let rect = raster_rect(made, [c.x0 as f64, c.y0 as f64, c.x1 as f64, c.y1 as f64], now);
        let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
        painter.image(tex.id(), rect, uv, Color32::WHITE);
    }
}

fn upload(
    ctx: &egui::Context,
    tex: &mut Option<TextureHandle>,
    name: &str,
    image: impl Into<egui::ImageData>,
    opts: TextureOptions,
) {
    let image = image.into();
    match tex {
        Some(t) if t.size() == image.size() => t.set_partial([0, 0], image, opts),
        Some(t) => t.set(image, opts),
        None => *tex = Some(ctx.load_texture(name, image, opts)),
    }
}

pub fn hash_ids(ids: &[VertexId]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ ids.len() as u64;
    for &v in ids {
        h = (h ^ v as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl GraphView {
    /// Dot sizes of the vertex raster, in pixels.
    pub(super) fn dot_style(&self, scene: &Scene, ppp: f32) -> DotStyle {
        let sp = (scene.spacing as f64 * self.camera.scale) as f32 * ppp;
        let r = (0.3 * sp).clamp(1.0, 7.0 * ppp);
        DotStyle {
            r,
            frontier_r: (r * 1.6).clamp(2.5 * ppp, 10.0 * ppp),
            draw_unreached: sp >= 4.0 * ppp || scene.arcs_to_draw == 0,
        }
    }

    /// Takes in the arc raster the background thread finished, if any.
    pub(super) fn receive_arcs(&mut self, ctx: &egui::Context) {
        if let Some(worker) = self.worker.as_mut()
            && let Some(img) = worker.poll()
        {
            self.stats.arc_ms = img.millis;
            self.stats.arcs_drawn = img.drawn;
            self.arcs.set(ctx, "graph_view.arcs", img.image, img.crop, img.key, TextureOptions::LINEAR);
        }
    }

    /// Asks the background thread for a new arc raster when the camera or layout changed.
    pub(super) fn update_arcs(
        &mut self,
        ctx: &egui::Context,
        scene: &Scene,
        size_px: [usize; 2],
        ppp: f32,
        visuals: &egui::Visuals,
        interacting: bool,
    ) {
        let Some(arc_scene) = scene.arc_scene.clone() else { return };
        if scene.arcs_to_draw == 0 {
            return;
        }
        let base = if visuals.dark_mode { 150 } else { 70 };
        let key = ArcKey {
            generation: scene.generation,
            xform: self.camera.to_pixels(size_px, ppp),
            size: size_px,
            color: [base, base, base, 210],
        };
        if self.arcs.made == Some(key) {
            return;
        }
        let worker = self.worker.get_or_insert_with(|| ArcWorker::start(crate::app::jobs::repaint(ctx)));
        if !worker.alive() || worker.pending.is_some() {
            return; // the running raster asks for a repaint when done
        }
        let wait = if interacting { INTERACTIVE_INTERVAL } else { Duration::ZERO };
        let since = worker.last_submit.map_or(Duration::MAX, |t| t.elapsed());
        if since >= wait {
            worker.submit(arc_scene, key);
        } else {
            ctx.request_repaint_after(wait - since);
        }
    }

    /// Redraws the vertex raster when its inputs changed, unless it was redrawn too recently
    /// for its cost.
    pub(super) fn update_vertices(
        &mut self,
        ctx: &egui::Context,
        scene: &Scene,
        key: VertexKey,
        trace: Option<&Trace>,
        wrong: &[VertexId],
        interacting: bool,
    ) {
        if self.vertices.made == Some(key) {
            self.vertex_deferred = false;
            return;
        }
        self.vertex_deferred = true;
        let cost = Duration::from_secs_f32(self.stats.vertex_ms / 1000.0);
        let gap =
            if interacting { INTERACTIVE_INTERVAL.max(cost * 3) } else { (cost * 2).min(Duration::from_millis(250)) };
        let since = self.vertex_at.map_or(Duration::MAX, |t| t.elapsed());
        if since < gap {
            ctx.request_repaint_after(gap - since);
            return;
        }
        self.vertex_deferred = false;
        let t0 = Instant::now();
        let shader = &Shader::new(trace, key.color_mode, distance_ramp());
        let [w, h] = key.size;
        if self.vertex_px.len() != w * h {
            self.vertex_px.clear();
            self.vertex_px.resize(w * h, Color32::TRANSPARENT);
            self.vertex_prio.clear();
            self.vertex_prio.resize(w * h, 0);
        }
        self.frontier.clear();
        let mut splat = Splat::new(&mut self.vertex_px, &mut self.vertex_prio, w, h);
        let drawn = vertices::render(&mut splat, scene.placement(), &key.xform, shader, &key.style, &mut self.frontier);
        let fr = key.style.frontier_r;
        vertices::mark_wrong(
            &mut splat,
            wrong,
            |v| scene.world(v),
            &key.xform,
            fr + 1.0,
            fr + 1.0 + 2.0 * (key.style.r / 2.0).max(1.0),
        );
        let crop = splat.bbox;
        let opts = if scene.mode == ViewMode::Raster { TextureOptions::NEAREST } else { TextureOptions::LINEAR };
        let image = crop.take(&mut self.vertex_px, w, Color32::TRANSPARENT, |c| c);
        for y in crop.y0..crop.y1.min(h) {
            self.vertex_prio[y * w + crop.x0..y * w + crop.x1].fill(0);
        }
        self.vertices.set(ctx, "graph_view.vertices", image, crop, key, opts);
        self.stats.vertices_drawn = drawn;
        self.stats.vertex_ms = t0.elapsed().as_secs_f32() * 1000.0;
        self.vertex_at = Some(Instant::now());
    }

    /// The two rasters, moved and scaled from the camera they were made with to the current one.
    pub(super) fn paint_rasters(&self, scene: &Scene, painter: &egui::Painter, rect: Rect) {
        let screen = self.camera.to_screen(rect);
        if let Some(made) = &self.arcs.made
            && made.generation >= scene.first_generation
            && scene.arcs_to_draw > 0
        {
            self.arcs.paint(painter, &made.xform, &screen);
        }
        if let Some(made) = &self.vertices.made
            && made.generation >= scene.first_generation
        {
            self.vertices.paint(painter, &made.xform, &screen);
        }
    }
}
