// sssp-lab: Δ-stepping ([meyer-sanders]) on CUDA, the twin of kernels/delta_stepping.wgsl (its
// header describes the six kernels of a phase; design in docs/gpu-delta-stepping.md).
//
// - ds_relax (n threads): v relaxes its light (w ≤ Δ) or heavy (w > Δ) arcs against δ_prev(v)
//   when it is in the phase's frontier (light: fr[v] == phase; heavy: rr[v] == serial),
//   skipping settled targets; atomicMin only when the proposal is below δ(t) as just read.
// - ds_commit (n threads): lowered vertices take their new δ into δ_prev and are binned: the
//   current bucket's go to the next light frontier (and R), the others to the far set.
// - ds_advance (1 thread): the bucket state machine; ds_min_far and ds_open (n threads) open
//   the far set's lowest bucket when the current one is exhausted; ds_advance2 (1 thread) ends
//   the run or opens it, and moves to the next log slot.
//
// Counts are warp-aggregated (one atomic per warp). Warp classes come from __ballot_sync, so the
// dummy-thread and warp figures are the hardware's own. δ is u32, ∞ = 2³²−1; the host refuses
// graphs whose distances could reach it. Queued phases after the run ended return at once.
//
// Launched from: src/device/cuda/delta_stepping.rs; compiled by NVRTC with kernels/common.cuh
// prepended (apart from the other kernel files: a failure here leaves the others usable).

#define DS_INF 0xFFFFFFFFu
// Phase kinds (DS_K_*), control words (DS_C_*) and the log entry (DS_LOG_WORDS, DS_L_*) come
// from src/device/layout.rs, prepended.

// A warp-aggregated sum into *dst (every lane of the warp calls it; sums stay below 2³²).
__device__ __forceinline__ void ds_warp_add(u32 x, u32 *dst) {
    const u32 s = (u32)warp_sum64((u64)x);
    if (lane_id() == 0 && s != 0) atomicAdd(dst, s);
}

__device__ __forceinline__ u32 ds_heavy_degree(u32 v, const u32 *__restrict__ off, const u32 *__restrict__ wgt,
                                                u32 delta) {
    u32 h = 0;
    for (u32 e = off[v]; e < off[v + 1]; ++e) h += wgt[e] > delta ? 1u : 0u;
    return h;
}

__device__ __forceinline__ u32 *ds_entry(u32 *log, const u32 *ctl) {
    return &log[ctl[DS_C_SLOT] * DS_LOG_WORDS];
}

// What a relax thread needs of the phase (kind < DS_K_SELECT): its kind, the current bucket,
// and whether vertex v is in the phase's frontier (light: fr[v] == phase; heavy: rr[v] == serial).
struct DsPhase {
    bool light;
    u32 bucket;
    bool work;
};
__device__ __forceinline__ DsPhase ds_phase(u32 kind, u32 v, u32 n, const u32 *fr, const u32 *rr, const u32 *ctl) {
    DsPhase ph;
    ph.light = kind == DS_K_LIGHT;
    ph.bucket = ctl[DS_C_BUCKET];
    ph.work = v < n && (ph.light ? fr[v] == ctl[DS_C_PHASE] : rr[v] == ctl[DS_C_SERIAL]);
    return ph;
}

// The relax of arc e from a frontier vertex with δ_prev = du: the phase's kind of arc only (light
// w ≤ Δ, heavy w > Δ), settled targets skipped, atomicMin only when the proposal is below δ(t)
// as just read.
__device__ __forceinline__ void ds_relax_arc(u32 e, u32 du, bool light, u32 bucket, u32 delta,
                                             const u32 *__restrict__ tgt, const u32 *__restrict__ wgt,
                                             const u32 *prev, u32 *dist, u32 &scanned, u32 &relaxed) {
    const u32 w = wgt[e];
    if ((w <= delta) != light) return;
    ++scanned;
    const u32 t = tgt[e];
    const u32 pt = prev[t];
    if (pt != DS_INF) {
        const u32 bt = pt / delta;
        if (bt < bucket || (!light && bt == bucket)) return; // settled
    }
    ++relaxed;
    const u32 nd = du + w; // below ∞: the host checked the distance range
    if (nd < dist[t]) atomicMin(&dist[t], nd);
}

// The counts of a relax launch into its log entry: working threads and warp classes (every lane
// reaches here: blockDim.x is a multiple of 32, threads past n vote false), arcs scanned, relaxed.
__device__ __forceinline__ void ds_count_relax(bool work, u32 scanned, u32 relaxed, u32 *e) {
    count_warp<u32>(work, &e[DS_L_FRONTIER], nullptr, &e[DS_L_WARPS_MIXED], &e[DS_L_WARPS_FULL]);
    ds_warp_add(scanned, &e[DS_L_SCANNED]);
    ds_warp_add(relaxed, &e[DS_L_RELAXED]);
}

