//! A run's timeline: one row per worker, one bar per task from its start to its end (hover:
//! source, time, worker), then each worker's tasks, busy time and idle time at the end.

use crate::manysource::{ManySourceRun, TaskResult, WorkerSummary};
use egui_plot::{Bar, BarChart, Plot};

/// Heading, Gantt chart and per-worker table of a finished run.
pub fn run_section(ui: &mut egui::Ui, index: usize, run: &ManySourceRun, best_ms: f64) {
    let idle: f64 = run.workers.iter().map(|w| w.idle_end_ms).sum();
    let slower = if run.makespan_ms > best_ms * 1.0001 {
        format!(", {:.2}x the best makespan", run.makespan_ms / best_ms)
    } else {
        String::new()
    };
    ui.strong(format!(
        "{} ({}): makespan {:.1} ms{slower}, {} tasks, idle at the end {:.1} ms summed over workers, checksum {:016x}",
        run.label,
        run.policy,
        run.makespan_ms,
        run.tasks.len(),
        idle,
        run.checksum
    ));
    gantt(ui, &format!("many-run-{index}"), &run.tasks, &run.workers, Some(run.makespan_ms));
    egui::Grid::new(format!("many-workers-{index}")).striped(true).show(ui, |ui| {
        for h in ["worker", "algorithm", "tasks", "busy ms", "idle at the end ms", ""] {
            ui.strong(h);
        }
        ui.end_row();
        for w in &run.workers {
            ui.label(&w.label);
            ui.label(&w.algorithm);
            ui.label(w.tasks.to_string());
            ui.label(format!("{:.1}", w.busy_ms));
            ui.label(format!("{:.1}", w.idle_end_ms));
            ui.label(w.failed.as_ref().map_or(String::new(), |e| format!("failed: {e}")));
            ui.end_row();
        }
    });
    ui.add_space(8.0);
}

/// The Gantt chart of `tasks` (workers named by `workers` when known).
pub fn gantt(ui: &mut egui::Ui, id: &str, tasks: &[TaskResult], workers: &[WorkerSummary], makespan: Option<f64>) {
    let rows = workers.len().max(tasks.iter().map(|t| t.worker + 1).max().unwrap_or(1));
    let names: Vec<String> =
        (0..rows).map(|i| workers.get(i).map_or(format!("worker {i}"), |w| w.label.clone())).collect();
    let shades = [egui::Color32::from_rgb(80, 150, 230), egui::Color32::from_rgb(60, 110, 190)];
    let bars: Vec<Bar> = tasks
        .iter()
        .enumerate()
        .map(|(k, t)| {
            Bar::new(t.worker as f64, t.end_ms - t.start_ms).base_offset(t.start_ms).width(0.7).fill(shades[k % 2])
        })
        .collect();
    // The bar's own hover label is drawn inside the plot and was cut at its corner: the task
    // under the pointer is described in a tooltip instead, which egui keeps on the screen.
    let chart = BarChart::new("tasks", bars).horizontal().element_formatter(Box::new(|_, _| String::new()));
    let height = (22.0 * rows as f32 + 40.0).clamp(90.0, 420.0);
    let axis_names = names.clone();
    let mut plot = Plot::new(id.to_string())
        .height(height)
        .allow_scroll(false)
        .include_x(0.0)
        .include_y(-0.6)
        .include_y(rows as f64 - 0.4)
        .show_grid([true, false])
        .x_axis_label("ms since the run started")
        .y_axis_min_width(60.0)
        .show_x(false)
        .show_y(false)
        .y_axis_formatter(move |m, _| {
            let i = m.value.round();
            if (m.value - i).abs() < 1e-6 && i >= 0.0 {
                axis_names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_grid_spacer(move |_| (0..rows).map(|i| egui_plot::GridMark { value: i as f64, step_size: 1.0 }).collect());
    if let Some(m) = makespan {
        plot = plot.include_x(m);
    }
    let shown = plot.show(ui, |pui| {
        pui.bar_chart(chart);
        if let Some(m) = makespan {
            pui.vline(egui_plot::VLine::new("makespan", m).color(egui::Color32::from_rgb(240, 180, 50)));
        }
        pui.pointer_coordinate()
    });
    let hit = shown.inner.and_then(|p| task_at(tasks, p.x, p.y));
    if let Some(t) = hit {
        let worker = names.get(t.worker).cloned().unwrap_or_default();
        shown.response.on_hover_text_at_pointer(describe(t, &worker));
    }
}

/// The task drawn under plot point (`x` ms, `y` row), if any.
fn task_at(tasks: &[TaskResult], x: f64, y: f64) -> Option<&TaskResult> {
    let row = y.round();
    if (y - row).abs() > 0.35 || row < 0.0 {
        return None;
    }
    tasks.iter().find(|t| t.worker as f64 == row && t.start_ms <= x && x <= t.end_ms)
}

/// The hover text of a task: source, worker, times, reached and eccentricity.
pub fn describe(t: &TaskResult, worker: &str) -> String {
    format!(
        "source {} on {worker}\n{:.1} to {:.1} ms ({:.2} ms)\nreached {}, eccentricity {}",
        t.source,
        t.start_ms,
        t.end_ms,
        t.end_ms - t.start_ms,
        t.reached,
        t.eccentricity
    )
}
