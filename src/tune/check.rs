//! The check of a prediction: a sweep that times every candidate configuration (uniform block
//! sizes 32…1024, the predicted sizes, and for Δ-stepping a few Δ around the predicted one) and
//! says whether the prediction is within 5 % of the best.
//!
//! Timing follows the lab's worker (`src/lab/worker.rs`): a fresh solver per configuration from
//! [`make_stepper`] (building it is not timed), [`crate::algo::Stepper::run_to_end`]'s own
//! `total_ms` per run, one untimed warm-up run per GPU configuration, the median over the
//! sources. One difference: a solver is reused across sources through
//! [`crate::algo::Stepper::restart`] where it can (CUDA frontier solvers), which saves the
//! graph upload between sources and changes no timed work.
//!
//! Time is bounded by a budget per check: the first (untimed) run of the predicted
//! configuration estimates one run; the sweep then uses as many sources as fit the budget (at
//! least one), and is skipped, with the reason, when one source alone would take more than
//! three budgets.

use super::rules::{Prediction, with_delta};
use crate::algo::{BlockSizes, SolveError, SolveOptions, Stepper};
use crate::device::{DeviceId, make_stepper};
use crate::graph::{Distance, Graph, VertexId};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Uniform block sizes every check tries.
pub const BLOCKS: [u32; 6] = [32, 64, 128, 256, 512, 1024];

/// How close to the best counts as a hit: 5 %.
pub const WITHIN: f64 = 1.05;

/// One configuration of a sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidate {
    pub block: BlockSizes,
    /// Δ-stepping's Δ; `None` for other algorithms.
    pub delta: Option<i64>,
}

impl Candidate {
    /// `256`, `256/128/128`, with ` delta=D` for Δ-stepping.
    pub fn label(&self) -> String {
        let b = self.block;
        let mut s = if b.relax == b.minimum && b.minimum == b.update {
            b.relax.to_string()
        } else {
            format!("{}/{}/{}", b.relax, b.minimum, b.update)
        };
        if let Some(d) = self.delta {
            s += &format!(" delta={d}");
        }
        s
    }
}

/// The median time of one candidate over the sources, or why it did not run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    pub candidate: Candidate,
    /// `run_to_end` ms per source, in source order.
    pub ms: Vec<f64>,
    pub median_ms: Option<f64>,
    pub error: Option<String>,
}

/// What a sweep measured.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TuneCheck {
    /// Sources timed (0-based), after the budget.
    pub sources: Vec<VertexId>,
    pub timings: Vec<Timing>,
    /// Index in `timings` of the prediction, of the fastest candidate and of the default
    /// (256 everywhere, auto Δ).
    pub predicted: Option<usize>,
    pub best: Option<usize>,
    pub default: Option<usize>,
    /// Predicted median / best median (≥ 1).
    pub ratio: Option<f64>,
    pub within_5pct: Option<bool>,
    /// Default median / best median.
    pub default_ratio: Option<f64>,
    /// The predicted configuration's distances from the first source equal the oracle's
    /// (`None`: not checked).
    pub correct: Option<bool>,
    /// Why the sweep did not run (budget, a failing prediction).
    pub skipped: Option<String>,
    /// Remarks: sources dropped for the budget, candidates the device refused.
    pub notes: Vec<String>,
    /// Wall time of the whole sweep, s.
    pub wall_s: f64,
}

/// What to sweep and how long it may take.
#[derive(Clone, Debug)]
pub struct SweepOptions {
    /// Sources (0-based); the first one also serves the warm-up.
    pub sources: Vec<VertexId>,
    /// Uniform block sizes to try ([`BLOCKS`]).
    pub blocks: Vec<u32>,
    /// Seconds the timed runs of the sweep may take (`None`: every source runs).
    pub budget_s: Option<f64>,
    /// Distances from the first source to compare the prediction's with (`None`: no check).
    pub reference: Option<Arc<Vec<Distance>>>,
    /// Δ₀ of the graph (Δ-stepping's auto rule), for the default candidate.
    pub auto_delta: i64,
}

