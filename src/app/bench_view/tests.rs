//! Headless UI tests of the Bench view (egui_kittest): they click the labelled buttons and read
//! the view's state. They never open a file dialog.

use super::BenchView;
use crate::device::DeviceId;
use crate::generate::GeneratorSpec;
use crate::lab::{Experiment, GraphEntry, LabDevice, SourceSpec};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use std::time::{Duration, Instant};

fn harness() -> Harness<'static, BenchView> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 900.0))
        .build_ui_state(|ui, v: &mut BenchView| v.ui(ui), BenchView::default())
}

fn tiny() -> Experiment {
    let mut exp = super::setup::default_experiment();
    exp.graphs = vec![GraphEntry {
        generate: Some(GeneratorSpec::Fanout { n: 2000, d: 2, max_weight: 100, seed: 1 }),
        degrees: vec![2, 20],
        ..Default::default()
    }];
    exp.algorithms =
        vec![crate::algo::CRAUSER_SUCC.into(), crate::algo::MARTIN_SUCC.into(), crate::algo::DIJKSTRA.into()];
    exp.devices = vec![LabDevice::Solver(DeviceId::Cpu)];
    exp.sources = SourceSpec::Random { count: 2, seed: 1 };
    exp
}

/// Steps frames until `done` holds (at most 60 s).
fn until(h: &mut Harness<'_, BenchView>, done: impl Fn(&BenchView) -> bool) {
    let t = Instant::now();
    while !done(h.state()) {
        h.step();
        assert!(t.elapsed() < Duration::from_secs(60), "timed out");
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run_steps(2);
}

/// Clicks "Run experiment" and steps frames until the run ends, which must complete.
fn run_to_completion(h: &mut Harness<'_, BenchView>) {
    h.run_steps(2);
    h.get_by_label("Run experiment").click();
    h.run_steps(1);
    until(h, |v| !v.is_running());
    assert_eq!(h.state().outcome(), Some("completed"));
}

#[test]
fn run_streams_rows_into_the_view_and_every_run_matches_dijkstra() {
    let mut h = harness();
    h.state_mut().set_experiment(tiny());
    run_to_completion(&mut h);
    let v = h.state();
    assert_eq!(v.rows.len(), 2 * 3 * 2);
    assert!(v.rows.iter().all(|r| r.is_measured() && r.correct == Some(true)));
    h.get_by_label("Speedups").click();
    h.run_steps(2);
    assert!(h.query_by_label_contains("crauser-succ @ cpu (ms)").is_some(), "the baseline column is shown");
    for tab in ["Algorithms × devices", "GTEPS · iterations · memory", "Rows", "Time vs block size"] {
        h.get_by_label(tab).click();
        h.run_steps(2);
        // BENCH_VIEW_PNG=DIR renders each tab (lavapipe) for a look.
        if let Some(dir) = std::env::var_os("BENCH_VIEW_PNG") {
            let file = std::path::Path::new(&dir).join(format!("bench-{}.png", tab.split(' ').next().unwrap_or("tab")));
            if let Ok(img) = h.render() {
                let _ = img.save(file);
            }
        }
    }
    h.get_by_label("log scale").click();
    h.run_steps(2);
}

#[test]
fn cancel_stops_the_run_and_unavailable_devices_are_disabled() {
    let mut h = harness();
    let mut exp = tiny();
    exp.graphs[0].generate = Some(GeneratorSpec::Fanout { n: 20_000, d: 20, max_weight: 100, seed: 1 });
    exp.sources = SourceSpec::Random { count: 50, seed: 1 };
    exp.repetitions = 5;
    h.state_mut().set_experiment(exp);
    h.get_by_label("Run experiment").click();
    until(&mut h, |v| !v.rows.is_empty());
    h.get_by_label("Cancel").click();
    until(&mut h, |v| !v.is_running());
    assert_eq!(h.state().outcome(), Some("cancelled"));
    assert!(h.state().rows.len() < 2 * 3 * 50 * 5);
    until(&mut h, |v| v.devices.is_some());
    let devices = h.state().devices.unwrap_or_default();
    for d in devices.iter().filter(|d| d.status.is_err()) {
        let label = format!("{}: ", d.id);
        let node = h.get_by_label_contains(&label);
        assert!(node.accesskit_node().is_disabled(), "{} should be disabled", d.id);
    }
}

#[test]
fn a_thread_sweep_opens_on_speedup_vs_threads_with_barrier_and_lock_shares() {
    let mut h = harness();
    let mut exp = tiny();
    let ssca2 = crate::generate::Ssca2 { n: 1500, ..crate::generate::Ssca2::table2(20, 0.5) };
    exp.graphs = vec![GraphEntry { generate: Some(GeneratorSpec::Ssca2(ssca2)), ..Default::default() }];
    exp.algorithms = vec![crate::algo::DIJKSTRA.into(), crate::algo::HELPER.into(), crate::algo::CGS_LOCK.into()];
    exp.devices = [DeviceId::Cpu, DeviceId::CpuParallel(2), DeviceId::CpuParallel(3)].map(LabDevice::Solver).into();
    exp.baseline = Some(crate::lab::Baseline {
        algorithm: crate::algo::DIJKSTRA.into(),
        device: LabDevice::Solver(DeviceId::Cpu),
    });
    h.state_mut().set_experiment(exp);
    assert_eq!(h.state().options.tab, super::ResultsTab::Threads);
    run_to_completion(&mut h);
    let v = h.state();
    let bad: Vec<String> = v
        .rows
        .iter()
        .filter(|r| r.skipped.is_none() && r.correct != Some(true))
        .map(|r| format!("{} {:?}", r.series(), r.error))
        .collect();
    assert!(bad.is_empty(), "every run equals Dijkstra: {bad:?}");
    let threaded: Vec<_> = v.rows.iter().filter(|r| r.algorithm == "helper" && r.threads == Some(3)).collect();
    assert!(!threaded.is_empty() && threaded.iter().all(|r| r.barrier_share.is_some() && r.lock_share.is_some()));
    let base = super::threads::baseline(&v.rows, &v.options).unwrap_or_default();
    assert_eq!(base, "dijkstra @ cpu");
    let curves = super::threads::curves(&v.rows, &v.rows[0].graph, &base);
    let names: Vec<&str> = curves.iter().map(|(a, _)| a.as_str()).collect();
    assert_eq!(names, ["helper", "cgs-lock"], "dijkstra runs on one thread only: no curve");
    assert!(curves.iter().all(|(_, p)| p.len() == 3));
    let results =
        crate::lab::LabResults { experiment: Some(v.experiment.clone()), rows: v.rows.clone(), ..Default::default() };
    let md = crate::lab::report::markdown(&results);
    assert!(md.contains("## Speedup vs threads") && md.contains("| helper |"), "{md}");
    h.run_steps(2);
    assert!(h.query_by_label_contains("speedup over dijkstra @ cpu").is_some());
}
