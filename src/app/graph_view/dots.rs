//! Dot sizes of the GPU view and the ids hash its colour key uses.

use super::GraphView;
use super::scene::Scene;
use crate::graph::VertexId;

/// Dot sizes in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DotStyle {
    /// Radius of settled / reached / unreached dots.
    pub r: f32,
    /// Radius of frontier dots (larger, so the frontier is visible at any zoom).
    pub frontier_r: f32,
    /// Unreached vertices are left to the arcs when zoomed out.
    pub draw_unreached: bool,
}

/// A hash of a vertex list (FNV-1a over the ids): the wrong set's part of the colour key.
pub fn hash_ids(ids: &[VertexId]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ ids.len() as u64;
    for &v in ids {
        h = (h ^ v as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl GraphView {
    /// Dot sizes for the current zoom, in pixels: about a third of the typical spacing between
    /// neighbours, clamped so dots stay visible zoomed out and small zoomed in.
    pub(super) fn dot_style(&self, scene: &Scene, ppp: f32) -> DotStyle {
        let sp = (scene.spacing as f64 * self.camera.scale) as f32 * ppp;
        let r = (0.3 * sp).clamp(1.0, 7.0 * ppp);
        DotStyle {
            r,
            frontier_r: (r * 1.6).clamp(2.5 * ppp, 10.0 * ppp),
            draw_unreached: sp >= 4.0 * ppp || scene.arcs_to_draw == 0,
        }
    }
}