/// Every candidate of a sweep: the prediction first, then the uniform `blocks`, the default
/// (256, auto Δ) and, for Δ-stepping, Δ / 4, Δ / 2, 2Δ, 4Δ and the auto Δ at the predicted
/// blocks; no duplicates (block sizes no kernel of the family reads do not count:
/// [`crate::algo::Family::normalize`]).
pub fn candidates(pred: &Prediction, blocks: &[u32], auto_delta: i64) -> Vec<Candidate> {
    let family = pred.algorithm.algorithm.spec().family;
    let mut out = vec![Candidate { block: family.normalize(pred.block), delta: pred.delta }];
    let mut push = |c: Candidate| {
        let c = Candidate { block: family.normalize(c.block), ..c };
        if !out.contains(&c) {
            out.push(c);
        }
    };
    for &b in blocks {
        push(Candidate { block: BlockSizes::uniform(b), delta: pred.delta });
    }
    if let Some(d) = pred.delta {
        push(Candidate { block: BlockSizes::default(), delta: Some(auto_delta.max(1)) });
        for x in [d / 4, d / 2, d.saturating_mul(2), d.saturating_mul(4), auto_delta] {
            push(Candidate { block: pred.block, delta: Some(x.clamp(1, i64::from(u32::MAX))) });
        }
    }
    out
}

/// Builds and runs the solvers of a sweep: one timed `run_to_end` at a time, reusing a solver
/// through `restart` where it can.
struct Runner<'a> {
    graph: &'a Arc<Graph>,
    device: DeviceId,
    pred: &'a Prediction,
    cancel: &'a AtomicBool,
}

impl Runner<'_> {
    fn options(&self, c: &Candidate) -> (crate::algo::Algorithm, SolveOptions) {
        let choice = with_delta(&self.pred.algorithm, c.delta);
        let opts =
            SolveOptions { params: choice.params, block: c.block, launch: self.pred.launch, ..Default::default() };
        (choice.algorithm, opts)
    }

    /// A solver for `c` from `s`: `st` restarted if it can, else a new one.
    fn solver(&self, c: &Candidate, s: VertexId, st: Option<Box<dyn Stepper>>) -> Result<Box<dyn Stepper>, SolveError> {
        if let Some(mut st) = st
            && st.restart(s)?
        {
            return Ok(st);
        }
        let (algo, opts) = self.options(c);
        make_stepper(self.device, Arc::clone(self.graph), algo, s, &opts)
    }

    /// Times `c` from every source (after a warm-up run from `s0` when `warm`), starting from
    /// solver `st` if given; `tick` hears of each run. A failing run ends the candidate with its
    /// error.
    ///
    /// Errors: [`SolveError::Cancelled`].
    fn time(
        &self,
        c: &Candidate,
        mut st: Option<Box<dyn Stepper>>,
        warm: bool,
        s0: VertexId,
        sources: &[VertexId],
        tick: &mut dyn FnMut(usize, VertexId),
    ) -> Result<Timing, SolveError> {
        let mut t = Timing { candidate: c.clone(), ms: Vec::new(), median_ms: None, error: None };
        let outcome = |r: Result<(f64, Box<dyn Stepper>), SolveError>, t: &mut Timing| match r {
            Ok((ms, solver)) => Ok(Some((ms, solver))),
            Err(SolveError::Cancelled) => Err(SolveError::Cancelled),
            Err(e) => {
                t.error = Some(e.to_string());
                Ok(None)
            }
        };
        if warm {
            st = outcome(self.run(c, s0, None), &mut t)?.map(|(_, x)| x);
        }
        for (j, &s) in sources.iter().enumerate() {
            if t.error.is_some() {
                break;
            }
            if self.cancel.load(Ordering::Relaxed) {
                return Err(SolveError::Cancelled);
            }
            tick(j, s);
            if let Some((ms, solver)) = outcome(self.run(c, s, st.take()), &mut t)? {
                t.ms.push(ms);
                st = Some(solver);
            }
        }
        if t.error.is_none() {
            t.median_ms = median(&t.ms);
        }
        Ok(t)
    }

    /// One run: (ms, the solver for reuse).
    fn run(
        &self,
        c: &Candidate,
        s: VertexId,
        st: Option<Box<dyn Stepper>>,
    ) -> Result<(f64, Box<dyn Stepper>), SolveError> {
        let mut st = self.solver(c, s, st)?;
        let rec = st.run_to_end(self.cancel, &mut |_| {})?;
        Ok((rec.total_ms, st))
    }
}

