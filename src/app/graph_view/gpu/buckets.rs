//! Spatial buckets for the GPU view: vertices and arcs sorted by a `side × side` grid over the
//! world box, so a frame draws only the ranges the camera sees, and knows before drawing how many
//! arcs and vertices that is (which decides between direct drawing and the aggregated tiles).
//!
//! Built once per graph and layout on a worker thread (a counting sort, O(n + m)); the GPU
//! buffers are then uploaded in the sorted order, so every draw is a few contiguous ranges.

use super::super::camera::Bbox;
use crate::graph::Graph;

/// Buckets per side: 64 × 64 = 4096 rectangles, few enough to test them all every frame.
pub const SIDE: usize = 64;

/// The sorted vertices and arcs of one graph and layout.
pub struct Buckets {
    /// World box the buckets cover (positions outside are clamped into the border buckets).
    pub bbox: Bbox,
    /// Sorted slot → vertex id.
    pub order: Vec<u32>,
    /// Vertex id → sorted slot (the inverse of `order`).
    pub slot: Vec<u32>,
    /// Positions in slot order (world units).
    pub pos: Vec<[f32; 2]>,
    /// Slots of bucket `b`: `vstart[b]..vstart[b + 1]`; `SIDE² + 1` entries.
    pub vstart: Vec<u32>,
    /// Arc pairs (slot indices, source first), grouped by the source's bucket.
    pub pairs: Vec<u32>,
    /// Pairs of bucket `b`: `astart[b]..astart[b + 1]` (in pairs).
    pub astart: Vec<u32>,
    /// Per bucket, the box of its vertices and of both ends of its arcs: `[min x, min y, max x,
    /// max y]`; empty buckets hold an inverted box.
    pub reach: Vec<[f32; 4]>,
}

/// What a camera rectangle sees: contiguous slot and pair ranges and their totals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Visible {
    pub vertices: Vec<(u32, u32)>,
    pub pairs: Vec<(u32, u32)>,
    pub n_vertices: u64,
    pub n_pairs: u64,
}

fn bucket_of(bbox: &Bbox, p: [f32; 2]) -> usize {
    let cell = |k: usize| {
        let w = (bbox.max[k] - bbox.min[k]).max(f32::MIN_POSITIVE);
        let t = ((p[k] - bbox.min[k]) / w * SIDE as f32).floor();
        if t.is_finite() { (t.max(0.0) as usize).min(SIDE - 1) } else { 0 }
    };
    cell(1) * SIDE + cell(0)
}

fn grow(b: &mut [f32; 4], p: [f32; 2]) {
    if p[0].is_finite() && p[1].is_finite() {
        b[0] = b[0].min(p[0]);
        b[1] = b[1].min(p[1]);
        b[2] = b[2].max(p[0]);
        b[3] = b[3].max(p[1]);
    }
}

impl Buckets {
    /// Sorts the vertices at `pos` (one per vertex of `graph`) and the arc pairs `pairs` (vertex
    /// ids, two per arc, as [`super::pack::arc_pairs`] writes them).
    pub fn new(graph: &Graph, pos: &[[f32; 2]], pairs: &[u32]) -> Buckets {
        let n = graph.n();
        debug_assert_eq!(pos.len(), n);
        let bbox = Bbox::of(pos);
        let nb = SIDE * SIDE;
        let bucket: Vec<u32> = pos.iter().map(|&p| bucket_of(&bbox, p) as u32).collect();

        // Vertices: counting sort by bucket.
        let mut vstart = vec![0u32; nb + 1];
        for &b in &bucket {
            vstart[b as usize + 1] += 1;
        }
        for b in 0..nb {
            vstart[b + 1] += vstart[b];
        }
        let mut next = vstart.clone();
        let mut order = vec![0u32; n];
        let mut slot = vec![0u32; n];
        for (v, &b) in bucket.iter().enumerate() {
            let s = next[b as usize];
            next[b as usize] += 1;
            order[s as usize] = v as u32;
            slot[v] = s;
        }
        let sorted_pos: Vec<[f32; 2]> = order.iter().map(|&v| pos[v as usize]).collect();
        let mut reach = vec![[f32::INFINITY, f32::INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY]; nb];
        for (v, &b) in bucket.iter().enumerate() {
            grow(&mut reach[b as usize], pos[v]);
        }

        // Arcs: counting sort by the source's bucket, ends renamed to slots.
        let mut astart = vec![0u32; nb + 1];
        for pair in pairs.chunks_exact(2) {
            astart[bucket[pair[0] as usize] as usize + 1] += 1;
        }
        for b in 0..nb {
            astart[b + 1] += astart[b];
        }
        let mut next = astart.clone();
        let mut sorted = vec![0u32; pairs.len()];
        for pair in pairs.chunks_exact(2) {
            let (u, v) = (pair[0] as usize, pair[1] as usize);
            let b = bucket[u] as usize;
            let k = next[b] as usize;
            next[b] += 1;
            sorted[2 * k] = slot[u];
            sorted[2 * k + 1] = slot[v];
            grow(&mut reach[b], pos[v]);
        }
        Buckets { bbox, order, slot, pos: sorted_pos, vstart, pairs: sorted, astart, reach }
    }

