//! The application state, apart from drawing: settings the user chose (serialisable), and the
//! runtime part (the graph, the run, its trace, background jobs, error banners).

use super::jobs::Job;
use crate::algo::{AlgoChoice, BlockSizes, IterationRecord, Step, Stepper, VertexStatus, fmt_distance};
use crate::device::{DeviceId, DeviceInfo};
use crate::formats::Format;
use crate::generate::GeneratorSpec;
use crate::graph::{Graph, GraphStats, VertexId};
use crate::trace::Trace;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;

/// Error messages kept for the banner (older ones are dropped).
pub const MAX_ERRORS: usize = 20;

/// What the user chose; could be persisted as is.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Settings {
    /// Weight rule for unweighted files: `file`, `unit` or `uniform:MAX:SEED`.
    pub weight_rule: String,
    /// Real-valued weights are stored as round(x · 10^k); `None` = automatic
    /// ([`crate::graph::WeightScale`]).
    #[serde(default)]
    pub weight_decimals: Option<u32>,
    /// Format override; `None` = by extension.
    pub format: Option<Format>,
    /// The generator dialog's current spec.
    pub generator: GeneratorSpec,
    /// The algorithm and its parameter values (`martin-succ:relax=non-atomic`).
    pub algorithm: AlgoChoice,
    pub device: DeviceId,
    pub block: BlockSizes,
    /// Playback speed, iterations per second.
    pub speed: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            weight_rule: "file".into(),
            weight_decimals: None,
            format: None,
            generator: GeneratorSpec::Grid { width: 64, height: 48, max_weight: 10, seed: 1 },
            algorithm: AlgoChoice::new(crate::algo::CRAUSER_SUCC),
            device: DeviceId::Cpu,
            block: BlockSizes::default(),
            speed: 20.0,
        }
    }
}

/// A loaded graph with the facts computed once, on the loading thread.
pub struct LoadedGraph {
    pub graph: Arc<Graph>,
    pub stats: GraphStats,
    /// Where it came from: the file path, or `None` for a generated graph.
    pub path: Option<PathBuf>,
}

/// What a typed path is for, and the text typed so far.
#[derive(Clone, Debug, PartialEq)]
pub struct PathPrompt {
    /// True: save the trace there; false: open the file (graph or trace).
    pub save_trace: bool,
    pub text: String,
    /// Why there is no dialog.
    pub why: String,
}

/// Result of comparing a finished run with the Dijkstra oracle.
#[derive(Clone, Debug, PartialEq)]
pub enum Verification {
    NotYet,
    Running,
    /// Every δ equals Dijkstra's distance.
    Match,
    /// Vertices whose δ differs from Dijkstra's.
    Mismatch(Vec<VertexId>),
    /// The check could not run (the reason).
    Unavailable(String),
}

/// What a run-to-end worker hands back: the solver (to continue stepping or stepping back)
/// and how the run ended (`Ok(true)`: finished, `Ok(false)`: cancelled).
pub struct RunOutput {
    pub stepper: Box<dyn Stepper>,
    pub outcome: Result<bool, String>,
}

/// A run to the end in progress: its job, which streams batches of steps.
pub struct RunJob {
    pub job: Job<RunOutput, Vec<Step>>,
    pub run_id: u64,
    /// When it started and the trace's length then (for the rate and the estimate).
    pub started: std::time::Instant,
    pub start_len: usize,
}

/// Building a GPU solver (NVRTC / shader compilation, the graph's upload) for run `run_id` on a
/// worker thread, so that the UI keeps its frame rate, and what to do once it is ready.
pub struct BuildJob {
    pub job: Job<Result<Box<dyn Stepper>, String>>,
    pub run_id: u64,
    pub then: AfterBuild,
}

/// What the user asked for while the solver was being built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterBuild {
    /// Step this many iterations.
    Step(usize),
    /// Start playing.
    Play,
    /// Run to the end.
    RunToEnd,
}

/// The oracle check of a finished run: (run id, job yielding the vertices whose δ is wrong).
pub type VerifyJob = (u64, Job<Result<Vec<VertexId>, String>>);

