//! The persistent kernel of `kernels/fast.cu` (cooperative launch) as the fast path the
//! frontier driver runs ([`FastPath`]): the whole solve stays on the GPU in chunks of
//! iterations; records hold thresholds and set sizes only.

use super::super::dev_err;
use super::{CTL_DONE, CTL_ITER, CTL_WORDS, CudaFrontier, Dist, FIRST_CHUNK, FastBufs, FastKernels, cfg};
use crate::algo::{RelaxVariant, SolveError};
use crate::device::driver::frontier::{Chunk, ChunkSizes, FastPath, Sizes};
use crate::device::gpu;
use cudarc::driver::{CudaFunction, PushKernelArg};

impl<D: Dist> CudaFrontier<D> {
    /// Blocks of the persistent kernel: as many as can be co-resident (cooperative launch),
    /// optionally capped per multiprocessor, never more than the vertices need.
    fn persistent_grid(&self, f: &CudaFunction) -> Result<u32, SolveError> {
        let block = self.opts.block.relax;
        let occ = f
            .occupancy_max_active_blocks_per_multiprocessor(block, 0, None)
            .map_err(dev_err("cannot compute the occupancy of the fast kernel"))?;
        if occ == 0 {
            return Err(SolveError::Device(format!("the fast kernel cannot run {block} threads per block here")));
        }
        // Successors: ~1024 threads per multiprocessor (bench/results/cuda-tune.md: fewer blocks make
        // the grid barrier cheaper, too few starve R-MAT of loads in flight); predecessors pull
        // over all of U and want every thread the GPU can hold.
        let default = if self.run.variant == RelaxVariant::Successors { (1024 / block).clamp(1, occ) } else { occ };
        let per_sm = self.opts.blocks_per_sm.filter(|&p| p > 0).map_or(default, |p| p.clamp(1, occ));
        Ok((self.gpu.multiprocessors * per_sm).min(self.n.div_ceil(block)).max(1))
    }

    /// The fast path's kernels and buffers (present unless the run is racy or a seed 004 variant).
    fn fast_parts(&self) -> Result<(&FastKernels, &FastBufs), SolveError> {
        match (&self.k.fast, &self.fast) {
            (Some(fk), Some(fb)) => Ok((fk, fb)),
            _ => Err(SolveError::Device("internal: fast kernels missing".into())),
        }
    }

    /// Resets the control block and builds the frontier lists from the current state for a run
    /// starting at iteration `start_iter`.
    fn fast_setup(&self, start_iter: u32) -> Result<(), SolveError> {
        let (fk, fb) = self.fast_parts()?;
        let (s, n, block) = (&self.stream, self.n, self.opts.block.relax);
        let mut l = s.launch_builder(&fk.reset);
        l.arg(&fb.ctl).arg(&start_iter);
        // SAFETY: matches fast_reset(Ctl*, u32); ctl has 32 words ≥ sizeof(Ctl).
        unsafe { l.launch(cfg(1, 32)) }.map_err(dev_err("fast reset kernel launch failed"))?;
        let [l0, l1, l2, l3] = &fb.lists;
        let mut l = s.launch_builder(&fk.setup);
        l.arg(&n).arg(&self.st.dist).arg(&self.st.stamp).arg(&self.st.omega).arg(&start_iter);
        l.arg(l0).arg(l1).arg(l2).arg(l3).arg(&fb.ctl).arg(&fb.packed);
        // SAFETY: matches fast_setup_{succ,pred}_*; lists hold n entries each.
        unsafe { l.launch(cfg(n.div_ceil(block), block)) }.map_err(dev_err("fast setup kernel launch failed"))?;
        Ok(())
    }

