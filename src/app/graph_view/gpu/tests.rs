//! The GPU view through egui_kittest's wgpu renderer (lavapipe on CI machines): egui-wgpu's
//! `Renderer` runs paint callbacks, so the snapshot is the picture the app shows.

use super::super::{ColorMode, GraphView, ViewInput, ViewMode};
use crate::generate;
use crate::trace::Trace;
use eframe::egui_wgpu;
use egui::vec2;
use egui_kittest::Harness as Kit;
use std::sync::Arc;

/// A usable wgpu adapter, or None (the test is then skipped, as the app tests do, unless
/// `SSSP_LAB_REQUIRE_GPU` names wgpu).
fn have_wgpu() -> bool {
    let ok = crate::device::wgpu::list().iter().any(|d| d.status.is_ok());
    if !ok {
        let require = std::env::var("SSSP_LAB_REQUIRE_GPU").unwrap_or_default();
        assert!(!require.contains("wgpu"), "SSSP_LAB_REQUIRE_GPU={require} but no usable wgpu adapter");
        eprintln!("no usable wgpu adapter: skipped");
    }
    ok
}

struct St {
    view: GraphView,
    trace: Trace,
    rs: egui_wgpu::RenderState,
    wrong: Vec<u32>,
}

/// A kittest harness drawing `g` with a run from `source` stepped `steps` times, through a render state the
/// view can see (as the app provides eframe's).
fn harness(g: Arc<crate::graph::Graph>, source: u32, steps: usize) -> Kit<'static, St> {
    let trace = stepped_trace(&g, source, steps);
    let mut view = GraphView::new();
    view.set_graph(g);
    let rs = egui_kittest::wgpu::create_render_state(
        egui_kittest::wgpu::default_wgpu_setup(),
        egui_wgpu::RendererOptions::PREDICTABLE,
    );
    let renderer = egui_kittest::wgpu::WgpuTestRenderer::from_render_state(rs.clone());
    let state = St { view, trace, rs, wrong: vec![7] };
    Kit::builder().with_size(vec2(640.0, 480.0)).with_accessibility_check(false).renderer(renderer).build_ui_state(
        |ui, st: &mut St| {
            super::provide(ui.ctx(), &st.rs);
            let input = ViewInput {
                trace: Some(&st.trace),
                state_version: 1,
                wrong: Some(&st.wrong),
                color_mode: ColorMode::Status,
                live: None,
            };
            st.view.ui(ui, &input);
        },
        state,
    )
}

/// A CPU Crauser run on `g` from `source`, stepped `steps` times (or to its end).
fn stepped_trace(g: &Arc<crate::graph::Graph>, source: u32, steps: usize) -> Trace {
    let opts = crate::algo::SolveOptions { record_deltas: true, ..Default::default() };
    let mut s = crate::algo::cpu_stepper(g.clone(), crate::algo::CRAUSER_SUCC, source, &opts).expect("stepper");
    let mut trace = Trace::new(g.n(), source);
    for _ in 0..steps {
        match s.step().expect("step") {
            Some(step) => trace.push(step),
            None => break,
        }
    }
    trace
}

/// The view of a harness's state.
trait HasView {
    fn view(&self) -> &GraphView;
}

impl HasView for St {
    fn view(&self) -> &GraphView {
        &self.view
    }
}

impl HasView for Live {
    fn view(&self) -> &GraphView {
        &self.view
    }
}

/// Frames until the view has nothing pending (its sorting worker, density and status builds),
/// at most 30 s.
fn run_until_idle<S: HasView>(kit: &mut Kit<'static, S>) {
    let t = std::time::Instant::now();
    kit.run_steps(2);
    while !kit.state().view().is_idle() {
        assert!(t.elapsed().as_secs() < 30, "the view stays busy");
        std::thread::sleep(std::time::Duration::from_millis(5));
        kit.run_steps(1);
        // The renderer runs the paint callbacks (and with them the density build) only here.
        let _ = kit.render();
    }
    kit.run_steps(1);
}

