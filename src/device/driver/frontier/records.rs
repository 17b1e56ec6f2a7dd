//! The frontier driver's records: a stepped iteration booked from two copies of the state
//! ([`book_step`]), a fast run's records from its log ([`fast_records`]), the set sizes of
//! uninstrumented per-phase records from the stamps ([`sizes_from_stamps`]) and the answer of a
//! finished run.

use crate::algo::{IterationRecord, PhaseTimes, RunRecord, Step, Thresholds, Values};
use crate::device::driver::RunIdent;
use crate::device::gpu::{self, FrontierRun, HostState, LaunchModel};

/// What a stepped iteration's device work gave the host.
pub struct Stepped<'a> {
    /// The iteration (1-based).
    pub iteration: u32,
    pub thresholds: &'a Thresholds,
    /// Kernel times of the iteration (`copy_ms`: copies inside it, the hybrids').
    pub times: PhaseTimes,
    /// Host time of copying δ and the stamps back after it, ms.
    pub copy_ms: f64,
    /// The kernels' own record when they counted (instrumented runs); else the host diff's.
    pub counted: Option<IterationRecord>,
}

/// The [`Step`] of iteration `s.iteration` from the state before (`prev`) and after (`new`)
/// it: the host diff's record (modelled thread counts) unless the kernels counted, the state
/// copy's time added, and the step delta when the run records deltas. Also returns how many
/// vertices the iteration settled (|Fᵢ₊₁|).
pub fn book_step(
    id: &RunIdent,
    run: FrontierRun,
    model: &mut LaunchModel,
    s: Stepped<'_>,
    prev: &HostState,
    new: &HostState,
) -> (Step, u64) {
    let block = id.opts.block.relax;
    let (diffed, delta) =
        gpu::diffed_record(&id.graph, run, block, model, s.iteration, s.thresholds, prev, new, s.times);
    let mut record = s.counted.unwrap_or(diffed);
    record.times.copy_ms = s.times.copy_ms + s.copy_ms;
    let next = delta.settled.len() as u64;
    (Step { record, delta: id.opts.record_deltas.then_some(delta) }, next)
}

/// Vertices settled in a copy of the state (stamped), e.g. after a cancelled fast run, whose
/// records did not reach the host.
pub fn settled_in(state: &HostState) -> u64 {
    state.stamp.iter().filter(|&&s| s != gpu::UNSET).count() as u64
}

/// One iteration of a fast run as its log gives it: thresholds and set sizes.
pub struct Sizes {
    pub thresholds: Thresholds,
    /// |Fᵢ|.
    pub frontier: u64,
    /// Vertices reached and unsettled after the iteration.
    pub reached: u64,
    pub times: PhaseTimes,
}

/// Appends the records of a fast run's iterations `first …` to `run`, `settled` vertices
/// settled before the first; |Fᵢ₊₁| is the next entry's frontier (0 after the last, which
/// ends the solve). Returns the vertices settled after the last.
pub fn fast_records(run: &mut RunRecord, first: u32, n: u64, mut settled: u64, log: &[Sizes]) -> u64 {
    for (k, s) in log.iter().enumerate() {
        let next = log.get(k + 1).map_or(0, |x| x.frontier);
        let unsettled = n - settled;
        settled += next;
        let mut r = gpu::sizes_record(first + k as u32, &s.thresholds, s.frontier, unsettled, s.reached, settled, next);
        r.times = s.times;
        run.times.add(&r.times);
        run.records.push(r);
    }
    settled
}

/// Fills in the set sizes of uninstrumented per-phase records (thresholds and times only, as
/// the kernels count nothing then) from the stamps after the run: |Fᵢ| is the number of
/// vertices stamped i, so frontier, unsettled, settled and |Fᵢ₊₁| (the last value) come out as
/// the CPU stepper records them; `reached` stays 0 (not counted). Both devices' per-phase runs
/// give these records, CUDA's update counts |Fᵢ₊₁| itself.
pub fn sizes_from_stamps(records: &mut [IterationRecord], stamp: &[u32]) {
    let n = stamp.len() as u64;
    let last = records.iter().map(|r| r.iteration as usize).max().unwrap_or(0);
    let mut hist = vec![0u64; last + 2];
    for &s in stamp {
        if let Some(h) = hist.get_mut(s as usize).filter(|_| s != gpu::UNSET) {
            *h += 1;
        }
    }
    // below[i]: vertices stamped 1 ..= i.
    let below: Vec<u64> = hist
        .iter()
        .scan(0, |acc, &h| {
            *acc += h;
            Some(*acc)
        })
        .collect();
    for r in records {
        let i = r.iteration as usize;
        let next = hist[i + 1];
        r.frontier = hist[i];
        r.unsettled = n - below[i];
        r.settled = below[i + 1];
        let mut v = [f64::NAN; 4];
        for (k, x) in v.iter_mut().enumerate().take(3) {
            *x = r.values.get(k).unwrap_or(f64::NAN);
        }
        v[3] = next as f64;
        r.values = Values::from_slice(&v);
    }
}

/// The record `run_to_end` returns for a run that already finished: the header, its
/// iterations and the vertices it settled.
pub fn finished_run(id: &RunIdent, iterations: u32, reached: u64) -> RunRecord {
    let mut run = id.header();
    run.iterations = iterations;
    run.reached = reached;
    run
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::Threshold;

    /// A fast run of three iterations on 10 vertices, 2 settled before it: |F| = 3, 4, 1; each
    /// iteration settles the next one's frontier, the last settles nothing.
    /// Stamps of 8 vertices: F₁ = {0}, F₂ = {1, 2}, F₃ = {3}, F₄ = {6, 7}, two never settled;
    /// the records of iterations 2 and 3 get the CPU stepper's sizes.
    #[test]
    fn sizes_from_stamps_count_each_frontier() {
        let u = gpu::UNSET;
        let stamp = [1, 2, 2, 3, u, u, 4, 4];
        let t = Thresholds::from_minima(Threshold::Martin, 5, 7);
        let rec = |iteration| IterationRecord {
            iteration,
            values: crate::algo::frontier_values(&t, 0, None),
            ..Default::default()
        };
        let mut records = [rec(2), rec(3)];
        sizes_from_stamps(&mut records, &stamp);
        let got: Vec<(u64, u64, u64)> = records.iter().map(|r| (r.frontier, r.unsettled, r.settled)).collect();
        assert_eq!(got, [(2, 5, 4), (1, 4, 6)]);
        assert_eq!(records[0].values, crate::algo::frontier_values(&t, 1, None));
        assert_eq!(records[1].values, crate::algo::frontier_values(&t, 2, None));
    }

    #[test]
    fn fast_records_chain_the_settled_counts() {
        let sizes = |frontier, reached| Sizes {
            thresholds: Thresholds::from_minima(Threshold::Martin, 5, 7),
            frontier,
            reached,
            times: PhaseTimes { relax_ms: 1.0, ..Default::default() },
        };
        let mut run = RunRecord::default();
        let log = [sizes(3, 6), sizes(4, 2), sizes(1, 0)];
        let settled = fast_records(&mut run, 4, 10, 2, &log);
        assert_eq!(settled, 7);
        let got: Vec<(u32, u64, u64, u64)> =
            run.records.iter().map(|r| (r.iteration, r.frontier, r.unsettled, r.settled)).collect();
        assert_eq!(got, [(4, 3, 8, 6), (5, 4, 4, 7), (6, 1, 3, 7)]);
        assert_eq!(run.times.relax_ms, 3.0);
    }
}
