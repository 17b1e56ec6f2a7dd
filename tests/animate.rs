//! Animated GIFs of a run (issue 28 item 8): the recorder's frames decode with the same crate,
//! come in the expected number and size, and the last frame shows every vertex in the colour
//! of its final status; `sssp-lab solve --animate` writes the same from the command line.

use sssp_lab::algo::{CRAUSER_SUCC, SolveOptions, VertexStatus};
use sssp_lab::device::{DeviceId, make_stepper};
use sssp_lab::generate::GeneratorSpec;
use sssp_lab::graph::Graph;
use sssp_lab::trace::Trace;
use sssp_lab::trace::animate::{self, Options, Painter, Size};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

/// Every frame of a GIF as RGBA, with its size.
fn decode(bytes: &[u8]) -> (u16, u16, Vec<Vec<u8>>) {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut dec = opts.read_info(bytes).expect("a GIF header");
    let (w, h) = (dec.width(), dec.height());
    let mut frames = Vec::new();
    while let Some(f) = dec.read_next_frame().expect("a frame") {
        assert_eq!((f.width, f.height, f.left, f.top), (w, h, 0, 0), "full frames");
        frames.push(f.buffer.to_vec());
    }
    (w, h, frames)
}

/// A finished CPU run of `graph` from `source`, every delta kept.
fn run(graph: &Arc<Graph>, source: u32) -> Trace {
    let opts = SolveOptions { record_deltas: true, ..SolveOptions::default() };
    let mut stepper = make_stepper(DeviceId::Cpu, graph.clone(), CRAUSER_SUCC, source, &opts).expect("a stepper");
    let mut trace = Trace::new(graph.n(), source);
    while let Some(step) = stepper.step().expect("a step") {
        trace.push(step);
    }
    trace.set_finished();
    trace
}

fn pixel(frame: &[u8], w: u16, (x, y): (usize, usize)) -> [u8; 3] {
    let i = (y * w as usize + x) * 4;
    [frame[i], frame[i + 1], frame[i + 2]]
}

#[test]
fn a_run_becomes_a_gif_whose_last_frame_shows_the_final_statuses() {
    // A grid with coordinates: the frame places its vertices apart.
    let graph = Arc::new(GeneratorSpec::Grid { width: 6, height: 5, max_weight: 9, seed: 3 }.generate().expect("grid"));
    let trace = run(&graph, 7);
    let len = trace.len();
    assert!(len >= 3, "{len} iterations");
    let size = Size { width: 320, height: 240 };
    let opts = Options { size, steps_per_frame: Some(2), ..Options::default() };
    let pos = animate::positions_for(&graph, None);
    let mut bytes = Vec::new();
    let mut seen = 0;
    let mut copy = trace.clone();
    let r = animate::encode(&mut copy, &graph, &pos, &opts, &mut bytes, &mut |done, total| {
        seen = total;
        done <= total
    })
    .expect("encoded")
    .expect("not cancelled");
    assert_eq!(r.frames, len.div_ceil(2) + 1);
    assert_eq!(seen, r.frames);

    let (w, h, frames) = decode(&bytes);
    assert_eq!((w, h), (320, 240));
    assert_eq!(frames.len(), r.frames);

    let mut end = trace.clone();
    end.seek(len);
    let painter = Painter::new(&graph, &pos, size);
    let last = frames.last().expect("a last frame");
    for v in 0..graph.n() {
        let at = painter.pixel(v).expect("every vertex inside the frame");
        assert_eq!(pixel(last, w, at), animate::status_rgb(end.status(v as u32)), "vertex {v}");
    }
    assert!(
        (0..graph.n() as u32).all(|v| end.status(v) != VertexStatus::Reached),
        "a finished run reaches nothing unsettled"
    );
    // The first frame: only the source is anything but unreached.
    let first = &frames[0];
    for v in 0..graph.n() {
        let want = if v == 7 { VertexStatus::Frontier } else { VertexStatus::Unreached };
        assert_eq!(pixel(first, w, painter.pixel(v).expect("inside")), animate::status_rgb(want), "vertex {v} at 0");
    }
}

