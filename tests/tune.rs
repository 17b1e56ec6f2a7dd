//! The auto-tuner (`sssp_lab::tune`, `sssp-lab tune`): statistics of graphs whose answers are
//! known, predictions every device accepts, the rules doing what their measurements say, and the
//! command line (one graph, `--check`, a check set, a bad file).

mod common;

use common::cli::{bin, data, run};
use sssp_lab::algo::{AlgoChoice, Algorithm, Launch, SolveError};
use sssp_lab::device::{DeviceId, devices, make_stepper};
use sssp_lab::generate::GeneratorSpec;
use sssp_lab::graph::{Graph, GraphBuilder, VertexLabels, WeightRule};
use sssp_lab::tune::{self, DeviceKind, DeviceShape, GraphStats, SweepOptions, TuneReport, graph_stats, predict};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn stats(g: &Graph, start: u32) -> GraphStats {
    graph_stats(g, start, &AtomicBool::new(false), &mut |_| {}).expect("not cancelled")
}

/// 0 → 1 → … → n−1, weights 1..=n−1.
fn path(n: u32) -> Graph {
    let mut b = GraphBuilder::new(n as usize, WeightRule::File);
    for v in 0..n - 1 {
        b.push(v, v + 1, Some(v as i32 + 1));
    }
    b.build("path", None, VertexLabels::Offset(0)).expect("n ≥ 1")
}

/// Centre 0 joined both ways to 1..n−1, weight 5.
fn star(n: u32) -> Graph {
    let mut b = GraphBuilder::new(n as usize, WeightRule::File);
    for v in 1..n {
        b.push_undirected(0, v, Some(5));
    }
    b.build("star", None, VertexLabels::Offset(0)).expect("n ≥ 1")
}

#[test]
fn a_path_has_hop_diameter_n_minus_one_from_either_end() {
    let g = path(50);
    for start in [0, 17, 49] {
        let s = stats(&g, start);
        assert_eq!(s.diameter_hops, 49, "from {start}: the backward sweep finds the whole path");
        assert_eq!((s.n, s.m, s.max_degree, s.degree_p50, s.degree_p99), (50, 49, 1, 1, 1));
        assert_eq!((s.min_weight, s.max_weight), (1, 49));
        assert!((s.mean_weight - 25.0).abs() < 1e-9);
    }
    let s = stats(&g, 0);
    assert_eq!((s.start_depth, s.start_reached, s.widest_level), (49, 50, 1));
    assert_eq!(s.auto_delta, sssp_lab::algo::auto_delta(&g));
}

#[test]
fn a_star_has_diameter_two_one_hub_and_skewed_degrees() {
    let n = 101;
    let s = stats(&star(n), 0);
    assert_eq!(s.diameter_hops, 2);
    assert_eq!((s.start_depth, s.start_reached, s.widest_level), (1, 101, 100));
    assert_eq!((s.max_degree, s.max_in_degree, s.degree_p50, s.degree_p99), (100, 100, 1, 1));
    // Degrees 100 once and 1 a hundred times: mean 200/101, CV ≈ 4.9.
    assert!((s.mean_degree - 200.0 / 101.0).abs() < 1e-9);
    assert!(s.degree_cv > 4.0 && s.degree_cv < 5.5, "CV {}", s.degree_cv);
    // From a leaf the sweep goes through the hub.
    assert_eq!(stats(&star(n), 7).start_depth, 2);
}

#[test]
fn a_start_in_a_small_component_still_finds_the_big_ones_diameter() {
    // Vertices 0-1 alone; 2..=41 a path both ways.
    let mut b = GraphBuilder::new(42, WeightRule::File);
    b.push_undirected(0, 1, Some(1));
    for v in 2..41 {
        b.push_undirected(v, v + 1, Some(1));
    }
    let g = b.build("two parts", None, VertexLabels::Offset(0)).expect("n ≥ 1");
    let s = stats(&g, 0);
    assert_eq!(s.start_reached, 2);
    assert_eq!(s.diameter_hops, 39);
}

