//! The benchmark lab (issue 5): experiment files, the background runner, the headless CLI
//! function and Boost as a pseudo-device.

use sssp_lab::algo::{Algorithm, BlockSizes, CachePreference};
use sssp_lab::cli::bench;
use sssp_lab::device::DeviceId;
use sssp_lab::generate::GeneratorSpec;
use sssp_lab::jobs::no_repaint;
use sssp_lab::lab::{self, BlockSpec, Experiment, GraphEntry, LabDevice, LabEvent, LabOutcome, LabRun, SourceSpec};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn experiments() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("experiments"))
        .expect("experiments/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    v
}

fn fanout(n: usize, d: usize) -> GraphEntry {
    GraphEntry { generate: Some(GeneratorSpec::Fanout { n, d, max_weight: 100, seed: 1 }), ..Default::default() }
}

fn small(devices: Vec<LabDevice>, algorithms: Vec<Algorithm>) -> Experiment {
    // Every other field as an experiment file that leaves it out has it (serde's defaults).
    let mut exp: Experiment = serde_json::from_str(r#"{"name": "t", "graphs": [], "algorithms": []}"#).expect("parses");
    exp.graphs = vec![fanout(500, 4)];
    exp.algorithms = algorithms.into_iter().map(Into::into).collect();
    exp.devices = devices;
    exp.sources = SourceSpec::Ids(vec![0, 7]);
    exp
}

#[test]
fn every_bundled_experiment_round_trips_through_json_and_validates() {
    let files = experiments();
    // The paper's tables and figures, Boost, smoke, and gpu-table2 (the old bench-gpu sweep).
    assert!(files.len() >= 10, "expected the bundled experiments, found {files:?}");
    for path in files {
        let exp = Experiment::load(&path).unwrap_or_else(|e| panic!("{}: {e:#}", path.display()));
        assert!(!exp.description.is_empty(), "{} has no description", path.display());
        // `sssp-lab bench` writes to bench/results/<file stem>, the report is titled by name.
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned());
        assert_eq!(Some(&exp.name), stem.as_ref(), "{}: name and file name differ", path.display());
        let text = serde_json::to_string_pretty(&exp).expect("serialize");
        let back: Experiment = serde_json::from_str(&text).expect("parse back");
        assert_eq!(back, exp, "{}", path.display());
        for g in lab::plan::plan_graphs(&exp).expect("plan") {
            if let lab::graphs::GraphOrigin::File { path: file, .. } = &g.origin {
                // bench/graphs/ holds the peers' graphs that scripts/peer-bench.sh writes on the
                // GPU machine (GAP's generator; a gigabyte each): not in the repository.
                if file.starts_with("bench/graphs") {
                    continue;
                }
                let found = lab::graphs::resolve_path(file, path.parent().unwrap_or(root()));
                assert!(found.exists(), "{}: {} is missing", path.display(), file.display());
            }
        }
    }
}

#[test]
fn block_spec_expands_uniform_and_per_kernel_lists_without_duplicates() {
    assert_eq!(BlockSpec::default().configs(), vec![BlockSizes::default()]);
    let all = BlockSpec { all: vec![128, 256, 128], ..Default::default() };
    assert_eq!(all.configs(), vec![BlockSizes::uniform(128), BlockSizes::uniform(256)]);
    let per = BlockSpec { relax: vec![64, 128], update: vec![32], ..Default::default() };
    assert_eq!(
        per.configs(),
        vec![BlockSizes { relax: 64, minimum: 256, update: 32 }, BlockSizes { relax: 128, minimum: 256, update: 32 }]
    );
}

#[test]
fn sizes_and_degrees_expand_a_family() {
    let entry = GraphEntry { sizes: vec![1000, 2000, 4000], degrees: vec![2, 20], ..fanout(10, 1) };
    let plans = lab::graphs::expand(&entry).expect("expand");
    assert_eq!(plans.len(), 6);
    assert_eq!((plans[5].size_label.as_str(), plans[5].degree_label.as_str()), ("4k", "deg20"));
    let bad = GraphEntry {
        degrees: vec![3],
        generate: Some(GeneratorSpec::Martin { n: 100, seed: 1 }),
        ..Default::default()
    };
    assert!(lab::graphs::expand(&bad).is_err());
}

