//! `delta-stepping:worklist=near-far` (issue 30): the persistent near-far kernel on CUDA and its
//! wgpu port (solo stretches in one workgroup, one indirect dispatch per grid phase) against
//! petgraph's Dijkstra (an oracle we did not write) on a road network (NY), grids, R-MAT graphs
//! with hubs split into pieces, several sources and Δ values; stepping (one phase per launch)
//! ends at the fast path's distances; a cancelled run stops; the parameter's parse.
//!
//! Without a usable CUDA device or wgpu adapter the GPU tests print why and skip it, unless env
//! `SSSP_LAB_REQUIRE_GPU` contains `cuda` / `wgpu`. NY: `SSSP_LAB_NY` (a DIMACS `.gr[.gz]`),
//! `../shared/graphs/USA-road-d.NY.gr.gz` or `assets/USA-road-d.NY.gr.gz`; skipped when none exists.

mod common;
use common::{cuda_ready, petgraph_distances, root};

use sssp_lab::algo::{DELTA_STEPPING, DeltaSteppingParams, Params, SolveError, SolveOptions};
use sssp_lab::device::{DeviceId, devices, make_stepper};
use sssp_lab::formats::{LoadOptions, load};
use sssp_lab::generate;
use sssp_lab::graph::{Distance, Graph, GraphBuilder, VertexId, VertexLabels, WeightRule};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

const CUDA: DeviceId = DeviceId::Cuda(0);
const WGPU: DeviceId = DeviceId::Wgpu(0);

/// True when the first wgpu adapter is usable; otherwise prints why and returns false, or panics
/// when `SSSP_LAB_REQUIRE_GPU` asks for wgpu.
fn wgpu_ready(test: &str) -> bool {
    let why = match devices().iter().find(|d| d.id == WGPU) {
        Some(d) if d.status.is_ok() => return true,
        Some(d) => d.status.clone().err().unwrap_or_default(),
        None => "no wgpu adapter".to_string(),
    };
    let required = std::env::var("SSSP_LAB_REQUIRE_GPU").map(|v| v.contains("wgpu")).unwrap_or(false);
    assert!(!required, "{test}: SSSP_LAB_REQUIRE_GPU asks for wgpu, but {why}");
    eprintln!("{test}: wgpu skipped ({why})");
    false
}

/// The devices to test: CUDA and wgpu where usable.
fn gpus(test: &str) -> Vec<DeviceId> {
    let mut d = Vec::new();
    if cuda_ready(test) {
        d.push(CUDA);
    }
    if wgpu_ready(test) {
        d.push(WGPU);
    }
    d
}

fn near_far(extra: &[(&str, &str)]) -> SolveOptions {
    let mut params = Params::default().with("worklist", "near-far");
    for (k, v) in extra {
        params.set(k, v);
    }
    SolveOptions { params, ..Default::default() }
}

fn ny() -> Option<Arc<Graph>> {
    let shared = root().join("../shared/graphs/USA-road-d.NY.gr.gz");
    let path = std::env::var("SSSP_LAB_NY")
        .map(PathBuf::from)
        .unwrap_or_else(|_| if shared.exists() { shared } else { root().join("assets/USA-road-d.NY.gr.gz") });
    if !path.exists() {
        eprintln!("NY: skipped ({} not found)", path.display());
        return None;
    }
    let g = load(&path, &LoadOptions { weights: WeightRule::File, ..Default::default() })
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(Arc::new(g))
}

fn graphs() -> Vec<Arc<Graph>> {
    let mut g = vec![
        Arc::new(generate::teaching()),
        Arc::new(generate::grid(300, 200, 1000, 3).expect("grid")),
        Arc::new(generate::grid(64, 64, 1, 5).expect("grid, unit weights")),
        Arc::new(generate::rmat(14, 16, [0.57, 0.19, 0.19], 255, 2).expect("rmat")),
        // Scale 16 with a skewed R-MAT: hubs above 4 096 arcs go out as pieces.
        Arc::new(generate::rmat(16, 32, [0.7, 0.1, 0.1], 100, 9).expect("rmat with hubs")),
        Arc::new(generate::fanout(3000, 5, 100, 1).expect("fanout")),
    ];
    g.extend(ny());
    g
}

fn sources(g: &Graph) -> Vec<VertexId> {
    let n = g.n() as VertexId;
    let mut s = vec![0, n / 3, n - 1, (n / 2).wrapping_mul(7) % n];
    s.dedup();
    s
}

fn fast(dev: DeviceId, g: &Arc<Graph>, s: VertexId, opts: &SolveOptions) -> (Vec<Distance>, u32) {
    let mut st = make_stepper(dev, Arc::clone(g), DELTA_STEPPING, s, opts)
        .unwrap_or_else(|e| panic!("near-far on {dev}, {} from {s}: {e}", g.name));
    let run = st.run_to_end(&AtomicBool::new(false), &mut |_| {}).unwrap_or_else(|e| panic!("{}: {e}", g.name));
    assert!(st.is_done());
    assert_eq!(run.records.len() as u32, run.iterations, "{}: one record per phase", g.name);
    (st.distances().expect("distances"), run.iterations)
}

