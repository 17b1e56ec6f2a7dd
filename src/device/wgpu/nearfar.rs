//! `delta-stepping:worklist=near-far` on wgpu (issue 30; kernels in `kernels/nearfar.wgsl`, the
//! driver is [`crate::device::driver::nearfar::NearFar`], design in `docs/gpu-worklist.md` §4).
//!
//! WGSL cannot synchronise a grid, so a launch is one command buffer: `nf_resume`, then rounds of
//! two dispatches (`nf_round`: the scheduler and a solo stretch in one workgroup; `nf_grid`: one
//! grid phase, sized on the GPU through indirect dispatch), then a final `nf_round`; the control
//! block and (where it is small) the log come back in the launch's own submission, through one
//! readback buffer per run. The builders clear the far piles (wgpu would zero them lazily in the
//! first launch) and wait for the uploads ([`super::Gpu::settle`]) so a run's first launch times
//! the solve alone; each launch is encoded while the GPU runs the one before (the first when the
//! stepper is built).
//! Times are the host's (the driver's clock); `SSSP_NF_WG_PROFILE=1` prints per launch the GPU
//! time per dispatch kind from timestamps and the host's share (`docs/gpu-worklist.md` §14).
//!
//! A grid phase's appends go through a per-workgroup stage in workgroup memory, sized from the
//! device's limit (`stage_entries`); relax phases skip near items already queued for the next
//! phase. Env `SSSP_NF_WG_STAGE=0` / `SSSP_NF_SKIP=0` turn each off for A/B runs (read when the
//! pipelines are built; `docs/gpu-worklist.md` §11). `SSSP_NF_WG_VBATCH=1` turns on a vertex relax
//! of 4 arcs per invocation and step with one reservation per pile and subgroup where the device
//! has subgroups (`SSSP_NF_WG_SUBGROUP=0`: per invocation; `kernels/nearfar_vertex.wgsl`): on the
//! H100 it was slower than one arc at a time (NY 19.6 against 15.0 ms, luxembourg 13.2 against
//! 10.2; `bench/results/gpu-peers-2026-11-27/soloq/c8`), so it is off by default. The default
//! vertex relax issues up to 4 arcs' loads, `atomicMin`s and stamp exchanges together and appends
//! each decrease as the per-arc loop does (`kernels/nearfar_quad.wgsl`; `SSSP_NF_WG_QUAD=0`: one
//! arc at a time): NY 15.1 → 12.1 ms, luxembourg 10.5 → 8.2 on the H100
//! (`bench/results/gpu-peers-2026-11-27/wgq/w1`). No δ read before the per-arc `atomicMin`
//! (balanced relax, hub pieces, the vertex relax with `QUAD` off; `SSSP_NF_WG_PRECHECK=1` puts it
//! back): R-MAT 20 8.7 → 7.6 ms (call w3). Δ adapts per bucket as on CUDA
//! ([`nf::adaptive_delta_max`]), down to a quarter of the auto Δ ([`DELTA_MIN_DIV`]).

use super::Gpu;
use super::dispatch::{Kernel, buffer_init, copy_words, copy_words_via, read_with, readback_buffer};
use crate::algo::{SolveError, Stepper};
use crate::device::driver::nearfar::{self as nf, Launched, NearFar, NearFarBackend, NfEntry};
use crate::device::gpu::{Build, DeltaRun};
use crate::device::layout::nearfar::{
    NF_C_BUDGET, NF_C_DELTA_MIN, NF_C_KIND, NF_C_LOGGED, NF_C_OVERFLOW, NF_C_WORDS, NF_LOG_WORDS,
};
use crate::graph::{Graph, VertexId};
use std::sync::Arc;

mod profile;

