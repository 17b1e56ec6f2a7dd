//! The CPU side of the GPU view, free of any device so it can be unit-tested: the camera uniform,
//! the arc index pairs and the per-vertex colour words, laid out as `kernels/view.wgsl` reads
//! them.

use super::super::arcs::SKIP;
use super::super::camera::Camera;
use super::super::colors::{Shader, WRONG};
use super::super::pick::Cells;
use crate::algo::VertexStatus;
use crate::graph::{Graph, VertexId};
use egui::Color32;

/// Status codes in the top byte of a vertex word (`kernels/view.wgsl` knows them by name).
pub const CODE_UNREACHED: u32 = 0;
pub const CODE_SETTLED: u32 = 1;
pub const CODE_REACHED: u32 = 2;
pub const CODE_FRONTIER: u32 = 3;
pub const CODE_WRONG: u32 = 4;

/// Bits of [`ViewUniform::flags`].
pub const FLAG_DRAW_UNREACHED: u32 = 1;
pub const FLAG_CELLS: u32 = 2;
pub const FLAG_SRGB_TARGET: u32 = 4;

/// The `View` uniform of `kernels/view.wgsl` (64 bytes, std140-compatible field order).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct ViewUniform {
    pub center: [f32; 2],
    pub scale: [f32; 2],
    pub px: [f32; 2],
    pub dot_px: f32,
    pub frontier_k: f32,
    pub arc_color: [f32; 4],
    pub flags: u32,
    pub pad: [u32; 3],
}

impl ViewUniform {
    /// The uniform for `camera` over a view of `size_pt` points at `ppp` pixels per point. The
    /// paint callback's viewport is the view's rectangle, so its centre is NDC (0, 0) and its
    /// half size is 1 in NDC.
    pub fn new(camera: &Camera, size_pt: [f32; 2], ppp: f32) -> ViewUniform {
        let (w, h) = (size_pt[0].max(1.0) as f64, size_pt[1].max(1.0) as f64);
        let ppp = if ppp > 0.0 { ppp as f64 } else { 1.0 };
        ViewUniform {
            center: [camera.center[0] as f32, camera.center[1] as f32],
            scale: [(2.0 * camera.scale / w) as f32, (2.0 * camera.scale / h) as f32],
            px: [(2.0 / (w * ppp)) as f32, (2.0 / (h * ppp)) as f32],
            dot_px: 1.0,
            frontier_k: 1.0,
            arc_color: [0.0; 4],
            flags: 0,
            pad: [0; 3],
        }
    }

    /// World point → NDC, as the shader computes it (for tests).
    pub fn to_ndc(&self, p: [f32; 2]) -> [f32; 2] {
        [(p[0] - self.center[0]) * self.scale[0], (p[1] - self.center[1]) * self.scale[1]]
    }
}

/// The arc colour as the shader wants it: straight RGB in 0..1 with alpha (egui's colours are
/// premultiplied; an opaque-ish grey is the same either way, but unmultiply to be safe).
pub fn arc_color(c: Color32) -> [f32; 4] {
    let [r, g, b, a] = c.to_srgba_unmultiplied();
    [r as f32 / 255.0, g as f32 / 255.0, b as f32 / 255.0, a as f32 / 255.0]
}

/// Appends the drawn arcs (those without [`SKIP`]) of `graph` as (tail, head) pairs to `out`,
/// starting at arc index `from` and stopping after `max_pairs`; returns the arc index to continue
/// from (`m` when done). Uploading in chunks keeps the CPU copy small for huge graphs.
pub fn arc_pairs(graph: &Graph, flags: &[u8], from: usize, max_pairs: usize, out: &mut Vec<u32>) -> usize {
    let csr = graph.successors();
    let m = csr.m();
    if from >= m {
        return m;
    }
    // The tail of arc `from`: the last vertex whose row starts at or before it.
    let mut u = csr.offsets.partition_point(|&o| o as usize <= from).saturating_sub(1) as u32;
    let mut pairs = 0;
    let mut i = from;
    while i < m {
        while csr.offsets[u as usize + 1] as usize <= i {
            u += 1;
        }
        if flags.get(i).is_none_or(|f| f & SKIP == 0) {
            if pairs == max_pairs {
                return i;
            }
            out.push(u);
            out.push(csr.targets[i]);
            pairs += 1;
        }
        i += 1;
    }
    m
}

