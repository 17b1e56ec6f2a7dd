//! Run panel: algorithm, device, block sizes, source, the step controls and their shortcuts.

use crate::algo::{AlgoChoice, Algorithm, ParamKind, SolveOptions};
use crate::app::command::{Command, SHORTCUTS};
use crate::app::state::{AppState, Verification};
use crate::device::DeviceId;

/// Block sizes offered: powers of two and a few other multiples of 32.
const BLOCKS: [u32; 10] = [32, 64, 96, 128, 192, 256, 384, 512, 768, 1024];

/// One row per kernel the chosen algorithm's family launches ([`crate::algo::Family::kernels`]),
/// named as the kernel files name it: its block size (none for sequential Dijkstra).
fn block_rows(ui: &mut egui::Ui, state: &AppState, cmds: &mut Vec<Command>) {
    let b = state.settings.block;
    for k in state.settings.algorithm.algorithm.spec().family.kernels() {
        let value = b.get(k.block);
        let also = if k.also.is_empty() { String::new() } else { format!(" (also {})", k.also) };
        let name = format!("Block {}", k.name);
        let label = ui.label(&name).on_hover_text(format!(
            "threads per block of {}{also}: {}; on the CPU it feeds the modelled thread and warp counts",
            k.name, k.does
        ));
        egui::ComboBox::from_id_salt(("block", k.block.key()))
            .selected_text(value.to_string())
            .show_ui(ui, |ui| {
                for v in BLOCKS {
                    if ui.selectable_label(v == value, v.to_string()).clicked() {
                        cmds.push(Command::SetBlockSizes(b.with(k.block, v)));
                    }
                }
            })
            .response
            .labelled_by(label.id);
        ui.end_row();
    }
}

/// One row per parameter of the chosen algorithm, from its spec (integers on a slider scaled
/// to the graph's heaviest arc, `max_weight`); a change re-chooses the algorithm with the new
/// value (and resets the run).
fn param_rows(ui: &mut egui::Ui, choice: &AlgoChoice, max_weight: i64, cmds: &mut Vec<Command>) {
    let algo = choice.algorithm;
    for p in algo.spec().params {
        let label = ui.label(p.label).on_hover_text(p.help);
        match &p.kind {
            ParamKind::Choice { values, .. } => {
                let current = algo.choice(&choice.params, p.key);
                egui::ComboBox::from_id_salt(p.key)
                    .selected_text(current)
                    .show_ui(ui, |ui| {
                        for v in values.iter() {
                            if ui.selectable_label(*v == current, *v).clicked() && *v != current {
                                let params = choice.params.clone().with(p.key, v);
                                cmds.push(Command::SetAlgorithm(AlgoChoice { algorithm: algo, params }));
                            }
                        }
                    })
                    .response
                    .labelled_by(label.id)
                    .on_hover_text(p.help);
            }
            ParamKind::Int { min, max, .. } => {
                let mut v = algo.int(&choice.params, p.key);
                // A logarithmic slider up to a few times the heaviest arc (Δ beyond it changes
                // nothing: every arc is light), never past the spec's range; its text field
                // takes any value in that range. 0 = auto.
                let top = (max_weight.max(1) * 4).clamp(16, 1 << 40).clamp(*min + 1, *max).max(v);
                let slider = egui::Slider::new(&mut v, *min..=top)
                    .logarithmic(true)
                    .smallest_positive(1.0)
                    .integer()
                    .custom_formatter(|x, _| if x == 0.0 { "auto".into() } else { format!("{x:.0}") })
                    .custom_parser(|t| if t.trim() == "auto" { Some(0.0) } else { t.trim().parse().ok() });
                let r = ui.add(slider).labelled_by(label.id).on_hover_text(p.help);
                if r.changed() {
                    let params = choice.params.clone().with(p.key, &v.to_string());
                    cmds.push(Command::SetAlgorithm(AlgoChoice { algorithm: algo, params }));
                }
            }
        }
        ui.end_row();
    }
}

pub fn run_panel(ui: &mut egui::Ui, state: &mut AppState, cmds: &mut Vec<Command>) {
    let first = cmds.len();
    settings(ui, state, cmds);
    // A change that resets the run asks first when there is a run to lose.
    if state.has_run_to_lose() {
        for c in &mut cmds[first..] {
            if matches!(c, Command::SetAlgorithm(_) | Command::SetDevice(_) | Command::SetBlockSizes(_)) {
                *c = Command::AskFirst(Box::new(c.clone()));
            }
        }
    }
    ui.label(format!("Source: {}", state.describe_vertex(state.source)));
    ui.add_space(6.0);
    controls(ui, state, cmds);
    crate::app::progress::run_rate(ui, state);
    roofline(ui, state);
    ui.add_space(6.0);
    shortcuts(ui);
}

