// sssp-lab: the fast path — the same frontier solve (Martín or Crauser, successors or
// predecessors) with the work lists and fused minimum of kernels/fast.cu, in two dispatches
// per iteration instead of a persistent kernel (WGSL has no grid-wide barrier). The host reads
// nothing inside a batch of iterations; it submits batches and reads a small control block and
// the per-iteration log.
//
// Launched from: src/device/wgpu/stepper.rs (module `sssp_lab::device::wgpu`), `run_to_end`
// without instrumentation, with kernels/common.wgsl and the arc accessors prepended. The
// vertex-parallel kernels of kernels/frontier.wgsl stay the teaching/stepping path.
//
// Papers: docs/references.md [seed000], [seed004].
// Paper sections: the algorithm is seed 000 §3 (Alg. 1: relax, minimum, update until Δ = ∞;
// Crauser's Δ = min δ + ω, §3.1; successors §3.2; Martín and predecessors §3.3) and seed 004
// §3–4 (relax_F with atomicMin, relax_U pulling from frontier in-neighbours). What differs is
// only how the GPU is used:
//
// * Work items. update(i) appends Fᵢ₊₁ to a compacted list of (vertex, chunk) items: a vertex
//   of out-degree d gives ⌈d / CHUNK⌉ items of at most CHUNK arcs (CHUNK = 64·TEAM), so a hub is
//   shared by many teams instead of holding one back (workgroup-aggregated appends). The
//   successors relax walks that list instead of launching n invocations. The predecessors relax
//   walks a fixed list of the same kind over every vertex's in-arcs (built once by the host).
// * Teams. TEAM consecutive invocations (a power of two ≤ 32, from the graph's mean degree)
//   share one item and stride over its arcs, so arc reads are coalesced.
// * Minimum fused into relax and update. The minimum over U after relax(i) is the min over the
//   survivors of update(i − 1) (δ before the relax) and over the relax values that lowered some
//   δ — a value that did not lower δ(u) cannot be the final δ(u), and settled vertices are never
//   lowered — so update(i − 1) folds its survivors and relax(i) folds its successful lowerings
//   into mins[i mod 3] (δ and δ + ω). update(i) reads Δᵢ from there: no minimum kernels, no
//   host round trip. Thresholds are triple-buffered by iteration so nobody waits for a reset.
//   Predecessors items of one vertex lower δ with atomicMin (still only that vertex's items
//   write it).
// * Dispatch sizes on the GPU. Relax is dispatched indirectly from args_a / args_b (by the
//   parity of the iteration); update(i) sizes relax(i + 1) with atomicMax over its workgroups'
//   running list length (successors: ⌈items·TEAM / RELAX_WG⌉ workgroups, at most RELAX_CAP;
//   predecessors: RELAX_FIXED) and clears the size relax(i) used, so an empty frontier — the end
//   of the solve — leaves later relaxes of the batch empty. update(i) that finds min δ = ∞
//   raises done; later updates of the batch return at once.
//
// fctl (atomic u32): [0..6) mins[i mod 3] = (min δ, min δ + ω); [6 + (i & 1)] items in the list
// of parity i & 1; [12 + (i & 1)] vertices in it; [8] the iteration relax runs (written by
// update); [9] the iteration update runs (written by relax); [10] the first iteration of the
// batch; [11] done; from word 16 the log, LOG_WORDS per iteration of the batch (slot = i − [10]).
// vinfo[v] = (ω(v), items of v). P.pad = items of the predecessors list.

// CRAUSER, the bindings shared with the other frontier kernels (dist_atomic, dist_ro, status,
// status_ro, offsets) and the fctl words F_* (src/device/layout.rs) are prepended.

/// Invocations per vertex in the relax kernels (power of two, 1…32).
override TEAM: u32 = 32u;
/// Workgroup size of the relax kernels (update sizes their dispatch).
override RELAX_WG: u32 = 256u;
/// Most relax workgroups (teams loop over the rest of the list).
override RELAX_CAP: u32 = 1024u;
/// Relax workgroups when not sized by the frontier (predecessors scan every vertex); 0 = sized.
override RELAX_FIXED: u32 = 0u;
/// Arcs per work item.
override CHUNK: u32 = 2048u;

