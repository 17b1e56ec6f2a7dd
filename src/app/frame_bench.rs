//! The graph view's frame-time benchmark (`SSSP_LAB_FRAME_LOG=PATH`, see [`super::run`]): once
//! the startup graph is in and the demo script is done, the app drives a fixed sequence of
//! frames — idle, pan in a circle, zoom in, pan zoomed in, zoom out, one iteration per frame —
//! records each frame's time and writes them as JSON to PATH, then closes the window.
//!
//! A frame's time is the wall time between the starts of two consecutive frames, so it covers
//! the UI pass, egui's tessellation, the GPU view's prepare and paint, and the present (vsync
//! included where the display has it). `scripts/frame-bench.sh` runs it under Xvfb + lavapipe.

use super::command::Command;
use super::graph_view::GraphView;
use std::path::PathBuf;
use std::time::Instant;

/// The phases and their frame counts (× `SSSP_LAB_FRAMES` / 60, for graphs whose frames take
/// seconds on a software renderer).
pub(crate) const PHASES: [(&str, usize); 6] =
    [("idle", 60), ("pan", 120), ("zoom-in", 60), ("pan-zoomed", 60), ("zoom-out", 60), ("step", 60)];

/// Frames of a phase given the frames per 60 in `SSSP_LAB_FRAMES` (default 60).
fn frames_of(phase: usize, per_60: usize) -> usize {
    (PHASES[phase].1 * per_60 / 60).max(1)
}

/// One recorded frame.
#[derive(serde::Serialize)]
pub(crate) struct Sample {
    pub phase: &'static str,
    /// Wall time since the previous frame started, ms.
    pub frame_ms: f64,
    /// Time in the app's `ui` (UI thread) of the previous frame, ms.
    pub ui_ms: f64,
    /// For "prepare" frames, what the previous frame waited on: "job" (loading, generating) or
    /// the graph view's note ("GPU view: uploading the graph", …, "view" when it had none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stage: Option<String>,
}

/// Per-phase summary.
#[derive(serde::Serialize)]
pub(crate) struct Summary {
    phase: &'static str,
    frames: usize,
    mean_ms: f64,
    p50_ms: f64,
    p95_ms: f64,
    max_ms: f64,
    fps_mean: f64,
}

/// The running benchmark.
pub struct FrameBench {
    path: PathBuf,
    phase: usize,
    frame: usize,
    last_start: Option<Instant>,
    prepare_start: Option<Instant>,
    last_ui_ms: f64,
    /// The stage the current prepare frame waits on (see [`FrameBench::prepare_frame`]).
    last_stage: String,
    samples: Vec<Sample>,
    done: bool,
    per_60: usize,
}

impl FrameBench {
    pub fn new(path: PathBuf) -> FrameBench {
        let per_60 = std::env::var("SSSP_LAB_FRAMES").ok().and_then(|s| s.parse().ok()).unwrap_or(60);
        FrameBench {
            path,
            phase: 0,
            frame: 0,
            last_start: None,
            prepare_start: None,
            last_ui_ms: 0.0,
            last_stage: String::new(),
            samples: Vec::new(),
            done: false,
            per_60,
        }
    }

    /// Called at the start of every frame once the app is idle: records the previous frame and
    /// applies this frame's camera move; returns a command to apply this frame (a step) or an
    /// error message when the file could not be written.
    pub fn frame(&mut self, ctx: &egui::Context, view: &mut GraphView) -> Result<Option<Command>, String> {
        if self.done {
            return Ok(None);
        }
        let now = Instant::now();
        if let Some(t) = self.last_start
            && let Some(&(name, _)) = PHASES.get(self.phase)
        {
            let frame_ms = now.duration_since(t).as_secs_f64() * 1e3;
            self.samples.push(Sample { phase: name, frame_ms, ui_ms: self.last_ui_ms, stage: None });
            self.frame += 1;
            if self.frame >= frames_of(self.phase, self.per_60) {
                self.phase += 1;
                self.frame = 0;
            }
        }
        self.last_start = Some(now);
        ctx.request_repaint();
        let Some(&(name, _)) = PHASES.get(self.phase) else {
            self.done = true;
            self.write(view)?;
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return Ok(None);
        };
        // Fewer frames cover the same path (the same pan circle, the same 10× zoom).
        let k = 60.0 / self.per_60.max(1) as f32;
        let t = self.frame as f32 * k / 20.0;
        Ok(match name {
            "pan" | "pan-zoomed" => {
                view.pan_by(egui::vec2(t.cos(), t.sin()) * 12.0 * k);
                None
            }
            "zoom-in" => {
                view.zoom_by(1.04f64.powf(k as f64));
                None
            }
            "zoom-out" => {
                view.zoom_by(1.04f64.powf(-k as f64));
                None
            }
            "step" => Some(Command::StepN(1)),
            _ => None,
        })
    }

