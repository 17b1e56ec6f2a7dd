//! The egui application: load or generate a graph, pick a source, an algorithm, a device and
//! block sizes, then step through the run forwards and backwards with the vertices coloured by
//! status, per-iteration plots and the pseudo-code of the phase that runs next.
//!
//! Structure (see docs/references.md `[app-patterns]`): [`AppState`] holds everything apart from drawing;
//! the panels draw it and produce [`Command`]s; [`SsspApp::apply`] carries them out in one place;
//! loading, generating, running to the end and checking against Dijkstra run as background
//! [`jobs`].

pub mod graph_view;

mod actions;
pub mod bench_view;
pub mod command;
pub mod compare;
pub mod dialog;
mod frame_bench;
pub mod jobs;
pub mod many_view;
pub mod palette;
mod panels;
pub mod persist;
pub mod progress;
pub mod record;
pub mod script;
pub mod series;
pub mod state;
mod stepping;
mod traces;
mod tune;

pub use command::{Command, SHORTCUTS};
pub use panels::Tab;
pub use state::{AppState, Settings, Verification};

use crate::formats::LoadOptions;
use crate::generate::GeneratorSpec;
use crate::graph::Graph;
use graph_view::GraphView;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// What the app opens first: the generator if set, else `file`, else the bundled NY road
/// network.
#[derive(Clone, Debug, Default)]
pub struct Startup {
    /// A graph file to load (ignored when `generator` is set); `None`: the bundled NY graph.
    pub file: Option<PathBuf>,
    /// A graph to generate instead of loading a file.
    pub generator: Option<GeneratorSpec>,
    /// Weight rule and format override for `file` (also the initial values of the graph panel).
    pub load: LoadOptions,
}

pub use crate::formats::bundled_graph_path;

