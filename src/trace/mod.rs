//! A recorded run that can be replayed forwards and backwards: the iteration records for the
//! plots and the per-iteration [`StepDelta`]s for the vertex view.
//!
//! Position p means "after p iterations". The view state at p is δ and, per vertex, the
//! iteration in which it was settled; status follows from those (settled before p: settled;
//! settled at p: frontier). Moving one step applies or undoes one delta, O(changes), so stepping
//! back through a 227 575-iteration Martín run on NY costs no more than stepping forward.

pub mod animate;
pub mod file;

use crate::algo::{IterationRecord, Step, StepDelta, VertexStatus};
use crate::graph::{Distance, INF, VertexId};

const NOT_SETTLED: u32 = u32::MAX;

/// Identifies one trace for views that update their colours from its deltas; a clone gets a
/// new id (it may then diverge from the original).
#[derive(Debug)]
struct TraceId(u64);

impl TraceId {
    fn fresh() -> TraceId {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        TraceId(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

impl Clone for TraceId {
    fn clone(&self) -> TraceId {
        TraceId::fresh()
    }
}

/// Records and deltas of a run so far, and a cursor into them.
#[derive(Clone, Debug)]
pub struct Trace {
    id: TraceId,
    pub source: VertexId,
    records: Vec<IterationRecord>,
    deltas: Vec<StepDelta>,
    dist: Vec<Distance>,
    settled_at: Vec<u32>,
    pos: usize,
    finished: bool,
}

impl Trace {
    /// The initial state of a run from `source` on `n` vertices: δ(s) = 0, F = {s}.
    pub fn new(n: usize, source: VertexId) -> Trace {
        let mut dist = vec![INF; n];
        let mut settled_at = vec![NOT_SETTLED; n];
        if let Some(d) = dist.get_mut(source as usize) {
            *d = 0;
            settled_at[source as usize] = 0;
        }
        Trace {
            id: TraceId::fresh(),
            source,
            records: Vec::new(),
            deltas: Vec::new(),
            dist,
            settled_at,
            pos: 0,
            finished: false,
        }
    }

    /// Appends a step produced at the end of the recorded run. Must carry a delta.
    /// If the cursor is behind, it stays where it is.
    pub fn push(&mut self, step: Step) {
        let at_end = self.pos == self.deltas.len();
        self.records.push(step.record);
        self.deltas.push(step.delta.unwrap_or_default());
        if at_end {
            self.forward();
        }
    }

    /// Marks that the solver has no more iterations.
    pub fn set_finished(&mut self) {
        self.finished = true;
    }

    /// Whether the solver has finished (the last recorded iteration is the last one).
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Iterations recorded.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True before the first iteration is recorded.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// This trace's identity (unique in the process; a clone gets its own).
    pub fn id(&self) -> u64 {
        self.id.0
    }

    /// The vertices whose status or δ may differ between cursor positions `a` and `b` (the
    /// deltas between them and both frontiers), with repeats; `None` when that spans more than
    /// `max` vertices. Lets a view recolour a step in O(changes) instead of O(n).
    pub fn changed_between(&self, a: usize, b: usize, max: usize) -> Option<Vec<VertexId>> {
        let (lo, hi) = (a.min(b), a.max(b));
        if hi > self.deltas.len() {
            return None;
        }
        let mut out: Vec<VertexId> = Vec::new();
        for d in &self.deltas[lo..hi] {
            if out.len() + d.lowered.len() + d.settled.len() > max {
                return None;
            }
            out.extend(d.lowered.iter().map(|&(v, _, _)| v));
            out.extend_from_slice(&d.settled);
        }
        // The unfiltered frontiers: at a finished end their vertices turn from frontier to settled.
        out.extend_from_slice(self.stepped_frontier(a));
        out.extend_from_slice(self.stepped_frontier(b));
        (out.len() <= max).then_some(out)
    }

    /// Cursor position (iterations applied to the view state).
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Every recorded delta, one per record (empty deltas where none was kept).
    pub fn deltas(&self) -> &[StepDelta] {
        &self.deltas
    }

    /// All iteration records.
    pub fn records(&self) -> &[IterationRecord] {
        &self.records
    }

    /// The record of the iteration that led to the current position, if any.
    pub fn current_record(&self) -> Option<&IterationRecord> {
        self.pos.checked_sub(1).and_then(|i| self.records.get(i))
    }

    /// Applies the next recorded delta; false at the end of the recording.
    pub fn forward(&mut self) -> bool {
        let Some(d) = self.deltas.get(self.pos) else { return false };
        for &(v, _, new) in &d.lowered {
            self.dist[v as usize] = new;
        }
        let it = self.pos as u32 + 1;
        for &v in &d.settled {
            self.settled_at[v as usize] = it;
        }
        self.pos += 1;
        true
    }

    /// Undoes the last applied delta; false at position 0.
    pub fn back(&mut self) -> bool {
        if self.pos == 0 {
            return false;
        }
        self.pos -= 1;
        let d = &self.deltas[self.pos];
        for &v in &d.settled {
            self.settled_at[v as usize] = NOT_SETTLED;
        }
        for &(v, old, _) in d.lowered.iter().rev() {
            self.dist[v as usize] = old;
        }
        true
    }

    /// True when the solver has finished and the cursor is at its last iteration (then F = ∅).
    fn over(&self) -> bool {
        self.finished && self.pos == self.deltas.len() && self.pos > 0
    }

    /// Moves the cursor to `p` (clamped to the recording).
    pub fn seek(&mut self, p: usize) {
        let p = p.min(self.deltas.len());
        while self.pos < p && self.forward() {}
        while self.pos > p && self.back() {}
    }

    /// δ at the cursor, n entries.
    pub fn distances(&self) -> &[Distance] {
        &self.dist
    }

    /// Status of `v` at the cursor.
    #[inline]
    pub fn status(&self, v: VertexId) -> VertexStatus {
        let s = self.settled_at[v as usize];
        let p = self.pos as u32;
        // At the end of a finished run nothing is relaxed next: the last step's settled vertices
        // (Δ-stepping's last bucket) are plain settled, not frontier.
        if s < p || (s == p && self.over()) {
            VertexStatus::Settled
        } else if s == p {
            VertexStatus::Frontier
        } else if self.dist[v as usize] != INF {
            VertexStatus::Reached
        } else {
            VertexStatus::Unreached
        }
    }

    /// The frontier F at the cursor: the source at position 0, else the vertices the last
    /// applied step settled (empty where that step's delta was not kept). O(1).
    pub fn frontier(&self) -> &[VertexId] {
        self.frontier_at(self.pos)
    }

    /// The frontier at position `p`: the source at 0, else the vertices step `p` settled.
    fn frontier_at(&self, p: usize) -> &[VertexId] {
        if self.finished && p == self.deltas.len() && p > 0 {
            return &[];
        }
        self.stepped_frontier(p)
    }

    /// The vertices step `p` settled (the source at 0), whether or not the run is over.
    fn stepped_frontier(&self, p: usize) -> &[VertexId] {
        match p.checked_sub(1) {
            None if (self.source as usize) < self.dist.len() => std::slice::from_ref(&self.source),
            None => &[],
            Some(i) => self.deltas.get(i).map_or(&[], |d| d.settled.as_slice()),
        }
    }

    /// Iteration in which `v` was settled (0 = the source), if it is settled at the cursor.
    pub fn settled_at(&self, v: VertexId) -> Option<u32> {
        let s = self.settled_at[v as usize];
        (s <= self.pos as u32).then_some(s)
    }

    /// Bytes held by the deltas (shown so a user knows what a long recording costs).
    pub fn bytes(&self) -> usize {
        self.deltas.iter().map(|d| d.lowered.len() * 20 + d.settled.len() * 4).sum::<usize>()
            + self.records.len() * std::mem::size_of::<IterationRecord>()
    }
}
