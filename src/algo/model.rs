//! The thread and warp figures a vertex-parallel GPU launch would have, computed on the CPU
//! from the vertex sets (seed 000 §5, Fig. 2d: dummy threads of the relax kernel).
//!
//! Threads `0..⌈n/B⌉·B` are launched, thread t serves vertex t, and threads t ≥ n are padding
//! (always dummy). A warp is 32 consecutive threads: *all-working*, *all-dummy* or *mixed*
//! (the ones that diverge). GPU devices count the same figures in their instrumented kernels.

use super::ThreadCounts;
use crate::graph::VertexId;

/// Threads per warp on every NVIDIA GPU (and the model's warp on other devices).
pub const WARP: u64 = 32;

/// Threads a vertex-parallel launch of `n` threads with block size `block` starts: ⌈n/B⌉·B.
pub fn launched_threads(n: u64, block: u32) -> u64 {
    let b = block.max(1) as u64;
    n.div_ceil(b) * b
}

/// Per-warp working-thread counts for a set that changes every iteration (the frontier F).
#[derive(Clone, Debug, Default)]
pub struct SparseWarpCounter {
    count: Vec<u8>,
    touched: Vec<u32>,
}

impl SparseWarpCounter {
    /// A counter for `n` vertices.
    pub fn new(n: usize) -> Self {
        SparseWarpCounter { count: vec![0; n.div_ceil(WARP as usize)], touched: Vec::new() }
    }

    /// Thread counts of a launch where exactly the threads of `working` (distinct vertex ids)
    /// have work. O(|working|).
    pub fn count(&mut self, n: u64, block: u32, working: &[VertexId]) -> ThreadCounts {
        for &v in working {
            let w = v as usize / WARP as usize;
            if self.count[w] == 0 {
                self.touched.push(w as u32);
            }
            self.count[w] += 1;
        }
        let mut full = 0;
        for &w in &self.touched {
            full += u64::from(self.count[w as usize] as u64 == WARP);
            self.count[w as usize] = 0;
        }
        let mixed = self.touched.len() as u64 - full;
        self.touched.clear();
        finish(n, block, working.len() as u64, full, mixed)
    }
}

/// Per-warp counts of a set that only shrinks (the unsettled set U), kept up to date in O(1)
/// per removed vertex.
#[derive(Clone, Debug)]
pub struct ShrinkingWarpCounter {
    n: u64,
    count: Vec<u8>,
    members: u64,
    full: u64,
    mixed: u64,
}

impl ShrinkingWarpCounter {
    /// Starts with every vertex `0..n` in the set.
    pub fn full(n: usize) -> Self {
        let warps = n.div_ceil(WARP as usize);
        let mut count = vec![WARP as u8; warps];
        let rem = n % WARP as usize;
        let (mut full, mut mixed) = (warps as u64, 0);
        if rem != 0 {
            count[warps - 1] = rem as u8;
            full -= 1;
            mixed += 1;
        }
        ShrinkingWarpCounter { n: n as u64, count, members: n as u64, full, mixed }
    }

    /// Removes vertex `v` (must be a member).
    pub fn remove(&mut self, v: VertexId) {
        let w = v as usize / WARP as usize;
        let c = self.count[w] as u64;
        self.count[w] -= 1;
        self.members -= 1;
        if c == WARP {
            self.full -= 1;
            if c > 1 {
                self.mixed += 1;
            }
        } else if c == 1 {
            self.mixed -= 1;
        }
    }

    /// Thread counts of a launch where the members have work.
    pub fn counts(&self, block: u32) -> ThreadCounts {
        finish(self.n, block, self.members, self.full, self.mixed)
    }
}

/// Lane use of a relax launch over a vertex set (`[terms-peers]` warp efficiency): a warp's loop
/// over arcs runs as long as its highest-degree working lane (one thread per vertex), or a block
/// walks its vertices' arcs together, each warp as many rounds as it has arcs (balanced:
/// degree prefix sums and binary search, `kernels/frontier.*`, `kernels/delta_stepping.*`).
/// The GPU kernels count the same pair in their instrumented modes.
#[derive(Clone, Debug, Default)]
pub struct LaneCounter {
    sum: Vec<u64>,
    most: Vec<u64>,
    touched: Vec<u32>,
}

