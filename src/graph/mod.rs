//! Graph core: compressed sparse rows (CSR) of successors, the transposed CSR of
//! predecessors (built on first use), ω(v) and summary statistics.
//!
//! Every graph in sssp-lab is a directed graph G = (V, E) with n = |V| vertices
//! numbered `0..n` and m = |E| arcs with integer weights (docs/references.md
//! `[terms-notation]`). Weights may be negative ([`Graph::first_negative_arc`]); real-valued
//! files are scaled to integers ([`WeightScale`]). Parallel arcs and self-loops are kept as read: they never
//! change a shortest distance. Undirected inputs are stored as two arcs.

mod builder;
pub mod huge;
mod labels;
mod packed;
mod relabel;

pub(crate) use builder::mix64;
pub use builder::{AUTO_SCALE_LIMIT, FileWeight, GraphBuilder, WeightRule, WeightScale};

/// Seed of stream `stream` derived from a user seed (generators use one RNG stream per chunk).
pub fn mix_seed(seed: u64, stream: u64) -> u64 {
    mix64(seed ^ mix64(stream.wrapping_add(0x5EED)))
}
pub use labels::VertexLabels;
pub use packed::PackedArcs;
pub use relabel::{Relabelled, worth_relabelling};

use std::sync::OnceLock;

/// Vertex index, `0..n`.
pub type VertexId = u32;
/// Arc weight: a signed integer. Negative weights load (only algorithms that declare
/// [`crate::algo::AlgorithmSpec::negative_weights`] run on them); real-valued files are scaled to
/// integers at load time ([`WeightScale`]).
pub type Weight = i32;
/// Tentative or final distance δ, signed for graphs with negative weights. 64 bits: a simple
/// path has at most n − 1 < 2³² arcs of |weight| < 2³¹, so no distance computed on the CPU can
/// overflow.
pub type Distance = i64;
/// δ = ∞: not (yet) reached.
pub const INF: Distance = Distance::MAX;

/// One direction of the adjacency: `offsets` has n + 1 entries, the arcs of vertex v are
/// `targets[offsets[v]..offsets[v + 1]]` with `weights` alongside.
///
/// Offsets are `u32` so that the same arrays can be uploaded to a GPU unchanged; a graph with
/// m ≥ 2³² arcs is refused by [`GraphBuilder::build`].
#[derive(Clone, Debug, Default)]
pub struct Csr {
    pub offsets: Vec<u32>,
    pub targets: Vec<VertexId>,
    pub weights: Vec<Weight>,
}

