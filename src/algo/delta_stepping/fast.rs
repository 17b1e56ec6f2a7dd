//! Δ-stepping's fast path for `run_to_end` (`launch=fast`, the default): GAP's `DeltaStep`
//! ([gapbs] `sssp.cc`) on one thread or on every thread of the stepper's pool, in **one
//! parallel region for the whole run**: one `broadcast` starts the workers, which meet only at
//! a spin-then-futex barrier ([`FutexBarrier`]) between rounds. Each thread keeps its own bins
//! (thread-local, like GAP's `local_bins`); a round relaxes every arc of the shared frontier —
//! the union of every thread's part, its bin of the lowest non-empty index over all threads,
//! handed out in chunks of 64 from a shared counter (GAP's `schedule(dynamic, 64)`) — then each
//! thread keeps relaxing its own small current bin alone ("bin fusion", fewer than 1 000
//! vertices, saving rounds on roads), and the threads agree on the next bin. Two barriers per
//! round, like GAP's two `omp barrier`s; no thread copies its bin into a shared array (the
//! chunk index maps into the owners' parts directly).
//!
//! δ is kept in 32-bit cells while the graph's distances fit (as GAP's `WeightT`), halving the
//! cache footprint of the random δ reads, and copied out at the end by every thread in slices.
//!
//! What differs from the stepped phases ([`super::DeltaSteppingStepper::step`]): no light/heavy
//! split and no synchronous phases — a vertex is pushed into a bin every time a relaxation
//! lowers it, and arcs see δ as it is now — so the rounds depend on the interleaving and are
//! not recorded one by one. The distances are the same (tests/algorithms.rs).

use super::barrier::FutexBarrier;
use crate::algo::SolveError;
use crate::graph::{Csr, Distance, Graph, INF, VertexId};
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, AtomicUsize, Ordering::*};
use std::time::{Duration, Instant};

/// GAP's `kBinSizeThreshold`: a thread relaxes its current bin alone while it holds fewer
/// vertices than this.
const FUSE_BELOW: usize = 1000;
/// Vertices of the frontier a thread takes at a time (GAP's `schedule(dynamic, 64)`).
const CHUNK: usize = 64;
const NO_BIN: u64 = u64::MAX;

/// What a fast run did.
#[derive(Clone, Debug, Default)]
pub struct FastRun {
    /// Rounds (shared frontiers), GAP's `iter`.
    pub rounds: u32,
    /// Per thread (index = thread), the time it worked and the time it waited at barriers.
    pub threads: Vec<ThreadSplit>,
}

/// One thread's time in a fast run.
#[derive(Clone, Copy, Debug, Default)]
pub struct ThreadSplit {
    /// Relaxing, binning and copying, ms.
    pub busy_ms: f64,
    /// Waiting at the round barriers, ms.
    pub barrier_ms: f64,
}

impl ThreadSplit {
    /// As the records' per-thread split (no locks here).
    pub fn time(&self) -> crate::algo::ThreadTime {
        crate::algo::ThreadTime { work_ms: self.busy_ms, barrier_ms: self.barrier_ms, ..Default::default() }
    }
}

/// δ cells: read and lower with an atomic minimum.
trait Cells: Sync {
    fn len(&self) -> usize;
    fn get(&self, v: usize) -> Distance;
    /// Lowers δ(v) to `d` if that is lower; true when this call lowered it.
    fn lower(&self, v: usize, d: Distance) -> bool;
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
}

/// Each thread's part of the current frontier. Written only by its owner between barrier (B)
/// and barrier (A) of the next round, read by every thread only between (A) and (B): the
/// barriers order every access, so no lock is taken per round (a lock per part cost every
/// thread T atomic read-modify-writes on shared lines per round).
struct Parts(Vec<UnsafeCell<Vec<VertexId>>>);

// SAFETY: see the type's docs; the barrier's Release/Acquire pairs make the owner's writes
// visible to the readers and the readers' reads finish before the owner writes again.
unsafe impl Sync for Parts {}

impl Parts {
    /// SAFETY: only between (A) and (B) of a round.
    unsafe fn read(&self, t: usize) -> &[VertexId] {
        unsafe { &*self.0[t].get() }
    }

    /// SAFETY: only thread `t`, only between (B) and the next (A).
    #[allow(clippy::mut_from_ref)]
    unsafe fn write(&self, t: usize) -> &mut Vec<VertexId> {
        unsafe { &mut *self.0[t].get() }
    }
}

/// Shared state of one run.
struct Shared<'a, C: Cells + ?Sized> {
    succ: &'a Csr,
    dist: &'a C,
    /// Where δ goes at the end when `dist` is not that array already.
    out: Option<&'a [AtomicI64]>,
    source: VertexId,
    delta: Distance,
    threads: usize,
    parts: Parts,
    /// Next chunk of the frontier to hand out.
    next_chunk: AtomicUsize,
    /// The lowest non-empty bin over all threads, per round parity (GAP's `shared_indexes`).
    next_bin: [AtomicU64; 2],
    stop: AtomicBool,
    barrier: FutexBarrier,
}

/// Runs Δ-stepping from the δ already in `dist` (the source at 0, everything else ∞) on
/// `threads` threads (every thread of `pool` when more than one; one `broadcast` for the whole
/// run); `dist` holds the distances afterwards ([`INF`] = unreachable). `cancel` is read once per round.
/// Errors: [`SolveError::Cancelled`].
pub fn run(
    graph: &Graph,
    dist: &[AtomicI64],
    source: VertexId,
    delta: Distance,
    pool: Option<&rayon::ThreadPool>,
    cancel: &AtomicBool,
) -> Result<FastRun, SolveError> {
    let threads = pool.map_or(1, |p| p.current_num_threads()).max(1);
    if crate::algo::dijkstra::fits_u32(graph) {
        let narrow: Vec<AtomicU32> = (0..graph.n()).map(|_| AtomicU32::new(u32::MAX)).collect();
        narrow[source as usize].store(0, Relaxed);
        drive(graph, &narrow[..], Some(dist), source, delta, threads, pool, cancel)
    } else {
        drive(graph, dist, None, source, delta, threads, pool, cancel)
    }
}

