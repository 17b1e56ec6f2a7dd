//! The command line: `solve`, `info`, `gen`, `check`, `bench`, `apsp`, `report`, `tune`, and the app
//! when no subcommand is given.
//! Errors print as `error: path:line: what` and exit non-zero.

use crate::algo::{AlgoChoice, BlockSizes, CachePreference, SolveOptions, fmt_distance};
use crate::device::{DeviceId, devices, make_stepper};
use crate::formats::{self, Format, LoadOptions};
use crate::generate::GeneratorSpec;
use crate::graph::{Graph, INF, VertexId, WeightRule};
use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, Parser, Subcommand};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

mod apsp;
#[cfg(feature = "mpi")]
mod apsp_mpi;
pub mod bench;
mod check;
mod tune;

#[derive(Parser, Debug)]
#[command(name = "sssp-lab", version, about = "Teach, debug and tune parallel single-source shortest paths")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Open the app (the default), optionally on FILE instead of the bundled NY road network.
    Gui {
        file: Option<PathBuf>,
        #[command(flatten)]
        load: LoadArgs,
    },
    /// Solve SSSP from one source; write `<id> <distance|inf>` per vertex.
    Solve(SolveArgs),
    /// Print a graph's size, degree and weight statistics (no FILE: the bundled NY road network,
    /// which the binary carries).
    Info {
        file: Option<PathBuf>,
        #[command(flatten)]
        load: LoadArgs,
    },
    /// Generate a graph and write it as DIMACS `.gr` (plus `.co` when it has coordinates).
    Gen {
        #[command(subcommand)]
        family: GenFamily,
        /// Output file (`.gr` or `.gr.gz`).
        #[arg(long, short, global = true)]
        out: Option<PathBuf>,
    },
    /// Run every algorithm on every available device against CPU Dijkstra; non-zero on a
    /// mismatch (`racy` is reported separately and never fails the check).
    Check(check::CheckArgs),
    /// Run an experiment file (a sweep or a kernel characterization); write results.csv,
    /// results.json, report.md and plots/*.png to DIR (default bench/results/<experiment name>/).
    Bench {
        experiment: PathBuf,
        #[arg(long, short)]
        out: Option<PathBuf>,
        #[command(flatten)]
        overrides: bench::Overrides,
    },
    /// Many-source shortest paths (seed 003): one task per source over several workers (GPUs,
    /// CPU threads) under the equitable or work-stealing policy; per-source summaries and a
    /// checksum, never n² distances in memory.
    Apsp(apsp::ApspArgs),
    /// Predict block sizes per kernel (and delta for delta-stepping) from a graph's statistics
    /// and the device, with the reasons; --check also sweeps the alternatives; --check-set FILE
    /// --out DIR does it for every graph x algorithm of an experiment file (docs/tune.md).
    Tune(Box<tune::TuneArgs>),
    /// Regenerate report.md and plots/*.png from a results.json without running anything (e.g.
    /// results brought back from a GPU machine).
    Report {
        /// results.json files written by `sssp-lab bench`; several are one run done in parts
        /// (later files' cells replace the same cells of earlier ones).
        #[arg(required = true)]
        results: Vec<PathBuf>,
        /// Output folder (default: the folder of RESULTS, whose results.json is then left as is;
        /// another folder also gets results.csv and results.json).
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
}

/// How to read an input file.
#[derive(Args, Debug, Clone, Default)]
pub struct LoadArgs {
    /// Format (dimacs, metis, mtx, el, wel; dimacs-arcs for a headerless 0-based `a U V W` list,
    /// el-count for an edge list whose first line is the vertex count); default: from the extension.
    #[arg(long)]
    format: Option<Format>,
    /// Weight rule: `file` (unweighted files get 1), `unit`, or `uniform:MAX:SEED`.
    #[arg(long, default_value = "file")]
    weights: WeightRule,
    /// Scale the file's weights by 10^K and round (real-valued files); default: files with real
    /// values get the smallest K that keeps them exact, or the largest that keeps |w| ≤ 2²⁴.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=9))]
    weight_decimals: Option<u32>,
}

