//! What several integration tests share: petgraph's Dijkstra as the oracle this project did not
//! write, and where the test data lives.

#![allow(dead_code)] // each test binary uses its own subset

use petgraph::graph::{DiGraph, NodeIndex};
use sssp_lab::graph::{Distance, Graph, INF, VertexId};
use std::path::{Path, PathBuf};

pub mod cli;

/// The four frontier solvers ([seed000] §3), as the GPU tests run them.
pub const FRONTIER_ALGOS: [sssp_lab::algo::Algorithm; 4] = [
    sssp_lab::algo::MARTIN_SUCC,
    sssp_lab::algo::MARTIN_PRED,
    sssp_lab::algo::CRAUSER_SUCC,
    sssp_lab::algo::CRAUSER_PRED,
];

/// Every frontier solver with every exact relax choice (`relax=balanced` for the successors
/// variants; the racy relax differs from run to run and is tested apart) that the device takes:
/// without `cuda`, seed 004's CUDA-only options are left out (wgpu refuses them, tested in
/// `refuses_cuda_only_options`).
pub fn exact_choices(cuda: bool) -> Vec<(sssp_lab::algo::Algorithm, sssp_lab::algo::Params)> {
    FRONTIER_ALGOS
        .iter()
        .flat_map(|&a| {
            a.test_params()
                .into_iter()
                .filter(move |p| a.exact(p) && (cuda || sssp_lab::device::gpu::cuda_only_options("wgpu", a, p).is_ok()))
                .map(move |p| (a, p))
        })
        .collect()
}

/// Seed 004's solutions and options on CUDA ([seed004] §4.1: FGPU, UGPU, the hybrids, the
/// matrix layout, the one-pass minimum).
pub const SEED004_CHOICES: [&str; 14] = [
    "fgpu",
    "fgpu-no-atomic",
    "ugpu",
    "ugpu-2min",
    "ugpu-plus",
    "uh1",
    "uh2",
    "uh3",
    "martin-succ:layout=matrix",
    "martin-succ:layout=matrix,relax=non-atomic",
    "martin-pred:layout=matrix",
    "crauser-pred:layout=matrix,minimum=one-pass",
    "crauser-succ:layout=matrix",
    "crauser-pred:split=uh1",
];

/// Runs `fast` to the end and checks its distances (`want`) and the `counts` of its records
/// against the CPU stepper's records `cpu` (`what` names the run in failures).
pub fn check_fast_run<C: PartialEq + std::fmt::Debug>(
    mut fast: Box<dyn sssp_lab::algo::Stepper>,
    want: &[Distance],
    cpu: &[sssp_lab::algo::IterationRecord],
    counts: impl Fn(&sssp_lab::algo::IterationRecord) -> C,
    what: &str,
) {
    let run = fast.run_to_end(&std::sync::atomic::AtomicBool::new(false), &mut |_| {}).expect("run_to_end");
    assert_eq!(fast.distances().expect("distances"), want, "{what}: fast distances");
    let fast_counts: Vec<_> = run.records.iter().map(&counts).collect();
    let cpu_counts: Vec<_> = cpu.iter().map(&counts).collect();
    assert_eq!(fast_counts, cpu_counts, "{what}: fast records");
    assert_eq!(run.iterations as usize, cpu.len(), "{what}: fast iterations");
}

/// `g` as a petgraph graph, each arc's weight through `weight`.
fn petgraph_graph<W>(g: &Graph, weight: impl Fn(sssp_lab::graph::Weight) -> W) -> DiGraph<(), W> {
    let mut pg = DiGraph::<(), W>::with_capacity(g.n(), g.m());
    for _ in 0..g.n() {
        pg.add_node(());
    }
    for u in 0..g.n() as VertexId {
        for (v, w) in g.successors().arcs(u) {
            pg.add_edge(NodeIndex::new(u as usize), NodeIndex::new(v as usize), weight(w));
        }
    }
    pg
}

/// Shortest distances from `source` by petgraph's `dijkstra` ([`INF`] = unreachable).
pub fn petgraph_distances(g: &Graph, source: VertexId) -> Vec<Distance> {
    let pg = petgraph_graph(g, |w| w as u64);
    let mut d = vec![INF; g.n()];
    for (k, v) in petgraph::algo::dijkstra(&pg, NodeIndex::new(source as usize), None, |e| *e.weight()) {
        d[k.index()] = v as Distance;
    }
    d
}

