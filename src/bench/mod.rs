//! Device-generic benchmark runner for the paper's sweep: seed 000 Table 2 (random fan-out
//! graphs, n ∈ {24 576, 49 152, 98 304} × d ∈ {2, 20, 200, 1000, 2000}, weights 1..=100, mean over
//! random sources), plus the NY road network and R-MAT graphs, on any set of devices
//! ([`DeviceId`]s: `cpu`, `cuda:N`, `wgpu:N`).
//!
//! Every timed run is [`Stepper::run_to_end`] (fast mode; `RunRecord::total_ms`, the host wall
//! time of the solve, graph upload and kernel compilation excluded). GPU cells get one untimed
//! warm-up run. CPU cells run in a second thread while the GPUs work on the same graph (one CPU
//! core each; the GPU host thread only waits), and stop adding sources once a cell has used its
//! time budget (`cpu_budget_s`), so the d = 2000 and R-MAT cells may average fewer sources: the
//! report says how many each cell used. The first source of every graph is checked against
//! sequential Dijkstra on every device.
//!
//! Output: [`BenchReport`] as JSON, and markdown laid out like seed 000 Table 2 (speedups of
//! GPU Crauser over sequential CPU Crauser and over GPU Martín) plus a table of every cell (ms,
//! iterations, GTEPS, device memory).

use crate::algo::{Algorithm, BlockSizes, CachePreference, RunRecord, SolveOptions, dijkstra_distances};
use crate::device::{DeviceId, devices, make_stepper};
use crate::graph::{Graph, VertexId};
use anyhow::{Context, Result, bail};
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What to run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BenchOptions {
    /// Random sources per graph (the paper's mean is over ≥ 10).
    pub sources: usize,
    /// Seed of the graphs and of the source choice.
    pub seed: u64,
    /// Fan-out graph sizes n.
    pub sizes: Vec<usize>,
    /// Fan-out degrees d.
    pub degrees: Vec<usize>,
    /// Fan-out weights are uniform in 1..=max_weight (seed 000: 100).
    pub max_weight: u32,
    /// DIMACS NY road network (assets/USA-road-d.NY.gr.gz), if wanted.
    pub ny: Option<PathBuf>,
    /// R-MAT scales (edge factor `rmat_edge_factor`, (0.45, 0.15, 0.15), weights 1..=255).
    pub rmat_scales: Vec<u32>,
    pub rmat_edge_factor: u32,
    /// Algorithms (every device runs each one it supports).
    pub algorithms: Vec<Algorithm>,
    /// Block sizes and cache preference for every device.
    pub block: BlockSizes,
    pub cache: CachePreference,
    /// A CPU cell stops adding sources after this many seconds (at least one source runs).
    pub cpu_budget_s: f64,
    /// Same for GPU cells.
    pub gpu_budget_s: f64,
    /// Where to write `<stem>.json` and `<stem>.md` (nothing is written when `None`).
    pub out_dir: Option<PathBuf>,
    pub file_stem: String,
    /// Command line that produced the report (recorded in it).
    pub command: String,
    /// Free text recorded in the report (e.g. `nvidia-smi` driver line).
    pub notes: String,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            sources: 10,
            seed: 1,
            sizes: vec![24_576, 49_152, 98_304],
            degrees: vec![2, 20, 200, 1000, 2000],
            max_weight: 100,
            ny: Some(PathBuf::from("assets/USA-road-d.NY.gr.gz")),
            rmat_scales: vec![20, 21],
            rmat_edge_factor: 16,
            algorithms: vec![
                crate::algo::CRAUSER_SUCC,
                crate::algo::MARTIN_SUCC,
                crate::algo::CRAUSER_PRED,
                crate::algo::MARTIN_PRED,
            ],
            block: BlockSizes::default(),
            cache: CachePreference::Default,
            cpu_budget_s: 4.0,
            gpu_budget_s: 20.0,
            out_dir: Some(PathBuf::from("bench/results")),
            file_stem: "table2".into(),
            command: String::new(),
            notes: String::new(),
        }
    }
}

