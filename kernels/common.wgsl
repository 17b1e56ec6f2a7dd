// sssp-lab: definitions every wgpu kernel shares (the twin of kernels/common.cuh).
//
// Launched from: src/device/wgpu/ (module `sssp_lab::device::wgpu`): every kernel file gets this
// text prepended (it declares no bindings). The frontier kernels (kernels.rs) also get
// common_frontier.wgsl (their bindings, log slots and counters) and, for the relax kernels, the
// arc accessors `arc_target(i)` / `arc_weight(i)`, generated for the number of chunks the CSR arc
// arrays were split into (one binding per chunk of at most the adapter's
// max_storage_buffer_binding_size); bellman_ford.wgsl and delta_stepping.wgsl get the log
// layouts of src/device/layout.rs.
//
// Conventions (all kernels, as in the CUDA ones):
// - Vertices are u32 0..n. δ is u32 (WGSL has only 32-bit atomics); INF = 2³²−1 = unreached.
//   The host refuses graphs whose distances could reach INF.
// - status[v] = the iteration in which v is a frontier vertex (it was settled by the update of
//   the iteration before; the source has status 1), or UNSET while v is unsettled. So
//   Fᵢ = {v : status[v] == i}, Uᵢ = {v : status[v] == UNSET}, and nothing has to be cleared.
// - Block size = workgroup size = the override constant WG; more than 65 535 workgroups are
//   dispatched in two dimensions (thread_index).
// - Counters of a frontier iteration go to `log` (common_frontier.wgsl).

/// Workgroup size = block size of the kernel (SolveOptions.block.relax / minimum / update).
override WG: u32 = 256u;
/// Count threads, warps and relaxations (SolveOptions.instrument). Off for timings.
override INSTRUMENT: bool = false;

const INF: u32 = 0xffffffffu;
const UNSET: u32 = 0xffffffffu;

/// Warp of the thread model: 32 consecutive threads, as on NVIDIA and in src/algo/model.rs.
const WARP: u32 = 32u;

/// Thread index of a 1-D or 2-D dispatch.
fn thread_index(wg: vec3<u32>, nwg: vec3<u32>, lid: u32) -> u32 {
    return (wg.y * nwg.x + wg.x) * WG + lid;
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

/// Warp class of a warp with `working` of its WARP lanes working: (1, 0) all work, (0, 1) some
/// do, (0, 0) none (the twin of count_warp in common.cuh, for the counters each family keeps).
fn warp_class(working: u32) -> vec2<u32> {
    return vec2<u32>(u32(working == WARP), u32(working != 0u && working != WARP));
}

// The balanced advance (block-balanced arc assignment, the twin of balanced_begin / balanced_arc
// in common.cuh; load balancing as in [terms-peers]): the workgroup's working vertices put their
// out-degrees in an exclusive prefix sum, then invocation lid takes the workgroup's arcs j = lid,
// lid + WG … and finds the vertex that owns arc j by binary search, so a hub's arcs are spread
// over the workgroup instead of one invocation. The relax of each arc is the caller's.
var<workgroup> bal_pos: array<u32, WG>;
var<workgroup> bal_beg: array<u32, WG>;

/// Step 1: invocation lid enters its vertex's first arc `beg` and degree `deg` (0 when it has
/// no work); returns the workgroup's arc total. Every invocation calls it (uniform control flow);
/// per-vertex values the relax needs are stored by the caller at [lid] before the call (its
/// barriers publish them).
fn balanced_begin(lid: u32, beg: u32, deg: u32) -> u32 {
    bal_beg[lid] = beg;
    // Inclusive Hillis-Steele scan of the degrees, then exclusive.
    bal_pos[lid] = deg;
    for (var o = 1u; o < WG; o *= 2u) {
        workgroupBarrier();
        var x = 0u;
        if lid >= o {
            x = bal_pos[lid - o];
        }
        workgroupBarrier();
        bal_pos[lid] += x;
    }
    workgroupBarrier();
    let total = bal_pos[WG - 1u];
    workgroupBarrier();
    bal_pos[lid] -= deg;
    workgroupBarrier();
    return total;
}

/// Step 2: the workgroup's arc j (< the total): (k, arc index), k = the owner's entry (the index
/// of the caller's per-vertex values). The last k with bal_pos[k] <= j owns it (zero-degree
/// entries are skipped).
fn balanced_arc(j: u32) -> vec2<u32> {
    var lo = 0u;
    var hi = WG - 1u;
    while lo < hi {
        let mid = (lo + hi + 1u) / 2u;
        if bal_pos[mid] <= j {
            lo = mid;
        } else {
            hi = mid - 1u;
        }
    }
    return vec2<u32>(lo, bal_beg[lo] + (j - bal_pos[lo]));
}
