// The graph view's status grid (launched from src/app/graph_view/gpu/agg.rs once per state
// change when the camera sees more vertices than the adapter draws as dots in a frame):
//
// - splat: one thread per vertex of a chunk of slots (from level.y; a build may take several
//   frames, into a back grid the host copies to the front one when it is complete; `pos` and
//   `words` are bound a window of slots at a time, from slot level.z, because a graph's
//   positions may exceed a storage binding), atomicMax of (status code + 1) << 24 | colour
//   into its level-0 texel, so a texel shows its most important vertex (wrong > frontier >
//   reached > settled > unreached; same rank: the larger colour word, arbitrary but stable);
// - reduce: level L from level L - 1, the max of 2 × 2 texels.
//
// Every level lives in one buffer at agg.stat_off[L]; view.wgsl's status_quad_fs reads it.

// `struct Agg` comes from kernels/view_agg.wgsl, prepended at build time.

@group(0) @binding(0) var<uniform> agg: Agg;
@group(0) @binding(1) var<storage, read> pos: array<vec2<f32>>;
@group(0) @binding(2) var<storage, read> words: array<u32>;
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;
// x: the level `reduce` writes; y: the first slot of `splat`'s chunk; z: the first slot of the
// window `pos` and `words` hold.
@group(0) @binding(4) var<uniform> level: vec4<u32>;

fn index(wg: vec3<u32>, nw: vec3<u32>, li: u32) -> u32 {
    return (wg.y * nw.x + wg.x) * 256u + li;
}

@compute @workgroup_size(256)
fn splat(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
         @builtin(local_invocation_index) li: u32) {
    let i = level.y + index(wg, nw, li);
    let k = i - level.z;
    if i >= agg.n || k >= arrayLength(&words) {
        return;
    }
    let p = pos[k];
    let g = vec2<f32>((p.x - agg.origin.x) / agg.extent.x, (agg.origin.y - p.y) / agg.extent.y)
        * vec2<f32>(agg.stat_dims);
    let t = clamp(vec2<i32>(floor(g)), vec2<i32>(0), vec2<i32>(agg.stat_dims) - 1);
    let w = words[k];
    atomicMax(&status[agg.stat_off[0].x + u32(t.y) * agg.stat_dims.x + u32(t.x)],
              (((w >> 24u) + 1u) << 24u) | (w & 0xffffffu));
}

@compute @workgroup_size(256)
fn reduce(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
          @builtin(local_invocation_index) li: u32) {
    let l = level.x;
    let dims = (agg.stat_dims + vec2<u32>((1u << l) - 1u)) >> vec2<u32>(l);
    let up = (agg.stat_dims + vec2<u32>((1u << (l - 1u)) - 1u)) >> vec2<u32>(l - 1u);
    let i = index(wg, nw, li);
    if i >= dims.x * dims.y {
        return;
    }
    let x = i % dims.x;
    let y = i / dims.x;
    let src = agg.stat_off[(l - 1u) / 4u][(l - 1u) % 4u];
    var best = 0u;
    for (var dy = 0u; dy < 2u; dy++) {
        for (var dx = 0u; dx < 2u; dx++) {
            let sx = 2u * x + dx;
            let sy = 2u * y + dy;
            if sx < up.x && sy < up.y {
                best = max(best, atomicLoad(&status[src + sy * up.x + sx]));
            }
        }
    }
    atomicStore(&status[agg.stat_off[l / 4u][l % 4u] + i], best);
}
