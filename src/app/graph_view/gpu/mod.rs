//! The GPU drawing of large graphs (issue 15): an egui paint callback with its own pipelines
//! (`kernels/view*.wgsl`) drawn inside eframe's wgpu render pass.
//!
//! What lives where:
//! - **once per graph and layout**: a worker sorts the vertices and arcs into spatial buckets
//!   ([`buckets`]); the sorted positions (f32 x, y in world units) go up, then the arc index
//!   pairs one 8 MiB chunk per frame, into buffers held in egui-wgpu's [`CallbackResources`],
//!   keyed by the view's id (each [`GraphView`](super::GraphView) has its own); the arc density
//!   texture ([`agg`]) is then counted a batch of arcs per frame. For graphs of more than a
//!   million vertices every first touch of memory is spread over frames ([`staging`]);
//! - **once per state change** (step, colour mode, wrong set): one u32 per vertex, its colour and
//!   status code (see [`pack::vertex_words`]), and, when a frame needs it, the status grid.
//!   When the run is a wgpu solver's on the window's own device, those words are computed on
//!   the GPU from the solver's δ and stamp buffers ([`live`]: zero-copy, no host pass);
//! - **per frame**: a 64-byte uniform with the camera, written in
//!   [`CallbackTrait::prepare`], and the list of bucket ranges the camera sees. Pan and zoom
//!   touch nothing else. When those ranges hold more arcs or vertices than the adapter's
//!   [`Budgets`], the frame samples the aggregates instead: its cost is then the screen's pixels.
//!
//! The render state is found in the egui context's temporary data (the app puts it there each
//! frame with [`provide`]), so every graph view, the compare tab's included, finds it without
//! plumbing. Without it, or after a GPU error, a large graph is not drawn and the view says why.

pub mod agg;
mod agg_grid;
pub mod buckets;
mod callback;
pub mod live;
pub mod pack;
mod setup;
pub mod staging;
mod sync;
mod words;

use super::super::jobs::{Job, repaint};
use super::colors::{Shader, distance_ramp};
use super::dots::{DotStyle, hash_ids};
use super::scene::Scene;
use super::{ColorMode, GraphView, ViewInput, ViewMode};
use crate::algo::DeviceVertexState;
use crate::graph::VertexId;
use crate::trace::Trace;
use buckets::Buckets;
use callback::ViewCallback;
use eframe::egui_wgpu::{self, CallbackResources, CallbackTrait, RenderState, wgpu};
use pack::ViewUniform;
use setup::{buffer, guarded, pipelines, upload};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use wgpu::util::DeviceExt as _;

/// `kernels/view.wgsl` with the shared `struct Agg` prepended (WGSL has no include).
pub const VIEW_WGSL: &str =
    concat!(include_str!("../../../../kernels/view_agg.wgsl"), include_str!("../../../../kernels/view.wgsl"));

/// The egui temp-data key of the [`RenderState`].
fn state_id() -> egui::Id {
    egui::Id::unique("sssp_lab.graph_view.wgpu_render_state")
}

/// Makes eframe's wgpu render state available to the graph views of this frame.
pub fn provide(ctx: &egui::Context, rs: &RenderState) {
    ctx.data_mut(|d| d.insert_temp(state_id(), rs.clone()));
}

/// The render state put there by [`provide`], if any.
pub fn render_state(ctx: &egui::Context) -> Option<RenderState> {
    ctx.data(|d| d.get_temp::<RenderState>(state_id()))
}

/// Largest arc index buffer chunk (bytes): well below every device's `max_buffer_size`; one
/// chunk is uploaded per frame (8 MiB: about 25 ms of the UI thread on lavapipe, where 16 MiB
/// made frames of 100-120 ms), so a 64 M-arc graph never stalls a frame for long.
const CHUNK_BYTES: u64 = 8 << 20;
/// Most bytes of arc indices kept on the GPU; beyond it only the first arcs are drawn (and the
/// overlay says so). 2 GiB is 256 M arcs: the 64 M-arc grid fits.
const ARC_BUDGET_BYTES: u64 = 2 << 30;

/// How one graph's buffers fit a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferPlan {
    /// Arc pairs per index buffer.
    pub chunk_pairs: usize,
    /// Most arc pairs kept on the GPU (the first ones; the overlay says how many are drawn).
    pub budget_pairs: usize,
    /// Vertex slots per storage binding of the positions and words (the status grid's splat
    /// reads them a window at a time; see [`agg::AggBuffers::build_status`]).
    pub window: usize,
}

