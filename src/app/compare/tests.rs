use super::*;
use crate::algo::dijkstra_distances;

fn wait(c: &mut CompareView) {
    assert!(c.wait_idle(Duration::from_secs(60)), "lanes did not finish");
}

fn view(specs: &[(&str, DeviceId)], lockstep: Lockstep, g: &Arc<Graph>) -> CompareView {
    let mut c = CompareView {
        specs: specs.iter().map(|&(a, d)| LaneSpec::new(a, d)).collect(),
        lockstep,
        ..Default::default()
    };
    c.start(g, 0, &egui::Context::default());
    wait(&mut c);
    c
}

#[test]
fn by_level_the_lanes_settle_the_same_distances_and_crauser_needs_fewer_iterations() {
    let g = Arc::new(crate::generate::grid(30, 20, 9, 3).unwrap_or_else(|e| panic!("{e}")));
    let mut c = view(&[("martin-succ", DeviceId::Cpu), ("crauser-succ", DeviceId::Cpu)], Lockstep::Level, &g);
    for _ in 0..5 {
        c.step();
        wait(&mut c);
        let (a, b) = (c.lanes[0].level(), c.lanes[1].level());
        assert!(a.min(b) > 0, "levels move: {a} {b}");
    }
    let pos = c.positions();
    c.step_back();
    assert!(c.positions().iter().zip(&pos).all(|(now, before)| now <= before));
    c.step();
    assert_eq!(c.positions(), pos, "forward again replays the recorded positions");
    c.run_to_end();
    wait(&mut c);
    assert!(c.at_end());
    let want = dijkstra_distances(&g, 0);
    for l in &c.lanes {
        let t = l.trace.as_ref().unwrap_or_else(|| panic!("trace"));
        assert_eq!(t.distances(), want.as_slice(), "{} ends at Dijkstra's distances", l.spec.algorithm);
        assert!(l.differs.is_empty());
    }
    let iters: Vec<usize> = c.lanes.iter().map(|l| l.trace.as_ref().map_or(0, Trace::len)).collect();
    assert!(iters[1] < iters[0], "Crauser settles more per iteration: {iters:?}");
}

#[test]
fn by_iteration_every_lane_moves_one_and_a_bad_lane_is_an_error_not_a_stall() {
    let g = Arc::new(crate::generate::grid(10, 8, 9, 1).unwrap_or_else(|e| panic!("{e}")));
    let mut c = view(
        &[("dijkstra", DeviceId::Cpu), ("bellman-ford", DeviceId::Cpu), ("no-such-algo", DeviceId::Cpu)],
        Lockstep::Iteration,
        &g,
    );
    assert!(c.lanes[2].error.as_deref().is_some_and(|e| e.contains("no-such-algo")));
    c.step();
    wait(&mut c);
    c.step();
    wait(&mut c);
    assert_eq!(c.positions(), vec![2, 2, 0]);
    assert!(
        !c.lanes[1].differs.is_empty(),
        "Bellman-Ford settles nothing until its end; Dijkstra has settled vertices"
    );
}

#[test]
fn back_restores_the_settled_level_with_the_cursor() {
    let g = Arc::new(crate::generate::grid(30, 20, 9, 3).unwrap_or_else(|e| panic!("{e}")));
    let mut c = view(&[("martin-succ", DeviceId::Cpu), ("crauser-succ", DeviceId::Cpu)], Lockstep::Level, &g);
    let mut seen = vec![c.lanes.iter().map(Lane::level).collect::<Vec<_>>()];
    for _ in 0..6 {
        c.step();
        wait(&mut c);
        seen.push(c.lanes.iter().map(Lane::level).collect());
    }
    for want in seen.iter().rev().skip(1) {
        c.step_back();
        let now: Vec<Distance> = c.lanes.iter().map(Lane::level).collect();
        assert_eq!(&now, want, "Back shows the level of the earlier position");
    }
}

/// The app around the compare tab, driven by its labels and keys (egui_kittest).
mod ui {
    use super::*;
    use crate::app::{Command, SsspApp, Startup, panels::Tab};
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    fn settle(h: &mut Harness<'_, SsspApp>) {
        let t = Instant::now();
        while h.state().is_busy() || h.state().state().devices.is_none() {
            h.step();
            assert!(t.elapsed() < Duration::from_secs(120), "background jobs did not finish");
            std::thread::sleep(Duration::from_millis(2));
        }
        h.run_steps(3);
    }