impl LoadArgs {
    fn options(&self) -> LoadOptions {
        LoadOptions { format: self.format, weights: self.weights, weight_decimals: self.weight_decimals }
    }
}

#[derive(Args, Debug)]
struct SolveArgs {
    file: PathBuf,
    /// Source vertex, as numbered in the file (1-based for DIMACS / METIS / MatrixMarket).
    #[arg(long, short)]
    source: u64,
    /// Algorithm id with optional parameters, e.g. `crauser-succ`, `martin-succ:relax=non-atomic`
    /// (alias `racy`); `sssp-lab solve --help` lists them.
    #[arg(long, short, default_value = "dijkstra", long_help = crate::algo::registry::cli_help())]
    algo: AlgoChoice,
    /// GPU run to the end: `fast` (persistent kernel / lists and teams) or `per-phase` (three
    /// vertex-parallel launches per iteration, as in the papers).
    #[arg(long, default_value = "fast")]
    launch: crate::algo::Launch,
    /// CUDA fast path: blocks per multiprocessor of the persistent kernel (default: as many as fit).
    #[arg(long)]
    blocks_per_sm: Option<u32>,
    /// CUDA fast path: work under which one block runs an iteration alone (0 = off).
    #[arg(long)]
    solo_work: Option<u64>,
    /// cpu, cpu-par[:THREADS], cuda[:N] or wgpu[:N].
    #[arg(long, short, default_value = "cpu")]
    device: DeviceId,
    /// CPU threads (1…): runs the multi-core solver of the algorithm with this many threads,
    /// i.e. `-d cpu-par:THREADS` (more than the cores is allowed).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
    /// Block size of every kernel (the relax/minimum/update flags override it).
    #[arg(long, default_value_t = 256)]
    block: u32,
    #[arg(long)]
    block_relax: Option<u32>,
    #[arg(long)]
    block_minimum: Option<u32>,
    #[arg(long)]
    block_update: Option<u32>,
    /// CUDA cache preference: default, l1, shared.
    #[arg(long, default_value = "default")]
    cache: String,
    /// Write distances here (`-` for stdout).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Also print one JSON line per iteration record on stderr.
    #[arg(long)]
    records: bool,
    /// Save the run as a trace (every iteration's record and, up to 4 M vertices, what changed)
    /// that the app opens and steps through (`.gz`: compressed). Steps the solver iteration by
    /// iteration, so GPU runs use the per-iteration kernels, not the fast path.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Record the run as an animated GIF for slides: the graph by vertex status (its
    /// coordinates, else a grid by id), a caption with the iteration, |F| and the settled count.
    /// Steps the solver as --trace does.
    #[arg(long, value_name = "FILE.gif")]
    animate: Option<PathBuf>,
    /// --animate: frame size in pixels.
    #[arg(long, value_name = "WxH", default_value = "640x480", requires = "animate")]
    size: crate::trace::animate::Size,
    /// --animate: iterations per frame (default: about 100 frames).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..), requires = "animate")]
    steps_per_frame: Option<u64>,
    /// Solve this many times (1…) and report the median and min time (a fresh stepper each time).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
    #[command(flatten)]
    load: LoadArgs,
}

