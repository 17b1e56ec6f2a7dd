//! How long a run to the end will take, as far as it can be told while it runs: the rate of
//! iterations and of settled vertices, an estimate of what is left, and for Bellman-Ford (which
//! settles nothing before it converges) its passes against the bound n − 1 and the trend of the
//! vertices each pass changed. Also the warning of spin barriers on more threads than cores.

use crate::algo::IterationRecord;
use crate::app::state::AppState;
use crate::device::DeviceId;

/// Passes compared for the changed-vertex trend (the last `TREND` against the `TREND` before).
const TREND: usize = 8;

/// What the run panel shows under a running run-to-end: one line of rates, one estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct RunRate {
    pub rate: String,
    pub estimate: String,
}

/// The rate and estimate of a run to the end that has run `secs` seconds and recorded
/// `records[start_len..]` meanwhile, on a graph of `n` vertices; `passes`: the algorithm settles
/// nothing until it converges (Bellman-Ford), so progress is counted in passes.
pub fn rate(records: &[IterationRecord], start_len: usize, secs: f64, n: u64, passes: bool) -> RunRate {
    let new = records.len().saturating_sub(start_len) as f64;
    let secs = secs.max(1e-3);
    let per_s = new / secs;
    let last = records.last();
    let done = records.len() as u64;
    if passes {
        let bound = n.saturating_sub(1).max(1);
        let changed: Vec<u64> = records.iter().rev().take(2 * TREND).map(|r| r.relax_improved).collect();
        let recent: u64 = changed.iter().take(TREND).sum();
        let before: u64 = changed.iter().skip(TREND).sum();
        let trend = match (recent, before) {
            (0, _) => "none changed in the last passes: converging".to_string(),
            (_, 0) => "changed vertices: too few passes for a trend".to_string(),
            (r, b) => {
                let f = r as f64 / b as f64;
                let word = if f < 0.9 {
                    "falling"
                } else if f > 1.1 {
                    "rising"
                } else {
                    "flat"
                };
                format!("changed vertices {word} (last {TREND} passes {r}, the {TREND} before {b})")
            }
        };
        let left_s = (bound.saturating_sub(done)) as f64 / per_s.max(1e-9);
        return RunRate {
            rate: format!("pass {done} of at most n − 1 = {bound}; {per_s:.0} passes/s"),
            estimate: format!("{trend}; at most {} left (the bound n − 1)", duration(left_s)),
        };
    }
    let settled = last.map_or(1, |r| r.settled);
    let first = records.get(start_len.saturating_sub(1)).map_or(1, |r| r.settled);
    let settled_per_s = settled.saturating_sub(first) as f64 / secs;
    let left = n.saturating_sub(settled);
    let estimate = if settled_per_s > 0.0 {
        format!(
            "{left} vertices unsettled: about {} left at this rate (less if some are unreachable)",
            duration(left as f64 / settled_per_s)
        )
    } else {
        format!("{left} vertices unsettled; no vertex settled yet in this run to the end")
    };
    RunRate {
        rate: format!("iteration {done}; {per_s:.0} iterations/s, {settled_per_s:.0} vertices settled/s"),
        estimate,
    }
}

/// 95 s → "1 min 35 s".
fn duration(s: f64) -> String {
    match s {
        s if !s.is_finite() => "an unknown time".into(),
        s if s < 1.0 => "under a second".into(),
        s if s < 60.0 => format!("{s:.0} s"),
        s if s < 3600.0 => format!("{:.0} min {:.0} s", (s / 60.0).floor(), s % 60.0),
        s if s < 86_400.0 * 2.0 => format!("{:.0} h {:.0} min", (s / 3600.0).floor(), (s % 3600.0) / 60.0),
        s => format!("{:.0} days", s / 86_400.0),
    }
}

/// The rate and estimate lines under the run-to-end progress bar.
pub fn run_rate(ui: &mut egui::Ui, state: &AppState) {
    let (Some(run), Some(t), Some(g)) = (&state.jobs.run, &state.trace, state.graph()) else { return };
    let passes = state.settings.algorithm.algorithm == crate::algo::BELLMAN_FORD;
    let r = rate(t.records(), run.start_len, run.started.elapsed().as_secs_f64(), g.n() as u64, passes);
    ui.label(egui::RichText::new(r.rate).small());
    ui.label(egui::RichText::new(r.estimate).small());
}

/// The warning line when spin barriers run on more threads than the machine has cores (the
/// spinning threads then take the cores from the ones they wait for: seed 001's schemes showed
/// a 100 % barrier share with 4 threads on 2 cores).
pub fn spin_warning(state: &AppState) -> Option<String> {
    let algo = state.settings.algorithm.algorithm;
    let spins = algo.spec().params.iter().any(|p| p.key == "barrier")
        && algo.choice(&state.settings.algorithm.params, "barrier") == "spin";
    let DeviceId::CpuParallel(threads @ 1..) = state.settings.device else { return None };
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    (spins && threads as usize > cores).then(|| {
        format!(
            "{threads} threads spin at barriers on {cores} cores: waiting threads take the cores from the ones \
             they wait for, so the barrier share nears 100 %. Use at most {cores} threads or barrier = sleep."
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(i: u32, settled: u64, improved: u64) -> IterationRecord {
        IterationRecord { iteration: i, settled, relax_improved: improved, ..Default::default() }
    }

    #[test]
    fn bellman_ford_counts_passes_against_n_minus_1_with_the_trend() {
        let recs: Vec<_> = (1..=20).map(|i| rec(i, 1, if i <= 12 { 100 } else { 10 })).collect();
        let r = rate(&recs, 0, 2.0, 1001, true);
        assert_eq!(r.rate, "pass 20 of at most n − 1 = 1000; 10 passes/s");
        assert!(r.estimate.starts_with("changed vertices falling"), "{}", r.estimate);
        assert!(r.estimate.contains("1 min 38 s"), "{}", r.estimate);
    }

    #[test]
    fn other_solvers_estimate_from_the_settled_rate() {
        let recs: Vec<_> = (1..=10).map(|i| rec(i, 10 * i as u64, 1)).collect();
        let r = rate(&recs, 5, 1.0, 1000, false);
        assert!(r.rate.contains("5 iterations/s, 50 vertices settled/s"), "{}", r.rate);
        assert!(r.estimate.starts_with("900 vertices unsettled: about 18 s left"), "{}", r.estimate);
    }
}
