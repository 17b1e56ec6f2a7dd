//! Many-source shortest paths (seed 003: all-pairs on heterogeneous CPU + GPU systems): one task
//! per source, run by workers — any mix of CUDA GPUs, wgpu adapters and CPU threads, each with
//! its own solver — under an *equitable* (static) or *work-stealing* (dynamic) policy
//! ([`Policy`]).
//!
//! Results stream out per task as summaries ([`TaskResult`]: reached count, eccentricity, sum
//! of distances and a checksum of the distance row); n² distances are never held. A worker that
//! fails (a device error, or a fault injected by a test) gives its task and its unstarted
//! tasks back to the queue, the failure is reported and the run finishes on the other
//! workers. The run's checksum is the wrapping sum of the task checksums, so it does not depend
//! on which worker ran what, and a task lost or done twice changes it.

mod batched;
#[cfg(feature = "mpi")]
pub mod cluster;
pub mod rows;
mod spec;

pub use spec::{Policy, SourceSet, WorkerSpec, parse_workers, seed_label};

use crate::algo::{SolveError, SolveOptions, Stepper};
use crate::device::make_stepper;
use crate::graph::{Distance, Graph, INF, VertexId};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, mpsc};
use std::time::Duration;
use std::time::Instant;

/// What one task (one source) produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    /// Source vertex (index).
    pub source: VertexId,
    /// Index of the worker that ran it.
    pub worker: usize,
    /// Start and end since the run started, ms (the solver's set-up included: on GPUs, the
    /// upload and kernel build of that task).
    pub start_ms: f64,
    /// End, ms since the run started.
    pub end_ms: f64,
    /// Vertices with δ < ∞, the source included.
    pub reached: u64,
    /// Largest finite δ (0 when only the source is reached).
    pub eccentricity: Distance,
    /// Sum of the finite δ (saturating).
    pub sum: Distance,
    /// FNV-1a hash of (source, every δ in vertex order): equal rows give equal checksums.
    pub checksum: u64,
}

impl TaskResult {
    /// The summary of `dist`, the distance row from `source`.
    pub fn summarize(source: VertexId, dist: &[Distance]) -> TaskResult {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut mix = |x: u64| {
            for b in x.to_le_bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
        };
        mix(u64::from(source));
        let (mut reached, mut ecc, mut sum) = (0u64, 0, 0 as Distance);
        for &d in dist {
            mix(d as u64);
            if d != INF {
                reached += 1;
                ecc = ecc.max(d);
                sum = sum.saturating_add(d);
            }
        }
        TaskResult { source, worker: 0, start_ms: 0.0, end_ms: 0.0, reached, eccentricity: ecc, sum, checksum: h }
    }
}

/// What a run reports while it goes.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A task finished.
    Task(TaskResult),
    /// The distance row of `source`, sent before its [`Event::Task`] when the run was asked
    /// for rows ([`run_with_rows`]); n entries, [`INF`] = unreached.
    Row {
        /// Source vertex (index).
        source: VertexId,
        /// δ of every vertex.
        dist: Vec<Distance>,
    },
    /// A worker failed on `source` (given back to the queue) and stopped.
    WorkerFailed {
        /// Worker index.
        worker: usize,
        /// The task it was running.
        source: VertexId,
        /// What went wrong.
        error: String,
    },
}

/// Per-worker totals of a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WorkerSummary {
    /// `cuda:0`, `cpu#3`, …
    pub label: String,
    /// Algorithm it ran.
    pub algorithm: String,
    /// Tasks it finished.
    pub tasks: usize,
    /// Time inside tasks, ms.
    pub busy_ms: f64,
    /// Makespan minus its last task's end: how long it sat idle at the end, ms.
    pub idle_end_ms: f64,
    /// Why it stopped early, if it failed.
    pub failed: Option<String>,
}

/// A whole run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ManySourceRun {
    /// `G1`, `E4`, `W16`, … (seed 003's labels).
    pub label: String,
    /// `equitable`, `stealing[:CHUNK]`.
    pub policy: String,
    /// Every finished task, in the order they finished.
    pub tasks: Vec<TaskResult>,
    /// One per worker, in the order given.
    pub workers: Vec<WorkerSummary>,
    /// Time from start to the last task's end, ms.
    pub makespan_ms: f64,
    /// Wrapping sum of the tasks' checksums (independent of order and placement).
    pub checksum: u64,
}

