//! Widget tests: the whole view driven through a headless egui context (no renderer, so large
//! graphs are not drawn: picking, the camera and the cell order are what is tested here; the
//! GPU drawing is tested through kittest's wgpu renderer in `gpu/tests.rs`).

use super::overlay::fmt_count;
use super::scene::{distance_order, world_coords};
use super::*;
use crate::generate;
use egui::{Event, PointerButton, RawInput};
use std::time::Duration;

impl GraphView {
    /// The scene of the graph shown (the view has one).
    fn scene(&self) -> &Scene {
        self.scene.as_ref().expect("a graph is set")
    }
}

/// Runs frames of a headless context showing `view` in an 800 × 600 screen.
struct Harness {
    ctx: egui::Context,
    time: f64,
}

impl Harness {
    fn new() -> Harness {
        Harness { ctx: egui::Context::default(), time: 0.0 }
    }

    fn frame(&mut self, view: &mut GraphView, input: &ViewInput<'_>, events: Vec<Event>) -> GraphViewResponse {
        self.time += 1.0 / 60.0;
        let raw = RawInput {
            screen_rect: Some(Rect::from_min_size(Pos2::ZERO, vec2(800.0, 600.0))),
            time: Some(self.time),
            events,
            ..Default::default()
        };
        let mut out = GraphViewResponse::default();
        let full = self.ctx.run_ui(raw, |ui| out = view.ui(ui, input));
        full.drop_without_applying_deltas();
        out
    }

    /// Frames until the view's background work is done.
    fn settle(&mut self, view: &mut GraphView, input: &ViewInput<'_>) {
        let t0 = Instant::now();
        for _ in 0..3 {
            self.frame(view, input, vec![]);
        }
        while !view.is_idle() {
            assert!(t0.elapsed() < Duration::from_secs(60), "view never became idle");
            std::thread::sleep(Duration::from_millis(5));
            self.frame(view, input, vec![]);
        }
        self.frame(view, input, vec![]);
    }
}

fn no_run() -> ViewInput<'static> {
    ViewInput { trace: None, state_version: 0, wrong: None, color_mode: ColorMode::Status, live: None }
}

fn screen_pos(view: &GraphView, v: VertexId) -> Pos2 {
    let w = view.scene().world(v).unwrap();
    view.camera.world_to_screen(view.last_rect, [w[0] as f64, w[1] as f64])
}

fn button(pos: Pos2, pressed: bool) -> Event {
    Event::PointerButton { pos, button: PointerButton::Primary, pressed, modifiers: Default::default() }
}

/// Hovering a vertex reports it; pressing and releasing on it reports a click.
fn hover_and_click(h: &mut Harness, view: &mut GraphView, input: &ViewInput<'_>, v: VertexId) {
    let p = screen_pos(view, v);
    assert!(view.last_rect.contains(p), "vertex {v} at {p:?} is off screen");
    let r = h.frame(view, input, vec![Event::PointerMoved(p)]);
    let r2 = h.frame(view, input, vec![]);
    assert_eq!(r.hovered.or(r2.hovered), Some(v), "hover at {p:?}");
    h.frame(view, input, vec![button(p, true)]);
    let r = h.frame(view, input, vec![button(p, false)]);
    assert_eq!(r.clicked, Some(v));
}

#[test]
fn coordinates_mode_hover_and_click() {
    let g = Arc::new(generate::grid(50, 40, 10, 1).unwrap());
    let mut view = GraphView::new();
    view.set_graph(g.clone());
    assert_eq!(view.mode(), Some(ViewMode::Coordinates));
    let mut trace = Trace::new(g.n(), 0);
    trace.set_finished();
    let input = ViewInput {
        trace: Some(&trace),
        state_version: 1,
        wrong: Some(&[5]),
        color_mode: ColorMode::Distance,
        live: None,
    };
    let mut h = Harness::new();
    h.settle(&mut view, &input);
    // 2000 vertices: the GPU view's, and this harness has no renderer.
    assert!(!view.stats().vector && !view.stats().gpu, "{:?}", view.stats());
    hover_and_click(&mut h, &mut view, &input, 0);
    hover_and_click(&mut h, &mut view, &input, 617);
    // Nowhere near a vertex: nothing.
    let far = view.last_rect.min + vec2(2.0, 2.0);
    let r = h.frame(&mut view, &input, vec![Event::PointerMoved(far)]);
    assert_eq!(r.hovered, None);
}

