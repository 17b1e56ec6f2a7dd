//! Headless UI test of the Many sources tab (egui_kittest): it clicks Run and reads the runs.

use super::{ManyView, Policies};
use crate::generate::GeneratorSpec;
use crate::graph::Graph;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[test]
fn both_policies_run_side_by_side_with_equal_checksums() {
    let spec = GeneratorSpec::Fanout { n: 2000, d: 4, max_weight: 100, seed: 3 };
    let g: Arc<Graph> = Arc::new(spec.generate().unwrap_or_else(|e| panic!("{e}")));
    let view = ManyView {
        sources: "24:1".into(),
        workers: "cpu:2,cpu-par:2".into(),
        policies: Policies::Both,
        ..Default::default()
    };
    let mut h = Harness::builder()
        .with_size(egui::vec2(1200.0, 800.0))
        .build_ui_state(move |ui, v: &mut ManyView| v.ui(ui, Some(&g)), view);
    h.run_steps(2);
    h.get_by_label("Run many sources").click();
    h.run_steps(1);
    let t = Instant::now();
    while h.state().is_running() {
        h.step();
        assert!(t.elapsed() < Duration::from_secs(60), "timed out");
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run_steps(2);
    let v = h.state();
    assert!(v.messages.is_empty(), "{:?}", v.messages);
    let labels: Vec<&str> = v.runs.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, ["E3", "W3"]);
    assert!(v.runs.iter().all(|r| r.tasks.len() == 24));
    assert_eq!(v.runs[0].checksum, v.runs[1].checksum, "same sources, same distance rows");
    assert!(h.query_by_label_contains("E3 (equitable): makespan").is_some());
    assert!(h.query_by_label_contains("W3 (stealing): makespan").is_some());
}