/// The run's checksum from task checksums.
pub fn run_checksum(tasks: &[TaskResult]) -> u64 {
    tasks.iter().fold(0u64, |a, t| a.wrapping_add(t.checksum))
}

/// Who gets which task next.
struct Queue {
    /// Equitable: each worker's static slice, in order.
    own: Vec<VecDeque<VertexId>>,
    /// Stealing: every source; equitable: tasks given back by failed workers.
    shared: VecDeque<VertexId>,
    chunk: usize,
    /// Tasks being solved (with `left`, an idle worker knows whether a failure may still give
    /// tasks back).
    running: usize,
}

impl Queue {
    fn new(sources: &[VertexId], workers: usize, policy: Policy) -> Queue {
        let mut own = vec![VecDeque::new(); workers];
        let mut shared = VecDeque::new();
        match policy {
            Policy::Equitable => {
                for (i, slot) in own.iter_mut().enumerate() {
                    let (a, b) = (i * sources.len() / workers, (i + 1) * sources.len() / workers);
                    slot.extend(&sources[a..b]);
                }
            }
            Policy::Stealing { .. } => shared.extend(sources),
        }
        let chunk = match policy {
            Policy::Stealing { chunk } => chunk.max(1),
            Policy::Equitable => 1,
        };
        Queue { own, shared, chunk, running: 0 }
    }

    fn next(&mut self, w: usize) -> Option<VertexId> {
        if self.own[w].is_empty() {
            let take = self.chunk.min(self.shared.len());
            let chunk: Vec<VertexId> = self.shared.drain(..take).collect();
            self.own[w].extend(chunk);
        }
        self.own[w].pop_front()
    }

    /// Worker `w` failed on `source`: it and `w`'s unstarted tasks go back to the shared queue.
    fn give_back(&mut self, w: usize, source: VertexId) {
        self.shared.push_front(source);
        let rest: Vec<VertexId> = self.own[w].drain(..).collect();
        self.shared.extend(rest);
    }

    fn left(&self) -> usize {
        self.shared.len() + self.own.iter().map(VecDeque::len).sum::<usize>()
    }
}

/// Solves from every source of `sources` with `workers` under `policy`, calling `on_event` (on
/// the caller's thread) as tasks finish or workers fail. Each worker builds its solver with
/// `opts` (block sizes, launch mode) on its first task and restarts it for the next ones where
/// the solver can ([`crate::algo::Stepper::restart`]: the CUDA frontier solvers keep the
/// uploaded graph), else builds a new one per task.
///
/// Errors: [`SolveError::Cancelled`] when `cancel` is set; [`SolveError::Device`] when every
/// worker failed with tasks left (the message lists the failures).
pub fn run(
    graph: &Arc<Graph>,
    sources: &[VertexId],
    workers: &[WorkerSpec],
    policy: Policy,
    opts: &SolveOptions,
    cancel: &AtomicBool,
    on_event: &mut dyn FnMut(&Event),
) -> Result<ManySourceRun, SolveError> {
    run_with_rows(graph, sources, workers, policy, opts, false, cancel, on_event)
}