const SOURCE: &str = include_str!("../../../kernels/nearfar.wgsl");
/// The batched vertex relax (`nf_relax_vertex`), appended to [`SOURCE`], then one of its two
/// reservation files: one per invocation, or one per subgroup (needs `Features::SUBGROUP`).
const VERTEX: &str = include_str!("../../../kernels/nearfar_vertex.wgsl");
const EMIT: &str = include_str!("../../../kernels/nearfar_emit.wgsl");
const EMIT_SG: &str = include_str!("../../../kernels/nearfar_emit_sg.wgsl");
/// The vertex relax of up to 4 arcs at once with per-arc appends (`nf_relax_quad`, `QUAD`).
const QUAD: &str = include_str!("../../../kernels/nearfar_quad.wgsl");
/// Workgroup size of the grid phases and the solo threshold (a relax phase of at most this many
/// estimated arcs runs solo in one workgroup, a bigger one on the grid; CUDA's threshold is
/// [`nf::SOLO_WORK_CUDA`]), by the relax the graph runs ([`nf::hubs`]): `(balanced, vertex)`.
/// Env `SSSP_NF_WG_GRID_WG` (a power of two ≥ 32) and `SSSP_NF_SOLO_WORK` override both for A/B
/// runs. Measured on the H100 beside CUDA in one call each (gpu-peers-2026-11-27/wgs/g2, g3b, g3c):
/// - balanced relax (R-MAT, Kronecker, uniform random: phases of 10⁵–10⁷ arcs): workgroups of
///   1 024 against 512: Kronecker 21 5.66 / 6.42 ms against 6.83 / 7.57 (two sources), uniform
///   random 21 4.43 / 4.35 against 5.4 / 4.9, R-MAT 20 3.03 against 2.97 (even; 256 slower
///   everywhere); solo threshold 32 768: uniform 21 5.12 ms with 8 192 (g3c) against 4.4;
/// - vertex relax (roads, grids: mid-size grid phases): solo threshold 8 192 against 32 768: the
///   4096² grid 164 against 228 ms (16 384: 179), its solo phases of 10 000+ arcs took 10–15 µs
///   in one workgroup; with workgroups of 1 024 it took 180 ms (g3c); NY, luxembourg and the
///   2048² grid even (g3b).
const GRID_WG: (u32, u32) = (1024, 512);
const SOLO_WORK: (u32, u32) = (32_768, 8_192);
/// Most rounds (each one solo stretch and one grid phase) in one command buffer.
const MAX_ROUNDS: u32 = 512;
/// Rounds of a run's first launch (doubling after): a launch costs the host ~0.5 ms beyond the
/// GPU's work on the H100 (submit, fence, map), an empty round ~20 µs of GPU time
/// (gpu-peers-2026-11-27/wgs/s3's profile). Measured beside 4 and 32 (s4): even on NY and the grid
/// within the hosts' noise, R-MAT 20 and luxembourg undecided (3.7–4.3 ms, 8.1–8.9 ms whichever);
/// 16 is what the grid's and the roads' reported times ran with.
const FIRST_ROUNDS: u32 = 16;
/// The same with fused steps ([`fused_rule`]): an empty step is one dispatch (~10 µs on the H100),
/// not two. R-MAT 20 2.86 / 2.91 ms against 3.08 / 3.22 with 16 (its 61 phases then fit the first
/// launch), uniform random 21 4.15 / 4.26 against 4.69 / 4.56, Kronecker 21 (12 phases) even,
/// 5.47 / 5.40 against 5.55 / 5.31 (gpu-peers-2026-11-27/wgs/f2); 64: R-MAT 3.09 / 3.16 (f1).
const FIRST_FUSED: u32 = 32;
/// Most phases one solo stretch runs (`SOLO_PHASES` in kernels/nearfar.wgsl).
const SOLO_PHASES: usize = 1024;
/// The most log a launch reads back in its own submission (bytes); beyond it, a second copy.
const FOLD_LOG_BYTES: u64 = 2 << 20;
/// The adaptive Δ may shrink to the auto Δ / this ([`nf::adaptive_delta_min`]; CUDA keeps the
/// auto Δ as its floor). A wgpu solo phase in one workgroup costs more the more arcs it has, so
/// narrower buckets win where phases are big. On the H100, the floor at the auto Δ / 1, 2, 4: the
/// 2048² grid 88.1 / 78.1 / 76.1 ms (gpu-peers-2026-11-27/wgs/s2), 91.1 / 82.2 / 80.2 (s3,
/// unchecked), – / 78.0 / 75.2 (s4); NY 12.05 / 11.81 / 12.18 (s2), – / 11.87 / 12.27 (s4);
/// luxembourg 8.36 / 8.18 / 8.24 (s2), – / 8.45 / 8.45 (s4). A quarter keeps the grid within 2× of
/// CUDA at ~3 % on NY. CUDA's grid got slower with a lower floor (39.6 against 38.4 ms at
/// half, s2): its big phases run on all SMs.
const DELTA_MIN_DIV: u32 = 4;
/// Timestamps per launch of the profile: the pass's start, then one after each dispatch.
const PROFILE_QUERIES: u32 = 2 * MAX_ROUNDS + 3;

