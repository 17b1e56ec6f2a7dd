//! Per-iteration plot series, decimated as they grow: every series keeps at most
//! [`MAX_BUCKETS`] min/max buckets of `bucket` consecutive iterations, so a 227 575-iteration
//! Martín run on NY plots ~2 points per pixel column, and new records cost O(1) each (buckets
//! merge pairwise when there are too many).

use crate::algo::IterationRecord;
use crate::graph::INF;

/// Buckets per series before pairs merge (≈ 2 per pixel column of a wide plot).
pub const MAX_BUCKETS: usize = 2048;

/// The series the plots draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesId {
    /// log₁₀ |F|.
    Frontier,
    /// log₁₀ |U|.
    Unsettled,
    /// log₁₀ reached (unsettled, δ < ∞).
    Reached,
    /// Δᵢ used.
    Delta,
    /// Martín's threshold min δ over U.
    DeltaMartin,
    /// Crauser's threshold min δ + ω over U.
    DeltaCrauser,
    /// Dummy-thread ratio of the relax kernel.
    Dummy,
    /// log₁₀ relaxations attempted.
    Attempted,
    /// log₁₀ relaxations that lowered δ.
    Improved,
}

impl SeriesId {
    pub const ALL: [SeriesId; 9] = [
        SeriesId::Frontier,
        SeriesId::Unsettled,
        SeriesId::Reached,
        SeriesId::Delta,
        SeriesId::DeltaMartin,
        SeriesId::DeltaCrauser,
        SeriesId::Dummy,
        SeriesId::Attempted,
        SeriesId::Improved,
    ];

    /// The plotted value of `r`, `None` where there is nothing to plot (∞, log of 0).
    pub fn value(self, r: &IterationRecord) -> Option<f64> {
        let log = |v: u64| (v > 0).then(|| (v as f64).log10());
        let dist = |d: u64| (d != INF).then_some(d as f64);
        match self {
            SeriesId::Frontier => log(r.frontier),
            SeriesId::Unsettled => log(r.unsettled),
            SeriesId::Reached => log(r.reached),
            SeriesId::Delta => dist(r.delta),
            SeriesId::DeltaMartin => dist(r.delta_martin),
            SeriesId::DeltaCrauser => dist(r.delta_crauser),
            SeriesId::Dummy => r.threads.map(|t| t.dummy_ratio()),
            SeriesId::Attempted => log(r.relax_attempted),
            SeriesId::Improved => log(r.relax_improved),
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    min: f64,
    max: f64,
}

impl Bucket {
    fn merge(a: Option<Bucket>, b: Option<Bucket>) -> Option<Bucket> {
        match (a, b) {
            (Some(a), Some(b)) => Some(Bucket { min: a.min.min(b.min), max: a.max.max(b.max) }),
            (a, b) => a.or(b),
        }
    }
}

/// Decimated series of one run.
#[derive(Debug, Default)]
pub struct PlotSeries {
    run_id: u64,
    /// Records consumed so far.
    consumed: usize,
    /// Iterations per bucket (a power of two).
    bucket: usize,
    buckets: Vec<Vec<Option<Bucket>>>,
    /// Whether any record had modelled (not measured) thread counts.
    pub modelled: bool,
}

impl PlotSeries {
    /// Takes in the records not seen yet; starts over for a new run.
    pub fn update(&mut self, run_id: u64, records: &[IterationRecord]) {
        if run_id != self.run_id || records.len() < self.consumed || self.buckets.is_empty() {
            *self =
                PlotSeries { run_id, bucket: 1, buckets: vec![Vec::new(); SeriesId::ALL.len()], ..Default::default() };
        }
        for (i, r) in records.iter().enumerate().skip(self.consumed) {
            let b = i / self.bucket;
            self.modelled |= r.threads.is_some_and(|t| t.modelled);
            for (s, series) in SeriesId::ALL.iter().zip(&mut self.buckets) {
                if series.len() <= b {
                    series.resize(b + 1, None);
                }
                let v = s.value(r).map(|v| Bucket { min: v, max: v });
                series[b] = Bucket::merge(series[b], v);
            }
            if self.buckets[0].len() > MAX_BUCKETS {
                self.halve();
            }
        }
        self.consumed = records.len();
    }

    fn halve(&mut self) {
        for series in &mut self.buckets {
            *series = series.chunks(2).map(|c| Bucket::merge(c[0], c.get(1).copied().flatten())).collect();
        }
        self.bucket *= 2;
    }

    /// Points of `id`: x = iteration (1-based), two points (min, max) per bucket.
    pub fn points(&self, id: SeriesId) -> Vec<[f64; 2]> {
        let Some(series) = SeriesId::ALL.iter().position(|s| *s == id).and_then(|i| self.buckets.get(i)) else {
            return Vec::new();
        };
        let half = (self.bucket as f64 - 1.0) / 2.0;
        let mut out = Vec::with_capacity(series.len() * 2);
        for (b, bucket) in series.iter().enumerate() {
            let Some(bucket) = bucket else { continue };
            let x = (b * self.bucket + 1) as f64 + half;
            out.push([x, bucket.min]);
            if bucket.max != bucket.min {
                out.push([x, bucket.max]);
            }
        }
        out
    }

    /// Iterations per bucket.
    pub fn bucket_size(&self) -> usize {
        self.bucket
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(i: u32, frontier: u64) -> IterationRecord {
        IterationRecord { iteration: i, frontier, delta: i as u64, ..Default::default() }
    }

    #[test]
    fn long_runs_stay_within_the_bucket_limit_and_keep_extremes() {
        let records: Vec<_> = (1..=100_000u32).map(|i| rec(i, if i == 77_777 { 1000 } else { 1 })).collect();
        let mut s = PlotSeries::default();
        s.update(1, &records[..50_000]);
        s.update(1, &records);
        let pts = s.points(SeriesId::Frontier);
        assert!(pts.len() <= 2 * MAX_BUCKETS, "{}", pts.len());
        let max = pts.iter().map(|p| p[1]).fold(f64::MIN, f64::max);
        assert_eq!(max, 3.0, "the single |F| = 1000 spike survives decimation");
        let last = s.points(SeriesId::Delta).last().map(|p| p[1]);
        assert_eq!(last, Some(100_000.0));
    }

    #[test]
    fn a_new_run_starts_the_series_over() {
        let mut s = PlotSeries::default();
        s.update(1, &[rec(1, 5), rec(2, 6)]);
        s.update(2, &[rec(1, 10)]);
        assert_eq!(s.points(SeriesId::Frontier), vec![[1.0, 1.0]]);
    }
}
