//! Δ-stepping's fast path for `run_to_end` (`launch=fast`, the default): GAP's `DeltaStep`
//! ([gapbs] `sssp.cc`) on one thread or on `threads` threads, in **one parallel region for the
//! whole run**: the process's persistent team ([`super::team`], OpenMP's hot threads) runs the
//! workers, which meet only at a spin-then-futex barrier ([`FutexBarrier`]) between rounds. Each thread keeps its own bins
//! (thread-local, like GAP's `local_bins`); a round relaxes every arc of the shared frontier —
//! the union of every thread's part, its bin of the lowest non-empty index over all threads,
//! handed out in chunks from a shared counter (GAP's `schedule(dynamic, 64)`; smaller chunks
//! for a small frontier, so that every thread takes part and seeds its fused bin) — then each
//! thread keeps relaxing its own small current bin alone ("bin fusion", fewer than 1 000
//! vertices, saving rounds on roads; on fewer than 8 threads a straggler stops fusing once half
//! the threads wait and leaves its bin to a shared round), and the threads agree on the next bin. Two barriers per
//! round, like GAP's two `omp barrier`s; no thread copies its bin into a shared array (the
//! chunk index maps into the owners' parts directly).
//!
//! δ is kept in 32-bit cells while the graph's distances fit (as GAP's `WeightT`), halving the
//! cache footprint of the random δ reads, set to ∞ and copied out at the end by every thread in
//! slices; the 32-bit array and each thread's bins are kept for the next run (warm memory, no
//! allocation or page faults inside the timed region, as GAP's hot OpenMP threads reuse theirs).
//! Measured against GAP on 16 cores in `bench/results/cpu-peers-2026-11-26/` (lease-3, lease-4:
//! the hot team and the adaptive chunk took luxembourg from 0.44× to 1.6× GAP, NY from 0.49× to
//! 0.93–1.10×); `SSSP_DS_CHUNK` / `SSSP_DS_SHARE` switch GAP's rules back on for such comparisons.
//!
//! What differs from the stepped phases ([`super::DeltaSteppingStepper::step`]): no light/heavy
//! split and no synchronous phases — a vertex is pushed into a bin every time a relaxation
//! lowers it, and arcs see δ as it is now — so the rounds depend on the interleaving and are
//! not recorded one by one. The distances are the same (tests/algorithms.rs).
//!
//! Tried and measured slower at 16 threads (lease 5, README there): bin entries stamped with
//! the δ they were pushed with, relaxed only while δ still equals it. It saves the duplicate
//! relaxations GAP's floor test lets through (9 % fewer on NY on one thread) but doubles the
//! bins' bytes and leaves each lowered vertex to the one thread that binned it last: NY 5.06
//! against 4.54 ms, luxembourg 2.73 against 2.38 ms at 16 threads in the same call.
//!
//! Lease 7 (interleaved with GAP in one call, all four graphs): the stalls of lease 6 (15–28 %
//! of road runs > 2× the median) did not come back (2–3 %, GAP 0–5 %); a team that stays hot
//! 50 ms between runs ([`super::team`]) won on the roads, pinning lost, yielding spinners
//! (`SSSP_DS_YIELD=1`) and the GPU probe made no difference.
//!
//! Tried and slower at 16 threads (lease 8): software prefetch of the next frontier vertices'
//! offsets, arcs and heads' δ ([`expand`], `SSSP_DS_PREFETCH=k`; [`PREFETCH`] has the numbers),
//! 1.6× faster on one thread on scale-19 graphs, 13–14 % slower on 16. The work itself is
//! GAP's: the same vertices expanded, arcs scanned and bin entries popped at the same Δ
//! (`SSSP_DS_COUNT=1` prints a run's [`Counts`]; lease-8/counts-scale19.txt).
//!
//! Kept (lease 9): hubs of more than [`SPLIT`] arcs cut into pieces that every thread takes
//! from a queue before the barrier ([`super::help`]): Kronecker 21 at 16 threads 57.3 against
//! 79.5 ms without, barrier share 3 % against 23 %, 1.14× GAP (90 % interval 1.10–1.22). Not
//! kept: a fused bin's overflow for idle threads (`SSSP_DS_STEAL`), 5–10 % slower on the roads.
//! Lease 10: the split only where a vertex has more than [`SPLIT`] arcs ([`split_rule`]);
//! Kronecker 21 1.21× GAP (1.15–1.25), the split 1.23× faster there; the auto Δ doubled
//! (`SSSP_DS_DELTA_X=2`) 10 % slower on Kronecker, undecided elsewhere: not kept.
//!
//! Tried and not faster (lease 6, interleaved A/B in one call, 16 rounds of fresh processes):
//! one barrier per round instead of two ([`super::fast1`], `SSSP_DS_BARRIERS=1`). NY 4.68
//! against 4.49 ms, luxembourg 2.69 against 2.75, Kronecker 21 92.1 against 85.6 (medians;
//! bootstrap 90 % intervals of old / new 0.82–1.30, 0.75–1.29, 0.82–1.27: no difference
//! resolvable). The barrier share stayed 30 % (NY), 44 % (lux): what the threads wait for is
//! the imbalance of the fused work, not the second barrier's latency.
//!
//! Lease 14: on road-like graphs ([`modes`]) the default is no rounds at all — Wasp's
//! asynchronous buckets with priority-aware work stealing ([`super::wasp`]) and the pull before
//! a push ([`super::relax::pull`]): NY 1.21–1.28× GAP against the rounds' 0.98–1.00× in the same
//! calls, luxembourg 2.22× against 1.78×. The rounds stay on the 21-scale graphs.
//!
//! Lease 17: on skewed graphs of mean degree ≥ 10 (GAP's relabelling rule) the rounds run on
//! the graph renumbered by degree, hubs first ([`crate::graph::Graph::degree_relabelled`],
//! built untimed in [`prepare`]), and copy δ back through the permutation: Kronecker 21 1.15×
//! faster (A/B 0.869, 0.838–0.909, 41 rounds), 1.48× GAP (1.41–1.53) against 1.28× without.
//!
//! Tried and slower at 16 threads (lease 18): each arc read as one 32-bit word, head and weight
//! packed ([`packed`], `SSSP_DS_PACK=1`), half the bytes a round streams: Kronecker 21 9 %
//! slower, uniform random 21 even. Pooled over 71 rounds with lease 17, the rounds on the graph
//! renumbered by degree are 1.48× GAP (1.44–1.53) on Kronecker 21.
//!
//! Lease 19: each row of the renumbered graph sorted by head (GAP's `RelabelByDegree` does),
//! so a row's δ reads run upward from the hubs' lines: 8 % faster on Kronecker 21 at 16
//! threads, 1.63× GAP (1.59–1.67, 53 rounds on three hosts).

