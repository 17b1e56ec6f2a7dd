//! Work that a thread of a fast round ([`super::fast::worker`]) hands to the others instead of
//! doing it alone while they wait at the barrier (issue 31, lease 9): the arcs of a **hub** (a
//! frontier or fused vertex with more than `split` arcs, cut into pieces of `split` arcs) and
//! the **overflow of a fused bin** (past `steal` vertices, in ranges of [`RANGE`] vertices).
//! Lease 6 showed the barrier share (Kronecker 21: 22–24 %, NY 29 %, luxembourg 42 % of thread
//! time at 16 threads) to be the imbalance of the work before the barrier — one thread scanning
//! a hub of 10⁴–10⁵ arcs, or fusing a long road bin — while 15 wait; GAP has it too.
//!
//! Pieces go into a bounded queue that the threads drain in [`Help::drain`] after their own
//! frontier chunks and fused bin, before they report their next bin and meet at the barrier
//! (idle threads keep taking pieces until no thread is still working, or for as long as the
//! barrier would spin). A lowered head goes into the bins of the thread that relaxed it, which
//! then fuses its own bin again, so every lowering is still queued and δ stays exact; the
//! distances equal Dijkstra's (tests below and `tests/algorithms.rs`). Priority as in Wasp
//! (Dong et al., SC'25): a thread publishes only while its own bin has more than it should do
//! alone, and a helper takes pieces only when it has nothing of its own left.

use super::barrier::{Padded, spin_for};
use super::fast::{Cells, Knobs, Shared, fuse_bin};
use super::relax::{Counts, relax_arcs};
use crate::graph::VertexId;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering::*};
use std::time::{Duration, Instant};

/// Pieces a round can queue (a full queue: the publisher does the rest itself).
const SLOTS: usize = 1 << 14;
/// Vertices of fused-bin overflow a round can queue.
const OVERFLOW: usize = 1 << 16;
/// Vertices per overflow piece: a road vertex is ~3 arcs, so a piece is a few µs of work,
/// long against one claim (a compare-exchange on a shared line).
pub(super) const RANGE: usize = 32;
/// Overflow pieces are tagged in the top bit; hub pieces are `(u << 32 | j) + 1`, so 0 means
/// "reserved, not yet written".
const TAG: u64 = 1 << 63;

/// The queue of one run's rounds (reused between runs, see [`Help::take`]).
pub(super) struct Help {
    slots: Box<[AtomicU64]>,
    overflow: Box<[AtomicU32]>,
    /// Next slot to claim / to reserve; reset after each round's barrier (B) by thread 0.
    head: Padded<AtomicUsize>,
    tail: Padded<AtomicUsize>,
    otail: Padded<AtomicUsize>,
    /// Threads still doing their own work or a claimed piece (only those can publish).
    active: Padded<AtomicUsize>,
}

/// The queue of the last run, for the next (its pages touched once per process).
static KEPT: Mutex<Option<Help>> = Mutex::new(None);

/// One unit of handed-out work.
pub(super) enum Piece {
    /// Arcs `j·split .. (j+1)·split` of vertex `u`'s list.
    Hub(VertexId, usize),
    /// Vertices `overflow[start .. start + len]` of a fused bin.
    Range(usize, usize),
}

impl Help {
    /// The kept queue, or a new one (empty either way).
    pub(super) fn take() -> Help {
        let kept = KEPT.lock().ok().and_then(|mut k| k.take());
        kept.unwrap_or_else(|| Help {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
            overflow: (0..OVERFLOW).map(|_| AtomicU32::new(0)).collect(),
            head: Padded(AtomicUsize::new(0)),
            tail: Padded(AtomicUsize::new(0)),
            otail: Padded(AtomicUsize::new(0)),
            active: Padded(AtomicUsize::new(0)),
        })
    }

    /// Keeps the queue for the next run.
    pub(super) fn keep(self) {
        if let Ok(mut k) = KEPT.lock() {
            *k = Some(self);
        }
    }

    /// Empties the queue for a round of `threads` threads: by one thread, while no other
    /// touches it (before the first round; after each round's barrier (B)).
    pub(super) fn reset(&self, threads: usize) {
        self.head.store(0, Relaxed);
        self.tail.store(0, Relaxed);
        self.otail.store(0, Relaxed);
        self.active.store(threads, SeqCst);
    }

    /// Threads idle in [`Help::drain`] now (a hint).
    pub(super) fn idle(&self, threads: usize) -> usize {
        threads.saturating_sub(self.active.load(Relaxed))
    }

    /// Reserves `k` slots; `None` when the round's queue is full.
    fn reserve(&self, k: usize) -> Option<usize> {
        let mut t = self.tail.load(Relaxed);
        loop {
            if t + k > SLOTS {
                return None;
            }
            match self.tail.compare_exchange_weak(t, t + k, AcqRel, Relaxed) {
                Ok(_) => return Some(t),
                Err(now) => t = now,
            }
        }
    }

