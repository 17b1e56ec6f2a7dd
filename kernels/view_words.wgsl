// sssp-lab: the graph view's vertex words read straight from a wgpu solver's buffers (zero-copy).
//
// Launched from: src/app/graph_view/gpu/live.rs, once per state change, when the solver runs on
// the window's own wgpu device. It writes what src/app/graph_view/gpu/pack.rs `vertex_words`
// writes on the host, so both paths draw the same picture (a kittest compares them):
// words[s] = RGB | code << 24 for vertex order[s] (slot order of the view's buffers).
// δ and the stamps follow kernels/common.wgsl: after `iterations` steps v is settled when
// stamp[v] <= iterations, a frontier vertex when stamp[v] == iterations + 1, reached when
// δ(v) < INF, else unreached.

struct Params {
    n: u32,
    iterations: u32,
    /// 0: colours by status; 1: by δ on the ramp (max_dist = the largest finite δ).
    mode: u32,
    max_dist: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> order: array<u32>;
@group(0) @binding(2) var<storage, read> dist: array<u32>;
@group(0) @binding(3) var<storage, read> stamp: array<u32>;
/// Words of codes 0..4 (unreached, settled, reached, frontier, wrong), then at RAMP the ramp's
/// 256 RGB colours.
@group(0) @binding(4) var<storage, read> palette: array<u32>;
@group(0) @binding(5) var<storage, read_write> words: array<u32>;

const INF: u32 = 0xffffffffu;
const RAMP: u32 = 8u;

@compute @workgroup_size(256)
fn vertex_words(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let s = gid.x + gid.y * nwg.x * 256u;
    if (s >= P.n) {
        return;
    }
    let v = order[s];
    let st = stamp[v];
    let d = dist[v];
    let cur = P.iterations + 1u;
    var code = 0u;
    if (st < cur) {
        code = 1u;
    } else if (st == cur) {
        code = 3u;
    } else if (d != INF) {
        code = 2u;
    }
    var w = palette[code];
    if (P.mode == 1u && code != 0u) {
        var i = 0u;
        if (P.max_dist > 0u) {
            // The host rounds half away from zero: floor(x + 0.5) for x ≥ 0.
            i = min(u32(floor(f32(d) / f32(P.max_dist) * 255.0 + 0.5)), 255u);
        }
        w = (palette[RAMP + i] & 0xffffffu) | (code << 24u);
    }
    words[s] = w;
}