#[derive(Subcommand, Debug)]
enum GenFamily {
    /// Martín et al.: 7 random predecessors per vertex, weights 1..=10.
    Martin {
        #[arg(long, default_value_t = 1 << 20)]
        n: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Seed 004 §5: n/5 random predecessors per vertex, weights 1..=10 (for layout=matrix).
    Dense {
        #[arg(long, default_value_t = 2048)]
        n: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Random fan-out: d distinct random successors per vertex.
    Fanout {
        #[arg(long, default_value_t = 24_576)]
        n: usize,
        #[arg(long, short, default_value_t = 2)]
        d: usize,
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(i32).range(1..))]
        max_weight: i32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// R-MAT with (a, b, c, 1 − a − b − c).
    Rmat {
        #[arg(long, default_value_t = 16)]
        scale: u32,
        #[arg(long, default_value_t = 16)]
        edge_factor: u32,
        #[arg(long, default_value_t = 0.45)]
        a: f64,
        #[arg(long, default_value_t = 0.15)]
        b: f64,
        #[arg(long, default_value_t = 0.15)]
        c: f64,
        #[arg(long, default_value_t = 255, value_parser = clap::value_parser!(i32).range(1..))]
        max_weight: i32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// 2-D grid with 4 neighbours (undirected), with coordinates.
    Grid {
        #[arg(long, default_value_t = 64)]
        width: usize,
        #[arg(long, default_value_t = 48)]
        height: usize,
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(i32).range(1..))]
        max_weight: i32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// SSCA#2 (GTgraph; seed 001 Table 2: n 10000 with (P, C) = (0.25, 5), (0.5, 20), (0.5, 30)).
    Ssca2 {
        #[arg(long, default_value_t = 10_000)]
        n: usize,
        /// Largest clique C (sizes uniform in 1..=C).
        #[arg(long = "clique", short = 'C', default_value_t = 20)]
        max_clique: usize,
        /// Probability P of a vertex's first inter-clique arc (halved with each doubling of distance).
        #[arg(long = "inter", short = 'P', default_value_t = 0.5)]
        prob_inter: f64,
        /// Probability that a clique pair is joined one way only.
        #[arg(long = "unidirectional", default_value_t = 0.2)]
        prob_unidirectional: f64,
        /// Copies of each arc, uniform in 1..=this.
        #[arg(long = "parallel", default_value_t = 1)]
        max_parallel: u32,
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(i32).range(1..))]
        max_weight: i32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Seed 004 Fig. 5: the graph on which a non-atomic relax races.
    Counterexample {
        #[arg(long, default_value_t = 1024)]
        n: usize,
    },
    /// The 5-vertex teaching example.
    Teaching,
}

impl GenFamily {
    fn spec(&self) -> GeneratorSpec {
        match *self {
            GenFamily::Martin { n, seed } => GeneratorSpec::Martin { n, seed },
            GenFamily::Dense { n, seed } => GeneratorSpec::Dense { n, seed },
            GenFamily::Fanout { n, d, max_weight, seed } => GeneratorSpec::Fanout { n, d, max_weight, seed },
            GenFamily::Rmat { scale, edge_factor, a, b, c, max_weight, seed } => {
                GeneratorSpec::Rmat { scale, edge_factor, a, b, c, max_weight, seed }
            }
            GenFamily::Grid { width, height, max_weight, seed } => {
                GeneratorSpec::Grid { width, height, max_weight, seed }
            }
            GenFamily::Ssca2 { n, max_clique, prob_inter, prob_unidirectional, max_parallel, max_weight, seed } => {
                GeneratorSpec::Ssca2(crate::generate::Ssca2 {
                    n,
                    max_clique,
                    prob_inter,
                    prob_unidirectional,
                    max_parallel,
                    max_weight,
                    seed,
                })
            }
            GenFamily::Counterexample { n } => GeneratorSpec::Counterexample { n },
            GenFamily::Teaching => GeneratorSpec::Teaching,
        }
    }
}

/// Opens the app on a graph file (`None`: the bundled one) with these load options. The
/// binary passes the app's entry point, so the CLI never imports the app.
pub type OpenApp = fn(Option<PathBuf>, crate::formats::LoadOptions) -> Result<()>;

