// sssp-lab: the near-far worklist solver on wgpu, `delta-stepping:worklist=near-far` (issue 30;
// the CUDA twin is kernels/nearfar.cu, the design in docs/gpu-worklist.md §4 "On wgpu").
//
// Launched from: src/device/wgpu/nearfar.rs, with the layout prelude (NF_* words of
// src/device/layout.rs) and kernels/common.wgsl in front (balanced_begin / balanced_arc).
//
// The method is the CUDA kernel's: near / far piles split by a moving threshold T (Davidson,
// Baxter, Garland, Owens, IPDPS 2014), T jumping over empty buckets to the far pile's minimum
// (ADDS, PPoPP 2021), label-correcting (every decrease is queued). WGSL has no grid-wide barrier
// (and no forward-progress guarantee for spinning workgroups), so instead of one persistent kernel
// a batch is one command buffer of rounds, each round two dispatches:
//   nf_round (1 group)        schedules after a grid phase that ran, runs small phases in a loop
//                             in ONE workgroup (storageBarrier between phases) until a phase grows
//                             or the budget is spent, and sets the size of the grid phase next;
//   nf_grid  (0 or g groups)  runs one grid phase; the dispatch boundary is its grid barrier.
// Dispatch sizes come from the counts on the GPU, so rounds past the end of the solve dispatch
// nothing. The control block keeps the CUDA struct's word indices (NF_C_*).
//
// δ and the stamp of the phase that last near-appended a vertex are two u32 words (WGSL has no
// 64-bit atomics): dist[v] and dist[n + v]; the atomicExchange of the stamp after a decrease says
// whether v is already in this phase's near list. A balanced relax phase (BAL; not the vertex
// path, as in CUDA) skips a near item (or hub piece) whose stamp is already the running phase's
// (SKIP): it was lowered in this phase and sits in the
// next near list, which expands it at a δ at least as low. Stamps only grow (the first phase's is
// 2, every vertex starts at 0) and a split phase writes none, so equality means exactly that.
//
// The stage (STAGE, grid phases only, as kernels/nearfar.cu's NfStage): each workgroup of a grid
// phase reserves near and far slots with workgroup atomics in st_near / st_far (STAGE_N and
// STAGE_F entries, sized by the host from the device's workgroup-memory limit), keeps the far
// minimum in st_fmin, and writes the stage out with one storage atomicAdd per pile (a coalesced
// copy) when it is half full — checked at workgroup-uniform points (stage_check) — and at the end
// of its share. An append that finds the stage full goes to the storage pile directly, so the
// result is exact either way. The solo pipeline is built with STAGE off and 1-entry stage arrays,
// so it allocates no stage.

struct NfParams {
    n: u32,
    piece_cap: u32,
    far_cap: u32,
    hub_deg: u32,
    log_cap: u32,
    arc_base: u32,
    grid_wg: u32,
    max_groups: u32,
}

/// Most phases of one solo dispatch.
const SOLO_PHASES: u32 = 1024u;
/// Adaptive Δ (ADDS, Wang et al., PPoPP 2021; kernels/nearfar.cu's nf_adapt_delta and its
/// defaults, kept equal by a unit test in src/device/wgpu/nearfar.rs): when a bucket's relax phases
/// averaged fewer than NF_AD_LO arcs, the next bucket is twice as wide (up to NF_C_DELTA_MAX);
/// above NF_AD_HI it halves (down to NF_C_DELTA_MIN). The host sets the range (equal: fixed Δ).
const NF_AD_LO: u32 = 512u;
const NF_AD_HI: u32 = 1024u;

