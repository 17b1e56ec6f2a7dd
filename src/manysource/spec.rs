//! What a many-source run is made of, as typed on the command line: the sources (`all`,
//! `K:SEED`, `A..B`), the workers (`cuda:0,cuda:1,cpu:14`) and the policy (`equitable`,
//! `stealing[:CHUNK]`).

use crate::algo::AlgoChoice;
use crate::device::DeviceId;
use crate::graph::{Graph, VertexId};
use std::str::FromStr;

/// How tasks (sources) reach workers (seed 003 §1.5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// The sources are split evenly and statically, in order: worker i gets the i-th slice
    /// (§1.5.2.1). Tasks of a failed worker go to a shared queue the others drain when done.
    Equitable,
    /// An idle worker takes the next `chunk` sources from one shared queue (§1.5.2.2).
    Stealing {
        /// Sources taken at a time (≥ 1).
        chunk: usize,
    },
}

impl FromStr for Policy {
    type Err = String;
    /// Parses `equitable` (or `E`), `stealing` / `work-stealing` (or `W`), `stealing:CHUNK`.
    fn from_str(s: &str) -> Result<Self, String> {
        let (name, chunk) = s.split_once(':').map_or((s, None), |(a, b)| (a, Some(b)));
        match (name, chunk) {
            ("equitable" | "E", None) => Ok(Policy::Equitable),
            ("stealing" | "work-stealing" | "W", None) => Ok(Policy::Stealing { chunk: 1 }),
            ("stealing" | "work-stealing" | "W", Some(c)) => match c.parse::<usize>() {
                Ok(c) if c >= 1 => Ok(Policy::Stealing { chunk: c }),
                _ => Err(format!("policy `{s}`: the chunk must be a whole number ≥ 1")),
            },
            _ => Err(format!("policy `{s}`: expected equitable, stealing or stealing:CHUNK")),
        }
    }
}

impl std::fmt::Display for Policy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Policy::Equitable => f.write_str("equitable"),
            Policy::Stealing { chunk: 1 } => f.write_str("stealing"),
            Policy::Stealing { chunk } => write!(f, "stealing:{chunk}"),
        }
    }
}

/// Which sources to solve from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceSet {
    /// Every vertex (all-pairs).
    All,
    /// `count` distinct random vertices with an out-arc, seeded (as the bench lab picks them).
    Random {
        /// How many.
        count: usize,
        /// RNG seed.
        seed: u64,
    },
    /// File ids `first` to `last`, both included (as numbered in the file: 1-based for DIMACS).
    Range {
        /// First id.
        first: u64,
        /// Last id.
        last: u64,
    },
}

impl FromStr for SourceSet {
    type Err = String;
    /// Parses `all`, `K:SEED` or `A..B`.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || format!("sources `{s}`: expected all, K:SEED (K random sources) or A..B (ids A to B)");
        if s == "all" {
            return Ok(SourceSet::All);
        }
        if let Some((a, b)) = s.split_once("..") {
            let (first, last) = (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
            return if first <= last { Ok(SourceSet::Range { first, last }) } else { Err(bad()) };
        }
        let (k, seed) = s.split_once(':').ok_or_else(bad)?;
        let count: usize = k.parse().map_err(|_| bad())?;
        if count == 0 {
            // `0:1` reads like the ids 0 to 1, but K:SEED is a count and a seed: say so.
            return Err(format!(
                "sources `{s}`: K:SEED is K random sources with seed SEED, and K must be ≥ 1; for the ids {k} to \
                 {seed} write {k}..{seed}"
            ));
        }
        Ok(SourceSet::Random { count, seed: seed.parse().map_err(|_| bad())? })
    }
}

impl SourceSet {
    /// The vertices (indices) of `g` this set names.
    ///
    /// Errors: a range id that is not a vertex of `g` (message names the valid ids).
    pub fn resolve(&self, g: &Graph) -> Result<Vec<VertexId>, String> {
        match *self {
            SourceSet::All => Ok((0..g.n() as VertexId).collect()),
            SourceSet::Random { count, seed } => Ok(super::pick_sources(g, count.min(g.n()), seed)),
            SourceSet::Range { first, last } => (first..=last)
                .map(|id| {
                    g.labels().index(id, g.n()).ok_or_else(|| {
                        format!("source {id} is not a vertex of {} ({})", g.name, g.labels().describe(g.n()))
                    })
                })
                .collect(),
        }
    }
}

/// One worker: a device running an algorithm, one source at a time.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerSpec {
    /// Where it runs (`cpu`: one thread; `cpu-par:T`: the parallel solver on T threads).
    pub device: DeviceId,
    /// What it runs.
    pub algorithm: AlgoChoice,
    /// Tests: fail (as a device error) instead of solving the task after this many tasks.
    pub fail_after: Option<usize>,
    /// Build a new solver for every task instead of restarting the worker's one (measures what
    /// [`crate::algo::Stepper::restart`] saves: on GPUs, the graph's upload per task).
    pub fresh_solvers: bool,
    /// CUDA only (`cuda:I:batch[=K]`): solve K sources per launch with
    /// [`crate::device::cuda::batch::BatchSolver`] instead of one at a time; `Some(0)` = K
    /// chosen from the device (`cuda:I:batch`).
    pub batch: Option<usize>,
    /// Batched workers only (`cuda:I:batch[=K]@Δ`): the near-far step Δ of every block;
    /// `Some(u32::MAX)` (`@bf`) = none (frontier Bellman-Ford), `None` = chosen
    /// ([`crate::device::cuda::batch::auto_delta`]).
    pub batch_delta: Option<u32>,
}