/// Background jobs, at most one of each kind.
#[derive(Default)]
pub struct Jobs {
    /// Loading or generating a graph.
    pub graph: Option<Job<Result<LoadedGraph, String>>>,
    pub run: Option<RunJob>,
    /// Building the solver of a GPU device.
    pub build: Option<BuildJob>,
    /// The open-file dialog.
    pub dialog: Option<Job<Result<Option<PathBuf>, String>>>,
    pub verify: Option<VerifyJob>,
    /// Reading a trace file (the trace and the path it came from).
    pub trace: Option<Job<Result<(crate::trace::file::TraceFile, PathBuf), String>>>,
    /// Writing a trace file.
    pub trace_save: Option<Job<Result<PathBuf, String>>>,
    /// The save dialog of a trace.
    pub save_dialog: Option<Job<Result<Option<PathBuf>, String>>>,
    /// Measuring (or reading) a device's bandwidth limit for the roofline gauge.
    pub peak: Option<(crate::device::DeviceId, Job<Result<crate::device::roofline::Peak, String>>)>,
    /// Device probing (CUDA, wgpu) at start-up.
    pub devices: Option<Job<&'static [DeviceInfo]>>,
    /// The Tune button's statistics and prediction.
    pub tune: Option<Job<Result<crate::tune::Prediction, String>>>,
}

/// The last prediction the Tune button applied: one line, and the rules' reasons.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    pub summary: String,
    pub reasons: Vec<String>,
}

/// The whole state of the app (no drawing code, no egui widgets).
pub struct AppState {
    /// For starting jobs and asking for frames.
    pub(crate) egui: egui::Context,
    pub settings: Settings,
    pub graph: Option<LoadedGraph>,
    /// The source vertex (index).
    pub source: VertexId,
    /// The source id text field (file ids).
    pub source_text: String,
    /// The run shown: always present when a graph is.
    pub trace: Option<Trace>,
    /// Changes with every new run (reset, new source, new graph, new algorithm).
    pub run_id: u64,
    /// The solver behind the trace's last recorded iteration; `None` until the first step
    /// needs it, while a run-to-end job has it, or after that job lost it.
    pub(crate) stepper: Option<Box<dyn Stepper>>,
    pub(crate) stepper_lost: bool,
    /// The window's wgpu device, lent to the wgpu solvers of its adapter when devices are
    /// probed (`device::wgpu::share_device`), so the graph view can read their buffers.
    pub(crate) window_gpu: Option<WindowGpu>,
    /// Per-thread time of the solver since the run started, as of its last step (empty for
    /// solvers without threads of their own, e.g. everything but seed 001's schemes).
    pub thread_times: Vec<crate::algo::ThreadTime>,
    pub playing: bool,
    pub(crate) play_budget: f64,
    pub verification: Verification,
    /// Error banners, newest last.
    pub errors: Vec<String>,
    pub show_generator: bool,
    /// Vertex under the pointer in the graph view.
    pub hovered: Option<VertexId>,
    pub jobs: Jobs,
    /// Devices once probed.
    pub devices: Option<&'static [DeviceInfo]>,
    /// Smoothed frame time in ms: CPU time of the whole frame (eframe's figure, rendering
    /// included), or of the app's `ui` where eframe has none (tests).
    pub frame_ms: f32,
    /// Smoothed time of the app's `ui` call and, within it, of the graph view, in ms.
    pub ui_ms: f32,
    pub view_ms: f32,
    /// Changes whenever the trace's view state changes (for the graph view's caches).
    pub state_version: u64,
    pub(crate) version_key: (u64, usize, bool),
    /// An opened trace waiting for its graph to load.
    pub(crate) pending_trace: Option<(crate::trace::file::TraceFile, PathBuf)>,
    /// Where the last trace was saved.
    pub saved_trace: Option<PathBuf>,
    /// A typed path asked for where no file dialog can appear ([`super::dialog`]).
    pub path_prompt: Option<PathPrompt>,
    /// A change that would discard the run, waiting for the user's yes ([`Command::AskFirst`]).
    pub confirm: Option<super::command::Command>,
    /// Bandwidth limits known so far (the roofline gauge), by device.
    pub peaks: std::collections::HashMap<crate::device::DeviceId, Result<crate::device::roofline::Peak, String>>,
    /// What the Tune button last applied.
    pub tuned: Option<Tuned>,
}

/// eframe's wgpu device and the adapter it was opened on.
#[derive(Clone)]
pub(crate) struct WindowGpu {
    pub info: eframe::wgpu::AdapterInfo,
    pub device: eframe::wgpu::Device,
    pub queue: eframe::wgpu::Queue,
}

impl AppState {
    pub fn new(egui: &egui::Context, settings: Settings) -> AppState {
        AppState {
            egui: egui.clone(),
            settings,
            graph: None,
            source: 0,
            source_text: String::new(),
            trace: None,
            run_id: 0,
            stepper: None,
            stepper_lost: false,
            window_gpu: None,
            thread_times: Vec::new(),
            playing: false,
            play_budget: 0.0,
            verification: Verification::NotYet,
            errors: Vec::new(),
            show_generator: false,
            hovered: None,
            jobs: Jobs::default(),
            devices: None,
            frame_ms: 0.0,
            ui_ms: 0.0,
            view_ms: 0.0,
            state_version: 0,
            version_key: (0, 0, false),
            pending_trace: None,
            saved_trace: None,
            path_prompt: None,
            confirm: None,
            peaks: std::collections::HashMap::new(),
            tuned: None,
        }
    }

