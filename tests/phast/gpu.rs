//! PHAST ([phast] Delling, Goldberg, Nowatzyk, Werneck, IPDPS 2011, §4 the GPU sweep) on every
//! usable CUDA device and wgpu adapter against petgraph's Dijkstra (an oracle we did not write):
//! rome99, a 40 × 30 grid, a random graph with zero weights, self-loops, parallel arcs and
//! unreachable vertices, a single vertex; several sources; run to the end (the fast path: one
//! queue of launches) and stepped (records and deltas equal the CPU stepper's); `restart` to
//! other sources on one stepper; a launch plan with both single-block runs of levels and grid
//! launches (block 32 on rome99); upward searches larger and smaller than the CUDA scatter's
//! parameters alternating on one stepper; a cancelled run that goes on afterwards.
//!
//! Without a usable device of a backend the tests print why and skip it, unless env
//! `SSSP_LAB_REQUIRE_GPU` names that backend (`cuda`, `wgpu`): then they fail.

use super::common::{petgraph_distances, record_counts as counts, root};

use rand::{Rng, SeedableRng};
use sssp_lab::algo::phast::hierarchy;
use sssp_lab::algo::{BlockSizes, PHAST, Params, SolveError, SolveOptions, Stepper};
use sssp_lab::device::driver::sweep::{SOLO_PER_THREAD, Stage, plan};
use sssp_lab::device::{DeviceId, devices, make_stepper};
use sssp_lab::formats::{LoadOptions, load};
use sssp_lab::generate::GeneratorSpec;
use sssp_lab::graph::{Distance, Graph, GraphBuilder, VertexId, VertexLabels, WeightRule};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Every usable CUDA device and wgpu adapter; a backend with none is skipped with the reason, or
/// fails the test when `SSSP_LAB_REQUIRE_GPU` names it.
fn gpus(test: &str) -> Vec<DeviceId> {
    let require = std::env::var("SSSP_LAB_REQUIRE_GPU").unwrap_or_default();
    let mut out = Vec::new();
    for backend in ["cuda", "wgpu"] {
        let of_kind: Vec<_> = devices()
            .iter()
            .filter(|d| match d.id {
                DeviceId::Cuda(_) => backend == "cuda",
                DeviceId::Wgpu(_) => backend == "wgpu",
                _ => false,
            })
            .collect();
        let usable: Vec<DeviceId> = of_kind.iter().filter(|d| d.status.is_ok()).map(|d| d.id).collect();
        if usable.is_empty() {
            let why: Vec<String> = of_kind.iter().filter_map(|d| d.status.clone().err()).collect();
            assert!(
                !require.contains(backend),
                "{test}: SSSP_LAB_REQUIRE_GPU={require} but no usable {backend} device: {why:?}"
            );
            eprintln!("{test}: {backend} skipped ({why:?})");
        }
        out.extend(usable);
    }
    out
}

fn built(name: &str, n: usize, arcs: &[(u32, u32, i32)]) -> Graph {
    let mut b = GraphBuilder::new(n, WeightRule::File);
    for &(u, v, w) in arcs {
        b.push(u, v, Some(w));
    }
    b.build(name, None, VertexLabels::Offset(0)).expect("n ≥ 1")
}

fn rome99() -> Arc<Graph> {
    let path = root().join("tests/data/rome99.gr.gz");
    Arc::new(load(&path, &LoadOptions { weights: WeightRule::File, ..Default::default() }).expect("rome99"))
}

/// 300 vertices with about 900 arcs of weights 0..=6 (a third of them 0), self-loops and
/// parallel arcs as they fall, and vertices 300..340 reachable from nothing but each other.
fn corner_random() -> Graph {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(11);
    let mut arcs: Vec<(u32, u32, i32)> = (0..900)
        .map(|_| {
            let w = if rng.random_range(0..3) == 0 { 0 } else { rng.random_range(1..=6) };
            (rng.random_range(0..300), rng.random_range(0..300), w)
        })
        .collect();
    arcs.extend([(5, 5, 0), (5, 5, 3), (7, 8, 2), (7, 8, 2), (7, 8, 1)]);
    arcs.extend((300..339).map(|v| (v, v + 1, 1)));
    arcs.push((339, 300, 0));
    built("random: zero weights, self-loops, parallel arcs, unreachable", 340, &arcs)
}

