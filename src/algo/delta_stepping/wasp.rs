//! Asynchronous Δ-stepping with priority-aware work stealing: Wasp's executor (D'Antonio, Mai,
//! Tsigas, Vandierendonck, SC'25; the authors' code, `github.com/DIPSA-QUB/wasp`,
//! `include/bucketing/executor.h`), on the persistent team of [`super::fast`] instead of
//! OpenMP. The fast path's default on road-like graphs ([`super::fast::modes`];
//! `SSSP_DS_ASYNC=1` / `=0` force it on / off). No round barriers: each thread works through its
//! own buckets in order; a thread whose current bucket is empty first steals a chunk from every
//! thread whose current bucket is no later than its own next one, and only when none has any
//! opens its next bucket. Redundant work (a vertex expanded before its δ is final) is thus spent
//! only when no thread has earlier work to share, where the rounds make idle threads wait at a
//! barrier for each round's straggler.
//!
//! Per thread: a private chunk of the current bucket (first in, first out, as Wasp's chunk: last
//! in, first out expanded 3.4 vertices per vertex reached on NY against 1.5, on 2 threads of
//! the build machine), published to the
//! thread's queue at [`CHUNK`] vertices, or at [`IDLE_CHUNK`] while some thread is idle; the
//! queue of the current bucket's published chunks (a lock per chunk, the oldest taken first by
//! owner and thieves alike); private bins of later (or, after a steal, earlier) buckets. Entries
//! are skipped when their vertex has since been lowered below their bucket (GAP's test). A
//! vertex whose only arc leads back to the vertex that lowered it, or that has no arcs, is
//! never binned (Wasp's `is_leaf`; its δ is still lowered): expanding it could lower nothing.
//! Before its arcs are relaxed, a vertex of few in-arcs lowers its δ from them
//! ([`super::relax::pull`], Wasp's pull; on by default with this run).
//!
//! Termination (Wasp's): a thread with nothing of its own and nothing to steal shows the level
//! "none" and leaves once every thread shows "none". A thread that steals from a thread about
//! to show "none" holds work while it still shows "none" itself, so another thread may leave
//! early, but no work is dropped: every entry belongs to a thread that finishes it.
//!
//! Measured on 16 cores beside GAP (`bench/results/cpu-peers-2026-11-26/lease-14`, calls 1–3,
//! every run equal to Dijkstra): NY 1.21–1.28× GAP against 0.98–1.00× for the rounds in the
//! same calls, luxembourg 2.22× against 1.78×; Kronecker 21 and uniform random 21 are slower
//! than with the rounds (0.73×, 0.81×: no hub splitting here, and with one bucket per Δ = 1–2
//! of weight the rounds already keep every thread busy), so they keep the rounds.
//!
//! Lease 15 (the same way, `lease-15/`): NY 1.30× and luxembourg 2.31× GAP at 16 threads (call
//! 4); against the rounds 1.13–1.26× faster from 4 threads on, even at 2. Tried there and not
//! kept: entries carrying the δ they were binned with, skipped once it has fallen (a vertex
//! lowered twice before it is taken expanded once; even, 0.99× / 0.93×), a narrower Δ (× 0.7:
//! 0.93× / 0.88×), at most 4 buckets ahead of the slowest working thread (`SSSP_DS_AHEAD=4`:
//! 0.77× / 0.57×), and software prefetch of the chunks' next entries (`SSSP_DS_PREFETCH=2..8`:
//! 0.93–0.96× / even).

use super::barrier::Padded;
use super::fast::{Cells, NO_BIN, SPARE, Shared, keep, slice};
use super::relax::Counts;
use crate::graph::{Distance, VertexId};
use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::*};
use std::time::{Duration, Instant};

/// Vertices per stealable chunk (Wasp's `nodes_chunk` capacity).
pub(super) const CHUNK: usize = 64;
/// Vertices per chunk while some thread is idle (`SSSP_DS_IDLE_CHUNK`; 0: [`CHUNK`] always).
/// Lease 14 (16 cores, beside GAP): chunks of 64 suit NY (1.27× the rounds' speed) but leave
/// luxembourg's threads idle 55 % of the time (0.78×); 16 always, the reverse (NY 1.05×,
/// luxembourg 1.20×); 64, or 16 while a thread is idle: NY 1.21×, luxembourg 1.25×.
pub(super) const IDLE_CHUNK: usize = 16;

