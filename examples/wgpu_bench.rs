//! The CUDA issue's benchmark for the wgpu device, and wgpu against CUDA on the same GPU:
//!
//! ```text
//! wgpu_bench [--devices wgpu:0,cuda:0] [--out bench/results] [--stem wgpu-table2] [--sources 3]
//!            [--gpu-budget 5] [--block 256,256,256] [--no-ny] [--ny PATH] [--rmat 20,21]
//!            [--sizes ..] [--degrees ..] [--algorithms ..] [--no-breakdown] [--no-sweep]
//!            [--cuda-json bench/results/cuda-table2.json] [--notes TEXT]
//! ```
//!
//! 1. The device-generic sweep of `sssp_lab::bench` (random fan-out graphs n ∈ {24 576, 49 152,
//!    98 304} × d ∈ {2, 20, 200, 1000, 2000}, NY road network, R-MAT 20/21) on every device named,
//!    written to `<out>/<stem>.json` and `.md`.
//! 2. With a CUDA and a wgpu device in the list, or a CUDA report given with `--cuda-json` (a
//!    run of the same sweep on the same kind of GPU, e.g. `cuda_bench`'s): `<out>/<stem>-vs-cuda.md`,
//!    the same graph, algorithm and sources side by side (mean ms over the sources both ran,
//!    ratio wgpu / CUDA, iterations).
//! 3. The wgpu time split (unless `--no-breakdown`): for one source per graph and algorithm,
//!    GPU time of the relax and update kernels (timestamps) against the host time of the run,
//!    the fast path against the papers' vertex-parallel kernels, and µs per iteration —
//!    what explains the difference to CUDA. Appended to `wgpu-vs-cuda.md`.

use sssp_lab::algo::{Algorithm, BlockSizes, SolveOptions, Stepper};
use sssp_lab::bench::{BenchOptions, BenchReport, Cell, pick_sources, seed000_table2, today_utc};
use sssp_lab::device::wgpu::{self as gw, WgpuTuning};
use sssp_lab::device::{DeviceId, devices};
use sssp_lab::graph::Graph;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn list<T: std::str::FromStr>(s: &str) -> Vec<T>
where
    T::Err: std::fmt::Debug,
{
    s.split(',').filter(|x| !x.is_empty()).map(|x| x.trim().parse().expect("bad list item")).collect()
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let mut opts = BenchOptions {
        sources: 3,
        gpu_budget_s: 5.0,
        file_stem: "wgpu-table2".into(),
        command: format!("cargo run --release --example wgpu_bench -- {}", args[1..].join(" ")),
        ..Default::default()
    };
    let mut devs = vec![DeviceId::Wgpu(0)];
    let mut breakdown = true;
    let mut sweep = true;
    let mut cuda_json: Option<PathBuf> = None;
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().unwrap_or_default();
        match a.as_str() {
            "--devices" => devs = list(&val()),
            "--out" => opts.out_dir = Some(PathBuf::from(val())),
            "--stem" => opts.file_stem = val(),
            "--sources" => opts.sources = val().parse()?,
            "--gpu-budget" => opts.gpu_budget_s = val().parse()?,
            "--cpu-budget" => opts.cpu_budget_s = val().parse()?,
            "--block" => {
                let b: Vec<u32> = list(&val());
                opts.block = BlockSizes { relax: b[0], minimum: b[1], update: b[2] };
            }
            "--no-ny" => opts.ny = None,
            "--ny" => opts.ny = Some(PathBuf::from(val())),
            "--rmat" => opts.rmat_scales = list(&val()),
            "--sizes" => opts.sizes = list(&val()),
            "--degrees" => opts.degrees = list(&val()),
            "--algorithms" => opts.algorithms = list(&val()),
            "--notes" => opts.notes = val(),
            "--no-breakdown" => breakdown = false,
            "--no-sweep" => sweep = false,
            "--cuda-json" => cuda_json = Some(PathBuf::from(val())),
            other => anyhow::bail!("unknown argument {other}"),
        }
    }
    for d in devices() {
        println!("device {}: {} {:?}", d.id, d.name, d.status);
    }
    let cuda = devs.iter().copied().find(|d| matches!(d, DeviceId::Cuda(_)));
    let wgpu = devs.iter().copied().find(|d| matches!(d, DeviceId::Wgpu(_)));
    let mut md = String::new();
    if sweep {
        let t = std::time::Instant::now();
        let report = seed000_table2(&devs, &opts, &mut |l| println!("{l}"))?;
        println!("sweep done in {:.1} s, {} cells", t.elapsed().as_secs_f64(), report.cells.len());
        let other: Option<BenchReport> = match &cuda_json {
            Some(p) => Some(serde_json::from_str(&std::fs::read_to_string(p)?)?),
            None => None,
        };
        let cuda_report = other.as_ref().unwrap_or(&report);
        let cuda_dev =
            cuda.or_else(|| cuda_report.devices.iter().map(|d| d.0).find(|d| matches!(d, DeviceId::Cuda(_))));
        if let (Some(c), Some(w)) = (cuda_dev, wgpu) {
            md.push_str(&compare(cuda_report, &report, c, w));
        }
    }
    if let (Some(DeviceId::Wgpu(i)), true) = (wgpu, breakdown) {
        md.push_str(&split(i, &opts)?);
    }
    println!("{md}");
    if let Some(dir) = opts.out_dir.as_ref().filter(|_| !md.is_empty()) {
        std::fs::create_dir_all(dir)?;
        std::fs::write(dir.join(format!("{}-vs-cuda.md", opts.file_stem)), &md)?;
    }
    Ok(())
}