fn graphs() -> Vec<Arc<Graph>> {
    let grid = GeneratorSpec::Grid { width: 40, height: 30, max_weight: 10, seed: 1 }.generate().expect("grid");
    vec![rome99(), Arc::new(grid), Arc::new(corner_random()), Arc::new(built("single vertex", 1, &[]))]
}

fn sources(n: usize) -> Vec<VertexId> {
    let mut s = vec![0, (n - 1) as VertexId, (n / 2) as VertexId, ((n as u64 * 7919) % n as u64) as VertexId];
    s.sort_unstable();
    s.dedup();
    s
}

fn stepper(dev: DeviceId, g: &Arc<Graph>, s: VertexId, opts: &SolveOptions) -> Box<dyn Stepper> {
    make_stepper(dev, Arc::clone(g), PHAST, s, opts)
        .unwrap_or_else(|e| panic!("phast on {dev}, {} from {s}: {e}", g.name))
}

fn same(what: &str, got: &[Distance], want: &[Distance]) {
    let bad: Vec<_> = (0..want.len()).filter(|&v| got.get(v) != want.get(v)).collect();
    assert!(
        bad.is_empty() && got.len() == want.len(),
        "{what}: {} vertices differ, e.g. {:?}",
        bad.len(),
        bad.iter().take(5).map(|&v| (v, got.get(v), want[v])).collect::<Vec<_>>()
    );
}

/// Runs to the end and checks the distances and the run's counts.
fn check_fast(st: &mut dyn Stepper, g: &Arc<Graph>, want: &[Distance], what: &str) {
    let run = st.run_to_end(&AtomicBool::new(false), &mut |_| {}).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(st.is_done(), "{what}: done after run_to_end");
    let levels = hierarchy(g).expect("hierarchy").levels();
    assert_eq!(run.iterations as usize, levels + 1, "{what}: iterations");
    assert_eq!(run.reached, want.iter().filter(|&&d| d != sssp_lab::graph::INF).count() as u64, "{what}: reached");
    same(&format!("{what} (to the end)"), &st.distances().expect("distances"), want);
}

/// Steps to the end beside the CPU stepper: records and deltas equal, distances equal `want`.
fn check_stepped(dev: DeviceId, g: &Arc<Graph>, s: VertexId, opts: &SolveOptions, want: &[Distance], what: &str) {
    let opts = SolveOptions { record_deltas: true, ..opts.clone() };
    let mut cpu = stepper(DeviceId::Cpu, g, s, &opts);
    let mut st = stepper(dev, g, s, &opts);
    loop {
        let a = cpu.step().unwrap_or_else(|e| panic!("{what}: cpu: {e}"));
        let b = st.step().unwrap_or_else(|e| panic!("{what}: {e}"));
        let (Some(a), Some(b)) = (a, b) else {
            assert!(cpu.is_done() && st.is_done(), "{what}: one device ended first");
            break;
        };
        let i = a.record.iteration;
        assert_eq!(counts(&b.record), counts(&a.record), "{what}: iteration {i}");
        let (da, db) = (a.delta.expect("cpu delta"), b.delta.expect("gpu delta"));
        assert_eq!(db.lowered, da.lowered, "{what}: lowered in iteration {i}");
        assert_eq!(db.settled, da.settled, "{what}: settled in iteration {i}");
    }
    same(&format!("{what} (stepped)"), &st.distances().expect("distances"), want);
}

#[test]
fn fast_and_stepped_equal_dijkstra() {
    let devs = gpus("fast_and_stepped_equal_dijkstra");
    for g in graphs() {
        for s in sources(g.n()) {
            let want = petgraph_distances(&g, s);
            for &dev in &devs {
                let what = format!("{dev}: {} from {s}", g.name);
                let opts = SolveOptions::default();
                check_fast(stepper(dev, &g, s, &opts).as_mut(), &g, &want, &what);
                check_stepped(dev, &g, s, &opts, &want, &what);
            }
        }
    }
}

