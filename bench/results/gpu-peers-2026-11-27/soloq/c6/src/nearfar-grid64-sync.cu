// Generated from src/device/layout.rs: log layouts and slots shared with the host.
#define BF_LOG_WORDS 8
#define BF_LOWERED 0
#define BF_FRESH 1
#define BF_NEGATIVE 2
#define BF_LOWERED_ARCS 3
#define BF_FRESH_ARCS 4
#define DS_K_LIGHT 0
#define DS_K_HEAVY 1
#define DS_K_SELECT 2
#define DS_K_DONE 3
#define DS_CTL_WORDS 16
#define DS_C_PHASE 0
#define DS_C_SLOT 1
#define DS_C_BUCKET 2
#define DS_C_KIND 3
#define DS_C_SERIAL 4
#define DS_C_RSIZE 5
#define DS_C_HEAVY_R 6
#define DS_C_SETTLED 7
#define DS_C_REACHED 8
#define DS_C_MINB 9
#define DS_C_OPENED 10
#define DS_C_OPENED_HEAVY 11
#define DS_LOG_WORDS 24
#define DS_L_VALID 0
#define DS_L_FRONTIER 1
#define DS_L_SCANNED 2
#define DS_L_RELAXED 3
#define DS_L_LOWERED 4
#define DS_L_FRESH 5
#define DS_L_NEXT 6
#define DS_L_NEW_R 7
#define DS_L_NEW_R_HEAVY 8
#define DS_L_BUCKET 9
#define DS_L_KIND 10
#define DS_L_BUCKET_SIZE 11
#define DS_L_NEXT_FRONTIER 12
#define DS_L_SETTLED_BEFORE 13
#define DS_L_SETTLED 14
#define DS_L_REACHED 15
#define DS_L_WARPS_FULL 16
#define DS_L_WARPS_MIXED 17
#define DS_L_SERIAL 18
#define DS_L_DONE 19
#define DS_L_ARC_ITERS 20
#define DS_L_WARP_ITERS 21
#define NF_C_WORDS 48
#define NF_C_SNAP_KIND 4
#define NF_C_SNAP_SOLO 5
#define NF_C_SNAP_CUR 6
#define NF_C_SNAP_FSEL 7
#define NF_C_SNAP_T 8
#define NF_C_SNAP_STAMP 9
#define NF_C_SNAP_N_IN 10
#define NF_C_SNAP_N_P 11
#define NF_C_KIND 12
#define NF_C_SOLO 13
#define NF_C_DECIDED 14
#define NF_C_CUR 15
#define NF_C_FSEL 16
#define NF_C_NEAR 17
#define NF_C_PIECES 19
#define NF_C_FAR 21
#define NF_C_FAR_MIN 23
#define NF_C_FAR_MIN_NEXT 24
#define NF_C_T 25
#define NF_C_DELTA 26
#define NF_C_STAMP 27
#define NF_C_OVERFLOW 28
#define NF_C_SOLO_WORK 29
#define NF_C_SOLO_FAR 30
#define NF_C_AVG16 31
#define NF_C_STARTED 32
#define NF_C_BUDGET 33
#define NF_C_LOGGED 34
#define NF_C_ARCS 35
#define NF_C_IMPROVED 36
#define NF_C_REC_ITEMS 37
#define NF_C_REC_PIECES 38
#define NF_C_REC_FAR 39
#define NF_C_PENDING 40
#define NF_C_B_ARCS 44
#define NF_C_B_PHASES 45
#define NF_C_DELTA_MAX 46
#define NF_C_DELTA_MIN 47
#define NF_LOG_WORDS 9
#define NF_L_KIND 0
#define NF_L_SOLO 1
#define NF_L_ITEMS 2
#define NF_L_PIECES 3
#define NF_L_FAR 4
#define NF_L_T 5
#define NF_L_ARCS 6
#define NF_L_IMPROVED 7
#define NF_L_DELTA 8
#define NF_K_RELAX 0
#define NF_K_SPLIT 1
#define NF_K_DONE 2
#define NF_K_PAUSE 3
#define NF_PIECE_ARCS 4096
#define C_WORKING 0
#define C_WARPS_DUMMY 1
#define C_WARPS_MIXED 2
#define C_WARPS_FULL 3
#define C_SCANNED 4
#define C_ATTEMPTED 5
#define C_IMPROVED 6
#define C_REACHED 7
#define C_NEXT_FRONTIER 8
#define C_ARC_ITERS 9
#define C_WARP_ITERS 10
#define C_COUNT 16
#define CTL_WORDS 32
#define CTL_ITER 19
#define CTL_DONE 20
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
__device__ __forceinline__ void grid_sync_then(C *ctl, Reset reset, u32 sleep_ns = 32) {
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
                __nanosleep(sleep_ns);
            }
        }
        __threadfence();
    }
    __syncthreads();
}

// sssp-lab: the near-far worklist solver, `delta-stepping:worklist=near-far` (issue 30; design and
// measurements of its prototype in docs/gpu-worklist.md and bench/prototypes/nearfar/).
//
// Launched from: src/device/cuda/nearfar.rs, which compiles this file, kernels/nearfar_vertex.cu
// and kernels/nearfar_solve.cu as one source with the layout prelude and kernels/common.cuh in front (warp_append, block_exclusive_scan, owner_of, warp sums come from
// there). One cooperative launch of nf_solve_{vertex,balanced} runs phases until the solve ends or
// the phase budget set by nf_resume is spent (stepping: a budget of one phase per launch).
//
// The method: near / far piles split by a moving threshold T (Davidson, Baxter, Garland, Owens,
// IPDPS 2014, as Gunrock keeps it); T jumps over empty buckets to the far pile's minimum (ADDS,
// PPoPP 2021); the whole loop in one persistent kernel with a software grid barrier (Galois GPU
// sssp); small phases run by block 0 alone with block barriers only (GAP's bucket fusion brought to
// one SM). Label-correcting: every decrease is queued, so the fixpoint is the exact δ.
//
// δ and the stamp of the phase that last lowered it share a 64-bit word (δ in the high half), so
// the atomicMin that lowers δ(u) also says whether u was already near-appended in this phase.

