// sssp-lab: Δ-stepping ([meyer-sanders]) on the GPU in WGSL, the twin of kernels/delta_stepping.cu.
// Design (docs/gpu-delta-stepping.md): vertex-parallel phases with the bucket state machine on
// the device. A phase is six dispatches in one compute pass, the host reads nothing in between:
//
// - ds_relax (n invocations): v relaxes when it is in the phase's frontier — light phase:
//   fr[v] == phase (v entered the current bucket); heavy phase: rr[v] == serial (v is in R, the
//   vertices removed from the current bucket). It proposes δ_prev(v) + w along its light
//   (w ≤ Δ) or heavy (w > Δ) arcs with atomicMin, skipping targets already settled (δ_prev in a
//   lower bucket; in the heavy phase also the current one).
// - ds_commit (n invocations): a vertex whose δ went below δ_prev is lowered: δ_prev ← δ; if its
//   new bucket is the current one it joins the next light frontier (and R, counting its heavy
//   arcs), else it waits in the far set (pend[v] = 1), bucketed lazily by δ_prev.
// - ds_advance (1 invocation): the bucket state machine — another light phase when the bucket
//   refilled; else R is settled, and the heavy phase follows when R has heavy arcs; else select.
// - ds_min_far, ds_open (n invocations, only when selecting): the lowest bucket of the far set
//   becomes current, its vertices the frontier (and R).
// - ds_advance2 (1 invocation): opens that bucket or ends the run; moves to the next log slot.
//
// Phases queued after the run ended return at once. Every phase writes one log entry
// (LOG_WORDS u32) with the figures of the CPU stepper's record (src/algo/delta_stepping).
// Sets are the same as the CPU's: a phase is synchronous (relaxes against δ_prev), and a lowered
// vertex is binned once by its δ after the phase.
//
// δ is u32, ∞ = 2³²−1; the host refuses graphs whose distances could reach it. Bucket tests use
// ⌊δ/Δ⌋, never iΔ, so nothing overflows.
//
// Launched from: src/device/wgpu/delta_stepping.rs; not prefixed with common.wgsl.

override WG: u32 = 256u;

const INF: u32 = 0xffffffffu;
const K_LIGHT: u32 = 0u;
const K_HEAVY: u32 = 1u;
const K_SELECT: u32 = 2u;
const K_DONE: u32 = 3u;

// ctl words (CTL_* in src/device/gpu_delta.rs)
const C_PHASE: u32 = 0u;
const C_SLOT: u32 = 1u;
const C_BUCKET: u32 = 2u;
const C_KIND: u32 = 3u;
const C_SERIAL: u32 = 4u;
const C_RSIZE: u32 = 5u;
const C_HEAVY_R: u32 = 6u;
const C_SETTLED: u32 = 7u;
const C_REACHED: u32 = 8u;
const C_MINB: u32 = 9u;
const C_OPENED: u32 = 10u;
const C_OPENED_HEAVY: u32 = 11u;

// log entry words (L_* in src/device/gpu_delta.rs)
const LOG_WORDS: u32 = 24u;
const L_VALID: u32 = 0u;
const L_FRONTIER: u32 = 1u;
const L_SCANNED: u32 = 2u;
const L_RELAXED: u32 = 3u;
const L_LOWERED: u32 = 4u;
const L_FRESH: u32 = 5u;
const L_NEXT: u32 = 6u;
const L_NEW_R: u32 = 7u;
const L_NEW_R_HEAVY: u32 = 8u;
const L_BUCKET: u32 = 9u;
const L_KIND: u32 = 10u;
const L_BUCKET_SIZE: u32 = 11u;
const L_NEXT_FRONTIER: u32 = 12u;
const L_SETTLED_BEFORE: u32 = 13u;
const L_SETTLED: u32 = 14u;
const L_REACHED: u32 = 15u;
const L_WARPS_FULL: u32 = 16u;
const L_WARPS_MIXED: u32 = 17u;
const L_SERIAL: u32 = 18u;
const L_DONE: u32 = 19u;
const L_ARC_ITERS: u32 = 20u;
const L_WARP_ITERS: u32 = 21u;

