//! Where the aggregates' grids lie ([`super::agg`]): the world box mapped to the status grid's
//! and the density texture's texels, and the sizes of their mip levels, as one uniform the
//! builders and the view share (`struct Agg` of `kernels/view_agg.wgsl`).

use super::super::camera::Bbox;
use super::agg::{DENS_SIDE, MAX_LEVELS, STAT_SIDE};

/// The grids' placement, as `kernels/view*.wgsl` read it (`struct Agg`, 112 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct AggUniform {
    /// World point at the grids' top-left corner (min x, max y).
    pub origin: [f32; 2],
    /// World width and height of the grids.
    pub extent: [f32; 2],
    pub dens_dims: [u32; 2],
    pub stat_dims: [u32; 2],
    pub dens_levels: u32,
    pub stat_levels: u32,
    /// Vertices splatted into the status grid.
    pub n: u32,
    pub pad: u32,
    /// Offset of each status level in the status buffer, in `u32`s.
    pub stat_off: [u32; MAX_LEVELS],
}

/// Size of level `l` of a grid of `dims` (rounded up).
pub fn level_dims(dims: [u32; 2], l: u32) -> [u32; 2] {
    [(dims[0] + (1 << l) - 1) >> l, (dims[1] + (1 << l) - 1) >> l]
}

/// Levels of a grid down to 1 × 1.
pub fn levels(dims: [u32; 2]) -> u32 {
    32 - dims[0].max(dims[1]).max(1).leading_zeros()
}

impl AggUniform {
    /// The grids for `n` vertices in `bbox`, `spacing` apart (world units). Cells (the
    /// raster-by-id view, one world unit each) get one status texel per cell up to
    /// [`STAT_SIDE`]; vertices with coordinates get two texels per spacing (a dot is drawn with
    /// the radius of its pixels around its texel). `max_side` is the device's largest 2D texture.
    pub fn new(bbox: Bbox, spacing: f32, cells: bool, n: usize, max_side: u32) -> AggUniform {
        let half = (spacing * 0.5).max(f32::MIN_POSITIVE);
        let (w, h) = (bbox.width() + 2.0 * half, bbox.height() + 2.0 * half);
        let long = w.max(h);
        let per_unit = if cells { 1.0 } else { 2.0 } / spacing.max(1e-30);
        let l = ((long * per_unit).ceil() as u32).clamp(1, STAT_SIDE.min(max_side));
        let stat_dims = [w, h].map(|x| ((x / long * l as f32).ceil() as u32).clamp(1, l));
        // The grids' box keeps the texels square: the short side is widened to whole texels.
        let texel = long / l as f32;
        let extent = [stat_dims[0] as f32 * texel, stat_dims[1] as f32 * texel];
        // The density texture covers the same box (one uv maps both), DENS_SIDE texels along its
        // longer side.
        let dl = DENS_SIDE.min(max_side);
        let fit = |a: f32, b: f32| ((a / b * dl as f32).ceil() as u32).clamp(1, dl);
        let dens_dims =
            if extent[0] >= extent[1] { [dl, fit(extent[1], extent[0])] } else { [fit(extent[0], extent[1]), dl] };
        let mut u = AggUniform {
            origin: [bbox.min[0] - half, bbox.min[1] - half + extent[1]],
            extent,
            dens_dims,
            stat_dims,
            dens_levels: levels(dens_dims),
            stat_levels: levels(stat_dims).min(MAX_LEVELS as u32),
            n: n as u32,
            ..Default::default()
        };
        let mut off = 0;
        for l in 0..u.stat_levels {
            u.stat_off[l as usize] = off;
            let d = level_dims(stat_dims, l);
            off += d[0] * d[1];
        }
        u
    }

    /// `u32`s in the status buffer (every level).
    pub fn stat_words(&self) -> u64 {
        (0..self.stat_levels)
            .map(|l| {
                let d = level_dims(self.stat_dims, l);
                u64::from(d[0]) * u64::from(d[1])
            })
            .sum()
    }
}