/// One (graph, device, algorithm) cell: means over the sources it ran.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Cell {
    pub graph: String,
    /// `fanout`, `road`, `rmat`.
    pub family: String,
    pub n: usize,
    pub m: usize,
    /// Fan-out degree (0 for other families).
    pub degree: usize,
    pub device: DeviceId,
    /// Device string of the runs (block sizes, cache, distance width).
    pub device_name: String,
    pub algorithm: Algorithm,
    pub sources_run: usize,
    pub mean_ms: f64,
    pub median_ms: f64,
    pub min_ms: f64,
    pub mean_iterations: f64,
    /// m / mean time / 10⁹.
    pub gteps: f64,
    /// Device memory the solver allocated (CUDA), bytes.
    pub device_bytes: Option<u64>,
    /// Distances of the first source equal sequential Dijkstra.
    pub checked: bool,
    /// Per-source (source, ms, iterations).
    pub runs: Vec<(VertexId, f64, u32)>,
    /// Why the cell has no runs (unsupported, error), if so.
    pub error: Option<String>,
}

/// The whole sweep.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BenchReport {
    pub date: String,
    pub command: String,
    pub notes: String,
    /// Device names as listed.
    pub devices: Vec<(DeviceId, String)>,
    pub options: BenchOptions,
    pub cells: Vec<Cell>,
    pub wall_s: f64,
}

struct GraphJob {
    family: &'static str,
    degree: usize,
    make: Box<dyn Fn() -> Result<Graph> + Send + Sync>,
    label: String,
}

fn jobs(opts: &BenchOptions) -> Vec<GraphJob> {
    let mut v = Vec::new();
    for &n in &opts.sizes {
        for &d in &opts.degrees {
            let (w, seed) = (opts.max_weight, opts.seed);
            v.push(GraphJob {
                family: "fanout",
                degree: d,
                label: format!("fanout n={n} d={d}"),
                make: Box::new(move || crate::generate::fanout(n, d, w, seed).map_err(anyhow::Error::msg)),
            });
        }
    }
    if let Some(path) = &opts.ny {
        let path = path.clone();
        v.push(GraphJob {
            family: "road",
            degree: 0,
            label: format!("{}", path.display()),
            make: Box::new(move || {
                crate::formats::load(&path, &Default::default()).with_context(|| format!("loading {}", path.display()))
            }),
        });
    }
    for &scale in &opts.rmat_scales {
        let (ef, seed) = (opts.rmat_edge_factor, opts.seed);
        v.push(GraphJob {
            family: "rmat",
            degree: 0,
            label: format!("rmat scale {scale}"),
            make: Box::new(move || {
                crate::generate::rmat(scale, ef, [0.45, 0.15, 0.15], 255, seed).map_err(anyhow::Error::msg)
            }),
        });
    }
    v
}

/// `count` random sources with at least one out-arc (seeded).
pub fn pick_sources(g: &Graph, count: usize, seed: u64) -> Vec<VertexId> {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed ^ 0x5011_4CE5);
    let succ = g.successors();
    let mut out = Vec::with_capacity(count);
    let mut tries = 0;
    while out.len() < count && tries < 1000 * count.max(1) {
        tries += 1;
        let v = rng.random_range(0..g.n()) as VertexId;
        if succ.degree(v) > 0 && !out.contains(&v) {
            out.push(v);
        }
    }
    if out.is_empty() {
        out.push(0);
    }
    out
}

