// sssp-lab: helpers shared by the CUDA kernels (kernels/cuda_*.cu).
//
// Launched from: src/device/cuda/kernels.rs prepends this text to every kernels/cuda_*.cu file
// before NVRTC compiles it at run time (there is no include path under NVRTC).
//
// Conventions (all kernels):
// - Vertices are u32 0..n. δ is stored as D = u32 when n · max weight < 2^32 − 1
//   (Graph::distance_bound), else u64; INF (all bits set) = unreached.
// - stamp[v] = the iteration in which v is a frontier vertex (it was settled by the update of the
//   iteration before; the source has stamp 1), or UNSET while v is unsettled. So
//   F_i = {v : stamp[v] == i}, U_i = {v : stamp[v] == UNSET}, and nothing has to be cleared.
// - Thresholds Δ are u64 (δ + ω can exceed a u32 δ); INF64 = "nothing left".

typedef unsigned int u32;
typedef unsigned long long u64;

#define UNSET 0xFFFFFFFFu
#define INF64 0xFFFFFFFFFFFFFFFFull
#define FULL_MASK 0xFFFFFFFFu

// Counter slots of the instrumented kernels (C_*) and the fast kernel's control words (CTL_*)
// come from src/device/layout.rs, prepended.

template <typename D> struct Inf;
template <> struct Inf<u32> { static __device__ __forceinline__ u32 v() { return 0xFFFFFFFFu; } };
template <> struct Inf<u64> { static __device__ __forceinline__ u64 v() { return INF64; } };

__device__ __forceinline__ u64 umin64(u64 a, u64 b) { return a < b ? a : b; }
__device__ __forceinline__ u64 umax64(u64 a, u64 b) { return a > b ? a : b; }

__device__ __forceinline__ u32 lane_id() { return threadIdx.x & 31u; }

__device__ __forceinline__ u64 warp_min64(u64 x) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) x = umin64(x, __shfl_xor_sync(FULL_MASK, x, o));
    return x;
}

__device__ __forceinline__ u64 warp_sum64(u64 x) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(FULL_MASK, x, o);
    return x;
}

__device__ __forceinline__ u32 warp_max32(u32 x) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        u32 y = __shfl_xor_sync(FULL_MASK, x, o);
        x = x > y ? x : y;
    }
    return x;
}

// Minimum of (a, b) over the whole block; the result is valid in thread 0. Every thread of the
// block must call it (blockDim.x a multiple of 32, at most 1024).
__device__ __forceinline__ void block_min2(u64 &a, u64 &b) {
    __shared__ u64 sa[32];
    __shared__ u64 sb[32];
    a = warp_min64(a);
    b = warp_min64(b);
    const u32 lane = lane_id(), warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    __syncthreads(); // earlier readers of sa/sb are done
    if (lane == 0) {
        sa[warp] = a;
        sb[warp] = b;
    }
    __syncthreads();
    if (warp == 0) {
        a = lane < nwarps ? sa[lane] : INF64;
        b = lane < nwarps ? sb[lane] : INF64;
        a = warp_min64(a);
        b = warp_min64(b);
    }
}

// Sum over the block; result valid in thread 0. Every thread must call it.
__device__ __forceinline__ u64 block_sum(u64 x) {
    __shared__ u64 ss[32];
    x = warp_sum64(x);
    const u32 lane = lane_id(), warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    __syncthreads();
    if (lane == 0) ss[warp] = x;
    __syncthreads();
    if (warp == 0) {
        x = lane < nwarps ? ss[lane] : 0;
        x = warp_sum64(x);
    }
    return x;
}

// Warp-aggregated append: every lane of the (converged) warp calls it; lanes with `take` write
// `value` to consecutive slots of `list`, with one atomicAdd on `count` per warp.
__device__ __forceinline__ void warp_append(bool take, u32 value, u32 *list, u32 *count) {
    const u32 mask = __ballot_sync(FULL_MASK, take);
    if (mask == 0) return;
    const u32 lane = lane_id();
    const u32 leader = __ffs(mask) - 1;
    u32 base = 0;
    if (lane == leader) base = atomicAdd(count, (u32)__popc(mask));
    base = __shfl_sync(FULL_MASK, base, leader);
    if (take) list[base + __popc(mask & ((1u << lane) - 1u))] = value;
}

// Warp-aggregated count (no list).
__device__ __forceinline__ void warp_count(bool take, u32 *count) {
    const u32 mask = __ballot_sync(FULL_MASK, take);
    if (mask != 0 && lane_id() == __ffs(mask) - 1) atomicAdd(count, (u32)__popc(mask));
}

// Warp class of a launch's warp: lane 0 adds the warp's working lanes to *working and one warp to
// *dummy (no lane works; may be null), *mixed or *full (all 32 work). Every lane of the warp
// calls it (blockDim.x is a multiple of 32, so warps are full).
template <typename T>
__device__ __forceinline__ void count_warp(bool work, T *working, T *dummy, T *mixed, T *full) {
    const u32 p = __popc(__ballot_sync(FULL_MASK, work));
    if (lane_id() == 0) {
        if (p) atomicAdd(working, (T)p);
        T *const cls = p == 0 ? dummy : (p == 32 ? full : mixed);
        if (cls) atomicAdd(cls, (T)1);
    }
}

