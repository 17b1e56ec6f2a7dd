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
pub mod buckets;
pub mod live;
pub mod pack;
pub mod staging;
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
use eframe::egui_wgpu::{self, CallbackResources, CallbackTrait, RenderState, wgpu};
use pack::ViewUniform;
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

    fn sync(
        &mut self,
        ctx: &egui::Context,
        rs: &RenderState,
        f: &Frame<'_>,
        frontier: &mut Vec<VertexId>,
    ) -> Result<Option<ViewCallback>, String> {
        let scene = f.scene;
        let n = scene.graph.n();
        let limits = rs.device.limits();
        let plan = BufferPlan::new(n, limits.max_buffer_size, limits.max_storage_buffer_binding_size)?;
        let sorted = self.prepared(ctx, scene, plan)?;
        let mut renderer = rs.renderer.write();
        let res = renderer.callback_resources.entry::<Resources>().or_insert_with(Resources::default);
        if res.pipelines.as_ref().is_none_or(|p| p.format != rs.target_format) {
            // Compiled on a worker while the graph is sorted (about 300 ms on a software adapter,
            // which stalled the frame that first uploaded a graph).
            let job = self.pipelines_job.get_or_insert_with(|| {
                let (device, format) = (rs.device.clone(), rs.target_format);
                Job::spawn("compiling the graph view's shaders", repaint(ctx), move |_| {
                    guarded(&device, "creating the pipelines", || pipelines(&device, format))
                })
            });
            match job.poll() {
                Some(out) => {
                    self.pipelines_job = None;
                    res.pipelines = Some(out??);
                    res.views.clear();
                    self.uploaded = None;
                }
                None => {
                    self.note = Some("GPU view: compiling its shaders...".into());
                    self.last = ("nothing", "nothing");
                    return Ok(None);
                }
            }
        }
        let Some(pipes) = &res.pipelines else { return Err("no pipelines".into()) };
        let Some((sorted_for, buckets)) = sorted else {
            self.note = Some("GPU view: sorting the graph into buckets...".into());
            self.last = ("nothing", "nothing");
            return Ok(None);
        };

        if self.uploaded != Some(sorted_for) || !res.views.contains_key(&self.id) {
            res.views.remove(&self.id);
            let v =
                guarded(&rs.device, "uploading the graph", || upload(rs, pipes, scene, &buckets, plan, self.stages))??;
            self.arcs_drawn = buckets.n_pairs();
            self.total_pairs = buckets.n_pairs();
            let want = if scene.mode == ViewMode::Raster { 0 } else { scene.arcs_to_draw };
            self.note = (self.arcs_drawn < want).then(|| {
                format!(
                    "GPU: first {} of {} arcs drawn ({} MiB budget)",
                    super::overlay::fmt_count(self.arcs_drawn),
                    super::overlay::fmt_count(want),
                    ARC_BUDGET_BYTES >> 20
                )
            });
            self.init_left = v.init.len();
            res.views.insert(self.id, v);
            self.dens_done.store(0, Ordering::Relaxed);
            self.uploaded = Some(sorted_for);
            self.words_for = None;
            self.gpu_words = None;
            self.words_ready = false;
            self.first_fill = None;
            self.pace = staging::Pace::default();
            self.init_pace = staging::Pace::default();
            if n > self.stages.min_n {
                ctx.request_repaint();
                self.last = ("nothing", "nothing");
                return Ok(None);
            }
            if let Some(v) = res.views.get_mut(&self.id) {
                v.frames = 2;
            }
        }
        let Some(view) = res.views.get_mut(&self.id) else { return Err("no view buffers".into()) };
        if !view.init.is_empty() {
            // A resting frame (one in sixteen) touches nothing: its time is the floor.
            let steps = self.init_pace.touch_frame();
            for op in view.init.drain(..steps.min(view.init.len())) {
                guarded(&rs.device, "uploading the graph", || {
                    staging::run(op, &rs.device, &rs.queue, &view.pos, &buckets.pos, &view.agg)
                })?;
            }
            let left = view.init.len();
            self.init_left = left;
            self.note = Some(format!(
                "GPU view: uploading the graph, {} MiB to go",
                (left as u64 * self.stages.op_bytes) >> 20
            ));
            self.last = ("nothing", "nothing");
            ctx.request_repaint();
            return Ok(None);
        }
        self.init_left = 0;
        view.frames = view.frames.saturating_add(1);
        let uploaded_pairs = view.arcs.len() * view.chunk_pairs;
        // A large graph's arcs follow its first colour words (each is a frame's first touch).
        if uploaded_pairs < view.total_pairs && (self.words_ready || n <= self.stages.min_n) {
            let c = &buckets.pairs[uploaded_pairs * 2..(uploaded_pairs + view.chunk_pairs).min(view.total_pairs) * 2];
            // Written rather than created with contents, which has wgpu zero a staging buffer
            // before copying into it.
            let b = guarded(&rs.device, "uploading the arcs", || {
                let b = rs.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("graph_view.arcs"),
                    size: std::mem::size_of_val(c) as u64,
                    usage: wgpu::BufferUsages::INDEX | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                rs.queue.write_buffer(&b, 0, bytemuck::cast_slice(c));
                b
            })?;
            view.arcs.push((b, c.len() as u32));
            ctx.request_repaint();
        }

        if self.words_for != Some(f.words_key) {
            let need = 4 * n as u64;
            let zero_copy = f.live.filter(|l| {
                // The pass binds whole per-vertex buffers.
                need <= limits.max_storage_buffer_binding_size
                    && l.device == rs.device
                    && l.dist.size() >= need
                    && l.stamp.size() >= need
                    && f.wrong.len() <= live::MAX_WRONG
                    && f.trace.is_some_and(|t| t.pos() == l.iterations as usize)
            });
            match (zero_copy, f.trace) {
                (Some(l), Some(t)) => {
                    // The ramp's top, as the host path computes it (a scan of δ in distance mode).
                    let max_dist = Shader::new(Some(t), f.color_mode, distance_ramp()).max_dist;
                    let lw = match &mut view.live {
                        Some(lw) => lw,
                        None => view.live.insert(guarded(&rs.device, "uploading the slot order", || {
                            live::LiveWords::new(&rs.device, &buckets.order)
                        })?),
                    };
                    guarded(&rs.device, "colouring from the solver's buffers", || {
                        lw.write(
                            &rs.device,
                            &rs.queue,
                            &pipes.words,
                            l,
                            n,
                            f.color_mode,
                            max_dist.clamp(0, u32::MAX as i64) as u32,
                            &view.words,
                            &buckets.slot,
                            f.wrong,
                        )
                    })?;
                    frontier.clear();
                    frontier.extend_from_slice(t.frontier());
                    self.gpu_words = None;
                    self.words_path = WordsPath::ZeroCopy;
                }
                _ if !self.words_ready && n > self.stages.min_n => {
                    let steps = self.init_pace.touch_frame();
                    if !self.fill_slice(&rs.queue, &view.words, &buckets, f, frontier, steps) {
                        let done = self.first_fill.map_or(0, |(_, d, _)| d);
                        self.note =
                            Some(format!("GPU view: colouring the vertices, {:.0} %", 100.0 * done as f64 / n as f64));
                        self.last = ("nothing", "nothing");
                        // The fill's last frame is the staged one that runs no builds.
                        view.frames = 0;
                        ctx.request_repaint();
                        return Ok(None);
                    }
                }
                _ => {
                    self.host_words(&rs.queue, &view.words, &buckets, f, frontier);
                }
            }
            self.words_ready = true;
            self.words_for = Some(f.words_key);
            self.words_version += 1;
        }

        let seen = buckets.visible(f.world);
        let arcs = if seen.n_pairs == 0 {
            Layer::Nothing
        } else if seen.n_pairs <= self.budgets.arcs {
            Layer::Direct(seen.pairs)
        } else {
            Layer::Aggregate
        };
        let dots = if seen.n_vertices == 0 {
            Layer::Nothing
        } else if seen.n_vertices <= self.budgets.dots {
            Layer::Direct(seen.vertices)
        } else {
            Layer::Aggregate
        };
        let building = view.total_pairs > 0 && (self.dens_done.load(Ordering::Relaxed) as usize) < view.total_pairs;
        if arcs == Layer::Aggregate && building {
            let done = self.dens_done.load(Ordering::Relaxed) as f64 / view.total_pairs as f64;
            self.note = Some(format!("GPU view: counting arcs into the density tiles, {:.0} %", 100.0 * done));
            ctx.request_repaint();
        } else if self.note.as_deref().is_some_and(|n| n.starts_with("GPU view:")) {
            self.note = None;
        }
        if self.status_behind.load(Ordering::Relaxed) {
            // The status grid is built a chunk per frame.
            ctx.request_repaint();
        }
        self.last = (layer_name(&arcs), layer_name(&dots));
        let work = view.frames >= 2 && (building || self.status_behind.load(Ordering::Relaxed));
        let builds = view.frames >= 2 && (self.pace.frame(work) || !work);
        let status_vertices = self.pace.apply(self.budgets.status_vertices as usize).min(u32::MAX as usize) as u32;
        Ok(Some(ViewCallback {
            id: self.id,
            uniform: f.uniform,
            arcs,
            dots,
            words_version: self.words_version,
            builds,
            build_pairs: self.pace.apply(self.budgets.build_pairs),
            status_vertices,
            dens_done: self.dens_done.clone(),
            status_behind: self.status_behind.clone(),
        }))
    }
}

