//! The words the kernels share with the host — log entry widths, log slots, counter slots,
//! control words, phase kinds — written once, here, as Rust constants (Bellman-Ford's in
//! [`edge_parallel`], Δ-stepping's from [`crate::device::gpu_delta`], near-far's in [`nearfar`],
//! the frontier family's in [`cuda_frontier`] and [`wgsl_frontier`]); the drivers of `driver/`
//! read them from here, so this file sits below them. Both loaders prepend them to every
//! kernel file: [`cuda_prelude`] as `#define`s (NVRTC), [`wgsl_prelude`] as WGSL `const`s, so a
//! kernel cannot disagree with the host. Each family has its own names (`BF_*`, `DS_*`, and the
//! frontier family's `C_*` / `CTL_*` on CUDA, `L_*` / `C_*` / `F_*` on wgpu); the tests below
//! fail if a kernel file defines a slot or control word itself or uses one the prelude lacks.

use super::gpu_delta as ds;

/// The frontier family's CUDA words: the counter slots of the instrumented kernels
/// (`kernels/common.cuh`, `frontier.cu`, `racy.cu`; u64 each) and the persistent kernel's
/// control block (`struct Ctl` in `kernels/fast.cu`, as u32 words).
pub mod cuda_frontier {
    /// Threads that did work in a relax launch.
    pub const C_WORKING: usize = 0;
    /// Warps whose 32 threads all idled.
    pub const C_WARPS_DUMMY: usize = 1;
    /// Warps with some threads working.
    pub const C_WARPS_MIXED: usize = 2;
    /// Warps whose 32 threads all worked.
    pub const C_WARPS_FULL: usize = 3;
    /// Arcs scanned.
    pub const C_SCANNED: usize = 4;
    /// Relaxations attempted (target unsettled / source in the frontier).
    pub const C_ATTEMPTED: usize = 5;
    /// Vertices whose δ went down.
    pub const C_IMPROVED: usize = 6;
    /// Unsettled vertices with δ < ∞.
    pub const C_REACHED: usize = 7;
    /// Vertices the update settled into the next frontier.
    pub const C_NEXT_FRONTIER: usize = 8;
    /// Successors relax: iterations of the per-arc loop, summed over threads.
    pub const C_ARC_ITERS: usize = 9;
    /// Successors relax: iterations its warps ran (lane use = ARC / (32 · WARP)).
    pub const C_WARP_ITERS: usize = 10;
    /// Counters per iteration (the buffer's stride).
    pub const C_COUNT: usize = 16;
    /// u32 words the host allocates for `struct Ctl`.
    pub const CTL_WORDS: usize = 32;
    /// `Ctl::iter`, the last completed iteration.
    pub const CTL_ITER: usize = 19;
    /// `Ctl::done`, 1 once Δ_martin = ∞.
    pub const CTL_DONE: usize = 20;
}

