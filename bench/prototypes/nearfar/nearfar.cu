// nearfar.cu — standalone prototype for issue 30 item 1: a near-far / Δ-bucket SSSP solver that runs a
// whole solve inside ONE persistent cooperative kernel (device-side worklists, no host round trip),
// with phases run by block 0 alone while the worklist is small ("solo") and grid-wide phases when it
// is large, warp-aggregated appends, and balanced arc expansion (block-level degree scan; hubs split
// into fixed-size arc pieces when they are appended). Distances are checked against a host Dijkstra.
//
// What it takes from whom (see README.md and docs/gpu-worklist.md for the full citations):
// * near / far piles, the far pile split by a moving threshold T += Δ, stale far entries dropped:
//   Davidson, Baxter, Garland, Owens, "Work-efficient parallel GPU methods for single-source shortest
//   paths", IPDPS 2014 (and Gunrock's SSSP, which keeps that near/far priority queue).
// * skipping empty buckets by jumping T to the far pile's minimum; Δ as a multiple of the mean weight
//   (the paper's idea, not its code, which we did not find public): ADDS, Wang, Fussell, Lin, "A fast
//   work-efficient SSSP algorithm for GPUs", PPoPP 2021 (docs/references.md [adds]).
// * a near/far worklist solve inside one persistent kernel with a software grid barrier, warp-level
//   and block-level expansion by degree: Galois lonestar/analytics/gpu/sssp/sssp.cu (gg_main_pipe_1_gpu_gb).
// * bucket fusion — keep relaxing the current bucket without a global barrier while it is small:
//   GAP sssp.cc (sbeamer/gapbs src/sssp.cc, kBinSizeThreshold, Zhang et al. CGO 2020); here the
//   "no global barrier" part is block 0 running the phase alone with __syncthreads.
// * grid barrier, solo mode, warp_append, block_exclusive_scan, owner_of: this repository's
//   kernels/fast.cu and kernels/common.cuh (copied, because this file must build on its own).
//
// Build: ./build.sh (nvcc -O3 -arch=sm_90). Run: ./nearfar GRAPH [options], GRAPH = file.gr[.gz] |
// file.wel | file.wsg | grid:W (W×W 4-neighbour grid, weights 1..1000 from splitmix64(seed ^ edge)).

#ifndef __CUDACC_RTC__ // NVRTC syntax checks see the device part only
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <queue>
#include <algorithm>
#include <chrono>
#include <thread>
#include <cuda_runtime.h>
#endif

typedef unsigned int u32;
typedef unsigned long long u64;

#define FULL_MASK 0xFFFFFFFFu
#define INF32 0xFFFFFFFFu
#define NOHUB 0xFFFFFFFFu
#define BLOCK 1024

enum { K_RELAX = 0, K_SPLIT = 1, K_DONE = 2 };

// The step every block runs after a grid barrier: written by the barrier's releaser (or by block 0
// at the end of a solo stretch), read with two 16-byte loads by every thread.
struct __align__(16) Snap { u32 kind, solo, cur, fsel, T, stamp, n_in, n_p; };

// Control block. Words 0–3 belong to the grid barrier and are never copied; the rest is loaded into
// a local copy by the releaser (grid steps) or into shared memory by block 0 (solo steps), so the
// scheduler runs on registers / shared memory instead of a chain of volatile L2 accesses.
struct __align__(16) Ctl {
    u32 bar_count, bar_gen, pad0, pad1;
    Snap snap;
    u32 kind, solo, decided, cur, fsel; // the next step (working copy); decided: solo already scheduled
    u32 near_count[2], piece_count[2], far_count[2];
    u32 far_min, far_min_next; // minimum d pushed into far[fsel] (and into far[fsel ^ 1] by a split)
    u32 T, delta, stamp, overflow;
    u32 solo_work, solo_far, avg16; // solo: ≤ solo_work arcs (estimated, mean degree × 16 = avg16) / ≤ solo_far entries
    u32 relax_steps, split_steps, solo_steps, grid_steps;
    u32 max_near, trace_len;
    u64 solo_ns, grid_ns, arcs;
};
#define CTL_WORDS ((u32)(sizeof(Ctl) / 4))
static_assert(sizeof(Ctl) % 16 == 0, "Ctl is copied in 16-byte pieces");

