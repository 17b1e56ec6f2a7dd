//! A CSR's arcs packed one per 32-bit word — the head in the low bits, the weight above — for
//! graphs whose ids and weights fit together (GAP's scale-21 graphs: 21 bits of head, weights
//! 1..255).
//!
//! Why it was tried: a relaxation round streams each frontier vertex's arcs. The CSR keeps them
//! as two arrays (`targets` and `weights`: two streams, 8 bytes an arc; GAP's `WNode`s
//! interleave the same 8 bytes in one); packed, one stream of 4 bytes an arc. Bit-packing the
//! adjacency is the graph-compression literature's first step (Shun, Dhulipala and Blelloch,
//! "Smaller and faster: parallel processing of compressed graphs with Ligra+", DCC 2015, go
//! further with variable-length codes). CPU Δ-stepping's rounds read it only with
//! `SSSP_DS_PACK=1` ([`crate::algo::delta_stepping`]): on 16 cores it was 9 % slower on
//! Kronecker 21 and even on uniform random 21 (bench/results/cpu-peers-2026-11-26, lease 18),
//! so nothing reads it by default.

use super::{Csr, VertexId, Weight};
use rayon::prelude::*;

/// Arcs of a CSR, arc k (the same index as in `targets` and `weights`) as
/// `head | weight << shift`. Rows are the CSR's: `offsets` are not copied.
#[derive(Debug)]
pub struct PackedArcs {
    /// One word per arc, m words (4m bytes).
    pub arcs: Vec<u32>,
    /// Bits of the head: ⌈log₂ n⌉, at least 1.
    pub shift: u32,
    /// `(1 << shift) - 1`.
    pub mask: u32,
}

impl PackedArcs {
    /// Head of a packed arc.
    #[inline(always)]
    pub fn head(&self, a: u32) -> VertexId {
        a & self.mask
    }

    /// Weight of a packed arc (never negative: [`pack`] refuses negative weights).
    #[inline(always)]
    pub fn weight(&self, a: u32) -> Weight {
        (a >> self.shift) as Weight
    }

    /// Memory held, bytes.
    pub fn bytes(&self) -> usize {
        self.arcs.len() * 4
    }
}

/// Bits a head of a graph of `n` vertices needs (ids 0..n), at least 1.
pub fn head_bits(n: usize) -> u32 {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1)
}

/// Whether the arcs of a graph of `n` vertices with weights in `min_weight..=max_weight` fit
/// one 32-bit word each.
pub fn fits(n: usize, min_weight: Weight, max_weight: Weight) -> bool {
    let bits = head_bits(n);
    n > 0 && bits < 32 && min_weight >= 0 && (max_weight as u64) < 1u64 << (32 - bits)
}

/// `csr`'s arcs packed, or None where they do not fit ([`fits`]; `min_weight` and `max_weight`
/// bound the weights: a negative weight refuses). O(m) on the rayon pool, 4m bytes, collapsed
/// into huge pages like the CSR ([`super::huge`]).
pub fn pack(csr: &Csr, min_weight: Weight, max_weight: Weight) -> Option<PackedArcs> {
    let n = csr.n();
    if !fits(n, min_weight, max_weight) {
        return None;
    }
    let shift = head_bits(n);
    let arcs: Vec<u32> = csr
        .targets
        .par_iter()
        .zip(&csr.weights)
        .with_min_len(1 << 16)
        .map(|(&v, &w)| v | (w as u32) << shift)
        .collect();
    super::huge::advise(&arcs);
    Some(PackedArcs { arcs, shift, mask: (1u32 << shift) - 1 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_and_weights_come_back_and_misfits_are_refused() {
        assert_eq!(
            (head_bits(1), head_bits(2), head_bits(3), head_bits(1 << 21), head_bits((1 << 21) + 1)),
            (1, 1, 2, 21, 22)
        );
        let csr = Csr { offsets: vec![0, 2, 3, 3], targets: vec![1, 2, 0], weights: vec![5, (1 << 30) - 1, 0] };
        let p = pack(&csr, 0, (1 << 30) - 1).expect("2 bits of head leave 30 for the weight");
        let back: Vec<_> = p.arcs.iter().map(|&a| (p.head(a), p.weight(a))).collect();
        assert_eq!(back, vec![(1, 5), (2, (1 << 30) - 1), (0, 0)]);
        assert!(pack(&csr, 0, 1 << 30).is_none(), "a weight past 30 bits");
        assert!(pack(&csr, -1, 5).is_none(), "a negative weight");
        assert!(!fits(0, 0, 0));
        assert!(fits(1 << 21, 1, 255) && !fits(1 << 24, 0, 1 << 8) && fits(1 << 24, 0, 255));
    }
}
