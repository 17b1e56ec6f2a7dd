//! Per-thread timeline of a multicore run (seed 001 Fig. 2's question, over time): one row per
//! thread, time running left to right, each span coloured by what the thread did — work,
//! waiting at a barrier (helpers: for the next iteration), waiting for a lock.
//!
//! The solvers keep only running totals per thread ([`ThreadTime`], cheap enough to keep on in
//! every run); the spans are the differences between the totals the app sees after successive
//! steps, kept here (per run, in egui's temporary memory) and merged into at most [`SPANS`]
//! spans per thread, so stepping costs the solver nothing extra. A run finished in one go
//! (`run_to_end`, e.g. Δ-stepping's fast path) shows one span per thread.

use crate::algo::ThreadTime;
use crate::app::palette;
use egui_plot::{Bar, BarChart};

/// Spans per thread drawn at most (older spans merge pairwise).
const SPANS: usize = 128;

/// Snapshots of the per-thread totals of one run.
#[derive(Clone, Default)]
struct History {
    run: u64,
    /// Per span, the totals at its end (thread 0 first).
    ends: Vec<Vec<ThreadTime>>,
}

impl History {
    /// Adds `now` when it differs from the last snapshot; restarts on a new run or when the
    /// totals went back (steps undone and redone keep the machine's time, so they only grow).
    fn observe(&mut self, run: u64, now: &[ThreadTime]) {
        let restart = self.run != run
            || self
                .ends
                .last()
                .is_some_and(|l| l.len() != now.len() || l.iter().zip(now).any(|(a, b)| b.total_ms() < a.total_ms()));
        if restart {
            self.run = run;
            self.ends.clear();
        }
        if self.ends.last().is_none_or(|l| l.as_slice() != now) {
            self.ends.push(now.to_vec());
        }
        if self.ends.len() > SPANS {
            // Keep every other end: spans merge pairwise, the last end stays.
            let last = self.ends.len() - 1;
            let mut k = 0;
            self.ends.retain(|_| {
                k += 1;
                k % 2 == 0 || k - 1 == last
            });
        }
    }

    /// Per thread, the spans (start ms, work, barrier, lock ms) since the first snapshot.
    fn spans(&self) -> Vec<Vec<(f64, ThreadTime)>> {
        let Some(first) = self.ends.first() else { return Vec::new() };
        (0..first.len())
            .map(|t| {
                let mut prev = ThreadTime::default();
                let mut at = 0.0;
                self.ends
                    .iter()
                    .map(|e| {
                        let now = e[t];
                        let d = ThreadTime {
                            work_ms: (now.work_ms - prev.work_ms).max(0.0),
                            barrier_ms: (now.barrier_ms - prev.barrier_ms).max(0.0),
                            lock_ms: (now.lock_ms - prev.lock_ms).max(0.0),
                            ..Default::default()
                        };
                        let start = at;
                        at += d.total_ms();
                        prev = now;
                        (start, d)
                    })
                    .collect()
            })
            .collect()
    }
}

/// Draws the timeline of `times` (the solver's per-thread totals after its last step) for run
/// `run`, `height` points tall.
pub fn timeline(ui: &mut egui::Ui, run: u64, times: &[ThreadTime], height: f32) {
    let id = ui.scope_id().with("thread-timeline");
    let spans = ui.data_mut(|d| {
        let h = d.get_temp_mut_or_default::<History>(id);
        h.observe(run, times);
        h.spans()
    });
    ui.label(egui::RichText::new("Per-thread timeline (ms of each thread's time; a span per step)").small())
        .on_hover_text(
            "Each row is a thread; spans follow one another in the thread's own time. Green: work; \
             orange: barrier (helpers: waiting for the next iteration); red: lock wait. Long orange \
             spans on the workers while T0 works are the synchronisation seed 001 measures.",
        );
    let (mut work, mut wait, mut locks) = (Vec::new(), Vec::new(), Vec::new());
    for (t, row) in spans.iter().enumerate() {
        for &(start, d) in row {
            let y = t as f64;
            work.push(Bar::new(y, d.work_ms).base_offset(start).width(0.7));
            wait.push(Bar::new(y, d.barrier_ms).base_offset(start + d.work_ms).width(0.7));
            locks.push(Bar::new(y, d.lock_ms).base_offset(start + d.work_ms + d.barrier_ms).width(0.7));
        }
    }
    let n = spans.len();
    super::plots::thread_rows_plot("plot-thread-timeline", height, n).x_axis_label("ms").show(ui, |pui| {
        pui.bar_chart(BarChart::new("work", work).horizontal().color(palette::PLOT_REACHED));
        pui.bar_chart(BarChart::new("barrier / idle", wait).horizontal().color(palette::PLOT_CRAUSER));
        pui.bar_chart(BarChart::new("lock wait", locks).horizontal().color(palette::PLOT_MARTIN));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(work: f64, barrier: f64) -> ThreadTime {
        ThreadTime { work_ms: work, barrier_ms: barrier, ..Default::default() }
    }

    /// Spans are the differences of successive totals, laid end to end; a new run restarts.
    #[test]
    fn spans_are_differences_of_the_totals() {
        let mut h = History::default();
        h.observe(1, &[t(1.0, 0.0), t(0.0, 1.0)]);
        h.observe(1, &[t(1.0, 0.0), t(0.0, 1.0)]);
        h.observe(1, &[t(3.0, 1.0), t(2.0, 1.5)]);
        let s = h.spans();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].len(), 2);
        assert_eq!(s[0][1].0, 1.0);
        assert_eq!((s[0][1].1.work_ms, s[0][1].1.barrier_ms), (2.0, 1.0));
        assert_eq!(s[1][1].0, 1.0);
        h.observe(2, &[t(0.5, 0.0)]);
        assert_eq!(h.spans().len(), 1);
    }

    /// Many steps merge into at most SPANS spans, and the last totals are kept.
    #[test]
    fn long_runs_keep_at_most_spans_spans() {
        let mut h = History::default();
        for k in 1..=1000 {
            h.observe(1, &[t(f64::from(k), 0.0)]);
        }
        assert!(h.ends.len() <= SPANS);
        assert_eq!(h.ends.last().map(|e| e[0].work_ms), Some(1000.0));
    }
}
