//! CPU raster primitives: an anti-aliased line rasterizer that accumulates coverage (so dense
//! regions of a road network read as density), and opaque splats (squares, discs, rings) with a
//! per-pixel priority so that frontier vertices stay on top whatever the drawing order.
//!
//! Pixel (i, j) covers [i, i+1) × [j, j+1); coordinates are in pixels of the raster.

use egui::Color32;

/// Coverage of one pixel fully crossed by one line.
pub const FULL: u32 = 256;

/// Clips segment `p`–`q` to the box [x0, x1] × [y0, y1] (Liang–Barsky). `None` if nothing is
/// left or an end is not finite.
pub fn clip_segment(p: [f32; 2], q: [f32; 2], x0: f32, y0: f32, x1: f32, y1: f32) -> Option<([f32; 2], [f32; 2])> {
    if !(p[0].is_finite() && p[1].is_finite() && q[0].is_finite() && q[1].is_finite()) {
        return None;
    }
    let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
    let mut t0 = 0.0f32;
    let mut t1 = 1.0f32;
    for (pk, qk) in [(-dx, p[0] - x0), (dx, x1 - p[0]), (-dy, p[1] - y0), (dy, y1 - p[1])] {
        if pk == 0.0 {
            if qk < 0.0 {
                return None;
            }
        } else {
            let r = qk / pk;
            if pk < 0.0 {
                if r > t1 {
                    return None;
                }
                t0 = t0.max(r);
            } else {
                if r < t0 {
                    return None;
                }
                t1 = t1.min(r);
            }
        }
    }
    let a = [(p[0] + t0 * dx).clamp(x0, x1), (p[1] + t0 * dy).clamp(y0, y1)];
    let b = [(p[0] + t1 * dx).clamp(x0, x1), (p[1] + t1 * dy).clamp(y0, y1)];
    Some((a, b))
}

/// A rectangle of pixels [x0, x1) × [y0, y1); empty when x0 ≥ x1 or y0 ≥ y1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixBox {
    pub x0: usize,
    pub y0: usize,
    pub x1: usize,
    pub y1: usize,
}

impl PixBox {
    pub const EMPTY: PixBox = PixBox { x0: usize::MAX, y0: usize::MAX, x1: 0, y1: 0 };

    pub fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }

    pub fn width(&self) -> usize {
        self.x1.saturating_sub(self.x0)
    }

    pub fn height(&self) -> usize {
        self.y1.saturating_sub(self.y0)
    }

    /// Grows to include [x0, x1) × [y0, y1).
    #[inline]
    pub fn include(&mut self, x0: usize, y0: usize, x1: usize, y1: usize) {
        self.x0 = self.x0.min(x0);
        self.y0 = self.y0.min(y0);
        self.x1 = self.x1.max(x1);
        self.y1 = self.y1.max(y1);
    }

    /// Copies this box of the `w`-wide buffer `src` into a new image (mapping each pixel with
    /// `f`) and resets it in `src` to `zero`, so the buffer is blank again for the next raster.
    pub fn take<T: Copy>(&self, src: &mut [T], w: usize, zero: T, f: impl Fn(T) -> Color32) -> egui::ColorImage {
        if self.is_empty() {
            return egui::ColorImage::default();
        }
        let mut pixels = Vec::with_capacity(self.width() * self.height());
        for y in self.y0..self.y1 {
            let row = &mut src[y * w + self.x0..y * w + self.x1];
            pixels.extend(row.iter().map(|&a| f(a)));
            row.fill(zero);
        }
        egui::ColorImage::new([self.width(), self.height()], pixels)
    }
}

/// A coverage accumulator of `w × h` pixels; `bbox` grows to cover every pixel touched.
pub struct Coverage<'a> {
    pub acc: &'a mut [u16],
    pub w: usize,
    pub h: usize,
    pub bbox: PixBox,
}