/// The settings grid: algorithm and its parameters, device, threads, block sizes, tuning and
/// the source.
fn settings(ui: &mut egui::Ui, state: &mut AppState, cmds: &mut Vec<Command>) {
    ui.heading("Run");
    egui::Grid::new("run-settings").num_columns(2).show(ui, |ui| {
        let label = ui.label("Algorithm");
        let choice = state.settings.algorithm.clone();
        let algo = choice.algorithm;
        let device = state.devices.unwrap_or_default().iter().find(|d| d.id == state.settings.device);
        egui::ComboBox::from_id_salt("algorithm")
            .selected_text(algo.id())
            .width(170.0)
            .show_ui(ui, |ui| {
                for &a in Algorithm::all() {
                    let why_not = device
                        .and_then(|d| d.supports(a, &Default::default()).err())
                        .or_else(|| state.graph.as_ref().and_then(|g| crate::algo::check_weights(&g.graph, a).err()));
                    let r = ui.add_enabled(why_not.is_none(), egui::Button::selectable(a == algo, a.id()));
                    let hover = format!("{}\n{}", a.describe(), a.spec().reference);
                    let r = r
                        .on_hover_text(&hover)
                        .on_disabled_hover_text(format!("{hover}\n{}", why_not.unwrap_or_default()));
                    if r.clicked() {
                        cmds.push(Command::SetAlgorithm(AlgoChoice::new(a)));
                    }
                }
            })
            .response
            .labelled_by(label.id)
            .on_hover_text(format!(
                "{}\n{}\nOne iteration: {}",
                algo.describe(),
                algo.spec().reference,
                algo.spec().iteration
            ));
        ui.end_row();
        let max_weight = state.graph().map_or(100, |g| i64::from(g.max_weight()));
        param_rows(ui, &choice, max_weight, cmds);

        let label = ui.label("Device");
        device_combo(ui, state, cmds).labelled_by(label.id);
        ui.end_row();

        if let DeviceId::CpuParallel(threads) = state.settings.device {
            let label = ui.label("Threads").on_hover_text("CPU threads of the multi-core solver (0 = all cores)");
            let mut t = threads;
            let drag = egui::DragValue::new(&mut t)
                .range(0..=256)
                .speed(0.1)
                .custom_formatter(|v, _| if v == 0.0 { "all cores".into() } else { format!("{v}") });
            if ui.add(drag).labelled_by(label.id).changed() && t != threads {
                cmds.push(Command::SetDevice(DeviceId::CpuParallel(t)));
            }
            ui.end_row();
        }
        if let Some(warning) = crate::app::progress::spin_warning(state) {
            ui.label("");
            ui.add(egui::Label::new(egui::RichText::new(warning).color(ui.visuals().warn_fg_color).small()).wrap());
            ui.end_row();
        }

        block_rows(ui, state, cmds);

        tune_row(ui, state, cmds);

        let label = ui.label("Source id").on_hover_text("the vertex id as in the file; or click a vertex in the view");
        ui.horizontal(|ui| {
            let edit = egui::TextEdit::singleline(&mut state.source_text).hint_text("vertex id").desired_width(110.0);
            let r = ui.add(edit).labelled_by(label.id);
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if ui.button("Set source").clicked() || enter {
                cmds.push(Command::SetSourceId(state.source_text.clone()));
            }
        });
        ui.end_row();
    });
}

/// The Tune button (block sizes and delta predicted from the graph's statistics for the
/// device, `crate::tune`), its progress while it runs, and what it last chose with the reasons.
fn tune_row(ui: &mut egui::Ui, state: &AppState, cmds: &mut Vec<Command>) {
    ui.label("Auto-tune").on_hover_text("the rules are in docs/tune.md; sssp-lab tune --check measures them");
    ui.vertical(|ui| {
        ui.horizontal(|ui| {
            let idle = state.jobs.tune.is_none() && state.graph().is_some();
            let r = ui.add_enabled(idle, egui::Button::new("Tune")).on_hover_text(
                "predict the block sizes (and delta) for this graph and device from the graph's statistics",
            );
            if r.clicked() {
                cmds.push(Command::Tune);
            }
            if let Some(j) = &state.jobs.tune {
                ui.add(egui::ProgressBar::new(j.progress()).desired_width(120.0).text(j.message().unwrap_or_default()));
                if ui.button("Cancel tuning").clicked() {
                    cmds.push(Command::Cancel);
                }
            }
        });
        if let Some(t) = &state.tuned {
            ui.label(&t.summary).on_hover_text(t.reasons.join("\n"));
        }
    });
    ui.end_row();
}

