//! Every wgpu kernel against the oracles (`sssp_lab::algo::dijkstra_distances` and petgraph's
//! dijkstra) on every usable wgpu adapter — in CI that is lavapipe (software Vulkan).
//!
//! Covered: real graphs from `tests/data` and generated ones, several sources, stepping and fast
//! modes, instrumented counts equal to the CPU stepper's records iteration by iteration (block
//! sizes that are and are not multiples of 32), 2-D dispatch (forced through the tuning knob and
//! for real with 32-thread workgroups on a 2.1 M-vertex graph), the arc-array split (with an
//! artificially low split threshold), the refusals (distance range, block size, dijkstra), and
//! the racy relax (it must terminate; mismatches are reported, not failed).
//!
//! With no usable adapter the tests print why and pass, unless `SSSP_LAB_REQUIRE_GPU` contains
//! `wgpu` (CI sets it), in which case they fail.

mod common;
use common::{FRONTIER_ALGOS, petgraph_distances};

use sssp_lab::algo::{
    Algorithm, BlockSizes, IterationRecord, Launch, SolveError, SolveOptions, StepDelta, Stepper, dijkstra_distances,
};
use sssp_lab::device::wgpu::{self as gw, WgpuTuning};
use sssp_lab::device::{DeviceId, make_stepper};
use sssp_lab::formats::{LoadOptions, load};
use sssp_lab::generate;
use sssp_lab::graph::{Distance, Graph, GraphBuilder, INF, VertexId, VertexLabels, WeightRule};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// Indices of the usable adapters; empty (after saying why) when there are none.
fn adapters() -> Vec<u32> {
    static LIST: OnceLock<Vec<u32>> = OnceLock::new();
    LIST.get_or_init(|| {
        let list = gw::list();
        for d in &list {
            eprintln!("wgpu device {:?}: {} — {:?}", d.id, d.name, d.status);
        }
        let ok: Vec<u32> = list
            .iter()
            .filter(|d| d.status.is_ok())
            .filter_map(|d| match d.id {
                DeviceId::Wgpu(i) => Some(i),
                _ => None,
            })
            .collect();
        if ok.is_empty() {
            let why: Vec<String> =
                list.iter().map(|d| format!("{}: {}", d.name, d.status.clone().err().unwrap_or_default())).collect();
            let require = std::env::var("SSSP_LAB_REQUIRE_GPU").unwrap_or_default();
            assert!(!require.contains("wgpu"), "SSSP_LAB_REQUIRE_GPU={require} but no usable wgpu adapter: {why:?}");
            eprintln!("skipping wgpu tests: no usable adapter ({why:?})");
        }
        ok
    })
    .clone()
}

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn load_data(name: &str, weights: WeightRule) -> Option<Arc<Graph>> {
    let path = data(name);
    if !path.exists() {
        eprintln!("{name} not in tests/data; skipped");
        return None;
    }
    Some(Arc::new(
        load(&path, &LoadOptions { weights, ..Default::default() }).unwrap_or_else(|e| panic!("{name}: {e}")),
    ))
}

fn uniform(max: i32) -> WeightRule {
    WeightRule::Uniform { max, seed: 7 }
}

/// Small and medium graphs every algorithm runs on.
fn graphs() -> Vec<Arc<Graph>> {
    let mut g: Vec<Arc<Graph>> = Vec::new();
    for (name, rule) in [
        ("karate.graph", uniform(10)),
        ("lesmis.graph", WeightRule::File),
        ("4.gr", WeightRule::File),
        ("rome99.gr.gz", WeightRule::File),
        ("chesapeake.mtx", uniform(5)),
    ] {
        g.extend(load_data(name, rule));
    }
    let make = |r: Result<Graph, String>| Arc::new(r.unwrap_or_else(|e| panic!("{e}")));
    g.push(Arc::new(generate::teaching()));
    g.push(make(generate::counterexample(200)));
    g.push(make(generate::fanout(3000, 5, 100, 1)));
    g.push(make(generate::fanout(1000, 60, 100, 2)));
    g.push(make(generate::grid(30, 25, 10, 3)));
    g.push(make(generate::rmat(11, 8, [0.45, 0.15, 0.15], 255, 4)));
    g.push(make(generate::martin(6000, 5)));
    // Zero weights, parallel arcs, a self-loop and unreachable vertices.
    let mut b = GraphBuilder::new(7, WeightRule::File);
    for (u, v, w) in [(0, 1, 0), (0, 1, 3), (1, 2, 0), (2, 2, 1), (2, 3, 4), (0, 3, 9), (3, 4, 0), (5, 6, 1)] {
        b.push(u, v, Some(w));
    }
    g.push(Arc::new(b.build("corners", None, VertexLabels::Offset(0)).unwrap_or_else(|e| panic!("{e}"))));
    g
}

