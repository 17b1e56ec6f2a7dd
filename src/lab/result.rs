//! What a lab run produces: one flat [`LabResult`] row per timed run (or skipped cell),
//! [`LabResults`], the whole run as written to `results.json`, `results.csv` and `report.md`,
//! and what a run streams while it goes ([`LabEvent`]: rows, progress, log lines) and how it
//! ends ([`LabOutcome`]).

use super::experiment::Experiment;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One run (graph × algorithm × device × block sizes × cache × source × repetition), or one
/// cell that did not run (`skipped` / `error` say why; the measurements are then empty).
/// Flat so that it is also a CSV row.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LabResult {
    /// Experiment name.
    pub experiment: String,
    /// Graph name (file name or generator spec).
    pub graph: String,
    /// Report group (`fanout`, `walshaw`, …).
    pub group: String,
    /// Size row label of the tables (`24k`, or the file name).
    pub size_label: String,
    /// Degree column label (`deg2`; empty for files).
    pub degree_label: String,
    /// Vertices.
    pub n: usize,
    /// Arcs.
    pub m: usize,
    /// Algorithm id (`crauser-succ`; `dijkstra` for Boost).
    pub algorithm: String,
    /// Device id (`cpu`, `cpu-par:2`, `cuda:0`, `wgpu:0`, `boost`).
    pub device: String,
    /// Device as the solver names it (with block sizes, cache and distance width on GPUs).
    pub device_name: String,
    /// Threads per block of the relax kernel.
    pub block_relax: u32,
    /// Threads per block of the minimum kernel.
    pub block_minimum: u32,
    /// Threads per block of the update kernel.
    pub block_update: u32,
    /// `default`, `prefer-l1`, `prefer-shared`.
    pub cache: String,
    /// CPU threads (1 for `cpu` and Boost); empty on GPUs.
    pub threads: Option<u32>,
    /// Source vertex (0-based).
    pub source: Option<u32>,
    /// 0-based repetition.
    pub repetition: Option<u32>,
    /// Iterations of the solver (settled vertices for Dijkstra; empty for Boost).
    pub iterations: Option<u32>,
    /// Wall time of the solve, ms (graph upload, kernel compilation and set-up excluded).
    pub total_ms: Option<f64>,
    /// Per-phase sums over the iterations, ms (empty where the device does not time phases):
    /// relax phase.
    pub relax_ms: Option<f64>,
    /// Minimum (reduction) phase, ms.
    pub minimum_ms: Option<f64>,
    /// Update phase, ms.
    pub update_ms: Option<f64>,
    /// Per-iteration read-back, ms (stepped runs).
    pub copy_ms: Option<f64>,
    /// m / total time / 10⁹ (arcs of the input graph per second, in 10⁹).
    pub gteps: Option<f64>,
    /// Roofline: bytes the relax kernel moved (modelled from the counts,
    /// [`crate::device::roofline::kernel_bytes`]) per relax second, 10⁹ bytes/s (GPU runs with
    /// per-kernel times).
    #[serde(default)]
    pub relax_gbs: Option<f64>,
    /// The device's bandwidth limit, 10⁹ bytes/s ([`crate::device::roofline::peak`]).
    #[serde(default)]
    pub peak_gbs: Option<f64>,
    /// `relax_gbs / peak_gbs` (0..; above 1 where caches served the modelled bytes).
    #[serde(default)]
    pub relax_peak_share: Option<f64>,
    /// Mean over iterations of 1 − working/launched threads of the relax kernel (0..=1).
    pub dummy_ratio: Option<f64>,
    /// Lane use of the relax loop over the run, Σ arc iterations / Σ 32 · warp iterations, i.e.
    /// the per-iteration `lane_use` weighted by arcs scanned (0..=1; algorithms that declare
    /// the series, on runs that count or model it: stepped or instrumented).
    #[serde(default)]
    pub lane_use: Option<f64>,
    /// Share of the summed thread time spent waiting at barriers, or by helpers for the next
    /// iteration (0..=1; seed 001's schemes, from [`crate::algo::Stepper::thread_times`]).
    #[serde(default)]
    pub barrier_share: Option<f64>,
    /// Share of the summed thread time spent waiting for a lock another thread held (0..=1;
    /// seed 001's schemes).
    #[serde(default)]
    pub lock_share: Option<f64>,
    /// Lock acquisitions that found the lock held, summed over threads (seed 001's schemes).
    #[serde(default)]
    pub lock_contended: Option<u64>,
    /// `helper`: δ values the helper threads lowered (speculative relaxations that took effect).
    #[serde(default)]
    pub helper_lowered: Option<u64>,
    /// `helper`: of those, the ones lowered again later (wasted: relaxed from a δ that was not
    /// final); the rest spared thread 0 a DecreaseKey.
    #[serde(default)]
    pub helper_wasted: Option<u64>,
    /// `helper-fold`: vertices whose arcs a helper had relaxed with their final δ, so thread 0
    /// skipped them (the work the helpers spared it).
    #[serde(default)]
    pub helper_spared: Option<u64>,
    /// Peak resident set of the process running the solver during the run, bytes (this
    /// process's `VmHWM` after a reset; Boost's own process for Boost).
    pub peak_host_bytes: Option<u64>,
    /// Device memory the solver allocated, bytes (CUDA reports it; empty elsewhere).
    pub device_bytes: Option<u64>,
    /// Distances equal sequential Dijkstra's (empty when not checked).
    pub correct: Option<bool>,
    /// Vertices whose distance differs from Dijkstra's.
    pub mismatches: Option<u64>,
    /// Why the cell did not run (device unavailable, algorithm unsupported).
    pub skipped: Option<String>,
    /// Why the run failed (graph, device or solver error).
    pub error: Option<String>,
}