/// Any status that is not UNSET (out-of-range lanes of fast_update).
const SETTLED_MARK: u32 = 0u;

@group(0) @binding(5) var<storage, read> vinfo: array<vec2<u32>>;
@group(0) @binding(10) var<storage, read_write> flist: array<vec2<u32>>;
@group(0) @binding(10) var<storage, read> flist_ro: array<vec2<u32>>;
@group(0) @binding(11) var<storage, read_write> fctl: array<atomic<u32>>;
@group(0) @binding(12) var<storage, read_write> args_a: array<atomic<u32>>;
@group(0) @binding(13) var<storage, read_write> args_b: array<atomic<u32>>;

var<workgroup> s_min: array<atomic<u32>, 2>;
var<workgroup> s_count: atomic<u32>;
var<workgroup> s_verts: atomic<u32>;
var<workgroup> s_reached: atomic<u32>;
var<workgroup> s_hdr: vec4<u32>;
var<workgroup> s_base: u32;

fn crauser_key(d: u32, v: u32) -> u32 {
    let w = vinfo[v].x;
    return select(d + w, INF, w == INF);
}

/// Folds a candidate (δ, δ + ω) into the workgroup minimum.
fn fold(d: u32, v: u32) {
    atomicMin(&s_min[0], d);
    atomicMin(&s_min[1], crauser_key(d, v));
}

/// Thread 0: the workgroup minimum into mins[slot].
fn flush_min(slot: u32) {
    let m = atomicLoad(&s_min[0]);
    if m != INF {
        atomicMin(&fctl[F_MINS + 2u * slot], m);
        atomicMin(&fctl[F_MINS + 2u * slot + 1u], atomicLoad(&s_min[1]));
    }
}

/// Start of the frontier list of a parity (the fast path's params hold the list capacity in
/// `partials` and the number of predecessors items in `pad`).
fn list_base(parity: u32) -> u32 {
    return parity * P.partials;
}

/// Clears the workgroup's minima and counters (invocation 0, before a barrier).
fn clear_shared() {
    atomicStore(&s_min[0], INF);
    atomicStore(&s_min[1], INF);
    atomicStore(&s_count, 0u);
    atomicStore(&s_verts, 0u);
    atomicStore(&s_reached, 0u);
}

// Builds the frontier list of iteration i = fctl[8] from status and folds every reached
// unsettled vertex into mins[i mod 3]: the start of a fast run from any state.
@compute @workgroup_size(WG)
fn fast_setup(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        clear_shared();
        s_hdr = vec4<u32>(atomicLoad(&fctl[F_ITER_R]), 0u, 0u, 0u);
    }
    let i = workgroupUniformLoad(&s_hdr).x;
    let p = i & 1u;
    let t = thread_index(wg, nwg, lid);
    var mine = INF;
    var k = 0u;
    if t < P.n {
        let st = status_ro[t];
        if st == i {
            // vinfo.y = 0 for predecessors: their item list is fixed, only |F| is counted.
            k = vinfo[t].y;
            mine = atomicAdd(&s_count, k);
            atomicAdd(&s_verts, 1u);
        } else if st == UNSET {
            let d = dist_ro[t];
            if d != INF {
                fold(d, t);
            }
        }
    }
    workgroupBarrier();
    if lid == 0u {
        s_base = atomicAdd(&fctl[F_COUNT + p], atomicLoad(&s_count));
        atomicAdd(&fctl[F_VERTS + p], atomicLoad(&s_verts));
        flush_min(i % 3u);
    }
    let base = workgroupUniformLoad(&s_base);
    for (var c = 0u; c < k; c++) {
        flist[list_base(p) + base + mine + c] = vec2<u32>(t, c);
    }
}

/// The start of both relax kernels: clears the workgroup's minima, reads the iteration i the
/// relax runs and (invocation 0) resets what iteration i + 1 fills and tells update which
/// iteration it runs. Returns i.
fn relax_begin(lid: u32, t: u32) -> u32 {
    if lid == 0u {
        atomicStore(&s_min[0], INF);
        atomicStore(&s_min[1], INF);
    }
    workgroupBarrier();
    let i = atomicLoad(&fctl[F_ITER_R]);
    relax_prologue(t, i);
    return i;
}

