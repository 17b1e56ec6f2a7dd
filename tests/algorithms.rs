//! Every CPU solver equals petgraph's Dijkstra (an oracle this project did not write) and the
//! project's own Dijkstra, on real graphs, generated families and thousands of random small
//! graphs with zero weights, parallel arcs, self-loops and unreachable parts.

mod common;
use common::{petgraph_distances, random_graph};

use proptest::prelude::*;
use sssp_lab::algo::{
    Algorithm, BELLMAN_FORD, CRAUSER_PRED, CRAUSER_SUCC, DIJKSTRA, Launch, MARTIN_PRED, MARTIN_SUCC, RunRecord,
    SolveError, SolveOptions, cpu_stepper, dijkstra_distances, reference_distances,
};
use sssp_lab::device::{DeviceId, make_stepper};
use sssp_lab::formats::{LoadOptions, load};
use sssp_lab::generate::{GeneratorSpec, Ssca2};
use sssp_lab::graph::{Distance, Graph, GraphBuilder, VertexId, VertexLabels, WeightRule};
use sssp_lab::trace::Trace;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn solve(g: &Arc<Graph>, algo: Algorithm, s: VertexId) -> (Vec<Distance>, u32) {
    let mut st = cpu_stepper(Arc::clone(g), algo, s, &SolveOptions::default()).expect("valid source");
    let run = st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect("cpu solve");
    (st.distances().expect("cpu distances"), run.iterations)
}

fn sources(n: usize) -> Vec<VertexId> {
    let mut s = vec![0, (n / 2) as VertexId, (n - 1) as VertexId, (n / 7) as VertexId];
    s.dedup();
    s
}

fn check_all(g: Graph) {
    let g = Arc::new(g);
    for s in sources(g.n()) {
        let want = petgraph_distances(&g, s);
        assert_eq!(dijkstra_distances(&g, s), want, "{} from {s}: dijkstra", g.name);
        for &algo in Algorithm::all() {
            let (got, _) = solve(&g, algo, s);
            assert_eq!(got, want, "{} from {s}: {algo}", g.name);
        }
    }
}

const DATA: [&str; 19] = [
    "4.gr",
    "4.el",
    "4.wel",
    "4.mtx",
    "4w.mtx",
    "chesapeake.mtx",
    "karate.graph",
    "lesmis.graph",
    "jazz.graph",
    "power.graph.gz",
    "add20.graph.gz",
    "data.graph.gz",
    "3elt.graph.gz",
    "uk.graph.gz",
    "4elt.graph.gz",
    "rome99.gr.gz",
    "ca-GrQc.txt.gz",
    "facebook_combined.txt.gz",
    "wiki-Vote.txt.gz",
];

#[test]
fn every_solver_equals_petgraph_on_every_real_graph() {
    for f in DATA {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(f);
        let g = load(&path, &LoadOptions { weights: WeightRule::Uniform { max: 100, seed: 7 }, ..Default::default() })
            .unwrap_or_else(|e| panic!("{e}"));
        check_all(g);
        // The file's own weights (unit for unweighted files) too.
        check_all(load(&path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{e}")));
    }
}

#[test]
fn every_solver_equals_petgraph_on_luxembourg_roads() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/luxembourg.osm.graph.gz");
    let g = load(&path, &LoadOptions { weights: WeightRule::Uniform { max: 1000, seed: 3 }, ..Default::default() })
        .unwrap_or_else(|e| panic!("{e}"));
    check_all(g);
}

#[test]
fn every_solver_equals_petgraph_on_generated_families() {
    for spec in [
        GeneratorSpec::Teaching,
        GeneratorSpec::Counterexample { n: 1024 },
        GeneratorSpec::Grid { width: 40, height: 30, max_weight: 10, seed: 1 },
        GeneratorSpec::Fanout { n: 3000, d: 2, max_weight: 100, seed: 1 },
        GeneratorSpec::Fanout { n: 2000, d: 50, max_weight: 100, seed: 2 },
        GeneratorSpec::Martin { n: 4096, seed: 3 },
        GeneratorSpec::Rmat { scale: 11, edge_factor: 8, a: 0.45, b: 0.15, c: 0.15, max_weight: 255, seed: 4 },
        GeneratorSpec::Ssca2(Ssca2 { n: 2000, ..Ssca2::table2(20, 0.5) }),
        GeneratorSpec::Ssca2(Ssca2 { n: 3000, prob_unidirectional: 1.0, max_parallel: 3, ..Ssca2::table2(5, 0.25) }),
    ] {
        check_all(spec.generate().unwrap_or_else(|e| panic!("{spec}: {e}")));
    }
}

#[test]
fn crauser_never_needs_more_iterations_than_martin() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rome99.gr.gz");
    let mut graphs = vec![load(&path, &LoadOptions::default()).expect("rome99 loads")];
    graphs.push(GeneratorSpec::Fanout { n: 3000, d: 5, max_weight: 100, seed: 9 }.generate().expect("gen"));
    graphs.push(GeneratorSpec::Grid { width: 50, height: 50, max_weight: 9, seed: 2 }.generate().expect("gen"));
    for g in graphs {
        let g = Arc::new(g);
        for s in sources(g.n()) {
            for (c, m) in [(CRAUSER_SUCC, MARTIN_SUCC), (CRAUSER_PRED, MARTIN_PRED)] {
                let (_, ci) = solve(&g, c, s);
                let (_, mi) = solve(&g, m, s);
                assert!(ci <= mi, "{} from {s}: {c} took {ci} iterations, {m} {mi}", g.name);
            }
        }
    }
}

