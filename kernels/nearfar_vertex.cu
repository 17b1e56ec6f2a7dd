// sssp-lab: near-far, the vertex path (roads, grids: one thread per vertex). The second of three
// parts the host compiles as one source, in this order: kernels/nearfar.cu (switches, types, appends), this file, kernels/nearfar_solve.cu (phases,
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