use super::barrier::{FutexBarrier, Padded};
pub use super::relax::Counts;
use super::relax::expand;
use crate::algo::SolveError;
use crate::graph::{Csr, Distance, Graph, INF, PackedArcs, VertexId};
use std::cell::{RefCell, UnsafeCell};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, AtomicUsize, Ordering::*};
use std::time::{Duration, Instant};

/// GAP's `kBinSizeThreshold`: a thread relaxes its current bin alone while it holds fewer
/// vertices than this.
const FUSE_BELOW: usize = 1000;
/// A straggler leaves its bin to a shared round only on fewer threads than this. Measured on
/// NY and luxembourg (bench/results/cpu-peers-2026-11-26, leases 4–5): sharing pays on 2–4
/// threads (NY 11.5 against 13.8 ms on 2) but doubles the rounds, and at 16 threads each extra
/// round's two barriers cost more than the tail they balance (NY 4.1 / 4.2 ms without against
/// 4.3 / 5.1 ms with, luxembourg 1.9 / 2.2 against 2.1 / 2.7 ms, in two leases); at 8 threads
/// NY is even and luxembourg 1.9 against 2.4 ms.
pub(super) const SHARE_BELOW_THREADS: usize = 8;
/// A prefetch distance for tests and for `SSSP_DS_PREFETCH` A/Bs; the default is none.
/// Measured (lease 8 of `bench/results/cpu-peers-2026-11-26/`): on one thread of this
/// repository's build machine prefetch 8 took GAP's scale-19 graphs from 189 to 132 ms (uniform
/// random) and 107 to 67 ms (Kronecker), but scale 15 from 2.0 to 3.0 ms and NY from 10.4 to
/// 11.1 ms; on 16 cores, interleaved with GAP, it was slower everywhere: Kronecker 21 by 14 %
/// (90 % interval of no-prefetch / prefetch 1.03–1.14, 3 rounds), uniform random 21 by 13 %
/// (2 rounds), NY by 13 % (0.87–0.91, 12 rounds), luxembourg even. With 16 threads missing at
/// once the misses already overlap; the prefetch's own loads and lines only add traffic. In the
/// asynchronous run ([`super::wasp`], lease 15 call 5) 4–7 % slower on NY, even on luxembourg.
#[cfg_attr(not(test), allow(dead_code))]
pub(super) const PREFETCH: usize = 8;
/// Vertices of the frontier a thread takes at a time at most (GAP's `schedule(dynamic, 64)`).
pub(super) const CHUNK: usize = 64;
/// Arcs per piece of a hub ([`split_rule`]): a few µs of a thread's relaxing, long against one
/// claim from the shared queue, short against a Kronecker hub (10⁴–10⁵ arcs at scale 21).
pub(super) const SPLIT: usize = 2048;

/// The default `split` ([`Knobs::split`]) of a graph: hubs are cut at [`SPLIT`] arcs where
/// some vertex has more than [`SPLIT`] arcs ([`Graph::max_out_degree`], Kronecker), never
/// elsewhere — road networks (a few arcs a vertex) and uniform random graphs (scale 21: at most
/// ~70) have nothing to split, and their rounds would pay the queue's drain for nothing (lease 9,
/// uniform 21: 106.8 ms without the split against 112.7 ms with it, 2 rounds). Lease 9's rule,
/// mean degree > 4, split uniform graphs too.
pub(super) fn split_rule(graph: &Graph) -> usize {
    if graph.max_out_degree() > SPLIT { SPLIT } else { 0 }
}
/// Chunks per thread a round's frontier is cut into at least: a road frontier of a few hundred
/// vertices in chunks of 64 kept all but a few threads idle, and each vertex taken seeds the
/// taker's fused bin, so the chunk shrinks (to 1) until every thread gets some.
pub(super) const CHUNKS_PER_THREAD: usize = 4;
pub(super) const NO_BIN: u64 = u64::MAX;
/// Vertex ids a thread keeps allocated in its spare bins between runs (16 MiB).
const KEEP_IDS: usize = 4 << 20;
/// The 32-bit δ array is kept between runs up to this many vertices (64 MiB).
const KEEP_CELLS: usize = 16 << 20;

