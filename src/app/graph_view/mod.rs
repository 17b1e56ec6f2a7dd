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
//! drawn **on the GPU** ([`gpu`], `kernels/view*.wgsl`): an egui-wgpu paint callback with its
//! own pipelines in eframe's render pass — arcs as one-pixel lines blended so dense regions read
//! as density, vertices as instanced discs (or the raster mode's cells) coloured by status, and
//! when the camera sees more than the adapter draws in a frame, density and status tiles with
//! the same look. The positions and arcs are uploaded once per graph, the vertex colours once
//! per state change (from the trace's deltas, or straight from a wgpu solver's buffers), and pan
//! / zoom only change a 64-byte uniform. Graphs whose positions exceed the device's
//! `max_buffer_size` are not drawn (the view says why); arcs beyond a 2 GiB budget are left out
//! (the overlay says how many are drawn). Frame times: `scripts/frame-bench.sh` and the
//! headless `headless_frame_bench` → `bench/results/graph-view-frames/`.
//!
//! Without a wgpu render state (eframe on another backend, a test harness without wgpu) or
//! after a GPU error, a large graph is not drawn: the view says why, and hovering, clicking and
//! the marks still work. Frontier, wrong and source marks are drawn on top as shapes so they
//! stay visible at any zoom, and nothing O(n) is allocated per frame.

mod arcs;
mod camera;
mod colors;
mod dots;
pub mod gpu;
mod interaction;
pub(crate) mod layout;
mod marks;
mod overlay;
mod pick;
mod scene;
mod small;

use crate::app::jobs::{Job, repaint};
use crate::graph::{Graph, VertexId};
use crate::trace::Trace;
use camera::Camera;
use colors::{Shader, distance_ramp};
use egui::{Pos2, Rect, Sense, pos2, vec2};
use marks::Marks;
use scene::Scene;
use std::sync::Arc;
use std::time::Instant;

/// Graphs without coordinates up to this many vertices get a force-directed layout; larger ones
/// the aggregated raster.
pub const LAYOUT_MAX_N: usize = 5000;

/// Graphs with more vertices plus arcs than this have their scene built on a worker.
pub const SCENE_SYNC_MAX: usize = 2_000_000;

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
    /// The solver's own device buffers when they hold the trace's state at its cursor (a wgpu
    /// solver stepped on the window's device): the GPU view then reads them (zero-copy).
    pub live: Option<&'a crate::algo::DeviceVertexState>,
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
    /// True when drawn as egui shapes (small graphs), not by the GPU view.
    pub vector: bool,
    /// Time spent in [`GraphView::ui`] in the last frame (UI thread), ms.
    pub ui_ms: f32,
    /// True when drawn by the GPU paint callback (see [`gpu`]).
    pub gpu: bool,
    /// True when the GPU view coloured the vertices from the solver's own buffers.
    pub zero_copy: bool,
}

/// The graph view widget. Holds the render caches and the camera.
pub struct GraphView {
    scene: Option<Scene>,
    /// A large graph whose scene a worker is building (the graph, its generation, the job).
    incoming: Option<(Arc<Graph>, u64, Option<Job<Scene>>)>,
    next_generation: u64,
    camera: Camera,
    /// False until the user pans or zooms: the view then follows the fit (window resizes, a
    /// layout that is still moving).
    user_moved: bool,
    /// Frontier vertices found by the last colouring.
    frontier: Vec<VertexId>,
    stats: ViewStats,
    /// The view's rectangle in the last frame (snapped to pixels).
    last_rect: Rect,
    /// Screen positions of the vector drawing (reused).
    vector_pts: Vec<Pos2>,
    /// Raster mode: order the cells by δ instead of by id.
    pub order_by_distance: bool,
    /// The GPU drawing of large graphs.
    gpu: gpu::GpuView,
}

