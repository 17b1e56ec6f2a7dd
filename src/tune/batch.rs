//! A check set: every graph × algorithm of a [`CheckSet`] predicted and swept on one device, as
//! one [`TuneReport`].
//!
//! The set comes from an experiment file (`experiments/tune-check.json`, the lab's format):
//! `crate::lab::Experiment::check_set` fills a [`CheckSet`] with its graphs (files or
//! generators, built as the lab builds them), algorithms, sources (at most
//! [`SetOptions::max_sources`] of them), `block.all` as the uniform candidates
//! ([`super::check::BLOCKS`] when empty), `launch`, `check` (compare the prediction's distances
//! with the oracle once per graph and algorithm) and `cell_budget_s` as the budget of each sweep.
//! The tuner sits below the lab and does not read experiment files itself.

use super::check::{BLOCKS, SweepOptions, TuneCheck, sweep};
use super::rules::{DeviceShape, Prediction, predict};
use super::stats::{GraphStats, graph_stats};
use crate::algo::{AlgoChoice, Launch, SolveError, SolveOptions, reference_distances};
use crate::device::DeviceId;
use crate::graph::{Graph, VertexId};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The sources of a built graph, as a check set picks them.
pub type SourcesOf<'a> = Box<dyn Fn(&Graph) -> Vec<VertexId> + 'a>;

/// What a check set runs, as its experiment file says (see the module docs).
pub struct CheckSet<'a> {
    /// The experiment's name.
    pub name: String,
    /// The report's date (UTC, `YYYY-MM-DD`).
    pub date: String,
    /// The graphs in order; `Err` when the set cannot be planned (the report's outcome).
    pub graphs: Result<Vec<SetGraph<'a>>, String>,
    pub algorithms: Vec<AlgoChoice>,
    /// The sources of a built graph.
    pub sources: SourcesOf<'a>,
    /// Uniform block-size candidates (empty: [`BLOCKS`]).
    pub blocks: Vec<u32>,
    pub launch: Launch,
    /// Whether the prediction's distances are compared with the oracle.
    pub check: bool,
    /// Budget of each sweep, s (`None`: [`SetOptions::budget_s`]).
    pub cell_budget_s: Option<f64>,
}

/// Builds a check set's graph; `Err` is the case's error.
pub type BuildGraph<'a> = Box<dyn Fn() -> Result<Graph, String> + 'a>;

/// One graph of a check set, built when its turn comes.
pub struct SetGraph<'a> {
    /// Its name in the report (file name or generator spec) and its report group.
    pub label: String,
    pub group: String,
    /// Builds it; `Err` is the case's error.
    pub build: BuildGraph<'a>,
}

/// One graph × algorithm of a check set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TuneCase {
    /// Graph name (file name or generator spec) and its report group.
    pub graph: String,
    pub group: String,
    /// The algorithm as the set names it.
    pub algorithm: String,
    pub stats: Option<GraphStats>,
    pub prediction: Option<Prediction>,
    pub check: Option<TuneCheck>,
    /// Why nothing was predicted or swept (graph failed to build, device refuses the algorithm).
    pub error: Option<String>,
}

impl TuneCase {
    /// Whether the case counts in the summary: a sweep that found a best and timed the prediction.
    pub fn counted(&self) -> bool {
        self.check.as_ref().is_some_and(|c| c.within_5pct.is_some())
    }
}

/// A whole check set on one device.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TuneReport {
    /// The experiment's name.
    pub name: String,
    pub date: String,
    pub device: String,
    pub device_name: String,
    /// Multiprocessors the rules used (`None`: assumed).
    pub units: Option<u32>,
    /// The command line that made it.
    pub command: String,
    pub cases: Vec<TuneCase>,
    /// `completed`, `cancelled`, or what failed.
    pub outcome: String,
    pub wall_s: f64,
}

impl TuneReport {
    /// (predictions within 5 % of the best, cases counted).
    pub fn hits(&self) -> (usize, usize) {
        let counted: Vec<&TuneCheck> =
            self.cases.iter().filter(|c| c.counted()).filter_map(|c| c.check.as_ref()).collect();
        (counted.iter().filter(|c| c.within_5pct == Some(true)).count(), counted.len())
    }