    fn key(h: &mut Harness<'_, SsspApp>, k: egui::Key) {
        h.key_press(k);
        h.run_steps(1);
        settle(h);
    }

    fn lane_positions(h: &Harness<'_, SsspApp>) -> Vec<usize> {
        h.state().panels.compare.positions()
    }

    #[test]
    fn a_lesson_opens_beside_the_step_tabs_run_and_the_keys_step_its_lanes() {
        let startup =
            Startup { file: None, generator: Some(crate::generate::GeneratorSpec::Teaching), load: Default::default() };
        let mut h = Harness::builder()
            .with_size(egui::vec2(1400.0, 900.0))
            .build_eframe(|cc| SsspApp::new(&cc.egui_ctx, startup));
        settle(&mut h);
        h.state_mut().apply(Command::Step);
        settle(&mut h);
        let before = h.state().state().trace.as_ref().map(|t| (t.pos(), t.source));
        assert_eq!(before, Some((1, 0)));

        h.get_by_label("Lessons").click();
        h.run_steps(2);
        h.get_by_label("Bellman-Ford's wasted passes").click();
        h.run_steps(2);
        settle(&mut h);
        assert_eq!(h.state().panels.tab, Tab::Compare);
        let s = h.state().state();
        assert_eq!(s.graph().map(|g| g.n()), Some(5), "the Step tab keeps its graph");
        assert_eq!(s.trace.as_ref().map(|t| (t.pos(), t.source)), before, "and its run");
        assert_eq!(h.state().panels.compare.graph().map(|g| g.n()), Some(60 * 45), "the lesson has its own");
        assert!(h.query_by_label_contains("differs from lane A").is_some(), "one legend, with differs");
        assert!(h.query_by_label("-0.00").is_none(), "no kernel time before the first step");

        key(&mut h, egui::Key::ArrowRight);
        assert_eq!(lane_positions(&h), vec![1, 1], "→ steps every lane");
        key(&mut h, egui::Key::Space);
        assert_eq!(lane_positions(&h), vec![2, 2], "Space steps every lane");
        key(&mut h, egui::Key::ArrowLeft);
        assert_eq!(lane_positions(&h), vec![1, 1], "← steps back");
        let s = h.state().state();
        assert_eq!(s.trace.as_ref().map(|t| (t.pos(), t.source)), before, "the keys left the Step tab's run alone");

        h.get_by_label("link zoom and pan").click();
        h.run_steps(2);
        assert!(!h.state().panels.compare.linked, "the link is a toggle");
        h.get_by_label("link zoom and pan").click();
        h.run_steps(2);
        // A look at the tab (not compared: `screenshots/` are made by scripts/screenshots.sh).
        if let Some(dir) = std::env::var_os("SSSP_LAB_COMPARE_PNG") {
            h.run_steps(5);
            match h.render() {
                Ok(img) => {
                    let path = std::path::Path::new(&dir).join("compare-bellman-ford.png");
                    if let Err(e) = img.save(&path) {
                        eprintln!("{}: {e}", path.display());
                    }
                }
                Err(e) => eprintln!("no render: {e}"),
            }
        }
    }
}

#[test]
fn stop_ends_a_run_to_the_end_and_the_lanes_go_on_from_there() {
    // Large enough that Martín's run to the end outlasts the stop by far on any machine: a
    // 400 × 400 grid ran to its end within the 50 ms in a release build.
    let g = Arc::new(crate::generate::grid(1500, 1500, 9, 3).unwrap_or_else(|e| panic!("{e}")));
    let mut c = view(&[("martin-succ", DeviceId::Cpu)], Lockstep::Iteration, &g);
    c.run_to_end();
    std::thread::sleep(Duration::from_millis(50));
    c.stop();
    wait(&mut c);
    assert!(!c.lanes[0].finished, "stopped before its end");
    let at = c.positions()[0];
    c.step();
    wait(&mut c);
    assert_eq!(c.positions()[0], at + 1, "a stopped lane steps on from where it stopped");
}
