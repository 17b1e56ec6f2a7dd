//! The aggregates behind the GPU view's zoomed-out frames ("density tiles"): when the camera
//! sees more arcs or vertices than the adapter draws in a frame, the view samples two texel
//! grids over the world box instead of drawing primitives:
//!
//! - **arc density**: an `R16Float` texture where each texel counts the one-texel lines through
//!   it (additive blending), with a mean-reduced mip chain. Built once per graph and layout, in
//!   batches of arcs per frame so a 64 M-arc graph never stalls a frame for long; the view turns
//!   a count `k` into the alpha `1 − (1 − a)^k` of `k` blended lines, the direct drawing's look;
//! - **vertex status**: one `u32` per texel, the most important vertex in it ((code + 1) << 24 |
//!   colour, max-reduced per level by `kernels/view_status.wgsl`), rebuilt once per state
//!   change, read by the view with a radius of the dot's size.
//!
//! Both grids share one box (the bounding box grown by half a vertex spacing), so one uniform
//! ([`AggUniform`]) maps world to texels for the builders and the view.

pub use super::agg_grid::{AggUniform, level_dims, levels};
use eframe::egui_wgpu::wgpu;

/// Longest side of the density texture, in texels (lavapipe and every desktop GPU allow 8192).
pub const DENS_SIDE: u32 = 4096;
/// Longest side of the status grid, in texels.
pub const STAT_SIDE: u32 = 4096;
/// Status levels kept (4096 → 1 is 13).
pub(super) const MAX_LEVELS: usize = 16;
/// The density texture's format: blendable and filterable everywhere, exact counts to 2048.
pub const DENS_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R16Float;

/// `kernels/view_status.wgsl` with the shared `struct Agg` prepended.
pub const STATUS_WGSL: &str =
    concat!(include_str!("../../../../kernels/view_agg.wgsl"), include_str!("../../../../kernels/view_status.wgsl"));
/// `kernels/view_mip.wgsl`.
pub const MIP_WGSL: &str = include_str!("../../../../kernels/view_mip.wgsl");

/// Pipelines of the builders, shared by every view.
pub struct AggPipelines {
    build_layout: wgpu::BindGroupLayout,
    build_arcs: wgpu::RenderPipeline,
    mip_layout: wgpu::BindGroupLayout,
    mip: wgpu::RenderPipeline,
    status_layout: wgpu::BindGroupLayout,
    splat: wgpu::ComputePipeline,
    reduce: wgpu::ComputePipeline,
}

impl AggPipelines {
    /// `view` is `kernels/view.wgsl` (for the density build's vertex stage and fragment).
    pub fn new(device: &wgpu::Device, view: &wgpu::ShaderModule) -> AggPipelines {
        let uniform = |binding, visibility| wgpu::BindGroupLayoutEntry {
            binding,
            visibility,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let storage = |binding, read_only| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let layout = |label, entries: &[wgpu::BindGroupLayoutEntry]| {
            device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(label), entries })
        };
        let build_layout = layout("graph_view.build_layout", &[uniform(0, wgpu::ShaderStages::VERTEX_FRAGMENT)]);
        let mip_layout = layout(
            "graph_view.mip_layout",
            &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            }],
        );
        let status_layout = layout(
            "graph_view.status_layout",
            &[
                uniform(0, wgpu::ShaderStages::COMPUTE),
                storage(1, true),
                storage(2, true),
                storage(3, false),
                uniform(4, wgpu::ShaderStages::COMPUTE),
            ],
        );
        let pl = |label, l: &wgpu::BindGroupLayout| {
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(label),
                bind_group_layouts: &[Some(l)],
                immediate_size: 0,
            })
        };
        let add = wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::One,
            operation: wgpu::BlendOperation::Add,
        };
        let pos_attr = [wgpu::VertexAttribute { format: wgpu::VertexFormat::Float32x2, offset: 0, shader_location: 0 }];
        let pos_layout = [Some(wgpu::VertexBufferLayout {
            array_stride: 8,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &pos_attr,
        })];
        let render = |label,
                      layout: &wgpu::PipelineLayout,
                      module: &wgpu::ShaderModule,
                      entry: (&str, &str),
                      buffers: &[Option<wgpu::VertexBufferLayout<'_>>],
                      topology,
                      blend| {
            let target = wgpu::ColorTargetState { format: DENS_FORMAT, blend, write_mask: wgpu::ColorWrites::ALL };
            render_pipeline(device, label, layout, module, entry, buffers, topology, target)
        };
        let build_arcs = render(
            "graph_view.density_build",
            &pl("graph_view.build_pl", &build_layout),
            view,
            ("arc_vs", "dens_fs"),
            &pos_layout,
            wgpu::PrimitiveTopology::LineList,
            Some(wgpu::BlendState { color: add, alpha: add }),
        );
        let mip_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("kernels/view_mip.wgsl"),
            source: wgpu::ShaderSource::Wgsl(MIP_WGSL.into()),
        });
        let mip = render(
            "graph_view.density_mip",
            &pl("graph_view.mip_pl", &mip_layout),
            &mip_module,
            ("mip_vs", "mip_fs"),
            &[],
            wgpu::PrimitiveTopology::TriangleList,
            None,
        );
        let status_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("kernels/view_status.wgsl"),
            source: wgpu::ShaderSource::Wgsl(STATUS_WGSL.into()),
        });
        let status_pl = pl("graph_view.status_pl", &status_layout);
        let compute = |label, entry| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(label),
                layout: Some(&status_pl),
                module: &status_module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        let splat = compute("graph_view.status_splat", "splat");
        let reduce = compute("graph_view.status_reduce", "reduce");
        AggPipelines { build_layout, build_arcs, mip_layout, mip, status_layout, splat, reduce }
    }
}