    /// Queues the arcs of hub `u` (`degree` arcs) in pieces of `split`; false (nothing
    /// queued) when `u` does not fit the encoding or the queue is full.
    pub(super) fn publish_hub(&self, u: VertexId, degree: usize, split: usize) -> bool {
        let k = degree.div_ceil(split);
        if u >= 1 << 31 || k >= 1 << 32 {
            return false;
        }
        let Some(at) = self.reserve(k) else { return false };
        for j in 0..k {
            self.slots[at + j].store(((u64::from(u) << 32) | j as u64) + 1, Release);
        }
        true
    }

    /// Queues `vertices` in ranges of [`RANGE`]; returns how many it queued (a prefix of the
    /// slice; 0 when full).
    pub(super) fn publish_range(&self, vertices: &[VertexId]) -> usize {
        let mut o = self.otail.load(Relaxed);
        let len = loop {
            let len = vertices.len().min(OVERFLOW.saturating_sub(o));
            if len == 0 {
                return 0;
            }
            match self.otail.compare_exchange_weak(o, o + len, AcqRel, Relaxed) {
                Ok(_) => break len,
                Err(now) => o = now,
            }
        };
        for (i, &v) in vertices[..len].iter().enumerate() {
            self.overflow[o + i].store(v, Relaxed);
        }
        let k = len.div_ceil(RANGE);
        let Some(at) = self.reserve(k) else {
            // The vertices stay in the overflow array unread; the caller relaxes them.
            return 0;
        };
        for j in 0..k {
            let (start, n) = (o + j * RANGE, RANGE.min(len - j * RANGE));
            self.slots[at + j].store(TAG | ((start as u64) << 32) | n as u64, Release);
        }
        len
    }

    /// Takes the next queued piece, if any.
    fn claim(&self) -> Option<Piece> {
        let mut h = self.head.load(Relaxed);
        loop {
            if h >= self.tail.load(Acquire) {
                return None;
            }
            match self.head.compare_exchange_weak(h, h + 1, AcqRel, Relaxed) {
                Ok(_) => break,
                Err(now) => h = now,
            }
        }
        // The publisher reserved the slot before writing it: wait out that window.
        let raw = loop {
            let raw = self.slots[h].swap(0, Acquire);
            if raw != 0 {
                break raw;
            }
            std::hint::spin_loop();
        };
        Some(if raw & TAG != 0 {
            Piece::Range(((raw & !TAG) >> 32) as usize, (raw & 0xffff_ffff) as usize)
        } else {
            let raw = raw - 1;
            Piece::Hub((raw >> 32) as VertexId, (raw & 0xffff_ffff) as usize)
        })
    }