/// Balanced relax (the graph's maximum out-degree is above 32).
override BAL: bool = false;
/// Grid phases append through the workgroup's stage (env SSSP_NF_WG_STAGE=0: off).
override STAGE: bool = false;
/// Stage capacity in near items and far entries (1 where STAGE is off: no workgroup memory).
override STAGE_N: u32 = 1u;
override STAGE_F: u32 = 1u;
/// Skip near items already queued for the next phase, balanced relax only (env SSSP_NF_SKIP=0: off).
override SKIP: bool = true;
/// Vertex relax in steps of NF_VU arcs per invocation (env SSSP_NF_WG_VBATCH=1: on; slower on
/// the H100 than one arc at a time, gpu-peers-2026-11-27/soloq/c8): see nf_relax_vertex in
/// kernels/nearfar_vertex.wgsl (appended to this file by the host, with kernels/nearfar_emit.wgsl
/// or, on a device with subgroups, kernels/nearfar_emit_sg.wgsl).
override VBATCH: bool = false;
/// Vertex relax of up to 4 arcs at once with per-arc appends (nf_relax_quad in
/// kernels/nearfar_quad.wgsl; env SSSP_NF_WG_QUAD=0: one arc at a time). On the H100 NY 15.1 →
/// 12.1 ms, luxembourg 10.5 → 8.2, 2048² grid 106 → 92 (gpu-peers-2026-11-27/wgq/w1). VBATCH
/// takes precedence.
override QUAD: bool = true;
/// The per-arc relax reads δ before its atomicMin and skips the atomic when it cannot lower δ
/// (env SSSP_NF_WG_PRECHECK=1: on). Off since call w3: R-MAT 20 (balanced relax) 8.7 → 7.6 ms on the
/// H100; CUDA's vertex path dropped it too (kernels/nearfar.cu NF_PRECHECK).
override PRECHECK: bool = false;
/// A round is one dispatch (nf_step) instead of two: the grid phase's last workgroup to finish
/// runs the scheduler and the solo stretch (see nf_step). Set by the host for both nf_round and
/// nf_step: a round that stops on a solo phase then sizes the next step at one workgroup, not 0.
override FUSED: bool = false;
/// An even share per workgroup in a relax phase's grid phases (kernels/nearfar.cu NF_ADAPT;
/// env SSSP_NF_WG_EVEN=0: off): each workgroup takes ⌈items / workgroups⌉ near items per pass,
/// rounded up to 32 and at most WG, and the scheduler sizes such a phase to fill the GPU
/// (P.max_groups / 4 workgroups) where it has the items. Before, a workgroup took WG items per
/// pass, so a phase of 60 k items ran on 60 workgroups, each scanning its items' ~36 k arcs alone.
/// On the H100 (bench/results/gpu-peers-2026-11-27/wgs/f5, f7, one call each, source 1): R-MAT 20
/// 2.01 / 2.03 / 2.06 ms against 2.61 / 2.61 / 2.62, Kronecker 21 4.14 / 4.03 against 5.23 /
/// 5.28, uniform random 21 3.10 / 3.07 against 3.87 / 3.67 (same arcs scanned: R-MAT's 23.4 M
/// arcs in 61 phases as CUDA's, wgs/f4); with the vertex relax the 4096² grid 165.2 / 165.6
/// against 170.4 / 169.3, the 2048² grid 69.8 / 69.0 against 71.2 / 70.7, NY 12.31 / 12.07
/// against 11.98 / 12.05, luxembourg 8.15 / 8.13 against 8.05 / 8.09 (f7).
override EVEN: bool = true;

@group(0) @binding(0) var<uniform> P: NfParams;
// rowptr[0..=n], then (head, weight) pairs from P.arc_base.
@group(0) @binding(1) var<storage, read> graph: array<u32>;
// δ at v, the near-append stamp at n + v.
@group(0) @binding(2) var<storage, read_write> dist: array<atomic<u32>>;
// Near list b at b · n.
@group(0) @binding(3) var<storage, read_write> near: array<u32>;
// Hub pieces (vertex, first arc) of list b at b · piece_cap.
@group(0) @binding(4) var<storage, read_write> pieces: array<vec2<u32>>;
// Far pile b, (vertex, δ when appended), at b · far_cap.
@group(0) @binding(5) var<storage, read_write> far: array<vec2<u32>>;
@group(0) @binding(6) var<storage, read_write> ctl: array<atomic<u32>>;
// NF_LOG_WORDS per phase: kind, solo, near items, pieces, far pile, T, arcs, decreases, Δ.
@group(0) @binding(7) var<storage, read_write> nflog: array<u32>;
// Indirect sizes: solo (x, y, z) at 0, grid (x, y, z) at 3.
@group(0) @binding(8) var<storage, read_write> args: array<u32>;

struct Snap {
    kind: u32,
    solo: u32,
    cur: u32,
    fsel: u32,
    t: u32,
    stamp: u32,
    n_in: u32,
    n_p: u32,
}

