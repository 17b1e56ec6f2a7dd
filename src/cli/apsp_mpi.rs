//! `sssp-lab apsp … --mpi`, started by `mpirun` (docs/mpi.md): the many-source run across MPI
//! ranks ([`crate::manysource::cluster`]). Every rank loads FILE and runs its `--workers`;
//! rank 0 prints the same summary as the one-process `apsp` (with the checksum, equal to the
//! one-process run's) plus the traffic, and writes `--out` / `--json`. The other ranks print
//! nothing but their own errors.

use super::{LoadArgs, load_graph};
use crate::algo::{AlgoChoice, SolveOptions};
use crate::manysource::cluster::{Cluster, MpiError, MpiOptions, RankSetup, run_mpi};
use crate::manysource::{self, Policy, SourceSet};
use anyhow::{Context, Result, anyhow};
use clap::Args;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

/// The `--mpi` flags of `sssp-lab apsp` (flattened into its arguments).
#[derive(Args, Debug, Clone, Default)]
pub struct MpiArgs {
    /// Run across MPI ranks: start with `mpirun -np R sssp-lab apsp FILE … --mpi`; every rank
    /// loads FILE and runs --workers (default: one cpu worker per core the rank may use), rank 0
    /// also hands out chunks of sources and gathers the results (docs/mpi.md).
    #[arg(long, conflicts_with = "rows")]
    pub mpi: bool,
    /// With --mpi: sources a rank takes per request (default: 4 × that rank's workers).
    #[arg(long, value_name = "N", requires = "mpi", value_parser = clap::value_parser!(u32).range(1..))]
    pub mpi_chunk: Option<u32>,
    /// With --mpi: rank 0 only coordinates (hands out chunks, gathers results) and runs no
    /// workers itself.
    #[arg(long, requires = "mpi")]
    pub mpi_coordinator_only: bool,
}

/// What `apsp` parsed, handed over by `apsp::run` when `--mpi` is given.
pub struct Job<'a> {
    /// Graph file; every rank loads it (a path every node can read).
    pub file: &'a Path,
    /// How to read it.
    pub load: &'a LoadArgs,
    /// Sources (resolved on rank 0).
    pub sources: &'a SourceSet,
    /// `--workers` of every rank; `None`: `cpu:<cores this rank may use>`.
    pub workers: Option<&'a str>,
    /// Algorithm of the CPU workers.
    pub algo: &'a AlgoChoice,
    /// Policy among a rank's workers within a chunk.
    pub policy: Policy,
    /// `--fresh-solvers`: a new solver per task (by default a worker keeps its solver for the
    /// tasks of a chunk; a new chunk starts new solvers).
    pub fresh_solvers: bool,
    /// `--out` (rank 0 writes it).
    pub out: Option<&'a Path>,
    /// `--timeline` (rank 0 draws it: one row per worker of every rank).
    pub timeline: Option<&'a Path>,
    /// `--json` (rank 0 writes it: the run plus an `mpi` object with per-rank totals and traffic).
    pub json: Option<&'a Path>,
}

/// Runs the job on this rank (every rank of the `mpirun` job calls it).
///
/// Errors: MPI already initialized; on rank 0, whatever stopped the run (a rank that could not
/// load FILE, ranks with different graphs, bad sources, every rank failed) or an output file
/// that cannot be written; on another rank, only its own failure. A rank stopped because of
/// another rank's failure exits quietly (rank 0 prints why, and exits non-zero, so `mpirun`
/// does too).
pub fn run(job: &Job<'_>, args: &MpiArgs) -> Result<()> {
    let cluster = Cluster::init()?;
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let spec = job.workers.map_or_else(|| format!("cpu:{cores}"), str::to_string);
    let setup = load_graph(job.file, job.load).and_then(|(graph, load_ms)| {
        let mut workers = manysource::parse_workers(&spec, job.algo).map_err(|e| anyhow!(e))?;
        workers.iter_mut().for_each(|w| w.fresh_solvers = job.fresh_solvers);
        Ok(RankSetup { graph: Arc::new(graph), workers, load_ms })
    });
    let setup = setup.map_err(|e| format!("{e:#}"));
    let options = MpiOptions {
        chunk: args.mpi_chunk.map(|c| c as usize),
        policy: job.policy,
        solve: SolveOptions::default(),
        root_works: !args.mpi_coordinator_only,
        ..MpiOptions::default()
    };
    // Rank 0's graph, kept for the summary line and the `--out` ids.
    let graph = setup.as_ref().ok().map(|s| Arc::clone(&s.graph));
    let load_ms = setup.as_ref().map_or(0.0, |s| s.load_ms);
    let picked = std::cell::Cell::new(0usize);
    let sources = |g: &crate::graph::Graph| {
        let s = job.sources.resolve(g)?;
        picked.set(s.len());
        eprintln!(
            "{}: n={} m={} loaded in {load_ms:.1} ms on rank 0; {} sources on {} ranks, workers {spec} per rank, \
             {} within a rank",
            g.name,
            g.n(),
            g.m(),
            s.len(),
            cluster.size(),
            job.policy
        );
        Ok(s)
    };
    let mut done = 0usize;
    let mut on_task = |_: &manysource::TaskResult| {
        done += 1;
        let total = picked.get();
        if done == total || done.is_multiple_of(64.max(total / 200)) {
            eprint!("\r[{done}/{total}] {:3.0}%", done as f64 / total.max(1) as f64 * 100.0);
        }
    };
    let result = match run_mpi(&cluster, setup, &sources, &options, &mut on_task) {
        Ok(r) => r,
        // Rank 0 says why; this rank has nothing to add.
        Err(MpiError::Stopped(_)) => return Ok(()),
        // Rank 0 gave this rank's tasks to the others; a non-zero exit would make mpirun end
        // every rank.
        Err(MpiError::RankStopped(e)) => {
            eprintln!("{e}; its tasks went back to rank 0's queue");
            return Ok(());
        }
        Err(e) => return Err(e.into()),
    };
    let (Some(result), Some(graph)) = (result, graph) else { return Ok(()) };
    let run = &result.run;
    super::apsp::print_summary(run, 14);
    for r in &result.mpi.per_rank {
        if let Some(e) = &r.failed {
            eprintln!("  rank {} ({}) stopped during the run: {e}", r.rank, r.host);
        }
    }
    let t = &result.mpi.traffic;
    let chunks: usize = result.mpi.per_rank.iter().map(|r| r.chunks).sum();
    let wait: f64 = result.mpi.per_rank.iter().map(|r| r.reply_wait_ms).sum();
    eprintln!(
        "mpi: {} ranks, {chunks} chunks, {} messages, {} bytes ({:.1} per remote task, {:.1} in the run), reply wait \
         {wait:.1} ms in all",
        result.mpi.ranks, t.messages, t.total_bytes, t.bytes_per_remote_task, t.run_bytes_per_remote_task
    );
    if let Some(out) = job.out {
        super::apsp::write_summary_tsv(&graph, run, out)?;
    }
    if let Some(path) = job.timeline {
        crate::lab::report::write_timeline_png(run, &graph.name, path)?;
    }
    if let Some(path) = job.json {
        let f = std::fs::File::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
        let mut w = BufWriter::new(f);
        serde_json::to_writer_pretty(&mut w, &result)?;
        w.flush().with_context(|| format!("{}: write failed", path.display()))?;
    }
    Ok(())
}
