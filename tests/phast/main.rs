//! PHAST on the CPU ([phast] on a [ch]): the hierarchy's invariants, and the sweep equal to
//! petgraph's Dijkstra on real, generated and random graphs from several sources, run to the end,
//! stepped and restarted, on one thread and on a pool. The GPU sweeps: `gpu.rs` (one test binary
//! for both: each binary links the whole crate).

#[path = "../common/mod.rs"]
mod common;
mod gpu;
use common::{petgraph_distances, root};

use proptest::prelude::*;
use sssp_lab::algo::phast::{Hierarchy, hierarchy};
use sssp_lab::algo::{PHAST, SolveOptions};
use sssp_lab::device::{DeviceId, make_stepper};
use sssp_lab::formats::{LoadOptions, load};
use sssp_lab::generate::GeneratorSpec;
use sssp_lab::graph::{Graph, INF, VertexId};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn rome() -> Arc<Graph> {
    Arc::new(load(&root().join("tests/data/rome99.gr.gz"), &LoadOptions::default()).expect("rome99"))
}

fn grid() -> Arc<Graph> {
    Arc::new(GeneratorSpec::Grid { width: 40, height: 30, max_weight: 10, seed: 1 }.generate().expect("grid"))
}

/// Every downward arc comes from an earlier level, every upward arc goes up in rank, and the
/// sweep order is a permutation grouped by level.
fn check_invariants(g: &Graph, h: &Hierarchy) {
    let n = g.n();
    assert_eq!(h.order.len(), n);
    for (k, &v) in h.order.iter().enumerate() {
        assert_eq!(h.pos[v as usize] as usize, k);
    }
    assert_eq!(*h.level_start.last().expect("levels") as usize, n);
    let level_of = |k: u32| h.level_start.partition_point(|&s| s <= k) - 1;
    for k in 0..n {
        for (t, c) in h.arcs_into(k) {
            assert!(level_of(t) < level_of(k as u32), "arc {t} → {k} inside or below its level");
            assert!(h.rank[h.order[t as usize] as usize] > h.rank[h.order[k] as usize]);
            assert!(c >= 0);
        }
    }
    for v in 0..n {
        let r = h.up_offsets[v] as usize..h.up_offsets[v + 1] as usize;
        for &w in &h.up_heads[r] {
            assert!(h.rank[w as usize] > h.rank[v]);
        }
    }
}

fn solve(g: &Arc<Graph>, device: DeviceId, source: VertexId) -> Vec<i64> {
    let mut st = make_stepper(device, Arc::clone(g), PHAST, source, &SolveOptions::default()).expect("phast builds");
    st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect("run");
    st.distances().expect("distances")
}

#[test]
fn the_hierarchy_keeps_its_invariants_and_a_second_call_returns_the_same() {
    for g in [rome(), grid()] {
        let h = hierarchy(&g).expect("hierarchy");
        check_invariants(&g, &h);
        assert!(h.levels() > 1 && h.levels() < g.n() / 4, "{}: {} levels", g.name, h.levels());
        // From the memory or the disk cache (other tests may have pushed it out of memory).
        let again = hierarchy(&g).expect("cached");
        assert_eq!((&again.order, &again.in_tails, &again.in_weights), (&h.order, &h.in_tails, &h.in_weights));
    }
}

#[test]
fn phast_equals_petgraph_on_one_thread_and_a_pool_from_several_sources() {
    for g in [rome(), grid()] {
        let n = g.n() as VertexId;
        for s in [0, n / 3, n - 1] {
            let want = petgraph_distances(&g, s);
            assert_eq!(solve(&g, DeviceId::Cpu, s), want, "{} from {s}, one thread", g.name);
            assert_eq!(solve(&g, DeviceId::CpuParallel(2), s), want, "{} from {s}, two threads", g.name);
        }
    }
}

#[test]
fn stepping_gives_one_record_per_level_and_restart_starts_over() {
    let g = rome();
    let h = hierarchy(&g).expect("hierarchy");
    let opts = SolveOptions { record_deltas: true, ..Default::default() };
    let mut st = make_stepper(DeviceId::Cpu, Arc::clone(&g), PHAST, 5, &opts).expect("phast");
    let mut dist = vec![INF; g.n()];
    dist[5] = 0;
    let mut records = Vec::new();
    while let Some(step) = st.step().expect("step") {
        for (v, before, after) in step.delta.expect("deltas").lowered {
            assert_eq!(dist[v as usize], before, "vertex {v}: the delta's old δ");
            dist[v as usize] = after;
        }
        records.push(step.record);
    }
    assert_eq!(records.len(), h.levels() + 1, "the upward search and one iteration per level");
    assert_eq!(records.iter().skip(1).map(|r| r.frontier).sum::<u64>(), g.n() as u64);
    assert_eq!(dist, petgraph_distances(&g, 5), "δ replayed from the deltas");
    assert_eq!(st.distances().expect("distances"), dist);
    assert!(st.restart(77).expect("restart"));
    st.run_to_end(&AtomicBool::new(false), &mut |_| {}).expect("run");
    assert_eq!(st.distances().expect("distances"), petgraph_distances(&g, 77));
}

#[test]
fn a_negative_arc_is_refused_with_the_arc_named() {
    let mut b = sssp_lab::graph::GraphBuilder::new(3, sssp_lab::graph::WeightRule::File);
    b.push(0, 1, Some(2));
    b.push(1, 2, Some(-1));
    let g = Arc::new(b.build("negative", None, sssp_lab::graph::VertexLabels::Offset(0)).expect("graph"));
    let err = make_stepper(DeviceId::Cpu, g, PHAST, 0, &SolveOptions::default()).err().expect("refused");
    assert!(err.to_string().contains("weight"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Random graphs with zero weights, self-loops, parallel arcs and unreachable vertices.
    #[test]
    fn phast_equals_petgraph_on_random_graphs((g, s) in common::random_graph()) {
        let g = Arc::new(g);
        check_invariants(&g, &hierarchy(&g).expect("hierarchy"));
        prop_assert_eq!(solve(&g, DeviceId::Cpu, s), petgraph_distances(&g, s));
    }
}

#[test]
fn a_graph_without_a_hierarchy_keeps_an_uncontracted_core_and_stays_exact() {
    // Martín's graphs (seven random predecessors per vertex) are expanders: the contraction
    // outgrows its budget and leaves a core that the upward search crosses by Dijkstra.
    let g = Arc::new(GeneratorSpec::Martin { n: 4096, seed: 3 }.generate().expect("martin"));
    let h = hierarchy(&g).expect("hierarchy");
    assert!(h.core > 0, "the contraction stopped with a core");
    let devices: Vec<DeviceId> = sssp_lab::device::devices()
        .iter()
        .filter(|d| d.status.is_ok() && !matches!(d.id, DeviceId::Cpu | DeviceId::CpuParallel(_)))
        .map(|d| d.id)
        .chain([DeviceId::Cpu, DeviceId::CpuParallel(2)])
        .collect();
    for s in [0, 2048] {
        let want = petgraph_distances(&g, s);
        for &d in &devices {
            assert_eq!(solve(&g, d, s), want, "{} from {s} on {d}", g.name);
        }
    }
}
