//! Nearest-vertex picking: a uniform grid over the world positions (built once per layout, in
//! O(n)), searched ring by ring outwards from the query point.

use super::camera::Bbox;

/// Vertices bucketed by grid cell, in compressed rows: the vertices of cell c are
/// `items[starts[c]..starts[c + 1]]`.
#[derive(Clone, Debug, Default)]
pub struct PickGrid {
    min: [f32; 2],
    cell: f32,
    dims: [usize; 2],
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl PickGrid {
    /// Builds the grid for `pos` (about two vertices per cell, at most 2048 cells a side).
    /// Non-finite positions are left out.
    pub fn build(pos: &[[f32; 2]]) -> PickGrid {
        let n = pos.len();
        let bbox = Bbox::of(pos);
        let (w, h) = (bbox.width().max(0.0), bbox.height().max(0.0));
        let target_cells = (n / 2).max(1) as f32;
        let mut cell = if w > 0.0 && h > 0.0 { (w * h / target_cells).sqrt() } else { w.max(h) / target_cells };
        let longest = w.max(h);
        if !(cell.is_finite() && cell > 0.0) {
            cell = 1.0;
        }
        // Cap the side length; also keep f32 cell indices exact.
        cell = cell.max(longest / 2048.0);
        let dims = [((w / cell) as usize + 1).min(2049), ((h / cell) as usize + 1).min(2049)];
        let cells = dims[0] * dims[1];
        let mut starts = vec![0u32; cells + 1];
        let key = |p: &[f32; 2]| -> Option<usize> {
            if !(p[0].is_finite() && p[1].is_finite()) {
                return None;
            }
            let cx = (((p[0] - bbox.min[0]) / cell) as usize).min(dims[0] - 1);
            let cy = (((p[1] - bbox.min[1]) / cell) as usize).min(dims[1] - 1);
            Some(cy * dims[0] + cx)
        };
        for p in pos {
            if let Some(k) = key(p) {
                starts[k + 1] += 1;
            }
        }
        for c in 0..cells {
            starts[c + 1] += starts[c];
        }
        let mut next = starts[..cells].to_vec();
        let mut items = vec![0u32; starts[cells] as usize];
        for (v, p) in pos.iter().enumerate() {
            if let Some(k) = key(p) {
                items[next[k] as usize] = v as u32;
                next[k] += 1;
            }
        }
        PickGrid { min: bbox.min, cell, dims, starts, items }
    }

    /// The vertex nearest to `p` within distance `max_r` (world units), with its distance.
    /// Ties go to the smaller vertex id.
    pub fn nearest(&self, pos: &[[f32; 2]], p: [f32; 2], max_r: f32) -> Option<(u32, f32)> {
        if self.items.is_empty() || !(p[0].is_finite() && p[1].is_finite()) || max_r.is_nan() || max_r < 0.0 {
            return None;
        }
        let (gw, gh) = (self.dims[0] as f32 * self.cell, self.dims[1] as f32 * self.cell);
        let (rx, ry) = (p[0] - self.min[0], p[1] - self.min[1]);
        // Farther than max_r from the grid: nothing can be near enough.
        let out_x = (-rx).max(rx - gw).max(0.0);
        let out_y = (-ry).max(ry - gh).max(0.0);
        if out_x * out_x + out_y * out_y > max_r * max_r {
            return None;
        }
        let (dx, dy) = (self.dims[0] as i64, self.dims[1] as i64);
        let cx = ((rx / self.cell).floor() as i64).clamp(0, dx - 1);
        let cy = ((ry / self.cell).floor() as i64).clamp(0, dy - 1);
        let mut best: Option<(u32, f32)> = None;
        let mut best_d2 = max_r * max_r;
        let visit = |x: i64, y: i64, best: &mut Option<(u32, f32)>, best_d2: &mut f32| {
            let c = y as usize * self.dims[0] + x as usize;
            for &v in &self.items[self.starts[c] as usize..self.starts[c + 1] as usize] {
                let q = pos[v as usize];
                let d2 = (q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2);
                let better = match *best {
                    None => d2 <= *best_d2,
                    Some((bv, _)) => d2 < *best_d2 || (d2 == *best_d2 && v < bv),
                };
                if better {
                    *best_d2 = d2;
                    *best = Some((v, d2));
                }
            }
        };
        let max_ring = dx.max(dy);
        for k in 0..=max_ring {
            if k > 0 {
                // Cells of ring k and beyond lie outside the box of rings < k; when p is inside
                // that box, they are at least its distance to the box's border away.
                let x0 = (cx - k + 1) as f32 * self.cell;
                let x1 = (cx + k) as f32 * self.cell;
                let y0 = (cy - k + 1) as f32 * self.cell;
                let y1 = (cy + k) as f32 * self.cell;
                let lower = (rx - x0).min(x1 - rx).min(ry - y0).min(y1 - ry).max(0.0);
                if lower * lower > best_d2 {
                    break;
                }
            }
            let xs = (cx - k).max(0);
            let xe = (cx + k).min(dx - 1);
            for y in [cy - k, cy + k] {
                if (0..dy).contains(&y) {
                    for x in xs..=xe {
                        visit(x, y, &mut best, &mut best_d2);
                    }
                }
                if k == 0 {
                    break;
                }
            }
            let ys = (cy - k + 1).max(0);
            let ye = (cy + k - 1).min(dy - 1);
            if k > 0 {
                for x in [cx - k, cx + k] {
                    if (0..dx).contains(&x) {
                        for y in ys..=ye {
                            visit(x, y, &mut best, &mut best_d2);
                        }
                    }
                }
            }
        }
        best.map(|(v, d2)| (v, d2.sqrt()))
    }
}

/// The square grid of the aggregated view: cell i sits at column i mod side, row i / side; world
/// cell (col, row) spans x ∈ [col, col + 1], y ∈ [−row − 1, −row] (row 0 on top).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cells {
    pub n: usize,
    pub side: usize,
}