extern "C" __global__ void ds_relax(u32 n, u32 delta, const u32 *__restrict__ off, const u32 *__restrict__ tgt,
                                    const u32 *__restrict__ wgt, const u32 *prev, u32 *dist, const u32 *fr,
                                    const u32 *rr, u32 *log, const u32 *ctl) {
    const u32 kind = ctl[DS_C_KIND];
    if (kind >= DS_K_SELECT) return; // uniform over the launch
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    const DsPhase ph = ds_phase(kind, v, n, fr, rr, ctl);
    const bool work = ph.work;
    u32 scanned = 0, relaxed = 0;
    if (work) {
        const u32 du = prev[v];
        const u32 end = off[v + 1];
        for (u32 e = off[v]; e < end; ++e) ds_relax_arc(e, du, ph.light, ph.bucket, delta, tgt, wgt, prev, dist, scanned, relaxed);
    }
    u32 *e = ds_entry(log, ctl);
    ds_count_relax(work, scanned, relaxed, e);
    count_lanes<u32>(work ? off[v + 1] - off[v] : 0, &e[DS_L_ARC_ITERS], &e[DS_L_WARP_ITERS]);
}

// relax=balanced: the block's frontier arcs spread over its threads by the balanced advance of
// kernels/common.cuh, so a hub's arcs are spread over the whole block instead of one lane.
extern "C" __global__ void ds_relax_balanced(u32 n, u32 delta, const u32 *__restrict__ off,
                                             const u32 *__restrict__ tgt, const u32 *__restrict__ wgt,
                                             const u32 *prev, u32 *dist, const u32 *fr, const u32 *rr, u32 *log,
                                             const u32 *ctl) {
    __shared__ u32 s_pos[1024], s_beg[1024], s_du[1024];
    const u32 kind = ctl[DS_C_KIND];
    if (kind >= DS_K_SELECT) return; // uniform over the launch
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    const DsPhase ph = ds_phase(kind, v, n, fr, rr, ctl);
    const bool work = ph.work;
    s_du[threadIdx.x] = work ? prev[v] : 0;
    const u32 total = balanced_begin(work ? off[v] : 0, work ? off[v + 1] - off[v] : 0, s_pos, s_beg);
    u32 scanned = 0, relaxed = 0;
    for (u32 i = threadIdx.x; i < total; i += blockDim.x) {
        u32 k;
        const u32 e = balanced_arc(s_pos, s_beg, blockDim.x, i, k);
        ds_relax_arc(e, s_du[k], ph.light, ph.bucket, delta, tgt, wgt, prev, dist, scanned, relaxed);
    }
    u32 *e = ds_entry(log, ctl);
    ds_count_relax(work, scanned, relaxed, e);
    count_balanced<u32>(total, &e[DS_L_ARC_ITERS], &e[DS_L_WARP_ITERS]);
}

extern "C" __global__ void ds_commit(u32 n, u32 delta, const u32 *__restrict__ off, const u32 *__restrict__ wgt,
                                     u32 *prev, const u32 *dist, u32 *fr, u32 *rr, u32 *pend, u32 *log,
                                     const u32 *ctl) {
    const u32 kind = ctl[DS_C_KIND];
    if (kind >= DS_K_SELECT) return; // uniform
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    bool lowered = false, fresh = false, next = false, new_r = false;
    u32 new_r_heavy = 0;
    if (v < n) {
        const u32 d = dist[v];
        const u32 p = prev[v];
        if (d < p) {
            lowered = true;
            fresh = p == DS_INF;
            prev[v] = d;
            const u32 serial = ctl[DS_C_SERIAL];
            if (kind == DS_K_LIGHT && d / delta == ctl[DS_C_BUCKET]) {
                next = true;
                fr[v] = ctl[DS_C_PHASE] + 1;
                pend[v] = 0;
                if (rr[v] != serial) {
                    rr[v] = serial;
                    new_r = true;
                    new_r_heavy = ds_heavy_degree(v, off, wgt, delta);
                }
            } else {
                pend[v] = 1;
            }
        }
    }
    u32 *e = ds_entry(log, ctl);
    warp_count(lowered, &e[DS_L_LOWERED]);
    warp_count(fresh, &e[DS_L_FRESH]);
    warp_count(next, &e[DS_L_NEXT]);
    warp_count(new_r, &e[DS_L_NEW_R]);
    ds_warp_add(new_r_heavy, &e[DS_L_NEW_R_HEAVY]);
}