/// One stepper, many sources: `restart` keeps the device buffers and gives the new source's
/// distances, to the end and stepped, also after a partial step.
#[test]
fn restart_reuses_the_stepper() {
    let devs = gpus("restart_reuses_the_stepper");
    let g = rome99();
    let n = g.n() as VertexId;
    for &dev in &devs {
        let mut st = stepper(dev, &g, 0, &SolveOptions::default());
        check_fast(st.as_mut(), &g, &petgraph_distances(&g, 0), &format!("{dev}: rome99 from 0"));
        for s in [n - 1, n / 3, 17] {
            assert!(st.restart(s).expect("restart"), "{dev}: restart says it cannot");
            assert_eq!(st.source(), s);
            assert!(!st.is_done());
            let want = petgraph_distances(&g, s);
            if s == n / 3 {
                // A few steps first, then the rest on the fast path.
                for _ in 0..3 {
                    st.step().expect("step");
                }
            }
            check_fast(st.as_mut(), &g, &want, &format!("{dev}: rome99 restarted at {s}"));
        }
        assert!(st.restart(5).expect("restart"));
        while st.step().expect("step").is_some() {}
        same(
            &format!("{dev}: rome99 restarted at 5, stepped"),
            &st.distances().expect("d"),
            &petgraph_distances(&g, 5),
        );
        assert!(matches!(st.restart(n), Err(SolveError::BadSource(..))));
    }
}

/// Block 32 on rome99: the plan holds single-block launches of several levels and grid launches,
/// and both run right (to the end, stepped, restarted).
#[test]
fn mixed_plan_with_small_blocks() {
    let g = rome99();
    let h = hierarchy(&g).expect("hierarchy");
    let block = 32;
    if std::env::var("SSSP_PHAST_SOLO").is_err() {
        let p = plan(&h.level_start, &[], 0..h.levels() as u32, block, SOLO_PER_THREAD * block, Stage::default());
        assert!(p.iter().any(|l| l.last > l.first), "no single-block run of levels: {p:?}");
        assert!(p.iter().any(|l| l.blocks > 1), "no grid launch: {p:?}");
        assert!(p.iter().all(|l| l.blocks == 1 || l.first == l.last));
    } else {
        eprintln!("mixed_plan_with_small_blocks: SSSP_PHAST_SOLO is set, the plan's shape is not asserted");
    }
    // `top=global`: the plan asserted above, with no staged run in front.
    let opts = SolveOptions {
        block: BlockSizes { relax: block, ..BlockSizes::default() },
        params: Params::default().with("top", "global"),
        ..Default::default()
    };
    for &dev in &gpus("mixed_plan_with_small_blocks") {
        for s in [0, g.n() as VertexId / 2] {
            let want = petgraph_distances(&g, s);
            let what = format!("{dev} block {block}: rome99 from {s}");
            let mut st = stepper(dev, &g, s, &opts);
            check_fast(st.as_mut(), &g, &want, &what);
            check_stepped(dev, &g, s, &opts, &want, &what);
            assert!(st.restart(3).expect("restart"));
            check_fast(st.as_mut(), &g, &petgraph_distances(&g, 3), &format!("{what}, restarted at 3"));
        }
    }
}

