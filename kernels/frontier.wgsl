// sssp-lab: vertex-parallel frontier SSSP kernels, one invocation per vertex, three kernels per
// iteration (relax, minimum, update) exactly as the papers launch them. Used for stepping and for
// the instrumented (counting) mode, whose figures must equal the CPU model's. The twin of
// kernels/frontier.cu (same entry points and counters).
//
// Launched from: src/device/wgpu/stepper.rs (module `sssp_lab::device::wgpu`), with
// kernels/common.wgsl and the arc accessors prepended by src/device/wgpu/kernels.rs.
//
// Paper sections (docs/references.md [seed000], [seed004], [cuda-reduction]):
// - relax_succ (successors, atomicMin; seed 000 Alg. 2 left, seed 004 Fig. 3 relax_F) and
//   update (seed 000 Alg. 2 right, seed 004 Fig. 4 left): seed 000 §3.2; relax_pred (relax_U:
//   unsettled vertices pull from frontier in-neighbours, no atomics): seed 000 §3.3, seed 004 §3.
// - minimum: seed 004 Fig. 4 right (min1: each workgroup reduces 2·WG values, the first min taken
//   while loading as in the CUDA SDK's reduce4) plus a second pass (sssp_min2, seed 004 §4.1)
//   over the per-workgroup minima, on the GPU: it stores Δ where update reads it, so no value
//   crosses to the host inside an iteration. Both Martín's min δ and Crauser's min δ + ω
//   (seed 000 §3.1) are computed so the records can show both thresholds.
// - Instrumented mode (INSTRUMENT) counts per relax the frontier and unsettled threads, the
//   32-thread warp classes (the first invocation of each warp counts its working threads, so any
//   block size works), arcs scanned, relaxations attempted, distinct vertices lowered; min1
//   counts reached vertices and update the next frontier.
//
// ctrl (u32): [0] Δ for update, [1] done, [2] log slot of the iteration in flight, [3] the
// iteration i. sssp_min2 advances slot and i, so update settles into status i + 1 = ctrl[3] and
// counts into slot ctrl[2] − 1.

/// Crauser's threshold (min δ + ω); false = Martín's (min δ).
override CRAUSER: bool = false;

const C_DELTA: u32 = 0u;
const C_DONE: u32 = 1u;
const C_SLOT: u32 = 2u;
const C_ITER: u32 = 3u;

// The same buffer is declared with the access each kernel needs (no entry point uses both).
@group(0) @binding(1) var<storage, read_write> dist: array<u32>;
@group(0) @binding(1) var<storage, read_write> dist_atomic: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read> dist_ro: array<u32>;
@group(0) @binding(2) var<storage, read_write> status: array<u32>;
@group(0) @binding(2) var<storage, read> status_ro: array<u32>;
@group(0) @binding(3) var<storage, read_write> ctrl: array<u32>;
@group(0) @binding(3) var<storage, read> ctrl_ro: array<u32>;
@group(0) @binding(5) var<storage, read> omega: array<u32>;
@group(0) @binding(6) var<storage, read_write> partials: array<vec2<u32>>;
@group(0) @binding(7) var<storage, read> offsets: array<u32>;
@group(0) @binding(8) var<storage, read_write> stamp: array<atomic<u32>>;
@group(0) @binding(9) var<storage, read_write> indirect: array<u32>;

// δ = ∞ and U = V, except the source: settled, δ(s) = 0, frontier of iteration 1.
@compute @workgroup_size(WG)
fn sssp_init(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let t = thread_index(wg, nwg, lid);
    if t < P.n {
        let s = t == P.source;
        dist[t] = select(INF, 0u, s);
        status[t] = select(UNSET, 1u, s);
    }
}