impl Coverage<'_> {
    pub fn new(acc: &mut [u16], w: usize, h: usize) -> Coverage<'_> {
        Coverage { acc, w, h, bbox: PixBox::EMPTY }
    }

    #[inline]
    fn add(&mut self, x: usize, y: usize, c: u32) {
        // Bounds are guaranteed by the callers; `get_mut` keeps it safe if they are wrong.
        if let Some(a) = self.acc.get_mut(y * self.w + x) {
            *a = a.saturating_add(c.min(u16::MAX as u32) as u16);
        }
    }

    /// Adds the coverage of segment `p`–`q` (pixel coordinates, any values: the segment is
    /// clipped to the raster). Returns whether any pixel was touched.
    ///
    /// Lines longer than a pixel are drawn with Wu's method (two pixels per step along the major
    /// axis, weighted by distance); shorter ones add coverage proportional to their length to the
    /// pixel they are in, so a zoomed-out road network shows its density.
    pub fn line(&mut self, p: [f32; 2], q: [f32; 2]) -> bool {
        if self.w == 0 || self.h == 0 {
            return false;
        }
        // Pixel centres at integer coordinates.
        let p = [p[0] - 0.5, p[1] - 0.5];
        let q = [q[0] - 0.5, q[1] - 0.5];
        let (xm, ym) = ((self.w - 1) as f32, (self.h - 1) as f32);
        let inside = |p: [f32; 2]| p[0] >= -0.49 && p[1] >= -0.49 && p[0] <= xm + 0.49 && p[1] <= ym + 0.49;
        let (a, b) = if inside(p) && inside(q) {
            (p, q)
        } else {
            // Quick reject (the common case when zoomed in), then clip.
            if (p[0] < -0.5 && q[0] < -0.5)
                || (p[1] < -0.5 && q[1] < -0.5)
                || (p[0] > xm + 0.5 && q[0] > xm + 0.5)
                || (p[1] > ym + 0.5 && q[1] > ym + 0.5)
            {
                return false;
            }
            match clip_segment(p, q, -0.49, -0.49, xm + 0.49, ym + 0.49) {
                Some(ab) => ab,
                None => return false,
            }
        };
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len_major = dx.abs().max(dy.abs());
        if len_major < 1.0 {
            let len = (dx * dx + dy * dy).sqrt();
            let mx = ((a[0] + b[0]) * 0.5).round().clamp(0.0, xm) as usize;
            let my = ((a[1] + b[1]) * 0.5).round().clamp(0.0, ym) as usize;
            let c = ((len * FULL as f32) as u32).max(FULL / 8);
            self.add(mx, my, c);
            self.bbox.include(mx, my, mx + 1, my + 1);
            return true;
        }
        if dx.abs() >= dy.abs() {
            let (a, b) = if a[0] <= b[0] { (a, b) } else { (b, a) };
            let g = (b[1] - a[1]) / (b[0] - a[0]);
            let xs = a[0].round().max(0.0) as usize;
            let xe = (b[0].round() as usize).min(self.w - 1);
            let (ya, yb) =
                (a[1].min(b[1]).floor().max(0.0) as usize, (a[1].max(b[1]).floor() as usize + 2).min(self.h));
            self.bbox.include(xs, ya, xe + 1, yb);
            let mut y = a[1] + g * (xs as f32 - a[0]);
            for x in xs..=xe {
                let yf = y.floor();
                let f = y - yf;
                let yi = yf as isize;
                let lo = ((1.0 - f) * FULL as f32) as u32;
                if yi >= 0 && (yi as usize) < self.h {
                    self.add(x, yi as usize, lo);
                }
                if yi + 1 >= 0 && ((yi + 1) as usize) < self.h {
                    self.add(x, (yi + 1) as usize, FULL - lo);
                }
                y += g;
            }
        } else {
            let (a, b) = if a[1] <= b[1] { (a, b) } else { (b, a) };
            let g = (b[0] - a[0]) / (b[1] - a[1]);
            let ys = a[1].round().max(0.0) as usize;
            let ye = (b[1].round() as usize).min(self.h - 1);
            let (xa, xb) =
                (a[0].min(b[0]).floor().max(0.0) as usize, (a[0].max(b[0]).floor() as usize + 2).min(self.w));
            self.bbox.include(xa, ys, xb, ye + 1);
            let mut x = a[0] + g * (ys as f32 - a[1]);
            for y in ys..=ye {
                let xf = x.floor();
                let f = x - xf;
                let xi = xf as isize;
                let lo = ((1.0 - f) * FULL as f32) as u32;
                if xi >= 0 && (xi as usize) < self.w {
                    self.add(xi as usize, y, lo);
                }
                if xi + 1 >= 0 && ((xi + 1) as usize) < self.w {
                    self.add((xi + 1) as usize, y, FULL - lo);
                }
                x += g;
            }
        }
        true
    }
}

/// 1024-entry table from coverage (acc / 16) to a premultiplied colour: opacity saturates
/// smoothly, `1 − e^(−k·coverage)`, so that one line is clearly visible and a dense block is solid.
pub fn coverage_lut([r, g, b]: [u8; 3], max_alpha: u8) -> Vec<Color32> {
    let max_alpha = max_alpha as f32 / 255.0;
    (0..1024u32)
        .map(|i| {
            let cov = (i * 16) as f32 / FULL as f32;
            let alpha = max_alpha * (1.0 - (-1.6 * cov).exp());
            Color32::from_rgba_unmultiplied(r, g, b, (alpha * 255.0).round() as u8)
        })
        .collect()
}

