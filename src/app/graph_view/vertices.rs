//! The vertex layer: vertex statuses splatted into an image the size of the view (one pass over
//! the vertices, or over the visible cells of the aggregated view). Redone only when the run's
//! state, the colour mode, the wrong set or the camera changes.

use super::camera::Xform;
use super::colors::{PRIO_FRONTIER, PRIO_WRONG, Shader, WRONG};
use super::pick::Cells;
use super::raster::Splat;
use crate::algo::VertexStatus;

/// Where the vertices are.
#[derive(Clone, Copy)]
pub enum Placement<'a> {
    /// World positions (coordinates or a layout).
    Points(&'a [[f32; 2]]),
    /// The aggregated view: vertex `order[i]` (or `i`) in cell `i`.
    Cells { cells: Cells, order: Option<&'a [u32]> },
}

/// Dot sizes in raster pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DotStyle {
    /// Radius of settled / reached / unreached dots.
    pub r: f32,
    /// Radius of frontier dots (larger, so the frontier is visible at any zoom).
    pub frontier_r: f32,
    /// Unreached vertices are left to the arc layer when zoomed out.
    pub draw_unreached: bool,
}

/// Splats every vertex of `placement` visible under `xform` into `splat`. Frontier vertices
/// (all of them for points, the visible ones for cells) are appended to `frontier`. Returns how
/// many vertices were drawn.
pub fn render(
    splat: &mut Splat<'_>,
    placement: Placement<'_>,
    xform: &Xform,
    shader: &Shader<'_>,
    style: &DotStyle,
    frontier: &mut Vec<u32>,
) -> usize {
    match placement {
        Placement::Points(pos) => render_points(splat, pos, xform, shader, style, frontier),
        Placement::Cells { cells, order } => render_cells(splat, cells, order, xform, shader, frontier),
    }
}

fn render_points(
    splat: &mut Splat<'_>,
    pos: &[[f32; 2]],
    xform: &Xform,
    shader: &Shader<'_>,
    style: &DotStyle,
    frontier: &mut Vec<u32>,
) -> usize {
    let (w, h) = (splat.w as f32, splat.h as f32);
    let margin = style.frontier_r + 1.0;
    let mut drawn = 0;
    let nothing_but_unreached = shader.trace.is_none();
    if nothing_but_unreached && !style.draw_unreached {
        return 0;
    }
    for (v, &p) in pos.iter().enumerate() {
        let v = v as u32;
        let s = shader.status(v);
        if s == VertexStatus::Frontier {
            frontier.push(v);
        } else if s == VertexStatus::Unreached && !style.draw_unreached {
            continue;
        }
        let q = xform.apply(p);
        if !(q[0] > -margin && q[1] > -margin && q[0] < w + margin && q[1] < h + margin) {
            continue;
        }
        let (c, prio) = shader.shade(v, s);
        let r = if s == VertexStatus::Frontier { style.frontier_r } else { style.r };
        splat.dot(q[0], q[1], r, c, prio);
        drawn += 1;
    }
    drawn
}