// Warp classes of the relax launch: the first invocation of each 32-thread warp counts the
// working threads of its warp (threads past n are dummies). `lanes`: also the warp's iterations of
// a one-thread-per-vertex successors loop, its largest frontier out-degree (lane use).
fn count_warp(t: u32, n: u32, frontier_working: bool, i: u32, lanes: bool) {
    if t % WARP == 0u {
        var working = 0u;
        var most = 0u;
        let end = min(t + WARP, n);
        for (var v = t; v < end; v++) {
            let st = status_ro[v];
            let w = select(st == UNSET, st == i, frontier_working);
            working += u32(w);
            if lanes && w {
                most = max(most, offsets[v + 1u] - offsets[v]);
            }
        }
        acc_add(L_WARPS_FULL, u32(working == WARP));
        acc_add(L_WARPS_MIXED, u32(working != 0u && working != WARP));
        acc_add(L_WARP_ITERS, most);
    }
}

// Successors: frontier vertex f pushes δ(f) + w along its out-arcs to unsettled vertices with
// atomicMin. The invocation whose atomicMin lowered δ(v) swaps the iteration into stamp[v]; the
// first to do so in this iteration counts v as improved.
@compute @workgroup_size(WG)
fn relax_succ(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    acc_begin(lid);
    let t = thread_index(wg, nwg, lid);
    let n = P.n;
    let i = ctrl_ro[C_ITER];
    if t < n {
        let st = status_ro[t];
        if st == i {
            // A frontier vertex is settled: its δ does not change during this kernel.
            let dt = atomicLoad(&dist_atomic[t]);
            let b = offsets[t];
            let e = offsets[t + 1u];
            var attempted = 0u;
            var improved = 0u;
            for (var a = b; a < e; a++) {
                let v = arc_target(a);
                if status_ro[v] == UNSET {
                    let nd = dt + arc_weight(a);
                    let old = atomicMin(&dist_atomic[v], nd);
                    if INSTRUMENT {
                        attempted += 1u;
                        if nd < old && atomicExchange(&stamp[v], i) != i {
                            improved += 1u;
                        }
                    }
                }
            }
            if INSTRUMENT {
                acc_add(L_FRONTIER, 1u);
                acc_add(L_EDGES, e - b);
                acc_add(L_ATTEMPTED, attempted);
                acc_add(L_IMPROVED, improved);
            }
        } else if INSTRUMENT && st == UNSET {
            acc_add(L_UNSETTLED, 1u);
        }
        if INSTRUMENT {
            count_warp(t, n, true, i, true);
        }
    }
    if INSTRUMENT {
        acc_flush(lid, ctrl_ro[C_SLOT]);
    }
}

var<workgroup> s_pos: array<u32, WG>;
var<workgroup> s_beg: array<u32, WG>;
var<workgroup> s_dv: array<u32, WG>;