/// Buffers and pipelines of one near-far run on a wgpu device.
struct NearFarWgpu {
    gpu: Arc<Gpu>,
    n: usize,
    /// resume, round (scheduler and solo stretch), grid (`nf_grid`, or `nf_step` when fused),
    /// and the fused step bound to write `args2` / `args` (see [`fused_rule`]).
    kernels: [Pipe; 5],
    /// A round in one dispatch (`nf_step`): the grid phase's last workgroup schedules.
    fused: bool,
    dist: wgpu::Buffer,
    ctl: wgpu::Buffer,
    log: wgpu::Buffer,
    args: wgpu::Buffer,
    /// The fused steps' second size buffer.
    args2: wgpu::Buffer,
    solo_wg: u32,
    grid_threads: u64,
    far_cap: u32,
    /// `SSSP_NF_WG_PROFILE=1` on a device with timestamps inside passes: a timestamp after each
    /// dispatch of a launch, summed per kind and printed to stderr with the host's share.
    profile: Option<(wgpu::QuerySet, wgpu::Buffer)>,
    /// Rounds of the first launch of a run to the end (`SSSP_NF_WG_FIRST`, default [`FIRST_ROUNDS`]).
    first: u32,
    /// Every launch's readback (control block, the log's bound up to [`FOLD_LOG_BYTES`], the
    /// profile's timestamps), mapped and unmapped again by each: one allocation per run.
    rb: wgpu::Buffer,
    /// δ's readback at a run's end (4 n bytes).
    dist_rb: wgpu::Buffer,
    /// The next launch, encoded while the GPU ran the last (or when the stepper was built, for
    /// the first), with its rounds: the host's encoding (~0.2–0.6 ms a launch on the H100,
    /// gpu-peers-2026-11-27/wgs/s4) overlaps the GPU's work instead of following the wait.
    ahead: Option<(u32, Encoded)>,
    /// `SSSP_NF_WG_AHEAD=0` encodes each launch when it is asked for (A/B runs).
    encode_ahead: bool,
}

