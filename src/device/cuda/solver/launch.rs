//! One vertex-parallel iteration on CUDA (relax, two-pass minimum, update of
//! `kernels/frontier.cu` / `racy.cu`) as the frontier driver steps it or runs it to the end.
//! Records come from [`crate::device::gpu`].

use super::super::dev_err;
use super::{
    C_ARC_ITERS, C_ATTEMPTED, C_COUNT, C_IMPROVED, C_NEXT_FRONTIER, C_REACHED, C_SCANNED, C_WARP_ITERS, C_WARPS_DUMMY,
    C_WARPS_FULL,
};
use super::{C_WARPS_MIXED, C_WORKING, CudaFrontier, Dist, IterOut, RACY_SPIN_CYCLES, cfg};
use crate::algo::{IterationRecord, PhaseTimes, RelaxVariant, SolveError, Threshold, Thresholds};
use crate::device::driver::frontier::{At, Phase, StepOut};
use crate::device::gpu::{self, Counters, Split};
use cudarc::driver::{CudaEvent, PushKernelArg};

impl<D: Dist> CudaFrontier<D> {
    /// Launches relax, minimum and update of iteration `i`, timing each with events, and reads
    /// back the thresholds (and counters when instrumented or `count_update`). The hybrids
    /// (`split=uh1/uh2/uh3`) go through [`Self::hybrid_iteration`] instead.
    pub(super) fn launch_iteration(&mut self, i: u32, count_update: bool) -> Result<IterOut, SolveError> {
        if self.run.split != Split::Gpu {
            return self.hybrid_iteration(i, count_update);
        }
        let instr = self.counting();
        if instr || count_update {
            self.stream.memset_zeros(&mut self.st.ctr).map_err(dev_err("cannot clear the counters"))?;
        }
        if let Some(prev) = &mut self.st.prev {
            self.stream.memcpy_dtod(&self.st.dist, prev).map_err(dev_err("cannot snapshot δ"))?;
        }
        let e0 = self.event()?;
        self.launch_relax(i)?;
        let e1 = self.event()?;
        if self.run.one_pass_min {
            self.launch_min1()?;
            let deltas = self.host_min_of_parts()?;
            self.stream.memcpy_htod(&deltas[..], &mut self.st.out).map_err(dev_err("cannot write Δ to the GPU"))?;
        } else {
            self.launch_min()?;
        }
        let e2 = self.event()?;
        self.launch_update(i, count_update && !instr)?;
        let e3 = self.event()?;
        let s = &self.stream;
        let mut deltas = [0u64; 3];
        s.memcpy_dtoh(&self.st.out, &mut deltas[..]).map_err(dev_err("cannot read Δ from the GPU"))?;
        let mut ctr = [0u64; C_COUNT];
        if instr || count_update {
            s.memcpy_dtoh(&self.st.ctr, &mut ctr[..]).map_err(dev_err("cannot read the counters from the GPU"))?;
        }
        self.sync("an iteration on the GPU failed")?;
        let ms = |a: &CudaEvent, z: &CudaEvent| -> Result<f64, SolveError> {
            Ok(a.elapsed_ms(z).map_err(dev_err("cannot read CUDA event times"))? as f64)
        };
        let times =
            PhaseTimes { relax_ms: ms(&e0, &e1)?, minimum_ms: ms(&e1, &e2)?, update_ms: ms(&e2, &e3)?, copy_ms: 0.0 };
        Ok(IterOut { times, deltas, ctr })
    }

    /// Whether this run's kernels count (instrumented mode; seed 004's variants have no
    /// counting kernels, their records come from the host diff or the update's count).
    pub(super) fn counting(&self) -> bool {
        self.opts.instrument && !self.run.seed004_variant()
    }

