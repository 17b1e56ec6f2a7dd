// sssp-lab: seed 004's variant relax kernels (docs/references.md [seed004]): UGPU_PLUS (§4.2,
// `relax=cached` of the predecessors solvers) and the adjacency-matrix kernels (§5,
// `layout=matrix`). Minimum and update are the list kernels of kernels/frontier.cu: they only
// touch per-vertex arrays. Compiled apart from the other files, so an error here leaves the
// ordinary solvers usable and is reported when a variant asks.
//
// Launched from: src/device/cuda/solver/launch.rs (module `sssp_lab::device::cuda`), compiled by
// NVRTC with kernels/common.cuh prepended.
//
// UGPU_PLUS: thread v's row bounds poff[v], poff[v+1] are its neighbour's too, so the block
// stages its blockDim + 1 offsets in shared memory once (the last thread of the block, or of the
// graph, brings two); the frontier test reads the stamps, and the arcs, through the read-only
// data cache (__ldg: the texture cache of the paper's GTX 280). The same relaxations as
// relax_pred_k of kernels/frontier.cu; no counting variant.
//
// Adjacency matrices:
// The matrix holds one u32 weight per ordered pair, NO_ARC where there is none (parallel arcs
// keep the lightest). The paper does not say how it stores it; we store it so that the 32
// threads of a warp read 32 consecutive words:
// - predecessors (UGPU): thread v scans column v, W[p·n + v] = w(p → v); consecutive v, consecutive words;
// - successors (FGPU): thread f scans row f through the transpose, WT[j·n + f] = w(f → j).
// Threads cooperate as §5 describes: the scan goes in chunks of blockDim vertices, and before a
// chunk each thread brings one vertex's frontier flag and δ (predecessors) or unsettled flag
// (successors) into shared memory, so the inner loop reads them from there. A chunk with no
// vertex of interest is skipped by the whole block (__syncthreads_or), and a block with no
// working thread returns at once.

#define NO_ARC 0xFFFFFFFFu

template <typename D>
__device__ __forceinline__ void relax_pred_plus_k(u32 n, const u32 *__restrict__ poff, const u32 *__restrict__ psrc,
                                                  const u32 *__restrict__ pwgt, D *dist, const u32 *stamp,
                                                  u32 iter) {
    __shared__ u32 s_off[1025];
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) {
        s_off[threadIdx.x] = poff[v];
        if (threadIdx.x == blockDim.x - 1 || v == n - 1) s_off[threadIdx.x + 1] = poff[v + 1];
    }
    __syncthreads();
    if (v < n && stamp[v] == UNSET) {
        const D old = dist[v];
        D best = old;
        const u32 end = s_off[threadIdx.x + 1];
        for (u32 e = s_off[threadIdx.x]; e < end; ++e) {
            const u32 p = __ldg(&psrc[e]);
            if (__ldg(&stamp[p]) == iter) {
                const D nd = dist[p] + (D)__ldg(&pwgt[e]);
                best = nd < best ? nd : best;
            }
        }
        if (best < old) dist[v] = best;
    }
}

// Predecessors: unsettled thread v pulls min δ(p) + w(p, v) over frontier p. Only thread v writes
// δ(v); the δ it reads are frontier (settled) vertices', which nobody writes: no atomics.
template <typename D>
__device__ __forceinline__ void relax_pred_mat_k(u32 n, const u32 *__restrict__ w, D *dist, const u32 *stamp,
                                                 u32 iter) {
    __shared__ u32 s_f[1024];
    __shared__ D s_c[1024];
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    const bool work = v < n && stamp[v] == UNSET;
    if (!__syncthreads_or(work)) return;
    const D old = work ? dist[v] : Inf<D>::v();
    D best = old;
    for (u32 base = 0; base < n; base += blockDim.x) {
        const u32 p = base + threadIdx.x;
        const bool f = p < n && stamp[p] == iter;
        s_f[threadIdx.x] = f;
        s_c[threadIdx.x] = f ? dist[p] : (D)0;
        if (__syncthreads_or(f) && work) {
            const u32 lim = min(blockDim.x, n - base);
            for (u32 k = 0; k < lim; ++k) {
                if (s_f[k]) {
                    const u32 wk = w[(u64)(base + k) * n + v];
                    if (wk != NO_ARC) {
                        const D nd = s_c[k] + (D)wk;
                        best = nd < best ? nd : best;
                    }
                }
            }
        }
        __syncthreads();
    }
    if (work && best < old) dist[v] = best;
}

// Successors: frontier thread f pushes δ(f) + w(f, j) to unsettled j; ATOMIC = false is
// FGPU_no_Atomic (the paper's measuring variant, without the racy list kernel's spin).
template <typename D, bool ATOMIC>
__device__ __forceinline__ void relax_succ_mat_k(u32 n, const u32 *__restrict__ wt, D *dist, const u32 *stamp,
                                                 u32 iter) {
    __shared__ u32 s_u[1024];
    const u32 f = blockIdx.x * blockDim.x + threadIdx.x;
    const bool work = f < n && stamp[f] == iter;
    if (!__syncthreads_or(work)) return;
    const D df = work ? dist[f] : (D)0;
    for (u32 base = 0; base < n; base += blockDim.x) {
        const u32 j = base + threadIdx.x;
        const bool u = j < n && stamp[j] == UNSET;
        s_u[threadIdx.x] = u;
        if (__syncthreads_or(u) && work) {
            const u32 lim = min(blockDim.x, n - base);
            for (u32 k = 0; k < lim; ++k) {
                if (s_u[k]) {
                    const u32 wk = wt[(u64)(base + k) * n + f];
                    if (wk != NO_ARC) {
                        const D nd = df + (D)wk;
                        if (ATOMIC) {
                            atomicMin(&dist[base + k], nd);
                        } else if (nd < dist[base + k]) {
                            dist[base + k] = nd;
                        }
                    }
                }
            }
        }
        __syncthreads();
    }
}

#define SSSP_SEED004_KERNELS(D, S)                                                                                 \
    extern "C" __global__ void relax_pred_plus_##S(u32 n, const u32 *__restrict__ off,                           \
                                                   const u32 *__restrict__ src, const u32 *__restrict__ wgt,      \
                                                   D *dist, const u32 *stamp, u32 iter, u64 *ctr) {               \
        relax_pred_plus_k<D>(n, off, src, wgt, dist, stamp, iter);                                                \
    }                                                                                                             \
    extern "C" __global__ void relax_pred_mat_##S(u32 n, const u32 *__restrict__ w, D *dist, const u32 *stamp,   \
                                                  u32 iter) {                                                     \
        relax_pred_mat_k<D>(n, w, dist, stamp, iter);                                                             \
    }                                                                                                             \
    extern "C" __global__ void relax_succ_mat_##S(u32 n, const u32 *__restrict__ wt, D *dist, const u32 *stamp,  \
                                                  u32 iter) {                                                     \
        relax_succ_mat_k<D, true>(n, wt, dist, stamp, iter);                                                      \
    }                                                                                                             \
    extern "C" __global__ void relax_succ_mat_racy_##S(u32 n, const u32 *__restrict__ wt, D *dist,               \
                                                       const u32 *stamp, u32 iter) {                              \
        relax_succ_mat_k<D, false>(n, wt, dist, stamp, iter);                                                     \
    }

SSSP_SEED004_KERNELS(u32, u32)
SSSP_SEED004_KERNELS(u64, u64)