/// The end of both relax kernels: the workgroup's minima go to mins[i mod 3].
fn relax_end(lid: u32, i: u32) {
    workgroupBarrier();
    if lid == 0u {
        flush_min(i % 3u);
    }
}

/// Resets what iteration i + 1 fills and tells update which iteration it runs (invocation 0).
fn relax_prologue(t: u32, i: u32) {
    if t == 0u {
        atomicStore(&fctl[F_COUNT + 1u - (i & 1u)], 0u);
        atomicStore(&fctl[F_VERTS + 1u - (i & 1u)], 0u);
        let next = (i + 1u) % 3u;
        atomicStore(&fctl[F_MINS + 2u * next], INF);
        atomicStore(&fctl[F_MINS + 2u * next + 1u], INF);
        atomicStore(&fctl[F_ITER_U], i);
    }
}

// Successors: teams walk the frontier items; each lane pushes along every TEAM-th arc of the
// item's chunk with atomicMin and folds the values that lowered δ.
@compute @workgroup_size(WG)
fn fast_relax_succ(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
    let t = thread_index(wg, nwg, lid);
    let i = relax_begin(lid, t);
    let p = i & 1u;
    let teams = nwg.x * nwg.y * WG / TEAM;
    let team = t / TEAM;
    let lane = t % TEAM;
    let count = atomicLoad(&fctl[F_COUNT + p]);
    for (var j = team; j < count; j += teams) {
        let item = flist_ro[list_base(p) + j];
        let f = item.x;
        let df = atomicLoad(&dist_atomic[f]);
        let b = offsets[f] + item.y * CHUNK;
        let e = min(offsets[f + 1u], b + CHUNK);
        for (var a = b + lane; a < e; a += TEAM) {
            let v = arc_target(a);
            if status_ro[v] == UNSET {
                let nd = df + arc_weight(a);
                if nd < atomicMin(&dist_atomic[v], nd) {
                    fold(nd, v);
                }
            }
        }
    }
    relax_end(lid, i);
}

// Predecessors: teams walk the fixed items of every vertex's in-arcs (P.pad of them); for an
// unsettled vertex every lane pulls over every TEAM-th in-arc of the chunk from frontier
// in-neighbours and lowers δ with atomicMin (only this vertex's lanes write it) when its value
// beats δ as read at the start — no workgroup barriers, so teams never wait for each other.
@compute @workgroup_size(WG)
fn fast_relax_pred(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
    let t = thread_index(wg, nwg, lid);
    let i = relax_begin(lid, t);
    let teams = nwg.x * nwg.y * WG / TEAM;
    let team = t / TEAM;
    let lane = t % TEAM;
    let items = P.pad;
    for (var j = team; j < items; j += teams) {
        let item = flist_ro[j];
        let v = item.x;
        if status_ro[v] == UNSET {
            let b = offsets[v] + item.y * CHUNK;
            let e = min(offsets[v + 1u], b + CHUNK);
            var best = INF;
            for (var a = b + lane; a < e; a += TEAM) {
                let p = arc_target(a);
                if status_ro[p] == i {
                    best = min(best, atomicLoad(&dist_atomic[p]) + arc_weight(a));
                }
            }
            if best != INF && best < atomicLoad(&dist_atomic[v]) && best < atomicMin(&dist_atomic[v], best) {
                fold(best, v);
            }
        }
    }
    relax_end(lid, i);
}

/// Relax workgroups for a frontier list of `total` vertices.
fn relax_groups(total: u32) -> u32 {
    if RELAX_FIXED != 0u {
        return RELAX_FIXED;
    }
    return min((total * TEAM + RELAX_WG - 1u) / RELAX_WG, RELAX_CAP);
}