/// The status code of `s`.
pub fn code(s: VertexStatus) -> u32 {
    match s {
        VertexStatus::Unreached => CODE_UNREACHED,
        VertexStatus::Settled => CODE_SETTLED,
        VertexStatus::Reached => CODE_REACHED,
        VertexStatus::Frontier => CODE_FRONTIER,
    }
}

/// One vertex word: RGB in the low three bytes, the status code in the top one.
#[inline]
pub fn word(c: Color32, code: u32) -> u32 {
    u32::from(c.r()) | (u32::from(c.g()) << 8) | (u32::from(c.b()) << 16) | (code << 24)
}

/// The colour words of the vertices `order` (slot `s` holds vertex `order[s]`, the GPU buffers'
/// order) for one state of the run into `out` (replaced, `out[s]` for `order[s]`), and the
/// frontier into `frontier` (replaced). Vertices in `wrong` get [`WRONG`] and [`CODE_WRONG`];
/// `slot` is the inverse of `order`. O(n + |wrong|) on all cores: done once per state change,
/// never per frame (16.8 M vertices: about 30 ms on two cores).
pub fn vertex_words(
    order: &[u32],
    slot: &[u32],
    shader: &Shader<'_>,
    wrong: &[VertexId],
    out: &mut Vec<u32>,
    frontier: &mut Vec<u32>,
) {
    out.clear();
    out.resize(order.len(), 0);
    words_into(order, shader, out);
    *frontier = frontier_of(order, out);
    mark_wrong(slot, wrong, out);
}

/// The colour words of the vertices `order` into `out` (same length), on all cores, without
/// the wrong set: one slice of [`vertex_words`].
pub fn words_into(order: &[u32], shader: &Shader<'_>, out: &mut [u32]) {
    use rayon::prelude::*;
    out.par_iter_mut().zip(order.par_iter()).with_min_len(1 << 14).for_each(|(w, &v)| {
        let s = shader.status(v);
        *w = word(shader.shade(v, s).0, code(s));
    });
}

/// The frontier vertices among `order` by their `words` (before [`mark_wrong`]).
pub fn frontier_of(order: &[u32], words: &[u32]) -> Vec<u32> {
    use rayon::prelude::*;
    words
        .par_iter()
        .zip(order.par_iter())
        .with_min_len(1 << 14)
        .filter(|(w, _)| **w >> 24 == CODE_FRONTIER)
        .map(|(_, &v)| v)
        .collect()
}

/// Gives the vertices in `wrong` [`WRONG`] and [`CODE_WRONG`] in `words` (slot order; `slot`
/// maps a vertex to its slot). Returns their slots.
pub fn mark_wrong(slot: &[u32], wrong: &[VertexId], words: &mut [u32]) -> Vec<usize> {
    let mut slots = Vec::with_capacity(wrong.len());
    for &v in wrong {
        if let Some(&s) = slot.get(v as usize)
            && let Some(w) = words.get_mut(s as usize)
        {
            *w = word(WRONG, CODE_WRONG);
            slots.push(s as usize);
        }
    }
    slots
}

/// Words per block compared by [`changed_blocks`] (16 KiB).
pub const WORD_BLOCK: usize = 4096;