#[test]
fn successors_and_predecessors_variants_record_the_same_iterations() {
    let g = Arc::new(GeneratorSpec::Fanout { n: 2000, d: 5, max_weight: 100, seed: 5 }.generate().expect("gen"));
    for (a, b) in [(MARTIN_SUCC, MARTIN_PRED), (CRAUSER_SUCC, CRAUSER_PRED)] {
        let ra = run_records(&g, a, 3);
        let rb = run_records(&g, b, 3);
        assert_eq!(ra.len(), rb.len());
        for (x, y) in ra.iter().zip(&rb) {
            // The four values every frontier solver declares (successors add lane use).
            let four = |r: &sssp_lab::algo::IterationRecord| [0, 1, 2, 3].map(|i| r.values.get(i));
            assert_eq!((x.frontier, four(x), x.relax_improved), (y.frontier, four(y), y.relax_improved));
        }
    }
}

fn run_records(g: &Arc<Graph>, algo: Algorithm, s: VertexId) -> Vec<sssp_lab::algo::IterationRecord> {
    let mut st = cpu_stepper(Arc::clone(g), algo, s, &SolveOptions::default()).expect("valid source");
    st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect("solve").records
}

#[test]
fn trace_steps_back_to_exactly_the_earlier_state() {
    let g = Arc::new(GeneratorSpec::Grid { width: 30, height: 20, max_weight: 9, seed: 4 }.generate().expect("gen"));
    for &algo in Algorithm::all() {
        let opts = SolveOptions { record_deltas: true, ..Default::default() };
        let mut st = cpu_stepper(Arc::clone(&g), algo, 7, &opts).expect("valid source");
        let mut trace = Trace::new(g.n(), 7);
        let mut snapshots = vec![(trace.distances().to_vec(), statuses(&trace, g.n()))];
        while let Some(step) = st.step().expect("step") {
            trace.push(step);
            snapshots.push((trace.distances().to_vec(), statuses(&trace, g.n())));
        }
        assert_eq!(trace.distances(), &dijkstra_distances(&g, 7)[..], "{algo}");
        for p in (0..snapshots.len()).rev() {
            trace.seek(p);
            assert_eq!((trace.distances().to_vec(), statuses(&trace, g.n())), snapshots[p], "{algo} at {p}");
        }
    }
}

fn statuses(t: &Trace, n: usize) -> Vec<sssp_lab::algo::VertexStatus> {
    (0..n as VertexId).map(|v| t.status(v)).collect()
}

#[test]
fn distances_beyond_32_bits_are_exact_and_stepping_then_finishing_agrees() {
    let mut b = GraphBuilder::new(5, WeightRule::File);
    // 2 · (2³¹ − 1) + 7 > 2³² − 1: δ(3) only fits 64 bits.
    for (u, v, w) in [(0, 1, i32::MAX), (1, 2, i32::MAX), (2, 3, 7), (0, 3, i32::MAX), (3, 4, 1)] {
        b.push(u, v, Some(w));
    }
    let g = Arc::new(b.build("heavy", None, VertexLabels::Offset(0)).expect("n ≥ 1"));
    let big = i32::MAX as Distance;
    let want = vec![0, big, 2 * big, big, big + 1];
    assert_eq!(petgraph_distances(&g, 0), want);
    assert_eq!(dijkstra_distances(&g, 0), want);
    // Two steps first: run_to_end then resumes the stepper's own loop, not the from-scratch one.
    let mut st = cpu_stepper(Arc::clone(&g), DIJKSTRA, 0, &SolveOptions::default()).expect("source");
    st.step().expect("step");
    st.step().expect("step");
    let run = st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect("solve");
    assert_eq!(st.distances().expect("distances"), want);
    assert_eq!(run.iterations, 5);
    assert_eq!(solve(&g, DIJKSTRA, 0), (want, 5));
}