/// Switches for benchmarks that measure each departure from GAP in one process (read once).
#[derive(Clone, Copy)]
pub(super) struct Knobs {
    /// `SSSP_DS_CHUNK=k` (k ≥ 1) fixes the chunk at k vertices (GAP: 64; unset = adaptive).
    pub(super) chunk: usize,
    /// `SSSP_DS_SHARE=0` lets a thread fuse its bin while the others wait (GAP's rule);
    /// `SSSP_DS_SHARE=k` (k ≥ 1) leaves a straggler's bin to a shared round only once it holds
    /// k vertices per thread. Unset: 1 below [`SHARE_BELOW_THREADS`] threads, else 0.
    pub(super) share: Option<usize>,
    /// `SSSP_DS_FUSE=k`: fuse bins below k vertices (unset = GAP's [`FUSE_BELOW`]).
    pub(super) fuse: usize,
    /// `SSSP_DS_BARRIERS=1`: one barrier per round ([`super::fast1::worker`]); unset or 2:
    /// GAP's two ([`worker`]).
    pub(super) one_barrier: bool,
    /// `SSSP_DS_PREFETCH=k` (k ≥ 1): while relaxing a frontier, a fused bin or the asynchronous
    /// run's chunks ([`super::relax::prefetch_ahead`]), prefetch the
    /// offsets and δ of the vertex 2k places ahead, the arcs of the one k ahead and the heads'
    /// δ of the one ⌈k/2⌉ ahead; 0 or unset: no prefetch (GAP's loop; see [`PREFETCH`]).
    pub(super) prefetch: usize,
    /// `SSSP_DS_COUNT=1`: print each fast run's work counts ([`Counts`]) to stderr.
    pub(super) count: bool,
    /// `SSSP_DS_SPLIT=k`: a vertex with more than k arcs is cut into pieces of k arcs that
    /// idle threads take ([`super::help`]); 0: never. Unset: [`split_rule`].
    pub(super) split: Option<usize>,
    /// `SSSP_DS_STEAL=k` (k ≥ 1): a fused bin past k vertices queues the rest for idle
    /// threads ([`super::help`]) while any thread is idle; 0 or unset: never.
    pub(super) steal: usize,
    /// `SSSP_DS_DELTA_X=k` (k > 0, e.g. 2 or 0.5): the auto Δ ([`super::auto_delta`]) times k
    /// on the fast path, for an A/B of a wider or narrower bucket; unset or not positive: the
    /// rule's Δ.
    pub(super) delta_x: f64,
    /// `SSSP_DS_ASYNC=1` / `=0`: Wasp's asynchronous buckets with priority-aware work stealing
    /// ([`super::wasp`]) instead of rounds, on more than one thread / never. Unset: [`modes`].
    pub(super) asynch: Option<bool>,
    /// `SSSP_DS_PULL=1` / `=0`: on more than one thread, a vertex's δ is first lowered from
    /// its in-arcs before its arcs are relaxed ([`super::relax::pull`]) / never. Unset:
    /// with the asynchronous run ([`modes`]).
    pub(super) pull: Option<bool>,
    /// `SSSP_DS_RELABEL=1` / `=0`: the rounds work on the graph renumbered by degree
    /// ([`Graph::degree_relabelled`], built untimed with the solver, like the CSR) and copy δ
    /// back in the original numbering / on the graph as read. Unset: where GAP's rule
    /// ([`crate::graph::worth_relabelling`]) says so, never on the asynchronous run.
    pub(super) relabel: Option<bool>,
    /// `SSSP_DS_PACK=1`: the rounds read each arc as one 32-bit word, head and weight packed
    /// ([`Graph::packed_successors`], built untimed with the solver), where the arcs fit a
    /// word; unset or 0: the CSR's two arrays. Off by default: 9 % slower on Kronecker 21 at
    /// 16 threads, even on uniform random 21 (lease 18; [`packed`]).
    pub(super) pack: Option<bool>,
}

/// Vertices of at most this many arcs make a graph "road-like" for [`modes`] (the GPU's
/// `nf::hubs` bound): road networks (≤ ~10) and grids (4); not GAP's 21-scale uniform random
/// (~70) or Kronecker (10⁴–10⁵) graphs.
pub(super) const ASYNC_MAX_DEGREE: usize = 32;

/// Whether a run on `threads` threads is asynchronous ([`super::wasp`]) and pulls
/// ([`super::relax::pull`]): both where the knobs say so, else both on road-like graphs (no
/// vertex of more than [`ASYNC_MAX_DEGREE`] arcs) and neither elsewhere. Measured on 16 cores
/// beside GAP (`bench/results/cpu-peers-2026-11-26/lease-14`): on NY and luxembourg the
/// asynchronous run with the pull is 1.23× and 1.16× faster than the rounds (call 4; lease 15
/// call 4: 1.25× on both at 16 threads, 1.13–1.26× at 4 and 8, even at 2); on Kronecker 21 and
/// uniform random 21 the asynchronous run is 27 % and 19 % slower (lease 14 call 1) and the pull
/// alone on the rounds undecided (1.03×, 1.04×).
pub(super) fn modes(graph: &Graph, threads: usize, knobs: Knobs) -> (bool, bool) {
    if threads <= 1 {
        return (false, false);
    }
    let road = graph.max_out_degree() <= ASYNC_MAX_DEGREE;
    let asynch = knobs.asynch.unwrap_or(road);
    (asynch, knobs.pull.unwrap_or(asynch))
}

pub(super) fn knobs() -> Knobs {
    static KNOBS: std::sync::OnceLock<Knobs> = std::sync::OnceLock::new();
    *KNOBS.get_or_init(|| {
        let var = |k| std::env::var(k).ok().and_then(|v| v.parse::<usize>().ok());
        Knobs {
            chunk: var("SSSP_DS_CHUNK").unwrap_or(0),
            share: var("SSSP_DS_SHARE"),
            fuse: var("SSSP_DS_FUSE").unwrap_or(FUSE_BELOW),
            one_barrier: var("SSSP_DS_BARRIERS") == Some(1),
            prefetch: var("SSSP_DS_PREFETCH").unwrap_or(0),
            count: var("SSSP_DS_COUNT").is_some_and(|c| c > 0),
            split: var("SSSP_DS_SPLIT"),
            steal: var("SSSP_DS_STEAL").unwrap_or(0),
            delta_x: std::env::var("SSSP_DS_DELTA_X")
                .ok()
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|x| x.is_finite() && *x > 0.0)
                .unwrap_or(1.0),
            asynch: var("SSSP_DS_ASYNC").map(|v| v == 1),
            pull: var("SSSP_DS_PULL").map(|v| v == 1),
            relabel: var("SSSP_DS_RELABEL").map(|v| v == 1),
            pack: var("SSSP_DS_PACK").map(|v| v == 1),
        }
    })
}

/// The 32-bit δ array of the last run, for the next (taken by one run at a time).
static NARROW: Mutex<Vec<AtomicU32>> = Mutex::new(Vec::new());

thread_local! {
    /// This thread's emptied bins from earlier runs, reused before anything is allocated.
    pub(super) static SPARE: RefCell<Vec<Vec<VertexId>>> = const { RefCell::new(Vec::new()) };
}

/// What a fast run did.
#[derive(Clone, Debug, Default)]
pub struct FastRun {
    /// Rounds (shared frontiers), GAP's `iter`; in the asynchronous run ([`super::wasp`]) the
    /// buckets thread 0 opened.
    pub rounds: u32,
    /// Per thread (index = thread), the time it worked and the time it waited at barriers.
    pub threads: Vec<ThreadSplit>,
    /// The work, summed over the threads (read by the tests; `SSSP_DS_COUNT=1` prints it).
    #[allow(dead_code)]
    pub counts: Counts,
}

/// One thread's time in a fast run.
#[derive(Clone, Copy, Debug, Default)]
pub struct ThreadSplit {
    /// Relaxing, binning and copying, ms.
    pub busy_ms: f64,
    /// Waiting at the round barriers, ms; in the asynchronous run ([`super::wasp`]), idle with
    /// nothing of its own and nothing to steal.
    pub barrier_ms: f64,
}