    /// Enqueues the relax of iteration `i` (lists or matrix, whichever the stepper holds).
    pub(super) fn launch_relax(&self, i: u32) -> Result<(), SolveError> {
        let n = self.n;
        let b = self.opts.block.relax;
        let mut l = self.stream.launch_builder(&self.k.relax);
        l.arg(&n);
        if let Some(w) = &self.g.matrix {
            l.arg(w).arg(&self.st.dist).arg(&self.st.stamp).arg(&i);
            // SAFETY: arguments match relax_{pred,succ}_mat[_racy]_* of kernels/seed004.cu (n, the
            // n × n matrix, dist, stamp, iter); threads past n only load shared chunks.
            return unsafe { l.launch(cfg(n.div_ceil(b), b)) }
                .map(|_| ())
                .map_err(dev_err("relax (matrix) kernel launch failed"));
        }
        match (&self.g.pred, self.run.variant) {
            (Some([po, ps, pw]), RelaxVariant::Predecessors) => {
                l.arg(po).arg(ps).arg(pw);
            }
            _ => {
                l.arg(&self.g.off).arg(&self.g.tgt).arg(&self.g.wgt);
            }
        }
        l.arg(&self.st.dist).arg(&self.st.stamp).arg(&i).arg(&self.st.ctr);
        let spin = RACY_SPIN_CYCLES;
        if self.run.racy {
            l.arg(&spin);
        }
        // SAFETY: arguments match relax_{succ,pred,racy,pred_plus}[_instr]_* (n, csr×3, dist, stamp,
        // iter, ctr[, spin]); threads past n only vote in the warp ballot.
        unsafe { l.launch(cfg(n.div_ceil(b), b)) }.map(|_| ()).map_err(dev_err("relax kernel launch failed"))
    }

    /// Number of per-block minima minimum1 writes (`minimum1` reduces 2 × block vertices).
    fn min_parts(&self) -> u32 {
        self.n.div_ceil(2 * self.opts.block.minimum)
    }

    /// Enqueues minimum1: per-block min δ and min δ + ω over U into `part_m`, `part_c`.
    fn launch_min1(&self) -> Result<(), SolveError> {
        let n = self.n;
        let b = self.opts.block.minimum;
        let prev = self.st.prev.as_ref().unwrap_or(&self.st.dist);
        let mut l = self.stream.launch_builder(&self.k.min1);
        l.arg(&n).arg(&self.st.dist).arg(prev).arg(&self.st.stamp).arg(&self.st.omega);
        l.arg(&self.st.part_m).arg(&self.st.part_c).arg(&self.st.ctr);
        // SAFETY: matches min1[_instr]_*; part_* hold ⌈n/64⌉+1 ≥ `parts` entries.
        unsafe { l.launch(cfg(self.min_parts(), b)) }.map(|_| ()).map_err(dev_err("minimum kernel launch failed"))
    }

    /// Enqueues both passes of the minimum (minimum1, then minimum2 on one block): Δ stays on
    /// the device (`out`) for the update.
    fn launch_min(&self) -> Result<(), SolveError> {
        self.launch_min1()?;
        let parts = self.min_parts();
        let crauser = u32::from(self.run.threshold == Threshold::Crauser);
        let mut l = self.stream.launch_builder(&self.k.min2);
        l.arg(&parts).arg(&self.st.part_m).arg(&self.st.part_c).arg(&crauser).arg(&self.st.out);
        // SAFETY: matches sssp_min2; one block.
        unsafe { l.launch(cfg(1, self.opts.block.minimum)) }
            .map(|_| ())
            .map_err(dev_err("minimum (second pass) kernel launch failed"))
    }

    /// The one-pass minimum's host half (`minimum=one-pass`, UGPU of [seed004] §4.1): copies
    /// minimum1's per-block values and reduces them here; returns the `out` words.
    fn host_min_of_parts(&self) -> Result<[u64; 3], SolveError> {
        let parts = self.min_parts() as usize;
        let mut m = vec![0u64; parts];
        let mut c = vec![0u64; parts];
        let (sm, sc) = (self.st.part_m.slice(..parts), self.st.part_c.slice(..parts));
        self.stream.memcpy_dtoh(&sm, &mut m[..]).map_err(dev_err("cannot copy the block minima"))?;
        self.stream.memcpy_dtoh(&sc, &mut c[..]).map_err(dev_err("cannot copy the block minima"))?;
        self.sync("copying the block minima failed")?;
        let (m, c) = (m.into_iter().min().unwrap_or(u64::MAX), c.into_iter().min().unwrap_or(u64::MAX));
        Ok(out_words(m, c, self.run.threshold))
    }

