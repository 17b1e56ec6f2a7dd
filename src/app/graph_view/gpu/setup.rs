//! What a graph view puts on the device once per graph and layout: the pipelines, the
//! positions, words and arc buffers, behind wgpu error scopes.

use super::*;

/// Uploads a sorted graph: positions, vertex words (filled later), arc chunks and the
/// aggregates' grids.
pub(super) fn upload(
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
pub(super) fn guarded<T>(device: &wgpu::Device, what: &str, f: impl FnOnce() -> T) -> Result<T, String> {
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

pub(super) fn buffer(device: &wgpu::Device, label: &str, contents: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
}

pub(super) fn pipelines(device: &wgpu::Device, format: wgpu::TextureFormat) -> Pipelines {
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