/// Times every candidate of `pred` on `graph` (see the module docs for how) and compares the
/// prediction with the best. `progress` gets a fraction and a line of what runs.
///
/// Errors: [`SolveError::Cancelled`] when `cancel` was set. Everything else (a candidate the
/// device refuses, a failing prediction, the budget) is reported inside the [`TuneCheck`].
pub fn sweep(
    graph: &Arc<Graph>,
    pred: &Prediction,
    opts: &SweepOptions,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(f32, String),
) -> Result<TuneCheck, SolveError> {
    let started = std::time::Instant::now();
    let gpu = matches!(pred.device, DeviceId::Cuda(_) | DeviceId::Wgpu(_));
    let mut check = TuneCheck { predicted: Some(0), ..Default::default() };
    // Rule C1: on the CPU block sizes change nothing but the modelled figures, so only Δ varies.
    let blocks = if gpu { &opts.blocks[..] } else { &[] };
    if !gpu {
        check.notes.push("block sizes not swept: they do not change a CPU run (rule C1)".into());
    }
    let cands = candidates(pred, blocks, opts.auto_delta);
    let r = Runner { graph, device: pred.device, pred, cancel };
    let Some(&s0) = opts.sources.first() else {
        check.skipped = Some("no source".into());
        return Ok(check);
    };
    // The prediction's first run: warm-up, time estimate and correctness check.
    progress(0.0, format!("{} warm-up", cands[0].label()));
    let (t0, mut first) = match r.run(&cands[0], s0, None) {
        Ok(x) => x,
        Err(SolveError::Cancelled) => return Err(SolveError::Cancelled),
        Err(e) => {
            check.skipped = Some(format!("the predicted configuration fails: {e}"));
            return Ok(check);
        }
    };
    if let Some(want) = &opts.reference {
        check.correct = Some(first.distances().map(|d| d == **want).unwrap_or(false));
    }
    // A warm-up per GPU configuration, as the lab does, unless runs are long enough to need none.
    let warm = gpu && t0 < 1000.0;
    let Some(k) = budget_sources(&mut check, opts, t0, cands.len(), warm) else {
        check.wall_s = started.elapsed().as_secs_f64();
        return Ok(check);
    };
    check.sources = opts.sources[..k].to_vec();
    let total = (cands.len() * k) as f32;
    let mut first = Some(first);
    for (i, c) in cands.iter().enumerate() {
        // The solver to start from: the prediction's first run, or this candidate's warm-up.
        let start = if i == 0 { first.take() } else { None };
        let mut tick = |j: usize, s: VertexId| progress((i * k + j) as f32 / total, format!("{} from {s}", c.label()));
        let t = r.time(c, start, warm && i > 0, s0, &check.sources, &mut tick)?;
        if let Some(e) = &t.error {
            check.notes.push(format!("{}: {e}", c.label()));
        }
        check.timings.push(t);
    }
    finish(&mut check, opts.auto_delta, pred.delta.is_some());
    check.wall_s = started.elapsed().as_secs_f64();
    progress(1.0, "done".into());
    Ok(check)
}