/// The frontier family's wgpu words: the log slots of an iteration (`common_frontier.wgsl`),
/// the control words of `ctrl` (`frontier.wgsl`, `racy.wgsl`) and of the fast path's `fctl`
/// (`fast.wgsl`).
pub mod wgsl_frontier {
    /// u32 log words per iteration of a batch.
    pub const LOG_WORDS: usize = 16;
    /// Martín's threshold min δ.
    pub const L_DELTA_MARTIN: usize = 0;
    /// Crauser's threshold min δ + ω.
    pub const L_DELTA_CRAUSER: usize = 1;
    /// |F|.
    pub const L_FRONTIER: usize = 2;
    /// |U| counted by the relax.
    pub const L_UNSETTLED: usize = 3;
    /// Unsettled vertices with δ < ∞.
    pub const L_REACHED: usize = 4;
    /// Vertices settled into the next frontier.
    pub const L_NEXT_FRONTIER: usize = 5;
    /// Arcs scanned.
    pub const L_EDGES: usize = 6;
    /// Relaxations attempted.
    pub const L_ATTEMPTED: usize = 7;
    /// Distinct vertices lowered.
    pub const L_IMPROVED: usize = 8;
    /// Warps whose 32 threads all worked.
    pub const L_WARPS_FULL: usize = 9;
    /// Warps with some threads working.
    pub const L_WARPS_MIXED: usize = 10;
    /// Successors relax: iterations its warps ran (lane use = L_EDGES / (32 · L_WARP_ITERS)).
    pub const L_WARP_ITERS: usize = 11;
    /// `ctrl`: Δ for the update.
    pub const C_DELTA: usize = 0;
    /// `ctrl`: 1 once nothing reached is left.
    pub const C_DONE: usize = 1;
    /// `ctrl`: log slot of the iteration in flight.
    pub const C_SLOT: usize = 2;
    /// `ctrl`: the iteration i.
    pub const C_ITER: usize = 3;
    /// `fctl`: three (min δ, min δ + ω) pairs, by i mod 3.
    pub const F_MINS: usize = 0;
    /// `fctl`: frontier list lengths by parity.
    pub const F_COUNT: usize = 6;
    /// `fctl`: the iteration the relax runs.
    pub const F_ITER_R: usize = 8;
    /// `fctl`: the iteration the update runs.
    pub const F_ITER_U: usize = 9;
    /// `fctl`: first log slot of the batch.
    pub const F_BASE: usize = 10;
    /// `fctl`: 1 once the solve ended.
    pub const F_DONE: usize = 11;
    /// `fctl`: vertices of the frontier lists by parity.
    pub const F_VERTS: usize = 12;
    /// `fctl`: u32 words before the log (the log's first word).
    pub const F_LOG: usize = 16;
}

/// The frontier family on CUDA (`kernels/common.cuh`, `frontier.cu`, `racy.cu`, `fast.cu`).
pub const CUDA_FRONTIER: &[(&str, usize)] = {
    use cuda_frontier::*;
    &[
        ("C_WORKING", C_WORKING),
        ("C_WARPS_DUMMY", C_WARPS_DUMMY),
        ("C_WARPS_MIXED", C_WARPS_MIXED),
        ("C_WARPS_FULL", C_WARPS_FULL),
        ("C_SCANNED", C_SCANNED),
        ("C_ATTEMPTED", C_ATTEMPTED),
        ("C_IMPROVED", C_IMPROVED),
        ("C_REACHED", C_REACHED),
        ("C_NEXT_FRONTIER", C_NEXT_FRONTIER),
        ("C_ARC_ITERS", C_ARC_ITERS),
        ("C_WARP_ITERS", C_WARP_ITERS),
        ("C_COUNT", C_COUNT),
        ("CTL_WORDS", CTL_WORDS),
        ("CTL_ITER", CTL_ITER),
        ("CTL_DONE", CTL_DONE),
    ]
};

/// The frontier family on wgpu (`kernels/common_frontier.wgsl`, `frontier.wgsl`, `racy.wgsl`,
/// `fast.wgsl`).
pub const WGSL_FRONTIER: &[(&str, usize)] = {
    use wgsl_frontier::*;
    &[
        ("LOG_WORDS", LOG_WORDS),
        ("L_DELTA_MARTIN", L_DELTA_MARTIN),
        ("L_DELTA_CRAUSER", L_DELTA_CRAUSER),
        ("L_FRONTIER", L_FRONTIER),
        ("L_UNSETTLED", L_UNSETTLED),
        ("L_REACHED", L_REACHED),
        ("L_NEXT_FRONTIER", L_NEXT_FRONTIER),
        ("L_EDGES", L_EDGES),
        ("L_ATTEMPTED", L_ATTEMPTED),
        ("L_IMPROVED", L_IMPROVED),
        ("L_WARPS_FULL", L_WARPS_FULL),
        ("L_WARPS_MIXED", L_WARPS_MIXED),
        ("L_WARP_ITERS", L_WARP_ITERS),
        ("C_DELTA", C_DELTA),
        ("C_DONE", C_DONE),
        ("C_SLOT", C_SLOT),
        ("C_ITER", C_ITER),
        ("F_MINS", F_MINS),
        ("F_COUNT", F_COUNT),
        ("F_ITER_R", F_ITER_R),
        ("F_ITER_U", F_ITER_U),
        ("F_BASE", F_BASE),
        ("F_DONE", F_DONE),
        ("F_VERTS", F_VERTS),
        ("F_LOG", F_LOG),
    ]
};