impl BufferPlan {
    /// The plan for `n` vertices on a device whose buffers hold at most `max_buffer_size` bytes
    /// and whose storage bindings at most `max_storage_binding` bytes; an error (the view then
    /// says why it draws nothing) when the positions, the largest per-vertex buffer, do not fit
    /// one buffer. A graph whose positions exceed a storage binding (lavapipe's 128 MiB: more
    /// than 16.8 M vertices) is drawn in full: only the splat goes by windows.
    pub fn new(n: usize, max_buffer_size: u64, max_storage_binding: u64) -> Result<BufferPlan, String> {
        let pos_bytes = n as u64 * 8;
        if pos_bytes > max_buffer_size {
            return Err(format!(
                "{n} vertices need a {} MiB position buffer, above the device's max_buffer_size of {} MiB",
                pos_bytes.div_ceil(1 << 20),
                max_buffer_size >> 20
            ));
        }
        // Whole blocks of 64 slots keep every window's offset a multiple of 256 bytes, the
        // largest `min_storage_buffer_offset_alignment` WebGPU allows.
        let window = ((max_storage_binding.min(max_buffer_size) / 8) / 64 * 64).max(64) as usize;
        Ok(BufferPlan {
            chunk_pairs: (CHUNK_BYTES.min(max_buffer_size) / 8).max(1) as usize,
            budget_pairs: (ARC_BUDGET_BYTES / 8) as usize,
            window,
        })
    }
}

/// Pipelines shared by all views (one set per target format).
struct Pipelines {
    format: wgpu::TextureFormat,
    layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    arcs: wgpu::RenderPipeline,
    dots: wgpu::RenderPipeline,
    dens_quad: wgpu::RenderPipeline,
    status_quad: wgpu::RenderPipeline,
    agg: agg::AggPipelines,
    words: live::WordsPipeline,
}

/// One view's buffers.
struct ViewBuffers {
    uniform: wgpu::Buffer,
    pos: wgpu::Buffer,
    words: wgpu::Buffer,
    /// Index buffers of arc pairs (bucket order) and their index counts.
    arcs: Vec<(wgpu::Buffer, u32)>,
    chunk_pairs: usize,
    total_pairs: usize,
    agg: agg::AggBuffers,
    bind: wgpu::BindGroup,
    /// The zero-copy pass's buffers, made on its first use for this sorted graph.
    live: Option<live::LiveWords>,
    /// First touches of a large graph's buffers still to run, one per frame before the view
    /// draws (empty for graphs of up to `Stages::min_n` vertices, whose positions go up at once).
    init: std::collections::VecDeque<staging::InitOp>,
    /// Frames since the upload's first touches ([`ViewBuffers::init`]) were done. For graphs of
    /// more than `Stages::min_n` vertices the first writes the colour words but runs no builds:
    /// on lavapipe the 16.8 M grid's upload frame took 0.8–1.9 s with all of it at once.
    frames: u32,
}

/// What lives in [`CallbackResources`].
#[derive(Default)]
struct Resources {
    pipelines: Option<Pipelines>,
    views: HashMap<u64, ViewBuffers>,
}

/// What determines the vertex words.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WordsKey {
    pub graph: u64,
    pub state_version: u64,
    pub has_trace: bool,
    pub color_mode: ColorMode,
    pub wrong: u64,
}

/// How much an adapter draws per frame before the view switches to the aggregates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// Most arcs drawn as lines in a frame.
    pub arcs: u64,
    /// Most vertices drawn as dots in a frame.
    pub dots: u64,
    /// Arc pairs counted into the density texture per frame while it builds.
    pub build_pairs: usize,
    /// Vertices splatted into the status grid per frame while it builds.
    pub status_vertices: u32,
}

impl Budgets {
    /// Software rasterizers (lavapipe: about 10 M one-pixel lines a second on two cores) get
    /// budgets for about 30 ms a frame. Hardware GPUs get budgets for under 10 ms a frame: on
    /// the H100, 4 M arcs as lines take about 5 ms and 1 M vertices as discs about 3.5 ms
    /// (16 M arcs took 17 ms and 4 M discs 15 ms, which kept zooming under 60 fps;
    /// `bench/results/graph-view-frames/h100-2026-11-26/`).
    /// `SSSP_LAB_VIEW_ARCS` overrides the arcs budget (for measuring it, see
    /// `bench/results/graph-view-frames/`).
    pub fn for_adapter(device_type: wgpu::DeviceType) -> Budgets {
        let mut b = match device_type {
            wgpu::DeviceType::Cpu => {
                Budgets { arcs: 150_000, dots: 60_000, build_pairs: 250_000, status_vertices: 2_000_000 }
            }
            _ => Budgets { arcs: 4_000_000, dots: 1_000_000, build_pairs: usize::MAX, status_vertices: u32::MAX },
        };
        if let Some(arcs) = std::env::var("SSSP_LAB_VIEW_ARCS").ok().and_then(|s| s.parse().ok()) {
            b.arcs = arcs;
        }
        b
    }
}

