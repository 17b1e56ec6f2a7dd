//! *Record…* (issue 28 item 8): the Step tab's run as an animated GIF for slides, at a chosen
//! size and steps per frame, written by [`crate::trace::animate::record`] on a background job
//! with progress and cancel. The frames place the vertices as the view does: the graph's
//! coordinates, else the same force-directed layout (recomputed on the job, it is
//! deterministic), else — above the view's layout limit — a grid by vertex id.
//!
//! The path is typed, not picked in a file dialog: the dialog needs no desktop portal, and a
//! lecturer sees where the file goes before it is written.

use super::compare::CompareView;
use super::graph_view::{LAYOUT_MAX_N, layout};
use super::jobs::{Job, repaint};
use super::state::AppState;
use crate::trace::animate::{self, Recorded, Size};
use std::path::PathBuf;
use std::sync::Arc;

/// A recording's job: what was written and where, `None` when cancelled.
type RecordJob = Job<Result<Option<(Recorded, PathBuf)>, String>>;

/// What a recording returns: what was written, `None` when cancelled.
type Written = anyhow::Result<Option<Recorded>>;

/// The dialog's fields and its job.
pub struct RecordDialog {
    open: bool,
    path: String,
    size: String,
    auto_steps: bool,
    steps: usize,
    job: Option<RecordJob>,
    /// What the last recording did, shown under the button.
    note: Option<String>,
    /// Records the compare tab's lanes side by side instead of the Step tab's run.
    lanes: bool,
}

impl Default for RecordDialog {
    fn default() -> RecordDialog {
        RecordDialog {
            open: false,
            path: String::new(),
            size: Size::default().to_string(),
            auto_steps: true,
            steps: 1,
            job: None,
            note: None,
            lanes: false,
        }
    }
}

/// `graph-algorithm.gif` with only shell-friendly characters.
fn default_name(state: &AppState) -> String {
    let graph = state.graph().map_or_else(|| "run".to_string(), |g| g.name.clone());
    let raw = format!("{graph}-{}", state.settings.algorithm);
    let clean: String =
        raw.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '-' }).collect();
    format!("{}.gif", clean.trim_matches('-'))
}

impl RecordDialog {
    /// True while a recording runs.
    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// The button that opens the dialog, and the last recording's outcome.
    pub fn button(&mut self, ui: &mut egui::Ui, state: &AppState) {
        ui.horizontal(|ui| {
            let has = state.trace.as_ref().is_some_and(|t| !t.is_empty());
            let r = ui
                .add_enabled(has, egui::Button::new("Record…"))
                .on_hover_text("the run's recorded iterations as an animated GIF, for slides");
            if r.clicked() {
                // A path typed earlier for the same kind of recording stays.
                if self.path.is_empty() || self.lanes {
                    self.path = default_name(state);
                }
                (self.open, self.lanes) = (true, false);
            }
            if let Some(job) = &self.job {
                ui.add(egui::ProgressBar::new(job.progress()).text("recording").desired_width(120.0));
            } else if let Some(note) = &self.note {
                ui.weak(note);
            }
        });
    }

    /// The compare tab's button: the lanes side by side, as stepped.
    pub fn lanes_button(&mut self, ui: &mut egui::Ui, state: &AppState, compare: &CompareView) {
        ui.horizontal(|ui| {
            let has = compare.lanes.iter().any(|l| l.trace.as_ref().is_some_and(|t| !t.is_empty()));
            let r = ui
                .add_enabled(has && !compare.is_busy(), egui::Button::new("Record lanes…"))
                .on_hover_text("the lanes side by side as an animated GIF, frame by frame as they were stepped");
            if r.clicked() {
                if self.path.is_empty() || !self.lanes {
                    self.path = format!("compare-{}", default_name(state));
                }
                (self.open, self.lanes) = (true, true);
            }
            if let Some(job) = &self.job {
                ui.add(egui::ProgressBar::new(job.progress()).text("recording").desired_width(120.0));
            } else if let Some(note) = &self.note {
                ui.weak(note);
            }
        });
    }

    /// The dialog window (when open) and the job's progress and result.
    pub fn window(&mut self, ctx: &egui::Context, state: &mut AppState, compare: &CompareView) {
        self.poll(state);
        let mut open = self.open;
        let title = if self.lanes { "Record the lanes as a GIF" } else { "Record the run as a GIF" };
        egui::Window::new(title).open(&mut open).resizable(false).collapsible(false).show(ctx, |ui| {
            self.form(ui, state, compare);
        });
        self.open = open && self.open;
    }

    /// The compare session's frames: every K-th position of its history when it was stepped
    /// (several forward actions), else every lane every K iterations.
    fn lane_frames(&self, compare: &CompareView) -> Vec<Vec<usize>> {
        let lens: Vec<usize> = compare.lanes.iter().map(|l| l.trace.as_ref().map_or(0, |t| t.len())).collect();
        let history = compare.history();
        let count = if history.len() > 2 { history.len() - 1 } else { lens.iter().copied().max().unwrap_or(0) };
        let k = if self.auto_steps { animate::auto_steps_per_frame(count) } else { self.steps.max(1) };
        if history.len() <= 2 {
            return animate::lane_frames(&lens, k);
        }
        (0..animate::frame_count(count, k)).map(|i| history[animate::frame_position(i, count, k)].clone()).collect()
    }

    fn poll(&mut self, state: &mut AppState) {
        let Some(job) = &mut self.job else { return };
        let Some(result) = job.poll() else { return };
        self.job = None;
        match result.and_then(|r| r) {
            Ok(Some((r, path))) => {
                self.note = Some(format!(
                    "wrote {}: {} frames, {} it/frame, {:.0} kB",
                    path.display(),
                    r.frames,
                    r.steps_per_frame,
                    r.bytes as f64 / 1e3
                ));
            }
            Ok(None) => self.note = Some("recording cancelled".into()),
            Err(e) => state.error(format!("Record: {e}")),
        }
    }

