//! Experiment files (`experiments/*.json`): what a sweep runs, as serde JSON.
//!
//! ```json
//! { "name": "smoke", "description": "…", "kind": "sweep",
//!   "graphs": [ { "generate": { "family": "fanout", "n": 2000, "d": 2, "max_weight": 100, "seed": 1 },
//!                 "sizes": [2000, 4000], "degrees": [2, 20] },
//!               { "file": "tests/data/add20.graph.gz", "weights": "uniform:100:1", "group": "walshaw" } ],
//!   "algorithms": ["crauser-succ", "martin-succ"], "devices": ["cpu", "cpu-par:2", "cuda:0", "boost"],
//!   "block": { "all": [128, 256] }, "cache": ["default", "prefer-l1"],
//!   "repetitions": 1, "sources": { "random": { "count": 10, "seed": 1 } },
//!   "baseline": { "algorithm": "crauser-succ", "device": "cpu" } }
//! ```
//!
//! Algorithms, devices, cache preferences and weight rules are written as the ids the command
//! line uses (`crauser-succ`, `cpu-par:4`, `prefer-l1`, `uniform:100:1`).
//!
//! A `many-source` experiment (seed 003: many sources over heterogeneous workers) runs every
//! configuration of `many_source` on every graph with [`crate::manysource::run`] instead of the
//! cells; `devices` may then be left out (the workers name them), and the workers run
//! `algorithms[0]` (GPU workers fall back to `crauser-succ` for `dijkstra`):
//!
//! ```json
//! { "name": "manysource-smoke", "description": "…", "kind": "many-source",
//!   "graphs": [ { "generate": { "family": "fanout", "n": 3000, "d": 4, "max_weight": 100, "seed": 1 } } ],
//!   "algorithms": ["dijkstra"],
//!   "many_source": { "sources": "24:1",
//!                    "sources_by_group": { "road": "4096:1" },
//!                    "configs": [ { "workers": "cpu:1" },
//!                                 { "workers": "cuda:0,cpu:15", "policy": "equitable" } ] } }
//! ```
//!
//! `sources` is `all`, `K:SEED` (K random vertices with an out-arc) or `A..B` (file ids A to B);
//! `sources_by_group` overrides it for the graphs of a report group. `policy` is `equitable`,
//! `stealing` (the default) or `stealing:CHUNK`. `block`, `cache` and `launch` apply to the GPU
//! workers; the experiment's own `repetitions`, `sources`, `baseline`, `stepped`, `check` and
//! `cell_budget_s` do not apply (one run per configuration; the configurations' checksums are
//! compared instead of checking against Dijkstra).

use super::graphs::{self, GraphEntry};
use super::serde_str;
use crate::algo::{AlgoChoice, BlockSizes, CachePreference, Launch};
use crate::device::DeviceId;
use crate::graph::VertexId;
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// Largest experiment file read (bytes): the biggest in `experiments/` is a few KiB.
pub const MAX_EXPERIMENT_BYTES: usize = 16 << 20;

/// Most graphs an experiment may expand to (`sizes` × `degrees`, summed over entries), and most
/// block configurations: a sweep beyond this is a typo, and expanding it would take minutes
/// and gigabytes before the first cell.
pub const MAX_EXPANSION: usize = 10_000;

/// What the report summarises.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExperimentKind {
    /// Speedups of every algorithm × device over the baseline (seed 000 Tables 2–3).
    #[default]
    Sweep,
    /// Best block size per kernel and cache state per graph, and the gain over the default
    /// configuration (seed 000 Tables 1 and 4). Runs are stepped so each kernel is timed.
    KernelCharacterization,
    /// Many sources per graph over heterogeneous workers (seed 003): one makespan, timeline
    /// and checksum per configuration of [`Experiment::many_source`].
    ManySource,
}

/// A device of an experiment: a solver device, or Boost's Dijkstra as a pseudo-device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabDevice {
    /// `cpu`, `cpu-par:N`, `cuda:N`, `wgpu:N`.
    Solver(DeviceId),
    /// Boost Graph Library `dijkstra_shortest_paths` on a CSR graph (bench/boost), sequential.
    Boost,
}

impl fmt::Display for LabDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabDevice::Solver(d) => d.fmt(f),
            LabDevice::Boost => f.write_str("boost"),
        }
    }
}