#[test]
fn statistics_stop_when_cancelled() {
    let g = GeneratorSpec::Grid { width: 300, height: 300, max_weight: 9, seed: 1 }.generate().expect("grid");
    assert!(graph_stats(&g, 0, &AtomicBool::new(true), &mut |_| {}).is_none());
    let mut last = 0.0;
    let s = graph_stats(&g, 0, &AtomicBool::new(false), &mut |f| last = f).expect("runs");
    assert_eq!(last, 1.0);
    assert_eq!(s.diameter_hops, 598);
}

fn sample_graphs() -> Vec<Graph> {
    vec![
        path(40),
        star(3000),
        GeneratorSpec::Grid { width: 64, height: 48, max_weight: 10, seed: 1 }.generate().expect("grid"),
        GeneratorSpec::Rmat { scale: 12, edge_factor: 16, a: 0.45, b: 0.15, c: 0.15, max_weight: 255, seed: 1 }
            .generate()
            .expect("rmat"),
        GeneratorSpec::Fanout { n: 200_000, d: 2, max_weight: 100, seed: 1 }.generate().expect("fanout"),
    ]
}

#[test]
fn predictions_are_valid_block_sizes_on_every_listed_device() {
    let graphs: Vec<GraphStats> = sample_graphs().iter().map(|g| stats(g, 0)).collect();
    let mut shapes: Vec<DeviceShape> = devices().iter().map(|d| DeviceShape::of(d.id)).collect();
    // Devices this machine may not have, with their multiprocessor count known or not.
    shapes.push(DeviceShape { units: Some(132), ..DeviceShape::of(DeviceId::Cuda(0)) });
    shapes.push(DeviceShape { units: Some(1), ..DeviceShape::of(DeviceId::Cuda(0)) });
    shapes.push(DeviceShape::of(DeviceId::Wgpu(0)));
    for shape in &shapes {
        for &a in Algorithm::all() {
            for params in a.test_params() {
                let choice = AlgoChoice { algorithm: a, params };
                for s in &graphs {
                    for launch in [Launch::Fast, Launch::PerPhase] {
                        let p = predict(s, shape, &choice, launch);
                        let what = format!("{choice} on {} ({:?} units) for {}", shape.name, shape.units, s.name);
                        p.block.validate().unwrap_or_else(|e| panic!("{what}: {e}"));
                        for b in [p.block.relax, p.block.minimum, p.block.update] {
                            assert!(b.is_power_of_two() && (32..=1024).contains(&b), "{what}: {b}");
                            if shape.kind == DeviceKind::Wgpu {
                                assert!(b <= 256, "{what}: {b} beyond WebGPU's guaranteed 256");
                            }
                        }
                        let ds = a == sssp_lab::algo::DELTA_STEPPING;
                        assert_eq!(p.delta.is_some(), ds, "{what}: delta only for delta-stepping");
                        if let Some(d) = p.delta {
                            assert!(d >= 1 && (shape.kind == DeviceKind::Cpu || d <= i64::from(u32::MAX)), "{what}");
                            a.validate(&p.choice().params).unwrap_or_else(|e| panic!("{what}: {e}"));
                        }
                        assert!(!p.reasons.is_empty(), "{what}: no reason given");
                        assert!(p.reasons.iter().all(|r| r.is_ascii()), "{what}: reasons are ASCII for the UI");
                    }
                }
            }
        }
    }
}

