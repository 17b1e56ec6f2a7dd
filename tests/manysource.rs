//! Many-source runs (seed 003): every task's summary equals the one of petgraph's distances,
//! both policies give the same checksum, and a worker that fails mid-run (an injected fault)
//! loses no task and does none twice. The wgpu worker runs on lavapipe in CI; without an
//! adapter it is left out (printing why), unless `SSSP_LAB_REQUIRE_GPU` names wgpu.

mod common;
use common::petgraph_distances;

use sssp_lab::algo::{AlgoChoice, DIJKSTRA, SolveOptions};
use sssp_lab::generate::GeneratorSpec;
use sssp_lab::graph::{Graph, VertexId};
use sssp_lab::manysource::{self, Event, Policy, TaskResult, WorkerSpec, parse_workers};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn graph() -> Arc<Graph> {
    let spec = GeneratorSpec::Fanout { n: 300, d: 4, max_weight: 50, seed: 7 };
    Arc::new(spec.generate().unwrap_or_else(|e| panic!("{e}")))
}

fn wgpu_worker() -> Option<WorkerSpec> {
    let list = sssp_lab::device::wgpu::list();
    let ok = list.iter().find(|d| d.status.is_ok());
    if ok.is_none() {
        let require = std::env::var("SSSP_LAB_REQUIRE_GPU").unwrap_or_default();
        assert!(!require.contains("wgpu"), "SSSP_LAB_REQUIRE_GPU={require} but no usable wgpu adapter");
        eprintln!("no usable wgpu adapter: the wgpu worker is left out");
    }
    ok.map(|d| WorkerSpec {
        device: d.id,
        algorithm: sssp_lab::algo::CRAUSER_SUCC.into(),
        fail_after: None,
        fresh_solvers: false,
        batch: None,
        batch_delta: None,
    })
}