/// Entry point of the binary: runs a subcommand, or `open_app` when there is none (or `gui`).
pub fn main(open_app: OpenApp) -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => open_app(None, Default::default()),
        Some(Command::Gui { file, load }) => open_app(file, load.options()),
        Some(Command::Solve(args)) => solve(&args),
        Some(Command::Info { file, load }) => info(&file.unwrap_or_else(formats::bundled_graph_path), &load),
        Some(Command::Gen { family, out }) => match out {
            Some(out) => generate(&family.spec(), &out),
            None => Err(anyhow!("gen needs --out FILE.gr")),
        },
        Some(Command::Check(args)) => check::run(&args),
        Some(Command::Apsp(args)) => apsp::run(&args),
        Some(Command::Tune(args)) => tune::run(&args),
        Some(Command::Bench { experiment, out, overrides }) => {
            let out = out.unwrap_or_else(|| bench::default_out_dir(&experiment));
            bench::run_experiment(&experiment, &out, &overrides)
        }
        Some(Command::Report { results, out }) => {
            let out = out.unwrap_or_else(|| match results[0].parent() {
                Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
                _ => PathBuf::from("."),
            });
            crate::lab::regenerate_report(&results, &out)
                .inspect(|()| eprintln!("wrote {}", out.join("report.md").display()))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Loads `path`, timing it; the error already names path:line.
pub fn load_graph(path: &Path, load: &LoadArgs) -> Result<(Graph, f64)> {
    let t = Instant::now();
    let g = formats::load(path, &load.options())?;
    // Accepted but worth knowing (a rectangular matrix, extra columns, huge ids): on stderr,
    // so that `--out` files stay clean.
    for w in &g.warnings {
        eprintln!("warning: {}: {w}", path.display());
    }
    Ok((g, t.elapsed().as_secs_f64() * 1e3))
}

/// Maps a file id to a vertex index, with a message naming the valid range.
pub fn source_index(graph: &Graph, id: u64) -> Result<VertexId> {
    graph.labels().index(id, graph.n()).ok_or_else(|| {
        anyhow!("source {id} is not a vertex of {} ({})", graph.name, graph.labels().describe(graph.n()))
    })
}

fn cache_preference(s: &str) -> Result<CachePreference> {
    Ok(match s {
        "default" => CachePreference::Default,
        "l1" | "prefer-l1" => CachePreference::PreferL1,
        "shared" | "prefer-shared" => CachePreference::PreferShared,
        _ => bail!("cache preference `{s}`: expected default, l1 or shared"),
    })
}

fn solve(args: &SolveArgs) -> Result<()> {
    let device = with_threads(args.device, args.threads)?;
    let (graph, load_ms) = load_graph(&args.file, &args.load)?;
    let graph = Arc::new(graph);
    let source = source_index(&graph, args.source)?;
    let opts = SolveOptions {
        params: args.algo.params.clone(),
        block: BlockSizes {
            relax: args.block_relax.unwrap_or(args.block),
            minimum: args.block_minimum.unwrap_or(args.block),
            update: args.block_update.unwrap_or(args.block),
        },
        cache: cache_preference(&args.cache)?,
        launch: args.launch,
        blocks_per_sm: args.blocks_per_sm,
        solo_work: args.solo_work,
        instrument: false,
        record_deltas: args.trace.is_some() || args.animate.is_some(),
    };
    let cancel = AtomicBool::new(false);
    if args.trace.is_some() || args.animate.is_some() {
        return solve_traced(args, &graph, device, source, &opts);
    }
    let mut times = Vec::new();
    let (mut stepper, mut run) = loop {
        let mut stepper = make_stepper(device, Arc::clone(&graph), args.algo.algorithm, source, &opts)?;
        let run = stepper.run_to_end(&cancel, &mut |_| {})?;
        times.push(run.total_ms);
        if times.len() >= args.repeat as usize {
            break (stepper, run);
        }
    };
    times.sort_by(f64::total_cmp);
    run.total_ms = times[times.len() / 2];
    let dist = stepper.distances()?;
    if times.len() > 1 {
        eprintln!(
            "{} runs: median {:.3} ms, min {:.3} ms, max {:.3} ms",
            times.len(),
            run.total_ms,
            times[0],
            times[times.len() - 1]
        );
    }
    eprintln!(
        "{}: n={} m={} loaded in {:.1} ms; {} on {} from {}: {} iterations, {:.3} ms, {:.4} GTEPS, {} reached",
        graph.name,
        graph.n(),
        graph.m(),
        load_ms,
        args.algo,
        stepper.device(),
        args.source,
        run.iterations,
        run.total_ms,
        run.gteps(),
        run.reached
    );
    if args.algo.algorithm.spec().family == crate::algo::Family::Sweep {
        // Cached by the stepper's build: the hierarchy the timed runs swept.
        let h = crate::algo::phast::hierarchy(&graph)?;
        eprintln!(
            "contraction hierarchy (once per graph, untimed): {} shortcuts, {} levels, {} vertices left in the core, \
built in {:.0} ms",
            h.shortcuts,
            h.levels(),
            h.core,
            h.build_ms
        );
    }
    if args.records {
        for r in &run.records {
            eprintln!("{}", record_json(args.algo.algorithm, r)?);
        }
    }
    if let Some(warning) = distance_header(&graph).iter().find(|l| l.starts_with("# warning")) {
        eprintln!("{}", warning.trim_start_matches("# "));
    }
    if let Some(out) = &args.out {
        write_distances(&graph, &dist, out)?;
    }
    Ok(())
}

/// `solve --trace FILE` / `--animate FILE.gif`: steps the solver to the end, keeping every record
/// and delta, and saves the trace and / or the GIF (then writes distances as `solve` does).
fn solve_traced(
    args: &SolveArgs,
    graph: &Arc<Graph>,
    device: DeviceId,
    source: crate::graph::VertexId,
    opts: &SolveOptions,
) -> Result<()> {
    let mut stepper = make_stepper(device, Arc::clone(graph), args.algo.algorithm, source, opts)?;
    let mut trace = crate::trace::Trace::new(graph.n(), source);
    let start = Instant::now();
    while let Some(step) = stepper.step()? {
        trace.push(step);
    }
    trace.set_finished();
    let info = crate::trace::file::RunInfo {
        algorithm: args.algo.to_string(),
        device: stepper.device(),
        device_id: device.to_string(),
        block: opts.block,
    };
    eprintln!(
        "{}: {} on {} from {}: {} iterations stepped in {:.1} ms",
        graph.name,
        args.algo,
        stepper.device(),
        args.source,
        trace.len(),
        start.elapsed().as_secs_f64() * 1e3,
    );
    if let Some(path) = &args.trace {
        crate::trace::file::TraceFile::new(&trace, graph, Some(&args.file), None, info).save(path)?;
        eprintln!("trace written to {}", path.display());
    }
    if let Some(path) = &args.animate {
        use crate::trace::animate;
        let opts = animate::Options {
            size: args.size,
            steps_per_frame: args.steps_per_frame.map(|k| k as usize),
            ..Default::default()
        };
        let pos = animate::positions_for(graph, None);
        let done = animate::record(trace, graph, &pos, &opts, path, &mut |_, _| true)?;
        if let Some(r) = done {
            eprintln!(
                "{}: {} frames of {} ({} iterations each), {:.1} kB",
                path.display(),
                r.frames,
                args.size,
                r.steps_per_frame,
                r.bytes as f64 / 1e3
            );
        }
    }
    if let Some(out) = &args.out {
        write_distances(graph, &stepper.distances()?, out)?;
    }
    Ok(())
}

/// One record as a JSON object whose declared values are named by the algorithm's series
/// (`"delta_crauser": 17`, `"inf"` for ∞) instead of an unnamed list.
fn record_json(algo: crate::algo::Algorithm, r: &crate::algo::IterationRecord) -> Result<String> {
    let mut obj = serde_json::to_value(r)?;
    if let Some(map) = obj.as_object_mut() {
        map.remove("values");
        for (i, spec) in algo.spec().series.iter().enumerate() {
            let v = match r.values.get(i) {
                Some(x) if x.is_infinite() => serde_json::Value::from("inf"),
                Some(x) => serde_json::Value::from(x),
                None => serde_json::Value::Null,
            };
            map.insert(spec.key.to_string(), v);
        }
    }
    Ok(obj.to_string())
}

/// What a distances file says before its rows when the weights are not the file's own integers:
/// real-valued weights are stored ×10^K ([`crate::graph::WeightScale`]) and the distances are in
/// those units (`a 1 2 1.5` → `2 15` under `# … ×10^1`); a scale that rounds non-zero weights to
/// 0 (e.g. 1e-12) gets a warning line. Empty for integer weights. Lines start with `#`.
pub fn distance_header(graph: &Graph) -> Vec<String> {
    let Some(scale) = graph.weight_scale.as_ref() else { return Vec::new() };
    let k = scale.decimals;
    let mut lines = Vec::new();
    if k > 0 {
        lines.push(format!(
            "# distances are in units of 10^-{k} of the file's weights (weights {scale}): divide by 10^{k} \
             (--weight-decimals K chooses the scale)"
        ));
    }
    if scale.max_rel_error >= 1.0 {
        lines.push(format!(
            "# warning: rounding at ×10^{k} turns some non-zero weights into 0 or doubles them (largest relative \
             error {:.0} %): these distances are not the file's; choose more --weight-decimals or rescale the file",
            scale.max_rel_error * 100.0
        ));
    }
    lines
}

/// Writes `<file id> <distance|inf>` per vertex, in vertex order, after the
/// [`distance_header`] lines (real-valued weights only).
pub fn write_distances(graph: &Graph, dist: &[crate::graph::Distance], out: &Path) -> Result<()> {
    let sink: Box<dyn Write> = if out.as_os_str() == "-" {
        Box::new(std::io::stdout().lock())
    } else {
        Box::new(std::fs::File::create(out).with_context(|| format!("{}: cannot create", out.display()))?)
    };
    let mut w = BufWriter::new(sink);
    for line in distance_header(graph) {
        writeln!(w, "{line}")?;
    }
    for (v, &d) in dist.iter().enumerate() {
        let label = graph.labels().label(v as VertexId);
        if d == INF {
            writeln!(w, "{label} inf")?;
        } else {
            writeln!(w, "{label} {d}")?;
        }
    }
    w.flush().with_context(|| format!("{}: write failed", out.display()))?;
    Ok(())
}

fn info(path: &Path, load: &LoadArgs) -> Result<()> {
    let (graph, load_ms) = load_graph(path, load)?;
    let s = graph.stats();
    println!("graph        {}", graph.name);
    println!("vertices     {}", s.n);
    println!("arcs         {}", s.m);
    println!("out-degree   min {} / mean {:.2} / max {}", s.min_out_degree, s.mean_out_degree, s.max_out_degree);
    println!("in-degree    max {}", s.max_in_degree);
    println!("sinks        {}", s.sinks);
    println!("self-loops   {}", s.self_loops);
    println!("weights      {}..={} ({})", s.min_weight, s.max_weight, graph.weight_origin);
    println!("ids          {}", graph.labels().describe(s.n));
    println!("coordinates  {}", if graph.coords().is_some() { "yes" } else { "no" });
    println!("memory       {:.1} MB", s.bytes as f64 / 1e6);
    println!("max distance ≤ {} ({})", graph.distance_bound(), fits_u32(&graph));
    println!("loaded in    {load_ms:.1} ms");
    Ok(())
}

fn fits_u32(g: &Graph) -> &'static str {
    if g.distance_bound() < u32::MAX as u128 { "fits 32-bit GPU distances" } else { "needs 64-bit distances" }
}