#[test]
fn predictions_build_solvers_on_every_usable_device() {
    let g = Arc::new(GeneratorSpec::Grid { width: 40, height: 30, max_weight: 9, seed: 3 }.generate().expect("grid"));
    let s = stats(&g, 0);
    for d in devices().iter().filter(|d| d.status.is_ok()) {
        let shape = DeviceShape::of(d.id);
        for &a in &d.algorithms {
            let p = predict(&s, &shape, &AlgoChoice::new(a), Launch::Fast);
            let choice = p.choice();
            match make_stepper(d.id, Arc::clone(&g), choice.algorithm, 0, &p.options()) {
                Ok(_) => {}
                Err(e) => panic!("{choice} on {}: {e} (blocks {:?})", d.name, p.block),
            }
        }
    }
}

/// Stats of the shapes the rules were measured on, without building the graphs.
fn shaped(n: usize, m: usize, cv: f64, widest: usize, diameter: u32, w_max: i32, mean_w: f64) -> GraphStats {
    GraphStats {
        name: "shaped".into(),
        n,
        m,
        mean_degree: m as f64 / n as f64,
        max_degree: 4096,
        degree_cv: cv,
        widest_level: widest,
        diameter_hops: diameter,
        start_depth: diameter,
        start_reached: n,
        min_weight: 1,
        max_weight: w_max,
        mean_weight: mean_w,
        auto_delta: ((w_max as i64 * n as i64) + m as i64 - 1) / m as i64,
        ..Default::default()
    }
}

#[test]
fn the_rules_follow_the_measurements_they_cite() {
    let h100 = DeviceShape { units: Some(132), ..DeviceShape::of(DeviceId::Cuda(0)) };
    let cpu = DeviceShape::of(DeviceId::Cpu);
    let choice = |s: &str| s.parse::<AlgoChoice>().expect("choice");
    // NY-like: sparse and long.
    let ny = shaped(264_346, 733_846, 0.35, 1173, 679, 36_946, 1293.3);
    let rmat = shaped(1 << 21, 1 << 25, 6.0, 900_000, 8, 255, 128.0);
    let fanout = shaped(98_304, 196_608, 0.0, 60_000, 20, 100, 50.5);
    // F1 / F3: the persistent kernel's relax block (revised from the H100 check set's sweep).
    assert_eq!(predict(&fanout, &h100, &choice("crauser-succ"), Launch::Fast).block.relax, 512);
    assert_eq!(predict(&rmat, &h100, &choice("crauser-succ"), Launch::Fast).block.relax, 512);
    assert_eq!(predict(&rmat, &h100, &choice("martin-pred"), Launch::Fast).block.relax, 1024);
    let small_pull = shaped(15_606, 91_756, 0.3, 400, 120, 100, 50.0);
    assert_eq!(predict(&small_pull, &h100, &choice("martin-pred"), Launch::Fast).block.relax, 256);
    // G2: a small graph gets smaller blocks so every SM has two.
    let small = shaped(3353, 8870, 0.4, 180, 53, 12_711, 532.0);
    let p = predict(&small, &h100, &choice("crauser-succ"), Launch::PerPhase);
    assert_eq!(p.block, sssp_lab::algo::BlockSizes::uniform(32));
    // D1: GPU, long and sparse: buckets spanning 64 mean weights; D3 on R-MAT with relax=vertex;
    // D2 with relax=balanced on a shallow graph; D0 on the CPU.
    let ds = choice("delta-stepping");
    assert_eq!(predict(&ny, &h100, &ds, Launch::Fast).delta, Some((64.0f64 * 1293.3).ceil() as i64));
    assert_eq!(predict(&rmat, &h100, &ds, Launch::Fast).delta, Some(4 * rmat.auto_delta));
    assert_eq!(predict(&rmat, &h100, &choice("delta-stepping:relax=balanced"), Launch::Fast).delta, Some(255 * 8));
    assert_eq!(predict(&rmat, &h100, &choice("delta-stepping:relax=balanced"), Launch::Fast).block.relax, 1024);
    assert_eq!(predict(&rmat, &cpu, &ds, Launch::Fast).delta, Some((rmat.auto_delta + 1) / 2));
    assert_eq!(predict(&ny, &cpu, &ds, Launch::Fast).delta, Some((2.0f64 * 1293.3).ceil() as i64));
    let cores = DeviceShape::of(DeviceId::CpuParallel(0));
    assert_eq!(predict(&rmat, &cores, &ds, Launch::Fast).delta, Some(rmat.auto_delta));
    assert_eq!(predict(&ny, &cores, &ds, Launch::Fast).delta, Some((4.0f64 * 1293.3).ceil() as i64));
    // The CPU: 256 whatever the graph.
    assert_eq!(predict(&small, &cpu, &choice("crauser-succ"), Launch::PerPhase).block, Default::default());
}

