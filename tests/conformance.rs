//! Conformance, generated from the algorithm registry: every algorithm × each parameter value
//! worth testing (`Algorithm::test_params`) × every listed device that supports it × graphs that
//! catch real bugs × several sources, equal to petgraph's Dijkstra (an oracle this project did
//! not write) and to the project's own Dijkstra. A new algorithm, parameter or device is covered
//! without writing a test.
//!
//! Graphs: real ones from `tests/data` and the bundled NY road network (one source on one CPU
//! thread: its 227 575 Martín iterations prove nothing on other devices that rome99 does not), random
//! graphs of three densities, zero-weight arcs, self-loops, parallel arcs, unreachable vertices,
//! a single vertex, a grid and the seed 004 Fig. 5 counterexample. Runs to the end (the fast
//! paths) on every graph, and step by step on the small ones (the stepping paths and their
//! records). Inexact choices (the non-atomic relax) must terminate with distances that are path
//! lengths: never below the oracle, finite exactly where it is.
//!
//! Devices: whatever `sssp_lab::device::devices()` lists as usable here, plus `cpu-par:3`
//! (`SSSP_LAB_CONFORMANCE_DEVICES=cuda,…` keeps only those). A backend named in
//! `SSSP_LAB_REQUIRE_GPU` (`wgpu`, `cuda`) that has no usable device fails the test; otherwise a
//! missing GPU is skipped with the reason printed.

mod common;
use common::{petgraph_distances, root};

use rand::{Rng, SeedableRng};
use sssp_lab::algo::{AlgoChoice, Algorithm, SolveOptions, dijkstra_distances};
use sssp_lab::device::{DeviceId, DeviceInfo, devices, make_stepper};
use sssp_lab::formats::{LoadOptions, load};
use sssp_lab::generate::GeneratorSpec;
use sssp_lab::graph::{Distance, Graph, GraphBuilder, INF, VertexId, VertexLabels, WeightRule};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn built(name: &str, n: usize, arcs: &[(u32, u32, i32)]) -> Graph {
    let mut b = GraphBuilder::new(n, WeightRule::File);
    for &(u, v, w) in arcs {
        b.push(u, v, Some(w));
    }
    b.build(name, None, VertexLabels::Offset(0)).expect("n ≥ 1")
}

/// A seeded random graph with `n` vertices and about `n · degree` arcs, weights in 0..=max
/// (zeros included), self-loops and parallel arcs allowed.
fn random(n: usize, degree: usize, max: i32, seed: u64) -> Graph {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let arcs: Vec<(u32, u32, i32)> = (0..n * degree)
        .map(|_| (rng.random_range(0..n as u32), rng.random_range(0..n as u32), rng.random_range(0..=max)))
        .collect();
    built(&format!("random n={n} d={degree} w≤{max}"), n, &arcs)
}