impl ThreadSplit {
    /// As the records' per-thread split (no locks here).
    pub fn time(&self) -> crate::algo::ThreadTime {
        crate::algo::ThreadTime { work_ms: self.busy_ms, barrier_ms: self.barrier_ms, ..Default::default() }
    }
}

/// δ cells: read and lower with an atomic minimum.
pub(super) trait Cells: Sync {
    fn len(&self) -> usize;
    fn get(&self, v: usize) -> Distance;
    /// Lowers δ(v) to `d` if that is lower; true when this call lowered it.
    fn lower(&self, v: usize, d: Distance) -> bool;
    /// Sets δ(v) to 0 (the source) or ∞.
    fn reset(&self, v: usize, source: bool);
    /// Where δ(v) lives, for a prefetch (any v: the address is never dereferenced).
    fn addr(&self, v: usize) -> *const u8;
}

impl Cells for [AtomicI64] {
    fn len(&self) -> usize {
        <[AtomicI64]>::len(self)
    }
    #[inline]
    fn get(&self, v: usize) -> Distance {
        self[v].load(Relaxed)
    }
    #[inline]
    fn lower(&self, v: usize, d: Distance) -> bool {
        d < self[v].load(Relaxed) && d < self[v].fetch_min(d, Relaxed)
    }
    fn reset(&self, v: usize, source: bool) {
        self[v].store(if source { 0 } else { INF }, Relaxed);
    }
    #[inline]
    fn addr(&self, v: usize) -> *const u8 {
        self.as_ptr().wrapping_add(v).cast()
    }
}

/// 32-bit δ, `u32::MAX` = ∞; only for graphs where [`crate::algo::dijkstra::fits_u32`] holds
/// (every relaxation value is a simple path's length plus one arc, below `u32::MAX`).
impl Cells for [AtomicU32] {
    fn len(&self) -> usize {
        <[AtomicU32]>::len(self)
    }
    #[inline]
    fn get(&self, v: usize) -> Distance {
        match self[v].load(Relaxed) {
            u32::MAX => INF,
            d => Distance::from(d),
        }
    }
    #[inline]
    fn lower(&self, v: usize, d: Distance) -> bool {
        let d = d as u32;
        d < self[v].load(Relaxed) && d < self[v].fetch_min(d, Relaxed)
    }
    fn reset(&self, v: usize, source: bool) {
        self[v].store(if source { 0 } else { u32::MAX }, Relaxed);
    }
    #[inline]
    fn addr(&self, v: usize) -> *const u8 {
        self.as_ptr().wrapping_add(v).cast()
    }
}

/// Each thread's part of the current frontier. Written only by its owner between barrier (B)
/// and barrier (A) of the next round, read by every thread only between (A) and (B): the
/// barriers order every access, so no lock is taken per round (a lock per part cost every
/// thread T atomic read-modify-writes on shared lines per round).
pub(super) struct Parts(pub(super) Vec<UnsafeCell<Vec<VertexId>>>);

// SAFETY: see the type's docs; the barrier's Release/Acquire pairs make the owner's writes
// visible to the readers and the readers' reads finish before the owner writes again.
unsafe impl Sync for Parts {}

impl Parts {
    /// SAFETY: only between (A) and (B) of a round.
    pub(super) unsafe fn read(&self, t: usize) -> &[VertexId] {
        unsafe { &*self.0[t].get() }
    }

    /// SAFETY: only thread `t`, only between (B) and the next (A).
    #[allow(clippy::mut_from_ref)]
    pub(super) unsafe fn write(&self, t: usize) -> &mut Vec<VertexId> {
        unsafe { &mut *self.0[t].get() }
    }
}

/// Shared state of one run.
pub(super) struct Shared<'a, C: Cells + ?Sized> {
    pub(super) succ: &'a Csr,
    pub(super) dist: &'a C,
    /// Where δ goes at the end when `dist` is not that array already.
    pub(super) out: Option<&'a [AtomicI64]>,
    /// With `SSSP_DS_RELABEL=1`: vertex v of `out` is vertex `new_of[v]` of `dist`.
    pub(super) new_of: Option<&'a [VertexId]>,
    pub(super) source: VertexId,
    pub(super) delta: Distance,
    pub(super) threads: usize,
    pub(super) parts: Parts,
    /// Next chunk of the frontier to hand out (every thread bumps it: a line of its own).
    pub(super) next_chunk: Padded<AtomicUsize>,
    /// The lowest non-empty bin over all threads, per round parity (GAP's `shared_indexes`).
    pub(super) next_bin: Padded<[AtomicU64; 2]>,
    pub(super) stop: Padded<AtomicBool>,
    /// Set δ to ∞ (the source to 0) first, each thread its slice: the array is reused.
    pub(super) init: bool,
    pub(super) barrier: FutexBarrier,
    /// The one-barrier rounds' state ([`super::fast1`]).
    pub(super) one: super::fast1::OneBarrier,
    /// The switches of this run ([`knobs`] outside tests).
    pub(super) knobs: Knobs,
    /// How far [`expand`] prefetches (`knobs.prefetch`).
    pub(super) prefetch: usize,
    /// Hubs past this many arcs are split ([`Knobs::split`]; 0: never, always with one
    /// barrier per round or one thread).
    pub(super) split: usize,
    /// Fused bins past this many vertices are shared ([`Knobs::steal`]; 0: never, as `split`).
    pub(super) steal: usize,
    /// The round's queue of split hubs and shared fused work.
    pub(super) help: super::help::Help,
    /// The asynchronous run's per-thread state ([`Knobs::asynch`] on more than one thread).
    pub(super) slots: Option<super::wasp::Slots>,
    /// In-arcs for the pull before a push ([`super::relax::pull`], `SSSP_DS_PULL=1`).
    pub(super) pred: Option<&'a Csr>,
    /// `succ`'s arcs one word each ([`Knobs::pack`]), read by [`super::relax::relax_arcs`]
    /// instead of `succ.targets` and `succ.weights`.
    pub(super) packed: Option<&'a PackedArcs>,
}

impl<C: Cells + ?Sized> Shared<'_, C> {
    /// Where vertex v of the graph as read lives in `dist` (v itself unless relabelled).
    #[inline]
    pub(super) fn index(&self, v: usize) -> usize {
        self.new_of.map_or(v, |p| p[v] as usize)
    }
}