/// Uploads the graph and the source's state and returns the driver. Errors
/// ([`SolveError::Device`]): a buffer larger than one storage binding, no indirect dispatch,
/// GPU errors.
pub(super) fn stepper(gpu: Arc<Gpu>, run: DeltaRun, b: &Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let graph = &b.graph;
    let n = graph.n();
    let (pc, fc) = nf::capacities(graph);
    let (hub_deg, bal) = nf::hubs(graph);
    let arc_base = (n as u64 + 1).next_multiple_of(2);
    check_fits(&gpu, graph, arc_base, pc, fc)?;
    let solo_wg =
        gpu.limits.max_compute_invocations_per_workgroup.min(gpu.limits.max_compute_workgroup_size_x).min(1024);
    let grid_wg = nf::env_number("SSSP_NF_WG_GRID_WG")
        .filter(|w| w.is_power_of_two() && *w >= 32)
        .unwrap_or(if bal { GRID_WG.0 } else { GRID_WG.1 })
        .min(solo_wg);
    let max_groups = gpu.limits.max_compute_workgroups_per_dimension.min(4 * 132 * 2048 / grid_wg).max(1);
    let stage = if env_switch("SSSP_NF_WG_STAGE") { stage_entries(&gpu, grid_wg) } else { None };
    let skip = env_switch("SSSP_NF_SKIP");
    let vbatch = std::env::var("SSSP_NF_WG_VBATCH").is_ok_and(|v| v.trim() == "1");
    let quad = env_switch("SSSP_NF_WG_QUAD");
    let precheck = std::env::var("SSSP_NF_WG_PRECHECK").is_ok_and(|v| v.trim() == "1");
    // Unchecked where the balanced relax runs (see the module's comment below).
    let checked = std::env::var("SSSP_NF_WG_CHECKED").map(|v| v.trim() != "0").unwrap_or(!bal);
    let subgroups = gpu.device.features().contains(wgpu::Features::SUBGROUP) && env_switch("SSSP_NF_WG_SUBGROUP");
    let fused = fused_rule(bal, grid_wg, solo_wg);
    let even = env_switch("SSSP_NF_WG_EVEN");
    let delta_max = nf::adaptive_delta_max(run.delta, bal);
    let mut st = nf::initial_state(
        graph,
        b.source,
        run.delta,
        delta_max,
        hub_deg,
        nf::solo_work(if bal { SOLO_WORK.0 } else { SOLO_WORK.1 }),
    );
    st.ctl[NF_C_DELTA_MIN] = nf::adaptive_delta_min(run.delta, delta_max, DELTA_MIN_DIV);
    let HostWords { words, dist, near, pieces } = host_words(graph, b.source, &st, arc_base, pc);
    let params = [n as u32, pc, fc, hub_deg, nf::LOG_CAP, arc_base as u32, grid_wg, max_groups];
    let d = &gpu.device;
    let built = gpu.guarded("building the near-far stepper", || {
        let storage = wgpu::BufferUsages::STORAGE;
        let copy = wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
        let init = |label: &str, data: &[u8], usage| buffer_init(d, label, data, usage);
        let zeros = |label: &str, bytes: u64| {
            d.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes.max(8),
                usage: storage | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let params = init("nf params", bytemuck::cast_slice(&params), wgpu::BufferUsages::UNIFORM);
        let graph_buf = init("nf graph", bytemuck::cast_slice(&words), storage);
        let dist = init("nf dist", bytemuck::cast_slice(&dist), storage | copy);
        let near = init("nf near", bytemuck::cast_slice(&near), storage);
        let pieces = init("nf pieces", bytemuck::cast_slice(&pieces), storage);
        let far = zeros("nf far", 16 * u64::from(fc));
        // wgpu zeroes a buffer created empty in the first submission that uses it: the far piles
        // (16 bytes per arc and vertex, 1 GB on Kronecker 21) were cleared inside the run's first
        // launch, ~0.7 ms of its wall time (gpu-peers-2026-11-27/wgs/g1). Clear them here, where
        // the builder waits for its uploads ([`Gpu::settle`]).
        let mut enc =
            d.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("clearing the far piles") });
        enc.clear_buffer(&far, 0, None);
        gpu.queue.submit([enc.finish()]);
        let ctl = init("nf ctl", bytemuck::cast_slice(&st.ctl), storage | copy);
        let log = init("nf log", &vec![0u8; 4 * NF_LOG_WORDS * nf::LOG_CAP as usize], storage | copy);
        let args_words = bytemuck::cast_slice(&[0u32, 1, 1, 0, 1, 1]);
        let args = init("nf args", args_words, storage | wgpu::BufferUsages::INDIRECT);
        // The fused steps' second size buffer (see nf_step): step k reads one, writes the other.
        let args2 = init("nf args 2", args_words, storage | wgpu::BufferUsages::INDIRECT);
        let desc = wgpu::ShaderModuleDescriptor {
            label: Some("nearfar.wgsl"),
            source: wgpu::ShaderSource::Wgsl(shader_source(subgroups).into()),
        };
        // wgpu's runtime checks (index clamps, loop counters) stay on for the vertex relax:
        // without them NVIDIA's Vulkan driver ran its solo phases ~10 % slower on the H100 (NY
        // 12.70 against 11.49 ms, luxembourg 8.90 / 7.97, the 2048² grid 82.2 / 76.3;
        // gpu-peers-2026-11-27/wgs/s3). Where the balanced relax runs they are off: with the
        // fused steps R-MAT 20 2.62 / 2.71 against 2.86 / 2.91 ms, uniform random 21 3.93 / 3.77
        // against 4.15 / 4.26, Kronecker 21 5.04 / 5.27 against 5.47 / 5.40 (wgs/f2).
        // `SSSP_NF_WG_CHECKED=0` / `=1` forces either for A/B runs.
        let module = if checked {
            d.create_shader_module(desc)
        } else {
            // SAFETY: every storage index in kernels/nearfar*.wgsl is a vertex id (< n: the CSR is
            // validated when the graph is built, and the lists hold only heads of its arcs or the
            // source), n + such an id (the stamps), an arc index inside its row's range, a list
            // or pile slot checked against its capacity before the write (P.n, P.far_cap,
            // P.piece_cap; an overflowing count ends the solve before it is read), a log slot
            // < P.log_cap, or a constant word of the control block; workgroup arrays are indexed
            // by the invocation index or counts checked against their size. Every loop is bounded
            // by such a count, a binary search over WG entries, or SOLO_PHASES.
            unsafe { d.create_shader_module_trusted(desc, wgpu::ShaderRuntimeChecks::unchecked()) }
        };
        let all: [(u32, &wgpu::Buffer); 9] = [
            (0, &params),
            (1, &graph_buf),
            (2, &dist),
            (3, &near),
            (4, &pieces),
            (5, &far),
            (6, &ctl),
            (7, &log),
            (8, &args),
        ];
        // The one-invocation kernels take no constants (they use none). Only the grid pipeline
        // gets a stage: the solo one keeps 1-entry stage arrays.
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        let kernel = |entry: &str, wg: Option<u32>, stage: Option<(u32, u32)>, used: &[u32]| {
            let (sn, sf) = stage.unwrap_or((1, 1));
            let constants: Vec<(&str, f64)> = wg
                .map(|w| {
                    vec![
                        ("WG", f64::from(w)),
                        ("BAL", flag(bal)),
                        ("STAGE", flag(stage.is_some())),
                        ("STAGE_N", f64::from(sn)),
                        ("STAGE_F", f64::from(sf)),
                        ("SKIP", flag(skip)),
                        ("VBATCH", flag(vbatch)),
                        ("QUAD", flag(quad)),
                        ("PRECHECK", flag(precheck)),
                        ("FUSED", flag(fused)),
                        ("EVEN", flag(even)),
                    ]
                })
                .unwrap_or_default();
            Pipe(Kernel::new(d, &module, entry, &constants, &all, used, (1, 1)))
        };
        let phase = [0, 1, 2, 3, 4, 5, 6];
        let every = [0, 1, 2, 3, 4, 5, 6, 7, 8];
        let grid_entry = if fused { "nf_step" } else { "nf_grid" };
        let used: &[u32] = if fused { &every } else { &phase };
        let grid = kernel(grid_entry, Some(grid_wg), stage, used);
        let mut other = all;
        other[8] = (8, &args2);
        // Fused: [3] is dispatched from args and writes args2, [4] the reverse; unused otherwise.
        let step_b = grid.0.rebound(d, "nf_step (args)", &all, used);
        let step_a = grid.0.rebound(d, "nf_step (args 2)", &other, used);
        let kernels = [
            kernel("nf_resume", None, None, &[6]),
            kernel("nf_round", Some(solo_wg), None, &every),
            grid,
            Pipe(step_a),
            Pipe(step_b),
        ];
        (kernels, dist, ctl, log, args, args2)
    })?;
    let (kernels, dist, ctl, log, args, args2) = built;
    let staged = match stage {
        Some((sn, sf)) => format!("staged per workgroup ({sn} near, {sf} far)"),
        None => "unstaged".to_string(),
    };
    let device = format!(
        "{} · u32 δ (near-far, Δ = {}{}, {} relax{}{}; solo phases in one workgroup of {solo_wg}, grid phases one \
         indirect dispatch each{}, {staged}{}) · host wall-clock timing",
        gpu.name,
        run.delta,
        if delta_max > run.delta {
            format!(", adaptive from {} up to {delta_max}", st.ctl[NF_C_DELTA_MIN])
        } else {
            String::new()
        },
        if bal { "balanced" } else { "vertex" },
        if skip { "" } else { ", no skip of queued items" },
        match (bal, vbatch, subgroups) {
            (true, _, _) => "",
            (false, false, _) if quad => ", 4 arcs at once, one append per arc",
            (false, false, _) if precheck => ", one append per arc, δ read before the atomicMin",
            (false, false, _) => ", one append per arc",
            (false, true, false) => ", one reservation per invocation and 4 arcs",
            (false, true, true) => ", one reservation per subgroup and 4 arcs",
        },
        if fused { " whose last workgroup schedules the next" } else { "" },
        if checked { "" } else { ", no runtime checks" },
    );
    let grid_threads = u64::from(max_groups) * u64::from(grid_wg);
    let profile = profile::queries(&gpu);
    let first = nf::env_number("SSSP_NF_WG_FIRST").unwrap_or(if fused { FIRST_FUSED } else { FIRST_ROUNDS }).max(1);
    let rb_bytes = 4 * NF_C_WORDS as u64 + FOLD_LOG_BYTES + 8 * u64::from(PROFILE_QUERIES);
    let (rb, dist_rb) = (readback_buffer(&gpu, rb_bytes), readback_buffer(&gpu, 4 * n.max(1) as u64));
    let mut backend = NearFarWgpu {
        gpu,
        n,
        kernels,
        dist,
        ctl,
        log,
        args,
        args2,
        fused,
        solo_wg,
        grid_threads,
        far_cap: fc,
        profile,
        first,
        rb,
        dist_rb,
        ahead: None,
        encode_ahead: env_switch("SSSP_NF_WG_AHEAD"),
    };
    if backend.encode_ahead {
        let r = first.min(MAX_ROUNDS);
        let e = Arc::clone(&backend.gpu).guarded("encoding the first near-far launch", || backend.encode(r))?;
        backend.ahead = Some((r, e));
    }
    Ok(Box::new(NearFar::new(backend, run, b.ident(device))))
}