/// The colour of coverage `a` in `lut` (from [`coverage_lut`]).
#[inline]
pub fn shade(lut: &[Color32], a: u16) -> Color32 {
    lut[((a as usize) >> 4).min(lut.len() - 1)]
}

/// An opaque colour layer with a priority per pixel: a write lands only where the pixel's
/// priority is ≤ the writer's, so z-order does not depend on drawing order. `bbox` grows to cover
/// every pixel written.
pub struct Splat<'a> {
    pub px: &'a mut [Color32],
    pub prio: &'a mut [u8],
    pub w: usize,
    pub h: usize,
    pub bbox: PixBox,
}

impl<'a> Splat<'a> {
    pub fn new(px: &'a mut [Color32], prio: &'a mut [u8], w: usize, h: usize) -> Splat<'a> {
        Splat { px, prio, w, h, bbox: PixBox::EMPTY }
    }

    #[inline]
    pub fn put(&mut self, x: i32, y: i32, c: Color32, p: u8) {
        if x < 0 || y < 0 || x as usize >= self.w || y as usize >= self.h {
            return;
        }
        let (xu, yu) = (x as usize, y as usize);
        self.bbox.include(xu, yu, xu + 1, yu + 1);
        let i = y as usize * self.w + x as usize;
        if self.prio[i] <= p {
            self.prio[i] = p;
            self.px[i] = c;
        }
    }

    /// Fills pixels [x0, x1) × [y0, y1) (clamped).
    pub fn rect(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, c: Color32, p: u8) {
        let (x0, x1) = (x0.max(0) as usize, (x1.max(0) as usize).min(self.w));
        let (y0, y1) = (y0.max(0) as usize, (y1.max(0) as usize).min(self.h));
        if x0 >= x1 || y0 >= y1 {
            return;
        }
        self.bbox.include(x0, y0, x1, y1);
        for y in y0..y1 {
            let row = y * self.w;
            for i in row + x0..row + x1 {
                if self.prio[i] <= p {
                    self.prio[i] = p;
                    self.px[i] = c;
                }
            }
        }
    }

    /// A dot of about `r` pixels radius centred at (cx, cy): one pixel below r = 0.75, a 2×2
    /// square below 1.25, a disc above.
    pub fn dot(&mut self, cx: f32, cy: f32, r: f32, c: Color32, p: u8) {
        if r < 0.75 {
            self.put(cx.floor() as i32, cy.floor() as i32, c, p);
        } else if r < 1.25 {
            let (x, y) = ((cx - 0.5).round() as i32, (cy - 0.5).round() as i32);
            self.rect(x, y, x + 2, y + 2, c, p);
        } else {
            self.ring(cx, cy, 0.0, r, c, p);
        }
    }

    /// Pixels whose centre lies at distance [r_in, r_out] from (cx, cy).
    pub fn ring(&mut self, cx: f32, cy: f32, r_in: f32, r_out: f32, c: Color32, p: u8) {
        if !(cx.is_finite() && cy.is_finite()) || r_out <= 0.0 {
            return;
        }
        let (ri2, ro2) = (r_in * r_in, r_out * r_out);
        let y0 = (cy - r_out).floor().max(0.0) as i64;
        let y1 = ((cy + r_out).ceil() as i64).min(self.h as i64 - 1);
        let x0 = (cx - r_out).floor().max(0.0) as i64;
        let x1 = ((cx + r_out).ceil() as i64).min(self.w as i64 - 1);
        if x0 > x1 || y0 > y1 {
            return;
        }
        self.bbox.include(x0 as usize, y0 as usize, x1 as usize + 1, y1 as usize + 1);
        for y in y0..=y1 {
            let dy = y as f32 + 0.5 - cy;
            let row = y as usize * self.w;
            for x in x0..=x1 {
                let dx = x as f32 + 0.5 - cx;
                let d2 = dx * dx + dy * dy;
                if d2 <= ro2 && d2 >= ri2 {
                    let i = row + x as usize;
                    if self.prio[i] <= p {
                        self.prio[i] = p;
                        self.px[i] = c;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cov(w: usize, h: usize) -> Vec<u16> {
        vec![0; w * h]
    }

    #[test]
    fn clip_inside_outside_and_across() {
        let b = (0.0, 0.0, 10.0, 10.0);
        assert_eq!(clip_segment([1.0, 1.0], [2.0, 3.0], b.0, b.1, b.2, b.3), Some(([1.0, 1.0], [2.0, 3.0])));
        assert_eq!(clip_segment([-5.0, -5.0], [-1.0, 20.0], b.0, b.1, b.2, b.3), None);
        let (a, c) = clip_segment([-10.0, 5.0], [20.0, 5.0], b.0, b.1, b.2, b.3).unwrap();
        assert_eq!((a, c), ([0.0, 5.0], [10.0, 5.0]));
        assert_eq!(clip_segment([f32::NAN, 1.0], [2.0, 3.0], b.0, b.1, b.2, b.3), None);
    }

    #[test]
    fn horizontal_line_covers_its_row() {
        let (w, h) = (20, 10);
        let mut acc = cov(w, h);
        let mut c = Coverage::new(&mut acc, w, h);
        assert!(c.line([2.5, 4.5], [12.5, 4.5]));
        for x in 0..w {
            let expect = (2..=12).contains(&x);
            assert_eq!(acc[4 * w + x] >= FULL as u16, expect, "x = {x}");
        }
        // Nothing on other rows (a centred line puts all its weight on one row).
        let off: u32 = (0..h)
            .filter(|&y| y != 4)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| acc[y * w + x] as u32)
            .sum();
        assert_eq!(off, 0);
    }

    #[test]
    fn lines_never_leave_the_raster() {
        // A 1×1 raster, thin rasters, huge and inverted coordinates, NaN: no panic, no write
        // beyond the buffer (the buffer is exactly w·h and `add` would panic in debug if the index
        // computations were wrong for in-range x, y).
        let cases: &[([f32; 2], [f32; 2])] = &[
            ([-1e9, -1e9], [1e9, 1e9]),
            ([1e9, -1e9], [-1e9, 1e9]),
            ([-3.0, 0.5], [100.0, 0.5]),
            ([0.5, -3.0], [0.5, 100.0]),
            ([0.0, 0.0], [0.0, 0.0]),
            ([f32::NAN, 0.0], [3.0, 3.0]),
            ([f32::INFINITY, 0.0], [3.0, 3.0]),
            ([7.9, 7.9], [8.1, 8.1]),
            ([-0.4, -0.4], [-0.1, -0.2]),
        ];
        for &(w, h) in &[(1usize, 1usize), (1, 7), (7, 1), (8, 8), (33, 17)] {
            for &(p, q) in cases {
                let mut acc = cov(w, h);
                let mut c = Coverage::new(&mut acc, w, h);
                c.line(p, q);
                c.line(q, p);
                assert_eq!(acc.len(), w * h);
            }
        }
        // Entirely outside: untouched.
        let mut acc = cov(8, 8);
        let mut c = Coverage::new(&mut acc, 8, 8);
        assert!(!c.line([-5.0, -5.0], [-1.0, -2.0]));
        assert!(!c.line([9.0, 0.0], [20.0, 8.0]));
        assert!(acc.iter().all(|&a| a == 0));
    }

    #[test]
    fn diagonal_line_has_unit_weight_per_column() {
        let (w, h) = (16, 16);
        let mut acc = cov(w, h);
        Coverage::new(&mut acc, w, h).line([1.5, 1.5], [11.5, 6.5]);
        for x in 1..=11 {
            let col: u32 = (0..h).map(|y| acc[y * w + x] as u32).sum();
            assert!((FULL - 2..=FULL + 2).contains(&col), "column {x}: {col}");
        }
    }

    #[test]
    fn short_segments_add_coverage_by_length() {
        let mut acc = cov(4, 4);
        let mut c = Coverage::new(&mut acc, 4, 4);
        c.line([1.2, 1.2], [1.7, 1.2]);
        assert_eq!(acc[4 + 1], (0.5 * FULL as f32) as u16);
    }

    #[test]
    fn splat_priority_and_bounds() {
        let (w, h) = (10, 10);
        let mut px = vec![Color32::TRANSPARENT; w * h];
        let mut prio = vec![0u8; w * h];
        let mut s = Splat::new(&mut px, &mut prio, w, h);
        s.dot(5.0, 5.0, 3.0, Color32::RED, 4);
        s.dot(5.0, 5.0, 3.0, Color32::BLUE, 2); // lower priority: hidden
        s.dot(-100.0, 5.0, 50.0, Color32::GREEN, 1);
        s.ring(0.0, 0.0, 2.0, 1e6, Color32::WHITE, 1);
        s.rect(-5, -5, 50, 50, Color32::BLACK, 0);
        s.put(10, 0, Color32::WHITE, 9);
        assert_eq!(px[5 * w + 5], Color32::RED);
        assert!(!px.contains(&Color32::BLUE));
        // 3 px disc: about π·9 ≈ 28 pixels.
        let red = px.iter().filter(|&&c| c == Color32::RED).count();
        assert!((24..=32).contains(&red), "{red}");
    }

    #[test]
    fn lut_is_monotone() {
        let lut = coverage_lut([110, 110, 110], 230);
        assert_eq!(lut[0].a(), 0);
        assert!(lut.windows(2).all(|p| p[0].a() <= p[1].a()));
        assert!(lut[(FULL as usize) >> 4].a() > 100);
    }
}
