//! The host's account of a Bellman-Ford run, shared by the CPU stepper and the GPU steppers so
//! that every device writes the same records: δ as the current pass began, the active tails of
//! the next pass, the reached count, and the rules that end a run (nothing lowered: done; pass
//! n still lowering: a negative cycle).

use super::super::{IterationRecord, PhaseTimes, SolveError, StepDelta, ThreadCounts, Values};
use super::edges::{ArcOrder, ArcThreads};
use crate::graph::{Distance, Graph, INF, VertexId};
use std::sync::Arc;

/// What one pass looked at, before it runs: pass number, |active tails|, arcs scanned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassStart {
    pub pass: u32,
    pub frontier: u64,
    pub scanned: u64,
}

/// δ per vertex as the current pass began, the active tails and the reached count; see the
/// module docs.
#[derive(Clone, Debug)]
pub struct PassBook {
    graph: Arc<Graph>,
    source: VertexId,
    frontier_only: bool,
    /// δ when the current pass began ([`INF`] = unreached).
    pub prev: Vec<Distance>,
    /// Tails whose arcs the next pass relaxes (frontier filter), or every reached vertex.
    pub active: Vec<VertexId>,
    /// Reached vertices, the source included.
    pub reached: u64,
    /// Passes done.
    pub iteration: u32,
    pub done: bool,
    threads: ArcThreads,
}

impl PassBook {
    /// δ(s) = 0, nothing else reached; `frontier_only`: `filter=frontier`. O(n + m).
    pub fn new(graph: Arc<Graph>, source: VertexId, frontier_only: bool, order: ArcOrder) -> PassBook {
        let mut prev = vec![INF; graph.n()];
        prev[source as usize] = 0;
        PassBook {
            threads: ArcThreads::new(&graph, order),
            source,
            frontier_only,
            prev,
            active: vec![source],
            reached: 1,
            iteration: 0,
            done: false,
            graph,
        }
    }

    /// The next pass: its number, |active|, Σ out-degree of the active tails.
    pub fn start(&self) -> PassStart {
        let succ = self.graph.successors();
        PassStart {
            pass: self.iteration + 1,
            frontier: self.active.len() as u64,
            scanned: self.active.iter().map(|&u| succ.degree(u) as u64).sum(),
        }
    }

    /// Modelled threads of the next pass with block size `block` (one thread per edge-list
    /// position).
    pub fn threads(&mut self, block: u32) -> ThreadCounts {
        self.threads.count(&self.graph, &self.active, block)
    }

    /// Books a finished pass: `lowered` (sorted, distinct) went down to `new_dist(v)`. Returns
    /// the record and the delta, and sets `done` when nothing was lowered.
    ///
    /// Errors: the pass is pass n or later and lowered something: a negative cycle is reachable
    /// ([`super::super::negative_cycle_error`]). Without one a shortest path has at most n − 1
    /// arcs, and synchronous pass k finds the shortest walks of at most k arcs.
    pub fn finish(
        &mut self,
        start: PassStart,
        lowered: &[VertexId],
        new_dist: impl Fn(VertexId) -> Distance,
        threads: Option<ThreadCounts>,
        times: PhaseTimes,
    ) -> Result<(IterationRecord, StepDelta), SolveError> {
        let n = self.graph.n() as u64;
        self.iteration = start.pass;
        if !lowered.is_empty() && start.pass as u64 >= n {
            self.done = true;
            return Err(super::super::negative_cycle_error(&self.graph, self.source));
        }
        let mut delta = StepDelta::default();
        for &v in lowered {
            let d = new_dist(v);
            if self.prev[v as usize] == INF {
                self.reached += 1;
            }
            delta.lowered.push((v, self.prev[v as usize], d));
            self.prev[v as usize] = d;
        }
        self.done = lowered.is_empty();
        let settled = if self.done {
            delta.settled = (0..n as VertexId).filter(|&v| v != self.source && self.prev[v as usize] != INF).collect();
            self.reached
        } else {
            1
        };
        self.active = if self.frontier_only {
            lowered.to_vec()
        } else {
            (0..n as VertexId).filter(|&v| self.prev[v as usize] != INF).collect()
        };
        let record = IterationRecord {
            iteration: start.pass,
            frontier: start.frontier,
            unsettled: n - 1,
            reached: self.reached - 1,
            settled,
            edges_scanned: start.scanned,
            relax_attempted: start.scanned,
            relax_improved: lowered.len() as u64,
            threads,
            times,
            values: Values::from_slice(&[lowered.len() as f64]),
        };
        Ok((record, delta))
    }