var<workgroup> w_snap: Snap;
var<workgroup> w_d: array<u32, WG>;
var<workgroup> w_arcs: atomic<u32>;
var<workgroup> w_impr: atomic<u32>;
// The solo workgroup's copy of the control block (CUDA's shared-memory copy): a solo stretch's
// appends and its scheduler touch workgroup memory, not L2. `solo` below picks the copy.
var<workgroup> w_ctl: array<atomic<u32>, NF_C_WORDS>;
// The grid workgroup's stage: reserved counts (they run past the capacity once it is full),
// entries, far minimum; flush bases and counts, the flush decision and the balanced arc total
// handed to every invocation by workgroupUniformLoad.
var<workgroup> st_nn: atomic<u32>;
var<workgroup> st_nf: atomic<u32>;
var<workgroup> st_fmin: atomic<u32>;
var<workgroup> st_near: array<u32, STAGE_N>;
var<workgroup> st_far: array<vec2<u32>, STAGE_F>;
var<workgroup> st_base: vec4<u32>;
var<workgroup> st_flag: u32;
var<workgroup> w_total: u32;
// nf_step: 1 in the grid phase's last workgroup to finish.
var<workgroup> w_last: u32;

fn cg(solo: bool, i: u32) -> u32 {
    if solo {
        return atomicLoad(&w_ctl[i]);
    }
    return atomicLoad(&ctl[i]);
}

fn cs(solo: bool, i: u32, v: u32) {
    if solo {
        atomicStore(&w_ctl[i], v);
    } else {
        atomicStore(&ctl[i], v);
    }
}

fn cadd(solo: bool, i: u32, v: u32) -> u32 {
    if solo {
        return atomicAdd(&w_ctl[i], v);
    }
    return atomicAdd(&ctl[i], v);
}

fn cmin(solo: bool, i: u32, v: u32) {
    if solo {
        atomicMin(&w_ctl[i], v);
    } else {
        atomicMin(&ctl[i], v);
    }
}

fn load_snap(solo: bool) -> Snap {
    let b = NF_C_SNAP_KIND;
    return Snap(
        cg(solo, b),
        cg(solo, b + 1u),
        cg(solo, b + 2u),
        cg(solo, b + 3u),
        cg(solo, b + 4u),
        cg(solo, b + 5u),
        cg(solo, b + 6u),
        cg(solo, b + 7u),
    );
}

fn arc(e: u32) -> vec2<u32> {
    let i = P.arc_base + 2u * e;
    return vec2<u32>(graph[i], graph[i + 1u]);
}

// A near append (a hub as pieces of NF_PIECE_ARCS arcs) to list `out`, or a far append to pile
// `fsel` with its minimum into ctl[fmin].
fn nf_emit(solo: bool, near_take: bool, far_take: bool, u: u32, nd: u32, out: u32, fsel: u32, fmin: u32) {
    var hub = false;
    if near_take && P.hub_deg != INF {
        let b = graph[u];
        let e = graph[u + 1u];
        if e - b > P.hub_deg {
            hub = true;
            let np = (e - b + NF_PIECE_ARCS - 1u) / NF_PIECE_ARCS;
            let base = cadd(solo, NF_C_PIECES + out, np);
            if base + np <= P.piece_cap {
                for (var k = 0u; k < np; k++) {
                    pieces[out * P.piece_cap + base + k] = vec2<u32>(u, b + k * NF_PIECE_ARCS);
                }
            } else {
                cs(solo, NF_C_OVERFLOW, 1u);
            }
        }
    }
    let staged = STAGE && !solo;
    if near_take && !hub {
        var put = false;
        if staged {
            let k = atomicAdd(&st_nn, 1u);
            if k < STAGE_N {
                st_near[k] = u;
                put = true;
            }
        }
        if !put {
            let i = cadd(solo, NF_C_NEAR + out, 1u);
            if i < P.n {
                near[out * P.n + i] = u;
            } else {
                cs(solo, NF_C_OVERFLOW, 1u);
            }
        }
    }
    if far_take {
        if staged {
            atomicMin(&st_fmin, nd);
            let k = atomicAdd(&st_nf, 1u);
            if k < STAGE_F {
                st_far[k] = vec2<u32>(u, nd);
                return;
            }
        } else {
            cmin(solo, fmin, nd);
        }
        let i = cadd(solo, NF_C_FAR + fsel, 1u);
        if i < P.far_cap {
            far[fsel * P.far_cap + i] = vec2<u32>(u, nd);
        } else {
            cs(solo, NF_C_OVERFLOW, 1u);
        }
    }
}

