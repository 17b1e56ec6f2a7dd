//! Saving the shown run as a trace file and opening one again ([`crate::trace::file`]): the
//! file is read and checked on a worker; its graph is the loaded one when the checksum matches,
//! else the recorded file (or generator) is loaded first and checked, then the trace replaces
//! the run, steppable forwards and back. A bad file or a graph that does not match is a banner;
//! the current graph and run stay.

use super::jobs::{Job, repaint, take_finished};
use super::state::AppState;
use crate::trace::file::{RunInfo, TraceFile, graph_candidates};
use std::path::PathBuf;

impl AppState {
    /// Reads the trace at `path` in the background.
    pub(crate) fn open_trace(&mut self, path: PathBuf) {
        let shown = path.display().to_string();
        self.jobs.trace = Some(Job::spawn(format!("opening trace {shown}"), repaint(&self.egui), move |_| {
            TraceFile::load(&path).map(|t| (t, path)).map_err(|e| format!("{e:#}"))
        }));
    }

    /// Writes the shown run to `path` in the background.
    pub(crate) fn save_trace(&mut self, path: PathBuf) {
        let (Some(trace), Some(g)) = (&self.trace, &self.graph) else {
            return self.error("no run to save");
        };
        let info = RunInfo {
            algorithm: self.settings.algorithm.to_string(),
            device: self.stepper.as_ref().map_or_else(|| self.settings.device.to_string(), |s| s.device()),
            device_id: self.settings.device.to_string(),
            block: self.settings.block,
        };
        let generator = g.path.is_none().then(|| self.settings.generator.clone());
        let file = TraceFile::new(trace, &g.graph, g.path.as_deref(), generator, info);
        self.jobs.trace_save =
            Some(Job::spawn(format!("saving trace {}", path.display()), repaint(&self.egui), move |_| {
                file.save(&path).map(|_| path).map_err(|e| format!("{e:#}"))
            }));
    }

    /// Collects the trace jobs: installs an opened trace, or loads its graph first.
    pub(crate) fn poll_traces(&mut self) {
        if let Some((_, out)) = take_finished(&mut self.jobs.trace_save) {
            match out.and_then(|r| r) {
                Ok(path) => self.saved_trace = Some(path),
                Err(e) => self.error(format!("saving the trace failed: {e}")),
            }
        }
        if let Some((_, out)) = take_finished(&mut self.jobs.trace) {
            match out.and_then(|r| r) {
                Ok((t, path)) => self.place_trace(t, path),
                Err(e) => self.error(e),
            }
        }
        // A trace waiting for its graph: install it once the graph is in.
        if self.jobs.graph.is_none()
            && let Some((t, path)) = self.pending_trace.take()
        {
            match self.graph() {
                Some(g) => match t.check_graph(g) {
                    Ok(()) => self.install_trace(&t),
                    Err(why) => self.error(format!(
                        "trace {}: the graph loaded for it ({}) is not the graph it ran on: {why}",
                        path.display(),
                        g.name
                    )),
                },
                None => self.error(format!(
                    "trace {}: its graph (n = {}, m = {}, checksum {}) could not be loaded",
                    path.display(),
                    t.graph.n,
                    t.graph.m,
                    t.graph.checksum
                )),
            }
        }
    }

    /// Installs `t` on the loaded graph if it is its graph, else starts loading its graph.
    fn place_trace(&mut self, t: TraceFile, path: PathBuf) {
        if self.graph().is_some_and(|g| t.matches(g)) {
            return self.install_trace(&t);
        }
        if let Some(spec) = t.graph.generator.clone() {
            self.generate(spec);
        } else if let Some(graph) =
            t.graph.path.as_deref().and_then(|p| graph_candidates(p, &path).into_iter().find(|c| c.is_file()))
        {
            self.apply(super::Command::Open(graph));
        } else {
            return self.error(format!(
                "trace {}: its graph `{}` ({}) is neither loaded nor found; open the graph, then the trace",
                path.display(),
                t.graph.name,
                t.graph.path.as_deref().unwrap_or("generated")
            ));
        }
        self.pending_trace = Some((t, path));
    }

    /// Replaces the run with the saved one: its algorithm, device and block sizes become the
    /// settings (where this build knows them), the cursor starts at iteration 0.
    fn install_trace(&mut self, t: &TraceFile) {
        if let Ok(a) = t.algorithm.parse() {
            self.settings.algorithm = a;
        }
        if let Ok(d) = t.device_id.parse() {
            self.settings.device = d;
        }
        self.settings.block = t.block;
        self.source = t.source;
        self.source_text = t.source_id.to_string();
        self.reset();
        // A run saved before its end continues past its last iteration: `ensure_stepper`
        // replays the saved iterations on a new solver first.
        self.trace = Some(t.to_trace());
        self.state_version += 1;
        if t.deltas.is_none() {
            self.error(format!(
                "the trace has no per-vertex changes (graphs above {} vertices are saved without): the plots replay, the graph view stays at iteration 0",
                crate::trace::file::MAX_DELTA_VERTICES
            ));
        }
    }
}