impl FromStr for LabDevice {
    type Err = String;
    /// `boost` or anything [`DeviceId`] parses.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "boost" => Ok(LabDevice::Boost),
            other => other.parse().map(LabDevice::Solver).map_err(|e| format!("{e}, or boost")),
        }
    }
}

/// The id of a cache preference in experiment files: `default`, `prefer-l1`, `prefer-shared`.
pub fn cache_id(c: CachePreference) -> &'static str {
    match c {
        CachePreference::Default => "default",
        CachePreference::PreferL1 => "prefer-l1",
        CachePreference::PreferShared => "prefer-shared",
    }
}

/// Parses [`cache_id`]'s names (also `l1`, `shared`).
pub fn parse_cache(s: &str) -> Result<CachePreference, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "default" | "normal" => Ok(CachePreference::Default),
        "prefer-l1" | "l1" => Ok(CachePreference::PreferL1),
        "prefer-shared" | "shared" => Ok(CachePreference::PreferShared),
        _ => Err(format!("cache preference `{s}`: expected default, prefer-l1 or prefer-shared")),
    }
}

/// Cache preferences as `default`, `prefer-l1`, `prefer-shared` in experiment files.
mod cache_vec {
    use super::{cache_id, parse_cache};
    use crate::algo::CachePreference;
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[CachePreference], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|c| cache_id(*c)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<CachePreference>, D::Error> {
        let v = Vec::<String>::deserialize(d)?;
        v.iter().map(|s| parse_cache(s).map_err(D::Error::custom)).collect()
    }
}

/// Block sizes to try. `all` gives uniform configurations; `relax` × `minimum` × `update` gives
/// their cartesian product (a missing list means 256). Nothing at all means 256 everywhere.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlockSpec {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    /// Uniform configurations: one per size, the same for all three kernels (threads per block).
    pub all: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    /// Relax-kernel sizes of the per-kernel product.
    pub relax: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    /// Minimum-kernel (reduction) sizes of the per-kernel product.
    pub minimum: Vec<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    /// Update-kernel sizes of the per-kernel product.
    pub update: Vec<u32>,
}

impl BlockSpec {
    /// Every configuration, without duplicates, in file order.
    pub fn configs(&self) -> Vec<BlockSizes> {
        let mut out: Vec<BlockSizes> = self.all.iter().map(|&b| BlockSizes::uniform(b)).collect();
        let per_kernel = !(self.relax.is_empty() && self.minimum.is_empty() && self.update.is_empty());
        if per_kernel || out.is_empty() {
            let or_default = |v: &Vec<u32>| if v.is_empty() { vec![256] } else { v.clone() };
            for &relax in &or_default(&self.relax) {
                for &minimum in &or_default(&self.minimum) {
                    for &update in &or_default(&self.update) {
                        out.push(BlockSizes { relax, minimum, update });
                    }
                }
            }
        }
        let mut seen = Vec::new();
        out.retain(|b| {
            let new = !seen.contains(b);
            seen.push(*b);
            new
        });
        out
    }
}

/// Which sources each graph is solved from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SourceSpec {
    /// `count` distinct random vertices with at least one out-arc, seeded.
    Random { count: usize, seed: u64 },
    /// These vertex indices (0-based).
    Ids(Vec<VertexId>),
}

impl Default for SourceSpec {
    /// 10 random sources, seed 1 (the papers average over ≥ 10).
    fn default() -> Self {
        SourceSpec::Random { count: 10, seed: 1 }
    }
}

impl SourceSpec {
    /// Sources per graph (fewer when a graph has fewer vertices with out-arcs).
    pub fn count(&self) -> usize {
        match self {
            SourceSpec::Random { count, .. } => *count,
            SourceSpec::Ids(ids) => ids.len(),
        }
    }
}

/// The (algorithm, device) every speedup is measured against.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    #[serde(with = "serde_str")]
    /// Algorithm id, e.g. `crauser-succ` (ignored for Boost, which runs its Dijkstra).
    pub algorithm: AlgoChoice,
    #[serde(with = "serde_str")]
    /// Device id, e.g. `cpu` or `boost`.
    pub device: LabDevice,
}

fn is_fast(l: &Launch) -> bool {
    *l == Launch::Fast
}
fn one() -> u32 {
    1
}
fn yes() -> bool {
    true
}
fn default_caches() -> Vec<CachePreference> {
    vec![CachePreference::Default]
}

