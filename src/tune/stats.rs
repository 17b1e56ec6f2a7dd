//! What the tuner knows of a graph: sizes, the shape of the degree distributions, a hop
//! diameter estimate and the weights, in O(n + m) time ([`graph_stats`]).
//!
//! The diameter estimate is a *double sweep*: a breadth-first search from the start vertex along
//! the successors finds the vertex t farthest from it (in hops), and a second search from t along
//! the predecessors finds the vertex farthest *to* t. Both eccentricities are lower bounds of the
//! (directed) hop diameter; on road networks and meshes the second is usually within a few per
//! cent of it (Magnien, Latapy, Habib, "Fast computation of empirically tight bounds for the
//! diameter of massive graphs", JEA 2009). When the start vertex reaches less than half the
//! graph, a second double sweep starts at the highest-degree vertex (likely in the largest
//! component). The first sweep's depth and width also say how wide the frontiers of a run from
//! the start vertex get.

use crate::graph::{Graph, VertexId, Weight};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};

/// Statistics of a graph that the rules of [`super::predict`] read. Every field is O(n + m) to
/// compute (see [`graph_stats`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GraphStats {
    /// Graph name (file name or generator spec).
    pub name: String,
    /// Vertices.
    pub n: usize,
    /// Arcs.
    pub m: usize,
    /// Mean out-degree m / n.
    pub mean_degree: f64,
    /// Largest out-degree.
    pub max_degree: usize,
    /// Coefficient of variation of the out-degree (standard deviation / mean): 0 for regular
    /// graphs, ≈ 0.4 for Martín's, ≫ 1 for R-MAT / Kronecker and social networks.
    pub degree_cv: f64,
    /// Out-degree percentiles: median, 90th, 99th.
    pub degree_p50: usize,
    pub degree_p90: usize,
    pub degree_p99: usize,
    /// Largest in-degree (what one thread of a predecessors relax walks).
    pub max_in_degree: usize,
    /// Coefficient of variation of the in-degree.
    pub in_degree_cv: f64,
    /// The vertex the first sweep started from (0-based).
    pub start: VertexId,
    /// Hops from `start` to the farthest vertex it reaches (the first sweep's depth).
    pub start_depth: u32,
    /// Vertices the first sweep reached (`start` included).
    pub start_reached: usize,
    /// Largest BFS level of the forward sweeps: the widest frontier a hop-by-hop expansion
    /// meets.
    pub widest_level: usize,
    /// Hop diameter estimate: the largest eccentricity the sweeps found (a lower bound).
    pub diameter_hops: u32,
    /// Lightest and heaviest arc weight; mean weight.
    pub min_weight: Weight,
    pub max_weight: Weight,
    pub mean_weight: f64,
    /// Δ-stepping's automatic bucket width for this graph ([`crate::algo::auto_delta`]).
    pub auto_delta: i64,
}

impl GraphStats {
    /// Mean BFS level width reached / (depth + 1): how many vertices a hop-by-hop expansion from
    /// `start` handles per level on average.
    pub fn mean_level(&self) -> f64 {
        self.start_reached as f64 / (f64::from(self.start_depth) + 1.0)
    }

    /// The statistics as `key value` lines for the command line and the app.
    pub fn lines(&self) -> Vec<String> {
        vec![
            format!("graph          {}", self.name),
            format!("vertices       {}", self.n),
            format!("arcs           {}", self.m),
            format!(
                "out-degree     mean {:.2}, max {}, CV {:.2}, p50 {} / p90 {} / p99 {}",
                self.mean_degree, self.max_degree, self.degree_cv, self.degree_p50, self.degree_p90, self.degree_p99
            ),
            format!("in-degree      max {}, CV {:.2}", self.max_in_degree, self.in_degree_cv),
            format!(
                "from vertex {}  depth {} hops, {} reached, widest level {}, mean level {:.0}",
                self.start,
                self.start_depth,
                self.start_reached,
                self.widest_level,
                self.mean_level()
            ),
            format!("diameter       >= {} hops (double sweep)", self.diameter_hops),
            format!(
                "weights        {}..={}, mean {:.1}; auto delta {}",
                self.min_weight, self.max_weight, self.mean_weight, self.auto_delta
            ),
        ]
    }
}

/// Breadth-first search over `csr` from `start`: (depth, reached, widest level, farthest vertex).
/// `progress` gets vertices visited so far; `None` when `cancel` was set (polled every 64 Ki
/// vertices).
fn bfs(
    csr: &crate::graph::Csr,
    start: VertexId,
    seen: &mut [u32],
    mark: u32,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(usize),
) -> Option<(u32, usize, usize, VertexId)> {
    let mut level = vec![start];
    let mut next = Vec::new();
    seen[start as usize] = mark;
    let (mut depth, mut reached, mut widest, mut far) = (0u32, 1usize, 1usize, start);
    let mut since_poll = 0usize;
    loop {
        for &u in &level {
            for &v in &csr.targets[csr.range(u)] {
                if seen[v as usize] != mark {
                    seen[v as usize] = mark;
                    next.push(v);
                }
            }
            since_poll += 1;
            if since_poll >= 1 << 16 {
                since_poll = 0;
                if cancel.load(Ordering::Relaxed) {
                    return None;
                }
                progress(reached);
            }
        }
        if next.is_empty() {
            return Some((depth, reached, widest, far));
        }
        depth += 1;
        reached += next.len();
        widest = widest.max(next.len());
        far = next[0];
        std::mem::swap(&mut level, &mut next);
        next.clear();
    }
}

