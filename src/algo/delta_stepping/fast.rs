//! Δ-stepping's fast path for `run_to_end` (`launch=fast`, the default): GAP's `DeltaStep`
//! ([gapbs] `sssp.cc`) on one thread or on every thread of the stepper's pool. Each thread keeps
//! its own bins; a round relaxes every arc of the shared frontier (vertices of the lowest
//! non-empty bin over all threads, spread over the threads in chunks of 64 taken from a shared
//! counter), then each thread keeps relaxing its own small current bin alone ("bin fusion",
//! fewer than 1 000 vertices, saving rounds on roads), and the threads agree on the next bin.
//! Two barriers per round, like GAP's two `omp barrier`s.
//!
//! What differs from the stepped phases ([`super::DeltaSteppingStepper::step`]): no light/heavy
//! split and no synchronous phases — a vertex is pushed into a bin every time a relaxation
//! lowers it, and arcs see δ as it is now — so the rounds depend on the interleaving and are
//! not recorded one by one. The distances are the same (tests/algorithms.rs).

use crate::algo::SolveError;
use crate::graph::{Distance, Graph, VertexId};
use std::sync::RwLock;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering::*};

/// GAP's `kBinSizeThreshold`: a thread relaxes its current bin alone while it holds fewer
/// vertices than this.
const FUSE_BELOW: usize = 1000;
/// Vertices of the frontier a thread takes at a time (GAP's `schedule(dynamic, 64)`).
const CHUNK: usize = 64;
const NO_BIN: u64 = u64::MAX;

/// What a fast run did.
#[derive(Clone, Copy, Debug, Default)]
pub struct FastRun {
    /// Rounds (shared frontiers), GAP's `iter`.
    pub rounds: u32,
}

/// Shared state of one run.
struct Shared<'a> {
    graph: &'a Graph,
    dist: &'a [AtomicI64],
    delta: Distance,
    /// Each thread's part of the current frontier (written by its owner between rounds).
    parts: Vec<RwLock<Vec<VertexId>>>,
    /// Next chunk of the frontier to hand out.
    next_chunk: AtomicUsize,
    /// The lowest non-empty bin over all threads, per round parity (GAP's `shared_indexes`).
    next_bin: [AtomicU64; 2],
    stop: AtomicBool,
    barrier: SpinBarrier,
}

/// Runs Δ-stepping from the δ already in `dist` (the source at 0, everything else ∞) on
/// `threads` threads (`pool` when more than one); `dist` holds the distances afterwards.
/// `cancel` is read once per round. Errors: [`SolveError::Cancelled`].
pub fn run(
    graph: &Graph,
    dist: &[AtomicI64],
    source: VertexId,
    delta: Distance,
    pool: Option<&rayon::ThreadPool>,
    cancel: &AtomicBool,
) -> Result<FastRun, SolveError> {
    let threads = pool.map_or(1, |p| p.current_num_threads()).max(1);
    let shared = Shared {
        graph,
        dist,
        delta: delta.max(1),
        parts: (0..threads).map(|t| RwLock::new(if t == 0 { vec![source] } else { Vec::new() })).collect(),
        next_chunk: AtomicUsize::new(0),
        next_bin: [AtomicU64::new(NO_BIN), AtomicU64::new(NO_BIN)],
        stop: AtomicBool::new(false),
        barrier: SpinBarrier::new(threads),
    };
    let rounds = AtomicU64::new(0);
    let work = |t: usize| {
        let r = worker(&shared, t, cancel);
        if t == 0 {
            rounds.store(u64::from(r), Relaxed);
        }
    };
    match pool {
        Some(p) if threads > 1 => {
            // Every pool thread runs one worker; the barrier needs all of them at once, which
            // `broadcast` gives (each thread takes its job; none is busy elsewhere).
            p.broadcast(|ctx| work(ctx.index()));
        }
        _ => work(0),
    }
    if shared.stop.load(Relaxed) {
        return Err(SolveError::Cancelled);
    }
    Ok(FastRun { rounds: rounds.load(Relaxed) as u32 })
}