#[test]
fn smoke_experiment_runs_headless_and_every_row_matches_dijkstra() {
    let out = tempfile::tempdir().expect("tempdir");
    // LAB_SMOKE_OUT=DIR keeps the outputs for a look.
    let keep = std::env::var_os("LAB_SMOKE_OUT").map(PathBuf::from);
    let dir = keep.as_deref().unwrap_or(out.path());
    let t = Instant::now();
    bench::run_experiment(&root().join("experiments/smoke.json"), dir, &bench::Overrides::default())
        .expect("smoke run");
    eprintln!("smoke took {:.1} s", t.elapsed().as_secs_f64());
    let res = lab::result::read_json(&dir.join("results.json")).expect("results.json");
    assert_eq!(res.outcome, "completed");
    let measured: Vec<_> = res.rows.iter().filter(|r| r.is_measured()).collect();
    // 5 graphs × (4 cpu + 3 cpu-par algorithms) × 3 sources × 2 repetitions.
    assert_eq!(measured.len(), 5 * 7 * 3 * 2);
    assert!(
        measured.iter().all(|r| r.correct == Some(true) && r.mismatches == Some(0)),
        "a run disagrees with Dijkstra"
    );
    assert!(res.rows.iter().all(|r| r.error.is_none()), "{:?}", res.rows.iter().find(|r| r.error.is_some()));
    // dijkstra on cpu-par is not supported: one skipped row per graph, with the reason.
    let skipped: Vec<_> = res.rows.iter().filter(|r| r.skipped.is_some()).collect();
    assert_eq!(skipped.len(), 5);
    assert!(skipped.iter().all(|r| r.device == "cpu-par:2" && r.algorithm == "dijkstra"));
    assert!(
        measured
            .iter()
            .filter(|r| r.algorithm != "dijkstra")
            .all(|r| r.dummy_ratio.is_some_and(|d| (0.0..=1.0).contains(&d)))
    );
    let csv = lab::result::read_csv(&dir.join("results.csv")).expect("results.csv");
    assert_eq!(csv.len(), res.rows.len());
    let md = std::fs::read_to_string(dir.join("report.md")).expect("report.md");
    assert!(md.contains("Speedups over dijkstra @ cpu"), "{md}");
    assert!(md.contains("| 4k deg20 |"), "{md}");
    assert!(md.contains("walshaw"), "{md}");
}

#[test]
fn cancel_stops_a_run_early() {
    let mut exp =
        small(vec![LabDevice::Solver(DeviceId::Cpu)], vec![sssp_lab::algo::MARTIN_SUCC, sssp_lab::algo::CRAUSER_SUCC]);
    exp.graphs = vec![fanout(20_000, 20)];
    exp.sources = SourceSpec::Random { count: 50, seed: 3 };
    exp.repetitions = 5;
    let mut run: LabRun = lab::start_run(exp, root().to_path_buf(), no_repaint());
    let mut rows = 0;
    let t = Instant::now();
    while let Ok(ev) = run.recv_timeout(Duration::from_secs(60)) {
        if let LabEvent::Row(_) = ev {
            rows += 1;
            if rows == 2 {
                run.cancel();
            }
        }
    }
    assert!(run.is_finished());
    assert_eq!(run.wait(), Ok(LabOutcome::Cancelled));
    assert!(rows < 10, "{rows} rows after cancel");
    assert!(t.elapsed() < Duration::from_secs(60));
}

#[test]
fn unavailable_devices_and_unsupported_algorithms_are_rows_with_a_reason() {
    let exp = small(
        vec![
            LabDevice::Solver(DeviceId::Cpu),
            LabDevice::Solver(DeviceId::Cuda(7)),
            LabDevice::Solver(DeviceId::CpuParallel(2)),
        ],
        vec![sssp_lab::algo::DIJKSTRA, sssp_lab::algo::CRAUSER_PRED],
    );
    let res = lab::run_blocking(&exp, root(), &mut |_, _| {});
    assert_eq!(res.outcome, "completed");
    let skipped: Vec<_> = res.rows.iter().filter(|r| r.skipped.is_some()).collect();
    // cuda:7 × 2 algorithms, and dijkstra on cpu-par.
    assert_eq!(skipped.len(), 3, "{skipped:?}");
    assert!(
        skipped
            .iter()
            .filter(|r| r.device == "cuda:7")
            .all(|r| r.skipped.as_deref().is_some_and(|s| s.contains("unavailable")))
    );
    assert_eq!(res.rows.iter().filter(|r| r.is_measured()).count(), 3 * 2);
    assert!(res.rows.iter().filter(|r| r.is_measured()).all(|r| r.correct == Some(true)));
}

