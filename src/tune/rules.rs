//! The prediction: block sizes per kernel (and Δ for Δ-stepping) from a graph's
//! [`GraphStats`] and the device, by a small rule set. Every rule is one function below with its
//! reason (the measurement or the GPU argument it rests on); `docs/tune.md` lists them, and
//! `sssp-lab tune --check` measures how often they land within 5 % of the best configuration.
//!
//! The rules, in the order [`predict`] applies them (ids appear in the reasons):
//!
//! - **C1** CPU: block sizes do not change CPU times (they only feed the modelled thread and
//!   warp figures): 256 everywhere, seed 000's default, so the modelled figures stay comparable
//!   with the papers'.
//! - **G1** GPU, the papers' vertex- or arc-parallel launches (one thread per vertex or arc per
//!   kernel): 256 threads, the flat middle of the H100 sweeps (`bench/results/h100/seed000-table1`:
//!   the best per-kernel size gains 0.2–11 % over 256 with no consistent direction) — unless
//!   **G2** the launch has too few threads to give every multiprocessor two blocks of 256:
//!   then the largest power of two ≥ 32 that still does (a small graph at 256 leaves most SMs
//!   idle; ⌈items / block⌉ ≥ 2 · SMs keeps each SM busy and can hide one block's barrier or
//!   memory stall behind the other's).
//! - **F1** CUDA `launch: fast`, frontier solvers: only the relax block shapes the persistent
//!   kernel (grid = SMs × ⌈1024 / block⌉, solo limit 4 × block); minimum and update keep G1/G2
//!   (they only run when stepping). Successors: 256 (`bench/results/gpu-tune`: fan-out 98k d2,
//!   crauser 2.56 / 2.60 / 2.79 ms and martin 6.09 / 6.13 / 6.50 ms at 256 / 512 / 1024) —
//!   **F2** but 512 when the degrees are skewed (CV ≥ 1) and frontiers wide (the widest BFS
//!   level ≥ 1024 × SMs): the block-level arc partition then spreads a hub's arcs over more
//!   threads (`bench/results/cuda-tune.md`: R-MAT 21, crauser 7.28 vs 7.59 ms, martin 10.80 vs
//!   11.44 ms at 512 vs 256). Predecessors (**F3**): 256; the pull kernel runs every thread the
//!   GPU holds over all of U, and 256-thread blocks pack an SM fully where 1024-thread blocks can
//!   lose half of it to the register limit. In-degree spread costs divergence that no block size
//!   removes (said in the reasons when the in-degree CV ≥ 1).
//! - **W1** wgpu: at most 256 per kernel. WebGPU guarantees 256 invocations per workgroup, the
//!   device list does not carry the adapter's real limit, and the H100's wgpu curves are flat
//!   (`seed000-table1`: best over 256 by 0.0–1.1 %).
//! - **B1** Δ-stepping with `relax=balanced` on a GPU: 1024 when some vertex has ≥ 1024 arcs: a
//!   block runs ⌈its frontier's arcs / block⌉ rounds, so a bigger block spreads a hub over more
//!   lanes (`docs/gpu-delta-stepping.md`); otherwise G1/G2. It has no minimum kernel: that
//!   block is not predicted (256), as for Bellman-Ford.
//! - **E1** Bellman-Ford on a GPU: relax is one thread per arc (G2 over m), the commit kernels
//!   (the `update` block) one per vertex (G2 over n).
//! - **N1** GPU: parameters other than `relax` and `delta` (seed 004's kernel variants such as
//!   `layout=matrix` or `split=uh1`) are named in the reasons but not modelled.
//! - **D0–D3** Δ (Δ-stepping only), starting from the auto rule Δ₀ = ⌈w_max · n / m⌉
//!   ([`crate::algo::auto_delta`]). A graph is *long and sparse* (roads, meshes) when its mean
//!   degree is ≤ 5 and its hop diameter ≥ 32. **D0** CPU: GAP-style rounds are work-bound, and
//!   a narrower bucket re-relaxes less while a bucket spanning a few average arcs still pays for
//!   its scan: one thread takes Δ₀ / 2, or 2 × the mean weight on long sparse graphs; all cores
//!   Δ₀, or 4 × the mean weight (one thread, 2-core machine, `tune --check-set … -d cpu`: NY,
//!   Rome and the power grid best at 1–2 mean weights, up to 1.3× faster than Δ₀; R-MAT 20 and
//!   Martín 2²⁰ best at Δ₀/4 … Δ₀/2, 1.03–1.1×). **D1** GPU, long and
//!   sparse: max(Δ₀, 64 × the mean weight) — a phase costs ~4 launches over n threads whatever
//!   its work (NY on the H100: ≈ 33 µs per phase at both widths below), so buckets spanning many
//!   hops win (`bench/results/ds-gpu`: NY 61.5 ms / 1842 phases at Δ₀, 41.0 ms / 1234 phases at
//!   100 000 ≈ 77 mean weights). **D2** GPU, `relax=balanced` and a hop diameter ≤ 32:
//!   w_max × diameter, one bucket for the whole run (phases ≈ hops; balanced lanes make the big
//!   frontiers cheap: Kronecker 21, 12.9 ms at 100 000 vs 25.1 ms at Δ₀). **D3** GPU otherwise:
//!   Δ₀ (with `relax=vertex` a wide Δ fills phases with hubs that stall their warps: Kronecker
//!   21, 88.8 ms at Δ₀ vs 164.8 ms at 100 000; uniform 21, 16.5 vs 29.7 ms). **D4** GPU with
//!   `worklist=near-far`: the near-far kernel's own auto rule ([`crate::device::gpu_delta::nearfar_delta`]):
//!   16 mean weights when no vertex has more than 32 arcs, 8 when the maximum degree is ≥ 64 ×
//!   the mean (hubs), else half a mean weight (`bench/results/gpu30-prototype/`: NY 16 w̄, grid
//!   16–32 w̄, Kronecker 21 8 w̄, uniform 21 ½ w̄ the best of ½..64 w̄). **N2** the near-far kernel
//!   fixes its own block (1024 threads, one persistent grid of resident blocks): the block fields
//!   are not read, and the reasons say so.