/// D4 / N2: `worklist=near-far` on a GPU gets the near-far kernel's own Δ rule (16, 8 or ½ mean
/// weights: roads, hubs, uniform), equal to what the device takes with `delta=0`, and the
/// reasons say its block sizes are not read; the CPU keeps D0.
#[test]
fn near_far_predicts_the_kernels_own_delta() {
    let h100 = DeviceShape { units: Some(132), ..DeviceShape::of(DeviceId::Cuda(0)) };
    let nf: AlgoChoice = "delta-stepping:worklist=near-far".parse().expect("choice");
    let mut roads = shaped(264_346, 733_846, 0.35, 1173, 679, 36_946, 1293.3);
    roads.max_degree = 8;
    let mut kron = shaped(1 << 21, 63_500_000, 6.0, 900_000, 8, 255, 128.0);
    kron.max_degree = 102_440;
    let mut uniform = shaped(1 << 21, 67_000_000, 0.2, 1_500_000, 10, 255, 128.0);
    uniform.max_degree = 70;
    for (s, k) in [(&roads, 16.0), (&kron, 8.0), (&uniform, 0.5)] {
        let p = predict(s, &h100, &nf, Launch::Fast);
        assert_eq!(p.delta, Some((k * s.mean_weight).ceil() as i64), "{k} mean weights");
        let reasons = p.reasons.join("\n");
        assert!(reasons.contains("D4") && reasons.contains("N2"), "{reasons}");
    }
    // The device's own auto rule agrees with the prediction on real graphs.
    for g in [
        sssp_lab::generate::grid(40, 40, 100, 3).expect("grid"),
        sssp_lab::generate::rmat(12, 16, [0.57, 0.19, 0.19], 255, 1).expect("rmat"),
        sssp_lab::generate::fanout(4096, 48, 100, 2).expect("fanout"),
    ] {
        let s = stats(&g, 0);
        let p = predict(&s, &h100, &nf, Launch::Fast);
        let device = sssp_lab::device::gpu_delta::nearfar_delta(&g) as i64;
        assert!(
            p.delta.is_some_and(|d| (d - device).abs() <= 1),
            "{}: predicted {:?}, device {device}",
            s.name,
            p.delta
        );
    }
    let cpu = DeviceShape::of(DeviceId::CpuParallel(0));
    assert!(!predict(&roads, &cpu, &nf, Launch::Fast).reasons.join("\n").contains("D4"));
}

/// The rules predict (and name) only the kernels a family launches: no minimum kernel for
/// Bellman-Ford and Δ-stepping, whose unread minimum block follows relax.
#[test]
fn the_rules_name_only_the_kernels_the_family_launches() {
    let h100 = DeviceShape { units: Some(132), ..DeviceShape::of(DeviceId::Cuda(0)) };
    let g = shaped(98_304, 196_608, 0.5, 6_000, 40, 100, 50.5);
    for (algo, kernels) in [
        ("bellman-ford", ["bf_relax", "bf_commit"]),
        ("delta-stepping", ["ds_relax", "ds_commit"]),
        ("crauser-pred", ["relax_pred", "min1"]),
    ] {
        let choice: AlgoChoice = algo.parse().expect("choice");
        let p = predict(&g, &h100, &choice, Launch::PerPhase);
        let reasons = p.reasons.join("\n");
        for k in kernels {
            assert!(reasons.contains(k), "{algo}: {k} not named in\n{reasons}");
        }
        let family = choice.algorithm.spec().family;
        assert_eq!(family.reads(sssp_lab::algo::BlockField::Minimum), algo == "crauser-pred");
        if algo != "crauser-pred" {
            assert!(!reasons.contains("minimum") && !reasons.contains("min1"), "{algo}: {reasons}");
            assert_eq!(p.block.minimum, p.block.relax, "{algo}: the unread block follows relax");
        }
    }
}