#[test]
fn a_cell_budget_keeps_the_first_source_and_drops_the_rest() {
    let mut exp =
        small(vec![LabDevice::Solver(DeviceId::Cpu)], vec![sssp_lab::algo::DIJKSTRA, sssp_lab::algo::MARTIN_SUCC]);
    exp.sources = SourceSpec::Random { count: 4, seed: 1 };
    exp.repetitions = 2;
    // Command-line overrides go through validation: a zero budget is refused.
    let zero = bench::Overrides { cell_budget: Some(0.0), ..Default::default() };
    assert!(zero.apply(&mut exp.clone()).is_err());
    bench::Overrides { cell_budget: Some(1e-9), ..Default::default() }.apply(&mut exp).expect("valid");
    let mut last = None;
    let res = lab::run_blocking(&exp, root(), &mut |_, r| last = Some(r.rows.len()));
    assert_eq!(res.outcome, "completed");
    for algo in ["dijkstra", "martin-succ"] {
        let rows: Vec<_> = res.rows.iter().filter(|r| r.algorithm == algo).collect();
        // One source, both repetitions.
        assert_eq!(rows.len(), 2, "{algo}: {rows:?}");
        assert!(rows.iter().all(|r| r.source == rows[0].source && r.correct == Some(true)));
    }
    assert!(last.is_some());
}

#[test]
fn a_missing_graph_file_gives_error_rows_not_a_failed_run() {
    let mut exp = small(vec![LabDevice::Solver(DeviceId::Cpu)], vec![sssp_lab::algo::DIJKSTRA]);
    exp.graphs.push(GraphEntry { file: Some("tests/data/no-such-file.gr".into()), ..Default::default() });
    let res = lab::run_blocking(&exp, root(), &mut |_, _| {});
    assert_eq!(res.outcome, "completed");
    assert_eq!(res.rows.iter().filter(|r| r.error.is_some()).count(), 1);
    assert_eq!(res.rows.iter().filter(|r| r.is_measured()).count(), 2);
}

#[test]
fn boost_distances_match_dijkstra_when_boost_is_installed() {
    if let Err(reason) = lab::boost::harness() {
        eprintln!("skipping: {reason}");
        return;
    }
    let mut exp = small(vec![LabDevice::Boost, LabDevice::Solver(DeviceId::Cpu)], vec![sssp_lab::algo::DIJKSTRA]);
    exp.graphs.push(GraphEntry { file: Some("tests/data/rome99.gr.gz".into()), ..Default::default() });
    exp.repetitions = 2;
    let res = lab::run_blocking(&exp, root(), &mut |_, _| {});
    let boost: Vec<_> = res.rows.iter().filter(|r| r.device == "boost").collect();
    assert_eq!(boost.len(), 2 * 2 * 2, "{boost:?}");
    assert!(boost.iter().all(|r| r.is_measured() && r.correct == Some(true)), "{boost:?}");
    assert!(boost.iter().all(|r| r.peak_host_bytes.is_some_and(|b| b > 0)));
}

/// Our `dijkstra` against Boost's, side by side in one run (NY road network and a random
/// fan-out graph, n = 98 304, d = 20). Run it optimised:
/// `cargo test --release --test lab -- --ignored boost_vs_dijkstra --nocapture`;
/// writes `bench/results/boost-vs-dijkstra/`.
#[test]
#[ignore = "a benchmark: run explicitly, in release mode"]
fn boost_vs_dijkstra() {
    let path = root().join("experiments/boost-vs-dijkstra.json");
    bench::run_experiment(&path, &root().join(bench::default_out_dir(&path)), &bench::Overrides::default())
        .expect("run");
}