fn generate(spec: &GeneratorSpec, out: &Path) -> Result<()> {
    let t = Instant::now();
    let graph = spec.generate().map_err(|e| anyhow!("{spec}: {e}"))?;
    formats::write_dimacs(&graph, out).with_context(|| format!("{}: cannot write", out.display()))?;
    eprintln!(
        "{}: {} vertices, {} arcs written to {} in {:.1} ms",
        graph.name,
        graph.n(),
        graph.m(),
        out.display(),
        t.elapsed().as_secs_f64() * 1e3
    );
    Ok(())
}

/// Distances formatted for messages.
pub fn describe_distance(d: crate::graph::Distance) -> String {
    fmt_distance(d)
}

/// The device a `--threads` request means: the CPU's multi-core solvers with that many threads.
/// Errors: `--threads` with a GPU device.
fn with_threads(device: DeviceId, threads: Option<u32>) -> Result<DeviceId> {
    match (threads, device) {
        (None, d) => Ok(d),
        (Some(t), DeviceId::Cpu | DeviceId::CpuParallel(_)) => Ok(DeviceId::CpuParallel(t)),
        (Some(_), d) => anyhow::bail!("--threads applies to the CPU (cpu, cpu-par), not to {d}"),
    }
}

/// Every device name with its status, for `check` and `--help` texts.
pub fn device_lines() -> Vec<String> {
    devices()
        .iter()
        .map(|d| match &d.status {
            Ok(()) => format!("{} [{}]", d.name, d.id),
            Err(why) => format!("{} [{}]: {why}", d.name, d.id),
        })
        .collect()
}
