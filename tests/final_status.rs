//! The state a finished run leaves on screen: every vertex the oracle (petgraph's Dijkstra)
//! reaches is drawn settled with its shortest distance, none is left in the frontier F or in U
//! (reached but unsettled), and the last record's settled count leaves only the unreachable
//! vertices out. Issue 28 saw Δ-stepping end with 10 of karate's 34 vertices drawn as frontier;
//! this checks every algorithm (bucketed, frontier, Bellman-Ford, Dijkstra, seed 001's schemes)
//! on the CPU, the multi-core CPU and the first usable wgpu adapter (lavapipe in CI).

mod common;
use common::{petgraph_distances, root};

use sssp_lab::algo::{Algorithm, SolveOptions, VertexStatus};
use sssp_lab::device::{self, DeviceId};
use sssp_lab::formats::{LoadOptions, load};
use sssp_lab::graph::{Graph, INF, VertexId, WeightRule};
use sssp_lab::trace::Trace;
use std::sync::Arc;

fn graph(name: &str, weights: WeightRule) -> Arc<Graph> {
    let path = root().join("tests/data").join(name);
    Arc::new(load(&path, &LoadOptions { weights, ..Default::default() }).unwrap_or_else(|e| panic!("{name}: {e}")))
}

/// The graphs and sources (file ids): karate from 34 as in the issue, with the file's unit
/// weights and with random ones, and two more with several components or long paths.
fn cases() -> Vec<(Arc<Graph>, u64)> {
    let karate = graph("karate.graph", WeightRule::default());
    let karate_w = graph("karate.graph", WeightRule::Uniform { max: 9, seed: 3 });
    let lesmis = graph("lesmis.graph", WeightRule::Uniform { max: 100, seed: 5 });
    let jazz = graph("jazz.graph", WeightRule::Uniform { max: 20, seed: 1 });
    vec![(karate.clone(), 34), (karate, 1), (karate_w.clone(), 34), (karate_w, 12), (lesmis, 1), (jazz, 100)]
}

/// The devices to try: the CPU, two CPU threads and the first wgpu adapter that works.
fn devices() -> Vec<DeviceId> {
    let mut out = vec![DeviceId::Cpu, DeviceId::CpuParallel(2)];
    let wgpu = device::devices().iter().find(|d| matches!(d.id, DeviceId::Wgpu(_)) && d.status.is_ok());
    match wgpu {
        Some(d) => out.push(d.id),
        None => eprintln!("no usable wgpu adapter: the wgpu cases are skipped"),
    }
    out
}

/// Steps `algo` to its end as the app does (deltas recorded into a trace) and returns the trace.
fn run(dev: DeviceId, g: &Arc<Graph>, algo: Algorithm, params: &sssp_lab::algo::Params, s: VertexId) -> Option<Trace> {
    let opts = SolveOptions { params: params.clone(), record_deltas: true, ..Default::default() };
    let info = device::find(dev)?;
    if info.supports(algo, &opts).and_then(|()| info.fits(g, algo, &opts)).is_err() {
        return None;
    }
    let mut st = device::make_stepper(dev, Arc::clone(g), algo, s, &opts)
        .unwrap_or_else(|e| panic!("{algo} on {dev}: cannot start: {e}"));
    let mut trace = Trace::new(g.n(), s);
    for _ in 0..10 * g.n() + 100 {
        match st.step().unwrap_or_else(|e| panic!("{algo} on {dev}: {e}")) {
            Some(step) => trace.push(step),
            None => break,
        }
        if st.is_done() {
            break;
        }
    }
    assert!(st.is_done(), "{algo} on {dev} did not finish");
    trace.set_finished();
    Some(trace)
}

#[test]
fn every_finished_run_leaves_reachable_vertices_settled_and_f_and_u_empty() {
    let mut checked = 0;
    for (g, id) in cases() {
        let s = g.labels().index(id, g.n()).expect("source id in the file");
        let oracle = petgraph_distances(&g, s);
        let unreachable = oracle.iter().filter(|&&d| d == INF).count() as u64;
        for dev in devices() {
            for &algo in Algorithm::all() {
                let params = sssp_lab::algo::Params::default();
                if !algo.exact(&params) || sssp_lab::algo::check_weights(&g, algo).is_err() {
                    continue;
                }
                let Some(trace) = run(dev, &g, algo, &params, s) else { continue };
                let what = format!("{algo} on {dev}, {} from id {id}", g.name);
                assert_eq!(trace.distances(), &oracle[..], "{what}: distances");
                let wrong: Vec<(u64, VertexStatus)> = (0..g.n() as VertexId)
                    .map(|v| (v, trace.status(v)))
                    .filter(|&(v, st)| {
                        let want =
                            if oracle[v as usize] == INF { VertexStatus::Unreached } else { VertexStatus::Settled };
                        st != want
                    })
                    .map(|(v, st)| (g.labels().label(v), st))
                    .collect();
                assert!(wrong.is_empty(), "{what}: vertices (file ids) not in their final status: {wrong:?}");
                assert!(trace.frontier().is_empty(), "{what}: F = {:?} after the end", trace.frontier());
                let last = trace.records().last().expect("at least one iteration");
                assert_eq!(g.n() as u64 - last.settled, unreachable, "{what}: U after the last iteration");
                checked += 1;
            }
        }
    }
    eprintln!("{checked} runs checked");
    assert!(checked >= 6 * 8, "only {checked} runs checked");
}

/// Stepping back from the end shows the last step's vertices as the frontier again (the end
/// state is a property of the cursor, not a change to the recording), and a view's recolouring
/// at the end covers them.
#[test]
fn stepping_back_from_the_end_shows_the_last_frontier_again() {
    let g = graph("karate.graph", WeightRule::default());
    let s = g.labels().index(34, g.n()).expect("id 34");
    let params = sssp_lab::algo::Params::default().with("delta", "3");
    let algo = Algorithm::by_id("delta-stepping").expect("registered");
    let mut trace = run(DeviceId::CpuParallel(0), &g, algo, &params, s).expect("runs on the CPU");
    let last = trace.deltas().last().map(|d| d.settled.clone()).unwrap_or_default();
    assert!(trace.frontier().is_empty());
    let end = trace.pos();
    trace.seek(end - 1);
    trace.seek(end);
    assert!(trace.frontier().is_empty());
    // A view that drew the end before the run was marked finished recolours those vertices.
    let changed = trace.changed_between(end, end, usize::MAX).expect("within the recording");
    assert!(last.iter().all(|v| changed.contains(v)), "{last:?} not in {changed:?}");
    trace.back();
    assert!(last.iter().all(|&v| trace.status(v) != VertexStatus::Settled), "{last:?} settled before their step");
}
