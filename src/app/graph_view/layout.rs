//! Force-directed layout (Fruchterman–Reingold) for small graphs without coordinates.
//!
//! Repulsion between all pairs through a Barnes–Hut quadtree (θ = 0.7), so an iteration costs
//! O(n log n + m); arcs attract their ends (as undirected); a weak pull to the centre keeps
//! components together. A bounded number of iterations with a
//! linearly cooling temperature. Runs as a background job and streams snapshots so the view
//! shows the layout progressively; never blocks the UI.

use crate::graph::Graph;
use crate::jobs::{Job, Repaint};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Positions of every vertex, world units.
pub type Positions = Arc<Vec<[f32; 2]>>;

/// A background layout: a [`Job`] that streams snapshots of the positions (so the view shows
/// the layout as it converges) and ends with the final ones. Cancelled when dropped.
pub struct LayoutJob {
    job: Job<Positions, Positions>,
    /// Iterations the layout runs.
    pub iterations: u32,
    done: bool,
}

/// Iterations for a graph of n vertices and m arcs: up to 400, fewer when an iteration is
/// expensive (about 2·10⁸ elementary steps in all).
pub fn iteration_budget(n: usize, m: usize) -> u32 {
    let per = (n * 12 + m).max(1) as u64;
    (200_000_000 / per).clamp(40, 400) as u32
}

impl LayoutJob {
    /// Starts laying out `graph` from [`initial_positions`]; `repaint` is called after every
    /// snapshot.
    pub fn start(graph: Arc<Graph>, repaint: Repaint) -> LayoutJob {
        let iterations = iteration_budget(graph.n(), graph.m());
        let job = Job::streaming("graph layout", repaint, move |jc| {
            let mut pos = initial_positions(graph.n());
            let mut last = Instant::now();
            let cancel = jc.cancel_token();
            let mut progress = |it: u32, pos: &[[f32; 2]]| {
                jc.set_progress(it as f32 / iterations.max(1) as f32);
                if last.elapsed() >= Duration::from_millis(40) {
                    last = Instant::now();
                    jc.send(Arc::new(pos.to_vec()));
                }
            };
            run_layout(&graph, &mut pos, iterations, &cancel, &mut progress);
            Arc::new(pos)
        });
        LayoutJob { job, iterations, done: false }
    }

    /// The newest positions that arrived since the last call (the final ones included).
    pub fn newest(&mut self) -> Option<Positions> {
        let mut newest = self.job.events().pop();
        if let Some(end) = self.job.poll() {
            self.done = true;
            newest = end.ok().or(newest);
        }
        newest
    }

    /// True once the final positions were taken by [`newest`](Self::newest).
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Iterations done so far.
    pub fn iteration(&self) -> u32 {
        (self.job.progress() * self.iterations as f32).round() as u32
    }
}

/// Deterministic starting positions: a sunflower (Vogel) spiral of radius √n.
pub fn initial_positions(n: usize) -> Vec<[f32; 2]> {
    let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    (0..n)
        .map(|i| {
            let r = (i as f32 + 0.5).sqrt();
            let a = i as f32 * golden;
            [r * a.cos(), r * a.sin()]
        })
        .collect()
}

/// Barnes–Hut quadtree over the current positions: leaves hold up to [`LEAF`] vertices; inner
/// nodes their total mass and centre of mass.
struct QuadTree {
    nodes: Vec<QNode>,
    /// Vertex ids, permuted so that every node's vertices are contiguous.
    idx: Vec<u32>,
}

#[derive(Clone, Copy)]
struct QNode {
    /// Centre of mass and mass (vertex count).
    c: [f32; 2],
    mass: f32,
    /// Side of the node's square.
    size: f32,
    /// Vertices `idx[start..end]`.
    start: u32,
    end: u32,
    /// First child (children are consecutive) or 0 for a leaf.
    child: u32,
    nchild: u8,
}

const LEAF: usize = 8;
/// Opening angle θ = 0.7 (squared). Below 1/√2 a node is never approximated for a vertex
/// inside it (its centre of mass is at most √2·size away), so no self-force.
const THETA2: f32 = 0.7 * 0.7;

impl QuadTree {
    fn new() -> QuadTree {
        QuadTree { nodes: Vec::new(), idx: Vec::new() }
    }

