//! The GPU view's headless frame benchmark (issue 15): the app's scripted frame sequence driven
//! through egui_kittest, so it runs where there is a GPU but no display (the lent GPU machine).

use super::super::{ColorMode, GraphView, ViewInput};
use super::tests::shared_render_state;
use crate::generate;
use crate::trace::Trace;
use eframe::egui_wgpu;
use egui::vec2;
use egui_kittest::Harness as Kit;
use std::sync::Arc;
use std::time::Instant;

/// What eframe does with a frame after the UI pass, minus the swapchain: tessellate, let the
/// paint callbacks prepare (egui-wgpu runs them in `update_buffers`), encode the pass into a
/// target kept across frames, submit and wait for the GPU. Unlike `Harness::render` there is no
/// read-back of the image (about 10 ms a frame on the GPU machine, which a window never pays).
/// Returns the milliseconds of [tessellation, prepare, encode + submit + GPU].
fn present(
    rs: &egui_wgpu::RenderState,
    ctx: &egui::Context,
    output: &egui::FullOutput,
    target: &wgpu::TextureView,
    size: [u32; 2],
) -> [f64; 3] {
    let t0 = Instant::now();
    let ppp = ctx.pixels_per_point();
    let jobs = ctx.tessellate(output.shapes.clone(), ppp);
    let t1 = Instant::now();
    let screen = egui_wgpu::ScreenDescriptor { size_in_pixels: size, pixels_per_point: ppp };
    let mut renderer = rs.renderer.write();
    let mut encoder = rs.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("bench frame") });
    let user = renderer.update_buffers(&rs.device, &rs.queue, &mut encoder, &jobs, &screen);
    let t2 = Instant::now();
    {
        let mut pass = encoder
            .begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("bench frame"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: target,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Store,
                    },
                    depth_slice: None,
                })],
                ..Default::default()
            })
            .forget_lifetime();
        renderer.render(&mut pass, &jobs, &screen);
    }
    rs.queue.submit(user.into_iter().chain(std::iter::once(encoder.finish())));
    let wait = wgpu::PollType::Wait { submission_index: None, timeout: Some(std::time::Duration::from_secs(30)) };
    rs.device.poll(wait).expect("the GPU finishes the frame");
    let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1e3;
    [ms(t0, t1), ms(t1, t2), ms(t2, Instant::now())]
}

