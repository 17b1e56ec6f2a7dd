//! The edge list every device relaxes ([seed002]): one entry per arc, in the order `order=`
//! names, built once by [`edge_list`] so the CPU's thread model, CUDA and wgpu see the same
//! arc at the same position (thread t of a pass serves position t).
//!
//! - `source`: arcs sorted into source-vertex segments (CSR order). Consecutive threads share a
//!   tail, so δ(tail) and the tail test hit the same cache line and a warp's filter agrees —
//!   seed 002's locality optimisation.
//! - `shuffled`: a seeded random permutation, as an unsorted edge list would have the arcs —
//!   the baseline: every thread gathers its own tail, and frontier warps are mostly mixed.

use super::super::ThreadCounts;
use super::super::model::SparseWarpCounter;
use crate::graph::{Graph, VertexId, Weight};
use rand::SeedableRng;
use rand::seq::SliceRandom;

/// Seed of the `shuffled` permutation (fixed: every device and every run gets the same order).
pub const SHUFFLE_SEED: u64 = 0x5EED_0002;

/// Arc order of the edge list (`order=` of `bellman-ford`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArcOrder {
    /// CSR order: arcs grouped by tail (the default).
    Source,
    /// A random permutation seeded with [`SHUFFLE_SEED`].
    Shuffled,
}

/// Arcs as three parallel arrays of length m: position i is the arc tails[i] → heads[i] with
/// weight weights[i] (vertex ids internal, weights in the graph's units).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EdgeList {
    pub tails: Vec<VertexId>,
    pub heads: Vec<VertexId>,
    pub weights: Vec<Weight>,
}

/// CSR arc index at each edge-list position (`None` for `Source`: the identity). O(m).
fn permutation(graph: &Graph, order: ArcOrder) -> Option<Vec<u32>> {
    match order {
        ArcOrder::Source => None,
        ArcOrder::Shuffled => {
            let mut perm: Vec<u32> = (0..graph.m() as u32).collect();
            perm.shuffle(&mut rand_pcg::Pcg64::seed_from_u64(SHUFFLE_SEED));
            Some(perm)
        }
    }
}

/// The edge list of `graph` in `order` (see the module docs). O(m) time and memory (12 bytes
/// per arc).
pub fn edge_list(graph: &Graph, order: ArcOrder) -> EdgeList {
    let succ = graph.successors();
    let mut csr =
        EdgeList { tails: Vec::with_capacity(graph.m()), heads: succ.targets.clone(), weights: succ.weights.clone() };
    for u in 0..graph.n() as VertexId {
        csr.tails.extend(std::iter::repeat_n(u, succ.degree(u)));
    }
    match permutation(graph, order) {
        None => csr,
        Some(perm) => EdgeList {
            tails: perm.iter().map(|&a| csr.tails[a as usize]).collect(),
            heads: perm.iter().map(|&a| csr.heads[a as usize]).collect(),
            weights: perm.iter().map(|&a| csr.weights[a as usize]).collect(),
        },
    }
}

/// The thread figures of an edge-parallel pass: one thread per edge-list position, working
/// when its arc's tail is active (modelled on the host, `modelled = true`).
#[derive(Clone, Debug)]
pub struct ArcThreads {
    /// Edge-list position of each CSR arc (`None`: the identity).
    position: Option<Vec<u32>>,
    warps: SparseWarpCounter,
    scratch: Vec<VertexId>,
}

impl ArcThreads {
    /// The model for `graph`'s edge list in `order`. O(m).
    pub fn new(graph: &Graph, order: ArcOrder) -> ArcThreads {
        let position = permutation(graph, order).map(|perm| {
            let mut pos = vec![0u32; perm.len()];
            for (i, &a) in perm.iter().enumerate() {
                pos[a as usize] = i as u32;
            }
            pos
        });
        ArcThreads { position, warps: SparseWarpCounter::new(graph.m().max(1)), scratch: Vec::new() }
    }

    /// Threads and warps of a pass whose working threads serve the out-arcs of `active`, with
    /// block size `block`. O(arcs of `active`).
    pub fn count(&mut self, graph: &Graph, active: &[VertexId], block: u32) -> ThreadCounts {
        let off = &graph.successors().offsets;
        self.scratch.clear();
        for &u in active {
            let arcs = off[u as usize]..off[u as usize + 1];
            match &self.position {
                None => self.scratch.extend(arcs),
                Some(pos) => self.scratch.extend(arcs.map(|a| pos[a as usize])),
            }
        }
        self.warps.count(graph.m() as u64, block, &self.scratch)
    }
}
