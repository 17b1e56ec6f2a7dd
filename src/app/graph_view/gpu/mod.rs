//! The GPU drawing of large graphs (issue 15, first slice): an egui paint callback with its own
//! two pipelines (`kernels/view.wgsl`) drawn inside eframe's wgpu render pass.
//!
//! What lives where:
//! - **once per graph** (or per layout snapshot / cell order): vertex positions (f32 x, y in world
//!   units) and the drawn arcs (u32 index pairs, in chunks below the device's buffer limit) are
//!   uploaded into buffers held in egui-wgpu's [`CallbackResources`], keyed by the view's id
//!   (each [`GraphView`](super::GraphView) has its own; a new graph replaces them);
//! - **once per state change** (step, colour mode, wrong set): one u32 per vertex, its colour and
//!   status code (see [`pack::vertex_words`]);
//! - **per frame**: a 64-byte uniform with the camera, written in
//!   [`CallbackTrait::prepare`]. Pan and zoom touch nothing else.
//!
//! The render state is found in the egui context's temporary data (the app puts it there each
//! frame with [`provide`]), so every graph view, the compare tab's included, finds it without
//! plumbing. Without it, or after a GPU error, the view falls back to the CPU rasters.

pub mod pack;

use super::colors::{Shader, distance_ramp};
use super::layers::hash_ids;
use super::scene::Scene;
use super::vertices::DotStyle;
use super::{ColorMode, GraphView, ViewInput, ViewMode};
use crate::graph::VertexId;
use crate::trace::Trace;
use eframe::egui_wgpu::{self, CallbackResources, CallbackTrait, RenderState, wgpu};
use pack::ViewUniform;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use wgpu::util::DeviceExt as _;

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

/// Largest arc index buffer chunk (bytes): well below every device's `max_buffer_size` and small
/// enough that the CPU copy made while uploading stays modest.
const CHUNK_BYTES: u64 = 64 << 20;
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
}

impl BufferPlan {
    /// The plan for `n` vertices on a device whose buffers hold at most `max_buffer_size` bytes;
    /// an error (the CPU rasters then draw, and the overlay says why) when the positions, the
    /// largest per-vertex buffer, do not fit one buffer.
    pub fn new(n: usize, max_buffer_size: u64) -> Result<BufferPlan, String> {
        let pos_bytes = n as u64 * 8;
        if pos_bytes > max_buffer_size {
            return Err(format!(
                "{n} vertices need a {} MiB position buffer, above the device's max_buffer_size of {} MiB",
                pos_bytes.div_ceil(1 << 20),
                max_buffer_size >> 20
            ));
        }
        Ok(BufferPlan {
            chunk_pairs: (CHUNK_BYTES.min(max_buffer_size) / 8).max(1) as usize,
            budget_pairs: (ARC_BUDGET_BYTES / 8) as usize,
        })
    }
}

/// Pipelines shared by all views (one per target format).
struct Pipelines {
    format: wgpu::TextureFormat,
    layout: wgpu::BindGroupLayout,
    arcs: wgpu::RenderPipeline,
    dots: wgpu::RenderPipeline,
}

/// One view's buffers.
struct ViewBuffers {
    uniform: wgpu::Buffer,
    bind: wgpu::BindGroup,
    pos: Option<wgpu::Buffer>,
    words: Option<wgpu::Buffer>,
    n: u32,
    /// Index buffers of arc pairs and their index counts.
    arcs: Vec<(wgpu::Buffer, u32)>,
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

/// A graph view's side of the GPU drawing: what has been uploaded, and why not when it failed.
pub struct GpuView {
    id: u64,
    rs: Option<RenderState>,
    pos_for: Option<u64>,
    arcs_for: Option<u64>,
    words_for: Option<WordsKey>,
    /// Scratch for the vertex words (kept between state changes).
    words: Vec<u32>,
    /// Why the GPU drawing is off for the current graph (the CPU rasters draw it instead).
    pub failed: Option<String>,
    /// What the GPU drawing leaves out (a subset of the arcs), shown in the overlay.
    pub note: Option<String>,
    pub arcs_drawn: usize,
}

impl Default for GpuView {
    fn default() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        GpuView {
            id: NEXT.fetch_add(1, Ordering::Relaxed),
            rs: None,
            pos_for: None,
            arcs_for: None,
            words_for: None,
            words: Vec::new(),
            failed: None,
            note: None,
            arcs_drawn: 0,
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
    pub words_key: WordsKey,
    pub uniform: ViewUniform,
}

impl GpuView {
    /// A new graph: everything is uploaded again, and a past failure is forgotten.
    pub fn reset(&mut self) {
        self.pos_for = None;
        self.arcs_for = None;
        self.words_for = None;
        self.failed = None;
        self.note = None;
        self.arcs_drawn = 0;
    }