#[test]
fn small_graph_is_drawn_as_shapes() {
    let g = Arc::new(generate::teaching());
    let mut view = GraphView::new();
    view.set_graph(g);
    let mut h = Harness::new();
    h.settle(&mut view, &no_run());
    assert!(view.stats().vector);
    assert_eq!(view.stats().vertices_drawn, 5);
    assert_eq!(view.stats().arcs_drawn, 7);
    hover_and_click(&mut h, &mut view, &no_run(), 3);
}

#[test]
fn layout_mode_hover_and_click() {
    let g = Arc::new(generate::rmat(10, 2, [0.45, 0.15, 0.15], 10, 3).unwrap());
    assert!(g.coords().is_none());
    let mut view = GraphView::new();
    view.set_graph(g.clone());
    assert_eq!(view.mode(), Some(ViewMode::Layout));
    let mut h = Harness::new();
    h.settle(&mut view, &no_run());
    let pos = &view.scene().pos;
    assert!(pos.iter().all(|p| p[0].is_finite() && p[1].is_finite()));
    // A vertex with a neighbour nearby may be hidden behind it; pick one that is alone.
    let v = (0..g.n() as u32)
        .find(|&v| {
            let p = view.scene().pos[v as usize];
            view.scene().pick.nearest(pos, p, 12.0 / view.camera.scale as f32).map(|x| x.0) == Some(v)
                && (0..g.n())
                    .filter(|&u| {
                        let q = pos[u];
                        ((q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2)).sqrt() < (12.0 / view.camera.scale) as f32
                    })
                    .count()
                    == 1
        })
        .expect("some isolated vertex");
    hover_and_click(&mut h, &mut view, &no_run(), v);
}

#[test]
fn raster_mode_hover_click_and_order_by_distance() {
    let g = Arc::new(generate::fanout(6000, 2, 10, 1).unwrap());
    let mut view = GraphView::new();
    view.set_graph(g.clone());
    assert_eq!(view.mode(), Some(ViewMode::Raster));
    // A finished Dijkstra run so that distances are known.
    let mut s = crate::algo::cpu_stepper(
        g.clone(),
        crate::algo::DIJKSTRA,
        0,
        &crate::algo::SolveOptions { record_deltas: true, ..Default::default() },
    )
    .unwrap();
    let mut trace = Trace::new(g.n(), 0);
    while let Some(step) = s.step().unwrap() {
        trace.push(step);
    }
    trace.set_finished();
    let input =
        ViewInput { trace: Some(&trace), state_version: 7, wrong: None, color_mode: ColorMode::Status, live: None };
    let mut h = Harness::new();
    h.settle(&mut view, &input);
    assert!(!view.stats().vector && !view.stats().gpu, "{:?}", view.stats());
    hover_and_click(&mut h, &mut view, &input, 4321);
    view.order_by_distance = true;
    h.settle(&mut view, &input);
    let (order, rank) = view.scene().order.clone().expect("ordered");
    assert_eq!(order[0], 0, "the source comes first");
    assert!(order.windows(2).all(|w| trace.distances()[w[0] as usize] <= trace.distances()[w[1] as usize]));
    assert!((0..6000).all(|v| order[rank[v] as usize] == v as u32));
    // The vertex now in cell 3000 is found there.
    assert_ne!(order[3000], 3000);
    hover_and_click(&mut h, &mut view, &input, order[3000]);
}