    /// Called each frame while the graph is loaded but the view still prepares (sorting, density
    /// build): those frames are recorded as the phase "prepare", so their stalls show too.
    /// `stage` says what this frame waits on; it is logged with the frame's time, taken at the
    /// next call.
    pub fn prepare_frame(&mut self, ctx: &egui::Context, stage: &str) {
        if self.last_start.is_some() {
            return;
        }
        let now = Instant::now();
        if let Some(t) = self.prepare_start {
            let frame_ms = now.duration_since(t).as_secs_f64() * 1e3;
            let stage = Some(std::mem::replace(&mut self.last_stage, stage.to_string()));
            self.samples.push(Sample { phase: "prepare", frame_ms, ui_ms: self.last_ui_ms, stage });
        } else {
            self.last_stage = stage.to_string();
        }
        self.prepare_start = Some(now);
        ctx.request_repaint();
    }

    /// The UI time of the frame just finished (recorded with the next one).
    pub fn ui_time(&mut self, ms: f64) {
        self.last_ui_ms = ms;
    }

    /// Whether the first frame was recorded (from then on every frame counts, busy or not).
    pub fn started(&self) -> bool {
        self.last_start.is_some()
    }

    fn write(&self, view: &GraphView) -> Result<(), String> {
        let summary = summaries(&self.samples);
        let st = view.stats();
        let out = serde_json::json!({
            "graph": view.graph_name(),
            "n": view.graph_size().0,
            "m": view.graph_size().1,
            "mode": view.mode().map(|m| m.name()),
            "gpu": st.gpu,
            "vertices_drawn": st.vertices_drawn,
            "arcs_drawn": st.arcs_drawn,
            "summary": summary,
            "frames": self.samples,
        });
        let text = serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?;
        std::fs::write(&self.path, text).map_err(|e| format!("SSSP_LAB_FRAME_LOG {}: {e}", self.path.display()))
    }
}

/// The summary of every phase, "prepare" (the frames before the view was ready) first.
pub(crate) fn summaries(samples: &[Sample]) -> Vec<Summary> {
    std::iter::once("prepare").chain(PHASES.iter().map(|&(phase, _)| phase)).map(|p| summarize(p, samples)).collect()
}

fn summarize(phase: &'static str, samples: &[Sample]) -> Summary {
    let mut ms: Vec<f64> = samples.iter().filter(|s| s.phase == phase).map(|s| s.frame_ms).collect();
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms.get(((ms.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
    let mean = if ms.is_empty() { 0.0 } else { ms.iter().sum::<f64>() / ms.len() as f64 };
    Summary {
        phase,
        frames: ms.len(),
        mean_ms: mean,
        p50_ms: at(0.5),
        p95_ms: at(0.95),
        max_ms: ms.last().copied().unwrap_or(0.0),
        fps_mean: if mean > 0.0 { 1000.0 / mean } else { 0.0 },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_percentiles() {
        let samples: Vec<Sample> =
            (1..=100).map(|i| Sample { phase: "pan", frame_ms: i as f64, ui_ms: 0.0, stage: None }).collect();
        let s = summarize("pan", &samples);
        assert_eq!((s.frames, s.p50_ms, s.max_ms), (100, 51.0, 100.0));
        assert!((s.mean_ms - 50.5).abs() < 1e-9);
        assert_eq!(summarize("zoom-in", &samples).frames, 0);
    }
}