impl LabResult {
    /// True for a finished, timed run.
    pub fn is_measured(&self) -> bool {
        self.total_ms.is_some() && self.skipped.is_none() && self.error.is_none()
    }

    /// `algorithm @ device`, the name of a plot series and a table column.
    pub fn series(&self) -> String {
        format!("{} @ {}", self.algorithm, self.device)
    }

    /// The graph's short name in tables and plots: `98k deg2` for generated families, the graph
    /// name (file name) otherwise.
    pub fn label(&self) -> String {
        if self.degree_label.is_empty() {
            self.graph.clone()
        } else {
            format!("{} {}", self.size_label, self.degree_label)
        }
    }

    /// `relax/minimum/update cache`, e.g. `256/256/256 default`.
    pub fn config(&self) -> String {
        format!("{}/{}/{} {}", self.block_relax, self.block_minimum, self.block_update, self.cache)
    }

    /// True for seed 000's default configuration: 256 threads per block, default cache.
    pub fn is_default_config(&self) -> bool {
        (self.block_relax, self.block_minimum, self.block_update) == (256, 256, 256) && self.cache == "default"
    }
}

/// A device line of the results header.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DeviceLine {
    /// Device id as in the experiment (`cuda:0`).
    pub id: String,
    /// Device name as listed.
    pub name: String,
    /// `ok` or the reason it cannot run.
    pub status: String,
}

/// A whole lab run: the experiment, the machine's devices, the rows.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LabResults {
    /// The experiment that ran.
    pub experiment: Option<Experiment>,
    /// YYYY-MM-DD (UTC).
    pub date: String,
    /// The experiment's devices on this machine.
    pub devices: Vec<DeviceLine>,
    /// Wall time of the whole run, s.
    pub wall_s: f64,
    /// `completed`, `cancelled` or `failed: …`.
    pub outcome: String,
    /// Every row, in the order they finished.
    pub rows: Vec<LabResult>,
    /// Many-source experiments: one row per graph × configuration, in run order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub many: Vec<ManyRow>,
}

/// One configuration of a many-source experiment on one graph: its whole run (every task's
/// start and end, per-worker totals) and how it compares with the graph's first configuration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ManyRow {
    /// Graph name (file name or generator spec).
    pub graph: String,
    /// Report group of the graph (`martin`, `road`, …).
    #[serde(default)]
    pub group: String,
    /// Vertices (0 when the graph could not be built).
    pub n: usize,
    /// Arcs.
    pub m: usize,
    /// Workers as written in the experiment, e.g. `cuda:0,cpu:15`.
    pub workers: String,
    /// Policy as written in the experiment (`equitable`, `stealing`, `stealing:4`).
    pub policy: String,
    /// Seed 003's name of the configuration: `G1`, `E16`, `W2`, …
    pub label: String,
    /// Sources solved (one task each).
    pub sources: usize,
    /// From the run's start to its last task's end, ms (every worker's solver set-up included);
    /// 0 when the configuration failed (`error`).
    pub makespan_ms: f64,
    /// Makespan of the graph's first configuration that ran ÷ this one's (> 1: faster); `None`
    /// when this one failed.
    pub speedup_vs_first: Option<f64>,
    /// The run's checksum (sum of per-source distance-row hashes) equals that of the graph's
    /// first configuration that ran: both computed the same distances. False when this one
    /// failed.
    pub checksum_ok: bool,
    /// The whole run; when the configuration failed, only its label and policy.
    pub run: crate::manysource::ManySourceRun,
    /// Why the configuration did not run to the end: a device that is missing or failed on
    /// every worker, sources that are not vertices of the graph, a graph that cannot be built.
    pub error: Option<String>,
}

impl ManyRow {
    /// Tasks run by GPU workers (labels `cuda:…` / `wgpu:…`).
    pub fn gpu_tasks(&self) -> usize {
        self.run.workers.iter().filter(|w| is_gpu_label(&w.label)).map(|w| w.tasks).sum()
    }