/// Shortest distances from `source` by petgraph's `bellman_ford` (negative weights allowed;
/// `Err` for a negative cycle reachable from the source). Weights go through `f64`, exact for
/// the integers of test graphs.
pub fn petgraph_signed_distances(g: &Graph, source: VertexId) -> Result<Vec<Distance>, String> {
    let pg = petgraph_graph(g, |w| w as f64);
    let paths = petgraph::algo::bellman_ford(&pg, NodeIndex::new(source as usize)).map_err(|e| format!("{e:?}"))?;
    Ok(paths.distances.iter().map(|&d| if d.is_infinite() { INF } else { d as Distance }).collect())
}

/// The repository root: where the crate was built, or the working directory when the test
/// binary was copied elsewhere (the GPU machine runs it from a copy of the tree).
pub fn root() -> PathBuf {
    let built = Path::new(env!("CARGO_MANIFEST_DIR"));
    if built.join("tests/data").is_dir() {
        built.to_path_buf()
    } else {
        std::env::current_dir().expect("current directory")
    }
}

/// Edge-parallel Bellman-Ford on a GPU device against petgraph and the CPU stepper, shared by
/// `tests/wgpu.rs` and `tests/cuda.rs`.
pub mod bellman_ford {
    use super::{petgraph_signed_distances, root};
    use sssp_lab::algo::{BELLMAN_FORD, IterationRecord, Params, SolveError, SolveOptions, Stepper};
    use sssp_lab::device::{DeviceId, make_stepper};
    use sssp_lab::formats::{LoadOptions, load};
    use sssp_lab::generate;
    use sssp_lab::graph::{Distance, Graph, GraphBuilder, VertexId, VertexLabels, WeightRule};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    /// A DAG with negative arcs plus an unreachable vertex (as in tests/algorithms.rs).
    pub fn signed_dag() -> Arc<Graph> {
        let mut b = GraphBuilder::new(7, WeightRule::File);
        for (u, v, w) in [(0, 1, 4), (0, 2, 2), (2, 1, -3), (1, 3, 2), (2, 3, 5), (3, 4, -6), (1, 4, 1), (4, 5, 0)] {
            b.push(u, v, Some(w));
        }
        Arc::new(b.build("signed dag", None, VertexLabels::Offset(1)).expect("n ≥ 1"))
    }

    /// A random graph on `n` vertices with `arcs` arcs, weights in `lo..lo + span`.
    pub fn random(n: u32, arcs: u32, lo: i32, span: u64, seed: u64) -> Arc<Graph> {
        let mut b = GraphBuilder::new(n as usize, WeightRule::File);
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for _ in 0..arcs {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (u, v) = ((x % n as u64) as VertexId, ((x >> 8) % n as u64) as VertexId);
            b.push(u, v, Some(((x >> 16) % span) as i32 + lo));
        }
        Arc::new(b.build(format!("random {seed}"), None, VertexLabels::Offset(0)).expect("n ≥ 1"))
    }

    /// rome99, karate (uniform weights), a grid, an R-MAT graph, random graphs with and
    /// without negative arcs (only the seeds without a negative cycle), the signed DAG.
    pub fn graphs() -> Vec<Arc<Graph>> {
        let file = |name: &str, weights: WeightRule| {
            let path = root().join("tests/data").join(name);
            Arc::new(load(&path, &LoadOptions { weights, ..Default::default() }).unwrap_or_else(|e| panic!("{e}")))
        };
        let mut g = vec![
            file("rome99.gr.gz", WeightRule::File),
            file("karate.graph", WeightRule::Uniform { max: 10, seed: 7 }),
            Arc::new(generate::grid(20, 15, 9, 3).expect("grid")),
            Arc::new(generate::rmat(10, 8, [0.45, 0.15, 0.15], 255, 2).expect("rmat")),
            random(300, 1500, 1, 100, 1),
            signed_dag(),
        ];
        for seed in 0..8 {
            let r = random(40, 90, -4, 40, seed);
            if petgraph_signed_distances(&r, 0).is_ok() && petgraph_signed_distances(&r, 20).is_ok() {
                g.push(r);
            }
        }
        g
    }

