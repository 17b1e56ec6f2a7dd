// sssp-lab: what the frontier kernels (frontier.wgsl, racy.wgsl, fast.wgsl) share beyond
// common.wgsl: their parameters and bindings, the per-workgroup counters, the warp classes and
// the successors relax (written once for relax_succ, relax_succ_balanced and relax_racy).
// kernels.rs prepends it after common.wgsl.
//
// Counters of an iteration go to `log` (LOG_WORDS u32 per iteration of a batch): the
// thresholds always, the rest only when INSTRUMENT is set. Slots L_* below.

// The slots (L_*, LOG_WORDS) and control words (C_* of ctrl, F_* of fctl) come from
// src/device/layout.rs, prepended.

/// Crauser's threshold (min δ + ω); false = Martín's (min δ).
override CRAUSER: bool = false;

struct Params {
    n: u32,
    source: u32,
    /// Workgroups of min1 = partial minima sssp_min2 reduces.
    partials: u32,
    pad: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(4) var<storage, read_write> log: array<atomic<u32>>;

// The bindings the frontier kernels share (kernels.rs gives each entry point its own layout; a
// buffer is declared once per access, and no entry point uses two names of one binding).
@group(0) @binding(1) var<storage, read_write> dist_atomic: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read> dist_ro: array<u32>;
@group(0) @binding(2) var<storage, read_write> status: array<u32>;
@group(0) @binding(2) var<storage, read> status_ro: array<u32>;
@group(0) @binding(3) var<storage, read> ctrl_ro: array<u32>;
@group(0) @binding(7) var<storage, read> offsets: array<u32>;
@group(0) @binding(8) var<storage, read_write> stamp: array<atomic<u32>>;

/// Per-workgroup counters, flushed to the log with one atomic per counter and workgroup.
var<workgroup> acc: array<atomic<u32>, LOG_WORDS>;

fn acc_begin(lid: u32) {
    if INSTRUMENT {
        if lid < LOG_WORDS {
            atomicStore(&acc[lid], 0u);
        }
        workgroupBarrier();
    }
}

fn acc_add(k: u32, v: u32) {
    if v != 0u {
        atomicAdd(&acc[k], v);
    }
}

fn acc_flush(lid: u32, slot: u32) {
    if INSTRUMENT {
        workgroupBarrier();
        if lid < LOG_WORDS {
            let s = atomicLoad(&acc[lid]);
            if s != 0u {
                atomicAdd(&log[slot * LOG_WORDS + lid], s);
            }
        }
    }
}


// Warp classes of a vertex-parallel relax launch: the first invocation of each 32-thread warp
// counts the working threads of its warp (threads past n are dummies), so any block size works.
// `frontier_working`: the frontier works (successors), else U (predecessors). `lanes`: also the
// warp's iterations of a one-thread-per-vertex successors loop, its largest frontier out-degree
// (lane use).
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
        let c = warp_class(working);
        acc_add(L_WARPS_FULL, c.x);
        acc_add(L_WARPS_MIXED, c.y);
        acc_add(L_WARP_ITERS, most);
    }
}

/// The successors relax of arc a from a frontier vertex with δ = df in iteration i (seed 000
/// §3.2): an unsettled target gets δ(f) + w by atomicMin; the invocation whose push lowered δ(v)
/// swaps i into stamp[v], and the first to do so in this iteration counts v as improved.
/// `racy`: seed 004 §4.3's bugged push instead (kernels/racy.wgsl): read, compare, write, no
/// atomic read-modify-write, so two frontier vertices can overwrite each other. Returns
/// (attempted, improved), counted when INSTRUMENT.
fn relax_arc(a: u32, df: u32, i: u32, racy: bool) -> vec2<u32> {
    let v = arc_target(a);
    if status_ro[v] != UNSET {
        return vec2<u32>(0u, 0u);
    }
    let nd = df + arc_weight(a);
    var lowered = false;
    if racy {
        // The race: read, compare, write.
        lowered = nd < atomicLoad(&dist_atomic[v]);
        if lowered {
            atomicStore(&dist_atomic[v], nd);
        }
    } else {
        lowered = nd < atomicMin(&dist_atomic[v], nd);
    }
    var improved = 0u;
    if INSTRUMENT && lowered && atomicExchange(&stamp[v], i) != i {
        improved = 1u;
    }
    return vec2<u32>(1u, improved);
}

/// Successors relax, one invocation per vertex (seed 000 Alg. 2 left, seed 004 Fig. 3 relax_F):
/// frontier vertex t pushes along its out-arcs with relax_arc. The body of relax_succ
/// (frontier.wgsl) and relax_racy (racy.wgsl, `racy`).
fn relax_succ_vertex(t: u32, lid: u32, racy: bool) {
    acc_begin(lid);
    let n = P.n;
    let i = ctrl_ro[C_ITER];
    if t < n {
        let st = status_ro[t];
        if st == i {
            // A frontier vertex is settled: its δ does not change during this kernel.
            let dt = atomicLoad(&dist_atomic[t]);
            let b = offsets[t];
            let e = offsets[t + 1u];
            var counts = vec2<u32>(0u, 0u);
            for (var a = b; a < e; a++) {
                counts += relax_arc(a, dt, i, racy);
            }
            if INSTRUMENT {
                acc_add(L_FRONTIER, 1u);
                acc_add(L_EDGES, e - b);
                acc_add(L_ATTEMPTED, counts.x);
                acc_add(L_IMPROVED, counts.y);
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
