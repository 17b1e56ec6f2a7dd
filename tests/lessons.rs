//! Every lesson of the compare tab's *Lessons* menu, run headless as the app runs it (its lanes'
//! workers driven without a window), on the devices CI has: the CPU and, where there is a usable
//! wgpu adapter (lavapipe in CI), the GPU. Each test checks the claims its lesson's text makes,
//! on the lanes' own data; a claim that is false is fixed in the lesson, not here.

mod common;

use sssp_lab::algo::IterationRecord;
use sssp_lab::app::compare::{CompareView, LESSONS, Lesson, Lockstep};
use sssp_lab::device::DeviceId;
use sssp_lab::graph::{Distance, Graph, INF, VertexId};
use std::sync::Arc;
use std::time::Duration;

/// The lesson with this title prefix.
fn lesson(title: &str) -> &'static Lesson {
    LESSONS.iter().find(|l| l.title.starts_with(title)).unwrap_or_else(|| panic!("no lesson `{title}`"))
}

/// The GPUs the GPU lanes can use here: none (they run on the CPU), and the first usable
/// wgpu adapter if there is one.
fn gpus() -> Vec<Option<DeviceId>> {
    let mut out = vec![None];
    let wgpu = sssp_lab::device::wgpu::list().into_iter().find(|d| d.status.is_ok()).map(|d| d.id);
    match wgpu {
        Some(id) => out.push(Some(id)),
        None => eprintln!("no usable wgpu adapter: the GPU lanes run on the CPU only"),
    }
    // CUDA where there is a usable device (the GPU machine): the lessons with CUDA-only lanes.
    out.extend(sssp_lab::device::cuda::list().into_iter().find(|d| d.status.is_ok()).map(|d| Some(d.id)));
    out
}

fn wait(c: &mut CompareView) {
    assert!(c.wait_idle(Duration::from_secs(600)), "the lanes did not finish");
}

/// Opens `l` as the menu does (GPU lanes on `gpu`) and waits for its lanes.
fn open(l: &'static Lesson, gpu: Option<DeviceId>) -> CompareView {
    let mut c = CompareView::default();
    c.open_lesson(l, gpu, None, &egui::Context::default());
    wait(&mut c);
    assert!(!c.lanes.is_empty(), "{}: lanes started ({:?})", l.title, c.messages);
    for lane in &c.lanes {
        assert!(lane.error.is_none(), "{} lane {}: {:?}", l.title, lane.spec.algorithm, lane.error);
    }
    c
}

fn step(c: &mut CompareView) {
    c.step();
    wait(c);
}

fn to_end(c: &mut CompareView) {
    c.run_to_end();
    wait(c);
    assert!(c.at_end(), "every lane finished");
}

fn graph(c: &CompareView) -> Arc<Graph> {
    Arc::clone(c.graph().unwrap_or_else(|| panic!("the lesson's graph")))
}

fn records(c: &CompareView, i: usize) -> &[IterationRecord] {
    c.lanes[i].trace.as_ref().map_or(&[], |t| t.records())
}

fn iterations(c: &CompareView, i: usize) -> usize {
    records(c, i).len()
}

/// Σ over the lane's recorded iterations.
fn total(c: &CompareView, i: usize, f: impl Fn(&IterationRecord) -> u64) -> u64 {
    records(c, i).iter().map(f).sum()
}

fn distances(c: &CompareView, i: usize) -> Vec<Distance> {
    c.lanes[i].trace.as_ref().map(|t| t.distances().to_vec()).unwrap_or_default()
}

fn settled(c: &CompareView, i: usize, v: VertexId) -> bool {
    use sssp_lab::algo::VertexStatus::{Frontier, Settled};
    c.lanes[i].trace.as_ref().is_some_and(|t| matches!(t.status(v), Settled | Frontier))
}

/// Stepped by settled level: every lane has settled every vertex up to the common level, and
/// (no race here) nothing is marked as differing. Returns the common level.
fn check_level_lockstep(c: &CompareView, truth: &[Distance], what: &str) -> Distance {
    let level = c.lanes.iter().map(|l| l.level()).min().unwrap_or(0);
    for (i, l) in c.lanes.iter().enumerate() {
        for v in 0..truth.len() as VertexId {
            if truth[v as usize] <= level {
                assert!(
                    settled(c, i, v),
                    "{what}: lane {i} has vertex {v} (d = {}) ≤ level {level} settled",
                    truth[v as usize]
                );
            }
        }
        assert!(l.differs.is_empty(), "{what}: lane {i} marks {} vertices as differing", l.differs.len());
    }
    level
}