#define NF_BLOCK 1024
// Arcs per lane in flight in the balanced expansion (loads, then atomics); A/B via SSSP_NF_DEFINES:
// 4 against 2 took Kronecker 21 from 4.43 to 4.17 ms, uniform 21 even (gpu-peers-2026-11-27/stage).
#ifndef NF_BAL_U
#define NF_BAL_U 4
#endif
// Balanced relax only: a near item whose stamp is the running phase's was lowered in this phase
// after it was queued and sits in the next near list already, which expands it with a δ at least
// as low, so it is left to that phase (Kronecker 21: 2.71 -> 2.15 arcs scanned per arc). Not on
// the vertex path: a road vertex's few arcs are cheap to scan twice, while leaving it to the next
// phase delays its wave by a phase (NY 10.06 -> 10.50 ms with it, gpu-peers-2026-11-27/adapt).
// 0 for A/B runs.
#ifndef NF_SKIP
#define NF_SKIP 1
#endif
// Balanced expansion: thread t takes NF_BAL_U consecutive arcs of the block's batch (one binary
// search, then a step to the next owner) instead of arcs t, t + blockDim, … (one search per arc).
#ifndef NF_CONTIG
#define NF_CONTIG 1
#endif
// Near items per block and pass: an even share of the phase (a multiple of 32, at most the block)
// instead of a whole block's worth. On uniform 21 a phase of 35 k items filled 35 of 132 blocks,
// each scanning 33 k arcs alone while the rest waited at the grid barrier. 0 for A/B runs.
#ifndef NF_ADAPT
#define NF_ADAPT 1
#endif
// Solo stretches keep the near lists in block 0's shared memory (the stage's arrays, idle then):
// a solo phase reads its list from there and appends the next one there, so a road phase's chain
// loses the L2 round trip of the list entry. Items past NF_SQ spill to the global list at the same
// index; the list goes out to global memory when the stretch ends. 0 for A/B runs.
#ifndef NF_SOLOQ
#define NF_SOLOQ 1
#endif
#define NF_SQ 4096
// Arcs per lane and step on the vertex path: a warp steps through its largest degree, so with 4 a
// single vertex of degree 5–8 in a warp costs the whole warp a second dependent chain.
#ifndef NF_VU
#define NF_VU 4
#endif
// Vertex path: a lane's U outcomes are appended in one warp reservation per pile (a scan of the
// lanes' counts) instead of U ballot-reserve rounds: NY 8.17 -> 5.92 ms, lux 11.4 -> 9.1, 4096²
// grid 132 -> 116 (a solo phase's body 8 400 -> 5 800 cycles; gpu-peers-2026-11-27/soloq). 0: A/B.
#ifndef NF_VEMIT
#define NF_VEMIT 1
#endif
// Vertex path: read δ(u) before the atomicMin and skip it when nd is not lower. It saves atomics
// but puts a dependent L2 round trip into every phase: without it NY 5.92 -> 5.56 ms, lux 9.10 ->
// 8.38, the grid 116 -> 111 (same call). 1 for A/B runs.
#ifndef NF_PRECHECK
#define NF_PRECHECK 0
#endif
// Cycle counters of block 0's solo phases (body, schedule, phases, stretches) in the control
// block's spare words 40–43; the host prints them with SSSP_NF_PROF=1. 0 outside measurements.
#ifndef NF_PROF
#define NF_PROF 0
#endif
// Vertex path, fast path only (not when stepping): a solo relax phase whose near list fits NF_SQ
// drains its bucket asynchronously instead: the list becomes a ring in shared memory that every
// warp pops from and pushes its near appends onto, until no vertex below T is left in flight. A
// vertex is relaxed as soon as it is pushed instead of after the next block barrier (GAP's bucket
// fusion without the rounds; ADDS's worklist brought into one SM). A/B.
#ifndef NF_ASYNC
#define NF_ASYNC 0
#endif
#define NF_EMPTY 0xFFFFFFFFu
// Nanoseconds a block waiting at the grid barrier sleeps between polls of the generation word:
// during a road's solo stretch 131 blocks poll one L2 line while block 0 works. A/B.
#ifndef NF_BAR_SLEEP
#define NF_BAR_SLEEP 32
#endif
// Vertex path: row offsets and arcs read through L2 only (ld.global.cg) instead of the read-only
// L1 path; a road phase touches each line once, so L1 may only add latency. A/B.
#ifndef NF_LDCG
#define NF_LDCG 0
#endif
#if NF_LDCG
#define NF_LDG_V(x) __ldcg(x)
#else
#define NF_LDG_V(x) __ldg(x)
#endif
// Adaptive Δ (ADDS, Wang et al., PPoPP 2021, grows its bucket width while the GPU has too little
// work): when a bucket's relax phases averaged fewer than NF_AD_LO arcs, the next bucket is twice
// as wide (up to delta_max); above NF_AD_HI it halves (down to delta_min). A solo phase costs
// ~3 000 cycles before its first arc, so on roads more arcs per phase is nearly free until the
// redundant relaxations of a wider bucket catch up. Against the fixed Δ, 4 sources each (H100,
// gpu-peers-2026-11-27/soloq c4): lux 8.60 -> 5.49 ms, NY 5.49 -> 5.28; with 512 / 4096 NY grew
// to Δ ×8 and scanned 4.8 arcs per arc (5.79 ms); 256 / 1024, 384 / 768, 1024 / 2048 within 2 %.
#ifndef NF_AD_LO
#define NF_AD_LO 512
#endif
#ifndef NF_AD_HI
#define NF_AD_HI 1024
#endif
#define NF_PIECE 4096
#define NF_INF 0xFFFFFFFFu
#define NF_NOHUB 0xFFFFFFFFu
#define NF_RELAX 0u
#define NF_SPLIT 1u
#define NF_DONE 2u
#define NF_PAUSE 3u

// The next phase as every block reads it after a grid barrier (two 16-byte loads).
struct __align__(16) NfSnap { u32 kind, solo, cur, fsel, T, stamp, n_in, n_p; };

// Control block (44 u32 words; the host's word indices are in src/device/cuda/nearfar.rs and
// checked below). Words 0–3 are the grid barrier's and never copied; the releaser of a barrier
// schedules on a private copy, block 0 on a shared-memory copy during a solo stretch.
struct __align__(16) NfCtl {
    u32 bar_count, bar_gen, pad0, pad1;
    NfSnap snap;
    u32 kind, solo, decided, cur, fsel;
    u32 near_count[2], piece_count[2], far_count[2];
    u32 far_min, far_min_next;
    u32 T, delta, stamp, overflow;
    u32 solo_work, solo_far, avg16;
    u32 started, budget, logged;          // phases scheduled (the seed's is 1), last one allowed, logged
    u32 ph_arcs, ph_impr;                 // the running phase's arcs scanned and δ decreases
    u32 rec_items, rec_pieces, rec_far;   // the running phase's near list, hub pieces, far pile
    u32 prof_body, prof_sched, prof_phases, prof_stretches; // NF_PROF only
    u32 b_arcs, b_phases;                 // the running bucket's relax phases and their arcs
    u32 delta_max, delta_min;             // Δ's range (host-set; equal: Δ stays fixed)
};
#define NF_CTL_WORDS ((u32)(sizeof(NfCtl) / 4))
static_assert(sizeof(NfCtl) == 48 * 4, "NfCtl: 48 words (host: NF_C_WORDS)");
static_assert(NF_C_WORDS == 48 && NF_C_DELTA_MIN == 47 && NF_L_DELTA == 8, "NfCtl and the log as layout.rs says");
// Words the host reads or writes (src/device/cuda/nearfar.rs): snap 4–11, kind 12, overflow 28,
// started 32, logged 34, the Δ range 46–47 (NVRTC has no offsetof; the order of the fields above
// fixes them).