impl WorkerSpec {
    /// `device` as the timeline labels it, e.g. `cuda:0`, `cpu#3`.
    pub fn label(&self, index: usize) -> String {
        match self.device {
            DeviceId::Cpu => format!("cpu#{index}"),
            d if self.batch.is_some() => format!("{d}:batch"),
            d => d.to_string(),
        }
    }
}

/// Parses `cuda:0,cuda:1,cpu:14,cpu-par:4,wgpu:0`: each item one worker, except `cpu:K`, which
/// is K one-thread CPU workers (`cpu` alone is one). Every worker runs `algorithm` (GPU workers
/// and `cpu-par` fall back to `crauser-succ` when it is `dijkstra`, which has no such solver).
/// `cuda:I:batch=K` is a batched CUDA worker (K sources per launch, [`WorkerSpec::batch`]);
/// `cuda:I:batch` chooses K itself; a suffix `@Δ` sets the blocks' near-far step (`@bf`: none).
///
/// Errors: an unknown device, `cpu:0`, `cpu-par:0` (as `solve --threads 0`: `cpu-par` alone is
/// every core), `batch` on a device other than CUDA, `batch=0` or a K that is not a number, or
/// no worker at all.
pub fn parse_workers(s: &str, algorithm: &AlgoChoice) -> Result<Vec<WorkerSpec>, String> {
    let mut out = Vec::new();
    for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let whole = item;
        let (item, batch, batch_delta) = split_batch(item)?;
        let (device, copies) = match item.strip_prefix("cpu:") {
            Some(k) => {
                let k: usize = k.parse().map_err(|_| format!("worker `{item}`: cpu:K needs a count K ≥ 1"))?;
                if k == 0 {
                    return Err(format!("worker `{item}`: cpu:K needs a count K ≥ 1"));
                }
                (DeviceId::Cpu, k)
            }
            None if item.strip_prefix("cpu-par:").is_some_and(|t| t.trim().parse::<u64>() == Ok(0)) => {
                return Err(format!(
                    "worker `{item}`: cpu-par:T needs T ≥ 1 threads (`cpu-par` alone uses every core)"
                ));
            }
            None => (item.parse::<DeviceId>().map_err(|e| format!("worker `{item}`: {e}"))?, 1),
        };
        if batch.is_some() && !matches!(device, DeviceId::Cuda(_)) {
            return Err(format!("worker `{whole}`: only CUDA workers solve sources in batches"));
        }
        let algo = if device != DeviceId::Cpu && algorithm.algorithm == crate::algo::DIJKSTRA {
            AlgoChoice::from(crate::algo::CRAUSER_SUCC)
        } else {
            algorithm.clone()
        };
        out.extend((0..copies).map(|_| WorkerSpec {
            device,
            algorithm: algo.clone(),
            fail_after: None,
            fresh_solvers: false,
            batch,
            batch_delta,
        }));
    }
    if out.is_empty() {
        return Err("no workers: give e.g. --workers cpu:4 or --workers cuda:0,cpu:14".into());
    }
    Ok(out)
}

/// A batch spec's parts: the device, K (`Some(0)` = chosen) and Δ (`Some(u32::MAX)` = none).
type BatchParts<'a> = (&'a str, Option<usize>, Option<u32>);

/// Splits `cuda:0:batch=K@Δ` into `cuda:0`, `Some(K)` (`Some(0)` for `:batch` alone) and
/// `Some(Δ)` (`@bf`: `Some(u32::MAX)`; no `@`: `None`).
fn split_batch(item: &str) -> Result<BatchParts<'_>, String> {
    let Some((device, tail)) = item.rsplit_once(":batch") else { return Ok((item, None, None)) };
    let (tail, delta) = match tail.split_once('@') {
        None => (tail, None),
        Some((t, "bf")) => (t, Some(u32::MAX)),
        Some((t, d)) => match d.trim().parse::<u32>() {
            Ok(d) if (1..u32::MAX).contains(&d) => (t, Some(d)),
            _ => return Err(format!("worker `{item}`: @Δ needs a whole number 1 ≤ Δ < 2³² − 1 (or `@bf`)")),
        },
    };
    match tail.strip_prefix('=') {
        None if tail.is_empty() => Ok((device, Some(0), delta)),
        Some(k) => match k.trim().parse::<usize>() {
            Ok(k) if k >= 1 => Ok((device, Some(k), delta)),
            _ => Err(format!("worker `{item}`: batch=K needs a whole number K ≥ 1 (or `:batch` to choose K)")),
        },
        None => Err(format!("worker `{item}`: expected `:batch`, `:batch=K` or either with `@Δ`")),
    }
}

/// Seed 003's name of a configuration: `G1` for one GPU alone, `E<n>` / `W<n>` for n workers
/// under the equitable / work-stealing policy.
pub fn seed_label(workers: &[WorkerSpec], policy: Policy) -> String {
    let gpu = |w: &WorkerSpec| matches!(w.device, DeviceId::Cuda(_) | DeviceId::Wgpu(_));
    if workers.len() == 1 && gpu(&workers[0]) {
        return "G1".into();
    }
    let p = if policy == Policy::Equitable { 'E' } else { 'W' };
    format!("{p}{}", workers.len())
}
