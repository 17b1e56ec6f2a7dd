// sssp-lab: the fast path — the whole frontier solve (Martín or Crauser, successors or
// predecessors) inside ONE persistent cooperative kernel, with grid-wide barriers between phases
// and compacted vertex lists instead of n-thread launches. The host reads nothing per iteration;
// it launches the kernel once per chunk of iterations and reads a small control block.
//
// Launched from: src/device/cuda/solver.rs (module `sssp_lab::device::cuda`), `run_to_end`
// without instrumentation; compiled at run time by NVRTC with kernels/common.cuh prepended.
// The vertex-parallel kernels of kernels/frontier.cu stay the teaching/stepping path.
//
// Papers: docs/references.md [seed000], [seed004].
// Paper sections: the algorithm is seed 000 §3 (Alg. 1: relax, minimum, update until Δ = ∞;
// Crauser's Δ = min δ + ω, §3.1; successors §3.2; Martín and predecessors §3.3) and seed 004 §3–4
// (relax_F with atomicMin, relax_U without atomics). The iterations, thresholds and settled sets
// are exactly the papers'; what differs is only how the GPU is used:
//
// * Lists. Successors keep R (reached, unsettled) as a compacted list; a vertex enters R when an
//   atomicMin takes it from ∞ (exactly one thread sees the old ∞). Predecessors keep U (all
//   unsettled) and pull over U's in-arcs, reading δ only from frontier in-neighbours (no atomics
//   on δ; only u's thread writes δ(u)).
// * Successors: ONE grid barrier per iteration. Phase i scans R: a vertex with δ ≤ Δᵢ is settled
//   (update of iteration i) and pushes its out-arcs at once (relax of iteration i + 1); the others
//   are kept for the next R. The minimum is fused in: min over U after the relax equals
//   min(δ of the kept vertices as read, pushes that lowered δ) — a push that did not lower δ(u)
//   cannot be the final δ(u), and a push never lowers a settled vertex — so Δᵢ₊₁ is complete when
//   the phase ends. A push value is ≥ Δᵢ (Crauser: δ(f) + w ≥ δ(f) + ω(f) ≥ Δᵢ; Martín: δ(f) = Δᵢ),
//   so it can only disturb the update's test δ(u) ≤ Δᵢ by lowering u to exactly Δᵢ during the
//   phase: such a pusher first stamps mark[u] = i, and the update treats δ(u) = Δᵢ with
//   mark[u] = i as not settled (it was > Δᵢ after the relax of iteration i, as in the papers).
// * Block-aggregated lists: a block takes blockDim entries of R, scans (keep, settle, degree)
//   in shared memory, appends its kept vertices with one atomic, and pushes the arcs of its
//   settled vertices with one thread per arc (binary search in the block's degree prefix sums),
//   so high- and low-degree vertices are balanced and appends cost one atomic per block or warp.
// * Solo mode. When an iteration is small (|R| + |F|·mean degree ≤ `solo_work`), block 0 runs
//   iterations alone with __syncthreads and shared-memory counters and minima while the others
//   wait at the grid barrier; it hands back as soon as the work grows. Road networks and the
//   start and end of every run are latency-bound: a block barrier costs far less than a grid one.
// * Predecessors: two grid barriers per iteration (pull + minimum, then update).
// * Thresholds and frontier counts are triple-buffered by iteration (i mod 3), list counts
//   double-buffered; the block that releases a grid barrier resets the buffers of the next phase.

struct Ctl {
    u64 mins[6];   // [i % 3][0 = min δ (Martín), 1 = min δ + ω (Crauser)]
    u32 fcount[3]; // |F_i|: successors by i % 3, predecessors by i & 1
    u32 rcount[2]; // |R| (successors) or |U| (predecessors), by iteration parity
    u32 bar_count; // grid barrier: blocks arrived
    u32 bar_gen;   // grid barrier: generation
    u32 iter;      // last completed iteration
    u32 done;      // 1 once Δ_martin = ∞
    u32 relaxed;   // successors: the relax of iteration iter + 1 is done (its Δ is in mins)
};
// CTL_* (src/device/layout.rs, prepended) name iter and done, the two words before the last.
static_assert(sizeof(Ctl) == 88 && 4 * (CTL_DONE + 2) == sizeof(Ctl) && CTL_ITER + 1 == CTL_DONE &&
                  sizeof(Ctl) <= 4 * CTL_WORDS,
              "Ctl layout must match CTL_* in src/device/layout.rs");