fn device_combo(ui: &mut egui::Ui, state: &AppState, cmds: &mut Vec<Command>) -> egui::Response {
    let current = state.settings.device;
    let devices = state.devices.unwrap_or_default();
    // The multi-core CPU is one entry whatever its thread count (set in the row below it).
    let same =
        |id: DeviceId| id == current || matches!((id, current), (DeviceId::CpuParallel(_), DeviceId::CpuParallel(_)));
    let name = match current {
        DeviceId::CpuParallel(t @ 1..) => format!("CPU ({t} thread{})", if t == 1 { "" } else { "s" }),
        _ => devices.iter().find(|d| same(d.id)).map_or_else(|| current.to_string(), |d| d.name.clone()),
    };
    egui::ComboBox::from_id_salt("device")
        .selected_text(elide(&name, DEVICE_CHARS))
        .width(170.0)
        .show_ui(ui, |ui| {
            if devices.is_empty() && ui.selectable_label(current == DeviceId::Cpu, "CPU (probing others…)").clicked()
            {
                cmds.push(Command::SetDevice(DeviceId::Cpu));
            }
            let choice = &state.settings.algorithm;
            let opts = SolveOptions::for_choice(choice);
            let graph = state.graph();
            for d in devices {
                // Greyed out, with the reason, when it cannot run this algorithm on this graph.
                let why_not = d
                    .supports(choice.algorithm, &opts)
                    .and_then(|()| graph.map_or(Ok(()), |g| d.fits(g, choice.algorithm, &opts)))
                    .err();
                let short = elide(&d.name, 2 * DEVICE_CHARS);
                let r = ui.add_enabled(why_not.is_none(), egui::Button::selectable(same(d.id), short));
                let r = r.on_hover_text(&d.name);
                let r = match why_not {
                    Some(reason) => r.on_disabled_hover_text(reason),
                    None => r,
                };
                if r.clicked() && !same(d.id) {
                    cmds.push(Command::SetDevice(d.id));
                }
            }
        })
        .response
        .on_hover_text(name)
}

/// Characters of a device name in the closed combo box (a wgpu adapter's full name, e.g.
/// "wgpu Vulkan: llvmpipe (LLVM 19.1.7, 256 bits) (software)", widened the panel for good).
const DEVICE_CHARS: usize = 26;

/// `s` cut to `max` characters with an ellipsis.
fn elide(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

fn controls(ui: &mut egui::Ui, state: &AppState, cmds: &mut Vec<Command>) {
    let has_run = state.trace.is_some();
    let running = state.jobs.run.is_some();
    let pos = state.iteration();
    let at_end = state.at_end();
    ui.horizontal_wrapped(|ui| {
        let mut button = |ui: &mut egui::Ui, enabled: bool, text: &str, key: &str, cmd: Command| {
            if ui
                .add_enabled(enabled, egui::Button::new(text))
                .on_hover_text(egui::RichText::new(key).monospace())
                .clicked()
            {
                cmds.push(cmd);
            }
        };
        button(ui, has_run && pos > 0, "Reset", "Home / R", Command::Reset);
        button(ui, has_run && pos > 0, "Step back", "←", Command::StepBack);
        button(ui, has_run && !at_end, "Step", "→", Command::Step);
        let play = if state.playing { "Pause" } else { "Play" };
        button(ui, has_run && !at_end && !running, play, "Space", Command::TogglePlay);
        button(ui, has_run && !at_end && !running, "Run to end", "End", Command::RunToEnd);
    });
    ui.horizontal(|ui| {
        let saving = state.jobs.save_dialog.is_some() || state.jobs.trace_save.is_some();
        let can = has_run && !running && state.trace.as_ref().is_some_and(|t| !t.is_empty());
        if ui
            .add_enabled(can && !saving, egui::Button::new("Save trace…"))
            .on_hover_text("the run so far, to open again with Open file… (here or on another machine)")
            .clicked()
        {
            cmds.push(Command::SaveTraceDialog);
        }
        if let Some(p) = &state.saved_trace {
            ui.weak(format!("saved {}", p.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())));
        }
    });
    let label = ui.label("Speed");
    let mut speed = state.settings.speed;
    let slider = egui::Slider::new(&mut speed, 0.5..=5000.0).logarithmic(true).suffix(" it/s").max_decimals(1);
    if ui.add(slider).labelled_by(label.id).on_hover_text("iterations per second while playing").changed() {
        cmds.push(Command::SetSpeed(speed));
    }
    if let Some(t) = &state.trace {
        let end = if t.is_finished() { "finished" } else { "recorded so far" };
        ui.label(format!("Iteration {} of {} {end}", t.pos(), t.len()));
    }
    if let Some(b) = &state.jobs.build {
        ui.horizontal(|ui| {
            ui.add(egui::ProgressBar::new(b.job.progress()).animate(true).text(b.job.name()).desired_width(220.0));
            if ui.button("Cancel").on_hover_text("Esc").clicked() {
                cmds.push(Command::Cancel);
            }
        });
    }
    if let Some(run) = &state.jobs.run {
        ui.horizontal(|ui| {
            ui.add(egui::ProgressBar::new(run.job.progress()).text(run.job.name()).desired_width(220.0));
            if ui.button("Cancel run").on_hover_text("Esc").clicked() {
                cmds.push(Command::Cancel);
            }
        });
    }
    match &state.verification {
        Verification::Running => {
            ui.label("Checking against Dijkstra…");
        }
        Verification::Match => {
            ui.colored_label(
                egui::Color32::from_rgb(90, 190, 110),
                "Matches Dijkstra: every δ is the shortest distance",
            );
        }
        Verification::Mismatch(w) => {
            let text = format!("{} vertices differ from Dijkstra (marked red in the view)", w.len());
            ui.colored_label(ui.visuals().error_fg_color, text);
        }
        Verification::Unavailable(why) => {
            ui.label(format!("Not checked against Dijkstra: {why}"));
        }
        Verification::NotYet => {}
    }
}