    /// (defaults within 5 % of the best, cases counted with a default timed).
    pub fn default_hits(&self) -> (usize, usize) {
        let r: Vec<f64> = self.cases.iter().filter_map(|c| c.check.as_ref()?.default_ratio).collect();
        (r.iter().filter(|&&x| x <= super::check::WITHIN).count(), r.len())
    }

    /// "prediction within 5 % of the best in K of N cases".
    pub fn summary(&self) -> String {
        let (k, n) = self.hits();
        format!("prediction within 5 % of the best in {k} of {n} cases")
    }
}

/// What a check set run reports while it goes.
#[derive(Clone, Debug)]
pub enum SetEvent {
    /// A line for the log.
    Log(String),
    /// Progress: cases done of the total, and what runs now.
    Progress { done: usize, total: usize, current: String },
    /// A finished case.
    Case(Box<TuneCase>),
}

/// Limits of a check set run.
#[derive(Clone, Debug)]
pub struct SetOptions {
    /// The device to predict for and sweep on.
    pub device: DeviceId,
    /// Sources per graph at most (the experiment's count is capped to it).
    pub max_sources: usize,
    /// Budget of one sweep, s, when the experiment sets none.
    pub budget_s: f64,
    /// Whether to sweep at all (false: statistics and predictions only).
    pub sweep: bool,
    /// Recorded in the report.
    pub command: String,
}

/// Runs the check set `set` and returns the report; cases stream through `on_event` as they
/// finish.
///
/// A graph that cannot be built, an algorithm the device does not run and a sweep that fails
/// are cases with an `error`, not errors of the whole run. Cancelling ends the run early with
/// outcome `cancelled`.
pub fn run_set(
    set: &CheckSet<'_>,
    opts: &SetOptions,
    cancel: &AtomicBool,
    on_event: &mut dyn FnMut(SetEvent),
) -> TuneReport {
    let started = Instant::now();
    let shape = DeviceShape::probe(opts.device);
    let mut report = TuneReport {
        name: set.name.clone(),
        date: set.date.clone(),
        device: opts.device.to_string(),
        device_name: shape.name.clone(),
        units: shape.units,
        command: opts.command.clone(),
        outcome: "completed".into(),
        ..Default::default()
    };
    let graphs = match &set.graphs {
        Ok(g) => g,
        Err(e) => {
            report.outcome = format!("failed: {e}");
            return report;
        }
    };
    let total = graphs.len() * set.algorithms.len();
    for graph in graphs {
        if cancel.load(Ordering::Relaxed) {
            report.outcome = "cancelled".into();
            break;
        }
        let done = report.cases.len();
        on_event(SetEvent::Progress { done, total, current: format!("building {}", graph.label) });
        let ctx = SetRun { set, shape: &shape, opts, cancel, total };
        let cases = ctx.graph_cases(graph, done, on_event);
        for c in cases {
            on_event(SetEvent::Case(Box::new(c.clone())));
            report.cases.push(c);
        }
    }
    if cancel.load(Ordering::Relaxed) {
        report.outcome = "cancelled".into();
    }
    report.wall_s = started.elapsed().as_secs_f64();
    report
}

/// What every graph of a check set run shares.
struct SetRun<'a> {
    set: &'a CheckSet<'a>,
    shape: &'a DeviceShape,
    opts: &'a SetOptions,
    cancel: &'a AtomicBool,
    /// Cases of the whole run, for progress.
    total: usize,
}

