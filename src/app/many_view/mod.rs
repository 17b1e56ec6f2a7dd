//! The *Many sources* tab (seed 003): solve from many sources of the loaded graph over several
//! workers at once — the equitable and the work-stealing policy, or both on the same workload —
//! in the background with progress and cancel; a timeline (Gantt chart) per run with each
//! worker's tasks, and per-worker tasks, busy time and idle time at the end.

#[cfg(test)]
mod tests;
mod timeline;

use crate::algo::{AlgoChoice, SolveOptions};
use crate::app::jobs::{Job, repaint, take_finished};
use crate::graph::Graph;
use crate::manysource::{self, Event, ManySourceRun, Policy, SourceSet, TaskResult};
use std::sync::Arc;

/// Which policies a run compares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Policies {
    /// Equitable only.
    Equitable,
    /// Work-stealing only.
    Stealing,
    /// Both on the same sources and workers, one after the other.
    #[default]
    Both,
}

type RunJob = Job<Result<Vec<ManySourceRun>, String>, (usize, Event)>;

/// The tab's state: the form, the running job and the finished runs.
pub struct ManyView {
    /// `all`, `K:SEED` or `A..B`.
    pub sources: String,
    /// `cpu:4,wgpu:0`, …
    pub workers: String,
    /// Algorithm of the CPU workers.
    pub algorithm: String,
    /// Policies to run.
    pub policies: Policies,
    /// Sources a work-stealing worker takes at a time.
    pub chunk: usize,
    job: Option<RunJob>,
    /// Tasks of the runs in progress, per policy index.
    live: Vec<Vec<TaskResult>>,
    live_labels: Vec<String>,
    total: usize,
    /// The last finished runs.
    pub runs: Vec<ManySourceRun>,
    /// Why the last run did not start or finish; failures of workers.
    pub messages: Vec<String>,
}

impl Default for ManyView {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |c| c.get());
        ManyView {
            sources: "64:1".into(),
            workers: format!("cpu:{cores}"),
            algorithm: "dijkstra".into(),
            policies: Policies::Both,
            chunk: 1,
            job: None,
            live: Vec::new(),
            live_labels: Vec::new(),
            total: 0,
            runs: Vec::new(),
            messages: Vec::new(),
        }
    }
}

/// A label and a widget named by it (for screen readers and UI tests).
fn labelled(ui: &mut egui::Ui, text: &str, widget: impl egui::Widget) -> egui::Response {
    let label = ui.label(text);
    ui.add(widget).labelled_by(label.id)
}

impl ManyView {
    /// True while a run is in progress.
    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// Starts a run on `graph` with the form's settings.
    ///
    /// Errors: a field that does not parse, or a source that is not a vertex.
    pub fn start(&mut self, graph: &Arc<Graph>, ctx: &egui::Context) -> Result<(), String> {
        let sources = self.sources.trim().parse::<SourceSet>()?.resolve(graph)?;
        let algo: AlgoChoice = self.algorithm.trim().parse().map_err(|e| format!("algorithm: {e}"))?;
        let workers = manysource::parse_workers(&self.workers, &algo)?;
        let stealing = Policy::Stealing { chunk: self.chunk.max(1) };
        let policies = match self.policies {
            Policies::Equitable => vec![Policy::Equitable],
            Policies::Stealing => vec![stealing],
            Policies::Both => vec![Policy::Equitable, stealing],
        };
        self.live = vec![Vec::new(); policies.len()];
        self.live_labels = policies.iter().map(|p| manysource::seed_label(&workers, *p)).collect();
        self.total = sources.len() * policies.len();
        self.runs.clear();
        self.messages.clear();
        let g = Arc::clone(graph);
        self.job = Some(Job::streaming("many sources", repaint(ctx), move |jc| {
            let cancel = jc.cancel_token();
            let mut runs = Vec::new();
            let mut done = 0usize;
            let total = (sources.len() * policies.len()).max(1);
            for (i, policy) in policies.iter().enumerate() {
                let mut on_event = |e: &Event| {
                    if matches!(e, Event::Task(_)) {
                        done += 1;
                        jc.set_progress(done as f32 / total as f32);
                    }
                    jc.send((i, e.clone()));
                };
                let run =
                    manysource::run(&g, &sources, &workers, *policy, &SolveOptions::default(), &cancel, &mut on_event)
                        .map_err(|e| e.to_string())?;
                runs.push(run);
            }
            Ok(runs)
        }));
        Ok(())
    }