use super::stats::GraphStats;
use crate::algo::{
    AlgoChoice, BlockField, BlockSizes, DeltaSteppingParams, Family, Launch, RelaxVariant, SolveOptions,
};
use crate::device::DeviceId;
use serde::{Deserialize, Serialize};

/// Multiprocessors assumed when the device does not say (wgpu, or CUDA not probed): an H100
/// SXM's 132, the GPU the rules were measured on.
pub const ASSUMED_UNITS: u32 = 132;

/// What kind of device a prediction is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeviceKind {
    Cpu,
    Cuda,
    Wgpu,
}

/// What the rules need of a device: its kind and, where known, its multiprocessor count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceShape {
    pub id: DeviceId,
    pub kind: DeviceKind,
    /// As [`crate::device::devices`] lists it (the id when it is not listed).
    pub name: String,
    /// Streaming multiprocessors (CUDA, once probed; the CPU cores under a software wgpu
    /// adapter); `None`: unknown, [`ASSUMED_UNITS`] is used.
    pub units: Option<u32>,
}

impl DeviceShape {
    /// The shape of `id` from the device list alone (no kernels compiled, units unknown).
    pub fn of(id: DeviceId) -> DeviceShape {
        let kind = match id {
            DeviceId::Cpu | DeviceId::CpuParallel(_) => DeviceKind::Cpu,
            DeviceId::Cuda(_) => DeviceKind::Cuda,
            DeviceId::Wgpu(_) => DeviceKind::Wgpu,
        };
        let name = if kind == DeviceKind::Cpu {
            id.to_string()
        } else {
            crate::device::find(id).map_or_else(|| id.to_string(), |d| d.name.clone())
        };
        // A software adapter (lavapipe / llvmpipe) runs workgroups on the CPU's cores.
        let software = kind == DeviceKind::Wgpu && (name.contains("(software)") || name.contains("llvmpipe"));
        let units = software.then(|| std::thread::available_parallelism().map_or(1, |c| c.get() as u32));
        DeviceShape { id, kind, name, units }
    }