fn cell<'a>(r: &'a BenchReport, graph: &str, d: DeviceId, a: Algorithm) -> Option<&'a Cell> {
    r.cells.iter().find(|c| c.graph == graph && c.device == d && c.algorithm == a && c.sources_run > 0)
}

/// Large graphs of the target: fan-out n = 98 304 with d ≥ 200, and R-MAT.
fn is_large(c: &Cell) -> bool {
    (c.family == "fanout" && c.n >= 98_304 && c.degree >= 200) || c.family == "rmat"
}

/// Mean ms of `c` over the sources in `only` (all when `only` is empty), and how many.
fn mean_over(c: &Cell, only: &[u32]) -> (f64, usize) {
    let runs: Vec<f64> = c.runs.iter().filter(|r| only.is_empty() || only.contains(&r.0)).map(|r| r.1).collect();
    (runs.iter().sum::<f64>() / runs.len().max(1) as f64, runs.len())
}

/// wgpu against CUDA, cell by cell over the sources both ran, with the summary over the large
/// graphs.
fn compare(rc: &BenchReport, rw: &BenchReport, cuda: DeviceId, wgpu: DeviceId) -> String {
    let mut s = String::new();
    let name =
        |r: &BenchReport, d: DeviceId| r.devices.iter().find(|x| x.0 == d).map_or(String::new(), |x| x.1.clone());
    let _ = writeln!(s, "# wgpu against CUDA on the same GPU ({})\n", rw.date);
    let _ = writeln!(s, "- wgpu run: `{}` ({})", rw.command, rw.notes);
    let _ = writeln!(s, "- CUDA run: `{}` ({}, {})", rc.command, rc.date, rc.notes);
    let _ = writeln!(s, "- {cuda}: {}", name(rc, cuda));
    let _ = writeln!(s, "- {wgpu}: {}", name(rw, wgpu));
    let _ = writeln!(
        s,
        "- times: mean host wall time of `run_to_end` (fast mode, graph upload and kernel compilation excluded, \
         one warm-up run per cell) over the sources both devices ran (the sweep's sources are the same seeded \
         picks on both); ratio = wgpu / CUDA (< 1: wgpu faster)\n"
    );
    let _ = writeln!(
        s,
        "| graph | algorithm | sources | CUDA ms | wgpu ms | wgpu / CUDA | iterations CUDA / wgpu | checked |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|---:|---|");
    let mut large = Vec::new();
    let mut graphs: Vec<String> = rw.cells.iter().map(|c| c.graph.clone()).collect();
    graphs.dedup();
    for g in &graphs {
        for &a in &rw.options.algorithms {
            let (Some(c), Some(w)) = (cell(rc, g, cuda, a), cell(rw, g, wgpu, a)) else {
                let err = rw
                    .cells
                    .iter()
                    .chain(&rc.cells)
                    .filter(|x| &x.graph == g && x.algorithm == a && (x.device == cuda || x.device == wgpu))
                    .filter_map(|x| x.error.clone().map(|e| format!("{}: {e}", x.device)))
                    .collect::<Vec<_>>()
                    .join("; ");
                let _ = writeln!(s, "| {g} | {a} | 0 | – | – | – | – | {err} |");
                continue;
            };
            let both: Vec<u32> = w.runs.iter().map(|r| r.0).filter(|x| c.runs.iter().any(|r| r.0 == *x)).collect();
            let (cm, k) = mean_over(c, &both);
            let (wm, _) = mean_over(w, &both);
            let ratio = wm / cm;
            if is_large(w) {
                large.push((ratio, g.clone(), a));
            }
            let _ = writeln!(
                s,
                "| {g} | {a} | {k} | {cm:.3} | {wm:.3} | {ratio:.2}× | {:.0} / {:.0} | {} |",
                c.mean_iterations,
                w.mean_iterations,
                if c.checked && w.checked { "both" } else { "NO" }
            );
        }
    }
    if !large.is_empty() {
        large.sort_by(|a, b| a.0.total_cmp(&b.0));
        let worst = &large[large.len() - 1];
        let within = large.iter().filter(|x| x.0 <= 1.5).count();
        let _ = writeln!(
            s,
            "\nLarge graphs (fan-out n = 98 304, d ≥ 200; R-MAT): {within} of {} cells within 1.5× of CUDA; median \
             ratio {:.2}×, worst {:.2}× ({} {}).\n",
            large.len(),
            large[large.len() / 2].0,
            worst.0,
            worst.1,
            worst.2
        );
    }
    s
}