fn run(g: &Arc<Graph>, sources: &[VertexId], workers: &[WorkerSpec], policy: Policy) -> manysource::ManySourceRun {
    let cancel = AtomicBool::new(false);
    let mut events = Vec::new();
    let out = manysource::run(g, sources, workers, policy, &SolveOptions::default(), &cancel, &mut |e: &Event| {
        events.push(e.clone())
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(events.iter().filter(|e| matches!(e, Event::Task(_))).count(), out.tasks.len());
    out
}

/// Every source exactly once, each summary equal to the oracle's.
fn check(g: &Graph, sources: &[VertexId], out: &manysource::ManySourceRun) {
    let mut done: Vec<VertexId> = out.tasks.iter().map(|t| t.source).collect();
    done.sort_unstable();
    let mut want = sources.to_vec();
    want.sort_unstable();
    assert_eq!(done, want, "{}: every source once", out.label);
    for t in &out.tasks {
        let oracle = TaskResult::summarize(t.source, &petgraph_distances(g, t.source));
        assert_eq!(
            (t.reached, t.eccentricity, t.sum, t.checksum),
            (oracle.reached, oracle.eccentricity, oracle.sum, oracle.checksum),
            "{}: source {} on {}",
            out.label,
            t.source,
            out.workers[t.worker].label
        );
        assert!(t.end_ms >= t.start_ms && t.end_ms <= out.makespan_ms);
    }
}

#[test]
fn both_policies_equal_the_oracle_on_cpu_and_wgpu_workers() {
    let g = graph();
    let sources: Vec<VertexId> = (0..60).collect();
    let mut workers = parse_workers("cpu:2,cpu-par:2", &AlgoChoice::from(DIJKSTRA)).unwrap_or_else(|e| panic!("{e}"));
    workers.extend(wgpu_worker());
    let mut sums = Vec::new();
    for policy in [Policy::Equitable, Policy::Stealing { chunk: 1 }, Policy::Stealing { chunk: 7 }] {
        let out = run(&g, &sources, &workers, policy);
        check(&g, &sources, &out);
        assert!(out.workers.iter().all(|w| w.failed.is_none()));
        assert_eq!(out.workers.iter().map(|w| w.tasks).sum::<usize>(), sources.len());
        if policy == Policy::Equitable {
            // Static slices: each worker ran exactly its share.
            let share = sources.len() / workers.len();
            assert!(out.workers.iter().all(|w| w.tasks == share || w.tasks == share + 1), "{:?}", out.workers);
        }
        sums.push(out.checksum);
    }
    assert!(sums.windows(2).all(|w| w[0] == w[1]), "checksums differ between policies: {sums:?}");
}

#[test]
fn a_failing_worker_gives_its_tasks_back_and_the_run_finishes_on_the_others() {
    let g = graph();
    let sources: Vec<VertexId> = (0..40).collect();
    let reference = run(&g, &sources, &parse_workers("cpu:1", &DIJKSTRA.into()).unwrap_or_default(), Policy::Equitable);
    for policy in [Policy::Equitable, Policy::Stealing { chunk: 3 }] {
        let mut workers = parse_workers("cpu:3", &DIJKSTRA.into()).unwrap_or_default();
        workers[0].fail_after = Some(2);
        workers[2].fail_after = Some(0);
        let out = run(&g, &sources, &workers, policy);
        check(&g, &sources, &out);
        assert_eq!(out.checksum, reference.checksum, "{policy}: no task lost or done twice");
        if policy == Policy::Equitable {
            // Static slices: every worker reaches its fault, so who did what is fixed.
            assert!(out.workers[0].failed.as_deref().is_some_and(|e| e.contains("injected")));
            assert!(out.workers[2].failed.is_some());
            assert_eq!(out.workers[0].tasks, 2);
            assert_eq!(out.workers[1].tasks, sources.len() - 2, "{policy}: the survivor did the rest");
        } else {
            // Stealing: the others may drain the queue before a worker reaches its fault (or
            // starts at all); a worker either failed or finished no more tasks than its fault.
            for w in [0, 2] {
                let (fault, got) = (workers[w].fail_after.unwrap_or(0), &out.workers[w]);
                assert!(got.failed.is_some() || got.tasks <= fault, "{policy}: worker {w}: {got:?}");
                assert!(got.tasks <= fault, "{policy}: worker {w} ran past its fault: {got:?}");
            }
            assert!(out.workers[1].failed.is_none());
        }
    }
    // Nobody left: an error naming the failures, not a hang.
    let mut all_fail = parse_workers("cpu:2", &DIJKSTRA.into()).unwrap_or_default();
    all_fail.iter_mut().for_each(|w| w.fail_after = Some(1));
    let cancel = AtomicBool::new(false);
    let err = manysource::run(
        &g,
        &sources,
        &all_fail,
        Policy::Stealing { chunk: 1 },
        &SolveOptions::default(),
        &cancel,
        &mut |_| {},
    )
    .err()
    .map(|e| e.to_string())
    .unwrap_or_default();
    assert!(err.contains("every worker failed") && err.contains("tasks left"), "{err}");
}

#[test]
fn rows_stream_before_their_tasks_and_round_trip_through_a_rows_file() {
    use sssp_lab::manysource::rows::{RowReader, RowWriter};
    let g = graph();
    let sources: Vec<VertexId> = (10..30).collect();
    let workers = parse_workers("cpu:2", &DIJKSTRA.into()).unwrap_or_else(|e| panic!("{e}"));
    let path = std::env::temp_dir().join(format!("sssp-manysource-rows-{}.bin.gz", std::process::id()));
    let mut w = RowWriter::create(&path, g.n()).unwrap_or_else(|e| panic!("{e}"));
    let mut rows_seen = std::collections::HashSet::new();
    let cancel = AtomicBool::new(false);
    let out = manysource::run_with_rows(
        &g,
        &sources,
        &workers,
        Policy::Stealing { chunk: 2 },
        &SolveOptions::default(),
        true,
        &cancel,
        &mut |e: &Event| match e {
            Event::Row { source, dist } => {
                w.write(u64::from(*source), dist).unwrap_or_else(|e| panic!("{e}"));
                rows_seen.insert(*source);
            }
            Event::Task(t) => assert!(rows_seen.contains(&t.source), "a task's row comes before it"),
            Event::WorkerFailed { .. } => panic!("no worker fails here"),
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(w.finish().unwrap_or_else(|e| panic!("{e}")), sources.len() as u64);
    let reader = RowReader::open(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(reader.n(), g.n());
    let mut seen = Vec::new();
    for row in reader {
        let (s, dist) = row.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(dist, petgraph_distances(&g, s as VertexId), "row of source {s}");
        seen.push(s as VertexId);
    }
    seen.sort_unstable();
    assert_eq!(seen, sources);
    assert_eq!(out.tasks.len(), sources.len());
    let _ = std::fs::remove_file(&path);
}

/// True when a CUDA device can run solvers; otherwise prints why and returns false, or panics
/// when `SSSP_LAB_REQUIRE_GPU` asks for CUDA.
fn cuda_ready(test: &str) -> bool {
    let list = sssp_lab::device::cuda::list();
    let why = match list.iter().find(|d| d.status.is_ok()) {
        Some(_) => return true,
        None => list.first().and_then(|d| d.status.clone().err()).unwrap_or_else(|| "no CUDA entry".into()),
    };
    let required = std::env::var("SSSP_LAB_REQUIRE_GPU").map(|v| v.contains("cuda")).unwrap_or(false);
    assert!(!required, "{test}: SSSP_LAB_REQUIRE_GPU asks for CUDA, but {why}");
    eprintln!("{test}: skipped ({why})");
    false
}

fn batched(spec: &str) -> Vec<WorkerSpec> {
    parse_workers(spec, &DIJKSTRA.into()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn batch_specs_parse_and_are_refused_off_cuda() {
    let w = batched("cuda:0:batch=8,cuda:1:batch,cuda:0,cpu:2,cuda:0:batch=4@300,cuda:0:batch@bf");
    let b: Vec<(Option<usize>, Option<u32>)> = w.iter().map(|w| (w.batch, w.batch_delta)).collect();
    let none = (None, None);
    assert_eq!(
        b,
        [(Some(8), None), (Some(0), None), none, none, none, (Some(4), Some(300)), (Some(0), Some(u32::MAX))]
    );
    assert_eq!(w[0].label(0), "cuda:0:batch");
    assert_eq!(w[1].device, sssp_lab::device::DeviceId::Cuda(1));
    for bad in [
        "cpu:2:batch=4",
        "cpu:batch",
        "wgpu:0:batch",
        "cuda:0:batch=0",
        "cuda:0:batch=x",
        "cuda:0:batchy",
        "cuda:0:batch@0",
        "cuda:0:batch=4@x",
        "cuda:0@5",
    ] {
        let e = parse_workers(bad, &DIJKSTRA.into()).err();
        assert!(e.as_deref().is_some_and(|e| e.contains(bad.split(',').next().unwrap_or(bad))), "{bad}: {e:?}");
    }
}

/// Sources 0, step, 2·step, …: on R-MAT some have no out-arc or reach only a small part.
fn spread(g: &Graph, count: usize) -> Vec<VertexId> {
    (0..count).map(|i| (i * g.n() / count) as VertexId).collect()
}

#[test]
fn batched_cuda_worker_equals_petgraph_on_ny_and_rmat_for_several_k() {
    if !cuda_ready("batched_cuda_worker_equals_petgraph_on_ny_and_rmat_for_several_k") {
        return;
    }
    let rmat = GeneratorSpec::Rmat { scale: 12, edge_factor: 8, a: 0.57, b: 0.19, c: 0.19, max_weight: 100, seed: 3 };
    let rmat = Arc::new(rmat.generate().unwrap_or_else(|e| panic!("{e}")));
    let sources = spread(&rmat, 50);
    assert!(sources.iter().any(|&s| rmat.successors().degree(s) == 0), "a source reaching only itself");
    // Near-far with the chosen Δ, a Δ of 1 (a split of the far pile per distance), a middling
    // one, and none at all (`@bf`).
    let specs = ["cuda:0:batch=1", "cuda:0:batch=3", "cuda:0:batch=7@1", "cuda:0:batch=64@bf", "cuda:0:batch@40"];
    for spec in specs.into_iter().chain(["cuda:0:batch"]) {
        let out = run(&rmat, &sources, &batched(spec), Policy::Equitable);
        check(&rmat, &sources, &out);
        assert_eq!(out.workers[0].algorithm, "batch-bf");
    }
    let ny = common::root().join("assets/USA-road-d.NY.gr.gz");
    let ny = Arc::new(
        sssp_lab::formats::load(&ny, &sssp_lab::formats::LoadOptions::default()).unwrap_or_else(|e| panic!("{e}")),
    );
    let sources = spread(&ny, 37);
    for spec in ["cuda:0:batch=1", "cuda:0:batch=10@300", "cuda:0:batch=10@bf", "cuda:0:batch@100000", "cuda:0:batch"] {
        let out = run(&ny, &sources, &batched(spec), Policy::Stealing { chunk: 4 });
        check(&ny, &sources, &out);
    }
}

#[test]
fn a_failing_batched_worker_gives_its_batch_back_and_rows_stream() {
    if !cuda_ready("a_failing_batched_worker_gives_its_batch_back_and_rows_stream") {
        return;
    }
    let g = graph();
    let sources: Vec<VertexId> = (0..60).collect();
    let mut workers = batched("cuda:0:batch=8,cpu:2");
    workers[0].fail_after = Some(8);
    // Equitable: the batched worker's own slice holds 20 tasks, so its first batch is 8 of them.
    let out = run(&g, &sources, &workers, Policy::Equitable);
    check(&g, &sources, &out);
    assert!(out.workers[0].failed.as_deref().is_some_and(|e| e.contains("injected")), "{:?}", out.workers[0]);
    assert_eq!(out.workers[0].tasks, 8, "one batch of 8 before the fault");
    let cancel = AtomicBool::new(false);
    let mut rows = 0;
    let out = manysource::run_with_rows(
        &g,
        &sources,
        &batched("cuda:0:batch=16"),
        Policy::Equitable,
        &SolveOptions::default(),
        true,
        &cancel,
        &mut |e: &Event| {
            if let Event::Row { source, dist } = e {
                assert_eq!(dist, &petgraph_distances(&g, *source), "row of source {source}");
                rows += 1;
            }
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((rows, out.tasks.len()), (sources.len(), sources.len()));
}