/// How many of the sources fit the budget, given a first run of `t0` ms over `cands`
/// candidates (with a warm-up run each when `warm`); `None` when not even one fits within 3 ×
/// the budget (the check is then skipped, with the reason).
fn budget_sources(check: &mut TuneCheck, opts: &SweepOptions, t0: f64, cands: usize, warm: bool) -> Option<usize> {
    let per_source = t0.max(0.01) * 1e-3 * cands as f64;
    let warm_s = if warm { per_source } else { 0.0 };
    let mut k = opts.sources.len();
    if let Some(budget) = opts.budget_s {
        if per_source + warm_s > 3.0 * budget {
            check.skipped = Some(format!(
                "one run takes ~{:.2} s, so one source over {cands} candidates ~{:.0} s: over 3 x the {budget} s budget",
                t0 * 1e-3,
                per_source + warm_s
            ));
            return None;
        }
        k = (((budget - warm_s) / per_source).max(0.0) as usize).clamp(1, k);
        if k < opts.sources.len() {
            check.notes.push(format!(
                "{k} of {} sources within the {budget} s budget (~{per_source:.2} s per source over {cands} candidates)",
                opts.sources.len(),
            ));
        }
    }
    Some(k)
}

/// The median of `ms` (the mean of the middle two for an even count); `None` when empty.
fn median(ms: &[f64]) -> Option<f64> {
    let mut v = ms.to_vec();
    v.sort_by(f64::total_cmp);
    let k = v.len();
    (k > 0).then(|| (v[(k - 1) / 2] + v[k / 2]) / 2.0)
}

/// Fills best, default and the ratios from the timings.
fn finish(check: &mut TuneCheck, auto_delta: i64, with_delta: bool) {
    let med = |i: usize| check.timings.get(i).and_then(|t| t.median_ms);
    check.best = (0..check.timings.len())
        .filter(|&i| med(i).is_some())
        .min_by(|&a, &b| med(a).unwrap_or(f64::INFINITY).total_cmp(&med(b).unwrap_or(f64::INFINITY)));
    let default = Candidate { block: BlockSizes::default(), delta: with_delta.then_some(auto_delta.max(1)) };
    check.default = check.timings.iter().position(|t| t.candidate == default);
    let best = check.best.and_then(med).filter(|&b| b > 0.0);
    // With one candidate there is nothing to choose: no ratio, not counted.
    if check.timings.len() > 1 {
        check.ratio = best.and_then(|b| check.predicted.and_then(med).map(|p| p / b));
        check.default_ratio = best.and_then(|b| check.default.and_then(med).map(|d| d / b));
    }
    check.within_5pct = check.ratio.map(|r| r <= WITHIN);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::{AlgoChoice, Launch};

    fn pred(block: BlockSizes, delta: Option<i64>) -> Prediction {
        let algorithm: AlgoChoice =
            if delta.is_some() { "delta-stepping" } else { "crauser-succ" }.parse().expect("id");
        Prediction { algorithm, device: DeviceId::Cpu, launch: Launch::Fast, block, delta, reasons: Vec::new() }
    }

    #[test]
    fn candidates_put_the_prediction_first_without_duplicates() {
        let c = candidates(&pred(BlockSizes::uniform(256), None), &BLOCKS, 1);
        assert_eq!(c.len(), 6);
        assert_eq!(c[0].label(), "256");
        let odd = BlockSizes { relax: 512, minimum: 128, update: 128 };
        let c = candidates(&pred(odd, None), &BLOCKS, 1);
        assert_eq!((c.len(), c[0].label()), (7, "512/128/128".to_string()));
        // Δ-stepping: uniform blocks at Δ, the default (256, auto Δ), then Δ/4 … 4Δ and auto.
        let c = candidates(&pred(BlockSizes::uniform(64), Some(100)), &BLOCKS, 7);
        let labels: Vec<String> = c.iter().map(Candidate::label).collect();
        assert_eq!(labels[0], "64 delta=100");
        for want in ["256 delta=7", "64 delta=25", "64 delta=50", "64 delta=200", "64 delta=400", "64 delta=7"] {
            assert!(labels.contains(&want.to_string()), "{want} in {labels:?}");
        }
        assert_eq!(labels.len(), 6 + 6);
        // Δ-stepping launches no minimum kernel: that block size makes no other candidate.
        let c = candidates(&pred(BlockSizes { relax: 64, minimum: 512, update: 64 }, Some(100)), &BLOCKS, 7);
        assert_eq!((c[0].label(), c.len()), ("64 delta=100".to_string(), 12));
    }
}
