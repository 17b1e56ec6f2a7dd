//! The run panel's Tune button: graph statistics and the tuner's prediction ([`crate::tune`])
//! on a worker, then the predicted block sizes (and Δ) become the current settings, with the
//! reasons kept for the panel to show.

use super::jobs::{Job, repaint, take_finished};
use super::state::{AppState, Tuned};
use crate::algo::{BlockSizes, Family, Launch};
use crate::tune::{DeviceShape, graph_stats, predict};

impl AppState {
    /// Starts predicting for the current graph, source, algorithm and device (once at a time).
    pub(crate) fn start_tune(&mut self) {
        let Some(graph) = self.graph().cloned() else { return self.error("no graph to tune for") };
        if self.jobs.tune.is_some() {
            return;
        }
        let (choice, device, start) = (self.settings.algorithm.clone(), self.settings.device, self.source);
        let name = format!("tuning {} on {device}", choice.algorithm);
        self.tuned = None;
        self.jobs.tune = Some(Job::spawn(name, repaint(&self.egui), move |jc| {
            jc.set_message("graph statistics");
            let cancel = jc.cancel_token();
            let stats = graph_stats(&graph, start, &cancel, &mut |f| jc.set_progress(0.9 * f))
                .ok_or_else(|| "cancelled".to_string())?;
            jc.set_message(format!("probing {device}"));
            // CUDA: opens the device (compiles its kernels the first time) for its SM count.
            let shape = DeviceShape::probe(device);
            jc.set_progress(1.0);
            Ok(predict(&stats, &shape, &choice, Launch::Fast))
        }));
    }

    /// Collects the prediction: applies it if the algorithm and device are still the ones it
    /// was made for.
    pub(crate) fn poll_tune(&mut self) {
        let cancelled = self.jobs.tune.as_ref().is_some_and(|j| j.is_cancelled());
        let Some((name, out)) = take_finished(&mut self.jobs.tune) else { return };
        match out.and_then(|r| r) {
            _ if cancelled => {}
            Ok(p) if p.algorithm.algorithm == self.settings.algorithm.algorithm && p.device == self.settings.device => {
                let delta = p.delta.map_or(String::new(), |d| format!(", delta {d}"));
                self.tuned = Some(Tuned {
                    summary: format!("Tuned: {}{delta}", block_summary(p.algorithm.algorithm.spec().family, p.block)),
                    reasons: p.reasons.clone(),
                });
                self.settings.block = p.block;
                if p.delta.is_some() {
                    self.settings.algorithm = p.choice();
                }
                self.reset();
            }
            Ok(_) => self.error(format!("{name}: the algorithm or device changed meanwhile; press Tune again")),
            Err(e) => self.error(format!("{name} failed: {e}")),
        }
    }
}

/// The block sizes the family's kernels read, by entry point (`ds_relax 256 / ds_commit 128`),
/// as the run panel lists them; "no GPU kernels" for a family that launches none.
fn block_summary(family: Family, block: BlockSizes) -> String {
    let kernels = family.kernels();
    if kernels.is_empty() {
        return "no GPU kernels".to_string();
    }
    kernels.iter().map(|k| format!("{} {}", k.name, block.get(k.block))).collect::<Vec<_>>().join(" / ")
}