impl Default for GraphView {
    fn default() -> Self {
        GraphView {
            scene: None,
            incoming: None,
            next_generation: 1,
            camera: Camera::default(),
            user_moved: false,
            frontier: Vec::new(),
            stats: ViewStats::default(),
            last_rect: Rect::NOTHING,
            vector_pts: Vec::new(),
            order_by_distance: false,
            gpu: gpu::GpuView::default(),
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
    /// The scene (coordinate normalisation, picking grid, arc de-duplication: O(n + m)) is built
    /// here for graphs of up to [`SCENE_SYNC_MAX`] vertices plus arcs (a few ms for the NY road
    /// network), else on a worker while the view says it is preparing (0.5 s for a 16.8 M-vertex
    /// grid, which would stall the UI).
    pub fn set_graph(&mut self, graph: Arc<Graph>) {
        let same = |g: &Arc<Graph>| Arc::ptr_eq(g, &graph);
        if self.scene.as_ref().is_some_and(|s| same(&s.graph)) || self.incoming.as_ref().is_some_and(|i| same(&i.0)) {
            return;
        }
        let generation = self.bump();
        if graph.n() + graph.m() <= SCENE_SYNC_MAX {
            self.incoming = None;
            self.install(Scene::new(graph, generation));
        } else {
            self.scene = None;
            self.incoming = Some((graph, generation, None));
        }
    }

    /// Makes `scene` the one shown, with a fresh camera and GPU view.
    fn install(&mut self, scene: Scene) {
        self.scene = Some(scene);
        self.user_moved = false;
        self.frontier.clear();
        self.stats = ViewStats::default();
        self.gpu.reset();
    }

    /// Starts or takes in the scene being built on a worker (see [`GraphView::set_graph`]).
    fn poll_incoming(&mut self, ctx: &egui::Context) {
        let Some((graph, generation, job)) = &mut self.incoming else { return };
        match job {
            None => {
                let (g, gen_) = (graph.clone(), *generation);
                *job = Some(Job::spawn("preparing the graph view", repaint(ctx), move |_| Scene::new(g, gen_)));
            }
            Some(j) => match j.poll() {
                Some(Ok(scene)) => {
                    self.incoming = None;
                    self.install(scene);
                }
                Some(Err(e)) => {
                    self.incoming = None;
                    self.gpu.failed = Some(format!("preparing the view: {e}"));
                }
                None => {}
            },
        }
    }

    /// The placement used for the current graph.
    pub fn mode(&self) -> Option<ViewMode> {
        self.scene.as_ref().map(|s| s.mode)
    }

    /// What the last frame drew.
    pub fn stats(&self) -> ViewStats {
        self.stats
    }

    /// What the GPU view is preparing, e.g. "GPU view: uploading the graph, 12 MiB to go"
    /// (frame logs); `None` when it draws.
    pub fn gpu_note(&self) -> Option<&str> {
        self.gpu.note.as_deref()
    }

    /// True when no background work (layout, cell order, the GPU view's sorting, uploads and
    /// tiles) is pending, so the next frame looks like this one (useful for snapshot tests).
    pub fn is_idle(&self) -> bool {
        if self.incoming.is_some() {
            return false;
        }
        let Some(s) = &self.scene else { return true };
        let layout_done = s.layout.as_ref().is_none_or(|j| j.is_done());
        layout_done && !s.needs_layout && s.order_job.is_none() && self.gpu.is_idle()
    }

    /// Shows the whole graph again (as a double click does).
    pub fn fit(&mut self) {
        self.user_moved = false;
    }

    /// Moves the content by `delta` points, as a drag does (the frame benchmark's pan).
    pub fn pan_by(&mut self, delta: egui::Vec2) {
        self.user_moved = true;
        self.camera.pan(delta);
    }

    /// Where the view was last drawn (points).
    pub fn rect(&self) -> Rect {
        self.last_rect
    }

    /// Zooms by `factor` about the view's centre, as the wheel does (the frame benchmark's zoom).
    pub fn zoom_by(&mut self, factor: f64) {
        self.user_moved = true;
        let r = self.last_rect;
        self.camera.zoom_about(r, r.center(), factor, 1e-12, 1e12);
    }

    /// The camera (centre, scale) and whether the user moved it; compare mode links its views
    /// through this and [`GraphView::set_camera`].
    pub fn camera(&self) -> ([f64; 2], f64, bool) {
        (self.camera.center, self.camera.scale, self.user_moved)
    }

    /// Sets what [`GraphView::camera`] returned (another view's camera).
    pub fn set_camera(&mut self, (center, scale, moved): ([f64; 2], f64, bool)) {
        (self.camera.center, self.camera.scale, self.user_moved) = (center, scale, moved);
    }

    /// Name, vertex and arc count of the graph shown.
    pub fn graph_name(&self) -> Option<String> {
        self.scene.as_ref().map(|s| s.graph.name.clone())
    }

    pub fn graph_size(&self) -> (usize, usize) {
        self.scene.as_ref().map_or((0, 0), |s| (s.graph.n(), s.graph.m()))
    }

    fn bump(&mut self) -> u64 {
        self.next_generation += 1;
        self.next_generation
    }

    /// Draws the view into all of `ui`'s available space.
    pub fn ui(&mut self, ui: &mut egui::Ui, input: &ViewInput<'_>) -> GraphViewResponse {
        let t0 = Instant::now();
        self.poll_incoming(ui.ctx());
        // The scene is moved out for the frame so that the helpers can borrow it next to
        // `&mut self`; it is put back right after.
        let out = match self.scene.take() {
            Some(mut scene) => {
                let out = self.ui_inner(ui, &mut scene, input);
                self.scene = Some(scene);
                out
            }
            None => {
                self.no_graph(ui);
                GraphViewResponse::default()
            }
        };
        self.stats.ui_ms = t0.elapsed().as_secs_f32() * 1000.0;
        out
    }

    /// Takes all of `ui`'s available space: the view's rectangle (snapped to pixels), its
    /// response and its size in pixels.
    pub(super) fn allocate(&mut self, ui: &mut egui::Ui) -> (Rect, egui::Response, [usize; 2]) {
        let ppp = ui.ctx().pixels_per_point();
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
        (rect, response, size_px)
    }

    fn ui_inner(&mut self, ui: &mut egui::Ui, scene: &mut Scene, input: &ViewInput<'_>) -> GraphViewResponse {
        let ctx = ui.ctx().clone();
        let ppp = ctx.pixels_per_point();
        let (rect, response, _) = self.allocate(ui);
        let painter = ui.painter_at(rect);
        let visuals = ui.visuals().clone();
        let trace = input.trace.filter(|t| t.distances().len() == scene.graph.n());
        let wrong = input.wrong.unwrap_or(&[]);
        self.poll_background(&ctx, scene, trace, input.state_version);
        let scene: &Scene = scene;

        // Camera: fit, drag, zoom.
        let fit = interaction::fit_camera(scene, rect);
        if !self.user_moved {
            self.camera = fit;
        }
        self.handle_input(ui, &response, rect, scene, &fit);
        if !self.user_moved {
            self.camera = fit;
        }

        let vector = scene.vector();
        self.stats.vector = vector;
        // Radii of marks on top, in points.
        let (r_pt, fr_pt) = if vector {
            self.gpu.pending = false;
            let r = self.vector_radius(scene);
            (r, r * 1.35)
        } else if let Some(style) = self.paint_gpu(&ctx, scene, &painter, rect, input, trace, wrong, &visuals) {
            (style.r / ppp, style.frontier_r / ppp)
        } else {
            self.gpu.pending = false;
            self.stats.gpu = false;
            self.stats.zero_copy = false;
            self.stats.vertices_drawn = 0;
            self.stats.arcs_drawn = 0;
            overlay::gpu_unavailable(&painter, rect, self.gpu.failed.as_deref(), &visuals);
            let style = self.dot_style(scene, ppp);
            (style.r / ppp, style.frontier_r / ppp)
        };
        let marks = Marks { painter: &painter, scene, rect, screen: self.camera.to_screen(rect), fr_pt };
        if vector {
            let shader = Shader::new(trace, input.color_mode, distance_ramp());
            self.paint_vector(scene, &painter, &marks.screen, &shader, &visuals);
        } else {
            marks.frontier(&self.frontier);
        }
        marks.wrong(wrong);
        marks.source(trace);

        // Hover and click.
        let out = self.hover_and_click(scene, &response, rect, r_pt);
        if let Some(v) = out.hovered {
            marks.hovered(&self.camera, v, r_pt, visuals.strong_text_color());
        }

        self.overlay(ui, rect, scene);
        if let Some(v) = out.hovered {
            egui::Tooltip::for_widget(&response).at_pointer().show(|ui| {
                overlay::vertex_tooltip(ui, &scene.graph, trace, wrong, v);
            });
        }
        out
    }

    /// Layout snapshots and cell orders that arrived.
    fn poll_background(&mut self, ctx: &egui::Context, scene: &mut Scene, trace: Option<&Trace>, state_version: u64) {
        let generation = self.next_generation + 1;
        if scene.poll(ctx, trace, state_version, self.order_by_distance, generation) {
            self.next_generation = generation;
        }
    }
}

#[cfg(test)]
mod tests;