/// A whole experiment file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// Short name: report title and CSV `experiment` column.
    pub name: String,
    /// Which table or figure it reproduces and what the paper reported.
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    /// Which summary tables the report has.
    pub kind: ExperimentKind,
    /// Graphs (files, or generated families expanded by size and degree).
    pub graphs: Vec<GraphEntry>,
    #[serde(with = "serde_str::vec")]
    /// Algorithm ids (`dijkstra`, `martin-succ`, …); every device runs those it supports.
    pub algorithms: Vec<AlgoChoice>,
    /// `cpu`, `cpu-par:N`, `cuda:N`, `wgpu:N`, `boost`. Boost always runs its own Dijkstra once
    /// per graph, source and repetition (block sizes, cache and the algorithm list do not apply).
    /// Unused (and may be left out) in many-source experiments, whose workers name the devices.
    #[serde(default, with = "serde_str::vec")]
    pub devices: Vec<LabDevice>,
    /// Block sizes (GPU devices; CPU devices only model thread counts with them and run the
    /// first configuration unless the experiment characterizes kernels).
    #[serde(default)]
    pub block: BlockSpec,
    /// Cache preferences (CUDA only; other devices run the first one).
    #[serde(default = "default_caches", with = "cache_vec")]
    pub cache: Vec<CachePreference>,
    #[serde(default = "one")]
    /// Timed runs per source.
    pub repetitions: u32,
    #[serde(default)]
    /// Sources per graph.
    pub sources: SourceSpec,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// What speedups are measured against (sweeps).
    pub baseline: Option<Baseline>,
    /// (algorithm, device) cells of the cross product left out, e.g. slow CPU versions of the
    /// GPU solvers measured in another run (same shape as `baseline`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<Baseline>,
    /// Count working threads and warps in GPU kernels (for dummy-thread ratios; slower).
    #[serde(default)]
    pub instrument: bool,
    /// How GPU devices run to the end: `fast` (default: persistent kernel / lists) or
    /// `per-phase` (the papers' vertex-parallel launches, e.g. to compare relax kernels).
    #[serde(default, skip_serializing_if = "is_fast")]
    pub launch: Launch,
    /// Run iteration by iteration (per-kernel times on GPUs, one read-back per iteration)
    /// instead of `run_to_end`. Default: true for kernel characterization, else false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stepped: Option<bool>,
    /// Compare every run's distances with sequential Dijkstra.
    #[serde(default = "yes")]
    pub check: bool,
    /// Time budget of one cell (graph × algorithm × device × configuration), s: once its runs
    /// have taken this long, the remaining sources are left out (the first always runs), as
    /// seed 000 averages fewer sources on the slow CPU cells. `None`: every source runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cell_budget_s: Option<f64>,
    /// Figures quoted from the paper the experiment reproduces, each with the query that
    /// computes ours; the report puts them side by side.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paper: Vec<PaperFigure>,
    /// What a `many-source` experiment runs (present exactly for that kind).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub many_source: Option<ManySourceSpec>,
}

fn stealing() -> String {
    "stealing".into()
}

/// The configurations of a `many-source` experiment, run one after the other on every graph.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManySourceSpec {
    /// Sources of every graph, as [`crate::manysource::SourceSet`] parses them: `all`,
    /// `K:SEED` (K random vertices with an out-arc; fewer on smaller graphs) or `A..B`.
    pub sources: String,
    /// Per report group (a graph entry's `group`, else its family or `file`): sources that
    /// replace `sources` for that group's graphs, e.g. more on a road graph than on a big
    /// generated one.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub sources_by_group: std::collections::BTreeMap<String, String>,
    /// Worker sets and policies, in run order; the first one that runs on a graph is what the
    /// others' speedups and checksums are compared with.
    pub configs: Vec<ManyConfig>,
}

/// One configuration: who works, and how tasks reach them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManyConfig {
    /// Workers as [`crate::manysource::parse_workers`] reads them, e.g. `cuda:0,cuda:1,cpu:14`
    /// (`cpu:K` = K one-thread workers).
    pub workers: String,
    /// `equitable`, `stealing` (default) or `stealing:CHUNK`.
    #[serde(default = "stealing")]
    pub policy: String,
}