// Writes the workgroup's stage out — near list `out`, far pile `fsel`, minimum ctl[fmin] — with
// one storage atomicAdd per pile and a coalesced copy, and empties it. Every invocation calls it
// at a workgroup-uniform point; the first barrier lets every reservation land first.
fn stage_flush(lid: u32, out: u32, fsel: u32, fmin: u32) {
    workgroupBarrier();
    if lid == 0u {
        let nn = min(atomicLoad(&st_nn), STAGE_N);
        let nf = min(atomicLoad(&st_nf), STAGE_F);
        var bn = 0u;
        var bf = 0u;
        if nn != 0u {
            bn = atomicAdd(&ctl[NF_C_NEAR + out], nn);
        }
        if nf != 0u {
            bf = atomicAdd(&ctl[NF_C_FAR + fsel], nf);
        }
        let m = atomicLoad(&st_fmin);
        if m != INF {
            atomicMin(&ctl[fmin], m);
        }
        st_base = vec4<u32>(bn, bf, nn, nf);
    }
    let b = workgroupUniformLoad(&st_base);
    for (var i = lid; i < b.z; i += WG) {
        if b.x + i < P.n {
            near[out * P.n + b.x + i] = st_near[i];
        } else {
            atomicStore(&ctl[NF_C_OVERFLOW], 1u);
        }
    }
    for (var i = lid; i < b.w; i += WG) {
        if b.y + i < P.far_cap {
            far[fsel * P.far_cap + b.y + i] = st_far[i];
        } else {
            atomicStore(&ctl[NF_C_OVERFLOW], 1u);
        }
    }
    workgroupBarrier();
    if lid == 0u {
        atomicStore(&st_nn, 0u);
        atomicStore(&st_nf, 0u);
        atomicStore(&st_fmin, INF);
    }
    workgroupBarrier();
}

// A workgroup-uniform point of a grid phase: flushes the stage once it is half full. Invocation 0
// reads the counts (those still being reserved count at the next point) and workgroupUniformLoad
// hands its decision to all. Nothing on the solo path (no stage).
fn stage_check(solo: bool, lid: u32, out: u32, fsel: u32, fmin: u32) {
    if !STAGE || solo {
        return;
    }
    if lid == 0u {
        st_flag = u32(atomicLoad(&st_nn) > STAGE_N / 2u || atomicLoad(&st_nf) > STAGE_F / 2u);
    }
    if workgroupUniformLoad(&st_flag) != 0u {
        stage_flush(lid, out, fsel, fmin);
    }
}

// Relaxes arc e from a vertex at δ d; returns whether δ of its head went down.
fn nf_relax(solo: bool, s: Snap, e: u32, d: u32) -> u32 {
    let a = arc(e);
    let u = a.x;
    let nd = d + a.y;
    if PRECHECK && nd >= atomicLoad(&dist[u]) {
        return 0u;
    }
    if nd >= atomicMin(&dist[u], nd) {
        return 0u;
    }
    if nd < s.t {
        if atomicExchange(&dist[P.n + u], s.stamp) != s.stamp {
            nf_emit(solo, true, false, u, nd, s.cur ^ 1u, s.fsel, NF_C_FAR_MIN);
        }
    } else {
        nf_emit(solo, false, true, u, nd, s.cur ^ 1u, s.fsel, NF_C_FAR_MIN);
    }
    return 1u;
}

// Whether near item v is already queued for the next phase (see the header: SKIP).
fn queued(s: Snap, v: u32) -> bool {
    return SKIP && BAL && atomicLoad(&dist[P.n + v]) == s.stamp;
}

