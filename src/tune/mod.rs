//! The auto-tuner (issue 14, item 5): from a graph's statistics and the device, predict the
//! block size of each kernel (and Δ for Δ-stepping), say why, and check the prediction against
//! a sweep of the alternatives.
//!
//! Data path: [`Graph`](crate::graph::Graph) → [`graph_stats`] (O(n + m): degrees, a
//! double-sweep hop diameter, weights) → [`predict`] (a documented rule set, [`rules`]) →
//! [`Prediction`] (block sizes, Δ, reasons) → optionally [`sweep`] (times every candidate
//! through [`crate::device::make_stepper`] as the lab does) → [`TuneCheck`] (best, predicted,
//! ratio, within 5 %). [`batch::run_set`] does it for every graph × algorithm of a [`CheckSet`]
//! (an experiment file's, from `crate::lab::Experiment::check_set`: the tuner sits below the lab) and [`report`] writes `tune.json` and `README.md`. `sssp-lab tune` and the run panel's
//! Tune button drive it; `docs/tune.md` explains the rules.

pub mod batch;
pub mod check;
pub mod report;
pub mod rules;
pub mod stats;

pub use batch::{CheckSet, SetEvent, SetGraph, SetOptions, TuneCase, TuneReport, run_set};
pub use check::{BLOCKS, Candidate, SweepOptions, Timing, TuneCheck, candidates, sweep};
pub use rules::{ASSUMED_UNITS, DeviceKind, DeviceShape, Prediction, predict, with_delta};
pub use stats::{GraphStats, default_start, graph_stats};