    /// Every `filter` × `order` × the given `ro-cache` values.
    pub fn param_sets(ro_cache: &[&str]) -> Vec<Params> {
        let mut out = Vec::new();
        for filter in ["all", "frontier"] {
            for order in ["source", "shuffled"] {
                for ro in ro_cache {
                    out.push(Params::default().with("filter", filter).with("order", order).with("ro-cache", ro));
                }
            }
        }
        out
    }

    fn stepper(device: DeviceId, g: &Arc<Graph>, s: VertexId, opts: &SolveOptions) -> Box<dyn Stepper> {
        make_stepper(device, Arc::clone(g), BELLMAN_FORD, s, opts)
            .unwrap_or_else(|e| panic!("{device} bellman-ford on {} from {s}: {e}", g.name))
    }

    fn steps(st: &mut dyn Stepper, what: &str) -> Vec<IterationRecord> {
        let mut out = Vec::new();
        while let Some(step) = st.step().unwrap_or_else(|e| panic!("{what}: {e}")) {
            out.push(step.record);
        }
        out
    }

    /// What every device must agree on (no times, no thread counts).
    fn counts(r: &IterationRecord) -> (u32, u64, u64, u64, u64, u64, u64, Vec<f64>) {
        let v = (0..r.values.len()).map(|i| r.values.get(i).unwrap_or(f64::NAN)).collect();
        (r.iteration, r.frontier, r.reached, r.settled, r.edges_scanned, r.relax_attempted, r.relax_improved, v)
    }

    /// Distances equal petgraph's from several sources; stepping records equal the CPU
    /// stepper's (with its modelled threads); fast-path records equal them without threads.
    pub fn check_against_petgraph_and_cpu(device: DeviceId, ro_cache: &[&str]) {
        for g in graphs() {
            let n = g.n() as VertexId;
            let mut sources = vec![0, n / 2, n - 1];
            sources.dedup();
            for &s in &sources {
                let want: Vec<Distance> = petgraph_signed_distances(&g, s).expect("no negative cycle");
                for params in param_sets(ro_cache) {
                    let opts = SolveOptions { params: params.clone(), ..Default::default() };
                    let what = format!("{device} {} from {s} [{}]", g.name, params.to_text());
                    let mut cpu = stepper(DeviceId::Cpu, &g, s, &opts);
                    let cpu_recs = steps(cpu.as_mut(), &what);
                    let mut st = stepper(device, &g, s, &opts);
                    let got = steps(st.as_mut(), &what);
                    assert_eq!(st.distances().expect("distances"), want, "{what}: stepped distances");
                    assert_eq!(got.len(), cpu_recs.len(), "{what}: passes");
                    for (a, b) in got.iter().zip(&cpu_recs) {
                        assert_eq!(counts(a), counts(b), "{what}: pass {}", b.iteration);
                        let (ta, tb) = (a.threads.expect("threads"), b.threads.expect("threads"));
                        assert_eq!(
                            (ta.launched, ta.working, ta.warps_all_dummy, ta.warps_mixed, ta.warps_all_working),
                            (tb.launched, tb.working, tb.warps_all_dummy, tb.warps_mixed, tb.warps_all_working),
                            "{what}: threads of pass {}",
                            b.iteration
                        );
                    }
                    let fast = stepper(device, &g, s, &opts);
                    super::check_fast_run(fast, &want, &cpu_recs, counts, &what);
                }
            }
        }
    }