/// Uploads a sorted graph: positions, vertex words (filled later), arc chunks and the
/// aggregates' grids.
fn upload(
    rs: &RenderState,
    pipes: &Pipelines,
    scene: &Scene,
    b: &Buckets,
    plan: BufferPlan,
    stages: staging::Stages,
) -> Result<ViewBuffers, String> {
    let device = &rs.device;
    let n = b.pos.len();
    let storage = wgpu::BufferUsages::STORAGE;
    // Zero-length buffers are not allowed: an empty graph gets one dummy entry.
    let staged = n > stages.min_n;
    let pos = if staged {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("graph_view.positions"),
            size: n as u64 * 8,
            usage: wgpu::BufferUsages::VERTEX | storage | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    } else {
        let pos_bytes: &[u8] = if n > 0 { bytemuck::cast_slice(&b.pos) } else { &[0; 8] };
        buffer(device, "graph_view.positions", pos_bytes, wgpu::BufferUsages::VERTEX | storage)
    };
    let words = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("graph_view.words"),
        size: (n.max(1) * 4) as u64,
        usage: wgpu::BufferUsages::VERTEX | storage | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    // The arcs follow one chunk per frame (`upload_next_chunk`).
    let arcs = Vec::new();
    let cells = scene.mode == ViewMode::Raster;
    let spacing = if cells { 1.0 } else { scene.spacing };
    let u = agg::AggUniform::new(b.bbox, spacing, cells, n, device.limits().max_texture_dimension_2d);
    let agg = agg::AggBuffers::new(device, &pipes.agg, u, &pos, &words, plan.window);
    let uniform = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("graph_view.uniform"),
        size: std::mem::size_of::<ViewUniform>() as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("graph_view.bind"),
        layout: &pipes.layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 1, resource: agg.uniform_buf.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::TextureView(&agg.dens_view) },
            wgpu::BindGroupEntry { binding: 3, resource: wgpu::BindingResource::Sampler(&pipes.sampler) },
            wgpu::BindGroupEntry { binding: 4, resource: agg.status.as_entire_binding() },
        ],
    });
    // Large grids (NY's status grids) are first touched over frames too; small graphs with
    // small grids draw in their first frame (a force layout re-uploads every few frames and
    // must never blank the view). Tests shrink the ops, and the threshold with them.
    let big_grids = agg.status_grid(false).size() > staging::STAGED_GRID_BYTES.min(4 * stages.op_bytes);
    let init = if staged || big_grids {
        staging::init_ops(if staged { n } else { 0 }, &agg, stages.op_bytes)
    } else {
        Default::default()
    };
    Ok(ViewBuffers {
        init,
        uniform,
        pos,
        words,
        arcs,
        chunk_pairs: plan.chunk_pairs,
        total_pairs: b.n_pairs(),
        agg,
        bind,
        live: None,
        frames: 0,
    })
}

