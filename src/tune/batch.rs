//! A check set: every graph × algorithm of an experiment file (`experiments/tune-check.json`,
//! the lab's format) predicted and swept on one device, as one [`TuneReport`].
//!
//! From the experiment it takes the graphs (files or generators, built as the lab builds them),
//! the algorithms, the sources (at most [`SetOptions::max_sources`] of them), `block.all` as the
//! uniform candidates ([`super::check::BLOCKS`] when empty), `launch`, `check` (compare the
//! prediction's distances with the oracle once per graph and algorithm) and `cell_budget_s` as
//! the budget of each sweep. Its `devices` are the default device.

use super::check::{BLOCKS, SweepOptions, TuneCheck, sweep};
use super::rules::{DeviceShape, Prediction, predict};
use super::stats::{GraphStats, graph_stats};
use crate::algo::{AlgoChoice, Launch, SolveError, SolveOptions, reference_distances};
use crate::device::DeviceId;
use crate::lab::Experiment;
use crate::lab::graphs::GraphPlan;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

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

/// Runs the check set `exp` (graph paths relative to `exp_dir`) and returns the report; cases
/// stream through `on_event` as they finish.
///
/// A graph that cannot be built, an algorithm the device does not run and a sweep that fails
/// are cases with an `error`, not errors of the whole run. Cancelling ends the run early with
/// outcome `cancelled`.
pub fn run_set(
    exp: &Experiment,
    exp_dir: &Path,
    opts: &SetOptions,
    cancel: &AtomicBool,
    on_event: &mut dyn FnMut(SetEvent),
) -> TuneReport {
    let started = Instant::now();
    let shape = DeviceShape::probe(opts.device);
    let mut report = TuneReport {
        name: exp.name.clone(),
        date: crate::lab::today_utc(),
        device: opts.device.to_string(),
        device_name: shape.name.clone(),
        units: shape.units,
        command: opts.command.clone(),
        outcome: "completed".into(),
        ..Default::default()
    };
    let plans = match crate::lab::plan::plan_graphs(exp) {
        Ok(p) => p,
        Err(e) => {
            report.outcome = format!("failed: {e:#}");
            return report;
        }
    };
    let total = plans.len() * exp.algorithms.len();
    for plan in &plans {
        if cancel.load(Ordering::Relaxed) {
            report.outcome = "cancelled".into();
            break;
        }
        let done = report.cases.len();
        on_event(SetEvent::Progress { done, total, current: format!("building {}", plan.label()) });
        let ctx = SetRun { exp, exp_dir, shape: &shape, opts, cancel, total };
        let cases = ctx.graph_cases(plan, done, on_event);
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
    exp: &'a Experiment,
    exp_dir: &'a Path,
    shape: &'a DeviceShape,
    opts: &'a SetOptions,
    cancel: &'a AtomicBool,
    /// Cases of the whole run, for progress.
    total: usize,
}

impl SetRun<'_> {
    /// Every algorithm of the set on one graph; `done_before` cases came before it.
    fn graph_cases(&self, plan: &GraphPlan, done_before: usize, on_event: &mut dyn FnMut(SetEvent)) -> Vec<TuneCase> {
        let SetRun { exp, exp_dir, shape, opts, cancel, total } = *self;
        let base = |algo: &AlgoChoice| TuneCase {
            graph: plan.label(),
            group: plan.group.clone(),
            algorithm: algo.to_string(),
            ..Default::default()
        };
        let t = Instant::now();
        let g = match plan.build(exp_dir) {
            Ok(g) => Arc::new(g),
            Err(e) => {
                on_event(SetEvent::Log(format!("{e:#}")));
                return exp.algorithms.iter().map(|a| TuneCase { error: Some(format!("{e:#}")), ..base(a) }).collect();
            }
        };
        let mut sources = crate::lab::plan::sources(&exp.sources, &g);
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
        let blocks = if exp.block.all.is_empty() { BLOCKS.to_vec() } else { exp.block.all.clone() };
        let mut out = Vec::new();
        for algo in &exp.algorithms {
            if cancel.load(Ordering::Relaxed) {
                break;
            }
            let mut case = TuneCase { graph: g.name.clone(), stats: Some(stats.clone()), ..base(algo) };
            if let Err(why) = runs(opts.device, &g, algo) {
                case.error = Some(why);
                out.push(case);
                continue;
            }
            let launch: Launch = exp.launch;
            let pred = predict(&stats, shape, algo, launch);
            if opts.sweep {
                let reference = match &reference {
                    Some(r) => r.clone(),
                    None if exp.check => {
                        let r = reference_distances(&g, start).ok().map(Arc::new);
                        reference = Some(r.clone());
                        r
                    }
                    None => None,
                };
                let sw = SweepOptions {
                    sources: sources.clone(),
                    blocks: blocks.clone(),
                    budget_s: Some(exp.cell_budget_s.unwrap_or(opts.budget_s)),
                    reference,
                    auto_delta: stats.auto_delta,
                };
                let done = done_before + out.len();
                let label = format!("{} / {algo}", g.name);
                match sweep(&g, &pred, &sw, cancel, &mut |_, what| {
                    on_event(SetEvent::Progress { done, total, current: format!("{label}: {what}") })
                }) {
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
}

/// Whether `device` runs `algo` on `g` (device support, graph fit, weights); `Err` says why not.
/// The CPU devices are answered without probing the GPUs.
pub fn runs(device: DeviceId, g: &crate::graph::Graph, algo: &AlgoChoice) -> Result<(), String> {
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
