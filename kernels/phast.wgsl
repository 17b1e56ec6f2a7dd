// sssp-lab: PHAST's sweep over a contraction hierarchy ([phast] Delling, Goldberg, Nowatzyk,
// Werneck, IPDPS 2011, §4 the GPU sweep) in WGSL, the twin of kernels/phast.cu (same entry
// points). δ is indexed by sweep position and is u32 with INF = 2³²−1 (common.wgsl).
//
// - phast_fill: δ ← ∞ everywhere (n invocations, grid-stride).
// - phast_scatter: δ[pairs[2i]] ← pairs[2i + 1] for the upward search's P.count pairs.
// - phast_levels: levels P.first..=P.last in order; in a level, invocation k (grid-stride) takes
//   δ[k] ← min(δ[k], min over the downward arcs (t, w) entering k of δ[t] + w). Tails lie in
//   earlier levels: no atomics. A dispatch of several levels has one workgroup and
//   storageBarrier + workgroupBarrier between levels; a grid dispatch has one level, ordered after
//   the dispatch before by the pass. δ is a read_write binding read with plain loads.
//
// - phast_staged: levels P.first..=P.last in one workgroup with δ in workgroup memory
//   (`top=shared`, the plan's first dispatch; phast_staged in kernels/phast.cu says why it is
//   right). STAGE_WORDS (an override, the adapter's workgroup storage less the level starts) sizes
//   the array; the host keeps level_start[P.last + 1] ≤ STAGE_WORDS and the run's levels below
//   PHAST_STAGE_LEVELS. Its pipeline has its own WG (up to 1 024 invocations).
//
// Per-dispatch parameters come from a uniform bound at a dynamic offset (one slot per dispatch).
// Launched from: src/device/wgpu/sweep.rs (the plan: src/device/driver/sweep.rs), with the layout
// prelude and common.wgsl (WG, INF) prepended.

struct SweepParams {
    first: u32,
    last: u32,
    count: u32,
    n: u32,
}

@group(0) @binding(0) var<uniform> P: SweepParams;
@group(0) @binding(1) var<storage, read> level_start: array<u32>;
@group(0) @binding(2) var<storage, read> in_offsets: array<u32>;
@group(0) @binding(3) var<storage, read> in_tails: array<u32>;
@group(0) @binding(4) var<storage, read> in_weights: array<u32>;
@group(0) @binding(5) var<storage, read_write> dist: array<u32>;
@group(0) @binding(6) var<storage, read> pairs: array<u32>;

@compute @workgroup_size(WG)
fn phast_fill(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let stride = nwg.x * WG;
    for (var k = gid.x; k < P.n; k += stride) {
        dist[k] = INF;
    }
}

@compute @workgroup_size(WG)
fn phast_scatter(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let stride = nwg.x * WG;
    for (var i = gid.x; i < P.count; i += stride) {
        dist[pairs[2u * i]] = pairs[2u * i + 1u];
    }
}

@compute @workgroup_size(WG)
fn phast_levels(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let stride = nwg.x * WG;
    let last = P.last;
    for (var l = P.first; l <= last; l++) {
        let hi = level_start[l + 1u];
        for (var k = level_start[l] + gid.x; k < hi; k += stride) {
            var best = dist[k];
            let a1 = in_offsets[k + 1u];
            for (var a = in_offsets[k]; a < a1; a++) {
                let t = dist[in_tails[a]];
                let w = in_weights[a];
                // t + w < ∞ without overflow (t == ∞ fails too: ∞ − t = 0).
                if (w < INF - t && t + w < best) {
                    best = t + w;
                }
            }
            dist[k] = best;
        }
        if (l < last) {
            // Uniform: l and last are the same for the whole workgroup.
            storageBarrier();
            workgroupBarrier();
        }
    }
}

override STAGE_WORDS: u32 = 1u;
const PHAST_STAGE_LEVELS: u32 = 512u;
var<workgroup> staged_dist: array<u32, STAGE_WORDS>;
var<workgroup> staged_starts: array<u32, 513>;

@compute @workgroup_size(WG)
fn phast_staged(@builtin(local_invocation_index) lid: u32) {
    let first = P.first;
    let count = P.last - first + 1u;
    for (var i = lid; i <= count; i += WG) {
        staged_starts[i] = level_start[first + i];
    }
    workgroupBarrier();
    let words = staged_starts[count];
    // Four loads in flight an invocation (the last index clamped: the buffers are unchecked), not
    // one: a workgroup waits out a memory latency per round.
    let top = words - 1u;
    for (var k0 = lid; k0 < words; k0 += 4u * WG) {
        let k1 = k0 + WG;
        let k2 = k1 + WG;
        let k3 = k2 + WG;
        let d0 = dist[k0];
        let d1 = dist[min(k1, top)];
        let d2 = dist[min(k2, top)];
        let d3 = dist[min(k3, top)];
        staged_dist[k0] = d0;
        if (k1 < words) {
            staged_dist[k1] = d1;
        }
        if (k2 < words) {
            staged_dist[k2] = d2;
        }
        if (k3 < words) {
            staged_dist[k3] = d3;
        }
    }
    // Uniform: count comes from the uniform P.
    for (var l = 0u; l < count; l++) {
        workgroupBarrier();
        let hi = staged_starts[l + 1u];
        for (var k = staged_starts[l] + lid; k < hi; k += WG) {
            var best = staged_dist[k];
            let a1 = in_offsets[k + 1u];
            for (var a = in_offsets[k]; a < a1; a++) {
                let t = staged_dist[in_tails[a]];
                let w = in_weights[a];
                if (w < INF - t && t + w < best) {
                    best = t + w;
                }
            }
            staged_dist[k] = best;
        }
    }
    workgroupBarrier();
    for (var k = staged_starts[0] + lid; k < words; k += WG) {
        dist[k] = staged_dist[k];
    }
}