/// `top=shared` (the default) on a 120 × 100 grid: a staged run at the top (all of it where the
/// device's shared memory holds 12 000 δ words, the top part with the rest after it where not, as
/// on lavapipe), to the end, restarted, and after a few plain steps; `top=global` beside it.
#[test]
fn staged_top_beside_the_rest() {
    let g =
        Arc::new(GeneratorSpec::Grid { width: 120, height: 100, max_weight: 100, seed: 3 }.generate().expect("grid"));
    for &dev in &gpus("staged_top_beside_the_rest") {
        for top in ["shared", "global"] {
            let opts = SolveOptions { params: Params::default().with("top", top), ..Default::default() };
            let mut st = stepper(dev, &g, 0, &opts);
            let staged = st.device().contains("shared memory");
            assert_eq!(staged, top == "shared", "{dev} top={top}: {}", st.device());
            eprintln!("{dev} top={top}: {}", st.device());
            for (i, s) in [0, 5_999, 11_999, 777].into_iter().enumerate() {
                assert!(st.restart(s).expect("restart"));
                if i == 3 {
                    for _ in 0..4 {
                        st.step().expect("step");
                    }
                }
                check_fast(st.as_mut(), &g, &petgraph_distances(&g, s), &format!("{dev} top={top}: grid from {s}"));
            }
        }
    }
}

/// A cancelled run says so and leaves the stepper usable: the next run ends right.
#[test]
fn cancel_then_finish() {
    let g = rome99();
    for &dev in &gpus("cancel_then_finish") {
        let mut st = stepper(dev, &g, 9, &SolveOptions::default());
        st.step().expect("upward search");
        let r = st.run_to_end(&AtomicBool::new(true), &mut |_| {});
        assert!(matches!(r, Err(SolveError::Cancelled)), "{dev}: {:?}", r.map(|_| ()));
        check_fast(st.as_mut(), &g, &petgraph_distances(&g, 9), &format!("{dev}: rome99 from 9 after a cancel"));
    }
}

/// One stepper whose sources alternate between small upward searches (a grid) and searches of
/// over 480 vertices (a Martín expander beside it, whose uncontracted core every search from it
/// crosses): the CUDA backend passes a small search in its graphed scatter's parameters and
/// queues a large one's reset before a graph of the plan alone, recapturing as the sizes
/// alternate; wgpu's commands encoded ahead serve both. Each run equals petgraph's.
#[test]
fn large_and_small_upward_searches_alternate() {
    let grid = GeneratorSpec::Grid { width: 40, height: 40, max_weight: 10, seed: 2 }.generate().expect("grid");
    let martin = GeneratorSpec::Martin { n: 2048, seed: 5 }.generate().expect("martin");
    let k = grid.n() as u32;
    let mut arcs = Vec::new();
    for (g, at) in [(&grid, 0), (&martin, k)] {
        for v in 0..g.n() as u32 {
            arcs.extend(g.successors().arcs(v).map(|(w, c)| (v + at, w + at, c)));
        }
    }
    // No arc between the parts: a grid source's search stays in the grid (and the expander is
    // unreachable from it), where an arc into the expander would lead every search into its core.
    let g = Arc::new(built("a grid beside a Martín expander", k as usize + martin.n(), &arcs));
    let h = hierarchy(&g).expect("hierarchy");
    let (small, large) = (k - 1, k + 7);
    let sizes = (h.upward_search(small).len(), h.upward_search(large).len());
    assert!(sizes.0 < 480 && sizes.1 > 480, "searches of {sizes:?} vertices: one small, one large");
    for &dev in &gpus("large_and_small_upward_searches_alternate") {
        let mut st = stepper(dev, &g, small, &SolveOptions::default());
        for (i, s) in [small, large, large, small, large, 0, k + 1000, small].into_iter().enumerate() {
            if i > 0 {
                assert!(st.restart(s).expect("restart"));
            }
            check_fast(st.as_mut(), &g, &petgraph_distances(&g, s), &format!("{dev}: {} from {s}", g.name));
        }
    }
}

/// The family's refusals: a block the device cannot launch.
#[test]
fn refuses_impossible_blocks() {
    let g = rome99();
    for &dev in &gpus("refuses_impossible_blocks") {
        let block = BlockSizes { relax: 100_000, ..BlockSizes::default() };
        let r = make_stepper(dev, Arc::clone(&g), PHAST, 0, &SolveOptions { block, ..Default::default() });
        assert!(matches!(r, Err(SolveError::Device(_) | SolveError::Options(_))), "{dev}: block 100000 accepted");
    }
}