impl SetRun<'_> {
    /// Every algorithm of the set on one graph; `done_before` cases came before it.
    fn graph_cases(
        &self,
        graph: &SetGraph<'_>,
        done_before: usize,
        on_event: &mut dyn FnMut(SetEvent),
    ) -> Vec<TuneCase> {
        let SetRun { set, opts, cancel, .. } = *self;
        let base = |algo: &AlgoChoice| TuneCase {
            graph: graph.label.clone(),
            group: graph.group.clone(),
            algorithm: algo.to_string(),
            ..Default::default()
        };
        let t = Instant::now();
        let g = match (graph.build)() {
            Ok(g) => Arc::new(g),
            Err(e) => {
                on_event(SetEvent::Log(e.clone()));
                return set.algorithms.iter().map(|a| TuneCase { error: Some(e.clone()), ..base(a) }).collect();
            }
        };
        let mut sources = (set.sources)(&g);
        sources.truncate(opts.max_sources.max(1));
        let start = sources.first().copied().unwrap_or(0);
        let Some(stats) = graph_stats(&g, start, cancel, &mut |_| {}) else { return Vec::new() };
        on_event(SetEvent::Log(format!(
            "{}: n = {}, m = {}, diameter >= {} hops, built in {:.2} s, {} sources",
            g.name,
            g.n(),
            g.m(),
            stats.diameter_hops,
            t.elapsed().as_secs_f64(),
            sources.len()
        )));
        let mut reference: Option<Option<Arc<Vec<crate::graph::Distance>>>> = None;
        let mut out = Vec::new();
        for algo in &set.algorithms {
            if cancel.load(Ordering::Relaxed) {
                break;
            }
            let mut case = TuneCase { graph: g.name.clone(), stats: Some(stats.clone()), ..base(algo) };
            if let Err(why) = runs(opts.device, &g, algo) {
                case.error = Some(why);
                out.push(case);
                continue;
            }
            let pred = predict(&stats, self.shape, algo, set.launch);
            if opts.sweep {
                let reference = match &reference {
                    Some(r) => r.clone(),
                    None if set.check => {
                        let r = reference_distances(&g, start).ok().map(Arc::new);
                        reference = Some(r.clone());
                        r
                    }
                    None => None,
                };
                let sw = SweepOptions {
                    sources: sources.clone(),
                    blocks: if set.blocks.is_empty() { BLOCKS.to_vec() } else { set.blocks.clone() },
                    budget_s: Some(set.cell_budget_s.unwrap_or(opts.budget_s)),
                    reference,
                    auto_delta: stats.auto_delta,
                };
                match self.sweep_case(&g, algo, &pred, &sw, done_before + out.len(), on_event) {
                    Ok(c) => case.check = Some(c),
                    Err(SolveError::Cancelled) => break,
                    Err(e) => case.error = Some(e.to_string()),
                }
            }
            case.prediction = Some(pred);
            out.push(case);
        }
        out
    }

    /// Sweeps one case, its progress as case `done` of the run.
    fn sweep_case(
        &self,
        g: &Arc<Graph>,
        algo: &AlgoChoice,
        pred: &Prediction,
        sw: &SweepOptions,
        done: usize,
        on_event: &mut dyn FnMut(SetEvent),
    ) -> Result<TuneCheck, SolveError> {
        let (total, label) = (self.total, format!("{} / {algo}", g.name));
        sweep(g, pred, sw, self.cancel, &mut |_, what| {
            on_event(SetEvent::Progress { done, total, current: format!("{label}: {what}") })
        })
    }
}

/// Whether `device` runs `algo` on `g` (device support, graph fit, weights); `Err` says why not.
/// The CPU devices are answered without probing the GPUs.
pub fn runs(device: DeviceId, g: &Graph, algo: &AlgoChoice) -> Result<(), String> {
    let opts = SolveOptions::for_choice(algo);
    algo.algorithm.validate(&opts.params)?;
    match device {
        DeviceId::Cpu => {}
        DeviceId::CpuParallel(_) if algo.algorithm.spec().cpu_parallel.is_some() => {}
        DeviceId::CpuParallel(_) => return Err(format!("{} has no multi-core version", algo.algorithm)),
        d => {
            let info = crate::device::find(d).ok_or_else(|| format!("{d} is not listed on this machine"))?;
            info.supports(algo.algorithm, &opts)?;
            info.fits(g, algo.algorithm, &opts)?;
        }
    }
    crate::algo::check_weights(g, algo.algorithm)
}