    /// Builds the tree over the vertices `members` at positions `pos`.
    fn build(&mut self, pos: &[[f32; 2]], members: &[u32]) {
        self.nodes.clear();
        self.idx.clear();
        self.idx.extend_from_slice(members);
        let b = bbox_of(pos, members);
        let size = b.width().max(b.height()).max(1e-3) * 1.0001;
        self.nodes.push(QNode {
            c: [0.0; 2],
            mass: 0.0,
            size,
            start: 0,
            end: members.len() as u32,
            child: 0,
            nchild: 0,
        });
        // Iterative subdivision: (node index, box min, depth).
        let mut stack = vec![(0usize, b.min, 0u32)];
        while let Some((ni, min, depth)) = stack.pop() {
            let QNode { start, end, size, .. } = self.nodes[ni];
            let (start, end) = (start as usize, end as usize);
            if end - start <= LEAF || depth >= 24 {
                continue;
            }
            let h = size / 2.0;
            let mid = [min[0] + h, min[1] + h];
            // Partition by x, then each half by y: quadrants (x<, y<), (x<, y≥), (x≥, y<), (x≥, y≥).
            let slice = &mut self.idx[start..end];
            let sx = partition(slice, |v| pos[v as usize][0] < mid[0]);
            let sy0 = partition(&mut slice[..sx], |v| pos[v as usize][1] < mid[1]);
            let sy1 = sx + partition(&mut slice[sx..], |v| pos[v as usize][1] < mid[1]);
            let bounds =
                [(0, sy0, min), (sy0, sx, [min[0], mid[1]]), (sx, sy1, [mid[0], min[1]]), (sy1, end - start, mid)];
            let first = self.nodes.len() as u32;
            let mut count = 0u8;
            for (a, z, m) in bounds {
                if z > a {
                    let ci = self.nodes.len();
                    self.nodes.push(QNode {
                        c: [0.0; 2],
                        mass: 0.0,
                        size: h,
                        start: (start + a) as u32,
                        end: (start + z) as u32,
                        child: 0,
                        nchild: 0,
                    });
                    stack.push((ci, m, depth + 1));
                    count += 1;
                }
            }
            self.nodes[ni].child = first;
            self.nodes[ni].nchild = count;
        }
        // Masses bottom-up: children always come after their parent.
        for ni in (0..self.nodes.len()).rev() {
            let n = self.nodes[ni];
            let (mut c, mut m) = ([0.0f32; 2], 0.0f32);
            if n.nchild == 0 {
                for &v in &self.idx[n.start as usize..n.end as usize] {
                    let p = pos[v as usize];
                    c[0] += p[0];
                    c[1] += p[1];
                    m += 1.0;
                }
            } else {
                for k in 0..n.nchild as usize {
                    let ch = self.nodes[n.child as usize + k];
                    c[0] += ch.c[0] * ch.mass;
                    c[1] += ch.c[1] * ch.mass;
                    m += ch.mass;
                }
            }
            if m > 0.0 {
                c = [c[0] / m, c[1] / m];
            }
            self.nodes[ni].c = c;
            self.nodes[ni].mass = m;
        }
    }

    /// Repulsive force k²/d (summed over all other vertices, far groups approximated by their
    /// centre of mass) on vertex `v` at `p`.
    fn repulsion(&self, pos: &[[f32; 2]], v: u32, p: [f32; 2], k2: f32, stack: &mut Vec<u32>) -> [f32; 2] {
        let mut f = [0.0f32; 2];
        let mut push = |dx: f32, dy: f32, m: f32, salt: u32| {
            let (mut dx, mut dy) = (dx, dy);
            let mut d2 = dx * dx + dy * dy;
            if d2 < 1e-8 {
                // Coincident: push apart in a direction derived from the ids.
                let a = (v as f32 * 0.618 + salt as f32 * 0.382) * std::f32::consts::TAU;
                dx = a.cos() * 1e-2;
                dy = a.sin() * 1e-2;
                d2 = 1e-4;
            }
            let s = k2 * m / d2; // k²/d along the unit vector: k²/d² · (dx, dy)
            f[0] += dx * s;
            f[1] += dy * s;
        };
        stack.clear();
        stack.push(0);
        while let Some(ni) = stack.pop() {
            let n = &self.nodes[ni as usize];
            if n.mass == 0.0 {
                continue;
            }
            let (dx, dy) = (p[0] - n.c[0], p[1] - n.c[1]);
            let d2 = dx * dx + dy * dy;
            if n.nchild == 0 {
                for &u in &self.idx[n.start as usize..n.end as usize] {
                    if u != v {
                        let q = pos[u as usize];
                        push(p[0] - q[0], p[1] - q[1], 1.0, u);
                    }
                }
            } else if n.size * n.size < THETA2 * d2 {
                push(dx, dy, n.mass, ni);
            } else {
                for k in 0..n.nchild as u32 {
                    stack.push(n.child + k);
                }
            }
        }
        f
    }
}

