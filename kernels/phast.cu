// sssp-lab: PHAST's sweep over a contraction hierarchy ([phast] Delling, Goldberg, Nowatzyk,
// Werneck, IPDPS 2011, §4 the GPU sweep), the twin of kernels/phast.wgsl. δ is indexed by sweep
// position (the hierarchy's vertices renumbered level by level, src/algo/phast/hierarchy.rs) and
// is u32 with 2³²−1 = ∞; the host refuses graphs whose distances could reach it.
//
// - phast_fill: δ ← ∞ everywhere (n threads, grid-stride).
// - phast_scatter: δ[pairs[2i]] ← pairs[2i + 1] for the upward search's `count` pairs;
//   phast_scatter_inline the same with the pairs in its parameters.
// - phast_levels: levels first..=last in order (the first's positions first_lo..first_hi given by
//   the host); in a level, thread k (grid-stride) takes
//   δ[k] ← min(δ[k], min over the downward arcs (t, w) entering k of δ[t] + w). Tails lie in
//   earlier levels, so a level's positions do not depend on each other: no atomics. A launch of
//   several levels has one block and a __syncthreads() between levels (which also orders the
//   block's global writes before its reads); a grid launch has one level and the stream orders
//   it after the launch before. δ is written in the same launch, so it is read with plain loads
//   (no const __restrict__, no __ldg); the hierarchy's arrays go through the read-only path.
// - phast_staged: levels first..=last in one block with δ and the levels' arcs in shared memory
//   (`top=shared`, the plan's first launch). Every tail of a level lies in an earlier level, so the
//   positions 0..level_start[last + 1] are all the run reads or writes: they are loaded into
//   dynamic shared memory once, with the run's in-arc offsets (rebased to its first arc), weights
//   and 16-bit tails (the host keeps level_start[last + 1] ≤ 2¹⁶); the levels are swept there
//   with a block barrier between them, and the run's own positions are written back. A level then
//   costs a few shared-memory loads and a barrier instead of a chain of three dependent L2 loads
//   (offsets, tails, δ of the tails: ~1.7 µs a level on the H200, call p4). Small levels give each
//   vertex up to a warp of lanes over its arcs and a shuffle minimum. The host sizes the
//   dynamic shared memory (src/device/driver/sweep.rs staged_bytes: the layout below) and keeps
//   last − first < PHAST_STAGE_LEVELS.
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

// The upward search's pairs passed by value (a kernel's parameters hold 4 KiB): no copy to
// the device before the sweep when the search found at most PHAST_INLINE_WORDS / 2 vertices (a few
// hundred on roads); src/device/cuda/sweep.rs InlinePairs is the same struct.
constexpr u32 PHAST_INLINE_WORDS = 960;
struct PhastPairs {
    u32 w[PHAST_INLINE_WORDS];
};

extern "C" __global__ void phast_scatter_inline(const PhastPairs pairs, u32 count, u32 *dist) {
    for (u32 i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
        dist[pairs.w[2 * i]] = pairs.w[2 * i + 1];
    }
}

