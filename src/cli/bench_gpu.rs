//! `sssp-lab bench-gpu`: seed 000 Table 2's sweep (random fan-out graphs, plus NY and R-MAT)
//! on the given devices, written as JSON and markdown (see [`crate::bench`]; the paper is
//! docs/references.md `[seed000]`).

use crate::algo::{Algorithm, BlockSizes};
use crate::bench::{BenchOptions, markdown, seed000_table2};
use crate::device::DeviceId;
use anyhow::{Result, bail};
use clap::Args;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct BenchGpuArgs {
    /// Devices, comma-separated (e.g. cuda:0,cpu or wgpu:0,cpu).
    #[arg(long, value_delimiter = ',', default_value = "cuda:0,cpu")]
    devices: Vec<DeviceId>,
    /// Directory for `<stem>.json` and `<stem>.md`.
    #[arg(long, default_value = "bench/results")]
    out: PathBuf,
    #[arg(long, default_value = "table2")]
    stem: String,
    /// Random sources per graph (the paper averages over ≥ 10).
    #[arg(long, default_value_t = 10)]
    sources: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fan-out sizes n.
    #[arg(long, value_delimiter = ',', default_value = "24576,49152,98304")]
    sizes: Vec<usize>,
    /// Fan-out degrees d.
    #[arg(long, value_delimiter = ',', default_value = "2,20,200,1000,2000")]
    degrees: Vec<usize>,
    /// R-MAT scales (edge factor 16).
    #[arg(long, value_delimiter = ',', default_value = "20,21")]
    rmat: Vec<u32>,
    /// Leave out the NY road network.
    #[arg(long)]
    no_ny: bool,
    /// Algorithms (default: Martín and Crauser, both variants).
    #[arg(long, value_delimiter = ',')]
    algorithms: Vec<Algorithm>,
    /// Block sizes relax,minimum,update.
    #[arg(long, value_delimiter = ',', default_value = "256,256,256")]
    block: Vec<u32>,
    /// A CPU cell stops adding sources after this many seconds.
    #[arg(long, default_value_t = 4.0)]
    cpu_budget: f64,
    /// A GPU cell stops adding sources after this many seconds.
    #[arg(long, default_value_t = 4.0)]
    gpu_budget: f64,
    /// Free text recorded in the report (GPU, driver).
    #[arg(long, default_value = "")]
    notes: String,
}

/// Runs the sweep and prints the markdown report.
pub fn run(args: &BenchGpuArgs) -> Result<()> {
    let &[relax, minimum, update] = args.block.as_slice() else {
        bail!("--block takes three sizes: relax,minimum,update");
    };
    let defaults = BenchOptions::default();
    let opts = BenchOptions {
        sources: args.sources,
        seed: args.seed,
        sizes: args.sizes.clone(),
        degrees: args.degrees.clone(),
        ny: if args.no_ny { None } else { Some(crate::app::bundled_graph_path()) },
        rmat_scales: args.rmat.clone(),
        algorithms: if args.algorithms.is_empty() { defaults.algorithms.clone() } else { args.algorithms.clone() },
        block: BlockSizes { relax, minimum, update },
        cpu_budget_s: args.cpu_budget,
        gpu_budget_s: args.gpu_budget,
        out_dir: Some(args.out.clone()),
        file_stem: args.stem.clone(),
        command: std::env::args().collect::<Vec<_>>().join(" "),
        notes: args.notes.clone(),
        ..defaults
    };
    let report = seed000_table2(&args.devices, &opts, &mut |line| eprintln!("{line}"))?;
    println!("{}", markdown(&report));
    Ok(())
}
