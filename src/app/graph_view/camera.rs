//! World ↔ screen transforms. World coordinates have y pointing up (as in `.co` files and the
//! generators); the screen has y pointing down.

use egui::{Pos2, Rect, Vec2, pos2};

/// Axis-aligned world box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bbox {
    pub min: [f32; 2],
    pub max: [f32; 2],
}

impl Bbox {
    /// The bounding box of `points`; a unit box around the origin when empty or non-finite.
    pub fn of(points: &[[f32; 2]]) -> Bbox {
        let mut min = [f32::INFINITY; 2];
        let mut max = [f32::NEG_INFINITY; 2];
        for p in points {
            for k in 0..2 {
                if p[k].is_finite() {
                    min[k] = min[k].min(p[k]);
                    max[k] = max[k].max(p[k]);
                }
            }
        }
        if !(min[0] <= max[0] && min[1] <= max[1]) {
            return Bbox { min: [-0.5, -0.5], max: [0.5, 0.5] };
        }
        Bbox { min, max }
    }

    pub fn width(&self) -> f32 {
        self.max[0] - self.min[0]
    }

    pub fn height(&self) -> f32 {
        self.max[1] - self.min[1]
    }

    pub fn center(&self) -> [f64; 2] {
        [(self.min[0] as f64 + self.max[0] as f64) / 2.0, (self.min[1] as f64 + self.max[1] as f64) / 2.0]
    }

    /// Typical distance between neighbouring vertices if `n` were spread evenly over the box
    /// (at least a small positive number).
    pub fn spacing(&self, n: usize) -> f32 {
        let (w, h) = (self.width().max(0.0), self.height().max(0.0));
        let area = if w > 0.0 && h > 0.0 { w * h } else { w.max(h).powi(2) };
        let s = (area / n.max(1) as f32).sqrt();
        if s.is_finite() && s > 0.0 { s } else { 1.0 }
    }
}

/// An affine world → target map with the y axis flipped:
/// `x' = (x − cx)·s + ox`, `y' = oy − (y − cy)·s`. The target is screen points or raster pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Xform {
    pub cx: f64,
    pub cy: f64,
    pub s: f64,
    pub ox: f64,
    pub oy: f64,
}

impl Xform {
    #[inline]
    pub fn apply(&self, p: [f32; 2]) -> [f32; 2] {
        [((p[0] as f64 - self.cx) * self.s + self.ox) as f32, (self.oy - (p[1] as f64 - self.cy) * self.s) as f32]
    }

    #[inline]
    pub fn apply64(&self, p: [f64; 2]) -> [f64; 2] {
        [(p[0] - self.cx) * self.s + self.ox, self.oy - (p[1] - self.cy) * self.s]
    }

    #[inline]
    pub fn inverse(&self, q: [f64; 2]) -> [f64; 2] {
        [(q[0] - self.ox) / self.s + self.cx, self.cy - (q[1] - self.oy) / self.s]
    }
}

/// The camera: which world point is at the centre of the view and how many screen points one
/// world unit spans.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub center: [f64; 2],
    pub scale: f64,
}

impl Default for Camera {
    fn default() -> Self {
        Camera { center: [0.0, 0.0], scale: 1.0 }
    }
}

impl Camera {
    /// The camera that shows all of `bbox` inside a view of `size` points, with a small margin.
    pub fn fit(bbox: &Bbox, size: Vec2) -> Camera {
        let (w, h) = (bbox.width() as f64, bbox.height() as f64);
        let (sw, sh) = ((size.x as f64 * 0.94).max(1.0), (size.y as f64 * 0.94).max(1.0));
        let scale = match (w > 0.0, h > 0.0) {
            (true, true) => (sw / w).min(sh / h),
            (true, false) => sw / w,
            (false, true) => sh / h,
            (false, false) => sw.min(sh) / 2.0,
        };
        Camera { center: bbox.center(), scale: if scale.is_finite() && scale > 0.0 { scale } else { 1.0 } }
    }

    /// World → screen points for a view occupying `rect`.
    pub fn to_screen(self, rect: Rect) -> Xform {
        let c = rect.center();
        Xform { cx: self.center[0], cy: self.center[1], s: self.scale, ox: c.x as f64, oy: c.y as f64 }
    }

    /// World → raster pixels for a raster of `size_px` pixels covering the view at
    /// `pixels_per_point`.
    pub fn to_pixels(self, size_px: [usize; 2], pixels_per_point: f32) -> Xform {
        Xform {
            cx: self.center[0],
            cy: self.center[1],
            s: self.scale * pixels_per_point as f64,
            ox: size_px[0] as f64 / 2.0,
            oy: size_px[1] as f64 / 2.0,
        }
    }

