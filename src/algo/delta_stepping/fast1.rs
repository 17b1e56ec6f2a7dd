//! Δ-stepping's fast rounds with **one barrier per round** instead of GAP's two, behind
//! `SSSP_DS_BARRIERS=1` (the default is [`super::fast::worker`], GAP's two). GAP's first
//! barrier only makes every thread's part of the next frontier visible before anyone reads it,
//! because a thread learns the next bin only after the second. Here each thread moves its
//! lowest non-empty bin into its part of the *next* frontier before the barrier and publishes
//! that bin's index with it; after the barrier a part counts only if its index is the agreed
//! one (an owner whose bin lost puts it back, unread). The parts, the chunk counter and the
//! agreed index alternate between rounds so that a thread already in round r + 1 never
//! overwrites what a slower one still reads of round r. Same relaxations and bins as
//! [`super::fast`]. Measured not faster on 16 cores (lease 6 of
//! `bench/results/cpu-peers-2026-11-26/`: NY 4.68 against 4.49 ms, luxembourg 2.69 against
//! 2.75, Kronecker 21 92.1 against 85.6, medians of interleaved processes, differences within
//! the bootstrap intervals): the round's wait is the fused work's imbalance, not the second
//! barrier. Kept as a switch for that A/B.

use super::barrier::Padded;
use super::fast::{CHUNK, CHUNKS_PER_THREAD, Cells, NO_BIN, Parts, SHARE_BELOW_THREADS, SPARE, Shared, fuse_bin};
use super::relax::{Counts, expand};
use crate::graph::{Distance, VertexId};
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::*};
use std::time::Duration;

/// The alternating state of the one-barrier rounds.
pub(super) struct OneBarrier {
    /// Thread t's part of the frontier of a round of parity p at `p * threads + t`.
    parts: Parts,
    /// Per thread and parity: the bin index its part of that round's frontier holds.
    mins: Vec<Padded<[AtomicU64; 2]>>,
    /// Chunk counter of each parity.
    chunks: [Padded<AtomicUsize>; 2],
    /// Bin of round r at `r % 3` (0 for round 0), lowered during round r − 1.
    bin_of: Padded<[AtomicU64; 3]>,
    /// Cancelled before round r's barrier: at `(r + 1) % 3`.
    stop: Padded<[AtomicBool; 3]>,
}

impl OneBarrier {
    pub(super) fn new(threads: usize) -> OneBarrier {
        OneBarrier {
            parts: Parts((0..2 * threads).map(|_| UnsafeCell::new(Vec::new())).collect()),
            mins: (0..threads).map(|_| Padded([AtomicU64::new(NO_BIN), AtomicU64::new(NO_BIN)])).collect(),
            chunks: [Padded(AtomicUsize::new(0)), Padded(AtomicUsize::new(0))],
            bin_of: Padded([AtomicU64::new(0), AtomicU64::new(NO_BIN), AtomicU64::new(NO_BIN)]),
            stop: Padded([AtomicBool::new(false), AtomicBool::new(false), AtomicBool::new(false)]),
        }
    }
}