#[test]
fn a_sweep_times_every_candidate_and_stops_when_cancelled() {
    let g = Arc::new(GeneratorSpec::Grid { width: 30, height: 30, max_weight: 9, seed: 5 }.generate().expect("grid"));
    let s = stats(&g, 0);
    let pred = predict(&s, &DeviceShape::of(DeviceId::Cpu), &"delta-stepping".parse().expect("id"), Launch::Fast);
    let reference = Arc::new(sssp_lab::algo::dijkstra_distances(&g, 0));
    let opts = SweepOptions {
        sources: vec![0, 100, 200],
        blocks: tune::BLOCKS.to_vec(),
        budget_s: None,
        reference: Some(reference),
        auto_delta: s.auto_delta,
    };
    let check = tune::sweep(&g, &pred, &opts, &AtomicBool::new(false), &mut |_, _| {}).expect("runs");
    assert_eq!(check.sources, vec![0, 100, 200]);
    assert_eq!(check.correct, Some(true));
    // On the CPU only Δ varies: the prediction, the default and Δ/4 … 4Δ.
    assert!(check.timings.len() >= 5, "{:?}", check.timings);
    assert!(check.timings.iter().all(|t| t.candidate.block == pred.block || t.candidate.block == Default::default()));
    assert!(check.timings.iter().all(|t| t.ms.len() == 3 && t.median_ms.is_some()));
    let r = check.ratio.expect("a ratio");
    assert!(r >= 1.0 && check.within_5pct == Some(r <= 1.05));
    let cancelled = tune::sweep(&g, &pred, &opts, &AtomicBool::new(true), &mut |_, _| {});
    assert!(matches!(cancelled, Err(SolveError::Cancelled)), "{cancelled:?}");
    // A budget far below one run's time skips the sweep with the reason.
    let tight = SweepOptions { budget_s: Some(1e-9), ..opts };
    let skipped = tune::sweep(&g, &pred, &tight, &AtomicBool::new(false), &mut |_, _| {}).expect("runs");
    assert!(skipped.skipped.as_deref().is_some_and(|s| s.contains("budget")), "{skipped:?}");
}

#[test]
fn the_cli_prints_statistics_a_prediction_and_a_solve_line_that_runs() {
    let o = run(bin()
        .args(["tune", "--device", "cpu", "-a", "crauser-succ", "-a", "delta-stepping"])
        .arg(data("rome99.gr.gz")));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    for want in [
        "vertices       3353",
        "diameter       >= ",
        "crauser-succ on cpu: block relax 256",
        "C1 blocks 256",
        "D0 delta",
    ] {
        assert!(out.contains(want), "`{want}` missing in:\n{out}");
    }
    let lines: Vec<&str> = out.lines().map(str::trim).filter(|l| l.starts_with("sssp-lab solve ")).collect();
    assert_eq!(lines.len(), 2, "{out}");
    for line in lines {
        let args: Vec<&str> = line.split_whitespace().skip(1).collect();
        let o = run(bin().args(&args));
        assert!(o.status.success(), "`{line}`: {}", text(&o.stderr));
    }
}

