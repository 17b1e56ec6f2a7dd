//! Widget tests: the whole view driven through a headless egui context (no renderer), and an
//! ignored timing test on the bundled NY road network.

use super::overlay::fmt_count;
use super::raster::Splat;
use super::scene::{distance_order, world_coords};
use super::*;
use crate::generate;
use egui::{ColorImage, Event, PointerButton, RawInput, TextureHandle, TextureOptions};
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
    assert!(!view.stats().vector, "2000 vertices: raster");
    assert!(view.stats().arcs_drawn > 3800, "{:?}", view.stats());
    assert!(view.stats().vertices_drawn > 0);
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
    assert_eq!(view.stats().vertices_drawn, 6000);
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

/// Timings on the bundled NY road network (264 346 vertices, 733 846 arcs). Run with
/// `cargo test --release --lib app::graph_view::tests::ny_timing -- --ignored --nocapture`.
#[test]
#[ignore]
fn ny_timing() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/USA-road-d.NY.gr.gz");
    let t = Instant::now();
    let g = Arc::new(crate::formats::load(&path, &Default::default()).expect("NY loads"));
    println!("load: {:.0} ms (n = {}, m = {})", t.elapsed().as_secs_f64() * 1e3, g.n(), g.m());
    let mut view = GraphView::new();
    let t = Instant::now();
    view.set_graph(g.clone());
    println!("set_graph: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    let scene = view.scene.as_ref().unwrap();
    println!("arcs drawn after de-duplication: {}", scene.arcs_to_draw);
    let size_px = [1280usize, 800usize];
    let fit = Camera::fit(&scene.bbox, vec2(1280.0, 800.0));
    let arc_scene = scene.arc_scene.clone().unwrap();
    let mut raster = arcs::ArcRaster::default();
    let best_of = |f: &mut dyn FnMut() -> usize| {
        let mut best = f64::MAX;
        let mut n = 0;
        for _ in 0..7 {
            let t = Instant::now();
            n = f();
            best = best.min(t.elapsed().as_secs_f64() * 1e3);
        }
        (best, n)
    };
    for zoom in [1.0, 4.0, 32.0, 512.0] {
        let cam = Camera { scale: fit.scale * zoom, ..fit };
        let key =
            ArcKey { generation: 1, xform: cam.to_pixels(size_px, 1.0), size: size_px, color: [150, 150, 150, 210] };
        let (ms, drawn) = best_of(&mut || raster.render(&arc_scene, &key).2);
        println!("arc raster 1280×800, zoom {zoom:>4}: {ms:6.2} ms ({drawn} arcs touched)");
    }
    // Vertex layer with a run half-way: Crauser to iteration 3000 of 7502.
    let opts = crate::algo::SolveOptions { record_deltas: true, ..Default::default() };
    let mut s = crate::algo::cpu_stepper(g.clone(), crate::algo::CRAUSER_SUCC, 0, &opts).unwrap();
    let mut trace = Trace::new(g.n(), 0);
    for _ in 0..3000 {
        match s.step().unwrap() {
            Some(step) => trace.push(step),
            None => break,
        }
    }
    let mut px = vec![Color32::TRANSPARENT; size_px[0] * size_px[1]];
    let mut prio = vec![0u8; px.len()];
    let mut frontier = Vec::new();
    for (mode, zoom) in [(ColorMode::Status, 1.0), (ColorMode::Distance, 1.0), (ColorMode::Status, 32.0)] {
        let cam = Camera { scale: fit.scale * zoom, ..fit };
        view.camera = cam;
        let style = view.dot_style(view.scene(), 1.0);
        let xform = cam.to_pixels(size_px, 1.0);
        let (ms, drawn) = best_of(&mut || {
            px.fill(Color32::TRANSPARENT);
            prio.fill(0);
            frontier.clear();
            let shader = Shader::new(Some(&trace), mode, distance_ramp());
            let mut splat = Splat::new(&mut px, &mut prio, size_px[0], size_px[1]);
            vertices::render(&mut splat, view.scene().placement(), &xform, &shader, &style, &mut frontier)
        });
        println!("vertex raster {mode:?}, zoom {zoom:>4}: {ms:6.2} ms ({drawn} vertices, |F| = {})", frontier.len());
    }
    // Picking.
    let scene = view.scene();
    let t = Instant::now();
    let mut found = 0;
    for i in 0..100_000u32 {
        let p = scene.pos[(i as usize * 7919) % g.n()];
        if scene.pick.nearest(&scene.pos, [p[0] + 3.0, p[1] - 2.0], 8.0 / fit.scale as f32).is_some() {
            found += 1;
        }
    }
    println!("pick: {:.2} µs per query ({found} found)", t.elapsed().as_secs_f64() * 1e6 / 100_000.0);
    // Whole frames through egui (layout and painting of the widget, no GPU): steady state, and
    // while stepping (a new state every frame).
    let mut view = GraphView::new();
    view.set_graph(g.clone());
    let mut h = Harness::new();
    let input =
        ViewInput { trace: Some(&trace), state_version: 1, wrong: None, color_mode: ColorMode::Status, live: None };
    h.settle(&mut view, &input);
    let t = Instant::now();
    for _ in 0..20 {
        h.frame(&mut view, &input, vec![]);
    }
    println!("frame, nothing changed: {:.2} ms", t.elapsed().as_secs_f64() * 1e3 / 20.0);
    let mut worst: f64 = 0.0;
    let t = Instant::now();
    for k in 0..60 {
        trace.seek(3000 - k);
        let input = ViewInput {
            trace: Some(&trace),
            state_version: 100 + k as u64,
            wrong: None,
            color_mode: ColorMode::Status,
            live: None,
        };
        let t1 = Instant::now();
        h.frame(&mut view, &input, vec![]);
        worst = worst.max(t1.elapsed().as_secs_f64() * 1e3);
    }
    println!("frame while stepping back: mean {:.2} ms, worst {worst:.2} ms", t.elapsed().as_secs_f64() * 1e3 / 60.0);
    let input =
        ViewInput { trace: Some(&trace), state_version: 1000, wrong: None, color_mode: ColorMode::Status, live: None };
    let c = view.last_rect.center();
    h.frame(&mut view, &input, vec![Event::PointerMoved(c)]);
    h.frame(&mut view, &input, vec![button(c, true)]);
    let mut worst: f64 = 0.0;
    let t = Instant::now();
    for k in 1..=60 {
        let t1 = Instant::now();
        h.frame(&mut view, &input, vec![Event::PointerMoved(c + vec2(k as f32 * 3.0, k as f32))]);
        worst = worst.max(t1.elapsed().as_secs_f64() * 1e3);
        std::thread::sleep(Duration::from_millis(8));
    }
    println!(
        "frame while dragging: mean {:.2} ms (incl. 8 ms sleep), worst {worst:.2} ms; last arc raster {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3 / 60.0,
        view.stats().arc_ms
    );
    h.frame(&mut view, &input, vec![button(c + vec2(180.0, 60.0), false)]);
    h.settle(&mut view, &input);
}