#[test]
fn buffers_follow_the_device_limits() {
    // wgpu's default 256 MiB: the 16.8 M-vertex grid's positions (128 MiB) fit, arcs go in
    // 8 MiB chunks.
    let plan = super::BufferPlan::new(4096 * 4096, 256 << 20, 128 << 20).expect("fits");
    assert_eq!(plan.chunk_pairs, (8 << 20) / 8);
    assert_eq!(plan.budget_pairs, (2usize << 30) / 8);
    assert_eq!(plan.window, 4096 * 4096, "lavapipe's 128 MiB bindings hold the grid's positions");
    // Beyond a storage binding: drawn, the splat goes by windows of whole 64-slot blocks.
    let plan = super::BufferPlan::new(5000 * 5000, 1 << 31, 128 << 20).expect("fits");
    assert_eq!(plan.window, 4096 * 4096);
    assert_eq!(super::BufferPlan::new(100, 1 << 20, 1000).expect("fits").window, 64);
    // A small device: chunks shrink to its limit; too many vertices is a reason, not a panic.
    assert_eq!(super::BufferPlan::new(500, 4096, 4096).expect("fits").chunk_pairs, 512);
    let e = super::BufferPlan::new(1 << 20, 1 << 20, 1 << 20).expect_err("8 MiB of positions on a 1 MiB device");
    assert!(e.contains("max_buffer_size"), "{e}");
}

#[test]
fn gpu_view_of_a_grid_with_coordinates_matches_its_snapshot() {
    if !have_wgpu() {
        return;
    }
    // 3 600 vertices: above the shapes' limit, so the GPU path draws it.
    let g = Arc::new(generate::grid(60, 60, 10, 1).expect("grid"));
    let mut kit = harness(g.clone(), 30 * 60 + 30, 60);
    run_until_idle(&mut kit);
    let st = kit.state().view.stats();
    assert!(st.gpu && !st.vector, "{st:?}");
    assert_eq!(st.vertices_drawn, g.n());
    assert_eq!(st.arcs_drawn, kit.state().view.scene.as_ref().map_or(0, |s| s.arcs_to_draw));
    assert!(kit.state().view.is_idle(), "nothing is pending");
    kit.snapshot("graph_view_gpu_grid");
}

#[test]
fn gpu_view_of_cells_matches_its_snapshot() {
    if !have_wgpu() {
        return;
    }
    // No coordinates and more than the layout's limit: one cell per vertex.
    let g = Arc::new(generate::rmat(13, 4, [0.45, 0.15, 0.15], 10, 3).expect("rmat"));
    let mut kit = harness(g.clone(), 0, 2);
    run_until_idle(&mut kit);
    assert_eq!(kit.state().view.mode(), Some(ViewMode::Raster));
    assert!(kit.state().view.stats().gpu);
    kit.snapshot("graph_view_gpu_cells");
}

#[test]
fn gpu_view_keeps_drawing_while_the_force_layout_moves() {
    if !have_wgpu() {
        return;
    }
    // 3 000 vertices without coordinates: above the shapes' limit, within the force layout's,
    // so each layout snapshot is sorted again on a worker while the last one is drawn.
    let g = Arc::new(generate::rmat(11, 4, [0.45, 0.15, 0.15], 10, 5).expect("rmat"));
    assert!(g.coords().is_none());
    let mut kit = harness(g, 0, 3);
    let t = std::time::Instant::now();
    let mut drawn = false;
    let mut frames = 0;
    while !kit.state().view.is_idle() || !drawn {
        assert!(t.elapsed().as_secs() < 60, "the view stays busy");
        kit.run_steps(1);
        let _ = kit.render();
        frames += 1;
        let layers = kit.state().view.gpu_layers();
        if drawn {
            assert_ne!(layers.1, "nothing", "frame {frames}: a layout snapshot blanked the view");
        }
        drawn |= layers.1 != "nothing";
    }
    assert_eq!(kit.state().view.mode(), Some(ViewMode::Layout));
    assert!(frames > 3, "the layout moved for {frames} frames");
}

#[test]
fn gpu_view_of_ny_matches_its_snapshot() {
    if !have_wgpu() {
        return;
    }
    // The bundled NY road network (264 346 vertices, 366 923 arcs drawn), part-way through a run.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/USA-road-d.NY.gr.gz");
    let g = Arc::new(crate::formats::load(&path, &Default::default()).expect("NY loads"));
    let mut kit = harness(g.clone(), 0, 800);
    run_until_idle(&mut kit);
    let st = kit.state().view.stats();
    assert!(st.gpu, "{st:?}");
    assert_eq!(st.arcs_drawn, 366_923);
    kit.snapshot("graph_view_gpu_ny");
}

