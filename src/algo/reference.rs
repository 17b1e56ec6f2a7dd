//! The project's reference distances: what every run is checked against in the app, `check`
//! and the benchmarks. Sequential Dijkstra for non-negative weights; for graphs with negative
//! weights a queue-based Bellman-Ford (each vertex re-queued when its δ drops, a negative cycle
//! once some vertex was queued n times — `[seed002]` for the algorithm, the queue as in
//! Bellman's and Moore's originals).

use super::dijkstra_distances;
use crate::graph::{Distance, Graph, INF, VertexId};
use std::collections::VecDeque;

/// Shortest distances from `source`, n entries, [`INF`] = unreachable.
///
/// Errors: a negative cycle reachable from `source` (the message names its vertices in the
/// file's ids, as [`super::negative_cycle_error`] does). O(n log n + m) without negative weights, O(n · m) worst case
/// with them.
pub fn reference_distances(graph: &Graph, source: VertexId) -> Result<Vec<Distance>, String> {
    if graph.first_negative_arc().is_none() {
        return Ok(dijkstra_distances(graph, source));
    }
    let n = graph.n();
    let succ = graph.successors();
    let mut dist = vec![INF; n];
    let mut queued = vec![false; n];
    let mut times = vec![0u32; n];
    let mut queue = VecDeque::from([source]);
    dist[source as usize] = 0;
    queued[source as usize] = true;
    while let Some(u) = queue.pop_front() {
        queued[u as usize] = false;
        let du = dist[u as usize];
        for (v, w) in succ.arcs(u) {
            let nd = du + w as Distance;
            if nd < dist[v as usize] {
                dist[v as usize] = nd;
                if !queued[v as usize] {
                    times[v as usize] += 1;
                    if times[v as usize] as usize >= n.max(2) {
                        return Err(super::negative_cycle_error(graph, source).to_string());
                    }
                    queued[v as usize] = true;
                    queue.push_back(v);
                }
            }
        }
    }
    Ok(dist)
}
