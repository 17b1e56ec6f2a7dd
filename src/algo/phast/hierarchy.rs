//! A contraction hierarchy (CH) and the arrays PHAST sweeps: Geisberger, Sanders, Schultes,
//! Delling, "Contraction hierarchies: faster and simpler hierarchical routing in road networks",
//! WEA 2008 (`[ch]`), laid out as Delling, Goldberg, Nowatzyk, Werneck, "PHAST: hardware-accelerated
//! shortest path trees", IPDPS 2011 / JPDC 2013 (`[phast]`) §3–4.
//!
//! Vertices are contracted one at a time, least important first. Contracting v removes it from
//! the remaining graph and adds a shortcut u → w of weight c(u,v) + c(v,w) for each pair of
//! remaining neighbours whose shortest u → w path might go through v (a bounded Dijkstra from u
//! that avoids v, the witness search, found nothing as short). The order is by priority:
//! twice the edge difference (shortcuts added − arcs removed) plus the neighbours already
//! contracted plus twice the depth (the longest chain of contracted vertices below v), updated
//! lazily: a vertex's priority is computed again when it reaches the top of the queue. The depth term keeps PHAST's levels
//! few: a GPU pays one phase per level.
//!
//! Every arc of the result (original or shortcut) goes from its lower-ranked end to its higher,
//! or down. The upward arcs serve the source's upward search, the downward arcs the sweep. A
//! vertex's sweep *level* is 0 when no downward arc enters it and 1 + the largest level of a tail
//! otherwise, so the vertices of one level never depend on each other: a level is one parallel
//! phase. The sweep arrays are renumbered by level (`order`, `pos`) so that a level is a
//! contiguous range and its reads of δ run mostly forwards through memory ([phast] §4.1).
//!
//! The build is source-independent and runs once per graph ([`hierarchy`] keeps it in memory and
//! on disk): NY's takes about 6 s on one core of the build machine (`build_ms`), untimed like a
//! peer's graph build, and reported.