/// Runs any experiment file headless until the lead wires `sssp-lab bench`:
/// `LAB_EXPERIMENT=experiments/x.json [LAB_OUT=DIR] cargo test --release --test lab -- --ignored run_experiment_from_env`.
#[test]
#[ignore = "runs the experiment named by LAB_EXPERIMENT"]
fn run_experiment_from_env() {
    let Some(path) = std::env::var_os("LAB_EXPERIMENT").map(PathBuf::from) else {
        eprintln!("set LAB_EXPERIMENT");
        return;
    };
    let out = std::env::var_os("LAB_OUT").map_or_else(|| bench::default_out_dir(&path), PathBuf::from);
    bench::run_experiment(&path, &out, &bench::Overrides::default()).expect("run");
}

#[test]
fn kernel_characterization_reports_best_block_per_kernel_and_the_gain_over_the_default() {
    let mut exp = small(vec![LabDevice::Solver(DeviceId::Cpu)], vec![sssp_lab::algo::CRAUSER_SUCC]);
    exp.kind = lab::ExperimentKind::KernelCharacterization;
    exp.graphs = vec![GraphEntry { sizes: vec![1000, 2000], degrees: vec![2, 20], ..fanout(1000, 2) }];
    exp.block = BlockSpec { all: vec![128, 256], ..Default::default() };
    exp.cache = vec![CachePreference::Default, CachePreference::PreferL1];
    let res = lab::run_blocking(&exp, root(), &mut |_, _| {});
    // The CPU runs every block size in a kernel characterization (only the first cache).
    assert_eq!(res.rows.iter().filter(|r| r.is_measured()).count(), 4 * 2 * 2);
    assert!(res.rows.iter().all(|r| r.relax_ms.is_some() && r.correct == Some(true)));
    let md = lab::report::markdown(&res);
    if let Some(dir) = std::env::var_os("LAB_SMOKE_OUT") {
        let _ = std::fs::write(Path::new(&dir).join("kernel-report.md"), &md);
    }
    assert!(md.contains("seed 000 Table 1 layout"), "{md}");
    assert!(md.contains("| 2k relax |"), "{md}");
    assert!(md.contains("-N |"), "{md}");
    assert!(md.contains("% (") && md.contains("Table 4"), "{md}");
}

/// Re-renders `report.md` from a `results.json`:
/// `LAB_RESULTS=DIR/results.json cargo test --test lab -- --ignored report_from_env`.
#[test]
#[ignore = "renders the results named by LAB_RESULTS"]
fn report_from_env() {
    let Some(path) = std::env::var_os("LAB_RESULTS").map(PathBuf::from) else {
        eprintln!("set LAB_RESULTS");
        return;
    };
    let res = lab::result::read_json(&path).expect("results.json");
    let out = std::env::var_os("LAB_OUT").map_or_else(|| path.with_file_name("report.md"), PathBuf::from);
    std::fs::write(&out, lab::report::markdown(&res)).expect("write report");
}

/// Hand-made results: two generated graphs and a file, `dijkstra @ cpu` (the baseline, with peak
/// host memory) against `crauser-succ @ cuda:0` at two block sizes (with device memory).
fn synthetic_results(kind: lab::ExperimentKind) -> lab::LabResults {
    let mut exp = small(vec![LabDevice::Solver(DeviceId::Cpu)], vec![sssp_lab::algo::DIJKSTRA]);
    exp.kind = kind;
    exp.baseline =
        Some(lab::Baseline { algorithm: sssp_lab::algo::DIJKSTRA.into(), device: LabDevice::Solver(DeviceId::Cpu) });
    let graphs = [("fanout 2k d2", "2k", "deg2"), ("fanout 2k d20", "2k", "deg20"), ("add20.graph.gz", "add20", "")];
    let mut rows = Vec::new();
    for (gi, (graph, size, degree)) in graphs.into_iter().enumerate() {
        let base = lab::LabResult {
            experiment: "t".into(),
            graph: graph.into(),
            group: if degree.is_empty() { "walshaw" } else { "fanout" }.into(),
            size_label: size.into(),
            degree_label: degree.into(),
            n: 2000,
            m: 40_000,
            cache: "default".into(),
            correct: Some(true),
            ..Default::default()
        };
        for source in 0..3u32 {
            let scale = (gi as f64 + 1.0) * (1.0 + source as f64 * 0.1);
            rows.push(lab::LabResult {
                algorithm: "dijkstra".into(),
                device: "cpu".into(),
                block_relax: 256,
                block_minimum: 256,
                block_update: 256,
                source: Some(source),
                total_ms: Some(40.0 * scale),
                gteps: Some(0.001 / scale),
                peak_host_bytes: Some((20 + gi as u64) << 20),
                ..base.clone()
            });
            for (block, factor) in [(128u32, 1.3), (256, 1.0), (512, 1.6)] {
                rows.push(lab::LabResult {
                    algorithm: "crauser-succ".into(),
                    device: "cuda:0".into(),
                    block_relax: block,
                    block_minimum: block,
                    block_update: block,
                    source: Some(source),
                    total_ms: Some(0.3 * scale * factor),
                    relax_ms: Some(0.1 * scale * factor),
                    minimum_ms: Some(0.05 * scale),
                    update_ms: Some(0.02 * scale / factor),
                    gteps: Some(0.13 / scale / factor),
                    device_bytes: Some(3 << 20),
                    ..base.clone()
                });
            }
        }
        rows.push(lab::LabResult {
            algorithm: "dijkstra".into(),
            device: "cpu-par:2".into(),
            skipped: Some("unsupported".into()),
            ..base
        });
    }
    lab::LabResults {
        experiment: Some(exp),
        date: "2025-01-01".into(),
        outcome: "completed".into(),
        wall_s: 1.5,
        rows,
        ..Default::default()
    }
}