    /// Books a pass from a GPU's new δ (all vertices): the lowered set is the diff against
    /// `prev`. O(n).
    pub fn finish_from(
        &mut self,
        start: PassStart,
        new: &[Distance],
        threads: Option<ThreadCounts>,
        times: PhaseTimes,
    ) -> Result<(IterationRecord, StepDelta), SolveError> {
        let lowered: Vec<VertexId> =
            (0..new.len() as VertexId).filter(|&v| new[v as usize] < self.prev[v as usize]).collect();
        self.finish(start, &lowered, |v| new[v as usize], threads, times)
    }

    /// Re-reads the state after passes that bypassed the book (a GPU's fast path): δ after
    /// pass `iteration` and the per-vertex pass of the last lowering (`mark`, the source 0).
    pub fn resync(&mut self, iteration: u32, dist: Vec<Distance>, mark: &[u32]) {
        self.iteration = iteration;
        self.reached = dist.iter().filter(|&&d| d != INF).count() as u64;
        self.active = if self.frontier_only {
            (0..dist.len() as VertexId).filter(|&v| mark[v as usize] == iteration).collect()
        } else {
            (0..dist.len() as VertexId).filter(|&v| dist[v as usize] != INF).collect()
        };
        self.prev = dist;
    }
}

/// Running sums that turn a GPU's per-pass counts (lowered vertices, newly reached vertices,
/// and the out-degrees of each) into the records a fast run keeps: the same fields as
/// [`PassBook::finish`] writes, without thread counts, times or a delta.
#[derive(Clone, Copy, Debug)]
pub struct PassTally {
    frontier_only: bool,
    n: u64,
    /// Reached vertices (the source included) and the sum of their out-degrees.
    pub reached: u64,
    reached_arcs: u64,
    /// Vertices the last pass lowered and the sum of their out-degrees.
    last_lowered: u64,
    last_lowered_arcs: u64,
}

impl PassTally {
    /// The sums at the book's current pass. O(n).
    pub fn from_book(book: &PassBook) -> PassTally {
        let succ = book.graph.successors();
        let reached_arcs = (0..book.prev.len() as VertexId)
            .filter(|&v| book.prev[v as usize] != INF)
            .map(|v| succ.degree(v) as u64)
            .sum();
        let start = book.start();
        PassTally {
            frontier_only: book.frontier_only,
            n: book.graph.n() as u64,
            reached: book.reached,
            reached_arcs,
            last_lowered: if book.frontier_only { start.frontier } else { 0 },
            last_lowered_arcs: if book.frontier_only { start.scanned } else { 0 },
        }
    }

    /// The record of pass `pass` from its counts; advances the sums.
    pub fn record(
        &mut self,
        pass: u32,
        lowered: u64,
        lowered_arcs: u64,
        fresh: u64,
        fresh_arcs: u64,
    ) -> IterationRecord {
        let (frontier, scanned) = if self.frontier_only {
            (self.last_lowered, self.last_lowered_arcs)
        } else {
            (self.reached, self.reached_arcs)
        };
        self.reached += fresh;
        self.reached_arcs += fresh_arcs;
        self.last_lowered = lowered;
        self.last_lowered_arcs = lowered_arcs;
        IterationRecord {
            iteration: pass,
            frontier,
            unsettled: self.n - 1,
            reached: self.reached - 1,
            settled: if lowered == 0 { self.reached } else { 1 },
            edges_scanned: scanned,
            relax_attempted: scanned,
            relax_improved: lowered,
            threads: None,
            times: PhaseTimes::default(),
            values: Values::from_slice(&[lowered as f64]),
        }
    }
}