__device__ __forceinline__ void grid_sync(Ctl *ctl) {
    grid_sync_then(ctl, [] {});
}

// Zeroes the outputs of successors phase k: R list count of parity k + 1, |F_{k+1}|, Δ_{k+1}.
__device__ __forceinline__ void zero_outputs(Ctl *ctl, u32 k) {
    ctl->rcount[(k + 1) & 1] = 0;
    ctl->fcount[(k + 1) % 3] = 0;
    ctl->mins[((k + 1) % 3) * 2] = INF64;
    ctl->mins[((k + 1) % 3) * 2 + 1] = INF64;
}

// Resets the control block before a run that starts at iteration `i`.
extern "C" __global__ void fast_reset(Ctl *ctl, u32 i) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        for (int k = 0; k < 6; ++k) ctl->mins[k] = INF64;
        ctl->fcount[0] = ctl->fcount[1] = ctl->fcount[2] = 0;
        ctl->rcount[0] = ctl->rcount[1] = 0;
        ctl->bar_count = 0;
        ctl->iter = i - 1;
        ctl->done = 0;
        ctl->relaxed = 0;
    }
}

// Builds the lists for iteration i from (δ, stamp) — after reset or after stepping — and, for
// successors, the minimum over R that the first relax starts from. One thread per vertex.
// Successors: F → f0 (count fcount[i % 3]), R → r{i&1}. Predecessors: U → r{i&1}, |F| → fcount[i&1].
template <typename D, bool PRED>
__device__ __forceinline__ void fast_setup_k(u32 n, const D *dist, const u32 *stamp, const D *__restrict__ omega,
                                             u32 i, u32 *f0, u32 *f1, u32 *r0, u32 *r1, Ctl *ctl, u64 *packed) {
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    const bool valid = v < n;
    const u32 s = valid ? stamp[v] : 0;
    const bool front = valid && s == i;
    const bool uns = valid && s == UNSET;
    const u32 cur = i & 1;
    u32 *R = cur ? r1 : r0;
    if (PRED) {
        warp_count(front, &ctl->fcount[cur]);
        warp_append(uns, v, R, &ctl->rcount[cur]);
    } else {
        if constexpr (sizeof(D) == 4) {
            if (valid) packed[v] = (u64)(u32)dist[v] | ((u64)(u32)omega[v] << 32);
        }
        const D d = uns ? dist[v] : Inf<D>::v();
        const bool reached = uns && d != Inf<D>::v();
        warp_append(front, v, f0, &ctl->fcount[i % 3]);
        warp_append(reached, v, R, &ctl->rcount[cur]);
        u64 m = INF64, c = INF64;
        if (reached) {
            m = d;
            const D om = omega[v];
            if (om != Inf<D>::v()) c = (u64)d + (u64)om;
        }
        block_min2(m, c);
        if (threadIdx.x == 0) {
            const u32 k = (i % 3) * 2;
            if (m != INF64) atomicMin(&ctl->mins[k], m);
            if (c != INF64) atomicMin(&ctl->mins[k + 1], c);
        }
    }
}

// Block-wide exclusive scan of three counts (every thread calls it): offsets in o*, totals in t*.
__device__ __forceinline__ void block_scan3(u32 a, u32 b, u32 c, u32 &oa, u32 &ob, u32 &oc, u32 &ta, u32 &tb,
                                            u32 &tc) {
    __shared__ u32 ws[3][32];
    __shared__ u32 tot[3];
    const u32 lane = lane_id(), warp = threadIdx.x >> 5, nw = blockDim.x >> 5;
    const u32 ia = warp_inclusive_scan(a), ib = warp_inclusive_scan(b), ic = warp_inclusive_scan(c);
    __syncthreads(); // earlier readers of ws / tot are done
    if (lane == 31) {
        ws[0][warp] = ia;
        ws[1][warp] = ib;
        ws[2][warp] = ic;
    }
    __syncthreads();
    if (warp == 0) {
        const u32 va = lane < nw ? ws[0][lane] : 0;
        const u32 vb = lane < nw ? ws[1][lane] : 0;
        const u32 vc = lane < nw ? ws[2][lane] : 0;
        const u32 sa = warp_inclusive_scan(va), sb = warp_inclusive_scan(vb), sc = warp_inclusive_scan(vc);
        if (lane < nw) {
            ws[0][lane] = sa - va;
            ws[1][lane] = sb - vb;
            ws[2][lane] = sc - vc;
        }
        if (lane == 31) {
            tot[0] = sa;
            tot[1] = sb;
            tot[2] = sc;
        }
    }
    __syncthreads();
    oa = ws[0][warp] + ia - a;
    ob = ws[1][warp] + ib - b;
    oc = ws[2][warp] + ic - c;
    ta = tot[0];
    tb = tot[1];
    tc = tot[2];
}

