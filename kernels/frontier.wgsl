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

// CRAUSER, the shared bindings (dist_atomic, dist_ro, status, status_ro, ctrl_ro, offsets,
// stamp), count_warp and the successors relax are in common_frontier.wgsl; the control words
// C_* come from src/device/layout.rs. The same buffer is declared with the access each kernel
// needs (no entry point uses two names of one binding).
@group(0) @binding(1) var<storage, read_write> dist: array<u32>;
@group(0) @binding(3) var<storage, read_write> ctrl: array<u32>;
@group(0) @binding(5) var<storage, read> omega: array<u32>;
@group(0) @binding(6) var<storage, read_write> partials: array<vec2<u32>>;
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

// Successors: frontier vertex f pushes δ(f) + w along its out-arcs to unsettled vertices with
// atomicMin (relax_succ_vertex, common_frontier.wgsl).
@compute @workgroup_size(WG)
fn relax_succ(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    relax_succ_vertex(thread_index(wg, nwg, lid), lid, false);
}

var<workgroup> s_dv: array<u32, WG>;

// relax=balanced (the twin of relax_succ_bal in frontier.cu): the workgroup's frontier arcs
// spread over its invocations by the balanced advance of common.wgsl, so a hub's arcs are spread
// over the workgroup instead of one invocation. The same relaxations and counts as relax_succ.
@compute @workgroup_size(WG)
fn relax_succ_balanced(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                       @builtin(local_invocation_index) lid: u32) {
    acc_begin(lid);
    let t = thread_index(wg, nwg, lid);
    let i = ctrl_ro[C_ITER];
    var beg = 0u;
    var deg = 0u;
    if t < P.n {
        let st = status_ro[t];
        if st == i {
            beg = offsets[t];
            deg = offsets[t + 1u] - beg;
            s_dv[lid] = atomicLoad(&dist_atomic[t]);
            if INSTRUMENT {
                acc_add(L_FRONTIER, 1u);
                acc_add(L_EDGES, deg);
            }
        } else if INSTRUMENT && st == UNSET {
            acc_add(L_UNSETTLED, 1u);
        }
        if INSTRUMENT {
            count_warp(t, P.n, true, i, false);
        }
    }
    let total = balanced_begin(lid, beg, deg);
    var counts = vec2<u32>(0u, 0u);
    for (var j = lid; j < total; j += WG) {
        let k = balanced_arc(j);
        counts += relax_arc(k.y, s_dv[k.x], i, false);
    }
    if INSTRUMENT {
        acc_add(L_ATTEMPTED, counts.x);
        acc_add(L_IMPROVED, counts.y);
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
    let i = ctrl_ro[C_ITER];
    if t < P.n {
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
            count_warp(t, P.n, false, i, false);
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