use crate::algo::SolveError;
use crate::graph::{Distance, Graph, INF, VertexId};
use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Settled vertices after which a witness search gives up (it then adds the shortcut, which is
/// never wrong, only redundant): small while estimating a priority, larger when contracting.
const SIMULATE_SETTLE_LIMIT: usize = 60;
const CONTRACT_SETTLE_LIMIT: usize = 500;
/// Arcs per remaining vertex past which the contraction stops and leaves a core (see [`build`]):
/// road networks start near 3 and stay below it to the top (NY: no core at 24, 4 011 core
/// vertices at 10); graphs without a hierarchy reach it soon, and a contraction past it costs
/// witness searches quadratic in the degree.
const DENSE_OUT_DEGREE: usize = 24;
/// Arcs per vertex above which a graph is not contracted at all (road networks: 2.8 on NY, 2.1 on
/// luxembourg; grids 4): it is all core, and PHAST is then Dijkstra by another name.
const START_OUT_DEGREE: usize = 6;

/// A graph's contraction hierarchy, as PHAST reads it. Vertex ids are the graph's; sweep
/// positions are `0..n` in sweep order. Weights are path lengths in the graph's weight unit.
#[derive(Debug)]
pub struct Hierarchy {
    /// n: vertices.
    pub n: usize,
    /// Contraction rank of each vertex (0 = contracted first, the least important), n entries.
    pub rank: Vec<u32>,
    /// Upward arcs by vertex id, CSR: `up_heads[up_offsets[v]..up_offsets[v + 1]]` are the
    /// higher-ranked heads of v's arcs (any head for a vertex of the `core`), with `up_weights`
    /// alongside (n + 1 offsets).
    pub up_offsets: Vec<u32>,
    pub up_heads: Vec<VertexId>,
    pub up_weights: Vec<Distance>,
    /// `order[k]`: the vertex at sweep position k; `pos[v]`: the sweep position of v (n each).
    pub order: Vec<VertexId>,
    pub pos: Vec<u32>,
    /// Level l covers sweep positions `level_start[l]..level_start[l + 1]` (levels + 1 entries).
    pub level_start: Vec<u32>,
    /// Downward arcs by head, CSR over sweep positions: the arcs entering position k come from
    /// positions `in_tails[in_offsets[k]..in_offsets[k + 1]]` (all in earlier levels) with
    /// `in_weights` alongside (n + 1 offsets).
    pub in_offsets: Vec<u32>,
    pub in_tails: Vec<u32>,
    pub in_weights: Vec<Distance>,
    /// Shortcuts the contraction added (arcs beyond the graph's, parallel arcs merged).
    pub shortcuts: usize,
    /// Vertices left uncontracted on top (0 on road networks): where the contraction outgrew four
    /// shortcuts per arc; the upward search runs Dijkstra among them (see [`build`]).
    pub core: usize,
    /// Wall time of the build in ms (one thread).
    pub build_ms: f64,
}

impl Hierarchy {
    /// Sweep levels (phases of a parallel sweep).
    pub fn levels(&self) -> usize {
        self.level_start.len() - 1
    }

    /// Sweep positions of level `l`.
    pub fn level(&self, l: usize) -> std::ops::Range<usize> {
        self.level_start[l] as usize..self.level_start[l + 1] as usize
    }

    /// Downward arcs entering sweep position `k`: (tail position, weight).
    pub fn arcs_into(&self, k: usize) -> impl Iterator<Item = (u32, Distance)> + '_ {
        let r = self.in_offsets[k] as usize..self.in_offsets[k + 1] as usize;
        self.in_tails[r.clone()].iter().copied().zip(self.in_weights[r].iter().copied())
    }

    /// The upward search from `source`: Dijkstra over the upward arcs only ([phast] §3, phase
    /// one). Returns (sweep position, distance) of every vertex it reaches, the source first
    /// with 0; these are upper bounds that the sweep lowers to the final δ. Its δ array is the
    /// calling thread's, kept between calls and reset through the vertices reached (NY: a few
    /// hundred), so a search costs its search space, not n.
    pub fn upward_search(&self, source: VertexId) -> Vec<(u32, Distance)> {
        thread_local! {
            static SCRATCH: RefCell<(Vec<Distance>, Vec<VertexId>)> = const { RefCell::new((Vec::new(), Vec::new())) };
        }
        SCRATCH.with_borrow_mut(|(dist, reached)| {
            if dist.len() < self.n {
                dist.resize(self.n, INF);
            }
            let mut heap = BinaryHeap::new();
            dist[source as usize] = 0;
            reached.push(source);
            heap.push(Reverse((0, source)));
            while let Some(Reverse((d, u))) = heap.pop() {
                if d != dist[u as usize] {
                    continue;
                }
                let r = self.up_offsets[u as usize] as usize..self.up_offsets[u as usize + 1] as usize;
                for (&w, &c) in self.up_heads[r.clone()].iter().zip(&self.up_weights[r]) {
                    let nd = d.saturating_add(c);
                    if nd < dist[w as usize] {
                        if dist[w as usize] == INF {
                            reached.push(w);
                        }
                        dist[w as usize] = nd;
                        heap.push(Reverse((nd, w)));
                    }
                }
            }
            let out = reached.iter().map(|&v| (self.pos[v as usize], dist[v as usize])).collect();
            for &v in reached.iter() {
                dist[v as usize] = INF;
            }
            reached.clear();
            out
        })
    }

    /// Host bytes of the sweep and upward arrays.
    pub fn bytes(&self) -> usize {
        4 * (self.rank.len() + self.up_offsets.len() + self.up_heads.len() + self.order.len() * 2)
            + 8 * self.up_weights.len()
            + 4 * (self.level_start.len() + self.in_offsets.len() + self.in_tails.len())
            + 8 * self.in_weights.len()
    }
}

