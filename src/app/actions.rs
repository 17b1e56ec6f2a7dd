//! `run_cmd`: every [`Command`] is carried out here, and the graph-side jobs (loading,
//! generating, the file dialog, device probing) are started and collected here.

use super::command::Command;
use super::jobs::{Job, repaint, take_finished};
use super::state::{AppState, LoadedGraph};
use crate::formats::{self, Format, LoadOptions};
use crate::generate::GeneratorSpec;
use crate::graph::{VertexId, WeightRule};
use std::path::PathBuf;
use std::sync::Arc;

impl AppState {
    /// Carries out one command.
    pub fn apply(&mut self, cmd: Command) {
        match cmd {
            Command::OpenDialog => self.open_dialog(),
            Command::Open(path) if crate::trace::file::is_trace_path(&path) => self.open_trace(path),
            Command::Open(path) => self.open(path),
            Command::SaveTraceDialog => self.save_dialog(),
            Command::SaveTrace(path) => self.save_trace(path),
            Command::SetWeightRule(s) => self.settings.weight_rule = s,
            Command::SetWeightDecimals(k) => self.settings.weight_decimals = k,
            Command::SetFormat(f) => self.settings.format = f,
            Command::ShowGenerator(show) => self.show_generator = show,
            Command::Generate(spec) => self.generate(spec),
            Command::SetSource(v) => self.set_source(v),
            Command::SetSourceId(text) => self.set_source_id(&text),
            Command::SetAlgorithm(a) => {
                if a != self.settings.algorithm {
                    self.settings.algorithm = a;
                    self.tuned = None;
                    self.reset();
                }
            }
            Command::SetDevice(d) => {
                if d != self.settings.device {
                    self.settings.device = d;
                    self.tuned = None;
                    self.reset();
                }
            }
            Command::SetBlockSizes(b) => {
                if b != self.settings.block {
                    self.settings.block = b;
                    self.tuned = None;
                    self.reset();
                }
            }
            Command::Tune => self.start_tune(),
            Command::Step => self.step_forward(1),
            Command::StepN(n) => self.step_forward(n),
            Command::StepBack => self.step_back(),
            Command::TogglePlay => self.toggle_play(),
            Command::SetSpeed(s) => self.settings.speed = s.clamp(0.1, 10_000.0),
            Command::RunToEnd => self.run_to_end(),
            Command::Seek(p) => self.seek(p),
            Command::Reset => self.reset(),
            Command::Cancel => self.cancel(),
            // Needs the panels: handled by `SsspApp::apply`.
            Command::OpenLesson(_)
            | Command::CompareSteps(_)
            | Command::CompareRunToEnd
            | Command::CompareToLevel(_) => {}
            Command::DismissError(i) => {
                if i < self.errors.len() {
                    self.errors.remove(i);
                }
            }
            Command::DismissErrors => self.errors.clear(),
            Command::ClosePathPrompt => self.path_prompt = None,
            Command::AskFirst(change) => self.confirm = Some(*change),
            Command::Confirm(yes) => {
                if let Some(change) = self.confirm.take()
                    && yes
                {
                    self.apply(change);
                }
            }
        }
    }

    /// Collects finished jobs and advances playback; called once per frame.
    pub fn poll(&mut self, dt: f64) {
        let cancelled = self.jobs.graph.as_ref().is_some_and(|j| j.is_cancelled());
        if let Some((name, out)) = take_finished(&mut self.jobs.graph) {
            match out.and_then(|r| r) {
                _ if cancelled => {}
                Ok(loaded) => self.install_graph(loaded),
                Err(e) => self.error(format!("{name} failed: {e}")),
            }
        }
        if let Some((_, out)) = take_finished(&mut self.jobs.dialog) {
            match out {
                // Through `apply`, so that a trace is opened as a trace (as a dropped file is).
                Ok(Ok(Some(path))) => self.apply(Command::Open(path)),
                Ok(Ok(None)) => {}
                Ok(Err(why)) => self.ask_path(false, why),
                Err(e) => self.error(format!("file dialog: {e}")),
            }
        }
        if let Some((_, out)) = take_finished(&mut self.jobs.devices) {
            match out {
                Ok(list) => self.devices = Some(list),
                Err(e) => self.error(format!("probing devices: {e}")),
            }
        }
        if let Some((_, out)) = take_finished(&mut self.jobs.save_dialog) {
            match out {
                Ok(Ok(Some(path))) => self.save_trace(path),
                Ok(Ok(None)) => {}
                Ok(Err(why)) => self.ask_path(true, why),
                Err(e) => self.error(format!("file dialog: {e}")),
            }
        }
        self.poll_traces();
        self.poll_tune();
        if let Some((dev, job)) = &mut self.jobs.peak
            && let Some(out) = job.poll()
        {
            let dev = *dev;
            self.peaks.insert(dev, out.and_then(|r| r));
            self.jobs.peak = None;
        }
        self.poll_build();
        self.poll_run();
        self.poll_verify();
        self.play_tick(dt);
        self.refresh_version();
    }