// A relax phase over near list s.cur and its hub pieces, split over `nw` workgroups; returns the
// arcs scanned and the decreases.
fn nf_relax_phase(solo: bool, s: Snap, worker: u32, nw: u32, lid: u32) -> vec2<u32> {
    let out = s.cur ^ 1u;
    var arcs = 0u;
    var impr = 0u;
    let share = relax_share(s.n_in, nw);
    let stride = nw * share;
    for (var base = worker * share; base < s.n_in; base += stride) {
        let i = base + lid;
        var b = 0u;
        var deg = 0u;
        var d = 0u;
        if lid < share && i < s.n_in {
            let v = near[s.cur * P.n + i];
            if !queued(s, v) {
                d = atomicLoad(&dist[v]);
                b = graph[v];
                deg = graph[v + 1u] - b;
            }
        }
        if BAL {
            w_d[lid] = d;
            let total = balanced_begin(lid, b, deg);
            if STAGE && !solo {
                // Chunks of 4 WG arcs with a flush check after each (the loop bound made uniform).
                if lid == 0u {
                    w_total = total;
                }
                let tot = workgroupUniformLoad(&w_total);
                for (var j0 = 0u; j0 < tot; j0 += 4u * WG) {
                    for (var j = j0 + lid; j < min(j0 + 4u * WG, tot); j += WG) {
                        let ka = balanced_arc(j);
                        impr += nf_relax(solo, s, ka.y, w_d[ka.x]);
                        arcs += 1u;
                    }
                    stage_check(solo, lid, out, s.fsel, NF_C_FAR_MIN);
                }
            } else {
                for (var j = lid; j < total; j += WG) {
                    let ka = balanced_arc(j);
                    impr += nf_relax(solo, s, ka.y, w_d[ka.x]);
                    arcs += 1u;
                }
            }
            workgroupBarrier();
        } else {
            if VBATCH {
                let kmax = nf_vertex_bound(deg);
                for (var k = 0u; k < kmax; k += NF_VU) {
                    impr += nf_relax_vertex(solo, s, b, deg, d, k);
                }
            } else if QUAD {
                for (var k = 0u; k < deg; k += 4u) {
                    impr += nf_relax_quad(solo, s, b + k, min(deg - k, 4u), d);
                }
            } else {
                for (var k = 0u; k < deg; k++) {
                    impr += nf_relax(solo, s, b + k, d);
                }
            }
            arcs += deg;
            stage_check(solo, lid, out, s.fsel, NF_C_FAR_MIN);
        }
    }
    for (var pc = worker; pc < s.n_p; pc += nw) {
        let piece = pieces[s.cur * P.piece_cap + pc];
        let v = piece.x;
        if !queued(s, v) {
            let end = min(piece.y + NF_PIECE_ARCS, graph[v + 1u]);
            let d = atomicLoad(&dist[v]);
            for (var e = piece.y + lid; e < end; e += WG) {
                impr += nf_relax(solo, s, e, d);
                arcs += 1u;
            }
        }
        stage_check(solo, lid, out, s.fsel, NF_C_FAR_MIN);
    }
    return vec2<u32>(arcs, impr);
}

// Near items a workgroup takes per pass of a relax phase over `nw` workgroups (see EVEN).
fn relax_share(n_in: u32, nw: u32) -> u32 {
    if !EVEN {
        return WG;
    }
    let per = (n_in + nw - 1u) / nw;
    return min(WG, max(32u, (per + 31u) / 32u * 32u));
}

// A split phase: far pile s.fsel → near list (δ < T) or the other far pile; stale entries (δ
// changed since the append) are dropped, so a live entry is unique per vertex.
fn nf_split_phase(solo: bool, s: Snap, worker: u32, nw: u32, lid: u32) {
    let cnt = min(s.n_in, P.far_cap);
    for (var base = worker * WG; base < cnt; base += nw * WG) {
        let i = base + lid;
        if i < cnt {
            let en = far[s.fsel * P.far_cap + i];
            if atomicLoad(&dist[en.x]) == en.y {
                let near_take = en.y < s.t;
                nf_emit(solo, near_take, !near_take, en.x, en.y, s.cur ^ 1u, s.fsel ^ 1u, NF_C_FAR_MIN_NEXT);
            }
        }
        stage_check(solo, lid, s.cur ^ 1u, s.fsel ^ 1u, NF_C_FAR_MIN_NEXT);
    }
}

// One phase on this workgroup's share; the phase's arcs and decreases go to the control block
// once per workgroup, and a grid workgroup's stage is written out.
fn nf_run_phase(solo: bool, s: Snap, worker: u32, nw: u32, lid: u32) {
    var c = vec2<u32>(0u, 0u);
    if s.kind == NF_K_RELAX {
        c = nf_relax_phase(solo, s, worker, nw, lid);
        if STAGE && !solo {
            stage_flush(lid, s.cur ^ 1u, s.fsel, NF_C_FAR_MIN);
        }
    } else {
        nf_split_phase(solo, s, worker, nw, lid);
        if STAGE && !solo {
            stage_flush(lid, s.cur ^ 1u, s.fsel ^ 1u, NF_C_FAR_MIN_NEXT);
        }
    }
    if lid == 0u {
        atomicStore(&w_arcs, 0u);
        atomicStore(&w_impr, 0u);
    }
    workgroupBarrier();
    if c.x != 0u {
        atomicAdd(&w_arcs, c.x);
    }
    if c.y != 0u {
        atomicAdd(&w_impr, c.y);
    }
    workgroupBarrier();
    if lid == 0u {
        let a = atomicLoad(&w_arcs);
        let m = atomicLoad(&w_impr);
        if a != 0u {
            cadd(solo, NF_C_ARCS, a);
        }
        if m != 0u {
            cadd(solo, NF_C_IMPROVED, m);
        }
    }
}