/// The hierarchy of `graph`, built on first use and kept: in memory for the last few graphs (by
/// the graph's fingerprint, so a graph loaded twice shares it) and on disk
/// (`cache_dir()/phast-v2/`, see `store.rs`), so a graph is contracted once per machine.
///
/// Errors: [`SolveError::Options`] when the graph has a negative arc (a CH needs weights ≥ 0). A
/// graph without a road network's hierarchy (an expander, a power-law graph) is not refused: past
/// four shortcuts per arc the rest stays an uncontracted core (`core`), exact but slow.
pub fn hierarchy(graph: &Arc<Graph>) -> Result<Arc<Hierarchy>, SolveError> {
    /// Hierarchies kept in memory (NY's takes ~25 MB).
    const KEEP: usize = 4;
    static CACHE: Mutex<Vec<(u64, Arc<Hierarchy>)>> = Mutex::new(Vec::new());
    let fp = super::store::fingerprint(graph);
    let found = {
        let cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
        cache.iter().find(|(f, h)| *f == fp && h.n == graph.n()).map(|(_, h)| h.clone())
    };
    if let Some(h) = found {
        return Ok(h);
    }
    let h = match super::store::load(fp).filter(|h| h.n == graph.n()) {
        Some(h) => Arc::new(h),
        None => {
            let h = Arc::new(build(graph)?);
            // Small graphs contract in milliseconds: not worth a file each (the random graphs of
            // the tests would fill the folder).
            if h.build_ms >= 100.0 {
                super::store::save(fp, &h);
            }
            h
        }
    };
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    if cache.len() >= KEEP {
        cache.remove(0);
    }
    cache.push((fp, h.clone()));
    Ok(h)
}

/// The remaining graph during contraction: per vertex its arcs to and from vertices not yet
/// contracted (parallel arcs merged to the lightest).
struct Remaining {
    out: Vec<Vec<(VertexId, Distance)>>,
    inn: Vec<Vec<(VertexId, Distance)>>,
}

impl Remaining {
    /// Adds u → w with weight c, or lowers the existing arc; true when the arc is new.
    fn add(&mut self, u: VertexId, w: VertexId, c: Distance) -> bool {
        if let Some(a) = self.out[u as usize].iter_mut().find(|a| a.0 == w) {
            if c < a.1 {
                a.1 = c;
                if let Some(b) = self.inn[w as usize].iter_mut().find(|b| b.0 == u) {
                    b.1 = c;
                }
            }
            return false;
        }
        self.out[u as usize].push((w, c));
        self.inn[w as usize].push((u, c));
        true
    }
}

/// A bounded Dijkstra over the remaining graph, reused across searches (its arrays are reset
/// through the list of touched vertices).
struct Witness {
    dist: Vec<Distance>,
    /// `target[x] == stamp`: x is a head the current search still has to settle.
    target: Vec<u32>,
    stamp: u32,
    touched: Vec<VertexId>,
    heap: BinaryHeap<Reverse<(Distance, VertexId)>>,
}

impl Witness {
    /// Distances from `from` in the remaining graph without `avoid`, exact up to `bound` for the
    /// `targets` unless the settle `limit` stops the search first (then larger: a missed witness
    /// only costs a redundant shortcut). Stops once every target is settled.
    fn search(
        &mut self,
        g: &Remaining,
        from: VertexId,
        avoid: VertexId,
        bound: Distance,
        targets: &[(VertexId, Distance)],
        limit: usize,
    ) {
        for &t in &self.touched {
            self.dist[t as usize] = INF;
        }
        self.touched.clear();
        self.heap.clear();
        self.stamp = self.stamp.wrapping_add(1);
        let mut left = 0;
        for &(w, _) in targets {
            if w != from && self.target[w as usize] != self.stamp {
                self.target[w as usize] = self.stamp;
                left += 1;
            }
        }
        self.dist[from as usize] = 0;
        self.touched.push(from);
        self.heap.push(Reverse((0, from)));
        let mut settled = 0;
        while let Some(Reverse((d, u))) = self.heap.pop() {
            if d != self.dist[u as usize] {
                continue;
            }
            settled += 1;
            if d > bound || settled > limit {
                break;
            }
            if self.target[u as usize] == self.stamp {
                left -= 1;
                if left == 0 {
                    break;
                }
            }
            for &(x, c) in &g.out[u as usize] {
                if x == avoid {
                    continue;
                }
                let nd = d + c;
                if nd < self.dist[x as usize] {
                    if self.dist[x as usize] == INF {
                        self.touched.push(x);
                    }
                    self.dist[x as usize] = nd;
                    self.heap.push(Reverse((nd, x)));
                }
            }
        }
    }
}