/// The module: [`SOURCE`] and the vertex relax behind the prelude, with subgroup reservations or
/// per-invocation ones. No `enable subgroups;`: wgpu 30's naga rejects the directive ("not yet
/// implemented") and takes the subgroup builtins from the device's `Features::SUBGROUP` alone.
fn shader_source(subgroups: bool) -> String {
    super::kernels::with_common(&[SOURCE, VERTEX, QUAD, if subgroups { EMIT_SG } else { EMIT }].concat())
}

/// Whether a round is one dispatch (`nf_step` in `kernels/nearfar.wgsl`) rather than two: env
/// `SSSP_NF_WG_FUSED=1` / `=0`; unset, where the graph runs the balanced relax (R-MAT,
/// Kronecker, uniform random: many grid phases, each of which paid a separate scheduling
/// dispatch). Never where the grid workgroup is smaller than the solo one (the vertex relax's
/// 512): the solo stretch then runs in the grid workgroup. Measured on the H100 beside the two
/// dispatches in one call (gpu-peers-2026-11-27/wgs/f1, f2): R-MAT 20 3.05 / 3.13 against 3.12 /
/// 3.35 ms (f1) and 3.08 / 3.22 against 3.46 / 3.28 (f2), uniform random 21 4.69 / 4.56 against
/// 5.28 / 5.02 (f2), Kronecker 21 even (5.34 / 5.61 against 5.60 / 5.49, f1). Its GPU pass on R-MAT:
/// 2.94 against 3.25 ms, the scheduling dispatches' 1.1 ms now 0.33 ms, the steps 0.5 ms longer
/// than the grid phases were (each step's tail schedules).
fn fused_rule(bal: bool, grid_wg: u32, solo_wg: u32) -> bool {
    let asked = std::env::var("SSSP_NF_WG_FUSED").ok().map(|v| v.trim() != "0");
    asked.unwrap_or(bal) && grid_wg == solo_wg
}

