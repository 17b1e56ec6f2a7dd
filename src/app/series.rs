//! Per-iteration plot series, decimated as they grow: every series keeps at most
//! [`MAX_BUCKETS`] min/max buckets of `bucket` consecutive iterations, so a 227 575-iteration
//! Martín run on NY plots ~2 points per pixel column, and new records cost O(1) each (buckets
//! merge pairwise when there are too many). The series are the algorithm's
//! ([`crate::algo::series_of`]): a new algorithm's declared values plot without edits here.

use crate::algo::{Algorithm, IterationRecord, SeriesRef, SeriesUnit, series_of};

/// Buckets per series before pairs merge (≈ 2 per pixel column of a wide plot).
pub const MAX_BUCKETS: usize = 2048;

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
    /// The series of the run's algorithm, parallel to `buckets`.
    series: Vec<SeriesRef>,
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
    pub fn update(&mut self, run_id: u64, algo: Algorithm, records: &[IterationRecord]) {
        if run_id != self.run_id || records.len() < self.consumed || self.buckets.is_empty() {
            let series = series_of(algo);
            let buckets = vec![Vec::new(); series.len()];
            *self = PlotSeries { run_id, series, bucket: 1, buckets, ..Default::default() };
        }
        for (i, r) in records.iter().enumerate().skip(self.consumed) {
            let b = i / self.bucket;
            self.modelled |= r.threads.is_some_and(|t| t.modelled);
            for (s, series) in self.series.iter().zip(&mut self.buckets) {
                if series.len() <= b {
                    series.resize(b + 1, None);
                }
                let v = plotted(s, r).map(|v| Bucket { min: v, max: v });
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

    /// The series of the current run, in plot order.
    pub fn series(&self) -> &[SeriesRef] {
        &self.series
    }

    /// Points of the series with key `key`: x = iteration (1-based), two points (min, max) per
    /// bucket; y is log₁₀ for counts.
    pub fn points(&self, key: &str) -> Vec<[f64; 2]> {
        let Some(series) = self.series.iter().position(|s| s.spec.key == key).and_then(|i| self.buckets.get(i)) else {
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

/// The plotted value: log₁₀ of a positive count, a finite distance, a ratio or ms; `None` for
/// what cannot be drawn (∞, log of 0, unset).
fn plotted(s: &SeriesRef, r: &IterationRecord) -> Option<f64> {
    let v = s.value(r)?;
    match s.spec.unit {
        SeriesUnit::Count => (v > 0.0).then(|| v.log10()),
        _ => v.is_finite().then_some(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::algo::{MARTIN_SUCC, Thresholds, frontier_values};

    fn rec(i: u32, frontier: u64) -> IterationRecord {
        let t = Thresholds { martin: i as i64, crauser: i as i64, delta: i as i64 };
        IterationRecord { iteration: i, frontier, values: frontier_values(&t, 0, None), ..Default::default() }
    }

    #[test]
    fn long_runs_stay_within_the_bucket_limit_and_keep_extremes() {
        let records: Vec<_> = (1..=100_000u32).map(|i| rec(i, if i == 77_777 { 1000 } else { 1 })).collect();
        let mut s = PlotSeries::default();
        s.update(1, MARTIN_SUCC, &records[..50_000]);
        s.update(1, MARTIN_SUCC, &records);
        let pts = s.points("frontier");
        assert!(pts.len() <= 2 * MAX_BUCKETS, "{}", pts.len());
        let max = pts.iter().map(|p| p[1]).fold(f64::MIN, f64::max);
        assert_eq!(max, 3.0, "the single |F| = 1000 spike survives decimation");
        let last = s.points("delta").last().map(|p| p[1]);
        assert_eq!(last, Some(100_000.0));
    }

    #[test]
    fn a_new_run_starts_the_series_over() {
        let mut s = PlotSeries::default();
        s.update(1, MARTIN_SUCC, &[rec(1, 5), rec(2, 6)]);
        s.update(2, MARTIN_SUCC, &[rec(1, 10)]);
        assert_eq!(s.points("frontier"), vec![[1.0, 1.0]]);
    }
}
