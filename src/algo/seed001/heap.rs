//! The priority queues of seed 001 (`[seed001]` §2): an indexed binary min-heap with
//! DecreaseKey, used under one lock (`cgs-lock`, `helper`), and the same heap with one lock per
//! node, so that DecreaseKeys on different parts of the tree run in parallel (`fgs-lock`: the
//! paper locks each parent–child pair while it swaps them).

use crate::graph::{Distance, VertexId};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};

/// `pos` of a vertex that is not in the heap (never reached, or extracted).
const ABSENT: u32 = u32::MAX;
/// `pos` of a vertex another thread is inserting right now.
const BUSY: u32 = u32::MAX - 1;

/// Indexed binary min-heap of (δ, vertex): O(log n) push, DecreaseKey and ExtractMin.
#[derive(Debug)]
pub struct IndexedHeap {
    nodes: Vec<(Distance, VertexId)>,
    pos: Vec<u32>,
}

impl IndexedHeap {
    /// An empty heap for vertices `0..n`.
    pub fn new(n: usize) -> Self {
        IndexedHeap { nodes: Vec::new(), pos: vec![ABSENT; n] }
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The vertex at array position `k` (0 = the minimum): seed 001's `ReadMin(Q, k)`.
    pub fn at(&self, k: usize) -> Option<VertexId> {
        self.nodes.get(k).map(|&(_, v)| v)
    }

    /// Inserts `v` with `key`, or lowers its key when `key` is smaller (DecreaseKey).
    pub fn push_or_decrease(&mut self, v: VertexId, key: Distance) {
        let p = self.pos[v as usize];
        let i = if p == ABSENT {
            self.nodes.push((key, v));
            self.nodes.len() - 1
        } else if key < self.nodes[p as usize].0 {
            self.nodes[p as usize].0 = key;
            p as usize
        } else {
            return;
        };
        self.pos[v as usize] = i as u32;
        self.sift_up(i);
    }

    /// Removes and returns the minimum (ExtractMin).
    pub fn pop_min(&mut self) -> Option<(Distance, VertexId)> {
        let last = self.nodes.pop()?;
        let top = if self.nodes.is_empty() {
            last
        } else {
            let top = std::mem::replace(&mut self.nodes[0], last);
            self.pos[last.1 as usize] = 0;
            self.sift_down(0);
            top
        };
        self.pos[top.1 as usize] = ABSENT;
        Some(top)
    }

    fn sift_up(&mut self, mut i: usize) {
        while i > 0 {
            let p = (i - 1) / 2;
            if self.nodes[i].0 >= self.nodes[p].0 {
                break;
            }
            self.swap(i, p);
            i = p;
        }
    }

    fn sift_down(&mut self, mut i: usize) {
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut m = i;
            if l < self.nodes.len() && self.nodes[l].0 < self.nodes[m].0 {
                m = l;
            }
            if r < self.nodes.len() && self.nodes[r].0 < self.nodes[m].0 {
                m = r;
            }
            if m == i {
                return;
            }
            self.swap(i, m);
            i = m;
        }
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.nodes.swap(a, b);
        self.pos[self.nodes[a].1 as usize] = a as u32;
        self.pos[self.nodes[b].1 as usize] = b as u32;
    }
}

/// The indexed heap with a lock per node (`fgs-lock`). Concurrent DecreaseKeys and inserts move
/// nodes only upwards, hand over hand: a thread holds its node and takes the parent's lock, so
/// locks are always taken towards the root and no cycle of waits can form. ExtractMin runs
/// while no other thread touches the heap (between the scheme's barriers).
#[derive(Debug)]
pub struct PairLockedHeap {
    nodes: Vec<Mutex<(Distance, VertexId)>>,
    len: Mutex<usize>,
    pos: Vec<AtomicU32>,
}

/// Lock waits of one operation: (acquisitions that found the lock taken, ns spent waiting).
pub type Waits = (u64, u64);

impl PairLockedHeap {
    /// An empty heap for vertices `0..n` (n node locks).
    pub fn new(n: usize) -> Self {
        PairLockedHeap {
            nodes: (0..n).map(|_| Mutex::new((Distance::MAX, 0))).collect(),
            len: Mutex::new(0),
            pos: (0..n).map(|_| AtomicU32::new(ABSENT)).collect(),
        }
    }

    pub fn len(&self) -> usize {
        *lock(&self.len, &mut (0, 0))
    }

    /// Inserts `v` or lowers its key to `key` (no-op when not lower); safe to call from many
    /// threads at once. Adds its lock waits to `waits`.
    pub fn push_or_decrease(&self, v: VertexId, key: Distance, waits: &mut Waits) {
        loop {
            let p = self.pos[v as usize].load(Ordering::Acquire);
            if p == BUSY {
                std::hint::spin_loop();
                continue;
            }
            if p == ABSENT {
                // One inserter per vertex: the others wait until it has a node.
                if self.pos[v as usize].compare_exchange(ABSENT, BUSY, Ordering::AcqRel, Ordering::Acquire).is_err() {
                    continue;
                }
                let mut len = lock(&self.len, waits);
                let i = *len;
                // Taken before the length grows: nobody can reach node i before it holds v.
                let mut g = lock(&self.nodes[i], waits);
                *len += 1;
                drop(len);
                *g = (key, v);
                self.pos[v as usize].store(i as u32, Ordering::Release);
                self.sift_up(i, g, waits);
                return;
            }
            let g = lock(&self.nodes[p as usize], waits);
            if g.1 != v {
                continue; // moved by another thread's swap: look again
            }
            if key < g.0 {
                let mut g = g;
                g.0 = key;
                self.sift_up(p as usize, g, waits);
            }
            return;
        }
    }