/// A render state on the adapter kittest picks, its device requested as the app requests the
/// window's, and lent to the wgpu solvers of that adapter as the app lends it
/// (`device::wgpu::share_device`); returns the adapter's index among the wgpu devices.
pub(super) fn shared_render_state() -> (egui_wgpu::RenderState, u32) {
    let mut setup = egui_kittest::wgpu::default_wgpu_setup();
    if let egui_wgpu::WgpuSetup::CreateNew(c) = &mut setup {
        c.device_descriptor = Arc::new(crate::device::wgpu::device_descriptor);
    }
    let rs = egui_kittest::wgpu::create_render_state(setup, egui_wgpu::RendererOptions::PREDICTABLE);
    let index = crate::device::wgpu::share_device(&rs.adapter.get_info(), rs.device.clone(), rs.queue.clone())
        .expect("kittest's adapter is one of the usable wgpu adapters");
    (rs, index)
}

struct Live {
    view: GraphView,
    trace: Trace,
    rs: egui_wgpu::RenderState,
    live: Option<crate::algo::DeviceVertexState>,
    mode: ColorMode,
    version: u64,
    wrong: Vec<u32>,
}

/// The harness's picture once the view has settled (the first render after a change can still
/// run a build in its paint callbacks).
/// RGBA bytes and width.
fn settled_picture<S>(kit: &mut Kit<'static, S>) -> (Vec<u8>, u32) {
    let _ = kit.render();
    let image = kit.render().expect("render");
    let width = image.width();
    (image.into_raw(), width)
}

/// Asserts that two pictures ([`settled_picture`]) are equal pixel for pixel.
fn assert_same_picture(a: &(Vec<u8>, u32), b: &(Vec<u8>, u32), what: &str) {
    let differ = differing_pixels(&a.0, &b.0, a.1, 0);
    assert_eq!(differ, 0, "{differ} pixels differ between {what}");
}

/// RGBA pixels that differ between two renders `width` pixels wide, from row `top` down.
fn differing_pixels(a: &[u8], b: &[u8], width: u32, top: u32) -> usize {
    let skip = (width * top) as usize;
    a.chunks(4).zip(b.chunks(4)).skip(skip).filter(|(p, q)| p != q).count()
}

fn live_harness(st: Live) -> Kit<'static, Live> {
    let renderer = egui_kittest::wgpu::WgpuTestRenderer::from_render_state(st.rs.clone());
    Kit::builder().with_size(vec2(640.0, 480.0)).with_accessibility_check(false).renderer(renderer).build_ui_state(
        |ui, st: &mut Live| {
            super::provide(ui.ctx(), &st.rs);
            let input = ViewInput {
                trace: Some(&st.trace),
                state_version: st.version,
                wrong: Some(&st.wrong),
                color_mode: st.mode,
                live: st.live.as_ref(),
            };
            st.view.ui(ui, &input);
        },
        st,
    )
}