/// Runs Δ-stepping from the δ already in `dist` (the source at 0, everything else ∞) on
/// `threads` threads (at least 1; one parallel region on the persistent team for the whole
/// run); `dist` holds the distances afterwards ([`INF`] = unreachable). `cancel` is read once
/// per round. Errors: [`SolveError::Cancelled`].
pub fn run(
    graph: &Graph,
    dist: &[AtomicI64],
    source: VertexId,
    delta: Distance,
    threads: usize,
    cancel: &AtomicBool,
) -> Result<FastRun, SolveError> {
    let threads = threads.max(1);
    if !crate::algo::dijkstra::fits_u32(graph) {
        return drive(graph, dist, None, false, source, delta, threads, cancel, knobs());
    }
    let knobs = knobs();
    let (graph, source, new_of) = match relabelled(graph, threads, knobs) {
        Some(r) => (&r.graph, r.new_of[source as usize], Some(&r.new_of[..])),
        None => (graph, source, None),
    };
    let n = graph.n();
    // Another run holding the kept array (two solves at once) gets one of its own.
    let mut kept = NARROW.try_lock().ok();
    let mut narrow = kept.as_mut().map(|k| std::mem::take(&mut **k)).unwrap_or_default();
    if narrow.len() < n {
        // Once per size; the workers set the values.
        narrow = (0..n).map(|_| AtomicU32::new(0)).collect();
        crate::graph::huge::advise(&narrow);
    }
    let result = drive(graph, &narrow[..n], Some((dist, new_of)), true, source, delta, threads, cancel, knobs);
    if let Some(k) = kept.as_mut()
        && narrow.len() <= KEEP_CELLS
    {
        **k = narrow;
    }
    result
}

/// The renumbered graph a run works on ([`Knobs::relabel`]); None: the graph as read. Only the
/// 32-bit δ path renumbers (a graph whose distances do not fit is solved as read, by [`run`]
/// and [`prepare`] alike). The asynchronous run's road networks keep their own numbering (a
/// file's order is already local; breadth-first order was slower there, lease 15 call 6).
fn relabelled(graph: &Graph, threads: usize, knobs: Knobs) -> Option<&crate::graph::Relabelled> {
    if !crate::algo::dijkstra::fits_u32(graph) {
        return None;
    }
    let on = knobs.relabel.unwrap_or_else(|| {
        // Once the copy is built (prepare, untimed) the timed run does not read /proc/meminfo.
        !modes(graph, threads, knobs).0
            && crate::graph::worth_relabelling(graph)
            && (graph.degree_relabelled_if_built().is_some() || copy_fits(graph))
    });
    on.then(|| graph.degree_relabelled())
}

/// Whether the renumbered copy (a second CSR, ω and the permutation) takes at most half of the
/// memory the machine has available now: a graph loaded close to the machine's memory is solved
/// as read rather than failing an allocation. True where the memory is unknown.
fn copy_fits(graph: &Graph) -> bool {
    let copy = graph.successors().bytes() as u64 + graph.n() as u64 * 12;
    crate::generate::machine_memory().is_none_or(|(available, _)| copy <= available / 2)
}

/// The packed arcs a run's rounds read with `SSSP_DS_PACK=1` ([`Knobs::pack`]), where they
/// fit a word; None: the CSR's two arrays (the default). Forced on, like `SSSP_DS_RELABEL=1`,
/// it takes no memory guard, so no timed run reads `/proc/meminfo`. The asynchronous run's
/// loop always reads the CSR. `graph` is the one the run works on, renumbered or not.
///
/// Why not the default: one 4-byte stream an arc instead of two of 4 bytes halves the bytes a
/// round streams, and on 2 threads of the build machine Kronecker 20 ran 1.12–1.18× faster.
/// On 16 cores beside GAP (bench/results/cpu-peers-2026-11-26/lease-18) it was slower:
/// Kronecker 21 48.95 against 45.51 ms unpacked (A/B 1.093×, 90 % 1.038–1.143, 30 rounds),
/// uniform random 21 even (0.990×, 0.967–1.038, 12 rounds). With every core missing at once the
/// arcs' bytes are not what the rounds wait for.
fn packed(graph: &Graph, threads: usize, knobs: Knobs) -> Option<&PackedArcs> {
    if knobs.pack == Some(true) && !modes(graph, threads, knobs).0 { graph.packed_successors() } else { None }
}