    /// A two-vertex negative cycle and Hamrle1 give `NegativeCycle` stepping and running.
    pub fn check_negative_cycles(device: DeviceId) {
        let mut b = GraphBuilder::new(4, WeightRule::File);
        for (u, v, w) in [(0, 1, 1), (1, 2, -2), (2, 1, 1), (2, 3, 5)] {
            b.push(u, v, Some(w));
        }
        let tiny = Arc::new(b.build("tiny cycle", None, VertexLabels::Offset(0)).expect("n ≥ 1"));
        let hamrle = Arc::new(
            load(&root().join("tests/data/Hamrle1.mtx"), &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}")),
        );
        for g in [tiny, hamrle] {
            assert!(petgraph_signed_distances(&g, 0).is_err(), "{}: petgraph sees no cycle", g.name);
            for params in param_sets(&["on"]) {
                let opts = SolveOptions { params: params.clone(), ..Default::default() };
                let what = format!("{device} {} [{}]", g.name, params.to_text());
                let mut st = stepper(device, &g, 0, &opts);
                let err = st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect_err(&what);
                assert!(matches!(err, SolveError::NegativeCycle { .. }), "{what}: {err}");
                let mut st = stepper(device, &g, 0, &opts);
                let err = loop {
                    match st.step() {
                        Ok(Some(_)) => {}
                        Ok(None) => panic!("{what}: stepping ended without finding the cycle"),
                        Err(e) => break e,
                    }
                };
                assert!(matches!(err, SolveError::NegativeCycle { .. }), "{what}: {err}");
            }
        }
    }
}

/// Δ-stepping on a GPU device against petgraph and the CPU stepper, shared by `tests/wgpu.rs`
/// and `tests/cuda.rs`.
/// What every device's records must agree on (no times): the counts and the declared values.
#[allow(clippy::type_complexity)]
pub fn record_counts(r: &sssp_lab::algo::IterationRecord) -> (u32, u64, u64, u64, u64, u64, u64, u64, Vec<f64>) {
    let v = (0..r.values.len()).map(|i| r.values.get(i).unwrap_or(f64::NAN)).collect();
    let (i, f, u, re, s) = (r.iteration, r.frontier, r.unsettled, r.reached, r.settled);
    (i, f, u, re, s, r.edges_scanned, r.relax_attempted, r.relax_improved, v)
}

pub mod delta_stepping {
    use super::{petgraph_distances, root};
    use sssp_lab::algo::{DELTA_STEPPING, IterationRecord, Params, SolveOptions, Stepper};
    use sssp_lab::device::{DeviceId, make_stepper};
    use sssp_lab::formats::{LoadOptions, load};
    use sssp_lab::generate;
    use sssp_lab::graph::{Graph, VertexId, WeightRule};
    use std::sync::Arc;

    /// rome99, karate (uniform weights), a grid, an R-MAT graph, a random graph, a graph with
    /// zero-weight arcs.
    pub fn graphs() -> Vec<Arc<Graph>> {
        let file = |name: &str, weights: WeightRule| {
            let path = root().join("tests/data").join(name);
            Arc::new(load(&path, &LoadOptions { weights, ..Default::default() }).unwrap_or_else(|e| panic!("{e}")))
        };
        vec![
            file("rome99.gr.gz", WeightRule::File),
            file("karate.graph", WeightRule::Uniform { max: 10, seed: 7 }),
            Arc::new(generate::grid(20, 15, 9, 3).expect("grid")),
            Arc::new(generate::rmat(10, 8, [0.45, 0.15, 0.15], 255, 2).expect("rmat")),
            super::bellman_ford::random(300, 1500, 1, 100, 1),
            super::bellman_ford::random(200, 900, 0, 3, 2),
        ]
    }

    fn stepper(device: DeviceId, g: &Arc<Graph>, s: VertexId, opts: &SolveOptions) -> Box<dyn Stepper> {
        make_stepper(device, Arc::clone(g), DELTA_STEPPING, s, opts)
            .unwrap_or_else(|e| panic!("{device} delta-stepping on {} from {s}: {e}", g.name))
    }

    use super::record_counts as counts;

    fn threads(r: &IterationRecord) -> (u64, u64, u64, u64, u64) {
        let t = r.threads.expect("threads");
        (t.launched, t.working, t.warps_all_dummy, t.warps_mixed, t.warps_all_working)
    }

