//! The runner's many-source worker (seed 003; experiments of kind `many-source`): builds each
//! graph once, resolves its sources once, warms every GPU up, then runs every configuration
//! (workers × policy) with [`crate::manysource::run`] and sends one [`ManyRow`] per
//! configuration. Progress counts tasks (one per source) over all graphs and configurations.
//!
//! A configuration that cannot run (a device that is not there, sources that are not vertices
//! of the graph, a graph that cannot be built) is a row with `error`, not a failed experiment.

use super::experiment::{ManyConfig, ManySourceSpec};
use super::graphs::GraphPlan;
use super::plan::plan_graphs;
use super::result::{LabEvent, ManyRow};
use super::worker::Worker;
use crate::algo::{AlgoChoice, CachePreference, RelaxVariant, SolveError, SolveOptions};
use crate::device::DeviceId;
use crate::graph::{Graph, VertexId};
use crate::manysource::{self, Event, ManySourceRun, Policy, SourceSet, WorkerSpec, seed_label};
use anyhow::{Result, bail};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Progress lines while a configuration runs: at most this often (a run may finish thousands of
/// tasks a second, and every event repaints the app).
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Runs every configuration on every graph; false when cancelled.
///
/// Errors: the experiment has no `many_source`, or its graphs cannot be planned.
pub(super) fn run_all(w: &mut Worker) -> Result<bool> {
    let Some(spec) = w.exp.many_source.clone() else {
        bail!("a many-source experiment needs `many_source`");
    };
    let graphs = plan_graphs(w.exp)?;
    // Tasks per graph until its sources are resolved: `all` counts as one vertex until then.
    let estimates: Vec<usize> = graphs.iter().map(|p| estimate(spec.sources_for(&p.group).ok().as_ref())).collect();
    w.total = estimates.iter().sum::<usize>() * spec.configs.len();
    w.progress("starting".into());
    for (plan, est) in graphs.iter().zip(estimates) {
        if !graph(w, &spec, plan, est)? {
            return Ok(false);
        }
    }
    Ok(!w.cancelled())
}

/// Sources a set names before the graph is known.
fn estimate(set: Option<&SourceSet>) -> usize {
    match set {
        Some(SourceSet::Random { count, .. }) => *count,
        Some(SourceSet::Range { first, last }) => (last - first + 1) as usize,
        Some(SourceSet::All) | None => 1,
    }
}

fn is_gpu(d: DeviceId) -> bool {
    matches!(d, DeviceId::Cuda(_) | DeviceId::Wgpu(_))
}

/// Every configuration on one graph; false when cancelled.
fn graph(w: &mut Worker, spec: &ManySourceSpec, plan: &GraphPlan, estimate: usize) -> Result<bool> {
    let exp = w.exp;
    let algo = &exp.algorithms[0];
    let configs = &spec.configs;
    w.progress(format!("building {}", plan.label()));
    let t = Instant::now();
    let mut base = ManyRow { graph: plan.label(), group: plan.group.clone(), ..Default::default() };
    let g = match plan.build(w.exp_dir) {
        Ok(g) => Arc::new(g),
        Err(e) => return Ok(fail_all(w, &base, configs, algo, format!("{e:#}"), estimate)),
    };
    (base.graph, base.n, base.m) = (g.name.clone(), g.n(), g.m());
    let sources = match spec.sources_for(&plan.group).and_then(|s| s.resolve(&g)) {
        Ok(s) => s,
        Err(e) => return Ok(fail_all(w, &base, configs, algo, e, estimate)),
    };
    base.sources = sources.len();
    w.total = (w.total + sources.len() * configs.len()).saturating_sub(estimate * configs.len());
    if algo.algorithm.variant() == Some(RelaxVariant::Predecessors) {
        // Built once here, so that no configuration's makespan includes it.
        g.predecessors();
    }
    w.log_built(&g, t, sources.len());
    let opts = SolveOptions {
        block: exp.block.configs().first().copied().unwrap_or_default(),
        cache: exp.cache.first().copied().unwrap_or(CachePreference::Default),
        launch: exp.launch,
        ..Default::default()
    };
    if !warm_up(w, &g, configs, algo, &sources, &opts) {
        return Ok(false);
    }
    let cancel = Arc::clone(&w.cancel);
    // (makespan, checksum) of the graph's first configuration that ran.
    let mut first: Option<(f64, u64)> = None;
    for c in configs {
        if w.cancelled() {
            return Ok(false);
        }
        let mut row = ManyRow { workers: c.workers.clone(), policy: c.policy.clone(), ..base.clone() };
        let (workers, policy) = match c.parse(algo) {
            Ok(x) => x,
            // Validation refuses these; a row rather than a panic if it did not run.
            Err(e) => {
                w.done += sources.len();
                send_row(w, ManyRow { error: Some(e), ..row });
                continue;
            }
        };
        row.label = seed_label(&workers, policy);
        let done = w.done;
        let current = format!("{} · {} {} ({})", g.name, row.label, policy, c.workers);
        w.progress(current.clone());
        let mut shown = Instant::now();
        let result = manysource::run(&g, &sources, &workers, policy, &opts, &cancel, &mut |ev| {
            if let Event::Task(_) = ev {
                w.done += 1;
                if shown.elapsed() >= PROGRESS_EVERY {
                    shown = Instant::now();
                    w.progress(current.clone());
                }
            }
        });
        w.done = done + sources.len();
        match result {
            Ok(run) => {
                let (makespan, checksum) = *first.get_or_insert((run.makespan_ms, run.checksum));
                row.makespan_ms = run.makespan_ms;
                row.speedup_vs_first = (run.makespan_ms > 0.0).then(|| makespan / run.makespan_ms);
                row.checksum_ok = run.checksum == checksum;
                row.run = run;
            }
            Err(SolveError::Cancelled) => return Ok(false),
            Err(e) => {
                row.run = ManySourceRun { label: row.label.clone(), policy: policy.to_string(), ..Default::default() };
                row.error = Some(e.to_string());
            }
        }
        send_row(w, row);
    }
    Ok(true)
}

/// One solve on every GPU the configurations use, before any is timed: the first task of a
/// device otherwise pays for its context and kernel builds, and the first configuration is
/// what the others are compared with. A device that fails is logged; its configurations then
/// fail on their own. False when cancelled.
fn warm_up(
    w: &mut Worker,
    g: &Arc<Graph>,
    configs: &[ManyConfig],
    algo: &AlgoChoice,
    sources: &[VertexId],
    opts: &SolveOptions,
) -> bool {
    let mut gpus: Vec<WorkerSpec> = Vec::new();
    for (workers, _) in configs.iter().filter_map(|c| c.parse(algo).ok()) {
        for x in workers {
            if is_gpu(x.device) && !gpus.iter().any(|y| y.device == x.device) {
                gpus.push(x);
            }
        }
    }
    let cancel = Arc::clone(&w.cancel);
    for spec in &gpus {
        if w.cancelled() {
            return false;
        }
        w.progress(format!("{}: warming up {}", g.name, spec.device));
        let one = &sources[..sources.len().min(1)];
        let policy = Policy::Stealing { chunk: 1 };
        match manysource::run(g, one, std::slice::from_ref(spec), policy, opts, &cancel, &mut |_| {}) {
            Ok(_) => {}
            Err(SolveError::Cancelled) => return false,
            Err(e) => w.send(LabEvent::Log(format!("{}: warm-up on {} failed: {e}", g.name, spec.device))),
        }
    }
    true
}

/// An error row for every configuration (the graph or its sources are unusable); false when
/// cancelled.
fn fail_all(
    w: &mut Worker,
    base: &ManyRow,
    configs: &[ManyConfig],
    algo: &AlgoChoice,
    error: String,
    work: usize,
) -> bool {
    w.send(LabEvent::Log(format!("{}: {error}", base.graph)));
    for c in configs {
        let label = c.parse(algo).map(|(ws, p)| seed_label(&ws, p)).unwrap_or_default();
        let run = ManySourceRun { label: label.clone(), policy: c.policy.clone(), ..Default::default() };
        w.done += work;
        let row = ManyRow {
            workers: c.workers.clone(),
            policy: c.policy.clone(),
            label,
            run,
            error: Some(error.clone()),
            ..base.clone()
        };
        send_row(w, row);
    }
    !w.cancelled()
}

/// Streams `row` and a progress line.
fn send_row(w: &mut Worker, row: ManyRow) {
    let current = format!("{} · {} {}", row.graph, row.label, row.policy);
    w.send(LabEvent::Many(Box::new(row)));
    w.progress(current);
}