#[test]
fn zero_copy_colours_equal_the_host_path() {
    if !have_wgpu() {
        return;
    }
    // A wgpu solver stepped on the window's device: the view reads its δ and stamps. The
    // picture must be the one the host path draws from the trace, in both colour modes.
    let g = Arc::new(generate::grid(60, 60, 10, 1).expect("grid"));
    let source = 30 * 60 + 30;
    let (rs, index) = shared_render_state();
    let opts = crate::algo::SolveOptions { record_deltas: true, ..Default::default() };
    let device = crate::device::DeviceId::Wgpu(index);
    let mut s = crate::device::make_stepper(device, g.clone(), crate::algo::CRAUSER_SUCC, source, &opts)
        .expect("a wgpu stepper on the shared device");
    let mut trace = Trace::new(g.n(), source);
    for _ in 0..25 {
        if let Some(step) = s.step().expect("step") {
            trace.push(step);
        }
    }
    let live = s.device_state().expect("a stepped wgpu solver shows its buffers");
    assert!(live.device == rs.device, "the solver runs on the window's device");
    assert_eq!(live.iterations as usize, trace.pos());
    let mut view = GraphView::new();
    view.set_graph(g.clone());
    let st =
        Live { view, trace, rs: rs.clone(), live: None, mode: ColorMode::Status, version: 1, wrong: vec![7, 1000] };
    let mut kit = live_harness(st);
    run_until_idle(&mut kit);
    for mode in [ColorMode::Status, ColorMode::Distance] {
        let st = kit.state_mut();
        (st.mode, st.live) = (mode, Some(live.clone()));
        st.version += 1;
        kit.run_steps(1);
        assert!(kit.state().view.stats().zero_copy, "{mode:?}: the words came from the solver");
        let zero_copy = kit.render().expect("render");
        // The same state through the host path (no live buffers).
        kit.state_mut().live = None;
        kit.state_mut().version += 1;
        kit.run_steps(1);
        assert!(!kit.state().view.stats().zero_copy);
        let host = kit.render().expect("render");
        if let Ok(dir) = std::env::var("SSSP_LAB_DUMP") {
            let _ = zero_copy.save(format!("{dir}/zc-{mode:?}.png"));
            let _ = host.save(format!("{dir}/host-{mode:?}.png"));
        }
        // Below the overlay line, which names the path.
        let differ = differing_pixels(zero_copy.as_raw(), host.as_raw(), zero_copy.width(), 48);
        assert_eq!(differ, 0, "{mode:?}: {differ} pixels differ between zero-copy and host colouring");
    }
    // A step back leaves the solver ahead of the cursor: the host path draws it.
    let st = kit.state_mut();
    st.live = Some(live.clone());
    st.trace.back();
    st.version += 1;
    kit.run_steps(1);
    assert!(!kit.state().view.stats().zero_copy, "the solver's state is not the cursor's");
}

#[test]
fn stepping_recolours_from_the_deltas_as_a_full_pack_would() {
    if !have_wgpu() {
        return;
    }
    // Steps forward and back recolour only what the trace's deltas touched; the picture must be
    // the one a fresh view packs in full from the same state.
    let g = Arc::new(generate::grid(60, 60, 10, 1).expect("grid"));
    let source = 30 * 60 + 30;
    let opts = crate::algo::SolveOptions { record_deltas: true, ..Default::default() };
    let mut s = crate::algo::cpu_stepper(g.clone(), crate::algo::CRAUSER_SUCC, source, &opts).expect("stepper");
    let mut view = GraphView::new();
    view.set_graph(g.clone());
    let rs = egui_kittest::wgpu::create_render_state(
        egui_kittest::wgpu::default_wgpu_setup(),
        egui_wgpu::RendererOptions::PREDICTABLE,
    );
    let st = Live {
        view,
        trace: Trace::new(g.n(), source),
        rs,
        live: None,
        mode: ColorMode::Status,
        version: 1,
        wrong: Vec::new(),
    };
    let mut kit = live_harness(st);
    run_until_idle(&mut kit);
    assert_eq!(kit.state().view.gpu.words_path, super::WordsPath::Full);
    for i in 0..40 {
        let st = kit.state_mut();
        if i % 5 == 4 {
            st.trace.back();
        } else if let Some(step) = s.step().expect("step") {
            st.trace.push(step);
        }
        st.version += 1;
        kit.run_steps(1);
        assert_eq!(kit.state().view.gpu.words_path, super::WordsPath::Deltas, "step {i}");
    }
    let _ = kit.render();
    let stepped = kit.render().expect("render");
    // A new view of the same state packs everything.
    let mut fresh = GraphView::new();
    fresh.set_graph(g.clone());
    kit.state_mut().view = fresh;
    kit.state_mut().version += 1;
    run_until_idle(&mut kit);
    assert_eq!(kit.state().view.gpu.words_path, super::WordsPath::Full);
    let full = kit.render().expect("render");
    let differ = differing_pixels(stepped.as_raw(), full.as_raw(), stepped.width(), 0);
    assert_eq!(differ, 0, "{differ} pixels differ between delta recolouring and a full pack");
}