/// `SSSP_DS_AHEAD=k`: a thread opens its next bucket only while it is at most k buckets past
/// every other working thread's (unset: no bound, Wasp's rule). `SSSP_DS_ACHUNK=k`: chunks of
/// k vertices (unset: [`CHUNK`]). `SSSP_DS_IDLE_CHUNK=k`: while some thread is idle, a thread
/// publishes its private chunk (and opens a bucket) in chunks of k already (unset:
/// [`IDLE_CHUNK`]; 0: never).
#[derive(Clone, Copy)]
struct AsyncKnobs {
    ahead: u64,
    chunk: usize,
    idle_chunk: usize,
}

fn async_knobs() -> AsyncKnobs {
    static K: std::sync::OnceLock<AsyncKnobs> = std::sync::OnceLock::new();
    *K.get_or_init(|| {
        let var = |k| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
        AsyncKnobs {
            ahead: var("SSSP_DS_AHEAD").unwrap_or(u64::MAX / 4),
            chunk: var("SSSP_DS_ACHUNK").map_or(CHUNK, |c| (c as usize).max(1)),
            idle_chunk: var("SSSP_DS_IDLE_CHUNK").map_or(IDLE_CHUNK, |c| c as usize),
        }
    })
}

/// A published chunk of one bucket.
struct Chunk {
    bucket: u64,
    ids: Vec<VertexId>,
}

/// What other threads see of a thread.
#[derive(Default)]
struct Slot {
    /// The bucket it works on, [`NO_BIN`] when it has nothing.
    level: AtomicU64,
    /// Chunks of its current bucket that thieves may take.
    queue: Mutex<VecDeque<Chunk>>,
    /// `queue`'s length, read without the lock by would-be thieves.
    queued: AtomicUsize,
}

/// The shared state of an asynchronous run: a slot per thread and the leaf bitmap.
pub(super) struct Slots {
    slots: Vec<Padded<Slot>>,
    /// Threads with nothing of their own and nothing to steal now.
    idle: Padded<AtomicUsize>,
    /// Bit v: vertex v has at most one arc (set by the workers at the start of each run).
    leaves: Vec<AtomicU64>,
}

impl Slots {
    /// For `threads` threads on a graph of `n` vertices.
    pub(super) fn new(threads: usize, n: usize) -> Slots {
        Slots {
            slots: (0..threads.max(1)).map(|_| Padded(Slot::default())).collect(),
            idle: Padded(AtomicUsize::new(0)),
            leaves: (0..n.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
        }
    }
}

/// One thread's private state.
struct Worker<'a, C: Cells + ?Sized> {
    s: &'a Shared<'a, C>,
    slots: &'a Slots,
    t: usize,
    /// The bucket this thread works on.
    cur: u64,
    /// The private chunk of bucket `cur`, popped from `head` (first in, first out).
    local: Vec<VertexId>,
    head: usize,
    /// Private bins of other buckets; every bin below `lo` is empty.
    bins: Vec<Vec<VertexId>>,
    lo: usize,
    spare: Vec<Vec<VertexId>>,
    cn: Counts,
    /// Vertices per published chunk ([`CHUNK`] unless `SSSP_DS_ACHUNK` says otherwise).
    chunk: usize,
    /// Vertices per published chunk while some thread is idle (0: `chunk` always).
    idle_chunk: usize,
}