/// The word ranges `[a, b)` of `new` to upload when the GPU holds `old`: the runs of
/// [`WORD_BLOCK`]-word blocks that differ, or all of `new` when `old` is unknown or more than a
/// quarter of the blocks changed (one large write is then cheaper than many). A step changes
/// few vertices, so its upload is a few blocks instead of 4 bytes per vertex.
pub fn changed_blocks(old: Option<&[u32]>, new: &[u32]) -> Vec<(usize, usize)> {
    let all = if new.is_empty() { Vec::new() } else { vec![(0, new.len())] };
    let Some(old) = old.filter(|o| o.len() == new.len()) else { return all };
    let blocks: Vec<usize> = old
        .chunks(WORD_BLOCK)
        .zip(new.chunks(WORD_BLOCK))
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, _)| i)
        .collect();
    if blocks.len() * 4 > new.len().div_ceil(WORD_BLOCK) { all } else { block_runs(blocks, new.len()) }
}

/// The word ranges of the [`WORD_BLOCK`]-word blocks `blocks` (any order, repeats allowed) of
/// an `n`-word buffer, adjacent blocks merged.
pub fn block_runs(mut blocks: Vec<usize>, n: usize) -> Vec<(usize, usize)> {
    blocks.sort_unstable();
    blocks.dedup();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for b in blocks {
        let (lo, hi) = (b * WORD_BLOCK, ((b + 1) * WORD_BLOCK).min(n));
        if lo >= hi {
            continue;
        }
        match runs.last_mut() {
            Some(r) if r.1 == lo => r.1 = hi,
            _ => runs.push((lo, hi)),
        }
    }
    runs
}

/// World positions of the raster mode: vertex `v` at the centre of its cell (`rank[v]`, or `v`).
pub fn cell_positions(cells: Cells, rank: Option<&[u32]>) -> Vec<[f32; 2]> {
    (0..cells.n).map(|v| cells.center(rank.map_or(v, |r| r[v] as usize))).collect()
}

#[cfg(test)]
mod tests {
    use super::super::super::ColorMode;
    use super::super::super::colors::{FRONTIER, UNREACHED, distance_ramp};
    use super::*;
    use crate::trace::Trace;

    #[test]
    fn uniform_is_the_layout_the_shader_reads() {
        // 64 bytes: kernels/view.wgsl's `View` with its three pad words.
        assert_eq!(std::mem::size_of::<ViewUniform>(), 64);
        assert_eq!(std::mem::offset_of!(ViewUniform, arc_color), 32);
        assert_eq!(std::mem::offset_of!(ViewUniform, flags), 48);
    }

    #[test]
    fn camera_uniform_maps_like_the_egui_camera() {
        // The CPU path's world → screen map and the shader's world → NDC map agree on where
        // every point lands in the view.
        let cam = Camera { center: [-120.5, 7.25], scale: 3.5 };
        let rect = egui::Rect::from_min_size(egui::pos2(10.0, 20.0), egui::vec2(800.0, 500.0));
        let u = ViewUniform::new(&cam, [800.0, 500.0], 2.0);
        for p in [[-120.5f32, 7.25], [-10.0, 40.0], [-200.0, -30.0]] {
            let q = cam.world_to_screen(rect, [p[0] as f64, p[1] as f64]);
            let ndc = u.to_ndc(p);
            let x = rect.center().x + ndc[0] * rect.width() / 2.0;
            let y = rect.center().y - ndc[1] * rect.height() / 2.0;
            assert!((x - q.x).abs() < 1e-3 && (y - q.y).abs() < 1e-3, "{p:?}: {x},{y} vs {q:?}");
        }
        // One pixel at 2 pixels per point over 800 points is 2 / 1600 in NDC.
        assert!((u.px[0] - 2.0 / 1600.0).abs() < 1e-9);
        // Pan and zoom change nothing but this uniform.
        let mut moved = cam;
        moved.pan(egui::vec2(5.0, 0.0));
        assert_ne!(ViewUniform::new(&moved, [800.0, 500.0], 2.0).center, u.center);
    }