    /// Whether the GPU path can draw this frame: a render state exists, nothing failed and
    /// `SSSP_LAB_VIEW_CPU` (the CPU rasters, for comparisons) is not set.
    pub fn available(&mut self, ctx: &egui::Context) -> bool {
        static FORCE_CPU: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        if self.failed.is_some() || *FORCE_CPU.get_or_init(|| std::env::var_os("SSSP_LAB_VIEW_CPU").is_some()) {
            return false;
        }
        if self.rs.is_none() {
            self.rs = render_state(ctx);
        }
        self.rs.is_some()
    }

    /// Whether the target wants linear colours (the shader then decodes egui's sRGB bytes).
    pub fn srgb_target(&self) -> bool {
        self.rs.as_ref().is_some_and(|rs| rs.target_format.is_srgb())
    }

    /// Uploads what changed and returns the paint callback for `rect`; fills `frontier` when the
    /// state changed. On an error the GPU path is switched off for this graph (see
    /// [`GpuView::failed`]) and `None` is returned.
    pub fn frame(&mut self, rect: egui::Rect, f: &Frame<'_>, frontier: &mut Vec<VertexId>) -> Option<egui::Shape> {
        let rs = self.rs.clone()?;
        match self.sync(&rs, f, frontier) {
            Ok(()) => {
                let cb = ViewCallback { id: self.id, uniform: f.uniform };
                Some(egui::Shape::Callback(egui_wgpu::Callback::new_paint_callback(rect, cb)))
            }
            Err(e) => {
                self.failed = Some(e);
                None
            }
        }
    }

    fn sync(&mut self, rs: &RenderState, f: &Frame<'_>, frontier: &mut Vec<VertexId>) -> Result<(), String> {
        let scene = f.scene;
        let n = scene.graph.n();
        let plan = BufferPlan::new(n, rs.device.limits().max_buffer_size)?;
        let mut renderer = rs.renderer.write();
        let res = renderer.callback_resources.entry::<Resources>().or_insert_with(Resources::default);
        if res.pipelines.as_ref().is_none_or(|p| p.format != rs.target_format) {
            res.pipelines =
                Some(guarded(&rs.device, "creating the pipelines", || pipelines(&rs.device, rs.target_format))?);
        }
        let Some(pipes) = &res.pipelines else { return Err("no pipelines".into()) };
        let view = match res.views.entry(self.id) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let (uniform, bind) = guarded(&rs.device, "creating the uniform", || uniform(&rs.device, pipes))?;
                e.insert(ViewBuffers { uniform, bind, pos: None, words: None, n: 0, arcs: Vec::new() })
            }
        };

        if self.pos_for != Some(scene.generation) {
            let cells;
            let pos: &[[f32; 2]] = match scene.mode {
                ViewMode::Raster => {
                    cells = pack::cell_positions(scene.cells, scene.order.as_ref().map(|(_, r)| r.as_slice()));
                    &cells
                }
                _ => &scene.pos,
            };
            if pos.len() != n {
                return Err(format!("{} positions for {n} vertices", pos.len()));
            }
            view.pos = (n > 0)
                .then(|| {
                    guarded(&rs.device, "uploading the vertex positions", || {
                        buffer(
                            &rs.device,
                            "graph_view.positions",
                            bytemuck::cast_slice(pos),
                            wgpu::BufferUsages::VERTEX,
                        )
                    })
                })
                .transpose()?;
            view.n = n as u32;
            self.pos_for = Some(scene.generation);
        }

        if self.arcs_for != Some(scene.first_generation) {
            view.arcs.clear();
            self.note = None;
            let drawn_total = if scene.mode == ViewMode::Raster { 0 } else { scene.arcs_to_draw };
            let BufferPlan { chunk_pairs, budget_pairs } = plan;
            let (mut from, mut pairs, mut scratch) = (0, 0usize, Vec::new());
            while drawn_total > 0 && from < scene.graph.m() && pairs < budget_pairs {
                scratch.clear();
                from = pack::arc_pairs(
                    &scene.graph,
                    &scene.flags,
                    from,
                    chunk_pairs.min(budget_pairs - pairs),
                    &mut scratch,
                );
                if scratch.is_empty() {
                    break;
                }
                let b = guarded(&rs.device, "uploading the arcs", || {
                    buffer(&rs.device, "graph_view.arcs", bytemuck::cast_slice(&scratch), wgpu::BufferUsages::INDEX)
                })?;
                pairs += scratch.len() / 2;
                view.arcs.push((b, scratch.len() as u32));
            }
            if pairs < drawn_total {
                self.note = Some(format!(
                    "GPU: first {} of {} arcs drawn ({} MiB budget)",
                    super::overlay::fmt_count(pairs),
                    super::overlay::fmt_count(drawn_total),
                    ARC_BUDGET_BYTES >> 20
                ));
            }
            self.arcs_drawn = pairs;
            self.arcs_for = Some(scene.first_generation);
        }

