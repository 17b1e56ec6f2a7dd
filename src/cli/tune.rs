//! `sssp-lab tune`: the auto-tuner ([`crate::tune`]) on the command line. One graph: its
//! statistics, the predicted block sizes (and Δ) per algorithm with the rules' reasons and a
//! ready `solve` line; `--check` also sweeps the alternatives. `--check-set FILE --out DIR`:
//! every graph × algorithm of an experiment file, written to `DIR/tune.json` and
//! `DIR/README.md`.

use super::{LoadArgs, load_graph, source_index};
use crate::algo::{AlgoChoice, Launch, reference_distances};
use crate::device::DeviceId;
use crate::generate::GeneratorSpec;
use crate::graph::{Graph, VertexId};
use crate::lab::Experiment;
use crate::tune::{self, DeviceShape, Prediction, SetEvent, SetOptions, SweepOptions, TuneCase, TuneCheck, TuneReport};
use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use std::io::{IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Algorithms tuned when `--algo` is not given (those the device runs).
const DEFAULT_ALGOS: [&str; 4] = ["martin-succ", "martin-pred", "crauser-succ", "delta-stepping"];

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Graph file, in any format `solve` reads (or --generate, or --check-set).
    file: Option<PathBuf>,
    /// A generated graph instead of FILE, as an experiment file's `generate` entry, e.g.
    /// '{"family":"grid","width":256,"height":256,"max_weight":10,"seed":1}'.
    #[arg(long, conflicts_with = "file")]
    generate: Option<String>,
    /// cpu, cpu-par[:THREADS], cuda[:N] or wgpu[:N] (default: cpu; with --check-set, the
    /// experiment's first device).
    #[arg(long, short)]
    device: Option<DeviceId>,
    /// Algorithm to tune, with parameters (repeatable); default: martin-succ, martin-pred,
    /// crauser-succ and delta-stepping, or the check set's algorithms.
    #[arg(long, short, long_help = crate::algo::registry::cli_help())]
    algo: Vec<AlgoChoice>,
    /// Source vertex as numbered in the file: where the double sweep starts and the first
    /// source of --check (default: the first vertex with an out-arc).
    #[arg(long, short)]
    source: Option<u64>,
    /// How the run goes to the end on a GPU: fast or per-phase.
    #[arg(long, default_value = "fast")]
    launch: Launch,
    /// Also time every candidate (uniform blocks 32..1024, the prediction, Δ around the
    /// predicted one) and report how close the prediction is to the best.
    #[arg(long)]
    check: bool,
    /// Sources of a sweep, at most (the first is --source, the others random, seeded).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=100))]
    sources: u64,
    /// Seconds the timed runs of one sweep may take (fewer sources when slower; skipped when
    /// one source takes over 3x this). Default 5, or the check set's cell_budget_s.
    #[arg(long)]
    budget: Option<f64>,
    /// Write the result as JSON (the format of a check set's tune.json).
    #[arg(long)]
    json: Option<PathBuf>,
    /// An experiment file (e.g. experiments/tune-check.json): predict and sweep every graph x
    /// algorithm on --device; writes OUT/tune.json and OUT/README.md.
    #[arg(long, conflicts_with_all = ["file", "generate"], requires = "out")]
    check_set: Option<PathBuf>,
    /// Output folder of --check-set.
    #[arg(long, short)]
    out: Option<PathBuf>,
    #[command(flatten)]
    load: LoadArgs,
}