fn assert_png(path: &Path) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{} is not a PNG", path.display());
    // A blank 1000 × 600 white PNG compresses to ~3 KiB; axes, text and lines take far more.
    assert!(bytes.len() > 15_000, "{} has only {} bytes", path.display(), bytes.len());
}

#[test]
fn outputs_include_png_plots_linked_from_the_report() {
    let dir = tempfile::tempdir().expect("tempdir");
    let res = synthetic_results(lab::ExperimentKind::Sweep);
    lab::write_outputs(&res, dir.path()).expect("write outputs");
    // LAB_PLOTS_OUT=DIR keeps a copy for a look.
    if let Some(keep) = std::env::var_os("LAB_PLOTS_OUT") {
        lab::write_outputs(&res, Path::new(&keep)).expect("write kept outputs");
        let kernels = synthetic_results(lab::ExperimentKind::KernelCharacterization);
        lab::write_outputs(&kernels, &Path::new(&keep).join("kernels")).expect("write kept outputs");
    }
    let files = lab::report::plots::write_plots(&res, dir.path()).expect("plots");
    let names: Vec<&str> = files.iter().map(|f| f.file.as_str()).collect();
    for want in ["time-per-graph", "speedup", "time-vs-block", "memory", "gteps"] {
        assert!(names.contains(&format!("plots/{want}.png").as_str()), "{want} missing from {names:?}");
    }
    assert!(!names.iter().any(|n| n.contains("kernels")), "{names:?}");
    let md = std::fs::read_to_string(dir.path().join("report.md")).expect("report.md");
    assert!(md.contains("## Plots"), "{md}");
    for f in &files {
        assert_png(&dir.path().join(&f.file));
        assert!(md.contains(&format!("![{}]({})", f.title, f.file)), "{} not linked:\n{md}", f.file);
    }
    // A stale plot from an earlier run is removed.
    std::fs::write(dir.path().join("plots/old.png"), b"x").expect("write");
    lab::write_outputs(&res, dir.path()).expect("write outputs again");
    assert!(!dir.path().join("plots/old.png").exists());
}

#[test]
fn report_regenerates_from_results_json_alone() {
    let first = tempfile::tempdir().expect("tempdir");
    let res = synthetic_results(lab::ExperimentKind::KernelCharacterization);
    lab::write_outputs(&res, first.path()).expect("write outputs");
    let json = first.path().join("results.json");
    let original = std::fs::read(&json).expect("results.json");
    // Into another folder: a complete copy, with the same report.
    let second = tempfile::tempdir().expect("tempdir");
    let out = second.path().join("nested");
    lab::regenerate_report(std::slice::from_ref(&json), &out).expect("regenerate");
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    assert_eq!(read(&out, "report.md"), read(first.path(), "report.md"));
    // (Not `== res`: serde_json parses some floats one ulp off without its float_roundtrip feature.)
    let copy = lab::result::read_json(&out.join("results.json")).expect("copy");
    assert_eq!((copy.rows.len(), &copy.experiment), (res.rows.len(), &res.experiment));
    assert!(out.join("results.csv").exists());
    // Kernel characterization: per-kernel plots (all graphs in one: there are few lines).
    assert_png(&out.join("plots/kernels.png"));
    assert!(!out.join("plots/time-vs-block.png").exists());
    // In place: results.json is left byte for byte.
    std::fs::remove_file(first.path().join("report.md")).expect("remove");
    lab::regenerate_report(std::slice::from_ref(&json), first.path()).expect("regenerate in place");
    assert_eq!(std::fs::read(&json).expect("results.json"), original);
    assert!(read(first.path(), "report.md").contains("![Kernel time vs its block size"));
    assert!(lab::regenerate_report(&[first.path().join("missing.json")], first.path()).is_err());
}