    /// After its own work, thread-local `bins`: takes queued pieces until none is queued and
    /// no thread can queue more (or, idle, for as long as the barrier would spin); after each
    /// piece it fuses its bin `c` again. Returns the time it waited with nothing to do.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn drain<C: Cells + ?Sized>(
        &self,
        s: &Shared<C>,
        c: usize,
        bins: &mut Vec<Vec<VertexId>>,
        spare: &mut Vec<Vec<VertexId>>,
        cn: &mut Counts,
        knobs: Knobs,
        share: usize,
    ) -> Duration {
        self.active.fetch_sub(1, SeqCst);
        let limit = spin_for(s.threads);
        let mut idle = Duration::ZERO;
        let mut since: Option<Instant> = None;
        let mut spins = 0u32;
        loop {
            if self.head.load(Relaxed) < self.tail.load(Acquire) {
                self.active.fetch_add(1, SeqCst);
                if let Some(p) = self.claim() {
                    if let Some(t0) = since.take() {
                        idle += t0.elapsed();
                    }
                    cn.pieces += 1;
                    self.run(s, p, bins, spare, cn);
                    fuse_bin(s, c, bins, spare, cn, knobs, share);
                }
                self.active.fetch_sub(1, SeqCst);
                continue;
            }
            if self.active.load(SeqCst) == 0 {
                break;
            }
            let t0 = *since.get_or_insert_with(Instant::now);
            spins += 1;
            if spins.is_multiple_of(256) {
                if idle + t0.elapsed() > limit {
                    break;
                }
                if s.threads > 1 && limit < Duration::from_millis(1) {
                    // More threads than cores: the one with work needs this core.
                    std::thread::yield_now();
                }
            }
            std::hint::spin_loop();
        }
        if let Some(t0) = since {
            idle += t0.elapsed();
        }
        idle
    }

    fn run<C: Cells + ?Sized>(
        &self,
        s: &Shared<C>,
        p: Piece,
        bins: &mut Vec<Vec<VertexId>>,
        spare: &mut Vec<Vec<VertexId>>,
        cn: &mut Counts,
    ) {
        match p {
            Piece::Hub(u, j) => {
                let (lo, hi) = (s.succ.offsets[u as usize] as usize, s.succ.offsets[u as usize + 1] as usize);
                let from = lo + j * s.split;
                relax_arcs(s, u, from..hi.min(from + s.split), bins, spare, cn);
            }
            Piece::Range(start, n) => {
                for a in &self.overflow[start..start + n] {
                    let u = a.load(Relaxed);
                    cn.expanded += 1;
                    let r = s.succ.offsets[u as usize] as usize..s.succ.offsets[u as usize + 1] as usize;
                    relax_arcs(s, u, r, bins, spare, cn);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::fast::tests::random_graph;
    use super::super::fast::{drive, knobs};
    use crate::graph::{Distance, INF};
    use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, Ordering::Relaxed};

    /// Split hubs and shared fused bins give Dijkstra's distances: a random graph with a few
    /// hubs (hundreds of arcs), zero weights and unreachable vertices, pieces as small as 2 arcs
    /// and fused bins shared past 1–3 vertices, on 1–8 threads (more threads than cores), for
    /// several Δ; and no arc is scanned twice more than Δ's Bellman-Ford allows.
    #[test]
    fn split_hubs_and_shared_fused_bins_equal_dijkstra() {
        let g = random_graph("hubs", 700, 0x2545_f491_4f6c_dd1d, &[0, 5, 333], 400, 300);
        for source in [0, 9] {
            let want = crate::algo::dijkstra_distances(&g, source);
            let reached = want.iter().filter(|&&d| d != INF).count() as u64;
            for delta in [1, 40, 1 << 20] {
                for threads in [1, 2, 3, 8] {
                    for (split, steal) in [(2, 0), (64, 0), (0, 1), (0, 3), (5, 2), (1 << 20, 1)] {
                        let dist: Vec<AtomicI64> = (0..g.n()).map(|_| AtomicI64::new(0)).collect();
                        let cells: Vec<AtomicU32> = (0..g.n()).map(|_| AtomicU32::new(0)).collect();
                        let cancel = AtomicBool::new(false);
                        let k = super::super::fast::Knobs { split: Some(split), steal, one_barrier: false, ..knobs() };
                        let run = drive(&g, &cells[..], Some((&dist, None)), true, source, delta, threads, &cancel, k)
                            .expect("not cancelled");
                        let got: Vec<Distance> = dist.iter().map(|d| d.load(Relaxed)).collect();
                        let case =
                            format!("source {source}, Δ {delta}, {threads} threads, split {split}, steal {steal}");
                        assert_eq!(got, want, "{case}");
                        let c = run.counts;
                        assert!(
                            c.expanded >= reached && c.fused <= c.expanded && c.arcs <= c.expanded * g.m() as u64,
                            "{case}: {c:?}"
                        );
                        assert!(c.pushes + 1 >= reached && c.stale <= c.pushes, "{case}: {c:?}");
                        // Every hub reached on several threads goes through the queue.
                        if (1..=64).contains(&split) && threads > 1 {
                            assert!(c.pieces > 0, "{case}: {c:?}");
                        }
                    }
                }
            }
        }
    }

    /// The default split ([`super::super::fast::split_rule`]) cuts hubs only where a vertex has
    /// more than [`SPLIT`] arcs: a star is split; a uniform random graph of mean degree 16 (the
    /// old rule, mean degree > 4, split it) and a road network (rome99) are not.
    #[test]
    fn hubs_are_split_only_where_a_vertex_has_more_than_split_arcs() {
        use super::super::fast::{SPLIT, split_rule};
        use crate::graph::{GraphBuilder, VertexLabels, WeightRule};
        let build = |n: u32, arcs: &mut dyn Iterator<Item = (u32, u32)>| {
            let mut b = GraphBuilder::new(n as usize, WeightRule::File);
            for (u, v) in arcs {
                b.push(u, v, Some(1 + ((u ^ v) % 255) as i32));
            }
            b.build("rule", None, VertexLabels::Offset(0)).expect("n >= 1")
        };
        let n = SPLIT as u32 + 2;
        let star = build(n, &mut (1..n).map(|v| (0, v)));
        assert_eq!(star.max_out_degree(), SPLIT + 1);
        assert_eq!(split_rule(&star), SPLIT);
        let just_below = build(n, &mut (2..n).map(|v| (0, v)));
        assert_eq!(split_rule(&just_below), 0, "a vertex of exactly SPLIT arcs stays whole");
        let mut x = 0x853c_49e6_748f_ea9b_u64;
        let mut next = move || {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((x >> 33) % 4096) as u32
        };
        let uniform = build(4096, &mut (0..16 * 4096).map(|_| (next(), next())));
        assert!(uniform.m() > 4 * uniform.n() && uniform.max_out_degree() < SPLIT);
        assert_eq!(split_rule(&uniform), 0);
        let rome = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rome99.gr.gz");
        let road = crate::formats::load(&rome, &Default::default()).expect("rome99 loads");
        assert_eq!(split_rule(&road), 0);
    }
}