fn render_cells(
    splat: &mut Splat<'_>,
    cells: Cells,
    order: Option<&[u32]>,
    xform: &Xform,
    shader: &Shader<'_>,
    frontier: &mut Vec<u32>,
) -> usize {
    let cell_px = xform.s as f32;
    // Visible cell range.
    let a = xform.inverse([0.0, 0.0]);
    let b = xform.inverse([splat.w as f64, splat.h as f64]);
    let col0 = a[0].min(b[0]).floor().max(0.0) as usize;
    let col1 = (a[0].max(b[0]).ceil().max(0.0) as usize).min(cells.side);
    let row0 = (-a[1].max(b[1])).floor().max(0.0) as usize;
    let row1 = ((-a[1].min(b[1])).ceil().max(0.0) as usize).min(cells.rows());
    let gap = if cell_px >= 5.0 { 1 } else { 0 };
    let mut drawn = 0;
    if cell_px < 1.0 && col0 < col1 && row0 < row1 {
        // Zoomed out: several cells per pixel. Pixel columns of the visible cell columns once
        // (O(√n)), then one priority test per cell.
        let (w, h) = (splat.w, splat.h);
        let px_of = |col: usize| xform.apply([col as f32 + 0.5, 0.0])[0].floor() as i64;
        let col_px: Vec<u32> =
            (col0..col1).map(px_of).map(|x| if (0..w as i64).contains(&x) { x as u32 } else { u32::MAX }).collect();
        for row in row0..row1 {
            let y = xform.apply([0.0, -(row as f32) - 0.5])[1].floor() as i64;
            if !(0..h as i64).contains(&y) {
                continue;
            }
            let base = y as usize * w;
            let first = row * cells.side + col0;
            let last = (row * cells.side + col1).min(cells.n);
            if first >= last {
                break;
            }
            let (mut lo, mut hi) = (u32::MAX, 0u32);
            for (k, i) in (first..last).enumerate() {
                let x = col_px[k];
                if x == u32::MAX {
                    continue;
                }
                let v = order.map_or(i as u32, |o| o[i]);
                let s = shader.status(v);
                let (c, prio) = shader.shade(v, s);
                drawn += 1;
                if s == VertexStatus::Frontier {
                    // Keep tiny frontier cells visible: a 3×3 block.
                    frontier.push(v);
                    splat.rect(x as i32 - 1, y as i32 - 1, x as i32 + 2, y as i32 + 2, c, PRIO_FRONTIER);
                    continue;
                }
                let j = base + x as usize;
                if splat.prio[j] <= prio {
                    splat.prio[j] = prio;
                    splat.px[j] = c;
                }
                lo = lo.min(x);
                hi = hi.max(x);
            }
            if lo <= hi {
                splat.bbox.include(lo as usize, y as usize, hi as usize + 1, y as usize + 1);
            }
        }
        return drawn;
    }
    for row in row0..row1 {
        for col in col0..col1 {
            let i = row * cells.side + col;
            if i >= cells.n {
                break;
            }
            let v = order.map_or(i as u32, |o| o[i]);
            let s = shader.status(v);
            let (c, prio) = shader.shade(v, s);
            let q = xform.apply([col as f32, -(row as f32)]);
            let (x0, y0) = (q[0].floor() as i32, q[1].floor() as i32);
            if s == VertexStatus::Frontier {
                frontier.push(v);
                if cell_px < 3.0 {
                    // Keep tiny frontier cells visible: a 3×3 block centred on the cell.
                    let (cx, cy) = ((q[0] + cell_px * 0.5) as i32, (q[1] + cell_px * 0.5) as i32);
                    splat.rect(cx - 1, cy - 1, cx + 2, cy + 2, c, PRIO_FRONTIER);
                    drawn += 1;
                    continue;
                }
            }
            if cell_px < 1.0 {
                splat.put(x0, y0, c, prio);
            } else {
                let x1 = (q[0] + cell_px).floor() as i32 - gap;
                let y1 = (q[1] + cell_px).floor() as i32 - gap;
                splat.rect(x0, y0, x1.max(x0 + 1), y1.max(y0 + 1), c, prio);
            }
            drawn += 1;
        }
    }
    drawn
}

