//! What several integration tests share: petgraph's Dijkstra as the oracle this project did not
//! write, and where the test data lives.

#![allow(dead_code)] // each test binary uses its own subset

use petgraph::graph::{DiGraph, NodeIndex};
use sssp_lab::graph::{Distance, Graph, INF, VertexId};
use std::path::{Path, PathBuf};

/// Shortest distances from `source` by petgraph's `dijkstra` ([`INF`] = unreachable).
pub fn petgraph_distances(g: &Graph, source: VertexId) -> Vec<Distance> {
    let mut pg = DiGraph::<(), u64>::with_capacity(g.n(), g.m());
    for _ in 0..g.n() {
        pg.add_node(());
    }
    for u in 0..g.n() as VertexId {
        for (v, w) in g.successors().arcs(u) {
            pg.add_edge(NodeIndex::new(u as usize), NodeIndex::new(v as usize), w as u64);
        }
    }
    let mut d = vec![INF; g.n()];
    for (k, v) in petgraph::algo::dijkstra(&pg, NodeIndex::new(source as usize), None, |e| *e.weight()) {
        d[k.index()] = v as Distance;
    }
    d
}

/// Shortest distances from `source` by petgraph's `bellman_ford` (negative weights allowed;
/// `Err` for a negative cycle reachable from the source). Weights go through `f64`, exact for
/// the integers of test graphs.
pub fn petgraph_signed_distances(g: &Graph, source: VertexId) -> Result<Vec<Distance>, String> {
    let mut pg = DiGraph::<(), f64>::with_capacity(g.n(), g.m());
    for _ in 0..g.n() {
        pg.add_node(());
    }
    for u in 0..g.n() as VertexId {
        for (v, w) in g.successors().arcs(u) {
            pg.add_edge(NodeIndex::new(u as usize), NodeIndex::new(v as usize), w as f64);
        }
    }
    let paths = petgraph::algo::bellman_ford(&pg, NodeIndex::new(source as usize)).map_err(|e| format!("{e:?}"))?;
    Ok(paths.distances.iter().map(|&d| if d.is_infinite() { INF } else { d as Distance }).collect())
}

/// The repository root: where the crate was built, or the working directory when the test
/// binary was copied elsewhere (the GPU machine runs it from a copy of the tree).
pub fn root() -> PathBuf {
    let built = Path::new(env!("CARGO_MANIFEST_DIR"));
    if built.join("tests/data").is_dir() {
        built.to_path_buf()
    } else {
        std::env::current_dir().expect("current directory")
    }
}