/// The shortcuts contracting `v` needs now: (u, w, c(u,v) + c(v,w)) with no witness as short.
fn shortcuts_of(
    g: &Remaining,
    ws: &mut Witness,
    v: VertexId,
    limit: usize,
    out: &mut Vec<(VertexId, VertexId, Distance)>,
) {
    out.clear();
    let heads = &g.out[v as usize];
    if heads.is_empty() {
        return;
    }
    let max_out = heads.iter().map(|a| a.1).max().unwrap_or(0);
    for &(u, cu) in &g.inn[v as usize] {
        ws.search(g, u, v, cu + max_out, heads, limit);
        for &(w, cw) in heads {
            if w != u && ws.dist[w as usize] > cu + cw {
                out.push((u, w, cu + cw));
            }
        }
    }
}

/// Builds the hierarchy (see the module docs). O(n log n) contractions, each with one witness
/// search per in-neighbour, on road networks.
pub(super) fn build(graph: &Graph) -> Result<Hierarchy, SolveError> {
    let start = Instant::now();
    if let Some((u, v, w)) = graph.first_negative_arc() {
        return Err(SolveError::Options(format!("phast needs weights ≥ 0 (arc {u} → {v} has weight {w})")));
    }
    let n = graph.n();
    let succ = graph.successors();
    let mut g = Remaining { out: vec![Vec::new(); n], inn: vec![Vec::new(); n] };
    for u in 0..n as VertexId {
        for (w, c) in succ.arcs(u) {
            if w != u {
                g.add(u, w, c as Distance);
            }
        }
    }
    let budget = 4 * graph.m() + 100_000;
    // Arcs among the vertices not yet contracted, against DENSE_OUT_DEGREE per such vertex.
    let mut live: usize = g.out.iter().map(Vec::len).sum();
    let dense = |live: usize, left: usize| live > DENSE_OUT_DEGREE * left.max(1);
    let mut ws =
        Witness { dist: vec![INF; n], target: vec![0; n], stamp: 0, touched: Vec::new(), heap: BinaryHeap::new() };
    let mut cuts = Vec::new();
    let mut deleted = vec![0i64; n];
    let mut depth = vec![0i64; n];
    let mut contracted = vec![false; n];
    let priority = |g: &Remaining, ws: &mut Witness, cuts: &mut Vec<_>, v: VertexId, deleted: &[i64], depth: &[i64]| {
        shortcuts_of(g, ws, v, SIMULATE_SETTLE_LIMIT, cuts);
        let removed = (g.out[v as usize].len() + g.inn[v as usize].len()) as i64;
        2 * (cuts.len() as i64 - removed) + deleted[v as usize] + 2 * depth[v as usize]
    };
    let mut current = vec![0i64; n];
    let mut queue = BinaryHeap::with_capacity(n);
    // A graph denser from the start than a road network (fan-outs, Martín's graphs, R-MAT,
    // Kronecker) is all core: no witness search at all.
    let road_like = live <= START_OUT_DEGREE * n.max(1);
    for v in (0..n as VertexId).filter(|_| road_like) {
        current[v as usize] = priority(&g, &mut ws, &mut cuts, v, &deleted, &depth);
        queue.push(Reverse((current[v as usize], v)));
    }
    let mut rank = vec![0u32; n];
    let mut up: Vec<Vec<(VertexId, Distance)>> = vec![Vec::new(); n];
    let mut down_in: Vec<Vec<(VertexId, Distance)>> = vec![Vec::new(); n];
    let mut shortcuts = 0usize;
    let mut next_rank = 0u32;
    while let Some(Reverse((p, v))) = queue.pop() {
        if contracted[v as usize] || p != current[v as usize] {
            continue;
        }
        // Lazy update: the priority may have grown since it was queued.
        let fresh = priority(&g, &mut ws, &mut cuts, v, &deleted, &depth);
        if let Some(&Reverse((next, _))) = queue.peek()
            && fresh > next
        {
            current[v as usize] = fresh;
            queue.push(Reverse((fresh, v)));
            continue;
        }
        shortcuts_of(&g, &mut ws, v, CONTRACT_SETTLE_LIMIT, &mut cuts);
        contracted[v as usize] = true;
        rank[v as usize] = next_rank;
        next_rank += 1;
        let outs = std::mem::take(&mut g.out[v as usize]);
        let ins = std::mem::take(&mut g.inn[v as usize]);
        for &(w, _) in &outs {
            g.inn[w as usize].retain(|a| a.0 != v);
        }
        for &(u, _) in &ins {
            g.out[u as usize].retain(|a| a.0 != v);
        }
        live -= outs.len() + ins.len();
        for &(u, w, c) in &cuts {
            let new = g.add(u, w, c) as usize;
            shortcuts += new;
            live += new;
        }
        let mut neighbours: Vec<VertexId> = outs.iter().chain(&ins).map(|a| a.0).collect();
        neighbours.sort_unstable();
        neighbours.dedup();
        // The neighbours' priorities change; the lazy check at their pop sees it. Recomputing
        // them here as well gave NY 9 % fewer levels for 2.5× the build time (16 s).
        for &x in &neighbours {
            deleted[x as usize] += 1;
            depth[x as usize] = depth[x as usize].max(depth[v as usize] + 1);
        }
        up[v as usize] = outs;
        down_in[v as usize] = ins;
        if shortcuts > budget || dense(live, n - next_rank as usize) {
            break;
        }
    }
    // A graph without a road network's hierarchy (an expander, a power-law graph) turns dense as
    // it contracts: past the budget, or once the remaining graph averages more than
    // DENSE_OUT_DEGREE arcs per vertex, the rest stays an uncontracted core on top. Its vertices take
    // the highest ranks, keep all their remaining arcs as "upward" arcs and have no downward
    // in-arcs, so the upward search is a plain Dijkstra inside the core (exact there) and the
    // sweep below it is unchanged: still exact, only slower (Geisberger et al.'s core-based CH).
    let mut core = 0;
    for v in 0..n {
        if !contracted[v] {
            rank[v] = next_rank;
            next_rank += 1;
            core += 1;
            up[v] = std::mem::take(&mut g.out[v]);
        }
    }
    let mut h = layout(n, rank, up, down_in, shortcuts, start);
    h.core = core;
    Ok(h)
}

