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
