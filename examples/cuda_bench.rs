//! Drives the CUDA benchmarks until the CLI has a subcommand for them (see src/bench):
//!
//! ```text
//! cuda_bench [--devices cuda:0,cpu] [--out bench/results] [--stem cuda-table2] [--sources 10]
//!            [--cpu-budget 4] [--block 256,256,256] [--no-ny] [--rmat 20,21] [--sizes ..] [--degrees ..]
//!            [--tune] [--no-table] [--notes TEXT]
//! ```
//! `--tune` first sweeps the persistent kernel's block size and blocks per multiprocessor on a
//! few graphs (written to `<out>/<stem>-tune.md`).

use sssp_lab::algo::{Algorithm, BlockSizes, SolveOptions};
use sssp_lab::bench::{BenchOptions, pick_sources, seed000_table2, today_utc};
use sssp_lab::device::{DeviceId, cuda, devices, make_stepper};
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
        command: args.iter().skip(1).cloned().collect::<Vec<_>>().join(" "),
        file_stem: "cuda-table2".into(),
        ..Default::default()
    };
    opts.command = format!("cargo run --release --example cuda_bench -- {}", opts.command);
    let mut devs = vec![DeviceId::Cuda(0), DeviceId::Cpu];
    let (mut tune, mut table, mut stats) = (false, true, false);
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().unwrap_or_default();
        match a.as_str() {
            "--devices" => devs = list(&val()),
            "--out" => opts.out_dir = Some(PathBuf::from(val())),
            "--stem" => opts.file_stem = val(),
            "--sources" => opts.sources = val().parse()?,
            "--cpu-budget" => opts.cpu_budget_s = val().parse()?,
            "--gpu-budget" => opts.gpu_budget_s = val().parse()?,
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
            "--tune" => tune = true,
            "--stats" => stats = true,
            "--no-table" => table = false,
            other => anyhow::bail!("unknown argument {other}"),
        }
    }
    for d in devices() {
        println!("device {}: {} {:?}", d.id, d.name, d.status);
    }
    for d in &devs {
        if let DeviceId::Cuda(i) = d {
            match cuda::details(*i) {
                Ok(x) => println!("{}", serde_json::to_string(&x)?),
                Err(e) => println!("cuda:{i}: {e}"),
            }
        }
    }
    if stats {
        work_stats(&opts)?;
    }
    if tune {
        tune_persistent(&opts)?;
    }
    if table {
        let t = std::time::Instant::now();
        let r = seed000_table2(&devs, &opts, &mut |l| println!("{l}"))?;
        println!("sweep done in {:.1} s, {} cells", t.elapsed().as_secs_f64(), r.cells.len());
        println!("{}", sssp_lab::bench::markdown(&r));
    }
    Ok(())
}