// One successors phase over list R[0..nr) by blocks b0, b0 + bstride, …:
// - FROM_F: R is a frontier list; every entry pushes its out-arcs (the first relax of a run).
// - else: update of iteration i with threshold delta (settle δ ≤ Δ, mark rule above), the kept
//   vertices appended to Rn, the settled ones counted in *fcount and pushing their arcs at once.
// Newly reached vertices are appended to Rn; (lm, lc) fold the kept δ / δ + ω and every push
// that lowered δ. Every thread of the block calls it.
template <typename D, bool FROM_F>
__device__ void succ_phase(const u32 *__restrict__ off, const u32 *__restrict__ tgt, const u32 *__restrict__ wgt,
                           const D *__restrict__ omega, D *dist, u64 *packed, u32 *stamp, u32 *mark, u32 i,
                           u64 delta, const u32 *R, u32 nr, u32 *Rn, u32 *rncount, u32 *fcount, u32 b0, u32 bstride,
                           u64 &lm, u64 &lc) {
    // 32-bit δ: δ and ω of a vertex share one 8-byte word (low: δ, high: ω), so the scan of R
    // reads both with one load; atomicMin works on the low half.
    constexpr bool PACKED = sizeof(D) == 4;
    u32 *const pk32 = (u32 *)packed;
    __shared__ u32 s_v[1024];
    __shared__ D s_d[1024];
    __shared__ u32 s_beg[1024];
    __shared__ u32 s_pos[1025];
    __shared__ u32 s_base;
    const u32 B = blockDim.x, tid = threadIdx.x;
    const D INF = Inf<D>::v();
    for (u32 base = b0 * B; base < nr; base += bstride * B) {
        const u32 idx = base + tid;
        const bool valid = idx < nr;
        const u32 v = valid ? R[idx] : 0;
        D d = INF, omv = INF;
        if constexpr (PACKED) {
            if (valid) {
                const u64 x = packed[v];
                d = (D)(u32)x;
                omv = (D)(u32)(x >> 32);
            }
        } else {
            d = valid ? dist[v] : INF;
        }
        bool settle, keep;
        if (FROM_F) {
            settle = valid;
            keep = false;
        } else {
            settle = valid && (u64)d <= delta;
            if (settle && (u64)d == delta) {
                // δ(v) = Δ: was it lowered to Δ during this phase? (then it settles next time)
                __threadfence();
                if (__ldcg(&mark[v]) == i) settle = false;
            }
            keep = valid && !settle;
            if (settle) stamp[v] = i + 1;
            if (keep) {
                lm = umin64(lm, (u64)d);
                D om;
                if constexpr (PACKED) om = omv; else om = omega[v];
                if (om != INF) lc = umin64(lc, (u64)d + (u64)om);
            }
        }
        u32 beg = 0, deg = 0;
        if (settle) {
            beg = off[v];
            deg = off[v + 1] - beg;
        }
        u32 ok, os, od, tk, ts, td;
        block_scan3(keep, settle, deg, ok, os, od, tk, ts, td);
        // Thread 0 reserves the kept vertices' slots now and publishes the base after the pushes,
        // so the atomic's round trip overlaps them.
        u32 kept_base = 0;
        if (tid == 0) {
            if (tk) kept_base = atomicAdd(rncount, tk);
            if (!FROM_F && ts) atomicAdd(fcount, ts);
            s_pos[ts] = td;
        }
        if (settle) {
            s_v[os] = v;
            s_d[os] = d;
            s_beg[os] = beg;
            s_pos[os] = od;
        }
        __syncthreads();
        // One thread per arc of the settled vertices.
        for (u32 k0 = 0; k0 < td; k0 += B) {
            const u32 k = k0 + tid;
            const bool has = k < td;
            u32 u = 0;
            bool fresh = false;
            if (has) {
                u32 lo;
                const u32 e = balanced_arc(s_pos, s_beg, ts, k, lo); // the balanced advance, common.cuh
                u = tgt[e];
                const D nd = s_d[lo] + (D)wgt[e];
                D *const target = PACKED ? (D *)&pk32[2 * u] : &dist[u];
                if (!FROM_F && (u64)nd == delta && __ldcg(target) > nd) {
                    mark[u] = i; // see the mark rule in the header
                    __threadfence();
                }
                const D old = atomicMin(target, nd);
                if (nd < old) {
                    lm = umin64(lm, (u64)nd);
                    D om;
                    if constexpr (PACKED) om = (D)pk32[2 * u + 1]; else om = omega[u];
                    if (om != INF) lc = umin64(lc, (u64)nd + (u64)om);
                    fresh = old == INF;
                }
            }
            warp_append(fresh, u, Rn, rncount);
        }
        if (tid == 0) s_base = kept_base;
        __syncthreads();
        if (keep) Rn[s_base + ok] = v;
        __syncthreads(); // the shared arrays are refilled by the next chunk
    }
}