/// What one frame draws: arcs and vertices each directly (slot / pair ranges seen by the
/// camera) or from the aggregates.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Layer {
    #[default]
    Nothing,
    Direct(Vec<(u32, u32)>),
    Aggregate,
}

/// The sorted graph a view draws, built on a worker.
type Prepared = (u64, Result<Arc<Buckets>, String>);

/// A graph view's side of the GPU drawing: what has been uploaded, and why not when it failed.
pub struct GpuView {
    id: u64,
    rs: Option<RenderState>,
    budgets: Budgets,
    /// The sorted vertices and arcs of the scene generation `buckets.0`.
    buckets: Option<(u64, Arc<Buckets>)>,
    job: Option<Job<Prepared>>,
    /// The pipelines being compiled on a worker (once per device and target format).
    pipelines_job: Option<Job<Result<Pipelines, String>>>,
    uploaded: Option<u64>,
    words_for: Option<WordsKey>,
    words_version: u64,
    /// Scratch for the vertex words in slot order (kept between state changes).
    words: Vec<u32>,
    /// What the GPU's word buffer holds, when the host wrote it last (steps then upload only
    /// the blocks that changed); `None` after a new upload or a zero-copy pass.
    gpu_words: Option<Vec<u32>>,
    /// The trace (id) and cursor position `gpu_words` shows.
    words_at: Option<(u64, usize)>,
    /// Whether the GPU's word buffer has been written whole since the upload.
    words_ready: bool,
    /// The first fill of a large graph's words in progress: for which state, how far, and the
    /// distance ramp's top.
    first_fill: Option<(WordsKey, usize, crate::graph::Distance)>,
    /// How far the density build got (pairs), shared with the callback.
    dens_done: Arc<AtomicU64>,
    /// Whether the status grid the last frame drew is behind the vertex words (a build spread
    /// over frames), shared with the callback.
    status_behind: Arc<AtomicBool>,
    /// Why the GPU drawing is off for the current graph (written in the view).
    pub failed: Option<String>,
    /// What the GPU drawing leaves out or is still building, shown in the overlay.
    pub note: Option<String>,
    pub arcs_drawn: usize,
    /// Set for a new graph until the view has drawn it in full, or chose not to draw it here
    /// (small graphs drawn as shapes, no wgpu render state).
    pub pending: bool,
    /// Arc pairs uploaded (the density build's total).
    total_pairs: usize,
    /// First touches of the uploaded graph's buffers still to run (see `staging`).
    init_left: usize,
    /// The build budgets' scale on software adapters (see `staging::Pace`).
    pace: staging::Pace,
    /// How many first touches a preparing frame runs (see `staging::Pace::steps`).
    init_pace: staging::Pace,
    /// How a large graph's preparation is staged.
    pub stages: staging::Stages,
    /// How the last frame drew arcs and vertices ([`layer_name`]), for tests and logs.
    pub last: (&'static str, &'static str),
    /// How the vertex words were last made.
    pub words_path: WordsPath,
}

/// Where a state's vertex colour words come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WordsPath {
    /// None made yet.
    #[default]
    None,
    /// From the solver's own buffers on this device (see [`live`]).
    ZeroCopy,
    /// The host recoloured the vertices the trace's deltas touched.
    Deltas,
    /// The host packed every vertex.
    Full,
}

impl Default for GpuView {
    fn default() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        GpuView {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            rs: None,
            budgets: Budgets::for_adapter(wgpu::DeviceType::Cpu),
            buckets: None,
            job: None,
            pipelines_job: None,
            uploaded: None,
            words_for: None,
            words_version: 0,
            words: Vec::new(),
            gpu_words: None,
            words_at: None,
            words_ready: false,
            first_fill: None,
            dens_done: Arc::new(AtomicU64::new(0)),
            status_behind: Arc::new(AtomicBool::new(false)),
            failed: None,
            note: None,
            arcs_drawn: 0,
            total_pairs: 0,
            init_left: 0,
            pace: staging::Pace::default(),
            init_pace: staging::Pace::default(),
            stages: staging::Stages::default(),
            pending: true,
            last: ("nothing", "nothing"),
            words_path: WordsPath::None,
        }
    }
}

