// sssp-lab: PHAST's sweep over a contraction hierarchy ([phast] Delling, Goldberg, Nowatzyk,
// Werneck, IPDPS 2011, §4 the GPU sweep), the twin of kernels/phast.wgsl. δ is indexed by sweep
// position (the hierarchy's vertices renumbered level by level, src/algo/phast/hierarchy.rs) and
// is u32 with 2³²−1 = ∞; the host refuses graphs whose distances could reach it.
//
// - phast_fill: δ ← ∞ everywhere (n threads, grid-stride).
// - phast_scatter: δ[pairs[2i]] ← pairs[2i + 1] for the upward search's `count` pairs.
// - phast_levels: levels first..=last in order; in a level, thread k (grid-stride) takes
//   δ[k] ← min(δ[k], min over the downward arcs (t, w) entering k of δ[t] + w). Tails lie in
//   earlier levels, so a level's positions do not depend on each other: no atomics. A launch of
//   several levels has one block and a __syncthreads() between levels (which also orders the
//   block's global writes before its reads); a grid launch has one level and the stream orders
//   it after the launch before. δ is written in the same launch, so it is read with plain loads
//   (no const __restrict__, no __ldg); the hierarchy's arrays go through the read-only path.
//
// Launched from: src/device/cuda/sweep.rs (the plan: src/device/driver/sweep.rs); compiled by
// NVRTC on first use with the layout prelude and kernels/common.cuh prepended.

constexpr u32 PHAST_INF = 0xFFFFFFFFu;

extern "C" __global__ void phast_fill(u32 n, u32 *dist) {
    for (u32 k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) {
        dist[k] = PHAST_INF;
    }
}

extern "C" __global__ void phast_scatter(const u32 *__restrict__ pairs, u32 count, u32 *dist) {
    for (u32 i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
        dist[__ldg(&pairs[2 * i])] = __ldg(&pairs[2 * i + 1]);
    }
}

extern "C" __global__ void phast_levels(const u32 *__restrict__ level_start, const u32 *__restrict__ in_offsets,
                                        const u32 *__restrict__ in_tails, const u32 *__restrict__ in_weights,
                                        u32 *dist, u32 first, u32 last) {
    const u32 stride = gridDim.x * blockDim.x;
    for (u32 l = first; l <= last; ++l) {
        const u32 lo = __ldg(&level_start[l]);
        const u32 hi = __ldg(&level_start[l + 1]);
        for (u32 k = lo + blockIdx.x * blockDim.x + threadIdx.x; k < hi; k += stride) {
            u32 best = dist[k];
            const u32 a1 = __ldg(&in_offsets[k + 1]);
            for (u32 a = __ldg(&in_offsets[k]); a < a1; ++a) {
                const u32 t = dist[__ldg(&in_tails[a])];
                const u32 w = __ldg(&in_weights[a]);
                // t + w < ∞ without overflow (t == ∞ fails too: ∞ − t = 0).
                if (w < PHAST_INF - t && t + w < best) best = t + w;
            }
            dist[k] = best;
        }
        if (l < last) __syncthreads(); // uniform: l and last are the same for the whole block
    }
}