fn data(name: &str, weights: WeightRule) -> Graph {
    let path = root().join("tests/data").join(name);
    load(&path, &LoadOptions { weights, ..Default::default() }).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The graphs, and whether GPU devices run them too.
fn graphs() -> Vec<(Arc<Graph>, bool)> {
    let uniform = |max| WeightRule::Uniform { max, seed: 7 };
    let corner = built(
        "zero weights, self-loops, parallel arcs, unreachable",
        9,
        &[
            (0, 1, 0),
            (1, 2, 0),
            (0, 2, 5),
            (2, 2, 3),
            (2, 3, 4),
            (2, 3, 1),
            (2, 3, 1),
            (3, 1, 0),
            (3, 4, 0),
            (4, 0, 2),
            (6, 7, 1), // 5…8 are unreachable from 0…4
            (7, 8, 0),
            (8, 6, 4),
        ],
    );
    let mut list: Vec<(Graph, bool)> = vec![
        (data("rome99.gr.gz", WeightRule::File), true),
        (data("karate.graph", uniform(10)), true),
        (data("chesapeake.mtx", WeightRule::File), true),
        (data("wiki-Vote.txt.gz", uniform(100)), true),
        (random(600, 1, 100, 1), true),
        (random(600, 4, 10, 2), true),
        (random(300, 32, 1000, 3), true),
        (random(200, 3, 0, 4), true),
        (corner, true),
        (built("single vertex", 1, &[]), true),
        (GeneratorSpec::Counterexample { n: 1024 }.generate().expect("counterexample"), true),
        (GeneratorSpec::Grid { width: 40, height: 30, max_weight: 10, seed: 1 }.generate().expect("grid"), true),
        // Seed 004 §5's dense graphs, for layout=matrix (n/5 = 80 predecessors per vertex).
        (GeneratorSpec::Dense { n: 400, seed: 2 }.generate().expect("dense"), true),
    ];
    let ny = root().join("assets/USA-road-d.NY.gr.gz");
    if ny.exists() {
        list.push((load(&ny, &LoadOptions::default()).expect("bundled NY"), false));
    }
    list.into_iter().map(|(g, gpu)| (Arc::new(g), gpu)).collect()
}

fn sources(n: usize) -> Vec<VertexId> {
    let mut s = vec![0, (n - 1) as VertexId, (n / 2) as VertexId, ((n as u64 * 7919) % n as u64) as VertexId];
    s.sort_unstable();
    s.dedup();
    s
}

/// Usable devices, after enforcing `SSSP_LAB_REQUIRE_GPU`.
fn usable_devices() -> Vec<DeviceInfo> {
    let require = std::env::var("SSSP_LAB_REQUIRE_GPU").unwrap_or_default();
    for backend in ["wgpu", "cuda"] {
        let is = |d: DeviceId| match d {
            DeviceId::Wgpu(_) => backend == "wgpu",
            DeviceId::Cuda(_) => backend == "cuda",
            _ => false,
        };
        let of_kind: Vec<&DeviceInfo> = devices().iter().filter(|d| is(d.id)).collect();
        if !of_kind.iter().any(|d| d.status.is_ok()) {
            let why: Vec<String> = of_kind.iter().filter_map(|d| d.status.clone().err()).collect();
            assert!(
                !require.contains(backend),
                "SSSP_LAB_REQUIRE_GPU={require} but no usable {backend} device: {why:?}"
            );
            eprintln!("conformance: no usable {backend} device, skipped ({why:?})");
        }
    }
    let mut list: Vec<DeviceInfo> = devices().iter().filter(|d| d.status.is_ok()).cloned().collect();
    list.push(DeviceInfo::new(DeviceId::CpuParallel(3), "CPU (3 threads)".into(), Ok(())));
    // SSSP_LAB_CONFORMANCE_DEVICES=cuda,wgpu keeps the devices whose id starts with one of these
    // (e.g. to run only the kernels under compute-sanitizer).
    if let Ok(only) = std::env::var("SSSP_LAB_CONFORMANCE_DEVICES") {
        let keep: Vec<&str> = only.split(',').map(str::trim).filter(|k| !k.is_empty()).collect();
        list.retain(|d| keep.iter().any(|k| d.id.to_string().starts_with(k)));
    }
    list
}

/// Runs `choice` from `s` to the end (and, when `step`, a second time step by step) and checks
/// the distances against `want`. Returns a failure text, or `None`.
fn conforms(
    dev: &DeviceInfo,
    g: &Arc<Graph>,
    choice: &AlgoChoice,
    s: VertexId,
    want: &[Distance],
    step: bool,
) -> Option<String> {
    let opts = SolveOptions::for_choice(choice);
    let what = format!("{choice} on {} ({}), {} from {s}", dev.name, dev.id, g.name);
    let mut runs = vec![false];
    if step {
        runs.push(true);
    }
    for stepped in runs {
        let mut st = match make_stepper(dev.id, Arc::clone(g), choice.algorithm, s, &opts) {
            Ok(st) => st,
            Err(e) => return Some(format!("{what}: cannot start: {e}")),
        };
        let result = if stepped {
            let mut k = 0u32;
            loop {
                match st.step() {
                    Ok(Some(step)) => {
                        k += 1;
                        if step.record.iteration != k {
                            return Some(format!("{what}: record {k} says iteration {}", step.record.iteration));
                        }
                    }
                    Ok(None) => break Ok(()),
                    Err(e) => break Err(e),
                }
            }
        } else {
            st.run_to_end(&AtomicBool::new(false), &mut |_| {}).map(|_| ())
        };
        if let Err(e) = result {
            return Some(format!("{what} (stepped: {stepped}): {e}"));
        }
        let got = match st.distances() {
            Ok(d) => d,
            Err(e) => return Some(format!("{what}: distances: {e}")),
        };
        let mode = if stepped { "stepped" } else { "to the end" };
        if choice.exact() {
            if let Some(v) = (0..want.len()).find(|&v| got[v] != want[v]) {
                return Some(format!("{what} ({mode}): δ({v}) = {} but the oracle says {}", got[v], want[v]));
            }
        } else if let Some(v) = (0..want.len()).find(|&v| got[v] < want[v] || (got[v] == INF) != (want[v] == INF)) {
            return Some(format!("{what} ({mode}): δ({v}) = {} is not a path length (oracle {})", got[v], want[v]));
        }
    }
    None
}

#[test]
fn every_algorithm_on_every_device_equals_the_oracles() {
    let devs = usable_devices();
    let choices: Vec<AlgoChoice> = Algorithm::all()
        .iter()
        .flat_map(|&a| a.test_params().into_iter().map(move |params| AlgoChoice { algorithm: a, params }))
        .collect();
    let mut failures = Vec::new();
    let mut runs = 0usize;
    for (g, on_gpu) in graphs() {
        let small = g.n() <= 5000;
        for s in sources(g.n()) {
            let want = petgraph_distances(&g, s);
            assert_eq!(dijkstra_distances(&g, s), want, "{} from {s}: the project's Dijkstra vs petgraph", g.name);
            for dev in &devs {
                let gpu = matches!(dev.id, DeviceId::Cuda(_) | DeviceId::Wgpu(_));
                if gpu && !on_gpu {
                    continue;
                }
                for choice in &choices {
                    let opts = SolveOptions::for_choice(choice);
                    if dev.supports(choice.algorithm, &opts).is_err() || dev.fits(&g, choice.algorithm, &opts).is_err()
                    {
                        continue;
                    }
                    // The bundled road network once per algorithm with its default parameters, on
                    // one CPU thread (its size adds nothing the smaller graphs do not test on the
                    // other devices, and most parameters only change the GPU kernels).
                    if g.n() > 100_000 && (s != 0 || dev.id != DeviceId::Cpu || !choice.params.is_empty()) {
                        continue;
                    }
                    runs += 1;
                    failures.extend(conforms(dev, &g, choice, s, &want, small));
                }
            }
        }
    }
    eprintln!("conformance: {runs} runs on {} devices, {} algorithm choices", devs.len(), choices.len());
    assert!(failures.is_empty(), "{} of {runs} runs failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn every_device_says_why_it_does_not_run_an_algorithm() {
    for dev in usable_devices() {
        for &a in Algorithm::all() {
            match dev.supports(a, &SolveOptions::default()) {
                Ok(()) => {
                    assert!(dev.id == DeviceId::CpuParallel(3) || dev.algorithms.contains(&a), "{a} on {}", dev.name)
                }
                Err(why) => {
                    assert!(!why.is_empty());
                    let g = Arc::new(GeneratorSpec::Teaching.generate().expect("teaching"));
                    let err = make_stepper(dev.id, g, a, 0, &SolveOptions::default()).err();
                    assert!(err.is_some(), "{a} on {} is refused by supports() but built by make_stepper", dev.name);
                }
            }
        }
    }
}
