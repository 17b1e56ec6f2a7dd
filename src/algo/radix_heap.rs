//! Radix heap: a monotone priority queue for integer keys (Ahuja, Mehlhorn, Orlin & Tarjan,
//! 1990). Dijkstra only ever inserts keys ≥ the last key extracted, which is exactly the
//! monotone case, so a push is an O(1) append and a pop costs amortised O(log C) moves — no
//! sifting through a comparison heap. Stale entries are left in place (lazy deletion); the
//! caller skips them.

use crate::graph::{Distance, VertexId};

/// Monotone min-queue of `(key, vertex)`.
#[derive(Clone, Debug)]
pub struct RadixHeap {
    last: Distance,
    len: usize,
    /// Bucket i holds keys whose highest bit differing from `last` is bit i − 1 (bucket 0:
    /// key == last).
    buckets: [Vec<(Distance, VertexId)>; 65],
}

impl Default for RadixHeap {
    fn default() -> Self {
        RadixHeap { last: 0, len: 0, buckets: std::array::from_fn(|_| Vec::new()) }
    }
}

#[inline]
fn bucket(key: Distance, last: Distance) -> usize {
    (Distance::BITS - (key ^ last).leading_zeros()) as usize
}

impl RadixHeap {
    /// Entries held (stale ones included).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no entry is held.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Inserts `(key, v)`. Keys below the last extracted key break the monotone contract; they
    /// are clamped to it in release builds (never happens with non-negative weights).
    #[inline]
    pub fn push(&mut self, key: Distance, v: VertexId) {
        debug_assert!(key >= self.last, "radix heap keys must not decrease");
        let key = key.max(self.last);
        self.buckets[bucket(key, self.last)].push((key, v));
        self.len += 1;
    }

    /// Removes and returns an entry with the smallest key.
    pub fn pop(&mut self) -> Option<(Distance, VertexId)> {
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
        let mut last = 0;
        for round in 0..20_000u32 {
            x = crate::graph::mix_seed(x, round as u64);
            for k in 0..(x % 4) {
                let key = last + (x >> (8 * k)) % 1000;
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
}