    /// The bandwidth limit of `device` if known; starts measuring it (in the background) if not.
    pub(crate) fn peak_of(
        &mut self,
        device: crate::device::DeviceId,
    ) -> Option<&Result<crate::device::roofline::Peak, String>> {
        if !self.peaks.contains_key(&device) && self.jobs.peak.is_none() {
            let job = Job::spawn(format!("bandwidth limit of {device}"), repaint(&self.egui), move |_| {
                crate::device::roofline::peak(device)
            });
            self.jobs.peak = Some((device, job));
        }
        self.peaks.get(&device)
    }

    /// Starts probing devices (CUDA, wgpu) in the background; the window's wgpu device, if
    /// known, is lent to the solvers of its adapter first.
    pub(crate) fn probe_devices(&mut self) {
        let window = self.window_gpu.clone();
        self.jobs.devices = Some(Job::spawn("probing devices", repaint(&self.egui), move |_| {
            if let Some(w) = window {
                crate::device::wgpu::share_device(&w.info, w.device, w.queue);
            }
            crate::device::devices()
        }));
    }

    /// The save dialog for a trace, on a worker (rfd blocks).
    fn save_dialog(&mut self) {
        if self.jobs.save_dialog.is_some() || self.trace.is_none() {
            return;
        }
        let name = self.trace_file_name();
        self.jobs.save_dialog = Some(Job::spawn("choosing where to save", repaint(&self.egui), move |_| {
            super::dialog::pick(|| {
                rfd::FileDialog::new()
                    .set_file_name(name)
                    .add_filter("sssp-lab trace", &["trace.json.gz", "trace.json"])
                    .save_file()
            })
        }));
    }

    /// The suggested name of a saved trace, shell-friendly: graph, algorithm, source id
    /// ("karate-delta-stepping-s34.trace.json.gz").
    pub fn trace_file_name(&self) -> String {
        let stem = self.graph().map_or("run".to_string(), |g| {
            let stem = g.name.split('.').next().unwrap_or("run").to_string();
            format!("{stem}-{}-s{}", self.settings.algorithm.algorithm, g.labels().label(self.source))
        });
        format!("{}.trace.json.gz", super::dialog::shell_safe(&stem))
    }

    /// Shows the typed-path field (no file dialog can appear: `why`).
    fn ask_path(&mut self, save_trace: bool, why: String) {
        let text = if save_trace { self.trace_file_name() } else { String::new() };
        self.path_prompt = Some(super::state::PathPrompt { save_trace, text, why });
    }

    fn open_dialog(&mut self) {
        if self.jobs.dialog.is_some() {
            return;
        }
        self.jobs.dialog = Some(Job::spawn("choosing a file", repaint(&self.egui), |_| {
            // Traces are listed with the graphs: Open file… opens both.
            let mut all: Vec<String> = vec!["trace.json.gz".into(), "trace.json".into()];
            for f in Format::ALL {
                for e in f.extensions() {
                    all.push(e.to_string());
                    all.push(format!("{e}.gz"));
                }
            }
            let mut dialog =
                rfd::FileDialog::new().set_title("Open a graph or a trace").add_filter("graphs and traces", &all);
            for f in Format::ALL {
                let exts: Vec<String> =
                    f.extensions().iter().flat_map(|e| [e.to_string(), format!("{e}.gz")]).collect();
                dialog = dialog.add_filter(f.description(), &exts);
            }
            let dialog = dialog.add_filter("sssp-lab trace", &["trace.json.gz", "trace.json"]);
            super::dialog::pick(|| dialog.add_filter("all files", &["*"]).pick_file())
        }));
    }

    /// Loads `path` with the panel's weight rule and format override.
    fn open(&mut self, path: PathBuf) {
        let weights = match self.settings.weight_rule.parse::<WeightRule>() {
            Ok(w) => w,
            Err(e) => return self.error(e),
        };
        self.load(
            path,
            LoadOptions { format: self.settings.format, weights, weight_decimals: self.settings.weight_decimals },
        );
    }