/// Renders the NY view through egui_kittest's wgpu renderer (lavapipe here) and saves PNGs to
/// `$GRAPH_VIEW_SHOTS` (default `/tmp`): fit, zoomed in, distance colours. Also times whole frames
/// including the GPU upload and draw (plus kittest's read-back of the image). Run with
/// `cargo test --release --lib app::graph_view::tests::ny_render -- --ignored --nocapture`.
#[test]
#[ignore]
fn ny_render() {
    use egui_kittest::Harness as Kit;
    let dir = std::env::var("GRAPH_VIEW_SHOTS").unwrap_or_else(|_| "/tmp".into());
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/USA-road-d.NY.gr.gz");
    let g = Arc::new(crate::formats::load(&path, &Default::default()).expect("NY loads"));
    let opts = crate::algo::SolveOptions { record_deltas: true, ..Default::default() };
    let mut s = crate::algo::cpu_stepper(g.clone(), crate::algo::CRAUSER_SUCC, 0, &opts).unwrap();
    let mut trace = Trace::new(g.n(), 0);
    for _ in 0..3000 {
        match s.step().unwrap() {
            Some(step) => trace.push(step),
            None => break,
        }
    }
    struct St {
        view: GraphView,
        trace: Trace,
        version: u64,
        mode: ColorMode,
        wrong: Vec<VertexId>,
    }
    let mut view = GraphView::new();
    view.set_graph(g.clone());
    let wrong = vec![trace.source + 5000];
    let state = St { view, trace, version: 1, mode: ColorMode::Status, wrong };
    // eframe's renderer options (kittest's default, PREDICTABLE, filters textures in the shader).
    let mut kit = Kit::builder()
        .with_size(vec2(1280.0, 800.0))
        .with_accessibility_check(false)
        .with_render_options(eframe::egui_wgpu::RendererOptions::default())
        .wgpu()
        .build_ui_state(
            |ui, st: &mut St| {
                let input = ViewInput {
                    trace: Some(&st.trace),
                    state_version: st.version,
                    wrong: Some(&st.wrong),
                    color_mode: st.mode,
                    live: None,
                };
                st.view.ui(ui, &input);
            },
            state,
        );
    let settle = |kit: &mut Kit<'_, St>| {
        for _ in 0..3 {
            kit.step();
        }
        let t0 = Instant::now();
        while !kit.state().view.is_idle() && t0.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(5));
            kit.step();
        }
        kit.step();
        kit.step();
    };
    let save = |kit: &mut Kit<'_, St>, name: &str| {
        let img = kit.render().expect("renders");
        let file = format!("{dir}/graph_view_{name}.png");
        img.save(&file).expect("saves");
        println!("saved {file}");
    };
    settle(&mut kit);
    save(&mut kit, "ny_fit");
    println!("stats at fit: {:?}", kit.state().view.stats());
    // Frames with rendering while stepping back through the run.
    let mut worst: f64 = 0.0;
    let t = Instant::now();
    for k in 0..30 {
        let st = kit.state_mut();
        st.trace.seek(3000 - k);
        st.version += 1;
        let t1 = Instant::now();
        kit.step();
        kit.render().expect("renders");
        worst = worst.max(t1.elapsed().as_secs_f64() * 1e3);
    }
    println!(
        "frame + render + read-back while stepping: mean {:.2} ms, worst {worst:.2} ms",
        t.elapsed().as_secs_f64() * 1e3 / 30.0
    );
    let (mut t_step, mut t_render) = (0.0, 0.0);
    for _ in 0..30 {
        let t = Instant::now();
        kit.step();
        t_step += t.elapsed().as_secs_f64() * 1e3;
        let t = Instant::now();
        kit.render().expect("renders");
        t_render += t.elapsed().as_secs_f64() * 1e3;
    }
    println!("nothing changed: frame {:.2} ms, render + read-back {:.2} ms", t_step / 30.0, t_render / 30.0);
    // Zoom in around the source, 16×.
    let src = kit.state().view.scene().world(0).unwrap();
    let p = kit.state().view.camera.world_to_screen(kit.state().view.last_rect, [src[0] as f64, src[1] as f64]);
    kit.hover_at(p);
    kit.step();
    for _ in 0..4 {
        kit.event(Event::Zoom(2.0));
        kit.step();
    }
    settle(&mut kit);
    save(&mut kit, "ny_zoom16");
    println!("stats at zoom 16: {:?}", kit.state().view.stats());
    for _ in 0..4 {
        kit.event(Event::Zoom(2.0));
        kit.step();
    }
    settle(&mut kit);
    save(&mut kit, "ny_zoom256");
    kit.state_mut().mode = ColorMode::Distance;
    kit.state_mut().view.fit();
    settle(&mut kit);
    save(&mut kit, "ny_distance");
}