/// Bellman-Ford's log (`kernels/bellman_ford.{cu,wgsl}`), read by `driver::edge_parallel`.
pub mod edge_parallel {
    /// u32 words per pass in the log (`BF_LOG_WORDS` in the kernels).
    pub const LOG_WORDS: usize = 8;
    /// Log slot: vertices lowered in the pass.
    pub const LOWERED: usize = 0;
    /// Log slot: vertices reached for the first time.
    pub const FRESH: usize = 1;
    /// Log slot: a proposal below the negative bound (a negative cycle).
    pub const NEGATIVE: usize = 2;
    /// Log slot: arcs out of lowered vertices.
    pub const LOWERED_ARCS: usize = 3;
    /// Log slot: arcs out of fresh vertices.
    pub const FRESH_ARCS: usize = 4;
}
use edge_parallel as bf;

/// Bellman-Ford's log names and values, as the prelude writes them.
pub const BELLMAN_FORD: &[(&str, usize)] = &[
    ("BF_LOG_WORDS", bf::LOG_WORDS),
    ("BF_LOWERED", bf::LOWERED),
    ("BF_FRESH", bf::FRESH),
    ("BF_NEGATIVE", bf::NEGATIVE),
    ("BF_LOWERED_ARCS", bf::LOWERED_ARCS),
    ("BF_FRESH_ARCS", bf::FRESH_ARCS),
];

/// Δ-stepping's phase kinds, control words and log (`kernels/delta_stepping.{cu,wgsl}`).
pub const DELTA_STEPPING: &[(&str, usize)] = &[
    ("DS_K_LIGHT", ds::K_LIGHT),
    ("DS_K_HEAVY", ds::K_HEAVY),
    ("DS_K_SELECT", ds::K_SELECT),
    ("DS_K_DONE", ds::K_DONE),
    ("DS_CTL_WORDS", ds::CTL_WORDS),
    ("DS_C_PHASE", ds::C_PHASE),
    ("DS_C_SLOT", ds::C_SLOT),
    ("DS_C_BUCKET", ds::C_BUCKET),
    ("DS_C_KIND", ds::C_KIND),
    ("DS_C_SERIAL", ds::C_SERIAL),
    ("DS_C_RSIZE", ds::C_RSIZE),
    ("DS_C_HEAVY_R", ds::C_HEAVY_R),
    ("DS_C_SETTLED", ds::C_SETTLED),
    ("DS_C_REACHED", ds::C_REACHED),
    ("DS_C_MINB", ds::C_MINB),
    ("DS_C_OPENED", ds::C_OPENED),
    ("DS_C_OPENED_HEAVY", ds::C_OPENED_HEAVY),
    ("DS_LOG_WORDS", ds::LOG_WORDS),
    ("DS_L_VALID", ds::L_VALID),
    ("DS_L_FRONTIER", ds::L_FRONTIER),
    ("DS_L_SCANNED", ds::L_SCANNED),
    ("DS_L_RELAXED", ds::L_RELAXED),
    ("DS_L_LOWERED", ds::L_LOWERED),
    ("DS_L_FRESH", ds::L_FRESH),
    ("DS_L_NEXT", ds::L_NEXT),
    ("DS_L_NEW_R", ds::L_NEW_R),
    ("DS_L_NEW_R_HEAVY", ds::L_NEW_R_HEAVY),
    ("DS_L_BUCKET", ds::L_BUCKET),
    ("DS_L_KIND", ds::L_KIND),
    ("DS_L_BUCKET_SIZE", ds::L_BUCKET_SIZE),
    ("DS_L_NEXT_FRONTIER", ds::L_NEXT_FRONTIER),
    ("DS_L_SETTLED_BEFORE", ds::L_SETTLED_BEFORE),
    ("DS_L_SETTLED", ds::L_SETTLED),
    ("DS_L_REACHED", ds::L_REACHED),
    ("DS_L_WARPS_FULL", ds::L_WARPS_FULL),
    ("DS_L_WARPS_MIXED", ds::L_WARPS_MIXED),
    ("DS_L_SERIAL", ds::L_SERIAL),
    ("DS_L_DONE", ds::L_DONE),
    ("DS_L_ARC_ITERS", ds::L_ARC_ITERS),
    ("DS_L_WARP_ITERS", ds::L_WARP_ITERS),
];

