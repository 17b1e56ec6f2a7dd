//! The host path of the vertex colour words: deltas for a step, a full pack otherwise, and the
//! first fill of a large graph's word buffer a slice per frame.

use super::super::ColorMode;
use super::super::colors::{Shader, distance_ramp};
use super::buckets::Buckets;
use super::{Frame, GpuView, WordsPath, pack, wgpu};
use crate::graph::VertexId;

impl GpuView {
    /// The host path of the vertex words: when the GPU holds an earlier state of the same
    /// trace in the same colours (status mode, no wrong set), only the vertices its deltas
    /// touched are recoloured (a step: O(changes), not O(n)); otherwise all are packed. Either
    /// way only the 16 KiB blocks that changed are written.
    pub(super) fn host_words(
        &mut self,
        queue: &wgpu::Queue,
        buf: &wgpu::Buffer,
        buckets: &Buckets,
        f: &Frame<'_>,
        frontier: &mut Vec<VertexId>,
    ) {
        let n = buckets.order.len();
        let key = f.words_key;
        let same_look = self.words_for.is_some_and(|k| {
            (k.graph, k.has_trace, k.color_mode, k.wrong) == (key.graph, key.has_trace, key.color_mode, key.wrong)
        });
        let at = self.words_at.take();
        let step = match (f.trace, at, self.gpu_words.as_mut()) {
            (Some(t), Some((id, pos)), Some(gpu))
                if same_look
                    && id == t.id()
                    && f.color_mode == ColorMode::Status
                    && f.wrong.is_empty()
                    && gpu.len() == n =>
            {
                t.changed_between(pos, t.pos(), n / 8).map(|c| (t, c, gpu))
            }
            _ => None,
        };
        if let Some((t, changed, gpu)) = step {
            let shader = Shader::new(Some(t), f.color_mode, distance_ramp());
            let mut blocks = Vec::with_capacity(changed.len());
            for v in changed {
                if let Some(&s) = buckets.slot.get(v as usize) {
                    let st = shader.status(v);
                    gpu[s as usize] = pack::word(shader.shade(v, st).0, pack::code(st));
                    blocks.push(s as usize / pack::WORD_BLOCK);
                }
            }
            for (a, b) in pack::block_runs(blocks, n) {
                queue.write_buffer(buf, a as u64 * 4, bytemuck::cast_slice(&gpu[a..b]));
            }
            frontier.clear();
            frontier.extend_from_slice(t.frontier());
            self.words_path = WordsPath::Deltas;
        } else {
            // Built only here: in the distance mode it scans all δ for the ramp's maximum.
            let shader = Shader::new(f.trace, f.color_mode, distance_ramp());
            pack::vertex_words(&buckets.order, &buckets.slot, &shader, f.wrong, &mut self.words, frontier);
            let prev = self.gpu_words.take().filter(|p| p.len() == self.words.len());
            for (a, b) in pack::changed_blocks(prev.as_deref(), &self.words) {
                queue.write_buffer(buf, a as u64 * 4, bytemuck::cast_slice(&self.words[a..b]));
            }
            // Keep what the GPU now holds; the old copy becomes the next scratch.
            self.gpu_words = Some(std::mem::replace(&mut self.words, prev.unwrap_or_default()));
            self.words_path = WordsPath::Full;
        }
        self.words_at = f.trace.map(|t| (t.id(), t.pos()));
    }

    /// The first fill of a large graph's word buffer, `steps` × `stages.fill_slice` vertices per
    /// call (`steps` is 0 on a resting frame of `staging::Pace`): packing and writing all
    /// 16.8 M words of the grid at once took 258 ms of one frame on lavapipe, and drawing
    /// before the buffer is whole would make wgpu zero the rest in that frame. A
    /// change of state restarts the fill. Returns whether it is complete (the words are then
    /// as [`GpuView::host_words`] would have made them, `frontier` filled).
    pub(super) fn fill_slice(
        &mut self,
        queue: &wgpu::Queue,
        buf: &wgpu::Buffer,
        buckets: &Buckets,
        f: &Frame<'_>,
        frontier: &mut Vec<VertexId>,
        steps: usize,
    ) -> bool {
        let n = buckets.order.len();
        // The state is the same for every slice of one fill: the distance ramp's top (a scan of
        // all δ) is taken once.
        let (from, shader) = match self.first_fill {
            Some((key, done, max_dist)) if key == f.words_key => {
                (done, Shader { trace: f.trace, mode: f.color_mode, max_dist, ramp: distance_ramp() })
            }
            _ => {
                self.words.clear();
                self.words.resize(n, 0);
                (0, Shader::new(f.trace, f.color_mode, distance_ramp()))
            }
        };
        let to = (from + self.stages.fill_slice.max(1) * steps).min(n);
        if to < n {
            if to > from {
                pack::words_into(&buckets.order[from..to], &shader, &mut self.words[from..to]);
                queue.write_buffer(buf, from as u64 * 4, bytemuck::cast_slice(&self.words[from..to]));
            }
            self.first_fill = Some((f.words_key, to, shader.max_dist));
            return false;
        }
        pack::words_into(&buckets.order[from..to], &shader, &mut self.words[from..to]);
        *frontier = pack::frontier_of(&buckets.order, &self.words);
        let wrong = pack::mark_wrong(&buckets.slot, f.wrong, &mut self.words);
        queue.write_buffer(buf, from as u64 * 4, bytemuck::cast_slice(&self.words[from..to]));
        // Wrong vertices in the slices already written.
        let blocks = wrong.into_iter().filter(|&s| s < from).map(|s| s / pack::WORD_BLOCK).collect();
        for (a, b) in pack::block_runs(blocks, n) {
            queue.write_buffer(buf, a as u64 * 4, bytemuck::cast_slice(&self.words[a..b]));
        }
        self.gpu_words = Some(std::mem::take(&mut self.words));
        self.words_path = WordsPath::Full;
        self.words_at = f.trace.map(|t| (t.id(), t.pos()));
        self.first_fill = None;
        true
    }
}