    /// Enqueues the update of iteration `i` (Δ from `out[2]`); `count` counts the next frontier.
    pub(super) fn launch_update(&self, i: u32, count: bool) -> Result<(), SolveError> {
        let n = self.n;
        let b = self.opts.block.update;
        let f = if count { &self.k.update_counting } else { &self.k.update };
        let mut l = self.stream.launch_builder(f);
        l.arg(&n).arg(&self.st.dist).arg(&self.st.stamp).arg(&i).arg(&self.st.out).arg(&self.st.ctr);
        // SAFETY: matches update[_instr]_*.
        unsafe { l.launch(cfg(n.div_ceil(b), b)) }.map(|_| ()).map_err(dev_err("update kernel launch failed"))
    }

    /// Thresholds of an iteration from the Δ words the minimum wrote.
    fn thresholds(&self, out: &IterOut) -> Thresholds {
        gpu::thresholds(self.run, gpu::widen_u64(out.deltas[0]), gpu::widen_u64(out.deltas[1]))
    }

    /// Record of an instrumented iteration `i`, from the kernels' counters and the sizes before
    /// it (`at`).
    fn counted_record(&self, i: u32, out: &IterOut, at: At) -> IterationRecord {
        let c = &out.ctr;
        let counters = Counters {
            frontier: at.next,
            unsettled: self.n as u64 - at.settled,
            reached: c[C_REACHED],
            next_frontier: c[C_NEXT_FRONTIER],
            scanned: c[C_SCANNED],
            attempted: c[C_ATTEMPTED],
            improved: c[C_IMPROVED],
            working: Some(c[C_WORKING]),
            warps_full: c[C_WARPS_FULL],
            warps_mixed: c[C_WARPS_MIXED],
            warps_dummy: Some(c[C_WARPS_DUMMY]),
            arc_iters: c[C_ARC_ITERS],
            warp_iters: c[C_WARP_ITERS],
        };
        gpu::counted_record(
            i,
            self.run,
            self.n as u64,
            self.opts.block.relax,
            &self.thresholds(out),
            &counters,
            out.times,
        )
    }

    /// A step's iteration (`at.iteration + 1`): the kernels, and their own record when they
    /// count; the driver copies the state back and diffs it.
    pub(super) fn step_iteration(&mut self, at: At) -> Result<StepOut, SolveError> {
        let i = at.iteration + 1;
        let out = self.launch_iteration(i, false)?;
        self.lists_for = None;
        let counted = self.counting().then(|| self.counted_record(i, &out, at));
        let thresholds = self.thresholds(&out);
        Ok(StepOut { done: thresholds.finished(), thresholds, times: out.times, counted })
    }

    /// A per-phase iteration of `run_to_end` (`at.iteration + 1`): no state copy, the update
    /// counts |Fᵢ₊₁| even when nothing else is counted.
    pub(super) fn phase_iteration(&mut self, at: At) -> Result<Phase, SolveError> {
        let i = at.iteration + 1;
        let out = self.launch_iteration(i, true)?;
        self.lists_for = None;
        let mut record = self.counted_record(i, &out, at);
        let th = self.thresholds(&out);
        if !self.counting() {
            // Only the update counted: keep what was measured.
            record.threads = None;
            record.reached = 0;
            record.values = crate::algo::frontier_values(&th, out.ctr[C_NEXT_FRONTIER], None);
        }
        let settled = Some((record.settled, out.ctr[C_NEXT_FRONTIER]));
        Ok(Phase { settled, done: th.finished(), record })
    }
}

/// The three `out` words sssp_min2 writes ([Δ_martin, Δ_crauser, Δ used]) from the two minima,
/// for the minima taken on the host (one-pass minimum, hybrids).
pub(super) fn out_words(m: u64, c: u64, threshold: Threshold) -> [u64; 3] {
    if m == u64::MAX {
        return [u64::MAX; 3]; // nothing reached is left: both policies stop
    }
    [m, c, if threshold == Threshold::Crauser { c.max(m) } else { m }]
}
