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