struct StepRec { u32 kind, solo, items, T; };

struct Params {
    const u32 *rowptr;
    const uint2 *arcs; // (head, weight)
    u64 *dist; // δ in the high 32 bits; the low 32 bits: the stamp of the step that last lowered it
    u32 *near0, *near1;
    uint2 *pieces0, *pieces1, *far0, *far1;
    Ctl *ctl;
    StepRec *trace;
    u32 n, piece_cap, far_cap, hub_deg, piece, trace_cap;
};

#ifndef GPP_CHECK // g++ -fsyntax-only of the host part skips the device part
// ---------------------------------------------------------------- device helpers (from common.cuh)
#include "device_util.cuh"

// Grid barrier for a cooperative launch (kernels/fast.cu grid_sync_then): the last block to arrive
// runs `reset` before the others go on.
template <typename Reset>
__device__ __forceinline__ void grid_sync_then(Ctl *ctl, Reset reset) {
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
            while (*gen == g) __nanosleep(32);
        }
        __threadfence();
    }
    __syncthreads();
}

// ---------------------------------------------------------------- the solver's step pieces
// Appends one lane's outcome; every lane of the warp calls it. near_take: near list `out` (hubs as
// pieces of `piece` arcs); far_take: far pile `fsel` as (u, nd), its minimum into *fmin. `c` is the
// global control block (grid steps) or block 0's shared copy (solo steps): the counters' atomics
// work on either through the generic address.
__device__ __forceinline__ void emit(const Params &p, Ctl *c, bool near_take, bool far_take, u32 u, u32 nd,
                                     u32 out, u32 fsel, u32 *fmin) {
    bool hub = false;
    if (near_take && p.hub_deg != NOHUB) {
        const u32 b = __ldg(&p.rowptr[u]), e = __ldg(&p.rowptr[u + 1]);
        if (e - b > p.hub_deg) {
            hub = true;
            const u32 np = (e - b + p.piece - 1) / p.piece;
            const u32 base = atomicAdd(&c->piece_count[out], np);
            uint2 *pl = out ? p.pieces1 : p.pieces0;
            if (base + np <= p.piece_cap) {
                for (u32 k = 0; k < np; ++k) pl[base + k] = make_uint2(u, b + k * p.piece);
            } else {
                atomicExch(&c->overflow, 1u);
            }
        }
    }
    warp_append(near_take && !hub, u, out ? p.near1 : p.near0, &c->near_count[out]);
    const u32 mask = __ballot_sync(FULL_MASK, far_take);
    if (mask) {
        const u32 lane = lane_id(), leader = __ffs(mask) - 1;
        u32 base = 0;
        if (lane == leader) base = atomicAdd(&c->far_count[fsel], (u32)__popc(mask));
        base = __shfl_sync(FULL_MASK, base, leader);
        const u32 m = warp_min32(far_take ? nd : INF32);
        if (lane == leader) atomicMin(fmin, m);
        if (far_take) {
            const u32 idx = base + __popc(mask & ((1u << lane) - 1u));
            if (idx < p.far_cap) (fsel ? p.far1 : p.far0)[idx] = make_uint2(u, nd);
            else atomicExch(&c->overflow, 1u);
        }
    }
}

// U arcs per lane at once (arc e[j] of a vertex at distance d[j], where ok[j]): all loads, then all
// atomics, then the appends, so a lane has U memory requests in flight instead of one dependent
// chain. δ and the step stamp share one 64-bit word, so the atomicMin that lowers δ(u) also tells
// whether u already went to the near list in this step (no second atomic for deduplication).
template <int U>
__device__ __forceinline__ void relax_batch(const Params &p, Ctl *c, const Snap &s, const bool *ok, const u32 *e,
                                            const u32 *d, u64 &arcs) {
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
    const u32 out = s.cur ^ 1u;
#pragma unroll
    for (int j = 0; j < U; ++j) {
        const u32 od = (u32)(old[j] >> 32);
        const bool imp = nd[j] < od;
        const bool again = (u32)old[j] == s.stamp && od < s.T; // already near-appended in this step
        emit(p, c, imp && nd[j] < s.T && !again, imp && nd[j] >= s.T, uu[j], nd[j], out, s.fsel, &c->far_min);
        arcs += ok[j] ? 1 : 0;
    }
}

