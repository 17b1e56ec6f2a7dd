// sssp-lab: what the frontier kernels (frontier.wgsl, racy.wgsl, fast.wgsl) share beyond
// common.wgsl: their parameters and log bindings, the log slots and the per-workgroup counters.
// kernels.rs prepends it after common.wgsl.
//
// Counters of an iteration go to `log` (LOG_WORDS u32 per iteration of a batch): the
// thresholds always, the rest only when INSTRUMENT is set. Slots L_* below.

const LOG_WORDS: u32 = 16u;
const L_DELTA_MARTIN: u32 = 0u;
const L_DELTA_CRAUSER: u32 = 1u;
const L_FRONTIER: u32 = 2u;
const L_UNSETTLED: u32 = 3u;
const L_REACHED: u32 = 4u;
const L_NEXT_FRONTIER: u32 = 5u;
const L_EDGES: u32 = 6u;
const L_ATTEMPTED: u32 = 7u;
const L_IMPROVED: u32 = 8u;
const L_WARPS_FULL: u32 = 9u;
const L_WARPS_MIXED: u32 = 10u;
/// Successors relax: iterations its warps ran (lane use = L_EDGES / (32 · L_WARP_ITERS)).
const L_WARP_ITERS: u32 = 11u;

struct Params {
    n: u32,
    source: u32,
    /// Workgroups of min1 = partial minima sssp_min2 reduces.
    partials: u32,
    pad: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(4) var<storage, read_write> log: array<atomic<u32>>;

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