extern "C" __global__ void ds_advance(u32 *log, u32 *ctl) {
    const u32 kind = ctl[DS_C_KIND];
    if (kind >= DS_K_SELECT) return;
    u32 *e = ds_entry(log, ctl);
    const u32 settled_before = ctl[DS_C_SETTLED];
    const u32 reached = ctl[DS_C_REACHED] + e[DS_L_FRESH];
    ctl[DS_C_REACHED] = reached;
    e[DS_L_VALID] = 1;
    e[DS_L_BUCKET] = ctl[DS_C_BUCKET];
    e[DS_L_KIND] = kind;
    e[DS_L_SERIAL] = ctl[DS_C_SERIAL];
    e[DS_L_SETTLED_BEFORE] = settled_before;
    e[DS_L_REACHED] = reached - settled_before;
    u32 rsize = ctl[DS_C_RSIZE];
    e[DS_L_BUCKET_SIZE] = rsize;
    u32 next_kind = DS_K_SELECT;
    if (kind == DS_K_LIGHT) {
        rsize += e[DS_L_NEW_R];
        const u32 heavy_r = ctl[DS_C_HEAVY_R] + e[DS_L_NEW_R_HEAVY];
        ctl[DS_C_RSIZE] = rsize;
        ctl[DS_C_HEAVY_R] = heavy_r;
        const u32 next = e[DS_L_NEXT];
        if (next > 0) {
            next_kind = DS_K_LIGHT;
            e[DS_L_NEXT_FRONTIER] = next;
        } else {
            // The bucket stays empty: R is settled (the source was counted at the start).
            ctl[DS_C_SETTLED] = settled_before + rsize - (ctl[DS_C_SERIAL] == 1 ? 1u : 0u);
            if (heavy_r > 0) {
                next_kind = DS_K_HEAVY;
                e[DS_L_NEXT_FRONTIER] = rsize;
            }
        }
    }
    e[DS_L_SETTLED] = ctl[DS_C_SETTLED];
    ctl[DS_C_KIND] = next_kind;
    ctl[DS_C_PHASE] += 1;
    ctl[DS_C_MINB] = DS_INF;
    ctl[DS_C_OPENED] = 0;
    ctl[DS_C_OPENED_HEAVY] = 0;
}

extern "C" __global__ void ds_min_far(u32 n, u32 delta, const u32 *prev, const u32 *pend, u32 *ctl) {
    if (ctl[DS_C_KIND] != DS_K_SELECT) return; // uniform
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    u32 b = DS_INF;
    if (v < n && pend[v] == 1) b = prev[v] / delta;
    // Warp minimum first: one atomic per warp.
    for (int o = 16; o > 0; o >>= 1) b = min(b, __shfl_xor_sync(FULL_MASK, b, o));
    if (lane_id() == 0 && b != DS_INF) atomicMin(&ctl[DS_C_MINB], b);
}

extern "C" __global__ void ds_open(u32 n, u32 delta, const u32 *__restrict__ off, const u32 *__restrict__ wgt,
                                   const u32 *prev, u32 *fr, u32 *rr, u32 *pend, u32 *ctl) {
    if (ctl[DS_C_KIND] != DS_K_SELECT) return; // uniform
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    const u32 minb = ctl[DS_C_MINB];
    bool take = false;
    u32 heavy = 0;
    if (v < n && minb != DS_INF && pend[v] == 1 && prev[v] / delta == minb) {
        take = true;
        pend[v] = 0;
        fr[v] = ctl[DS_C_PHASE];
        rr[v] = ctl[DS_C_SERIAL] + 1;
        heavy = ds_heavy_degree(v, off, wgt, delta);
    }
    warp_count(take, &ctl[DS_C_OPENED]);
    ds_warp_add(heavy, &ctl[DS_C_OPENED_HEAVY]);
}

extern "C" __global__ void ds_advance2(u32 *log, u32 *ctl) {
    const u32 kind = ctl[DS_C_KIND];
    if (kind == DS_K_DONE) return;
    u32 *e = ds_entry(log, ctl);
    if (kind == DS_K_SELECT) {
        const u32 minb = ctl[DS_C_MINB];
        if (minb == DS_INF) {
            ctl[DS_C_KIND] = DS_K_DONE;
            e[DS_L_DONE] = 1;
            e[DS_L_NEXT_FRONTIER] = 0;
        } else {
            ctl[DS_C_BUCKET] = minb;
            ctl[DS_C_SERIAL] += 1;
            ctl[DS_C_RSIZE] = ctl[DS_C_OPENED];
            ctl[DS_C_HEAVY_R] = ctl[DS_C_OPENED_HEAVY];
            ctl[DS_C_KIND] = DS_K_LIGHT;
            e[DS_L_NEXT_FRONTIER] = ctl[DS_C_OPENED];
        }
    }
    ctl[DS_C_SLOT] += 1;
}