impl<C: Cells + ?Sized> Worker<'_, C> {
    fn me(&self) -> &Slot {
        &self.slots.slots[self.t]
    }

    fn fresh(&mut self) -> Vec<VertexId> {
        self.spare.pop().unwrap_or_default()
    }

    fn publish(&self, chunk: Chunk) {
        let me = self.me();
        if let Ok(mut q) = me.queue.lock() {
            q.push_back(chunk);
            me.queued.store(q.len(), Release);
        }
    }

    /// The oldest chunk of this thread's own queue.
    fn take_own(&self) -> Option<Chunk> {
        let me = self.me();
        if me.queued.load(Acquire) == 0 {
            return None;
        }
        let mut q = me.queue.lock().ok()?;
        let c = q.pop_front();
        me.queued.store(q.len(), Release);
        c
    }

    /// The lowest non-empty private bin, [`NO_BIN`] if none.
    fn next_bin(&mut self) -> u64 {
        while self.lo < self.bins.len() && self.bins[self.lo].is_empty() {
            self.lo += 1;
        }
        if self.lo < self.bins.len() { self.lo as u64 } else { NO_BIN }
    }

    /// Whether expanding `v`, just lowered by `u`, could lower anything: not when `v` has no
    /// arc, nor when its only arc leads back to `u` (δ(v) + w(v, u) ≥ δ(u)).
    #[inline]
    fn worth_binning(&self, u: VertexId, v: VertexId) -> bool {
        let bit = self.slots.leaves[v as usize / 64].load(Relaxed) >> (v % 64) & 1;
        if bit == 0 {
            return true;
        }
        let succ = self.s.succ;
        let (lo, hi) = (succ.offsets[v as usize] as usize, succ.offsets[v as usize + 1] as usize);
        hi > lo && succ.targets[lo] != u
    }

    /// Relaxes every arc of `u`, binning each lowered head: bucket `cur` into the private
    /// chunk (published at [`CHUNK`] vertices), any other into its private bin.
    #[inline]
    fn relax(&mut self, u: VertexId) {
        let s = self.s;
        let succ = s.succ;
        let r = succ.offsets[u as usize] as usize..succ.offsets[u as usize + 1] as usize;
        let du = super::relax::pull(s, u);
        self.cn.expanded += 1;
        self.cn.arcs += r.len() as u64;
        for (&v, &w) in succ.targets[r.clone()].iter().zip(&succ.weights[r]) {
            let nd = du + Distance::from(w);
            if !s.dist.lower(v as usize, nd) {
                continue;
            }
            self.cn.pushes += 1;
            if !self.worth_binning(u, v) {
                self.cn.leaves += 1;
                continue;
            }
            let b = nd / s.delta;
            if b as u64 == self.cur {
                self.local.push(v);
                let held = self.local.len() - self.head;
                if held >= self.chunk
                    || (self.idle_chunk > 0 && held >= self.idle_chunk && self.slots.idle.load(Relaxed) > 0)
                {
                    self.local.drain(..self.head);
                    self.head = 0;
                    let fresh = self.fresh();
                    let ids = std::mem::replace(&mut self.local, fresh);
                    self.publish(Chunk { bucket: self.cur, ids });
                }
            } else {
                let b = b as usize;
                while b >= self.bins.len() {
                    let bin = self.fresh();
                    self.bins.push(bin);
                }
                self.bins[b].push(v);
                self.lo = self.lo.min(b);
            }
        }
    }

    /// Expands `u`, an entry of bucket `bucket`, unless it has since been lowered below it.
    #[inline]
    fn visit(&mut self, u: VertexId, bucket: u64) {
        if self.s.dist.get(u as usize) < bucket as Distance * self.s.delta {
            self.cn.stale += 1;
        } else {
            self.relax(u);
        }
    }

    /// Works through bucket `cur` (private chunk and own queue) until both are empty.
    fn drain(&mut self) {
        loop {
            if let Some(&u) = self.local.get(self.head) {
                super::relax::prefetch_ahead(self.s, &self.local, self.head, self.s.prefetch);
                self.head += 1;
                self.visit(u, self.cur);
                continue;
            }
            self.local.clear();
            self.head = 0;
            let Some(c) = self.take_own() else { return };
            let old = std::mem::replace(&mut self.local, c.ids);
            self.spare.push(old);
            debug_assert_eq!(c.bucket, self.cur);
        }
    }

    /// Takes one chunk from every other thread whose current bucket is no later than `next`
    /// and expands them at the lowest of their buckets; false if there was none.
    fn steal(&mut self, next: u64, stolen: &mut Vec<Chunk>) -> bool {
        let threads = self.slots.slots.len();
        let mut low = next;
        for k in 1..threads {
            let victim = &self.slots.slots[(self.t + k) % threads];
            if victim.queued.load(Relaxed) == 0 || victim.level.load(Acquire) > next {
                continue;
            }
            let Ok(mut q) = victim.queue.lock() else { continue };
            if let Some(c) = q.pop_front() {
                low = low.min(c.bucket);
                stolen.push(c);
            }
            victim.queued.store(q.len(), Release);
        }
        if stolen.is_empty() {
            return false;
        }
        self.cur = low;
        self.me().level.store(low, Release);
        for c in stolen.drain(..) {
            for (j, &u) in c.ids.iter().enumerate() {
                super::relax::prefetch_ahead(self.s, &c.ids, j, self.s.prefetch);
                self.visit(u, c.bucket);
            }
            let mut ids = c.ids;
            ids.clear();
            self.spare.push(ids);
        }
        true
    }

    /// Moves private bin `b` into bucket `cur` = `b`: its vertices in chunks on the queue.
    fn open(&mut self, b: u64) {
        self.cur = b;
        self.me().level.store(b, Release);
        let bin = std::mem::take(&mut self.bins[b as usize]);
        let chunk = if self.idle_chunk > 0 && self.slots.idle.load(Relaxed) > 0 { self.idle_chunk } else { self.chunk };
        for piece in bin.chunks(chunk) {
            let mut ids = self.fresh();
            ids.extend_from_slice(piece);
            self.publish(Chunk { bucket: b, ids });
        }
        let mut bin = bin;
        bin.clear();
        self.bins[b as usize] = bin;
    }

    fn all_done(&self) -> bool {
        self.slots.slots.iter().all(|s| s.level.load(Acquire) == NO_BIN)
    }

    /// Whether bucket `b` is at most `ahead` past every other working thread's.
    fn may_open(&self, b: u64, ahead: u64) -> bool {
        let others = self.slots.slots.iter().enumerate().filter(|&(k, _)| k != self.t);
        let low = others.map(|(_, s)| s.level.load(Acquire)).min().unwrap_or(NO_BIN);
        low == NO_BIN || b <= low.saturating_add(ahead)
    }
}