#[test]
fn a_cancelled_recording_leaves_no_file_and_too_many_frames_are_refused() {
    let graph =
        Arc::new(GeneratorSpec::Grid { width: 12, height: 10, max_weight: 9, seed: 1 }.generate().expect("grid"));
    let trace = run(&graph, 0);
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("cancelled.gif");
    let pos = animate::positions_for(&graph, None);
    let opts = Options { steps_per_frame: Some(1), ..Options::default() };
    let r = animate::record(trace.clone(), &graph, &pos, &opts, &path, &mut |done, _| done < 3).expect("no error");
    assert!(r.is_none(), "cancelled");
    assert!(!path.exists(), "the partial file is removed");

    let mut long = Trace::new(graph.n(), 0);
    for _ in 0..animate::MAX_FRAMES + 5 {
        long.push(sssp_lab::algo::Step { record: Default::default(), delta: Some(Default::default()) });
    }
    let err = animate::record(long, &graph, &pos, &opts, &path, &mut |_, _| true).expect_err("refused");
    assert!(format!("{err:#}").contains("choose at least 2 steps per frame"), "{err:#}");
    assert!(!path.exists(), "a refusal writes nothing");
}

/// A compare session: two lanes side by side, each tile in its own lane's final colours.
#[test]
fn two_lanes_become_one_gif_side_by_side() {
    let graph = Arc::new(GeneratorSpec::Grid { width: 5, height: 4, max_weight: 9, seed: 5 }.generate().expect("grid"));
    let a = run(&graph, 3);
    let opts = SolveOptions { record_deltas: true, ..SolveOptions::default() };
    let mut stepper =
        make_stepper(DeviceId::Cpu, graph.clone(), sssp_lab::algo::MARTIN_SUCC, 3, &opts).expect("a stepper");
    let mut b = Trace::new(graph.n(), 3);
    while let Some(step) = stepper.step().expect("a step") {
        b.push(step);
    }
    b.set_finished();
    let lens = [a.len(), b.len()];
    let frames = animate::lane_frames(&lens, 1);
    assert_eq!(frames.len(), lens[0].max(lens[1]) + 1);
    assert_eq!(frames.last(), Some(&lens.to_vec()), "both lanes end at their ends");
    let size = Size { width: 400, height: 200 };
    let pos = animate::positions_for(&graph, None);
    let mut lanes = vec![("A".to_string(), a.clone()), ("B".to_string(), b.clone())];
    let mut bytes = Vec::new();
    let opts = Options { size, ..Options::default() };
    let r = animate::encode_lanes(&mut lanes, &frames, &graph, &pos, &opts, &mut bytes, &mut |_, _| true)
        .expect("encoded")
        .expect("not cancelled");
    let (w, _, decoded) = decode(&bytes);
    assert_eq!((w, decoded.len()), (400, r.frames));
    let painter = Painter::new(&graph, &pos, Size { width: 200, height: 200 });
    let last = decoded.last().expect("a frame");
    for (x0, mut t) in [(0, a), (200, b)] {
        t.seek(t.len());
        for v in 0..graph.n() {
            let (x, y) = painter.pixel(v).expect("inside the tile");
            assert_eq!(
                pixel(last, w, (x0 + x, y)),
                animate::status_rgb(t.status(v as u32)),
                "tile at {x0}, vertex {v}"
            );
        }
    }
}

