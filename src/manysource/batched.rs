//! The batched CUDA worker (`cuda:I:batch[=K]`): takes up to K tasks at a time from the queue
//! and solves them in one launch ([`BatchSolver`]); on an error every task of the batch (and the
//! worker's unstarted ones) goes back to the queue, as for any failing worker.
//!
//! A batch's tasks share one start and end; so that busy times add up and the timeline does not
//! overlap, task i of a batch of b is given the i-th b-th of the batch's span.

use super::{Ctx, Event, TaskResult, WorkerSpec, lock, take};
use crate::algo::SolveError;
use crate::device::DeviceId;
use crate::device::cuda::batch::BatchSolver;
use crate::graph::{Distance, INF, VertexId};
use rayon::prelude::*;
use std::sync::mpsc::SyncSender;

/// The summary's algorithm name of a batched worker (frontier Bellman-Ford, one block per source).
pub(super) const ALGORITHM: &str = "batch-bf";

/// The batched worker's loop (see the module docs).
pub(super) fn work(ctx: &Ctx, wi: usize, spec: &WorkerSpec, tx: &SyncSender<Event>) {
    let mut solver: Option<BatchSolver> = None;
    let mut done = 0;
    while let Some(first) = take(ctx.queue, wi, ctx.cancel) {
        let t0 = ctx.start.elapsed().as_secs_f64() * 1e3;
        let mut batch = vec![first];
        let solved = solve_batch(ctx, wi, spec, &mut solver, &mut batch, done);
        let mut q = lock(&ctx.queue.0);
        q.running -= batch.len();
        if solved.is_err() {
            for &s in batch.iter().rev() {
                q.give_back(wi, s);
            }
        }
        drop(q);
        ctx.queue.1.notify_all();
        let (tasks, rows) = match solved {
            Ok(r) => r,
            Err(e) => {
                let _ = tx.send(Event::WorkerFailed { worker: wi, source: first, error: e.to_string() });
                return;
            }
        };
        let t1 = ctx.start.elapsed().as_secs_f64() * 1e3;
        let share = (t1 - t0) / tasks.len().max(1) as f64;
        for (dist, source) in rows.into_iter().zip(&batch) {
            if tx.send(Event::Row { source: *source, dist }).is_err() {
                return;
            }
        }
        for (i, mut t) in tasks.into_iter().enumerate() {
            t.worker = wi;
            t.start_ms = t0 + i as f64 * share;
            t.end_ms = if i + 1 == batch.len() { t1 } else { t0 + (i + 1) as f64 * share };
            done += 1;
            if tx.send(Event::Task(t)).is_err() {
                return;
            }
        }
    }
}

/// Summaries of one batch and, when the run asked for rows, the rows themselves.
type Solved = (Vec<TaskResult>, Vec<Vec<Distance>>);

/// Builds the solver on the first batch, fills `batch` (which holds the first task) up to K
/// from the queue and solves it.
fn solve_batch(
    ctx: &Ctx,
    wi: usize,
    spec: &WorkerSpec,
    solver: &mut Option<BatchSolver>,
    batch: &mut Vec<VertexId>,
    done: usize,
) -> Result<Solved, SolveError> {
    if spec.fail_after.is_some_and(|f| done >= f) {
        return Err(SolveError::Device(format!("injected fault after {done} tasks")));
    }
    let DeviceId::Cuda(index) = spec.device else {
        return Err(SolveError::Device(format!("{}: only CUDA workers solve sources in batches", spec.device)));
    };
    if solver.is_none() {
        let k = spec.batch.filter(|&k| k > 0);
        let s = BatchSolver::new(index, ctx.graph, k, spec.batch_delta)?;
        let per = crate::device::cuda::batch::bytes_per_source(ctx.graph);
        eprintln!("cuda:{index}:batch: {} ({per} B of device rows per source)", s.why());
        *solver = Some(s);
    }
    let Some(s) = solver.as_mut() else { return Err(SolveError::Device("internal: no batch solver".into())) };
    {
        let mut q = lock(&ctx.queue.0);
        while batch.len() < s.batch_size() {
            let Some(next) = q.next(wi) else { break };
            q.running += 1;
            batch.push(next);
        }
    }
    let n = ctx.graph.n();
    let delta = s.delta();
    let out = match s.solve(batch, ctx.rows) {
        Ok(out) => out,
        Err(e) => {
            *solver = None;
            return Err(e);
        }
    };
    // The evidence of what near-far saves: arcs relaxed per source against m (Dijkstra's count).
    let relaxed: u64 = out.relaxed.iter().sum();
    eprintln!(
        "cuda:{index}:batch: {} sources, Δ = {}: {:.0} arcs relaxed per source ({:.2} m)",
        batch.len(),
        delta,
        relaxed as f64 / batch.len().max(1) as f64,
        relaxed as f64 / batch.len().max(1) as f64 / ctx.graph.m().max(1) as f64
    );
    let tasks = out
        .summaries
        .iter()
        .zip(batch.iter())
        .map(|(&[reached, ecc, sum, checksum], &source)| TaskResult {
            source,
            worker: 0,
            start_ms: 0.0,
            end_ms: 0.0,
            reached,
            eccentricity: ecc as Distance,
            sum: sum as Distance,
            checksum,
        })
        .collect();
    let full = match out.rows {
        Some(rows) => rows
            .par_chunks(n)
            .map(|r| r.iter().map(|&d| if d == u32::MAX { INF } else { Distance::from(d) }).collect())
            .collect(),
        None => Vec::new(),
    };
    Ok((tasks, full))
}
