//! The driver over a host "device" ([`Mock`]): every path of `Frontier` (stepping, per-phase
//! runs that count or not, one or several iterations per call, the fast path with a cancel in
//! the middle, restart) gives the same answer and the same settled counts, without a GPU.

use super::*;
use crate::algo::{Algorithm, SolveOptions, Threshold, frontier_values};
use crate::device::gpu::{self, UNSET};
use crate::graph::Graph;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// Martín's rounds on the host: relax from Fᵢ, Δ = min δ over the unsettled vertices, every
/// unsettled vertex with δ ≤ Δ joins Fᵢ₊₁.
struct Mock {
    graph: Arc<Graph>,
    state: HostState,
    /// Iterations per `run_phases` call.
    batch: u32,
    /// Whether per-phase iterations count the settled vertices (CUDA's update does).
    counts: bool,
    /// Iterations per fast chunk (0: no fast path).
    chunk: u32,
    /// The fast run: next iteration, last finished, whether the solve ended, its log.
    fast: (u32, u32, bool, Vec<Sizes>),
}

impl Mock {
    fn new(graph: &Arc<Graph>, batch: u32, counts: bool, chunk: u32) -> Mock {
        let mut m = Mock {
            graph: Arc::clone(graph),
            state: HostState::default(),
            batch,
            counts,
            chunk,
            fast: (0, 0, false, Vec::new()),
        };
        m.start(0);
        m
    }

    fn start(&mut self, source: VertexId) {
        let n = self.graph.n();
        self.state = HostState { dist: vec![INF; n], stamp: vec![UNSET; n] };
        self.state.dist[source as usize] = 0;
        self.state.stamp[source as usize] = 1;
    }

    /// Iteration `i`: its thresholds, |Fᵢ|, the reached unsettled vertices after it, |Fᵢ₊₁|.
    fn iterate(&mut self, i: u32) -> (Thresholds, u64, u64, u64) {
        let (n, s) = (self.graph.n(), &mut self.state);
        let succ = self.graph.successors();
        let mut frontier = 0;
        for f in (0..n).filter(|&f| s.stamp[f] == i) {
            frontier += 1;
            for (v, w) in succ.arcs(f as VertexId) {
                let (v, d) = (v as usize, s.dist[f] + Distance::from(w));
                if s.stamp[v] == UNSET && d < s.dist[v] {
                    s.dist[v] = d;
                }
            }
        }
        let min = (0..n).filter(|&v| s.stamp[v] == UNSET).map(|v| s.dist[v]).min().unwrap_or(INF);
        let t = Thresholds::from_minima(Threshold::Martin, min, min);
        let mut next = 0;
        for v in 0..n {
            if min != INF && s.stamp[v] == UNSET && s.dist[v] <= min {
                s.stamp[v] = i + 1;
                next += 1;
            }
        }
        let reached = (0..n).filter(|&v| s.stamp[v] == UNSET && s.dist[v] != INF).count() as u64;
        (t, frontier, reached, next)
    }
}

impl FrontierBackend for Mock {
    const RESTARTS: bool = true;

    fn reset(&mut self, source: VertexId) -> Result<(), SolveError> {
        self.start(source);
        Ok(())
    }

    fn read_dist(&mut self) -> Result<Vec<Distance>, SolveError> {
        Ok(self.state.dist.clone())
    }

    fn read_state(&mut self) -> Result<HostState, SolveError> {
        Ok(self.state.clone())
    }

    fn step_launch(&mut self, at: At) -> Result<StepOut, SolveError> {
        let (thresholds, ..) = self.iterate(at.iteration + 1);
        Ok(StepOut { done: thresholds.finished(), thresholds, times: PhaseTimes::default(), counted: None })
    }

    fn phase_batch_max(&self) -> u32 {
        self.batch
    }

    fn run_phases(&mut self, at: At, count: u32) -> Result<Vec<Phase>, SolveError> {
        let mut settled = at.settled;
        let mut phases = Vec::new();
        for i in at.iteration + 1..=at.iteration + count {
            let (t, frontier, _, next) = self.iterate(i);
            settled += next;
            let values = frontier_values(&t, next, None);
            let counted = if self.counts { settled } else { 0 };
            let record = IterationRecord { iteration: i, frontier, settled: counted, values, ..Default::default() };
            phases.push(Phase { record, settled: self.counts.then_some((settled, next)), done: t.finished() });
            if t.finished() {
                break;
            }
        }
        Ok(phases)
    }
}

impl FastPath for Mock {
    fn offers_fast(&self) -> bool {
        self.chunk > 0
    }

    fn fast_chunks(&self) -> ChunkSizes {
        ChunkSizes { first: self.chunk, factor: 1, max: self.chunk }
    }

    fn fast_begin(&mut self, first: u32) -> Result<(), SolveError> {
        self.fast = (first, first - 1, false, Vec::new());
        Ok(())
    }