// Block 0 alone runs iterations i, i+1, … while they stay small. Entry and exit state: the
// start of a phase (mins[i % 3] complete, R_i in r{i&1} with rcount[i&1], fcount[i % 3] = |F_i|,
// the phase's outputs zeroed); on exit ctl->iter = the last iteration it completed and
// ctl->relaxed = 1, or ctl->done = 1.
template <typename D, bool CRAUSER>
__device__ void solo_succ(const u32 *__restrict__ off, const u32 *__restrict__ tgt, const u32 *__restrict__ wgt,
                          const D *__restrict__ omega, D *dist, u64 *packed, u32 *stamp, u32 *mark, u32 *r0, u32 *r1,
                          Ctl *ctl,
                          u64 *rec_m, u64 *rec_c, u32 *rec_f, u32 *rec_r, u32 rec_base, u32 rec_cap, u32 i,
                          u32 i_end, u64 avg_deg, u64 solo_work) {
    __shared__ u32 sh_nf, sh_nr, sh_nf2, sh_nr2;
    __shared__ u64 sh_m, sh_c;
    if (threadIdx.x == 0) {
        volatile Ctl *vc = ctl;
        sh_m = vc->mins[(i % 3) * 2];
        sh_c = vc->mins[(i % 3) * 2 + 1];
        sh_nr = vc->rcount[i & 1];
        sh_nf = vc->fcount[i % 3];
    }
    __syncthreads();
    for (;; ++i) {
        const u64 m = sh_m, c_raw = sh_c;
        const u64 c = m == INF64 ? INF64 : c_raw;
        const u32 nr = sh_nr, nf = sh_nf;
        const bool big = i >= i_end || (u64)nr + (u64)nf * avg_deg > solo_work;
        if (threadIdx.x == 0) {
            if (!big || m == INF64) {
                if (i - rec_base < rec_cap) {
                    rec_m[i - rec_base] = m;
                    rec_c[i - rec_base] = c;
                    rec_f[i - rec_base] = nf;
                    rec_r[i - rec_base] = nr;
                }
            }
            if (m == INF64) {
                ctl->iter = i;
                ctl->done = 1;
            } else if (big) {
                ctl->mins[(i % 3) * 2] = m;
                ctl->mins[(i % 3) * 2 + 1] = c_raw;
                ctl->rcount[i & 1] = nr;
                ctl->fcount[i % 3] = nf;
                zero_outputs(ctl, i);
                ctl->iter = i - 1;
                ctl->relaxed = 1;
            }
            sh_nr2 = 0;
            sh_nf2 = 0;
        }
        __syncthreads(); // everyone has read sh_*; the counters are zero
        if (m == INF64 || big) return;
        const u64 delta = CRAUSER ? umax64(c, m) : m;
        u64 lm = INF64, lc = INF64;
        succ_phase<D, false>(off, tgt, wgt, omega, dist, packed, stamp, mark, i, delta, (i & 1) ? r1 : r0, nr,
                             (i & 1) ? r0 : r1, &sh_nr2, &sh_nf2, 0, 1, lm, lc);
        block_min2(lm, lc);
        if (threadIdx.x == 0) {
            sh_m = lm;
            sh_c = lc;
            sh_nr = sh_nr2;
            sh_nf = sh_nf2;
        }
        __syncthreads();
    }
}