    #[test]
    fn arc_pairs_skip_reverse_arcs_and_resume_in_chunks() {
        let g = crate::generate::grid(7, 5, 10, 1).expect("grid");
        let (flags, drawn) = super::super::super::arcs::arc_flags(&g);
        assert!(drawn < g.m(), "an undirected grid draws each edge once");
        let mut all = Vec::new();
        assert_eq!(arc_pairs(&g, &flags, 0, usize::MAX, &mut all), g.m());
        assert_eq!(all.len(), 2 * drawn);
        assert!(
            all.chunks(2).all(|p| p[0] != p[1] && g.successors().targets[g.successors().range(p[0])].contains(&p[1]))
        );
        // One pair at a time gives the same list.
        let (mut chunked, mut from) = (Vec::new(), 0);
        while from < g.m() {
            from = arc_pairs(&g, &flags, from, 1, &mut chunked);
        }
        assert_eq!(chunked, all);
    }

    #[test]
    fn vertex_words_carry_status_colour_and_wrong() {
        let mut t = Trace::new(3, 0);
        t.set_finished();
        let shader = Shader::new(Some(&t), ColorMode::Status, distance_ramp());
        let (mut words, mut frontier) = (Vec::new(), Vec::new());
        vertex_words(&[0, 1, 2], &[0, 1, 2], &shader, &[2], &mut words, &mut frontier);
        assert_eq!(frontier, vec![0]);
        assert_eq!(words[0], word(FRONTIER, CODE_FRONTIER));
        assert_eq!(words[1], word(UNREACHED, CODE_UNREACHED));
        assert_eq!(words[2] >> 24, CODE_WRONG);
        assert_eq!(words[2] & 0xff, u32::from(WRONG.r()));
        // In slot order: slot 0 holds vertex 2 (wrong), slot 2 vertex 0 (the frontier).
        vertex_words(&[2, 1, 0], &[2, 1, 0], &shader, &[2], &mut words, &mut frontier);
        assert_eq!(frontier, vec![0]);
        assert_eq!(words[2], word(FRONTIER, CODE_FRONTIER));
        assert_eq!(words[0] >> 24, CODE_WRONG);
    }

    #[test]
    fn changed_blocks_are_the_runs_that_differ() {
        let old = vec![0u32; 40 * WORD_BLOCK + 5];
        // Unknown: everything.
        assert_eq!(changed_blocks(None, &old), vec![(0, old.len())]);
        assert!(changed_blocks(Some(&old), &old).is_empty());
        let mut new = old.clone();
        new[3] = 1;
        new[WORD_BLOCK + 7] = 1;
        new[40 * WORD_BLOCK + 4] = 1;
        // Blocks 0 and 1 join into one run; the short last block ends at the length.
        assert_eq!(changed_blocks(Some(&old), &new), vec![(0, 2 * WORD_BLOCK), (40 * WORD_BLOCK, new.len())]);
        // Most blocks changed: one write of all.
        new.iter_mut().step_by(WORD_BLOCK).for_each(|w| *w = 2);
        assert_eq!(changed_blocks(Some(&old), &new), vec![(0, new.len())]);
        // Every word of the result ends up equal to `new` when the runs are copied over `old`.
        let mut gpu = old.clone();
        new[5 * WORD_BLOCK] = 9;
        for (a, b) in changed_blocks(Some(&old), &new) {
            gpu[a..b].copy_from_slice(&new[a..b]);
        }
        assert_eq!(gpu, new);
    }

    #[test]
    fn block_runs_merge_neighbours() {
        let n = 5 * WORD_BLOCK + 3;
        assert_eq!(
            block_runs(vec![3, 0, 1, 1, 5, 9], n),
            vec![(0, 2 * WORD_BLOCK), (3 * WORD_BLOCK, 4 * WORD_BLOCK), (5 * WORD_BLOCK, n)]
        );
        assert!(block_runs(Vec::new(), n).is_empty());
    }

    #[test]
    fn cells_follow_the_order() {
        let cells = Cells::new(5);
        assert_eq!(cell_positions(cells, None)[4], cells.center(4));
        let rank = [4, 3, 2, 1, 0];
        assert_eq!(cell_positions(cells, Some(&rank))[0], cells.center(4));
    }
}