impl Csr {
    /// Builds the CSR from arcs `(from, to, weight)` by a counting sort on `from`; arcs keep their
    /// input order inside each row. O(n + m) time.
    pub fn from_arcs(n: usize, arcs: impl Iterator<Item = (VertexId, VertexId, Weight)> + Clone) -> Csr {
        let mut offsets = vec![0u32; n + 1];
        for (u, _, _) in arcs.clone() {
            offsets[u as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let m = offsets[n] as usize;
        let mut next: Vec<u32> = offsets[..n].to_vec();
        let mut targets = vec![0; m];
        let mut weights = vec![0; m];
        for (u, v, w) in arcs {
            let slot = next[u as usize] as usize;
            next[u as usize] += 1;
            targets[slot] = v;
            weights[slot] = w;
        }
        Csr { offsets, targets, weights }
    }

    /// Number of vertices.
    pub fn n(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Number of arcs.
    pub fn m(&self) -> usize {
        self.targets.len()
    }

    /// Arc index range of vertex `v`.
    #[inline]
    pub fn range(&self, v: VertexId) -> std::ops::Range<usize> {
        self.offsets[v as usize] as usize..self.offsets[v as usize + 1] as usize
    }

    /// Out-degree of `v` in this direction.
    #[inline]
    pub fn degree(&self, v: VertexId) -> usize {
        let r = self.range(v);
        r.end - r.start
    }

    /// `(neighbour, weight)` pairs of `v`.
    #[inline]
    pub fn arcs(&self, v: VertexId) -> impl Iterator<Item = (VertexId, Weight)> + '_ {
        let r = self.range(v);
        self.targets[r.clone()].iter().copied().zip(self.weights[r].iter().copied())
    }

    /// Hints the CPU to fetch the first arcs of `v` into cache. Sequential Dijkstra calls it when
    /// it lowers δ(v): v is popped soon, and its arcs are otherwise a cache miss on every pop
    /// (NY: 24 → 19 ms). A no-op off x86-64 and for `v ≥ n`.
    #[inline]
    pub fn prefetch_arcs(&self, v: VertexId) {
        #[cfg(target_arch = "x86_64")]
        if let Some(&o) = self.offsets.get(v as usize) {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            // SAFETY: a prefetch is a hint that never dereferences or faults, so even the
            // one-past-the-end address of a vertex without arcs is harmless; SSE is baseline
            // on x86-64.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(self.targets.as_ptr().wrapping_add(o as usize).cast());
                _mm_prefetch::<_MM_HINT_T0>(self.weights.as_ptr().wrapping_add(o as usize).cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = v;
    }

    /// The transpose: every arc (u, v, w) becomes (v, u, w). O(n + m).
    pub fn transpose(&self) -> Csr {
        let n = self.n();
        let sources = (0..n as VertexId).flat_map(|u| std::iter::repeat_n(u, self.degree(u)));
        let arcs = sources.zip(self.targets.iter().zip(&self.weights)).map(|(u, (&v, &w))| (v, u, w));
        Csr::from_arcs(n, arcs)
    }

    /// Asks for transparent huge pages under offsets, targets and weights ([`huge::advise`]);
    /// returns the bytes the kernel put on 2 MiB pages.
    pub fn advise_huge(&self) -> usize {
        huge::advise(&self.offsets) + huge::advise(&self.targets) + huge::advise(&self.weights)
    }

    /// Bytes held by the three arrays.
    pub fn bytes(&self) -> usize {
        self.offsets.len() * 4 + self.targets.len() * 4 + self.weights.len() * 4
    }
}

/// Degree and weight statistics shown in the app's graph facts and by `sssp-lab info`.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct GraphStats {
    pub n: usize,
    pub m: usize,
    pub min_out_degree: usize,
    pub max_out_degree: usize,
    pub mean_out_degree: f64,
    pub max_in_degree: usize,
    pub min_weight: Weight,
    pub max_weight: Weight,
    pub self_loops: usize,
    pub sinks: usize,
    /// Host bytes of the successor CSR, ω and coordinates (the predecessor CSR, the packed arcs
    /// and the copy numbered by degree, with its own packed arcs, are counted once built).
    pub bytes: usize,
}

/// An immutable weighted digraph, shared between the app, the solvers and the devices behind
/// an `Arc`.
#[derive(Debug)]
pub struct Graph {
    /// Short name shown in the UI (file name or generator spec).
    pub name: String,
    /// How the weights were obtained (from the file, unit, uniform with a seed, scaled).
    pub weight_origin: String,
    /// How real-valued file weights were scaled to integers; `None` when the weights are the
    /// file's integers (or a weight rule's).
    pub weight_scale: Option<WeightScale>,
    /// What the reader accepted but the user should know (`file:line: …`): a rectangular
    /// matrix, ignored columns, ids beyond 32 bits. Empty for generated graphs.
    pub warnings: Vec<String>,
    succ: Csr,
    pred: OnceLock<Csr>,
    symmetric: OnceLock<bool>,
    by_degree: OnceLock<Box<Relabelled>>,
    packed: OnceLock<Option<PackedArcs>>,
    omega: Vec<Distance>,
    path_bound: u128,
    max_weight: Weight,
    max_out_degree: usize,
    first_negative: Option<(VertexId, VertexId, Weight)>,
    negative_bound: i128,
    coords: Option<Vec<[f32; 2]>>,
    labels: VertexLabels,
}

impl Graph {
    pub(crate) fn from_parts(
        name: String,
        weight_origin: String,
        succ: Csr,
        coords: Option<Vec<[f32; 2]>>,
        labels: VertexLabels,
    ) -> Graph {
        // Untimed load work, like GAP's build: every reader and generator ends here.
        succ.advise_huge();
        let omega =
            (0..succ.n() as VertexId).map(|v| succ.arcs(v).map(|(_, w)| w as Distance).min().unwrap_or(INF)).collect();
        let mut heaviest_in = vec![0 as Weight; succ.n()];
        let mut lightest_in = vec![0 as Weight; succ.n()];
        for (&t, &w) in succ.targets.iter().zip(&succ.weights) {
            let h = &mut heaviest_in[t as usize];
            *h = (*h).max(w);
            let l = &mut lightest_in[t as usize];
            *l = (*l).min(w);
        }
        let path_bound = heaviest_in.iter().map(|&w| w as u128).sum();
        let negative_bound = lightest_in.iter().map(|&w| w as i128).sum();
        let max_weight = heaviest_in.iter().copied().max().unwrap_or(0);
        let max_out_degree = succ.offsets.windows(2).map(|w| (w[1] - w[0]) as usize).max().unwrap_or(0);
        let first_negative = if negative_bound < 0 {
            (0..succ.n() as VertexId).find_map(|u| succ.arcs(u).find(|&(_, w)| w < 0).map(|(v, w)| (u, v, w)))
        } else {
            None
        };
        Graph {
            name,
            weight_origin,
            weight_scale: None,
            warnings: Vec::new(),
            succ,
            pred: OnceLock::new(),
            symmetric: OnceLock::new(),
            by_degree: OnceLock::new(),
            packed: OnceLock::new(),
            omega,
            path_bound,
            max_weight,
            max_out_degree,
            first_negative,
            negative_bound,
            coords,
            labels,
        }
    }

    /// Number of vertices n.
    pub fn n(&self) -> usize {
        self.succ.n()
    }

    /// Number of arcs m (undirected edges count twice).
    pub fn m(&self) -> usize {
        self.succ.m()
    }

    /// CSR of successors (out-arcs).
    pub fn successors(&self) -> &Csr {
        &self.succ
    }

    /// CSR of predecessors (in-arcs), the transpose, built on first call in O(n + m).
    pub fn predecessors(&self) -> &Csr {
        self.pred.get_or_init(|| {
            let pred = self.succ.transpose();
            pred.advise_huge();
            pred
        })
    }

    /// Whether every arc u → v of weight w has a reverse v → u of the same weight, as many
    /// times (an undirected graph stored as two arcs per edge: road networks, GAP's generated
    /// graphs): then each row of the successors is also the vertex's in-arcs. Computed on
    /// first call from [`Graph::predecessors`], each row sorted, O(m log max degree).
    pub fn is_symmetric(&self) -> bool {
        *self.symmetric.get_or_init(|| {
            let (succ, pred) = (&self.succ, self.predecessors());
            let (mut a, mut b) = (Vec::new(), Vec::new());
            (0..succ.n() as VertexId).all(|u| {
                a.clear();
                b.clear();
                a.extend(succ.arcs(u));
                b.extend(pred.arcs(u));
                a.sort_unstable();
                b.sort_unstable();
                a == b
            })
        })
    }

    /// This graph renumbered by out-degree, highest first ([`relabel::by_degree`]); built on
    /// first call and kept with the graph (a second CSR's memory).
    pub fn degree_relabelled(&self) -> &Relabelled {
        self.by_degree.get_or_init(|| Box::new(relabel::by_degree(self)))
    }

    /// [`Graph::degree_relabelled`] if it has been built, without building it.
    pub fn degree_relabelled_if_built(&self) -> Option<&Relabelled> {
        self.by_degree.get().map(|r| &**r)
    }

    /// The successors' arcs packed one per 32-bit word ([`packed::pack`]: head and weight in
    /// one word); None where they do not fit (more than 2³¹ vertices, a negative weight, or
    /// ⌈log₂ n⌉ bits of head and the heaviest weight's bits over 32). Built on first call
    /// (O(m), in parallel) and kept with the graph (4m bytes).
    pub fn packed_successors(&self) -> Option<&PackedArcs> {
        self.packed.get_or_init(|| packed::pack(&self.succ, self.weight_floor(), self.max_weight)).as_ref()
    }

    /// Whether [`Graph::packed_successors`] would pack this graph's arcs, without building them.
    pub fn packs(&self) -> bool {
        packed::fits(self.n(), self.weight_floor(), self.max_weight)
    }

    /// A lower bound on the weights for [`packed`]: −1 where some arc is negative, else 0.
    fn weight_floor(&self) -> Weight {
        if self.first_negative.is_some() { -1 } else { 0 }
    }

    /// ω(v) = weight of the lightest out-arc of v, [`INF`] for a sink (seed 000 §3.1).
    pub fn omega(&self) -> &[Distance] {
        &self.omega
    }

    /// Planar coordinates per vertex (x, y in the file's units), when the input had them.
    pub fn coords(&self) -> Option<&[[f32; 2]]> {
        self.coords.as_deref()
    }

    /// A stored weight or path length `w` as the user knows it: the integer itself, or, for
    /// real-valued files scaled by 10^k ([`WeightScale`]), the file's value with the stored
    /// integer beside it (`-0.21772 (stored ×10^5: -21772)`).
    pub fn weight_text(&self, w: i64) -> String {
        match &self.weight_scale {
            Some(s) if s.decimals > 0 => {
                let real = w as f64 / 10f64.powi(s.decimals as i32);
                format!("{real:.prec$} (stored ×10^{}: {w})", s.decimals, prec = s.decimals as usize)
            }
            _ => w.to_string(),
        }
    }

    /// How vertex indices map to the ids of the input file.
    pub fn labels(&self) -> &VertexLabels {
        &self.labels
    }

    /// Upper bound on any shortest distance: (n − 1) · max weight. Devices with 32-bit
    /// distances refuse graphs where this exceeds their range.
    pub fn distance_bound(&self) -> u128 {
        let max_w = self.max_weight as u128;
        (self.n().saturating_sub(1) as u128) * max_w
    }

    /// A tighter upper bound on any shortest distance: Σ over vertices of the heaviest arc
    /// into each, since a shortest path is simple and enters each vertex at most once. On road
    /// networks it is ~10× below [`Graph::distance_bound`] (NY: 10⁹ against 9.8·10⁹), enough
    /// for 32-bit distances. Computed once when the graph is built.
    pub fn path_bound(&self) -> u128 {
        self.path_bound
    }

    /// The first arc (u, v, w) with w < 0 in successor order, `None` when every weight is
    /// non-negative. Computed once when the graph is built.
    pub fn first_negative_arc(&self) -> Option<(VertexId, VertexId, Weight)> {
        self.first_negative
    }

    /// A lower bound on any shortest distance when there is no negative cycle: Σ over vertices
    /// of the lightest negative arc into each (0 without negative weights) — the mirror of
    /// [`Graph::path_bound`].
    pub fn negative_bound(&self) -> i128 {
        self.negative_bound
    }

    /// The heaviest arc weight w_max (0 without arcs or when every weight is negative),
    /// computed once when the graph is built.
    pub fn max_weight(&self) -> Weight {
        self.max_weight
    }

    /// The largest out-degree (0 without arcs), computed once when the graph is built: the
    /// CPU Δ-stepping splits hubs only where one exists.
    pub fn max_out_degree(&self) -> usize {
        self.max_out_degree
    }

    /// Bytes of this graph's own arrays and of what it built on demand (in-arcs, packed arcs),
    /// not its renumbered copy.
    fn held_bytes(&self) -> usize {
        self.succ.bytes()
            + self.omega.len() * 8
            + self.coords.as_ref().map_or(0, |c| c.len() * 8)
            + self.pred.get().map_or(0, Csr::bytes)
            + self.packed.get().and_then(Option::as_ref).map_or(0, PackedArcs::bytes)
    }

    /// Degree and weight statistics; O(n + m).
    pub fn stats(&self) -> GraphStats {
        let n = self.n();
        let mut s = GraphStats { n, m: self.m(), min_out_degree: usize::MAX, ..Default::default() };
        let mut in_deg = vec![0u32; n];
        s.min_weight = Weight::MAX;
        for v in 0..n as VertexId {
            let d = self.succ.degree(v);
            s.min_out_degree = s.min_out_degree.min(d);
            s.max_out_degree = s.max_out_degree.max(d);
            if d == 0 {
                s.sinks += 1;
            }
            for (t, w) in self.succ.arcs(v) {
                in_deg[t as usize] += 1;
                s.self_loops += usize::from(t == v);
                s.min_weight = s.min_weight.min(w);
                s.max_weight = s.max_weight.max(w);
            }
        }
        if n == 0 {
            s.min_out_degree = 0;
        }
        if s.m == 0 {
            s.min_weight = 0;
        }
        s.max_in_degree = in_deg.iter().copied().max().unwrap_or(0) as usize;
        s.mean_out_degree = if n == 0 { 0.0 } else { s.m as f64 / n as f64 };
        s.bytes = self.held_bytes() + self.by_degree.get().map_or(0, |r| r.graph.held_bytes() + r.new_of.len() * 4);
        s
    }
}
