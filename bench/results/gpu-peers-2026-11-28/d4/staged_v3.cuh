__global__ void staged_v3(const u32 *__restrict__ level_start, const u32 *__restrict__ in_offsets,
                                        const u32 *__restrict__ in_tails, const u32 *__restrict__ in_weights,
                                        u32 *dist, u32 first, u32 last, long long *clk) {
    // Layout (4-byte words, then 2-byte tails): δ[0..hi) | offsets[0..=hi−lo) | weights[0..arcs) |
    // tails[0..arcs), where lo..hi are the run's positions and offsets are rebased to in_offsets[lo].
    extern __shared__ u32 sm[];
    __shared__ u32 ls[PHAST_STAGE_LEVELS + 1];
    __shared__ unsigned char lshift[PHAST_STAGE_LEVELS];
    __shared__ unsigned short lwarps[PHAST_STAGE_LEVELS];
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
    // Each level's lanes a vertex (as a shift) and the warps that hold its vertices, computed once:
    // computing them in the level loop (two divisions) took every one of the 32 warps ~600 cycles
    // a level, and a warp with no vertex of the level still issued that code (the H200, call d4).
    const u32 log_block = 31 - __clz(blockDim.x);
    for (u32 i = threadIdx.x; i < count; i += blockDim.x) {
        const u32 size = ls[i + 1] - ls[i];
        // g = 2^shift lanes a vertex: the most (up to a warp) that size · g ≤ blockDim allows.
        const int ceil_log = size <= 1 ? 0 : 32 - __clz(size - 1);
        const u32 shift = static_cast<u32>(min(5, max(0, static_cast<int>(log_block) - ceil_log)));
        lshift[i] = static_cast<unsigned char>(shift);
        lwarps[i] = static_cast<unsigned short>(min(((size << shift) + 31) >> 5, blockDim.x >> 5));
    }
    __syncthreads();
    const u32 warp = threadIdx.x >> 5;
    if (threadIdx.x == 0) clk[0] = clock64();
    for (u32 l = 0; l < count; ++l) {
        // A warp that holds no vertex of the level goes straight to the barrier. The condition is
        // the warp's own, so each shuffle still has its whole warp.
        if (warp < lwarps[l]) {
            const u32 v0 = ls[l], size = ls[l + 1] - v0, shift = lshift[l], g = 1u << shift;
            const u32 groups = blockDim.x >> shift, lane = threadIdx.x & (g - 1), group = threadIdx.x >> shift;
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
        }
        __syncthreads();
        if (threadIdx.x == 0) clk[l + 1] = clock64();
    }
    for (u32 k = lo + threadIdx.x; k < hi; k += blockDim.x) dist[k] = sd[k];
}