struct NfParams {
    const u32 *rowptr;
    const uint2 *arcs; // (head, weight)
    u64 *dist;
    u32 *near0, *near1;
    uint2 *pieces0, *pieces1, *far0, *far1;
    NfCtl *ctl;
    u32 *log; // NF_LOG_WORDS per phase: kind, solo, near items, pieces, far pile, T, arcs, decreases, Δ
    u32 n, piece_cap, far_cap, hub_deg, log_cap;
};

// Warp reductions of u32: one redux.sync on sm_80 and later instead of five dependent shuffle
// rounds (a road phase's chain is made of these), shuffles before.
__device__ __forceinline__ u32 nf_warp_min(u32 x) {
#if __CUDA_ARCH__ >= 800
    return __reduce_min_sync(FULL_MASK, x);
#else
    return (u32)warp_min64((u64)x);
#endif
}
__device__ __forceinline__ u32 nf_warp_max(u32 x) {
#if __CUDA_ARCH__ >= 800
    return __reduce_max_sync(FULL_MASK, x);
#else
    return warp_max32(x);
#endif
}
__device__ __forceinline__ u32 nf_warp_sum(u32 x) {
#if __CUDA_ARCH__ >= 800
    return __reduce_add_sync(FULL_MASK, x);
#else
    return (u32)warp_sum64((u64)x);
#endif
}

// A grid phase's appends are staged per block in shared memory and flushed with one global
// atomicAdd per pile and per flush (issue 30: on uniform 21 at Δ = ½ w̄ most warps of a relax
// phase append, and one global atomicAdd per warp and append on the same pile counter, plus an
// atomicMin on the far minimum, serialised every block on three words). Solo phases append
// straight into their shared control block. A warp that finds the stage full appends globally.
#ifndef NF_STAGE
#define NF_STAGE 1 // 0: grid phases append globally per warp, as before the stage (A/B runs:
                   // SSSP_NF_DEFINES="NF_STAGE=0", src/device/cuda/nearfar.rs)
#endif
#define NF_SN 4096 // staged near items per block
#define NF_SF 2048 // staged far entries per block
struct NfStage {
    u32 nn, nf, fmin, base_n, base_f, arcs, impr;
    u32 near[NF_SN];
    uint2 far[NF_SF];
};

// Where a phase's appends go: the near list `out`, far pile `fsel` and its minimum `*fmin` (the
// control block's `far_min` in a relax phase, `far_min_next` in a split), through stage `st` when
// it is not null; the first NF_SQ near items into shared `sq` when it is not null (solo phases).
// Block 0's ring of a bucket drained asynchronously (NF_ASYNC): NF_SQ slots of vertices or
// NF_EMPTY; [head, tail) reserved, `pending` vertices pushed and not yet relaxed. Shared memory,
// touched only by atomics (a writer fills an empty slot, a reader empties a full one).
struct NfRing {
    u32 head, tail, pending;
    u32 *slot;
};

struct NfDest {
    NfStage *st;
    u32 *sq;
    NfRing *ring; // near appends go here first (NF_ASYNC drains), or null
    u32 out, fsel;
    u32 *fmin;
};

// Reserves `cnt` slots for the warp's takers (mask): the first `fit` in the stage from `*sbase`,
// the rest in the global pile through `gcount`. Returns this lane's slot and whether it is staged.
__device__ __forceinline__ u32 nf_reserve(u32 mask, bool take, u32 *scount, u32 cap, u32 *gcount, bool &staged) {
    const u32 lane = lane_id(), leader = __ffs(mask) - 1, cnt = __popc(mask);
    const u32 rank = __popc(mask & ((1u << lane) - 1u));
    u32 sb = cap;
    if (scount != nullptr && lane == leader) sb = atomicAdd(scount, cnt);
    sb = __shfl_sync(FULL_MASK, sb, leader);
    const u32 fit = sb < cap ? min(cnt, cap - sb) : 0u;
    u32 gb = 0;
    if (fit < cnt && lane == leader) gb = atomicAdd(gcount, cnt - fit);
    gb = __shfl_sync(FULL_MASK, gb, leader);
    staged = take && rank < fit;
    return staged ? sb + rank : gb + (rank - fit);
}

// Appends one lane's outcome (every lane of the warp calls it): near list d.out (a hub as pieces
// of NF_PIECE arcs) or far pile d.fsel as (u, nd) with its minimum into *d.fmin. `c` is the global
// control block (grid phases, d.st = the block's stage) or block 0's shared copy (solo phases).
__device__ __forceinline__ void nf_emit(const NfParams &p, NfCtl *c, const NfDest &d, bool near_take, bool far_take,
                                        u32 u, u32 nd) {
    bool hub = false;
    if (near_take && p.hub_deg != NF_NOHUB) {
        const u32 b = __ldg(&p.rowptr[u]), e = __ldg(&p.rowptr[u + 1]);
        if (e - b > p.hub_deg) {
            hub = true;
            const u32 np = (e - b + NF_PIECE - 1) / NF_PIECE;
            const u32 base = atomicAdd(&c->piece_count[d.out], np);
            uint2 *pl = d.out ? p.pieces1 : p.pieces0;
            if (base + np <= p.piece_cap) {
                for (u32 k = 0; k < np; ++k) pl[base + k] = make_uint2(u, b + k * NF_PIECE);
            } else {
                atomicExch(&c->overflow, 1u);
            }
        }
    }
    const bool nt = near_take && !hub;
    const u32 nmask = __ballot_sync(FULL_MASK, nt);
    if (nmask) {
        bool staged;
        const u32 i = nf_reserve(nmask, nt, d.st ? &d.st->nn : nullptr, NF_SN, &c->near_count[d.out], staged);
        if (staged) d.st->near[i] = u;
        else if (nt && d.sq != nullptr && i < NF_SQ) d.sq[i] = u;
        else if (nt) (d.out ? p.near1 : p.near0)[i] = u;
    }
    const u32 fmask = __ballot_sync(FULL_MASK, far_take);
    if (fmask) {
        bool staged;
        const u32 i = nf_reserve(fmask, far_take, d.st ? &d.st->nf : nullptr, NF_SF, &c->far_count[d.fsel], staged);
        const u32 m = nf_warp_min(far_take ? nd : NF_INF);
        if (lane_id() == __ffs(fmask) - 1) atomicMin(d.st ? &d.st->fmin : d.fmin, m);
        if (staged) {
            d.st->far[i] = make_uint2(u, nd);
        } else if (far_take) {
            if (i < p.far_cap) (d.fsel ? p.far1 : p.far0)[i] = make_uint2(u, nd);
            else atomicExch(&c->overflow, 1u);
        }
    }
}

