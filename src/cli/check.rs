//! `sssp-lab check`: every algorithm of the registry × each parameter value worth testing
//! ([`crate::algo::Algorithm::test_params`]) × every available device × a set of graphs and
//! sources, compared vertex by vertex with CPU Dijkstra. Exit status non-zero on any mismatch or
//! error, except for inexact choices (the non-atomic relax, `racy`), whose wrong answers are the
//! point (seed 004 §4.3, see docs/references.md) and are reported apart.
//!
//! Built to finish while a user waits (issue 32: ≤ 3 minutes on an H100 machine): one thread
//! per device runs that device's cells, smallest graphs first so the slowest graph–algorithm
//! pairs come last; graphs over [`LARGE`] vertices are checked from fewer sources, and a cell
//! stops taking sources once it has run for `--cell-budget` seconds (the first always runs); the
//! hybrid splits and the non-atomic relax, whose per-iteration cost is minutes on NY, are
//! checked on the smaller graphs only, and a solve past `--cell-limit` is cancelled. `cpu-par`
//! gets the cores the other device threads leave. A progress line says what is being done. A cell the device does not support, or whose
//! graph does not fit it, is `SKIPPED` with the reason, never an `ERROR`.

use super::LoadArgs;
use crate::algo::{AlgoChoice, Algorithm, SolveOptions, reference_distances};
use crate::device::{DeviceId, DeviceInfo, devices, make_stepper};
use crate::generate::GeneratorSpec;
use crate::graph::{Distance, Graph, VertexId};
use anyhow::{Result, anyhow, bail};
use clap::Args;
use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// Graphs with more vertices than this are checked from `--large-sources` sources.
pub const LARGE: usize = 100_000;

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Devices to check (default: every available one).
    #[arg(long = "device", short)]
    devices: Vec<DeviceId>,
    /// Extra graph files to include.
    #[arg(long = "file", short)]
    files: Vec<PathBuf>,
    /// Leave out the bundled NY road network (the slowest graph for Martín).
    #[arg(long)]
    no_bundled: bool,
    /// Sources per graph (vertex 0, the last vertex, and pseudo-random ones).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    sources: u32,
    /// Sources per graph over 100 000 vertices (the bundled NY): its cells are the slowest.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    large_sources: u32,
    /// Seconds after which a cell takes no further sources (its first source always runs).
    #[arg(long, default_value_t = 5.0)]
    cell_budget: f64,
    /// Seconds after which a solve is cancelled and its cell reported as SKIPPED (time limit),
    /// so one pathological cell cannot hold the check (solvers that report progress only).
    #[arg(long, default_value_t = 60.0)]
    cell_limit: f64,
    /// Block size of every kernel.
    #[arg(long, default_value_t = 256)]
    block: u32,
    /// Run nothing: print `DEVICE<TAB>ALGORITHM<TAB>exact|inexact` for every algorithm option
    /// the devices run (what `scripts/sanitize.sh` loops over).
    #[arg(long)]
    list: bool,
    #[command(flatten)]
    load: LoadArgs,
}

/// Graphs of the default check: generated families plus the bundled NY road network.
fn graphs(args: &CheckArgs) -> Result<Vec<Arc<Graph>>> {
    let mut specs = vec![
        GeneratorSpec::Teaching,
        GeneratorSpec::Counterexample { n: 1024 },
        GeneratorSpec::Grid { width: 64, height: 48, max_weight: 10, seed: 1 },
        GeneratorSpec::Fanout { n: 24_576, d: 2, max_weight: 100, seed: 1 },
        GeneratorSpec::Fanout { n: 4096, d: 50, max_weight: 100, seed: 2 },
        GeneratorSpec::Martin { n: 1 << 14, seed: 3 },
        GeneratorSpec::Rmat { scale: 14, edge_factor: 16, a: 0.45, b: 0.15, c: 0.15, max_weight: 255, seed: 4 },
    ]
    .into_iter()
    .map(|s| s.generate().map(Arc::new).map_err(|e| anyhow!("{s}: {e}")))
    .collect::<Result<Vec<_>>>()?;
    if !args.no_bundled {
        let (g, _) = super::load_graph(&crate::formats::bundled_graph_path(), &LoadArgs::default())?;
        specs.push(Arc::new(g));
    }
    for f in &args.files {
        let (g, _) = super::load_graph(f, &args.load)?;
        specs.push(Arc::new(g));
    }
    Ok(specs)
}