/// Headless frame times of the GPU view: the frame benchmark's scripted sequence (idle, pan,
/// zoom in 10×, pan zoomed, zoom out, one solver iteration per frame) on a 1400 × 900 target.
/// A frame's time is `run_steps(1)` (the UI pass) plus [`present`]; each frame's parts are
/// logged too. A benchmark, not a test: `--ignored`, and only with
/// `SSSP_LAB_HEADLESS_BENCH=ny|grid:W:H|FILE` and `SSSP_LAB_FRAME_LOG=out.json`.
/// `SSSP_LAB_HEADLESS_SOLVER` picks the solver: `cpu` (default), `wgpu` (on the render
/// state's device, drawn zero-copy) or `wgpu-host` (the same, drawn through the host path).
#[test]
#[ignore]
fn headless_frame_bench() {
    let (Ok(which), Ok(out)) = (std::env::var("SSSP_LAB_HEADLESS_BENCH"), std::env::var("SSSP_LAB_FRAME_LOG")) else {
        eprintln!("set SSSP_LAB_HEADLESS_BENCH and SSSP_LAB_FRAME_LOG");
        return;
    };
    let t_load = Instant::now();
    let g = if let Some(dims) = which.strip_prefix("grid:") {
        let dims: Vec<usize> = dims.split(':').map(|x| x.parse().expect("W:H")).collect();
        Arc::new(generate::grid(dims[0], dims[1], 10, 1).expect("grid"))
    } else {
        // `ny` (the bundled default) or a graph file.
        let path = match which.as_str() {
            "ny" => std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/USA-road-d.NY.gr.gz"),
            p => p.into(),
        };
        Arc::new(crate::formats::load(&path, &Default::default()).expect("the graph loads"))
    };
    let load_s = t_load.elapsed().as_secs_f64();
    let opts = crate::algo::SolveOptions { record_deltas: true, ..Default::default() };
    let solver = std::env::var("SSSP_LAB_HEADLESS_SOLVER").unwrap_or_else(|_| "cpu".into());
    let (rs, mut stepper) = if solver.starts_with("wgpu") {
        let (rs, index) = shared_render_state();
        let device = crate::device::DeviceId::Wgpu(index);
        (rs, crate::device::make_stepper(device, g.clone(), crate::algo::CRAUSER_SUCC, 0, &opts).expect("stepper"))
    } else {
        let rs = egui_kittest::wgpu::create_render_state(
            egui_kittest::wgpu::default_wgpu_setup(),
            egui_wgpu::RendererOptions::PREDICTABLE,
        );
        (rs, crate::algo::cpu_stepper(g.clone(), crate::algo::CRAUSER_SUCC, 0, &opts).expect("stepper"))
    };
    let zero_copy = solver == "wgpu";
    let mut view = GraphView::new();
    let t_scene = Instant::now();
    view.set_graph(g.clone());
    let set_graph_s = t_scene.elapsed().as_secs_f64();
    eprintln!("load {load_s:.2} s, set_graph {set_graph_s:.2} s");
    let adapter = format!("{:?}", rs.adapter.get_info());
    // The harness's renderer shares the render state's egui renderer, so the textures it
    // uploads (fonts) are the ones `present` draws with.
    let renderer = egui_kittest::wgpu::WgpuTestRenderer::from_render_state(rs.clone());
    let size = [1400u32, 900];
    let target = rs.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("bench target"),
        size: wgpu::Extent3d { width: size[0], height: size[1], depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: rs.target_format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let target = target.create_view(&wgpu::TextureViewDescriptor::default());
    struct B {
        view: GraphView,
        trace: Trace,
        rs: egui_wgpu::RenderState,
        version: u64,
        live: Option<crate::algo::DeviceVertexState>,
    }
    let state = B { view, trace: Trace::new(g.n(), 0), rs, version: 1, live: None };
    let mut kit = Kit::builder()
        .with_size(vec2(1400.0, 900.0))
        .with_accessibility_check(false)
        .renderer(renderer)
        .build_ui_state(
            |ui, st: &mut B| {
                super::provide(ui.ctx(), &st.rs);
                let input = ViewInput {
                    trace: Some(&st.trace),
                    state_version: st.version,
                    wrong: None,
                    color_mode: ColorMode::Status,
                    live: st.live.as_ref(),
                };
                st.view.ui(ui, &input);
            },
            state,
        );
    // Ten iterations first, so the steps below have a frontier to colour.
    for _ in 0..10 {
        if let Some(step) = stepper.step().expect("step") {
            kit.state_mut().trace.push(step);
        }
    }
    kit.state_mut().version += 1;
    if zero_copy {
        kit.state_mut().live = stepper.device_state();
    }
    use super::super::super::frame_bench::{PHASES, Sample, summaries};
    let mut frames: Vec<Sample> = Vec::new();
    let mut parts: Vec<[f64; 3]> = Vec::new();
    let rs = kit.state().rs.clone();
    let mut frame = |kit: &mut Kit<'static, B>, phase: &'static str| {
        let t = Instant::now();
        kit.run_steps(1);
        let ui_ms = t.elapsed().as_secs_f64() * 1e3;
        parts.push(present(&rs, &kit.ctx, kit.output(), &target, size));
        frames.push(Sample { phase, frame_ms: t.elapsed().as_secs_f64() * 1e3, ui_ms, stage: None });
    };
    let t_prep = Instant::now();
    kit.run_steps(1);
    while !kit.state().view.is_idle() {
        assert!(t_prep.elapsed().as_secs() < 600, "the view stays busy");
        frame(&mut kit, "prepare");
    }
    for (phase, count) in PHASES {
        for i in 0..count {
            let t = i as f32 / 20.0;
            match phase {
                "pan" | "pan-zoomed" => kit.state_mut().view.pan_by(vec2(t.cos(), t.sin()) * 12.0),
                "zoom-in" => kit.state_mut().view.zoom_by(1.04),
                "zoom-out" => kit.state_mut().view.zoom_by(1.0 / 1.04),
                "step" => {
                    if let Some(step) = stepper.step().expect("step") {
                        let live = if zero_copy { stepper.device_state() } else { None };
                        let st = kit.state_mut();
                        st.trace.push(step);
                        st.version += 1;
                        st.live = live;
                    }
                }
                _ => {}
            }
            frame(&mut kit, phase);
        }
    }
    let summary = summaries(&frames);
    for s in &summary {
        eprintln!("{}", serde_json::to_string(s).unwrap_or_default());
    }
    let st = kit.state().view.stats();
    let (arcs, dots) = kit.state().view.gpu_layers();
    let doc = serde_json::json!({
        "graph": g.name, "n": g.n(), "m": g.m(), "load_s": load_s, "set_graph_s": set_graph_s, "adapter": adapter,
        "solver": stepper.device(), "zero_copy": st.zero_copy,
        "window": [1400, 900], "gpu": st.gpu, "arcs_drawn": st.arcs_drawn,
        "last_frame_layers": [arcs, dots],
        "summary": summary, "frames": frames,
        "frame_parts": {"columns": ["tessellate_ms", "prepare_ms", "gpu_ms"], "rows": parts},
    });
    std::fs::write(&out, serde_json::to_string_pretty(&doc).expect("json")).expect("write the frame log");
}