/// An A/B switch read where the pipelines are built: on unless the variable is `0`.
fn env_switch(name: &str) -> bool {
    std::env::var(name).map(|v| v.trim() != "0").unwrap_or(true)
}

/// The grid workgroup's stage, (near items, far entries), from the device's workgroup-memory
/// limit (the device is opened with the adapter's limits): at most CUDA's 4 096 + 2 048 (32 KiB),
/// in multiples of 256 far entries beside the grid kernel's other workgroup variables (about
/// 12 bytes per invocation and the control block's copy); `None` (no stage) under 4 KiB.
fn stage_entries(gpu: &Gpu, grid_wg: u32) -> Option<(u32, u32)> {
    let other = 12 * grid_wg + 4 * NF_C_WORDS as u32 + 256;
    let room = gpu.limits.max_compute_workgroup_storage_size.saturating_sub(other);
    // 4 bytes per near item, 8 per far entry, twice as many near items: 16 bytes per far entry.
    let sf = (room / 16 / 256 * 256).min(2048);
    (sf >= 256).then_some((2 * sf, sf))
}

/// Refuses an adapter without indirect dispatch, and a graph whose biggest array exceeds one
/// storage binding (or one buffer) of the adapter: the row offsets and arcs (`arc_base` + 2 m words), the far piles, the hub pieces.
fn check_fits(gpu: &Gpu, graph: &Graph, arc_base: u64, pc: u32, fc: u32) -> Result<(), SolveError> {
    if !gpu.indirect {
        return Err(SolveError::Device(format!(
            "{}: worklist=near-far sizes its dispatches on the GPU and needs indirect dispatch",
            gpu.name
        )));
    }
    let limit = gpu.limits.max_storage_buffer_binding_size;
    let m = graph.m();
    let biggest = [
        ("the graph (row offsets and arcs)", 4 * (arc_base + 2 * m as u64)),
        ("the far piles", 16 * u64::from(fc)),
        ("the hub pieces", 16 * u64::from(pc)),
    ];
    for (what, bytes) in biggest {
        if bytes > limit || bytes > gpu.limits.max_buffer_size {
            return Err(SolveError::Device(format!(
                "graph `{}` ({} arcs) is too large for delta-stepping:worklist=near-far on {}: {what} take {bytes} \
                 bytes, the adapter's storage binding allows {limit}; use CUDA or worklist=marks",
                graph.name, m, gpu.name
            )));
        }
    }
    Ok(())
}

/// The words uploaded at the start: the graph (row offsets padded to `arc_base`, then
/// (head, weight) per arc), δ and the stamps (2 n), the near lists (2 n) and the hub pieces
/// (4 × `pc`), with the source's initial state in them.
struct HostWords {
    words: Vec<u32>,
    dist: Vec<u32>,
    near: Vec<u32>,
    pieces: Vec<u32>,
}

fn host_words(graph: &Graph, source: VertexId, st: &nf::InitialState, arc_base: u64, pc: u32) -> HostWords {
    let (n, m) = (graph.n(), graph.m());
    let succ = graph.successors();
    let mut words = Vec::with_capacity(arc_base as usize + 2 * m);
    words.extend_from_slice(&succ.offsets);
    words.resize(arc_base as usize, 0);
    for (&t, &w) in succ.targets.iter().zip(&succ.weights) {
        words.push(t);
        words.push(w.max(0) as u32);
    }
    let mut dist = vec![u32::MAX; 2 * n];
    dist[source as usize] = 0;
    for x in &mut dist[n..] {
        *x = 0;
    }
    let mut near = vec![0u32; 2 * n];
    near[..st.near.len()].copy_from_slice(&st.near);
    let mut pieces = vec![0u32; 4 * pc as usize];
    pieces[..st.pieces.len()].copy_from_slice(&st.pieces);
    HostWords { words, dist, near, pieces }
}

/// A pipeline and its bind group (`dispatch::Kernel`, whose layout is derived from the shader);
/// dispatched once or indirectly with sizes the scheduler wrote.
struct Pipe(Kernel);

impl Pipe {
    fn bind(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.0.bind(pass);
    }

    /// One workgroup.
    fn once(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.0.dispatch(pass);
    }
}

/// A launch's command buffer and where its readback holds what.
struct Encoded {
    cb: wgpu::CommandBuffer,
    /// Bytes of the log's bound copied into the readback (0: read separately).
    log_bytes: u64,
    /// Where the timestamps start in the readback, and how many.
    ts_at: u64,
    queries: u32,
}

