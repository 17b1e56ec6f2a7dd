//! Radix heap: a monotone priority queue for integer keys (Ahuja, Mehlhorn, Orlin & Tarjan,
//! 1990). Dijkstra only ever inserts keys ≥ the last key extracted, which is exactly the
//! monotone case, so a push is an O(1) append and a pop costs amortised O(log C) moves — no
//! sifting through a comparison heap. Stale entries are left in place (lazy deletion); the
//! caller skips them.
//!
//! Generic over the key width: sequential Dijkstra runs on `u32` keys when every distance of
//! the graph fits ([`crate::graph::Graph::path_bound`]), which halves the heap entries and the
//! distance array it scans.

use crate::graph::{Distance, VertexId, Weight};
use std::ops::{Add, BitXor};

/// A key type (never negative) of a [`RadixHeap`] and of the distances of a sequential solve.
pub trait RadixKey: Copy + Ord + Default + Add<Output = Self> + BitXor<Output = Self> + std::fmt::Debug {
    /// Bits of the key.
    const BITS: u32;
    /// The unreached distance (all ones).
    const INF: Self;
    /// Leading zero bits.
    fn leading_zeros(self) -> u32;
    /// An arc weight as a key.
    fn from_weight(w: Weight) -> Self;
    /// The key as a 64-bit [`Distance`] (`INF` stays `INF`).
    fn widen(self) -> Distance;
}

/// Distances as they are ([`Distance`] = `i64`): keys of a Dijkstra run are never negative (it
/// refuses negative weights), so their bit patterns order like unsigned ones.
impl RadixKey for i64 {
    const BITS: u32 = 64;
    const INF: i64 = i64::MAX;
    #[inline]
    fn leading_zeros(self) -> u32 {
        i64::leading_zeros(self)
    }
    #[inline]
    fn from_weight(w: Weight) -> i64 {
        w as i64
    }
    #[inline]
    fn widen(self) -> Distance {
        self
    }
}

impl RadixKey for u32 {
    const BITS: u32 = 32;
    const INF: u32 = u32::MAX;
    #[inline]
    fn leading_zeros(self) -> u32 {
        u32::leading_zeros(self)
    }
    #[inline]
    fn from_weight(w: Weight) -> u32 {
        w as u32
    }
    #[inline]
    fn widen(self) -> Distance {
        if self == u32::MAX { crate::graph::INF } else { self as Distance }
    }
}

/// Monotone min-queue of `(key, vertex)`.
#[derive(Clone, Debug)]
pub struct RadixHeap<K: RadixKey = Distance> {
    last: K,
    len: usize,
    /// Bucket i holds keys whose highest bit differing from `last` is bit i − 1 (bucket 0:
    /// key == last). 65 buckets serve both widths; a `u32` heap uses the first 33.
    buckets: [Vec<(K, VertexId)>; 65],
}

impl<K: RadixKey> Default for RadixHeap<K> {
    fn default() -> Self {
        RadixHeap { last: K::default(), len: 0, buckets: std::array::from_fn(|_| Vec::new()) }
    }
}

#[inline]
fn bucket<K: RadixKey>(key: K, last: K) -> usize {
    (K::BITS - (key ^ last).leading_zeros()) as usize
}

impl<K: RadixKey> RadixHeap<K> {
    /// Entries held (stale ones included).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no entry is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Inserts `(key, v)`. Keys below the last extracted key break the monotone contract; they
    /// are clamped to it in release builds (never happens with non-negative weights).
    #[inline]
    pub fn push(&mut self, key: K, v: VertexId) {
        debug_assert!(key >= self.last, "radix heap keys must not decrease");
        let key = key.max(self.last);
        self.buckets[bucket(key, self.last)].push((key, v));
        self.len += 1;
    }

    /// Removes and returns an entry with the smallest key.
    pub fn pop(&mut self) -> Option<(K, VertexId)> {
        if self.buckets[0].is_empty() {
            let i = (1..self.buckets.len()).find(|&i| !self.buckets[i].is_empty())?;
            let moved = std::mem::take(&mut self.buckets[i]);
            self.last = moved.iter().map(|&(k, _)| k).min().unwrap_or(self.last);
            for &(k, v) in &moved {
                self.buckets[bucket(k, self.last)].push((k, v));
            }
            // Give the emptied bucket its allocation back for the next round.
            let mut moved = moved;
            moved.clear();
            self.buckets[i] = moved;
        }
        let top = self.buckets[0].pop();
        if top.is_some() {
            self.len -= 1;
        }
        top
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    #[test]
    fn pops_in_the_same_key_order_as_a_binary_heap_under_monotone_pushes() {
        let (mut r, mut b) = (RadixHeap::default(), BinaryHeap::new());
        let mut x = 12345u64;
        let mut last: i64 = 0;
        for round in 0..20_000u32 {
            x = crate::graph::mix_seed(x, round as u64);
            for k in 0..(x % 4) {
                let key = last + ((x >> (8 * k)) % 1000) as i64;
                r.push(key, round);
                b.push(Reverse(key));
            }
            if !x.is_multiple_of(3) {
                let got = r.pop().map(|(k, _)| k);
                let want = b.pop().map(|Reverse(k)| k);
                assert_eq!(got, want);
                last = got.unwrap_or(last);
            }
            assert_eq!(r.len(), b.len());
        }
        while let Some(Reverse(k)) = b.pop() {
            assert_eq!(r.pop().map(|(k, _)| k), Some(k));
        }
        assert!(r.pop().is_none() && r.is_empty());
    }

    #[test]
    fn u32_keys_pop_in_order_up_to_the_top_of_the_range() {
        let mut r = RadixHeap::<u32>::default();
        let keys = [5u32, 5, 7, u32::MAX - 1, 6, 1 << 31, 9];
        keys.iter().enumerate().for_each(|(i, &k)| r.push(k, i as u32));
        let mut sorted = keys.to_vec();
        sorted.sort();
        let popped: Vec<u32> = std::iter::from_fn(|| r.pop().map(|(k, _)| k)).collect();
        assert_eq!(popped, sorted);
        assert_eq!(u32::MAX.widen(), crate::graph::INF);
        assert_eq!(7u32.widen(), 7);
    }
}
