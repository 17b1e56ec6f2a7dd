//! Seed 004 §4.1's hybrid solutions (`split=uh1/uh2/uh3` of the predecessors solvers): some
//! phases of an iteration on one CPU thread, the rest on the GPU, and the state they need copied
//! across the bus every iteration. The minimum is always on the CPU ("inherently sequential"
//! there). Per iteration:
//!
//! | split | relax | minimum | update | copies |
//! |---|---|---|---|---|
//! | UH1 | CPU | CPU | GPU | δ, stamps ↓; δ, Δ ↑ |
//! | UH2 | GPU | CPU | CPU | δ, stamps ↓; stamps ↑ |
//! | UH3 | GPU | CPU | GPU | δ, stamps ↓; Δ ↑ |
//!
//! The device holds the state between iterations, so stepping, restarts and the host diff work
//! as for the all-GPU run. Each phase is timed on the host after a synchronisation (the hybrid
//! waits for every phase anyway); the copies are their own phase (`PhaseTimes::copy_ms`).

use super::super::dev_err;
use super::launch::out_words;
use super::{C_COUNT, C_NEXT_FRONTIER, CudaFrontier, Dist, IterOut};
use crate::algo::{PhaseTimes, SolveError, Threshold};
use crate::device::gpu::UNSET;
use crate::graph::{Distance, INF};
use std::time::Instant;

impl<D: Dist> CudaFrontier<D> {
    /// One iteration of a hybrid (see the module docs); `count_update` also counts the next
    /// frontier when the update runs on the GPU (on the CPU it is always counted).
    pub(super) fn hybrid_iteration(&mut self, i: u32, count_update: bool) -> Result<IterOut, SolveError> {
        let split = self.run.split;
        let n = self.n as usize;
        let mut times = PhaseTimes::default();
        let mut ctr = [0u64; C_COUNT];
        let clock = Instant::now;
        let ms = |t: Instant| t.elapsed().as_secs_f64() * 1e3;

        if split.relax_on_gpu() {
            let t = clock();
            self.launch_relax(i)?;
            self.sync("the relax kernel failed")?;
            times.relax_ms = ms(t);
        }
        // Host copies kept across iterations (no O(n) allocation per iteration); the CPU phases
        // work on the device's own δ width.
        let (mut dist, mut stamp) = std::mem::take(&mut self.hybrid_host);
        dist.resize(n, D::INF);
        stamp.resize(n, 0);
        let t = clock();
        self.stream.memcpy_dtoh(&self.st.dist, &mut dist[..]).map_err(dev_err("cannot copy δ from the GPU"))?;
        self.stream
            .memcpy_dtoh(&self.st.stamp, &mut stamp[..])
            .map_err(dev_err("cannot copy the stamps from the GPU"))?;
        self.sync("copying the state from the GPU failed")?;
        times.copy_ms += ms(t);

        if !split.relax_on_gpu() {
            let t = clock();
            relax_pred_host(self.graph.predecessors(), &mut dist, &stamp, i);
            times.relax_ms = ms(t);
        }
        let t = clock();
        let deltas = host_minimum(&dist, &stamp, self.graph.omega(), self.run.threshold);
        times.minimum_ms = ms(t);

        let t = clock();
        if !split.relax_on_gpu() {
            self.stream.memcpy_htod(&dist[..], &mut self.st.dist).map_err(dev_err("cannot copy δ to the GPU"))?;
        }
        if split.update_on_gpu() {
            self.stream.memcpy_htod(&deltas[..], &mut self.st.out).map_err(dev_err("cannot write Δ to the GPU"))?;
        }
        self.sync("copying to the GPU failed")?;
        times.copy_ms += ms(t);

        if split.update_on_gpu() {
            let t = clock();
            if count_update {
                self.stream.memset_zeros(&mut self.st.ctr).map_err(dev_err("cannot clear the counters"))?;
            }
            self.launch_update(i, count_update)?;
            if count_update {
                self.stream
                    .memcpy_dtoh(&self.st.ctr, &mut ctr[..])
                    .map_err(dev_err("cannot read the counters from the GPU"))?;
            }
            self.sync("the update kernel failed")?;
            times.update_ms = ms(t);
        } else {
            let t = clock();
            ctr[C_NEXT_FRONTIER] = host_update(&mut stamp, &dist, deltas[2], i);
            times.update_ms = ms(t);
            let t = clock();
            self.stream
                .memcpy_htod(&stamp[..], &mut self.st.stamp)
                .map_err(dev_err("cannot copy the stamps to the GPU"))?;
            self.sync("copying the stamps to the GPU failed")?;
            times.copy_ms += ms(t);
        }
        self.hybrid_host = (dist, stamp);
        Ok(IterOut { times, deltas, ctr })
    }
}

/// update on one CPU thread: every reached unsettled vertex with δ ≤ Δ joins F_{i+1} (stamp
/// i + 1); returns |F_{i+1}|.
fn host_update<D: Dist>(stamp: &mut [u32], dist: &[D], delta: u64, i: u32) -> u64 {
    let mut next = 0u64;
    for (s, &d) in stamp.iter_mut().zip(dist) {
        let d = d.to_host();
        if *s == UNSET && d != INF && (d as u64) <= delta {
            *s = i + 1;
            next += 1;
        }
    }
    next
}

/// relax_U on one CPU thread ([seed004] Fig. 3 right): every unsettled v takes
/// min δ(p) + w(p, v) over its frontier in-neighbours p (stamp i).
fn relax_pred_host<D: Dist>(pred: &crate::graph::Csr, dist: &mut [D], stamp: &[u32], i: u32) {
    for v in 0..dist.len() {
        if stamp[v] != UNSET {
            continue;
        }
        let old = dist[v].to_host();
        let mut best = old;
        for (p, w) in pred.arcs(v as u32) {
            if stamp[p as usize] == i {
                best = best.min(dist[p as usize].to_host() + Distance::from(w));
            }
        }
        if best < old {
            dist[v] = D::from_host(best);
        }
    }
}

/// Both minima over U on the CPU (min δ, min δ + ω over reached unsettled vertices), as the
/// `out` words of the GPU's minimum2.
fn host_minimum<D: Dist>(dist: &[D], stamp: &[u32], omega: &[Distance], threshold: Threshold) -> [u64; 3] {
    let (mut m, mut c) = (u64::MAX, u64::MAX);
    for ((&d, &s), &om) in dist.iter().zip(stamp).zip(omega) {
        let d = d.to_host();
        if s == UNSET && d != INF {
            m = m.min(d as u64);
            if om != INF {
                c = c.min(d as u64 + om as u64);
            }
        }
    }
    out_words(m, c, threshold)
}