#[test]
fn a_source_out_of_range_is_an_error_not_a_panic() {
    let g = Arc::new(GeneratorSpec::Teaching.generate().expect("gen"));
    for &algo in Algorithm::all() {
        assert!(cpu_stepper(Arc::clone(&g), algo, 5, &SolveOptions::default()).is_err());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn every_solver_equals_petgraph_on_random_graphs((g, s) in random_graph()) {
        let g = Arc::new(g);
        let want = petgraph_distances(&g, s);
        prop_assert_eq!(&dijkstra_distances(&g, s), &want);
        for &algo in Algorithm::all() {
            let (got, _) = solve(&g, algo, s);
            prop_assert_eq!(&got, &want, "{}", algo);
        }
    }
}

/// Runs to the end on `device`; records without times (they differ run to run) and δ.
fn solve_on(device: DeviceId, g: &Arc<Graph>, algo: Algorithm, s: VertexId) -> (RunRecord, Vec<Distance>) {
    let mut st = make_stepper(device, Arc::clone(g), algo, s, &SolveOptions::default()).expect("stepper");
    let mut run = st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect("solve");
    run.records.iter_mut().for_each(|r| r.times = Default::default());
    (run, st.distances().expect("distances"))
}

#[test]
fn all_cores_solvers_match_petgraph_and_the_sequential_records() {
    let graphs = [
        load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rome99.gr.gz"), &LoadOptions::default())
            .expect("rome99"),
        GeneratorSpec::Fanout { n: 5000, d: 20, max_weight: 100, seed: 1 }.generate().expect("gen"),
        GeneratorSpec::Rmat { scale: 12, edge_factor: 8, a: 0.45, b: 0.15, c: 0.15, max_weight: 255, seed: 4 }
            .generate()
            .expect("gen"),
    ];
    for g in graphs {
        let g = Arc::new(g);
        for s in sources(g.n()) {
            let want = petgraph_distances(&g, s);
            for algo in [MARTIN_SUCC, MARTIN_PRED, CRAUSER_SUCC, CRAUSER_PRED] {
                let (seq, _) = solve_on(DeviceId::Cpu, &g, algo, s);
                for threads in [0, 3] {
                    let (par, dist) = solve_on(DeviceId::CpuParallel(threads), &g, algo, s);
                    assert_eq!(dist, want, "{} from {s}: {algo} on {threads} threads", g.name);
                    assert_eq!(par.iterations, seq.iterations);
                    for (a, b) in par.records.iter().zip(&seq.records) {
                        assert_eq!(a, b, "{} from {s}: {algo} iteration {}", g.name, a.iteration);
                    }
                }
            }
        }
    }
}

#[test]
fn all_cores_racy_terminates_on_the_counterexample() {
    let g = Arc::new(GeneratorSpec::Counterexample { n: 1024 }.generate().expect("gen"));
    let opts = SolveOptions::for_choice(&"racy".parse().expect("alias"));
    let mut st = make_stepper(DeviceId::CpuParallel(0), Arc::clone(&g), MARTIN_SUCC, 0, &opts).expect("stepper");
    let run = st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect("solve");
    assert!(run.iterations >= 2);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]
    #[test]
    fn all_cores_solvers_equal_petgraph_on_random_graphs((g, s) in random_graph()) {
        let g = Arc::new(g);
        let want = petgraph_distances(&g, s);
        for algo in [MARTIN_SUCC, MARTIN_PRED, CRAUSER_SUCC, CRAUSER_PRED] {
            prop_assert_eq!(&solve_on(DeviceId::CpuParallel(2), &g, algo, s).1, &want, "{}", algo);
        }
    }
}

/// The all-cores stepper with every phase forced onto the pool, and with every phase forced
/// onto the calling thread, gives the one-thread stepper's records; `racy` forced onto the pool
/// terminates and never goes below the exact distances (only the sink is raced on).
#[test]
fn all_cores_pool_and_caller_paths_give_the_sequential_records() {
    use sssp_lab::algo::{ParallelFrontierStepper, Stepper};
    let run_with = |g: &Arc<Graph>, algo: Algorithm, s: VertexId, cutoff: usize, opts: SolveOptions| {
        let mut st = ParallelFrontierStepper::new(Arc::clone(g), algo, s, 3, opts)
            .expect("stepper")
            .with_cutoffs(cutoff, cutoff);
        let mut run = st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect("solve");
        run.records.iter_mut().for_each(|r| r.times = Default::default());
        (run, st.distances().expect("distances"))
    };
    let run = |g: &Arc<Graph>, algo, s, cutoff| run_with(g, algo, s, cutoff, SolveOptions::default());
    let graphs = [
        load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rome99.gr.gz"), &LoadOptions::default())
            .expect("rome99"),
        GeneratorSpec::Fanout { n: 3000, d: 12, max_weight: 100, seed: 7 }.generate().expect("gen"),
        GeneratorSpec::Rmat { scale: 11, edge_factor: 8, a: 0.45, b: 0.15, c: 0.15, max_weight: 255, seed: 2 }
            .generate()
            .expect("gen"),
    ];
    for g in graphs {
        let g = Arc::new(g);
        let s = (g.n() / 3) as VertexId;
        let want = petgraph_distances(&g, s);
        for algo in [MARTIN_SUCC, MARTIN_PRED, CRAUSER_SUCC, CRAUSER_PRED] {
            let (seq, _) = solve_on(DeviceId::Cpu, &g, algo, s);
            for cutoff in [0, usize::MAX] {
                let (par, dist) = run(&g, algo, s, cutoff);
                assert_eq!(dist, want, "{} {algo} cutoff {cutoff}", g.name);
                assert_eq!(par.records, seq.records, "{} {algo} cutoff {cutoff}", g.name);
            }
        }
    }
    let g = Arc::new(GeneratorSpec::Counterexample { n: 4096 }.generate().expect("gen"));
    let want = petgraph_distances(&g, 0);
    let racy_opts = SolveOptions::for_choice(&"racy".parse().expect("alias"));
    let (racy, dist) = run_with(&g, MARTIN_SUCC, 0, 0, racy_opts);
    assert!(racy.iterations >= 2);
    assert!(dist.iter().zip(&want).all(|(d, w)| d >= w));
    assert_eq!(dist[..g.n() - 1], want[..g.n() - 1], "only the sink is raced on");
}

