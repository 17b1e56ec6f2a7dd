//! The graph view: vertices coloured by status, arcs, pan and zoom, hover and click picking.
//!
//! Three ways to place the vertices ([`ViewMode`]):
//! - **coordinates** from the file (lon/lat × 10⁶ get x scaled by cos(latitude));
//! - **layout**: graphs without coordinates of up to [`LAYOUT_MAX_N`] vertices get a
//!   force-directed layout computed on a background thread and shown as it converges;
//! - **raster**: larger graphs without coordinates are shown as a square of n cells, one per
//!   vertex, by id or (toggle) by δ.
//!
//! Small graphs are drawn as egui shapes (anti-aliased discs, arrows, weights). Large ones are
//! drawn as two CPU rasters the size of the view, each an egui texture: the **arc layer**, made on
//! a background thread whenever the camera settles (meanwhile the old one is moved and scaled on
//! screen), and the **vertex layer**, redone when the run's state or the camera changes (throttled
//! by its own cost). Frontier, wrong and source marks are drawn on top as shapes so they stay
//! visible at any zoom. Nothing O(n) is allocated per frame; the 264 346-vertex NY road network
//! stays interactive.

mod arcs;
mod camera;
mod colors;
mod layout;
mod pick;
mod raster;
mod vertices;

use crate::algo::VertexStatus;
use crate::algo::fmt_distance;
use crate::graph::{Distance, Graph, VertexId};
use crate::trace::Trace;
use arcs::{ArcKey, ArcScene, ArcWorker, BOTH, SKIP};
use camera::{Bbox, Camera, Xform, raster_rect};
use colors::{FRONTIER, SOURCE, Shader, WRONG, distance_ramp, status_name};
use egui::{
    Align, Align2, Color32, ColorImage, FontId, Frame, Layout, Pos2, Rect, RichText, Sense, Shape, Stroke,
    TextureHandle, TextureOptions, UiBuilder, Vec2, pos2, vec2,
};
use layout::LayoutJob;
use pick::{Cells, PickGrid};
use raster::{PixBox, Splat};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};
use vertices::{DotStyle, Placement};

/// Graphs without coordinates up to this many vertices get a force-directed layout; larger ones
/// the aggregated raster.
pub const LAYOUT_MAX_N: usize = 5000;
/// Graphs up to this many vertices and drawn arcs are drawn as shapes rather than rasters.
const VECTOR_MAX_N: usize = 1500;
const VECTOR_MAX_ARCS: usize = 6000;
/// At most this many frontier / wrong vertices get a ring drawn as a shape on top of the raster.
const OVERLAY_MAX: usize = 2000;
/// Weights are written on arcs for graphs with at most this many drawn arcs.
const WEIGHT_LABELS_MAX: usize = 300;
/// Pointer distance (points) within which a vertex is hovered.
const PICK_RADIUS: f32 = 8.0;
/// While the user drags or zooms, new rasters are made at most this often.
const INTERACTIVE_INTERVAL: Duration = Duration::from_millis(60);
/// How long after the last drag / zoom the view counts as still being moved.
const INTERACTION_LINGER: Duration = Duration::from_millis(150);

/// Colouring of the vertices.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColorMode {
    /// Settled / frontier / reached / unreached.
    #[default]
    Status,
    /// δ on a colour ramp (unreached grey).
    Distance,
}

/// What the user did in the view this frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct GraphViewResponse {
    pub hovered: Option<VertexId>,
    /// A vertex clicked (primary button, no drag): the app makes it the source.
    pub clicked: Option<VertexId>,
}

/// Per-frame inputs from the app.
pub struct ViewInput<'a> {
    /// The run being shown, if any (None: only the graph).
    pub trace: Option<&'a Trace>,
    /// Changes whenever the trace's view state changes (position, new run), so the view knows
    /// when to recolour.
    pub state_version: u64,
    /// Vertices to mark as wrong (δ ≠ oracle), e.g. after a `racy` GPU run.
    pub wrong: Option<&'a [VertexId]>,
    pub color_mode: ColorMode,
}

/// How the vertices are placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewMode {
    /// From the graph's coordinates.
    Coordinates,
    /// Force-directed layout (graphs without coordinates, ≤ [`LAYOUT_MAX_N`] vertices).
    Layout,
    /// One cell per vertex in a square (larger graphs without coordinates).
    Raster,
}