/// Renders the small and medium test graphs (shapes, layout, cells) to PNGs for a visual check.
#[test]
#[ignore]
fn small_graphs_render() {
    use egui_kittest::Harness as Kit;
    let dir = std::env::var("GRAPH_VIEW_SHOTS").unwrap_or_else(|_| "/tmp".into());
    let cases: Vec<(&str, Arc<Graph>)> = vec![
        ("teaching", Arc::new(generate::teaching())),
        ("counterexample", Arc::new(generate::counterexample(12).unwrap())),
        ("grid", Arc::new(generate::grid(64, 48, 10, 1).unwrap())),
        ("rmat_layout", Arc::new(generate::rmat(9, 2, [0.45, 0.15, 0.15], 10, 1).unwrap())),
        ("fanout_cells", Arc::new(generate::fanout(24_576, 2, 100, 1).unwrap())),
    ];
    for (name, g) in cases {
        let opts = crate::algo::SolveOptions { record_deltas: true, ..Default::default() };
        let mut s = crate::algo::cpu_stepper(g.clone(), crate::algo::CRAUSER_SUCC, 0, &opts).unwrap();
        let mut trace = Trace::new(g.n(), 0);
        for _ in 0..3 {
            if let Some(step) = s.step().unwrap() {
                trace.push(step);
            }
        }
        let mut view = GraphView::new();
        view.set_graph(g.clone());
        view.order_by_distance = name == "fanout_cells";
        let mut kit =
            Kit::builder().with_size(vec2(900.0, 600.0)).with_accessibility_check(false).wgpu().build_ui_state(
                |ui, st: &mut (GraphView, Trace)| {
                    let input = ViewInput {
                        trace: Some(&st.1),
                        state_version: 1,
                        wrong: Some(&[1]),
                        color_mode: ColorMode::Status,
                        live: None,
                    };
                    st.0.ui(ui, &input);
                },
                (view, trace),
            );
        for _ in 0..3 {
            kit.step();
        }
        let t0 = Instant::now();
        while !kit.state().0.is_idle() && t0.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(10));
            kit.step();
        }
        // Hover vertex 1 for the tooltip.
        let w = kit.state().0.scene().world(1).unwrap();
        let p = kit.state().0.camera.world_to_screen(kit.state().0.last_rect, [w[0] as f64, w[1] as f64]);
        kit.hover_at(p);
        kit.step();
        kit.step();
        let img = kit.render().expect("renders");
        let file = format!("{dir}/graph_view_{name}.png");
        img.save(&file).expect("saves");
        println!("saved {file}: {:?}", kit.state().0.stats());
    }
}