impl Drop for GpuView {
    fn drop(&mut self) {
        // Free this view's buffers. Views are dropped on the UI thread, between eframe's paints,
        // so the renderer's lock is free.
        if let Some(rs) = &self.rs
            && let Some(res) = rs.renderer.write().callback_resources.get_mut::<Resources>()
        {
            res.views.remove(&self.id);
        }
    }
}

/// What the frame needs from the scene and the run.
pub struct Frame<'a> {
    pub scene: &'a Scene,
    pub trace: Option<&'a Trace>,
    pub color_mode: ColorMode,
    pub wrong: &'a [VertexId],
    /// The solver's own buffers when they hold the state shown (see [`live`]).
    pub live: Option<&'a DeviceVertexState>,
    pub words_key: WordsKey,
    pub uniform: ViewUniform,
    /// The world rectangle the view shows, `[min x, min y, max x, max y]`.
    pub world: [f32; 4],
}

impl GpuView {
    /// A new graph: everything is uploaded again, and a past failure is forgotten.
    pub fn reset(&mut self) {
        self.buckets = None;
        self.job = None;
        self.uploaded = None;
        self.words_for = None;
        self.failed = None;
        self.note = None;
        self.arcs_drawn = 0;
        self.pending = true;
    }

    /// Whether nothing is pending: the sorted graph is uploaded and the density fully built
    /// (tests and screenshots wait for this).
    pub fn is_idle(&self) -> bool {
        self.failed.is_some() || !self.pending || self.ready()
    }

    fn ready(&self) -> bool {
        self.job.is_none()
            && self.uploaded.is_some()
            && self.init_left == 0
            && self.dens_done.load(Ordering::Relaxed) as usize >= self.total_pairs
            && !self.status_behind.load(Ordering::Relaxed)
    }

    /// Whether the GPU path can draw this frame: a render state exists and nothing failed.
    pub fn available(&mut self, ctx: &egui::Context) -> bool {
        if self.failed.is_some() {
            return false;
        }
        if self.rs.is_none() {
            self.rs = render_state(ctx);
            if let Some(rs) = &self.rs {
                self.budgets = Budgets::for_adapter(rs.adapter.get_info().device_type);
            }
        }
        self.rs.is_some()
    }

    /// Whether the target wants linear colours (the shader then decodes egui's sRGB bytes).
    pub fn srgb_target(&self) -> bool {
        self.rs.as_ref().is_some_and(|rs| rs.target_format.is_srgb())
    }

    /// Uploads what changed and returns the paint callback for `rect`; fills `frontier` when the
    /// state changed. `Ok(None)` while the sorted graph is still being built on its worker. On
    /// an error the GPU path is switched off for this graph (see [`GpuView::failed`]).
    pub fn frame(
        &mut self,
        ctx: &egui::Context,
        rect: egui::Rect,
        f: &Frame<'_>,
        frontier: &mut Vec<VertexId>,
    ) -> Option<Option<egui::Shape>> {
        let rs = self.rs.clone()?;
        match self.sync(ctx, &rs, f, frontier) {
            Ok(Some(cb)) => Some(Some(egui::Shape::Callback(egui_wgpu::Callback::new_paint_callback(rect, cb)))),
            Ok(None) => Some(None),
            Err(e) => {
                self.failed = Some(e);
                None
            }
        }
    }