fn sources(g: &Graph) -> Vec<VertexId> {
    let n = g.n() as VertexId;
    let mut s = vec![0, n / 2, n - 1];
    s.dedup();
    s
}

/// The oracle's distances, checked against petgraph once per (graph, source).
fn oracle(g: &Graph, source: VertexId) -> Vec<Distance> {
    let d = dijkstra_distances(g, source);
    if g.n() <= 20_000 {
        assert_eq!(d, petgraph_distances(g, source), "{}: dijkstra vs petgraph from {source}", g.name);
    }
    d
}

fn cpu_run(g: &Arc<Graph>, algo: Algorithm, source: VertexId, opts: &SolveOptions) -> Vec<IterationRecord> {
    let mut s = make_stepper(DeviceId::Cpu, Arc::clone(g), algo, source, opts).unwrap_or_else(|e| panic!("{e}"));
    let mut records = Vec::new();
    while let Some(step) = s.step().unwrap_or_else(|e| panic!("{e}")) {
        records.push(step.record);
    }
    records
}

fn cpu_steps(
    g: &Arc<Graph>,
    algo: Algorithm,
    source: VertexId,
    opts: &SolveOptions,
) -> Vec<(IterationRecord, StepDelta)> {
    let mut s = make_stepper(DeviceId::Cpu, Arc::clone(g), algo, source, opts).unwrap_or_else(|e| panic!("{e}"));
    let mut out = Vec::new();
    while let Some(step) = s.step().unwrap_or_else(|e| panic!("{e}")) {
        out.push((step.record, step.delta.unwrap_or_default()));
    }
    out
}

/// A record without what differs by device: times and whether thread counts are modelled.
fn comparable(r: &IterationRecord) -> IterationRecord {
    let mut r = r.clone();
    r.times = Default::default();
    if let Some(t) = &mut r.threads {
        t.modelled = false;
    }
    r
}

fn sorted(mut d: StepDelta) -> StepDelta {
    d.lowered.sort_unstable();
    d.settled.sort_unstable();
    d
}

/// The next step of `st`, which must not have ended yet (`label` names the run).
fn must_step(st: &mut dyn Stepper, label: &str) -> sssp_lab::algo::Step {
    st.step().unwrap_or_else(|e| panic!("{e}")).unwrap_or_else(|| panic!("{label}: ended early"))
}

fn wgpu_stepper(i: u32, g: &Arc<Graph>, algo: Algorithm, s: VertexId, opts: &SolveOptions) -> Box<dyn Stepper> {
    make_stepper(DeviceId::Wgpu(i), Arc::clone(g), algo, s, opts)
        .unwrap_or_else(|e| panic!("{} {algo} from {s}: {e}", g.name))
}