// Writes the block's stage out (one atomicAdd per pile, one atomicMin) and empties it; with
// `counts`, also adds the phase counters it gathered. Every thread of the block calls it.
__device__ void nf_flush(const NfParams &p, NfCtl *c, const NfDest &d, bool counts) {
    NfStage *st = d.st;
    __syncthreads();
    const u32 nn = min(st->nn, (u32)NF_SN), nf = min(st->nf, (u32)NF_SF);
    if (threadIdx.x == 0) {
        st->base_n = nn ? atomicAdd(&c->near_count[d.out], nn) : 0u;
        st->base_f = nf ? atomicAdd(&c->far_count[d.fsel], nf) : 0u;
        if (st->fmin != NF_INF) atomicMin(d.fmin, st->fmin);
        if (counts) {
            if (st->arcs) atomicAdd(&c->ph_arcs, st->arcs);
            if (st->impr) atomicAdd(&c->ph_impr, st->impr);
        }
    }
    __syncthreads();
    u32 *nl = d.out ? p.near1 : p.near0;
    for (u32 i = threadIdx.x; i < nn; i += blockDim.x) nl[st->base_n + i] = st->near[i];
    uint2 *fl = d.fsel ? p.far1 : p.far0;
    for (u32 i = threadIdx.x; i < nf; i += blockDim.x) {
        const u32 k = st->base_f + i;
        if (k < p.far_cap) fl[k] = st->far[i];
        else atomicExch(&c->overflow, 1u);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        st->nn = 0;
        st->nf = 0;
        st->fmin = NF_INF;
        if (counts) {
            st->arcs = 0;
            st->impr = 0;
        }
    }
    __syncthreads();
}

// A block-uniform point of a grid phase: flushes the stage once it is half full. Thread 0 alone
// reads the counts and the barrier hands its decision to every thread.
__device__ __forceinline__ void nf_maybe_flush(const NfParams &p, NfCtl *c, const NfDest &d) {
    if (d.st == nullptr) return; // solo: no stage (the same for every thread)
    const bool full = __syncthreads_or(threadIdx.x == 0 && (d.st->nn > NF_SN / 2 || d.st->nf > NF_SF / 2));
    if (full) nf_flush(p, c, d, false);
}

// U arcs per lane at once: all loads, then all atomics, then the appends, so a lane has U requests
// in flight instead of one dependent chain.
template <int U>
__device__ __forceinline__ void nf_relax_batch(const NfParams &p, NfCtl *c, const NfDest &dst, const NfSnap &s,
                                               const bool *ok, const u32 *e, const u32 *d, u32 &arcs, u32 &impr) {
    u32 uu[U], nd[U];
    u64 cd[U], old[U];
#pragma unroll
    for (int j = 0; j < U; ++j) {
        uu[j] = 0;
        nd[j] = 0;
        if (ok[j]) {
            const uint2 a = __ldg(&p.arcs[e[j]]);
            uu[j] = a.x;
            nd[j] = d[j] + a.y;
        }
    }
#pragma unroll
    for (int j = 0; j < U; ++j) cd[j] = ok[j] ? __ldcg(&p.dist[uu[j]]) : 0ull;
#pragma unroll
    for (int j = 0; j < U; ++j) {
        old[j] = 0ull;
        if (ok[j] && nd[j] < (u32)(cd[j] >> 32)) old[j] = atomicMin(&p.dist[uu[j]], ((u64)nd[j] << 32) | s.stamp);
    }
#pragma unroll
    for (int j = 0; j < U; ++j) {
        const u32 od = (u32)(old[j] >> 32);
        const bool imp = ok[j] && nd[j] < od;
        const bool again = (u32)old[j] == s.stamp && od < s.T; // already near-appended in this phase
        nf_emit(p, c, dst, imp && nd[j] < s.T && !again, imp && nd[j] >= s.T, uu[j], nd[j]);
        arcs += ok[j] ? 1u : 0u;
        impr += imp ? 1u : 0u;
    }
}
// sssp-lab: near-far, the vertex path (roads, grids: one thread per vertex) and its asynchronous
// bucket drain. The second of three parts the host compiles as one source, in this order:
// kernels/nearfar.cu (switches, types, appends), this file, kernels/nearfar_solve.cu (phases,
// scheduler, the persistent kernel); src/device/cuda/nearfar.rs `SRC`.

// Reserves `cnt` slots for the warp (lane 0 asks): the first `fit` in the stage from `sb` (when
// `scount` is not null), the rest in the global pile from `gb`. Every lane gets the same three.
__device__ __forceinline__ void nf_reserve_n(u32 cnt, u32 *scount, u32 cap, u32 *gcount, u32 &sb, u32 &fit,
                                             u32 &gb) {
    u32 a = cap, g = 0;
    if (lane_id() == 0) {
        if (scount != nullptr) a = atomicAdd(scount, cnt);
        const u32 f = a < cap ? min(cnt, cap - a) : 0u;
        if (f < cnt) g = atomicAdd(gcount, cnt - f);
    }
    sb = __shfl_sync(FULL_MASK, a, 0);
    gb = __shfl_sync(FULL_MASK, g, 0);
    fit = sb < cap ? min(cnt, cap - sb) : 0u;
}

// Reserves k ring slots for one warp's pushes (lane 0) and counts them as pending; NF_INF when
// the ring would wrap onto slots not yet reserved for reading (the pushes then spill to the near
// list of the next phase).
__device__ __forceinline__ u32 nf_ring_reserve(NfRing *r, u32 k) {
    while (true) {
        const u32 t = atomicAdd(&r->tail, 0u), h = atomicAdd(&r->head, 0u);
        if (t + k - h > NF_SQ) return NF_INF;
        if (atomicCAS(&r->tail, t, t + k) == t) {
            atomicAdd(&r->pending, k);
            return t;
        }
    }
}

