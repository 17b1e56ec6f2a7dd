//! The relax loop of Δ-stepping's fast rounds ([`super::fast`], [`super::fast1`]): a vertex's
//! arcs relaxed against δ now, each lowered head pushed into the thread's bin of its new δ
//! (GAP's `RelaxEdges`), over a range of a frontier or a fused bin, with the work counted and
//! an optional software prefetch (`SSSP_DS_PREFETCH`, measured slower on 16 cores, see
//! [`super::fast::PREFETCH`]), and the pull before a push ([`pull`]).

use super::fast::{Cells, Shared};
use crate::graph::{Csr, Distance, VertexId, Weight};

/// The work of a fast run, counted in registers per thread and summed at the end (a few adds
/// per vertex, always on): what GAP's loop does is the same sum for its rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Vertices expanded (every arc relaxed), from a shared frontier or a fused bin.
    pub expanded: u64,
    /// Of those, expanded from a fused bin.
    pub fused: u64,
    /// Arcs scanned (the expanded vertices' out-degrees summed).
    pub arcs: u64,
    /// Relaxations that lowered δ and pushed the head into a bin.
    pub pushes: u64,
    /// Frontier entries skipped because their vertex was lowered below the bin since (GAP's
    /// `dist[u] >= delta * curr_bin_index` test).
    pub stale: u64,
    /// Pieces of split hubs or shared fused bins taken from the round's queue
    /// ([`super::help`]).
    pub pieces: u64,
    /// Lowered vertices left out of every bin because expanding them could lower nothing (no
    /// arc, or the only one back to the vertex that lowered them; [`super::wasp`] only).
    pub leaves: u64,
}

impl Counts {
    pub(super) fn add(&mut self, o: &Counts) {
        self.expanded += o.expanded;
        self.fused += o.fused;
        self.arcs += o.arcs;
        self.pushes += o.pushes;
        self.stale += o.stale;
        self.pieces += o.pieces;
        self.leaves += o.leaves;
    }
}

/// Relaxes the arcs of every vertex of `list[range]` in order ([`relax`]); with `floor`, a
/// vertex whose δ has since dropped below it is skipped (counted as stale). With `prefetch`
/// = k > 0 the loop asks for the memory of later vertices of the range before it needs it:
/// the offsets and δ of the vertex 2k ahead, the first arcs (up to 64) of the one k ahead, the
/// heads' δ (up to 32) of the one ⌈k/2⌉ ahead — GAP's loop waits for each of these in turn. A
/// range starts by asking for the offsets and δ of its first 2k vertices and the arcs of its
/// first k: a chunk of the shared frontier comes cold.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(super) fn expand<C: Cells + ?Sized>(
    s: &Shared<C>,
    list: &[VertexId],
    range: std::ops::Range<usize>,
    floor: Option<Distance>,
    bins: &mut Vec<Vec<VertexId>>,
    spare: &mut Vec<Vec<VertexId>>,
    cn: &mut Counts,
    prefetch: usize,
) {
    let succ = s.succ;
    // Only this range: past its end the vertices are another thread's chunk (a small frontier
    // is cut into chunks of one vertex), whose prefetch would be wasted work here.
    let list = &list[..range.end];
    if prefetch > 0 {
        // A chunk starts cold: what the loop would have asked for before its first entries.
        let start = range.start;
        for &x in list.iter().skip(start).take(2 * prefetch) {
            fetch(succ.offsets.as_ptr().wrapping_add(x as usize));
            fetch(s.dist.addr(x as usize));
        }
        list.iter().skip(start).take(prefetch).for_each(|&x| fetch_arcs(succ, x));
    }
    for j in range {
        prefetch_ahead(s, list, j, prefetch);
        let u = list[j];
        if let Some(f) = floor
            && s.dist.get(u as usize) < f
        {
            cn.stale += 1;
            continue;
        }
        if s.split > 0 {
            // A hub's arcs go to the round's queue in pieces that idle threads take
            // (super::help); the vertex counts as expanded once, here.
            let degree = (succ.offsets[u as usize + 1] - succ.offsets[u as usize]) as usize;
            if degree > s.split && s.help.publish_hub(u, degree, s.split) {
                cn.expanded += 1;
                continue;
            }
        }
        relax(s, succ, u, bins, spare, cn);
    }
}

/// While entry `j` of `list` is expanded, the prefetches for the entries after it: the row
/// offsets and δ of entry j + 2k, the arcs of entry j + k and the heads' δ of entry j + ⌈k/2⌉
/// (k = `prefetch`; entries past the list's end are skipped). Nothing when k = 0, the default.
#[inline]
pub(super) fn prefetch_ahead<C: Cells + ?Sized>(s: &Shared<C>, list: &[VertexId], j: usize, prefetch: usize) {
    if prefetch == 0 {
        return;
    }
    let succ = s.succ;
    if let Some(&x) = list.get(j + 2 * prefetch) {
        fetch(succ.offsets.as_ptr().wrapping_add(x as usize));
        fetch(s.dist.addr(x as usize));
    }
    if let Some(&x) = list.get(j + prefetch) {
        fetch_arcs(succ, x);
    }
    if let Some(&x) = list.get(j + prefetch.div_ceil(2)) {
        let lo = succ.offsets[x as usize] as usize;
        let hi = (succ.offsets[x as usize + 1] as usize).min(lo + 32);
        for &v in &succ.targets[lo..hi] {
            fetch(s.dist.addr(v as usize));
        }
    }
}

