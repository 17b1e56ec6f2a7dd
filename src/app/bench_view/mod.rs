//! The Bench view (issue 5): edit an experiment (graphs, algorithms, devices, block sizes, cache,
//! threads, repetitions, sources), run it in the background with progress, ETA and cancel, and
//! watch the results stream into plots and tables; export CSV / JSON / PNG; open and save
//! experiment files.
//!
//! Mount it anywhere a `Ui` is available, e.g. as a window:
//! `egui::Window::new("Bench").show(ctx, |ui| bench.ui(ui))`, or as the body of a tab.
//! It owns its state and its background work (the [`LabRun`], device probing and file dialogs,
//! all [`Job`]s) and never blocks the UI thread.

mod export;
mod graphs;
mod plots;
mod png;
mod setup;
mod tables;
#[cfg(test)]
mod tests;
mod threads;

use crate::app::jobs::{Job, repaint, take_finished};
use crate::device::DeviceInfo;
use crate::lab::{Experiment, LabEvent, LabOutcome, LabProgress, LabResult, LabRun, ManyRow, outcome_text, start_run};
use egui::{CentralPanel, Panel, ScrollArea};
use std::path::PathBuf;

/// What the results side shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ResultsTab {
    /// Time vs block size, one line per algorithm × device.
    #[default]
    BlockSize,
    /// Algorithms × devices with min / median / max whiskers.
    Bars,
    /// Speedups over a baseline the user picks.
    Speedups,
    /// Speedup vs CPU threads, one line per algorithm (seed 001 Figs. 4–6).
    Threads,
    /// GTEPS, iterations, dummy-thread ratio, memory.
    Metrics,
    /// Every row as received.
    Rows,
}

/// Display options of the results side.
#[derive(Clone, Debug, Default)]
pub struct ResultsOptions {
    /// Which plot or table is shown.
    pub tab: ResultsTab,
    /// Logarithmic y axes.
    pub log_y: bool,
    /// Show one graph (by name); `None` = the first one with results.
    pub graph: Option<String>,
    /// Baseline series (`algorithm @ device`) of the speedup table.
    pub baseline: Option<String>,
    /// Value of the metrics plot.
    pub metric: plots::Metric,
}

/// The Bench view: experiment editor, runner and live results.
pub struct BenchView {
    /// The experiment being edited: what Run runs and Save writes.
    pub experiment: Experiment,
    /// Relative graph paths are resolved against this folder (the crate root by default,
    /// the experiment file's folder once one is opened).
    pub exp_dir: PathBuf,
    /// Rows received so far (from the current or the last run).
    pub rows: Vec<LabResult>,
    /// Many-source configurations received so far (many-source experiments only).
    pub many: Vec<ManyRow>,
    /// Display options of the results side.
    pub options: ResultsOptions,
    editor: setup::Editor,
    run: Option<LabRun>,
    progress: Option<LabProgress>,
    outcome: Option<String>,
    log: Vec<String>,
    devices: Option<&'static [DeviceInfo]>,
    probing: Option<Job<&'static [DeviceInfo]>>,
    io: export::Io,
}

impl Default for BenchView {
    /// A small CPU sweep on two random fan-out graphs (edit it, or open an experiment file).
    fn default() -> Self {
        let experiment = setup::default_experiment();
        BenchView {
            editor: setup::Editor::from_experiment(&experiment),
            experiment,
            // Relative paths of the default experiment: the working directory, then beside the binary.
            exp_dir: std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
            rows: Vec::new(),
            many: Vec::new(),
            options: ResultsOptions::default(),
            run: None,
            progress: None,
            outcome: None,
            log: Vec::new(),
            devices: None,
            probing: None,
            io: export::Io::default(),
        }
    }
}

impl BenchView {
    /// Replaces the experiment being edited (e.g. one read from a file).
    pub fn set_experiment(&mut self, exp: Experiment) {
        self.editor = setup::Editor::from_experiment(&exp);
        self.options.baseline = exp.baseline.as_ref().map(|b| {
            let algo =
                if b.device == crate::lab::LabDevice::Boost { "dijkstra".to_string() } else { b.algorithm.to_string() };
            format!("{algo} @ {}", b.device)
        });
        // Time vs block size is the view of a block-size sweep, speedup vs threads that of a
        // sweep over CPU thread counts; other sweeps open on the bars.
        let cpu_devices = exp.devices.iter().filter(|d| d.to_string().starts_with("cpu")).count();
        self.options.tab = if exp.block.configs().len() > 1 {
            ResultsTab::BlockSize
        } else if cpu_devices > 2 {
            ResultsTab::Threads
        } else {
            ResultsTab::Bars
        };
        self.experiment = exp;
    }

    /// True while an experiment runs.
    pub fn is_running(&self) -> bool {
        self.run.is_some()
    }

    /// How the last run ended (`completed`, `cancelled`, `failed: …`), once it has.
    pub fn outcome(&self) -> Option<&str> {
        self.outcome.as_deref()
    }

    /// Starts the current experiment in the background (results stream into `rows`). Returns
    /// the validation error instead when the experiment is not runnable.
    pub fn start(&mut self, ctx: &egui::Context) -> Result<(), String> {
        if self.run.is_some() {
            return Err("an experiment is already running".into());
        }
        self.experiment.validate().map_err(|e| format!("{e:#}"))?;
        self.rows.clear();
        self.many.clear();
        self.log.clear();
        self.outcome = None;
        self.progress = None;
        self.run = Some(start_run(self.experiment.clone(), self.exp_dir.clone(), repaint(ctx)));
        Ok(())
    }