impl NearFarWgpu {
    /// Encodes a launch of `rounds` rounds (the phase budget is written at submission):
    /// `nf_resume`, the rounds, a final `nf_round`, then the copies of the control block (and the
    /// log when small, and the timestamps) into `rb`.
    fn encode(&self, rounds: u32) -> Encoded {
        let gpu = &self.gpu;
        let what = "running near-far phases";
        let ctl_bytes = 4 * NF_C_WORDS as u64;
        let queries = if self.fused { rounds + 4 } else { 2 * rounds + 3 };
        // The log comes back in the same submission when the most a launch can log is small
        // (every round's solo stretch and the final one at most SOLO_PHASES phases, one grid
        // phase per round); a second submission and map cost ~0.15 ms a launch on the H100.
        let most = (rounds as usize + 1) * (SOLO_PHASES + 1);
        let log_bytes = 4 * (most.min(nf::LOG_CAP as usize) * NF_LOG_WORDS) as u64;
        let log_bytes = if log_bytes <= FOLD_LOG_BYTES { log_bytes } else { 0 };
        let ts_at = ctl_bytes + log_bytes;
        let mut enc = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(what) });
        {
            let mut pass =
                enc.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some(what), timestamp_writes: None });
            let set = self.profile.as_ref().map(|(set, _)| set);
            let mut qi = 0;
            let mut stamp = |pass: &mut wgpu::ComputePass<'_>| {
                if let Some(set) = set {
                    pass.write_timestamp(set, qi);
                    qi += 1;
                }
            };
            stamp(&mut pass);
            self.kernels[0].once(&mut pass);
            stamp(&mut pass);
            if self.fused {
                // One scheduling round first, then each step schedules the next itself.
                self.kernels[1].once(&mut pass);
                stamp(&mut pass);
                for r in 0..rounds {
                    let (k, from) = if r % 2 == 0 { (3, &self.args) } else { (4, &self.args2) };
                    self.kernels[k].bind(&mut pass);
                    pass.dispatch_workgroups_indirect(from, 12);
                    stamp(&mut pass);
                }
            } else {
                for _ in 0..rounds {
                    self.kernels[1].once(&mut pass);
                    stamp(&mut pass);
                    self.kernels[2].bind(&mut pass);
                    pass.dispatch_workgroups_indirect(&self.args, 12);
                    stamp(&mut pass);
                }
            }
            self.kernels[1].once(&mut pass);
            stamp(&mut pass);
        }
        enc.copy_buffer_to_buffer(&self.ctl, 0, &self.rb, 0, Some(ctl_bytes));
        if log_bytes > 0 {
            enc.copy_buffer_to_buffer(&self.log, 0, &self.rb, ctl_bytes, Some(log_bytes));
        }
        if let Some((set, resolve)) = &self.profile {
            enc.resolve_query_set(set, 0..queries, resolve, 0);
            enc.copy_buffer_to_buffer(resolve, 0, &self.rb, ts_at, Some(8 * u64::from(queries)));
        }
        Encoded { cb: enc.finish(), log_bytes, ts_at, queries }
    }

    /// The encoded launch of `rounds` rounds: the one encoded ahead when it has as many, else a
    /// fresh one (validation errors surface at the submission's error scope).
    fn encoded(&mut self, rounds: u32) -> Encoded {
        match self.ahead.take() {
            Some((r, e)) if r == rounds => e,
            other => {
                // A step (one phase) leaves the run's encoded launch for the run.
                self.ahead = other;
                self.encode(rounds)
            }
        }
    }
}

/// The readback of one launch: the control block, the log entries it wrote (`None`: more than
/// the readback holds) and the timestamps.
type Readback = (Vec<u32>, Option<Vec<u32>>, Vec<u64>);