/// Runs `sssp-lab tune`.
pub fn run(args: &TuneArgs) -> Result<()> {
    if let Some(b) = args.budget
        && !(b > 0.0 && b.is_finite())
    {
        bail!("--budget {b}: give a positive number of seconds");
    }
    match (&args.check_set, &args.out) {
        (Some(set), Some(out)) => return check_set(args, set, out),
        (None, Some(_)) => bail!("--out is for --check-set; use --json FILE for one graph"),
        _ => {}
    }
    let device = args.device.unwrap_or(DeviceId::Cpu);
    let (graph, input) = match (&args.file, &args.generate) {
        (Some(f), None) => (load_graph(f, &args.load)?.0, Input::File(f.clone())),
        (None, Some(json)) => {
            let spec: GeneratorSpec =
                serde_json::from_str(json).with_context(|| format!("--generate `{json}`: not a generator spec"))?;
            (spec.generate().map_err(|e| anyhow!("{spec}: {e}"))?, Input::Generated(spec))
        }
        _ => bail!("give a graph FILE, --generate SPEC or --check-set FILE --out DIR"),
    };
    let graph = Arc::new(graph);
    let start = match args.source {
        Some(id) => source_index(&graph, id)?,
        None => tune::default_start(&graph),
    };
    let cancel = AtomicBool::new(false);
    let t = Instant::now();
    let stats = tune::graph_stats(&graph, start, &cancel, &mut |_| {}).ok_or_else(|| anyhow!("cancelled"))?;
    println!("{}", stats.lines().join("\n"));
    println!("(statistics in {:.1} ms)", t.elapsed().as_secs_f64() * 1e3);
    let shape = if device == DeviceId::Cpu { DeviceShape::of(device) } else { DeviceShape::probe(device) };
    let algos: Vec<AlgoChoice> = if args.algo.is_empty() {
        DEFAULT_ALGOS.iter().filter_map(|a| a.parse().ok()).collect()
    } else {
        args.algo.clone()
    };
    let sources = sweep_sources(&graph, start, args.sources as usize);
    let reference = args.check.then(|| reference_distances(&graph, start).ok().map(Arc::new)).flatten();
    let mut report = TuneReport {
        name: graph.name.clone(),
        date: crate::lab::today_utc(),
        device: device.to_string(),
        device_name: shape.name.clone(),
        units: shape.units,
        command: std::env::args().collect::<Vec<_>>().join(" "),
        outcome: "completed".into(),
        ..Default::default()
    };
    let mut ran = 0;
    for algo in &algos {
        println!();
        let mut case = TuneCase {
            graph: graph.name.clone(),
            group: String::new(),
            algorithm: algo.to_string(),
            stats: Some(stats.clone()),
            ..Default::default()
        };
        if let Err(why) = tune::batch::runs(device, &graph, algo) {
            println!("{algo} on {device}: not tuned: {why}");
            case.error = Some(why);
            report.cases.push(case);
            continue;
        }
        ran += 1;
        let pred = tune::predict(&stats, &shape, algo, args.launch);
        print_prediction(&pred, &graph, &input, args, start);
        if args.check {
            let opts = SweepOptions {
                sources: sources.clone(),
                blocks: tune::BLOCKS.to_vec(),
                budget_s: Some(args.budget.unwrap_or(5.0)),
                reference: reference.clone(),
                auto_delta: stats.auto_delta,
            };
            let mut line = ProgressLine::new();
            let check = tune::sweep(&graph, &pred, &opts, &cancel, &mut |f, what| {
                line.show(&format!("  sweeping {algo}: {:3.0} %  {what}", f * 100.0))
            });
            line.clear();
            let check = check?;
            print_check(&check, &graph);
            case.check = Some(check);
        }
        case.prediction = Some(pred);
        report.cases.push(case);
    }
    if args.check {
        println!("\n{}", report.summary());
    }
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report)?;
        std::fs::write(path, text + "\n").with_context(|| format!("{}: cannot write", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    if ran == 0 {
        // The reasons, not just the fact: a graph with negative weights is refused by every
        // frontier algorithm for the same reason, which is then said once.
        let mut why: Vec<String> = report.cases.iter().filter_map(|c| c.error.clone()).collect();
        if let Some((u, v, w)) = graph.first_negative_arc() {
            let l = graph.labels();
            why = vec![format!(
                "`{}` has negative weights (first: the arc from {} to {}, weight {}), which none of them allows \
                 (only bellman-ford runs such graphs: `--algo bellman-ford`)",
                graph.name,
                l.label(u),
                l.label(v),
                graph.weight_text(i64::from(w))
            )];
        }
        bail!("{device} runs none of the algorithms asked for: {}", why.join("; "));
    }
    wrong_runs(&report)
}

/// Non-zero exit when a swept prediction computed wrong distances.
fn wrong_runs(report: &TuneReport) -> Result<()> {
    let wrong: Vec<String> = report
        .cases
        .iter()
        .filter(|c| c.check.as_ref().and_then(|k| k.correct) == Some(false) && !exact_exempt(&c.algorithm))
        .map(|c| format!("{} / {}", c.graph, c.algorithm))
        .collect();
    if wrong.is_empty() {
        Ok(())
    } else {
        bail!("wrong distances from the predicted configuration: {}", wrong.join(", "))
    }
}

/// Inexact choices (the non-atomic relax) may differ from the oracle by design.
fn exact_exempt(algo: &str) -> bool {
    algo.parse::<AlgoChoice>().is_ok_and(|a| !a.exact())
}

/// Where the graph came from, for the `solve` line.
enum Input {
    File(PathBuf),
    Generated(GeneratorSpec),
}

/// The start vertex, then up to `k − 1` seeded random vertices with an out-arc.
fn sweep_sources(g: &Graph, start: VertexId, k: usize) -> Vec<VertexId> {
    let mut out = vec![start];
    for v in crate::lab::plan::pick_sources(g, k, 1) {
        if out.len() < k && !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

fn print_prediction(p: &Prediction, g: &Graph, input: &Input, args: &TuneArgs, start: VertexId) {
    let b = p.block;
    let delta = p.delta.map_or(String::new(), |d| format!(", delta {d}"));
    println!(
        "{} on {}: block relax {} / minimum {} / update {}{delta}",
        p.algorithm, p.device, b.relax, b.minimum, b.update
    );
    for r in &p.reasons {
        println!("  - {r}");
    }
    let mut cmd = String::from("sssp-lab solve ");
    match input {
        Input::File(f) => cmd += &shell_word(&f.display().to_string()),
        Input::Generated(spec) => {
            println!("  (generated graph `{spec}`: write it first with `sssp-lab gen ... --out GRAPH.gr`)");
            cmd += "GRAPH.gr";
        }
    }
    if let Input::File(_) = input {
        if let Some(f) = args.load.format {
            cmd += &format!(" --format {f}");
        }
        if args.load.weights != crate::graph::WeightRule::File {
            cmd += &format!(" --weights {}", args.load.weights);
        }
        if let Some(k) = args.load.weight_decimals {
            cmd += &format!(" --weight-decimals {k}");
        }
    }
    cmd += &format!(" --source {} --device {} --algo {}", g.labels().label(start), p.device, p.choice());
    if b.relax == b.minimum && b.minimum == b.update {
        cmd += &format!(" --block {}", b.relax);
    } else {
        cmd += &format!(" --block-relax {} --block-minimum {} --block-update {}", b.relax, b.minimum, b.update);
    }
    if p.launch == Launch::PerPhase {
        cmd += " --launch per-phase";
    }
    println!("  {cmd}");
}

/// `s` as one shell word (quoted when it has anything but plain path characters).
fn shell_word(s: &str) -> String {
    if s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+:=,".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

fn print_check(c: &TuneCheck, g: &Graph) {
    if let Some(why) = &c.skipped {
        println!("  sweep skipped: {why}");
        return;
    }
    let ids: Vec<String> = c.sources.iter().map(|&s| g.labels().label(s).to_string()).collect();
    println!("  sweep over {} source(s) ({}), {:.1} s:", c.sources.len(), ids.join(", "), c.wall_s);
    for (i, t) in c.timings.iter().enumerate() {
        let mark = match (Some(i) == c.predicted, Some(i) == c.best) {
            (true, true) => "predicted, best",
            (true, false) => "predicted",
            (false, true) => "best",
            _ => "",
        };
        let time = match (&t.median_ms, &t.error) {
            (Some(m), _) => format!("{m:10.3} ms"),
            (None, Some(e)) => format!("failed: {e}"),
            (None, None) => "–".into(),
        };
        println!("    {:<24} {time}  {mark}", t.candidate.label());
    }
    for n in &c.notes {
        println!("  note: {n}");
    }
    if let (Some(r), Some(w)) = (c.ratio, c.within_5pct) {
        let d = c.default_ratio.map_or(String::new(), |d| format!("; default (256, auto delta) / best = {d:.3}"));
        println!("  predicted / best = {r:.3}: {}{d}", if w { "within 5 %" } else { "NOT within 5 %" });
    }
    match c.correct {
        Some(true) => println!("  distances of the prediction: equal to the oracle's"),
        Some(false) => println!("  distances of the prediction: DIFFER from the oracle's"),
        None => {}
    }
}

/// `--check-set FILE --out DIR`.
fn check_set(args: &TuneArgs, path: &Path, out: &Path) -> Result<()> {
    let mut exp = Experiment::load(path)?;
    if !args.algo.is_empty() {
        exp.algorithms = args.algo.clone();
    }
    if let Some(b) = args.budget {
        exp.cell_budget_s = Some(b);
    }
    if args.launch != Launch::Fast {
        exp.launch = args.launch;
    }
    let device = match (args.device, exp.devices.first()) {
        (Some(d), _) => d,
        (None, Some(crate::lab::LabDevice::Solver(d))) => *d,
        _ => bail!("{}: give --device (the experiment names no solver device)", path.display()),
    };
    if matches!(device, DeviceId::Cuda(_) | DeviceId::Wgpu(_)) {
        match crate::device::find(device) {
            Some(d) => d.status.clone().map_err(|why| anyhow!("{device}: {why}"))?,
            None => bail!("{device} is not listed on this machine ({})", super::device_lines().join("; ")),
        }
    }
    let exp_dir = path.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let opts = SetOptions {
        device,
        max_sources: args.sources as usize,
        budget_s: 5.0,
        sweep: true,
        command: std::env::args().collect::<Vec<_>>().join(" "),
    };
    eprintln!("{}: {} graph entries x {} algorithms on {device}", exp.name, exp.graphs.len(), exp.algorithms.len());
    let cancel = AtomicBool::new(false);
    let mut line = ProgressLine::new();
    let report = tune::run_set(&exp.check_set(&exp_dir), &opts, &cancel, &mut |ev| match ev {
        SetEvent::Log(l) => line.log(&l),
        SetEvent::Progress { done, total, current } => line.show(&format!("[{done}/{total}] {current}")),
        SetEvent::Case(c) => line.log(&case_line(&c)),
    });
    line.clear();
    tune::report::write(&report, out)?;
    eprintln!("{}; {}; wrote {}/{{tune.json, README.md}}", report.summary(), report.outcome, out.display());
    if report.outcome.starts_with("failed") {
        bail!("{}", report.outcome);
    }
    let ran = |c: &TuneCase| c.check.as_ref().is_some_and(|k| k.skipped.is_none());
    if !report.cases.is_empty() && !report.cases.iter().any(ran) {
        let first = report.cases.iter().find_map(|c| c.error.clone().or_else(|| c.check.as_ref()?.skipped.clone()));
        bail!("nothing could be swept on {device}: {}", first.unwrap_or_default());
    }
    wrong_runs(&report)
}

/// One line per finished case of a check set.
fn case_line(c: &TuneCase) -> String {
    let head = format!("{} / {}", c.graph, c.algorithm);
    if let Some(e) = &c.error {
        return format!("{head}: not run: {e}");
    }
    match &c.check {
        Some(k) if k.skipped.is_some() => format!("{head}: skipped: {}", k.skipped.as_deref().unwrap_or("")),
        Some(k) => {
            let label = |i: Option<usize>| i.and_then(|i| k.timings.get(i)).map_or("-".into(), |t| t.candidate.label());
            format!(
                "{head}: predicted {} best {} ratio {} {}",
                label(k.predicted),
                label(k.best),
                k.ratio.map_or("-".into(), |r| format!("{r:.3}")),
                match k.within_5pct {
                    Some(true) => "(within 5 %)",
                    Some(false) => "(MISS)",
                    None => "",
                }
            )
        }
        None => head,
    }
}

/// A progress line on stderr: redrawn in place on a terminal, a plain line every 10 s in a log.
struct ProgressLine {
    tty: bool,
    width: usize,
    shown: Instant,
}

impl ProgressLine {
    fn new() -> ProgressLine {
        let tty = std::io::stderr().is_terminal();
        // A log gets its first line after 10 s, so quick runs print none.
        let shown = if tty { Instant::now() - std::time::Duration::from_secs(1) } else { Instant::now() };
        ProgressLine { tty, width: 0, shown }
    }

    fn show(&mut self, text: &str) {
        let every = if self.tty { 100 } else { 10_000 };
        if self.shown.elapsed().as_millis() < every {
            return;
        }
        self.shown = Instant::now();
        let text: String = text.chars().take(110).collect();
        let mut err = std::io::stderr();
        if self.tty {
            let pad = self.width.saturating_sub(text.chars().count());
            self.width = text.chars().count();
            let _ = write!(err, "\r{text}{}", " ".repeat(pad));
        } else {
            let _ = writeln!(err, "{text}");
        }
        let _ = err.flush();
    }

    fn log(&mut self, text: &str) {
        self.clear();
        eprintln!("{text}");
    }

    fn clear(&mut self) {
        if self.tty && self.width > 0 {
            eprint!("\r{}\r", " ".repeat(self.width));
            self.width = 0;
        }
    }
}
