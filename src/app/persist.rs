//! What the app remembers between launches (eframe's storage, a RON file in the platform's data
//! folder, e.g. `~/.local/share/sssp-lab/app.ron`): the settings (algorithm, device, block
//! sizes, weight rule, generator, speed), the last graph (file path or generator spec), the
//! source, the tab, the many-sources form and the bench lab's experiment; egui's own memory
//! (panel sizes, collapsed sections) is kept by eframe beside it.
//!
//! Scripted runs (any `SSSP_LAB_*` hook: screenshots, demos) and `SSSP_LAB_FRESH=1` neither read
//! nor write it, so that they start from the same defaults every time. A graph file that has
//! gone since the last launch falls back to the bundled graph with a banner; a stored value
//! that no longer parses (an older or newer layout) is ignored as a whole.

use super::panels::Tab;
use super::state::Settings;
use crate::generate::GeneratorSpec;
use crate::lab::Experiment;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The storage key (bump the suffix when the layout changes incompatibly).
pub const KEY: &str = "sssp-lab/v1";

/// Hooks that make a launch scripted (and so not persistent).
const HOOKS: [&str; 7] = [
    "SSSP_LAB_FRESH",
    "SSSP_LAB_OPEN",
    "SSSP_LAB_DEMO",
    "SSSP_LAB_BENCH",
    "SSSP_LAB_MANY",
    "SSSP_LAB_READY_FILE",
    "SSSP_LAB_FRAME_LOG",
];

/// Whether this launch reads and writes the stored state (no scripting hook is set).
pub fn enabled() -> bool {
    HOOKS.iter().all(|h| std::env::var_os(h).is_none())
}

/// Where the last graph came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SavedGraph {
    /// A file, loaded with the saved settings' weight rule and format.
    File(PathBuf),
    /// A generated graph, generated again.
    Generated(GeneratorSpec),
}

/// Everything remembered (see the module docs).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Saved {
    pub settings: Settings,
    pub graph: Option<SavedGraph>,
    /// The source as typed (the file's id).
    pub source: String,
    pub tab: Tab,
    /// The many-sources form: sources, workers, CPU algorithm, policies, chunk.
    pub many_sources: String,
    pub many_workers: String,
    pub many_algorithm: String,
    pub many_policies: super::many_view::Policies,
    pub many_chunk: usize,
    /// The bench lab's experiment and the folder its relative paths are resolved against.
    pub bench: Option<(Experiment, PathBuf)>,
}
