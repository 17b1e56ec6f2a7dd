// sssp-lab: many sources at once (seed 003's many-source run, issue 30 item 7).
//
// Launched from: src/device/cuda/batch.rs (`BatchSolver::solve`), one launch per batch of K
// sources, grid = K blocks. Compiled by NVRTC after the layout prelude and common.cuh.
//
// One block owns one source and its own δ row, mark row and two frontier lists; it solves the
// whole source alone (frontier Bellman-Ford: every round relaxes the out-arcs of the vertices
// whose δ dropped in the round before), so there is no grid barrier and no host round trip: a
// phase is a __syncthreads. A single source cannot fill the GPU on a road graph (its frontiers
// hold a few hundred vertices), K of them side by side can; blocks that finish early are
// replaced by the hardware with the batch's next sources.
//
// δ is u32 (the host refuses graphs with n · max weight ≥ 2^32 − 1), INF = all bits set.
// mark[v] = the last round that pushed v into a next list, so v is pushed at most once per round
// and a list never holds more than n entries. Buffers are row-major with row stride n.

extern "C" __global__ void batch_bf(u32 n, const u32 *__restrict__ offsets, const u32 *__restrict__ targets,
                                    const u32 *__restrict__ weights, const u32 *__restrict__ sources, u32 count,
                                    u32 *dist, u32 *mark, u32 *lists) {
    __shared__ u32 s_len[2];
    const u32 b = blockIdx.x;
    if (b >= count) return;
    u32 *d = dist + (u64)b * (u64)n;
    u32 *mk = mark + (u64)b * (u64)n;
    u32 *cur = lists + (u64)b * 2ull * (u64)n;
    u32 *nxt = cur + n;
    for (u32 v = threadIdx.x; v < n; v += blockDim.x) {
        d[v] = 0xFFFFFFFFu;
        mk[v] = 0u;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        const u32 s = sources[b];
        d[s] = 0u;
        mk[s] = 1u;
        cur[0] = s;
        s_len[0] = 1u;
        s_len[1] = 0u;
    }
    __syncthreads();
    u32 round = 1u;
    u32 c = 0u; // s_len[c] counts cur, s_len[c ^ 1] counts nxt
    for (;;) {
        const u32 len = s_len[c];
        if (len == 0u) break;
        ++round;
        for (u32 i = threadIdx.x; i < len; i += blockDim.x) {
            const u32 u = __ldcg(&cur[i]);
            // Read through L2: other threads of the block lowered δ with atomics (L2) this round.
            const u32 du = __ldcg(&d[u]);
            const u32 end = offsets[u + 1];
            for (u32 a = offsets[u]; a < end; ++a) {
                const u32 v = targets[a];
                const u32 nd = du + weights[a];
                if (nd < __ldcg(&d[v]) && atomicMin(&d[v], nd) > nd) {
                    if (atomicExch(&mk[v], round) != round) {
                        const u32 slot = atomicAdd(&s_len[c ^ 1u], 1u);
                        nxt[slot] = v;
                    }
                }
            }
        }
        __syncthreads(); // every push of this round is done
        if (threadIdx.x == 0) s_len[c] = 0u;
        u32 *t = cur;
        cur = nxt;
        nxt = t;
        c ^= 1u;
        __syncthreads(); // the reset counter and the new list are seen by all
    }
}

// FNV-1a of the 8 little-endian bytes of x into h (TaskResult::summarize's hash).
__device__ __forceinline__ void batch_mix(u64 &h, u64 x) {
#pragma unroll
    for (int i = 0; i < 8; ++i) h = (h ^ ((x >> (8 * i)) & 0xFFull)) * 0x100000001B3ull;
}

// One thread per row of the batch: TaskResult::summarize on the device, so a batch sends back
// 32 bytes per source instead of its n-entry row. out[4 b ..] = reached, eccentricity, sum
// (saturating at i64::MAX), checksum, exactly as the host computes them from the row widened
// to i64 (∞ = i64::MAX).
extern "C" __global__ void batch_summary(u32 n, const u32 *__restrict__ sources, u32 count,
                                         const u32 *__restrict__ dist, u64 *out) {
    const u32 b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= count) return;
    const u32 *d = dist + (u64)b * (u64)n;
    const u64 imax = 0x7FFFFFFFFFFFFFFFull;
    u64 h = 0xCBF29CE484222325ull;
    batch_mix(h, (u64)sources[b]);
    u64 reached = 0ull, ecc = 0ull, sum = 0ull;
    for (u32 v = 0; v < n; ++v) {
        const u32 x = d[v];
        if (x == 0xFFFFFFFFu) {
            batch_mix(h, imax);
        } else {
            batch_mix(h, (u64)x);
            ++reached;
            ecc = umax64(ecc, (u64)x);
            sum = sum > imax - (u64)x ? imax : sum + (u64)x;
        }
    }
    out[4ull * b] = reached;
    out[4ull * b + 1ull] = ecc;
    out[4ull * b + 2ull] = sum;
    out[4ull * b + 3ull] = h;
}
