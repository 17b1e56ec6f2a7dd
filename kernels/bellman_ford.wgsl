// sssp-lab: edge-parallel Bellman-Ford ([seed002]) in WGSL, the twin of kernels/bellman_ford.cu:
// one invocation per arc of the edge list, synchronous (Jacobi) passes, three dispatches per pass
// in one compute pass:
//
// - bf_relax: invocation e takes arc (tails[e], heads[e], weights[e]); when the tail is active
//   (FRONTIER: lowered in the previous pass, mark == pass − 1; else reached) it proposes
//   δ_prev(tail) + w to δ(head) with atomicMin, only when below the δ(head) it just loaded.
// - bf_commit: invocation v copies a lowered δ(v) into δ_prev(v), marks v with the pass, and
//   counts into the pass's log entry (lowered and newly reached vertices, their out-degrees).
// - bf_advance: one invocation moves ctl to the next pass and log slot.
//
// relax and commit of pass k return at once when log entry k − 1 lowered nothing, so the host
// can queue a batch of passes and read the log once.
//
// δ is i32, ∞ = 2³¹ − 1 (no 64-bit integers in WGSL): a proposal that would exceed ∞ is
// skipped before the addition, and one below `lo` (Graph::negative_bound; it also bounds every
// weight from below, so `lo − w` cannot overflow) proves a negative cycle and is flagged, not
// written.
//
// Launched from: src/device/wgpu/bellman_ford.rs, with common.wgsl (WG …) and the
// log layout of src/device/layout.rs (BF_*) prepended.

override FRONTIER: bool = false;

/// ∞ of the signed δ (common.wgsl's INF is the u32 one).
const BF_INF: i32 = 0x7fffffff;

struct Params {
    m: u32,
    n: u32,
    lo: i32,
    pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> tails: array<u32>;
@group(0) @binding(2) var<storage, read> heads: array<u32>;
@group(0) @binding(3) var<storage, read> weights: array<i32>;
@group(0) @binding(4) var<storage, read_write> prev: array<i32>;
@group(0) @binding(5) var<storage, read_write> mark: array<u32>;
@group(0) @binding(6) var<storage, read_write> dist: array<atomic<i32>>;
@group(0) @binding(7) var<storage, read_write> log: array<atomic<u32>>;
// [pass, log slot]
@group(0) @binding(8) var<storage, read_write> ctl: array<u32, 4>;
@group(0) @binding(9) var<storage, read> offsets: array<u32>;

// Linear index of a 1-D or 2-D dispatch from the global id (more than 65 535 workgroups use y;
// common.wgsl's thread_index does the same from the workgroup id).
fn global_index(gid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return gid.x + gid.y * nwg.x * WG;
}

fn previous_pass_lowered() -> bool {
    return atomicLoad(&log[(ctl[1] - 1u) * BF_LOG_WORDS + BF_LOWERED]) != 0u;
}

@compute @workgroup_size(WG)
fn bf_relax(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    if (!previous_pass_lowered()) {
        return;
    }
    let e = global_index(gid, nwg);
    if (e >= params.m) {
        return;
    }
    let t = tails[e];
    if (FRONTIER && mark[t] != ctl[0] - 1u) {
        return;
    }
    let dt = prev[t];
    if (dt == BF_INF) {
        return;
    }
    let w = weights[e];
    if (w > 0 && dt >= BF_INF - w) {
        return; // dt + w ≥ ∞: never an improvement
    }
    if (w < 0 && dt < params.lo - w) {
        atomicStore(&log[ctl[1] * BF_LOG_WORDS + BF_NEGATIVE], 1u); // dt + w < lo: a negative cycle
        return;
    }
    let nd = dt + w;
    let h = heads[e];
    if (nd < atomicLoad(&dist[h])) {
        atomicMin(&dist[h], nd);
    }
}

@compute @workgroup_size(WG)
fn bf_commit(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    if (!previous_pass_lowered()) {
        return;
    }
    let v = global_index(gid, nwg);
    if (v >= params.n) {
        return;
    }
    let d = atomicLoad(&dist[v]);
    let p = prev[v];
    if (d < p) {
        prev[v] = d;
        mark[v] = ctl[0];
        let deg = offsets[v + 1u] - offsets[v];
        let entry = ctl[1] * BF_LOG_WORDS;
        atomicAdd(&log[entry + BF_LOWERED], 1u);
        atomicAdd(&log[entry + BF_LOWERED_ARCS], deg);
        if (p == BF_INF) {
            atomicAdd(&log[entry + BF_FRESH], 1u);
            atomicAdd(&log[entry + BF_FRESH_ARCS], deg);
        }
    }
}

@compute @workgroup_size(1)
fn bf_advance() {
    ctl[0] = ctl[0] + 1u;
    ctl[1] = ctl[1] + 1u;
}
