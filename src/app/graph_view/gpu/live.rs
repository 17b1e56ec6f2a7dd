//! Zero-copy colouring: when the run being shown is a wgpu solver's on the window's own device
//! (`device::wgpu::share_device`), its δ and stamp buffers are bound straight into a compute
//! pass (`kernels/view_words.wgsl`) that writes the view's vertex words, so a step costs no
//! host pass over the vertices and no upload; the host path (`pack::vertex_words`, then one
//! `write_buffer`) stays for the CPU and CUDA solvers, steps back and saved traces.

use super::super::ColorMode;
use super::super::colors::{WRONG, distance_ramp, status_color};
use super::pack::{self, CODE_WRONG};
use crate::algo::{DeviceVertexState, VertexStatus};
use crate::graph::VertexId;

/// `kernels/view_words.wgsl`.
pub const WORDS_WGSL: &str = include_str!("../../../../kernels/view_words.wgsl");

/// Index of the ramp in the palette buffer (`RAMP` in the shader).
const RAMP: usize = 8;

/// Most wrong vertices patched one write each after the pass (more: the host path).
pub const MAX_WRONG: usize = 4096;

/// The `Params` uniform of the shader.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    n: u32,
    iterations: u32,
    mode: u32,
    max_dist: u32,
}

/// The compute pipeline (one per device, with the view's other pipelines).
pub struct WordsPipeline {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl WordsPipeline {
    pub fn new(device: &wgpu::Device) -> WordsPipeline {
        let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset: false, min_binding_size: None },
            count: None,
        };
        let ro = wgpu::BufferBindingType::Storage { read_only: true };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("graph_view.words_layout"),
            entries: &[
                entry(0, wgpu::BufferBindingType::Uniform),
                entry(1, ro),
                entry(2, ro),
                entry(3, ro),
                entry(4, ro),
                entry(5, wgpu::BufferBindingType::Storage { read_only: false }),
            ],
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("view_words.wgsl"),
            source: wgpu::ShaderSource::Wgsl(WORDS_WGSL.into()),
        });
        let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("graph_view.words_pipeline_layout"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("graph_view.words"),
            layout: Some(&pl),
            module: &module,
            entry_point: Some("vertex_words"),
            compilation_options: Default::default(),
            cache: None,
        });
        WordsPipeline { layout, pipeline }
    }
}

/// One view's buffers for the pass: the slot order and the palette (uploaded on first use for
/// a sorted graph), and the bind group of the solver buffers last seen.
pub struct LiveWords {
    params: wgpu::Buffer,
    order: wgpu::Buffer,
    palette: wgpu::Buffer,
    bound: Option<(wgpu::Buffer, wgpu::Buffer, wgpu::BindGroup)>,
}

/// The palette words: codes 0..4, then the ramp at [`RAMP`].
fn palette() -> Vec<u32> {
    let mut p = vec![0u32; RAMP + 256];
    for (code, s) in [
        (pack::CODE_UNREACHED, VertexStatus::Unreached),
        (pack::CODE_SETTLED, VertexStatus::Settled),
        (pack::CODE_REACHED, VertexStatus::Reached),
        (pack::CODE_FRONTIER, VertexStatus::Frontier),
    ] {
        p[code as usize] = pack::word(status_color(s), code);
    }
    p[CODE_WRONG as usize] = pack::word(WRONG, CODE_WRONG);
    for (i, &c) in distance_ramp().iter().enumerate() {
        p[RAMP + i] = pack::word(c, 0);
    }
    p
}

impl LiveWords {
    /// Uploads `order` (slot → vertex) and the palette.
    pub fn new(device: &wgpu::Device, order: &[u32]) -> LiveWords {
        let storage = wgpu::BufferUsages::STORAGE;
        let order_bytes: &[u8] = if order.is_empty() { &[0; 4] } else { bytemuck::cast_slice(order) };
        LiveWords {
            params: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("graph_view.words_params"),
                size: std::mem::size_of::<Params>() as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            order: super::buffer(device, "graph_view.order", order_bytes, storage),
            palette: super::buffer(device, "graph_view.palette", bytemuck::cast_slice(&palette()), storage),
            bound: None,
        }
    }

    /// Writes the words of `live` into `words` (n entries, slot order) on the GPU and patches
    /// the `wrong` vertices (`slot` maps vertex → slot); `max_dist` is the ramp's top in the
    /// distance mode. Submits its own command buffer, so the pass runs before this frame's
    /// drawing.
    #[allow(clippy::too_many_arguments)]
    pub fn write(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        pipe: &WordsPipeline,
        live: &DeviceVertexState,
        n: usize,
        mode: ColorMode,
        max_dist: u32,
        words: &wgpu::Buffer,
        slot: &[u32],
        wrong: &[VertexId],
    ) {
        let stale = self.bound.as_ref().is_none_or(|(d, s, _)| *d != live.dist || *s != live.stamp);
        if stale {
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("graph_view.words_bind"),
                layout: &pipe.layout,
                entries: &[
                    wgpu::BindGroupEntry { binding: 0, resource: self.params.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 1, resource: self.order.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 2, resource: live.dist.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 3, resource: live.stamp.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 4, resource: self.palette.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 5, resource: words.as_entire_binding() },
                ],
            });
            self.bound = Some((live.dist.clone(), live.stamp.clone(), group));
        }
        let Some((_, _, group)) = &self.bound else { return };
        let p =
            Params { n: n as u32, iterations: live.iterations, mode: u32::from(mode == ColorMode::Distance), max_dist };
        queue.write_buffer(&self.params, 0, bytemuck::bytes_of(&p));
        let mut enc =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("graph_view.words") });
        {
            let mut pass = enc.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("graph_view.words"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&pipe.pipeline);
            pass.set_bind_group(0, group, &[]);
            let (x, y) = super::agg::groups(n as u64);
            pass.dispatch_workgroups(x, y, 1);
        }
        queue.submit([enc.finish()]);
        // Queued writes land before the next submission's commands: egui's, after this pass.
        let w = pack::word(WRONG, CODE_WRONG);
        for &v in wrong {
            if let Some(&s) = slot.get(v as usize) {
                queue.write_buffer(words, u64::from(s) * 4, bytemuck::bytes_of(&w));
            }
        }
    }
}