/// One thread's rounds; returns the number of rounds.
fn worker(s: &Shared, t: usize, cancel: &AtomicBool) -> u32 {
    let succ = s.graph.successors();
    let mut bins: Vec<Vec<VertexId>> = Vec::new();
    let mut round = 0u32;
    let mut curr = 0u64;
    loop {
        // (A) every part of this round's frontier is in place, and every thread has read the
        // bin index of the previous parity.
        s.barrier.wait();
        if t == 0 {
            s.next_bin[(round as usize + 1) & 1].store(NO_BIN, Relaxed);
        }
        let floor = curr as Distance * s.delta;
        {
            let parts: Vec<_> = s.parts.iter().map(|p| p.read().unwrap_or_else(|e| e.into_inner())).collect();
            let mut ends = Vec::with_capacity(parts.len());
            let mut total = 0;
            for p in &parts {
                total += p.len();
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
                    let base = ends[k] - parts[k].len();
                    let stop = end.min(ends[k]);
                    for &u in &parts[k][i - base..stop - base] {
                        if s.dist[u as usize].load(Relaxed) >= floor {
                            relax(s, succ, u, &mut bins);
                        }
                    }
                    i = stop;
                }
            }
        }
        // Bin fusion: a small current bin is relaxed by its owner without another round.
        let c = curr as usize;
        while c < bins.len() && !bins[c].is_empty() && bins[c].len() < FUSE_BELOW {
            let copy = std::mem::take(&mut bins[c]);
            for &u in &copy {
                relax(s, succ, u, &mut bins);
            }
        }
        if let Some(b) = (c..bins.len()).find(|&b| !bins[b].is_empty()) {
            s.next_bin[round as usize & 1].fetch_min(b as u64, Relaxed);
        }
        if t == 0 {
            s.stop.store(cancel.load(Relaxed), Relaxed);
        }
        // (B) the frontier is consumed and the next bin is agreed.
        s.barrier.wait();
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
        let mut part = s.parts[t].write().unwrap_or_else(|e| e.into_inner());
        part.clear();
        if let Some(bin) = bins.get_mut(next as usize) {
            std::mem::swap(&mut *part, bin);
        }
    }
    round
}

/// Relaxes every arc of `u` against δ(u) now; each lowered head goes into this thread's bin of
/// its new δ.
#[inline]
fn relax(s: &Shared, succ: &crate::graph::Csr, u: VertexId, bins: &mut Vec<Vec<VertexId>>) {
    let du = s.dist[u as usize].load(Relaxed);
    let r = succ.offsets[u as usize] as usize..succ.offsets[u as usize + 1] as usize;
    for (&v, &w) in succ.targets[r.clone()].iter().zip(&succ.weights[r.clone()]) {
        let nd = du + Distance::from(w);
        let cell = &s.dist[v as usize];
        if nd < cell.load(Relaxed) && nd < cell.fetch_min(nd, Relaxed) {
            let b = (nd / s.delta) as usize;
            if b >= bins.len() {
                bins.resize_with(b + 1, Vec::new);
            }
            bins[b].push(v);
        }
    }
}

/// A barrier that spins (a round on a road graph lasts microseconds; a futex wake-up costs tens
/// of them) and yields after a while, so more threads than cores still make progress.
struct SpinBarrier {
    threads: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
}

impl SpinBarrier {
    fn new(threads: usize) -> SpinBarrier {
        SpinBarrier { threads, arrived: AtomicUsize::new(0), generation: AtomicUsize::new(0) }
    }

    fn wait(&self) {
        if self.threads == 1 {
            return;
        }
        let generation = self.generation.load(Acquire);
        if self.arrived.fetch_add(1, AcqRel) + 1 == self.threads {
            self.arrived.store(0, Relaxed);
            self.generation.fetch_add(1, Release);
            return;
        }
        let mut spins = 0u32;
        while self.generation.load(Acquire) == generation {
            if spins < 2000 {
                std::hint::spin_loop();
                spins += 1;
            } else {
                std::thread::yield_now();
            }
        }
    }
}