/// Synchronous passes: on a path of k arcs the k-th pass reaches the end and one more finds
/// nothing to change; one thread and a pool record the same passes, with either filter.
#[test]
fn bellman_ford_passes_follow_the_hop_depth_and_threads_agree() {
    let mut b = GraphBuilder::new(6, WeightRule::File);
    for v in 0..5 {
        b.push(v, v + 1, Some(1));
    }
    b.push(0, 5, Some(100)); // a heavy shortcut: found first, lowered later
    let path = Arc::new(b.build("path", None, VertexLabels::Offset(0)).expect("n ≥ 1"));
    let (run, dist) = solve_on(DeviceId::Cpu, &path, BELLMAN_FORD, 0);
    assert_eq!(dist, vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(run.iterations, 6, "5 hops, then a pass that changes nothing");
    assert!(run.records[..5].iter().all(|r| r.settled == 1), "nothing settles before convergence");
    assert_eq!(run.records[5].settled, 6);
    let g = Arc::new(GeneratorSpec::Fanout { n: 3000, d: 8, max_weight: 100, seed: 3 }.generate().expect("gen"));
    for filter in ["all", "frontier"] {
        let opts = SolveOptions::for_choice(&format!("bellman-ford:filter={filter}").parse().expect("choice"));
        let run_on = |device| {
            let mut st = make_stepper(device, Arc::clone(&g), BELLMAN_FORD, 5, &opts).expect("stepper");
            let mut run = st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect("solve");
            run.records.iter_mut().for_each(|r| r.times = Default::default());
            (run.records, st.distances().expect("distances"))
        };
        let (one, d1) = run_on(DeviceId::Cpu);
        let (many, d3) = run_on(DeviceId::CpuParallel(3));
        assert_eq!(d1, petgraph_distances(&g, 5), "{filter}");
        assert_eq!(d1, d3);
        assert_eq!(one, many, "{filter}: one thread and three record the same passes");
    }
}

/// A DAG with negative arcs (no cycle) plus an unreachable vertex.
fn signed_dag() -> Arc<Graph> {
    let mut b = GraphBuilder::new(7, WeightRule::File);
    for (u, v, w) in [(0, 1, 4), (0, 2, 2), (2, 1, -3), (1, 3, 2), (2, 3, 5), (3, 4, -6), (1, 4, 1), (4, 5, 0)] {
        b.push(u, v, Some(w));
    }
    Arc::new(b.build("signed dag", None, VertexLabels::Offset(1)).expect("n ≥ 1"))
}

#[test]
fn negative_weights_are_refused_by_label_setting_solvers_with_the_first_arc_named() {
    let g = signed_dag();
    assert_eq!(g.first_negative_arc(), Some((2, 1, -3)));
    for &algo in Algorithm::all() {
        let got = cpu_stepper(Arc::clone(&g), algo, 0, &SolveOptions::default());
        if algo.spec().negative_weights {
            assert!(got.is_ok(), "{algo}");
            continue;
        }
        let err = got.err().map(|e| e.to_string()).unwrap_or_else(|| panic!("{algo} accepted negative weights"));
        // File ids are 1-based here: the arc (2, 1) is written (3, 2).
        assert!(err.contains("non-negative") && err.contains("the arc from 3 to 2, weight -3"), "{err}");
        assert!(err.contains("bellman-ford"), "{err}");
        let on_pool = make_stepper(DeviceId::CpuParallel(2), Arc::clone(&g), algo, 0, &SolveOptions::default());
        assert!(on_pool.is_err(), "{algo} on the pool");
    }
}

#[test]
fn negative_distances_match_petgraphs_bellman_ford() {
    let g = signed_dag();
    for s in 0..g.n() as VertexId {
        let want = common::petgraph_signed_distances(&g, s).expect("no negative cycle");
        assert_eq!(reference_distances(&g, s).expect("no cycle"), want, "reference from {s}");
        for threads in [1, 3] {
            let dev = if threads == 1 { DeviceId::Cpu } else { DeviceId::CpuParallel(threads) };
            let mut st = make_stepper(dev, Arc::clone(&g), BELLMAN_FORD, s, &SolveOptions::default()).expect("bf");
            st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect("solve");
            assert_eq!(st.distances().expect("distances"), want, "bellman-ford on {threads} threads from {s}");
        }
    }
    assert_eq!(reference_distances(&g, 0).expect("no cycle")[4], -5, "0 → 2 → 1 → 3 → 4: 2 − 3 + 2 − 6");
}

#[test]
fn the_reference_reports_a_negative_cycle_naming_a_vertex() {
    let mut b = GraphBuilder::new(4, WeightRule::File);
    for (u, v, w) in [(0, 1, 1), (1, 2, -2), (2, 1, 1), (2, 3, 1)] {
        b.push(u, v, Some(w));
    }
    let g = Arc::new(b.build("cycle", None, VertexLabels::Offset(1)).expect("n ≥ 1"));
    let err = reference_distances(&g, 0).expect_err("1 → 2 → 1 weighs −1");
    // File ids are 1-based: the cycle 1 → 2 → 1 is written 2 -> 3 -> 2.
    assert!(err.contains("negative cycle reachable from the source through vertex 2: 2 -> 3 -> 2"), "{err}");
    assert!(err.contains("total weight -1"), "{err}");
    assert!(reference_distances(&g, 3).is_ok(), "the cycle is not reachable from vertex 3");
    for dev in [DeviceId::Cpu, DeviceId::CpuParallel(3)] {
        let mut st = make_stepper(dev, Arc::clone(&g), BELLMAN_FORD, 0, &SolveOptions::default()).expect("bf");
        let err = st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect_err("a negative cycle");
        assert!(
            matches!(&err, SolveError::NegativeCycle { vertex: 2, weight: -1, path, .. } if path == "2 -> 3 -> 2"),
            "{dev}: {err}"
        );
    }
}

/// Bellman-Ford reports a negative cycle exactly when petgraph's Bellman-Ford does, on a real
/// matrix (Hamrle1: symmetric, negative entries) and on random signed graphs; the cycle it names
/// is made of arcs of the graph and weighs what it says, below zero.
#[test]
fn bellman_ford_names_a_real_negative_cycle_exactly_when_petgraph_finds_one() {
    use sssp_lab::algo::find_negative_cycle;
    let hamrle = Arc::new(
        load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/Hamrle1.mtx"), &LoadOptions::default())
            .expect("Hamrle1"),
    );
    let mut graphs = vec![hamrle];
    for seed in 0..12u64 {
        let mut b = GraphBuilder::new(30, WeightRule::File);
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for _ in 0..70 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (u, v) = ((x % 30) as VertexId, ((x >> 8) % 30) as VertexId);
            // Mostly positive weights: some seeds close a negative cycle, some do not.
            let w = ((x >> 16) % 40) as i32 - 4;
            b.push(u, v, Some(w));
        }
        graphs.push(Arc::new(b.build("signed", None, VertexLabels::Offset(0)).expect("n ≥ 1")));
    }
    let (mut cycles, mut clean) = (0, 0);
    for g in &graphs {
        for s in [0, g.n() as VertexId / 2] {
            let want = common::petgraph_signed_distances(g, s);
            let mut st =
                make_stepper(DeviceId::CpuParallel(2), Arc::clone(g), BELLMAN_FORD, s, &SolveOptions::default())
                    .expect("bf");
            let got = st.run_to_end(&AtomicBool::new(false), &mut |_| {});
            match want {
                Ok(want) => {
                    got.unwrap_or_else(|e| panic!("{} from {s}: {e}", g.name));
                    assert_eq!(st.distances().expect("distances"), want, "{} from {s}", g.name);
                    clean += 1;
                }
                Err(_) => {
                    let err = got.expect_err("petgraph found a negative cycle");
                    assert!(matches!(err, SolveError::NegativeCycle { .. }), "{err}");
                    let cycle = find_negative_cycle(g, s).expect("a cycle");
                    let k = cycle.vertices.len();
                    let mut total = 0;
                    for i in 0..k {
                        let (u, v) = (cycle.vertices[i], cycle.vertices[(i + 1) % k]);
                        let w = g.successors().arcs(u).filter(|&(t, _)| t == v).map(|(_, w)| w).min();
                        total += i64::from(w.unwrap_or_else(|| panic!("no arc {u} -> {v}")));
                    }
                    assert!(total <= cycle.weight && cycle.weight < 0, "{total} vs {}", cycle.weight);
                    cycles += 1;
                }
            }
        }
    }
    assert!(cycles > 0 && clean > 0, "{cycles} with a cycle, {clean} without");
}