/// The vertex a tuning run starts from when none is given: the first vertex with an out-arc
/// (vertex 0 when there is none).
pub fn default_start(graph: &Graph) -> VertexId {
    let succ = graph.successors();
    (0..graph.n() as VertexId).find(|&v| succ.degree(v) > 0).unwrap_or(0)
}

/// Computes [`GraphStats`] of `graph`, the double sweep starting at `start` (0-based; clamped
/// to the graph). O(n + m) time and O(n) extra memory, plus the predecessor arrays that
/// [`Graph::predecessors`] builds once (O(m), kept by the graph). `progress` gets a fraction
/// 0..=1; `cancel` is polled every 64 Ki vertices.
///
/// Returns `None` when cancelled.
pub fn graph_stats(
    graph: &Graph,
    start: VertexId,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(f32),
) -> Option<GraphStats> {
    let (n, m) = (graph.n(), graph.m());
    let mut s = GraphStats {
        name: graph.name.clone(),
        n,
        m,
        mean_degree: if n == 0 { 0.0 } else { m as f64 / n as f64 },
        auto_delta: crate::algo::auto_delta(graph),
        ..Default::default()
    };
    if n == 0 {
        return Some(s);
    }
    degrees_and_weights(graph, &mut s, cancel, progress)?;
    s.diameter_hops = double_sweep(graph, start, &mut s, cancel, progress)?;
    progress(1.0);
    Some(s)
}

/// The degree figures (mean, CV, percentiles, in-degrees) and the weights of `s`; progress
/// 0 to 0.3. `None` when cancelled.
fn degrees_and_weights(
    graph: &Graph,
    s: &mut GraphStats,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(f32),
) -> Option<()> {
    let (n, m) = (graph.n(), graph.m());
    let succ = graph.successors();
    // Degrees: a histogram gives the percentiles in O(n + max degree) ≤ O(n + m).
    let mut in_deg = vec![0u32; n];
    let (mut sum_sq, mut w_sum) = (0f64, 0f64);
    let (mut w_min, mut w_max) = (Weight::MAX, Weight::MIN);
    for v in 0..n as VertexId {
        let d = succ.degree(v);
        s.max_degree = s.max_degree.max(d);
        sum_sq += (d * d) as f64;
        for (t, w) in succ.arcs(v) {
            in_deg[t as usize] += 1;
            w_min = w_min.min(w);
            w_max = w_max.max(w);
            w_sum += f64::from(w);
        }
        if v % (1 << 16) == 0 {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            progress(0.3 * v as f32 / n as f32);
        }
    }
    let cv = |sum_sq: f64, mean: f64| {
        if mean > 0.0 { (sum_sq / n as f64 - mean * mean).max(0.0).sqrt() / mean } else { 0.0 }
    };
    s.degree_cv = cv(sum_sq, s.mean_degree);
    let mut hist = vec![0usize; s.max_degree + 1];
    (0..n as VertexId).for_each(|v| hist[succ.degree(v)] += 1);
    let pct = |q: f64| {
        let want = ((n as f64 * q).ceil() as usize).clamp(1, n);
        let mut acc = 0;
        hist.iter().position(|&c| {
            acc += c;
            acc >= want
        })
    };
    (s.degree_p50, s.degree_p90, s.degree_p99) = (pct(0.5).unwrap_or(0), pct(0.9).unwrap_or(0), pct(0.99).unwrap_or(0));
    s.max_in_degree = in_deg.iter().copied().max().unwrap_or(0) as usize;
    s.in_degree_cv = cv(in_deg.iter().map(|&d| f64::from(d) * f64::from(d)).sum(), s.mean_degree);
    drop(in_deg);
    if m > 0 {
        (s.min_weight, s.max_weight, s.mean_weight) = (w_min, w_max, w_sum / m as f64);
    }
    Some(())
}

/// The hop diameter's lower bound by a double sweep from `start` (the widest level, the
/// start's depth and reach go into `s`); progress 0.3 to 1. `None` when cancelled.
fn double_sweep(
    graph: &Graph,
    start: VertexId,
    s: &mut GraphStats,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(f32),
) -> Option<u32> {
    let n = graph.n();
    let succ = graph.successors();
    // Double sweep: forward from `start`, then backward from the farthest vertex found; again
    // from the highest-degree vertex when `start` reaches less than half the graph (a small
    // component says nothing of the diameter).
    let start = start.min(n as VertexId - 1);
    s.start = start;
    let mut seen = vec![0u32; n];
    let total = (4 * n) as f32;
    let mut done = 0usize;
    let (depth, reached, widest, far) = bfs(succ, start, &mut seen, 1, cancel, &mut |k| {
        progress(0.3 + 0.7 * k as f32 / total);
    })?;
    (s.start_depth, s.start_reached, s.widest_level) = (depth, reached, widest);
    done += reached;
    let pred = graph.predecessors();
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    let (back, back_reached, ..) = bfs(pred, far, &mut seen, 2, cancel, &mut |k| {
        progress(0.3 + 0.7 * (done + k) as f32 / total);
    })?;
    done += back_reached;
    let mut diameter = depth.max(back);
    if 2 * reached < n {
        let hub = (0..n as VertexId).max_by_key(|&v| succ.degree(v)).unwrap_or(0);
        let (d2, _, w2, far2) = bfs(succ, hub, &mut seen, 3, cancel, &mut |k| {
            progress(0.3 + 0.7 * (done + k) as f32 / total);
        })?;
        let (b2, ..) = bfs(pred, far2, &mut seen, 4, cancel, &mut |_| {})?;
        diameter = diameter.max(d2).max(b2);
        s.widest_level = s.widest_level.max(w2);
    }
    Some(diameter)
}