/// The near-far worklist solver's words (`delta-stepping:worklist=near-far`, issue 30): the
/// control block (`struct NfCtl` of `kernels/nearfar.cu`, as u32 words; `kernels/nearfar.wgsl`
/// keeps the same indices), the log entry of a phase and the phase kinds.
pub mod nearfar {
    /// u32 words of the control block.
    pub const NF_C_WORDS: usize = 48;
    /// CUDA: the grid barrier's count; wgpu: the workgroups of the running fused step that
    /// finished its grid phase (`nf_step` in `kernels/nearfar.wgsl`; 0 between steps).
    pub const NF_C_GROUPS_DONE: usize = 0;
    /// Snapshot of the next phase as the kernels read it: kind (NF_K_*, PAUSE once the budget is spent).
    pub const NF_C_SNAP_KIND: usize = 4;
    /// Snapshot: 1 when block 0 / one workgroup runs it.
    pub const NF_C_SNAP_SOLO: usize = 5;
    /// Snapshot: the near list it reads.
    pub const NF_C_SNAP_CUR: usize = 6;
    /// Snapshot: the far pile it reads.
    pub const NF_C_SNAP_FSEL: usize = 7;
    /// Snapshot: the threshold T.
    pub const NF_C_SNAP_T: usize = 8;
    /// Snapshot: the phase's stamp.
    pub const NF_C_SNAP_STAMP: usize = 9;
    /// Snapshot: near items (relax) or far entries (split).
    pub const NF_C_SNAP_N_IN: usize = 10;
    /// Snapshot: hub pieces.
    pub const NF_C_SNAP_N_P: usize = 11;
    /// The scheduled phase's kind (NF_K_*).
    pub const NF_C_KIND: usize = 12;
    /// 1 when the scheduled phase is small enough for one block.
    pub const NF_C_SOLO: usize = 13;
    /// CUDA: block 0 scheduled the phase after its solo stretch itself.
    pub const NF_C_DECIDED: usize = 14;
    /// The near list being read (0 or 1).
    pub const NF_C_CUR: usize = 15;
    /// The far pile being read (0 or 1).
    pub const NF_C_FSEL: usize = 16;
    /// Near list lengths, two words by list.
    pub const NF_C_NEAR: usize = 17;
    /// Hub piece counts, two words by list.
    pub const NF_C_PIECES: usize = 19;
    /// Far pile lengths, two words by pile.
    pub const NF_C_FAR: usize = 21;
    /// Minimum δ in the far pile being read.
    pub const NF_C_FAR_MIN: usize = 23;
    /// Minimum δ of the far pile a split writes.
    pub const NF_C_FAR_MIN_NEXT: usize = 24;
    /// The threshold T.
    pub const NF_C_T: usize = 25;
    /// Δ.
    pub const NF_C_DELTA: usize = 26;
    /// The running phase's stamp.
    pub const NF_C_STAMP: usize = 27;
    /// 1 once a pile overflowed.
    pub const NF_C_OVERFLOW: usize = 28;
    /// Most estimated arcs of a solo relax phase.
    pub const NF_C_SOLO_WORK: usize = 29;
    /// Most far entries of a solo split.
    pub const NF_C_SOLO_FAR: usize = 30;
    /// 16 × the mean out-degree.
    pub const NF_C_AVG16: usize = 31;
    /// Phases scheduled (the seed's is 1).
    pub const NF_C_STARTED: usize = 32;
    /// The last phase allowed (wgpu: the host writes a count, nf_resume makes it absolute).
    pub const NF_C_BUDGET: usize = 33;
    /// Phases logged since the host reset it.
    pub const NF_C_LOGGED: usize = 34;
    /// The running phase's arcs scanned.
    pub const NF_C_ARCS: usize = 35;
    /// The running phase's δ decreases.
    pub const NF_C_IMPROVED: usize = 36;
    /// The running phase's near list.
    pub const NF_C_REC_ITEMS: usize = 37;
    /// The running phase's hub pieces.
    pub const NF_C_REC_PIECES: usize = 38;
    /// The running phase's far pile.
    pub const NF_C_REC_FAR: usize = 39;
    /// Wgpu: a grid phase ran and awaits the scheduler (CUDA: padding).
    pub const NF_C_PENDING: usize = 40;
    /// Arcs scanned by the relax phases of the running bucket (CUDA's adaptive Δ).
    pub const NF_C_B_ARCS: usize = 44;
    /// Relax phases of the running bucket (CUDA's adaptive Δ).
    pub const NF_C_B_PHASES: usize = 45;
    /// The largest Δ the kernel may grow to (= the initial Δ: fixed Δ).
    pub const NF_C_DELTA_MAX: usize = 46;
    /// The smallest Δ the kernel may shrink to (the initial Δ).
    pub const NF_C_DELTA_MIN: usize = 47;
    /// u32 words of a phase's log entry.
    pub const NF_LOG_WORDS: usize = 9;
    /// Log entry: phase kind (NF_K_RELAX or NF_K_SPLIT).
    pub const NF_L_KIND: usize = 0;
    /// Log entry: 1 when one block ran it.
    pub const NF_L_SOLO: usize = 1;
    /// Log entry: near list items.
    pub const NF_L_ITEMS: usize = 2;
    /// Log entry: hub pieces.
    pub const NF_L_PIECES: usize = 3;
    /// Log entry: far pile size.
    pub const NF_L_FAR: usize = 4;
    /// Log entry: the threshold T.
    pub const NF_L_T: usize = 5;
    /// Log entry: arcs scanned.
    pub const NF_L_ARCS: usize = 6;
    /// Log entry: δ decreases.
    pub const NF_L_IMPROVED: usize = 7;
    /// Log entry: the Δ the phase ran with.
    pub const NF_L_DELTA: usize = 8;
    /// Phase kinds: relax the near list, split the far pile, done, paused (budget spent).
    pub const NF_K_RELAX: usize = 0;
    pub const NF_K_SPLIT: usize = 1;
    pub const NF_K_DONE: usize = 2;
    pub const NF_K_PAUSE: usize = 3;
    /// Arcs per hub piece (`NF_PIECE` of `nearfar.cu`).
    pub const NF_PIECE_ARCS: usize = 4096;
}