fn bbox_of(pos: &[[f32; 2]], members: &[u32]) -> super::camera::Bbox {
    let mut b = super::camera::Bbox { min: [f32::INFINITY; 2], max: [f32::NEG_INFINITY; 2] };
    for &v in members {
        let p = pos[v as usize];
        if p[0].is_finite() && p[1].is_finite() {
            b.min = [b.min[0].min(p[0]), b.min[1].min(p[1])];
            b.max = [b.max[0].max(p[0]), b.max[1].max(p[1])];
        }
    }
    if b.min[0] > b.max[0] {
        b = super::camera::Bbox { min: [0.0; 2], max: [0.0; 2] };
    }
    b
}

/// Puts the `isolated` vertices in a square block right of the others, `k` apart.
fn place_isolated(pos: &mut [[f32; 2]], members: &[u32], isolated: &[u32], k: f32) {
    if isolated.is_empty() {
        return;
    }
    let b = bbox_of(pos, members);
    let cols = (isolated.len() as f32).sqrt().ceil().max(1.0) as usize;
    let x0 = if members.is_empty() { 0.0 } else { b.max[0] + 2.0 * k };
    for (i, &v) in isolated.iter().enumerate() {
        pos[v as usize] = [x0 + (i % cols) as f32 * k, b.max[1] - (i / cols) as f32 * k];
    }
}

/// Moves the elements satisfying `pred` to the front; returns their count.
fn partition(s: &mut [u32], pred: impl Fn(u32) -> bool) -> usize {
    let mut i = 0;
    for j in 0..s.len() {
        if pred(s[j]) {
            s.swap(i, j);
            i += 1;
        }
    }
    i
}

