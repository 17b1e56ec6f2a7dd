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
__device__ __forceinline__ void nf_schedule(const NfParams &p, NfCtl &c) {
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
                __syncthreads(); // every thread has read s_ctl (the loop's exit, the copy-out)
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