/// Runs one cell: every source until the budget is used, the first one checked against `oracle`.
fn run_cell(
    g: &Arc<Graph>,
    job: &GraphJob,
    device: DeviceId,
    algo: Algorithm,
    sources: &[VertexId],
    oracle: &[crate::graph::Distance],
    opts: &BenchOptions,
) -> Cell {
    let solve = SolveOptions {
        block: opts.block,
        cache: opts.cache,
        instrument: false,
        record_deltas: false,
        ..Default::default()
    };
    let mut cell = Cell {
        graph: g.name.clone(),
        family: job.family.into(),
        n: g.n(),
        m: g.m(),
        degree: job.degree,
        device,
        device_name: String::new(),
        algorithm: algo,
        sources_run: 0,
        mean_ms: 0.0,
        median_ms: 0.0,
        min_ms: 0.0,
        mean_iterations: 0.0,
        gteps: 0.0,
        device_bytes: match device {
            DeviceId::Cuda(_) => Some(crate::device::cuda::device_bytes(g, algo, &solve)),
            _ => None,
        },
        checked: false,
        runs: Vec::new(),
        error: None,
    };
    let budget = if device == DeviceId::Cpu { opts.cpu_budget_s } else { opts.gpu_budget_s };
    let once = |s: VertexId| -> Result<(RunRecord, Option<Vec<crate::graph::Distance>>), String> {
        let mut st = make_stepper(device, Arc::clone(g), algo, s, &solve).map_err(|e| e.to_string())?;
        let rec = st.run_to_end(&AtomicBool::new(false), &mut |_| {}).map_err(|e| e.to_string())?;
        let d = if s == sources[0] { Some(st.distances().map_err(|e| e.to_string())?) } else { None };
        Ok((rec, d))
    };
    if device != DeviceId::Cpu
        && let Err(e) = once(sources[0])
    {
        cell.error = Some(e);
        return cell;
    }
    let t0 = Instant::now();
    for &s in sources {
        if !cell.runs.is_empty() && t0.elapsed().as_secs_f64() > budget {
            break;
        }
        match once(s) {
            Ok((rec, d)) => {
                if let Some(d) = d {
                    cell.checked = d == oracle;
                }
                cell.device_name = rec.device.clone();
                cell.runs.push((s, rec.total_ms, rec.iterations));
            }
            Err(e) => {
                cell.error = Some(e);
                break;
            }
        }
    }
    let k = cell.runs.len();
    if k > 0 {
        let mut ms: Vec<f64> = cell.runs.iter().map(|r| r.1).collect();
        ms.sort_by(f64::total_cmp);
        cell.sources_run = k;
        cell.mean_ms = ms.iter().sum::<f64>() / k as f64;
        cell.median_ms = if k % 2 == 1 { ms[k / 2] } else { (ms[k / 2 - 1] + ms[k / 2]) / 2.0 };
        cell.min_ms = ms[0];
        cell.mean_iterations = cell.runs.iter().map(|r| r.2 as f64).sum::<f64>() / k as f64;
        cell.gteps = if cell.mean_ms > 0.0 { g.m() as f64 / (cell.mean_ms * 1e-3) / 1e9 } else { 0.0 };
    }
    cell
}

/// Runs the sweep on `devices` and writes `<out_dir>/<file_stem>.json` and `.md`.
///
/// Errors: a device id that is not listed or not usable, a graph that cannot be built or
/// loaded, an output file that cannot be written. Solver errors are recorded in the cells.
pub fn seed000_table2(
    devices_wanted: &[DeviceId],
    opts: &BenchOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<BenchReport> {
    let started = Instant::now();
    let mut listed = Vec::new();
    for &d in devices_wanted {
        let Some(info) = devices().iter().find(|i| i.id == d) else { bail!("device {d} is not listed") };
        if let Err(e) = &info.status {
            bail!("device {d} cannot run solvers: {e}");
        }
        listed.push((d, info.name.clone()));
    }
    let mut report = BenchReport {
        date: today_utc(),
        command: opts.command.clone(),
        notes: opts.notes.clone(),
        devices: listed,
        options: opts.clone(),
        cells: Vec::new(),
        wall_s: 0.0,
    };
    for job in jobs(opts) {
        let t = Instant::now();
        progress(&format!("building {} …", job.label));
        let g = Arc::new((job.make)()?);
        if devices_wanted.contains(&DeviceId::Cpu)
            && opts.algorithms.iter().any(|a| a.variant() == Some(crate::algo::RelaxVariant::Predecessors))
        {
            g.predecessors();
        }
        let sources = pick_sources(&g, opts.sources, opts.seed);
        let oracle = dijkstra_distances(&g, sources[0]);
        progress(&format!("{}: n = {}, m = {} ({:.1} s to build)", g.name, g.n(), g.m(), t.elapsed().as_secs_f64()));
        let cells = std::thread::scope(|scope| {
            let cpu = devices_wanted.contains(&DeviceId::Cpu).then(|| {
                let (g, job, sources, oracle) = (&g, &job, &sources, &oracle);
                scope.spawn(move || {
                    opts.algorithms
                        .iter()
                        .map(|&a| run_cell(g, job, DeviceId::Cpu, a, sources, oracle, opts))
                        .collect::<Vec<_>>()
                })
            });
            let mut cells = Vec::new();
            for &d in devices_wanted.iter().filter(|d| **d != DeviceId::Cpu) {
                for &a in &opts.algorithms {
                    let c = run_cell(&g, &job, d, a, &sources, &oracle, opts);
                    progress(&cell_line(&c));
                    cells.push(c);
                }
            }
            if let Some(h) = cpu {
                match h.join() {
                    Ok(cpu_cells) => {
                        for c in cpu_cells {
                            progress(&cell_line(&c));
                            cells.push(c);
                        }
                    }
                    Err(_) => progress("the CPU worker panicked"),
                }
            }
            cells
        });
        report.cells.extend(cells);
        report.wall_s = started.elapsed().as_secs_f64();
        if let Some(dir) = &opts.out_dir {
            write_report(&report, dir, &opts.file_stem)?; // after every graph: partial results survive
        }
    }
    report.wall_s = started.elapsed().as_secs_f64();
    if let Some(dir) = &opts.out_dir {
        write_report(&report, dir, &opts.file_stem)?;
    }
    Ok(report)
}

fn cell_line(c: &Cell) -> String {
    match &c.error {
        Some(e) if c.runs.is_empty() => format!("  {} {} on {}: {e}", c.algorithm, c.device, c.graph),
        _ => format!(
            "  {:<13} {:<8} {:>10.3} ms  {:>9.1} it  {:>7.3} GTEPS  ({} sources{})",
            c.algorithm.id(),
            c.device.to_string(),
            c.mean_ms,
            c.mean_iterations,
            c.gteps,
            c.sources_run,
            if c.checked { ", checked" } else { ", NOT CHECKED" }
        ),
    }
}

/// Writes `<dir>/<stem>.json` and `<dir>/<stem>.md`.
pub fn write_report(report: &BenchReport, dir: &std::path::Path, stem: &str) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let json = dir.join(format!("{stem}.json"));
    std::fs::write(&json, serde_json::to_string_pretty(report)?)
        .with_context(|| format!("writing {}", json.display()))?;
    let md = dir.join(format!("{stem}.md"));
    std::fs::write(&md, markdown(report)).with_context(|| format!("writing {}", md.display()))?;
    Ok(())
}