impl ViewMode {
    pub fn name(self) -> &'static str {
        match self {
            ViewMode::Coordinates => "coordinates",
            ViewMode::Layout => "layout",
            ViewMode::Raster => "raster",
        }
    }
}

/// Counters shown in the overlay (and handy in tests).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ViewStats {
    pub vertices_drawn: usize,
    pub arcs_drawn: usize,
    /// Time of the last arc raster (background thread), ms.
    pub arc_ms: f32,
    /// Time of the last vertex raster (UI thread), ms.
    pub vertex_ms: f32,
    /// True when drawn as shapes, not rasters.
    pub vector: bool,
    /// Time spent in [`GraphView::ui`] in the last frame (UI thread), ms.
    pub ui_ms: f32,
}

/// The placement of one graph and its derived indexes.
struct Scene {
    graph: Arc<Graph>,
    mode: ViewMode,
    /// World positions (coordinates and layout modes; empty for the raster mode).
    pos: Arc<Vec<[f32; 2]>>,
    /// Bumped (globally) whenever `pos` or the cell order changes.
    generation: u64,
    /// The first generation of this graph: rasters older than it belong to another graph.
    first_generation: u64,
    bbox: Bbox,
    /// Typical distance between neighbouring vertices, world units.
    spacing: f32,
    pick: PickGrid,
    flags: Arc<Vec<u8>>,
    arcs_to_draw: usize,
    arc_scene: Option<Arc<ArcScene>>,
    layout: Option<LayoutJob>,
    needs_layout: bool,
    layout_seen: u64,
    cells: Cells,
    /// Cell → vertex and vertex → cell when the cells are ordered by δ.
    order: Option<(Vec<u32>, Vec<u32>)>,
    /// The state version `order` was computed for.
    order_version: Option<u64>,
    order_job: Option<Receiver<OrderResult>>,
}

impl Scene {
    /// World position of vertex `v`.
    fn world(&self, v: VertexId) -> Option<[f32; 2]> {
        match self.mode {
            ViewMode::Raster => {
                if v as usize >= self.cells.n {
                    return None;
                }
                let i = self.order.as_ref().map_or(v, |(_, rank)| rank[v as usize]);
                Some(self.cells.center(i as usize))
            }
            _ => self.pos.get(v as usize).copied(),
        }
    }

    fn placement(&self) -> Placement<'_> {
        match self.mode {
            ViewMode::Raster => {
                Placement::Cells { cells: self.cells, order: self.order.as_ref().map(|(o, _)| o.as_slice()) }
            }
            _ => Placement::Points(&self.pos),
        }
    }

    fn vector(&self) -> bool {
        self.mode != ViewMode::Raster && self.graph.n() <= VECTOR_MAX_N && self.arcs_to_draw <= VECTOR_MAX_ARCS
    }

    /// New positions (layout progress): rebuild the picking grid and the arc scene.
    fn set_positions(&mut self, pos: Arc<Vec<[f32; 2]>>, generation: u64) {
        self.bbox = Bbox::of(&pos);
        self.spacing = self.bbox.spacing(pos.len());
        if let Some(len) = median_arc_length(&self.graph, &pos, &self.flags) {
            // Dense cores (cities, hairballs) have shorter arcs than the box suggests.
            self.spacing = self.spacing.min(len);
        }
        self.pick = PickGrid::build(&pos);
        self.arc_scene = Some(Arc::new(ArcScene::new(self.graph.clone(), pos.clone(), self.flags.clone())));
        self.pos = pos;
        self.generation = generation;
    }
}

/// A finished cell order: the state version it is for, cell → vertex, vertex → cell.
type OrderResult = (u64, Vec<u32>, Vec<u32>);

/// Everything that determines the vertex raster.
#[derive(Clone, Copy, Debug, PartialEq)]
struct VertexKey {
    generation: u64,
    state_version: u64,
    has_trace: bool,
    color_mode: ColorMode,
    wrong: u64,
    xform: Xform,
    size: [usize; 2],
    style: DotStyle,
}