#[test]
fn martin_vs_crauser_by_level_agree_up_to_the_common_level_and_crauser_needs_fewer_iterations() {
    let l = lesson("Martin vs Crauser");
    assert_eq!(l.lockstep, Lockstep::Level);
    let mut c = open(l, None);
    let g = graph(&c);
    let truth = common::petgraph_distances(&g, c.source());
    let mut last = 0;
    let mut worst = (0, 0);
    for k in 0..300 {
        step(&mut c);
        let level = check_level_lockstep(&c, &truth, "NY");
        assert!(level >= last, "the common level never falls");
        last = level;
        let pos = c.positions();
        assert!(pos[1] <= pos[0], "step {k}: Crauser's iteration counter ({}) is behind Martin's ({})", pos[1], pos[0]);
        let done: usize = (0..truth.len() as VertexId).filter(|&v| settled(&c, 0, v)).count();
        let few = (0..truth.len() as VertexId).filter(|&v| settled(&c, 0, v) != settled(&c, 1, v)).count();
        assert!(few <= 10.max(done / 5), "step {k}: a handful settled in one lane only ({few} of {done} settled)");
        worst = worst.max((few, done));
    }
    eprintln!("NY after 300 level steps: level {last}, positions {:?}, most differing {worst:?}", c.positions());
    to_end(&mut c);
    for i in 0..2 {
        assert_eq!(distances(&c, i), truth, "lane {i} ends at the true distances");
    }
    assert!(c.lanes[1].differs.is_empty(), "at the end nothing differs");
    let (m, cr) = (iterations(&c, 0), iterations(&c, 1));
    eprintln!("NY iterations: Martin {m}, Crauser {cr}");
    assert!(cr * 10 < m, "Crauser needs far fewer iterations: {cr} vs {m}");
}

#[test]
fn racy_relax_loses_an_update_on_the_cpu_and_the_atomic_lanes_are_exact() {
    let l = lesson("Racy vs atomic");
    for gpu in gpus() {
        let mut c = open(l, gpu);
        let g = graph(&c);
        assert_eq!(g.n(), 64, "seed 004's counterexample, n = 64");
        let truth = common::petgraph_distances(&g, c.source());
        let sink = g.n() - 1;
        assert_eq!(truth[sink], 2, "the sink's distance is 2");
        let lanes = c.lanes.len();
        assert_eq!(lanes, if gpu.is_some() { 4 } else { 2 }, "CPU lanes always, GPU lanes where there is a GPU");
        let mut showed = vec![0usize; lanes];
        let tries = 40;
        for t in 0..tries {
            if t > 0 {
                assert!(c.restart(&egui::Context::default()));
                wait(&mut c);
            }
            to_end(&mut c);
            for i in (0..lanes).filter(|i| i % 2 == 0) {
                assert_eq!(distances(&c, i), truth, "atomic lane {i} ({}) is exact", c.lanes[i].device_name);
            }
            for i in (0..lanes).filter(|i| i % 2 == 1) {
                let wrong = c.wrong_distances(i);
                if wrong > 0 {
                    showed[i] += 1;
                    assert!(distances(&c, i)[sink] > 2, "the lost update leaves the sink above 2");
                    assert!(c.lanes[i].differs.contains(&(sink as VertexId)), "the sink is marked as differing");
                }
            }
            let report = c.race_report();
            assert_eq!(report.len(), lanes / 2, "one line per racy lane: {report:?}");
            for (line, i) in report.iter().zip((0..lanes).filter(|i| i % 2 == 1)) {
                let dev = c.lanes[i].device_name.split(" · ").next().unwrap_or_default().to_string();
                assert!(line.contains(&dev), "the report names the device: {line}");
                assert_eq!(line.contains("the race showed"), c.wrong_distances(i) > 0, "{line}");
            }
            if showed[1] > 0 && (gpu.is_none() || t >= 10) {
                eprintln!("race on {gpu:?} after {} tries: {showed:?} ({report:?})", t + 1);
                break;
            }
        }
        assert!(showed[1] > 0, "the CPU's racy lane lost an update in {tries} runs at most");
    }
}

