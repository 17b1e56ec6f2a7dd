//! Naming a negative cycle. A pass-based Bellman-Ford only learns that one exists (pass n still
//! lowered a δ); to name vertices on it, [`find_negative_cycle`] runs a queue-based
//! Bellman-Ford with parent pointers and looks for a cycle in the parent graph every n
//! relaxations — the "walk to root" check of Cherkassky and Goldberg, *Negative-cycle
//! detection algorithms* (Math. Programming 85, 1999). A cycle of parent pointers is always a
//! negative cycle, and one appears after finitely many relaxations when a negative cycle is
//! reachable from the source. Amortised O(1) per relaxation on top of the queue's O(n · m).

use super::SolveError;
use crate::graph::{Distance, Graph, INF, VertexId};
use std::collections::VecDeque;

/// A negative cycle reachable from the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NegativeCycle {
    /// Its vertices (internal ids) in arc order; the arc from the last back to the first closes it.
    pub vertices: Vec<VertexId>,
    /// Sum of its arcs' weights (< 0), in the graph's weight units.
    pub weight: Distance,
}

impl NegativeCycle {
    /// "4 -> 9 -> 4" in the file's ids, at most `max` vertices shown ("..." then the first).
    /// ASCII arrows: the app's proportional font has no "→".
    pub fn path(&self, graph: &Graph, max: usize) -> String {
        let label = |v: VertexId| graph.labels().label(v).to_string();
        let mut parts: Vec<String> = self.vertices.iter().take(max).map(|&v| label(v)).collect();
        if self.vertices.len() > max {
            parts.push("...".into());
        }
        parts.push(label(self.vertices[0]));
        parts.join(" -> ")
    }
}

/// A negative cycle reachable from `source`, or `None` when there is none. `source` must be a
/// vertex of `graph`. Cost: O(n · m) in the worst case, like any Bellman-Ford.
pub fn find_negative_cycle(graph: &Graph, source: VertexId) -> Option<NegativeCycle> {
    let n = graph.n();
    let succ = graph.successors();
    let mut dist = vec![INF; n];
    let mut parent: Vec<Option<(VertexId, i32)>> = vec![None; n];
    let mut queued = vec![false; n];
    let mut queue = VecDeque::from([source]);
    dist[source as usize] = 0;
    queued[source as usize] = true;
    let mut since_check = 0usize;
    while let Some(u) = queue.pop_front() {
        queued[u as usize] = false;
        let du = dist[u as usize];
        for (v, w) in succ.arcs(u) {
            let nd = du + Distance::from(w);
            if nd < dist[v as usize] {
                dist[v as usize] = nd;
                parent[v as usize] = Some((u, w));
                if !queued[v as usize] {
                    queued[v as usize] = true;
                    queue.push_back(v);
                }
                since_check += 1;
                if since_check >= n {
                    since_check = 0;
                    if let Some(cycle) = parent_cycle(&parent) {
                        return Some(cycle);
                    }
                }
            }
        }
    }
    // The queue emptied: every δ is final, so there is no negative cycle (a cycle of parents
    // may still exist only if it formed since the last check).
    parent_cycle(&parent)
}

/// A cycle in the graph of parent pointers, walking each vertex's chain once (O(n)).
fn parent_cycle(parent: &[Option<(VertexId, i32)>]) -> Option<NegativeCycle> {
    const UNSEEN: u32 = u32::MAX;
    let mut walk = vec![UNSEEN; parent.len()];
    for start in 0..parent.len() {
        if walk[start] != UNSEEN {
            continue;
        }
        let mut v = start;
        while walk[v] == UNSEEN {
            walk[v] = start as u32;
            match parent[v] {
                Some((p, _)) => v = p as usize,
                None => break,
            }
        }
        if walk[v] == start as u32 && parent[v].is_some() {
            return Some(collect_cycle(parent, v));
        }
    }
    None
}

/// The cycle through `on` (a vertex on a parent cycle), in arc order.
fn collect_cycle(parent: &[Option<(VertexId, i32)>], on: usize) -> NegativeCycle {
    let mut vertices = vec![on as VertexId];
    let mut weight: Distance = 0;
    let mut v = on;
    while let Some((p, w)) = parent[v] {
        weight += Distance::from(w);
        if p as usize == on {
            break;
        }
        vertices.push(p);
        v = p as usize;
    }
    // [on, parent(on), parent(parent(on)), ...] walks the arcs backwards: on, then the rest
    // reversed, reads them forwards.
    vertices[1..].reverse();
    NegativeCycle { vertices: normalise(vertices), weight }
}

/// Starts the cycle at its smallest id so that every solver names the same one.
fn normalise(mut cycle: Vec<VertexId>) -> Vec<VertexId> {
    if let Some(i) = cycle.iter().enumerate().min_by_key(|&(_, &v)| v).map(|(i, _)| i) {
        cycle.rotate_left(i);
    }
    cycle
}

/// The error a solver returns once it knows a negative cycle is reachable from `source` (e.g.
/// pass n of a Bellman-Ford still lowered a δ): names the cycle [`find_negative_cycle`] finds.
pub fn negative_cycle_error(graph: &Graph, source: VertexId) -> SolveError {
    match find_negative_cycle(graph, source) {
        Some(cycle) => SolveError::NegativeCycle {
            vertex: graph.labels().label(cycle.vertices[0]),
            path: cycle.path(graph, 8),
            weight_text: graph.weight_text(cycle.weight),
            weight: cycle.weight,
        },
        None => SolveError::NegativeCycle {
            vertex: graph.labels().label(source),
            path: "(not found again by the queue-based search)".into(),
            weight: 0,
            weight_text: "unknown".into(),
        },
    }
}