#[test]
fn check_on_a_tiny_graph_on_the_cpu_reports_every_candidate() {
    let dir = tempfile::tempdir().expect("tempdir");
    let json = dir.path().join("tune.json");
    let o = run(bin()
        .args(["tune", "--weights", "uniform:50:1", "-d", "cpu", "-a", "delta-stepping", "-a", "martin-succ"])
        .args(["--check", "--sources", "3", "--json"])
        .arg(&json)
        .arg(data("karate.graph")));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("sweep over 3 source(s)"), "{out}");
    assert!(out.contains("predicted / best = "), "{out}");
    assert!(out.contains("equal to the oracle's"), "{out}");
    assert!(out.contains("prediction within 5 % of the best in "), "{out}");
    let report: TuneReport = serde_json::from_str(&std::fs::read_to_string(&json).expect("written")).expect("parses");
    assert_eq!(report.cases.len(), 2);
    let ds = &report.cases[0];
    let check = ds.check.as_ref().expect("swept");
    assert_eq!(check.sources.len(), 3);
    assert!(check.timings.len() >= 4 && check.timings.iter().all(|t| t.median_ms.is_some()));
    assert!(check.ratio.is_some_and(|r| r >= 1.0));
    assert_eq!(check.correct, Some(true));
    // martin-succ on the CPU: one configuration, nothing to choose, not counted.
    let m = report.cases[1].check.as_ref().expect("swept");
    assert_eq!((m.timings.len(), m.within_5pct), (1, None));
    assert_eq!(report.hits().1, 1);
}

#[test]
fn a_check_set_writes_tune_json_and_a_readme_with_the_summary() {
    let dir = tempfile::tempdir().expect("tempdir");
    let exp = dir.path().join("tiny-set.json");
    let karate = data("karate.graph");
    let spec = serde_json::json!({
        "name": "tiny-set",
        "description": "test",
        "graphs": [
            { "generate": { "family": "grid", "width": 16, "height": 16, "max_weight": 9, "seed": 1 } },
            { "file": karate, "weights": "uniform:50:1" },
            { "file": "no/such/graph.gr" }
        ],
        "algorithms": ["crauser-succ", "delta-stepping"],
        "devices": ["cpu"],
        "sources": { "random": { "count": 2, "seed": 1 } }
    });
    std::fs::write(&exp, spec.to_string()).expect("write");
    let out = dir.path().join("out");
    let o = run(bin().args(["tune", "--check-set"]).arg(&exp).arg("--out").arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    // crauser-succ on the CPU has one configuration (not counted); delta-stepping counts twice.
    assert!(text(&o.stderr).contains(" of 2 cases"), "{}", text(&o.stderr));
    let report: TuneReport =
        serde_json::from_str(&std::fs::read_to_string(out.join("tune.json")).expect("tune.json")).expect("parses");
    assert_eq!(report.cases.len(), 6);
    assert!(report.cases[4].error.as_deref().is_some_and(|e| e.contains("no/such/graph.gr")), "{:?}", report.cases[4]);
    let readme = std::fs::read_to_string(out.join("README.md")).expect("README.md");
    assert!(readme.contains(&report.summary()), "{readme}");
    assert!(readme.contains("| graph | algorithm | predicted | ms | best | ms | ratio | within 5 % |"), "{readme}");
    assert!(readme.contains("Not swept (not counted)"), "{readme}");
}

#[test]
fn a_bad_file_exits_non_zero_naming_file_and_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.gr");
    std::fs::write(&bad, "p sp 3 2\na 1 2 5\na 2 9 1\n").expect("write");
    let o = run(bin().args(["tune", "--device", "cpu"]).arg(&bad));
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("bad.gr:3"), "{}", text(&o.stderr));
    let o = run(bin().args(["tune", "--check-set"]).arg(&bad).args(["--out"]).arg(dir.path().join("o")));
    assert!(!o.status.success(), "a file that is no experiment");
    let o = run(bin().args(["tune", "--generate", "{\"family\":\"nope\"}"]));
    assert!(!o.status.success());
    assert!(text(&o.stderr).contains("not a generator spec"), "{}", text(&o.stderr));
}