// At a bucket's end: the next bucket's Δ from the arcs per relax phase of the one that ended.
fn nf_adapt_delta(solo: bool) {
    let phases = cg(solo, NF_C_B_PHASES);
    if phases > 0u {
        let avg = cg(solo, NF_C_B_ARCS) / phases;
        let dl = cg(solo, NF_C_DELTA);
        if avg < NF_AD_LO && dl <= cg(solo, NF_C_DELTA_MAX) / 2u {
            cs(solo, NF_C_DELTA, dl * 2u);
        } else if avg > NF_AD_HI && dl / 2u >= cg(solo, NF_C_DELTA_MIN) {
            cs(solo, NF_C_DELTA, dl / 2u);
        }
    }
    cs(solo, NF_C_B_ARCS, 0u);
    cs(solo, NF_C_B_PHASES, 0u);
}

// Logs the phase just done and decides the next from its counts (kernels/nearfar.cu's
// nf_schedule, on the solo workgroup's copy or the storage control block). One invocation; every
// write of the phase is visible.
fn nf_schedule(solo: bool) {
    let logged = cg(solo, NF_C_LOGGED);
    if logged < P.log_cap {
        let r = logged * NF_LOG_WORDS;
        nflog[r + NF_L_KIND] = cg(solo, NF_C_KIND);
        nflog[r + NF_L_SOLO] = cg(solo, NF_C_SOLO);
        nflog[r + NF_L_ITEMS] = cg(solo, NF_C_REC_ITEMS);
        nflog[r + NF_L_PIECES] = cg(solo, NF_C_REC_PIECES);
        nflog[r + NF_L_FAR] = cg(solo, NF_C_REC_FAR);
        nflog[r + NF_L_T] = cg(solo, NF_C_T);
        nflog[r + NF_L_ARCS] = cg(solo, NF_C_ARCS);
        nflog[r + NF_L_IMPROVED] = cg(solo, NF_C_IMPROVED);
        nflog[r + NF_L_DELTA] = cg(solo, NF_C_DELTA);
    }
    cs(solo, NF_C_LOGGED, logged + 1u);
    if cg(solo, NF_C_KIND) == NF_K_RELAX {
        let ba = cg(solo, NF_C_B_ARCS);
        let pa = cg(solo, NF_C_ARCS);
        cs(solo, NF_C_B_ARCS, select(ba + pa, INF, ba > INF - pa));
        cs(solo, NF_C_B_PHASES, cg(solo, NF_C_B_PHASES) + 1u);
    }
    cs(solo, NF_C_ARCS, 0u);
    cs(solo, NF_C_IMPROVED, 0u);
    let out = cg(solo, NF_C_CUR) ^ 1u;
    var fsel = cg(solo, NF_C_FSEL);
    if cg(solo, NF_C_KIND) == NF_K_SPLIT {
        fsel ^= 1u;
        cs(solo, NF_C_FSEL, fsel);
        cs(solo, NF_C_FAR_MIN, cg(solo, NF_C_FAR_MIN_NEXT));
    }
    let nn = cg(solo, NF_C_NEAR + out);
    let np = cg(solo, NF_C_PIECES + out);
    let nf = cg(solo, NF_C_FAR + fsel);
    var kind = NF_K_DONE;
    if cg(solo, NF_C_OVERFLOW) != 0u {
        kind = NF_K_DONE;
    } else if nn + np > 0u {
        kind = NF_K_RELAX;
        cs(solo, NF_C_CUR, out);
        cs(solo, NF_C_NEAR + (out ^ 1u), 0u);
        cs(solo, NF_C_PIECES + (out ^ 1u), 0u);
        // The phase's estimated arcs (near list × mean degree, pieces full) in f32: no u64.
        let work = f32(nn) * f32(cg(solo, NF_C_AVG16)) / 16.0 + f32(np) * f32(NF_PIECE_ARCS);
        cs(solo, NF_C_SOLO, u32(work <= f32(cg(solo, NF_C_SOLO_WORK))));
        cs(solo, NF_C_REC_ITEMS, nn);
        cs(solo, NF_C_REC_PIECES, np);
        cs(solo, NF_C_REC_FAR, nf);
    } else if nf > 0u {
        kind = NF_K_SPLIT;
        nf_adapt_delta(solo);
        let dl = max(cg(solo, NF_C_DELTA), 1u);
        let t = cg(solo, NF_C_T);
        let q = cg(solo, NF_C_FAR_MIN) / dl + 1u;
        var jump = INF;
        if q <= INF / dl {
            jump = q * dl;
        }
        var step = INF;
        if t <= INF - dl {
            step = t + dl;
        }
        cs(solo, NF_C_T, max(jump, step));
        cs(solo, NF_C_FAR + (fsel ^ 1u), 0u);
        cs(solo, NF_C_FAR_MIN_NEXT, INF);
        cs(solo, NF_C_NEAR + out, 0u);
        cs(solo, NF_C_PIECES + out, 0u);
        cs(solo, NF_C_SOLO, u32(nf <= cg(solo, NF_C_SOLO_FAR)));
        cs(solo, NF_C_REC_ITEMS, 0u);
        cs(solo, NF_C_REC_PIECES, 0u);
        cs(solo, NF_C_REC_FAR, nf);
    }
    cs(solo, NF_C_KIND, kind);
    cs(solo, NF_C_STAMP, cg(solo, NF_C_STAMP) + 1u);
    if kind != NF_K_DONE {
        cs(solo, NF_C_STARTED, cg(solo, NF_C_STARTED) + 1u);
    }
}

