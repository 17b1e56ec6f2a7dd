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

// Counter slots of the instrumented kernels (must match COUNTER_* in src/device/cuda/solver.rs).
#define C_WORKING 0
#define C_WARPS_DUMMY 1
#define C_WARPS_MIXED 2
#define C_WARPS_FULL 3
#define C_SCANNED 4
#define C_ATTEMPTED 5
#define C_IMPROVED 6
#define C_REACHED 7
#define C_NEXT_FRONTIER 8
#define C_ARC_ITERS 9  // successors relax: iterations of the per-arc loop, summed over threads
#define C_WARP_ITERS 10 // successors relax: iterations the warps ran (lane use = ARC / (32 · WARP))
#define C_COUNT 16

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

// Per warp of a vertex-parallel relax launch: class by ballot, working threads by popc, sums of
// the per-thread arc counts, and lane use: `loop` is the thread's trip count of its arc loop, and
// the warp runs as long as its longest one. Every thread of the launch calls it (blockDim.x is a
// multiple of 32, so warps are full).
__device__ __forceinline__ void count_relax(bool work, u64 scanned, u64 attempted, u32 loop, u64 *ctr) {
    const u32 ballot = __ballot_sync(FULL_MASK, work);
    scanned = warp_sum64(scanned);
    attempted = warp_sum64(attempted);
    const u32 most = warp_max32(loop);
    const u64 iters = warp_sum64((u64)loop);
    if (lane_id() == 0) {
        const u32 p = __popc(ballot);
        if (p) atomicAdd(&ctr[C_WORKING], (u64)p);
        atomicAdd(&ctr[p == 0 ? C_WARPS_DUMMY : (p == 32 ? C_WARPS_FULL : C_WARPS_MIXED)], 1ull);
        if (scanned) atomicAdd(&ctr[C_SCANNED], scanned);
        if (attempted) atomicAdd(&ctr[C_ATTEMPTED], attempted);
        if (most) atomicAdd(&ctr[C_WARP_ITERS], (u64)most);
        if (iters) atomicAdd(&ctr[C_ARC_ITERS], iters);
    }
}

// Block-wide exclusive scan of x; `total` gets the block's sum. Every thread calls it;
// blockDim.x ≤ 1024 and a multiple of 32. Used by the balanced relax kernels (degree prefix sums).
__device__ __forceinline__ u32 block_exclusive_scan(u32 x, u32 &total) {
    __shared__ u32 warp_sums[32];
    const u32 lane = lane_id(), warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    u32 inc = x;
    for (int o = 1; o < 32; o <<= 1) {
        const u32 y = __shfl_up_sync(FULL_MASK, inc, o);
        if (lane >= (u32)o) inc += y;
    }
    if (lane == 31) warp_sums[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        u32 w = lane < warps ? warp_sums[lane] : 0;
        for (int o = 1; o < 32; o <<= 1) {
            const u32 y = __shfl_up_sync(FULL_MASK, w, o);
            if (lane >= (u32)o) w += y;
        }
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