/// Δ-stepping equals petgraph for every Δ — 1 (Dial's buckets), 3, auto, and one bucket for
/// everything — on one thread and on pools of 2, 3 and 8 threads (every frontier forced onto
/// the pool), on random graphs with zero weights and a real road graph, from several sources;
/// both ways to the end: GAP's rounds (`launch=fast`) and the recorded phases (`per-phase`).
#[test]
fn delta_stepping_equals_petgraph_for_every_delta_and_thread_count() {
    use sssp_lab::algo::{DELTA_STEPPING, DeltaSteppingStepper, Stepper, auto_delta};
    let graphs = [
        load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rome99.gr.gz"), &LoadOptions::default())
            .expect("rome99"),
        GeneratorSpec::Rmat { scale: 10, edge_factor: 8, a: 0.45, b: 0.15, c: 0.15, max_weight: 255, seed: 6 }
            .generate()
            .expect("gen"),
        GeneratorSpec::Fanout { n: 1500, d: 4, max_weight: 100, seed: 8 }.generate().expect("gen"),
        random_with_zero_weights(800, 3, 9),
        random_with_zero_weights(300, 6, 1000),
    ];
    for g in graphs {
        let g = Arc::new(g);
        let auto = auto_delta(&g);
        for s in sources(g.n()) {
            let want = petgraph_distances(&g, s);
            for (delta, launch) in
                [1, 3, 0, 1 << 50].into_iter().flat_map(|d| [(d, Launch::Fast), (d, Launch::PerPhase)])
            {
                let opts = SolveOptions {
                    launch,
                    ..SolveOptions::for_choice(&format!("delta-stepping:delta={delta}").parse().expect("choice"))
                };
                for threads in [1, 2, 3, 8] {
                    let st = DeltaSteppingStepper::new(Arc::clone(&g), DELTA_STEPPING, s, threads, opts.clone())
                        .expect("stepper");
                    assert_eq!(st.delta(), if delta == 0 { auto } else { delta });
                    let mut st = st.with_cutoff(0);
                    st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect("solve");
                    let got = st.distances().expect("distances");
                    assert_eq!(got, want, "{} from {s}: Δ = {delta}, {threads} threads, {launch:?}", g.name);
                }
            }
        }
    }
}