// The vertex path's appends: bit j of `nbits` / `fbits` says arc j's head uu[j] goes to the near
// list / far pile (with nd[j]). One scan of the lanes' packed counts (near | far << 16), one
// reservation per pile. No hubs here: a graph with a hub takes the balanced kernel.
template <int U>
__device__ __forceinline__ void nf_emit_vertex(const NfParams &p, NfCtl *c, const NfDest &d, u32 nbits, u32 fbits,
                                               const u32 *uu, const u32 *nd) {
    const u32 mine = (u32)__popc(nbits) | ((u32)__popc(fbits) << 16);
    if (!__any_sync(FULL_MASK, mine != 0)) return;
    const u32 lane = lane_id();
    u32 x = mine;
#pragma unroll
    for (u32 o = 1; o < 32; o <<= 1) {
        const u32 y = __shfl_up_sync(FULL_MASK, x, o);
        if (lane >= o) x += y;
    }
    const u32 tot = __shfl_sync(FULL_MASK, x, 31), ex = x - mine;
    bool ringed = false;
    if ((tot & 0xFFFFu) && d.ring != nullptr) {
        u32 rb = NF_INF;
        if (lane == 0) rb = nf_ring_reserve(d.ring, tot & 0xFFFFu);
        rb = __shfl_sync(FULL_MASK, rb, 0);
        ringed = rb != NF_INF;
        u32 o = ex & 0xFFFFu;
#pragma unroll
        for (int j = 0; j < U; ++j) {
            if (!ringed || !((nbits >> j) & 1u)) continue;
            u32 *sl = &d.ring->slot[(rb + o) & (NF_SQ - 1u)];
            while (atomicCAS(sl, NF_EMPTY, uu[j]) != NF_EMPTY) {
            }
            ++o;
        }
    }
    if ((tot & 0xFFFFu) && !ringed) {
        u32 sb, fit, gb;
        nf_reserve_n(tot & 0xFFFFu, d.st ? &d.st->nn : nullptr, NF_SN, &c->near_count[d.out], sb, fit, gb);
        u32 *gl = d.out ? p.near1 : p.near0;
        u32 o = ex & 0xFFFFu;
#pragma unroll
        for (int j = 0; j < U; ++j) {
            if (!((nbits >> j) & 1u)) continue;
            if (o < fit) {
                d.st->near[sb + o] = uu[j];
            } else {
                const u32 i = gb + (o - fit);
                if (d.sq != nullptr && i < NF_SQ) d.sq[i] = uu[j];
                else gl[i] = uu[j];
            }
            ++o;
        }
    }
    if (tot >> 16) {
        u32 sb, fit, gb;
        nf_reserve_n(tot >> 16, d.st ? &d.st->nf : nullptr, NF_SF, &c->far_count[d.fsel], sb, fit, gb);
        u32 m = NF_INF;
#pragma unroll
        for (int j = 0; j < U; ++j)
            if ((fbits >> j) & 1u) m = min(m, nd[j]);
        m = nf_warp_min(m);
        if (lane == 0) atomicMin(d.st ? &d.st->fmin : d.fmin, m);
        uint2 *fl = d.fsel ? p.far1 : p.far0;
        u32 o = ex >> 16;
#pragma unroll
        for (int j = 0; j < U; ++j) {
            if (!((fbits >> j) & 1u)) continue;
            if (o < fit) {
                d.st->far[sb + o] = make_uint2(uu[j], nd[j]);
            } else {
                const u32 i = gb + (o - fit);
                if (i < p.far_cap) fl[i] = make_uint2(uu[j], nd[j]);
                else atomicExch(&c->overflow, 1u);
            }
            ++o;
        }
    }
}

// Arcs k .. k+U of a vertex (first arc b, `deg` arcs, δ d) on the vertex path: loads, atomics,
// then one aggregated append for the warp.
template <int U>
__device__ __forceinline__ void nf_relax_vertex(const NfParams &p, NfCtl *c, const NfDest &dst, const NfSnap &s,
                                                u32 b, u32 deg, u32 d, u32 k, u32 &arcs, u32 &impr) {
    u32 uu[U], nd[U];
    u64 old[U];
#pragma unroll
    for (int j = 0; j < U; ++j) {
        uu[j] = 0;
        nd[j] = 0;
        if (k + j < deg) {
            const uint2 a = NF_LDG_V(&p.arcs[b + k + j]);
            uu[j] = a.x;
            nd[j] = d + a.y;
        }
    }
#if NF_PRECHECK
    u32 cd[U];
#pragma unroll
    for (int j = 0; j < U; ++j) cd[j] = k + j < deg ? (u32)(__ldcg(&p.dist[uu[j]]) >> 32) : 0u;
#endif
#pragma unroll
    for (int j = 0; j < U; ++j) {
        old[j] = 0ull;
#if NF_PRECHECK
        const bool go = k + j < deg && nd[j] < cd[j];
#else
        const bool go = k + j < deg;
#endif
        if (go) old[j] = atomicMin(&p.dist[uu[j]], ((u64)nd[j] << 32) | s.stamp);
    }
    u32 nbits = 0, fbits = 0;
#pragma unroll
    for (int j = 0; j < U; ++j) {
        const u32 od = (u32)(old[j] >> 32);
        const bool imp = k + j < deg && nd[j] < od;
        const bool again = (u32)old[j] == s.stamp && od < s.T; // already near-appended in this phase
        if (imp && nd[j] < s.T && !again) nbits |= 1u << j;
        if (imp && nd[j] >= s.T) fbits |= 1u << j;
        arcs += k + j < deg ? 1u : 0u;
        impr += imp ? 1u : 0u;
    }
    nf_emit_vertex<U>(p, c, dst, nbits, fbits, uu, nd);
}

// An asynchronous drain of the bucket below s.T (NF_ASYNC; block 0, vertex path): each warp takes
// up to 32 ring slots, clears the stamps of their vertices (atomicAnd: a later decrease pushes the
// vertex again) and relaxes their arcs, pushing near heads back onto the ring. Ends when the ring
// is empty and nothing is pending.
template <int U>
__device__ void nf_drain(const NfParams &p, NfCtl *c, const NfDest &dst, const NfSnap &s, u32 &arcs, u32 &impr) {
    NfRing *r = dst.ring;
    const u32 lane = lane_id();
    while (true) {
        u32 base = 0, k = 0;
        if (lane == 0) {
            while (true) {
                const u32 h = atomicAdd(&r->head, 0u), t = atomicAdd(&r->tail, 0u);
                if (h < t) {
                    k = min(32u, t - h);
                    if (atomicCAS(&r->head, h, h + k) == h) {
                        base = h;
                        break;
                    }
                    continue;
                }
                if (atomicAdd(&r->pending, 0u) == 0u) {
                    k = NF_INF;
                    break;
                }
                __nanosleep(32);
            }
        }
        k = __shfl_sync(FULL_MASK, k, 0);
        base = __shfl_sync(FULL_MASK, base, 0);
        if (k == NF_INF) break;
        const bool valid = lane < k;
        u32 v = 0, d = 0, b = 0, deg = 0;
        if (valid) {
            u32 *sl = &r->slot[(base + lane) & (NF_SQ - 1u)];
            do {
                v = atomicExch(sl, NF_EMPTY);
            } while (v == NF_EMPTY);
            d = (u32)(atomicAnd(&p.dist[v], 0xFFFFFFFF00000000ull) >> 32);
            b = NF_LDG_V(&p.rowptr[v]);
            deg = NF_LDG_V(&p.rowptr[v + 1]) - b;
        }
        const u32 most = nf_warp_max(deg);
        for (u32 kk = 0; kk < most; kk += U) nf_relax_vertex<U>(p, c, dst, s, b, deg, d, kk, arcs, impr);
        if (lane == 0) atomicSub(&r->pending, k);
    }
}
// sssp-lab: near-far, the phases, the scheduler and the persistent kernel. The last of three
// parts compiled as one source: kernels/nearfar.cu, kernels/nearfar_vertex.cu, this file
// (src/device/cuda/nearfar.rs `SRC`).

// The owner of arc i among pos[lo..count) (exclusive prefix sums; pos[lo] <= i): the next vertex
// with arcs is usually pos[lo] itself, so one look before the binary search.
__device__ __forceinline__ u32 owner_in(const u32 *pos, u32 lo, u32 count, u32 i) {
    if (lo + 1 >= count || pos[lo + 1] > i) return lo;
    u32 hi = count - 1;
    ++lo;
    while (lo < hi) {
        const u32 mid = (lo + hi + 1) >> 1;
        if (pos[mid] <= i) lo = mid; else hi = mid - 1;
    }
    return lo;
}

