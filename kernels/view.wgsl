// The graph view on the GPU, launched from src/app/graph_view/gpu/mod.rs as an egui paint
// callback inside egui's own render pass (the viewport is the view's rectangle, so NDC (0, 0) is
// the view's centre). Not a solver kernel: there is no CUDA twin.
//
// - arcs: LineList over the vertex positions, indexed by the arc pairs, one pixel wide with
//   alpha blending, so dense regions read as density (as the CPU arc raster did);
// - vertices: instanced quads, 6 corners per vertex, discs (coordinates) or squares (raster
//   cells), coloured by the per-vertex word the CPU packs once per state change.
//
// - tiles: when the camera sees more arcs or vertices than the adapter draws in a frame, one
//   full-view triangle samples the aggregates instead: the arc density texture (lines counted
//   per texel once per graph, with a mip chain; `dens_quad_fs`) and the status grid (the most
//   important vertex per texel, max-reduced per level once per state change; `status_quad_fs`,
//   built by kernels/view_status.wgsl). Both pick the level whose texel is about one pixel, so
//   a zoomed-out view costs the screen's pixels, not the graph's size.
//
// Per frame only the `View` uniform changes: pan and zoom never touch the vertex data.

struct View {
    // World point at the view's centre.
    center: vec2<f32>,
    // World unit -> NDC, per axis (y up in both).
    scale: vec2<f32>,
    // One pixel in NDC, per axis.
    px: vec2<f32>,
    // Dot radius (discs) or half side (cells), pixels.
    dot_px: f32,
    // Frontier dots are this many times larger.
    frontier_k: f32,
    // Arc colour, premultiplied, in the target's encoding.
    arc_color: vec4<f32>,
    // bit 0: draw unreached vertices; bit 1: square cells; bit 2: the target is sRGB (decode).
    flags: u32,
    pad0: u32,
    pad1: u32,
    pad2: u32,
};

@group(0) @binding(0) var<uniform> view: View;

// `struct Agg` (the aggregates' grid) comes from kernels/view_agg.wgsl, prepended at build time.
@group(0) @binding(1) var<uniform> agg: Agg;
@group(0) @binding(2) var dens: texture_2d<f32>;
@group(0) @binding(3) var dens_sampler: sampler;
@group(0) @binding(4) var<storage, read> status: array<u32>;

const DRAW_UNREACHED: u32 = 1u;
const CELLS: u32 = 2u;
const SRGB_TARGET: u32 = 4u;

// Status codes in the top byte of a vertex word (see gpu/pack.rs).
const UNREACHED: u32 = 0u;
const FRONTIER: u32 = 3u;
const WRONG: u32 = 4u;

fn to_ndc(p: vec2<f32>) -> vec2<f32> {
    return (p - view.center) * view.scale;
}

// egui's colours are sRGB-encoded bytes; an sRGB target expects linear values.
fn encode(c: vec3<f32>) -> vec3<f32> {
    if (view.flags & SRGB_TARGET) == 0u {
        return c;
    }
    let lo = c / 12.92;
    let hi = pow((c + 0.055) / 1.055, vec3<f32>(2.4));
    return select(hi, lo, c <= vec3<f32>(0.04045));
}

@vertex
fn arc_vs(@location(0) p: vec2<f32>) -> @builtin(position) vec4<f32> {
    return vec4<f32>(to_ndc(p), 0.0, 1.0);
}

@fragment
fn arc_fs() -> @location(0) vec4<f32> {
    let a = view.arc_color.a;
    return vec4<f32>(encode(view.arc_color.rgb) * a, a);
}

struct DotOut {
    @builtin(position) pos: vec4<f32>,
    // Offset from the dot's centre, pixels.
    @location(0) local: vec2<f32>,
    @location(1) @interpolate(flat) radius: f32,
    @location(2) @interpolate(flat) color: vec4<f32>,
};

@vertex
fn dot_vs(@builtin(vertex_index) k: u32, @location(0) p: vec2<f32>, @location(1) word: u32) -> DotOut {
    var corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(-1.0, 1.0),
        vec2<f32>(-1.0, 1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
    );
    var out: DotOut;
    let code = word >> 24u;
    if code == UNREACHED && (view.flags & DRAW_UNREACHED) == 0u {
        // Outside the clip volume: the quad is dropped before rasterization.
        out.pos = vec4<f32>(2.0, 2.0, 2.0, 1.0);
        out.local = vec2<f32>(0.0);
        out.radius = 0.0;
        out.color = vec4<f32>(0.0);
        return out;
    }
    let cells = (view.flags & CELLS) != 0u;
    var r = view.dot_px;
    if code == FRONTIER || code == WRONG {
        r = r * view.frontier_k;
    }
    // Discs get one pixel of margin for their anti-aliased edge; cells are hard squares.
    let half = select(r + 1.0, r, cells);
    let c = corners[k];
    out.pos = vec4<f32>(to_ndc(p) + c * half * view.px, 0.0, 1.0);
    out.local = c * half;
    out.radius = select(r, -1.0, cells);
    let rgb = vec3<f32>(f32(word & 255u), f32((word >> 8u) & 255u), f32((word >> 16u) & 255u)) / 255.0;
    out.color = vec4<f32>(encode(rgb), 1.0);
    return out;
}