/// A render pipeline of the view: entry points `(vertex, fragment)` of `module`, one colour
/// `target`, no depth, one sample (egui's pass and the density texture alike).
#[allow(clippy::too_many_arguments)]
pub fn render_pipeline(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    (vs, fs): (&str, &str),
    buffers: &[Option<wgpu::VertexBufferLayout<'_>>],
    topology: wgpu::PrimitiveTopology,
    target: wgpu::ColorTargetState,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        vertex: wgpu::VertexState { module, entry_point: Some(vs), compilation_options: Default::default(), buffers },
        primitive: wgpu::PrimitiveState { topology, ..Default::default() },
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some(fs),
            compilation_options: Default::default(),
            targets: &[Some(target)],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// One view's aggregates and how far their builds got.
pub struct AggBuffers {
    pub uniform: AggUniform,
    pub uniform_buf: wgpu::Buffer,
    pub dens: wgpu::Texture,
    /// View of the whole mip chain (the view samples it).
    pub dens_view: wgpu::TextureView,
    dens_levels: Vec<wgpu::TextureView>,
    mip_binds: Vec<wgpu::BindGroup>,
    build_bind: wgpu::BindGroup,
    /// The status grid the view reads (complete builds only).
    pub status: wgpu::Buffer,
    /// The grid a build splats into, copied to `status` when it is complete, so a build spread
    /// over frames never shows half done.
    status_back: wgpu::Buffer,
    /// `[_, first slot, window's first slot, _]` of the splat's chunk (written before each).
    splat_buf: wgpu::Buffer,
    /// The splat's bind groups, one per window of `window` slots.
    splat_binds: Vec<wgpu::BindGroup>,
    window: u32,
    /// The reduce's bind groups, one per level from 1.
    status_binds: Vec<wgpu::BindGroup>,
    /// The build in progress: the word version it started from and the next slot to splat.
    building: Option<(u64, u32)>,
    /// Arc pairs counted into the density so far.
    pub dens_done: usize,
    /// Pairs counted since the last mip refresh.
    since_mips: usize,
    /// Whether the next density frame refreshes the mip chain.
    mips_due: bool,
    /// The vertex-word version the status grid was built from.
    pub status_version: Option<u64>,
}

impl AggBuffers {
    /// Allocates the grids of `u` for a view whose positions and words are `pos` and `words`,
    /// bound for the splat `window` slots at a time (a multiple of 64, see
    /// [`super::BufferPlan::window`]).
    pub fn new(
        device: &wgpu::Device,
        pipes: &AggPipelines,
        u: AggUniform,
        pos: &wgpu::Buffer,
        words: &wgpu::Buffer,
        window: usize,
    ) -> AggBuffers {
        use wgpu::util::DeviceExt as _;
        let uniform_buf = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("graph_view.agg"),
            contents: bytemuck::bytes_of(&u),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let dens = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("graph_view.density"),
            size: wgpu::Extent3d { width: u.dens_dims[0], height: u.dens_dims[1], depth_or_array_layers: 1 },
            mip_level_count: u.dens_levels,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: DENS_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let dens_view = dens.create_view(&Default::default());
        let dens_levels: Vec<wgpu::TextureView> = (0..u.dens_levels)
            .map(|l| {
                dens.create_view(&wgpu::TextureViewDescriptor {
                    base_mip_level: l,
                    mip_level_count: Some(1),
                    ..Default::default()
                })
            })
            .collect();
        let mip_binds = dens_levels[..dens_levels.len().saturating_sub(1)]
            .iter()
            .map(|src| {
                device.create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("graph_view.mip_bind"),
                    layout: &pipes.mip_layout,
                    entries: &[wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(src) }],
                })
            })
            .collect();
        // The build draws the arcs with the view's shader through a camera that fits the box.
        let cam = super::pack::ViewUniform {
            center: [u.origin[0] + u.extent[0] / 2.0, u.origin[1] - u.extent[1] / 2.0],
            scale: [2.0 / u.extent[0], 2.0 / u.extent[1]],
            ..Default::default()
        };
        let build_buf = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("graph_view.density_camera"),
            contents: bytemuck::bytes_of(&cam),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let build_bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("graph_view.build_bind"),
            layout: &pipes.build_layout,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: build_buf.as_entire_binding() }],
        });
        let grid = |label| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: (u.stat_words() * 4).max(4),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            })
        };
        let (status, status_back) = (grid("graph_view.status"), grid("graph_view.status_back"));
        let splat_buf = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("graph_view.splat_chunk"),
            contents: bytemuck::cast_slice(&[0u32; 4]),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        let n = u.n as usize;
        let window = window.max(64);
        // Slots [w * window, …) of a per-vertex buffer of `bytes` bytes a slot.
        fn range(buf: &wgpu::Buffer, w: usize, window: usize, n: usize, bytes: u64) -> wgpu::BindingResource<'_> {
            let (a, b) = ((w * window) as u64, ((w + 1) * window).min(n.max(1)) as u64);
            wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: buf,
                offset: a * bytes,
                size: std::num::NonZeroU64::new((b - a) * bytes),
            })
        }
        let bind = |level: &wgpu::Buffer, w: usize| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("graph_view.status_bind"),
                layout: &pipes.status_layout,
                entries: &[
                    wgpu::BindGroupEntry { binding: 0, resource: uniform_buf.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 1, resource: range(pos, w, window, n, 8) },
                    wgpu::BindGroupEntry { binding: 2, resource: range(words, w, window, n, 4) },
                    wgpu::BindGroupEntry { binding: 3, resource: status_back.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 4, resource: level.as_entire_binding() },
                ],
            })
        };
        let splat_binds = (0..n.max(1).div_ceil(window)).map(|w| bind(&splat_buf, w)).collect();
        // The reduce reads neither positions nor words; its groups (levels 1 and up) bind the
        // first window.
        let status_binds = (1..u.stat_levels)
            .map(|l| {
                let level = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("graph_view.status_level"),
                    contents: bytemuck::cast_slice(&[l, 0, 0, 0]),
                    usage: wgpu::BufferUsages::UNIFORM,
                });
                bind(&level, 0)
            })
            .collect();
        AggBuffers {
            uniform: u,
            uniform_buf,
            dens,
            dens_view,
            dens_levels,
            mip_binds,
            build_bind,
            status,
            status_back,
            splat_buf,
            splat_binds,
            window: window as u32,
            status_binds,
            building: None,
            dens_done: 0,
            since_mips: 0,
            mips_due: false,
            status_version: None,
        }
    }

    /// Whether the density build has work with `available` pairs uploaded: pairs to count or
    /// a mip refresh pending.
    pub fn density_due(&self, available: usize) -> bool {
        available > 0 && (self.dens_done < available || self.mips_due)
    }

    /// Pairs counted so far, as the view reports them: all of them only once the last mip
    /// refresh has run.
    pub fn dens_reported(&self) -> usize {
        if self.mips_due { self.dens_done.saturating_sub(1) } else { self.dens_done }
    }

    #[allow(clippy::too_many_arguments)]
    /// One frame of the density build: counts up to `budget` more arc pairs into the density
    /// texture (from `chunks`: index buffers of `chunk_pairs` pairs each, `available` of the
    /// `total` pairs uploaded so far), or refreshes its mip chain. The refresh is a pass over
    /// the whole texture (about 25 ms on lavapipe): it gets a frame of its own, after every
    /// 1/32 of the pairs but no more often than every 8 batches (the zoomed-out picture fills
    /// in), and after the last, so its cost does not depend on how small the frame's batch is.
    pub fn build_density(
        &mut self,
        pipes: &AggPipelines,
        encoder: &mut wgpu::CommandEncoder,
        pos: &wgpu::Buffer,
        chunks: &[(wgpu::Buffer, u32)],
        chunk_pairs: usize,
        available: usize,
        total: usize,
        budget: usize,
    ) {
        if self.mips_due {
            self.refresh_mips(pipes, encoder);
            self.mips_due = false;
            return;
        }
        if self.dens_done >= available && self.dens_done > 0 {
            return;
        }
        let start = self.dens_done;
        let end = available.min(self.dens_done.saturating_add(budget.max(1)));
        {
            let load =
                if self.dens_done == 0 { wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT) } else { wgpu::LoadOp::Load };
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("graph_view.density_build"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &self.dens_levels[0],
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
                })],
                ..Default::default()
            });
            pass.set_pipeline(&pipes.build_arcs);
            pass.set_bind_group(0, &self.build_bind, &[]);
            pass.set_vertex_buffer(0, pos.slice(..));
            for_chunks(chunks, chunk_pairs, (self.dens_done as u32, end as u32), |b, idx| {
                pass.set_index_buffer(b.slice(..), wgpu::IndexFormat::Uint32);
                pass.draw_indexed(idx, 0, 0..1);
            });
        }
        self.dens_done = end.max(1);
        self.since_mips += end - start;
        if end >= total || self.since_mips >= total.div_ceil(32).max(budget.saturating_mul(8)) {
            self.mips_due = true;
            self.since_mips = 0;
        }
    }

    fn refresh_mips(&self, pipes: &AggPipelines, encoder: &mut wgpu::CommandEncoder) {
        for (l, bind) in self.mip_binds.iter().enumerate() {
            let mut pass = cleared_pass(encoder, "graph_view.density_mip", &self.dens_levels[l + 1]);
            pass.set_pipeline(&pipes.mip);
            pass.set_bind_group(0, bind, &[]);
            pass.draw(0..3, 0..1);
        }
    }

    /// The status grid the view reads, or (`back`) the one builds splat into.
    pub fn status_grid(&self, back: bool) -> &wgpu::Buffer {
        if back { &self.status_back } else { &self.status }
    }

    /// Clears the density texture's mip `levels` (a large view's first touch of them, see
    /// `staging`).
    pub fn clear_density(&self, encoder: &mut wgpu::CommandEncoder, levels: std::ops::Range<u32>) {
        for l in levels {
            let Some(view) = self.dens_levels.get(l as usize) else { break };
            cleared_pass(encoder, "graph_view.density_clear", view);
        }
    }

    /// Whether [`AggBuffers::build_status`] has work for `version` (a build in progress, or a
    /// grid of another version).
    pub fn status_due(&self, version: u64) -> bool {
        self.building.is_some() || self.status_version != Some(version)
    }

    /// Brings the status grid up to the vertex words of `version`, splatting at most `budget`
    /// vertices this frame into the back grid; when the last chunk is in, the levels are
    /// reduced and the grid copied to the one the view reads. Words that change during a build
    /// spread over frames are partly seen by it; the next build (it starts as soon as this one
    /// is done) catches up. Returns whether the grid now matches `version`.
    pub fn build_status(
        &mut self,
        pipes: &AggPipelines,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        version: u64,
        budget: u32,
    ) -> bool {
        if self.building.is_none() {
            if self.status_version == Some(version) {
                return true;
            }
            encoder.clear_buffer(&self.status_back, 0, None);
            self.building = Some((version, 0));
        }
        let Some((from, first)) = self.building else { return false };
        let n = self.uniform.n;
        // A chunk never crosses a storage window (one bind group a dispatch).
        let w = first / self.window;
        let window_end = (w + 1).saturating_mul(self.window);
        let last = first.saturating_add(budget.max(1)).min(n).min(window_end);
        // One chunk per frame: this write lands before the frame's commands run.
        queue.write_buffer(&self.splat_buf, 0, bytemuck::cast_slice(&[0, first, w * self.window, 0]));
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("graph_view.status"),
            timestamp_writes: None,
        });
        if last > first {
            pass.set_pipeline(&pipes.splat);
            pass.set_bind_group(0, &self.splat_binds[w as usize], &[]);
            let (x, y) = groups(u64::from(last - first));
            pass.dispatch_workgroups(x, y, 1);
        }
        if last < n {
            self.building = Some((from, last));
            return false;
        }
        pass.set_pipeline(&pipes.reduce);
        for l in 1..self.uniform.stat_levels {
            let d = level_dims(self.uniform.stat_dims, l);
            pass.set_bind_group(0, &self.status_binds[l as usize - 1], &[]);
            let (x, y) = groups(u64::from(d[0]) * u64::from(d[1]));
            pass.dispatch_workgroups(x, y, 1);
        }
        drop(pass);
        encoder.copy_buffer_to_buffer(&self.status_back, 0, &self.status, 0, None);
        self.building = None;
        self.status_version = Some(from);
        from == version
    }
}

