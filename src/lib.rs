//! sssp-lab core: graphs, file formats, generators, SSSP solvers as steppers, devices, traces
//! and benchmarks. Knows nothing of the GUI (`app`), which sits on top.

pub mod algo;
pub mod app;
pub mod assets;
pub mod cli;
pub mod device;
pub mod formats;
pub mod generate;
pub mod graph;
pub mod jobs;
pub mod lab;
pub mod manysource;
pub mod trace;
pub mod tune;