// Lane use of a one-thread-per-vertex arc loop: `loop` is the thread's trip count; the warp runs
// as long as its longest one (added to *warp_iters), and *arc_iters gets the sum. Every lane of
// the warp calls it.
template <typename T>
__device__ __forceinline__ void count_lanes(u32 loop, T *arc_iters, T *warp_iters) {
    const u32 most = warp_max32(loop);
    const u64 iters = warp_sum64((u64)loop);
    if (lane_id() == 0) {
        if (most) atomicAdd(warp_iters, (T)most);
        if (iters) atomicAdd(arc_iters, (T)iters);
    }
}

// Per warp of a vertex-parallel relax launch: class by ballot, working threads by popc, sums of
// the per-thread arc counts, and lane use (count_lanes). Every thread of the launch calls it.
__device__ __forceinline__ void count_relax(bool work, u64 scanned, u64 attempted, u32 loop, u64 *ctr) {
    count_warp<u64>(work, &ctr[C_WORKING], &ctr[C_WARPS_DUMMY], &ctr[C_WARPS_MIXED], &ctr[C_WARPS_FULL]);
    scanned = warp_sum64(scanned);
    attempted = warp_sum64(attempted);
    if (lane_id() == 0) {
        if (scanned) atomicAdd(&ctr[C_SCANNED], scanned);
        if (attempted) atomicAdd(&ctr[C_ATTEMPTED], attempted);
    }
    count_lanes<u64>(loop, &ctr[C_ARC_ITERS], &ctr[C_WARP_ITERS]);
}

// Inclusive scan over the lanes of the (converged) warp: lane l gets x of lanes 0..=l.
__device__ __forceinline__ u32 warp_inclusive_scan(u32 x) {
    const u32 lane = lane_id();
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const u32 y = __shfl_up_sync(FULL_MASK, x, o);
        if (lane >= (u32)o) x += y;
    }
    return x;
}

// Block-wide exclusive scan of x; `total` gets the block's sum. Every thread calls it;
// blockDim.x ≤ 1024 and a multiple of 32. Used by the balanced relax kernels (degree prefix sums).
__device__ __forceinline__ u32 block_exclusive_scan(u32 x, u32 &total) {
    __shared__ u32 warp_sums[32];
    const u32 lane = lane_id(), warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    const u32 inc = warp_inclusive_scan(x);
    if (lane == 31) warp_sums[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        const u32 w = warp_inclusive_scan(lane < warps ? warp_sums[lane] : 0);
        if (lane < warps) warp_sums[lane] = w; // inclusive over warps
    }
    __syncthreads();
    total = warp_sums[warps - 1];
    const u32 before = warp == 0 ? 0 : warp_sums[warp - 1];
    __syncthreads(); // warp_sums is reused by the next call
    return before + inc - x;
}

// Warp rounds of a balanced loop over `total` items of the block (thread t takes t, t + blockDim
// …): warp w runs ⌈(total − 32w) / blockDim⌉ rounds when total > 32w (src/algo/model.rs
// balanced_warp_iters). Called by one thread.
__device__ __forceinline__ u32 balanced_warp_iters(u32 total) {
    u32 rounds = 0;
    for (u32 base = 0; base < blockDim.x && base < total; base += 32) rounds += (total - base + blockDim.x - 1) / blockDim.x;
    return rounds;
}

// Lane use of a balanced loop over `total` items of the block, added by thread 0.
template <typename T>
__device__ __forceinline__ void count_balanced(u32 total, T *arc_iters, T *warp_iters) {
    if (threadIdx.x == 0 && total != 0) {
        atomicAdd(arc_iters, (T)total);
        atomicAdd(warp_iters, (T)balanced_warp_iters(total));
    }
}

// The last k in [0, count) with pos[k] <= i, for ascending pos with pos[0] = 0 <= i: the entry of
// an exclusive degree prefix sum whose range holds item i (zero-degree entries are skipped).
__device__ __forceinline__ u32 owner_of(const u32 *pos, u32 count, u32 i) {
    u32 lo = 0, hi = count - 1;
    while (lo < hi) {
        const u32 mid = (lo + hi + 1) >> 1;
        if (pos[mid] <= i) lo = mid; else hi = mid - 1;
    }
    return lo;
}