/// The core's colours are the app's, so a GIF and the window agree.
#[test]
fn the_gif_palette_is_the_apps() {
    use sssp_lab::app::palette;
    for s in [VertexStatus::Settled, VertexStatus::Frontier, VertexStatus::Reached, VertexStatus::Unreached] {
        let c = palette::status_color(s);
        assert_eq!(animate::status_rgb(s), [c.r(), c.g(), c.b()], "{s:?}");
    }
    let c = palette::SOURCE;
    assert_eq!(animate::SOURCE, [c.r(), c.g(), c.b()]);
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

#[test]
fn solve_animate_writes_a_gif_of_the_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let gif = dir.path().join("karate.gif");
    let o = Command::new(env!("CARGO_BIN_EXE_sssp-lab"))
        .args(["solve", "--source", "1", "--algo", "martin-succ", "--size", "200x150", "--steps-per-frame", "1"])
        .arg("--animate")
        .arg(&gif)
        .arg(data("karate.graph"))
        .output()
        .expect("the binary runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    // "… from 1: N iterations stepped in …"
    let iterations: usize = err
        .split(" iterations stepped")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no iteration count in: {err}"));
    let (w, h, frames) = decode(&std::fs::read(&gif).expect("the GIF is written"));
    assert_eq!((w, h), (200, 150));
    assert_eq!(frames.len(), iterations + 1, "{err}");
    assert!(err.contains(&format!("{} frames of 200x150", iterations + 1)), "{err}");

    let bad = Command::new(env!("CARGO_BIN_EXE_sssp-lab"))
        .args(["solve", "--source", "1", "--size", "20x10", "--animate"])
        .arg(dir.path().join("x.gif"))
        .arg(data("karate.graph"))
        .output()
        .expect("the binary runs");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("WIDTHxHEIGHT"));
    // A GIF option without --animate is a mistake, not silently ignored.
    let alone = Command::new(env!("CARGO_BIN_EXE_sssp-lab"))
        .args(["solve", "--source", "1", "--steps-per-frame", "2"])
        .arg(data("karate.graph"))
        .output()
        .expect("the binary runs");
    assert!(!alone.status.success() && String::from_utf8_lossy(&alone.stderr).contains("--animate"));
}

/// The app's *Record…* dialog (issue 28 item 8): on the Step tab's finished run it writes the
/// GIF on a job, at the typed size, with the automatic steps per frame, and says where.
#[test]
fn the_record_dialog_writes_the_step_tabs_run_on_a_job() {
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use sssp_lab::app::{Command, SsspApp, Startup};
    use std::time::{Duration, Instant};

    let spec = GeneratorSpec::Grid { width: 9, height: 7, max_weight: 9, seed: 2 };
    let startup = Startup { generator: Some(spec), ..Startup::default() };
    let mut h =
        Harness::builder().with_size(egui::vec2(1400.0, 900.0)).build_eframe(|cc| SsspApp::new(&cc.egui_ctx, startup));
    let settle = |h: &mut Harness<'_, SsspApp>| {
        let t = Instant::now();
        while h.state().is_busy() || h.state().state().devices.is_none() {
            assert!(t.elapsed() < Duration::from_secs(120), "jobs did not finish");
            h.step();
            std::thread::sleep(Duration::from_millis(2));
        }
        h.run_steps(2);
    };
    settle(&mut h);
    h.state_mut().apply(Command::RunToEnd);
    settle(&mut h);
    let len = h.state().state().trace.as_ref().map_or(0, |t| t.len());
    assert!(len > 3);

    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("grid run.gif");
    h.get_by_label("Record…").click_accesskit();
    h.run_steps(2);
    h.get_by_label("GIF file").set_text_value_accesskit(path.to_str().expect("a UTF-8 path"));
    h.get_by_label("Size (WxH)").set_text_value_accesskit("320x240");
    h.run_steps(2);
    h.get_by_label("Record GIF").click_accesskit();
    let t = Instant::now();
    while h.query_by_label_contains("wrote ").is_none() {
        assert!(t.elapsed() < Duration::from_secs(60), "no 'wrote' note: {:?}", h.state().state().errors);
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    let (w, hgt, frames) = decode(&std::fs::read(&path).expect("the GIF is written"));
    assert_eq!((w, hgt), (320, 240));
    assert_eq!(frames.len(), animate::frame_count(len, animate::auto_steps_per_frame(len)));
    assert!(h.state().state().errors.is_empty(), "{:?}", h.state().state().errors);
}