fn find<'a>(r: &'a BenchReport, graph: &str, device: DeviceId, algo: Algorithm) -> Option<&'a Cell> {
    r.cells.iter().find(|c| c.graph == graph && c.device == device && c.algorithm == algo && c.sources_run > 0)
}

fn short_n(n: usize) -> String {
    if n >= 1000 { format!("{}k", n / 1000) } else { n.to_string() }
}

/// Markdown: header, Table 2 per GPU and relax variant, then every cell.
pub fn markdown(r: &BenchReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Frontier SSSP benchmark ({})\n", r.date);
    let _ = writeln!(s, "- command: `{}`", r.command);
    for (d, name) in &r.devices {
        let _ = writeln!(s, "- device {d}: {name}");
    }
    if !r.notes.is_empty() {
        let _ = writeln!(s, "- notes: {}", r.notes);
    }
    let o = &r.options;
    let _ = writeln!(
        s,
        "- fan-out graphs: weights 1..={}, seed {}; R-MAT (0.45, 0.15, 0.15), edge factor {}, weights 1..=255; \
         block sizes relax/min/update {}/{}/{}, cache {:?}",
        o.max_weight, o.seed, o.rmat_edge_factor, o.block.relax, o.block.minimum, o.block.update, o.cache
    );
    let _ = writeln!(
        s,
        "- times: mean host wall time of `run_to_end` over the sources each cell ran (graph upload and kernel \
         compilation excluded; GPU cells after one warm-up run); CPU cells stop adding sources after {} s; \
         sweep wall time {:.0} s\n",
        o.cpu_budget_s, r.wall_s
    );
    let gpus: Vec<DeviceId> = r.devices.iter().map(|d| d.0).filter(|d| *d != DeviceId::Cpu).collect();
    let has_cpu = r.devices.iter().any(|d| d.0 == DeviceId::Cpu);
    let fan: Vec<&Cell> = r.cells.iter().filter(|c| c.family == "fanout").collect();
    let mut graphs: Vec<(usize, usize, String)> = fan.iter().map(|c| (c.n, c.degree, c.graph.clone())).collect();
    graphs.sort();
    graphs.dedup();
    for &gpu in &gpus {
        for (crauser, martin, label) in [
            (crate::algo::CRAUSER_SUCC, crate::algo::MARTIN_SUCC, "successors"),
            (crate::algo::CRAUSER_PRED, crate::algo::MARTIN_PRED, "predecessors"),
        ] {
            if !r.cells.iter().any(|c| c.device == gpu && c.algorithm == crauser) {
                continue;
            }
            let _ = writeln!(s, "## Seed 000 Table 2 layout — {gpu}, {label} variant\n");
            let _ = writeln!(
                s,
                "| graph | CPU Crauser ms | GPU Crauser ms | GPU Martín ms | GPU C vs CPU C | GPU C vs GPU M | \
                 iterations C / M | sources CPU / GPU |"
            );
            let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|");
            for (n, d, name) in &graphs {
                let cpu = if has_cpu { find(r, name, DeviceId::Cpu, crauser) } else { None };
                let gc = find(r, name, gpu, crauser);
                let gm = find(r, name, gpu, martin);
                let ms = |c: Option<&Cell>| c.map_or("–".to_string(), |c| format!("{:.3}", c.mean_ms));
                let ratio = |a: Option<&Cell>, b: Option<&Cell>| match (a, b) {
                    (Some(a), Some(b)) if b.mean_ms > 0.0 => format!("{:.2}×", a.mean_ms / b.mean_ms),
                    _ => "–".into(),
                };
                let it = |c: Option<&Cell>| c.map_or("–".to_string(), |c| format!("{:.0}", c.mean_iterations));
                let _ = writeln!(
                    s,
                    "| {} deg{d} | {} | {} | {} | {} | {} | {} / {} | {} / {} |",
                    short_n(*n),
                    ms(cpu),
                    ms(gc),
                    ms(gm),
                    ratio(cpu, gc),
                    ratio(gm, gc),
                    it(gc),
                    it(gm),
                    cpu.map_or(0, |c| c.sources_run),
                    gc.map_or(0, |c| c.sources_run)
                );
            }
            let _ = writeln!(s);
        }
    }
    let _ = writeln!(s, "## Every cell\n");
    let _ = writeln!(
        s,
        "| graph | n | m | device | algorithm | mean ms | median ms | iterations | GTEPS | device MiB | sources | checked |"
    );
    let _ = writeln!(s, "|---|---:|---:|---|---|---:|---:|---:|---:|---:|---:|---|");
    for c in &r.cells {
        if c.sources_run == 0 {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | – | – | – | – | – | 0 | {} |",
                c.graph,
                c.n,
                c.m,
                c.device,
                c.algorithm,
                c.error.as_deref().unwrap_or("not run")
            );
            continue;
        }
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {:.3} | {:.3} | {:.1} | {:.3} | {} | {} | {} |",
            c.graph,
            c.n,
            c.m,
            c.device,
            c.algorithm,
            c.mean_ms,
            c.median_ms,
            c.mean_iterations,
            c.gteps,
            c.device_bytes.map_or("–".into(), |b| format!("{:.1}", b as f64 / 1048576.0)),
            c.sources_run,
            if c.checked { "yes" } else { "NO" }
        );
    }
    s
}

/// Today's date (UTC) as YYYY-MM-DD, from the system clock.
pub fn today_utc() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Civil-from-days (H. Hinnant).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_cpu_sweep_writes_a_report() {
        let dir = std::env::temp_dir().join(format!("sssp-bench-{}", std::process::id()));
        let opts = BenchOptions {
            sources: 3,
            sizes: vec![500],
            degrees: vec![2, 20],
            ny: None,
            rmat_scales: vec![8],
            out_dir: Some(dir.clone()),
            file_stem: "t".into(),
            ..Default::default()
        };
        let mut lines = Vec::new();
        let r = seed000_table2(&[DeviceId::Cpu], &opts, &mut |l| lines.push(l.to_string())).expect("sweep");
        assert_eq!(r.cells.len(), 3 * 4);
        assert!(r.cells.iter().all(|c| c.checked && c.sources_run == 3), "{:?}", r.cells);
        let md = std::fs::read_to_string(dir.join("t.md")).expect("md");
        assert!(md.contains("| rmat"));
        let back: BenchReport =
            serde_json::from_str(&std::fs::read_to_string(dir.join("t.json")).expect("json")).expect("parse");
        assert_eq!(back.cells.len(), r.cells.len());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn dates_look_like_dates() {
        let d = today_utc();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
