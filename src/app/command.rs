//! Everything the user can do, as values: buttons, keys, dropped files and the demo script all
//! produce [`Command`]s that [`super::SsspApp::apply`] carries out in one place.

use crate::algo::{AlgoChoice, BlockSizes};
use crate::device::DeviceId;
use crate::formats::Format;
use crate::generate::GeneratorSpec;
use crate::graph::VertexId;
use egui::Key;
use std::path::PathBuf;

/// A user action.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Opens the file dialog (on a background thread); the chosen file is then opened.
    OpenDialog,
    /// Loads a graph file with the weight rule and format override of the graph panel, or
    /// opens a trace (`*.trace.json[.gz]`, loading its graph first when needed).
    Open(PathBuf),
    /// Asks where to save the shown run as a trace (a dialog on a worker), then saves it.
    SaveTraceDialog,
    /// Saves the shown run as a trace file.
    SaveTrace(PathBuf),
    /// Sets the weight rule text (`file`, `unit`, `uniform:MAX:SEED`); checked when a file is opened.
    SetWeightRule(String),
    /// Scale for real-valued weights: 10^k, `None` = automatic.
    SetWeightDecimals(Option<u32>),
    /// Format override for the next file (`None`: by extension).
    SetFormat(Option<Format>),
    /// Shows or hides the generator dialog.
    ShowGenerator(bool),
    /// Generates a graph in the background.
    Generate(GeneratorSpec),
    /// Makes vertex index `v` the source (a click in the graph view).
    SetSource(VertexId),
    /// Makes the vertex with this *file* id the source (typed by the user); a bad id is an error.
    SetSourceId(String),
    /// The algorithm with its parameter values.
    SetAlgorithm(AlgoChoice),
    SetDevice(DeviceId),
    SetBlockSizes(BlockSizes),
    /// Predicts block sizes (and Δ) for the graph, algorithm and device on a worker
    /// ([`crate::tune`]), then sets them.
    Tune,
    /// One iteration forward: replays the trace when behind, else asks the solver.
    Step,
    /// `n` iterations forward (demo script, tests).
    StepN(usize),
    /// One iteration back (undoes the recorded delta).
    StepBack,
    TogglePlay,
    /// Playback speed in iterations per second.
    SetSpeed(f64),
    /// Runs the remaining iterations on a worker thread, streaming them into the trace.
    RunToEnd,
    /// Moves the cursor to after `n` recorded iterations (plot clicks).
    Seek(usize),
    /// Back to iteration 0 with the current settings: a fresh solver and trace.
    Reset,
    /// Stops playing and cancels running jobs.
    Cancel,
    /// Opens lesson `i` of [`super::compare::LESSONS`]: its graph, then the compare tab with
    /// its lanes, started.
    OpenLesson(usize),
    /// Compare tab: `n` steps of every lane (in its lockstep mode).
    CompareSteps(usize),
    /// Compare tab: every lane to its end.
    CompareRunToEnd,
    /// Compare tab: every lane forward until its settled level reaches this distance.
    CompareToLevel(crate::graph::Distance),
    /// Removes error banner `i`.
    DismissError(usize),
    /// Removes every error banner.
    DismissErrors,
    /// Closes the typed-path field shown where no file dialog can appear.
    ClosePathPrompt,
    /// A change that would discard the shown run (algorithm, device, block sizes): asks first,
    /// and carries it out only once confirmed.
    AskFirst(Box<Command>),
    /// Answers the question of [`Command::AskFirst`]: true carries the change out.
    Confirm(bool),
}

/// Keyboard shortcuts: (key, label shown in the UI, command).
pub const SHORTCUTS: [(Key, &str, Shortcut); 8] = [
    (Key::ArrowRight, "→", Shortcut::Step),
    (Key::ArrowLeft, "←", Shortcut::StepBack),
    (Key::Space, "Space", Shortcut::TogglePlay),
    (Key::End, "End", Shortcut::RunToEnd),
    (Key::Home, "Home", Shortcut::Reset),
    (Key::R, "R", Shortcut::Reset),
    (Key::Escape, "Esc", Shortcut::Cancel),
    (Key::O, "Ctrl+O", Shortcut::Open),
];

/// The commands that have a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    Step,
    StepBack,
    TogglePlay,
    RunToEnd,
    Reset,
    Cancel,
    Open,
}

impl Shortcut {
    pub fn command(self) -> Command {
        match self {
            Shortcut::Step => Command::Step,
            Shortcut::StepBack => Command::StepBack,
            Shortcut::TogglePlay => Command::TogglePlay,
            Shortcut::RunToEnd => Command::RunToEnd,
            Shortcut::Reset => Command::Reset,
            Shortcut::Cancel => Command::Cancel,
            Shortcut::Open => Command::OpenDialog,
        }
    }

    /// What it does, for the shortcut list.
    pub fn describe(self) -> &'static str {
        match self {
            Shortcut::Step => "step",
            Shortcut::StepBack => "step back",
            Shortcut::TogglePlay => "play / pause",
            Shortcut::RunToEnd => "run to the end",
            Shortcut::Reset => "reset",
            Shortcut::Cancel => "cancel job / stop",
            Shortcut::Open => "open a file",
        }
    }

    /// The keys bound to this shortcut, e.g. "Home / R".
    pub fn keys(self) -> String {
        let keys: Vec<&str> = SHORTCUTS.iter().filter(|s| s.2 == self).map(|s| s.1).collect();
        keys.join(" / ")
    }
}

/// Commands from the keys pressed this frame. Keys typed into a text field are left alone.
pub fn keyboard_commands(ctx: &egui::Context) -> Vec<Command> {
    if ctx.text_edit_focused() {
        return Vec::new();
    }
    ctx.input(|i| {
        SHORTCUTS
            .iter()
            .filter(|(key, _, s)| {
                let needs_ctrl = *s == Shortcut::Open;
                i.key_pressed(*key) && i.modifiers.command == needs_ctrl
            })
            .map(|(_, _, s)| s.command())
            .collect()
    })
}

/// A dropped file becomes [`Command::Open`]; the only place dropped files are read.
pub fn dropped_file_command(ctx: &egui::Context) -> Option<Command> {
    ctx.input(|i| i.raw.dropped_files.first().map(|f| Command::Open(f.path().to_path_buf())))
}