    /// [`DeviceShape::of`] plus the multiprocessor count of a CUDA device (which opens it and
    /// compiles its kernels once per process: seconds the first time). A device that cannot be
    /// opened keeps `units: None`.
    pub fn probe(id: DeviceId) -> DeviceShape {
        let mut s = DeviceShape::of(id);
        if let DeviceId::Cuda(i) = id
            && let Ok(d) = crate::device::cuda::details(i)
        {
            s.units = Some(d.multiprocessors);
        }
        s
    }

    fn units(&self) -> u32 {
        self.units.unwrap_or(ASSUMED_UNITS).max(1)
    }
}

/// A predicted configuration with the rules that chose it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// The algorithm as asked for (its parameters kept; Δ is in `delta`).
    #[serde(with = "choice_text")]
    pub algorithm: AlgoChoice,
    pub device: DeviceId,
    pub launch: Launch,
    pub block: BlockSizes,
    /// Δ-stepping's bucket width (a concrete value, never 0); `None` for other algorithms.
    pub delta: Option<i64>,
    /// One line per rule applied: its id, what it chose and why.
    pub reasons: Vec<String>,
}

mod choice_text {
    use crate::algo::AlgoChoice;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &AlgoChoice, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(c)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<AlgoChoice, D::Error> {
        String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
    }
}

impl Prediction {
    /// The algorithm with the predicted Δ set.
    pub fn choice(&self) -> AlgoChoice {
        with_delta(&self.algorithm, self.delta)
    }

    /// Solve options of the prediction (launch, block sizes, parameters with Δ).
    pub fn options(&self) -> SolveOptions {
        SolveOptions { params: self.choice().params, block: self.block, launch: self.launch, ..Default::default() }
    }
}

/// `choice` with parameter `delta` set to `delta` (unchanged for `None`).
pub fn with_delta(choice: &AlgoChoice, delta: Option<i64>) -> AlgoChoice {
    match delta {
        Some(d) => {
            AlgoChoice { algorithm: choice.algorithm, params: choice.params.clone().with("delta", &d.to_string()) }
        }
        None => choice.clone(),
    }
}

/// Whether a Δ-stepping choice asks for the block-balanced relax (`false` for values that do
/// not decode: the rules then predict for the default kernel).
fn lanes_balanced(choice: &AlgoChoice) -> bool {
    DeltaSteppingParams::decode(&choice.params).is_ok_and(|p| p.balanced())
}

/// G1/G2: 256, or the largest power of two ≥ 32 that still gives every multiprocessor two
/// blocks over `items` threads.
/// Whether `choice` asks for the near-far worklist kernel (`worklist=near-far`).
fn near_far(choice: &AlgoChoice) -> bool {
    DeltaSteppingParams::decode(&choice.params).is_ok_and(|p| p.near_far)
}

fn fit_block(items: usize, units: u32) -> u32 {
    let want = 2 * units as usize;
    [256, 128, 64, 32].into_iter().find(|&b| items.div_ceil(b as usize) >= want).unwrap_or(32)
}

/// Adds G2's reason when it shrank a kernel's block.
fn fitted(kernel: &str, items: usize, what: &str, units: u32, reasons: &mut Vec<String>) -> u32 {
    let b = fit_block(items, units);
    if b < 256 {
        reasons.push(format!(
            "G2 {kernel} {b}: {items} {what} at 256 per block would give {} blocks for {units} multiprocessors; \
             {b} gives each at least two",
            items.div_ceil(256)
        ));
    }
    b
}