/// The CSR arrays from the contraction's per-vertex arc lists, and the sweep levels.
fn layout(
    n: usize,
    rank: Vec<u32>,
    up: Vec<Vec<(VertexId, Distance)>>,
    down_in: Vec<Vec<(VertexId, Distance)>>,
    shortcuts: usize,
    start: Instant,
) -> Hierarchy {
    let mut by_rank = vec![0 as VertexId; n];
    for (v, &r) in rank.iter().enumerate() {
        by_rank[r as usize] = v as VertexId;
    }
    // Tails outrank heads, so descending rank sees every tail's level first.
    let mut level = vec![0u32; n];
    for &v in by_rank.iter().rev() {
        level[v as usize] = down_in[v as usize].iter().map(|&(u, _)| level[u as usize] + 1).max().unwrap_or(0);
    }
    let levels = level.iter().copied().max().map_or(0, |l| l as usize + 1);
    let mut order: Vec<VertexId> = (0..n as VertexId).collect();
    order.sort_by_key(|&v| (level[v as usize], v));
    let mut pos = vec![0u32; n];
    for (k, &v) in order.iter().enumerate() {
        pos[v as usize] = k as u32;
    }
    let mut level_start = vec![0u32; levels + 1];
    for &l in &level {
        level_start[l as usize + 1] += 1;
    }
    for l in 0..levels {
        level_start[l + 1] += level_start[l];
    }
    let mut in_offsets = Vec::with_capacity(n + 1);
    let (mut in_tails, mut in_weights) = (Vec::new(), Vec::new());
    in_offsets.push(0u32);
    for &v in &order {
        let mut arcs: Vec<(u32, Distance)> = down_in[v as usize].iter().map(|&(u, c)| (pos[u as usize], c)).collect();
        arcs.sort_unstable();
        for (t, c) in arcs {
            in_tails.push(t);
            in_weights.push(c);
        }
        in_offsets.push(in_tails.len() as u32);
    }
    let mut up_offsets = Vec::with_capacity(n + 1);
    let (mut up_heads, mut up_weights) = (Vec::new(), Vec::new());
    up_offsets.push(0u32);
    for arcs in &up {
        for &(w, c) in arcs {
            up_heads.push(w);
            up_weights.push(c);
        }
        up_offsets.push(up_heads.len() as u32);
    }
    Hierarchy {
        n,
        rank,
        up_offsets,
        up_heads,
        up_weights,
        order,
        pos,
        level_start,
        in_offsets,
        in_tails,
        in_weights,
        shortcuts,
        core: 0,
        build_ms: start.elapsed().as_secs_f64() * 1e3,
    }
}