    /// Idle time at the end summed over the workers, ms.
    pub fn idle_end_ms(&self) -> f64 {
        self.run.workers.iter().map(|w| w.idle_end_ms).sum()
    }
}

/// True for a worker label of a GPU (`cuda:0`, `wgpu:1`), false for CPU threads (`cpu#3`).
pub fn is_gpu_label(label: &str) -> bool {
    label.starts_with("cuda") || label.starts_with("wgpu")
}

/// Writes the rows as CSV with a header line (an empty file when there are no rows).
///
/// Errors: I/O.
pub fn write_csv(rows: &[LabResult], path: &Path) -> Result<()> {
    let mut w = csv::Writer::from_path(path).with_context(|| format!("creating {}", path.display()))?;
    for r in rows {
        w.serialize(r).with_context(|| format!("writing {}", path.display()))?;
    }
    w.flush().with_context(|| format!("writing {}", path.display()))
}

/// Reads rows written by [`write_csv`]. Errors: I/O, a malformed row.
pub fn read_csv(path: &Path) -> Result<Vec<LabResult>> {
    let mut r = csv::Reader::from_path(path).with_context(|| format!("opening {}", path.display()))?;
    r.deserialize().map(|row| row.with_context(|| format!("reading {}", path.display()))).collect()
}

/// Writes the whole run as pretty JSON. Errors: I/O.
pub fn write_json(results: &LabResults, path: &Path) -> Result<()> {
    let text = serde_json::to_string_pretty(results)?;
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

/// Reads [`write_json`]'s output. Errors: I/O, JSON that does not match.
pub fn read_json(path: &Path) -> Result<LabResults> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

/// (min, median, max) of `values`; `None` when empty. NaNs sort last.
pub fn min_median_max(values: &[f64]) -> Option<(f64, f64, f64)> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let k = v.len();
    let med = match k {
        0 => return None,
        _ if k % 2 == 1 => v[k / 2],
        _ => (v[k / 2 - 1] + v[k / 2]) / 2.0,
    };
    Some((v[0], med, v[k - 1]))
}

/// Median of `values`; `None` when empty.
pub fn median(values: &[f64]) -> Option<f64> {
    min_median_max(values).map(|t| t.1)
}

/// Progress of a run: runs (and skipped cells) done out of the total.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabProgress {
    /// Runs finished (a skipped cell counts as one).
    pub done: usize,
    /// Runs planned (shrinks when a graph has fewer usable sources).
    pub total: usize,
    /// Seconds since the start.
    pub elapsed_s: f64,
    /// Estimated seconds left (elapsed / done × remaining), once something is done.
    pub eta_s: Option<f64>,
    /// What runs now.
    pub current: String,
}

impl LabProgress {
    /// done / total in 0..=1.
    pub fn fraction(&self) -> f32 {
        if self.total == 0 { 0.0 } else { self.done as f32 / self.total as f32 }
    }

    /// `[12/60] 20%  ETA 1m05s  <current>`, for a progress line.
    pub fn line(&self) -> String {
        let eta = self.eta_s.map_or("ETA –".to_string(), |s| format!("ETA {}", fmt_secs(s)));
        format!("[{}/{}] {:3.0}%  {eta}  {}", self.done, self.total, self.fraction() * 100.0, self.current)
    }
}

/// `75.3` → `1m15s`.
pub fn fmt_secs(s: f64) -> String {
    let s = s.max(0.0).round() as u64;
    if s >= 3600 { format!("{}h{:02}m", s / 3600, s % 3600 / 60) } else { format!("{}m{:02}s", s / 60, s % 60) }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum LabOutcome {
    Completed,
    Cancelled,
    /// The experiment could not be planned (the reason); per-run failures are rows instead.
    Failed(String),
}

/// What the runner streams while it runs (the [`LabOutcome`] is the job's result).
#[derive(Clone, Debug)]
pub enum LabEvent {
    /// A line for the log (graph built, warm-up failed, …).
    Log(String),
    /// A finished run or a skipped cell.
    Row(Box<LabResult>),
    /// A finished (or failed) configuration of a many-source experiment.
    Many(Box<ManyRow>),
    Progress(LabProgress),
}

/// `completed`, `cancelled`, `failed: …`.
pub fn outcome_text(o: &LabOutcome) -> String {
    match o {
        LabOutcome::Completed => "completed".into(),
        LabOutcome::Cancelled => "cancelled".into(),
        LabOutcome::Failed(e) => format!("failed: {e}"),
    }
}

/// Today's date (UTC) as YYYY-MM-DD, from the system clock (the `date` of [`LabResults`]).
pub fn today_utc() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Civil-from-days (H. Hinnant).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_look_like_dates() {
        let d = super::today_utc();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
