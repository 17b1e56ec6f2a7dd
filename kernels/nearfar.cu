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
// Vertex path: a near-appended head's row offsets are prefetched into L1 (block 0 runs the next
// solo phase on the same SM), so that phase's first round trip is δ(v) alone. A/B.
#ifndef NF_PF
#define NF_PF 1
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