/// [`run`], and with `rows` also an [`Event::Row`] (the whole distance row, n × 8 bytes) before
/// each task's [`Event::Task`], for the caller to write out ([`rows::RowWriter`]). Workers
/// wait while the caller is more than a few rows behind, so at most about two rows per worker
/// are held in memory.
#[allow(clippy::too_many_arguments)]
pub fn run_with_rows(
    graph: &Arc<Graph>,
    sources: &[VertexId],
    workers: &[WorkerSpec],
    policy: Policy,
    opts: &SolveOptions,
    rows: bool,
    cancel: &AtomicBool,
    on_event: &mut dyn FnMut(&Event),
) -> Result<ManySourceRun, SolveError> {
    if workers.is_empty() {
        return Err(SolveError::Device("no workers".into()));
    }
    let queue = (Mutex::new(Queue::new(sources, workers.len(), policy)), Condvar::new());
    let start = Instant::now();
    let (tx, rx) = mpsc::sync_channel::<Event>(2 * workers.len() + 2);
    let mut out = ManySourceRun {
        label: seed_label(workers, policy),
        policy: policy.to_string(),
        workers: workers
            .iter()
            .enumerate()
            .map(|(i, w)| WorkerSummary { label: w.label(i), algorithm: algorithm_name(w), ..Default::default() })
            .collect(),
        ..Default::default()
    };
    std::thread::scope(|scope| {
        for (wi, spec) in workers.iter().enumerate() {
            let (tx, queue) = (tx.clone(), &queue);
            let ctx = Ctx { graph, opts, queue, cancel, start, rows };
            scope.spawn(move || work(&ctx, wi, spec, &tx));
        }
        drop(tx);
        for ev in rx {
            on_event(&ev);
            match ev {
                Event::Task(t) => {
                    let w = &mut out.workers[t.worker];
                    w.tasks += 1;
                    w.busy_ms += t.end_ms - t.start_ms;
                    out.tasks.push(t);
                }
                Event::WorkerFailed { worker, error, .. } => out.workers[worker].failed = Some(error),
                Event::Row { .. } => {}
            }
        }
    });
    if cancel.load(Ordering::Relaxed) {
        return Err(SolveError::Cancelled);
    }
    let left = lock(&queue.0).left();
    if left > 0 {
        let why: Vec<String> =
            out.workers.iter().filter_map(|w| w.failed.as_ref().map(|e| format!("{}: {e}", w.label))).collect();
        return Err(SolveError::Device(format!("every worker failed with {left} tasks left ({})", why.join("; "))));
    }
    out.makespan_ms = out.tasks.iter().map(|t| t.end_ms).fold(0.0, f64::max);
    for (i, w) in out.workers.iter_mut().enumerate() {
        let last = out.tasks.iter().filter(|t| t.worker == i).map(|t| t.end_ms).fold(0.0, f64::max);
        w.idle_end_ms = out.makespan_ms - last;
    }
    out.checksum = run_checksum(&out.tasks);
    Ok(out)
}

/// What a worker runs, as the summary names it (the batched CUDA worker has its own kernel).
fn algorithm_name(w: &WorkerSpec) -> String {
    if w.batch.is_some() { batched::ALGORITHM.into() } else { w.algorithm.to_string() }
}

fn lock(m: &Mutex<Queue>) -> MutexGuard<'_, Queue> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The next task of worker `wi`; waits while other workers still hold tasks (a failure gives
/// them back); `None` when every task is done or the run is cancelled.
fn take(queue: &(Mutex<Queue>, Condvar), wi: usize, cancel: &AtomicBool) -> Option<VertexId> {
    let mut q = lock(&queue.0);
    loop {
        if cancel.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(s) = q.next(wi) {
            q.running += 1;
            return Some(s);
        }
        // Done only when no task is left anywhere: tasks still in another worker's slice come
        // back to the shared queue if that worker fails before it gets to them.
        if q.running == 0 && q.left() == 0 {
            return None;
        }
        q = queue.1.wait_timeout(q, Duration::from_millis(50)).map_or_else(|p| p.into_inner().0, |r| r.0);
    }
}

/// What every worker of a run shares.
struct Ctx<'a> {
    graph: &'a Arc<Graph>,
    opts: &'a SolveOptions,
    queue: &'a (Mutex<Queue>, Condvar),
    cancel: &'a AtomicBool,
    start: Instant,
    rows: bool,
}

/// One worker's loop: take a task, solve, report; on an error give the task back and stop.
fn work(ctx: &Ctx, wi: usize, spec: &WorkerSpec, tx: &mpsc::SyncSender<Event>) {
    if spec.batch.is_some() {
        return batched::work(ctx, wi, spec, tx);
    }
    let mut done = 0;
    let mut solver: Option<Box<dyn Stepper>> = None;
    while let Some(source) = take(ctx.queue, wi, ctx.cancel) {
        let t0 = ctx.start.elapsed().as_secs_f64() * 1e3;
        let solved = if spec.fail_after == Some(done) {
            Err(SolveError::Device(format!("injected fault after {done} tasks")))
        } else {
            solve_one(ctx, spec, &mut solver, source)
        };
        let mut q = lock(&ctx.queue.0);
        q.running -= 1;
        let failed = match solved {
            Ok(_) | Err(SolveError::Cancelled) => None,
            Err(ref e) => {
                q.give_back(wi, source);
                Some(e.to_string())
            }
        };
        drop(q);
        ctx.queue.1.notify_all();
        match (solved, failed) {
            (Ok(dist), _) => {
                let mut t = TaskResult::summarize(source, &dist);
                t.worker = wi;
                t.start_ms = t0;
                t.end_ms = ctx.start.elapsed().as_secs_f64() * 1e3;
                done += 1;
                if ctx.rows && tx.send(Event::Row { source, dist }).is_err() {
                    return;
                }
                if tx.send(Event::Task(t)).is_err() {
                    return;
                }
            }
            (Err(_), Some(error)) => {
                let _ = tx.send(Event::WorkerFailed { worker: wi, source, error });
                return;
            }
            (Err(_), None) => return,
        }
    }
}