impl NearFarBackend for NearFarWgpu {
    fn launch(&mut self, phases: u32) -> Result<Launched, SolveError> {
        // One phase when stepping; otherwise no phase budget and `phases` rounds.
        let (budget, rounds) = if phases <= 1 { (1, 1) } else { (u32::MAX, phases.min(MAX_ROUNDS)) };
        let what = "running near-far phases";
        let ctl_bytes = 4 * NF_C_WORDS;
        let t0 = std::time::Instant::now();
        let mut t_encoded = t0;
        let (log_bytes, ts_at, queries, index) = Arc::clone(&self.gpu).guarded(what, || {
            let Encoded { cb, log_bytes, ts_at, queries } = self.encoded(rounds);
            t_encoded = std::time::Instant::now();
            let q = &self.gpu.queue;
            q.write_buffer(&self.ctl, 4 * NF_C_BUDGET as u64, bytemuck::cast_slice(&[budget]));
            q.write_buffer(&self.ctl, 4 * NF_C_LOGGED as u64, bytemuck::cast_slice(&[0u32]));
            (log_bytes, ts_at, queries, q.submit([cb]))
        })?;
        // While the GPU runs this launch, encode the next one the driver asks for (twice the
        // rounds) — ~10 µs of the host's time per dispatch that would otherwise follow the wait.
        if phases > 1 && self.encode_ahead {
            let next = phases.saturating_mul(2).min(MAX_ROUNDS);
            let e = Arc::clone(&self.gpu).guarded(what, || self.encode(next))?;
            self.ahead = Some((next, e));
        }
        let rb_bytes = ts_at + if self.profile.is_some() { 8 * u64::from(queries) } else { 0 };
        let take = |raw: &[u8]| -> Readback {
            let ctl: Vec<u32> = bytemuck::cast_slice(&raw[..ctl_bytes]).to_vec();
            let count = ctl[NF_C_LOGGED].min(nf::LOG_CAP) as usize;
            let want = 4 * count * NF_LOG_WORDS;
            let words =
                (want as u64 <= log_bytes).then(|| bytemuck::cast_slice(&raw[ctl_bytes..ctl_bytes + want]).to_vec());
            let ts = raw[ts_at as usize..].chunks_exact(8).map(bytemuck::pod_read_unaligned).collect();
            (ctl, words, ts)
        };
        let (ctl, words, ts) = read_with(&self.gpu, &self.rb, rb_bytes, index, what, take)?;
        let t_read = std::time::Instant::now();
        let gpu = &self.gpu;
        if ctl[NF_C_OVERFLOW] != 0 {
            return Err(SolveError::Device(format!(
                "{}: a near-far pile overflowed (far capacity {} entries)",
                gpu.name, self.far_cap
            )));
        }
        let done = nf::is_done(ctl[NF_C_KIND]);
        let count = ctl[NF_C_LOGGED].min(nf::LOG_CAP) as usize;
        let words = match words {
            Some(w) => w,
            None => copy_words(gpu, &self.log, count * NF_LOG_WORDS, "reading the near-far log")?,
        };
        let entries: Vec<NfEntry> = words.chunks_exact(NF_LOG_WORDS).map(|c| std::array::from_fn(|i| c[i])).collect();
        if self.profile.is_some() {
            let sec = |a: std::time::Instant, b: std::time::Instant| (b - a).as_secs_f64() * 1e3;
            let host = [sec(t0, t_encoded), sec(t_encoded, t_read), sec(t_read, std::time::Instant::now())];
            eprintln!("{}", profile::line(&ts, gpu.timestamp_period, rounds, entries.len(), host, self.fused));
        }
        Ok(Launched { entries, done, gpu_ms: None })
    }

    fn read_dist(&mut self) -> Result<Vec<u32>, SolveError> {
        copy_words_via(&self.gpu, &self.dist, &self.dist_rb, self.n, "copying δ from the GPU")
    }

    fn first_launch(&self) -> u32 {
        self.first
    }

    fn threads(&self) -> (u32, u64) {
        (self.solo_wg, self.grid_threads)
    }
}

#[cfg(test)]
mod tests {
    /// The value of `name` in a kernel source: `#define NAME v` (CUDA) or `const NAME: u32 = vu;` (WGSL).
    fn constant(source: &str, name: &str) -> Option<u32> {
        source.lines().find_map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["#define", n, v] if *n == name => v.parse().ok(),
                ["const", n, "u32", "=", v] if n.trim_end_matches(':') == name => {
                    v.trim_end_matches(';').trim_end_matches('u').parse().ok()
                }
                _ => None,
            }
        })
    }

    /// Both modules (per-invocation and per-subgroup reservations) pass naga's WGSL front end and
    /// validator (no adapter needed; the subgroup one is also run on lavapipe by tests/nearfar.rs).
    #[test]
    fn both_shader_variants_parse_and_validate() {
        use wgpu::naga::{front::wgsl, valid};
        for subgroups in [false, true] {
            let text = super::shader_source(subgroups);
            let module =
                wgsl::parse_str(&text).unwrap_or_else(|e| panic!("subgroups {subgroups}: {}", e.emit_to_string(&text)));
            valid::Validator::new(valid::ValidationFlags::all(), valid::Capabilities::all())
                .validate(&module)
                .unwrap_or_else(|e| panic!("subgroups {subgroups}: {}", e.emit_to_string(&text)));
        }
    }

    /// The host's bound on a solo stretch's phases is the kernel's.
    #[test]
    fn solo_phases_match_the_kernel() {
        assert_eq!(constant(super::SOURCE, "SOLO_PHASES"), Some(super::SOLO_PHASES as u32));
    }

    /// The adaptive Δ's thresholds are the CUDA kernel's defaults, so both backends adapt alike.
    #[test]
    fn adaptive_delta_thresholds_match_cuda() {
        let cuda = include_str!("../../../kernels/nearfar.cu");
        for name in ["NF_AD_LO", "NF_AD_HI"] {
            let (c, w) = (constant(cuda, name), constant(super::SOURCE, name));
            assert!(c.is_some(), "{name} not found in kernels/nearfar.cu");
            assert_eq!(c, w, "{name}: kernels/nearfar.cu and kernels/nearfar.wgsl disagree");
        }
    }
}