#[test]
fn drag_pans_zoom_scales_double_click_fits() {
    let g = Arc::new(generate::grid(50, 50, 10, 1).unwrap());
    let mut view = GraphView::new();
    view.set_graph(g);
    let mut h = Harness::new();
    h.settle(&mut view, &no_run());
    let fit = view.camera;
    let a = view.last_rect.center();
    let b = a + vec2(100.0, 40.0);
    h.frame(&mut view, &no_run(), vec![Event::PointerMoved(a)]);
    h.frame(&mut view, &no_run(), vec![button(a, true)]);
    h.frame(&mut view, &no_run(), vec![Event::PointerMoved(a + vec2(50.0, 20.0))]);
    h.frame(&mut view, &no_run(), vec![Event::PointerMoved(b)]);
    let r = h.frame(&mut view, &no_run(), vec![button(b, false)]);
    assert_eq!(r.clicked, None, "a drag is not a click");
    let moved = view.camera;
    assert!(moved.center != fit.center);
    assert!((moved.scale - fit.scale).abs() < 1e-9);
    // The world point that was under a is now under b.
    let w = fit.screen_to_world(view.last_rect, a);
    let q = moved.world_to_screen(view.last_rect, w);
    assert!((q - b).length() < 1.0, "{q:?} vs {b:?}");
    // Pinch / ctrl-scroll zoom about the pointer.
    let w = view.camera.screen_to_world(view.last_rect, b);
    h.frame(&mut view, &no_run(), vec![Event::Zoom(2.0)]);
    assert!((view.camera.scale / moved.scale - 2.0).abs() < 1e-6);
    let q = view.camera.world_to_screen(view.last_rect, w);
    assert!((q - b).length() < 1.0);
    // Double click: back to the fit.
    for pressed in [true, false, true, false] {
        h.frame(&mut view, &no_run(), vec![button(b, pressed)]);
    }
    h.frame(&mut view, &no_run(), vec![]);
    assert_eq!(view.camera, fit);
    h.settle(&mut view, &no_run());
}

#[test]
fn world_coords_correct_lonlat_aspect() {
    // Two points 1° apart in longitude and latitude at 60° N: x shrinks by cos 60° = 0.5.
    let w = world_coords(&[[10e6, 60e6], [11e6, 61e6]]);
    let (dx, dy) = (w[1][0] - w[0][0], w[1][1] - w[0][1]);
    assert!((dx / dy - (60.5f64.to_radians().cos()) as f32).abs() < 1e-3, "{dx} {dy}");
    // Small integer coordinates are left alone.
    let w = world_coords(&[[0.0, 0.0], [63.0, 47.0]]);
    assert_eq!(w[1][0] - w[0][0], 63.0);
    assert_eq!(fmt_count(264346), "264\u{2009}346");
    assert_eq!(fmt_count(12), "12");
}

#[test]
fn distance_order_sorts_unreached_last() {
    use crate::graph::INF;
    let (order, rank) = distance_order(&[5, INF, 0, 5, 2]);
    assert_eq!(order, vec![2, 4, 0, 3, 1]);
    assert_eq!(rank, vec![2, 4, 0, 3, 1]);
}

#[test]
fn without_a_wgpu_renderer_the_view_says_why() {
    // A large graph and no render state (this headless context has no renderer): nothing is
    // drawn, and the view says so instead of staying blank.
    let g = Arc::new(generate::grid(50, 40, 10, 1).unwrap());
    let mut view = GraphView::new();
    view.set_graph(g);
    let ctx = egui::Context::default();
    let raw = RawInput { screen_rect: Some(Rect::from_min_size(Pos2::ZERO, vec2(800.0, 600.0))), ..Default::default() };
    let full = ctx.run_ui(raw, |ui| {
        view.ui(ui, &no_run());
    });
    let said = full.shapes.iter().any(|c| match &c.shape {
        egui::Shape::Text(t) => t.galley.text().contains("No wgpu renderer"),
        _ => false,
    });
    full.drop_without_applying_deltas();
    assert!(said, "the view explains why the graph is not drawn");
    assert!(!view.stats().gpu && !view.stats().vector);
}

#[test]
fn a_large_graph_is_prepared_on_a_worker() {
    // Above SCENE_SYNC_MAX vertices plus arcs, set_graph returns at once and the scene arrives
    // a few frames later; meanwhile the view is busy and says so.
    let g = Arc::new(generate::grid(720, 720, 10, 1).unwrap());
    assert!(g.n() + g.m() > SCENE_SYNC_MAX);
    let mut view = GraphView::new();
    view.set_graph(g.clone());
    assert_eq!(view.mode(), None, "not built on the calling thread");
    assert!(!view.is_idle());
    let mut h = Harness::new();
    h.settle(&mut view, &no_run());
    assert_eq!(view.mode(), Some(ViewMode::Coordinates));
    assert_eq!(view.graph_size(), (g.n(), g.m()));
    // The same graph again changes nothing.
    view.set_graph(g);
    assert!(view.is_idle());
}
