//! The benchmark lab, the project's one benchmark engine: experiment files, a background runner
//! that streams one row per run, Boost's Dijkstra as a baseline device, results and reports.
//! `sssp-lab bench EXPERIMENT` / `sssp-lab report` ([`crate::cli`]) and the app's Bench view
//! drive it.
//!
//! Data path: `experiments/*.json` → [`Experiment`] → [`plan`] (graphs × sources × cells) →
//! [`LabRun`] (a [`crate::jobs::Job`] streaming [`LabEvent`]s) → [`LabResult`] rows →
//! `results.csv`, `results.json`, `report.md` and plots ([`output`], [`report`]) or the Bench view.
//!
//! The modules are layered; each imports only modules of earlier layers, or to its left in its
//! own (checked with
//! `grep -rn "use super::\|crate::lab" src/lab`):
//!
//! 1. leaves that know nothing of experiments: `serde_str` (ids as strings), [`memory`] (peak
//!    RSS), [`boost`] (the Boost harness as a subprocess);
//! 2. data: [`graphs`] (graph entries and their expansion) → [`experiment`] (the file);
//! 3. [`result`] (rows, the run's record, the events a run streams) and [`plan`] (graphs,
//!    sources, cells, and what the lab needs of a device: name, algorithms, threads);
//! 4. the worker (measures and checks every run of a cell; solver devices through
//!    `make_stepper`, Boost through its harness) → `many` (many-source experiments: every
//!    configuration through [`crate::manysource::run`], on the worker's job) → [`runner`]
//!    ([`start_run`], [`run_blocking`]);
//! 5. [`report`] (`report.md`, plots, many-source timelines) → [`output`] (writes a run's
//!    files, redraws reports).

pub mod boost;
pub mod experiment;
pub mod graphs;
mod many;
pub mod memory;
pub mod output;
pub mod plan;
pub mod report;
pub mod result;
pub mod runner;
mod serde_str;
mod worker;

pub use experiment::{
    Baseline, BlockSpec, Experiment, ExperimentKind, LabDevice, ManyConfig, ManySourceSpec, SourceSpec,
};
pub use graphs::GraphEntry;
pub use output::{failed_cells, merge_results, regenerate_report, write_outputs};
pub use result::{
    DeviceLine, LabEvent, LabOutcome, LabProgress, LabResult, LabResults, ManyRow, outcome_text, today_utc,
};
pub use runner::{LabRun, device_lines, run_blocking, start_run};
