// One level of the arc density texture's mip chain from the level above: the mean of 2 × 2
// texels (launched from src/app/graph_view/gpu/agg.rs; the view multiplies the mean back into a
// count per pixel, see dens_quad_fs in view.wgsl).

@group(0) @binding(0) var src: texture_2d<f32>;

@vertex
fn mip_vs(@builtin(vertex_index) k: u32) -> @builtin(position) vec4<f32> {
    let p = vec2<f32>(f32((k << 1u) & 2u), f32(k & 2u)) * 2.0 - 1.0;
    return vec4<f32>(p, 0.0, 1.0);
}

@fragment
fn mip_fs(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
    let last = vec2<i32>(textureDimensions(src)) - 1;
    let q = vec2<i32>(p.xy) * 2;
    var s = 0.0;
    for (var dy = 0; dy < 2; dy++) {
        for (var dx = 0; dx < 2; dx++) {
            s += textureLoad(src, min(q + vec2<i32>(dx, dy), last), 0).r;
        }
    }
    return vec4<f32>(s * 0.25, 0.0, 0.0, 0.0);
}
