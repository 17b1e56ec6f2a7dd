//! The frontier family's driver (Martín / Crauser, successors / predecessors: [seed000] §3,
//! [seed004] §4): one [`Frontier`] stepper over a [`FrontierBackend`] that CUDA
//! (`src/device/cuda/solver.rs`) and wgpu (`src/device/wgpu/stepper.rs`) implement with device
//! calls only.
//!
//! The driver owns the run ([`RunIdent`], [`FrontierRun`]) and the host-side bookkeeping
//! (iterations run, whether the solve ended, vertices settled, |F| of the next iteration, the
//! host copy of δ and the stamps, the launch model of the host diff) and makes the decisions:
//! `step` by per-phase launches booked from two copies of the state; `run_to_end` by
//! per-phase launches (`run.rs`) or on the device's fast path when it offers one and the run
//! is neither instrumented nor per-phase ([`Launch::PerPhase`]); `distances` from the host copy or a
//! device read; `restart` = check the source, reset the device, reset the host side. What the
//! kernels make different stays behind the trait (CUDA's counter slots, persistent kernel and
//! hybrids; wgpu's batched log, 2-D dispatch, two batches in flight and timestamps).

mod records;
mod run;
#[cfg(test)]
mod tests;

pub use records::{Sizes, Stepped, book_step, fast_records, finished_run, settled_in, sizes_from_stamps};

use super::{RunIdent, ident_getters};
use crate::algo::{
    DeviceVertexState, IterationRecord, Launch, PhaseTimes, RunRecord, SolveError, Step, Stepper, Thresholds,
};
use crate::device::gpu::{FrontierRun, HostState, LaunchModel, UNSET};
use crate::graph::{Distance, INF, VertexId};
use std::sync::atomic::AtomicBool;

/// Where the host stands before a device call: the iterations run so far and, as last known,
/// the vertices settled and |F| of the next iteration (exact before a step, and before every
/// per-phase iteration of a device whose phases count them).
#[derive(Clone, Copy, Debug)]
pub struct At {
    pub iteration: u32,
    pub settled: u64,
    pub next: u64,
}

/// What a device's stepped iteration gave the host before the state copy.
pub struct StepOut {
    pub thresholds: Thresholds,
    /// Kernel times (`copy_ms`: copies inside the iteration, the hybrids').
    pub times: PhaseTimes,
    /// The kernels' own record when they counted (instrumented runs).
    pub counted: Option<IterationRecord>,
    /// Whether it ended the solve (no threshold left).
    pub done: bool,
}

/// What one per-phase iteration (relax, minimum, update as separate launches) gave the host.
pub struct Phase {
    pub record: IterationRecord,
    /// Vertices settled after it and |Fᵢ₊₁|, where the device counted them (else `None`: the
    /// driver recounts from the stamps after the run).
    pub settled: Option<(u64, u64)>,
    /// Whether it ended the solve.
    pub done: bool,
}

/// Chunk sizes of a fast run: `first`, then ×`factor` up to `max` iterations, so a short run
/// reads back early and a long one amortises its read-backs.
pub struct ChunkSizes {
    pub first: u32,
    pub factor: u32,
    pub max: u32,
}

/// What one chunk of a fast run gave the host.
pub struct Chunk {
    /// Vertices the chunk's finished iterations settled (for progress).
    pub settled: u64,
    /// The last iteration finished so far.
    pub iteration: u32,
    /// Whether the solve ended.
    pub done: bool,
}

/// What a device does for the frontier driver; every device failure is a
/// [`SolveError::Device`]. The device keeps its own buffers, kernels and whatever its fast path
/// needs between chunks; the driver tells it where the host stands ([`At`]).
pub trait FrontierBackend: FastPath + Send {
    /// Whether [`Self::reset`] works here (else `restart` answers `Ok(false)`).
    const RESTARTS: bool = false;

    /// Runs `f`, turning a panic inside the device library into [`SolveError::Device`] where
    /// the device needs that (CUDA); by default it runs `f` as is.
    fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, SolveError> {
        Ok(f())
    }

    /// Puts the device state back at the start from `source` (δ = ∞ but δ(s) = 0, stamp(s) = 1)
    /// and drops what the device kept of earlier iterations. Called only where
    /// [`Self::RESTARTS`]; the caller checked the source.
    fn reset(&mut self, _source: VertexId) -> Result<(), SolveError> {
        Err(SolveError::Device("internal: this device cannot restart a frontier run".into()))
    }

    /// Copies δ back (synchronises).
    fn read_dist(&mut self) -> Result<Vec<Distance>, SolveError>;

    /// Copies δ and the stamps back (synchronises).
    fn read_state(&mut self) -> Result<HostState, SolveError>;

    /// Called before a step or a run to the end (CUDA applies the cache preference).
    fn prepare(&mut self) -> Result<(), SolveError> {
        Ok(())
    }

    /// Runs iteration `at.iteration + 1` by per-phase launches (a step; the driver copies the
    /// state back after it).
    fn step_launch(&mut self, at: At) -> Result<StepOut, SolveError>;

    /// Most iterations one [`Self::run_phases`] call runs: 1 where the host reads Δ back every
    /// iteration (CUDA), a batch size where a submission holds several (wgpu).
    fn phase_batch_max(&self) -> u32;

    /// Runs up to `count` iterations from `at.iteration + 1` by per-phase launches and returns
    /// them in order (at least one while the solve has not ended).
    fn run_phases(&mut self, at: At, count: u32) -> Result<Vec<Phase>, SolveError>;

    /// The device's view of δ and the stamps for a renderer, where it has one (wgpu).
    fn device_state(&self, _iterations: u32) -> Option<DeviceVertexState> {
        None
    }
}