    pub fn world_to_screen(&self, rect: Rect, w: [f64; 2]) -> Pos2 {
        let q = self.to_screen(rect).apply64(w);
        pos2(q[0] as f32, q[1] as f32)
    }

    pub fn screen_to_world(&self, rect: Rect, p: Pos2) -> [f64; 2] {
        self.to_screen(rect).inverse([p.x as f64, p.y as f64])
    }

    /// Moves the content by `delta` screen points (as a drag does).
    pub fn pan(&mut self, delta: Vec2) {
        self.center[0] -= delta.x as f64 / self.scale;
        self.center[1] += delta.y as f64 / self.scale;
    }

    /// Multiplies the scale by `factor` (clamped to `min..=max`), keeping the world point under
    /// screen point `p` where it is.
    pub fn zoom_about(&mut self, rect: Rect, p: Pos2, factor: f64, min: f64, max: f64) {
        let w = self.screen_to_world(rect, p);
        let new_scale = (self.scale * factor).clamp(min.min(max), max.max(min));
        if !new_scale.is_finite() || new_scale <= 0.0 {
            return;
        }
        self.scale = new_scale;
        let c = rect.center();
        self.center[0] = w[0] - (p.x - c.x) as f64 / self.scale;
        self.center[1] = w[1] + (p.y - c.y) as f64 / self.scale;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::vec2;

    fn rect() -> Rect {
        Rect::from_min_size(pos2(13.0, 47.0), vec2(800.0, 600.0))
    }

    #[test]
    fn screen_world_round_trip() {
        let cam = Camera { center: [-73_900_000.0, 40_700_000.0], scale: 0.0013 };
        for p in [pos2(13.0, 47.0), pos2(400.5, 300.25), pos2(812.0, 646.0)] {
            let w = cam.screen_to_world(rect(), p);
            let q = cam.world_to_screen(rect(), w);
            assert!((q - p).length() < 1e-3, "{p:?} -> {w:?} -> {q:?}");
        }
        let x = cam.to_pixels([1600, 1200], 2.0);
        let w = [-73_912_345.0, 40_712_345.0];
        let back = x.inverse(x.apply64(w));
        assert!((back[0] - w[0]).abs() < 1e-6 && (back[1] - w[1]).abs() < 1e-6);
    }

    #[test]
    fn y_points_up() {
        let cam = Camera { center: [0.0, 0.0], scale: 10.0 };
        let up = cam.world_to_screen(rect(), [0.0, 1.0]);
        let origin = cam.world_to_screen(rect(), [0.0, 0.0]);
        assert!(up.y < origin.y);
        assert_eq!(origin, rect().center());
    }

    #[test]
    fn zoom_keeps_point_under_cursor() {
        let mut cam = Camera { center: [5.0, -3.0], scale: 2.0 };
        let p = pos2(100.0, 500.0);
        let before = cam.screen_to_world(rect(), p);
        cam.zoom_about(rect(), p, 3.7, 0.1, 100.0);
        assert!((cam.scale - 7.4).abs() < 1e-9);
        let after = cam.screen_to_world(rect(), p);
        assert!((before[0] - after[0]).abs() < 1e-9 && (before[1] - after[1]).abs() < 1e-9);
        cam.zoom_about(rect(), p, 1e9, 0.1, 100.0);
        assert_eq!(cam.scale, 100.0);
    }

    #[test]
    fn pan_moves_content_with_the_pointer() {
        let mut cam = Camera { center: [0.0, 0.0], scale: 4.0 };
        let w = [1.0, 1.0];
        let before = cam.world_to_screen(rect(), w);
        cam.pan(vec2(10.0, -6.0));
        let after = cam.world_to_screen(rect(), w);
        assert!(((after - before) - vec2(10.0, -6.0)).length() < 1e-4);
    }

    #[test]
    fn fit_shows_the_whole_box() {
        let b = Bbox { min: [-10.0, 2.0], max: [30.0, 4.0] };
        let cam = Camera::fit(&b, rect().size());
        for c in [[b.min[0], b.min[1]], [b.max[0], b.max[1]]] {
            let p = cam.world_to_screen(rect(), [c[0] as f64, c[1] as f64]);
            assert!(rect().contains(p), "{p:?}");
        }
        // Degenerate boxes still give a usable camera.
        let one = Bbox::of(&[[3.0, 3.0]]);
        assert!(Camera::fit(&one, rect().size()).scale > 0.0);
        assert!(Bbox::of(&[]).width() > 0.0);
    }
}