// The balanced advance (block-balanced arc assignment; load balancing as in [terms-peers]): the
// block's working vertices put their out-degrees in an exclusive prefix sum, then thread t takes
// the block's arcs i = t, t + blockDim … and finds the vertex that owns arc i by binary search,
// so a hub's arcs are spread over the whole block instead of one lane.
//
// Step 1, balanced_begin: thread t stores its vertex's first arc `beg` and degree `deg` (0 when
// it has no work) into the block's table; returns the block's arc total. Every thread calls it;
// per-vertex values the relax needs (δ of the vertex …) are stored by the caller, indexed by
// threadIdx.x, before the call (its barrier publishes them).
__device__ __forceinline__ u32 balanced_begin(u32 beg, u32 deg, u32 *s_pos, u32 *s_beg) {
    u32 total;
    s_pos[threadIdx.x] = block_exclusive_scan(deg, total);
    s_beg[threadIdx.x] = beg;
    __syncthreads();
    return total;
}

// Step 2, balanced_arc: the arc index of the block's i-th arc (i < total); `k` gets its owner's
// entry (index of the per-vertex values). `count` = entries of the table.
__device__ __forceinline__ u32 balanced_arc(const u32 *s_pos, const u32 *s_beg, u32 count, u32 i, u32 &k) {
    k = owner_of(s_pos, count, i);
    return s_beg[k] + (i - s_pos[k]);
}

// The successors relax of arc e (target u), pushing δ(f) + w(e) from frontier vertex f (δ(f) =
// df) when u is unsettled (seed 000
// §3.2). RACY: seed 004 §4.3's bugged push instead of atomicMin (kernels/racy.cu): read δ(u)
// once, spin `spin_cycles` clock cycles so other threads read the same old value, then compare
// and write — two frontier threads overwrite each other (write-after-write).
template <typename D, bool INSTR, bool RACY>
__device__ __forceinline__ void relax_arc(u32 u, u32 e, D df, const u32 *__restrict__ wgt, D *dist, const u32 *stamp,
                                          u64 &scanned, u64 &attempted, u32 spin_cycles) {
    if (INSTR) ++scanned;
    if (stamp[u] != UNSET) return;
    if (INSTR) ++attempted;
    const D nd = (D)(df + (D)wgt[e]);
    if (RACY) {
        volatile D *target = &dist[u];
        const D seen = *target; // read once ...
        const long long t0 = clock64();
        while (clock64() - t0 < (long long)spin_cycles) {
        } // ... let the other threads read the same old value ...
        if (nd < seen) *target = nd; // ... and overwrite each other: the race
    } else {
        atomicMin(&dist[u], nd);
    }
}

// Successors relax of the frontier F_iter (stamp == iter), one thread per vertex (seed 000 Alg. 2
// left): frontier vertex v pushes δ(v) + w along its out-arcs with relax_arc. Used by relax_succ
// (kernels/frontier.cu) and, RACY, by relax_racy (kernels/racy.cu).
template <typename D, bool INSTR, bool RACY>
__device__ __forceinline__ void relax_succ_k(u32 n, const u32 *__restrict__ off, const u32 *__restrict__ tgt,
                                             const u32 *__restrict__ wgt, D *dist, const u32 *stamp, u32 iter,
                                             u64 *ctr, u32 spin_cycles) {
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    const bool work = v < n && stamp[v] == iter;
    u64 scanned = 0, attempted = 0;
    if (work) {
        const D dv = dist[v];
        const u32 end = off[v + 1];
        for (u32 e = off[v]; e < end; ++e)
            relax_arc<D, INSTR, RACY>(tgt[e], e, dv, wgt, dist, stamp, scanned, attempted, spin_cycles);
    }
    if (INSTR) count_relax(work, scanned, attempted, work ? off[v + 1] - off[v] : 0, ctr);
}

// Two entry points of one kernel template K<D, FLAG> and width S: A_S runs K<D, false>, B_S
// K<D, true> (plain / instrumented, Martín / Crauser, successors / predecessors); PARAMS is the
// parameter list in parentheses, ARGS the call's.
#define SSSP_PAIR(D, S, A, B, K, PARAMS, ARGS)                                                                    \
    extern "C" __global__ void A##_##S PARAMS { K<D, false> ARGS; }                                               \
    extern "C" __global__ void B##_##S PARAMS { K<D, true> ARGS; }

// Grid-wide barrier for a cooperative launch (all blocks co-resident; `C` is the kernel's
// control block, with u32 fields `bar_count` and `bar_gen`): one arrival atomic per
// block; the last arrival runs `reset` (thread 0 of the releasing block, after every block has
// finished the phase) and bumps the generation the others spin on. The fences give the other
// blocks' writes before the barrier to every thread after it (as cooperative groups do).
template <typename C, typename Reset>
__device__ __forceinline__ void grid_sync_then(C *ctl, Reset reset) {
    __syncthreads();
    if (threadIdx.x == 0) {
        volatile u32 *gen = &ctl->bar_gen;
        const u32 g = *gen;
        __threadfence();
        const u32 arrived = atomicAdd(&ctl->bar_count, 1u);
        if (arrived == gridDim.x - 1) {
            atomicExch(&ctl->bar_count, 0u);
            reset();
            __threadfence();
            atomicAdd(&ctl->bar_gen, 1u);
        } else {
            while (*gen == g) {
                __nanosleep(32);
            }
        }
        __threadfence();
    }
    __syncthreads();
}