/// One source per graph and algorithm on wgpu: kernel (timestamp) time against host time, the
/// fast path against the vertex-parallel kernels.
fn split(index: u32, opts: &BenchOptions) -> anyhow::Result<String> {
    let mut s = String::new();
    let _ = writeln!(s, "## wgpu time split ({})\n", today_utc());
    let _ = writeln!(
        s,
        "One source per graph (the sweep's first), after a warm-up run. *host ms*: `run_to_end` wall time; \
         *kernel ms*: sum of the GPU timestamps of every relax / minimum / update pass; *µs/it*: host time per \
         iteration. *fast*: lists, teams, minimum fused into relax and update, a batch of iterations in one compute \
         pass (2 dispatches per iteration), no timestamps; *fast + timestamps*: the same kernels, one timed pass \
         per kernel; *vertex-parallel*: the papers' launch shape (n invocations per kernel, 3 timed passes with \
         min1 + sssp_min2).\n"
    );
    let _ = writeln!(
        s,
        "| graph | algorithm | iterations | fast host ms | fast µs/it | fast + timestamps host ms | its relax / update \
         kernel ms | vertex-parallel host ms | its relax / minimum / update kernel ms |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut graphs: Vec<Arc<Graph>> = Vec::new();
    for &n in &opts.sizes {
        for &d in &opts.degrees {
            if n == *opts.sizes.iter().max().unwrap_or(&n) {
                graphs.push(Arc::new(
                    sssp_lab::generate::fanout(n, d, opts.max_weight, opts.seed).map_err(anyhow::Error::msg)?,
                ));
            }
        }
    }
    if let Some(ny) = &opts.ny {
        graphs.push(Arc::new(sssp_lab::formats::load(ny, &Default::default())?));
    }
    for &scale in &opts.rmat_scales {
        graphs.push(Arc::new(
            sssp_lab::generate::rmat(scale, opts.rmat_edge_factor, [0.45, 0.15, 0.15], 255, opts.seed)
                .map_err(anyhow::Error::msg)?,
        ));
    }
    let solve = SolveOptions { block: opts.block, ..Default::default() };
    if let Some(dir) = &opts.out_dir {
        std::fs::create_dir_all(dir)?;
    }
    for g in &graphs {
        let src = pick_sources(g, 1, opts.seed)[0];
        for &a in &opts.algorithms {
            let mut row = Vec::new();
            let mut iterations = 0;
            for (vertex_parallel, fast_timestamps) in [(false, false), (false, true), (true, true)] {
                // The vertex-parallel kernels for Crauser only (Martín on the road network:
                // 227 k iterations of n-invocation kernels).
                if vertex_parallel && a.threshold() == Some(sssp_lab::algo::Threshold::Martin) {
                    row.push(("–".to_string(), "–".to_string(), "–".to_string()));
                    continue;
                }
                let tuning = WgpuTuning { vertex_parallel, fast_timestamps, ..Default::default() };
                let mut best: Option<sssp_lab::algo::RunRecord> = None;
                let mut err = None;
                for _ in 0..2 {
                    match gw::stepper_with(index, Arc::clone(g), a, src, &solve, tuning)
                        .and_then(|mut st| st.run_to_end(&AtomicBool::new(false), &mut |_| {}))
                    {
                        Ok(r) => best = Some(r),
                        Err(e) => err = Some(e.to_string()),
                    }
                }
                let Some(r) = best else {
                    row.push((format!("error: {}", err.unwrap_or_default()), "–".into(), "–".into()));
                    continue;
                };
                iterations = r.iterations;
                let t = &r.times;
                row.push((
                    format!("{:.3}", r.total_ms),
                    if vertex_parallel {
                        format!("{:.3} / {:.3} / {:.3}", t.relax_ms, t.minimum_ms, t.update_ms)
                    } else {
                        format!("{:.3} / {:.3}", t.relax_ms, t.update_ms)
                    },
                    format!("{:.1}", r.total_ms * 1e3 / r.iterations.max(1) as f64),
                ));
            }
            let line = format!(
                "| {} | {a} | {iterations} | {} | {} | {} | {} | {} | {} |",
                g.name, row[0].0, row[0].2, row[1].0, row[1].1, row[2].0, row[2].1
            );
            println!("{line}");
            let _ = writeln!(s, "{line}");
            if let Some(dir) = &opts.out_dir {
                // Partial results survive a time limit.
                let _ = std::fs::write(dir.join(format!("{}-split.md", opts.file_stem)), &s);
            }
        }
    }
    Ok(s)
}