/// The near-far solver (`kernels/nearfar.cu`, `kernels/nearfar.wgsl`).
pub const NEAR_FAR: &[(&str, usize)] = {
    use nearfar::*;
    &[
        ("NF_C_WORDS", NF_C_WORDS),
        ("NF_C_GROUPS_DONE", NF_C_GROUPS_DONE),
        ("NF_C_SNAP_KIND", NF_C_SNAP_KIND),
        ("NF_C_SNAP_SOLO", NF_C_SNAP_SOLO),
        ("NF_C_SNAP_CUR", NF_C_SNAP_CUR),
        ("NF_C_SNAP_FSEL", NF_C_SNAP_FSEL),
        ("NF_C_SNAP_T", NF_C_SNAP_T),
        ("NF_C_SNAP_STAMP", NF_C_SNAP_STAMP),
        ("NF_C_SNAP_N_IN", NF_C_SNAP_N_IN),
        ("NF_C_SNAP_N_P", NF_C_SNAP_N_P),
        ("NF_C_KIND", NF_C_KIND),
        ("NF_C_SOLO", NF_C_SOLO),
        ("NF_C_DECIDED", NF_C_DECIDED),
        ("NF_C_CUR", NF_C_CUR),
        ("NF_C_FSEL", NF_C_FSEL),
        ("NF_C_NEAR", NF_C_NEAR),
        ("NF_C_PIECES", NF_C_PIECES),
        ("NF_C_FAR", NF_C_FAR),
        ("NF_C_FAR_MIN", NF_C_FAR_MIN),
        ("NF_C_FAR_MIN_NEXT", NF_C_FAR_MIN_NEXT),
        ("NF_C_T", NF_C_T),
        ("NF_C_DELTA", NF_C_DELTA),
        ("NF_C_STAMP", NF_C_STAMP),
        ("NF_C_OVERFLOW", NF_C_OVERFLOW),
        ("NF_C_SOLO_WORK", NF_C_SOLO_WORK),
        ("NF_C_SOLO_FAR", NF_C_SOLO_FAR),
        ("NF_C_AVG16", NF_C_AVG16),
        ("NF_C_STARTED", NF_C_STARTED),
        ("NF_C_BUDGET", NF_C_BUDGET),
        ("NF_C_LOGGED", NF_C_LOGGED),
        ("NF_C_ARCS", NF_C_ARCS),
        ("NF_C_IMPROVED", NF_C_IMPROVED),
        ("NF_C_REC_ITEMS", NF_C_REC_ITEMS),
        ("NF_C_REC_PIECES", NF_C_REC_PIECES),
        ("NF_C_REC_FAR", NF_C_REC_FAR),
        ("NF_C_PENDING", NF_C_PENDING),
        ("NF_C_B_ARCS", NF_C_B_ARCS),
        ("NF_C_B_PHASES", NF_C_B_PHASES),
        ("NF_C_DELTA_MAX", NF_C_DELTA_MAX),
        ("NF_C_DELTA_MIN", NF_C_DELTA_MIN),
        ("NF_LOG_WORDS", NF_LOG_WORDS),
        ("NF_L_KIND", NF_L_KIND),
        ("NF_L_SOLO", NF_L_SOLO),
        ("NF_L_ITEMS", NF_L_ITEMS),
        ("NF_L_PIECES", NF_L_PIECES),
        ("NF_L_FAR", NF_L_FAR),
        ("NF_L_T", NF_L_T),
        ("NF_L_ARCS", NF_L_ARCS),
        ("NF_L_IMPROVED", NF_L_IMPROVED),
        ("NF_L_DELTA", NF_L_DELTA),
        ("NF_K_RELAX", NF_K_RELAX),
        ("NF_K_SPLIT", NF_K_SPLIT),
        ("NF_K_DONE", NF_K_DONE),
        ("NF_K_PAUSE", NF_K_PAUSE),
        ("NF_PIECE_ARCS", NF_PIECE_ARCS),
    ]
};