/// Prefetches the first 64 arcs of `x` (heads and weights).
#[inline]
fn fetch_arcs(succ: &Csr, x: VertexId) {
    let (lo, hi) = (succ.offsets[x as usize] as usize, succ.offsets[x as usize + 1] as usize);
    let hi = hi.min(lo + 64);
    let mut k = lo;
    while k < hi {
        fetch(succ.targets.as_ptr().wrapping_add(k));
        fetch(succ.weights.as_ptr().wrapping_add(k));
        k += 16;
    }
    if hi > lo {
        fetch(succ.targets.as_ptr().wrapping_add(hi - 1));
        fetch(succ.weights.as_ptr().wrapping_add(hi - 1));
    }
}

/// A hint to bring the line of `p` into L1; never faults, whatever the address.
#[inline(always)]
fn fetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch has no architectural effect and never faults.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast())
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Relaxes every arc of `u` against δ(u) now; each lowered head goes into this thread's bin of
/// its new δ.
#[inline]
pub(super) fn relax<C: Cells + ?Sized>(
    s: &Shared<C>,
    succ: &Csr,
    u: VertexId,
    bins: &mut Vec<Vec<VertexId>>,
    spare: &mut Vec<Vec<VertexId>>,
    cn: &mut Counts,
) {
    let r = succ.offsets[u as usize] as usize..succ.offsets[u as usize + 1] as usize;
    cn.expanded += 1;
    if s.pred.is_some() {
        pull(s, u);
    }
    relax_arcs(s, u, r, bins, spare, cn);
}

/// In-arcs a vertex may have for [`pull`] (Wasp: the arcs of one cache line).
pub(super) const PULL_BELOW: usize = 8;

/// δ(u) now, first lowered from u's predecessors' δ when `s.pred` is set and u has at most
/// [`PULL_BELOW`] in-arcs (`SSSP_DS_PULL=1`): Wasp's pull before a push (D'Antonio et al.,
/// SC'25, `relax_pull_safe` in `src/sssp.cc`, there over the arcs of an undirected graph, here
/// over the in-arcs of any graph). A vertex expanded before its δ is final then often expands
/// at a lower δ, or its neighbour's pending improvement arrives before it is binned again.
#[inline]
pub(super) fn pull<C: Cells + ?Sized>(s: &Shared<C>, u: VertexId) -> Distance {
    let mut du = s.dist.get(u as usize);
    let Some(pred) = s.pred else { return du };
    let p = pred.offsets[u as usize] as usize..pred.offsets[u as usize + 1] as usize;
    if p.len() > PULL_BELOW {
        return du;
    }
    for (&x, &w) in pred.targets[p.clone()].iter().zip(&pred.weights[p]) {
        let d = s.dist.get(x as usize).saturating_add(Distance::from(w));
        if d < du && s.dist.lower(u as usize, d) {
            du = d;
        }
    }
    du
}

/// Relaxes the arcs `r` (indices into the successor lists; all of `u`'s or a piece of them)
/// against δ(u) now, counting the arcs (not the vertex).
#[inline]
pub(super) fn relax_arcs<C: Cells + ?Sized>(
    s: &Shared<C>,
    u: VertexId,
    r: std::ops::Range<usize>,
    bins: &mut Vec<Vec<VertexId>>,
    spare: &mut Vec<Vec<VertexId>>,
    cn: &mut Counts,
) {
    let succ = s.succ;
    let du = s.dist.get(u as usize);
    cn.arcs += r.len() as u64;
    if let Some(p) = s.packed {
        relax_row(s, du, p.arcs[r].iter().map(|&a| (p.head(a), p.weight(a))), bins, spare, cn);
    } else {
        relax_row(s, du, succ.targets[r.clone()].iter().copied().zip(succ.weights[r].iter().copied()), bins, spare, cn);
    }
}

/// The relax loop of [`relax_arcs`] over one row's (head, weight) pairs, whichever layout they
/// are read from. Always inlined: as a closure called per arc it was not, and cost Kronecker
/// 21 a call per arc (lease 18 call 1: 1.07× GAP against lease 17's 1.48×).
#[inline(always)]
fn relax_row<C: Cells + ?Sized>(
    s: &Shared<C>,
    du: Distance,
    arcs: impl Iterator<Item = (VertexId, Weight)>,
    bins: &mut Vec<Vec<VertexId>>,
    spare: &mut Vec<Vec<VertexId>>,
    cn: &mut Counts,
) {
    for (v, w) in arcs {
        let nd = du + Distance::from(w);
        if s.dist.lower(v as usize, nd) {
            cn.pushes += 1;
            let b = (nd / s.delta) as usize;
            while b >= bins.len() {
                bins.push(spare.pop().unwrap_or_default());
            }
            bins[b].push(v);
        }
    }
}