template <typename D, bool CRAUSER>
__device__ __forceinline__ void fast_succ_k(u32 n, const u32 *__restrict__ off, const u32 *__restrict__ tgt,
                                            const u32 *__restrict__ wgt, const D *__restrict__ omega, D *dist,
                                            u64 *packed, u32 *stamp, u32 *mark, u32 *f0, u32 *r0, u32 *r1, Ctl *ctl,
                                            u64 *rec_m,
                                            u64 *rec_c, u32 *rec_f, u32 *rec_r, u32 rec_base, u32 rec_cap,
                                            u32 i_begin, u32 i_end, u64 avg_deg, u64 solo_work) {
    const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
    __shared__ u64 s_m, s_c;
    __shared__ u32 s_nr, s_nf, s_flag, s_iter;
    u32 i = i_begin;

    if (threadIdx.x == 0) {
        volatile Ctl *vc = ctl;
        s_flag = vc->relaxed;
        s_nf = vc->fcount[i % 3];
        s_nr = vc->rcount[i & 1];
    }
    __syncthreads();
    if (!s_flag) {
        // ---- the first relax of the run: push from the frontier list ----
        u64 lm = INF64, lc = INF64;
        succ_phase<D, true>(off, tgt, wgt, omega, dist, packed, stamp, mark, i, INF64, f0, s_nf, (i & 1) ? r1 : r0,
                            &ctl->rcount[i & 1], nullptr, blockIdx.x, gridDim.x, lm, lc);
        block_min2(lm, lc);
        if (threadIdx.x == 0) {
            if (lm != INF64) atomicMin(&ctl->mins[(i % 3) * 2], lm);
            if (lc != INF64) atomicMin(&ctl->mins[(i % 3) * 2 + 1], lc);
        }
        grid_sync(ctl);
    }

    for (;;) {
        // ---- start of phase i: Δ_i, |F_i|, |R_i| are complete ----
        if (threadIdx.x == 0) {
            volatile Ctl *vc = ctl;
            s_m = vc->mins[(i % 3) * 2];
            s_c = vc->mins[(i % 3) * 2 + 1];
            s_nr = vc->rcount[i & 1];
            s_nf = vc->fcount[i % 3];
        }
        __syncthreads();
        const u64 m = s_m;
        const u64 c = m == INF64 ? INF64 : s_c;
        const u32 nr = s_nr, nf = s_nf;
        if (solo_work != 0 && m != INF64 && i < i_end && (u64)nr + (u64)nf * avg_deg <= solo_work) {
            // ---- small iterations: block 0 alone, the others wait at the barrier ----
            if (blockIdx.x == 0)
                solo_succ<D, CRAUSER>(off, tgt, wgt, omega, dist, packed, stamp, mark, r0, r1, ctl, rec_m, rec_c, rec_f,
                                      rec_r, rec_base, rec_cap, i, i_end, avg_deg, solo_work);
            grid_sync(ctl);
            if (threadIdx.x == 0) {
                volatile Ctl *vc = ctl;
                s_flag = vc->done;
                s_iter = vc->iter;
            }
            __syncthreads();
            if (s_flag || s_iter + 1 >= i_end) break;
            i = s_iter + 1;
            continue;
        }
        if (m == INF64 || i >= i_end) {
            if (leader) {
                if (m == INF64) {
                    if (i - rec_base < rec_cap) {
                        rec_m[i - rec_base] = m;
                        rec_c[i - rec_base] = c;
                        rec_f[i - rec_base] = nf;
                        rec_r[i - rec_base] = nr;
                    }
                    ctl->iter = i;
                    ctl->done = 1;
                } else {
                    ctl->iter = i - 1;
                    ctl->relaxed = 1;
                }
            }
            break;
        }
        if (leader && i - rec_base < rec_cap) {
            rec_m[i - rec_base] = m;
            rec_c[i - rec_base] = c;
            rec_f[i - rec_base] = nf;
            rec_r[i - rec_base] = nr;
        }
        // ---- update of iteration i fused with the relax (and minimum) of iteration i + 1 ----
        const u64 delta = CRAUSER ? umax64(c, m) : m;
        u64 lm = INF64, lc = INF64;
        succ_phase<D, false>(off, tgt, wgt, omega, dist, packed, stamp, mark, i, delta, (i & 1) ? r1 : r0, nr,
                             (i & 1) ? r0 : r1, &ctl->rcount[(i + 1) & 1], &ctl->fcount[(i + 1) % 3], blockIdx.x,
                             gridDim.x, lm, lc);
        block_min2(lm, lc);
        if (threadIdx.x == 0) {
            if (lm != INF64) atomicMin(&ctl->mins[((i + 1) % 3) * 2], lm);
            if (lc != INF64) atomicMin(&ctl->mins[((i + 1) % 3) * 2 + 1], lc);
        }
        const u32 next = i + 1;
        grid_sync_then(ctl, [&] { zero_outputs(ctl, next); });
        i = next;
    }
}