#[test]
fn a_run_done_in_parts_merges_with_later_cells_replacing_earlier_ones() {
    let mut first = synthetic_results(lab::ExperimentKind::Sweep);
    first.outcome = "incomplete".into();
    let mut second = first.clone();
    second.outcome = "completed".into();
    let redone = second.rows[0].clone();
    second.rows = vec![lab::LabResult { total_ms: Some(123.0), ..redone.clone() }];
    let n = first.rows.len();
    let same_cell = first
        .rows
        .iter()
        .filter(|r| r.graph == redone.graph && r.series() == redone.series() && r.config() == redone.config())
        .count();
    let merged = lab::merge_results(vec![first, second]).expect("two parts");
    assert_eq!(merged.rows.len(), n - same_cell + 1);
    assert!(merged.rows.iter().any(|r| r.total_ms == Some(123.0)));
    assert!(merged.outcome.starts_with("incomplete; then") && merged.outcome.ends_with("completed"));
    assert!(lab::merge_results(Vec::new()).is_none());
    // Many-source rows: a re-run graph × workers × policy replaces the earlier row.
    let row = |workers: &str, makespan_ms: f64| lab::ManyRow {
        graph: "g".into(),
        workers: workers.into(),
        policy: "stealing".into(),
        makespan_ms,
        ..Default::default()
    };
    let first = lab::LabResults { many: vec![row("cpu:1", 10.0), row("cpu:2", 6.0)], ..Default::default() };
    let second = lab::LabResults { many: vec![row("cpu:2", 5.0)], ..Default::default() };
    let merged = lab::merge_results(vec![first, second]).expect("two parts");
    let got: Vec<(&str, f64)> = merged.many.iter().map(|r| (r.workers.as_str(), r.makespan_ms)).collect();
    assert_eq!(got, [("cpu:1", 10.0), ("cpu:2", 5.0)]);
}

/// A many-source experiment of `configs` (workers, policy) on a small fan-out graph.
fn many_source(configs: &[(&str, &str)], sources: &str) -> Experiment {
    let mut exp = small(Vec::new(), vec![sssp_lab::algo::DIJKSTRA]);
    exp.kind = lab::ExperimentKind::ManySource;
    exp.many_source = Some(lab::ManySourceSpec {
        sources: sources.into(),
        configs: configs.iter().map(|(w, p)| lab::ManyConfig { workers: (*w).into(), policy: (*p).into() }).collect(),
        ..Default::default()
    });
    exp
}

