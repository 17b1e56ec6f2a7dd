// The graph view on the GPU, launched from src/app/graph_view/gpu/mod.rs as an egui paint
// callback inside egui's own render pass (the viewport is the view's rectangle, so NDC (0, 0) is
// the view's centre). Not a solver kernel: there is no CUDA twin.
//
// - arcs: LineList over the vertex positions, indexed by the arc pairs, one pixel wide with
//   alpha blending, so dense regions read as density (as the CPU arc raster did);
// - vertices: instanced quads, 6 corners per vertex, discs (coordinates) or squares (raster
//   cells), coloured by the per-vertex word the CPU packs once per state change.
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