template <typename D, bool CRAUSER>
__device__ __forceinline__ void fast_pred_k(u32 n, const u32 *__restrict__ poff, const u32 *__restrict__ psrc,
                                            const u32 *__restrict__ pwgt, const D *__restrict__ omega, D *dist,
                                            u32 *stamp, u32 *u0, u32 *u1, Ctl *ctl, u64 *rec_m, u64 *rec_c,
                                            u32 *rec_f, u32 *rec_r, u32 rec_base, u32 rec_cap, u32 i_begin,
                                            u32 i_end) {
    const u32 lane = lane_id();
    const u32 gwarp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const u32 nwarps = (gridDim.x * blockDim.x) >> 5;
    const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
    __shared__ u64 s_m, s_c;
    __shared__ u32 s_nf, s_nu;
    const D INF = Inf<D>::v();

    for (u32 i = i_begin;; ++i) {
        if (i >= i_end) {
            if (leader) ctl->iter = i - 1;
            break;
        }
        const u32 cur = i & 1;
        u32 *U = cur ? u1 : u0;
        u32 *Un = cur ? u0 : u1;
        const u32 knext = ((i + 1) % 3) * 2, kcur = (i % 3) * 2;
        if (leader) {
            ctl->mins[knext] = INF64;
            ctl->mins[knext + 1] = INF64;
            ctl->fcount[cur ^ 1] = 0;
            ctl->rcount[cur ^ 1] = 0;
        }
        if (threadIdx.x == 0) {
            s_nf = ((volatile u32 *)ctl->fcount)[cur];
            s_nu = ((volatile u32 *)ctl->rcount)[cur];
        }
        __syncthreads();
        const u32 nf = s_nf, nu = s_nu;

        // ---- relax (predecessors: pull from frontier in-neighbours, no atomics) + minimum ----
        u64 lm = INF64, lc = INF64, reached = 0;
        for (u32 base = gwarp * 32; base < nu; base += nwarps * 32) {
            const u32 idx = base + lane;
            const bool valid = idx < nu;
            const u32 v = valid ? U[idx] : 0;
            const u32 beg = valid ? poff[v] : 0;
            const u32 end = valid ? poff[v + 1] : 0;
            const D old = valid ? dist[v] : INF;
            D best = old;
            const bool heavy = end - beg >= 32;
            u32 hm = __ballot_sync(FULL_MASK, heavy);
            while (hm) {
                const u32 src = __ffs(hm) - 1;
                hm &= hm - 1;
                const u32 hb = __shfl_sync(FULL_MASK, beg, src);
                const u32 he = __shfl_sync(FULL_MASK, end, src);
                D pb = INF;
                for (u32 e = hb + lane; e < he; e += 32) {
                    const u32 p = psrc[e];
                    if (stamp[p] == i) {
                        const D nd = dist[p] + (D)pwgt[e];
                        pb = nd < pb ? nd : pb;
                    }
                }
                pb = (D)warp_min64((u64)pb);
                if (lane == src && pb < best) best = pb;
            }
            if (!heavy) {
                for (u32 e = beg; e < end; ++e) {
                    const u32 p = psrc[e];
                    if (stamp[p] == i) {
                        const D nd = dist[p] + (D)pwgt[e];
                        best = nd < best ? nd : best;
                    }
                }
            }
            if (valid && best < old) dist[v] = best;
            if (valid && best != INF) {
                ++reached;
                lm = umin64(lm, (u64)best);
                const D om = omega[v];
                if (om != INF) lc = umin64(lc, (u64)best + (u64)om);
            }
        }
        block_min2(lm, lc);
        const u64 rsum = block_sum(reached);
        if (threadIdx.x == 0) {
            if (lm != INF64) atomicMin(&ctl->mins[kcur], lm);
            if (lc != INF64) atomicMin(&ctl->mins[kcur + 1], lc);
            if (rsum && i - rec_base < rec_cap) atomicAdd(&rec_r[i - rec_base], (u32)rsum);
        }
        grid_sync(ctl);

        // ---- threshold ----
        if (threadIdx.x == 0) {
            volatile u64 *mv = ctl->mins;
            s_m = mv[kcur];
            s_c = mv[kcur + 1];
        }
        __syncthreads();
        const u64 m = s_m;
        const u64 c = m == INF64 ? INF64 : s_c;
        const u64 delta = m == INF64 ? INF64 : (CRAUSER ? umax64(c, m) : m);
        if (leader && i - rec_base < rec_cap) {
            rec_m[i - rec_base] = m;
            rec_c[i - rec_base] = c;
            rec_f[i - rec_base] = nf;
        }
        if (m == INF64) {
            if (leader) {
                ctl->iter = i;
                ctl->done = 1;
            }
            break;
        }

        // ---- update over U: settle reached δ ≤ Δ, compact the rest ----
        for (u32 base = gwarp * 32; base < nu; base += nwarps * 32) {
            const u32 idx = base + lane;
            const bool valid = idx < nu;
            const u32 v = valid ? U[idx] : 0;
            const D d = valid ? dist[v] : INF;
            const bool settle = valid && d != INF && (u64)d <= delta;
            if (settle) stamp[v] = i + 1;
            warp_count(settle, &ctl->fcount[cur ^ 1]);
            warp_append(valid && !settle, v, Un, &ctl->rcount[cur ^ 1]);
        }
        grid_sync(ctl);
    }
}