/// One thread's asynchronous run from the source (δ reset as in [`super::fast`]'s worker);
/// returns the buckets it opened, the time it spent idle (nothing of its own, nothing to
/// steal) and its work.
pub(super) fn worker<C: Cells + ?Sized>(s: &Shared<C>, t: usize, cancel: &AtomicBool) -> (u32, Duration, Counts) {
    let Some(slots) = s.slots.as_ref() else {
        return (0, Duration::ZERO, Counts::default());
    };
    let spare = SPARE.with_borrow_mut(std::mem::take);
    let n = s.dist.len();
    if s.init {
        for v in slice(n, s.threads, t) {
            s.dist.reset(v, v == s.source as usize);
        }
    }
    let offsets = &s.succ.offsets;
    for word in slice(slots.leaves.len(), s.threads, t) {
        let mut bits = 0u64;
        for v in word * 64..(word * 64 + 64).min(n) {
            if offsets[v + 1] - offsets[v] <= 1 {
                bits |= 1 << (v % 64);
            }
        }
        slots.leaves[word].store(bits, Relaxed);
    }
    let knobs = async_knobs();
    let mut w = Worker {
        s,
        slots,
        t,
        cur: NO_BIN,
        local: Vec::new(),
        head: 0,
        bins: Vec::new(),
        lo: 0,
        spare,
        cn: Counts::default(),
        chunk: knobs.chunk,
        idle_chunk: knobs.idle_chunk,
    };
    w.local = w.fresh();
    w.me().level.store(NO_BIN, Relaxed);
    if t == 0 {
        w.cur = 0;
        w.me().level.store(0, Relaxed);
        w.local.push(s.source);
    }
    // δ, the leaves and every level are set before anyone relaxes or steals.
    let mut waited = s.barrier.wait();
    let mut opened = 0u32;
    let mut stolen = Vec::with_capacity(s.threads);
    let mut idle: Option<Instant> = None;
    let mut spins = 0u32;
    loop {
        loop {
            w.drain();
            let next = w.next_bin();
            if !w.steal(next, &mut stolen) {
                break;
            }
            if let Some(i) = idle.take() {
                waited += i.elapsed();
                slots.idle.fetch_sub(1, Relaxed);
            }
        }
        if t == 0 && cancel.load(Relaxed) {
            s.stop.store(true, Relaxed);
        }
        if s.stop.load(Relaxed) {
            break;
        }
        let next = w.next_bin();
        if next != NO_BIN && w.may_open(next, knobs.ahead) {
            if let Some(i) = idle.take() {
                waited += i.elapsed();
                slots.idle.fetch_sub(1, Relaxed);
            }
            w.open(next);
            opened += 1;
            continue;
        }
        // Nothing to open yet: show the next bucket (NO_BIN: none) and wait, stealing.
        w.cur = NO_BIN;
        w.me().level.store(next, Release);
        if idle.is_none() {
            idle = Some(Instant::now());
            slots.idle.fetch_add(1, Relaxed);
        }
        if next == NO_BIN && w.all_done() {
            break;
        }
        // More threads than cores (tests): let the ones with work run.
        spins += 1;
        if spins.is_multiple_of(64) {
            std::thread::yield_now();
        } else {
            // A pause between scans: each scan reads every thread's slot line, which its owner
            // writes at each publish.
            for _ in 0..16 {
                std::hint::spin_loop();
            }
        }
    }
    if let Some(i) = idle.take() {
        waited += i.elapsed();
    }
    // Every thread has left its loop: δ is final (or the run was cancelled).
    waited += s.barrier.wait();
    if let Some(out) = s.out {
        for v in slice(n, s.threads, t) {
            out[v].store(s.dist.get(s.index(v)), Relaxed);
        }
    }
    let Worker { mut spare, bins, local, cn, .. } = w;
    spare.extend(bins);
    spare.push(local);
    if let Ok(mut q) = slots.slots[t].queue.lock() {
        // Only after a cancelled run.
        spare.extend(q.drain(..).map(|c| c.ids));
    }
    keep(spare);
    (opened, waited, cn)
}