// A relax step over the near list and the hub pieces of s.cur, split over `nw` workers (blocks).
template <bool BAL>
__device__ void relax_step(const Params &p, Ctl *c, const Snap &s, u32 worker, u32 nw, u64 &arcs) {
    const u32 n_in = s.n_in, n_p = s.n_p;
    const u32 *in = s.cur ? p.near1 : p.near0;
    const uint2 *pin = s.cur ? p.pieces1 : p.pieces0;
    const u32 tid = threadIdx.x, stride = nw * blockDim.x;
    if (!BAL) {
        for (u32 base = worker * blockDim.x; base < n_in; base += stride) {
            const u32 i = base + tid;
            const bool valid = i < n_in;
            const u32 v = valid ? __ldcg(&in[i]) : 0;
            const u32 d = valid ? (u32)(__ldcg(&p.dist[v]) >> 32) : 0;
            const u32 b = valid ? __ldg(&p.rowptr[v]) : 0;
            const u32 deg = valid ? __ldg(&p.rowptr[v + 1]) - b : 0;
            const u32 most = warp_max32(deg);
            for (u32 k = 0; k < most; k += 4) {
                bool ok[4];
                u32 e[4], dd[4];
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    ok[j] = k + j < deg;
                    e[j] = b + k + j;
                    dd[j] = d;
                }
                relax_batch<4>(p, c, s, ok, e, dd, arcs);
            }
        }
    } else {
        __shared__ u32 s_pos[BLOCK], s_beg[BLOCK], s_d[BLOCK];
        for (u32 base = worker * blockDim.x; base < n_in; base += stride) {
            const u32 i = base + tid;
            const bool valid = i < n_in;
            const u32 v = valid ? __ldcg(&in[i]) : 0;
            const u32 d = valid ? (u32)(__ldcg(&p.dist[v]) >> 32) : 0;
            const u32 b = valid ? __ldg(&p.rowptr[v]) : 0;
            const u32 deg = valid ? __ldg(&p.rowptr[v + 1]) - b : 0;
            u32 total = 0;
            const u32 pos = block_exclusive_scan(deg, total);
            s_pos[tid] = pos;
            s_beg[tid] = b;
            s_d[tid] = d;
            __syncthreads();
            for (u32 jb = 0; jb < total; jb += 2 * blockDim.x) {
                bool ok[2];
                u32 e[2], dd[2];
#pragma unroll
                for (int q = 0; q < 2; ++q) {
                    const u32 j = jb + q * blockDim.x + tid;
                    ok[q] = j < total;
                    e[q] = 0;
                    dd[q] = 0;
                    if (ok[q]) {
                        const u32 k = owner_of(s_pos, blockDim.x, j);
                        e[q] = s_beg[k] + (j - s_pos[k]);
                        dd[q] = s_d[k];
                    }
                }
                relax_batch<2>(p, c, s, ok, e, dd, arcs);
            }
            __syncthreads();
        }
    }
    for (u32 pc_i = worker; pc_i < n_p; pc_i += nw) {
        const uint2 pc = __ldcg(&pin[pc_i]);
        const u32 v = pc.x, b = pc.y;
        const u32 end0 = __ldg(&p.rowptr[v + 1]);
        const u32 e_end = b + p.piece < end0 ? b + p.piece : end0;
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
            relax_batch<2>(p, c, s, ok, e, dd, arcs);
        }
    }
}

// A split step: far[s.fsel] → near list (d < T) or far[s.fsel ^ 1] (kept); stale entries dropped.
// A live entry is unique per vertex (δ(u) == d), so the near appends need no deduplication.
__device__ void split_step(const Params &p, Ctl *c, const Snap &s, u32 worker, u32 nw) {
    const u32 cnt = s.n_in < p.far_cap ? s.n_in : p.far_cap;
    const uint2 *src = s.fsel ? p.far1 : p.far0;
    const u32 tid = threadIdx.x, stride = nw * blockDim.x;
    for (u32 base = worker * blockDim.x; base < cnt; base += stride) {
        const u32 i = base + tid;
        const bool ok = i < cnt;
        uint2 en = make_uint2(0, 0);
        if (ok) en = __ldcg(&src[i]);
        const bool live = ok && (u32)(__ldcg(&p.dist[en.x]) >> 32) == en.y;
        emit(p, c, live && en.y < s.T, live && en.y >= s.T, en.x, en.y, s.cur ^ 1u, s.fsel ^ 1u, &c->far_min_next);
    }
}

