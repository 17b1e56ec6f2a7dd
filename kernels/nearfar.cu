// sssp-lab: the near-far worklist solver, `delta-stepping:worklist=near-far` (issue 30; design and
// measurements of its prototype in docs/gpu-worklist.md and bench/prototypes/nearfar/).
//
// Launched from: src/device/cuda/nearfar.rs, which compiles this file with the layout prelude and
// kernels/common.cuh in front (warp_append, block_exclusive_scan, owner_of, warp sums come from
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
// Adaptive Δ (ADDS, Wang et al., PPoPP 2021, grows its bucket width while the GPU has too little
// work): when a bucket's relax phases averaged fewer than NF_AD_LO arcs, the next bucket is twice
// as wide (up to delta_max); above NF_AD_HI it halves (down to delta_min). A solo phase costs
// ~3 000 cycles before its first arc, so on roads more arcs per phase is nearly free until the
// redundant relaxations of a wider bucket catch up (lux: Δ ×16 took 8.4 -> 5.0 ms; NY flat at ×2).
#ifndef NF_AD_LO
#define NF_AD_LO 512
#endif
#ifndef NF_AD_HI
#define NF_AD_HI 4096
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
struct NfDest {
    NfStage *st;
    u32 *sq;
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
    if (tot & 0xFFFFu) {
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
            const uint2 a = __ldg(&p.arcs[b + k + j]);
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
    if (!BAL) {
        for (u32 base = worker * per; base < n_in; base += stride) {
            const u32 i = base + tid;
            const bool valid = tid < per && i < n_in;
            const u32 v = !valid ? 0u : sq_in != nullptr && i < NF_SQ ? sq_in[i] : __ldcg(&in[i]);
            const u32 d = valid ? (u32)(__ldcg(&p.dist[v]) >> 32) : 0;
            const u32 b = valid ? __ldg(&p.rowptr[v]) : 0;
            const u32 deg = valid ? __ldg(&p.rowptr[v + 1]) - b : 0;
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
                                             u32 nw, const u32 *sq_in = nullptr, u32 *sq_out = nullptr) {
    u32 arcs = 0, impr = 0;
    NfDest d;
    d.st = st;
    d.sq = sq_out;
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
                    nf_run_phase<BAL>(p, &s_ctl, nullptr, t, 0, 1, in_sh ? sq[t.cur] : nullptr,
                                      NF_SOLOQ ? sq[t.cur ^ 1u] : nullptr);
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
        grid_sync_then(p.ctl, [&] {
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
        });
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