        if self.words_for != Some(f.words_key) || view.words.is_none() && n > 0 {
            // Built only here: in the distance mode it scans all δ for the ramp's maximum.
            let shader = Shader::new(f.trace, f.color_mode, distance_ramp());
            pack::vertex_words(n, &shader, f.wrong, &mut self.words, frontier);
            let words = &self.words;
            // Same size as before: rewrite in place instead of allocating a new buffer.
            match &view.words {
                Some(b) if b.size() == words.len() as u64 * 4 => {
                    rs.queue.write_buffer(b, 0, bytemuck::cast_slice(words));
                }
                _ => {
                    view.words = (n > 0)
                        .then(|| {
                            guarded(&rs.device, "uploading the vertex states", || {
                                buffer(
                                    &rs.device,
                                    "graph_view.words",
                                    bytemuck::cast_slice(words),
                                    wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                                )
                            })
                        })
                        .transpose()?;
                }
            }
            self.words_for = Some(f.words_key);
        }
        Ok(())
    }
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

fn uniform(device: &wgpu::Device, pipes: &Pipelines) -> (wgpu::Buffer, wgpu::BindGroup) {
    let uniform = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("graph_view.uniform"),
        size: std::mem::size_of::<ViewUniform>() as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("graph_view.bind"),
        layout: &pipes.layout,
        entries: &[wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() }],
    });
    (uniform, bind)
}

fn pipelines(device: &wgpu::Device, format: wgpu::TextureFormat) -> Pipelines {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("kernels/view.wgsl"),
        source: wgpu::ShaderSource::Wgsl(include_str!("../../../../kernels/view.wgsl").into()),
    });
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("graph_view.layout"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }],
    });
    let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("graph_view.pipeline_layout"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    // egui's render pass: premultiplied alpha, one sample, no depth (eframe's defaults, which
    // this app keeps).
    let target = [Some(wgpu::ColorTargetState {
        format,
        blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
        write_mask: wgpu::ColorWrites::ALL,
    })];
    let pos_attr = [wgpu::VertexAttribute { format: wgpu::VertexFormat::Float32x2, offset: 0, shader_location: 0 }];
    let word_attr = [wgpu::VertexAttribute { format: wgpu::VertexFormat::Uint32, offset: 0, shader_location: 1 }];
    let pipeline = |label: &str, vs: &str, fs: &str, buffers: &[Option<wgpu::VertexBufferLayout<'_>>], topology| {
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(label),
            layout: Some(&pl),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some(vs),
                compilation_options: Default::default(),
                buffers,
            },
            primitive: wgpu::PrimitiveState { topology, ..Default::default() },
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some(fs),
                compilation_options: Default::default(),
                targets: &target,
            }),
            multiview_mask: None,
            cache: None,
        })
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
    Pipelines { format, layout, arcs, dots }
}

/// One frame's drawing of one view: its id (to find its buffers) and the camera.
struct ViewCallback {
    id: u64,
    uniform: ViewUniform,
}

impl CallbackTrait for ViewCallback {
    fn prepare(
        &self,
        _device: &wgpu::Device,
        queue: &wgpu::Queue,
        _screen: &egui_wgpu::ScreenDescriptor,
        _encoder: &mut wgpu::CommandEncoder,
        resources: &mut CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        if let Some(v) = resources.get::<Resources>().and_then(|r| r.views.get(&self.id)) {
            queue.write_buffer(&v.uniform, 0, bytemuck::bytes_of(&self.uniform));
        }
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
        let Some(pos) = &v.pos else { return };
        pass.set_bind_group(0, &v.bind, &[]);
        if !v.arcs.is_empty() {
            pass.set_pipeline(&pipes.arcs);
            pass.set_vertex_buffer(0, pos.slice(..));
            for (b, count) in &v.arcs {
                pass.set_index_buffer(b.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed(0..*count, 0, 0..1);
            }
        }
        if let Some(words) = &v.words {
            pass.set_pipeline(&pipes.dots);
            pass.set_vertex_buffer(0, pos.slice(..));
            pass.set_vertex_buffer(1, words.slice(..));
            pass.draw(0..6, 0..v.n);
        }
    }
}

impl GraphView {
    /// Draws the large graph through the GPU paint callback; returns the dot style used (for the
    /// marks on top), or `None` when the GPU path is unavailable or failed (the caller then uses
    /// the CPU rasters).
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
        let f = Frame { scene, trace, color_mode: input.color_mode, wrong, words_key, uniform: u };
        let shape = self.gpu.frame(rect, &f, &mut self.frontier)?;
        painter.add(shape);
        self.stats.gpu = true;
        self.stats.vertices_drawn = scene.graph.n();
        self.stats.arcs_drawn = self.gpu.arcs_drawn;
        self.stats.arc_ms = 0.0;
        self.stats.vertex_ms = 0.0;
        Some(style)
    }
}

#[cfg(test)]
mod tests;