    /// Distances equal petgraph's from several sources, for several Δ and both relax kernels;
    /// stepping records (lane use included), thread counts and deltas equal the CPU stepper's;
    /// fast-path records equal them too.
    pub fn check_against_petgraph_and_cpu(device: DeviceId) {
        for g in graphs() {
            let n = g.n() as VertexId;
            let mut sources = vec![0, n / 2, n - 1];
            sources.dedup();
            for &s in &sources {
                let want = petgraph_distances(&g, s);
                // Δ = 1 on rome99 is thousands of phases, each a round trip: small graphs cover it.
                let deltas: &[&str] = if g.n() > 2000 { &["0", "100000"] } else { &["0", "1", "7", "100000"] };
                let balanced_delta = if g.n() > 2000 { "0" } else { "7" };
                let runs = deltas.iter().map(|d| (*d, "vertex")).chain([(balanced_delta, "balanced")]);
                for (delta, relax) in runs {
                    let params = Params::default().with("delta", delta).with("relax", relax);
                    let opts = SolveOptions { params: params.clone(), record_deltas: true, ..Default::default() };
                    let what = format!("{device} {} from {s} [{}]", g.name, params.to_text());
                    let mut cpu = stepper(DeviceId::Cpu, &g, s, &opts);
                    let mut st = stepper(device, &g, s, &opts);
                    let mut cpu_recs = Vec::new();
                    loop {
                        let a = cpu.step().unwrap_or_else(|e| panic!("{what}: cpu: {e}"));
                        let b = st.step().unwrap_or_else(|e| panic!("{what}: {e}"));
                        let (Some(a), Some(b)) = (a, b) else {
                            assert!(cpu.is_done() && st.is_done(), "{what}: one device ended first");
                            break;
                        };
                        let i = a.record.iteration;
                        assert_eq!(counts(&b.record), counts(&a.record), "{what}: phase {i}");
                        assert_eq!(threads(&b.record), threads(&a.record), "{what}: threads of phase {i}");
                        let (da, db) = (a.delta.expect("cpu delta"), b.delta.expect("gpu delta"));
                        assert_eq!(db.lowered, da.lowered, "{what}: lowered in phase {i}");
                        assert_eq!(db.settled, da.settled, "{what}: settled in phase {i}");
                        cpu_recs.push(a.record);
                    }
                    assert_eq!(st.distances().expect("distances"), want, "{what}: stepped distances");
                    let opts = SolveOptions { params: params.clone(), ..Default::default() };
                    let fast = stepper(device, &g, s, &opts);
                    super::check_fast_run(fast, &want, &cpu_recs, counts, &what);
                }
            }
        }
    }
}

/// Random small graphs: zero weights, parallel arcs, self-loops, unreachable parts.
pub fn random_graph() -> impl proptest::prelude::Strategy<Value = (Graph, VertexId)> {
    use proptest::prelude::*;
    use sssp_lab::graph::{GraphBuilder, VertexLabels, WeightRule};
    (1usize..40).prop_flat_map(|n| {
        // The last weight range pushes distances past 32 bits: Dijkstra's 64-bit key path.
        let weight = prop_oneof![4 => Just(0i32), 4 => 0i32..5, 4 => 0i32..1000, 1 => (i32::MAX - 1000)..=i32::MAX];
        let arc = (0..n as u32, 0..n as u32, weight);
        (proptest::collection::vec(arc, 0..n * 4), 0..n as u32).prop_map(move |(arcs, s)| {
            let mut b = GraphBuilder::new(n, WeightRule::File);
            for (u, v, w) in arcs {
                b.push(u, v, Some(w));
            }
            (b.build("random", None, VertexLabels::Offset(0)).expect("n ≥ 1"), s)
        })
    })
}

/// True when a CUDA device can run solvers; otherwise prints why and returns false, or panics
/// when `SSSP_LAB_REQUIRE_GPU` asks for CUDA.
pub fn cuda_ready(test: &str) -> bool {
    let info = sssp_lab::device::devices().iter().find(|d| matches!(d.id, sssp_lab::device::DeviceId::Cuda(_)));
    let why = match info {
        Some(d) if d.status.is_ok() => return true,
        Some(d) => d.status.clone().err().unwrap_or_default(),
        None => "no CUDA entry in the device list".to_string(),
    };
    let required = std::env::var("SSSP_LAB_REQUIRE_GPU").map(|v| v.contains("cuda")).unwrap_or(false);
    assert!(!required, "{test}: SSSP_LAB_REQUIRE_GPU asks for CUDA, but {why}");
    eprintln!("{test}: skipped ({why})");
    false
}