fn same(what: &str, got: &[Distance], want: &[Distance]) {
    let bad: Vec<_> = (0..got.len()).filter(|&v| got[v] != want[v]).collect();
    assert!(
        bad.is_empty() && got.len() == want.len(),
        "{what}: {} vertices differ, e.g. {:?}",
        bad.len(),
        bad.iter().take(5).map(|&v| (v, got[v], want[v])).collect::<Vec<_>>()
    );
}

#[test]
fn fast_path_equals_dijkstra() {
    let devs = gpus("fast_path_equals_dijkstra");
    for g in graphs() {
        let road = g.n() > 100_000;
        for s in sources(&g) {
            let want = petgraph_distances(&g, s);
            for &dev in &devs {
                // NY on wgpu (lavapipe in CI, a software rasteriser) with the auto Δ from two sources.
                let deltas: &[&str] = if road && dev == WGPU { &["0"] } else { &["0", "1", "50000"] };
                if road && dev == WGPU && s != 0 && s != g.n() as VertexId - 1 {
                    continue;
                }
                for delta in deltas {
                    let (got, phases) = fast(dev, &g, s, &near_far(&[("delta", delta)]));
                    same(&format!("{dev}: {} from {s}, Δ {delta} ({phases} phases)", g.name), &got, &want);
                }
            }
        }
    }
}

/// Source 0 → 16 hubs → 8 192 leaves each (131 089 vertices): phase 2 is a grid phase of 32 hub
/// pieces whose 4 096 arcs each append to fresh leaves between two flush checks — more than a
/// workgroup's stage holds (lavapipe: 3 584 near items, 1 792 far entries; the H100: 4 096 and
/// 2 048), so the mid-phase flush and the full-stage fallback to the storage piles both run.
fn hub_star() -> Arc<Graph> {
    const HUBS: u32 = 16;
    const LEAVES: u32 = 8192;
    let mut b = GraphBuilder::new((1 + HUBS * (1 + LEAVES)) as usize, WeightRule::File);
    let w = |x: u32| (x.wrapping_mul(2_654_435_761) >> 7) as i32 % 100;
    for h in 1..=HUBS {
        b.push(0, h, Some(w(h) % 10 + 1));
        for l in 0..LEAVES {
            let leaf = 1 + HUBS + (h - 1) * LEAVES + l;
            b.push(h, leaf, Some(w(leaf) + 100));
        }
    }
    Arc::new(b.build("hub star", None, VertexLabels::Offset(0)).expect("n ≥ 1"))
}

/// A path of 3 000 arcs whose first vertex is also a hub of 40 leaves: the balanced relax (some
/// vertex has over 32 arcs), so wgpu runs fused steps (`nf_step`), and at Δ 1 nearly every phase
/// is a solo phase — more in a row than one dispatch runs (1 024), so a step that stopped on a
/// solo phase must size the next at one workgroup to go on.
#[test]
fn a_long_solo_stretch_goes_on_across_fused_steps() {
    const PATH: u32 = 3000;
    const LEAVES: u32 = 40;
    let mut b = GraphBuilder::new((PATH + 1 + LEAVES) as usize, WeightRule::File);
    for v in 0..PATH {
        b.push(v, v + 1, Some(1 + (v % 3) as i32));
    }
    for l in 0..LEAVES {
        b.push(0, PATH + 1 + l, Some(5000 + l as i32));
    }
    let g = Arc::new(b.build("path with a hub", None, VertexLabels::Offset(0)).expect("n ≥ 1"));
    let want = petgraph_distances(&g, 0);
    for dev in gpus("a_long_solo_stretch_goes_on_across_fused_steps") {
        let (got, phases) = fast(dev, &g, 0, &near_far(&[("delta", "1")]));
        assert!(phases > 2 * 1024, "{dev}: {phases} phases");
        same(&format!("{dev}: {} from 0, Δ 1 ({phases} phases)", g.name), &got, &want);
    }
}

#[test]
fn stage_overflow_equals_dijkstra() {
    let g = hub_star();
    let want = petgraph_distances(&g, 0);
    for dev in gpus("stage_overflow_equals_dijkstra") {
        // Hub arcs weigh 1..=10, leaf arcs 100..=199. Δ 50: the hubs are near and every leaf far
        // (far entries overflow the stage); Δ 50 000 (and the auto Δ): every leaf near (near
        // items overflow); Δ 1: one hub per phase, all solo.
        for delta in ["0", "1", "50", "50000"] {
            let (got, phases) = fast(dev, &g, 0, &near_far(&[("delta", delta)]));
            same(&format!("{dev}: {} from 0, Δ {delta} ({phases} phases)", g.name), &got, &want);
        }
    }
}