@fragment
fn dot_fs(in: DotOut) -> @location(0) vec4<f32> {
    var a = 1.0;
    if in.radius >= 0.0 {
        a = clamp(in.radius + 0.5 - length(in.local), 0.0, 1.0);
    }
    if a <= 0.0 {
        discard;
    }
    return vec4<f32>(in.color.rgb * a, a);
}

// Arc density build: the same lines, counted (additive blending into an R16Float texel grid).
@fragment
fn dens_fs() -> @location(0) vec4<f32> {
    return vec4<f32>(1.0, 0.0, 0.0, 0.0);
}

struct QuadOut {
    @builtin(position) pos: vec4<f32>,
    @location(0) ndc: vec2<f32>,
};

// One triangle covering the view's viewport.
@vertex
fn quad_vs(@builtin(vertex_index) k: u32) -> QuadOut {
    let p = vec2<f32>(f32((k << 1u) & 2u), f32(k & 2u)) * 2.0 - 1.0;
    var out: QuadOut;
    out.pos = vec4<f32>(p, 0.0, 1.0);
    out.ndc = p;
    return out;
}

fn world_of(ndc: vec2<f32>) -> vec2<f32> {
    return view.center + ndc / view.scale;
}

// One screen pixel in world units.
fn pixel_world() -> f32 {
    return view.px.x / view.scale.x;
}

// Grid coordinates in level-0 texels (x right, y down) of a world point.
fn grid_of(w: vec2<f32>, dims: vec2<u32>) -> vec2<f32> {
    return vec2<f32>((w.x - agg.origin.x) / agg.extent.x, (agg.origin.y - w.y) / agg.extent.y) * vec2<f32>(dims);
}

@fragment
fn dens_quad_fs(in: QuadOut) -> @location(0) vec4<f32> {
    let w = world_of(in.ndc);
    let uv = grid_of(w, vec2<u32>(1u, 1u));
    if any(uv < vec2<f32>(0.0)) || any(uv > vec2<f32>(1.0)) {
        discard;
    }
    // A line crossing a pixel `ratio` level-0 texels wide covers about 1/ratio of its area, so
    // the count of lines through the pixel is the mean count times `ratio`. The mean is read at
    // the finest level whose texels are no larger than the pixel (nearest, unfiltered:
    // bilinear blending would spread each line over two pixels and draw it bolder than a line).
    let texel = agg.extent.x / f32(agg.dens_dims.x);
    let ratio = max(pixel_world() / texel, 1.0);
    let lod = clamp(floor(log2(ratio)), 0.0, f32(agg.dens_levels - 1u));
    let count = textureSampleLevel(dens, dens_sampler, uv, lod).r * ratio;
    // k one-pixel lines blended at alpha a leave 1 - (1 - a)^k: the direct drawing's look.
    let a = 1.0 - pow(1.0 - view.arc_color.a, count);
    if a < 0.004 {
        discard;
    }
    return vec4<f32>(encode(view.arc_color.rgb) * a, a);
}

@fragment
fn status_quad_fs(in: QuadOut) -> @location(0) vec4<f32> {
    let w = world_of(in.ndc);
    let g = grid_of(w, agg.stat_dims);
    let texel = agg.extent.x / f32(agg.stat_dims.x);
    let ratio = pixel_world() / texel;
    let level = u32(clamp(floor(log2(max(ratio, 1.0))), 0.0, f32(agg.stat_levels - 1u)));
    let size = f32(1u << level);
    let dims = (agg.stat_dims + vec2<u32>((1u << level) - 1u)) >> vec2<u32>(level);
    let c = vec2<i32>(floor(g / size));
    // The dot's radius in this level's texels (cells: the texel is the cell).
    var r = 0;
    if (view.flags & CELLS) == 0u {
        r = clamp(i32(ceil(view.dot_px * ratio / size - 0.5)), 0, 3);
    }
    let off = agg.stat_off[level / 4u][level % 4u];
    var best = 0u;
    for (var dy = -r; dy <= r; dy++) {
        for (var dx = -r; dx <= r; dx++) {
            let t = c + vec2<i32>(dx, dy);
            if dx * dx + dy * dy > r * r + r || any(t < vec2<i32>(0)) || any(t >= vec2<i32>(dims)) {
                continue;
            }
            best = max(best, status[off + u32(t.y) * dims.x + u32(t.x)]);
        }
    }
    // Priority = status code + 1 in the top byte (0: no vertex here).
    let prio = best >> 24u;
    if prio == 0u || (prio == UNREACHED + 1u && (view.flags & DRAW_UNREACHED) == 0u) {
        discard;
    }
    let rgb = vec3<f32>(f32(best & 255u), f32((best >> 8u) & 255u), f32((best >> 16u) & 255u)) / 255.0;
    return vec4<f32>(encode(rgb), 1.0);
}