    /// Loads `path` in the background; the current graph stays until it succeeds.
    pub(crate) fn load(&mut self, path: PathBuf, opts: LoadOptions) {
        if let Some(old) = self.jobs.graph.take() {
            old.cancel();
        }
        let shown = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into());
        self.jobs.graph = Some(Job::spawn(format!("loading {shown}"), repaint(&self.egui), move |jc| {
            let graph = formats::load_with_progress(&path, &opts, &mut |f| {
                jc.set_progress(f * 0.9);
                !jc.cancelled()
            })
            .map_err(|e| e.to_string())?;
            jc.set_progress(0.95);
            let stats = graph.stats();
            Ok(LoadedGraph { graph: Arc::new(graph), stats, path: Some(path) })
        }));
    }

    /// Generates `spec` in the background.
    pub(crate) fn generate(&mut self, spec: GeneratorSpec) {
        if let Some(old) = self.jobs.graph.take() {
            old.cancel();
        }
        self.settings.generator = spec.clone();
        self.jobs.graph = Some(Job::spawn(format!("generating {spec}"), repaint(&self.egui), move |jc| {
            jc.set_progress(0.1);
            let graph = spec.generate()?;
            jc.set_progress(0.9);
            let stats = graph.stats();
            Ok(LoadedGraph { graph: Arc::new(graph), stats, path: None })
        }));
    }

    fn install_graph(&mut self, loaded: LoadedGraph) {
        // A map from a file starts in its middle, so the first steps grow a region on screen
        // (NY's vertex 1 sits at the map's edge); other graphs start at their first vertex.
        let central = loaded.path.is_some().then(|| loaded.graph.coords().and_then(central_vertex)).flatten();
        self.graph = Some(loaded);
        self.tuned = None;
        self.show_generator = false;
        self.hovered = None;
        self.source = central.unwrap_or(0);
        self.source_text = self.graph().map_or_else(String::new, |g| g.labels().label(self.source).to_string());
        // A graph with negative weights: move to an algorithm that runs it, and say why.
        let refused = self.graph().and_then(|g| crate::algo::check_weights(g, self.settings.algorithm.algorithm).err());
        if let Some(why) = refused {
            self.settings.algorithm = crate::algo::AlgoChoice::new(crate::algo::BELLMAN_FORD);
            self.error(format!("{why}; switched to bellman-ford"));
        }
        self.reset();
    }

    /// Makes vertex index `v` the source and starts a new run.
    fn set_source(&mut self, v: VertexId) {
        let Some(g) = self.graph() else { return };
        if v as usize >= g.n() {
            return self.error(format!("vertex {v} does not exist (the graph has {} vertices)", g.n()));
        }
        self.source_text = g.labels().label(v).to_string();
        if v != self.source {
            self.source = v;
            self.reset();
        }
    }

    /// Makes the vertex with file id `text` the source; a bad id only shows an error.
    fn set_source_id(&mut self, text: &str) {
        let Some(g) = self.graph().cloned() else { return };
        let parsed = text.trim().parse::<u64>();
        let v = parsed.ok().and_then(|id| g.labels().index(id, g.n()));
        match v {
            Some(v) => self.set_source(v),
            None => self.error(format!(
                "source `{}`: no vertex has this id (this graph has {})",
                text.trim(),
                g.labels().describe(g.n())
            )),
        }
    }
}

/// The vertex nearest the centre of the coordinates' bounding box (`None` for no vertices).
pub fn central_vertex(coords: &[[f32; 2]]) -> Option<VertexId> {
    let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
    for p in coords.iter().filter(|p| p[0].is_finite() && p[1].is_finite()) {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    let mid = [(lo[0] as f64 + hi[0] as f64) / 2.0, (lo[1] as f64 + hi[1] as f64) / 2.0];
    let d2 = |p: &[f32; 2]| (p[0] as f64 - mid[0]).powi(2) + (p[1] as f64 - mid[1]).powi(2);
    coords
        .iter()
        .enumerate()
        .filter(|(_, p)| p[0].is_finite() && p[1].is_finite())
        .min_by(|a, b| d2(a.1).total_cmp(&d2(b.1)))
        .map(|(v, _)| v as VertexId)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_central_vertex_is_nearest_the_bounding_box_centre() {
        let c = [[0.0, 0.0], [10.0, 10.0], [4.0, 6.0], [9.0, 1.0]];
        assert_eq!(super::central_vertex(&c), Some(2));
        assert_eq!(super::central_vertex(&[]), None);
    }
}