/// Runs `f` inside out-of-memory and validation error scopes: a failed allocation or a bad
/// pipeline becomes a message instead of wgpu's default panic.
fn guarded<T>(device: &wgpu::Device, what: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    let oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let out = f();
    for scope in [validation.pop(), oom.pop()] {
        if let Some(e) = pollster::block_on(scope) {
            return Err(format!("{what}: {e}"));
        }
    }
    Ok(out)
}

fn buffer(device: &wgpu::Device, label: &str, contents: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
}

fn pipelines(device: &wgpu::Device, format: wgpu::TextureFormat) -> Pipelines {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("kernels/view.wgsl"),
        source: wgpu::ShaderSource::Wgsl(VIEW_WGSL.into()),
    });
    let vf = wgpu::ShaderStages::VERTEX_FRAGMENT;
    let entry = |binding, ty| wgpu::BindGroupLayoutEntry { binding, visibility: vf, ty, count: None };
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("graph_view.layout"),
        entries: &[
            entry(
                0,
                wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
            ),
            entry(
                1,
                wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
            ),
            entry(
                2,
                wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
            ),
            entry(3, wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering)),
            wgpu::BindGroupLayoutEntry {
                binding: 4,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only: true },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            },
        ],
    });
    let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("graph_view.pipeline_layout"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    // egui's render pass: premultiplied alpha, one sample, no depth (eframe's defaults, which
    // this app keeps).
    let target = wgpu::ColorTargetState {
        format,
        blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
        write_mask: wgpu::ColorWrites::ALL,
    };
    let pos_attr = [wgpu::VertexAttribute { format: wgpu::VertexFormat::Float32x2, offset: 0, shader_location: 0 }];
    let word_attr = [wgpu::VertexAttribute { format: wgpu::VertexFormat::Uint32, offset: 0, shader_location: 1 }];
    let pipeline = |label: &str, vs: &str, fs: &str, buffers: &[Option<wgpu::VertexBufferLayout<'_>>], topology| {
        agg::render_pipeline(device, label, &pl, &module, (vs, fs), buffers, topology, target.clone())
    };
    let arcs = pipeline(
        "graph_view.arcs",
        "arc_vs",
        "arc_fs",
        &[Some(wgpu::VertexBufferLayout {
            array_stride: 8,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &pos_attr,
        })],
        wgpu::PrimitiveTopology::LineList,
    );
    let dots = pipeline(
        "graph_view.dots",
        "dot_vs",
        "dot_fs",
        &[
            Some(wgpu::VertexBufferLayout {
                array_stride: 8,
                step_mode: wgpu::VertexStepMode::Instance,
                attributes: &pos_attr,
            }),
            Some(wgpu::VertexBufferLayout {
                array_stride: 4,
                step_mode: wgpu::VertexStepMode::Instance,
                attributes: &word_attr,
            }),
        ],
        wgpu::PrimitiveTopology::TriangleList,
    );
    let dens_quad =
        pipeline("graph_view.density", "quad_vs", "dens_quad_fs", &[], wgpu::PrimitiveTopology::TriangleList);
    let status_quad =
        pipeline("graph_view.status", "quad_vs", "status_quad_fs", &[], wgpu::PrimitiveTopology::TriangleList);
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("graph_view.density_sampler"),
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Nearest,
        mipmap_filter: wgpu::MipmapFilterMode::Nearest,
        ..Default::default()
    });
    let agg = agg::AggPipelines::new(device, &module);
    let words = live::WordsPipeline::new(device);
    Pipelines { format, layout, sampler, arcs, dots, dens_quad, status_quad, agg, words }
}

