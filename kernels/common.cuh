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