    /// Runs iterations `i_begin .. i_end` (or to the end of the solve) in one cooperative
    /// launch and returns the control block after it.
    fn persistent_chunk(
        &self,
        grid: u32,
        rec_base: u32,
        i_begin: u32,
        i_end: u32,
    ) -> Result<[u32; CTL_WORDS], SolveError> {
        let (fk, fb) = self.fast_parts()?;
        let (s, n, block) = (&self.stream, self.n, self.opts.block.relax);
        let avg_deg: u64 = (self.graph.m() as u64).div_ceil(n.max(1) as u64);
        let solo: u64 = self.opts.solo_work.unwrap_or(4 * block as u64);
        let mut l = s.launch_builder(&fk.run);
        l.arg(&n);
        match (&self.g.pred, self.run.variant) {
            (Some([po, ps, pw]), RelaxVariant::Predecessors) => {
                l.arg(po).arg(ps).arg(pw).arg(&self.st.omega).arg(&self.st.dist).arg(&self.st.stamp);
                l.arg(&fb.lists[2]).arg(&fb.lists[3]);
            }
            _ => {
                l.arg(&self.g.off)
                    .arg(&self.g.tgt)
                    .arg(&self.g.wgt)
                    .arg(&self.st.omega)
                    .arg(&self.st.dist)
                    .arg(&fb.packed);
                l.arg(&self.st.stamp).arg(&fb.mark).arg(&fb.lists[0]).arg(&fb.lists[2]).arg(&fb.lists[3]);
            }
        }
        l.arg(&fb.ctl).arg(&fb.rec_m).arg(&fb.rec_c).arg(&fb.rec_f).arg(&fb.rec_r);
        l.arg(&rec_base).arg(&fb.cap).arg(&i_begin).arg(&i_end);
        if self.run.variant == RelaxVariant::Successors {
            l.arg(&avg_deg).arg(&solo);
        }
        // SAFETY: matches fast_{succ,pred}_{martin,crauser}_*; grid ≤ co-resident blocks
        // (cooperative launch checks it), records hold n + 1 ≥ iterations entries.
        unsafe { l.launch_cooperative(cfg(grid, block)) }.map_err(dev_err("fast (persistent) kernel launch failed"))?;
        let mut ctl = [0u32; CTL_WORDS];
        s.memcpy_dtoh(&fb.ctl, &mut ctl[..]).map_err(dev_err("cannot read the fast kernel's state"))?;
        self.sync("the fast kernel failed")?;
        Ok(ctl)
    }

    /// Extends `rec_f` (|F| per iteration since the run began) to `upto` entries; returns the
    /// vertices the new entries settled (every frontier but the first was settled in the run).
    fn read_frontier_sizes(&self, rec_f: &mut Vec<u32>, upto: usize) -> Result<u64, SolveError> {
        let have = rec_f.len();
        if upto <= have {
            return Ok(0);
        }
        let (_, fb) = self.fast_parts()?;
        rec_f.resize(upto, 0);
        self.stream
            .memcpy_dtoh(&fb.rec_f.slice(have..upto), &mut rec_f[have..upto])
            .map_err(dev_err("cannot read the records"))?;
        self.sync("reading the records failed")?;
        Ok(rec_f[have.max(1)..upto].iter().map(|&x| x as u64).sum())
    }

    /// δ lives in the packed (δ, ω) words during a run of the successors with 32-bit δ; gives
    /// it back to `dist` when the run stops.
    fn unpack(&self) -> Result<(), SolveError> {
        let (_, fb) = self.fast_parts()?;
        if let Some(f) = &fb.unpack {
            let n = self.n;
            let mut l = self.stream.launch_builder(f);
            l.arg(&n).arg(&fb.packed).arg(&self.st.dist);
            // SAFETY: matches fast_unpack_u32(n, packed, dist); n threads guarded.
            unsafe { l.launch(cfg(n.div_ceil(256), 256)) }.map_err(dev_err("unpack kernel launch failed"))?;
        }
        Ok(())
    }

