//! `sssp-lab apsp`: many-source shortest paths over several workers (seed 003), with a
//! progress line, a per-worker summary and optional per-source output.

use super::{LoadArgs, load_graph};
use crate::algo::{AlgoChoice, SolveOptions};
use crate::graph::Graph;
use crate::manysource::{self, Event, ManySourceRun, Policy, SourceSet};
use anyhow::{Context, Result, anyhow};
use clap::Args;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

#[derive(Args, Debug)]
pub struct ApspArgs {
    file: PathBuf,
    /// `all`, `K:SEED` (K random sources with an out-arc) or `A..B` (file ids A to B).
    #[arg(long, default_value = "all")]
    sources: SourceSet,
    /// Workers, comma-separated: `cuda:N`, `cuda:N:batch[=K]` (K sources per launch; K chosen
    /// when not given), `wgpu:N`, `cpu-par:T` (one parallel solver), `cpu:K` (K one-thread
    /// solvers). Default: one `cpu` worker per core.
    #[arg(long)]
    workers: Option<String>,
    /// `equitable` (static even split), `stealing` or `stealing:CHUNK` (shared queue).
    #[arg(long, default_value = "stealing")]
    policy: Policy,
    /// Algorithm of the CPU workers; GPU and cpu-par workers run `crauser-succ` when this is
    /// `dijkstra`.
    #[arg(long, short, default_value = "dijkstra")]
    algo: AlgoChoice,
    /// Write one line per source: `source reached eccentricity sum checksum worker start_ms
    /// end_ms` (tab-separated, with a header; source as numbered in the file).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Write every distance row here as it is computed (n × 8 bytes per source; gzip when the
    /// name ends in `.gz`). Format: `src/manysource/rows.rs`, docs/formats.md.
    #[arg(long)]
    rows: Option<PathBuf>,
    /// Build a new solver for every task (as before solvers were restarted): shows what
    /// keeping one solver per GPU worker saves.
    #[arg(long)]
    fresh_solvers: bool,
    /// Draw the run's timeline (one row per worker, one bar per task) as a PNG here.
    #[arg(long)]
    timeline: Option<PathBuf>,
    /// Write the run (per-worker totals and every task) as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
    #[command(flatten)]
    load: LoadArgs,
    #[cfg(feature = "mpi")]
    #[command(flatten)]
    mpi: super::apsp_mpi::MpiArgs,
}