    fn poll(&mut self) {
        let Some(job) = &mut self.job else { return };
        for (i, ev) in job.events() {
            match ev {
                Event::Task(t) => {
                    if let Some(l) = self.live.get_mut(i) {
                        l.push(t);
                    }
                }
                Event::WorkerFailed { worker, source, error } => self.messages.push(format!(
                    "{}: worker {worker} failed on source {source}, which went back to the queue: {error}",
                    self.live_labels.get(i).cloned().unwrap_or_default()
                )),
                Event::Row { .. } => {}
            }
        }
        match take_finished(&mut self.job) {
            Some((_, Ok(Ok(runs)))) => {
                self.runs = runs;
                self.live.clear();
            }
            Some((_, Ok(Err(e)) | Err(e))) => self.messages.push(format!("the run stopped: {e}")),
            None => {}
        }
    }

    /// Draws the tab for the loaded `graph`.
    pub fn ui(&mut self, ui: &mut egui::Ui, graph: Option<&Arc<Graph>>) {
        self.poll();
        ui.horizontal_wrapped(|ui| {
            labelled(ui, "sources", egui::TextEdit::singleline(&mut self.sources).desired_width(70.0))
                .on_hover_text("all, K:SEED (K random sources with an out-arc) or A..B (ids A to B as in the file)");
            labelled(ui, "workers", egui::TextEdit::singleline(&mut self.workers).desired_width(160.0)).on_hover_text(
                "comma-separated: cuda:N, wgpu:N, cpu-par:T (one parallel solver on T threads), cpu:K (K one-thread solvers)",
            );
            labelled(ui, "CPU algorithm", egui::TextEdit::singleline(&mut self.algorithm).desired_width(90.0))
                .on_hover_text("GPU and cpu-par workers run crauser-succ when this is dijkstra");
            egui::ComboBox::from_label("policy")
                .selected_text(match self.policies {
                    Policies::Equitable => "equitable (E)",
                    Policies::Stealing => "work-stealing (W)",
                    Policies::Both => "both, side by side",
                })
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.policies, Policies::Equitable, "equitable (E)");
                    ui.selectable_value(&mut self.policies, Policies::Stealing, "work-stealing (W)");
                    ui.selectable_value(&mut self.policies, Policies::Both, "both, side by side");
                });
            ui.add(egui::DragValue::new(&mut self.chunk).range(1..=4096).prefix("chunk "))
                .on_hover_text("sources a work-stealing worker takes from the queue at a time");
            let running = self.is_running();
            if running {
                if ui.button("Cancel").clicked()
                    && let Some(j) = &self.job
                {
                    j.cancel();
                }
            } else if ui.add_enabled(graph.is_some(), egui::Button::new("Run many sources")).clicked()
                && let Some(g) = graph
                && let Err(e) = self.start(g, ui.ctx())
            {
                self.messages.push(e);
            }
        });
        match graph {
            Some(g) => ui.label(
                egui::RichText::new(format!(
                    "on {} ({} vertices, {} arcs): one task per source; a run's checksum sums every distance row's hash",
                    g.name,
                    g.n(),
                    g.m()
                ))
                .small()
                .weak(),
            ),
            None => ui.label("No graph loaded: open or generate one in the other tab."),
        };
        if let Some(job) = &self.job {
            let done: usize = self.live.iter().map(Vec::len).sum();
            ui.add(egui::ProgressBar::new(job.progress()).text(format!("{done} of {} tasks", self.total)));
        }
        for m in &self.messages {
            ui.colored_label(egui::Color32::from_rgb(240, 120, 90), m);
        }
        ui.separator();
        egui::ScrollArea::vertical().auto_shrink(false).show(ui, |ui| {
            if self.is_running() {
                for (i, tasks) in self.live.iter().enumerate() {
                    let label = self.live_labels.get(i).cloned().unwrap_or_default();
                    ui.strong(format!("{label}: {} tasks so far", tasks.len()));
                    timeline::gantt(ui, &format!("many-live-{i}"), tasks, &[], None);
                }
            }
            let best = self.runs.iter().map(|r| r.makespan_ms).fold(f64::INFINITY, f64::min);
            for (i, run) in self.runs.iter().enumerate() {
                timeline::run_section(ui, i, run, best);
            }
        });
    }
}