    /// The per-iteration thresholds and sizes of a finished run from the device's records
    /// (iterations `rec_base .. end`).
    fn read_fast_log(&self, rec_base: u32, end: u32, rec_f: &[u32]) -> Result<Vec<Sizes>, SolveError> {
        let (_, fb) = self.fast_parts()?;
        let s = &self.stream;
        let iters = (end - rec_base) as usize;
        let mut rec_m = vec![0u64; iters];
        let mut rec_c = vec![0u64; iters];
        let mut rec_r = vec![0u32; iters];
        s.memcpy_dtoh(&fb.rec_m.slice(0..iters), &mut rec_m[..]).map_err(dev_err("cannot read the records"))?;
        s.memcpy_dtoh(&fb.rec_c.slice(0..iters), &mut rec_c[..]).map_err(dev_err("cannot read the records"))?;
        s.memcpy_dtoh(&fb.rec_r.slice(0..iters), &mut rec_r[..]).map_err(dev_err("cannot read the records"))?;
        self.sync("reading the records failed")?;
        Ok((0..iters)
            .map(|k| Sizes {
                thresholds: gpu::thresholds(self.run, gpu::widen_u64(rec_m[k]), gpu::widen_u64(rec_c[k])),
                frontier: rec_f[k] as u64,
                reached: rec_r[k] as u64,
                times: Default::default(),
            })
            .collect())
    }
}

/// A persistent run in progress: where its records start, the grid, the next chunk's first
/// iteration and |F| per iteration read so far.
pub(super) struct PersistentRun {
    rec_base: u32,
    grid: u32,
    i_begin: u32,
    rec_f: Vec<u32>,
}

impl<D: Dist> CudaFrontier<D> {
    fn persistent_run(&mut self) -> Result<PersistentRun, SolveError> {
        self.persistent.take().ok_or_else(|| SolveError::Device("internal: no persistent run".into()))
    }
}

impl<D: Dist> FastPath for CudaFrontier<D> {
    /// The persistent kernel needs cooperative launch; the racy relax and seed 004's variants
    /// have none.
    fn offers_fast(&self) -> bool {
        self.k.fast.is_some() && self.gpu.cooperative
    }

    /// `FIRST_CHUNK` iterations per cooperative launch, then ×4.
    fn fast_chunks(&self) -> ChunkSizes {
        ChunkSizes { first: FIRST_CHUNK, factor: 4, max: 1 << 20 }
    }

    fn fast_begin(&mut self, rec_base: u32) -> Result<(), SolveError> {
        if let Some(fb) = &mut self.fast {
            self.stream.memset_zeros(&mut fb.rec_r).map_err(dev_err("cannot clear the records"))?;
        }
        let grid = self.persistent_grid(&self.fast_parts()?.0.run)?;
        if self.lists_for != Some(rec_base) {
            self.fast_setup(rec_base)?;
        }
        self.persistent = Some(PersistentRun { rec_base, grid, i_begin: rec_base, rec_f: Vec::new() });
        Ok(())
    }

    fn fast_chunk(&mut self, count: u32) -> Result<Chunk, SolveError> {
        let mut p = self.persistent_run()?;
        let ctl = self.persistent_chunk(p.grid, p.rec_base, p.i_begin, p.i_begin.saturating_add(count))?;
        let last = ctl[CTL_ITER];
        let done = ctl[CTL_DONE] != 0;
        // Frontier sizes of this chunk give the settled count for progress.
        let settled = self.read_frontier_sizes(&mut p.rec_f, (last + 1 - p.rec_base) as usize)?;
        self.lists_for = Some(last + 1);
        p.i_begin = last + 1;
        self.persistent = Some(p);
        if done {
            self.unpack()?;
        }
        Ok(Chunk { settled, iteration: last, done })
    }

    /// δ and the stamps are consistent after the last iteration (for successors the relax of
    /// the next iteration is already applied, which a later step re-runs harmlessly); stepping
    /// goes on from there (the driver recounts from the stamps).
    fn fast_cancel(&mut self) -> Result<(u32, bool), SolveError> {
        let p = self.persistent_run()?;
        self.unpack()?;
        Ok((p.i_begin - 1, false))
    }

    fn fast_log(&mut self) -> Result<Vec<Sizes>, SolveError> {
        let p = self.persistent_run()?;
        self.read_fast_log(p.rec_base, p.i_begin, &p.rec_f)
    }
}