impl ManyConfig {
    /// The workers (running `algorithm`) and the policy.
    ///
    /// Errors: the message of [`crate::manysource::parse_workers`] or of the policy's parser.
    pub fn parse(
        &self,
        algorithm: &AlgoChoice,
    ) -> Result<(Vec<crate::manysource::WorkerSpec>, crate::manysource::Policy), String> {
        let workers = crate::manysource::parse_workers(&self.workers, algorithm)?;
        Ok((workers, self.policy.parse()?))
    }
}

impl ManySourceSpec {
    /// The source set of graphs in report group `group`.
    ///
    /// Errors: the string does not parse (see [`ManySourceSpec::sources`]).
    pub fn sources_for(&self, group: &str) -> Result<crate::manysource::SourceSet, String> {
        self.sources_by_group.get(group).unwrap_or(&self.sources).parse()
    }
}

impl Experiment {
    /// Reads and validates an experiment file.
    ///
    /// Errors: unreadable file, JSON that does not match the schema (with line and column),
    /// and everything [`Experiment::validate`] refuses.
    pub fn load(path: &Path) -> Result<Experiment> {
        use std::io::Read;
        let f = std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
        let mut bytes = Vec::new();
        f.take(MAX_EXPERIMENT_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .with_context(|| format!("reading {}", path.display()))?;
        Experiment::from_json(&bytes).with_context(|| format!("{}", path.display()))
    }

    /// Parses and validates the JSON of an experiment file ([`Experiment::load`] without the
    /// file). Errors: more than [`MAX_EXPERIMENT_BYTES`], not UTF-8, JSON that does not match
    /// the schema (with line and column, under "parsing"), and everything
    /// [`Experiment::validate`] refuses (under "checking").
    pub fn from_json(bytes: &[u8]) -> Result<Experiment> {
        if bytes.len() > MAX_EXPERIMENT_BYTES {
            bail!(
                "more than {} MiB: larger than any experiment file (an endless or a wrong file?)",
                MAX_EXPERIMENT_BYTES >> 20
            );
        }
        let text = std::str::from_utf8(bytes).context("reading: not UTF-8 text")?;
        let exp: Experiment = serde_json::from_str(text).context("parsing")?;
        exp.validate().context("checking")?;
        Ok(exp)
    }

    /// Writes the experiment as pretty JSON. Errors: I/O.
    pub fn save(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))
    }

    /// The tuner's check set of this experiment (graph paths relative to `exp_dir`): its
    /// graphs, algorithms, sources, `block.all`, `launch`, `check` and `cell_budget_s`
    /// (`sssp-lab tune --check-set`).
    pub fn check_set<'a>(&'a self, exp_dir: &'a Path) -> crate::tune::CheckSet<'a> {
        let graphs = super::plan::plan_graphs(self).map_err(|e| format!("{e:#}")).map(|plans| {
            plans
                .into_iter()
                .map(|plan| crate::tune::SetGraph {
                    label: plan.label(),
                    group: plan.group.clone(),
                    build: Box::new(move || plan.build(exp_dir).map_err(|e| format!("{e:#}"))),
                })
                .collect()
        });
        crate::tune::CheckSet {
            name: self.name.clone(),
            date: super::today_utc(),
            graphs,
            algorithms: self.algorithms.clone(),
            sources: Box::new(|g| super::plan::sources(&self.sources, g)),
            blocks: self.block.all.clone(),
            launch: self.launch,
            check: self.check,
            cell_budget_s: self.cell_budget_s,
        }
    }

    /// Whether runs are stepped (see [`Experiment::stepped`]).
    pub fn is_stepped(&self) -> bool {
        self.stepped.unwrap_or(self.kind == ExperimentKind::KernelCharacterization)
    }

    /// Checks what serde cannot: non-empty lists, block sizes in 1..=1024, a baseline that is
    /// part of the product, graph entries with exactly one of `file` / `generate`, and
    /// expansions that fit the family; for many-source experiments, that `many_source` is
    /// there with configurations whose workers, policies and sources parse (messages name the
    /// configuration, 1-based).
    pub fn validate(&self) -> Result<()> {
        let many = self.kind == ExperimentKind::ManySource;
        if self.graphs.is_empty() || self.algorithms.is_empty() || (self.devices.is_empty() && !many) {
            bail!("an experiment needs at least one graph, one algorithm and one device");
        }
        self.validate_many()?;
        if self.cache.is_empty() {
            bail!("`cache` is empty: give at least one preference (default)");
        }
        if self.repetitions == 0 || self.sources.count() == 0 {
            bail!("repetitions and the number of sources must be at least 1");
        }
        if let Some(b) = self.cell_budget_s
            && !(b > 0.0 && b.is_finite())
        {
            bail!("cell_budget_s must be a positive number of seconds, not {b}");
        }
        let lists = [&self.block.relax, &self.block.minimum, &self.block.update];
        let product = lists.iter().fold(1usize, |p, l| p.saturating_mul(l.len().max(1)));
        if product.saturating_add(self.block.all.len()) > MAX_EXPANSION {
            bail!(
                "`block` gives {} configurations (relax × minimum × update plus all): more than {MAX_EXPANSION}",
                product.saturating_add(self.block.all.len())
            );
        }
        for b in self.block.configs() {
            for (k, v) in [("relax", b.relax), ("minimum", b.minimum), ("update", b.update)] {
                if !(1..=1024).contains(&v) {
                    bail!("{k} block size {v} is outside 1..=1024");
                }
            }
        }
        if let Some(base) = &self.baseline {
            let algo_ok = base.device == LabDevice::Boost || self.algorithms.contains(&base.algorithm);
            if !algo_ok || !self.devices.contains(&base.device) {
                bail!(
                    "baseline {} on {} is not among the experiment's algorithms and devices",
                    base.algorithm,
                    base.device
                );
            }
        }
        let mut names = Vec::new();
        let mut plans = 0usize;
        for (i, g) in self.graphs.iter().enumerate() {
            plans = plans.saturating_add(g.sizes.len().max(1).saturating_mul(g.degrees.len().max(1)));
            if plans > MAX_EXPANSION {
                bail!("graph entry {}: the graphs expand to more than {MAX_EXPANSION} (sizes × degrees)", i + 1);
            }
            for p in graphs::expand(g).with_context(|| format!("graph entry {}", i + 1))? {
                let label = if p.degree_label.is_empty() { p.size_label } else { p.size_label + " " + &p.degree_label };
                names.extend([format!("{label}.gz"), label, p.group]);
            }
        }
        if let Some(spec) = &self.many_source
            && let Some(g) = spec.sources_by_group.keys().find(|g| !names.contains(g))
        {
            bail!("many_source.sources_by_group: no graph group `{g}` in this experiment");
        }
        for f in &self.paper {
            f.validate(self)?;
            if let Some(g) = f.graphs.iter().find(|g| !names.contains(g)) {
                bail!("paper figure `{}`: no graph, label or group `{g}` in this experiment", f.figure);
            }
        }
        Ok(())
    }
}