pub fn run(args: &ApspArgs) -> Result<()> {
    #[cfg(feature = "mpi")]
    if args.mpi.mpi {
        let job = super::apsp_mpi::Job {
            file: &args.file,
            load: &args.load,
            sources: &args.sources,
            workers: args.workers.as_deref(),
            algo: &args.algo,
            policy: args.policy,
            fresh_solvers: args.fresh_solvers,
            out: args.out.as_deref(),
            timeline: args.timeline.as_deref(),
            json: args.json.as_deref(),
        };
        return super::apsp_mpi::run(&job, &args.mpi);
    }
    let (graph, load_ms) = load_graph(&args.file, &args.load)?;
    let graph = Arc::new(graph);
    let sources = args.sources.resolve(&graph).map_err(|e| anyhow!(e))?;
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let spec = args.workers.clone().unwrap_or_else(|| format!("cpu:{cores}"));
    let mut workers = manysource::parse_workers(&spec, &args.algo).map_err(|e| anyhow!(e))?;
    workers.iter_mut().for_each(|w| w.fresh_solvers = args.fresh_solvers);
    eprintln!(
        "{}: n={} m={} loaded in {load_ms:.1} ms; {} sources on {} workers ({}), {}",
        graph.name,
        graph.n(),
        graph.m(),
        sources.len(),
        workers.len(),
        spec,
        args.policy
    );
    let total = sources.len();
    let mut done = 0usize;
    let cancel = AtomicBool::new(false);
    let mut writer = match &args.rows {
        Some(p) => Some(
            manysource::rows::RowWriter::create(p, graph.n())
                .with_context(|| format!("{}: cannot create", p.display()))?,
        ),
        None => None,
    };
    let mut write_error: Option<std::io::Error> = None;
    let labels = graph.labels();
    let mut on_event = |ev: &Event| match ev {
        Event::Row { source, dist } => {
            if let (Some(w), None) = (writer.as_mut(), &write_error)
                && let Err(e) = w.write(labels.label(*source), dist)
            {
                // Stop the run: the rows the user asked for can no longer be complete.
                write_error = Some(e);
                cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        Event::Task(_) => {
            done += 1;
            if done == total || done.is_multiple_of(64.max(total / 200)) {
                eprint!("\r[{done}/{total}] {:3.0}%", done as f64 / total.max(1) as f64 * 100.0);
            }
        }
        Event::WorkerFailed { worker, source, error } => {
            eprintln!("\nworker {worker} failed on source {source} (given back to the queue): {error}");
        }
    };
    let solved = manysource::run_with_rows(
        &graph,
        &sources,
        &workers,
        args.policy,
        &SolveOptions::default(),
        args.rows.is_some(),
        &cancel,
        &mut on_event,
    );
    if let (Some(e), Some(p)) = (write_error, &args.rows) {
        return Err(anyhow!("{}: writing the distance rows failed: {e}", p.display()));
    }
    let run = solved?;
    if let (Some(w), Some(p)) = (writer, &args.rows) {
        let n = w.finish().with_context(|| format!("{}: write failed", p.display()))?;
        eprintln!("\n{n} distance rows written to {}", p.display());
    }
    print_summary(&run, 10);
    if let Some(out) = &args.out {
        write_summary_tsv(&graph, &run, out)?;
    }
    if let Some(path) = &args.timeline {
        crate::lab::report::write_timeline_png(&run, &graph.name, path)?;
    }
    if let Some(path) = &args.json {
        let f = std::fs::File::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
        serde_json::to_writer_pretty(BufWriter::new(f), &run)?;
    }
    Ok(())
}

/// Prints the run's makespan line and one line per worker (labels padded to `label_width`);
/// `apsp` and `apsp --mpi` (whose labels carry the rank) print the same.
pub(super) fn print_summary(run: &ManySourceRun, label_width: usize) {
    eprintln!();
    eprintln!(
        "{} ({}): makespan {:.1} ms, {} tasks, checksum {:016x}",
        run.label,
        run.policy,
        run.makespan_ms,
        run.tasks.len(),
        run.checksum
    );
    for w in &run.workers {
        eprintln!(
            "  {:label_width$} {:16} {:6} tasks  busy {:10.1} ms  idle at the end {:8.1} ms{}",
            w.label,
            w.algorithm,
            w.tasks,
            w.busy_ms,
            w.idle_end_ms,
            w.failed.as_ref().map_or(String::new(), |e| format!("  FAILED: {e}"))
        );
    }
}

/// Writes `--out`: a header and one tab-separated line per source, by source (ids as in the
/// file). Errors: the file cannot be created or written.
pub(super) fn write_summary_tsv(graph: &Graph, run: &ManySourceRun, out: &Path) -> Result<()> {
    let f = std::fs::File::create(out).with_context(|| format!("{}: cannot create", out.display()))?;
    let mut w = BufWriter::new(f);
    writeln!(w, "source\treached\teccentricity\tsum\tchecksum\tworker\tstart_ms\tend_ms")?;
    let mut tasks: Vec<&crate::manysource::TaskResult> = run.tasks.iter().collect();
    tasks.sort_by_key(|t| t.source);
    for t in tasks {
        writeln!(
            w,
            "{}\t{}\t{}\t{}\t{:016x}\t{}\t{:.3}\t{:.3}",
            graph.labels().label(t.source),
            t.reached,
            t.eccentricity,
            t.sum,
            t.checksum,
            run.workers[t.worker].label,
            t.start_ms,
            t.end_ms
        )?;
    }
    w.flush().with_context(|| format!("{}: write failed", out.display()))
}