// A relax phase over the near list and hub pieces of s.cur, split over `nw` workers (blocks).
// `sq_in`: the first NF_SQ items of the near list in shared memory (solo phases), or null.
template <bool BAL>
__device__ void nf_relax_phase(const NfParams &p, NfCtl *c, const NfDest &dst, const NfSnap &s, const u32 *sq_in,
                               u32 worker, u32 nw, u32 &arcs, u32 &impr) {
    const u32 n_in = s.n_in, n_p = s.n_p;
    const u32 *in = s.cur ? p.near1 : p.near0;
    const uint2 *pin = s.cur ? p.pieces1 : p.pieces0;
    const u32 tid = threadIdx.x;
    const u32 share = ((n_in + nw - 1) / nw + 31u) & ~31u;
    const u32 per = NF_ADAPT && share < blockDim.x ? share : blockDim.x; // items per block and pass
    const u32 stride = nw * per;
    if (!BAL && dst.ring != nullptr) {
        nf_drain<NF_VU>(p, c, dst, s, arcs, impr);
    } else if (!BAL) {
        for (u32 base = worker * per; base < n_in; base += stride) {
            const u32 i = base + tid;
            const bool valid = tid < per && i < n_in;
            const u32 v = !valid ? 0u : sq_in != nullptr && i < NF_SQ ? sq_in[i] : __ldcg(&in[i]);
            const u32 d = valid ? (u32)(__ldcg(&p.dist[v]) >> 32) : 0;
            const u32 b = valid ? NF_LDG_V(&p.rowptr[v]) : 0;
            const u32 deg = valid ? NF_LDG_V(&p.rowptr[v + 1]) - b : 0;
            const u32 most = nf_warp_max(deg);
#if NF_VEMIT
            for (u32 k = 0; k < most; k += NF_VU) nf_relax_vertex<NF_VU>(p, c, dst, s, b, deg, d, k, arcs, impr);
#else
            for (u32 k = 0; k < most; k += NF_VU) {
                bool ok[NF_VU];
                u32 e[NF_VU], dd[NF_VU];
#pragma unroll
                for (int j = 0; j < NF_VU; ++j) {
                    ok[j] = k + j < deg;
                    e[j] = b + k + j;
                    dd[j] = d;
                }
                nf_relax_batch<NF_VU>(p, c, dst, s, ok, e, dd, arcs, impr);
            }
#endif
            nf_maybe_flush(p, c, dst);
        }
    } else {
        __shared__ u32 s_pos[NF_BLOCK], s_beg[NF_BLOCK], s_d[NF_BLOCK];
        for (u32 base = worker * per; base < n_in; base += stride) {
            const u32 i = base + tid;
            const bool valid = tid < per && i < n_in;
            const u32 v = !valid ? 0u : sq_in != nullptr && i < NF_SQ ? sq_in[i] : __ldcg(&in[i]);
            const u64 w = valid ? __ldcg(&p.dist[v]) : 0ull;
            const bool live = valid && !(NF_SKIP && (u32)w == s.stamp);
            const u32 d = (u32)(w >> 32);
            const u32 b = live ? __ldg(&p.rowptr[v]) : 0;
            const u32 deg = live ? __ldg(&p.rowptr[v + 1]) - b : 0;
            u32 total = 0;
            const u32 pos = block_exclusive_scan(deg, total);
            s_pos[tid] = pos;
            s_beg[tid] = b;
            s_d[tid] = d;
            __syncthreads();
            for (u32 jb = 0; jb < total; jb += NF_BAL_U * blockDim.x) {
                bool ok[NF_BAL_U];
                u32 e[NF_BAL_U], dd[NF_BAL_U];
#if NF_CONTIG
                const u32 j0 = jb + tid * NF_BAL_U;
                u32 k = j0 < total ? owner_of(s_pos, blockDim.x, j0) : 0u;
                u32 k_end = k + 1 < blockDim.x ? s_pos[k + 1] : total; // first arc past k's
#endif
#pragma unroll
                for (int q = 0; q < NF_BAL_U; ++q) {
#if NF_CONTIG
                    const u32 j = j0 + q;
#else
                    const u32 j = jb + q * blockDim.x + tid;
#endif
                    ok[q] = j < total;
                    e[q] = 0;
                    dd[q] = 0;
                    if (ok[q]) {
#if NF_CONTIG
                        if (j >= k_end) { // the next owner: k + 1 unless vertices without arcs follow
                            k = owner_in(s_pos, k + 1, blockDim.x, j);
                            k_end = k + 1 < blockDim.x ? s_pos[k + 1] : total;
                        }
#else
                        const u32 k = owner_of(s_pos, blockDim.x, j);
#endif
                        e[q] = s_beg[k] + (j - s_pos[k]);
                        dd[q] = s_d[k];
                    }
                }
                nf_relax_batch<NF_BAL_U>(p, c, dst, s, ok, e, dd, arcs, impr);
            }
            // also keeps s_pos until every thread is done with this chunk
            if (dst.st != nullptr) nf_maybe_flush(p, c, dst);
            else __syncthreads();
        }
    }
    for (u32 pc_i = worker; pc_i < n_p; pc_i += nw) {
        const uint2 pc = __ldcg(&pin[pc_i]);
        const u32 v = pc.x, b = pc.y;
#if NF_SKIP
        // block-uniform: thread 0 alone reads the stamp (another block may lower δ(v) meanwhile)
        if (__syncthreads_or(threadIdx.x == 0 && (u32)__ldcg(&p.dist[v]) == s.stamp)) continue;
#endif
        const u32 end0 = __ldg(&p.rowptr[v + 1]);
        const u32 e_end = b + NF_PIECE < end0 ? b + NF_PIECE : end0;
        const u32 d = (u32)(__ldcg(&p.dist[v]) >> 32);
        for (u32 eb = b; eb < e_end; eb += 2 * blockDim.x) {
            bool ok[2];
            u32 e[2], dd[2];
#pragma unroll
            for (int q = 0; q < 2; ++q) {
                e[q] = eb + q * blockDim.x + tid;
                ok[q] = e[q] < e_end;
                dd[q] = d;
            }
            nf_relax_batch<2>(p, c, dst, s, ok, e, dd, arcs, impr);
        }
        nf_maybe_flush(p, c, dst);
    }
}

// A split phase: far[s.fsel] → near list (d < T) or far[s.fsel ^ 1]; stale entries (δ(u) ≠ d: a
// newer entry or a near append exists) are dropped, so a live entry is unique per vertex.
__device__ void nf_split_phase(const NfParams &p, NfCtl *c, const NfDest &dst, const NfSnap &s, u32 worker, u32 nw) {
    const u32 cnt = s.n_in < p.far_cap ? s.n_in : p.far_cap;
    const uint2 *src = s.fsel ? p.far1 : p.far0;
    const u32 tid = threadIdx.x, stride = nw * blockDim.x;
    for (u32 base = worker * blockDim.x; base < cnt; base += stride) {
        const u32 i = base + tid;
        const bool ok = i < cnt;
        uint2 en = make_uint2(0, 0);
        if (ok) en = __ldcg(&src[i]);
        const bool live = ok && (u32)(__ldcg(&p.dist[en.x]) >> 32) == en.y;
        nf_emit(p, c, dst, live && en.y < s.T, live && en.y >= s.T, en.x, en.y);
        nf_maybe_flush(p, c, dst);
    }
}