/// A texture and what it was made from.
struct Layer<K> {
    tex: Option<TextureHandle>,
    made: Option<K>,
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
    fn set(&mut self, ctx: &egui::Context, name: &str, image: ColorImage, crop: PixBox, made: K, opts: TextureOptions) {
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

/// The graph view widget. Holds the render caches and the camera.
pub struct GraphView {
    graph: Option<Arc<Graph>>,
    scene: Option<Scene>,
    next_generation: u64,
    camera: Camera,
    /// False until the user pans or zooms: the view then follows the fit (window resizes, a
    /// layout that is still moving).
    user_moved: bool,
    last_interaction: Option<Instant>,
    worker: Option<ArcWorker>,
    arcs: Layer<ArcKey>,
    vertices: Layer<VertexKey>,
    /// Full-size scratch buffers of the vertex raster, blank between rasters.
    vertex_px: Vec<Color32>,
    vertex_prio: Vec<u8>,
    vertex_at: Option<Instant>,
    /// A vertex raster is due but was put off (throttled).
    vertex_deferred: bool,
    /// Frontier vertices found by the last vertex pass.
    frontier: Vec<VertexId>,
    stats: ViewStats,
    /// The view's rectangle in the last frame (snapped to pixels).
    last_rect: Rect,
    /// Screen positions of the vector drawing (reused).
    vector_pts: Vec<Pos2>,
    /// Raster mode: order the cells by δ instead of by id.
    pub order_by_distance: bool,
}

impl Default for GraphView {
    fn default() -> Self {
        GraphView {
            graph: None,
            scene: None,
            next_generation: 1,
            camera: Camera::default(),
            user_moved: false,
            last_interaction: None,
            worker: None,
            arcs: Layer::default(),
            vertices: Layer::default(),
            vertex_px: Vec::new(),
            vertex_prio: Vec::new(),
            vertex_at: None,
            vertex_deferred: false,
            frontier: Vec::new(),
            stats: ViewStats::default(),
            last_rect: Rect::NOTHING,
            vector_pts: Vec::new(),
            order_by_distance: false,
        }
    }
}

impl GraphView {
    /// A view with no graph.
    pub fn new() -> Self {
        Self::default()
    }

    /// Shows `graph` from now on (resets the camera; starts a background layout for graphs
    /// without coordinates).
    ///
    /// Cost on the calling thread: O(n + m) (coordinate normalisation, picking grid, arc
    /// de-duplication), a few ms for the NY road network.
    pub fn set_graph(&mut self, graph: Arc<Graph>) {
        if self.graph.as_ref().is_some_and(|g| Arc::ptr_eq(g, &graph)) {
            return;
        }
        let n = graph.n();
        let generation = self.bump();
        let coords = graph.coords().filter(|c| c.len() == n);
        let mode = match coords {
            Some(_) => ViewMode::Coordinates,
            None if n <= LAYOUT_MAX_N => ViewMode::Layout,
            None => ViewMode::Raster,
        };
        let (flags, arcs_to_draw) = match mode {
            ViewMode::Raster => (Vec::new(), 0),
            _ => arcs::arc_flags(&graph),
        };
        let cells = Cells::new(n);
        let mut scene = Scene {
            graph: graph.clone(),
            mode,
            pos: Arc::new(Vec::new()),
            generation,
            first_generation: generation,
            bbox: cells.bbox(),
            spacing: 1.0,
            pick: PickGrid::default(),
            flags: Arc::new(flags),
            arcs_to_draw,
            arc_scene: None,
            layout: None,
            needs_layout: false,
            layout_seen: 0,
            cells,
            order: None,
            order_version: None,
            order_job: None,
        };
        match mode {
            ViewMode::Coordinates => {
                let pos = world_coords(coords.unwrap_or_default());
                scene.set_positions(Arc::new(pos), generation);
            }
            ViewMode::Layout => {
                // The layout thread starts with the next frame (it needs the egui context to
                // ask for repaints).
                scene.set_positions(Arc::new(layout::initial_positions(n)), generation);
                scene.needs_layout = true;
            }
            ViewMode::Raster => {}
        }
        self.graph = Some(graph);
        self.scene = Some(scene);
        self.user_moved = false;
        self.frontier.clear();
        self.stats = ViewStats::default();
        self.arcs.made = None;
        self.vertices.made = None;
    }

    /// The placement used for the current graph.
    pub fn mode(&self) -> Option<ViewMode> {
        self.scene.as_ref().map(|s| s.mode)
    }

    /// What the last frame drew.
    pub fn stats(&self) -> ViewStats {
        self.stats
    }

    /// True when no background work (layout, arc raster, cell order) is pending, so the next
    /// frame looks like this one (useful for snapshot tests).
    pub fn is_idle(&self) -> bool {
        let Some(s) = &self.scene else { return true };
        let layout_done = s.layout.as_ref().is_none_or(|j| j.shared.done.load(Ordering::Acquire))
            && s.layout.as_ref().is_none_or(|j| j.shared.newer_than(s.layout_seen).is_none());
        let arcs_done = self.worker.as_ref().is_none_or(|w| w.pending.is_none());
        layout_done && !s.needs_layout && arcs_done && s.order_job.is_none() && !self.vertex_deferred
    }

    /// Shows the whole graph again (as a double click does).
    pub fn fit(&mut self) {
        self.user_moved = false;
    }

    fn bump(&mut self) -> u64 {
        self.next_generation += 1;
        self.next_generation
    }

    /// Draws the view into all of `ui`'s available space.
    pub fn ui(&mut self, ui: &mut egui::Ui, input: &ViewInput<'_>) -> GraphViewResponse {
        let t0 = Instant::now();
        let out = self.ui_inner(ui, input);
        self.stats.ui_ms = t0.elapsed().as_secs_f32() * 1000.0;
        out
    }

    fn ui_inner(&mut self, ui: &mut egui::Ui, input: &ViewInput<'_>) -> GraphViewResponse {
        let mut out = GraphViewResponse::default();
        let ctx = ui.ctx().clone();
        let ppp = ctx.pixels_per_point();
        let size = ui.available_size().max(vec2(64.0, 64.0));
        let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Graph view"));
        // Snap to the pixel grid so that a raster lands 1:1 on screen pixels.
        let size_px = [((rect.width() * ppp).round() as usize).max(1), ((rect.height() * ppp).round() as usize).max(1)];
        let rect = Rect::from_min_size(
            pos2((rect.min.x * ppp).round() / ppp, (rect.min.y * ppp).round() / ppp),
            vec2(size_px[0] as f32 / ppp, size_px[1] as f32 / ppp),
        );
        self.last_rect = rect;
        let painter = ui.painter_at(rect);
        let visuals = ui.visuals().clone();
        let (Some(graph), true) = (self.graph.clone(), self.scene.is_some()) else {
            painter.text(
                rect.center(),
                Align2::CENTER_CENTER,
                "no graph",
                FontId::proportional(16.0),
                visuals.weak_text_color(),
            );
            return out;
        };
        let trace = input.trace.filter(|t| t.distances().len() == graph.n());
        let wrong = input.wrong.unwrap_or(&[]);
        self.poll_background(&ctx, trace, input.state_version);

        // Camera: fit, drag, zoom.
        let fit = self.fit_camera(rect);
        if !self.user_moved {
            self.camera = fit;
        }
        let interacting = self.handle_input(ui, &response, rect, &fit);
        if !self.user_moved {
            self.camera = fit;
        }

        let vector = self.scene().vector();
        self.stats.vector = vector;
        // Radii of marks on top, in points.
        let (r_pt, fr_pt) = if vector {
            let r = self.vector_radius();
            (r, r * 1.35)
        } else {
            self.update_arcs(&ctx, size_px, ppp, &visuals, interacting);
            let style = self.dot_style(ppp);
            let key = VertexKey {
                generation: self.scene().generation,
                state_version: input.state_version,
                has_trace: trace.is_some(),
                color_mode: input.color_mode,
                wrong: hash_ids(wrong),
                xform: self.camera.to_pixels(size_px, ppp),
                size: size_px,
                style,
            };
            self.update_vertices(&ctx, key, trace, wrong, interacting);
            self.paint_rasters(&painter, rect);
            (style.r / ppp, style.frontier_r / ppp)
        };
        let screen = self.camera.to_screen(rect);
        if vector {
            let shader = Shader::new(trace, input.color_mode, distance_ramp());
            self.paint_vector(&painter, &screen, &shader, &visuals);
        } else if self.frontier.len() <= OVERLAY_MAX {
            // Frontier rings on top of the raster, at the exact current position.
            let scene = self.scene.as_ref().expect("checked above");
            let stroke = Stroke::new(1.5, FRONTIER);
            for &v in &self.frontier {
                if let Some(p) = scene.world(v) {
                    let q = screen.apply(p);
                    let q = pos2(q[0], q[1]);
                    if rect.expand(10.0).contains(q) {
                        painter.circle_stroke(q, fr_pt + 2.0, stroke);
                    }
                }
            }
        }
        let scene = self.scene.as_ref().expect("checked above");
        let at = |v: VertexId| scene.world(v).map(|p| screen.apply(p)).map(|q| pos2(q[0], q[1]));
        if wrong.len() <= OVERLAY_MAX {
            for &v in wrong {
                if let Some(q) = at(v).filter(|q| rect.expand(10.0).contains(*q)) {
                    painter.circle_stroke(q, fr_pt + 3.5, Stroke::new(2.0, WRONG));
                }
            }
        }
        if let Some(q) = trace.and_then(|t| at(t.source)) {
            painter.circle_stroke(q, fr_pt + 5.5, Stroke::new(2.0, SOURCE));
        }

        // Hover and click.
        let pick_r = PICK_RADIUS.max(r_pt + 2.0);
        if response.hovered()
            && !response.dragged()
            && let Some(p) = response.hover_pos()
        {
            out.hovered = self.pick(rect, p, pick_r);
        }
        if response.clicked()
            && !response.double_clicked()
            && let Some(p) = response.interact_pointer_pos()
        {
            out.clicked = self.pick(rect, p, pick_r);
        }
        if let Some(v) = out.hovered {
            let scene = self.scene.as_ref().expect("checked above");
            if let Some(p) = scene.world(v) {
                let q = self.camera.world_to_screen(rect, [p[0] as f64, p[1] as f64]);
                painter.circle_stroke(q, r_pt.max(3.0) + 2.5, Stroke::new(1.5, visuals.strong_text_color()));
            }
        }

        self.overlay(ui, rect);
        if let Some(v) = out.hovered {
            egui::Tooltip::for_widget(&response).at_pointer().show(|ui| {
                vertex_tooltip(ui, &graph, trace, wrong, v);
            });
        }
        out
    }

    fn scene(&self) -> &Scene {
        self.scene.as_ref().expect("a graph is set")
    }

    /// Layout snapshots, cell orders and arc rasters that arrived.
    fn poll_background(&mut self, ctx: &egui::Context, trace: Option<&Trace>, state_version: u64) {
        let generation = self.next_generation + 1;
        let mut bumped = false;
        let want_order = self.order_by_distance;
        let Some(scene) = self.scene.as_mut() else { return };
        if scene.needs_layout {
            scene.needs_layout = false;
            let ctx = ctx.clone();
            scene.layout = Some(LayoutJob::start(scene.graph.clone(), move || ctx.request_repaint()));
        }
        if let Some(job) = &scene.layout
            && let Some((seen, pos)) = job.shared.newer_than(scene.layout_seen)
        {
            scene.layout_seen = seen;
            scene.set_positions(pos, generation);
            bumped = true;
        }
        if scene.mode == ViewMode::Raster {
            // Results of the background sort.
            if let Some(rx) = &scene.order_job {
                match rx.try_recv() {
                    Ok((version, order, rank)) => {
                        scene.order = Some((order, rank));
                        scene.order_version = Some(version);
                        scene.order_job = None;
                        scene.generation = generation;
                        bumped = true;
                    }
                    Err(std::sync::mpsc::TryRecvError::Disconnected) => scene.order_job = None,
                    Err(std::sync::mpsc::TryRecvError::Empty) => {}
                }
            }
            match (want_order, trace) {
                (true, Some(t)) => {
                    if scene.order_version != Some(state_version) && scene.order_job.is_none() {
                        let dist = t.distances().to_vec();
                        let (tx, rx) = std::sync::mpsc::channel();
                        let ctx = ctx.clone();
                        let spawned = std::thread::Builder::new().name("graph-order".into()).spawn(move || {
                            let (order, rank) = distance_order(&dist);
                            if tx.send((state_version, order, rank)).is_ok() {
                                ctx.request_repaint();
                            }
                        });
                        if spawned.is_ok() {
                            scene.order_job = Some(rx);
                        }
                    }
                }
                _ => {
                    if scene.order.is_some() {
                        scene.order = None;
                        scene.order_version = None;
                        scene.generation = generation;
                        bumped = true;
                    }
                }
            }
        }
        if bumped {
            self.next_generation = generation;
        }
        if let Some(worker) = self.worker.as_mut()
            && let Some(img) = worker.poll()
        {
            self.stats.arc_ms = img.millis;
            self.stats.arcs_drawn = img.drawn;
            self.arcs.set(ctx, "graph_view.arcs", img.image, img.crop, img.key, TextureOptions::LINEAR);
        }
    }

    /// Pan and zoom. Returns whether the camera is being moved.
    fn handle_input(&mut self, ui: &egui::Ui, response: &egui::Response, rect: Rect, fit: &Camera) -> bool {
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
            return false;
        }
        if response.contains_pointer() {
            let (scroll, zoom, hover) = ui.input(|i| (i.smooth_scroll_delta, i.zoom_delta(), i.pointer.hover_pos()));
            let factor = zoom as f64 * (scroll.y as f64 / 200.0).exp();
            if let Some(p) = hover
                && (factor - 1.0).abs() > 1e-6
            {
                let (min, max) = self.zoom_limits(fit);
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
            self.last_interaction = Some(Instant::now());
        }
        self.last_interaction.is_some_and(|t| t.elapsed() < INTERACTION_LINGER)
    }

    /// The camera showing the whole graph below the overlay.
    fn fit_camera(&self, rect: Rect) -> Camera {
        let inset: f32 = if self.scene().mode == ViewMode::Raster { 56.0 } else { 36.0 };
        let inset = inset.min(rect.height() * 0.3);
        // Room for the discs of the shape drawing at the border.
        let pad = if self.scene().vector() { 30.0f32.min(rect.width() * 0.1) } else { 0.0 };
        let size = vec2(rect.width() - 2.0 * pad, rect.height() - inset - 2.0 * pad.min(rect.height() * 0.1));
        let mut cam = Camera::fit(&self.scene().bbox, size.max(vec2(8.0, 8.0)));
        cam.center[1] += inset as f64 / 2.0 / cam.scale;
        cam
    }

    fn zoom_limits(&self, fit: &Camera) -> (f64, f64) {
        let max = (300.0 / self.scene().spacing as f64).max(fit.scale * 8.0);
        (fit.scale / 4.0, max)
    }

    /// Dot sizes of the vertex raster, in pixels.
    fn dot_style(&self, ppp: f32) -> DotStyle {
        let s = self.scene();
        let sp = (s.spacing as f64 * self.camera.scale) as f32 * ppp;
        let r = (0.3 * sp).clamp(1.0, 7.0 * ppp);
        DotStyle {
            r,
            frontier_r: (r * 1.6).clamp(2.5 * ppp, 10.0 * ppp),
            draw_unreached: sp >= 4.0 * ppp || s.arcs_to_draw == 0,
        }
    }

    /// Vertex radius of the vector drawing, in points.
    fn vector_radius(&self) -> f32 {
        ((self.scene().spacing as f64 * self.camera.scale) as f32 * 0.3).clamp(2.5, 14.0)
    }

    /// Asks the background thread for a new arc raster when the camera or layout changed.
    fn update_arcs(
        &mut self,
        ctx: &egui::Context,
        size_px: [usize; 2],
        ppp: f32,
        visuals: &egui::Visuals,
        interacting: bool,
    ) {
        let scene = self.scene.as_ref().expect("a graph is set");
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
        let worker = self.worker.get_or_insert_with(|| ArcWorker::start(ctx.clone()));
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
    fn update_vertices(
        &mut self,
        ctx: &egui::Context,
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
        let scene = self.scene.as_ref().expect("a graph is set");
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
    fn paint_rasters(&self, painter: &egui::Painter, rect: Rect) {
        let scene = self.scene();
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

    /// Small graphs: arcs with arrow heads (and weights), vertices as discs (with ids).
    fn paint_vector(&mut self, painter: &egui::Painter, screen: &Xform, shader: &Shader<'_>, visuals: &egui::Visuals) {
        let r = self.vector_radius();
        let scene = self.scene.as_ref().expect("a graph is set");
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

    /// The vertex under screen point `p` (within `radius` points).
    fn pick(&self, rect: Rect, p: Pos2, radius: f32) -> Option<VertexId> {
        let scene = self.scene.as_ref()?;
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

    /// Counts, mode and timings in the top-left corner, with the fit button (and the cell order
    /// toggle in the raster mode).
    fn overlay(&mut self, ui: &mut egui::Ui, rect: Rect) {
        let scene = self.scene.as_ref().expect("a graph is set");
        let mode = match (scene.mode, &scene.layout) {
            (ViewMode::Layout, Some(job)) if !job.shared.done.load(Ordering::Acquire) => {
                format!("layout {}/{}", job.shared.iteration.load(Ordering::Relaxed), job.shared.iterations)
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
        } else if scene.mode == ViewMode::Raster {
            format!("raster {:.1} ms", st.vertex_ms)
        } else {
            format!("raster: arcs {:.1} ms, vertices {:.1} ms", st.arc_ms, st.vertex_ms)
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
            if is_raster {
                ui.checkbox(&mut self.order_by_distance, RichText::new("order cells by δ").small())
                    .on_hover_text("Cells in order of distance from the source instead of by vertex id");
            }
        });
    }
}

/// World positions from file coordinates: centred on the bounding box; when the coordinates look
/// like longitude/latitude in millionths of a degree (DIMACS road networks), x is scaled by
/// cos(latitude) so that the map is not stretched.
fn world_coords(coords: &[[f32; 2]]) -> Vec<[f32; 2]> {
    let b = Bbox::of(coords);
    let c = b.center();
    let lonlat = b.min[0] >= -180e6
        && b.max[0] <= 180e6
        && b.min[1] >= -90e6
        && b.max[1] <= 90e6
        && b.width().max(b.height()) > 1e4;
    let lat = c[1] / 1e6;
    let kx = if lonlat && lat.abs() < 85.0 { lat.to_radians().cos() } else { 1.0 };
    coords.iter().map(|p| [((p[0] as f64 - c[0]) * kx) as f32, (p[1] as f64 - c[1]) as f32]).collect()
}

/// Median length of (a sample of at most 4096) drawn arcs, if any is longer than zero.
fn median_arc_length(graph: &Graph, pos: &[[f32; 2]], flags: &[u8]) -> Option<f32> {
    let csr = graph.successors();
    let m = csr.m();
    if m == 0 || pos.len() < csr.n() {
        return None;
    }
    let stride = m.div_ceil(4096).max(1);
    let mut lens = Vec::with_capacity(4096);
    let mut u = 0u32;
    for i in (0..m).step_by(stride) {
        while csr.offsets[u as usize + 1] as usize <= i {
            u += 1;
        }
        if flags.get(i).is_some_and(|f| f & SKIP != 0) {
            continue;
        }
        let (p, q) = (pos[u as usize], pos[csr.targets[i] as usize]);
        let d = ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt();
        if d.is_finite() && d > 0.0 {
            lens.push(d);
        }
    }
    if lens.is_empty() {
        return None;
    }
    let mid = lens.len() / 2;
    let (_, m, _) = lens.select_nth_unstable_by(mid, f32::total_cmp);
    Some(*m)
}

/// Vertices in order of δ (then id), and each vertex's rank in that order.
fn distance_order(dist: &[Distance]) -> (Vec<u32>, Vec<u32>) {
    let mut order: Vec<u32> = (0..dist.len() as u32).collect();
    order.sort_unstable_by_key(|&v| (dist[v as usize], v));
    let mut rank = vec![0u32; dist.len()];
    for (i, &v) in order.iter().enumerate() {
        rank[v as usize] = i as u32;
    }
    (order, rank)
}

/// Weight of the arc u → v, if it exists.
fn reverse_weight(graph: &Graph, u: VertexId, v: VertexId) -> Option<u32> {
    graph.successors().arcs(u).find(|&(t, _)| t == v).map(|(_, w)| w)
}

fn hash_ids(ids: &[VertexId]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ ids.len() as u64;
    for &v in ids {
        h = (h ^ v as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// 264346 → "264 346".
fn fmt_count(n: usize) -> String {
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

fn vertex_tooltip(ui: &mut egui::Ui, graph: &Graph, trace: Option<&Trace>, wrong: &[VertexId], v: VertexId) {
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

#[cfg(test)]
mod tests;
