// Shared by kernels/view.wgsl and kernels/view_status.wgsl (WGSL has no include: the Rust side
// prepends this file to both, see src/app/graph_view/gpu/).
//
// The aggregates' texel grid (see gpu/agg.rs): a box over the world, the density texture's and
// the status grid's sizes, and the status levels' offsets into one buffer.
struct Agg {
    // World point at the grid's top-left corner (min x, max y).
    origin: vec2<f32>,
    // World width and height of the grid.
    extent: vec2<f32>,
    dens_dims: vec2<u32>,
    stat_dims: vec2<u32>,
    dens_levels: u32,
    stat_levels: u32,
    n: u32,
    pad: u32,
    stat_off: array<vec4<u32>, 4>,
};