/// Median host time of fast runs over a few sources, for each persistent-kernel shape.
fn tune_persistent(opts: &BenchOptions) -> anyhow::Result<()> {
    let (n, d) = (opts.sizes.first().copied().unwrap_or(98_304), opts.degrees.first().copied().unwrap_or(2));
    let mut graphs: Vec<Arc<Graph>> =
        vec![Arc::new(sssp_lab::generate::fanout(n, d, 100, 1).map_err(anyhow::Error::msg)?)];
    if let Some(ny) = &opts.ny {
        graphs.push(Arc::new(sssp_lab::formats::load(ny, &Default::default())?));
    }
    if let Some(&s) = opts.rmat_scales.first() {
        graphs.push(Arc::new(sssp_lab::generate::rmat(s, 16, [0.45, 0.15, 0.15], 255, 1).map_err(anyhow::Error::msg)?));
    }
    let mut md = String::new();
    let _ = writeln!(md, "# Persistent kernel shape sweep ({})\n", today_utc());
    let _ = writeln!(md, "Median host ms of `run_to_end` over 5 sources (after a warm-up run).\n");
    let _ = writeln!(md, "| graph | algorithm | block | blocks/SM | solo work | ms | iterations | µs/iteration |");
    let _ = writeln!(md, "|---|---|---:|---:|---:|---:|---:|---:|");
    for g in &graphs {
        let sources = pick_sources(g, 5, 7);
        let algos: &[Algorithm] = if g.n() > 200_000 && g.m() < 2_000_000 {
            &[sssp_lab::algo::CRAUSER_SUCC] // NY: Martín's 227 k iterations take too long to sweep
        } else {
            &[sssp_lab::algo::CRAUSER_SUCC, sssp_lab::algo::MARTIN_SUCC]
        };
        for &algo in algos {
            for block in [256u32, 512, 1024] {
                for (per_sm, solo) in [
                    (Some(1u32), None),
                    (Some(2), None),
                    (Some(4), None),
                    (Some(8), None),
                    (Some(2), Some(0u64)),
                    (Some(2), Some(4 * block as u64)),
                    (Some(2), Some(32 * block as u64)),
                ] {
                    if per_sm.is_some_and(|p| p * block > 2048) {
                        continue;
                    }
                    cuda::set_persistent_blocks_per_sm(per_sm);
                    cuda::set_solo_work(solo);
                    let solve = SolveOptions { block: BlockSizes::uniform(block), ..Default::default() };
                    let mut times = Vec::new();
                    let mut iters = 0;
                    for (k, &s) in std::iter::once(&sources[0]).chain(sources.iter()).enumerate() {
                        let mut st = make_stepper(DeviceId::Cuda(0), Arc::clone(g), algo, s, &solve)?;
                        let r = st.run_to_end(&AtomicBool::new(false), &mut |_| {})?;
                        if k > 0 {
                            times.push(r.total_ms);
                            iters = r.iterations;
                        }
                    }
                    times.sort_by(f64::total_cmp);
                    let med = times[times.len() / 2];
                    let line = format!(
                        "| {} | {algo} | {block} | {} | {} | {med:.3} | {iters} | {:.2} |",
                        g.name,
                        per_sm.map_or("max".into(), |p| p.to_string()),
                        solo.map_or(format!("{} (default)", 8 * block), |w| w.to_string()),
                        med * 1e3 / iters.max(1) as f64
                    );
                    println!("{line}");
                    let _ = writeln!(md, "{line}");
                }
            }
        }
    }
    cuda::set_persistent_blocks_per_sm(None);
    cuda::set_solo_work(None);
    if let Some(dir) = &opts.out_dir {
        std::fs::create_dir_all(dir)?;
        std::fs::write(dir.join(format!("{}-tune.md", opts.file_stem)), md)?;
    }
    Ok(())
}

/// Work a frontier solver does, from the CPU stepper's records: Σ|F|, Σ|R| (reached unsettled
/// after the relax: what a compacted update scans), arcs relaxed — the numbers behind the
/// bytes-moved estimates of the benchmark report.
fn work_stats(opts: &BenchOptions) -> anyhow::Result<()> {
    let mut graphs: Vec<Arc<Graph>> = Vec::new();
    for &n in &opts.sizes {
        for &d in &opts.degrees {
            graphs.push(Arc::new(
                sssp_lab::generate::fanout(n, d, opts.max_weight, opts.seed).map_err(anyhow::Error::msg)?,
            ));
        }
    }
    for &s in &opts.rmat_scales {
        graphs.push(Arc::new(
            sssp_lab::generate::rmat(s, 16, [0.45, 0.15, 0.15], 255, opts.seed).map_err(anyhow::Error::msg)?,
        ));
    }
    if let Some(ny) = &opts.ny {
        graphs.push(Arc::new(sssp_lab::formats::load(ny, &Default::default())?));
    }
    println!("| graph | algorithm | source | iterations | Σ|F| | Σ|R| | Σ arcs scanned | reached |");
    for g in &graphs {
        let src = pick_sources(g, 1, opts.seed)[0];
        for algo in [sssp_lab::algo::CRAUSER_SUCC, sssp_lab::algo::MARTIN_SUCC] {
            let mut st = make_stepper(DeviceId::Cpu, Arc::clone(g), algo, src, &SolveOptions::default())?;
            let r = st.run_to_end(&AtomicBool::new(false), &mut |_| {})?;
            let sf: u64 = r.records.iter().map(|x| x.frontier).sum();
            let sr: u64 = r.records.iter().map(|x| x.reached).sum();
            let se: u64 = r.records.iter().map(|x| x.edges_scanned).sum();
            println!("| {} | {algo} | {src} | {} | {sf} | {sr} | {se} | {} |", g.name, r.iterations, r.reached);
        }
    }
    Ok(())
}
