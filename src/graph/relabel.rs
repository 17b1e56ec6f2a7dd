//! A graph renumbered by out-degree, highest first: the locality a power-law graph's hubs can
//! have and a generator's random numbering takes away.
//!
//! Why: GAP's Kronecker generator (like Graph500's) permutes vertex ids at random, so the δ
//! cells and offsets of the hubs — the heads of most arcs, read by every thread on every
//! relaxation — lie one per cache line across the whole array. Numbered by degree, the hubs'
//! cells share a few hundred lines that stay in each core's L2. The same relabelling is GAP's
//! own for triangle counting (`Builder::RelabelByDegree`, `tc.cc`), under the same rule
//! ([`worth_relabelling`]); Balaji and Lucia, "When is graph reordering an optimization?"
//! (IISWC 2018), measure it for push-style kernels on skewed graphs. CPU Δ-stepping's rounds
//! use it ([`crate::algo::delta_stepping`], `SSSP_DS_RELABEL`); nothing else does.
//!
//! Measured (bench/results/cpu-peers-2026-11-26, lease 17, Kronecker 21 on 16 cores, 41
//! interleaved rounds on two hosts): the runs 1.15× faster than on the graph as read (default /
//! `SSSP_DS_RELABEL=0` 0.869, 90 % interval 0.838–0.909), GAP / ours 1.48× against 1.28×. The
//! build costs 0.2–0.7 s (median 0.5 s) on those cores, once per graph, untimed like the CSR's.
//!
//! Lease 19 (53 interleaved rounds on three hosts): each row sorted by head, as GAP's
//! `RelabelByDegree` (`builder.h`) sorts every neighbourhood after renaming, made the runs
//! another 8 % faster (sorted / `SSSP_RELABEL_SORT=0` 0.921, 0.900–0.934): GAP / ours 1.63×
//! (1.59–1.67) against 1.50× unsorted in the same rounds. With tasks cut at [`ARCS_PER_TASK`]
//! the sorted build takes 0.44 s median on 16 cores and pays back after ~40 runs on one graph.
//! Vertices of one degree grouped by their highest-ranked neighbour were even (1.002×).

use super::{Csr, Graph, VertexId, VertexLabels, Weight};
use rayon::prelude::*;
use std::sync::OnceLock;

/// A graph renumbered ([`Graph::degree_relabelled`]): vertex v of the original is vertex
/// `new_of[v]` of `graph` (length n, a permutation of 0..n).
#[derive(Debug)]
pub struct Relabelled {
    pub graph: Graph,
    pub new_of: Vec<VertexId>,
}

/// GAP's `WorthRelabelling` (`tc.cc`): a mean degree of at least 10 and a skewed degree
/// distribution — over 1 000 sampled vertices with an arc (GAP's `SourcePicker`, here a fixed
/// linear congruential sequence), the mean degree over 1.3 exceeds the median. True for
/// Kronecker graphs, false for uniform random graphs (mean ≈ median) and road networks (mean
/// degree 2–3). O(1 000) time.
pub fn worth_relabelling(graph: &Graph) -> bool {
    let (n, succ) = (graph.n(), graph.successors());
    if n == 0 || succ.targets.len() / n < 10 {
        return false;
    }
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut samples = Vec::with_capacity(1000);
    // A graph whose sampled vertices mostly have no arc is decided on the ones that have.
    for _ in 0..100_000 {
        if samples.len() == 1000 {
            break;
        }
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let v = ((state >> 33) % n as u64) as VertexId;
        let d = succ.degree(v);
        if d > 0 {
            samples.push(d);
        }
    }
    if samples.is_empty() {
        return false;
    }
    samples.sort_unstable();
    let mean = samples.iter().sum::<usize>() as f64 / samples.len() as f64;
    mean / 1.3 > samples[samples.len() / 2] as f64
}

/// `SSSP_RELABEL_PAGES=fault`: the relabelled arrays are marked for huge pages before they are
/// written (lease 17 call 1's build, for the A/B); unset: collapsed after. Read once.
fn fault_time_huge_pages() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("SSSP_RELABEL_PAGES").is_ok_and(|v| v.trim() == "fault"))
}

/// `SSSP_RELABEL_SORT=0`: each renumbered row keeps its arcs in the order read (lease 17's
/// build, for the A/B); unset: sorted by new head id, as GAP's `RelabelByDegree` sorts every
/// neighbourhood. Read once.
fn sort_rows() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("SSSP_RELABEL_SORT").map_or(true, |v| v.trim() != "0"))
}

/// Rows per task of the parallel copy at most: a few thousand rows keep rayon's tasks far
/// longer than their hand-off on a graph with ~16 arcs a vertex.
const ROWS_PER_TASK: usize = 4096;
/// Arcs per task of the parallel copy at most (a single longer row is a task alone): the rows
/// come hubs first, and 4 096 rows a task put the hubs' rows, a large share of a Kronecker
/// graph's arcs, in one task that the others waited for.
const ARCS_PER_TASK: u32 = 1 << 16;