    fn sift_up<'a>(&'a self, mut i: usize, mut g: MutexGuard<'a, (Distance, VertexId)>, waits: &mut Waits) {
        while i > 0 {
            let p = (i - 1) / 2;
            let mut pg = lock(&self.nodes[p], waits);
            if g.0 >= pg.0 {
                return;
            }
            std::mem::swap(&mut *g, &mut *pg);
            self.pos[g.1 as usize].store(i as u32, Ordering::Release);
            self.pos[pg.1 as usize].store(p as u32, Ordering::Release);
            drop(g);
            g = pg;
            i = p;
        }
    }

    /// Removes and returns the minimum. Must not run concurrently with other operations.
    pub fn pop_min(&self) -> Option<(Distance, VertexId)> {
        let w = &mut (0, 0);
        let mut len = lock(&self.len, w);
        if *len == 0 {
            return None;
        }
        *len -= 1;
        let last = *len;
        let n = *len;
        drop(len);
        let top = {
            let mut root = lock(&self.nodes[0], w);
            if last != 0 {
                let mut l = lock(&self.nodes[last], w);
                std::mem::swap(&mut *root, &mut *l);
                self.pos[root.1 as usize].store(0, Ordering::Release);
                *l
            } else {
                *root
            }
        };
        self.pos[top.1 as usize].store(ABSENT, Ordering::Release);
        let mut i = 0;
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let key = |k: usize| lock(&self.nodes[k], &mut (0, 0)).0;
            let mut m = i;
            if l < n && key(l) < key(m) {
                m = l;
            }
            if r < n && key(r) < key(m) {
                m = r;
            }
            if m == i {
                return Some(top);
            }
            let (mut a, mut b) = (lock(&self.nodes[i], w), lock(&self.nodes[m], w));
            std::mem::swap(&mut *a, &mut *b);
            self.pos[a.1 as usize].store(i as u32, Ordering::Release);
            self.pos[b.1 as usize].store(m as u32, Ordering::Release);
            i = m;
        }
    }
}

/// Takes `m`, counting a wait (and its ns) when another thread holds it. A poisoned lock still
/// holds consistent data here (every critical section only swaps whole entries), so it is used.
pub fn lock<'a, T>(m: &'a Mutex<T>, waits: &mut Waits) -> MutexGuard<'a, T> {
    match m.try_lock() {
        Ok(g) => g,
        Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => {
            let t = std::time::Instant::now();
            let g = m.lock().unwrap_or_else(|p| p.into_inner());
            waits.0 += 1;
            waits.1 += t.elapsed().as_nanos() as u64;
            g
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_heaps_pop_in_key_order_after_decreases() {
        let n = 500;
        let mut a = IndexedHeap::new(n);
        let b = PairLockedHeap::new(n);
        let w = &mut (0, 0);
        for v in 0..n as VertexId {
            let k = ((v as i64 * 7919) % 1000) + 10;
            a.push_or_decrease(v, k);
            b.push_or_decrease(v, k, w);
        }
        for v in (0..n as VertexId).step_by(3) {
            a.push_or_decrease(v, 5 + v as i64 % 7);
            b.push_or_decrease(v, 5 + v as i64 % 7, w);
            a.push_or_decrease(v, 10_000); // not lower: ignored
            b.push_or_decrease(v, 10_000, w);
        }
        let (mut last_a, mut last_b) = (i64::MIN, i64::MIN);
        for _ in 0..n {
            let (ka, _) = a.pop_min().expect("a");
            let (kb, _) = b.pop_min().expect("b");
            assert!(ka >= last_a && kb >= last_b);
            assert_eq!(ka, kb);
            (last_a, last_b) = (ka, kb);
        }
        assert!(a.pop_min().is_none() && a.len() == 0 && b.pop_min().is_none());
    }

    #[test]
    fn concurrent_decreases_keep_the_pair_locked_heap_ordered() {
        let n = 4000;
        let h = PairLockedHeap::new(n);
        std::thread::scope(|s| {
            for t in 0..8u32 {
                let h = &h;
                s.spawn(move || {
                    let w = &mut (0, 0);
                    for k in 0..3 {
                        for v in (0..n as VertexId).rev() {
                            let key = 1_000_000 - i64::from(v * 31 % 997) * (k + 1) - i64::from(t);
                            h.push_or_decrease(v, key, w);
                        }
                    }
                });
            }
        });
        assert_eq!(h.len(), n);
        let mut last = i64::MIN;
        let mut seen = vec![false; n];
        while let Some((k, v)) = h.pop_min() {
            assert!(k >= last, "heap order broken: {k} after {last}");
            assert!(!seen[v as usize]);
            seen[v as usize] = true;
            last = k;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