// relax=balanced (the twin of relax_succ_bal in frontier.cu): the workgroup's frontier vertices
// put their out-degrees in a prefix sum; every invocation then takes arcs lid, lid + WG … of the
// workgroup's total and finds its vertex by binary search, so a hub's arcs are spread over the
// workgroup instead of one invocation. The same relaxations and counts as relax_succ.
@compute @workgroup_size(WG)
fn relax_succ_balanced(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                       @builtin(local_invocation_index) lid: u32) {
    acc_begin(lid);
    let t = thread_index(wg, nwg, lid);
    let n = P.n;
    let i = ctrl_ro[C_ITER];
    var deg = 0u;
    if t < n {
        let st = status_ro[t];
        if st == i {
            let b = offsets[t];
            deg = offsets[t + 1u] - b;
            s_beg[lid] = b;
            s_dv[lid] = atomicLoad(&dist_atomic[t]);
            if INSTRUMENT {
                acc_add(L_FRONTIER, 1u);
                acc_add(L_EDGES, deg);
            }
        } else if INSTRUMENT && st == UNSET {
            acc_add(L_UNSETTLED, 1u);
        }
        if INSTRUMENT {
            count_warp(t, n, true, i, false);
        }
    }
    // Inclusive Hillis-Steele scan of the degrees over the workgroup, then exclusive.
    s_pos[lid] = deg;
    for (var o = 1u; o < WG; o *= 2u) {
        workgroupBarrier();
        var x = 0u;
        if lid >= o {
            x = s_pos[lid - o];
        }
        workgroupBarrier();
        s_pos[lid] += x;
    }
    workgroupBarrier();
    let total = s_pos[WG - 1u];
    workgroupBarrier();
    s_pos[lid] -= deg;
    workgroupBarrier();
    var attempted = 0u;
    var improved = 0u;
    for (var j = lid; j < total; j += WG) {
        // The last k with s_pos[k] <= j owns arc j (zero-degree entries are skipped).
        var lo = 0u;
        var hi = WG - 1u;
        while lo < hi {
            let mid = (lo + hi + 1u) / 2u;
            if s_pos[mid] <= j {
                lo = mid;
            } else {
                hi = mid - 1u;
            }
        }
        let a = s_beg[lo] + (j - s_pos[lo]);
        let v = arc_target(a);
        if status_ro[v] == UNSET {
            let nd = s_dv[lo] + arc_weight(a);
            let old = atomicMin(&dist_atomic[v], nd);
            if INSTRUMENT {
                attempted += 1u;
                if nd < old && atomicExchange(&stamp[v], i) != i {
                    improved += 1u;
                }
            }
        }
    }
    if INSTRUMENT {
        acc_add(L_ATTEMPTED, attempted);
        acc_add(L_IMPROVED, improved);
        if lid == 0u && total != 0u {
            acc_add(L_WARP_ITERS, balanced_warp_iters(total));
        }
        acc_flush(lid, ctrl_ro[C_SLOT]);
    }
}

// Predecessors: unsettled vertex u scans all its in-arcs (the transposed CSR) and pulls
// min δ(f) + w(f, u) over frontier predecessors f. Only u's invocation writes δ(u), and frontier
// vertices are settled (never written here), so there are no atomics.
@compute @workgroup_size(WG)
fn relax_pred(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    acc_begin(lid);
    let t = thread_index(wg, nwg, lid);
    let n = P.n;
    let i = ctrl_ro[C_ITER];
    if t < n {
        let st = status_ro[t];
        if st == UNSET {
            let b = offsets[t];
            let e = offsets[t + 1u];
            let old = dist[t];
            var best = old;
            var attempted = 0u;
            for (var a = b; a < e; a++) {
                let p = arc_target(a);
                if status_ro[p] == i {
                    best = min(best, dist[p] + arc_weight(a));
                    if INSTRUMENT {
                        attempted += 1u;
                    }
                }
            }
            if best < old {
                dist[t] = best;
            }
            if INSTRUMENT {
                acc_add(L_UNSETTLED, 1u);
                acc_add(L_EDGES, e - b);
                acc_add(L_ATTEMPTED, attempted);
                acc_add(L_IMPROVED, u32(best < old));
            }
        } else if INSTRUMENT && st == i {
            acc_add(L_FRONTIER, 1u);
        }
        if INSTRUMENT {
            count_warp(t, n, false, i, false);
        }
    }
    if INSTRUMENT {
        acc_flush(lid, ctrl_ro[C_SLOT]);
    }
}

var<workgroup> s_delta: array<u32, WG>;
var<workgroup> s_crauser: array<u32, WG>;

/// Tree reduction of s_delta / s_crauser into element 0 (any WG, not only powers of two).
fn reduce_shared(lid: u32) {
    var half = 1u;
    while half < WG {
        half <<= 1u;
    }
    half >>= 1u;
    while half > 0u {
        if lid < half && lid + half < WG {
            s_delta[lid] = min(s_delta[lid], s_delta[lid + half]);
            s_crauser[lid] = min(s_crauser[lid], s_crauser[lid + half]);
        }
        workgroupBarrier();
        half >>= 1u;
    }
}