    /// The ranges whose reach meets the world rectangle `[min x, min y, max x, max y]`.
    /// Neighbouring buckets in row-major order merge into one range.
    pub fn visible(&self, rect: [f32; 4]) -> Visible {
        let mut out = Visible::default();
        for (b, r) in self.reach.iter().enumerate() {
            if r[0] > rect[2] || r[2] < rect[0] || r[1] > rect[3] || r[3] < rect[1] {
                continue;
            }
            push(&mut out.vertices, self.vstart[b], self.vstart[b + 1]);
            push(&mut out.pairs, self.astart[b], self.astart[b + 1]);
        }
        out.n_vertices = out.vertices.iter().map(|&(a, b)| u64::from(b - a)).sum();
        out.n_pairs = out.pairs.iter().map(|&(a, b)| u64::from(b - a)).sum();
        out
    }

    /// Number of arc pairs.
    pub fn n_pairs(&self) -> usize {
        self.pairs.len() / 2
    }
}

fn push(ranges: &mut Vec<(u32, u32)>, a: u32, b: u32) {
    if a == b {
        return;
    }
    match ranges.last_mut() {
        Some(last) if last.1 == a => last.1 = b,
        _ => ranges.push((a, b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;

    #[test]
    fn sorted_arcs_and_vertices_are_a_permutation_and_visibility_is_conservative() {
        let g = generate::grid(40, 30, 9, 1).expect("grid");
        let pos: Vec<[f32; 2]> = (0..g.n()).map(|v| [(v % 40) as f32, (v / 40) as f32]).collect();
        let mut pairs = Vec::new();
        super::super::pack::arc_pairs(&g, &[], 0, usize::MAX, &mut pairs);
        let b = Buckets::new(&g, &pos, &pairs);
        let mut seen = b.order.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..g.n() as u32).collect::<Vec<_>>());
        for (s, &v) in b.order.iter().enumerate() {
            assert_eq!(b.pos[s], pos[v as usize]);
            assert_eq!(b.slot[v as usize], s as u32);
        }
        let mut want: Vec<(u32, u32)> = pairs.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        let mut got: Vec<(u32, u32)> =
            b.pairs.chunks_exact(2).map(|p| (b.order[p[0] as usize], b.order[p[1] as usize])).collect();
        want.sort_unstable();
        got.sort_unstable();
        assert_eq!(got, want);

        // Everything is visible from far away; a small window sees its own arcs and fewer.
        let all = b.visible([-1e6, -1e6, 1e6, 1e6]);
        assert_eq!((all.n_vertices, all.n_pairs), (g.n() as u64, b.n_pairs() as u64));
        assert_eq!(all.vertices, vec![(0, g.n() as u32)]);
        let win = [10.0, 10.0, 14.0, 12.0];
        let some = b.visible(win);
        assert!(some.n_pairs < all.n_pairs / 4, "{some:?}");
        let inside = |p: [f32; 2]| p[0] >= win[0] && p[0] <= win[2] && p[1] >= win[1] && p[1] <= win[3];
        for pair in b.pairs.chunks_exact(2).enumerate() {
            let (k, p) = pair;
            if inside(b.pos[p[0] as usize]) || inside(b.pos[p[1] as usize]) {
                let k = k as u32;
                assert!(some.pairs.iter().any(|&(a, e)| a <= k && k < e), "arc {k} touches the window");
            }
        }
    }
}