/// Predicts block sizes (and Δ) for running `choice` on `device` over a graph with `stats`,
/// `launch` being how the run goes to the end. Pure and cheap: every input is in the stats.
/// The result always passes [`BlockSizes::validate`] and the device's own block checks. Only
/// the kernels the algorithm's family launches ([`Family::kernels`]) are predicted; a block
/// size no kernel reads follows the relax block ([`Family::normalize`]).
pub fn predict(stats: &GraphStats, device: &DeviceShape, choice: &AlgoChoice, launch: Launch) -> Prediction {
    let algo = choice.algorithm;
    let family = algo.spec().family;
    let mut reasons = Vec::new();
    let units = device.units();
    let gpu = device.kind != DeviceKind::Cpu;
    if gpu {
        let source = match (device.units, device.kind) {
            (None, _) => "assumed (not probed)",
            (Some(_), DeviceKind::Wgpu) => "the CPU cores of this software adapter",
            (Some(_), _) => "probed",
        };
        reasons.push(format!("{} on {}: {units} multiprocessors, {source}", algo, device.name));
    }
    let rules = Rules { stats, units, family };
    let mut block = match (device.kind, family) {
        (DeviceKind::Cpu, _) => {
            reasons.push(
                "C1 blocks 256: on the CPU block sizes only feed the modelled thread and warp figures, not the time"
                    .into(),
            );
            BlockSizes::default()
        }
        (_, Family::Sequential) => {
            reasons.push(format!("{algo} has no GPU kernels: blocks 256 (unused)"));
            BlockSizes::default()
        }
        (_, Family::Frontier { variant, .. }) => {
            let fast_cuda = device.kind == DeviceKind::Cuda && launch == Launch::Fast;
            rules.frontier(variant, fast_cuda, &mut reasons)
        }
        (_, Family::Bucketed) => rules.bucketed(lanes_balanced(choice), &mut reasons),
        (_, Family::EdgeParallel) => rules.edge_parallel(&mut reasons),
        (_, Family::Sweep) => rules.sweep(&mut reasons),
    };
    if device.kind == DeviceKind::Wgpu {
        block = cap_wgpu(block, &mut reasons);
    }
    let block = family.normalize(block);
    if gpu {
        not_modelled(choice, &mut reasons);
    }
    if gpu && near_far(choice) {
        reasons.push(
            "N2 worklist=near-far: its persistent kernel fixes its own block (1024 threads, a grid of the \
             resident blocks); the block sizes above are not read"
                .into(),
        );
    }
    let delta = (family == Family::Bucketed).then(|| predict_delta(stats, device, choice, &mut reasons));
    Prediction { algorithm: choice.clone(), device: device.id, launch, block, delta, reasons }
}

/// What the block rules of one prediction read: the graph, the multiprocessors and the family
/// (whose kernels name the blocks in the reasons).
struct Rules<'a> {
    stats: &'a GraphStats,
    units: u32,
    family: Family,
}