fn batched() -> impl Iterator<Item = &'static (&'static str, usize)> {
    BELLMAN_FORD.iter().chain(DELTA_STEPPING).chain(NEAR_FAR)
}

/// Every name the CUDA prelude defines.
fn cuda_names() -> impl Iterator<Item = &'static (&'static str, usize)> {
    batched().chain(CUDA_FRONTIER)
}

/// Every name the WGSL prelude defines.
fn wgsl_names() -> impl Iterator<Item = &'static (&'static str, usize)> {
    batched().chain(WGSL_FRONTIER)
}

/// The layouts as C `#define`s (plain integer literals), for NVRTC sources.
pub fn cuda_prelude() -> String {
    let mut s = String::from("// Generated from src/device/layout.rs: log layouts and slots shared with the host.\n");
    for (name, v) in cuda_names() {
        s.push_str(&format!("#define {name} {v}\n"));
    }
    s
}

/// The layouts as WGSL `const`s (u32).
pub fn wgsl_prelude() -> String {
    let mut s = String::from("// Generated from src/device/layout.rs: log layouts and slots shared with the host.\n");
    for (name, v) in wgsl_names() {
        s.push_str(&format!("const {name}: u32 = {v}u;\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kernel file of the solvers, by name (the view shaders share nothing with the host's
    /// logs).
    fn kernels() -> Vec<(&'static str, &'static str)> {
        vec![
            ("bellman_ford.cu", include_str!("../../kernels/bellman_ford.cu")),
            ("bellman_ford.wgsl", include_str!("../../kernels/bellman_ford.wgsl")),
            ("delta_stepping.cu", include_str!("../../kernels/delta_stepping.cu")),
            ("delta_stepping.wgsl", include_str!("../../kernels/delta_stepping.wgsl")),
            ("common.cuh", include_str!("../../kernels/common.cuh")),
            ("common.wgsl", include_str!("../../kernels/common.wgsl")),
            ("common_frontier.wgsl", include_str!("../../kernels/common_frontier.wgsl")),
            ("frontier.cu", include_str!("../../kernels/frontier.cu")),
            ("frontier.wgsl", include_str!("../../kernels/frontier.wgsl")),
            ("fast.cu", include_str!("../../kernels/fast.cu")),
            ("fast.wgsl", include_str!("../../kernels/fast.wgsl")),
            ("racy.cu", include_str!("../../kernels/racy.cu")),
            ("racy.wgsl", include_str!("../../kernels/racy.wgsl")),
            ("seed004.cu", include_str!("../../kernels/seed004.cu")),
            ("nearfar.cu", include_str!("../../kernels/nearfar.cu")),
            ("nearfar_vertex.cu", include_str!("../../kernels/nearfar_vertex.cu")),
            ("nearfar_solve.cu", include_str!("../../kernels/nearfar_solve.cu")),
            ("nearfar.wgsl", include_str!("../../kernels/nearfar.wgsl")),
            ("nearfar_vertex.wgsl", include_str!("../../kernels/nearfar_vertex.wgsl")),
            ("nearfar_emit.wgsl", include_str!("../../kernels/nearfar_emit.wgsl")),
            ("nearfar_emit_sg.wgsl", include_str!("../../kernels/nearfar_emit_sg.wgsl")),
        ]
    }

    /// The names the prelude of `file`'s language defines.
    fn prelude_names(file: &str) -> Vec<&'static str> {
        if file.ends_with(".wgsl") {
            wgsl_names().map(|(n, _)| *n).collect()
        } else {
            cuda_names().map(|(n, _)| *n).collect()
        }
    }

    /// Identifiers of `text` outside `//` comments.
    fn identifiers(text: &str) -> Vec<&str> {
        text.lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .flat_map(|l| l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
            .filter(|w| !w.is_empty())
            .collect()
    }

    /// Whether `w` has the shape of a slot or control word: a family prefix (`BF_`, `DS_`,
    /// `L_`, `C_`, `F_`, `CTL_`) followed by capitals, or one of the log widths.
    fn slot_like(w: &str) -> bool {
        let upper = |rest: &str| {
            !rest.is_empty() && rest.chars().all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
        };
        let prefixed = ["BF_", "DS_", "L_", "C_", "F_", "CTL_", "NF_C_", "NF_L_", "NF_K_"]
            .iter()
            .any(|p| w.strip_prefix(p).is_some_and(upper));
        prefixed || w == "LOG_WORDS"
    }

    /// Names a kernel may define although they look like slots: no host word (Bellman-Ford's ∞
    /// as i32 and its entry-point macros, Δ-stepping's ∞).
    const NOT_SLOTS: [&str; 4] = ["BF_INF", "BF_RELAX", "BF_NO_RESTRICT", "DS_INF"];

    #[test]
    fn no_kernel_defines_a_slot_or_control_word_itself() {
        for (file, text) in kernels() {
            for line in text.lines().map(|l| l.split("//").next().unwrap_or("").trim()) {
                let defined = line
                    .strip_prefix("#define ")
                    .or_else(|| line.strip_prefix("const "))
                    .and_then(|rest| rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next());
                if let Some(name) = defined {
                    assert!(
                        !slot_like(name) || NOT_SLOTS.contains(&name),
                        "{file} defines {name} itself: `{line}` (slots and control words come from src/device/layout.rs)"
                    );
                }
            }
        }
    }

    #[test]
    fn every_slot_a_kernel_uses_is_in_the_prelude() {
        for (file, text) in kernels() {
            let known = prelude_names(file);
            for w in identifiers(text) {
                assert!(
                    !slot_like(w) || NOT_SLOTS.contains(&w) || known.contains(&w),
                    "{file} uses {w}, which the prelude of src/device/layout.rs lacks"
                );
            }
        }
    }

    #[test]
    fn the_preludes_carry_the_host_values() {
        let cuda = cuda_prelude();
        let wgsl = wgsl_prelude();
        assert!(cuda.contains(&format!("#define DS_LOG_WORDS {}\n", ds::LOG_WORDS)));
        assert!(cuda.contains(&format!("#define C_WARP_ITERS {}\n", cuda_frontier::C_WARP_ITERS)));
        assert!(wgsl.contains(&format!("const BF_LOG_WORDS: u32 = {}u;\n", bf::LOG_WORDS)));
        assert!(wgsl.contains(&format!("const DS_L_SERIAL: u32 = {}u;\n", ds::L_SERIAL)));
        assert!(wgsl.contains(&format!("const L_WARP_ITERS: u32 = {}u;\n", wgsl_frontier::L_WARP_ITERS)));
        // No two names of one table share a word except the counts and widths.
        let counts = ["C_COUNT", "CTL_WORDS", "LOG_WORDS", "F_LOG", "NF_C_WORDS"];
        assert!(wgsl.contains(&format!("const NF_C_LOGGED: u32 = {}u;\n", nearfar::NF_C_LOGGED)));
        assert!(cuda.contains(&format!("#define NF_L_IMPROVED {}\n", nearfar::NF_L_IMPROVED)));
        for table in [BELLMAN_FORD, DELTA_STEPPING, CUDA_FRONTIER, WGSL_FRONTIER, NEAR_FAR] {
            for prefix in
                ["BF_L", "BF_F", "BF_N", "DS_L_", "DS_C_", "C_", "CTL_", "L_", "F_", "NF_C_", "NF_L_", "NF_K_"]
            {
                let mut seen: Vec<usize> = table
                    .iter()
                    .filter(|(n, _)| n.starts_with(prefix) && !counts.contains(n))
                    .map(|&(_, v)| v)
                    .collect();
                let len = seen.len();
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), len, "two {prefix}* slots share a word");
            }
            for (name, v) in table.iter().filter(|(n, _)| n.starts_with("L_")) {
                assert!(*v < wgsl_frontier::LOG_WORDS, "{name} lies outside the log entry");
            }
        }
        // Every slot fits its entry.
        for (name, v) in CUDA_FRONTIER.iter().filter(|(n, _)| n.starts_with("C_") && *n != "C_COUNT") {
            assert!(*v < cuda_frontier::C_COUNT, "{name} lies outside the counters");
        }
        for (name, v) in CUDA_FRONTIER.iter().filter(|(n, _)| n.starts_with("CTL_") && *n != "CTL_WORDS") {
            assert!(*v < cuda_frontier::CTL_WORDS, "{name} lies outside the control block");
        }
    }
}
