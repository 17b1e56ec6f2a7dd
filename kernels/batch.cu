// sssp-lab: many sources at once (seed 003's many-source run, issue 30 item 7).
//
// Launched from: src/device/cuda/batch.rs (`BatchSolver::solve`), one launch per batch of K
// sources, grid = K blocks. Compiled by NVRTC after the layout prelude and common.cuh.
//
// One block owns one source and its own δ row, mark row, far flags and three vertex lists
// (near frontier, next near frontier, far pile); it solves the whole source alone, so there is
// no grid barrier and no host round trip: a phase is a __syncthreads. A single source cannot
// fill the GPU on a road graph (its frontiers hold a few hundred vertices), K of them side by
// side can; blocks that finish early are replaced by the hardware with the batch's next sources.
//
// Near-far inside the block (Davidson, Baxter, Garland & Owens, IPDPS 2014): a round relaxes
// the out-arcs of the near frontier; a lowered δ below the threshold T goes to the next near
// frontier, one at or above T to the far pile (once: the far flag). When the near frontier
// empties, T rises by Δ and the far pile is split: entries now below the old T are stale (their
// δ was lowered below it later and relaxed as near), those below the new T form the near
// frontier, the rest stay. On road graphs this removes most of frontier Bellman-Ford's
// re-relaxations (a vertex relaxed with a δ that later drops). Δ = 0xFFFFFFFF (the host's `bf`)
// keeps T at ∞: plain frontier Bellman-Ford, nothing ever goes far.
//
// δ is u32 (the host refuses graphs whose weights sum to 2^32 − 1 or more), INF = all bits set.
// mark[v] = the last round that pushed v into a next near list, so v is pushed at most once per
// round, and far[v] = 1 while v is on the far pile: each list holds at most n entries.
// Buffers are row-major with row stride n (lists: 3n per source).
//
// out[5 b + 4] = the arcs this block relaxed (scanned), the evidence of what near-far saves.

__device__ __forceinline__ u32 batch_sat_add(u32 a, u32 b) {
    const u32 t = a + b;
    return t < a ? 0xFFFFFFFFu : t;
}

extern "C" __global__ void batch_bf(u32 n, const u32 *__restrict__ offsets, const u32 *__restrict__ targets,
                                    const u32 *__restrict__ weights, const u32 *__restrict__ sources, u32 count,
                                    u32 delta, u32 *dist, u32 *mark, u32 *farflag, u32 *lists, u64 *out) {
    // s_len[0]: the near frontier, [1]: the next near frontier (or the far keepers while
    // splitting), [2]: the far pile. The roles stay put; the buffers rotate under them.
    __shared__ u32 s_len[3];
    __shared__ u32 s_min;
    __shared__ unsigned long long s_relax;
    const u32 b = blockIdx.x;
    if (b >= count) return;
    u32 *d = dist + (u64)b * (u64)n;
    u32 *mk = mark + (u64)b * (u64)n;
    u32 *ff = farflag + (u64)b * (u64)n;
    u32 *cur = lists + (u64)b * 3ull * (u64)n;
    u32 *nxt = cur + n;
    u32 *far = nxt + n;
    for (u32 v = threadIdx.x; v < n; v += blockDim.x) {
        d[v] = 0xFFFFFFFFu;
        mk[v] = 0u;
        ff[v] = 0u;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        const u32 s = sources[b];
        d[s] = 0u;
        mk[s] = 1u;
        cur[0] = s;
        s_len[0] = 1u;
        s_len[1] = 0u;
        s_len[2] = 0u;
        s_relax = 0ull;
    }
    __syncthreads();
    u32 T = delta; // near: δ < T
    u32 round = 1u;
    unsigned long long relaxed = 0ull;
    for (;;) {
        const u32 len = s_len[0];
        if (len == 0u) {
            if (s_len[2] == 0u) break;
            // Split the far pile until the near frontier is not empty (or the pile is).
            u32 stale = T;
            u32 next = batch_sat_add(T, delta);
            for (;;) {
                __syncthreads(); // everyone has read the counters of the step before
                if (threadIdx.x == 0) s_min = 0xFFFFFFFFu;
                __syncthreads();
                const u32 flen = s_len[2];
                for (u32 i = threadIdx.x; i < flen; i += blockDim.x) {
                    const u32 v = __ldcg(&far[i]);
                    const u32 dv = __ldcg(&d[v]);
                    if (dv < stale) {
                        ff[v] = 0u;
                    } else if (dv < next) {
                        ff[v] = 0u;
                        cur[atomicAdd(&s_len[0], 1u)] = v;
                    } else {
                        nxt[atomicAdd(&s_len[1], 1u)] = v;
                        atomicMin(&s_min, dv);
                    }
                }
                __syncthreads(); // every entry is placed
                if (threadIdx.x == 0) {
                    s_len[2] = s_len[1];
                    s_len[1] = 0u;
                }
                u32 *t = far;
                far = nxt;
                nxt = t;
                __syncthreads(); // the new counters are seen by all
                if (s_len[0] != 0u || s_len[2] == 0u) break;
                // Nothing lies in [stale, next): jump to the lowest δ left on the pile.
                stale = next;
                next = batch_sat_add(s_min, delta);
            }
            T = next;
            continue;
        }
        ++round;
        for (u32 i = threadIdx.x; i < len; i += blockDim.x) {
            const u32 u = __ldcg(&cur[i]);
            // Read through L2: other threads of the block lowered δ with atomics (L2) this round.
            const u32 du = __ldcg(&d[u]);
            const u32 begin = offsets[u];
            const u32 end = offsets[u + 1];
            relaxed += (unsigned long long)(end - begin);
            for (u32 a = begin; a < end; ++a) {
                const u32 v = targets[a];
                const u32 nd = du + weights[a];
                if (nd < __ldcg(&d[v]) && atomicMin(&d[v], nd) > nd) {
                    if (nd < T) {
                        if (atomicExch(&mk[v], round) != round) nxt[atomicAdd(&s_len[1], 1u)] = v;
                    } else if (atomicExch(&ff[v], 1u) == 0u) {
                        far[atomicAdd(&s_len[2], 1u)] = v;
                    }
                }
            }
        }
        __syncthreads(); // every push of this round is done
        if (threadIdx.x == 0) {
            s_len[0] = s_len[1];
            s_len[1] = 0u;
        }
        u32 *t = cur;
        cur = nxt;
        nxt = t;
        __syncthreads(); // the new counters and lists are seen by all
    }
    atomicAdd(&s_relax, relaxed);
    __syncthreads();
    if (threadIdx.x == 0) out[5ull * b + 4ull] = (u64)s_relax;
}

// FNV-1a of the 8 little-endian bytes of x into h (TaskResult::summarize's hash).
__device__ __forceinline__ void batch_mix(u64 &h, u64 x) {
#pragma unroll
    for (int i = 0; i < 8; ++i) h = (h ^ ((x >> (8 * i)) & 0xFFull)) * 0x100000001B3ull;
}

// One thread per row of the batch: TaskResult::summarize on the device, so a batch sends back
// 40 bytes per source instead of its n-entry row. out[5 b ..] = reached, eccentricity, sum
// (saturating at i64::MAX), checksum, exactly as the host computes them from the row widened
// to i64 (∞ = i64::MAX); out[5 b + 4] is batch_bf's count of relaxed arcs.
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
    out[5ull * b] = reached;
    out[5ull * b + 1ull] = ecc;
    out[5ull * b + 2ull] = sum;
    out[5ull * b + 3ull] = h;
}