struct Params {
    n: u32,
    source: u32,
    delta: u32,
    pad: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> offsets: array<u32>;
@group(0) @binding(2) var<storage, read> targets: array<u32>;
@group(0) @binding(3) var<storage, read> weights: array<u32>;
@group(0) @binding(4) var<storage, read_write> prev: array<u32>;
@group(0) @binding(5) var<storage, read_write> dist: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> fr: array<u32>;
@group(0) @binding(7) var<storage, read_write> rr: array<u32>;
@group(0) @binding(8) var<storage, read_write> pend: array<u32>;
@group(0) @binding(9) var<storage, read_write> log: array<atomic<u32>>;
@group(0) @binding(10) var<storage, read_write> ctl: array<atomic<u32>, 16>;

// Per-workgroup sums (one global atomic per workgroup and counter) and per-warp working counts.
var<workgroup> acc: array<atomic<u32>, 8>;
var<workgroup> warp_work: array<atomic<u32>, 32>;
var<workgroup> warp_most: array<atomic<u32>, 32>;
// relax=balanced: the workgroup's degree prefix sums, arc starts and δ_prev of its vertices.
var<workgroup> s_pos: array<u32, 1024>;
var<workgroup> s_beg: array<u32, 1024>;
var<workgroup> s_du: array<u32, 1024>;

/// Warp rounds of the balanced loop over `total` arcs (the twin of balanced_warp_iters in
/// common.wgsl, which this standalone file does not include).
fn balanced_warp_iters(total: u32) -> u32 {
    var rounds = 0u;
    for (var base = 0u; base < WG && base < total; base += 32u) {
        rounds += (total - base + WG - 1u) / WG;
    }
    return rounds;
}

fn thread_index(wg: vec3<u32>, nwg: vec3<u32>, lid: u32) -> u32 {
    return (wg.y * nwg.x + wg.x) * WG + lid;
}

fn entry() -> u32 {
    return atomicLoad(&ctl[C_SLOT]) * LOG_WORDS;
}

fn heavy_degree(v: u32) -> u32 {
    var h = 0u;
    for (var e = offsets[v]; e < offsets[v + 1u]; e++) {
        h += select(0u, 1u, weights[e] > params.delta);
    }
    return h;
}

fn acc_clear(lid: u32) {
    if lid < 8u {
        atomicStore(&acc[lid], 0u);
    }
    if lid < 32u {
        atomicStore(&warp_work[lid], 0u);
        atomicStore(&warp_most[lid], 0u);
    }
    workgroupBarrier();
}

fn acc_add(k: u32, v: u32) {
    if v != 0u {
        atomicAdd(&acc[k], v);
    }
}

// Flushes acc[i] into ctl or log word dst[i] (dst 0xffffffff: unused).
fn acc_flush_log(lid: u32, e: u32, k: u32, word: u32) {
    if lid == k {
        let s = atomicLoad(&acc[k]);
        if s != 0u {
            atomicAdd(&log[e + word], s);
        }
    }
}

@compute @workgroup_size(WG)
fn ds_relax(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    acc_clear(lid);
    let v = thread_index(wg, nwg, lid);
    let kind = atomicLoad(&ctl[C_KIND]);
    let bucket = atomicLoad(&ctl[C_BUCKET]);
    let delta = params.delta;
    var working = false;
    if v < params.n && kind == K_LIGHT {
        working = fr[v] == atomicLoad(&ctl[C_PHASE]);
    }
    if v < params.n && kind == K_HEAVY {
        working = rr[v] == atomicLoad(&ctl[C_SERIAL]);
    }
    var scanned = 0u;
    var relaxed = 0u;
    if working {
        atomicAdd(&warp_work[lid / 32u], 1u);
        let deg = offsets[v + 1u] - offsets[v];
        atomicMax(&warp_most[lid / 32u], deg);
        acc_add(5u, deg);
        let du = prev[v];
        let light = kind == K_LIGHT;
        for (var e = offsets[v]; e < offsets[v + 1u]; e++) {
            let w = weights[e];
            if (w <= delta) != light {
                continue;
            }
            scanned++;
            let t = targets[e];
            let pt = prev[t];
            if pt != INF {
                let bt = pt / delta;
                if bt < bucket || (!light && bt == bucket) {
                    continue; // settled
                }
            }
            relaxed++;
            let nd = du + w; // below ∞: the host checked the distance range
            if nd < atomicLoad(&dist[t]) {
                atomicMin(&dist[t], nd);
            }
        }
        acc_add(0u, 1u);
        acc_add(1u, scanned);
        acc_add(2u, relaxed);
    }
    workgroupBarrier();
    let e = entry();
    // Warps of 32 consecutive invocations; WG is a multiple of 32 for exact figures.
    if lid % 32u == 0u {
        count_warp(lid);
        acc_add(6u, atomicLoad(&warp_most[lid / 32u]));
    }
    workgroupBarrier();
    if kind < K_SELECT {
        flush_relax(lid, e);
    }
}

// Warp classes of the launch (per 32 invocations), called by each warp's first invocation.
fn count_warp(lid: u32) {
    let c = atomicLoad(&warp_work[lid / 32u]);
    if c == 32u {
        atomicAdd(&acc[3], 1u);
    } else if c != 0u {
        atomicAdd(&acc[4], 1u);
    }
}

fn flush_relax(lid: u32, e: u32) {
    acc_flush_log(lid, e, 0u, L_FRONTIER);
    acc_flush_log(lid, e, 1u, L_SCANNED);
    acc_flush_log(lid, e, 2u, L_RELAXED);
    acc_flush_log(lid, e, 3u, L_WARPS_FULL);
    acc_flush_log(lid, e, 4u, L_WARPS_MIXED);
    acc_flush_log(lid, e, 5u, L_ARC_ITERS);
    acc_flush_log(lid, e, 6u, L_WARP_ITERS);
}

// relax=balanced (the twin of ds_relax_balanced in delta_stepping.cu): the workgroup's frontier
// vertices put their out-degrees in a prefix sum; every invocation then takes arcs lid, lid + WG …
// of the workgroup's total and finds its vertex by binary search.
@compute @workgroup_size(WG)
fn ds_relax_balanced(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                     @builtin(local_invocation_index) lid: u32) {
    acc_clear(lid);
    let v = thread_index(wg, nwg, lid);
    let kind = atomicLoad(&ctl[C_KIND]);
    let bucket = atomicLoad(&ctl[C_BUCKET]);
    let delta = params.delta;
    let light = kind == K_LIGHT;
    var working = false;
    if v < params.n && kind == K_LIGHT {
        working = fr[v] == atomicLoad(&ctl[C_PHASE]);
    }
    if v < params.n && kind == K_HEAVY {
        working = rr[v] == atomicLoad(&ctl[C_SERIAL]);
    }
    var deg = 0u;
    if working {
        atomicAdd(&warp_work[lid / 32u], 1u);
        deg = offsets[v + 1u] - offsets[v];
        s_beg[lid] = offsets[v];
        s_du[lid] = prev[v];
        acc_add(0u, 1u);
    }
    // Inclusive Hillis-Steele scan of the degrees over the workgroup.
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
    s_pos[lid] -= deg; // exclusive
    workgroupBarrier();
    var scanned = 0u;
    var relaxed = 0u;
    for (var i = lid; i < total; i += WG) {
        var lo = 0u;
        var hi = WG - 1u;
        while lo < hi {
            let mid = (lo + hi + 1u) / 2u;
            if s_pos[mid] <= i {
                lo = mid;
            } else {
                hi = mid - 1u;
            }
        }
        let e = s_beg[lo] + (i - s_pos[lo]);
        let w = weights[e];
        if (w <= delta) != light {
            continue;
        }
        scanned++;
        let t = targets[e];
        let pt = prev[t];
        if pt != INF {
            let bt = pt / delta;
            if bt < bucket || (!light && bt == bucket) {
                continue; // settled
            }
        }
        relaxed++;
        let nd = s_du[lo] + w;
        if nd < atomicLoad(&dist[t]) {
            atomicMin(&dist[t], nd);
        }
    }
    acc_add(1u, scanned);
    acc_add(2u, relaxed);
    if lid == 0u && total != 0u {
        acc_add(5u, total);
        acc_add(6u, balanced_warp_iters(total));
    }
    workgroupBarrier();
    let e = entry();
    if lid % 32u == 0u {
        count_warp(lid);
    }
    workgroupBarrier();
    if kind < K_SELECT {
        flush_relax(lid, e);
    }
}

@compute @workgroup_size(WG)
fn ds_commit(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    acc_clear(lid);
    let v = thread_index(wg, nwg, lid);
    let kind = atomicLoad(&ctl[C_KIND]);
    if v < params.n && kind < K_SELECT {
        let d = atomicLoad(&dist[v]);
        let p = prev[v];
        if d < p {
            acc_add(0u, 1u);
            if p == INF {
                acc_add(1u, 1u);
            }
            prev[v] = d;
            let serial = atomicLoad(&ctl[C_SERIAL]);
            if kind == K_LIGHT && d / params.delta == atomicLoad(&ctl[C_BUCKET]) {
                fr[v] = atomicLoad(&ctl[C_PHASE]) + 1u;
                pend[v] = 0u;
                acc_add(2u, 1u);
                if rr[v] != serial {
                    rr[v] = serial;
                    acc_add(3u, 1u);
                    acc_add(4u, heavy_degree(v));
                }
            } else {
                pend[v] = 1u;
            }
        }
    }
    workgroupBarrier();
    let e = entry();
    acc_flush_log(lid, e, 0u, L_LOWERED);
    acc_flush_log(lid, e, 1u, L_FRESH);
    acc_flush_log(lid, e, 2u, L_NEXT);
    acc_flush_log(lid, e, 3u, L_NEW_R);
    acc_flush_log(lid, e, 4u, L_NEW_R_HEAVY);
}

fn put(e: u32, k: u32, v: u32) {
    atomicStore(&log[e + k], v);
}

@compute @workgroup_size(1)
fn ds_advance() {
    let kind = atomicLoad(&ctl[C_KIND]);
    if kind >= K_SELECT {
        return;
    }
    let e = entry();
    let settled_before = atomicLoad(&ctl[C_SETTLED]);
    let reached = atomicLoad(&ctl[C_REACHED]) + atomicLoad(&log[e + L_FRESH]);
    atomicStore(&ctl[C_REACHED], reached);
    put(e, L_VALID, 1u);
    put(e, L_BUCKET, atomicLoad(&ctl[C_BUCKET]));
    put(e, L_KIND, kind);
    put(e, L_SERIAL, atomicLoad(&ctl[C_SERIAL]));
    put(e, L_SETTLED_BEFORE, settled_before);
    put(e, L_REACHED, reached - settled_before);
    var rsize = atomicLoad(&ctl[C_RSIZE]);
    put(e, L_BUCKET_SIZE, rsize);
    var next_kind = K_SELECT;
    if kind == K_LIGHT {
        rsize += atomicLoad(&log[e + L_NEW_R]);
        let heavy_r = atomicLoad(&ctl[C_HEAVY_R]) + atomicLoad(&log[e + L_NEW_R_HEAVY]);
        atomicStore(&ctl[C_RSIZE], rsize);
        atomicStore(&ctl[C_HEAVY_R], heavy_r);
        let next = atomicLoad(&log[e + L_NEXT]);
        if next > 0u {
            next_kind = K_LIGHT;
            put(e, L_NEXT_FRONTIER, next);
        } else {
            // The bucket stays empty: R is settled (the source was counted at the start).
            var add = rsize;
            if atomicLoad(&ctl[C_SERIAL]) == 1u {
                add -= 1u;
            }
            atomicStore(&ctl[C_SETTLED], settled_before + add);
            if heavy_r > 0u {
                next_kind = K_HEAVY;
                put(e, L_NEXT_FRONTIER, rsize);
            }
        }
    }
    put(e, L_SETTLED, atomicLoad(&ctl[C_SETTLED]));
    atomicStore(&ctl[C_KIND], next_kind);
    atomicStore(&ctl[C_PHASE], atomicLoad(&ctl[C_PHASE]) + 1u);
    atomicStore(&ctl[C_MINB], INF);
    atomicStore(&ctl[C_OPENED], 0u);
    atomicStore(&ctl[C_OPENED_HEAVY], 0u);
}

@compute @workgroup_size(WG)
fn ds_min_far(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let v = thread_index(wg, nwg, lid);
    if v < params.n && atomicLoad(&ctl[C_KIND]) == K_SELECT && pend[v] == 1u {
        atomicMin(&ctl[C_MINB], prev[v] / params.delta);
    }
}

@compute @workgroup_size(WG)
fn ds_open(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
    acc_clear(lid);
    let v = thread_index(wg, nwg, lid);
    let kind = atomicLoad(&ctl[C_KIND]);
    if v < params.n && kind == K_SELECT && pend[v] == 1u && prev[v] / params.delta == atomicLoad(&ctl[C_MINB]) {
        pend[v] = 0u;
        fr[v] = atomicLoad(&ctl[C_PHASE]);
        rr[v] = atomicLoad(&ctl[C_SERIAL]) + 1u;
        acc_add(0u, 1u);
        acc_add(1u, heavy_degree(v));
    }
    workgroupBarrier();
    if lid < 2u {
        let s = atomicLoad(&acc[lid]);
        if s != 0u {
            atomicAdd(&ctl[C_OPENED + lid], s);
        }
    }
}

@compute @workgroup_size(1)
fn ds_advance2() {
    let kind = atomicLoad(&ctl[C_KIND]);
    if kind == K_DONE {
        return;
    }
    let e = entry();
    if kind == K_SELECT {
        let minb = atomicLoad(&ctl[C_MINB]);
        if minb == INF {
            atomicStore(&ctl[C_KIND], K_DONE);
            put(e, L_DONE, 1u);
            put(e, L_NEXT_FRONTIER, 0u);
        } else {
            atomicStore(&ctl[C_BUCKET], minb);
            atomicStore(&ctl[C_SERIAL], atomicLoad(&ctl[C_SERIAL]) + 1u);
            atomicStore(&ctl[C_RSIZE], atomicLoad(&ctl[C_OPENED]));
            atomicStore(&ctl[C_HEAVY_R], atomicLoad(&ctl[C_OPENED_HEAVY]));
            atomicStore(&ctl[C_KIND], K_LIGHT);
            put(e, L_NEXT_FRONTIER, atomicLoad(&ctl[C_OPENED]));
        }
    }
    atomicStore(&ctl[C_SLOT], atomicLoad(&ctl[C_SLOT]) + 1u);
}