/// Opens the native window and runs the app until it is closed.
///
/// Environment hooks for scripted runs (screenshots, demos):
/// - `SSSP_LAB_OPEN=PATH` opens this file instead of `startup`'s graph;
/// - `SSSP_LAB_DEMO=CMD;CMD;…` applies these commands once the graph is loaded (see [`script`]),
///   e.g. `algo:crauser-succ;run;seek:3000`;
/// - `SSSP_LAB_BENCH=EXPERIMENT.json` opens the bench lab tab on this experiment and runs it;
/// - `SSSP_LAB_MANY=SOURCES;WORKERS` opens the many-sources tab and runs both policies, e.g.
///   `256:1;cpu:2,wgpu:0`;
/// - `SSSP_LAB_WINDOW=WIDTHxHEIGHT`: the window's size (default 1400x900), e.g. `1280x720`;
/// - `SSSP_LAB_READY_FILE=PATH`: the app creates this file once the script is done, no job
///   runs and the graph view has drawn everything (scripts wait for it before a screenshot);
/// - `SSSP_LAB_FRAME_LOG=PATH`: once the graph is in and the script done, the graph view's
///   frame-time benchmark (scripted pan / zoom / step) writes its frame times to PATH as JSON and
///   the app closes (see `frame_bench`, `scripts/frame-bench.sh`).
pub fn run(mut startup: Startup) -> anyhow::Result<()> {
    if let Some(path) = std::env::var_os("SSSP_LAB_OPEN") {
        startup.file = Some(PathBuf::from(path));
        startup.generator = None;
    }
    // rayon's global pool is made now, at the UI's priority: made later, it would inherit the
    // nice value of whichever job used rayon first, and the UI packs colour words on it. An
    // error means a pool exists already, which is as good.
    let _ = rayon::ThreadPoolBuilder::new().build_global();
    // Loading, generating and solving to the end yield the cores to the UI and the rasterizer.
    crate::jobs::set_worker_nice(10);
    let script = std::env::var("SSSP_LAB_DEMO").map(|s| script::parse(&s)).unwrap_or_else(|_| Ok(Vec::new()));
    let viewport = egui::ViewportBuilder::default()
        .with_title("sssp-lab")
        .with_inner_size(script::window_size().unwrap_or([1400.0, 900.0]))
        .with_min_inner_size([900.0, 560.0])
        .with_drag_and_drop(true);
    // Scripted launches (screenshots, demos) start from the same window every time.
    let mut options = eframe::NativeOptions { viewport, persist_window: persist::enabled(), ..Default::default() };
    // The window's device is requested as the solvers request theirs (every limit, timestamps),
    // so the wgpu solvers of that adapter can run on it and the view read their buffers.
    if let eframe::egui_wgpu::WgpuSetup::CreateNew(setup) = &mut options.wgpu_options.wgpu_setup {
        setup.device_descriptor = Arc::new(crate::device::wgpu::device_descriptor);
    }
    eframe::run_native(
        "sssp-lab",
        options,
        Box::new(move |cc| {
            let persist = persist::enabled();
            let saved =
                cc.storage.filter(|_| persist).and_then(|s| eframe::get_value::<persist::Saved>(s, persist::KEY));
            let mut app = SsspApp::with_saved(&cc.egui_ctx, startup, saved);
            if let Some(rs) = &cc.wgpu_render_state {
                app.share_window_gpu(rs);
            }
            app.persist = persist;
            app.ready_file = std::env::var_os("SSSP_LAB_READY_FILE").map(PathBuf::from);
            app.frame_bench = std::env::var_os("SSSP_LAB_FRAME_LOG").map(|p| frame_bench::FrameBench::new(p.into()));
            if let Some(path) = std::env::var_os("SSSP_LAB_BENCH") {
                app.open_bench(std::path::Path::new(&path));
            }
            if let Ok(spec) = std::env::var("SSSP_LAB_MANY") {
                let (sources, workers) = spec.split_once(';').unwrap_or((spec.as_str(), "cpu:2"));
                app.many_pending = Some((sources.to_string(), workers.to_string()));
            }
            match script {
                Ok(cmds) => app.push_script(cmds),
                Err(e) => app.state.error(format!("SSSP_LAB_DEMO: {e}")),
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| anyhow::anyhow!("could not open the sssp-lab window: {e}"))
}

/// The app: its state, the graph view and the plots' caches.
pub struct SsspApp {
    state: AppState,
    view: GraphView,
    shown_graph: Option<Arc<Graph>>,
    panels: panels::Panels,
    /// Commands still to apply from a demo script, one per frame once no job runs.
    script: VecDeque<Command>,
    /// Created once the script is done and the app idle (see [`run`]).
    ready_file: Option<PathBuf>,
    idle_frames: u32,
    /// `SSSP_LAB_MANY` (sources, workers): a many-source run to start once the graph is in.
    many_pending: Option<(String, String)>,
    /// Whether eframe's storage is written on exit (see [`persist`]).
    persist: bool,
    /// Compare steps still to take (one per idle frame).
    compare_steps: usize,
    /// `SSSP_LAB_FRAME_LOG`: the graph view's frame-time benchmark.
    frame_bench: Option<frame_bench::FrameBench>,
}

impl SsspApp {
    /// Creates the app and starts loading (or generating) the startup graph.
    pub fn new(ctx: &egui::Context, startup: Startup) -> Self {
        Self::with_saved(ctx, startup, None)
    }

    /// [`SsspApp::new`], restoring what `saved` remembers (see [`persist`]): its settings and
    /// forms always, its graph and source only when `startup` names no graph of its own.
    /// Lends eframe's wgpu device to the wgpu solvers of its adapter (probing devices again),
    /// so a run stepped there is drawn from its own buffers (zero-copy).
    pub fn share_window_gpu(&mut self, rs: &eframe::egui_wgpu::RenderState) {
        self.state.window_gpu =
            Some(state::WindowGpu { info: rs.adapter.get_info(), device: rs.device.clone(), queue: rs.queue.clone() });
        self.state.probe_devices();
    }

    pub fn with_saved(ctx: &egui::Context, startup: Startup, saved: Option<persist::Saved>) -> Self {
        let explicit = startup.file.is_some() || startup.generator.is_some();
        let from_startup = Settings {
            weight_rule: startup.load.weights.to_string(),
            weight_decimals: startup.load.weight_decimals,
            format: startup.load.format,
            ..Settings::default()
        };
        let settings = match &saved {
            Some(s) if !explicit => s.settings.clone(),
            Some(s) => Settings {
                algorithm: s.settings.algorithm.clone(),
                device: s.settings.device,
                block: s.settings.block,
                speed: s.settings.speed,
                ..from_startup
            },
            None => from_startup,
        };
        let mut state = AppState::new(ctx, settings);
        state.probe_devices();
        let mut panels = panels::Panels::default();
        let mut script = VecDeque::new();
        let restored_graph = if explicit { None } else { saved.as_ref().and_then(|s| s.graph.clone()) };
        match (startup.generator, startup.file, restored_graph) {
            (Some(spec), _, _) => state.generate(spec),
            (None, Some(file), _) if crate::trace::file::is_trace_path(&file) => {
                state.load(bundled_graph_path(), startup.load);
                state.apply(Command::Open(file));
            }
            (None, Some(file), _) => state.load(file, startup.load),
            (None, None, Some(persist::SavedGraph::Generated(spec))) => state.generate(spec),
            (None, None, Some(persist::SavedGraph::File(path))) if path.is_file() => state.apply(Command::Open(path)),
            (None, None, other) => {
                if let Some(persist::SavedGraph::File(path)) = other {
                    state.error(format!("the last graph, {}, is gone: opened the bundled graph", path.display()));
                }
                state.load(bundled_graph_path(), startup.load);
            }
        }
        if let Some(s) = saved {
            if !explicit && !s.source.trim().is_empty() {
                script.push_back(Command::SetSourceId(s.source));
            }
            panels.tab = s.tab;
            let m = &mut panels.many;
            (m.sources, m.workers, m.algorithm, m.policies) =
                (s.many_sources, s.many_workers, s.many_algorithm, s.many_policies);
            m.chunk = s.many_chunk.max(1);
            if let Some((exp, dir)) = s.bench {
                panels.bench.set_experiment(exp);
                panels.bench.exp_dir = dir;
            }
        }
        SsspApp {
            state,
            view: GraphView::new(),
            shown_graph: None,
            panels,
            script,
            ready_file: None,
            idle_frames: 0,
            many_pending: None,
            persist: false,
            compare_steps: 0,
            frame_bench: None,
        }
    }

    /// What [`persist`] stores of the app now.
    pub fn saved(&self) -> persist::Saved {
        let st = &self.state;
        let graph = st.graph.as_ref().map(|g| match &g.path {
            Some(p) => persist::SavedGraph::File(std::path::absolute(p).unwrap_or_else(|_| p.clone())),
            None => persist::SavedGraph::Generated(st.settings.generator.clone()),
        });
        let m = &self.panels.many;
        persist::Saved {
            settings: st.settings.clone(),
            graph,
            source: st.graph().map(|g| g.labels().label(st.source).to_string()).unwrap_or_default(),
            tab: self.panels.tab,
            many_sources: m.sources.clone(),
            many_workers: m.workers.clone(),
            many_algorithm: m.algorithm.clone(),
            many_policies: m.policies,
            many_chunk: m.chunk,
            bench: Some((self.panels.bench.experiment.clone(), self.panels.bench.exp_dir.clone())),
        }
    }

    /// Queues commands to apply one per frame, each once no background job runs.
    pub fn push_script(&mut self, cmds: Vec<Command>) {
        self.script.extend(cmds);
        self.state.egui.request_repaint();
    }

    /// The state, for tests and inspection.
    /// Where the graph view was last drawn (points; tests check it keeps its share).
    pub fn view_rect(&self) -> egui::Rect {
        self.view.rect()
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Carries out a command now (what buttons and keys do after the frame).
    pub fn apply(&mut self, cmd: Command) {
        match cmd {
            Command::OpenLesson(i) => self.open_lesson(i),
            Command::CompareSteps(n) => self.compare_steps = n,
            Command::CompareRunToEnd => self.panels.compare.run_to_end(),
            Command::CompareToLevel(d) => self.panels.compare.run_to_level(d),
            cmd => self.state.apply(cmd),
        }
    }

    /// Opens lesson `i` in the compare tab, on a graph of its own: the *Step* tab's graph,
    /// source and run stay as they are.
    fn open_lesson(&mut self, i: usize) {
        let Some(lesson) = compare::LESSONS.get(i) else { return };
        let gpu = compare::lessons::lesson_gpu(self.state.devices);
        let current = self.state.graph().cloned();
        self.panels.compare.open_lesson(lesson, gpu, current.as_ref(), &self.state.egui);
        self.panels.tab = panels::Tab::Compare;
    }

    /// True while a background job (load, generate, run to the end, oracle check) runs or a
    /// script has commands left. Tests step frames until this is false.
    pub fn is_busy(&self) -> bool {
        self.state.is_busy()
            || !self.script.is_empty()
            || self.panels.bench.is_running()
            || self.panels.many.is_running()
            || self.many_pending.is_some()
            || self.panels.compare.is_busy()
            || self.compare_steps > 0
    }

    /// Shows the bench lab on the experiment in `path` and starts it; a bad file becomes an error
    /// banner.
    pub fn open_bench(&mut self, path: &std::path::Path) {
        self.panels.tab = panels::Tab::Bench;
        let started = crate::lab::Experiment::load(path).map_err(|e| format!("{e:#}")).and_then(|exp| {
            self.panels.bench.set_experiment(exp);
            self.panels.bench.start(&self.state.egui)
        });
        if let Err(e) = started {
            self.state.error(format!("bench experiment {}: {e}", path.display()));
        }
    }

    /// Opens the many-sources tab and starts the pending run once the graph is loaded.
    fn start_many_pending(&mut self) {
        if self.state.is_busy() || self.state.graph().is_none() {
            return;
        }
        let (Some((sources, workers)), Some(g)) = (self.many_pending.take(), self.state.graph().cloned()) else {
            return;
        };
        self.panels.tab = panels::Tab::Many;
        self.panels.many.sources = sources;
        self.panels.many.workers = workers;
        if let Err(e) = self.panels.many.start(&g, &self.state.egui) {
            self.state.error(format!("SSSP_LAB_MANY: {e}"));
        }
    }

    fn run_script(&mut self) {
        let compare_busy = self.compare_steps > 0 || self.panels.compare.is_busy();
        if self.script.is_empty() || self.state.is_busy() || self.state.jobs.dialog.is_some() || compare_busy {
            return;
        }
        if let Some(cmd) = self.script.pop_front() {
            self.apply(cmd);
        }
        self.state.egui.request_repaint();
    }

    /// Writes the ready file after a few idle frames: no job runs and, on the explore tab, the
    /// graph view has drawn everything (a large graph's density builds over many frames).
    fn signal_ready(&mut self) {
        let Some(path) = &self.ready_file else { return };
        let view_busy = match self.panels.tab {
            panels::Tab::Explore => !self.view.is_idle(),
            // The lanes' views build their density tiles over many frames too.
            panels::Tab::Compare => !self.panels.compare.views.iter().all(|v| v.is_idle()),
            _ => false,
        };
        if self.is_busy() || view_busy {
            self.idle_frames = 0;
            return;
        }
        self.idle_frames += 1;
        if self.idle_frames >= 5 {
            if let Err(e) = std::fs::write(path, "ready\n") {
                self.state.error(format!("SSSP_LAB_READY_FILE {}: {e}", path.display()));
            }
            self.ready_file = None;
        }
        self.state.egui.request_repaint();
    }

    /// Gives the view a newly loaded graph (once per graph).
    fn sync_view(&mut self) {
        let current = self.state.graph().cloned();
        let same = match (&current, &self.shown_graph) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        if !same {
            if let Some(g) = &current {
                self.view.set_graph(g.clone());
            }
            self.shown_graph = current;
        }
    }
}

impl eframe::App for SsspApp {
    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.persist {
            eframe::set_value(storage, persist::KEY, &self.saved());
        }
    }

    fn persist_egui_memory(&self) -> bool {
        self.persist
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let start = Instant::now();
        let ctx = ui.ctx().clone();
        let dt = ctx.input(|i| i.stable_dt as f64);
        self.state.poll(dt);
        self.run_script();
        self.start_many_pending();
        self.panels.compare.poll();
        if self.compare_steps > 0 && !self.panels.compare.is_busy() {
            self.compare_steps -= 1;
            self.panels.compare.step();
            ctx.request_repaint();
        }
        self.state.refresh_version();
        self.sync_view();
        // The graph views draw large graphs with their own pipelines in eframe's render pass.
        if let Some(rs) = frame.wgpu_render_state() {
            graph_view::gpu::provide(&ctx, rs);
        }

        let bench_may_run = self.state.graph().is_some() && !self.is_busy() && self.view.is_idle();
        if let Some(bench) = &mut self.frame_bench
            && (bench.started() || bench_may_run)
        {
            match bench.frame(&ctx, &mut self.view) {
                Ok(Some(cmd)) => self.apply(cmd),
                Ok(None) => {}
                Err(e) => self.state.error(e),
            }
        } else if let Some(bench) = &mut self.frame_bench
            && self.state.graph().is_some()
        {
            // What the frame waited on: a job (loading, generating) or the view's preparation.
            let stage = if self.state.is_busy() {
                "job"
            } else {
                self.view.gpu_note().map_or("view", |n| n.split(',').next().unwrap_or(n))
            };
            bench.prepare_frame(&ctx, stage);
        }

        let mut cmds = command::keyboard_commands(&ctx);
        if self.panels.tab == panels::Tab::Compare {
            // The step keys step the compare lanes there, not the Step tab's hidden run.
            cmds.retain(|c| !self.panels.compare.key(c));
        }
        cmds.extend(command::dropped_file_command(&ctx));
        panels::show(ui, &mut self.state, &mut self.view, &mut self.panels, &mut cmds);
        for cmd in cmds {
            self.apply(cmd);
        }
        self.signal_ready();

        let ui_ms = start.elapsed().as_secs_f32() * 1e3;
        if let Some(bench) = &mut self.frame_bench {
            bench.ui_time(ui_ms as f64);
        }
        let frame_ms = frame.info().cpu_usage.map_or(ui_ms, |s| s * 1e3);
        self.state.ui_ms = AppState::smooth(self.state.ui_ms, ui_ms);
        self.state.frame_ms = AppState::smooth(self.state.frame_ms, frame_ms);
    }
}
