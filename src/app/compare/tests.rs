use super::*;
use crate::algo::dijkstra_distances;

fn wait(c: &mut CompareView) {
    let t = Instant::now();
    loop {
        c.poll();
        if !c.is_busy() {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(60), "lanes did not finish");
        std::thread::sleep(Duration::from_millis(2));
    }
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