impl Experiment {
    /// The many-source part of [`Experiment::validate`]: `many_source` present exactly for the
    /// `many-source` kind, with at least one configuration, and every sources, workers and
    /// policy string parsing.
    fn validate_many(&self) -> Result<()> {
        let spec = match (self.kind, &self.many_source) {
            (ExperimentKind::ManySource, Some(spec)) => spec,
            (ExperimentKind::ManySource, None) => {
                bail!("a many-source experiment needs `many_source` (sources and configs)")
            }
            (_, Some(_)) => bail!("`many_source` is only for experiments of kind many-source"),
            (_, None) => return Ok(()),
        };
        if spec.configs.is_empty() {
            bail!("many_source.configs is empty: give at least one {{\"workers\": \"cpu:4\"}}");
        }
        for s in std::iter::once(&spec.sources).chain(spec.sources_by_group.values()) {
            s.parse::<crate::manysource::SourceSet>().map_err(|e| anyhow::anyhow!("many_source: {e}"))?;
        }
        for (i, c) in spec.configs.iter().enumerate() {
            c.parse(&self.algorithms[0]).map_err(|e| anyhow::anyhow!("many_source config {}: {e}", i + 1))?;
        }
        Ok(())
    }
}

/// What a quoted figure measures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PaperMetric {
    /// Median over sources of t(over) / t(series), each at its best configuration (×).
    #[default]
    Speedup,
    /// Time saved against `over`: (1 − t(series) / t(over)) · 100 (%), seed 000 §5.1's "gain".
    Saving,
    /// Gain of the best configuration over the default one (256 threads, default cache), % —
    /// seed 000 Table 4.
    Gain,
    /// Best block size and L1 state of one kernel (`kernel`), e.g. `256-A` — seed 000 Table 1.
    BestBlock,
    /// Median iterations.
    Iterations,
    /// Median dummy-thread ratio of the relax kernel (%).
    DummyPercent,
    /// Median GTEPS.
    Gteps,
    /// Memory of `over` / memory of `series` (device bytes where measured, else peak host).
    MemoryRatio,
    /// Median ms at the best configuration.
    Ms,
}