/// `graph` renumbered by out-degree, highest first, ties in id order; each row's arcs sorted by
/// (new head, weight), as GAP's `RelabelByDegree` sorts each neighbourhood: a row's δ reads then
/// run upward from the hubs' few lines instead of jumping across the array. O(n log n + m log d)
/// time on the rayon pool (a stable parallel sort, then the rows copied and sorted in parallel in
/// tasks of at most [`ARCS_PER_TASK`] arcs), a second CSR's memory.
pub fn by_degree(graph: &Graph) -> Relabelled {
    let succ = graph.successors();
    let n = graph.n();
    let mut old_of: Vec<VertexId> = (0..n as VertexId).collect();
    old_of.par_sort_by_key(|&u| std::cmp::Reverse(succ.degree(u)));
    let mut new_of = vec![0 as VertexId; n];
    for (new, &old) in old_of.iter().enumerate() {
        new_of[old as usize] = new as VertexId;
    }
    let mut offsets = Vec::with_capacity(n + 1);
    offsets.push(0u32);
    let mut end = 0u32;
    for &u in &old_of {
        end += succ.degree(u) as u32;
        offsets.push(end);
    }
    let m = end as usize;
    let mut targets = vec![0 as VertexId; m];
    let mut weights = vec![0; m];
    let at_fault = fault_time_huge_pages();
    if at_fault {
        super::huge::advise_untouched(&targets);
        super::huge::advise_untouched(&weights);
    }
    // Carve the new arrays into each task's rows (disjoint slices), then fill them in parallel.
    let mut tasks = Vec::with_capacity(n.div_ceil(ROWS_PER_TASK) + m / ARCS_PER_TASK as usize);
    let (mut t_rest, mut w_rest) = (&mut targets[..], &mut weights[..]);
    let mut first = 0;
    while first < n {
        let mut last = first + 1;
        while last < n.min(first + ROWS_PER_TASK) && offsets[last + 1] - offsets[first] <= ARCS_PER_TASK {
            last += 1;
        }
        let len = (offsets[last] - offsets[first]) as usize;
        let (t, t_next) = std::mem::take(&mut t_rest).split_at_mut(len);
        let (w, w_next) = std::mem::take(&mut w_rest).split_at_mut(len);
        (t_rest, w_rest) = (t_next, w_next);
        tasks.push((&old_of[first..last], t, w));
        first = last;
    }
    let sort = sort_rows();
    tasks.into_par_iter().for_each(|(rows, t, w)| {
        let mut at = 0;
        let mut row: Vec<(VertexId, Weight)> = Vec::new();
        for &u in rows {
            let r = succ.range(u);
            let (t, w) = (&mut t[at..at + r.len()], &mut w[at..at + r.len()]);
            at += r.len();
            if sort {
                row.clear();
                row.extend(
                    succ.targets[r.clone()].iter().map(|&v| new_of[v as usize]).zip(succ.weights[r].iter().copied()),
                );
                row.sort_unstable();
                for ((slot_t, slot_w), &(v, x)) in t.iter_mut().zip(w.iter_mut()).zip(&row) {
                    (*slot_t, *slot_w) = (v, x);
                }
            } else {
                for (slot, &v) in t.iter_mut().zip(&succ.targets[r.clone()]) {
                    *slot = new_of[v as usize];
                }
                w.copy_from_slice(&succ.weights[r]);
            }
        }
    });
    // As the loaders do (Graph::from_parts): filled on 4 KiB pages, then collapsed into 2 MiB
    // pages now, synchronously. Lease 17 call 1 marked the arrays before the copy instead (huge
    // pages at fault time): 15 % of the runs that followed stalled ~1.5 s on one thread.
    if !at_fault {
        super::huge::advise(&targets);
        super::huge::advise(&weights);
    }
    super::huge::advise(&offsets);
    // Every statistic of the graph is the original's, renamed: no pass over the arcs again
    // (Graph::from_parts makes two, on one thread).
    let omega = old_of.par_iter().map(|&u| graph.omega[u as usize]).collect();
    let renamed = |v: VertexId| new_of[v as usize];
    let relabelled = Graph {
        name: format!("{} (degree order)", graph.name),
        weight_origin: graph.weight_origin.clone(),
        weight_scale: graph.weight_scale,
        warnings: Vec::new(),
        succ: Csr { offsets, targets, weights },
        pred: OnceLock::new(),
        symmetric: OnceLock::new(),
        by_degree: OnceLock::new(),
        packed: OnceLock::new(),
        omega,
        path_bound: graph.path_bound,
        max_weight: graph.max_weight,
        max_out_degree: graph.max_out_degree,
        first_negative: graph.first_negative.map(|(u, v, w)| (renamed(u), renamed(v), w)),
        negative_bound: graph.negative_bound,
        coords: None,
        labels: VertexLabels::Offset(0),
    };
    Relabelled { graph: relabelled, new_of }
}