#[test]
fn dummy_threads_the_same_threads_work_and_a_block_of_1024_adds_15_idle_warps() {
    let l = lesson("Dummy threads");
    for gpu in gpus() {
        let mut c = open(l, gpu);
        to_end(&mut c);
        let (a, b) = (records(&c, 0), records(&c, 1));
        assert_eq!(a.len(), b.len(), "{gpu:?}: the same iterations");
        let mut mostly_dummies = 0;
        for (ra, rb) in a.iter().zip(b) {
            let (Some(ta), Some(tb)) = (ra.threads, rb.threads) else {
                panic!("{gpu:?}: iteration {} has thread counts in both lanes", ra.iteration)
            };
            assert_eq!((ta.block_size, tb.block_size), (32, 1024));
            assert_eq!(ta.working, tb.working, "{gpu:?} iteration {}: the same threads work", ra.iteration);
            assert_eq!((ta.launched, tb.launched), (20_000, 20_480), "{gpu:?}: 20 000 vertices padded to 20 480");
            assert_eq!(tb.warps_all_dummy, ta.warps_all_dummy + 15, "{gpu:?}: 15 more warps with no work");
            assert_eq!((ta.warps_mixed, ta.warps_all_working), (tb.warps_mixed, tb.warps_all_working));
            if ta.dummy_ratio() > 0.5 {
                mostly_dummies += 1;
            }
        }
        assert!(mostly_dummies * 2 > a.len(), "{gpu:?}: most threads are dummies in most iterations");
    }
}

#[test]
fn delta_stepping_lanes_agree_by_level_and_trade_iterations_for_relaxations() {
    let l = lesson("Delta-stepping");
    let mut c = open(l, None);
    let g = graph(&c);
    let truth = common::petgraph_distances(&g, c.source());
    let mut ahead = false;
    for _ in 0..30 {
        step(&mut c);
        check_level_lockstep(&c, &truth, "delta");
        let count = |i| (0..truth.len() as VertexId).filter(|&v| settled(&c, i, v)).count();
        ahead |= count(2) > 10 * count(0);
    }
    assert!(ahead, "the wide bucket (lane C) settles far past the common level at once");
    // Lane C: many iterations relaxing its first bucket, then all of it settled in one.
    let c_recs = records(&c, 2);
    let first = c_recs.iter().position(|r| r.settled > 1).unwrap_or(usize::MAX);
    assert!((10..c_recs.len()).contains(&first), "lane C settles nothing for many iterations ({first})");
    assert!(c_recs[first].settled > 1000, "then thousands at once: {}", c_recs[first].settled);
    to_end(&mut c);
    let it: Vec<usize> = (0..3).map(|i| iterations(&c, i)).collect();
    let rx: Vec<u64> = (0..3).map(|i| total(&c, i, |r| r.relax_attempted)).collect();
    eprintln!("delta 20 / 200 / 5000: iterations {it:?}, relaxations {rx:?}");
    for i in 0..3 {
        assert_eq!(distances(&c, i), truth, "lane {i} is exact");
    }
    assert!(it[0] > it[1] && it[1] > it[2], "a small delta needs the most iterations: {it:?}");
    assert!(rx[0] < rx[1] && rx[1] < rx[2], "a large delta the most relaxations: {rx:?}");
}

#[test]
fn bellman_ford_settles_nothing_until_the_end_and_relaxes_more_with_every_pass() {
    let l = lesson("Bellman-Ford");
    let mut c = open(l, None);
    let g = graph(&c);
    let truth = common::petgraph_distances(&g, c.source());
    to_end(&mut c);
    let bf = records(&c, 1);
    for r in &bf[..bf.len() - 1] {
        assert!(r.settled <= 1, "pass {}: Bellman-Ford has settled nothing but the source", r.iteration);
    }
    assert_eq!(distances(&c, 1), truth);
    // Lowered more than once: some vertex appears in several passes' deltas.
    let mut lowered = vec![0u32; g.n()];
    for d in c.lanes[1].trace.as_ref().map_or(&[][..], |t| t.deltas()) {
        for &(v, _, _) in &d.lowered {
            lowered[v as usize] += 1;
        }
    }
    assert!(lowered.iter().any(|&k| k >= 3), "some vertex is lowered many times");
    let mut sum = 0;
    for r in bf {
        assert!(r.relax_attempted > 0, "every pass relaxes arcs");
        sum += r.relax_attempted;
    }
    let dj = total(&c, 0, |r| r.relax_attempted);
    eprintln!("relaxations: Dijkstra {dj}, Bellman-Ford {sum} in {} passes", bf.len());
    assert!(sum > dj, "Bellman-Ford relaxes more than Dijkstra: {sum} vs {dj}");
}