impl Cells {
    pub fn new(n: usize) -> Cells {
        let mut side = (n as f64).sqrt().ceil() as usize;
        while side * side < n {
            side += 1;
        }
        Cells { n, side: side.max(1) }
    }

    pub fn rows(&self) -> usize {
        self.n.div_ceil(self.side).max(1)
    }

    pub fn bbox(&self) -> Bbox {
        Bbox { min: [0.0, -(self.rows() as f32)], max: [self.side as f32, 0.0] }
    }

    /// World centre of cell `i`.
    pub fn center(&self, i: usize) -> [f32; 2] {
        [(i % self.side) as f32 + 0.5, -((i / self.side) as f32) - 0.5]
    }

    /// The cell containing world point `p`, if any.
    pub fn at(&self, p: [f64; 2]) -> Option<usize> {
        let (x, y) = (p[0].floor(), (-p[1]).floor());
        if !(x >= 0.0 && y >= 0.0 && x < self.side as f64) {
            return None;
        }
        let i = y as usize * self.side + x as usize;
        (i < self.n).then_some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> f32 {
        *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (*seed >> 40) as f32 / (1u64 << 24) as f32
    }

    fn brute(pos: &[[f32; 2]], p: [f32; 2], r: f32) -> Option<u32> {
        let mut best: Option<(u32, f32)> = None;
        for (v, q) in pos.iter().enumerate() {
            let d2 = (q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2);
            if d2 <= r * r && best.is_none_or(|(_, b)| d2 < b) {
                best = Some((v as u32, d2));
            }
        }
        best.map(|b| b.0)
    }

    #[test]
    fn nearest_matches_brute_force() {
        let mut s = 7u64;
        // Clustered points (like a road network: dense city, sparse outskirts).
        let pos: Vec<[f32; 2]> = (0..5000)
            .map(|i| {
                let k = if i % 3 == 0 { 1000.0 } else { 50.0 };
                [lcg(&mut s) * k - 300.0, lcg(&mut s) * k * 0.5 + 20.0]
            })
            .collect();
        let grid = PickGrid::build(&pos);
        for _ in 0..2000 {
            let p = [lcg(&mut s) * 1400.0 - 500.0, lcg(&mut s) * 700.0 - 100.0];
            for r in [0.5f32, 3.0, 40.0, 1e6] {
                let got = grid.nearest(&pos, p, r).map(|x| x.0);
                let want = brute(&pos, p, r);
                match (got, want) {
                    (Some(g), Some(w)) => {
                        let d = |v: u32| (pos[v as usize][0] - p[0]).powi(2) + (pos[v as usize][1] - p[1]).powi(2);
                        assert_eq!(d(g), d(w), "p {p:?} r {r}");
                    }
                    _ => assert_eq!(got, want, "p {p:?} r {r}"),
                }
            }
        }
    }

    #[test]
    fn degenerate_layouts() {
        assert_eq!(PickGrid::build(&[]).nearest(&[], [0.0, 0.0], 10.0), None);
        let one = [[5.0, 5.0]];
        let g = PickGrid::build(&one);
        assert_eq!(g.nearest(&one, [5.5, 5.0], 1.0), Some((0, 0.5)));
        assert_eq!(g.nearest(&one, [7.0, 5.0], 1.0), None);
        // All on a line, plus a NaN.
        let line: Vec<[f32; 2]> = (0..100).map(|i| [i as f32, 0.0]).chain([[f32::NAN, 0.0]]).collect();
        let g = PickGrid::build(&line);
        assert_eq!(g.nearest(&line, [41.2, 3.0], 5.0).map(|x| x.0), Some(41));
        assert_eq!(g.nearest(&line, [-1e7, 0.0], 1e9).map(|x| x.0), Some(0));
        // Duplicates: the smaller id wins.
        let dup = [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]];
        assert_eq!(PickGrid::build(&dup).nearest(&dup, [1.0, 1.0], 1.0).map(|x| x.0), Some(0));
    }

    #[test]
    fn cells_round_trip() {
        let c = Cells::new(10);
        assert_eq!(c.side, 4);
        assert_eq!(c.rows(), 3);
        for i in 0..10 {
            let p = c.center(i);
            assert_eq!(c.at([p[0] as f64, p[1] as f64]), Some(i));
        }
        assert_eq!(c.at([2.5, -2.5]), None); // cell 10 does not exist
        assert_eq!(c.at([-0.5, -0.5]), None);
        assert_eq!(c.at([0.5, 0.5]), None);
        assert_eq!(Cells::new(0).side, 1);
    }
}
