// sssp-lab: vertex-parallel frontier SSSP kernels, one thread per vertex, three kernels per
// iteration (relax, minimum, update) exactly as the papers launch them. Used for stepping and for
// the instrumented (counting) mode, whose figures must equal the CPU model's.
//
// Launched from: src/device/cuda/solver.rs (module `sssp_lab::device::cuda`), compiled at run time
// by NVRTC with kernels/common.cuh prepended.
//
// Paper sections (docs/references.md [seed000], [seed004], [cuda-reduction]):
// - relax (successors, atomicMin; Alg. 2 left) and update (Alg. 2 right): seed 000 §3.2;
//   Martín's update test and the predecessors variant (relax_U, pull, no atomics): seed 000 §3.3,
//   seed 004 §3 and §4 (Fig. 3, Fig. 4).
// - minimum: seed 004 §4 Fig. 4 right (minimum1: each block reduces 2·blockDim values, min taken
//   during the load as in the CUDA SDK's reduce4) plus a second pass (minimum2, seed 004 §4.1)
//   over the per-block minima, on the GPU. Both Martín's min δ and Crauser's min δ + ω (seed 000
//   §3.1) are computed so the records can show both thresholds.
// - Instrumented mode (template INSTR = true) counts, per relax launch, the working threads, the
//   warp classes (all-dummy / mixed / all-working via __ballot_sync + __popc), arcs scanned,
//   relaxations attempted, the lane use of the successors relax (C_ARC_ITERS / C_WARP_ITERS), and
//   (in minimum1) reached and improved vertices.
// - relax_succ_bal: the successors relax with the block's frontier arcs spread over its threads
//   (relax=balanced, issue 11 item 3; load balancing as in [terms-peers]).

template <typename D>
__device__ __forceinline__ void init_k(u32 n, D *dist, u32 *stamp, u32 source) {
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) {
        dist[v] = v == source ? (D)0 : Inf<D>::v();
        stamp[v] = v == source ? 1u : UNSET;
    }
}

// Successors (relax_succ_k, with the racy variant's relax_arc) are in kernels/common.cuh.

// relax=balanced (successors): the block's frontier arcs spread over its threads by the balanced
// advance of kernels/common.cuh (as the persistent kernel of kernels/fast.cu does), so a hub's
// arcs are spread over the whole block instead of one lane. The same relaxations as relax_succ_k.
template <typename D, bool INSTR>
__device__ __forceinline__ void relax_succ_bal_k(u32 n, const u32 *__restrict__ off, const u32 *__restrict__ tgt,
                                                 const u32 *__restrict__ wgt, D *dist, const u32 *stamp, u32 iter,
                                                 u64 *ctr) {
    __shared__ u32 s_pos[1024], s_beg[1024];
    __shared__ D s_dv[1024];
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    const bool work = v < n && stamp[v] == iter;
    s_dv[threadIdx.x] = work ? dist[v] : (D)0;
    const u32 total = balanced_begin(work ? off[v] : 0, work ? off[v + 1] - off[v] : 0, s_pos, s_beg);
    u64 scanned = 0, attempted = 0;
    for (u32 i = threadIdx.x; i < total; i += blockDim.x) {
        u32 k;
        const u32 e = balanced_arc(s_pos, s_beg, blockDim.x, i, k);
        relax_arc<D, INSTR, false>(tgt[e], e, s_dv[k], wgt, dist, stamp, scanned, attempted, 0);
    }
    if (INSTR) {
        count_relax(work, scanned, attempted, 0, ctr);
        count_balanced<u64>(total, &ctr[C_ARC_ITERS], &ctr[C_WARP_ITERS]);
    }
}

// Predecessors: unsettled thread u pulls min δ(p) + w over its frontier in-neighbours p. Only
// thread u writes δ(u): no atomics.
template <typename D, bool INSTR>
__device__ __forceinline__ void relax_pred_k(u32 n, const u32 *__restrict__ poff, const u32 *__restrict__ psrc,
                                             const u32 *__restrict__ pwgt, D *dist, const u32 *stamp, u32 iter,
                                             u64 *ctr) {
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    const bool work = v < n && stamp[v] == UNSET;
    u64 scanned = 0, attempted = 0;
    if (work) {
        const D old = dist[v];
        D best = old;
        const u32 beg = poff[v], end = poff[v + 1];
        if (INSTR) scanned = end - beg;
        for (u32 e = beg; e < end; ++e) {
            const u32 p = psrc[e];
            if (stamp[p] == iter) {
                if (INSTR) ++attempted;
                const D nd = dist[p] + (D)pwgt[e];
                best = nd < best ? nd : best;
            }
        }
        if (best < old) dist[v] = best;
    }
    if (INSTR) count_relax(work, scanned, attempted, 0, ctr);
}