/// `n` vertices, `n · degree` arcs with weights in 0..=max (a quarter of them 0), self-loops and
/// parallel arcs allowed; seeded by a fixed LCG.
fn random_with_zero_weights(n: u32, degree: u32, max: u32) -> Graph {
    let mut x = 0x2545_f491_4f6c_dd1du64 ^ u64::from(n * degree + max);
    let mut next = |k: u32| {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((x >> 33) % u64::from(k)) as u32
    };
    let mut b = GraphBuilder::new(n as usize, WeightRule::File);
    for _ in 0..n * degree {
        let (u, v, zero) = (next(n), next(n), next(4) == 0);
        let w = if zero { 0 } else { next(max + 1) };
        b.push(u, v, Some(w as i32));
    }
    b.build(format!("random n={n} d={degree} w≤{max}"), None, VertexLabels::Offset(0)).expect("n ≥ 1")
}

/// Phases are synchronous: one thread and three (pool forced or not) record the same phases,
/// value for value; the records add up (light + heavy = attempted, the last one settles every
/// reached vertex, `delta` is the Δ used).
#[test]
fn delta_stepping_one_thread_and_three_record_the_same_phases() {
    use sssp_lab::algo::{DELTA_STEPPING, DeltaSteppingStepper, Stepper, auto_delta};
    let graphs = [
        GeneratorSpec::Rmat { scale: 12, edge_factor: 8, a: 0.45, b: 0.15, c: 0.15, max_weight: 255, seed: 4 }
            .generate()
            .expect("gen"),
        GeneratorSpec::Fanout { n: 3000, d: 12, max_weight: 100, seed: 7 }.generate().expect("gen"),
    ];
    for g in graphs {
        let g = Arc::new(g);
        for delta in [0, 20, 1 << 50] {
            // The recorded phases (GAP's rounds, `launch=fast`, keep no records).
            let opts = SolveOptions {
                launch: Launch::PerPhase,
                ..SolveOptions::for_choice(&format!("delta-stepping:delta={delta}").parse().expect("choice"))
            };
            let run = |threads, cutoff| {
                let mut st = DeltaSteppingStepper::new(Arc::clone(&g), DELTA_STEPPING, 1, threads, opts.clone())
                    .expect("stepper")
                    .with_cutoff(cutoff);
                let mut run = st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect("solve");
                run.records.iter_mut().for_each(|r| r.times = Default::default());
                run
            };
            let one = run(1, usize::MAX);
            assert!(one.records.iter().any(|r| r.frontier >= 64), "{} Δ = {delta}: frontiers too small", g.name);
            for (threads, cutoff) in [(3, 0), (3, 1024)] {
                let many = run(threads, cutoff);
                assert_eq!(one.records, many.records, "{} Δ = {delta}, {threads} threads, cutoff {cutoff}", g.name);
            }
            let used = if delta == 0 { auto_delta(&g) } else { delta };
            for r in &one.records {
                let v = |k| r.value(DELTA_STEPPING, k).expect(k);
                assert_eq!(v("light_relax") + v("heavy_relax"), r.relax_attempted as f64);
                assert_eq!(r.distance(DELTA_STEPPING, "delta"), used);
            }
            let last = one.records.last().expect("records");
            assert_eq!((last.settled, last.value(DELTA_STEPPING, "next_frontier")), (one.reached, Some(0.0)));
        }
    }
}