/// A device's fast path (CUDA's persistent kernel, wgpu's lists and teams), as the driver runs
/// it: chunks of iterations, progress and cancel between them, the records from the log at the
/// end.
pub trait FastPath {
    /// Whether this device has a fast path for this run.
    fn offers_fast(&self) -> bool;
    fn fast_chunks(&self) -> ChunkSizes;
    /// Prepares a fast run from the current device state, its first iteration `first`.
    fn fast_begin(&mut self, first: u32) -> Result<(), SolveError>;
    /// Runs (or submits) `count` more iterations and returns what has finished since the last
    /// call (possibly nothing, where the device keeps chunks in flight).
    fn fast_chunk(&mut self, count: u32) -> Result<Chunk, SolveError>;
    /// Stops a cancelled run, leaving δ and the stamps consistent after the last iteration it
    /// finished, so that stepping can go on from there; returns that iteration and whether the
    /// solve ended in it.
    fn fast_cancel(&mut self) -> Result<(u32, bool), SolveError>;
    /// The per-iteration log of a run that ended (one entry per iteration from its first).
    fn fast_log(&mut self) -> Result<Vec<Sizes>, SolveError>;
}

/// The frontier stepper of any device (see the module docs).
pub struct Frontier<B> {
    backend: B,
    /// Graph, algorithm, options, source and device string (the Stepper getters).
    id: RunIdent,
    run: FrontierRun,
    iteration: u32,
    done: bool,
    /// Vertices settled so far (`None` when unknown: after a cancelled or failed run, or a
    /// per-phase run whose kernels counted nothing).
    settled: Option<u64>,
    /// |F| of the next iteration (with `settled`).
    next: u64,
    /// Host copy of δ and the stamps, current where present.
    host: Option<HostState>,
    /// Whether the device's δ and stamps hold the state after the last step (false once a
    /// `run_to_end` began: its batches run ahead of what the caller has seen).
    stepped: bool,
    model: LaunchModel,
}

impl<B: FrontierBackend> Frontier<B> {
    /// The driver over `backend`, whose device state holds the start from `id.source`.
    pub fn new(backend: B, run: FrontierRun, id: RunIdent) -> Self {
        let n = id.graph.n();
        let mut f = Frontier {
            backend,
            id,
            run,
            iteration: 0,
            done: false,
            settled: None,
            next: 0,
            host: None,
            stepped: true,
            model: LaunchModel::new(n),
        };
        f.start_host();
        f
    }

    /// The device backend (for device-specific getters).
    pub fn backend(&self) -> &B {
        &self.backend
    }

    /// Whether `run_to_end` takes the device's fast path (not instrumented, `launch=fast`, and
    /// the device offers one).
    pub fn uses_fast_path(&self) -> bool {
        !self.id.opts.instrument && self.id.opts.launch == Launch::Fast && self.backend.offers_fast()
    }

    /// The host side at the start from `id.source`: F₁ = {s}, nothing else reached.
    fn start_host(&mut self) {
        let (n, source) = (self.id.graph.n(), self.id.source as usize);
        let mut dist = vec![INF; n];
        dist[source] = 0;
        let mut stamp = vec![UNSET; n];
        stamp[source] = 1;
        self.host = Some(HostState { dist, stamp });
        self.iteration = 0;
        self.done = false;
        self.settled = Some(1);
        self.next = 1;
        self.model = LaunchModel::new(n);
        self.stepped = true;
    }

    fn at(&self) -> At {
        At { iteration: self.iteration, settled: self.settled.unwrap_or(0), next: self.next }
    }

    /// The host copy of the state, taken (copied back from the device where the host has
    /// none); recounts the settled vertices and |F| of the next iteration from it when unknown.
    fn take_host(&mut self) -> Result<HostState, SolveError> {
        let state = match self.host.take() {
            Some(h) => h,
            None => self.backend.read_state()?,
        };
        if self.settled.is_none() {
            let next = self.iteration + 1;
            self.settled = Some(settled_in(&state));
            self.next = state.stamp.iter().filter(|&&s| s == next).count() as u64;
        }
        Ok(state)
    }

    /// Vertices settled so far (from a copy of the state when unknown).
    fn settled_now(&mut self) -> Result<u64, SolveError> {
        if let Some(s) = self.settled {
            return Ok(s);
        }
        let state = self.take_host()?;
        self.host = Some(state);
        Ok(self.settled.unwrap_or(0))
    }
}

impl<B: FrontierBackend> Stepper for Frontier<B> {
    ident_getters!();

    fn is_done(&self) -> bool {
        self.done
    }

    fn step(&mut self) -> Result<Option<Step>, SolveError> {
        B::guarded(|| self.step_once())?
    }

    fn distances(&mut self) -> Result<Vec<Distance>, SolveError> {
        if let Some(h) = &self.host {
            return Ok(h.dist.clone());
        }
        B::guarded(|| self.backend.read_dist())?
    }

    fn restart(&mut self, source: VertexId) -> Result<bool, SolveError> {
        if !B::RESTARTS {
            return Ok(false);
        }
        crate::algo::check_source(&self.id.graph, source)?;
        self.id.source = source;
        B::guarded(|| self.backend.reset(source))??;
        self.start_host();
        Ok(true)
    }

    fn run_to_end(&mut self, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<RunRecord, SolveError> {
        B::guarded(|| {
            if self.done {
                let reached = self.settled_now()?;
                return Ok(finished_run(&self.id, self.iteration, reached));
            }
            if self.uses_fast_path() { self.run_fast(cancel, progress) } else { self.run_phases(cancel, progress) }
        })?
    }

    fn device_state(&self) -> Option<DeviceVertexState> {
        if self.stepped { self.backend.device_state(self.iteration) } else { None }
    }
}