// Decides the next step from the counts of the step just done. One thread, on a private or shared
// copy of the control block; every write of the step is visible.
__device__ void schedule(const Params &p, Ctl &c) {
    const u32 out = c.cur ^ 1u;
    if (c.kind == K_SPLIT) {
        c.fsel ^= 1u;
        c.far_min = c.far_min_next;
    }
    const u32 nn = c.near_count[out], np = c.piece_count[out], nf = c.far_count[c.fsel];
    if (c.overflow) {
        c.kind = K_DONE;
    } else if (nn + np > 0) {
        c.kind = K_RELAX;
        c.cur = out;
        c.near_count[out ^ 1u] = 0;
        c.piece_count[out ^ 1u] = 0;
        c.solo = ((u64)nn * c.avg16 / 16u + (u64)np * p.piece) <= (u64)c.solo_work;
        c.relax_steps++;
        if (nn > c.max_near) c.max_near = nn;
    } else if (nf > 0) {
        c.kind = K_SPLIT;
        const u32 dl = c.delta;
        const u32 jump = (c.far_min / dl + 1u) * dl;
        const u32 step = c.T + dl;
        c.T = jump > step ? jump : step;
        c.far_count[c.fsel ^ 1u] = 0;
        c.far_min_next = INF32;
        c.near_count[out] = 0;
        c.piece_count[out] = 0;
        c.solo = nf <= c.solo_far;
        c.split_steps++;
    } else {
        c.kind = K_DONE;
    }
    c.stamp++;
    if (c.kind != K_DONE) {
        if (c.solo) c.solo_steps++;
        else c.grid_steps++;
        if (p.trace && c.trace_len < p.trace_cap) {
            StepRec r;
            r.kind = c.kind;
            r.solo = c.solo;
            r.items = c.kind == K_RELAX ? nn + np : nf;
            r.T = c.T;
            p.trace[c.trace_len] = r;
            c.trace_len++;
        }
    }
}

// The published form of the next step. Only the grid barrier's releaser writes it to the global
// control block: a block still reading the previous snapshot must never see a newer one.
__device__ __forceinline__ Snap make_snap(const Ctl &c) {
    Snap n;
    n.kind = c.kind;
    n.solo = c.solo;
    n.cur = c.cur;
    n.fsel = c.fsel;
    n.T = c.T;
    n.stamp = c.stamp;
    n.n_in = c.kind == K_RELAX ? c.near_count[c.cur] : c.far_count[c.fsel];
    n.n_p = c.kind == K_RELAX ? c.piece_count[c.cur] : 0u;
    return n;
}

template <bool BAL>
__device__ __forceinline__ void run_step(const Params &p, Ctl *c, const Snap &s, u32 worker, u32 nw, u64 &arcs) {
    if (s.kind == K_RELAX) relax_step<BAL>(p, c, s, worker, nw, arcs);
    else split_step(p, c, s, worker, nw);
}

__device__ __forceinline__ Snap load_snap(const Ctl *g) {
    const uint4 *q = reinterpret_cast<const uint4 *>(&g->snap);
    const uint4 a = __ldcg(q), b = __ldcg(q + 1);
    Snap s;
    s.kind = a.x; s.solo = a.y; s.cur = a.z; s.fsel = a.w;
    s.T = b.x; s.stamp = b.y; s.n_in = b.z; s.n_p = b.w;
    return s;
}