// At a bucket's end: the next bucket's Δ from the arcs per relax phase of the one that ended.
__device__ __forceinline__ void nf_adapt_delta(NfCtl &c) {
    if (c.b_phases > 0) {
        const u32 avg = c.b_arcs / c.b_phases;
        if (avg < NF_AD_LO && c.delta <= c.delta_max / 2u) c.delta *= 2u;
        else if (avg > NF_AD_HI && c.delta / 2u >= c.delta_min) c.delta /= 2u;
    }
    c.b_arcs = 0;
    c.b_phases = 0;
}

// Logs the phase just done and decides the next from its counts. One thread, on a private or
// shared copy of the control block; every write of the phase is visible.
__device__ void nf_schedule(const NfParams &p, NfCtl &c) {
    if (c.logged < p.log_cap) {
        u32 *r = p.log + (u64)c.logged * NF_LOG_WORDS;
        r[0] = c.kind;
        r[1] = c.solo;
        r[2] = c.rec_items;
        r[3] = c.rec_pieces;
        r[4] = c.rec_far;
        r[5] = c.T;
        r[6] = c.ph_arcs;
        r[7] = c.ph_impr;
        r[8] = c.delta;
    }
    c.logged++;
    if (c.kind == NF_RELAX) {
        c.b_arcs = c.b_arcs + c.ph_arcs < c.b_arcs ? 0xFFFFFFFFu : c.b_arcs + c.ph_arcs;
        c.b_phases++;
    }
    c.ph_arcs = 0;
    c.ph_impr = 0;
    const u32 out = c.cur ^ 1u;
    if (c.kind == NF_SPLIT) {
        c.fsel ^= 1u;
        c.far_min = c.far_min_next;
    }
    const u32 nn = c.near_count[out], np = c.piece_count[out], nf = c.far_count[c.fsel];
    if (c.overflow) {
        c.kind = NF_DONE;
    } else if (nn + np > 0) {
        c.kind = NF_RELAX;
        c.cur = out;
        c.near_count[out ^ 1u] = 0;
        c.piece_count[out ^ 1u] = 0;
        c.solo = ((u64)nn * c.avg16 / 16u + (u64)np * NF_PIECE) <= (u64)c.solo_work;
        c.rec_items = nn;
        c.rec_pieces = np;
        c.rec_far = nf;
    } else if (nf > 0) {
        c.kind = NF_SPLIT;
        nf_adapt_delta(c);
        const u32 dl = c.delta;
        const u64 jump = ((u64)(c.far_min / dl) + 1u) * dl;
        const u64 step = (u64)c.T + dl;
        const u64 t = jump > step ? jump : step;
        c.T = t > 0xFFFFFFFFull ? 0xFFFFFFFFu : (u32)t;
        c.far_count[c.fsel ^ 1u] = 0;
        c.far_min_next = NF_INF;
        c.near_count[out] = 0;
        c.piece_count[out] = 0;
        c.solo = nf <= c.solo_far;
        c.rec_items = 0;
        c.rec_pieces = 0;
        c.rec_far = nf;
    } else {
        c.kind = NF_DONE;
    }
    c.stamp++;
    if (c.kind != NF_DONE) c.started++;
}

// The published form of the next phase; NF_PAUSE once the phase budget is spent. Only a barrier's
// releaser (or nf_resume) writes it: a block still reading the previous one must never see a newer.
__device__ __forceinline__ NfSnap nf_make_snap(const NfCtl &c) {
    NfSnap n;
    n.kind = c.kind != NF_DONE && c.started > c.budget ? NF_PAUSE : c.kind;
    n.solo = c.solo;
    n.cur = c.cur;
    n.fsel = c.fsel;
    n.T = c.T;
    n.stamp = c.stamp;
    n.n_in = c.kind == NF_RELAX ? c.near_count[c.cur] : c.far_count[c.fsel];
    n.n_p = c.kind == NF_RELAX ? c.piece_count[c.cur] : 0u;
    return n;
}

__device__ __forceinline__ NfSnap nf_load_snap(const NfCtl *g) {
    const uint4 *q = reinterpret_cast<const uint4 *>(&g->snap);
    const uint4 a = __ldcg(q), b = __ldcg(q + 1);
    NfSnap s;
    s.kind = a.x; s.solo = a.y; s.cur = a.z; s.fsel = a.w;
    s.T = b.x; s.stamp = b.y; s.n_in = b.z; s.n_p = b.w;
    return s;
}

// Adds the block's per-thread phase counters to c (one atomic per warp and counter), or to the
// block's stage when it has one (one atomic per block, at its last flush).
__device__ __forceinline__ void nf_count(NfCtl *c, NfStage *st, u32 &arcs, u32 &impr) {
    const u32 a = nf_warp_sum(arcs), m = nf_warp_sum(impr);
    if (lane_id() == 0) {
        if (a) atomicAdd(st ? &st->arcs : &c->ph_arcs, a);
        if (m) atomicAdd(st ? &st->impr : &c->ph_impr, m);
    }
    arcs = 0;
    impr = 0;
}

// One phase on `nw` workers; `st` is the block's stage in a grid phase, null in a solo phase;
// `sq_in` / `sq_out`: the shared near lists of a solo stretch (input, output), or null.
template <bool BAL>
__device__ __forceinline__ void nf_run_phase(const NfParams &p, NfCtl *c, NfStage *st, const NfSnap &s, u32 worker,
                                             u32 nw, const u32 *sq_in = nullptr, u32 *sq_out = nullptr,
                                             NfRing *ring = nullptr) {
    u32 arcs = 0, impr = 0;
    NfDest d;
    d.st = st;
    d.sq = sq_out;
    d.ring = s.kind == NF_RELAX ? ring : nullptr;
    d.out = s.cur ^ 1u;
    if (s.kind == NF_RELAX) {
        d.fsel = s.fsel;
        d.fmin = &c->far_min;
        nf_relax_phase<BAL>(p, c, d, s, sq_in, worker, nw, arcs, impr);
    } else {
        d.fsel = s.fsel ^ 1u;
        d.fmin = &c->far_min_next;
        nf_split_phase(p, c, d, s, worker, nw);
    }
    nf_count(c, st, arcs, impr);
    if (st != nullptr) nf_flush(p, c, d, true);
}

