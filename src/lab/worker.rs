//! The runner's worker (it runs inside the [`super::LabRun`] job): builds each graph once, runs
//! every cell on it, measures and checks every run, and sends rows and progress.
//!
//! Solver devices run through [`crate::device::make_stepper`]; Boost runs all sources of a
//! graph in one harness process ([`boost`]). The one place the two differ is the dispatch in
//! `graph`.

use super::experiment::{Experiment, LabDevice, cache_id};
use super::graphs::GraphPlan;
use super::plan::{self, Cell, cells, plan_graphs, threads};
use super::result::{LabEvent, LabProgress, LabResult};
use super::{boost, memory};
use crate::algo::{PhaseTimes, RelaxVariant, SolveError, SolveOptions, Stepper, reference_distances};
use crate::device::{DeviceId, make_stepper};
use crate::graph::{Distance, Graph, VertexId};
use crate::jobs::JobCtx;
use anyhow::Result;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub(super) struct Worker<'a> {
    pub(super) exp: &'a Experiment,
    pub(super) exp_dir: &'a Path,
    pub(super) cancel: Arc<AtomicBool>,
    pub(super) jc: &'a mut JobCtx<LabEvent>,
    pub(super) done: usize,
    pub(super) total: usize,
    pub(super) started: Instant,
}

/// What one solve measured.
struct Solved {
    iterations: u32,
    total_ms: f64,
    times: PhaseTimes,
    dummy_ratio: Option<f64>,
    lane_use: Option<f64>,
    device_name: String,
    /// Per-thread time (empty for solvers without threads of their own).
    threads: Vec<crate::algo::ThreadTime>,
    /// Modelled bytes of the relax kernel over the run (frontier algorithms; 0 elsewhere).
    relax_bytes: f64,
}

impl<'a> Worker<'a> {
    pub(super) fn new(exp: &'a Experiment, exp_dir: &'a Path, jc: &'a mut JobCtx<LabEvent>) -> Self {
        Worker { exp, exp_dir, cancel: jc.cancel_token(), jc, done: 0, total: 0, started: Instant::now() }
    }

    pub(super) fn send(&mut self, ev: LabEvent) {
        self.jc.send(ev);
    }

    /// Logs a graph made ready for its cells: its size, the seconds since `t` (when building
    /// began) and how many sources it was given.
    pub(super) fn log_built(&mut self, g: &Graph, t: Instant, sources: usize) {
        self.send(LabEvent::Log(format!(
            "{}: n = {}, m = {}, built in {:.2} s, {} sources, {} MiB put on huge pages in this process so far",
            g.name,
            g.n(),
            g.m(),
            t.elapsed().as_secs_f64(),
            sources,
            crate::graph::huge::collapsed_bytes() >> 20
        )));
    }

    pub(super) fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    pub(super) fn progress(&mut self, current: String) {
        let elapsed_s = self.started.elapsed().as_secs_f64();
        let eta_s = (self.done > 0).then(|| elapsed_s / self.done as f64 * self.total.saturating_sub(self.done) as f64);
        let p = LabProgress { done: self.done, total: self.total, elapsed_s, eta_s, current };
        self.jc.set_progress(p.fraction());
        self.jc.set_message(p.line());
        self.send(LabEvent::Progress(p));
    }

    pub(super) fn row(&mut self, r: LabResult, work: usize) {
        self.done += work;
        let current = format!("{} · {}", r.graph, r.series());
        self.send(LabEvent::Row(Box::new(r)));
        self.progress(current);
    }

    fn runs_per_cell(&self, c: &Cell, sources: usize) -> usize {
        if c.skip.is_some() { 1 } else { sources * self.exp.repetitions as usize }
    }

    pub(super) fn run_all(&mut self) -> Result<bool> {
        let graphs = plan_graphs(self.exp)?;
        let cells = cells(self.exp);
        let k = self.exp.sources.count();
        self.total = graphs.len() * cells.iter().map(|c| self.runs_per_cell(c, k)).sum::<usize>();
        self.progress("starting".into());
        for plan in &graphs {
            if !self.graph(plan, &cells)? {
                return Ok(false);
            }
        }
        Ok(!self.cancelled())
    }