    /// The latest sorted graph: this scene generation's once its worker is done, an earlier
    /// layout's of the same graph until then (`None` only before the first sort).
    fn prepared(
        &mut self,
        ctx: &egui::Context,
        scene: &Scene,
        plan: BufferPlan,
    ) -> Result<Option<(u64, Arc<Buckets>)>, String> {
        let generation = scene.generation;
        // A finished sort is taken even when the layout moved on since (a force layout sends
        // snapshots every few frames): cancelling it would never let one finish.
        if let Some(job) = &mut self.job
            && let Some(out) = job.poll()
        {
            self.job = None;
            let (g, b) = out?;
            self.buckets = Some((g, b?));
        }
        if self.buckets.as_ref().is_some_and(|(g, _)| *g == generation) {
            return Ok(self.buckets.clone());
        }
        if self.job.is_none() {
            let graph = scene.graph.clone();
            let flags = scene.flags.clone();
            let raster = scene.mode == ViewMode::Raster;
            let pos: Arc<Vec<[f32; 2]>> = if raster {
                Arc::new(pack::cell_positions(scene.cells, scene.order.as_ref().map(|(_, r)| r.as_slice())))
            } else {
                scene.pos.clone()
            };
            let want = if raster { 0 } else { scene.arcs_to_draw };
            let job = Job::spawn("sorting the graph for the GPU view", repaint(ctx), move |_| {
                if pos.len() != graph.n() {
                    return (generation, Err(format!("{} positions for {} vertices", pos.len(), graph.n())));
                }
                let mut pairs = Vec::new();
                if want > 0 {
                    pack::arc_pairs(&graph, &flags, 0, plan.budget_pairs, &mut pairs);
                }
                (generation, Ok(Arc::new(Buckets::new(&graph, &pos, &pairs))))
            });
            self.job = Some(job);
        }
        // Until then an earlier layout of the same graph (a force-layout snapshot, another cell
        // order) keeps being drawn: a frame with nothing in it would flicker.
        Ok(self.buckets.clone())
    }
}

/// A layer's name for logs: `direct`, `aggregate` or `nothing`.
pub fn layer_name(l: &Layer) -> &'static str {
    match l {
        Layer::Nothing => "nothing",
        Layer::Direct(_) => "direct",
        Layer::Aggregate => "aggregate",
    }
}

impl GraphView {
    /// How the last frame drew arcs and vertices (see [`Layer`]).
    pub fn gpu_layers(&self) -> (&'static str, &'static str) {
        self.gpu.last
    }

    /// Draws the large graph through the GPU paint callback; returns the dot style used (for the
    /// marks on top), or `None` when the GPU path is unavailable or failed (the caller then says
    /// why in the view).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn paint_gpu(
        &mut self,
        ctx: &egui::Context,
        scene: &Scene,
        painter: &egui::Painter,
        rect: egui::Rect,
        input: &ViewInput<'_>,
        trace: Option<&Trace>,
        wrong: &[VertexId],
        visuals: &egui::Visuals,
    ) -> Option<DotStyle> {
        if !self.gpu.available(ctx) {
            return None;
        }
        let ppp = ctx.pixels_per_point();
        let style = self.dot_style(scene, ppp);
        let mut u = ViewUniform::new(&self.camera, [rect.width(), rect.height()], ppp);
        if scene.mode == ViewMode::Raster {
            // Cells are squares one world unit wide, touching at any zoom.
            u.dot_px = (0.5 * self.camera.scale as f32 * ppp).max(0.5);
            u.frontier_k = 1.0;
            u.flags |= pack::FLAG_CELLS | pack::FLAG_DRAW_UNREACHED;
        } else {
            u.dot_px = style.r;
            u.frontier_k = style.frontier_r / style.r.max(1e-3);
            if style.draw_unreached {
                u.flags |= pack::FLAG_DRAW_UNREACHED;
            }
        }
        if self.gpu.srgb_target() {
            u.flags |= pack::FLAG_SRGB_TARGET;
        }
        // The CPU arc raster's grey; one-pixel lines blended at this alpha read as density.
        let base = if visuals.dark_mode { 150 } else { 70 };
        u.arc_color = pack::arc_color(egui::Color32::from_rgba_unmultiplied(base, base, base, 150));
        let words_key = WordsKey {
            graph: scene.first_generation,
            state_version: input.state_version,
            has_trace: trace.is_some(),
            color_mode: input.color_mode,
            wrong: hash_ids(wrong),
        };
        let a = self.camera.screen_to_world(rect, rect.left_bottom());
        let b = self.camera.screen_to_world(rect, rect.right_top());
        // A margin of the largest dot, so dots just outside still show their edge.
        let m = 12.0 / self.camera.scale.max(1e-30);
        let world = [(a[0] - m) as f32, (a[1] - m) as f32, (b[0] + m) as f32, (b[1] + m) as f32];
        let f =
            Frame { scene, trace, color_mode: input.color_mode, wrong, live: input.live, words_key, uniform: u, world };
        if let Some(shape) = self.gpu.frame(ctx, rect, &f, &mut self.frontier)? {
            painter.add(shape);
        }
        self.stats.gpu = true;
        self.stats.zero_copy = self.gpu.words_path == WordsPath::ZeroCopy;
        self.stats.vertices_drawn = scene.graph.n();
        self.stats.arcs_drawn = self.gpu.arcs_drawn;
        Some(style)
    }
}

#[cfg(test)]
mod bench;
#[cfg(test)]
mod tests;