    fn fast_chunk(&mut self, count: u32) -> Result<Chunk, SolveError> {
        let mut settled = 0;
        for _ in 0..count {
            let i = self.fast.0;
            let (thresholds, frontier, reached, next) = self.iterate(i);
            self.fast.3.push(Sizes { thresholds, frontier, reached, times: PhaseTimes::default() });
            (self.fast.0, self.fast.1, self.fast.2) = (i + 1, i, thresholds.finished());
            settled += next;
            if self.fast.2 {
                break;
            }
        }
        Ok(Chunk { settled, iteration: self.fast.1, done: self.fast.2 })
    }

    fn fast_cancel(&mut self) -> Result<(u32, bool), SolveError> {
        Ok((self.fast.1, self.fast.2))
    }

    fn fast_log(&mut self) -> Result<Vec<Sizes>, SolveError> {
        Ok(std::mem::take(&mut self.fast.3))
    }
}

fn graph() -> Arc<Graph> {
    Arc::new(crate::generate::grid(7, 5, 9, 3).unwrap())
}

fn driver(graph: &Arc<Graph>, mock: Mock, launch: Launch) -> Frontier<Mock> {
    let algo = Algorithm::by_id("martin-succ").unwrap();
    let opts = SolveOptions { launch, ..Default::default() };
    let run = gpu::check_request(graph, algo, &opts, &gpu::WGPU).unwrap();
    let id = RunIdent { graph: Arc::clone(graph), algo, opts, source: 0, device: "mock".into() };
    Frontier::new(mock, run, id)
}

/// Steps to the end; returns the distances and the settled count of every step.
fn stepped(f: &mut Frontier<Mock>) -> (Vec<Distance>, Vec<u64>) {
    let mut settled = Vec::new();
    while let Some(step) = f.step().unwrap() {
        settled.push(step.record.settled);
    }
    (f.distances().unwrap(), settled)
}

#[test]
fn every_path_gives_the_stepped_answer_and_counts() {
    let g = graph();
    let (dist, settled) = stepped(&mut driver(&g, Mock::new(&g, 1, false, 0), Launch::Fast));
    assert_eq!(settled.last(), Some(&(g.n() as u64)));
    let paths = [
        (Mock::new(&g, 1, true, 0), Launch::Fast), // CUDA-like per-phase: one per call, counted
        (Mock::new(&g, 4, false, 0), Launch::Fast), // wgpu-like per-phase: batches, sizes from the stamps
        (Mock::new(&g, 1, true, 3), Launch::Fast), // the fast path
        (Mock::new(&g, 1, true, 3), Launch::PerPhase), // the fast path refused by the options
    ];
    for (k, (mock, launch)) in paths.into_iter().enumerate() {
        let mut f = driver(&g, mock, launch);
        let mut polled = Vec::new();
        let run = f.run_to_end(&AtomicBool::new(false), &mut |s| polled.push(s)).unwrap();
        let got: Vec<u64> = run.records.iter().map(|r| r.settled).collect();
        assert_eq!((got, run.reached, run.iterations), (settled.clone(), g.n() as u64, settled.len() as u32), "{k}");
        assert_eq!(f.distances().unwrap(), dist, "{k}");
        assert!(f.is_done() && f.step().unwrap().is_none(), "{k}");
        assert_eq!(polled.last(), Some(&(g.n() as u64)), "{k}");
        assert_eq!(f.run_to_end(&AtomicBool::new(false), &mut |_| {}).unwrap().reached, g.n() as u64);
    }
}

#[test]
fn a_cancelled_fast_run_goes_on_from_a_recount() {
    let g = graph();
    let (dist, settled) = stepped(&mut driver(&g, Mock::new(&g, 1, false, 0), Launch::Fast));
    let mut f = driver(&g, Mock::new(&g, 1, true, 2), Launch::Fast);
    f.step().unwrap();
    let cancel = AtomicBool::new(false);
    let err = f.run_to_end(&cancel, &mut |_| cancel.store(true, Ordering::Relaxed)).unwrap_err();
    assert!(matches!(err, SolveError::Cancelled));
    assert!(!f.stepped && f.iteration == 3 && f.settled.is_none());
    // One step from the device's state (recounted), then the fast path from there.
    assert_eq!(f.step().unwrap().map(|s| s.record.settled), Some(settled[3]));
    let run = f.run_to_end(&AtomicBool::new(false), &mut |_| {}).unwrap();
    let got: Vec<u64> = run.records.iter().map(|r| r.settled).collect();
    assert_eq!(got, settled[4..]);
    assert_eq!((run.reached, run.iterations), (g.n() as u64, settled.len() as u32));
    assert_eq!(f.distances().unwrap(), dist);
}

#[test]
fn restart_puts_the_run_back_at_the_new_source() {
    let g = graph();
    let mut f = driver(&g, Mock::new(&g, 1, true, 3), Launch::Fast);
    f.run_to_end(&AtomicBool::new(false), &mut |_| {}).unwrap();
    assert!(f.restart(g.n() as VertexId).is_err());
    assert!(f.restart(5).unwrap());
    assert_eq!((f.source(), f.is_done(), f.iteration), (5, false, 0));
    let d = f.distances().unwrap();
    assert_eq!((d[5], d.iter().filter(|&&x| x == INF).count()), (0, g.n() - 1));
    let (_, settled) = stepped(&mut f);
    assert_eq!(settled.last(), Some(&(g.n() as u64)));
}