// minimum1: block b reduces vertices [2·B·b, 2·B·(b+1)) (two per thread, min taken on load),
// writing min δ and min δ + ω over U to part_m[b], part_c[b]. INSTR also counts reached
// (U ∧ δ < ∞) and improved (U ∧ δ < δ before the relax, from the snapshot `prev`).
template <typename D, bool INSTR>
__device__ __forceinline__ void min1_k(u32 n, const D *dist, const D *prev, const u32 *stamp,
                                       const D *__restrict__ omega, u64 *part_m, u64 *part_c, u64 *ctr) {
    u64 m = INF64, c = INF64, reached = 0, improved = 0;
    const u32 base = blockIdx.x * (2 * blockDim.x) + threadIdx.x;
#pragma unroll
    for (int k = 0; k < 2; ++k) {
        const u32 v = base + k * blockDim.x;
        if (v < n && stamp[v] == UNSET) {
            const D d = dist[v];
            if (d != Inf<D>::v()) {
                m = umin64(m, (u64)d);
                const D om = omega[v];
                if (om != Inf<D>::v()) c = umin64(c, (u64)d + (u64)om);
                if (INSTR) ++reached;
            }
            if (INSTR && d < prev[v]) ++improved;
        }
    }
    if (INSTR) {
        reached = warp_sum64(reached);
        improved = warp_sum64(improved);
        if (lane_id() == 0) {
            if (reached) atomicAdd(&ctr[C_REACHED], reached);
            if (improved) atomicAdd(&ctr[C_IMPROVED], improved);
        }
    }
    block_min2(m, c);
    if (threadIdx.x == 0) {
        part_m[blockIdx.x] = m;
        part_c[blockIdx.x] = c;
    }
}

// update: settle U ∩ {δ ≤ Δ} (δ < ∞) into F_{i+1}. Δ is read from out[2] (written by minimum2),
// so no host round trip is needed between the minimum and the update.
template <typename D, bool INSTR>
__device__ __forceinline__ void update_k(u32 n, const D *dist, u32 *stamp, u32 iter, const u64 *out, u64 *ctr) {
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    const u64 delta = out[2];
    bool settle = false;
    if (v < n && stamp[v] == UNSET) {
        const D d = dist[v];
        settle = d != Inf<D>::v() && (u64)d <= delta;
        if (settle) stamp[v] = iter + 1;
    }
    if (INSTR) {
        const u32 ballot = __ballot_sync(FULL_MASK, settle);
        if (lane_id() == 0 && ballot) atomicAdd(&ctr[C_NEXT_FRONTIER], (u64)__popc(ballot));
    }
}

// minimum2: one block reduces the per-block minima; out = [Δ_martin, Δ_crauser, Δ used].
extern "C" __global__ void sssp_min2(u32 parts, const u64 *part_m, const u64 *part_c, u32 crauser, u64 *out) {
    u64 m = INF64, c = INF64;
    for (u32 i = threadIdx.x; i < parts; i += blockDim.x) {
        m = umin64(m, part_m[i]);
        c = umin64(c, part_c[i]);
    }
    block_min2(m, c);
    if (threadIdx.x == 0) {
        if (m == INF64) c = INF64; // nothing reached is left: both policies stop
        out[0] = m;
        out[1] = c;
        out[2] = m == INF64 ? INF64 : (crauser ? umax64(c, m) : m);
    }
}

// The entry points of one width: each kernel plain and instrumented (SSSP_PAIR, common.cuh).
#define SSSP_VP_PARAMS(D)                                                                                        \
    (u32 n, const u32 *__restrict__ off, const u32 *__restrict__ tgt, const u32 *__restrict__ wgt, D *dist,      \
     const u32 *stamp, u32 iter, u64 *ctr)
#define SSSP_VP_KERNELS(D, S)                                                                                     \
    extern "C" __global__ void sssp_init_##S(u32 n, D *dist, u32 *stamp, u32 source) {                           \
        init_k<D>(n, dist, stamp, source);                                                                        \
    }                                                                                                             \
    SSSP_PAIR(D, S, relax_succ, relax_succ_instr, relax_succ_vp, SSSP_VP_PARAMS(D), (n, off, tgt, wgt, dist, stamp, iter, ctr))     \
    SSSP_PAIR(D, S, relax_succ_bal, relax_succ_bal_instr, relax_succ_bal_k, SSSP_VP_PARAMS(D), (n, off, tgt, wgt, dist, stamp, iter, ctr)) \
    SSSP_PAIR(D, S, relax_pred, relax_pred_instr, relax_pred_k, SSSP_VP_PARAMS(D), (n, off, tgt, wgt, dist, stamp, iter, ctr))     \
    SSSP_PAIR(D, S, min1, min1_instr, min1_k,                                                                                 \
              (u32 n, const D *dist, const D *prev, const u32 *stamp, const D *__restrict__ omega, u64 *part_m,   \
               u64 *part_c, u64 *ctr),                                                                            \
              (n, dist, prev, stamp, omega, part_m, part_c, ctr))                                                 \
    SSSP_PAIR(D, S, update, update_instr, update_k, (u32 n, const D *dist, u32 *stamp, u32 iter, const u64 *out, u64 *ctr),     \
              (n, dist, stamp, iter, out, ctr))

// relax_succ is relax_succ_k with atomicMin.
template <typename D, bool INSTR>
__device__ __forceinline__ void relax_succ_vp(u32 n, const u32 *__restrict__ off, const u32 *__restrict__ tgt,
                                              const u32 *__restrict__ wgt, D *dist, const u32 *stamp, u32 iter,
                                              u64 *ctr) {
    relax_succ_k<D, INSTR, false>(n, off, tgt, wgt, dist, stamp, iter, ctr, 0);
}

SSSP_VP_KERNELS(u32, u32)
SSSP_VP_KERNELS(u64, u64)