/// Runs `iterations` Fruchterman–Reingold iterations on `pos` (n entries, updated in place).
/// `progress(iteration, pos)` after each; stops early when `cancel` is set.
pub fn run_layout(
    graph: &Graph,
    pos: &mut [[f32; 2]],
    iterations: u32,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u32, &[[f32; 2]]),
) {
    let n = graph.n();
    if n < 2 {
        return;
    }
    let csr = graph.successors();
    let k = 1.0f32; // ideal edge length; the area grows with n
    let k2 = k * k;
    // Vertices without arcs take no part in the simulation: they are set out in a block aside
    // (otherwise the repulsion of the rest pushes them into a wide ring that dwarfs the graph).
    let mut linked = vec![false; n];
    for u in 0..n {
        for &v in &csr.targets[csr.range(u as u32)] {
            if v as usize != u {
                linked[u] = true;
                linked[v as usize] = true;
            }
        }
    }
    let members: Vec<u32> = (0..n as u32).filter(|&v| linked[v as usize]).collect();
    let isolated: Vec<u32> = (0..n as u32).filter(|&v| !linked[v as usize]).collect();
    let mut disp = vec![[0.0f32; 2]; n];
    let mut tree = QuadTree::new();
    let mut stack = Vec::new();
    let t_start = (n as f32).sqrt() * 0.3 * k;
    let t_end = 0.01 * k;
    for it in 0..iterations {
        if cancel.load(Ordering::Relaxed) {
            return;
        }
        let t = t_start + (t_end - t_start) * it as f32 / iterations.max(1) as f32;
        tree.build(pos, &members);
        for &v in &members {
            let v = v as usize;
            disp[v] = tree.repulsion(pos, v as u32, pos[v], k2, &mut stack);
        }
        // Attraction along arcs (as undirected; parallel arcs count more).
        for u in 0..n {
            let p = pos[u];
            for &v in &csr.targets[csr.range(u as u32)] {
                let v = v as usize;
                if v == u {
                    continue;
                }
                let q = pos[v];
                let (dx, dy) = (p[0] - q[0], p[1] - q[1]);
                let d = (dx * dx + dy * dy).sqrt();
                let s = d / k; // d²/k along the unit vector
                disp[u][0] -= dx * s;
                disp[u][1] -= dy * s;
                disp[v][0] += dx * s;
                disp[v][1] += dy * s;
            }
        }
        // Weak gravity towards the centre keeps components together; then move by at most t.
        let c = tree.nodes[0].c;
        for &v in &members {
            let v = v as usize;
            let p = &mut pos[v];
            let (gx, gy) = (c[0] - p[0], c[1] - p[1]);
            let g = 0.05 * k;
            let d = [disp[v][0] + gx * g, disp[v][1] + gy * g];
            let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
            if len > 0.0 && len.is_finite() {
                let step = len.min(t) / len;
                p[0] += d[0] * step;
                p[1] += d[1] * step;
            }
        }
        place_isolated(pos, &members, &isolated, k);
        progress(it + 1, pos);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;

    fn finite(pos: &[[f32; 2]]) -> bool {
        pos.iter().all(|p| p[0].is_finite() && p[1].is_finite())
    }

    #[test]
    fn layout_finishes_with_finite_spread_positions() {
        let g = Arc::new(generate::rmat(9, 4, [0.45, 0.15, 0.15], 10, 1).unwrap());
        let mut job = LayoutJob::start(g.clone(), crate::jobs::no_repaint());
        let t0 = Instant::now();
        let mut pos = None;
        while !job.is_done() {
            assert!(t0.elapsed() < Duration::from_secs(60), "layout did not finish");
            std::thread::sleep(Duration::from_millis(5));
            pos = job.newest().or(pos);
        }
        assert_eq!(job.iteration(), job.iterations);
        let pos = pos.unwrap();
        assert_eq!(pos.len(), g.n());
        assert!(finite(&pos));
        // Not collapsed: distinct positions spread over some area.
        let b = super::super::camera::Bbox::of(&pos);
        assert!(b.width() > 1.0 && b.height() > 1.0, "{b:?}");
    }

    #[test]
    fn path_graph_is_laid_out_with_neighbours_close() {
        // A path 0-1-…-29: consecutive vertices should end up near each other.
        let n = 30;
        let mut b = crate::graph::GraphBuilder::new(n, crate::graph::WeightRule::Unit);
        for i in 0..n - 1 {
            b.push_undirected(i as u32, i as u32 + 1, None);
        }
        let g = b.build("path", None, crate::graph::VertexLabels::Offset(0)).unwrap();
        let mut pos = initial_positions(n);
        run_layout(&g, &mut pos, 300, &AtomicBool::new(false), &mut |_, _| {});
        assert!(finite(&pos));
        let d = |a: usize, c: usize| ((pos[a][0] - pos[c][0]).powi(2) + (pos[a][1] - pos[c][1]).powi(2)).sqrt();
        let mean_edge: f32 = (0..n - 1).map(|i| d(i, i + 1)).sum::<f32>() / (n - 1) as f32;
        assert!(mean_edge > 0.2 && mean_edge < 3.0, "{mean_edge}");
        assert!(d(0, n - 1) > 3.0 * mean_edge, "the path folded onto itself");
    }

    #[test]
    fn isolated_vertices_are_set_aside_in_a_block() {
        let mut b = crate::graph::GraphBuilder::new(12, crate::graph::WeightRule::Unit);
        b.push_undirected(0, 1, None);
        b.push_undirected(1, 2, None);
        let g = b.build("sparse", None, crate::graph::VertexLabels::Offset(0)).unwrap();
        let mut pos = initial_positions(12);
        run_layout(&g, &mut pos, 100, &AtomicBool::new(false), &mut |_, _| {});
        assert!(finite(&pos));
        let right = pos[..3].iter().map(|p| p[0]).fold(f32::MIN, f32::max);
        for p in &pos[3..] {
            assert!(p[0] > right, "{p:?} not right of the linked vertices (x ≤ {right})");
        }
        let spread = super::super::camera::Bbox::of(&pos[3..]);
        assert!(spread.width() <= 3.0 && spread.height() <= 3.0, "{spread:?}");
        // No arcs at all: a plain block.
        let g = crate::graph::GraphBuilder::new(9, crate::graph::WeightRule::Unit)
            .build("empty", None, crate::graph::VertexLabels::Offset(0))
            .unwrap();
        let mut pos = initial_positions(9);
        run_layout(&g, &mut pos, 10, &AtomicBool::new(false), &mut |_, _| {});
        assert!(finite(&pos));
        assert_eq!(super::super::camera::Bbox::of(&pos).width(), 2.0);
    }

    #[test]
    fn degenerate_graphs_and_cancel() {
        let g = generate::teaching();
        let mut pos = vec![[0.0, 0.0]; g.n()]; // all coincident
        run_layout(&g, &mut pos, 50, &AtomicBool::new(false), &mut |_, _| {});
        assert!(finite(&pos));
        let mut calls = 0;
        run_layout(&g, &mut pos, 50, &AtomicBool::new(true), &mut |_, _| calls += 1);
        assert_eq!(calls, 0);
        assert!(iteration_budget(5000, 5_000_000) >= 40);
    }
}
