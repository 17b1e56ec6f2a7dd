//! Gantt timelines of many-source runs (seed 003) as PNG: one row per worker, one bar per task
//! from its start to its end, GPU and CPU workers in different colours, the makespan marked.
//! Drawn headless with plotters' bitmap backend and the bundled font, like the report's plots.

use super::plots::draw::{FONT, Ticks, fmt_num, font};
use crate::manysource::ManySourceRun;
use anyhow::{Context, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

/// Width of every timeline, pixels.
const WIDTH: u32 = 1000;
/// Height: this much for the title, legend and axis, plus [`ROW_PX`] per worker, at most
/// [`MAX_HEIGHT`] (rows get thinner beyond).
const BASE_PX: u32 = 120;
const ROW_PX: u32 = 22;
const MAX_HEIGHT: u32 = 1600;
/// Bars whose width is below this many pixels get no border (it would hide the fill).
const MIN_BORDER_PX: i32 = 4;

/// Colour of a worker's bars, by its label: CUDA, wgpu, CPU.
fn kind_color(label: &str) -> (RGBColor, &'static str) {
    if label.starts_with("cuda") {
        (RGBColor(31, 119, 180), "CUDA GPU")
    } else if label.starts_with("wgpu") {
        (RGBColor(148, 103, 189), "wgpu GPU")
    } else {
        (RGBColor(255, 127, 14), "CPU thread")
    }
}

/// `c` mixed with white: the border that keeps back-to-back tasks apart.
fn lighter(c: RGBColor) -> RGBColor {
    let m = |v: u8| v + ((255 - v) as f64 * 0.6) as u8;
    RGBColor(m(c.0), m(c.1), m(c.2))
}

/// `1234.5 ms`, `12.35 ms`.
fn fmt_ms(ms: f64) -> String {
    if ms >= 100.0 { format!("{ms:.0} ms") } else { format!("{ms:.2} ms") }
}

/// Draws `run` as a Gantt chart into `path` (PNG, 1000 px wide; 120 px plus 22 px per worker
/// high, at most 1600): a row per worker, labelled with the worker's label (`(failed)` when it
/// stopped on an error), one bar per task from `start_ms` to `end_ms` (CUDA blue, wgpu purple,
/// CPU orange, a lighter border so back-to-back tasks stay apart), a grey band up to the
/// makespan (the idle time at the end shows as grey), and a red vertical line at the makespan
/// with its value. The caption is `title · label policy · makespan X ms` (without `title`
/// when it is empty).
///
/// Errors: the file cannot be written or encoded, or the bundled font is broken.
pub fn write_timeline_png(run: &ManySourceRun, title: &str, path: &Path) -> Result<()> {
    font()?;
    let what = || format!("drawing {}", path.display());
    let rows = run.workers.len().max(1);
    let height = (BASE_PX + ROW_PX * rows as u32).min(MAX_HEIGHT);
    let root = BitMapBackend::new(path, (WIDTH, height)).into_drawing_area();
    root.fill(&WHITE).with_context(what)?;
    let caption = format!("{} {} · makespan {}", run.label, run.policy, fmt_ms(run.makespan_ms));
    let caption = if title.is_empty() { caption } else { format!("{title} · {caption}") };
    let area = root.titled(&caption, (FONT, 20)).with_context(what)?;
    let (legend, body) = area.split_vertically(24);
    draw_legend(run, &legend).with_context(what)?;
    draw_bars(run, &body).with_context(what)?;
    root.present().with_context(what)
}

/// Kinds of worker present (in CUDA, wgpu, CPU order), then the makespan line.
fn draw_legend(run: &ManySourceRun, area: &DrawingArea<BitMapBackend, Shift>) -> Result<()> {
    let style = TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    let mut x = 90;
    for probe in ["cuda", "wgpu", "cpu"] {
        let present = run.workers.iter().any(|w| kind_color(&w.label).1 == kind_color(probe).1);
        if !present {
            continue;
        }
        let (c, name) = kind_color(probe);
        area.draw(&Rectangle::new([(x, 6), (x + 22, 18)], c.filled()))?;
        area.draw(&Text::new(name, (x + 28, 12), style.clone()))?;
        x += 140;
    }
    area.draw(&PathElement::new(vec![(x, 12), (x + 22, 12)], RED.stroke_width(2)))?;
    area.draw(&Text::new("makespan", (x + 28, 12), style))?;
    Ok(())
}

/// The chart: worker i is the band [n−1−i, n−i] (worker 0 on top), with headroom above for
/// the makespan's value.
fn draw_bars(run: &ManySourceRun, area: &DrawingArea<BitMapBackend, Shift>) -> Result<()> {
    let n = run.workers.len().max(1);
    let names: Vec<String> = run
        .workers
        .iter()
        .map(|w| if w.failed.is_some() { format!("{} (failed)", w.label) } else { w.label.clone() })
        .collect();
    let label_w = names.iter().map(|s| s.chars().count() as u32 * 8 + 24).max().unwrap_or(60).clamp(70, 220);
    let end = run.tasks.iter().map(|t| t.end_ms).fold(run.makespan_ms, f64::max);
    let x_max = if end > 0.0 { end * 1.02 } else { 1.0 };
    let top = n as f64 + 0.8;
    let mut chart =
        ChartBuilder::on(area).margin(12).x_label_area_size(45).y_label_area_size(label_w).build_cartesian_2d(
            0.0..x_max,
            Ticks { inner: (0.0..top).into(), ticks: (0..n).map(|i| i as f64 + 0.5).collect() },
        )?;
    let row_of = |y: &f64| n.checked_sub(1 + y.floor().max(0.0) as usize);
    chart
        .configure_mesh()
        .disable_y_mesh()
        .x_desc("ms since the run started")
        .x_label_formatter(&|v| fmt_num(*v))
        .y_label_formatter(&|y| row_of(y).and_then(|i| names.get(i).cloned()).unwrap_or_default())
        .x_label_style((FONT, 13))
        .y_label_style((FONT, 13))
        .axis_desc_style((FONT, 14))
        .light_line_style(RGBColor(245, 245, 245))
        .bold_line_style(RGBColor(225, 225, 225))
        .draw()?;
    let band = |i: usize| {
        let y0 = (n - 1 - i) as f64;
        (y0 + 0.18, y0 + 0.82)
    };
    // Grey up to the makespan: what is not covered by bars is idle time.
    chart.draw_series(run.workers.iter().enumerate().map(|(i, w)| {
        let (lo, hi) = band(i);
        let c = if w.failed.is_some() { RGBColor(250, 215, 215) } else { RGBColor(236, 236, 236) };
        Rectangle::new([(0.0, lo), (run.makespan_ms, hi)], c.filled())
    }))?;
    for t in &run.tasks {
        let Some(w) = run.workers.get(t.worker) else { continue };
        let (c, _) = kind_color(&w.label);
        let (lo, hi) = band(t.worker);
        let corners = [(t.start_ms, lo), (t.end_ms, hi)];
        chart.draw_series([Rectangle::new(corners, c.filled())])?;
        let (a, b) = (chart.backend_coord(&corners[0]), chart.backend_coord(&corners[1]));
        if (b.0 - a.0).abs() >= MIN_BORDER_PX {
            chart.draw_series([Rectangle::new(corners, lighter(c).stroke_width(1))])?;
        }
    }
    let m = run.makespan_ms;
    chart.draw_series([PathElement::new(vec![(m, 0.0), (m, top)], RED.stroke_width(2))])?;
    let style = TextStyle::from((FONT, 14).into_font()).color(&RED).pos(Pos::new(HPos::Right, VPos::Center));
    let (px, py) = chart.backend_coord(&(m, n as f64 + 0.4));
    let base = area.get_base_pixel();
    area.draw_text(&format!("makespan {}", fmt_ms(m)), &style, (px - base.0 - 6, py - base.1))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_follow_the_worker_kind_and_gpu_labels_are_recognised() {
        assert_eq!(kind_color("cuda:1").1, "CUDA GPU");
        assert_eq!(kind_color("wgpu:0").1, "wgpu GPU");
        assert_eq!(kind_color("cpu#3").1, "CPU thread");
        assert!(crate::lab::result::is_gpu_label("cuda:0") && !crate::lab::result::is_gpu_label("cpu#0"));
        assert_eq!(lighter(RGBColor(0, 0, 0)), RGBColor(153, 153, 153));
        assert_eq!(fmt_ms(1234.56), "1235 ms");
    }
}