/// Red rings around the `wrong` vertices (positions from `world_of`), on top of everything.
pub fn mark_wrong(
    splat: &mut Splat<'_>,
    wrong: &[u32],
    world_of: impl Fn(u32) -> Option<[f32; 2]>,
    xform: &Xform,
    r_in: f32,
    r_out: f32,
) {
    for &v in wrong {
        if let Some(p) = world_of(v) {
            let q = xform.apply(p);
            splat.ring(q[0], q[1], r_in, r_out, WRONG, PRIO_WRONG);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::graph_view::ColorMode;
    use crate::app::graph_view::colors::{FRONTIER, distance_ramp};
    use crate::trace::Trace;
    use egui::Color32;

    fn layer(w: usize, h: usize) -> (Vec<Color32>, Vec<u8>) {
        (vec![Color32::TRANSPARENT; w * h], vec![0; w * h])
    }

    #[test]
    fn frontier_is_drawn_on_top_and_collected() {
        // Three vertices on one spot: the frontier (the source of a fresh trace) must win.
        let pos = [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]];
        let trace = Trace::new(3, 1);
        let ramp = distance_ramp();
        let shader = Shader::new(Some(&trace), ColorMode::Status, ramp);
        let (mut px, mut prio) = layer(20, 20);
        let mut splat = Splat::new(&mut px, &mut prio, 20, 20);
        let xform = Xform { cx: 0.0, cy: 0.0, s: 1.0, ox: 10.0, oy: 10.0 };
        let style = DotStyle { r: 1.0, frontier_r: 3.0, draw_unreached: true };
        let mut frontier = Vec::new();
        let drawn = render(&mut splat, Placement::Points(&pos), &xform, &shader, &style, &mut frontier);
        assert_eq!(drawn, 3);
        assert_eq!(frontier, vec![1]);
        mark_wrong(&mut splat, &[2], |v| pos.get(v as usize).copied(), &xform, 4.0, 6.0);
        assert_eq!(px[10 * 20 + 10], FRONTIER);
        assert_eq!(px[10 * 20 + 15], WRONG);
        // Zoomed out and no trace: unreached left to the arcs, nothing drawn.
        let none = Shader::new(None, ColorMode::Status, ramp);
        let style = DotStyle { draw_unreached: false, ..style };
        let (mut px, mut prio) = layer(20, 20);
        let mut splat = Splat::new(&mut px, &mut prio, 20, 20);
        assert_eq!(render(&mut splat, Placement::Points(&pos), &xform, &none, &style, &mut frontier), 0);
    }

    #[test]
    fn cells_fill_the_grid_in_order() {
        let cells = Cells::new(10); // 4 × 3
        let trace = Trace::new(10, 9);
        let ramp = distance_ramp();
        let shader = Shader::new(Some(&trace), ColorMode::Status, ramp);
        // 10 px per cell, whole grid in a 40 × 30 raster.
        let xform = Xform { cx: 0.0, cy: 0.0, s: 10.0, ox: 0.0, oy: 0.0 };
        let (mut px, mut prio) = layer(40, 30);
        let mut splat = Splat::new(&mut px, &mut prio, 40, 30);
        let style = DotStyle { r: 1.0, frontier_r: 3.0, draw_unreached: true };
        let mut frontier = Vec::new();
        // Reverse order: vertex 9 (the frontier) sits in cell 0, top-left.
        let order: Vec<u32> = (0..10).rev().collect();
        let drawn =
            render(&mut splat, Placement::Cells { cells, order: Some(&order) }, &xform, &shader, &style, &mut frontier);
        assert_eq!(drawn, 10);
        assert_eq!(frontier, vec![9]);
        assert_eq!(px[5 * 40 + 5], FRONTIER);
        assert_ne!(px[5 * 40 + 15], FRONTIER);
        // Cells 10 and 11 do not exist: bottom-right stays empty.
        assert_eq!(px[25 * 40 + 35], Color32::TRANSPARENT);
    }

    #[test]
    fn zoomed_out_cells_keep_the_frontier_visible() {
        // 10 000 cells (100 × 100) in a 25 × 25 raster: 16 cells per pixel. The one frontier
        // vertex (the source, in cell 5050) must show as a 3 × 3 block.
        let cells = Cells::new(10_000);
        let trace = Trace::new(10_000, 5050);
        let shader = Shader::new(Some(&trace), ColorMode::Status, distance_ramp());
        let xform = Xform { cx: 0.0, cy: 0.0, s: 0.25, ox: 0.0, oy: 0.0 };
        let (mut px, mut prio) = layer(25, 25);
        let mut splat = Splat::new(&mut px, &mut prio, 25, 25);
        let style = DotStyle { r: 1.0, frontier_r: 3.0, draw_unreached: true };
        let mut frontier = Vec::new();
        let drawn = render(&mut splat, Placement::Cells { cells, order: None }, &xform, &shader, &style, &mut frontier);
        assert_eq!(drawn, 10_000);
        assert_eq!(frontier, vec![5050]);
        assert_eq!((splat.bbox.x0, splat.bbox.y0, splat.bbox.x1, splat.bbox.y1), (0, 0, 25, 25));
        // Cell 5050 = row 50, column 50 → pixel (12, 12).
        let orange = px.iter().filter(|&&c| c == FRONTIER).count();
        assert_eq!(orange, 9);
        assert_eq!(px[12 * 25 + 12], FRONTIER);
        assert!(px.iter().all(|&c| c != Color32::TRANSPARENT));
    }
}