/// One thread's rounds (as [`super::fast::worker`], one barrier per round); returns the number
/// of rounds and the time spent at barriers.
pub(super) fn worker<C: Cells + ?Sized>(s: &Shared<C>, t: usize, cancel: &AtomicBool) -> (u32, Duration, Counts) {
    let o = &s.one;
    let threads = s.threads;
    let mut spare = SPARE.with_borrow_mut(std::mem::take);
    if s.init {
        for v in super::fast::slice(s.dist.len(), threads, t) {
            s.dist.reset(v, v == s.source as usize);
        }
    }
    // SAFETY: before the first barrier only thread t touches its parts and its mins.
    unsafe {
        *o.parts.write(t) = spare.pop().unwrap_or_default();
        *o.parts.write(threads + t) = spare.pop().unwrap_or_default();
        if t == 0 {
            o.parts.write(t).push(s.source);
        }
    }
    o.mins[t][0].store(if t == 0 { 0 } else { NO_BIN }, Relaxed);
    let mut cn = Counts::default();
    let mut bins: Vec<Vec<VertexId>> = Vec::new();
    let mut ends: Vec<usize> = Vec::with_capacity(threads);
    let mut owners: Vec<usize> = Vec::with_capacity(threads);
    let mut round = 0usize;
    let mut curr = 0u64;
    // δ is initialised and the first frontier in place.
    let mut waited = s.barrier.wait();
    loop {
        let p = round & 1;
        if t == 0 {
            // Every thread has passed the last barrier, so none still reads these slots.
            o.chunks[1 - p].store(0, Relaxed);
            o.bin_of[(round + 2) % 3].store(NO_BIN, Relaxed);
            o.stop[(round + 2) % 3].store(false, Relaxed);
        }
        let floor = curr as Distance * s.delta;
        ends.clear();
        owners.clear();
        let mut total = 0;
        for k in 0..threads {
            if o.mins[k][p].load(Relaxed) == curr {
                // SAFETY: part k of parity p is written only before the barrier of round − 1
                // and round + 1, and read only in this round.
                total += unsafe { o.parts.read(p * threads + k) }.len();
                ends.push(total);
                owners.push(k);
            }
        }
        let knobs = s.knobs;
        let share = knobs.share.unwrap_or(usize::from(threads < SHARE_BELOW_THREADS));
        let chunk = match knobs.chunk {
            0 if threads > 1 => (total / (CHUNKS_PER_THREAD * threads)).clamp(1, CHUNK),
            0 => CHUNK,
            c => c,
        };
        loop {
            let start = o.chunks[p].fetch_add(chunk, Relaxed);
            if start >= total {
                break;
            }
            let end = (start + chunk).min(total);
            let mut i = start;
            while i < end {
                let j = ends.partition_point(|&e| e <= i);
                // SAFETY: as above.
                let part = unsafe { o.parts.read(p * threads + owners[j]) };
                let base = ends[j] - part.len();
                let stop = end.min(ends[j]);
                expand(s, part, i - base..stop - base, Some(floor), &mut bins, &mut spare, &mut cn, s.prefetch);
                i = stop;
            }
        }
        // Bin fusion, as in fast.rs (the frontier's vectors are the parts, not bins[c]).
        let c = curr as usize;
        fuse_bin(s, c, &mut bins, &mut spare, &mut cn, knobs, share);
        // This thread's candidate for the next frontier goes into its part of parity 1 − p,
        // which nobody reads since the last barrier.
        let mine = (c..bins.len()).find(|&b| !bins[b].is_empty());
        // SAFETY: thread t, part of parity 1 − p, before this round's barrier.
        let next_part = unsafe { o.parts.write((1 - p) * threads + t) };
        next_part.clear();
        match mine {
            Some(b) => {
                std::mem::swap(next_part, &mut bins[b]);
                o.mins[t][1 - p].store(b as u64, Relaxed);
                o.bin_of[(round + 1) % 3].fetch_min(b as u64, Relaxed);
            }
            None => o.mins[t][1 - p].store(NO_BIN, Relaxed),
        }
        if t == 0 && cancel.load(Relaxed) {
            o.stop[(round + 1) % 3].store(true, Relaxed);
            s.stop.store(true, Relaxed);
        }
        // The frontier is consumed, the next bin agreed and every part of it in place.
        waited += s.barrier.wait();
        let next = o.bin_of[(round + 1) % 3].load(Relaxed);
        let stopped = o.stop[(round + 1) % 3].load(Relaxed);
        round += 1;
        if let Some(b) = mine
            && b as u64 != next
        {
            // Not the agreed bin: nobody reads this part (its index differs), back it goes.
            std::mem::swap(next_part, &mut bins[b]);
        }
        if next == NO_BIN || stopped {
            break;
        }
        curr = next;
    }
    if let Some(out) = s.out {
        // Every thread has left the last round's barrier, so δ is final.
        for v in super::fast::slice(s.dist.len(), threads, t) {
            out[v].store(s.dist.get(s.index(v)), Relaxed);
        }
    }
    // SAFETY: after the last barrier no thread reads the parts any more.
    unsafe {
        spare.push(std::mem::take(o.parts.write(t)));
        spare.push(std::mem::take(o.parts.write(threads + t)));
    }
    spare.extend(bins);
    super::fast::keep(spare);
    (round as u32, waited, cn)
}