/// One frame's drawing of one view: its id (to find its buffers), the camera and what to draw.
struct ViewCallback {
    id: u64,
    uniform: ViewUniform,
    arcs: Layer,
    dots: Layer,
    words_version: u64,
    /// Whether this frame may run the density and status builds (not in the frame that first
    /// writes the colour words of a large graph).
    builds: bool,
    build_pairs: usize,
    status_vertices: u32,
    dens_done: Arc<AtomicU64>,
    status_behind: Arc<AtomicBool>,
}

impl CallbackTrait for ViewCallback {
    fn prepare(
        &self,
        _device: &wgpu::Device,
        queue: &wgpu::Queue,
        _screen: &egui_wgpu::ScreenDescriptor,
        encoder: &mut wgpu::CommandEncoder,
        resources: &mut CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        let Some(res) = resources.get_mut::<Resources>() else { return Vec::new() };
        let (Some(pipes), Some(v)) = (&res.pipelines, res.views.get_mut(&self.id)) else { return Vec::new() };
        queue.write_buffer(&v.uniform, 0, bytemuck::bytes_of(&self.uniform));
        if !self.builds {
            self.status_behind.store(self.dots == Layer::Aggregate, Ordering::Relaxed);
            return Vec::new();
        }
        // The status grid (when this frame shows it) and the density (built a batch per frame
        // whether or not this frame samples it, so it is ready when the user zooms out) take
        // turns while both have work: each costs up to ~100 ms a frame on a software adapter.
        let uploaded = (v.arcs.len() * v.chunk_pairs).min(v.total_pairs);
        let density_due = v.agg.density_due(uploaded);
        let status_due = self.dots == Layer::Aggregate && v.agg.status_due(self.words_version);
        let turn = v.frames.is_multiple_of(2);
        if density_due && (!status_due || turn) {
            v.agg.build_density(
                &pipes.agg,
                encoder,
                &v.pos,
                &v.arcs,
                v.chunk_pairs,
                uploaded,
                v.total_pairs,
                self.build_pairs,
            );
            self.dens_done.store(v.agg.dens_reported() as u64, Ordering::Relaxed);
        }
        let behind = if status_due && (!density_due || !turn) {
            !v.agg.build_status(&pipes.agg, queue, encoder, self.words_version, self.status_vertices)
        } else {
            status_due
        };
        self.status_behind.store(behind, Ordering::Relaxed);
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &CallbackResources,
    ) {
        let Some(res) = resources.get::<Resources>() else { return };
        let (Some(pipes), Some(v)) = (&res.pipelines, res.views.get(&self.id)) else { return };
        pass.set_bind_group(0, &v.bind, &[]);
        match &self.arcs {
            Layer::Nothing => {}
            Layer::Aggregate => {
                pass.set_pipeline(&pipes.dens_quad);
                pass.draw(0..3, 0..1);
            }
            Layer::Direct(ranges) => {
                pass.set_pipeline(&pipes.arcs);
                pass.set_vertex_buffer(0, v.pos.slice(..));
                for &r in ranges {
                    agg::for_chunks(&v.arcs, v.chunk_pairs, r, |b, idx| {
                        pass.set_index_buffer(b.slice(..), wgpu::IndexFormat::Uint32);
                        pass.draw_indexed(idx, 0, 0..1);
                    });
                }
            }
        }
        match &self.dots {
            Layer::Nothing => {}
            Layer::Aggregate => {
                pass.set_pipeline(&pipes.status_quad);
                pass.draw(0..3, 0..1);
            }
            Layer::Direct(ranges) => {
                pass.set_pipeline(&pipes.dots);
                pass.set_vertex_buffer(0, v.pos.slice(..));
                pass.set_vertex_buffer(1, v.words.slice(..));
                for &(a, b) in ranges {
                    pass.draw(0..6, a..b);
                }
            }
        }
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