/// Solves from `source` with the worker's solver, restarted when it can be (else built anew
/// and kept for the next task). On an error the solver is dropped.
fn solve_one(
    ctx: &Ctx,
    spec: &WorkerSpec,
    solver: &mut Option<Box<dyn Stepper>>,
    source: VertexId,
) -> Result<Vec<Distance>, SolveError> {
    let reused = match solver.as_mut() {
        Some(st) if !spec.fresh_solvers => st.restart(source).inspect_err(|_| *solver = None)?,
        _ => false,
    };
    if !reused {
        let opts = SolveOptions { params: spec.algorithm.params.clone(), record_deltas: false, ..ctx.opts.clone() };
        *solver = Some(make_stepper(spec.device, Arc::clone(ctx.graph), spec.algorithm.algorithm, source, &opts)?);
    }
    let Some(st) = solver.as_mut() else { return Err(SolveError::Device("internal: no solver".into())) };
    let dist = st.run_to_end(ctx.cancel, &mut |_| {}).and_then(|_| st.distances());
    if dist.is_err() {
        *solver = None;
    }
    dist
}

/// `count` random sources with at least one out-arc (seeded; fewer when the graph has fewer
/// such vertices, vertex 0 when it has none). The lab's and the tuner's sources come from here.
pub fn pick_sources(g: &Graph, count: usize, seed: u64) -> Vec<VertexId> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed ^ 0x5011_4CE5);
    let succ = g.successors();
    let mut out = Vec::with_capacity(count);
    let mut tries = 0;
    while out.len() < count && tries < 1000 * count.max(1) {
        tries += 1;
        let v = rng.random_range(0..g.n()) as VertexId;
        if succ.degree(v) > 0 && !out.contains(&v) {
            out.push(v);
        }
    }
    if out.is_empty() {
        out.push(0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equitable_slices_cover_every_source_once_and_failures_go_back() {
        let sources: Vec<VertexId> = (0..10).collect();
        let mut q = Queue::new(&sources, 3, Policy::Equitable);
        assert_eq!(q.own.iter().map(VecDeque::len).collect::<Vec<_>>(), [3, 3, 4]);
        let s = q.next(0).unwrap_or(99);
        q.give_back(0, s);
        assert_eq!(q.shared.len(), 3);
        let mut seen: Vec<VertexId> = std::iter::from_fn(|| q.next(1)).collect();
        seen.extend(std::iter::from_fn(|| q.next(2)));
        seen.sort_unstable();
        assert_eq!(seen, sources);
    }

    #[test]
    fn policies_and_source_sets_parse() {
        assert_eq!("stealing:8".parse::<Policy>(), Ok(Policy::Stealing { chunk: 8 }));
        assert_eq!("E".parse::<Policy>(), Ok(Policy::Equitable));
        assert!("stealing:0".parse::<Policy>().is_err());
        assert_eq!("16:3".parse::<SourceSet>(), Ok(SourceSet::Random { count: 16, seed: 3 }));
        assert_eq!("1..4".parse::<SourceSet>(), Ok(SourceSet::Range { first: 1, last: 4 }));
        assert!("4..1".parse::<SourceSet>().is_err());
        let w = parse_workers("cpu:3,cpu-par:2", &crate::algo::DIJKSTRA.into()).unwrap_or_default();
        assert_eq!(w.len(), 4);
        assert_eq!(w[3].algorithm.algorithm, crate::algo::CRAUSER_SUCC, "cpu-par has no dijkstra");
        assert_eq!(seed_label(&w, Policy::Equitable), "E4");
        assert!(parse_workers("cpu:0", &crate::algo::DIJKSTRA.into()).is_err());
    }
}