#[test]
fn helper_threads_same_iterations_and_distances_and_the_helpers_work_is_counted() {
    let l = lesson("Helper threads");
    let mut c = open(l, None);
    let g = graph(&c);
    let truth = common::petgraph_distances(&g, c.source());
    let key = |k| sssp_lab::algo::Algorithm::by_id("helper").and_then(|a| a.series_index(k));
    let (lo, wa) = (key("helper_lowered").unwrap_or(usize::MAX), key("helper_wasted").unwrap_or(usize::MAX));
    let mut helped = false;
    for t in 0..5 {
        if t > 0 {
            assert!(c.restart(&egui::Context::default()));
            wait(&mut c);
        }
        to_end(&mut c);
        assert_eq!(iterations(&c, 0), iterations(&c, 1), "the same iterations");
        assert_eq!(iterations(&c, 0), truth.iter().filter(|&&d| d != INF).count(), "one per vertex");
        assert_eq!(distances(&c, 0), truth);
        assert_eq!(distances(&c, 1), truth);
        let sum = |k: usize| records(&c, 1).iter().filter_map(|r| r.values.get(k)).sum::<f64>();
        let (lowered, wasted) = (sum(lo), sum(wa));
        eprintln!(
            "helpers: lowered {lowered}, wasted {wasted}; relaxations Dijkstra {} helper {}",
            total(&c, 0, |r| r.relax_attempted),
            total(&c, 1, |r| r.relax_attempted)
        );
        assert!(wasted <= lowered);
        if lowered > 0.0 {
            helped = true;
            break;
        }
    }
    assert!(helped, "the helpers lowered some δ in 5 runs at most");
}

#[test]
fn gpu_on_roads_the_worklist_needs_fewer_phases_with_more_work_each_and_phast_fewer_still() {
    let l = lesson("Why a GPU loses on roads");
    for gpu in gpus() {
        let mut c = open(l, gpu);
        let g = graph(&c);
        let truth = common::petgraph_distances(&g, c.source());
        to_end(&mut c);
        let on_cuda = matches!(c.lanes[1].spec.device, DeviceId::Cuda(_));
        let (a, b) = (records(&c, 0), records(&c, 1));
        let relax = |r: &[IterationRecord]| r.iter().map(|x| x.relax_attempted).sum::<u64>();
        let frontier = a.iter().map(|r| r.frontier).sum::<u64>() as f64 / a.len() as f64;
        let (per_a, per_b) = (relax(a) as f64 / a.len() as f64, relax(b) as f64 / b.len() as f64);
        eprintln!(
            "{gpu:?} (B on CUDA: {on_cuda}): phases {} / {}, mean |F| of A {frontier:.1}, relaxations {} / {}, per phase \
             {per_a:.0} / {per_b:.0}",
            a.len(),
            b.len(),
            relax(a),
            relax(b)
        );
        for i in 0..3 {
            assert_eq!(distances(&c, i), truth, "{gpu:?}: lane {i} is exact");
        }
        let cc = records(&c, 2);
        let per_c = relax(cc) as f64 / cc.len() as f64;
        eprintln!("{gpu:?}: C (phast) phases {}, relaxations {}, per phase {per_c:.0}", cc.len(), relax(cc));
        assert!((50..=200).contains(&cc.len()), "{gpu:?}: C needs about a hundred phases ({})", cc.len());
        assert!(
            cc.len() * 10 <= b.len(),
            "{gpu:?}: C needs ten times fewer phases than B ({} / {})",
            cc.len(),
            b.len()
        );
        assert!(
            per_c >= 3.0 * per_b,
            "{gpu:?}: C's phases hold several times B's relaxations ({per_b:.0} / {per_c:.0})"
        );
        assert!(relax(cc) < relax(b), "{gpu:?}: C relaxes fewer in total than B");
        assert!(a.len() > 1000, "{gpu:?}: A needs thousands of phases ({})", a.len());
        assert!(frontier < 100.0, "{gpu:?}: A's mean frontier is a few dozen ({frontier:.1})");
        let dummies = a
            .iter()
            .filter_map(|r| r.threads)
            .filter(|t| t.launched >= g.n() as u64)
            .filter(|t| t.dummy_ratio() > 0.99);
        assert!(dummies.count() * 10 > a.len() * 9, "{gpu:?}: A launches n threads a phase, nearly all dummies");
        assert!(
            a.len() >= 3 * b.len(),
            "{gpu:?}: B needs at least three times fewer phases ({} / {})",
            a.len(),
            b.len()
        );
        assert!(
            per_b >= 5.0 * per_a,
            "{gpu:?}: B's phases hold several times more relaxations ({per_a:.0} / {per_b:.0})"
        );
        assert!(relax(b) > relax(a), "{gpu:?}: B relaxes more in total");
        if on_cuda {
            let solo = b.iter().filter_map(|r| r.threads).filter(|t| t.launched == 1024).count();
            assert!(solo * 2 > b.len(), "{gpu:?}: most of B's phases run in one block of 1024 ({solo} of {})", b.len());
        }
    }
}