/// Δ-stepping's fast path (one parallel region, futex barrier) reports one busy / barrier split
/// per thread, more threads than cores included, and still equals petgraph.
#[test]
fn delta_stepping_fast_path_reports_each_threads_time() {
    use sssp_lab::algo::{DELTA_STEPPING, DeltaSteppingStepper, Stepper};
    let g = Arc::new(GeneratorSpec::Fanout { n: 3000, d: 4, max_weight: 100, seed: 3 }.generate().expect("gen"));
    for threads in [1, 4, 9] {
        let mut st = DeltaSteppingStepper::new(Arc::clone(&g), DELTA_STEPPING, 5, threads, SolveOptions::default())
            .expect("stepper");
        st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect("solve");
        let t = st.thread_times();
        assert_eq!(t.len(), threads);
        assert!(t.iter().all(|t| t.work_ms >= 0.0 && t.barrier_ms >= 0.0 && t.lock_ms == 0.0));
        assert_eq!(st.distances().expect("distances"), petgraph_distances(&g, 5), "{threads} threads");
    }
}

/// Δ-stepping's fast path with hubs above the default split (more than 2 048 arcs, mean degree
/// over 4: their arcs are cut into pieces that idle threads take before the barrier) equals
/// petgraph from a hub and from a leaf, on 1, 3 and 8 threads, for Δ 1, 50 and auto.
#[test]
fn delta_stepping_with_split_hubs_equals_petgraph() {
    let n = 3000u32;
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |k: u32| {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((x >> 33) % u64::from(k)) as u32
    };
    let mut b = GraphBuilder::new(n as usize, WeightRule::File);
    for _ in 0..n * 3 {
        let (u, v) = (next(n), next(n));
        b.push(u, v, Some(next(200) as i32));
    }
    for hub in [0, 17, 1234] {
        for _ in 0..5000 {
            b.push(hub, next(n), Some(next(1000) as i32));
        }
    }
    let g = Arc::new(b.build(String::from("hubs"), None, VertexLabels::Offset(0)).expect("n ≥ 1"));
    assert!(g.m() > 4 * g.n());
    fast_rounds_equal_petgraph(&g, &[0, 1], &[1, 50, 0]);
}

/// Δ-stepping's `run_to_end` (the fast rounds) from each source, for each Δ (0 = auto), on 1, 3
/// and 8 threads, equals petgraph's distances.
fn fast_rounds_equal_petgraph(g: &Arc<Graph>, sources: &[VertexId], deltas: &[u32]) {
    use sssp_lab::algo::{DELTA_STEPPING, DeltaSteppingStepper, Stepper};
    for &s in sources {
        let want = petgraph_distances(g, s);
        for delta in deltas {
            let opts = SolveOptions::for_choice(&format!("delta-stepping:delta={delta}").parse().expect("choice"));
            for threads in [1, 3, 8] {
                let mut st = DeltaSteppingStepper::new(Arc::clone(g), DELTA_STEPPING, s, threads, opts.clone())
                    .expect("stepper")
                    .with_cutoff(0);
                st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect("solve");
                assert_eq!(st.distances().expect("distances"), want, "from {s}: Δ = {delta}, {threads} threads");
            }
        }
    }
}

/// On a skewed graph of mean degree ≥ 10 (R-MAT with Graph500's probabilities) Δ-stepping's
/// rounds work on the graph renumbered by degree (GAP's relabelling rule) and copy δ back:
/// the distances equal petgraph's in the original numbering, from a hub and from leaves, on 1,
/// 3 and 8 threads, for Δ 1 and auto; each renumbered row is sorted by head, and the copy is
/// built when the solver is made (untimed), on one thread too. Uniform fan-out and grids stay
/// as read.
#[test]
fn delta_stepping_on_a_graph_renumbered_by_degree_equals_petgraph() {
    use sssp_lab::generate::{fanout, grid, rmat};
    use sssp_lab::graph::worth_relabelling;
    let g = Arc::new(rmat(11, 16, [0.57, 0.19, 0.19], 255, 3).expect("rmat"));
    assert!(worth_relabelling(&g), "R-MAT is skewed and dense enough");
    assert!(!worth_relabelling(&fanout(4000, 16, 100, 1).expect("fanout")), "uniform degrees");
    assert!(!worth_relabelling(&grid(60, 60, 100, 1).expect("grid")), "mean degree under 10");
    let before = g.stats().bytes;
    assert!(g.degree_relabelled_if_built().is_none());
    // Built with the solver, outside the timed run, on one thread as on many (lease 19: on one
    // thread it was built inside the first timed run).
    let opts = SolveOptions::for_choice(&"delta-stepping".parse().expect("choice"));
    sssp_lab::algo::DeltaSteppingStepper::new(Arc::clone(&g), sssp_lab::algo::DELTA_STEPPING, 0, 1, opts)
        .expect("stepper");
    assert!(g.degree_relabelled_if_built().is_some(), "the one-thread solver builds the copy when it is made");
    let r = g.degree_relabelled();
    assert!(g.stats().bytes >= before + r.graph.successors().bytes(), "the copy is counted once built");
    let degree = |v: u32| r.graph.successors().degree(v);
    assert!((1..g.n() as u32).all(|v| degree(v - 1) >= degree(v)), "highest degree first");
    let rs = r.graph.successors();
    assert!(
        (0..g.n() as u32).all(|u| rs.targets[rs.range(u)].is_sorted()),
        "each row sorted by new head id, as GAP's RelabelByDegree"
    );
    fast_rounds_equal_petgraph(&g, &[0, 1, 777, 2047], &[1, 0]);
}