/// How several graphs' values become one cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Aggregate {
    /// `min–max` (a single value for one graph).
    #[default]
    Range,
    /// The largest value.
    Max,
    /// The smallest value.
    Min,
    /// The median value.
    Median,
}

/// One figure a paper reports, and how to compute ours.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaperFigure {
    /// What is compared, e.g. `GPU Crauser over CPU Crauser, 98k deg2`.
    pub figure: String,
    /// The paper's number as printed, with its board, e.g. `18.42× (Fermi)`.
    pub paper: String,
    /// What our number measures.
    #[serde(default)]
    pub metric: PaperMetric,
    /// The series (`algorithm @ device`) measured.
    pub series: String,
    /// The series compared against (speedup, saving, memory ratio); default: the baseline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over: Option<String>,
    /// Which graphs: labels (`98k deg2`), groups (`walshaw`) or graph names; empty: all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub graphs: Vec<String>,
    /// How several graphs' values are combined.
    #[serde(default)]
    pub aggregate: Aggregate,
    /// Kernel of `best-block`: `relax`, `min` or `update`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
}

impl PaperFigure {
    /// Checks that `series` and `over` name an algorithm and a device of `exp` (Boost runs
    /// `dijkstra`), and that `best-block` names a kernel. Errors: the figure and what is wrong.
    pub fn validate(&self, exp: &Experiment) -> Result<()> {
        for ser in std::iter::once(&self.series).chain(&self.over) {
            let known = ser.split_once(" @ ").is_some_and(|(a, d)| {
                exp.devices.iter().any(|x| x.to_string() == d)
                    && (exp.algorithms.iter().any(|x| x.to_string() == a) || (a == "dijkstra" && d == "boost"))
            });
            if !known {
                bail!("paper figure `{}`: series `{ser}` is not `algorithm @ device` of this experiment", self.figure);
            }
        }
        if self.metric == PaperMetric::BestBlock
            && !matches!(self.kernel.as_deref(), Some("relax" | "min" | "minimum" | "update"))
        {
            bail!("paper figure `{}`: best-block needs `kernel`: relax, min or update", self.figure);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(json: &str) -> String {
        Experiment::from_json(json.as_bytes()).err().map(|e| format!("{e:#}")).unwrap_or_default()
    }

    #[test]
    fn expansions_beyond_the_bound_are_refused_before_expanding() {
        let sizes: Vec<String> = (1..=200).map(|k| (k * 100).to_string()).collect();
        let json = format!(
            r#"{{"name": "x", "graphs": [{{"generate": {{"family": "fanout", "n": 100, "d": 2, "max_weight": 10, "seed": 1}},
               "sizes": [{s}], "degrees": [{s}]}}], "algorithms": ["dijkstra"], "devices": ["cpu"]}}"#,
            s = sizes.join(",")
        );
        let e = err(&json);
        assert!(e.contains("more than 10000"), "{e}");
        let blocks: Vec<String> = (1..=30).map(|k| (k * 32).to_string()).collect();
        let json = format!(
            r#"{{"name": "x", "graphs": [{{"file": "a.gr"}}], "algorithms": ["dijkstra"], "devices": ["cpu"],
               "block": {{"relax": [{b}], "minimum": [{b}], "update": [{b}]}}}}"#,
            b = blocks.join(",")
        );
        let e = err(&json);
        assert!(e.contains("27000 configurations"), "{e}");
        assert!(err("{").contains("parsing"), "{}", err("{"));
        assert!(Experiment::from_json(&[0xff, 0xfe]).is_err_and(|e| format!("{e:#}").contains("not UTF-8")));
    }
}