// The entry points of one width, in pairs (SSSP_PAIR, common.cuh): successors / predecessors
// setup, Martín / Crauser runs.
#define SSSP_FAST_KERNELS(D, S)                                                                                   \
    SSSP_PAIR(D, S, fast_setup_succ, fast_setup_pred, fast_setup_k,                                               \
              (u32 n, const D *dist, const u32 *stamp, const D *__restrict__ omega, u32 i, u32 *f0, u32 *f1,      \
               u32 *r0, u32 *r1, Ctl *ctl, u64 *packed),                                                          \
              (n, dist, stamp, omega, i, f0, f1, r0, r1, ctl, packed))                                            \
    SSSP_PAIR(D, S, fast_succ_martin, fast_succ_crauser, fast_succ_k,                                             \
              (u32 n, const u32 *__restrict__ off, const u32 *__restrict__ tgt, const u32 *__restrict__ wgt,      \
               const D *__restrict__ omega, D *dist, u64 *packed, u32 *stamp, u32 *mark, u32 *f0, u32 *r0,        \
               u32 *r1, Ctl *ctl, u64 *rec_m, u64 *rec_c, u32 *rec_f, u32 *rec_r, u32 rec_base, u32 rec_cap,      \
               u32 i_begin, u32 i_end, u64 avg_deg, u64 solo_work),                                               \
              (n, off, tgt, wgt, omega, dist, packed, stamp, mark, f0, r0, r1, ctl, rec_m, rec_c, rec_f, rec_r,   \
               rec_base, rec_cap, i_begin, i_end, avg_deg, solo_work))                                            \
    SSSP_PAIR(D, S, fast_pred_martin, fast_pred_crauser, fast_pred_k,                                             \
              (u32 n, const u32 *__restrict__ off, const u32 *__restrict__ src, const u32 *__restrict__ wgt,      \
               const D *__restrict__ omega, D *dist, u32 *stamp, u32 *u0, u32 *u1, Ctl *ctl, u64 *rec_m,          \
               u64 *rec_c, u32 *rec_f, u32 *rec_r, u32 rec_base, u32 rec_cap, u32 i_begin, u32 i_end),            \
              (n, off, src, wgt, omega, dist, stamp, u0, u1, ctl, rec_m, rec_c, rec_f, rec_r, rec_base, rec_cap,  \
               i_begin, i_end))

SSSP_FAST_KERNELS(u32, u32)
SSSP_FAST_KERNELS(u64, u64)

// Copies δ back from the packed (δ, ω) words after a 32-bit successors fast run.
extern "C" __global__ void fast_unpack_u32(u32 n, const u64 *packed, u32 *dist) {
    const u32 v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) dist[v] = (u32)packed[v];
}
