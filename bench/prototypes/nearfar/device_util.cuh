// device_util.cuh — warp and block helpers of the near-far prototype, copied from this
// repository's kernels/common.cuh (warp_append, block_exclusive_scan, owner_of) so the prototype
// builds on its own. Included by nearfar.cu inside its device part (u32, u64, FULL_MASK defined).
#pragma once

__device__ __forceinline__ u32 lane_id() { return threadIdx.x & 31u; }

__device__ __forceinline__ u32 warp_max32(u32 x) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) { u32 y = __shfl_xor_sync(FULL_MASK, x, o); x = x > y ? x : y; }
    return x;
}
__device__ __forceinline__ u32 warp_min32(u32 x) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) { u32 y = __shfl_xor_sync(FULL_MASK, x, o); x = x < y ? x : y; }
    return x;
}
__device__ __forceinline__ u64 warp_sum64(u64 x) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(FULL_MASK, x, o);
    return x;
}
__device__ __forceinline__ u64 gtime() {
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Warp-aggregated append of u32 values (every lane of the converged warp calls it).
__device__ __forceinline__ void warp_append(bool take, u32 value, u32 *list, u32 *count) {
    const u32 mask = __ballot_sync(FULL_MASK, take);
    if (mask == 0) return;
    const u32 lane = lane_id(), leader = __ffs(mask) - 1;
    u32 base = 0;
    if (lane == leader) base = atomicAdd(count, (u32)__popc(mask));
    base = __shfl_sync(FULL_MASK, base, leader);
    if (take) list[base + __popc(mask & ((1u << lane) - 1u))] = value;
}

// Block-wide exclusive scan; total to every thread. blockDim.x a multiple of 32, ≤ 1024.
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
        if (lane < warps) warp_sums[lane] = w;
    }
    __syncthreads();
    total = warp_sums[warps - 1];
    const u32 before = warp == 0 ? 0 : warp_sums[warp - 1];
    __syncthreads();
    return before + inc - x;
}

// The last k in [0, count) with pos[k] <= i (ascending pos, pos[0] = 0 <= i).
__device__ __forceinline__ u32 owner_of(const u32 *pos, u32 count, u32 i) {
    u32 lo = 0, hi = count - 1;
    while (lo < hi) {
        const u32 mid = (lo + hi + 1) >> 1;
        if (pos[mid] <= i) lo = mid; else hi = mid - 1;
    }
    return lo;
}