impl Rules<'_> {
    /// The entry points of the family's kernel that reads `field`, for the reasons.
    fn name(&self, field: BlockField) -> &'static str {
        self.family.kernels().iter().find(|k| k.block == field).map_or(field.key(), |k| k.name)
    }

    /// G2 for the kernel reading `field`, over `items` threads.
    fn fitted(&self, field: BlockField, items: usize, what: &str, reasons: &mut Vec<String>) -> u32 {
        fitted(self.name(field), items, what, self.units, reasons)
    }

    /// G1/G2 for minimum and update, F1–F3 (CUDA's persistent kernel) or G1/G2 for relax.
    fn frontier(&self, variant: RelaxVariant, fast_cuda: bool, reasons: &mut Vec<String>) -> BlockSizes {
        let n = self.stats.n;
        let minimum = self.fitted(BlockField::Minimum, n, "vertices", reasons);
        let update = self.fitted(BlockField::Update, n, "vertices", reasons);
        let (min_k, upd_k) = (self.name(BlockField::Minimum), self.name(BlockField::Update));
        let relax = if !fast_cuda {
            let b = self.fitted(BlockField::Relax, n, "vertices", reasons);
            reasons.push(format!(
                "G1 {} {b}, {min_k} {minimum}, {upd_k} {update}: one thread per vertex per kernel; the H100 sweeps \
                 are flat around 256",
                self.name(BlockField::Relax)
            ));
            b
        } else {
            reasons.push(format!(
                "F1 launch fast: only the relax block shapes the persistent kernel (grid = SMs x ceil(1024 / \
                 block), solo limit 4 x block); {min_k} {minimum} and {upd_k} {update} only matter when stepping"
            ));
            fast_relax(self.stats, variant, self.units, reasons)
        };
        BlockSizes { relax, minimum, update }
    }

    /// B1 or G1/G2 for the relax kernel, G1/G2 for the commit kernels.
    fn bucketed(&self, balanced: bool, reasons: &mut Vec<String>) -> BlockSizes {
        let update = self.fitted(BlockField::Update, self.stats.n, "vertices", reasons);
        let relax = if balanced && self.stats.max_degree >= 1024 {
            reasons.push(format!(
                "B1 relax 1024: relax=balanced and a vertex with {} arcs; a block runs ceil(arcs / block) \
                 rounds, so the biggest block spreads a hub over the most lanes",
                self.stats.max_degree
            ));
            1024
        } else {
            self.fitted(BlockField::Relax, self.stats.n, "vertices", reasons)
        };
        reasons.push(format!(
            "G1 {} {relax}, {} {update}: six vertex-parallel kernels per phase",
            self.name(BlockField::Relax),
            self.name(BlockField::Update)
        ));
        BlockSizes { relax, update, ..BlockSizes::default() }
    }

    /// E1: the relax kernel over the arcs, the commit kernel over the vertices.
    fn edge_parallel(&self, reasons: &mut Vec<String>) -> BlockSizes {
        let relax = self.fitted(BlockField::Relax, self.stats.m, "arcs", reasons);
        let update = self.fitted(BlockField::Update, self.stats.n, "vertices", reasons);
        reasons.push(format!(
            "E1 {} {relax} (one thread per arc), {} {update} (one per vertex)",
            self.name(BlockField::Relax),
            self.name(BlockField::Update)
        ));
        BlockSizes { relax, update, ..BlockSizes::default() }
    }

    /// PHAST's sweep: one thread per vertex of a level.
    fn sweep(&self, reasons: &mut Vec<String>) -> BlockSizes {
        let relax = self.fitted(BlockField::Relax, self.stats.n, "vertices", reasons);
        reasons.push(format!("P1 {} {relax} (one thread per vertex of a level)", self.name(BlockField::Relax)));
        BlockSizes { relax, ..BlockSizes::default() }
    }
}

/// W1: at most 256 per kernel on wgpu.
fn cap_wgpu(block: BlockSizes, reasons: &mut Vec<String>) -> BlockSizes {
    let capped =
        BlockSizes { relax: block.relax.min(256), minimum: block.minimum.min(256), update: block.update.min(256) };
    if capped != block {
        reasons.push(
            "W1 wgpu: at most 256 per kernel (WebGPU's guaranteed workgroup size; the adapter's limit is not \
             listed, and the H100's wgpu sweeps are flat)"
                .into(),
        );
    }
    capped
}

/// N1: parameters the rules do not read (e.g. seed 004's kernel variants) are named, not
/// modelled.
fn not_modelled(choice: &AlgoChoice, reasons: &mut Vec<String>) {
    let unread: Vec<String> = choice
        .params
        .normalized(choice.algorithm)
        .to_text()
        .split(',')
        .filter(|kv| !kv.is_empty() && !kv.starts_with("relax=") && !kv.starts_with("delta="))
        .map(str::to_string)
        .collect();
    if !unread.is_empty() {
        reasons.push(format!("N1 not modelled: {}; the rules were measured on the default kernels", unread.join(", ")));
    }
}