#[test]
fn many_source_smoke_runs_headless_with_equal_checksums_a_report_and_timelines() {
    let out = tempfile::tempdir().expect("tempdir");
    // LAB_MANY_OUT=DIR keeps the outputs for a look.
    let keep = std::env::var_os("LAB_MANY_OUT").map(PathBuf::from);
    let dir = keep.as_deref().unwrap_or(out.path());
    let path = root().join("experiments/manysource-smoke.json");
    let exp = Experiment::load(&path).expect("load");
    let t = Instant::now();
    let (mut progress, mut streamed) = (0, 0);
    let res = lab::run_blocking(&exp, root(), &mut |ev, _| match ev {
        LabEvent::Progress(_) => progress += 1,
        LabEvent::Many(_) => streamed += 1,
        _ => {}
    });
    eprintln!("many-source smoke took {:.1} s", t.elapsed().as_secs_f64());
    assert_eq!(res.outcome, "completed");
    assert!(res.rows.is_empty());
    // 2 graphs × 3 configurations, streamed one by one.
    assert_eq!((res.many.len(), streamed), (6, 6));
    assert!(progress >= 6);
    for (graph, sources) in [(&res.many[0].graph, 24), (&res.many[3].graph, 16)] {
        let rows: Vec<_> = res.many.iter().filter(|r| &r.graph == graph).collect();
        assert_eq!(rows.len(), 3);
        for r in &rows {
            assert!(r.error.is_none(), "{r:?}");
            assert!(r.checksum_ok, "{} {}: checksum differs", r.workers, r.policy);
            assert_eq!(r.run.checksum, rows[0].run.checksum);
            assert_eq!((r.sources, r.run.tasks.len()), (sources, sources));
            assert!(r.makespan_ms > 0.0 && r.speedup_vs_first.is_some_and(|x| x > 0.0));
            assert_eq!(r.gpu_tasks(), 0);
        }
        assert_eq!(rows[0].speedup_vs_first, Some(1.0));
        let labels: Vec<&str> = rows.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(labels, ["W1", "E2", "W2"]);
    }
    lab::write_outputs(&res, dir).expect("write outputs");
    let back = lab::result::read_json(&dir.join("results.json")).expect("results.json");
    assert_eq!(back.many.len(), 6);
    let md = std::fs::read_to_string(dir.join("report.md")).expect("report.md");
    assert!(md.contains("Many-source configurations"), "{md}");
    for want in ["| cpu:2 | equitable | E2 |", "| cpu:2 | stealing | W2 |", "| cpu:1 | stealing | W1 |"] {
        assert!(md.contains(want), "{want} missing:\n{md}");
    }
    assert!(!md.contains("**NO**") && !md.contains("## Every configuration"), "{md}");
    let files = lab::report::plots::timeline_files(&res);
    assert_eq!(files.len(), 6);
    for (_, f) in &files {
        assert!(f.file.starts_with("plots/timeline-"), "{}", f.file);
        assert_png(&dir.join(&f.file));
        // Linked once, under its graph's table.
        assert_eq!(md.matches(&format!("]({})", f.file)).count(), 1, "{}:\n{md}", f.file);
    }
    assert!(files.iter().any(|(_, f)| f.file.ends_with("-e2-equitable.png")), "{files:?}");
}

#[test]
fn a_timeline_png_is_drawn_from_a_run_alone() {
    let g = std::sync::Arc::new(
        GeneratorSpec::Fanout { n: 600, d: 3, max_weight: 100, seed: 2 }.generate().expect("graph"),
    );
    let sources: Vec<u32> = (0..12).collect();
    let workers = sssp_lab::manysource::parse_workers("cpu:3", &sssp_lab::algo::DIJKSTRA.into()).expect("workers");
    let policy = sssp_lab::manysource::Policy::Equitable;
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let opts = sssp_lab::algo::SolveOptions::default();
    let run = sssp_lab::manysource::run(&g, &sources, &workers, policy, &opts, &cancel, &mut |_| {}).expect("run");
    let dir = tempfile::tempdir().expect("tempdir");
    let png = dir.path().join("t.png");
    lab::report::write_timeline_png(&run, "fanout 600", &png).expect("draw");
    let bytes = std::fs::read(&png).expect("png");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    // 1000 px wide, 120 + 22 px per worker high (IHDR: width and height, big-endian).
    let dim = |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    assert_eq!((dim(16), dim(20)), (1000, 120 + 22 * 3));
    assert!(bytes.len() > 8_000, "{} bytes", bytes.len());
    // Synthetic: two GPUs and 14 CPU threads, one of them failed, 600 tasks (LAB_MANY_OUT=DIR
    // keeps it for a look).
    use sssp_lab::manysource::{ManySourceRun, TaskResult, WorkerSummary};
    let mut run = ManySourceRun { label: "W16".into(), policy: "stealing".into(), ..Default::default() };
    for w in 0..16 {
        let label = if w < 2 { format!("cuda:{w}") } else { format!("cpu#{w}") };
        let failed = (w == 5).then(|| "injected".to_string());
        run.workers.push(WorkerSummary { label, failed, ..Default::default() });
    }
    let mut clock = [0.0f64; 16];
    for k in 0..600u32 {
        let w = (k as usize * 7) % 16;
        let w = if w == 5 { 6 } else { w };
        let len = if w < 2 { 2.0 } else { 9.0 + (k % 5) as f64 };
        run.tasks.push(TaskResult {
            source: k,
            worker: w,
            start_ms: clock[w],
            end_ms: clock[w] + len,
            reached: 1,
            eccentricity: 0,
            sum: 0,
            checksum: 0,
        });
        clock[w] += len;
    }
    run.makespan_ms = clock.iter().copied().fold(0.0, f64::max);
    let keep = std::env::var_os("LAB_MANY_OUT").map(PathBuf::from);
    let png = keep.as_deref().unwrap_or(dir.path()).join("synthetic-timeline.png");
    lab::report::write_timeline_png(&run, "", &png).expect("draw");
    assert_png(&png);
}

