// sssp-lab: definitions every wgpu kernel shares (the twin of kernels/common.cuh).
//
// Launched from: src/device/wgpu/ (module `sssp_lab::device::wgpu`); kernels.rs prepends this
// text to every kernels/wgpu_*.wgsl file, and to the relax kernels also the arc accessors
// `arc_target(i)` / `arc_weight(i)`, generated for the number of chunks the CSR arc arrays were
// split into (one binding per chunk of at most the adapter's max_storage_buffer_binding_size).
//
// Conventions (all kernels, as in the CUDA ones):
// - Vertices are u32 0..n. δ is u32 (WGSL has only 32-bit atomics); INF = 2³²−1 = unreached.
//   The host refuses graphs whose distances could reach INF.
// - status[v] = the iteration in which v is a frontier vertex (it was settled by the update of
//   the iteration before; the source has status 1), or UNSET while v is unsettled. So
//   Fᵢ = {v : status[v] == i}, Uᵢ = {v : status[v] == UNSET}, and nothing has to be cleared.
// - Block size = workgroup size = the override constant WG; more than 65 535 workgroups are
//   dispatched in two dimensions (thread_index).
// - Counters of an iteration go to `log` (LOG_WORDS u32 per iteration of a batch): the
//   thresholds always, the rest only when INSTRUMENT is set. Slots L_* below.

/// Workgroup size = block size of the kernel (SolveOptions.block.relax / minimum / update).
override WG: u32 = 256u;
/// Count threads, warps and relaxations (SolveOptions.instrument). Off for timings.
override INSTRUMENT: bool = false;

const INF: u32 = 0xffffffffu;
const UNSET: u32 = 0xffffffffu;

/// Warp of the thread model: 32 consecutive threads, as on NVIDIA and in src/algo/model.rs.
const WARP: u32 = 32u;

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

/// Thread index of a 1-D or 2-D dispatch.
fn thread_index(wg: vec3<u32>, nwg: vec3<u32>, lid: u32) -> u32 {
    return (wg.y * nwg.x + wg.x) * WG + lid;
}

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

/// Warp rounds of a balanced loop over `total` items of the workgroup (invocation t takes t,
/// t + WG …): warp w runs ⌈(total − 32w) / WG⌉ rounds when total > 32w (src/algo/model.rs
/// balanced_warp_iters).
fn balanced_warp_iters(total: u32) -> u32 {
    var rounds = 0u;
    for (var base = 0u; base < WG && base < total; base += WARP) {
        rounds += (total - base + WG - 1u) / WG;
    }
    return rounds;
}