fn run_fast(st: &mut dyn Stepper) -> (sssp_lab::algo::RunRecord, Vec<Distance>) {
    let run = st.run_to_end(&AtomicBool::new(false), &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    let d = st.distances().unwrap_or_else(|e| panic!("{e}"));
    (run, d)
}

#[test]
fn every_adapter_is_listed_by_backend_and_name() {
    let list = gw::list();
    assert!(!list.is_empty(), "list() always names at least one entry (with the reason when there is no adapter)");
    for (i, d) in list.iter().enumerate() {
        assert!(d.name.starts_with("wgpu"), "{}", d.name);
        if d.status.is_ok() {
            assert_eq!(d.id, DeviceId::Wgpu(i as u32));
        }
    }
    assert_eq!(list.len(), gw::list().len(), "stable list");
}

/// Every frontier algorithm, fast and stepping, equals both oracles, with the CPU's iteration
/// count, from several sources on every graph. Graphs that need thousands of iterations (road
/// networks under Martín) run fewer sources and step only under Crauser; adapters after the
/// first usable one (lavapipe's GL twin, say) run the small graphs.
#[test]
fn every_algorithm_matches_the_oracles_in_both_modes() {
    let t0 = Instant::now();
    for (k, i) in adapters().into_iter().enumerate() {
        for g in graphs() {
            let small = g.n() <= 1200;
            if k > 0 && !small {
                continue;
            }
            let tg = Instant::now();
            let srcs = if small { sources(&g) } else { sources(&g)[1..2].to_vec() };
            for (si, &s) in srcs.iter().enumerate() {
                let want = oracle(&g, s);
                for algo in FRONTIER_ALGOS {
                    let opts = SolveOptions::default();
                    let cpu_iters = cpu_run(&g, algo, s, &opts).len() as u32;
                    let label = format!("wgpu:{i} {} {algo} from {s}", g.name);
                    let mut fast = wgpu_stepper(i, &g, algo, s, &opts);
                    let (run, d) = run_fast(fast.as_mut());
                    assert_eq!(d, want, "{label}: fast distances");
                    assert_eq!(run.iterations, cpu_iters, "{label}: fast iterations");
                    assert_eq!(run.reached, want.iter().filter(|&&x| x != INF).count() as u64, "{label}");
                    let step_it =
                        (small && g.n() <= 800) || (si == 0 && algo == sssp_lab::algo::CRAUSER_SUCC && cpu_iters < 600);
                    if step_it {
                        let mut st = wgpu_stepper(i, &g, algo, s, &opts);
                        let mut steps = 0;
                        while st.step().unwrap_or_else(|e| panic!("{e}")).is_some() {
                            steps += 1;
                        }
                        assert_eq!(steps, cpu_iters, "{label}: stepping iterations");
                        assert_eq!(st.distances().unwrap_or_else(|e| panic!("{e}")), want, "{label}: stepping");
                    }
                }
            }
            eprintln!("wgpu:{i} {}: {:.2} s", g.name, tg.elapsed().as_secs_f64());
        }
    }
    eprintln!("oracle sweep: {:.1} s", t0.elapsed().as_secs_f64());
}

/// Instrumented kernels count exactly what the CPU model computes, iteration by iteration, in
/// stepping and fast modes, for block sizes that are and are not multiples of 32. Stepping
/// without instrumentation derives the same records from the copied-back state, and its deltas
/// equal the CPU's.
#[test]
fn instrumented_counts_equal_the_cpu_records() {
    let t0 = Instant::now();
    let make = |r: Result<Graph, String>| Arc::new(r.unwrap_or_else(|e| panic!("{e}")));
    let mut gs: Vec<Arc<Graph>> = vec![
        Arc::new(generate::teaching()),
        make(generate::grid(14, 11, 9, 1)),
        make(generate::fanout(500, 6, 100, 3)),
        make(generate::rmat(8, 8, [0.45, 0.15, 0.15], 255, 2)),
    ];
    gs.extend(load_data("karate.graph", uniform(10)));
    gs.extend(load_data("4.gr", WeightRule::File));
    for i in adapters() {
        for g in &gs {
            // The CPU model counts 32-thread warps over the whole launch, which matches a GPU
            // only for relax blocks that are multiples of 32; minimum and update may be any size.
            for (bi, block) in
                [BlockSizes::default(), BlockSizes { relax: 96, minimum: 40, update: 33 }, BlockSizes::uniform(32)]
                    .into_iter()
                    .enumerate()
            {
                for (algo, params) in common::exact_choices(false) {
                    let s = if bi == 1 { g.n() as VertexId / 3 } else { 0 };
                    let cpu_opts =
                        SolveOptions { block, record_deltas: true, params: params.clone(), ..Default::default() };
                    let cpu = cpu_steps(g, algo, s, &cpu_opts);
                    let instr = SolveOptions { block, instrument: true, params: params.clone(), ..Default::default() };
                    let label = format!("{} {algo} {params:?} from {s} blocks {block:?}", g.name);

                    let mut st = wgpu_stepper(i, g, algo, s, &instr);
                    for (k, (want, _)) in cpu.iter().enumerate() {
                        let got = must_step(st.as_mut(), &label);
                        assert_eq!(comparable(&got.record), comparable(want), "{label}: instrumented step {}", k + 1);
                        assert_eq!(got.record.threads.map(|t| t.modelled), Some(false), "{label}");
                    }
                    assert!(st.step().unwrap_or_else(|e| panic!("{e}")).is_none(), "{label}: too many steps");

                    let mut fast = wgpu_stepper(i, g, algo, s, &instr);
                    let (run, _) = run_fast(fast.as_mut());
                    let got: Vec<_> = run.records.iter().map(comparable).collect();
                    let want: Vec<_> = cpu.iter().map(|(r, _)| comparable(r)).collect();
                    assert_eq!(got, want, "{label}: instrumented fast records");

                    if bi == 0 {
                        let plain =
                            SolveOptions { block, record_deltas: true, params: params.clone(), ..Default::default() };
                        let mut st = wgpu_stepper(i, g, algo, s, &plain);
                        for (k, (want, want_delta)) in cpu.iter().enumerate() {
                            let got = must_step(st.as_mut(), &label);
                            assert_eq!(comparable(&got.record), comparable(want), "{label}: stepping record {}", k + 1);
                            assert_eq!(
                                sorted(got.delta.unwrap_or_default()),
                                sorted(want_delta.clone()),
                                "{label}: delta of step {}",
                                k + 1
                            );
                            assert!(got.record.times.copy_ms > 0.0, "{label}: copy time measured");
                        }
                    }
                }
            }
        }
    }
    eprintln!("instrumented sweep: {:.1} s", t0.elapsed().as_secs_f64());
}

/// More workgroups than one dimension holds: forced on small graphs through the tuning knob.
#[test]
fn two_dimensional_dispatch_is_correct() {
    let g = Arc::new(generate::fanout(5000, 4, 100, 9).unwrap_or_else(|e| panic!("{e}")));
    let tuning = WgpuTuning { max_workgroups_per_dim: Some(7), ..Default::default() };
    for i in adapters() {
        for algo in FRONTIER_ALGOS {
            for block in [BlockSizes::uniform(32), BlockSizes { relax: 64, minimum: 40, update: 100 }] {
                let opts = SolveOptions { block, instrument: true, ..Default::default() };
                let mut st =
                    gw::stepper_with(i, Arc::clone(&g), algo, 17, &opts, tuning).unwrap_or_else(|e| panic!("{e}"));
                assert!(st.uses_2d_dispatch());
                let (run, d) = run_fast(&mut st);
                assert_eq!(d, oracle(&g, 17), "{algo} {block:?}");
                let want: Vec<_> = cpu_run(&g, algo, 17, &opts).iter().map(comparable).collect();
                assert_eq!(run.records.iter().map(comparable).collect::<Vec<_>>(), want, "{algo} {block:?}");
            }
            // The fast path with odd minimum/update workgroup sizes (the relax block must be whole
            // warps: BlockSizes::validate).
            let opts = SolveOptions { block: BlockSizes { relax: 32, minimum: 7, update: 1000 }, ..Default::default() };
            let mut st = gw::stepper_with(i, Arc::clone(&g), algo, 17, &opts, tuning).unwrap_or_else(|e| panic!("{e}"));
            assert!(st.uses_2d_dispatch());
            let (run, d) = run_fast(&mut st);
            assert_eq!(d, oracle(&g, 17), "{algo} fast, blocks 32/7/1000");
            assert_eq!(run.iterations as usize, cpu_run(&g, algo, 17, &opts).len());
        }
    }
}

/// A graph big enough that 32-thread workgroups exceed 65 535 per dimension (2.1 M vertices,
/// sparse so that lavapipe stays quick): vertices reached all over the index range, fast path
/// and instrumented kernels.
#[test]
fn a_large_graph_needs_and_gets_a_2d_dispatch() {
    if adapters().is_empty() {
        return;
    }
    let n: u32 = 65_535 * 32 + 4_000;
    let mut b = GraphBuilder::new(n as usize, WeightRule::File);
    for v in (1..n).step_by(997) {
        b.push(0, v, Some((1 + v % 13) as i32));
        if v + 500 < n {
            b.push(v, v + 500, Some((2 + v % 5) as i32));
            b.push(v + 500, n - 1 - v % 1000, Some((1 + v % 3) as i32));
        }
    }
    let g = Arc::new(b.build("sparse 2.1 M", None, VertexLabels::Offset(0)).unwrap_or_else(|e| panic!("{e}")));
    let want = dijkstra_distances(&g, 0);
    let i = adapters()[0];
    for algo in [sssp_lab::algo::CRAUSER_SUCC, sssp_lab::algo::MARTIN_PRED] {
        for instrument in [false, true] {
            let opts = SolveOptions { block: BlockSizes::uniform(32), instrument, ..Default::default() };
            let mut st = gw::stepper_with(i, Arc::clone(&g), algo, 0, &opts, WgpuTuning::default())
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(st.uses_2d_dispatch(), "n = {n} with 32-thread workgroups");
            let (run, d) = run_fast(&mut st);
            assert_eq!(d, want, "{algo} instrumented {instrument}");
            let cpu = cpu_run(&g, algo, 0, &opts);
            if instrument {
                let got: Vec<_> = run.records.iter().map(comparable).collect();
                assert_eq!(got, cpu.iter().map(comparable).collect::<Vec<_>>(), "{algo}");
            } else {
                assert_eq!(run.iterations as usize, cpu.len(), "{algo}");
            }
        }
    }
}

/// Arc arrays split over several bindings (threshold lowered to a few KiB) give the same
/// results, on the fast path and in the instrumented kernels.
#[test]
fn arc_arrays_split_over_bindings() {
    let mut gs = vec![Arc::new(generate::fanout(2000, 6, 100, 4).unwrap_or_else(|e| panic!("{e}")))];
    gs.extend(load_data("karate.graph", uniform(10)));
    for i in adapters() {
        for g in &gs {
            for algo in FRONTIER_ALGOS {
                // Powers of two that split the arc arrays into 2 and into 3 or 4 bindings (GL
                // adapters allow 16 storage buffers per stage: 5 chunks at most).
                let whole = (g.m() as u64 * 4).next_power_of_two();
                for chunk in [whole / 2, whole / 4] {
                    let tuning = WgpuTuning { arc_chunk_bytes: Some(chunk), ..Default::default() };
                    for instrument in [false, true] {
                        let opts = SolveOptions { instrument, ..Default::default() };
                        let mut st = gw::stepper_with(i, Arc::clone(g), algo, 1, &opts, tuning)
                            .unwrap_or_else(|e| panic!("{e}"));
                        let label = format!("{} {algo} chunk {chunk} instrumented {instrument}", g.name);
                        assert_eq!(st.arc_chunks() as u64, (g.m() as u64).div_ceil(chunk / 4), "{label}");
                        assert!(st.arc_chunks() > 1);
                        let (run, d) = run_fast(&mut st);
                        assert_eq!(d, oracle(g, 1), "{label}");
                        let want: Vec<_> = cpu_run(g, algo, 1, &opts).iter().map(comparable).collect();
                        if instrument {
                            assert_eq!(run.records.iter().map(comparable).collect::<Vec<_>>(), want, "{label}");
                        } else {
                            assert_eq!(run.iterations as usize, want.len(), "{label}");
                        }
                    }
                }
            }
            // Too many chunks for the bindings: a clear error, no crash.
            let tuning = WgpuTuning { arc_chunk_bytes: Some(64), ..Default::default() };
            match gw::stepper_with(i, Arc::clone(g), sssp_lab::algo::MARTIN_SUCC, 0, &SolveOptions::default(), tuning) {
                Err(SolveError::Device(msg)) => assert!(msg.contains("bindings"), "{msg}"),
                Err(e) => panic!("wrong error: {e}"),
                Ok(_) => panic!("{}: {} arcs in 64-byte chunks accepted", g.name, g.m()),
            }
        }
    }
}

/// Refusals are errors with a reason, never panics.
#[test]
fn unsupported_inputs_are_refused_with_a_reason() {
    for i in adapters() {
        let dev = DeviceId::Wgpu(i);
        let opts = SolveOptions::default();
        // Distances beyond u32.
        let mut b = GraphBuilder::new(4, WeightRule::File);
        b.push(0, 1, Some(i32::MAX));
        b.push(1, 2, Some(i32::MAX));
        b.push(2, 3, Some(5));
        let g = Arc::new(b.build("heavy", None, VertexLabels::Offset(0)).unwrap_or_else(|e| panic!("{e}")));
        match make_stepper(dev, Arc::clone(&g), sssp_lab::algo::MARTIN_SUCC, 0, &opts) {
            Err(SolveError::Device(msg)) => assert!(msg.contains("2³²−1"), "{msg}"),
            other => panic!("heavy graph: {:?}", other.err()),
        }
        // Accepted although (n − 1)·w_max ≥ 2³²: no simple path can be that long (the road
        // network case: one heavy arc, many light ones).
        let mut b = GraphBuilder::new(50_000, WeightRule::File);
        for v in 1..50_000 {
            b.push(0, v, Some(if v == 7 { 1_000_000 } else { 3 }));
            b.push(v, (v * 7) % 50_000, Some(2));
        }
        let g = Arc::new(b.build("one heavy arc", None, VertexLabels::Offset(0)).unwrap_or_else(|e| panic!("{e}")));
        assert!(g.distance_bound() >= u32::MAX as u128);
        let mut st =
            make_stepper(dev, Arc::clone(&g), sssp_lab::algo::CRAUSER_SUCC, 0, &opts).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(run_fast(st.as_mut()).1, dijkstra_distances(&g, 0));
        let g = Arc::new(generate::teaching());
        // Block size beyond the adapter.
        let big = SolveOptions { block: BlockSizes { relax: 1 << 20, ..Default::default() }, ..Default::default() };
        match make_stepper(dev, Arc::clone(&g), sssp_lab::algo::MARTIN_SUCC, 0, &big) {
            Err(SolveError::Device(msg) | SolveError::Options(msg)) => assert!(msg.contains("block size"), "{msg}"),
            other => panic!("huge block: {:?}", other.err()),
        }
        let zero = SolveOptions { block: BlockSizes { update: 0, ..Default::default() }, ..Default::default() };
        assert!(matches!(
            make_stepper(dev, Arc::clone(&g), sssp_lab::algo::MARTIN_SUCC, 0, &zero),
            Err(SolveError::Device(_) | SolveError::Options(_))
        ));
        // Sequential Dijkstra is not a wgpu algorithm; a bad source is a bad source.
        assert!(matches!(
            make_stepper(dev, Arc::clone(&g), sssp_lab::algo::DIJKSTRA, 0, &opts),
            Err(SolveError::Device(_))
        ));
        assert!(matches!(
            make_stepper(dev, Arc::clone(&g), sssp_lab::algo::MARTIN_SUCC, 5, &opts),
            Err(SolveError::BadSource(5, 5))
        ));
    }
    // An adapter index past the list.
    let past = gw::list().len() as u32 + 3;
    assert!(matches!(
        make_stepper(
            DeviceId::Wgpu(past),
            Arc::new(generate::teaching()),
            sssp_lab::algo::MARTIN_SUCC,
            0,
            &SolveOptions::default()
        ),
        Err(SolveError::Device(_))
    ));
}

/// Martín's and Crauser's thresholds of a record.
fn thresholds(algo: Algorithm, r: &IterationRecord) -> (Distance, Distance) {
    (r.distance(algo, "delta_martin"), r.distance(algo, "delta_crauser"))
}

/// Options of the teaching variant: the successors relax without atomics.
fn racy() -> SolveOptions {
    SolveOptions::for_choice(&"racy".parse().expect("the racy alias"))
}

/// The racy relax (no atomics) terminates; whether the races show on this adapter is reported.
#[test]
fn racy_runs_terminate_and_mismatches_are_reported() {
    let g = Arc::new(generate::counterexample(1024).unwrap_or_else(|e| panic!("{e}")));
    let want = oracle(&g, 0);
    for i in adapters() {
        let mut wrong_runs = 0;
        let mut sink = Vec::new();
        for block in [32, 256] {
            for _ in 0..3 {
                let opts = SolveOptions { block: BlockSizes::uniform(block), ..racy() };
                let mut st = wgpu_stepper(i, &g, sssp_lab::algo::MARTIN_SUCC, 0, &opts);
                let (run, d) = run_fast(st.as_mut());
                assert!(run.iterations <= g.n() as u32 + 1);
                let bad = d.iter().zip(&want).filter(|(a, b)| a != b).count();
                wrong_runs += usize::from(bad > 0);
                sink.push(d[g.n() - 1]);
            }
        }
        eprintln!(
            "racy on wgpu:{i} ({}): {wrong_runs}/6 runs wrong; sink distance per run {sink:?} (correct: {})",
            gw::list()[i as usize].name,
            want[g.n() - 1]
        );
        // On every other graph racy is Martín's algorithm with a race; a graph without
        // concurrent pushes to one vertex (a path) must come out right.
        let path = {
            let mut b = GraphBuilder::new(50, WeightRule::File);
            for v in 0..49 {
                b.push(v, v + 1, Some((v % 7 + 1) as i32));
            }
            Arc::new(b.build("path", None, VertexLabels::Offset(0)).unwrap_or_else(|e| panic!("{e}")))
        };
        let mut st = wgpu_stepper(i, &path, sssp_lab::algo::MARTIN_SUCC, 0, &racy());
        assert_eq!(run_fast(st.as_mut()).1, oracle(&path, 0));
    }
}

/// A cancelled fast run leaves a consistent state: stepping goes on from there to the right
/// distances, with the CPU's iteration count.
#[test]
fn a_cancelled_run_can_be_stepped_to_the_end() {
    let g = Arc::new(generate::grid(30, 20, 9, 5).unwrap_or_else(|e| panic!("{e}")));
    for i in adapters() {
        for algo in [sssp_lab::algo::MARTIN_SUCC, sssp_lab::algo::CRAUSER_PRED] {
            let mut st = wgpu_stepper(i, &g, algo, 3, &SolveOptions::default());
            match st.run_to_end(&AtomicBool::new(true), &mut |_| {}) {
                Err(SolveError::Cancelled) => {}
                other => panic!("{algo}: {:?}", other.map(|r| r.iterations)),
            }
            let mut steps = 0;
            while st.step().unwrap_or_else(|e| panic!("{e}")).is_some() {
                steps += 1;
            }
            let total = cpu_run(&g, algo, 3, &SolveOptions::default()).len();
            assert!(steps > 0 && steps < total, "{algo}: {steps} of {total}");
            assert_eq!(st.distances().unwrap_or_else(|e| panic!("{e}")), oracle(&g, 3), "{algo}");
        }
    }
}

/// The tuning variants used by the benchmark's time split: the fast path with per-pass
/// timestamps, and the vertex-parallel kernels for a whole run.
#[test]
fn timed_fast_path_and_vertex_parallel_runs_match_the_oracle() {
    let g = Arc::new(generate::fanout(2000, 5, 100, 8).unwrap_or_else(|e| panic!("{e}")));
    let want = oracle(&g, 9);
    for i in adapters() {
        for algo in FRONTIER_ALGOS {
            let cpu = cpu_run(&g, algo, 9, &SolveOptions::default());
            let per_phase = SolveOptions { launch: Launch::PerPhase, ..Default::default() };
            for (tuning, opts) in [
                (WgpuTuning { fast_timestamps: true, ..Default::default() }, SolveOptions::default()),
                (WgpuTuning::default(), per_phase),
            ] {
                let mut st =
                    gw::stepper_with(i, Arc::clone(&g), algo, 9, &opts, tuning).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(st.uses_fast_path(), opts.launch == Launch::Fast);
                let (run, d) = run_fast(&mut st);
                assert_eq!(d, want, "{algo} {tuning:?}");
                assert_eq!(run.iterations as usize, cpu.len(), "{algo} {tuning:?}");
                let deltas: Vec<_> = run.records.iter().map(|r| thresholds(algo, r)).collect();
                let want_deltas: Vec<_> = cpu.iter().map(|r| thresholds(algo, r)).collect();
                assert_eq!(deltas, want_deltas, "{algo} {tuning:?}");
                if opts.launch == Launch::PerPhase {
                    // Uninstrumented per-phase records carry the CPU stepper's set sizes (as CUDA's).
                    let sizes = |r: &IterationRecord| (r.frontier, r.unsettled, r.settled, r.values.get(3));
                    let got: Vec<_> = run.records.iter().map(sizes).collect();
                    assert_eq!(got, cpu.iter().map(sizes).collect::<Vec<_>>(), "{algo}");
                }
                if st.gpu_timestamps() {
                    assert!(
                        run.times.relax_ms > 0.0 && run.times.update_ms > 0.0,
                        "{algo} {tuning:?}: {:?}",
                        run.times
                    );
                }
            }
        }
    }
}

/// The device string says what distances wgpu holds and how kernels are timed.
#[test]
fn device_string_names_range_and_timing() {
    for i in adapters() {
        let st =
            wgpu_stepper(i, &Arc::new(generate::teaching()), sssp_lab::algo::CRAUSER_SUCC, 0, &SolveOptions::default());
        let name = st.device();
        assert!(name.contains("2³²−1"), "{name}");
        assert!(name.contains("timestamps") || name.contains("wall-clock"), "{name}");
    }
}

/// Edge-parallel Bellman-Ford on every adapter: distances equal petgraph's (real, random and
/// signed graphs, several sources), records equal the CPU stepper's pass by pass, for every
/// filter × order (ro-cache does nothing on wgpu).
#[test]
fn bellman_ford_matches_petgraph_and_the_cpu_records() {
    for i in adapters() {
        common::bellman_ford::check_against_petgraph_and_cpu(DeviceId::Wgpu(i), &["on"]);
    }
}

/// A negative cycle (a tiny built graph, Hamrle1) is a `SolveError::NegativeCycle` on wgpu.
#[test]
fn bellman_ford_reports_negative_cycles() {
    for i in adapters() {
        common::bellman_ford::check_negative_cycles(DeviceId::Wgpu(i));
    }
}

/// Δ-stepping on every adapter: distances equal petgraph's (real and random graphs, several
/// sources, Δ auto / 1 / 7 / 100 000), and phase by phase the records, thread counts and step
/// deltas equal the CPU stepper's; the batched fast path records the same phases.
#[test]
fn delta_stepping_matches_petgraph_and_the_cpu_records() {
    for i in adapters() {
        common::delta_stepping::check_against_petgraph_and_cpu(DeviceId::Wgpu(i));
    }
}

/// Seed 004's variants (hybrids, one-pass minimum, UGPU_PLUS, adjacency matrices) are CUDA
/// kernels: wgpu refuses them by name, in `supports` and when asked to build a solver.
#[test]
fn refuses_cuda_only_options() {
    let g = Arc::new(sssp_lab::generate::teaching());
    for name in ["uh1", "ugpu", "ugpu-plus", "martin-succ:layout=matrix"] {
        let c: sssp_lab::algo::AlgoChoice = name.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
        let opts = SolveOptions::for_choice(&c);
        for dev in sssp_lab::device::devices().iter().filter(|d| matches!(d.id, DeviceId::Wgpu(_)) && d.status.is_ok())
        {
            let why = dev.supports(c.algorithm, &opts).err().unwrap_or_default();
            assert!(why.contains("CUDA only"), "{name} on {}: {why:?}", dev.name);
            let err = make_stepper(dev.id, Arc::clone(&g), c.algorithm, 0, &opts).err().map(|e| e.to_string());
            assert!(err.is_some_and(|e| e.contains("CUDA only")), "{name} on {}", dev.name);
        }
    }
}