// The solve (or its next `budget` phases): one cooperative launch. While a phase is small, block 0
// runs phases alone on a shared-memory copy of the control block and the other blocks wait at the
// grid barrier; the barrier's releaser schedules grid phases on a private copy.
template <bool BAL>
__device__ void nf_solve(const NfParams p) {
    __shared__ NfCtl s_ctl;
    __shared__ NfStage s_stage;
    __shared__ NfRing s_ring;
    u32 *gw = reinterpret_cast<u32 *>(p.ctl);
    u32 *sw = reinterpret_cast<u32 *>(&s_ctl);
    if (threadIdx.x == 0) {
        s_stage.nn = 0;
        s_stage.nf = 0;
        s_stage.fmin = NF_INF;
        s_stage.arcs = 0;
        s_stage.impr = 0;
    }
    __syncthreads();
    while (true) {
        const NfSnap s = nf_load_snap(p.ctl);
        if (s.kind == NF_DONE || s.kind == NF_PAUSE) break;
        if (s.solo) {
            if (blockIdx.x == 0) {
                if (threadIdx.x >= 4 && threadIdx.x < NF_CTL_WORDS) sw[threadIdx.x] = __ldcg(&gw[threadIdx.x]);
                __syncthreads();
                // the stage is empty between grid phases, so its arrays hold the stretch's lists
                u32 *const sq[2] = {s_stage.near, reinterpret_cast<u32 *>(s_stage.far)};
                bool in_sh = false; // the running phase's near list is in sq (written by this stretch)
#if NF_PROF
                if (threadIdx.x == 0) s_ctl.prof_stretches++;
#endif
                while (true) {
                    const NfSnap t = s_ctl.snap;
#if NF_PROF
                    const long long c0 = clock64();
#endif
                    // the fast path's small vertex-path relax phases drain their bucket at once
                    const bool drain = NF_ASYNC && NF_SOLOQ && !BAL && t.kind == NF_RELAX && t.n_p == 0 &&
                                       t.n_in <= NF_SQ && s_ctl.budget == 0xFFFFFFFFu;
                    if (drain) {
                        u32 *ring = sq[t.cur];
                        const u32 *gin = t.cur ? p.near1 : p.near0;
                        for (u32 i = threadIdx.x; i < NF_SQ; i += blockDim.x) {
                            if (i >= t.n_in) ring[i] = NF_EMPTY;
                            else if (!in_sh) ring[i] = __ldcg(&gin[i]);
                        }
                        if (threadIdx.x == 0) {
                            s_ring.head = 0;
                            s_ring.tail = t.n_in;
                            s_ring.pending = t.n_in;
                            s_ring.slot = ring;
                        }
                        __syncthreads();
                    }
                    nf_run_phase<BAL>(p, &s_ctl, nullptr, t, 0, 1, in_sh ? sq[t.cur] : nullptr,
                                      NF_SOLOQ ? sq[t.cur ^ 1u] : nullptr, drain ? &s_ring : nullptr);
                    __syncthreads();
#if NF_PROF
                    const long long c1 = clock64();
#endif
                    if (threadIdx.x == 0) {
                        nf_schedule(p, s_ctl);
                        s_ctl.snap = nf_make_snap(s_ctl);
                    }
                    __syncthreads();
#if NF_PROF
                    if (threadIdx.x == 0) {
                        s_ctl.prof_body += (u32)(c1 - c0);
                        s_ctl.prof_sched += (u32)(clock64() - c1);
                        s_ctl.prof_phases++;
                    }
#endif
                    in_sh = NF_SOLOQ;
                    if (s_ctl.snap.kind != NF_RELAX && s_ctl.snap.kind != NF_SPLIT) break;
                    if (!s_ctl.solo) break;
                }
                // The next near list leaves shared memory: a grid phase or the next launch reads it.
                if (in_sh && s_ctl.kind == NF_RELAX) {
                    const u32 cur = s_ctl.cur, cnt = min(s_ctl.near_count[cur], (u32)NF_SQ);
                    u32 *gl = cur ? p.near1 : p.near0;
                    for (u32 i = threadIdx.x; i < cnt; i += blockDim.x) gl[i] = sq[cur][i];
                }
                if (threadIdx.x == 0) s_ctl.decided = 1;
                __syncthreads();
                // words 4–11 (the snapshot) stay: slower blocks may still be reading it
                if (threadIdx.x >= 12 && threadIdx.x < NF_CTL_WORDS) __stcg(&gw[threadIdx.x], sw[threadIdx.x]);
            }
        } else {
            nf_run_phase<BAL>(p, p.ctl, NF_STAGE ? &s_stage : nullptr, s, blockIdx.x, gridDim.x);
        }
        grid_sync_then(
            p.ctl,
            [&] {
                NfCtl l;
                const uint4 *g4 = reinterpret_cast<const uint4 *>(p.ctl);
                uint4 *l4 = reinterpret_cast<uint4 *>(&l);
#pragma unroll
                for (u32 k = 1; k < NF_CTL_WORDS / 4; ++k) l4[k] = __ldcg(&g4[k]);
                if (l.decided) l.decided = 0;
                else nf_schedule(p, l);
                l.snap = nf_make_snap(l);
                uint4 *w4 = reinterpret_cast<uint4 *>(p.ctl);
#pragma unroll
                for (u32 k = 1; k < NF_CTL_WORDS / 4; ++k) __stcg(&w4[k], l4[k]);
            },
            NF_BAR_SLEEP);
    }
}

#define NF_PARAMS_DECL                                                                                              \
    const u32 *rowptr, const uint2 *arcs, u64 *dist, u32 *near0, u32 *near1, uint2 *pieces0, uint2 *pieces1,      \
        uint2 *far0, uint2 *far1, NfCtl *ctl, u32 *log, u32 n, u32 piece_cap, u32 far_cap, u32 hub_deg, u32 log_cap
#define NF_PARAMS_INIT                                                                                              \
    NfParams p;                                                                                                     \
    p.rowptr = rowptr; p.arcs = arcs; p.dist = dist; p.near0 = near0; p.near1 = near1; p.pieces0 = pieces0;        \
    p.pieces1 = pieces1; p.far0 = far0; p.far1 = far1; p.ctl = ctl; p.log = log; p.n = n;                          \
    p.piece_cap = piece_cap; p.far_cap = far_cap; p.hub_deg = hub_deg; p.log_cap = log_cap;

// One thread per vertex: low-degree graphs (roads, grids), four arcs per step.
extern "C" __global__ void __launch_bounds__(NF_BLOCK, 1) nf_solve_vertex(NF_PARAMS_DECL) {
    NF_PARAMS_INIT
    nf_solve<false>(p);
}

// Block-balanced expansion (maximum degree > 32), hubs of more than NF_PIECE arcs as pieces.
extern "C" __global__ void __launch_bounds__(NF_BLOCK, 1) nf_solve_balanced(NF_PARAMS_DECL) {
    NF_PARAMS_INIT
    nf_solve<true>(p);
}

// Allows `count` more phases (saturating) and publishes the next one. One thread, before a launch.
extern "C" __global__ void nf_resume(NfCtl *ctl, u32 count) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    NfCtl &c = *ctl;
    const u64 b = (u64)c.started - 1u + count;
    c.budget = b > 0xFFFFFFFFull ? 0xFFFFFFFFu : (u32)b;
    c.snap = nf_make_snap(c);
}