// The whole solve: one cooperative launch. While a step is small, block 0 runs steps alone on a
// shared-memory copy of the control block (block barriers only) and the other blocks wait at the
// grid barrier; the barrier's releaser schedules grid steps on a private copy.
template <bool BAL>
__global__ void __launch_bounds__(BLOCK, 1) nf_solve(Params p) {
    __shared__ Ctl s_ctl;
    u64 arcs = 0, solo_ns = 0, grid_ns = 0;
    const bool timer = blockIdx.x == 0 && threadIdx.x == 0;
    u32 *gw = reinterpret_cast<u32 *>(p.ctl);
    u32 *sw = reinterpret_cast<u32 *>(&s_ctl);
    while (true) {
        const Snap s = load_snap(p.ctl);
        if (s.kind == K_DONE) break;
        const u64 t0 = timer ? gtime() : 0;
        if (s.solo) {
            if (blockIdx.x == 0) {
                if (threadIdx.x >= 4 && threadIdx.x < CTL_WORDS) sw[threadIdx.x] = __ldcg(&gw[threadIdx.x]);
                __syncthreads();
                while (true) {
                    const u64 ts = timer ? gtime() : 0;
                    const Snap t = s_ctl.snap;
                    run_step<BAL>(p, &s_ctl, t, 0, 1, arcs);
                    __syncthreads();
                    if (threadIdx.x == 0) {
                        schedule(p, s_ctl);
                        s_ctl.snap = make_snap(s_ctl);
                    }
                    __syncthreads();
                    if (timer) solo_ns += gtime() - ts;
                    if (s_ctl.kind == K_DONE || !s_ctl.solo) break;
                }
                if (threadIdx.x == 0) s_ctl.decided = 1;
                __syncthreads();
                // words 4–11 (the snapshot) stay: slower blocks may still be reading it
                if (threadIdx.x >= 12 && threadIdx.x < CTL_WORDS) __stcg(&gw[threadIdx.x], sw[threadIdx.x]);
            }
        } else {
            run_step<BAL>(p, p.ctl, s, blockIdx.x, gridDim.x, arcs);
        }
        grid_sync_then(p.ctl, [&] {
            Ctl l;
            u32 *lw = reinterpret_cast<u32 *>(&l);
            const uint4 *g4 = reinterpret_cast<const uint4 *>(p.ctl);
            uint4 *l4 = reinterpret_cast<uint4 *>(&l);
#pragma unroll
            for (u32 k = 1; k < CTL_WORDS / 4; ++k) l4[k] = __ldcg(&g4[k]);
            if (l.decided) l.decided = 0;
            else schedule(p, l);
            l.snap = make_snap(l);
            uint4 *w4 = reinterpret_cast<uint4 *>(p.ctl);
#pragma unroll
            for (u32 k = 1; k < CTL_WORDS / 4; ++k) __stcg(&w4[k], l4[k]);
            (void)lw;
        });
        if (timer && !s.solo) grid_ns += gtime() - t0;
    }
    arcs = warp_sum64(arcs);
    if (lane_id() == 0 && arcs) atomicAdd(&p.ctl->arcs, arcs);
    if (timer) {
        p.ctl->solo_ns = solo_ns;
        p.ctl->grid_ns = grid_ns;
    }
}

__global__ void nf_init(u32 n, u64 *dist) {
    for (u32 v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) dist[v] = (u64)INF32 << 32;
}

// Resets the control block (not the barrier words) and seeds the source (a near entry, or pieces).
__global__ void nf_seed(Params p, u32 s, u32 delta, u32 solo_work, u32 solo_far, u32 avg16) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    Ctl *c = p.ctl;
    u32 *w = reinterpret_cast<u32 *>(c);
    for (u32 k = 4; k < CTL_WORDS; ++k) w[k] = 0;
    p.dist[s] = 1ull; // δ 0, stamp 1
    const u32 b = p.rowptr[s], e = p.rowptr[s + 1];
    if (p.hub_deg != NOHUB && e - b > p.hub_deg) {
        const u32 np = (e - b + p.piece - 1) / p.piece;
        for (u32 k = 0; k < np; ++k) p.pieces0[k] = make_uint2(s, b + k * p.piece);
        c->piece_count[0] = np;
    } else {
        p.near0[0] = s;
        c->near_count[0] = 1;
    }
    c->kind = K_RELAX;
    c->solo = 1;
    c->cur = 0;
    c->fsel = 0;
    c->far_min = c->far_min_next = INF32;
    c->delta = delta;
    c->T = delta;
    c->stamp = 2;
    c->solo_work = solo_work;
    c->solo_far = solo_far;
    c->avg16 = avg16;
    c->relax_steps = 1;
    c->solo_steps = 1;
    Snap n;
    n.kind = K_RELAX; n.solo = 1; n.cur = 0; n.fsel = 0; n.T = delta; n.stamp = 2;
    n.n_in = c->near_count[0]; n.n_p = c->piece_count[0];
    c->snap = n;
}

#else
template <bool BAL> void nf_solve(Params);
void nf_init(u32, u64 *);
void nf_seed(Params, u32, u32, u32, u32, u32);
#endif