/// The packed arcs (`Graph::packed_successors`, read by Δ-stepping's rounds with
/// `SSSP_DS_PACK=1`) give back every head and weight of the CSR where they fit a word — R-MAT
/// at scale 11 with weights up to 255 (11 + 8 bits) — and are counted in the stats once built;
/// a fan-out graph whose weights need 31 bits beside 12 bits of head is refused. The rounds on
/// both, as the binary runs them, equal petgraph.
#[test]
fn packed_arcs_give_back_the_csr_and_refuse_what_does_not_fit() {
    use sssp_lab::generate::{fanout, rmat};
    let g = Arc::new(rmat(11, 16, [0.57, 0.19, 0.19], 255, 5).expect("rmat"));
    let before = g.stats().bytes;
    let p = g.packed_successors().expect("19 bits of a word");
    let succ = g.successors();
    assert!(
        p.arcs
            .iter()
            .zip(succ.targets.iter().zip(&succ.weights))
            .all(|(&a, (&v, &w))| (p.head(a), p.weight(a)) == (v, w))
    );
    assert_eq!(g.stats().bytes, before + 4 * g.m(), "the packed arcs are counted once built");
    fast_rounds_equal_petgraph(&g, &[0, 3, 2000], &[1, 0]);
    let wide = Arc::new(fanout(4000, 12, 1 << 30, 2).expect("fanout"));
    assert!(!wide.packs() && wide.packed_successors().is_none(), "12 + 31 bits do not fit a word");
    fast_rounds_equal_petgraph(&wide, &[0, 3999], &[0, 1 << 20]);
}

/// Parameters are decoded once into typed structs; a value the algorithm does not declare is an
/// error naming the key and the value, from the decoder and from every stepper built without
/// the registry's validation.
#[test]
fn typed_parameters_name_the_key_and_value_they_refuse() {
    use sssp_lab::algo::{
        BellmanFordParams, DELTA_STEPPING, DeltaRule, DeltaSteppingParams, FrontierParams, FrontierRelax,
        FrontierStepper, LaneMode, Params,
    };
    let p = |k: &str, v: &str| Params::default().with(k, v);
    let f = FrontierParams::decode(MARTIN_SUCC, &p("relax", "non-atomic")).expect("declared");
    assert_eq!(f.relax, FrontierRelax::NonAtomic);
    assert!(f.racy() && f.cuda_only().is_empty());
    let f = FrontierParams::decode(MARTIN_PRED, &p("split", "uh2")).expect("declared");
    assert_eq!(f.cuda_only(), vec!["split=uh2".to_string()]);
    for (e, key, value) in [
        (FrontierParams::decode(MARTIN_SUCC, &p("relax", "cached")).unwrap_err(), "relax", "cached"),
        (BellmanFordParams::decode(&p("filter", "some")).unwrap_err(), "filter", "some"),
        (DeltaSteppingParams::decode(&p("delta", "wide")).unwrap_err(), "delta", "wide"),
        (DeltaSteppingParams::decode(&p("relax", "warp")).unwrap_err(), "relax", "warp"),
    ] {
        assert!(e.contains(key) && e.contains(value), "{e}");
    }
    let d = DeltaSteppingParams::decode(&p("delta", "7").with("relax", "balanced")).expect("declared");
    assert_eq!((d.delta, d.relax), (DeltaRule::Fixed(7), LaneMode::Balanced));
    assert_eq!(DeltaSteppingParams::decode(&Params::default()).map(|d| d.delta), Ok(DeltaRule::Auto));
    let g = Arc::new(path_graph(4));
    let opts = SolveOptions { params: p("relax", "sideways"), ..Default::default() };
    match FrontierStepper::new(Arc::clone(&g), MARTIN_SUCC, 0, opts) {
        Err(SolveError::Options(e)) => assert!(e.contains("relax=sideways"), "{e}"),
        other => panic!("expected an options error, got {:?}", other.map(|_| ())),
    }
    let opts = SolveOptions { params: p("delta", "-3"), ..Default::default() };
    match cpu_stepper(g, DELTA_STEPPING, 0, &opts) {
        Err(SolveError::Options(e)) => assert!(e.contains("delta") && e.contains("-3"), "{e}"),
        other => panic!("expected an options error, got {:?}", other.map(|_| ())),
    }
}

fn path_graph(n: usize) -> Graph {
    let mut b = GraphBuilder::new(n, WeightRule::File);
    for v in 1..n as VertexId {
        b.push(v - 1, v, Some(1));
    }
    b.build("path", None, VertexLabels::Offset(0)).expect("n >= 1")
}