fn shortcuts(ui: &mut egui::Ui) {
    egui::CollapsingHeader::new("Keyboard shortcuts").default_open(true).show(ui, |ui| {
        egui::Grid::new("shortcuts").num_columns(2).show(ui, |ui| {
            let mut seen = Vec::new();
            for (_, _, s) in SHORTCUTS {
                if seen.contains(&s) {
                    continue;
                }
                seen.push(s);
                ui.monospace(s.keys());
                ui.label(s.describe());
                ui.end_row();
            }
        });
    });
}

/// The roofline gauge of the current iteration's kernels (GPU devices): modelled bytes per
/// second against the device's bandwidth limit, and what bounds each kernel.
fn roofline(ui: &mut egui::Ui, state: &mut AppState) {
    use crate::device::roofline::iteration_points;
    let dev = state.settings.device;
    if !matches!(dev, DeviceId::Cuda(_) | DeviceId::Wgpu(_)) {
        return;
    }
    let (Some(r), Some(g)) = (state.current_record().cloned(), state.graph().cloned()) else { return };
    let variant = state.settings.algorithm.algorithm.variant();
    if variant.is_none() {
        return;
    }
    let peak = match state.peak_of(dev) {
        Some(Ok(p)) => p.clone(),
        Some(Err(e)) => {
            ui.weak(format!("Roofline: no bandwidth limit for {dev}: {e}"));
            return;
        }
        None => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.weak(format!("Roofline: measuring the bandwidth limit of {dev}…"));
            });
            return;
        }
    };
    // The GPUs keep δ in 32 bits where the graph allows (wgpu always).
    let points = iteration_points(&r, g.n() as u64, variant, 4.0, peak.bytes_per_s);
    egui::CollapsingHeader::new(format!("Roofline of iteration {}", r.iteration)).default_open(true).show(ui, |ui| {
        ui.weak(format!("limit {:.1} GB/s ({}); bytes modelled from the counts", peak.bytes_per_s / 1e9, peak.source));
        egui::Grid::new("roofline").num_columns(4).show(ui, |ui| {
            for (name, p) in ["relax", "minimum", "update"].iter().zip(points) {
                ui.label(*name);
                match p {
                    Some(p) => {
                        ui.label(format!("{:.3} ms", p.ms));
                        ui.add(egui::ProgressBar::new(p.share.min(1.0) as f32).desired_width(130.0).text(format!(
                            "{:.1} GB/s, {:.0} %",
                            p.bytes_per_s / 1e9,
                            p.share * 100.0
                        )));
                        ui.label(p.bound.name());
                    }
                    None => {
                        ui.label("no time");
                    }
                }
                ui.end_row();
            }
        });
        if r.times.relax_ms > 0.0 {
            ui.weak(format!("relax: {:.3} G arcs/s", r.edges_scanned as f64 / (r.times.relax_ms * 1e-3) / 1e9));
        }
    });
}