    /// Runs every cell on one graph; false when cancelled.
    fn graph(&mut self, plan: &GraphPlan, cells: &[Cell]) -> Result<bool> {
        self.progress(format!("building {}", plan.label()));
        let t = Instant::now();
        let mut base = LabResult {
            experiment: self.exp.name.clone(),
            graph: plan.label(),
            group: plan.group.clone(),
            size_label: plan.size_label.clone(),
            degree_label: plan.degree_label.clone(),
            ..Default::default()
        };
        let g = match plan.build(self.exp_dir) {
            Ok(g) => Arc::new(g),
            Err(e) => {
                self.send(LabEvent::Log(format!("{e:#}")));
                for c in cells {
                    let work = self.runs_per_cell(c, self.exp.sources.count());
                    self.row(LabResult { error: Some(format!("{e:#}")), ..cell_row(&base, c) }, work);
                }
                return Ok(!self.cancelled());
            }
        };
        (base.graph, base.n, base.m) = (g.name.clone(), g.n(), g.m());
        if cells.iter().any(|c| {
            c.skip.is_none()
                && c.algorithm.as_ref().and_then(|a| a.algorithm.variant()) == Some(RelaxVariant::Predecessors)
        }) {
            g.predecessors();
        }
        let sources = plan::sources(&self.exp.sources, &g);
        let missing = self.exp.sources.count().saturating_sub(sources.len());
        let runnable = cells.iter().filter(|c| c.skip.is_none()).count();
        self.total -= missing * self.exp.repetitions as usize * runnable;
        self.log_built(&g, t, sources.len());
        let mut oracle = Oracle { graph: Arc::clone(&g), cache: HashMap::new(), check: self.exp.check };
        let mut gr_file: Option<boost::TempGr> = None;
        for cell in cells {
            if self.cancelled() {
                return Ok(false);
            }
            let row = cell_row(&base, cell);
            if let Some(reason) = &cell.skip {
                self.row(LabResult { skipped: Some(reason.clone()), ..row }, 1);
                continue;
            }
            let go_on = match cell.device {
                LabDevice::Boost => self.boost_cell(&g, &row, &sources, &mut oracle, &mut gr_file),
                LabDevice::Solver(d) => self.solver_cell(&g, d, cell, &row, &sources, &mut oracle),
            };
            if !go_on {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn solve(
        &self,
        device: DeviceId,
        g: &Arc<Graph>,
        cell: &Cell,
        s: VertexId,
    ) -> Result<(Box<dyn Stepper>, Solved), SolveError> {
        let choice = cell.algorithm.as_ref().ok_or_else(|| SolveError::Device("no algorithm".into()))?;
        let algo = choice.algorithm;
        let opts = SolveOptions {
            params: choice.params.clone(),
            block: cell.block,
            cache: cell.cache,
            instrument: self.exp.instrument,
            launch: self.exp.launch,
            record_deltas: false,
            ..Default::default()
        };
        let mut st = make_stepper(device, Arc::clone(g), algo, s, &opts)?;
        let (iterations, total_ms, times, records) = if self.exp.is_stepped() {
            let t = Instant::now();
            let mut records = Vec::new();
            while let Some(step) = st.step()? {
                records.push(step.record);
                if self.cancelled() {
                    return Err(SolveError::Cancelled);
                }
            }
            let total_ms = t.elapsed().as_secs_f64() * 1e3;
            let mut times = PhaseTimes::default();
            records.iter().for_each(|r| times.add(&r.times));
            (records.len() as u32, total_ms, times, records)
        } else {
            let rec = st.run_to_end(&self.cancel, &mut |_| {})?;
            (rec.iterations, rec.total_ms, rec.times, rec.records)
        };
        let ratios: Vec<f64> = records.iter().filter_map(|r| r.threads.map(|t| t.dummy_ratio())).collect();
        let dummy_ratio = (!ratios.is_empty()).then(|| ratios.iter().sum::<f64>() / ratios.len() as f64);
        // Arc-weighted: Σ arcs / Σ lane-iterations, so the iterations that cost time count most.
        let (arcs, lane_iters) = records
            .iter()
            .filter_map(|r| r.value(algo, "lane_use").map(|l| (r.edges_scanned as f64, l)))
            .filter(|&(e, l)| e > 0.0 && l > 0.0)
            .fold((0.0, 0.0), |(a, w), (e, l)| (a + e, w + e / l));
        let lane_use = (lane_iters > 0.0).then(|| arcs / lane_iters);
        let device_name = st.device();
        let threads = st.thread_times();
        let variant = algo.variant();
        let relax_bytes = variant.map_or(0.0, |v| {
            let n = g.n() as u64;
            records.iter().map(|r| crate::device::roofline::kernel_bytes(r, n, Some(v), 4.0).relax).sum()
        });
        Ok((st, Solved { iterations, total_ms, times, dummy_ratio, lane_use, device_name, threads, relax_bytes }))
    }

    /// Every source × repetition of a solver cell; false when cancelled.
    fn solver_cell(
        &mut self,
        g: &Arc<Graph>,
        d: DeviceId,
        cell: &Cell,
        row: &LabResult,
        sources: &[VertexId],
        oracle: &mut Oracle,
    ) -> bool {
        let reps = self.exp.repetitions;
        let gpu = matches!(d, DeviceId::Cuda(_) | DeviceId::Wgpu(_));
        // A graph too large for the device (memory, 32-bit distances) is skipped with the
        // reason, as an unsupported algorithm is: not a failed cell (`sssp-lab check` alike).
        // Only a GPU cell lists the devices: listing probes CUDA (cuInit) and every Vulkan
        // driver, whose threads then live beside a CPU cell's timed team. `SSSP_LAB_PROBE=1`
        // lists them anyway: issue 31's lease 7 measured no difference at 16 threads.
        let probe = gpu || std::env::var_os("SSSP_LAB_PROBE").is_some_and(|v| v == "1");
        let info = if probe { crate::device::find(d) } else { None };
        if let (true, Some(info), Some(choice)) = (gpu, info, cell.algorithm.as_ref()) {
            let opts = SolveOptions { params: choice.params.clone(), block: cell.block, ..Default::default() };
            if let Err(why) = info.fits(g, choice.algorithm, &opts) {
                let work = sources.len() * reps as usize;
                self.row(LabResult { skipped: Some(format!("does not fit: {why}")), ..row.clone() }, work);
                return true;
            }
        }
        if let (true, Some(&s0)) = (gpu, sources.first())
            && let Err(e) = self.solve(d, g, cell, s0)
        {
            if self.cancelled() {
                return false;
            }
            self.row(LabResult { error: Some(e.to_string()), ..row.clone() }, sources.len() * reps as usize);
            return true;
        }
        let started = Instant::now();
        for (i, &s) in sources.iter().enumerate() {
            if i > 0
                && let Some(budget) = self.exp.cell_budget_s
                && started.elapsed().as_secs_f64() >= budget
            {
                let left = sources.len() - i;
                self.send(LabEvent::Log(format!(
                    "{} · {}: {i} of {} sources within the {budget} s cell budget",
                    row.graph,
                    row.algorithm,
                    sources.len()
                )));
                self.done += left * reps as usize;
                self.progress(format!("{} · {}", row.graph, row.algorithm));
                break;
            }
            for rep in 0..reps {
                if self.cancelled() {
                    return false;
                }
                let mut r = LabResult { source: Some(s), repetition: Some(rep), ..row.clone() };
                let reset = memory::reset_peak();
                match self.solve(d, g, cell, s) {
                    Ok((mut st, m)) => {
                        r.peak_host_bytes = if reset { memory::peak_bytes() } else { None };
                        r.device_name = m.device_name;
                        r.iterations = Some(m.iterations);
                        r.total_ms = Some(m.total_ms);
                        r.gteps = (m.total_ms > 0.0).then(|| g.m() as f64 / (m.total_ms * 1e-3) / 1e9);
                        if m.times.kernels_ms() > 0.0 {
                            r.relax_ms = Some(m.times.relax_ms);
                            r.minimum_ms = Some(m.times.minimum_ms);
                            r.update_ms = Some(m.times.update_ms);
                            r.copy_ms = Some(m.times.copy_ms);
                            if gpu && m.relax_bytes > 0.0 && m.times.relax_ms > 0.0 {
                                let gbs = m.relax_bytes / (m.times.relax_ms * 1e-3) / 1e9;
                                r.relax_gbs = Some(gbs);
                                if let Ok(p) = crate::device::roofline::peak(d) {
                                    r.peak_gbs = Some(p.bytes_per_s / 1e9);
                                    r.relax_peak_share = Some(gbs / (p.bytes_per_s / 1e9));
                                }
                            }
                        }
                        r.dummy_ratio = m.dummy_ratio;
                        r.lane_use = m.lane_use;
                        if let Some((barrier, lock)) = crate::algo::ThreadTime::shares(&m.threads) {
                            r.barrier_share = Some(barrier);
                            r.lock_share = Some(lock);
                            r.lock_contended = Some(m.threads.iter().map(|t| t.contended).sum());
                            // Only helper threads lower δ speculatively: zero everywhere else.
                            let lowered: u64 = m.threads.iter().map(|t| t.helper_lowered).sum();
                            if lowered > 0 {
                                r.helper_lowered = Some(lowered);
                                r.helper_wasted = Some(m.threads.iter().map(|t| t.helper_wasted).sum());
                            }
                            let spared: u64 = m.threads.iter().map(|t| t.spared).sum();
                            if spared > 0 {
                                r.helper_spared = Some(spared);
                            }
                        }
                        if let (DeviceId::Cuda(_), Some(a)) = (d, cell.algorithm.as_ref()) {
                            let opts = SolveOptions {
                                params: a.params.clone(),
                                block: cell.block,
                                cache: cell.cache,
                                instrument: self.exp.instrument,
                                record_deltas: false,
                                ..Default::default()
                            };
                            r.device_bytes = Some(crate::device::family::cuda_device_bytes(g, a.algorithm, &opts));
                        }
                        match st.distances() {
                            Ok(dist) => oracle.check(&mut r, s, &dist),
                            Err(e) => r.error = Some(format!("reading distances: {e}")),
                        }
                    }
                    Err(SolveError::Cancelled) => return false,
                    Err(e) => r.error = Some(e.to_string()),
                }
                self.row(r, 1);
            }
        }
        true
    }

    /// Boost's Dijkstra on every source × repetition, in one harness process; false when
    /// cancelled.
    fn boost_cell(
        &mut self,
        g: &Graph,
        row: &LabResult,
        sources: &[VertexId],
        oracle: &mut Oracle,
        gr: &mut Option<boost::TempGr>,
    ) -> bool {
        let reps = self.exp.repetitions;
        let work = sources.len() * reps as usize;
        let fail = |w: &mut Self, e: String| {
            w.row(LabResult { error: Some(e), ..row.clone() }, work);
            true
        };
        let bin = match boost::harness() {
            Ok(b) => b,
            Err(e) => return fail(self, e),
        };
        if gr.is_none() {
            self.progress(format!("writing {} as DIMACS for Boost", g.name));
            match boost::TempGr::write(g) {
                Ok(t) => *gr = Some(t),
                Err(e) => return fail(self, e),
            }
        }
        let Some(tmp) = gr.as_ref() else { return true };
        let mut session = match boost::BoostSession::start(&bin, &tmp.gr, &tmp.dir, reps, sources) {
            Ok(s) => s,
            Err(e) => return fail(self, format!("starting the Boost harness: {e}")),
        };
        let mut got = 0;
        loop {
            match session.next(&self.cancel) {
                Ok(Some(run)) => {
                    got += 1;
                    let mut r = LabResult {
                        source: Some(run.source),
                        repetition: Some(run.rep),
                        device_name: format!(
                            "Boost {} dijkstra_shortest_paths (CSR)",
                            run.boost_version.replace('_', ".")
                        ),
                        total_ms: Some(run.ms),
                        gteps: (run.ms > 0.0).then(|| g.m() as f64 / (run.ms * 1e-3) / 1e9),
                        peak_host_bytes: Some(run.peak_rss_bytes),
                        ..row.clone()
                    };
                    match boost::read_distances(&run.dist_file) {
                        Ok(dist) => oracle.check(&mut r, run.source, &dist),
                        Err(e) => r.error = Some(format!("reading {}: {e}", run.dist_file.display())),
                    }
                    let _ = std::fs::remove_file(&run.dist_file);
                    self.row(r, 1);
                }
                Ok(None) => break,
                Err(_) if self.cancelled() => return false,
                Err(e) => {
                    let left = work.saturating_sub(got);
                    self.row(LabResult { error: Some(e), ..row.clone() }, left);
                    break;
                }
            }
        }
        true
    }
}

/// The row fields a cell fixes.
pub(super) fn cell_row(base: &LabResult, c: &Cell) -> LabResult {
    LabResult {
        algorithm: c.algorithm.as_ref().map_or("dijkstra".into(), |a| a.to_string()),
        device: c.device.to_string(),
        device_name: c.device_name.clone(),
        block_relax: c.block.relax,
        block_minimum: c.block.minimum,
        block_update: c.block.update,
        cache: cache_id(c.cache).into(),
        threads: threads(c.device),
        ..base.clone()
    }
}

/// Sequential Dijkstra distances per source, computed on first use.
pub(super) struct Oracle {
    graph: Arc<Graph>,
    cache: HashMap<VertexId, Arc<Vec<Distance>>>,
    check: bool,
}

impl Oracle {
    /// Fills `correct` and `mismatches` of `r`.
    pub(super) fn check(&mut self, r: &mut LabResult, s: VertexId, dist: &[Distance]) {
        if !self.check || s as usize >= self.graph.n() {
            return;
        }
        // Dijkstra once per source: the repetitions of a cell reuse it (each timed run of a
        // parallel solver used to wait for a fresh one, ~1.5 s on Kronecker 21, while its
        // team fell asleep).
        let want = match self.cache.get(&s) {
            Some(w) => Arc::clone(w),
            // A negative cycle has no distances: the solver's error already failed the run.
            None => match reference_distances(&self.graph, s) {
                Ok(w) => Arc::clone(self.cache.entry(s).or_insert(Arc::new(w))),
                Err(_) => return,
            },
        };
        let differ = want.iter().zip(dist).filter(|(a, b)| a != b).count() + want.len().abs_diff(dist.len());
        r.mismatches = Some(differ as u64);
        r.correct = Some(differ == 0);
    }
}