#[test]
fn many_source_experiments_are_validated_with_clear_messages() {
    let ok = many_source(&[("cpu:2", "stealing")], "8:1");
    ok.validate().expect("valid");
    let text = serde_json::to_string(&ok).expect("serialize");
    assert!(text.contains("\"many-source\"") && text.contains("\"many_source\""), "{text}");
    let err = |e: Experiment| format!("{:#}", e.validate().expect_err("invalid"));
    let bad_workers = err(many_source(&[("cpu:2", "stealing"), ("gpu:0", "stealing")], "8:1"));
    assert!(bad_workers.contains("config 2") && bad_workers.contains("gpu:0"), "{bad_workers}");
    assert!(err(many_source(&[("cpu:0", "stealing")], "8:1")).contains("cpu:K"));
    assert!(err(many_source(&[("cpu:2", "greedy")], "8:1")).contains("policy `greedy`"));
    assert!(err(many_source(&[("cpu:2", "stealing")], "eight")).contains("sources `eight`"));
    assert!(err(many_source(&[], "8:1")).contains("configs is empty"));
    let mut no_spec = ok.clone();
    no_spec.many_source = None;
    assert!(err(no_spec).contains("needs `many_source`"));
    let mut sweep = ok.clone();
    sweep.kind = lab::ExperimentKind::Sweep;
    sweep.devices = vec![LabDevice::Solver(DeviceId::Cpu)];
    assert!(err(sweep).contains("only for experiments of kind many-source"));
    let mut group = ok;
    if let Some(spec) = group.many_source.as_mut() {
        spec.sources_by_group.insert("nosuch".into(), "4:1".into());
    }
    assert!(err(group).contains("no graph group `nosuch`"));
    // An unknown key is refused, not ignored.
    let typo = r#"{"name": "t", "kind": "many-source", "graphs": [], "algorithms": ["dijkstra"],
        "many_source": {"sources": "4:1", "configs": [{"workers": "cpu:1", "polcy": "equitable"}]}}"#;
    assert!(serde_json::from_str::<Experiment>(typo).is_err());
}

#[test]
fn an_unavailable_device_gives_a_many_source_error_row_not_a_failed_run() {
    let exp = many_source(&[("cpu:2", "stealing"), ("cuda:7", "stealing"), ("cuda:7,cpu:1", "equitable")], "6:1");
    let res = lab::run_blocking(&exp, root(), &mut |_, _| {});
    assert_eq!(res.outcome, "completed");
    assert_eq!(res.many.len(), 3);
    let (cpu, alone, mixed) = (&res.many[0], &res.many[1], &res.many[2]);
    assert!(cpu.error.is_none() && cpu.checksum_ok);
    // cuda:7 alone: nothing ran.
    assert_eq!(alone.label, "G1");
    assert!(alone.error.as_deref().is_some_and(|e| e.contains("cuda:7")), "{alone:?}");
    assert!(!alone.checksum_ok && alone.speedup_vs_first.is_none());
    // Beside a CPU worker: the CPU thread took its tasks; the failure is on the worker.
    assert!(mixed.error.is_none() && mixed.checksum_ok, "{mixed:?}");
    assert!(mixed.run.workers[0].failed.is_some() && mixed.gpu_tasks() == 0);
    let md = lab::report::markdown(&res);
    assert!(md.contains("| cuda:7 | stealing | G1 | failed |"), "{md}");
    assert!(md.contains("worker cuda:7 failed"), "{md}");
    // The header lists the workers' devices, cuda:7 with why it cannot run.
    assert!(res.devices.iter().any(|d| d.id == "cuda:7" && d.status != "ok"), "{:?}", res.devices);
}