/// Baseline for `ny_render`: what kittest's render + read-back costs for a plain label.
#[test]
#[ignore]
fn kittest_baseline() {
    use egui_kittest::Harness as Kit;
    let mut kit = Kit::builder().with_size(vec2(1280.0, 800.0)).with_accessibility_check(false).wgpu().build_ui(|ui| {
        ui.label("hello");
    });
    kit.step();
    kit.render().unwrap();
    let t = Instant::now();
    for _ in 0..10 {
        kit.step();
        kit.render().unwrap();
    }
    println!("kittest frame + render + read-back of a label: {:.2} ms", t.elapsed().as_secs_f64() * 1e3 / 10.0);
    let mut kit = Kit::builder().with_size(vec2(1280.0, 800.0)).with_accessibility_check(false).wgpu().build_ui(|ui| {
        ui.painter().rect_filled(ui.max_rect(), 0.0, Color32::from_rgba_premultiplied(40, 40, 40, 128));
    });
    kit.step();
    kit.render().unwrap();
    let t = Instant::now();
    for _ in 0..10 {
        kit.step();
        kit.render().unwrap();
    }
    println!("kittest full-window translucent rect: {:.2} ms", t.elapsed().as_secs_f64() * 1e3 / 10.0);
    for (name, opts) in [("linear", TextureOptions::LINEAR), ("nearest", TextureOptions::NEAREST)] {
        for layers in [1, 2] {
            let mut tex: Option<TextureHandle> = None;
            let mut kit = Kit::builder()
                .with_size(vec2(1280.0, 800.0))
                .with_accessibility_check(false)
                .with_render_options(eframe::egui_wgpu::RendererOptions::default())
                .wgpu()
                .build_ui(|ui| {
                    let t = tex.get_or_insert_with(|| {
                        let img = ColorImage::filled([1280, 800], Color32::from_rgba_premultiplied(40, 40, 40, 128));
                        ui.ctx().load_texture("t", img, opts)
                    });
                    let uv = Rect::from_min_max(pos2(0.0, 0.0), pos2(1.0, 1.0));
                    for _ in 0..layers {
                        ui.painter().image(t.id(), ui.max_rect(), uv, Color32::WHITE);
                    }
                });
            kit.step();
            kit.render().unwrap();
            let t = Instant::now();
            for _ in 0..10 {
                kit.step();
                kit.render().unwrap();
            }
            println!("{layers} full-window {name} texture(s): {:.2} ms", t.elapsed().as_secs_f64() * 1e3 / 10.0);
        }
    }
}

/// Timings of the aggregated raster on a 2²⁰-vertex Martín graph (no coordinates). Run with
/// `cargo test --release --lib app::graph_view::tests::cells_timing -- --ignored --nocapture`.
#[test]
#[ignore]
fn cells_timing() {
    let g = Arc::new(generate::martin(1 << 20, 1).unwrap());
    let mut view = GraphView::new();
    let t = Instant::now();
    view.set_graph(g.clone());
    println!("set_graph: {:.1} ms, mode {:?}", t.elapsed().as_secs_f64() * 1e3, view.mode());
    let opts = crate::algo::SolveOptions { record_deltas: true, ..Default::default() };
    let mut s = crate::algo::cpu_stepper(g.clone(), crate::algo::CRAUSER_SUCC, 0, &opts).unwrap();
    let mut trace = Trace::new(g.n(), 0);
    for _ in 0..20 {
        if let Some(step) = s.step().unwrap() {
            trace.push(step);
        }
    }
    let mut h = Harness::new();
    {
        let input =
            ViewInput { trace: Some(&trace), state_version: 1, wrong: None, color_mode: ColorMode::Status, live: None };
        h.settle(&mut view, &input);
    }
    println!("fit: {:?}", view.stats());
    let mut worst: f32 = 0.0;
    for k in 0..20 {
        trace.seek(20 - k);
        let input = ViewInput {
            trace: Some(&trace),
            state_version: 10 + k as u64,
            wrong: None,
            color_mode: ColorMode::Status,
            live: None,
        };
        h.frame(&mut view, &input, vec![]);
        worst = worst.max(view.stats().ui_ms);
    }
    println!("stepping back: worst view frame {worst:.2} ms, vertex raster {:.2} ms", view.stats().vertex_ms);
    view.order_by_distance = true;
    let t = Instant::now();
    let input =
        ViewInput { trace: Some(&trace), state_version: 99, wrong: None, color_mode: ColorMode::Status, live: None };
    h.settle(&mut view, &input);
    println!("order by δ (background sort of 2²⁰): {:.0} ms until shown", t.elapsed().as_secs_f64() * 1e3);
}