#[test]
fn stepping_ends_at_the_fast_distances() {
    let devs = gpus("stepping_ends_at_the_fast_distances");
    let gs = [
        Arc::new(generate::grid(40, 30, 100, 4).expect("grid")),
        Arc::new(generate::rmat(12, 16, [0.57, 0.19, 0.19], 255, 3).expect("rmat")),
        Arc::new(generate::rmat(14, 32, [0.7, 0.1, 0.1], 100, 9).expect("rmat with hubs")),
    ];
    for (dev, g) in devs.iter().flat_map(|&d| gs.iter().map(move |g| (d, g))) {
        for s in sources(g) {
            let mut opts = near_far(&[]);
            opts.record_deltas = true;
            let (want, phases) = fast(dev, g, s, &opts);
            let mut st = make_stepper(dev, Arc::clone(g), DELTA_STEPPING, s, &opts).expect("stepper");
            let mut steps = 0u32;
            let mut lowered = 0usize;
            while let Some(step) = st.step().expect("step") {
                steps += 1;
                assert_eq!(step.record.iteration, steps, "{}: records count phases", g.name);
                lowered += step.delta.map_or(0, |d| d.lowered.len());
            }
            // In a phase run by many blocks (workgroups), blocks race to lower the same δ, and
            // which decrease lands first decides whether a vertex goes near or far, so where such
            // phases occur (R-MAT at the hub width; any wgpu grid phase) the count may differ by
            // a phase or two between runs (seen: 10 stepped against 9 on R-MAT 12 on CUDA). Where
            // every phase runs in one block (the small grid on CUDA) it repeats exactly. Both must
            // end at the same δ.
            let solo_only = g.successors().offsets.windows(2).all(|w| w[1] - w[0] <= 4);
            if dev == CUDA && solo_only {
                assert_eq!(steps, phases, "{} from {s}: stepping runs the fast path's phases", g.name);
            } else {
                let close = steps.abs_diff(phases) <= 2 + phases / 4;
                assert!(close, "{} from {s}: {steps} stepped phases against {phases} in the fast path", g.name);
            }
            assert!(lowered + 1 >= g.n().min(1), "{}: deltas are reported", g.name);
            same(&format!("{} from {s}, stepped", g.name), &st.distances().expect("distances"), &want);
            same(&format!("{} from {s}, stepped vs Dijkstra", g.name), &want, &petgraph_distances(g, s));
        }
    }
}

#[test]
fn parameter_parses_and_defaults_to_marks() {
    let p = DeltaSteppingParams::decode(&Params::default()).expect("default");
    assert!(!p.near_far, "worklist defaults to marks");
    let p = DeltaSteppingParams::decode(&Params::default().with("worklist", "near-far")).expect("near-far");
    assert!(p.near_far);
    let e = DeltaSteppingParams::decode(&Params::default().with("worklist", "heap")).expect_err("unknown value");
    assert!(e.contains("worklist") && e.contains("heap"), "{e}");
}

#[test]
fn gpu_rule_for_delta() {
    let grid = generate::grid(50, 50, 1000, 1).expect("grid");
    let rmat = generate::rmat(12, 16, [0.57, 0.19, 0.19], 255, 1).expect("rmat");
    let uniform = generate::fanout(4096, 48, 255, 1).expect("fan-out");
    let mean = |g: &Graph| {
        let w = &g.successors().weights;
        w.iter().map(|&x| x as f64).sum::<f64>() / w.len() as f64
    };
    let rule = |g: &Graph| sssp_lab::device::gpu_delta::nearfar_delta(g) as f64 / mean(g);
    assert!((rule(&grid) - 16.0).abs() < 0.1, "roads and grids: 16 mean weights, got {}", rule(&grid));
    assert!((rule(&rmat) - 8.0).abs() < 0.1, "hubs: 8 mean weights, got {}", rule(&rmat));
    assert!((rule(&uniform) - 0.5).abs() < 0.1, "no hubs: half a mean weight, got {}", rule(&uniform));
}

#[test]
fn a_cancelled_run_stops() {
    // Δ = 1 on a path of 40 000 vertices with weights up to 1000: each bucket (Δ adapts up to 64)
    // holds about one vertex, so ~2 phases per vertex, far more than wgpu's first launch runs
    // (16 rounds of at most 1 024 solo phases each).
    let g = Arc::new(generate::grid(1, 40_000, 1000, 2).expect("path"));
    for dev in gpus("a_cancelled_run_stops") {
        let mut st =
            make_stepper(dev, Arc::clone(&g), DELTA_STEPPING, 0, &near_far(&[("delta", "1")])).expect("stepper");
        let cancel = AtomicBool::new(false);
        // Cancel at the first progress report: CUDA runs the solve in one launch, so only a
        // flag set before it stops it; wgpu polls between its batches.
        let r = if dev == CUDA {
            cancel.store(true, Ordering::Relaxed);
            st.run_to_end(&cancel, &mut |_| {})
        } else {
            st.run_to_end(&cancel, &mut |_| cancel.store(true, Ordering::Relaxed))
        };
        assert!(matches!(r, Err(SolveError::Cancelled)), "{dev}: {:?}", r.map(|r| r.iterations));
    }
}