    /// Asks the running experiment to stop.
    pub fn cancel(&self) {
        if let Some(r) = &self.run {
            r.cancel();
        }
    }

    /// Drains the runner's events and finished jobs; called once per frame by [`Self::ui`].
    pub fn poll(&mut self, ctx: &egui::Context) {
        if let Some((_, result)) = take_finished(&mut self.probing) {
            match result {
                Ok(list) => self.devices = Some(list),
                Err(e) => self.log.push(e),
            }
        }
        if let Some(run) = &mut self.run {
            for ev in run.events() {
                match ev {
                    LabEvent::Row(r) => self.rows.push(*r),
                    LabEvent::Many(r) => self.many.push(*r),
                    LabEvent::Progress(p) => self.progress = Some(p),
                    LabEvent::Log(l) => self.log.push(l),
                }
            }
        }
        if let Some((_, out)) = take_finished(&mut self.run) {
            self.outcome = Some(outcome_text(&out.unwrap_or_else(LabOutcome::Failed)));
        }
        match self.io.poll(ctx) {
            Some(export::IoDone::Opened { path, exp }) => {
                self.exp_dir = path.parent().map_or_else(|| PathBuf::from("."), std::path::Path::to_path_buf);
                self.set_experiment(*exp);
                self.log.push(format!("opened {}", path.display()));
            }
            Some(export::IoDone::Message(m)) => self.log.push(m),
            None => {}
        }
    }

    /// Draws the view: the experiment editor on the left, run controls on top, results in the
    /// middle.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        if self.devices.is_none() && self.probing.is_none() {
            self.probing = Some(Job::spawn("probing devices", repaint(&ctx), |_| crate::device::devices()));
        }
        self.poll(&ctx);
        Panel::top("bench-run").show(ui, |ui| self.run_bar(ui));
        // At most a third of the window, so the results keep the rest on a small screen.
        let third = (ui.available_width() / 3.0).max(200.0);
        let setup = Panel::left("bench-setup").default_size(340.0_f32.min(third)).max_size(third).resizable(true);
        setup.show(ui, |ui| {
            ScrollArea::both().auto_shrink(false).show(ui, |ui| {
                let changed = self.editor.ui(ui, &mut self.experiment, self.devices, self.run.is_some());
                if changed {
                    self.editor.apply(&mut self.experiment);
                }
            });
        });
        CentralPanel::default().show(ui, |ui| self.results(ui));
        if self.run.is_some() || self.io.busy() {
            ctx.request_repaint_after(std::time::Duration::from_millis(250));
        }
    }

    fn run_bar(&mut self, ui: &mut egui::Ui) {
        // Wrapped, so that a 1024-point window shows every button.
        ui.horizontal_wrapped(|ui| {
            let running = self.run.is_some();
            if ui.add_enabled(!running, egui::Button::new("Run experiment")).clicked()
                && let Err(e) = self.start(ui.ctx())
            {
                self.log.push(e);
            }
            if ui.add_enabled(running, egui::Button::new("Cancel")).clicked() {
                self.cancel();
            }
            ui.separator();
            export::file_buttons(ui, self);
        });
        if let Some(p) = &self.progress {
            let text = match (&self.run, &self.outcome) {
                (None, Some(o)) => format!("{} — {o}", p.line()),
                _ => p.line(),
            };
            ui.add(egui::ProgressBar::new(p.fraction()).text(text));
        }
        if let Some(last) = self.log.last() {
            ui.label(egui::RichText::new(last).small().weak()).on_hover_text(self.log.join("\n"));
        }
    }

    fn results(&mut self, ui: &mut egui::Ui) {
        if !self.many.is_empty() {
            // A many-source run has no per-source rows for the tabs below.
            tables::many(ui, &self.many);
            return;
        }
        ui.horizontal(|ui| {
            let tabs = [
                (ResultsTab::BlockSize, "Time vs block size"),
                (ResultsTab::Bars, "Algorithms × devices"),
                (ResultsTab::Speedups, "Speedups"),
                (ResultsTab::Threads, "Speedup vs threads"),
                (ResultsTab::Metrics, "GTEPS · iterations · memory"),
                (ResultsTab::Rows, "Rows"),
            ];
            for (tab, label) in tabs {
                ui.selectable_value(&mut self.options.tab, tab, label);
            }
            ui.separator();
            ui.checkbox(&mut self.options.log_y, "log scale");
        });
        let measured = self.rows.iter().filter(|r| r.is_measured()).count();
        ui.label(format!(
            "{measured} timed runs, {} skipped, {} failed, {} wrong vs Dijkstra",
            self.rows.iter().filter(|r| r.skipped.is_some()).count(),
            self.rows.iter().filter(|r| r.error.is_some()).count(),
            self.rows.iter().filter(|r| r.correct == Some(false)).count()
        ));
        ui.separator();
        match self.options.tab {
            ResultsTab::Speedups => tables::speedups(ui, &self.rows, &mut self.options),
            ResultsTab::Rows => tables::rows(ui, &self.rows),
            tab => {
                let rect = plots::show(ui, tab, &self.rows, &mut self.options);
                if let Some(rect) = rect {
                    export::png_button(ui, self, rect);
                }
            }
        }
    }
}