extern "C" __global__ void phast_levels(const u32 *__restrict__ level_start, const u32 *__restrict__ in_offsets,
                                        const u32 *__restrict__ in_tails, const u32 *__restrict__ in_weights,
                                        u32 *dist, u32 first, u32 last, u32 first_lo, u32 first_hi) {
    const u32 stride = gridDim.x * blockDim.x;
    for (u32 l = first; l <= last; ++l) {
        // The first level's bounds come with the launch: a grid launch (one level) starts its
        // chain of dependent loads at the offsets.
        const u32 lo = l == first ? first_lo : __ldg(&level_start[l]);
        const u32 hi = l == first ? first_hi : __ldg(&level_start[l + 1]);
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

constexpr u32 PHAST_STAGE_LEVELS = 512;
constexpr u32 PHAST_STAGE_BATCH = 8;

// dst[i] ← src[i] − sub for i < count, by the whole block, PHAST_STAGE_BATCH independent loads
// issued before their stores.
template <typename T>
__device__ void phast_stage_copy(T *dst, const u32 *src, u32 count, u32 sub) {
    for (u32 k0 = threadIdx.x; k0 < count; k0 += PHAST_STAGE_BATCH * blockDim.x) {
        u32 v[PHAST_STAGE_BATCH];
#pragma unroll
        for (u32 j = 0; j < PHAST_STAGE_BATCH; ++j) {
            const u32 k = k0 + j * blockDim.x;
            v[j] = k < count ? src[k] : 0u;
        }
#pragma unroll
        for (u32 j = 0; j < PHAST_STAGE_BATCH; ++j) {
            const u32 k = k0 + j * blockDim.x;
            if (k < count) dst[k] = static_cast<T>(v[j] - sub);
        }
    }
}

extern "C" __global__ void phast_staged(const u32 *__restrict__ level_start, const u32 *__restrict__ in_offsets,
                                        const u32 *__restrict__ in_tails, const u32 *__restrict__ in_weights,
                                        u32 *dist, u32 first, u32 last) {
    // Layout (4-byte words, then 2-byte tails): δ[0..hi) | offsets[0..=hi−lo) | weights[0..arcs) |
    // tails[0..arcs), where lo..hi are the run's positions and offsets are rebased to in_offsets[lo].
    extern __shared__ u32 sm[];
    __shared__ u32 ls[PHAST_STAGE_LEVELS + 1];
    const u32 count = last - first + 1;
    for (u32 i = threadIdx.x; i <= count; i += blockDim.x) ls[i] = __ldg(&level_start[first + i]);
    __syncthreads();
    const u32 lo = ls[0], hi = ls[count];
    const u32 a0 = __ldg(&in_offsets[lo]), arcs = __ldg(&in_offsets[hi]) - a0;
    u32 *sd = sm;
    u32 *so = sd + hi;
    u32 *sw = so + (hi - lo + 1);
    unsigned short *st = reinterpret_cast<unsigned short *>(sw + arcs);
    // The copies keep PHAST_STAGE_BATCH loads in flight a thread: one at a time, a block of one
    // multiprocessor waits out a memory latency per 4 KiB (~80 µs for NY's 217 KiB, call p6).
    phast_stage_copy(sd, dist, hi, 0u);
    phast_stage_copy(so, in_offsets + lo, hi - lo + 1, a0);
    phast_stage_copy(sw, in_weights + a0, arcs, 0u);
    phast_stage_copy(st, in_tails + a0, arcs, 0u);
    __syncthreads();
    const u32 log_block = 31 - __clz(blockDim.x);
    for (u32 l = 0; l < count; ++l) {
        const u32 v0 = ls[l], size = ls[l + 1] - v0;
        // g = 2^shift lanes a vertex: the most (up to a warp) that size · g ≤ blockDim allows. The
        // top levels have a few vertices of many shortcut arcs each; one thread walking them all
        // would make the level's chain that long. Shifts, not divisions: computing g and the
        // groups with three divisions cost every level ~600 of its ~1 600 cycles (the H200, call
        // d4: NY's staged run 129 k cycles against 85 k).
        const int ceil_log = size <= 1 ? 0 : 32 - __clz(size - 1);
        const u32 shift = static_cast<u32>(min(5, max(0, static_cast<int>(log_block) - ceil_log)));
        const u32 g = 1u << shift, groups = blockDim.x >> shift, lane = threadIdx.x & (g - 1);
        const u32 group = threadIdx.x >> shift;
        // A warp whose groups hold no vertex of the level goes straight to the barrier. The
        // condition is the warp's own, so each shuffle still has its whole warp.
        const u32 warp_group = (threadIdx.x & ~31u) >> shift;
        for (u32 base = 0; base + warp_group < size; base += groups) {
            const u32 i = base + group;
            u32 best = PHAST_INF;
            if (i < size) {
                const u32 b1 = so[v0 + i - lo + 1];
                for (u32 b = so[v0 + i - lo] + lane; b < b1; b += g) {
                    const u32 t = sd[st[b]];
                    const u32 w = sw[b];
                    if (w < PHAST_INF - t && t + w < best) best = t + w;
                }
            }
            for (u32 off = g >> 1; off > 0; off >>= 1) best = min(best, __shfl_xor_sync(0xffffffffu, best, off));
            if (i < size && lane == 0 && best < sd[v0 + i]) sd[v0 + i] = best;
        }
        __syncthreads();
    }
    for (u32 k = lo + threadIdx.x; k < hi; k += blockDim.x) dist[k] = sd[k];
}
