template <int V>
__global__ void staged_i(const u32 *__restrict__ level_start, const u32 *__restrict__ in_offsets,
                                        const u32 *__restrict__ in_tails, const u32 *__restrict__ in_weights,
                                        u32 *dist, u32 first, u32 last, long long *clk) {
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
    if (threadIdx.x == 0) clk[0] = clock64();
    for (u32 l = 0; l < count; ++l) {
        const u32 v0 = ls[l], size = ls[l + 1] - v0;
        // g lanes a vertex: the most (a power of two up to a warp) that size · g threads allow.
        // The top levels have a few vertices of many shortcut arcs each; one thread walking them
        // all would make the level's chain that long.
        u32 g, groups, lane, group, sh;
        if (V == 0) {
        const u32 fit = blockDim.x / max(size, 1u);
        g = fit >= 32 ? 32 : (fit == 0 ? 1 : 1u << (31 - __clz(fit)));
        groups = blockDim.x / g; lane = threadIdx.x & (g - 1); group = threadIdx.x / g; sh = 31 - __clz(g);
        } else {
        // 1024 threads: g = 2^(10 - ceil(log2 size)) clamped to 1..32
        const int cl = size <= 1 ? 0 : 32 - __clz(size - 1);
        const int s = min(5, max(0, 10 - cl));
        sh = s; g = 1u << s; groups = blockDim.x >> s; lane = threadIdx.x & (g - 1); group = threadIdx.x >> s;
        }
        // A warp whose groups hold no vertex of the level goes straight to the barrier: 32 warps
        // each running a level's loop for nothing cost more than the level (0.85 µs a level on
        // the H200 in the diagnostic call). The condition is the warp's own, so each shuffle
        // still has its whole warp.
        const u32 warp_group = (threadIdx.x & ~31u) >> sh;
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
            if (V == 2) { if (g > 1) { for (u32 off = g / 2; off > 0; off /= 2) best = min(best, __shfl_xor_sync(0xffffffffu, best, off)); } }
            else for (u32 off = g / 2; off > 0; off /= 2) best = min(best, __shfl_xor_sync(0xffffffffu, best, off));
            if (i < size && lane == 0 && best < sd[v0 + i]) sd[v0 + i] = best;
        }
        __syncthreads();
        if (threadIdx.x == 0) clk[l + 1] = clock64();
    }
    for (u32 k = lo + threadIdx.x; k < hi; k += blockDim.x) dist[k] = sd[k];
}
