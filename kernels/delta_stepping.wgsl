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
// Launched from: src/device/wgpu/delta_stepping.rs, with common.wgsl (WG, INF, thread_index,
// balanced_warp_iters …) and the layouts of src/device/layout.rs (DS_K_*, DS_C_*, DS_L_*) prepended.

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
// relax=balanced: δ_prev of the workgroup's vertices (the balanced advance's table is in
// common.wgsl).
var<workgroup> s_du: array<u32, WG>;

fn entry() -> u32 {
    return atomicLoad(&ctl[DS_C_SLOT]) * DS_LOG_WORDS;
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

// Whether v is in the phase's frontier: light phase fr[v] == phase, heavy phase rr[v] == serial.
fn ds_working(v: u32, kind: u32) -> bool {
    if v >= params.n {
        return false;
    }
    if kind == DS_K_LIGHT {
        return fr[v] == atomicLoad(&ctl[DS_C_PHASE]);
    }
    if kind == DS_K_HEAVY {
        return rr[v] == atomicLoad(&ctl[DS_C_SERIAL]);
    }
    return false;
}

// The relax of arc e from a frontier vertex with δ_prev = du: the phase's kind of arc only (light
// w ≤ Δ, heavy w > Δ), settled targets skipped, atomicMin only when the proposal is below δ(t) as
// just read. Returns (scanned, relaxed).
fn ds_relax_arc(e: u32, du: u32, light: bool, bucket: u32) -> vec2<u32> {
    let delta = params.delta;
    let w = weights[e];
    if (w <= delta) != light {
        return vec2<u32>(0u, 0u);
    }
    let t = targets[e];
    let pt = prev[t];
    if pt != INF {
        let bt = pt / delta;
        if bt < bucket || (!light && bt == bucket) {
            return vec2<u32>(1u, 0u); // settled
        }
    }
    let nd = du + w; // below ∞: the host checked the distance range
    if nd < atomicLoad(&dist[t]) {
        atomicMin(&dist[t], nd);
    }
    return vec2<u32>(1u, 1u);
}

// The end of both relax kernels: the warp classes (warps of 32 consecutive invocations; WG is a
// multiple of 32 for exact figures, each warp's first invocation counts) and the flush into the
// phase's log entry.
fn ds_relax_end(lid: u32, kind: u32) {
    workgroupBarrier();
    let e = entry();
    if lid % 32u == 0u {
        let c = warp_class(atomicLoad(&warp_work[lid / 32u]));
        acc_add(3u, c.x);
        acc_add(4u, c.y);
        acc_add(6u, atomicLoad(&warp_most[lid / 32u]));
    }
    workgroupBarrier();
    if kind < DS_K_SELECT {
        acc_flush_log(lid, e, 0u, DS_L_FRONTIER);
        acc_flush_log(lid, e, 1u, DS_L_SCANNED);
        acc_flush_log(lid, e, 2u, DS_L_RELAXED);
        acc_flush_log(lid, e, 3u, DS_L_WARPS_FULL);
        acc_flush_log(lid, e, 4u, DS_L_WARPS_MIXED);
        acc_flush_log(lid, e, 5u, DS_L_ARC_ITERS);
        acc_flush_log(lid, e, 6u, DS_L_WARP_ITERS);
    }
}

@compute @workgroup_size(WG)
fn ds_relax(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    acc_clear(lid);
    let v = thread_index(wg, nwg, lid);
    let kind = atomicLoad(&ctl[DS_C_KIND]);
    let bucket = atomicLoad(&ctl[DS_C_BUCKET]);
    if ds_working(v, kind) {
        atomicAdd(&warp_work[lid / 32u], 1u);
        let deg = offsets[v + 1u] - offsets[v];
        atomicMax(&warp_most[lid / 32u], deg);
        acc_add(5u, deg);
        let du = prev[v];
        let light = kind == DS_K_LIGHT;
        var counts = vec2<u32>(0u, 0u);
        for (var e = offsets[v]; e < offsets[v + 1u]; e++) {
            counts += ds_relax_arc(e, du, light, bucket);
        }
        acc_add(0u, 1u);
        acc_add(1u, counts.x);
        acc_add(2u, counts.y);
    }
    ds_relax_end(lid, kind);
}

// relax=balanced (the twin of ds_relax_balanced in delta_stepping.cu): the workgroup's frontier
// arcs spread over its invocations by the balanced advance of common.wgsl.
@compute @workgroup_size(WG)
fn ds_relax_balanced(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                     @builtin(local_invocation_index) lid: u32) {
    acc_clear(lid);
    let v = thread_index(wg, nwg, lid);
    let kind = atomicLoad(&ctl[DS_C_KIND]);
    let bucket = atomicLoad(&ctl[DS_C_BUCKET]);
    let light = kind == DS_K_LIGHT;
    var beg = 0u;
    var deg = 0u;
    if ds_working(v, kind) {
        atomicAdd(&warp_work[lid / 32u], 1u);
        beg = offsets[v];
        deg = offsets[v + 1u] - beg;
        s_du[lid] = prev[v];
        acc_add(0u, 1u);
    }
    let total = balanced_begin(lid, beg, deg);
    var counts = vec2<u32>(0u, 0u);
    for (var i = lid; i < total; i += WG) {
        let k = balanced_arc(i);
        counts += ds_relax_arc(k.y, s_du[k.x], light, bucket);
    }
    acc_add(1u, counts.x);
    acc_add(2u, counts.y);
    if lid == 0u && total != 0u {
        acc_add(5u, total);
        acc_add(6u, balanced_warp_iters(total));
    }
    ds_relax_end(lid, kind);
}

@compute @workgroup_size(WG)
fn ds_commit(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    acc_clear(lid);
    let v = thread_index(wg, nwg, lid);
    let kind = atomicLoad(&ctl[DS_C_KIND]);
    if v < params.n && kind < DS_K_SELECT {
        let d = atomicLoad(&dist[v]);
        let p = prev[v];
        if d < p {
            acc_add(0u, 1u);
            if p == INF {
                acc_add(1u, 1u);
            }
            prev[v] = d;
            let serial = atomicLoad(&ctl[DS_C_SERIAL]);
            if kind == DS_K_LIGHT && d / params.delta == atomicLoad(&ctl[DS_C_BUCKET]) {
                fr[v] = atomicLoad(&ctl[DS_C_PHASE]) + 1u;
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
    acc_flush_log(lid, e, 0u, DS_L_LOWERED);
    acc_flush_log(lid, e, 1u, DS_L_FRESH);
    acc_flush_log(lid, e, 2u, DS_L_NEXT);
    acc_flush_log(lid, e, 3u, DS_L_NEW_R);
    acc_flush_log(lid, e, 4u, DS_L_NEW_R_HEAVY);
}

fn put(e: u32, k: u32, v: u32) {
    atomicStore(&log[e + k], v);
}

@compute @workgroup_size(1)
fn ds_advance() {
    let kind = atomicLoad(&ctl[DS_C_KIND]);
    if kind >= DS_K_SELECT {
        return;
    }
    let e = entry();
    let settled_before = atomicLoad(&ctl[DS_C_SETTLED]);
    let reached = atomicLoad(&ctl[DS_C_REACHED]) + atomicLoad(&log[e + DS_L_FRESH]);
    atomicStore(&ctl[DS_C_REACHED], reached);
    put(e, DS_L_VALID, 1u);
    put(e, DS_L_BUCKET, atomicLoad(&ctl[DS_C_BUCKET]));
    put(e, DS_L_KIND, kind);
    put(e, DS_L_SERIAL, atomicLoad(&ctl[DS_C_SERIAL]));
    put(e, DS_L_SETTLED_BEFORE, settled_before);
    put(e, DS_L_REACHED, reached - settled_before);
    var rsize = atomicLoad(&ctl[DS_C_RSIZE]);
    put(e, DS_L_BUCKET_SIZE, rsize);
    var next_kind = DS_K_SELECT;
    if kind == DS_K_LIGHT {
        rsize += atomicLoad(&log[e + DS_L_NEW_R]);
        let heavy_r = atomicLoad(&ctl[DS_C_HEAVY_R]) + atomicLoad(&log[e + DS_L_NEW_R_HEAVY]);
        atomicStore(&ctl[DS_C_RSIZE], rsize);
        atomicStore(&ctl[DS_C_HEAVY_R], heavy_r);
        let next = atomicLoad(&log[e + DS_L_NEXT]);
        if next > 0u {
            next_kind = DS_K_LIGHT;
            put(e, DS_L_NEXT_FRONTIER, next);
        } else {
            // The bucket stays empty: R is settled (the source was counted at the start).
            var add = rsize;
            if atomicLoad(&ctl[DS_C_SERIAL]) == 1u {
                add -= 1u;
            }
            atomicStore(&ctl[DS_C_SETTLED], settled_before + add);
            if heavy_r > 0u {
                next_kind = DS_K_HEAVY;
                put(e, DS_L_NEXT_FRONTIER, rsize);
            }
        }
    }
    put(e, DS_L_SETTLED, atomicLoad(&ctl[DS_C_SETTLED]));
    atomicStore(&ctl[DS_C_KIND], next_kind);
    atomicStore(&ctl[DS_C_PHASE], atomicLoad(&ctl[DS_C_PHASE]) + 1u);
    atomicStore(&ctl[DS_C_MINB], INF);
    atomicStore(&ctl[DS_C_OPENED], 0u);
    atomicStore(&ctl[DS_C_OPENED_HEAVY], 0u);
}

@compute @workgroup_size(WG)
fn ds_min_far(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let v = thread_index(wg, nwg, lid);
    if v < params.n && atomicLoad(&ctl[DS_C_KIND]) == DS_K_SELECT && pend[v] == 1u {
        atomicMin(&ctl[DS_C_MINB], prev[v] / params.delta);
    }
}

@compute @workgroup_size(WG)
fn ds_open(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
    acc_clear(lid);
    let v = thread_index(wg, nwg, lid);
    let kind = atomicLoad(&ctl[DS_C_KIND]);
    if v < params.n && kind == DS_K_SELECT && pend[v] == 1u && prev[v] / params.delta == atomicLoad(&ctl[DS_C_MINB]) {
        pend[v] = 0u;
        fr[v] = atomicLoad(&ctl[DS_C_PHASE]);
        rr[v] = atomicLoad(&ctl[DS_C_SERIAL]) + 1u;
        acc_add(0u, 1u);
        acc_add(1u, heavy_degree(v));
    }
    workgroupBarrier();
    if lid < 2u {
        let s = atomicLoad(&acc[lid]);
        if s != 0u {
            atomicAdd(&ctl[DS_C_OPENED + lid], s);
        }
    }
}

@compute @workgroup_size(1)
fn ds_advance2() {
    let kind = atomicLoad(&ctl[DS_C_KIND]);
    if kind == DS_K_DONE {
        return;
    }
    let e = entry();
    if kind == DS_K_SELECT {
        let minb = atomicLoad(&ctl[DS_C_MINB]);
        if minb == INF {
            atomicStore(&ctl[DS_C_KIND], DS_K_DONE);
            put(e, DS_L_DONE, 1u);
            put(e, DS_L_NEXT_FRONTIER, 0u);
        } else {
            atomicStore(&ctl[DS_C_BUCKET], minb);
            atomicStore(&ctl[DS_C_SERIAL], atomicLoad(&ctl[DS_C_SERIAL]) + 1u);
            atomicStore(&ctl[DS_C_RSIZE], atomicLoad(&ctl[DS_C_OPENED]));
            atomicStore(&ctl[DS_C_HEAVY_R], atomicLoad(&ctl[DS_C_OPENED_HEAVY]));
            atomicStore(&ctl[DS_C_KIND], DS_K_LIGHT);
            put(e, DS_L_NEXT_FRONTIER, atomicLoad(&ctl[DS_C_OPENED]));
        }
    }
    atomicStore(&ctl[DS_C_SLOT], atomicLoad(&ctl[DS_C_SLOT]) + 1u);
}