/// F1/F3: the relax block of CUDA's persistent frontier kernel. Revised after the first H100
/// check (`bench/results/tune-h100/`): the rules taken from the older fan-out sweeps (256
/// unless degrees are skewed) were within 5 % of the best in 12 of 35 cases; the check set's
/// sweep shows larger blocks win on the persistent kernel almost everywhere.
fn fast_relax(stats: &GraphStats, variant: RelaxVariant, _units: u32, reasons: &mut Vec<String>) -> u32 {
    match variant {
        RelaxVariant::Successors => {
            reasons.push(format!(
                "F1 relax 512: the persistent kernel runs ceil(1024 / block) blocks per SM; with 512 a block balances \
                 its frontier's arcs over more threads and the grid barrier has half the blocks of 256 (H100 check \
                 set: 512 within 5 % of the best in 13 of 18 successors cases, 256 in 7; out-degree CV here {:.2})",
                stats.degree_cv
            ));
            512
        }
        RelaxVariant::Predecessors if stats.n >= PULL_BIG_N => {
            reasons.push(format!(
                "F3 relax 1024: the pull kernel walks every unsettled vertex's in-list each iteration; on {} vertices \
                 (>= {PULL_BIG_N}) the largest blocks hide that latency best (H100 check set: 1024 the best on every \
                 such graph, 256 up to 1.2x slower)",
                stats.n
            ));
            1024
        }
        RelaxVariant::Predecessors => {
            reasons.push(format!(
                "F3 relax 256: {} vertices (< {PULL_BIG_N}) fill few blocks; the H100 sweep is flat within 1-2 % \
                 from 64 to 512 on such graphs",
                stats.n
            ));
            256
        }
    }
}

/// Vertices from which the persistent pull kernel prefers 1024-thread blocks (rule F3).
const PULL_BIG_N: usize = 65_536;

/// D0–D3: Δ-stepping's bucket width.
fn predict_delta(stats: &GraphStats, device: &DeviceShape, choice: &AlgoChoice, reasons: &mut Vec<String>) -> i64 {
    let auto = stats.auto_delta.max(1);
    let base = format!("auto delta = ceil(w_max {} x n / m) = {auto}", stats.max_weight);
    let balanced = lanes_balanced(choice);
    let long = stats.mean_degree <= 5.0 && stats.diameter_hops >= 32;
    let hops = |k: f64| (k * stats.mean_weight).ceil().max(1.0) as i64;
    if device.kind != DeviceKind::Cpu && near_far(choice) {
        return nearfar_prediction(stats, reasons);
    }
    let d = match (device.kind, long) {
        // One thread has no parallel slack to feed: half the width re-relaxes less.
        (DeviceKind::Cpu, true) => {
            let k = if device.id == DeviceId::Cpu { 2.0 } else { 4.0 };
            let d = hops(k);
            reasons.push(format!(
                "D0 delta {d} = {k} x mean weight {:.1}: sparse (mean degree {:.2}) and long (diameter >= {} hops); \
                 a bucket spanning a few average arcs pays for its scan and re-relaxes little (one thread: NY, \
                 Rome, the power grid best at 1-2 mean weights, up to 1.3x faster than auto); {base}",
                stats.mean_weight, stats.mean_degree, stats.diameter_hops
            ));
            d
        }
        (DeviceKind::Cpu, false) if device.id == DeviceId::Cpu => {
            let d = (auto + 1) / 2;
            reasons.push(format!(
                "D0 delta {d} = auto / 2: one CPU thread is work-bound; a narrower bucket re-relaxes less \
                 (R-MAT 20: 1.1x, Martin 2^20: 1.03x faster than auto); {base}"
            ));
            d
        }
        (DeviceKind::Cpu, false) => {
            reasons.push(format!("D0 delta {auto}: {base}; the cores share a bucket's work"));
            auto
        }
        (_, true) => {
            let d = hops(64.0).max(auto);
            reasons.push(format!(
                "D1 delta {d} = max(auto, 64 x mean weight {:.1}): sparse (mean degree {:.2}) and long (diameter >= \
                 {} hops): every phase costs ~4 launches over n threads whatever its work, so buckets spanning many \
                 hops win (NY on the H100: 1.5x faster at ~7.5 x auto); {base}",
                stats.mean_weight, stats.mean_degree, stats.diameter_hops
            ));
            d
        }
        (_, false) if balanced && stats.diameter_hops <= 32 => {
            let d = i64::from(stats.max_weight.max(1)).saturating_mul(i64::from(stats.diameter_hops.max(1))).max(auto);
            reasons.push(format!(
                "D2 delta {d} = w_max x diameter ({} hops): relax=balanced on a shallow graph; one bucket, phases ~ \
                 hops (Kronecker 21: 2x faster than auto); {base}",
                stats.diameter_hops
            ));
            d
        }
        (_, false) => {
            let why = if stats.degree_cv >= 1.0 {
                format!(
                    "skewed degrees (CV {:.2}) with relax=vertex: wide buckets stall warps on hubs",
                    stats.degree_cv
                )
            } else {
                "neither long and sparse nor shallow with balanced lanes".to_string()
            };
            let d = auto.saturating_mul(4);
            reasons.push(format!(
                "D3 delta {d} = 4 x auto: {why}; the GPU pays ~4 launches per phase whatever its work, so fewer, \
                 wider buckets win (H100 check set: 4 x auto the best of auto/4..4 x auto on Martin 2^20, R-MAT 20, \
                 4elt and facebook, auto 1.3-1.6x slower); {base}"
            ));
            d
        }
    };
    if device.kind != DeviceKind::Cpu && d > i64::from(u32::MAX) {
        reasons.push("delta clamped to 2^32 - 1: the GPU kernels keep it in 32 bits".into());
        return i64::from(u32::MAX);
    }
    d
}