// Publishes the next phase in the snapshot words; NF_K_PAUSE once the phase budget is spent.
fn nf_publish(solo: bool) {
    let kind = cg(solo, NF_C_KIND);
    let cur = cg(solo, NF_C_CUR);
    let fsel = cg(solo, NF_C_FSEL);
    var k = kind;
    if kind != NF_K_DONE && cg(solo, NF_C_STARTED) > cg(solo, NF_C_BUDGET) {
        k = NF_K_PAUSE;
    }
    let relax = kind == NF_K_RELAX;
    cs(solo, NF_C_SNAP_KIND, k);
    cs(solo, NF_C_SNAP_SOLO, cg(solo, NF_C_SOLO));
    cs(solo, NF_C_SNAP_CUR, cur);
    cs(solo, NF_C_SNAP_FSEL, fsel);
    cs(solo, NF_C_SNAP_T, cg(solo, NF_C_T));
    cs(solo, NF_C_SNAP_STAMP, cg(solo, NF_C_STAMP));
    cs(solo, NF_C_SNAP_N_IN, select(cg(solo, NF_C_FAR + fsel), cg(solo, NF_C_NEAR + cur), relax));
    cs(solo, NF_C_SNAP_N_P, select(0u, cg(solo, NF_C_PIECES + cur), relax));
}

// Allows the phase budget the host wrote into NF_C_BUDGET (a count) more phases, saturating,
// and publishes the next phase. Once, at the head of a batch.
@compute @workgroup_size(1)
fn nf_resume() {
    let started = cg(false, NF_C_STARTED);
    let count = cg(false, NF_C_BUDGET);
    var b = INF;
    if count <= INF - (started - 1u) {
        b = started - 1u + count;
    }
    cs(false, NF_C_BUDGET, b);
    nf_publish(false);
}

// A round's first dispatch, always one workgroup: schedules after a grid phase that ran
// (NF_C_PENDING), runs small phases in this workgroup while they stay small (the dispatch's
// storageBarrier as the only barrier between them), and sets the indirect size of the grid phase
// the stretch ended at (0 groups when the solve is done or paused). All on the workgroup's copy of
// the control block, written back at the end. One dispatch where a round had three (a
// one-invocation scheduler on each side of the solo stretch): on the H100 each dispatch costs
// ~10 µs however little it does (gpu-peers-2026-11-27/wgs/s2).
@compute @workgroup_size(WG)
fn nf_round(@builtin(local_invocation_index) lid: u32) {
    nf_round_body(lid);
}