impl LaneCounter {
    /// (arc iterations, warp iterations) of a launch over `working` (distinct vertex ids, any
    /// order) whose per-vertex loop length is `degree(v)`, with `block` threads per block
    /// (balanced: [`balanced_warp_iters`] per block).
    /// O(|working|); the counter grows to the largest group id seen.
    pub fn count(
        &mut self,
        working: &[VertexId],
        degree: impl Fn(VertexId) -> u64,
        block: u32,
        balanced: bool,
    ) -> (u64, u64) {
        let group = if balanced { u64::from(block.max(1)) } else { WARP };
        let mut arcs = 0;
        for &v in working {
            let d = degree(v);
            arcs += d;
            let g = (u64::from(v) / group) as usize;
            if g >= self.sum.len() {
                self.sum.resize(g + 1, 0);
                self.most.resize(g + 1, 0);
            }
            if self.sum[g] == 0 && self.most[g] == 0 {
                self.touched.push(g as u32);
            }
            self.sum[g] += d;
            self.most[g] = self.most[g].max(d).max(1); // max(1): marks the group as touched
        }
        let mut warp_iters = 0;
        for &g in &self.touched {
            let (sum, most) = (self.sum[g as usize], self.most[g as usize]);
            warp_iters += if balanced {
                balanced_warp_iters(sum, group)
            } else if sum == 0 {
                0
            } else {
                most
            };
            self.sum[g as usize] = 0;
            self.most[g as usize] = 0;
        }
        self.touched.clear();
        (arcs, warp_iters)
    }
}

/// Iterations the warps of one block run in a balanced relax over `arcs` arcs with `block`
/// threads: thread t takes arcs t, t + block, …, so warp w (threads 32w…32w+31) runs
/// ⌈(arcs − 32w) / block⌉ rounds when arcs > 32w, and warps past the arcs run none.
pub fn balanced_warp_iters(arcs: u64, block: u64) -> u64 {
    (0..block.div_ceil(WARP)).map(|w| arcs.saturating_sub(WARP * w).div_ceil(block.max(1))).sum()
}

/// Lane use from [`LaneCounter::count`]'s pair: arc iterations / (32 · warp iterations); 1 when
/// nothing ran.
pub fn lane_use(arc_iters: u64, warp_iters: u64) -> f64 {
    if warp_iters == 0 { 1.0 } else { arc_iters as f64 / (WARP * warp_iters) as f64 }
}

fn finish(n: u64, block: u32, working: u64, full: u64, mixed: u64) -> ThreadCounts {
    let launched = launched_threads(n, block);
    ThreadCounts {
        block_size: block,
        launched,
        working,
        // Saturating: block sizes are validated to whole warps, but a bad one must not panic here.
        warps_all_dummy: launched.div_ceil(WARP).saturating_sub(full + mixed),
        warps_mixed: mixed,
        warps_all_working: full,
        modelled: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_warps_run_only_the_rounds_that_have_arcs() {
        // 3 arcs in a block of 256: only warp 0 runs, once.
        assert_eq!(balanced_warp_iters(3, 256), 1);
        // 256 arcs: every one of the 8 warps runs once; 257: warp 0 twice.
        assert_eq!(balanced_warp_iters(256, 256), 8);
        assert_eq!(balanced_warp_iters(257, 256), 9);
        assert_eq!(balanced_warp_iters(0, 256), 0);
        let mut c = LaneCounter::default();
        // Vertices 0 and 300 are in different blocks of 256: 3 + 40 arcs, 1 + 2 warp rounds.
        assert_eq!(c.count(&[0, 300], |v| if v == 0 { 3 } else { 40 }, 256, true), (43, 3));
        // One thread per vertex: both in different warps, each runs its own degree.
        assert_eq!(c.count(&[0, 300], |v| if v == 0 { 3 } else { 40 }, 256, false), (43, 43));
    }

    #[test]
    fn sparse_and_shrinking_agree_on_the_same_set() {
        let n = 100;
        let mut shrink = ShrinkingWarpCounter::full(n);
        for v in [3, 40, 41, 99, 64] {
            shrink.remove(v);
        }
        let members: Vec<VertexId> = (0..n as u32).filter(|v| ![3, 40, 41, 99, 64].contains(v)).collect();
        let a = SparseWarpCounter::new(n).count(n as u64, 64, &members);
        assert_eq!(a, shrink.counts(64));
        assert_eq!(a.launched, 128);
        assert_eq!(a.warps_all_working, 0);
        assert_eq!(a.warps_mixed, 4);
        assert_eq!(a.warps_all_dummy, 0);
    }

    #[test]
    fn full_warps_and_padding() {
        let t = SparseWarpCounter::new(70).count(70, 32, &(0..32).collect::<Vec<_>>());
        assert_eq!((t.launched, t.warps_all_working, t.warps_mixed, t.warps_all_dummy), (96, 1, 0, 2));
        assert!((t.dummy_ratio() - (1.0 - 32.0 / 96.0)).abs() < 1e-12);
    }
}