/// Makes the first timed run of a process start as warm as the later ones: starts the team
/// ([`super::team::prepare`]), builds the renumbered copy where [`run`] will use it and sizes
/// the kept 32-bit δ array for `graph` now, so neither thread start-up, the copy's build nor
/// the array's page faults fall inside [`run`]. Called when the solver is built (untimed, on
/// any number of threads); the array is left alone when another run holds it.
pub fn prepare(graph: &Graph, threads: usize) {
    super::team::prepare(threads);
    let started = Instant::now();
    let graph = match relabelled(graph, threads, knobs()) {
        Some(r) => {
            if knobs().count {
                // Untimed like the CSR's build, but paid once per graph: reported beside the runs.
                eprintln!("relabel: degree order ready in {:.1} ms", started.elapsed().as_secs_f64() * 1e3);
            }
            &r.graph
        }
        None => graph,
    };
    let started = Instant::now();
    if packed(graph, threads, knobs()).is_some() && knobs().count {
        eprintln!("pack: one word an arc ready in {:.1} ms", started.elapsed().as_secs_f64() * 1e3);
    }
    if modes(graph, threads, knobs()).1 {
        // The in-arcs of the pull (relax::pull), built once per graph like the CSR.
        graph.is_symmetric();
    }
    let n = graph.n();
    if n <= KEEP_CELLS
        && crate::algo::dijkstra::fits_u32(graph)
        && let Ok(mut kept) = NARROW.try_lock()
        && kept.len() < n
    {
        // The workers set the values at the start of each run; zero pages are touched here.
        *kept = (0..n).map(|_| AtomicU32::new(0)).collect();
        // δ is read and lowered at random, one access per arc scanned: 2 MiB pages keep it in
        // the TLB's reach (graph::huge).
        crate::graph::huge::advise(&kept);
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn drive<C: Cells + ?Sized>(
    graph: &Graph,
    cells: &C,
    out: Option<(&[AtomicI64], Option<&[VertexId]>)>,
    init: bool,
    source: VertexId,
    delta: Distance,
    threads: usize,
    cancel: &AtomicBool,
    knobs: Knobs,
) -> Result<FastRun, SolveError> {
    let (asynch, pull) = modes(graph, threads, knobs);
    let shared = Shared {
        succ: graph.successors(),
        dist: cells,
        out: out.map(|o| o.0),
        new_of: out.and_then(|o| o.1),
        source,
        delta: delta.max(1),
        threads,
        parts: Parts((0..threads).map(|_| UnsafeCell::new(Vec::new())).collect()),
        next_chunk: Padded(AtomicUsize::new(0)),
        next_bin: Padded([AtomicU64::new(NO_BIN), AtomicU64::new(NO_BIN)]),
        stop: Padded(AtomicBool::new(false)),
        init,
        barrier: FutexBarrier::new(threads),
        one: super::fast1::OneBarrier::new(threads),
        knobs,
        prefetch: knobs.prefetch,
        // The one-barrier rounds (fast1.rs) have no drain before their barrier.
        split: if knobs.one_barrier || threads == 1 { 0 } else { knobs.split.unwrap_or_else(|| split_rule(graph)) },
        steal: if knobs.one_barrier || threads == 1 { 0 } else { knobs.steal },
        help: super::help::Help::take(),
        slots: asynch.then(|| super::wasp::Slots::new(threads, graph.n())),
        // A symmetric graph's rows are its in-arcs too: the pull then reads the arcs the push
        // reads next, no second CSR.
        pred: pull.then(|| if graph.is_symmetric() { graph.successors() } else { graph.predecessors() }),
        packed: if asynch { None } else { packed(graph, threads, knobs) },
    };
    shared.help.reset(threads);
    let rounds = AtomicU64::new(0);
    let counts = Mutex::new(Counts::default());
    let splits: Vec<[AtomicU64; 2]> = (0..threads).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect();
    let work = |t: usize| {
        let start = Instant::now();
        let (r, waited, c) = if shared.slots.is_some() {
            super::wasp::worker(&shared, t, cancel)
        } else if knobs.one_barrier {
            super::fast1::worker(&shared, t, cancel)
        } else {
            worker(&shared, t, cancel)
        };
        let all = start.elapsed();
        if let Ok(mut sum) = counts.lock() {
            sum.add(&c);
        }
        splits[t][0].store(all.saturating_sub(waited).as_nanos() as u64, Relaxed);
        splits[t][1].store(waited.as_nanos() as u64, Relaxed);
        if t == 0 {
            rounds.store(u64::from(r), Relaxed);
        }
    };
    // Every thread runs one worker for the whole run, all at once (the barrier needs that).
    super::team::run(threads, &work);
    let stopped = shared.stop.load(Relaxed);
    let (split, steal) = (shared.split, shared.steal);
    shared.help.keep();
    if stopped {
        return Err(SolveError::Cancelled);
    }
    let ms = |ns: &AtomicU64| ns.load(Relaxed) as f64 * 1e-6;
    let counts = counts.into_inner().unwrap_or_default();
    let rounds = rounds.load(Relaxed) as u32;
    if knobs.count {
        let reached = (0..cells.len()).filter(|&v| cells.get(v) != INF).count().max(1) as f64;
        let c = &counts;
        eprintln!(
            "ds-count n={} m={} threads={threads} delta={delta} prefetch={} split={split} steal={steal} async={} pull={} reached={reached} rounds={rounds} \
expanded={} fused={} arcs={} pushes={} stale={} pieces={} leaves={} expanded/reached={:.4} arcs/m={:.4} pushes/reached={:.4} stale/reached={:.4}",
            graph.n(),
            graph.m(),
            knobs.prefetch,
            asynch,
            match (pull, pull && graph.is_symmetric()) {
                (false, _) => "off",
                (true, true) => "successors (symmetric)",
                (true, false) => "predecessors",
            },
            c.expanded,
            c.fused,
            c.arcs,
            c.pushes,
            c.stale,
            c.pieces,
            c.leaves,
            c.expanded as f64 / reached,
            c.arcs as f64 / graph.m().max(1) as f64,
            c.pushes as f64 / reached,
            c.stale as f64 / reached,
        );
    }
    Ok(FastRun {
        rounds,
        threads: splits.iter().map(|s| ThreadSplit { busy_ms: ms(&s[0]), barrier_ms: ms(&s[1]) }).collect(),
        counts,
    })
}

/// Thread `t`'s slice of the n vertices (for copying δ out).
pub(super) fn slice(n: usize, threads: usize, t: usize) -> std::ops::Range<usize> {
    n * t / threads..n * (t + 1) / threads
}

/// One thread's rounds from δ as it is (the source at 0, everything else ∞); returns the
/// number of rounds, the time spent at barriers and this thread's work.
fn worker<C: Cells + ?Sized>(s: &Shared<C>, t: usize, cancel: &AtomicBool) -> (u32, Duration, Counts) {
    let mut spare = SPARE.with_borrow_mut(std::mem::take);
    if s.init {
        for v in slice(s.dist.len(), s.threads, t) {
            s.dist.reset(v, v == s.source as usize);
        }
    }
    // SAFETY: before the first barrier only thread t touches its part.
    let mine = unsafe { s.parts.write(t) };
    *mine = spare.pop().unwrap_or_default();
    if t == 0 {
        mine.push(s.source);
    }
    let mut bins: Vec<Vec<VertexId>> = Vec::new();
    let mut ends: Vec<usize> = Vec::with_capacity(s.threads);
    let mut round = 0u32;
    let mut curr = 0u64;
    let mut waited = Duration::ZERO;
    let mut cn = Counts::default();
    loop {
        // (A) every part of this round's frontier is in place (δ initialised in round 0), and
        // every thread has read the bin index of the previous parity.
        waited += s.barrier.wait();
        if t == 0 {
            s.next_bin[(round as usize + 1) & 1].store(NO_BIN, Relaxed);
        }
        let floor = curr as Distance * s.delta;
        ends.clear();
        let mut total = 0;
        for k in 0..s.threads {
            // SAFETY: between (A) and (B).
            total += unsafe { s.parts.read(k) }.len();
            ends.push(total);
        }
        let knobs = s.knobs;
        // Shared fused work (`steal`) replaces leaving a straggler's bin to a shared round.
        let share = knobs.share.unwrap_or(usize::from(s.threads < SHARE_BELOW_THREADS && s.steal == 0));
        let chunk = match knobs.chunk {
            0 if s.threads > 1 => (total / (CHUNKS_PER_THREAD * s.threads)).clamp(1, CHUNK),
            0 => CHUNK,
            c => c,
        };
        loop {
            let start = s.next_chunk.fetch_add(chunk, Relaxed);
            if start >= total {
                break;
            }
            let end = (start + chunk).min(total);
            let mut i = start;
            while i < end {
                let k = ends.partition_point(|&e| e <= i);
                // SAFETY: between (A) and (B).
                let part = unsafe { s.parts.read(k) };
                let base = ends[k] - part.len();
                let stop = end.min(ends[k]);
                // A vertex lowered again since it was binned is relaxed from its lower bin.
                expand(s, part, i - base..stop - base, Some(floor), &mut bins, &mut spare, &mut cn, s.prefetch);
                i = stop;
            }
        }
        let c = curr as usize;
        fuse_bin(s, c, &mut bins, &mut spare, &mut cn, knobs, share);
        if s.split > 0 || s.steal > 0 {
            // Split hubs and shared fused work, before this thread's next bin is known.
            waited += s.help.drain(s, c, &mut bins, &mut spare, &mut cn, knobs, share);
        }
        if let Some(b) = (c..bins.len()).find(|&b| !bins[b].is_empty()) {
            s.next_bin[round as usize & 1].fetch_min(b as u64, Relaxed);
        }
        if t == 0 {
            s.stop.store(cancel.load(Relaxed), Relaxed);
        }
        // (B) the frontier is consumed and the next bin is agreed.
        waited += s.barrier.wait();
        if t == 0 {
            // Not before (B): a thread still in the loop above would take a chunk again.
            s.next_chunk.store(0, Relaxed);
            s.help.reset(s.threads);
        }
        let next = s.next_bin[round as usize & 1].load(Relaxed);
        round += 1;
        if next == NO_BIN || s.stop.load(Relaxed) {
            break;
        }
        curr = next;
        // SAFETY: thread t, between (B) and the next (A).
        let part = unsafe { s.parts.write(t) };
        part.clear();
        if let Some(bin) = bins.get_mut(next as usize) {
            std::mem::swap(part, bin);
        }
    }
    if let Some(out) = s.out {
        // Every thread has left the last round (B), so δ is final.
        for v in slice(s.dist.len(), s.threads, t) {
            out[v].store(s.dist.get(s.index(v)), Relaxed);
        }
    }
    // SAFETY: after the last (B) no thread reads the parts any more.
    spare.push(std::mem::take(unsafe { s.parts.write(t) }));
    spare.extend(bins);
    keep(spare);
    (round, waited, cn)
}

/// Keeps this thread's emptied bins for its next run, the largest first, up to [`KEEP_IDS`].
pub(super) fn keep(mut spare: Vec<Vec<VertexId>>) {
    spare.retain(|b| b.capacity() > 0);
    spare.sort_unstable_by_key(|b| std::cmp::Reverse(b.capacity()));
    let mut ids = 0;
    spare.retain_mut(|b| {
        b.clear();
        ids += b.capacity();
        ids <= KEEP_IDS
    });
    // Popped from the end: the smallest go first into the many short-lived bins of a run.
    SPARE.with_borrow_mut(|s| *s = spare);
}

/// Bin fusion (GAP's): while this thread's current bin `c` is non-empty and smaller than
/// `knobs.fuse`, it relaxes the bin itself without another round — unless sharing is on
/// (`share` > 0), the bin holds `share` vertices per thread and half the threads already wait
/// at the barrier: then it is left for the next round, which shares it out in chunks (same bin,
/// same distances). Shared by both workers (two barriers per round here, one in `fast1.rs`).
#[inline]
pub(super) fn fuse_bin<C: Cells + ?Sized>(
    s: &Shared<C>,
    c: usize,
    bins: &mut Vec<Vec<VertexId>>,
    spare: &mut Vec<Vec<VertexId>>,
    cn: &mut Counts,
    knobs: Knobs,
    share: usize,
) {
    while c < bins.len()
        && !bins[c].is_empty()
        && bins[c].len() < knobs.fuse
        && (share == 0
            || bins[c].len() < share * s.threads
            || 2 * (s.barrier.waiting() + s.help.idle(s.threads)) < s.threads)
    {
        // What this pass lowers into bin c goes into a spare vector (no allocation).
        let mut copy = std::mem::replace(&mut bins[c], spare.pop().unwrap_or_default());
        cn.fused += copy.len() as u64;
        let len = copy.len();
        if s.steal > 0 && len > s.steal && s.help.idle(s.threads) > 0 {
            // Past `steal` vertices the rest goes to the threads idle at the drain
            // (super::help); what the queue cannot hold this thread does itself.
            let given = s.help.publish_range(&copy[s.steal..]);
            expand(s, &copy, 0..s.steal, None, bins, spare, cn, s.prefetch);
            expand(s, &copy, s.steal + given..len, None, bins, spare, cn, s.prefetch);
        } else {
            expand(s, &copy, 0..len, None, bins, spare, cn, s.prefetch);
        }
        copy.clear();
        spare.push(copy);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::graph::{Graph, GraphBuilder, VertexLabels, WeightRule};

    /// A seeded random graph for the fast rounds' tests: 3n arcs among the first n − 20 vertices
    /// (the last 20 unreachable), a fifth of weight 0, the rest 0..100; then `per_hub` arcs of
    /// weight 0..`hub_weight` out of each vertex of `hubs`.
    pub(in super::super) fn random_graph(
        name: &str,
        n: u32,
        seed: u64,
        hubs: &[u32],
        per_hub: u32,
        hub_weight: u32,
    ) -> Graph {
        let mut x = seed;
        let mut next = |k: u32| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((x >> 33) % u64::from(k)) as u32
        };
        let mut b = GraphBuilder::new(n as usize, WeightRule::File);
        for _ in 0..n * 3 {
            let (u, v) = (next(n - 20), next(n - 20));
            let w = if next(5) == 0 { 0 } else { next(100) };
            b.push(u, v, Some(w as i32));
        }
        for &hub in hubs {
            for _ in 0..per_hub {
                let v = next(n - 20);
                b.push(hub, v, Some(next(hub_weight) as i32));
            }
        }
        b.build(name.to_string(), None, VertexLabels::Offset(0)).expect("n >= 1")
    }

    /// The asynchronous run with the pull is the default on more than one thread where no
    /// vertex has more than [`ASYNC_MAX_DEGREE`] arcs, the rounds elsewhere; the knobs force
    /// either.
    #[test]
    fn road_like_graphs_run_asynchronously_by_default() {
        let road = random_graph("road-like", 600, 7, &[], 0, 1);
        let hubs = random_graph("hubs", 600, 7, &[3], 400, 100);
        assert!(road.max_out_degree() <= ASYNC_MAX_DEGREE && hubs.max_out_degree() > ASYNC_MAX_DEGREE);
        let auto = Knobs { asynch: None, pull: None, ..knobs() };
        assert_eq!(modes(&road, 4, auto), (true, true));
        assert_eq!(modes(&road, 1, auto), (false, false));
        assert_eq!(modes(&hubs, 4, auto), (false, false));
        assert_eq!(modes(&road, 4, Knobs { asynch: Some(false), ..auto }), (false, false));
        assert_eq!(modes(&road, 4, Knobs { pull: Some(false), ..auto }), (true, false));
        assert_eq!(modes(&hubs, 4, Knobs { asynch: Some(true), ..auto }), (true, true));
    }

    /// A run on the graph renumbered by degree (`SSSP_DS_RELABEL=1`) hands back
    /// Dijkstra's distances in the original numbering, asynchronous or in rounds.
    #[test]
    fn a_relabelled_run_copies_delta_back_in_the_original_numbering() {
        let g = random_graph("random", 600, 0x5eed, &[], 0, 1);
        let r = g.degree_relabelled();
        assert!(r.graph.packs(), "10 bits of head and small weights fit a word");
        let mut seen = vec![false; g.n()];
        for &x in &r.new_of {
            assert!(!std::mem::replace(&mut seen[x as usize], true), "new_of is a permutation");
        }
        for source in [0, 7, 599] {
            let want = crate::algo::dijkstra_distances(&g, source);
            for (threads, one, pack) in
                [(1, false, false), (3, false, true), (3, true, false), (8, false, true), (8, false, false)]
            {
                let dist: Vec<AtomicI64> = (0..g.n()).map(|_| AtomicI64::new(0)).collect();
                let cells: Vec<AtomicU32> = (0..g.n()).map(|_| AtomicU32::new(0)).collect();
                let cancel = AtomicBool::new(false);
                // The packed arcs (SSSP_DS_PACK=1) are read by the rounds only, not the
                // asynchronous run.
                let knobs = Knobs {
                    asynch: Some(!one && !pack),
                    pull: Some(!one),
                    one_barrier: one,
                    pack: Some(pack),
                    ..knobs()
                };
                let out = Some((&dist[..], Some(&r.new_of[..])));
                let from = r.new_of[source as usize];
                drive(&r.graph, &cells[..], out, true, from, 30, threads, &cancel, knobs).expect("not cancelled");
                let got: Vec<Distance> = dist.iter().map(|d| d.load(Relaxed)).collect();
                assert_eq!(got, want, "source {source}, {threads} threads, one barrier {one}, packed {pack}");
            }
        }
    }

    /// The rounds with one barrier ([`super::super::fast1`], only behind `SSSP_DS_BARRIERS=1`
    /// in the binary), with GAP's two and the asynchronous buckets ([`super::super::wasp`],
    /// `SSSP_DS_ASYNC=1`) give Dijkstra's distances on a random graph with zero
    /// weights and unreachable vertices, for several Δ and thread counts (more than cores).
    #[test]
    fn one_barrier_and_two_barrier_rounds_equal_dijkstra() {
        let g = random_graph("random", 600, 0x9e37_79b9_7f4a_7c15, &[], 0, 1);
        // Its arcs both ways: a symmetric graph, whose pull reads the successor rows.
        let mut b = GraphBuilder::new(g.n(), WeightRule::File);
        for u in 0..g.n() as u32 {
            for (v, w) in g.successors().arcs(u) {
                b.push(u, v, Some(w));
                b.push(v, u, Some(w));
            }
        }
        let sym = b.build("symmetric".to_string(), None, VertexLabels::Offset(0)).expect("n >= 1");
        assert!(sym.is_symmetric() && !g.is_symmetric());
        for (g, source) in [(&g, 0), (&g, 7), (&sym, 0), (&sym, 599)] {
            let want = crate::algo::dijkstra_distances(g, source);
            for delta in [1, 30, 1 << 20] {
                for threads in [1, 3, 8] {
                    for (one, prefetch, asynch, pull) in [
                        (false, 0, false, false),
                        (true, 0, false, false),
                        (false, 1, false, false),
                        (false, PREFETCH, false, false),
                        (true, 3, false, false),
                        (false, 0, false, true),
                        (false, 0, true, false),
                        (false, 0, true, true),
                        (false, 3, true, true),
                    ] {
                        let dist: Vec<AtomicI64> = (0..g.n()).map(|_| AtomicI64::new(0)).collect();
                        let cells: Vec<AtomicU32> = (0..g.n()).map(|_| AtomicU32::new(0)).collect();
                        let cancel = AtomicBool::new(false);
                        let knobs =
                            Knobs { one_barrier: one, prefetch, asynch: Some(asynch), pull: Some(pull), ..knobs() };
                        let run =
                            drive(g, &cells[..], Some((&dist, None)), true, source, delta, threads, &cancel, knobs)
                                .expect("not cancelled");
                        let got: Vec<Distance> = dist.iter().map(|d| d.load(Relaxed)).collect();
                        let case = format!(
                            "{}, source {source}, Δ {delta}, {threads} threads, one barrier {one}, prefetch {prefetch}, async {asynch}, pull {pull}",
                            g.name
                        );
                        assert_eq!(got, want, "{case}");
                        let reached = want.iter().filter(|&&d| d != INF).count() as u64;
                        let c = run.counts;
                        // Every reached vertex is expanded at its final δ at least once, and
                        // every arc counted belongs to an expanded vertex.
                        assert!(
                            c.expanded + c.leaves >= reached
                                && c.fused <= c.expanded
                                && c.arcs <= c.expanded * g.m() as u64,
                            "{case}: {c:?}"
                        );
                        assert!(c.pushes + 1 >= reached && c.stale <= c.pushes, "{case}: {c:?}");
                    }
                }
            }
        }
    }
}