// Settles U ∩ {δ ≤ Δᵢ} into the next frontier (status i + 1, appended to the list of parity
// i + 1), folds the survivors into mins[(i + 1) mod 3], counts the reached vertices, and logs
// the iteration (thresholds, |Fᵢ|). Δᵢ = min δ = ∞ ends the solve. A fixed grid (at most a few
// hundred workgroups) strides over the vertices and each workgroup adds to the shared counters
// once — global atomics on one address serialise, so n/WG workgroups each adding would cost
// more than the scan. Each invocation first counts its work items, then (after the workgroup
// has reserved its range of the list) writes them in order.
@compute @workgroup_size(WG)
fn fast_update(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        clear_shared();
        let i = atomicLoad(&fctl[F_ITER_U]);
        let slot = F_MINS + 2u * (i % 3u);
        s_hdr = vec4<u32>(i, atomicLoad(&fctl[F_DONE]), atomicLoad(&fctl[slot]), atomicLoad(&fctl[slot + 1u]));
    }
    let hdr = workgroupUniformLoad(&s_hdr);
    if hdr.y != 0u {
        return;
    }
    let i = hdr.x;
    let martin = hdr.z;
    let crauser = select(hdr.w, INF, martin == INF);
    var delta = martin;
    if CRAUSER {
        delta = max(crauser, martin);
    }
    let q = (i + 1u) & 1u;
    let next = i + 1u;
    let t = thread_index(wg, nwg, lid);
    let stride = nwg.x * nwg.y * WG;
    let n = P.n;
    var items = 0u;
    var verts = 0u;
    var reached = 0u;
    var md = INF;
    var mc = INF;
    // Four vertices per step, their loads issued together (the loop is latency-bound).
    for (var v0 = t; v0 < n; v0 += 4u * stride) {
        var st: array<u32, 4>;
        var d: array<u32, 4>;
        for (var k = 0u; k < 4u; k++) {
            let v = v0 + k * stride;
            st[k] = SETTLED_MARK;
            if v < n {
                st[k] = status[v];
                d[k] = dist_ro[v];
            }
        }
        for (var k = 0u; k < 4u; k++) {
            let v = v0 + k * stride;
            if st[k] == UNSET && d[k] != INF {
                reached += 1u;
                if d[k] <= delta {
                    status[v] = next;
                    verts += 1u;
                    if RELAX_FIXED == 0u {
                        items += vinfo[v].y;
                    }
                } else {
                    md = min(md, d[k]);
                    mc = min(mc, crauser_key(d[k], v));
                }
            }
        }
    }
    var mine = 0u;
    if items != 0u {
        mine = atomicAdd(&s_count, items);
    }
    if verts != 0u {
        atomicAdd(&s_verts, verts);
    }
    if reached != 0u {
        atomicAdd(&s_reached, reached);
    }
    if md != INF {
        atomicMin(&s_min[0], md);
        atomicMin(&s_min[1], mc);
    }
    workgroupBarrier();
    let log = F_LOG + (i - atomicLoad(&fctl[F_BASE])) * LOG_WORDS;
    if lid == 0u {
        // Global atomics only where there is something to add (they serialise per address).
        let c = atomicLoad(&s_count);
        s_base = 0u;
        if c != 0u {
            s_base = atomicAdd(&fctl[F_COUNT + q], c);
        }
        let nv = atomicLoad(&s_verts);
        if nv != 0u {
            atomicAdd(&fctl[F_VERTS + q], nv);
            let g = relax_groups(s_base + c);
            if q == 0u {
                atomicMax(&args_a[0], g);
            } else {
                atomicMax(&args_b[0], g);
            }
        }
        flush_min((i + 1u) % 3u);
        let r = atomicLoad(&s_reached);
        if r != 0u {
            atomicAdd(&fctl[log + L_REACHED], r);
        }
    }
    let base = workgroupUniformLoad(&s_base);
    if items != 0u {
        var at = list_base(q) + base + mine;
        for (var v = t; v < P.n; v += stride) {
            if status[v] == next {
                let k = vinfo[v].y;
                for (var c = 0u; c < k; c++) {
                    flist[at] = vec2<u32>(v, c);
                    at += 1u;
                }
            }
        }
    }
    if t == 0u {
        atomicStore(&fctl[log + L_DELTA_MARTIN], martin);
        atomicStore(&fctl[log + L_DELTA_CRAUSER], crauser);
        atomicStore(&fctl[log + L_FRONTIER], atomicLoad(&fctl[F_VERTS + (i & 1u)]));
        atomicStore(&fctl[F_ITER_R], i + 1u);
        // relax(i) has run: clear its size for relax(i + 2), which update(i + 1) sizes.
        if q == 0u {
            atomicStore(&args_b[0], 0u);
        } else {
            atomicStore(&args_a[0], 0u);
        }
        if martin == INF {
            atomicStore(&fctl[F_DONE], 1u);
        }
    }
}