    fn form(&mut self, ui: &mut egui::Ui, state: &AppState, compare: &CompareView) {
        let len = state.trace.as_ref().map_or(0, |t| t.len());
        let lane_frames = if self.lanes { self.lane_frames(compare) } else { Vec::new() };
        egui::Grid::new("record-form").num_columns(2).show(ui, |ui| {
            let l = ui.label("GIF file");
            ui.add(egui::TextEdit::singleline(&mut self.path).desired_width(280.0)).labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Size (WxH)");
            ui.add(egui::TextEdit::singleline(&mut self.size).desired_width(100.0)).labelled_by(l.id);
            ui.end_row();
            let l = ui.label("Steps per frame");
            ui.horizontal(|ui| {
                ui.checkbox(&mut self.auto_steps, "auto (about 100 frames)");
                if !self.auto_steps {
                    ui.add(egui::DragValue::new(&mut self.steps).range(1..=1_000_000)).labelled_by(l.id);
                }
            });
            ui.end_row();
        });
        let k = if self.auto_steps { animate::auto_steps_per_frame(len) } else { self.steps.max(1) };
        let finished = state.trace.as_ref().is_some_and(|t| t.is_finished());
        if self.lanes {
            ui.label(format!("{} lanes: {} frames", compare.lanes.len(), lane_frames.len()));
        } else {
            ui.label(format!(
                "{len} iterations recorded{}: {} frames",
                if finished { "" } else { " so far (run to the end for the whole run)" },
                animate::frame_count(len, k)
            ));
        }
        let size = self.size.parse::<Size>();
        if let Err(e) = &size {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        ui.horizontal(|ui| {
            if let Some(job) = &self.job {
                ui.add(egui::ProgressBar::new(job.progress()).show_percentage().desired_width(200.0));
                if ui.button("Cancel").clicked() {
                    job.cancel();
                }
            } else {
                let has = if self.lanes { !lane_frames.is_empty() } else { len > 0 };
                let ok = size.is_ok() && has && !self.path.trim().is_empty();
                if ui.add_enabled(ok, egui::Button::new("Record GIF")).clicked()
                    && let Ok(size) = size
                {
                    let steps = (!self.auto_steps).then_some(self.steps.max(1));
                    let opts = animate::Options { size, steps_per_frame: steps, ..Default::default() };
                    if self.lanes {
                        self.start_lanes(state, compare, lane_frames, opts);
                    } else {
                        self.start(state, opts);
                    }
                }
            }
        });
    }

    /// Starts the job on a copy of the trace (the user may step on meanwhile).
    fn start(&mut self, state: &AppState, opts: animate::Options) {
        let (Some(graph), Some(trace)) = (state.graph().cloned(), state.trace.clone()) else { return };
        self.spawn(state, graph, move |graph, positions, path, progress| {
            animate::record(trace, graph, positions, &opts, path, progress)
        });
    }

    /// Runs `write` on a job: the layout (coordinates or the view's) first, then the GIF to the
    /// typed path (made absolute), with progress and cancel.
    fn spawn<F>(&mut self, state: &AppState, graph: Arc<crate::graph::Graph>, write: F)
    where
        F: FnOnce(&crate::graph::Graph, &[[f32; 2]], &std::path::Path, &mut dyn FnMut(usize, usize) -> bool) -> Written
            + Send
            + 'static,
    {
        let path = PathBuf::from(self.path.trim());
        let path = std::path::absolute(&path).unwrap_or(path);
        self.note = None;
        self.job = Some(Job::spawn("recording a GIF", repaint(&state.egui), move |jc| {
            let cancel = jc.cancel_token();
            let positions = positions(&graph, &cancel);
            let mut progress = |done: usize, total: usize| {
                jc.set_progress(done as f32 / total.max(1) as f32);
                !jc.cancelled()
            };
            let done = write(&graph, &positions, &path, &mut progress);
            done.map(|r| r.map(|r| (r, path))).map_err(|e| format!("{e:#}"))
        }));
    }
}

impl RecordDialog {
    /// Starts the job on copies of the lanes' traces, lettered as in the compare tab.
    fn start_lanes(
        &mut self,
        state: &AppState,
        compare: &CompareView,
        frames: Vec<Vec<usize>>,
        opts: animate::Options,
    ) {
        let Some(graph) = compare.graph().cloned() else { return };
        let mut lanes: Vec<(String, crate::trace::Trace)> = compare
            .lanes
            .iter()
            .zip(["A", "B", "C", "D"])
            .map(|(l, name)| {
                (name.to_string(), l.trace.clone().unwrap_or_else(|| crate::trace::Trace::new(graph.n(), 0)))
            })
            .collect();
        self.spawn(state, graph, move |graph, positions, path, progress| {
            let mut encode = |out: &mut dyn std::io::Write| {
                animate::encode_lanes(&mut lanes, &frames, graph, positions, &opts, out, progress)
            };
            animate::write_file(path, &mut encode)
        });
    }
}

/// The view's placement for graphs without coordinates: its layout up to its limit.
fn positions(graph: &Arc<crate::graph::Graph>, cancel: &std::sync::atomic::AtomicBool) -> Vec<[f32; 2]> {
    let n = graph.n();
    if graph.coords().is_some_and(|c| c.len() == n) || n > LAYOUT_MAX_N {
        return animate::positions_for(graph, None);
    }
    let mut pos = layout::initial_positions(n);
    layout::run_layout(graph, &mut pos, layout::iteration_budget(n, graph.m()), cancel, &mut |_, _| {});
    animate::positions_for(graph, Some(&pos))
}