#[allow(clippy::too_many_arguments)]
fn drive<C: Cells + ?Sized>(
    graph: &Graph,
    cells: &C,
    out: Option<&[AtomicI64]>,
    source: VertexId,
    delta: Distance,
    threads: usize,
    pool: Option<&rayon::ThreadPool>,
    cancel: &AtomicBool,
) -> Result<FastRun, SolveError> {
    let shared = Shared {
        succ: graph.successors(),
        dist: cells,
        out,
        source,
        delta: delta.max(1),
        threads,
        parts: Parts((0..threads).map(|_| UnsafeCell::new(Vec::new())).collect()),
        next_chunk: AtomicUsize::new(0),
        next_bin: [AtomicU64::new(NO_BIN), AtomicU64::new(NO_BIN)],
        stop: AtomicBool::new(false),
        barrier: FutexBarrier::new(threads),
    };
    let rounds = AtomicU64::new(0);
    let splits: Vec<[AtomicU64; 2]> = (0..threads).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect();
    let work = |t: usize| {
        let start = Instant::now();
        let (r, waited) = worker(&shared, t, cancel);
        let all = start.elapsed();
        splits[t][0].store(all.saturating_sub(waited).as_nanos() as u64, Relaxed);
        splits[t][1].store(waited.as_nanos() as u64, Relaxed);
        if t == 0 {
            rounds.store(u64::from(r), Relaxed);
        }
    };
    match pool {
        // Every pool thread runs one worker for the whole run; the barrier needs all of them
        // at once, which `broadcast` gives (each thread takes its job; none is busy elsewhere).
        Some(p) if threads > 1 => {
            p.broadcast(|ctx| work(ctx.index()));
        }
        _ => work(0),
    }
    if shared.stop.load(Relaxed) {
        return Err(SolveError::Cancelled);
    }
    let ms = |ns: &AtomicU64| ns.load(Relaxed) as f64 * 1e-6;
    Ok(FastRun {
        rounds: rounds.load(Relaxed) as u32,
        threads: splits.iter().map(|s| ThreadSplit { busy_ms: ms(&s[0]), barrier_ms: ms(&s[1]) }).collect(),
    })
}

/// Thread `t`'s slice of the n vertices (for copying δ out).
fn slice(n: usize, threads: usize, t: usize) -> std::ops::Range<usize> {
    n * t / threads..n * (t + 1) / threads
}

/// One thread's rounds from δ as it is (the source at 0, everything else ∞); returns the
/// number of rounds and the time spent at barriers.
fn worker<C: Cells + ?Sized>(s: &Shared<C>, t: usize, cancel: &AtomicBool) -> (u32, Duration) {
    if t == 0 {
        // SAFETY: before the first barrier no other thread touches the parts.
        unsafe { s.parts.write(0) }.push(s.source);
    }
    let succ = s.succ;
    let mut bins: Vec<Vec<VertexId>> = Vec::new();
    let mut ends: Vec<usize> = Vec::with_capacity(s.threads);
    let mut round = 0u32;
    let mut curr = 0u64;
    let mut waited = Duration::ZERO;
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
        loop {
            let start = s.next_chunk.fetch_add(CHUNK, Relaxed);
            if start >= total {
                break;
            }
            let end = (start + CHUNK).min(total);
            let mut i = start;
            while i < end {
                let k = ends.partition_point(|&e| e <= i);
                // SAFETY: between (A) and (B).
                let part = unsafe { s.parts.read(k) };
                let base = ends[k] - part.len();
                let stop = end.min(ends[k]);
                for &u in &part[i - base..stop - base] {
                    // A vertex lowered again since it was binned is relaxed from its lower bin.
                    if s.dist.get(u as usize) >= floor {
                        relax(s, succ, u, &mut bins);
                    }
                }
                i = stop;
            }
        }
        // Bin fusion: a small current bin is relaxed by its owner without another round.
        let c = curr as usize;
        while c < bins.len() && !bins[c].is_empty() && bins[c].len() < FUSE_BELOW {
            let copy = std::mem::take(&mut bins[c]);
            for &u in &copy {
                relax(s, succ, u, &mut bins);
            }
            // Keep the allocation for the next fused pass.
            if bins[c].is_empty() {
                bins[c] = copy;
                bins[c].clear();
            }
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
            out[v].store(s.dist.get(v), Relaxed);
        }
    }
    (round, waited)
}

/// Relaxes every arc of `u` against δ(u) now; each lowered head goes into this thread's bin of
/// its new δ.
#[inline]
fn relax<C: Cells + ?Sized>(s: &Shared<C>, succ: &Csr, u: VertexId, bins: &mut Vec<Vec<VertexId>>) {
    let du = s.dist.get(u as usize);
    let r = succ.offsets[u as usize] as usize..succ.offsets[u as usize + 1] as usize;
    for (&v, &w) in succ.targets[r.clone()].iter().zip(&succ.weights[r]) {
        let nd = du + Distance::from(w);
        if s.dist.lower(v as usize, nd) {
            let b = (nd / s.delta) as usize;
            if b >= bins.len() {
                bins.resize_with(b + 1, Vec::new);
            }
            bins[b].push(v);
        }
    }
}