/// A render pass into one density level that starts by clearing it.
fn cleared_pass<'a>(
    encoder: &'a mut wgpu::CommandEncoder,
    label: &str,
    view: &wgpu::TextureView,
) -> wgpu::RenderPass<'a> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT), store: wgpu::StoreOp::Store },
        })],
        ..Default::default()
    })
}

/// Workgroups of 256 threads for `threads` invocations, as (x, y) with x within the 65 535
/// per-dimension limit (the shaders rebuild the index from both).
pub fn groups(threads: u64) -> (u32, u32) {
    let g = threads.div_ceil(256).max(1);
    let x = g.min(65_535);
    (x as u32, g.div_ceil(x) as u32)
}

/// Calls `draw(buffer, index range)` for the pairs `range` (in pairs) split across `chunks`.
pub fn for_chunks(
    chunks: &[(wgpu::Buffer, u32)],
    chunk_pairs: usize,
    range: (u32, u32),
    mut draw: impl FnMut(&wgpu::Buffer, std::ops::Range<u32>),
) {
    let cp = chunk_pairs as u64;
    let (mut a, b) = (u64::from(range.0), u64::from(range.1));
    while a < b {
        let c = (a / cp) as usize;
        let Some((buf, count)) = chunks.get(c) else { return };
        let start = a - c as u64 * cp;
        let end = (b - c as u64 * cp).min(u64::from(*count) / 2);
        if end > start {
            draw(buf, (start * 2) as u32..(end * 2) as u32);
        }
        a = (c as u64 + 1) * cp;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::graph_view::camera::Bbox;

    #[test]
    fn grids_cover_the_box_with_square_texels_and_levels_add_up() {
        let bbox = Bbox { min: [0.0, 0.0], max: [4095.0, 2047.0] };
        let u = AggUniform::new(bbox, 1.0, true, 4096 * 2048, 8192);
        assert_eq!(u.stat_dims, [4096, 2048]);
        assert_eq!(u.dens_dims, [4096, 2048]);
        assert_eq!(u.stat_levels, 13);
        assert_eq!(u.stat_off[1], 4096 * 2048);
        assert_eq!(
            u.stat_words(),
            (0..13)
                .map(|l| {
                    let d = level_dims([4096, 2048], l);
                    u64::from(d[0] * d[1])
                })
                .sum::<u64>()
        );
        // Cell v's centre lies in texel v: the box starts half a cell before the first centre.
        assert_eq!(u.origin, [-0.5, 2047.5]);
        assert_eq!(u.extent, [4096.0, 2048.0]);
        assert_eq!(std::mem::size_of::<AggUniform>(), 112);

        let u = AggUniform::new(Bbox { min: [-74.0, 40.0], max: [-73.0, 41.5] }, 0.002, false, 264_346, 8192);
        assert!(u.stat_dims[1] > u.stat_dims[0] && u.stat_dims[1] <= STAT_SIDE, "{u:?}");
        assert_eq!(u.dens_dims[1], DENS_SIDE);
        let texel = |d: [u32; 2]| [u.extent[0] / d[0] as f32, u.extent[1] / d[1] as f32];
        for d in [u.stat_dims, u.dens_dims] {
            let t = texel(d);
            assert!((t[0] / t[1] - 1.0).abs() < 0.01, "square texels: {t:?}");
        }
    }

    /// The view's shaders pass naga's WGSL front end and validator (no adapter needed, so CI
    /// machines without one check them too).
    #[test]
    fn view_shaders_parse_and_validate() {
        let shaders = [
            ("view", super::super::VIEW_WGSL),
            ("status", STATUS_WGSL),
            ("mip", MIP_WGSL),
            ("words", super::super::live::WORDS_WGSL),
        ];
        for (name, text) in shaders {
            let module = wgpu::naga::front::wgsl::parse_str(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            wgpu::naga::valid::Validator::new(
                wgpu::naga::valid::ValidationFlags::all(),
                wgpu::naga::valid::Capabilities::all(),
            )
            .validate(&module)
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        }
    }

    #[test]
    fn levels_round_up() {
        assert_eq!(levels([1, 1]), 1);
        assert_eq!(levels([4096, 3]), 13);
        assert_eq!(level_dims([5, 3], 1), [3, 2]);
    }
}