fn sources(n: usize, k: usize) -> Vec<VertexId> {
    let mut s: Vec<VertexId> = vec![0, (n - 1) as VertexId];
    let mut x = 0x9E37_79B9_u64;
    while s.len() < k.max(1) {
        x = crate::graph::mix_seed(x, s.len() as u64);
        s.push((x % n as u64) as VertexId);
    }
    s.truncate(k.max(1));
    s.dedup();
    s
}

/// One graph with its sources and their reference distances (`Err`: a negative cycle).
struct Checked {
    graph: Arc<Graph>,
    sources: Vec<VertexId>,
    oracle: Vec<Result<Vec<Distance>, String>>,
}

/// One cell: a graph, an algorithm choice, and what came of it on one device.
struct Cell {
    graph: usize,
    choice: AlgoChoice,
}

/// What a device thread sends back for one cell.
struct Outcome {
    device: String,
    choice: AlgoChoice,
    graph: usize,
    sources_run: usize,
    verdict: Verdict,
}

enum Verdict {
    Ok { cycles: usize },
    Mismatches(usize),
    Error(String),
    Skipped(String),
}

/// Runs the check and prints the table.
pub fn run(args: &CheckArgs) -> Result<()> {
    let all = devices();
    for d in all {
        match &d.status {
            Ok(()) => eprintln!("device  {} [{}]", d.name, d.id),
            Err(why) => eprintln!("device  {} [{}] skipped: {why}", d.name, d.id),
        }
    }
    let chosen: Vec<&DeviceInfo> = if args.devices.is_empty() {
        all.iter().filter(|d| d.status.is_ok()).collect()
    } else {
        args.devices
            .iter()
            .map(|id| {
                let d = all.iter().find(|d| d.id == *id).ok_or_else(|| anyhow!("no device {id}"))?;
                d.status.as_ref().map_err(|why| anyhow!("{}: {why}", d.name))?;
                Ok(d)
            })
            .collect::<Result<_>>()?
    };
    if args.list {
        for dev in &chosen {
            for a in Algorithm::all() {
                for params in a.test_params() {
                    let choice = AlgoChoice { algorithm: *a, params };
                    if dev.supports(choice.algorithm, &SolveOptions::for_choice(&choice)).is_ok() {
                        let exact = if choice.exact() { "exact" } else { "inexact" };
                        println!("{}\t{choice}\t{exact}", dev.id);
                    }
                }
            }
        }
        return Ok(());
    }
    let started = Instant::now();
    let checked: Vec<Checked> = {
        use rayon::prelude::*;
        let graphs = graphs(args)?;
        graphs
            .into_par_iter()
            .map(|graph| {
                let k = if graph.n() > LARGE { args.large_sources } else { args.sources };
                let sources = sources(graph.n(), k as usize);
                let oracle = sources.iter().map(|&s| reference_distances(&graph, s)).collect();
                Checked { graph, sources, oracle }
            })
            .collect()
    };
    // Smallest graphs first: the slowest graph–algorithm pairs (NY) come last on every device.
    let mut order: Vec<usize> = (0..checked.len()).collect();
    order.sort_by_key(|&i| checked[i].graph.m() + checked[i].graph.n());
    let cells: Vec<Cell> = order
        .iter()
        .flat_map(|&graph| {
            Algorithm::all().iter().flat_map(move |&a| {
                a.test_params()
                    .into_iter()
                    .map(move |params| Cell { graph, choice: AlgoChoice { algorithm: a, params } })
            })
        })
        .collect();
    let total = cells.len() * chosen.len();
    eprintln!(
        "{} graphs ({} sources each, {} on graphs over {LARGE} vertices), {} cells on {} devices in parallel; \
         prepared in {:.1} s",
        checked.len(),
        args.sources,
        args.large_sources,
        total,
        chosen.len(),
        started.elapsed().as_secs_f64()
    );
    let block = crate::algo::BlockSizes::uniform(args.block);
    let limits = Limits {
        budget: Duration::from_secs_f64(args.cell_budget.max(0.0)),
        limit: Duration::from_secs_f64(args.cell_limit.max(0.1)),
    };
    // The other device threads need a core each: `cpu-par` takes the rest, not every core,
    // because its barrier-bound schemes slow down many times over on oversubscribed cores.
    let cores = std::thread::available_parallelism().map_or(2, |c| c.get());
    let par_threads = cores.saturating_sub(chosen.len().saturating_sub(1)).max(2) as u32;
    let several = chosen.len() > 1;
    let (tx, rx) = mpsc::channel::<Outcome>();
    let mut tally = Tally::default();
    println!("{:<14} {:<40} {:<46} {:>8}  result", "algorithm", "device", "graph", "sources");
    std::thread::scope(|scope| {
        for &dev in &chosen {
            let (tx, cells, checked) = (tx.clone(), &cells, &checked);
            scope.spawn(move || {
                let (id, name) = match dev.id {
                    DeviceId::CpuParallel(0) if several => {
                        (DeviceId::CpuParallel(par_threads), format!("CPU ({par_threads} threads)"))
                    }
                    id => (id, dev.name.clone()),
                };
                for cell in cells {
                    let (verdict, sources_run) = run_cell(dev, id, &checked[cell.graph], &cell.choice, block, limits);
                    let out = Outcome {
                        device: name.clone(),
                        choice: cell.choice.clone(),
                        graph: cell.graph,
                        sources_run,
                        verdict,
                    };
                    if tx.send(out).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut line = Progress::new(total, started);
        for out in rx {
            line.clear();
            tally.print(&out, &checked);
            line.show(tally.done, &format!("{} · {} · {}", out.device, out.choice, checked[out.graph].graph.name));
        }
        line.clear();
    });
    tally.summary(started.elapsed().as_secs_f64())
}

/// How long a cell may take: `budget` before it takes no further source, `limit` before its
/// solve is cancelled.
#[derive(Clone, Copy)]
struct Limits {
    budget: Duration,
    limit: Duration,
}

/// Runs one cell on one device (`id`: the device's id, or `cpu-par:T` with the threads left to
/// it): every source of the graph until the budget is spent. Returns the verdict and the number
/// of sources run.
fn run_cell(
    dev: &DeviceInfo,
    id: DeviceId,
    c: &Checked,
    choice: &AlgoChoice,
    block: crate::algo::BlockSizes,
    limits: Limits,
) -> (Verdict, usize) {
    let (algo, opts) = (choice.algorithm, SolveOptions { block, ..SolveOptions::for_choice(choice) });
    let graph = &c.graph;
    if let Err(why) = dev.supports(algo, &opts) {
        return (Verdict::Skipped(format!("not supported: {why}")), 0);
    }
    if let Err(why) = dev.fits(graph, algo, &opts) {
        return (Verdict::Skipped(format!("does not fit: {why}")), 0);
    }
    if let Err(why) = crate::algo::check_weights(graph, algo) {
        return (Verdict::Skipped(format!("not supported: {why}")), 0);
    }
    // The non-atomic relax has no fast path: 227 575 launches on NY prove nothing the
    // counterexample does not.
    if !choice.exact() && graph.n() > LARGE {
        return (Verdict::Skipped("the non-atomic relax is shown on the counterexample, too slow here".into()), 0);
    }
    // The hybrids run the minimum or update phase on the CPU and copy δ over the bus every
    // iteration: O(n) host work × NY's ~75 000 Martín iterations is minutes. The seven smaller
    // graphs check the same code.
    let hybrid = matches!(choice.algorithm.spec().family, crate::algo::Family::Frontier { .. })
        && crate::algo::FrontierParams::or_defaults(choice.algorithm, &choice.params).split
            != crate::algo::HybridSplit::Gpu;
    if hybrid && graph.n() > LARGE {
        return (
            Verdict::Skipped(
                "hybrid split: CPU phases and bus copies every iteration, checked on the smaller graphs".into(),
            ),
            0,
        );
    }
    let started = Instant::now();
    let (mut mismatches, mut cycles, mut ran) = (0usize, 0usize, 0usize);
    for (s, want) in c.sources.iter().zip(&c.oracle) {
        if ran > 0 && started.elapsed() >= limits.budget {
            break;
        }
        ran += 1;
        match (solve(id, graph, algo, *s, &opts, limits.limit), want) {
            (Err(e), _)
                if e.downcast_ref::<crate::algo::SolveError>()
                    .is_some_and(|e| matches!(e, crate::algo::SolveError::Cancelled)) =>
            {
                return (
                    Verdict::Skipped(format!(
                        "time limit: cancelled after {:.0} s (--cell-limit)",
                        limits.limit.as_secs_f64()
                    )),
                    ran,
                );
            }
            (Ok(got), Ok(want)) => mismatches += got.iter().zip(want).filter(|(a, b)| a != b).count(),
            // A negative cycle: the solver must say so, not return distances.
            (Err(_), Err(_)) => cycles += 1,
            (Ok(_), Err(cycle)) => {
                return (Verdict::Error(format!("returned distances, but the reference found a {cycle}")), ran);
            }
            (Err(e), Ok(_)) => return (Verdict::Error(format!("{e:#}")), ran),
        }
    }
    (if mismatches > 0 { Verdict::Mismatches(mismatches) } else { Verdict::Ok { cycles } }, ran)
}

/// Counts of what the cells gave, and the printing of each.
#[derive(Default)]
struct Tally {
    done: usize,
    ok: usize,
    skipped: usize,
    failures: usize,
    racy_wrong: usize,
}

impl Tally {
    fn print(&mut self, o: &Outcome, checked: &[Checked]) {
        self.done += 1;
        let c = &checked[o.graph];
        let verdict = match &o.verdict {
            Verdict::Ok { cycles: 0 } => "ok".to_string(),
            Verdict::Ok { cycles } => format!("ok ({cycles} negative cycles reported)"),
            Verdict::Mismatches(k) => format!("{k} mismatches"),
            Verdict::Error(e) => format!("ERROR {e}"),
            Verdict::Skipped(why) => format!("SKIPPED {why}"),
        };
        match (&o.verdict, o.choice.exact()) {
            (Verdict::Ok { .. }, _) => self.ok += 1,
            (Verdict::Skipped(_), _) => self.skipped += 1,
            (_, false) => self.racy_wrong += 1,
            (_, true) => self.failures += 1,
        }
        let sources = match o.verdict {
            Verdict::Skipped(_) => "–".to_string(),
            _ if o.sources_run < c.sources.len() => format!("{}/{}", o.sources_run, c.sources.len()),
            _ => o.sources_run.to_string(),
        };
        let name: String = c.graph.name.chars().take(46).collect();
        println!("{:<14} {:<40} {:<46} {:>8}  {verdict}", o.choice.to_string(), o.device, name, sources);
    }

    fn summary(&self, wall_s: f64) -> Result<()> {
        println!(
            "{} cells in {wall_s:.1} s: {} ok, {} skipped, {} failed{}",
            self.done,
            self.ok,
            self.skipped,
            self.failures,
            if self.racy_wrong > 0 { format!(", {} racy wrong", self.racy_wrong) } else { String::new() }
        );
        if self.racy_wrong > 0 {
            println!(
                "non-atomic relax (racy): wrong on {} graph/device pairs (expected on GPUs: no atomics, seed 004 §4.3)",
                self.racy_wrong
            );
        }
        if self.failures > 0 {
            bail!("{} algorithm/device/graph combinations gave wrong distances or failed", self.failures);
        }
        println!("check passed");
        Ok(())
    }
}

/// The progress line on stderr: `\r` on a terminal (at most 5 a second), a line every 10 s in a log.
struct Progress {
    total: usize,
    started: Instant,
    tty: bool,
    shown: Instant,
    width: usize,
}

impl Progress {
    fn new(total: usize, started: Instant) -> Self {
        let tty = std::io::stderr().is_terminal();
        let shown = Instant::now().checked_sub(Duration::from_secs(60)).unwrap_or(started);
        Progress { total, started, tty, shown, width: 0 }
    }

    fn show(&mut self, done: usize, current: &str) {
        let every = Duration::from_millis(if self.tty { 200 } else { 10_000 });
        if self.shown.elapsed() < every && done < self.total {
            return;
        }
        self.shown = Instant::now();
        let line = format!("[{done}/{}] {:.0} s, last: {current}", self.total, self.started.elapsed().as_secs_f64());
        let line: String = line.chars().take(110).collect();
        let mut err = std::io::stderr();
        if self.tty {
            self.width = line.chars().count();
            let _ = write!(err, "\r{line}");
        } else {
            let _ = writeln!(err, "{line}");
        }
        let _ = err.flush();
    }

    fn clear(&mut self) {
        if self.tty && self.width > 0 {
            let _ = write!(std::io::stderr(), "\r{}\r", " ".repeat(self.width));
            self.width = 0;
        }
    }
}

/// One solve to the end, cancelled once it has run for `limit` (checked whenever the solver
/// reports progress).
fn solve(
    device: DeviceId,
    graph: &Arc<Graph>,
    algo: Algorithm,
    source: VertexId,
    opts: &SolveOptions,
    limit: Duration,
) -> Result<Vec<crate::graph::Distance>> {
    let mut st = make_stepper(device, Arc::clone(graph), algo, source, opts)?;
    let (cancel, started) = (AtomicBool::new(false), Instant::now());
    st.run_to_end(&cancel, &mut |_| {
        if started.elapsed() >= limit {
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    })?;
    Ok(st.distances()?)
}
