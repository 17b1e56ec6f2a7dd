//! Device-neutral host drivers of the GPU families, one [`Stepper`] per family over a backend
//! trait: edge-parallel Bellman-Ford ([`EdgeParallel`], [seed002]) and bucketed Δ-stepping
//! ([`Bucketed`], [meyer-sanders]), whose iterations run as batches on the device, over a
//! [`Backend`], and the frontier family ([`frontier::Frontier`], [seed000], [seed004]) over a
//! [`frontier::FrontierBackend`]. A driver keeps everything that is not a device call — records,
//! step deltas, cancel and progress, the batch sizes of the fast path (1, 2, 4 … a family's
//! maximum), the host resync after a fast run and negative-cycle handling — once; a batched
//! family's device is a [`Backend`] (`src/device/{cuda,wgpu}/{bellman_ford,delta_stepping}.rs`)
//! that uploads the graph when built, runs a batch and returns its log, reads words back and
//! times its kernels where it can. PHAST's sweep over a contraction hierarchy ([`sweep::Sweep`],
//! [phast]) runs over a [`sweep::SweepBackend`]: a reset and a plan of level launches queued at
//! once.

pub mod bucketed;
pub mod edge_parallel;
pub mod frontier;
pub mod nearfar;
pub mod sweep;

pub use bucketed::Bucketed;
pub use edge_parallel::EdgeParallel;

use crate::algo::{RunRecord, SolveError, Stepper};
use crate::graph::Graph;
use std::sync::atomic::{AtomicBool, Ordering};

/// A batch's log as the device wrote it.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// `count` log entries of the family's width, in iteration order.
    pub words: Vec<u32>,
    /// GPU time of the batch's kernels in ms where the device times them (CUDA events);
    /// `None`: the driver takes the host clock around the call (wgpu).
    pub gpu_ms: Option<f64>,
}

/// A vertex array (n u32 words) a driver reads back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Words {
    /// δ (i32 for Bellman-Ford, u32 for Δ-stepping).
    Dist,
    /// Bellman-Ford's marks (the pass that last lowered a vertex).
    Mark,
    /// Δ-stepping's R marks (the bucket serial of the phase that put a vertex in R).
    Rr,
}

/// What a device does for one family's driver. Implemented per device and family with the
/// graph already uploaded; every device failure is a [`SolveError::Device`].
pub trait Backend: Send {
    /// Runs iterations `first .. first + count` as one batch and returns their log entries.
    /// `head` is the previous iteration's entry for families that chain entries (Bellman-Ford:
    /// log slot 0), empty otherwise. `timed`: the caller wants [`Batch::gpu_ms`].
    fn run_batch(&mut self, first: u32, count: u32, head: &[u32], timed: bool) -> Result<Batch, SolveError>;
    /// Reads the n words of `which` back (synchronises).
    fn read_words(&mut self, which: Words) -> Result<Vec<u32>, SolveError>;
    /// Called before a step or a fast run (CUDA applies the cache preference).
    fn prepare(&mut self) -> Result<(), SolveError> {
        Ok(())
    }
}

pub use super::gpu::RunIdent;

/// The [`Stepper`] getters of a driver whose run is in its field `id` ([`RunIdent`]):
/// `algorithm`, `params` (and through it the default `label`), `device`, `source`.
macro_rules! ident_getters {
    () => {
        fn algorithm(&self) -> crate::algo::Algorithm {
            self.id.algo
        }

        fn params(&self) -> Option<&crate::algo::Params> {
            Some(&self.id.opts.params)
        }

        fn device(&self) -> String {
            self.id.device.clone()
        }

        fn source(&self) -> crate::graph::VertexId {
            self.id.source
        }
    };
}
pub(crate) use ident_getters;

/// Batch sizes of a fast path: 1, 2, 4 … `max`, so a short run reads back early and a long
/// one amortises its read-backs.
pub struct Doubling {
    next: u32,
    max: u32,
}

impl Doubling {
    pub fn new(max: u32) -> Doubling {
        Doubling { next: 1, max: max.max(1) }
    }

    /// The next batch size; polls `cancel` and reports `reached` to `progress` first.
    pub fn next(
        &mut self,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(u64),
        reached: u64,
    ) -> Result<u32, SolveError> {
        if cancel.load(Ordering::Relaxed) {
            return Err(SolveError::Cancelled);
        }
        progress(reached);
        let b = self.next;
        self.next = (self.next * 2).min(self.max);
        Ok(b)
    }
}

/// `run_to_end` of an instrumented run: every iteration as a recorded step (deltas off), so
/// the records carry thread counts and kernel times. `deltas` gives the stepper's
/// `record_deltas` switch; the caller fills in `iterations` and `reached`.
pub fn run_by_steps_quietly<S: Stepper>(
    st: &mut S,
    deltas: fn(&mut S) -> &mut bool,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64),
    graph: &Graph,
) -> Result<RunRecord, SolveError> {
    let keep = std::mem::replace(deltas(st), false);
    let run = crate::algo::run_by_steps(st, graph, cancel, progress);
    *deltas(st) = keep;
    run
}