/// D4: the near-far kernel's auto Δ ([`crate::device::gpu_delta::nearfar_delta`]) from the
/// statistics, with the reason.
fn nearfar_prediction(stats: &GraphStats, reasons: &mut Vec<String>) -> i64 {
    use crate::device::gpu_delta::{NearFarWidth, nearfar_width};
    let class = nearfar_width(stats.max_degree as u128, stats.n as u128, stats.m as u128);
    let (k, why) = match class {
        NearFarWidth::Hops => (
            16.0,
            "no vertex has more than 32 arcs (roads, grids): a phase costs a fixed few us in one block, so buckets span many hops",
        ),
        NearFarWidth::Hubs => (
            8.0,
            "hubs (maximum degree >= 64 x the mean): a few full grid phases reach most vertices (Kronecker 21: 4.66 ms at 8 w vs 6.64 ms at w / 2)",
        ),
        NearFarWidth::Narrow => (
            0.5,
            "many arcs per vertex but no hubs (uniform random): a mean weight already holds much of the graph, and more only rescans arcs (uniform 21: 2 w takes 1.8x longer than w / 2)",
        ),
    };
    let d = ((k * stats.mean_weight).ceil() as i64).clamp(1, i64::from(u32::MAX));
    reasons.push(format!(
        "D4 delta {d} = {k} x mean weight {:.1} (worklist=near-far): {why}; maximum degree {}, mean {:.2}",
        stats.mean_weight, stats.max_degree, stats.mean_degree
    ));
    d
}

#[cfg(test)]
mod tests {
    use super::fit_block;

    #[test]
    fn blocks_shrink_until_every_multiprocessor_has_two() {
        assert_eq!(fit_block(1 << 20, 132), 256);
        assert_eq!(fit_block(2 * 132 * 256, 132), 256);
        assert_eq!(fit_block(2 * 132 * 256 - 256, 132), 128);
        assert_eq!(fit_block(2 * 132 * 64, 132), 64);
        assert_eq!(fit_block(3353, 132), 32);
        assert_eq!(fit_block(0, 132), 32);
    }
}
