//! The paint callback of one view's frame: `prepare` writes the camera uniform and runs the
//! aggregate builds, `paint` draws the layers into eframe's render pass.

use super::*;

/// One frame's drawing of one view: its id (to find its buffers), the camera and what to draw.
pub(super) struct ViewCallback {
    pub(super) id: u64,
    pub(super) uniform: ViewUniform,
    pub(super) arcs: Layer,
    pub(super) dots: Layer,
    pub(super) words_version: u64,
    /// Whether this frame may run the density and status builds (not in the frame that first
    /// writes the colour words of a large graph).
    pub(super) builds: bool,
    pub(super) build_pairs: usize,
    pub(super) status_vertices: u32,
    pub(super) dens_done: Arc<AtomicU64>,
    pub(super) status_behind: Arc<AtomicBool>,
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