/// (δ, δ + ω) of an unsettled reached vertex, (∞, ∞) otherwise.
fn pair(v: u32) -> vec2<u32> {
    let d = dist_ro[v];
    if status_ro[v] != UNSET || d == INF {
        return vec2<u32>(INF, INF);
    }
    let w = omega[v];
    return vec2<u32>(d, select(d + w, INF, w == INF));
}

@compute @workgroup_size(WG)
fn min1(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    acc_begin(lid);
    let group = wg.y * nwg.x + wg.x;
    let a = group * 2u * WG + lid;
    let b = a + WG;
    var m = vec2<u32>(INF, INF);
    if a < P.n {
        m = pair(a);
        if INSTRUMENT {
            acc_add(L_REACHED, u32(m.x != INF));
        }
    }
    if b < P.n {
        let m2 = pair(b);
        m = min(m, m2);
        if INSTRUMENT {
            acc_add(L_REACHED, u32(m2.x != INF));
        }
    }
    s_delta[lid] = m.x;
    s_crauser[lid] = m.y;
    workgroupBarrier();
    reduce_shared(lid);
    if lid == 0u && group < P.partials {
        partials[group] = vec2<u32>(s_delta[0], s_crauser[0]);
    }
    if INSTRUMENT {
        acc_flush(lid, ctrl_ro[C_SLOT]);
    }
}

// One workgroup: reduces the partial minima, picks Δ by the policy, stores it for update, logs
// both thresholds, advances slot and iteration; when nothing reached is left (min δ = ∞) raises
// done and zeroes the indirect dispatch sizes of relax and min1, so the rest of a batch of
// iterations costs (almost) no work.
@compute @workgroup_size(WG)
fn sssp_min2(@builtin(local_invocation_index) lid: u32) {
    var m = vec2<u32>(INF, INF);
    for (var k = lid; k < P.partials; k += WG) {
        m = min(m, partials[k]);
    }
    s_delta[lid] = m.x;
    s_crauser[lid] = m.y;
    workgroupBarrier();
    reduce_shared(lid);
    if lid == 0u && ctrl[C_DONE] == 0u {
        let martin = s_delta[0];
        // If no reached vertex is left both are ∞; if all of them are sinks min δ + ω = ∞.
        let crauser = select(s_crauser[0], INF, martin == INF);
        var delta = martin;
        if CRAUSER {
            delta = max(crauser, martin);
        }
        let slot = ctrl[C_SLOT];
        atomicStore(&log[slot * LOG_WORDS + L_DELTA_MARTIN], martin);
        atomicStore(&log[slot * LOG_WORDS + L_DELTA_CRAUSER], crauser);
        ctrl[C_DELTA] = delta;
        ctrl[C_SLOT] = slot + 1u;
        ctrl[C_ITER] = ctrl[C_ITER] + 1u;
        if martin == INF {
            ctrl[C_DONE] = 1u;
            indirect[0] = 0u;
            indirect[3] = 0u;
        }
    }
}

// Unsettled vertices with δ ≤ Δ (δ < ∞) are settled into the next frontier (status i + 1).
// For Martín Δ = min δ over U, so ≤ and = select the same vertices.
@compute @workgroup_size(WG)
fn update(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
          @builtin(local_invocation_index) lid: u32) {
    acc_begin(lid);
    let t = thread_index(wg, nwg, lid);
    if t < P.n && status[t] == UNSET {
        let d = dist_ro[t];
        if d != INF && d <= ctrl_ro[C_DELTA] {
            status[t] = ctrl_ro[C_ITER];
            if INSTRUMENT {
                acc_add(L_NEXT_FRONTIER, 1u);
            }
        }
    }
    if INSTRUMENT {
        acc_flush(lid, ctrl_ro[C_SLOT] - 1u);
    }
}