    /// True while any job that changes the graph or the run is in progress (not the dialog).
    pub fn is_busy(&self) -> bool {
        self.jobs.graph.is_some()
            || self.jobs.run.is_some()
            || self.jobs.verify.is_some()
            || self.jobs.build.is_some()
            || self.jobs.trace.is_some()
            || self.jobs.trace_save.is_some()
            || self.jobs.peak.is_some()
            || self.jobs.tune.is_some()
            || self.pending_trace.is_some()
    }

    /// The graph shown, if any.
    pub fn graph(&self) -> Option<&Arc<Graph>> {
        self.graph.as_ref().map(|g| &g.graph)
    }

    /// The current iteration's record (the one that led to the cursor), if any.
    pub fn current_record(&self) -> Option<&IterationRecord> {
        self.trace.as_ref().and_then(Trace::current_record)
    }

    /// Cursor position: iterations applied.
    pub fn iteration(&self) -> usize {
        self.trace.as_ref().map_or(0, Trace::pos)
    }

    /// True when a change of algorithm, device or block sizes would throw work away: the run
    /// has iterations or is running.
    pub fn has_run_to_lose(&self) -> bool {
        self.trace.as_ref().is_some_and(|t| !t.is_empty()) || self.jobs.run.is_some()
    }

    /// True once the run has ended and the cursor is at its end.
    pub fn at_end(&self) -> bool {
        self.trace.as_ref().is_some_and(|t| t.is_finished() && t.pos() == t.len())
    }

    /// δ and status of `v` at the cursor.
    pub fn vertex_state(&self, v: VertexId) -> Option<(crate::graph::Distance, VertexStatus)> {
        let t = self.trace.as_ref()?;
        let d = *t.distances().get(v as usize)?;
        Some((d, t.status(v)))
    }

    /// One line about vertex `v` by its id in the file (as the tooltip and the source field
    /// write it): "vertex 13: δ = 40, settled".
    pub fn describe_vertex(&self, v: VertexId) -> String {
        let id = self.graph().map_or(v as u64, |g| g.labels().label(v));
        match self.vertex_state(v) {
            Some((d, s)) => format!("vertex {id}: δ = {}, {}", fmt_distance(d), super::palette::status_name(s)),
            None => format!("vertex {id}"),
        }
    }

    /// Adds an error banner (the newest is shown; older ones fold under it, one Dismiss
    /// clears them all). A repeat of the newest is dropped; at most [`MAX_ERRORS`] are kept.
    pub fn error(&mut self, msg: impl Into<String>) {
        let msg = msg.into();
        if self.errors.last() != Some(&msg) {
            self.errors.push(msg);
        }
        if self.errors.len() > MAX_ERRORS {
            self.errors.drain(..self.errors.len() - MAX_ERRORS);
        }
    }

    /// Exponential smoothing of a time figure.
    pub(crate) fn smooth(old: f32, new: f32) -> f32 {
        if old == 0.0 { new } else { 0.9 * old + 0.1 * new }
    }

    /// Bumps `state_version` when the trace's view state changed since the last call.
    pub(crate) fn refresh_version(&mut self) {
        // At the end of a finished run the last step's vertices turn settled without a move.
        let key = (self.run_id, self.iteration(), self.at_end());
        if key != self.version_key {
            self.version_key = key;
            self.state_version += 1;
        }
    }

    /// The running jobs with their progress, for the status bar.
    pub fn job_progress(&self) -> Vec<(String, f32)> {
        let mut out = Vec::new();
        if let Some(j) = &self.jobs.graph {
            out.push((j.name().to_string(), j.progress()));
        }
        if let Some(r) = &self.jobs.run {
            out.push((r.job.name().to_string(), r.job.progress()));
        }
        if let Some(b) = &self.jobs.build {
            out.push((b.job.name().to_string(), b.job.progress()));
        }
        if let Some((_, j)) = &self.jobs.verify {
            out.push((j.name().to_string(), j.progress()));
        }
        if let Some(j) = &self.jobs.dialog {
            out.push((j.name().to_string(), j.progress()));
        }
        for j in [&self.jobs.trace_save].into_iter().flatten() {
            out.push((j.name().to_string(), j.progress()));
        }
        if let Some(j) = &self.jobs.trace {
            out.push((j.name().to_string(), j.progress()));
        }
        if let Some(j) = &self.jobs.tune {
            out.push((j.name().to_string(), j.progress()));
        }
        out
    }
}