// nf_round's work, also the tail of nf_step.
fn nf_round_body(lid: u32) {
    for (var i = lid; i < NF_C_WORDS; i += WG) {
        atomicStore(&w_ctl[i], atomicLoad(&ctl[i]));
    }
    workgroupBarrier();
    if lid == 0u && cg(true, NF_C_PENDING) != 0u {
        cs(true, NF_C_PENDING, 0u);
        nf_schedule(true);
        nf_publish(true);
    }
    workgroupBarrier();
    // At most SOLO_PHASES phases per dispatch (the next round's dispatch goes on): on lavapipe a
    // solo dispatch of ~16 k phases or more ended early without an error (a 300 × 200 grid at
    // Δ = 1 came out wrong; 1 024 per dispatch is right). It costs a real GPU one round per 1 024.
    for (var k = 0u; k < SOLO_PHASES; k++) {
        if lid == 0u {
            w_snap = load_snap(true);
        }
        let s = workgroupUniformLoad(&w_snap);
        if !(s.kind == NF_K_RELAX || s.kind == NF_K_SPLIT) || s.solo == 0u {
            break;
        }
        nf_run_phase(true, s, 0u, 1u, lid);
        storageBarrier();
        if lid == 0u {
            nf_schedule(true);
            nf_publish(true);
        }
        workgroupBarrier();
    }
    workgroupBarrier();
    if lid == 0u {
        let s = load_snap(true);
        var g = 0u;
        if (s.kind == NF_K_RELAX || s.kind == NF_K_SPLIT) && s.solo == 0u {
            if s.kind == NF_K_RELAX {
                g = max((s.n_in + P.grid_wg - 1u) / P.grid_wg, s.n_p);
                if EVEN {
                    g = max(g, min((s.n_in + 31u) / 32u, P.max_groups / 4u));
                }
            } else {
                g = (min(s.n_in, P.far_cap) + P.grid_wg - 1u) / P.grid_wg;
            }
            g = clamp(g, 1u, P.max_groups);
        } else if FUSED && (s.kind == NF_K_RELAX || s.kind == NF_K_SPLIT) {
            // The solo stretch stopped at SOLO_PHASES: one workgroup goes on with it.
            g = 1u;
        }
        args[3] = g;
    }
    for (var i = lid; i < NF_C_WORDS; i += WG) {
        atomicStore(&ctl[i], atomicLoad(&w_ctl[i]));
    }
}

// A grid workgroup's start: the phase's snapshot for every invocation, the stage emptied.
fn grid_begin(lid: u32) -> Snap {
    if lid == 0u {
        w_snap = load_snap(false);
        atomicStore(&st_nn, 0u);
        atomicStore(&st_nf, 0u);
        atomicStore(&st_fmin, INF);
    }
    return workgroupUniformLoad(&w_snap);
}

// One grid phase over all workgroups of the dispatch; the scheduler runs in the next dispatch.
@compute @workgroup_size(WG)
fn nf_grid(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
) {
    if lid == 0u && wg.x == 0u {
        cs(false, NF_C_PENDING, 1u);
    }
    let s = grid_begin(lid);
    if s.kind == NF_K_RELAX || s.kind == NF_K_SPLIT {
        nf_run_phase(false, s, wg.x, nwg.x, lid);
    }
}

// A round in one dispatch (FUSED; docs/gpu-worklist.md §17): the grid phase on every workgroup,
// then the last workgroup to finish — counted on NF_C_GROUPS_DONE, CUDA's grid-barrier word,
// unused on wgpu — runs nf_round's work (the scheduler, a solo stretch, the next step's size)
// while the others have exited. Sized at one workgroup it only runs that work (a solo stretch
// that went on past SOLO_PHASES). The storageBarrier on each side of the count (device-scope
// acquire/release in naga's SPIR-V) makes every workgroup's appends and counts visible to the
// last. The host binds `args` to the other of two buffers than the one this dispatch's size comes
// from (a buffer may not be indirect and writable storage in one dispatch).
@compute @workgroup_size(WG)
fn nf_step(
    @builtin(local_invocation_index) lid: u32,
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
) {
    let s = grid_begin(lid);
    let grid = (s.kind == NF_K_RELAX || s.kind == NF_K_SPLIT) && s.solo == 0u;
    if grid {
        nf_run_phase(false, s, wg.x, nwg.x, lid);
    }
    storageBarrier();
    if lid == 0u {
        w_last = u32(atomicAdd(&ctl[NF_C_GROUPS_DONE], 1u) + 1u == nwg.x);
    }
    if workgroupUniformLoad(&w_last) == 0u {
        return;
    }
    storageBarrier();
    if lid == 0u {
        atomicStore(&ctl[NF_C_GROUPS_DONE], 0u);
        if grid {
            atomicStore(&ctl[NF_C_PENDING], 1u);
        }
    }
    storageBarrier();
    nf_round_body(lid);
}