#ifndef __CUDACC_RTC__
// ---------------------------------------------------------------- host
#include "graph_io.h"

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: nearfar GRAPH [--label L] [--factors 1,4,16] [--deltas 100,400] [--sources K] "
                        "[--reps R] [--solo-work ARCS] [--solo-far N] [--csv F] [--trace F] [--write-wsg F] [--only-write] [--bal 0|1]\n");
        return 1;
    }
    std::string gpath = argv[1], label = argv[1], csv_path, trace_path, wsg_path;
    std::vector<double> factors = {1, 4, 16, 64};
    std::vector<u32> deltas;
    u32 nsrc = 4, reps = 3, solo_work = 8192, solo_far = 8192;
    int bal_opt = -1;
    bool only_write = false;
    for (int i = 2; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) { fprintf(stderr, "%s needs a value\n", a.c_str()); exit(1); }
            return argv[++i];
        };
        auto list = [](const std::string &s) {
            std::vector<double> v;
            size_t p = 0;
            while (p < s.size()) {
                size_t q = s.find(',', p);
                if (q == std::string::npos) q = s.size();
                v.push_back(atof(s.substr(p, q - p).c_str()));
                p = q + 1;
            }
            return v;
        };
        if (a == "--label") label = next();
        else if (a == "--factors") factors = list(next());
        else if (a == "--deltas") { for (double x : list(next())) deltas.push_back((u32)x); }
        else if (a == "--sources") nsrc = (u32)atoi(next().c_str());
        else if (a == "--reps") reps = (u32)atoi(next().c_str());
        else if (a == "--solo-work") solo_work = (u32)atoi(next().c_str());
        else if (a == "--solo-far") solo_far = (u32)atoi(next().c_str());
        else if (a == "--csv") csv_path = next();
        else if (a == "--trace") trace_path = next();
        else if (a == "--write-wsg") wsg_path = next();
        else if (a == "--only-write") only_write = true;
        else if (a == "--bal") bal_opt = atoi(next().c_str());
        else { fprintf(stderr, "unknown option %s\n", a.c_str()); return 1; }
    }
    if (offsetof(Ctl, snap) != 16 || sizeof(Snap) != 32) {
        fprintf(stderr, "Ctl layout: words 4-11 must be the snapshot\n");
        return 2;
    }
    const auto tl0 = std::chrono::steady_clock::now();
    Graph g = load(gpath);
    const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - tl0).count();
    const u64 m = g.arcs.size();
    u32 maxdeg = 0;
    double wsum = 0;
    for (u32 v = 0; v < g.n; ++v) maxdeg = std::max(maxdeg, g.rowptr[v + 1] - g.rowptr[v]);
    for (const uint2 &a : g.arcs) wsum += a.y;
    const double wmean = m ? wsum / (double)m : 1;
    printf("graph %s: n=%u m=%llu max_degree=%u mean_weight=%.1f load=%.1fs\n", label.c_str(), g.n,
           (unsigned long long)m, maxdeg, wmean, load_s);
    if (!wsg_path.empty()) { write_wsg(g, wsg_path); printf("wrote %s\n", wsg_path.c_str()); }
    if (only_write) return 0;

    const u32 avg16 = g.n ? (u32)std::max<u64>(16, 16 * m / g.n) : 16;
    const bool bal = bal_opt >= 0 ? bal_opt != 0 : maxdeg > 32;
    const u32 piece = 4 * BLOCK;
    const u32 hub_deg = maxdeg > piece ? piece : NOHUB;
    const u32 far_cap = (u32)std::min<u64>(m + g.n + 1024, 0xF0000000ull);
    const u32 piece_cap = (u32)(2 * m / piece + 1024);

    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    Params p;
    memset(&p, 0, sizeof(p));
    u32 *d_rowptr;
    uint2 *d_arcs;
    CK(cudaMalloc(&d_rowptr, sizeof(u32) * (g.n + 1)));
    CK(cudaMalloc(&d_arcs, sizeof(uint2) * (m ? m : 1)));
    CK(cudaMemcpy(d_rowptr, g.rowptr.data(), sizeof(u32) * (g.n + 1), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_arcs, g.arcs.data(), sizeof(uint2) * m, cudaMemcpyHostToDevice));
    p.rowptr = d_rowptr;
    p.arcs = d_arcs;
    CK(cudaMalloc(&p.dist, sizeof(u64) * g.n));
    CK(cudaMalloc(&p.near0, sizeof(u32) * g.n));
    CK(cudaMalloc(&p.near1, sizeof(u32) * g.n));
    CK(cudaMalloc(&p.pieces0, sizeof(uint2) * piece_cap));
    CK(cudaMalloc(&p.pieces1, sizeof(uint2) * piece_cap));
    CK(cudaMalloc(&p.far0, sizeof(uint2) * (size_t)far_cap));
    CK(cudaMalloc(&p.far1, sizeof(uint2) * (size_t)far_cap));
    CK(cudaMalloc(&p.ctl, sizeof(Ctl)));
    CK(cudaMemset(p.ctl, 0, sizeof(Ctl)));
    p.n = g.n;
    p.piece_cap = piece_cap;
    p.far_cap = far_cap;
    p.hub_deg = hub_deg;
    p.piece = piece;
    const u32 trace_cap = 1u << 20;
    StepRec *d_trace = nullptr;
    if (!trace_path.empty()) CK(cudaMalloc(&d_trace, sizeof(StepRec) * trace_cap));
    p.trace_cap = trace_cap;

    const void *kern = bal ? (const void *)nf_solve<true> : (const void *)nf_solve<false>;
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, BLOCK, 0));
    if (per_sm < 1) { fprintf(stderr, "kernel does not fit an SM\n"); return 2; }
    const u32 grid = (u32)(per_sm * prop.multiProcessorCount);
    printf("device %s: %d SMs, %d block(s)/SM of %d -> grid %u; balanced=%d hub_deg=%u piece=%u\n", prop.name,
           prop.multiProcessorCount, per_sm, BLOCK, grid, (int)bal, hub_deg, piece);

    // Sources: pseudo-random vertices with out-arcs (fixed seed, like GAP's SourcePicker).
    std::vector<u32> sources;
    for (u64 k = 0; sources.size() < nsrc && k < 1000000; ++k) {
        const u32 v = (u32)(splitmix64(27491095ull + k) % g.n);
        if (g.rowptr[v + 1] > g.rowptr[v]) sources.push_back(v);
    }
    std::vector<std::vector<u32>> oracle;
    const auto td0 = std::chrono::steady_clock::now();
    oracle.resize(sources.size());
    {
        std::vector<std::thread> pool;
        for (size_t k = 0; k < sources.size(); ++k) pool.emplace_back([&, k] { oracle[k] = dijkstra(g, sources[k]); });
        for (std::thread &t : pool) t.join();
    }
    printf("host Dijkstra: %zu sources in %.2fs\n", sources.size(),
           std::chrono::duration<double>(std::chrono::steady_clock::now() - td0).count());

    if (deltas.empty())
        for (double f : factors) deltas.push_back((u32)std::max(1.0, f * wmean + 0.5));
    FILE *csv = csv_path.empty() ? nullptr : fopen(csv_path.c_str(), "a");
    if (csv && ftell(csv) == 0)
        fprintf(csv, "graph,n,m,delta,delta_per_mean_weight,solo_work,solo_far,source,rep,ms,relax_steps,split_steps,"
                     "solo_steps,grid_steps,solo_us,grid_us,arcs_scanned,max_near,mismatches\n");
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<u64> hd(g.n);
    u64 total_bad = 0;
    for (u32 delta : deltas) {
        std::vector<double> ms_all, steps_all, solo_us_all, grid_us_all, solo_n_all, grid_n_all, arcs_all;
        u64 bad_cfg = 0;
        for (size_t si = 0; si < sources.size(); ++si) {
            const u32 s = sources[si];
            for (u32 r = 0; r <= reps; ++r) { // r = 0: warm-up and check
                const bool tr = d_trace && si == 0 && r == 0 && delta == deltas[0];
                Params pr = p;
                pr.trace = tr ? d_trace : nullptr;
                u32 n_arg = g.n;
                void *iargs[] = {&n_arg, &pr.dist};
                u32 s_arg = s, dl = delta, sn = solo_work, sf = solo_far, a16 = avg16;
                void *sargs[] = {&pr, &s_arg, &dl, &sn, &sf, &a16};
                void *kargs[] = {&pr};
                CK(cudaEventRecord(e0));
                CK(cudaLaunchKernel((const void *)nf_init, dim3(prop.multiProcessorCount * 4), dim3(512), iargs, 0, 0));
                CK(cudaLaunchKernel((const void *)nf_seed, dim3(1), dim3(32), sargs, 0, 0));
                CK(cudaLaunchCooperativeKernel(kern, dim3(grid), dim3(BLOCK), kargs, 0, 0));
                CK(cudaEventRecord(e1));
                CK(cudaEventSynchronize(e1));
                CK(cudaGetLastError());
                float ms = 0;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                Ctl c;
                CK(cudaMemcpy(&c, p.ctl, sizeof(Ctl), cudaMemcpyDeviceToHost));
                if (c.overflow) { fprintf(stderr, "overflow of a pile (delta %u source %u)\n", delta, s); return 3; }
                u64 bad = 0;
                if (r == 0) {
                    CK(cudaMemcpy(hd.data(), p.dist, sizeof(u64) * g.n, cudaMemcpyDeviceToHost));
                    for (u32 v = 0; v < g.n; ++v)
                        if ((u32)(hd[v] >> 32) != oracle[si][v]) {
                            if (bad < 5) printf("MISMATCH delta %u source %u vertex %u: gpu %u dijkstra %u\n", delta, s, v, (u32)(hd[v] >> 32), oracle[si][v]);
                            bad++;
                        }
                    bad_cfg += bad;
                }
                if (tr) {
                    std::vector<StepRec> t(std::min(c.trace_len, trace_cap));
                    CK(cudaMemcpy(t.data(), d_trace, sizeof(StepRec) * t.size(), cudaMemcpyDeviceToHost));
                    FILE *tf = fopen(trace_path.c_str(), "w");
                    if (tf) {
                        fprintf(tf, "step,kind,solo,items,T\n");
                        for (size_t k = 0; k < t.size(); ++k)
                            fprintf(tf, "%zu,%s,%u,%u,%u\n", k + 1, t[k].kind == K_RELAX ? "relax" : "split", t[k].solo, t[k].items, t[k].T);
                        fclose(tf);
                    }
                }
                const u32 steps = c.relax_steps + c.split_steps;
                if (csv)
                    fprintf(csv, "%s,%u,%llu,%u,%.3f,%u,%u,%u,%u,%.4f,%u,%u,%u,%u,%.1f,%.1f,%llu,%u,%llu\n", label.c_str(), g.n,
                            (unsigned long long)m, delta, delta / wmean, solo_work, solo_far, s, r, ms, c.relax_steps,
                            c.split_steps, c.solo_steps, c.grid_steps, c.solo_ns / 1e3, c.grid_ns / 1e3,
                            (unsigned long long)c.arcs, c.max_near, (unsigned long long)bad);
                if (r == 0) continue;
                ms_all.push_back(ms);
                steps_all.push_back(steps);
                solo_n_all.push_back(c.solo_steps);
                grid_n_all.push_back(c.grid_steps);
                solo_us_all.push_back(c.solo_ns / 1e3);
                grid_us_all.push_back(c.grid_ns / 1e3);
                arcs_all.push_back((double)c.arcs);
            }
        }
        total_bad += bad_cfg;
        const double med = median(ms_all), ph = median(steps_all);
        const double sn = median(solo_n_all), gn = median(grid_n_all);
        printf("SUMMARY %s delta=%u (%.2f x mean w) solo_work=%u: median %.3f ms over %zu runs, phases %.0f "
               "(solo %.0f, grid %.0f), %.2f us/phase, solo %.2f us/phase, grid %.2f us/phase, arcs scanned %.2f m, "
               "%.2f GTEPS, mismatches %llu\n",
               label.c_str(), delta, delta / wmean, solo_work, med, ms_all.size(), ph, sn, gn, med * 1e3 / std::max(1.0, ph),
               median(solo_us_all) / std::max(1.0, sn), median(grid_us_all) / std::max(1.0, gn),
               median(arcs_all) / std::max<double>(1, (double)m), (double)m / (med * 1e6), (unsigned long long)bad_cfg);
        fflush(stdout);
    }
    if (csv) fclose(csv);
    printf("TOTAL mismatches %llu\n", (unsigned long long)total_bad);
    return total_bad ? 4 : 0;
}
#endif