#[test]
fn staged_preparation_draws_what_one_frame_would() {
    if !have_wgpu() {
        return;
    }
    // The staging of large graphs (first touches a few KiB per frame, the colour words packed
    // 1 000 vertices per frame) forced on a small one: the picture must be the one a view that
    // uploads everything in one frame draws, wrong vertices (in the first and the last slice)
    // included.
    let g = Arc::new(generate::grid(60, 60, 10, 1).expect("grid"));
    let source = 30 * 60 + 30;
    let trace = stepped_trace(&g, source, 30);
    let rs = egui_kittest::wgpu::create_render_state(
        egui_kittest::wgpu::default_wgpu_setup(),
        egui_wgpu::RendererOptions::PREDICTABLE,
    );
    let mut view = GraphView::new();
    view.set_graph(g.clone());
    let st = Live { view, trace, rs, live: None, mode: ColorMode::Status, version: 1, wrong: vec![7, 3500] };
    let mut kit = live_harness(st);
    run_until_idle(&mut kit);
    let at_once = settled_picture(&mut kit);

    let mut staged = GraphView::new();
    // 8 steps of 250 vertices stay under n: the colour words' fill takes several frames.
    staged.gpu.stages = super::staging::Stages { min_n: 0, op_bytes: 4096, fill_slice: 250 };
    staged.set_graph(g.clone());
    kit.state_mut().view = staged;
    kit.state_mut().version += 1;
    let mut notes = std::collections::BTreeSet::new();
    let t = std::time::Instant::now();
    kit.run_steps(2);
    while !kit.state().view.is_idle() {
        assert!(t.elapsed().as_secs() < 30, "the view stays busy");
        if let Some(n) = &kit.state().view.gpu.note {
            notes.insert(n.split(',').next().unwrap_or_default().to_string());
        }
        kit.run_steps(1);
        let _ = kit.render();
    }
    kit.run_steps(1);
    for stage in ["GPU view: uploading the graph", "GPU view: colouring the vertices"] {
        assert!(notes.contains(stage), "no frame said {stage:?}: {notes:?}");
    }
    assert_eq!(kit.state().view.gpu.words_path, super::WordsPath::Full);
    let staged = settled_picture(&mut kit);
    assert_same_picture(&at_once, &staged, "the staged and the one-frame preparation");
}

#[test]
fn a_graph_beyond_a_storage_binding_is_splatted_by_windows() {
    if !have_wgpu() {
        return;
    }
    // The status grid's splat binds positions and words a window at a time, so a graph whose
    // positions exceed the device's storage binding (lavapipe's 128 MiB: 16.8 M vertices) still
    // gets its aggregates. Drawn as cells (one status texel a vertex, 44 KiB of grid), 8 192
    // vertices have 64 KiB of positions: a device with 48 KiB bindings splats them in two
    // windows, and the picture must be the one a device with whole bindings draws.
    let g = Arc::new(generate::rmat(13, 4, [0.45, 0.15, 0.15], 10, 3).expect("rmat"));
    let source = 0;
    let limit: u64 = 48 << 10;
    assert!(g.n() as u64 * 8 > limit);
    let picture = |max_binding: Option<u64>| {
        let mut setup = egui_kittest::wgpu::default_wgpu_setup();
        if let (Some(m), egui_wgpu::WgpuSetup::CreateNew(c)) = (max_binding, &mut setup) {
            c.device_descriptor = Arc::new(move |a: &wgpu::Adapter| {
                let mut d = crate::device::wgpu::device_descriptor(a);
                d.required_limits.max_storage_buffer_binding_size = m;
                d
            });
        }
        let rs = egui_kittest::wgpu::create_render_state(setup, egui_wgpu::RendererOptions::PREDICTABLE);
        if let Some(m) = max_binding {
            assert_eq!(rs.device.limits().max_storage_buffer_binding_size, m, "the device takes the small limit");
        }
        let trace = stepped_trace(&g, source, 30);
        let mut view = GraphView::new();
        view.set_graph(g.clone());
        let st = Live { view, trace, rs, live: None, mode: ColorMode::Status, version: 1, wrong: vec![7] };
        let mut kit = live_harness(st);
        kit.run_steps(2);
        // The vertices from the status grid, which the splat builds.
        kit.state_mut().view.gpu.budgets.arcs = 0;
        kit.state_mut().view.gpu.budgets.dots = 0;
        run_until_idle(&mut kit);
        let gpu = &kit.state().view.gpu;
        assert_eq!(gpu.last.1, "aggregate", "{:?} {:?}", gpu.failed, gpu.note);
        settled_picture(&mut kit)
    };
    let whole = picture(None);
    let windows = picture(Some(limit));
    assert_same_picture(&whole, &windows, "whole and windowed bindings");
}
