//! Rendering of [`Plot`]s: a line chart (markers, optional min–max whiskers, optional reference
//! line) or a grouped bar chart over a category x axis, optionally in side-by-side panels, with
//! the legend right of the plot so that it never hides data. White 1000 × 600 PNGs through
//! plotters' bitmap backend.
//!
//! Both axes are plain `f64` ranges with key points chosen here: categories sit at 0, 1, …, and a
//! log y axis is drawn as log10 of the values on a linear axis. That keeps one concrete chart type
//! for linear and log plots, and tick labels readable (`0.05`, `20`, `1000` instead of `1e-2`).

use anyhow::{Context, Result, anyhow};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;
use std::sync::OnceLock;

/// Pixel size of every plot.
const SIZE: (u32, u32) = (1000, 600);
/// The family name the bundled font is registered under.
pub(in crate::lab::report) const FONT: &str = "sans-serif";
/// Bundled so that text renders the same with no system fonts (CI, the GPU machines).
static FONT_BYTES: &[u8] = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/fonts/DejaVuSans.ttf"));
/// Tableau 10: distinct on white, unlike plotters' Palette99 (which has yellow).
const COLORS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// One value at category `x`, with an optional (min, max) whisker.
#[derive(Clone, Debug)]
pub(super) struct Point {
    pub x: usize,
    pub y: f64,
    pub range: Option<(f64, f64)>,
}

/// A legend entry and its points (a line, or one bar per category in a bar chart).
#[derive(Clone, Debug)]
pub(super) struct Line {
    pub label: String,
    pub points: Vec<Point>,
    /// Colour and marker (palette index), so that a series looks the same in every plot;
    /// `None`: the line's position in its plot.
    pub style: Option<usize>,
    /// Index into [`Plot::panels`] (0 without panels).
    pub panel: usize,
}

/// Everything one PNG shows.
#[derive(Clone, Debug, Default)]
pub(super) struct Plot {
    /// File name under `plots/`.
    pub file: String,
    /// Caption above the plot.
    pub title: String,
    /// Axis descriptions, with units.
    pub x_desc: String,
    pub y_desc: String,
    /// x tick labels; points index into them.
    pub categories: Vec<String>,
    /// In legend order.
    pub lines: Vec<Line>,
    /// A horizontal line at this y (speedup 1×), with its legend label.
    pub reference: Option<(f64, String)>,
    /// Grouped bars instead of lines.
    pub bars: bool,
    /// Side-by-side panels with these captions, each with its own y scale (empty: one panel).
    pub panels: Vec<String>,
}

impl Plot {
    /// True when there is nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.categories.is_empty() || self.lines.iter().all(|l| l.points.is_empty())
    }
}

/// Registers the bundled font once per process; later calls return the first outcome.
pub(in crate::lab::report) fn font() -> Result<()> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES)
            .map_err(|_| "the bundled DejaVuSans.ttf is not a valid font".to_string())
    })
    .clone()
    .map_err(|e| anyhow!(e))
}

/// `0.05`, `1.5`, `20`, `1200`: few significant digits, no exponent.
pub(in crate::lab::report) fn fmt_num(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return "0".into();
    }
    let decimals = (1 - v.abs().log10().floor() as i32).clamp(0, 8) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
}

/// The y axis: value → axis coordinate, its range and tick positions.
struct YAxis {
    log: bool,
    range: (f64, f64),
    ticks: Vec<f64>,
}

impl YAxis {
    /// Log when every value is positive and they span more than two decades.
    fn new(values: &[f64]) -> Self {
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if lo > 0.0 && hi / lo > 100.0 {
            let (a, b) = (lo.log10() - 0.1, hi.log10() + 0.1);
            // 1-2-5 ticks up to 4 decades, powers of ten beyond.
            let mults: &[f64] = if b - a <= 4.0 { &[1.0, 2.0, 5.0] } else { &[1.0] };
            let ticks = (a.floor() as i32..=b.ceil() as i32)
                .flat_map(|k| mults.iter().map(move |m| (m * 10f64.powi(k)).log10()))
                .filter(|t| (a..=b).contains(t))
                .collect();
            return YAxis { log: true, range: (a, b), ticks };
        }
        // Linear from 0 (bars and times read best from 0), unless values go negative.
        let (lo, hi) = (lo.min(0.0), if hi > 0.0 { hi * 1.08 } else { 1.0 });
        let raw = (hi - lo) / 6.0;
        let mag = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag);
        let ticks = (0..=((hi - lo) / step).ceil() as usize + 1)
            .map(|k| (lo / step).floor() * step + k as f64 * step)
            .filter(|t| (lo..=hi).contains(t))
            .collect();
        YAxis { log: false, range: (lo, hi), ticks }
    }

    fn map(&self, v: f64) -> f64 {
        if self.log { v.max(1e-300).log10() } else { v }
    }

    fn label(&self, t: f64) -> String {
        fmt_num(if self.log { 10f64.powf(t) } else { t })
    }
}

/// A linear `f64` axis with ticks exactly at `ticks`. plotters' own `with_key_points` cannot be
/// used here: it loses the `f64` value formatter that the mesh requires (plotters 0.3.7).
pub(in crate::lab::report) struct Ticks {
    /// The range.
    pub(in crate::lab::report) inner: RangedCoordf64,
    /// Where the ticks (and the grid lines) are.
    pub(in crate::lab::report) ticks: Vec<f64>,
}

impl Ranged for Ticks {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        // Bold points only: light grid lines between categories would mean nothing.
        if hint.weight().allow_light_points() { Vec::new() } else { self.ticks.clone() }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.inner.range()
    }
}

fn color(i: usize) -> RGBColor {
    COLORS[i % COLORS.len()]
}

/// Markers of line `i`: circles, then triangles, then crosses, so that more than ten lines stay
/// distinguishable although colours repeat. `$mk` makes one at a position (chart
/// or pixel coordinates); a macro because the three element types differ.
macro_rules! with_marker {
    ($i:expr, $style:expr, |$mk:ident| $body:expr) => {{
        let style: ShapeStyle = $style;
        match ($i / COLORS.len()) % 3 {
            0 => {
                let $mk = |at| EmptyElement::at(at) + Circle::new((0, 0), 4, style);
                $body
            }
            1 => {
                let $mk = |at| EmptyElement::at(at) + TriangleMarker::new((0, 0), 6, style);
                $body
            }
            _ => {
                let $mk = |at| EmptyElement::at(at) + Cross::new((0, 0), 5, style.stroke_width(2));
                $body
            }
        }
    }};
}

/// Draws `plot` into `path` (a PNG). Errors: drawing or encoding fails, or the font is broken.
pub(super) fn render(plot: &Plot, path: &Path) -> Result<()> {
    font()?;
    let what = || format!("drawing {}", path.display());
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).with_context(what)?;
    let area = root.titled(&plot.title, (FONT, 22)).with_context(what)?;
    let label_font = TextStyle::from((FONT, 14).into_font());
    let text_w = |s: &str| area.estimate_text_size(s, &label_font).map(|(w, _)| w).unwrap_or(8 * s.len() as u32);
    let entries = legend_entries(plot);
    let legend_w = entries.iter().map(|e| text_w(&e.0)).max().unwrap_or(0).clamp(100, 340) + 64;
    let (charts, legend) = area.split_horizontally(SIZE.0 - legend_w);
    let panels = plot.panels.len().max(1);
    for (k, panel) in charts.split_evenly((1, panels)).iter().enumerate() {
        let lines: Vec<(usize, &Line)> = plot.lines.iter().enumerate().filter(|(_, l)| l.panel == k).collect();
        draw_chart(plot, k, &lines, panel, &text_w).with_context(what)?;
    }
    draw_legend(plot.bars, &legend, &entries).with_context(what)?;
    root.present().with_context(what)
}

/// Legend rows: (label, style, is the reference line), each label once (panels repeat them).
fn legend_entries(plot: &Plot) -> Vec<(String, usize, bool)> {
    let mut out: Vec<(String, usize, bool)> = Vec::new();
    for (i, l) in plot.lines.iter().enumerate() {
        if !out.iter().any(|e| e.0 == l.label) {
            out.push((l.label.clone(), l.style.unwrap_or(i), false));
        }
    }
    out.extend(plot.reference.as_ref().map(|r| (r.1.clone(), 0, true)));
    out
}

/// One panel: `lines` are (index in the plot, line).
fn draw_chart(
    plot: &Plot,
    panel: usize,
    lines: &[(usize, &Line)],
    area: &DrawingArea<BitMapBackend, Shift>,
    text_w: &dyn Fn(&str) -> u32,
) -> Result<()> {
    let mut values: Vec<f64> = (lines.iter().flat_map(|(_, l)| l.points.iter()))
        .flat_map(|p| [Some(p.y), p.range.map(|r| r.0), p.range.map(|r| r.1)])
        .flatten()
        .filter(|v| v.is_finite())
        .collect();
    values.extend(plot.reference.as_ref().map(|r| r.0));
    let y = YAxis::new(&values);
    let n = plot.categories.len();
    // Labels that would not fit side by side are drawn rotated, by hand: plotters centres
    // rotated tick labels on the tick, across the axis line.
    let short = |c: &String| {
        if c.chars().count() > 24 { format!("{}…", c.chars().take(23).collect::<String>()) } else { c.clone() }
    };
    let widest = plot.categories.iter().map(|c| text_w(&short(c))).max().unwrap_or(0);
    let y_label_w = if panel == 0 { 85 } else { 60 };
    let rotate = n as u32 * (widest + 12) > area.dim_in_pixel().0.saturating_sub(y_label_w + 25);
    let mut builder = ChartBuilder::on(area);
    builder.margin(12).x_label_area_size(if rotate { widest + 45 } else { 55 }).y_label_area_size(y_label_w);
    if let Some(title) = plot.panels.get(panel) {
        builder.caption(title, (FONT, 17));
    }
    let mut chart = builder.build_cartesian_2d(
        Ticks { inner: (-0.5..n as f64 - 0.5).into(), ticks: (0..n).map(|i| i as f64).collect() },
        Ticks { inner: (y.range.0..y.range.1).into(), ticks: y.ticks.clone() },
    )?;
    let category = |x: &f64| match plot.categories.get(x.round().max(0.0) as usize) {
        Some(c) if !rotate => c.clone(),
        _ => String::new(),
    };
    chart
        .configure_mesh()
        .x_desc(plot.x_desc.as_str())
        .y_desc(if panel == 0 { plot.y_desc.as_str() } else { "" })
        .x_label_formatter(&category)
        .y_label_formatter(&|t| y.label(*t))
        .x_label_style((FONT, 14))
        .y_label_style((FONT, 14))
        .axis_desc_style((FONT, 16))
        .bold_line_style(RGBColor(225, 225, 225))
        .draw()?;
    if rotate {
        // Reading upwards, ending just below the axis at the tick.
        let style = TextStyle::from((FONT, 13).into_font())
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Right, VPos::Center));
        let base = area.get_base_pixel();
        for (i, c) in plot.categories.iter().enumerate() {
            let (px, py) = chart.backend_coord(&(i as f64, y.range.0));
            area.draw_text(&short(c), &style, (px - base.0, py - base.1 + 8))?;
        }
    }
    if let Some((v, _)) = plot.reference {
        let at = y.map(v);
        chart.draw_series([PathElement::new(vec![(-0.5, at), (n as f64 - 0.5, at)], BLACK.stroke_width(2))])?;
    }
    let k = lines.len();
    if plot.bars {
        // Bars of one category side by side in 80 % of its width, from the bottom of the axis.
        let w = 0.8 / k.max(1) as f64;
        for (j, (i, line)) in lines.iter().enumerate() {
            let (x0, c) = (|p: &Point| p.x as f64 - 0.4 + j as f64 * w, color(line.style.unwrap_or(*i)));
            chart.draw_series(line.points.iter().map(|p| {
                Rectangle::new([(x0(p) + w * 0.05, y.range.0), (x0(p) + w * 0.95, y.map(p.y))], c.filled())
            }))?;
        }
        return Ok(());
    }
    // Whiskers of different lines would overlap at the same category: dodge them a little.
    let whiskers = lines.iter().any(|(_, l)| l.points.iter().any(|p| p.range.is_some()));
    let dodge = |j: usize| if whiskers && k > 1 { (j as f64 / (k - 1) as f64 - 0.5) * 0.3 } else { 0.0 };
    for (j, (i, line)) in lines.iter().enumerate() {
        let (s, dx) = (line.style.unwrap_or(*i), dodge(j));
        let c = color(s);
        let at = |p: &Point| (p.x as f64 + dx, y.map(p.y));
        chart.draw_series(LineSeries::new(line.points.iter().map(at), c.stroke_width(2)))?;
        for p in &line.points {
            if let Some((lo, hi)) = p.range {
                let (x, cap) = (p.x as f64 + dx, 0.04);
                let path = |a: (f64, f64), b: (f64, f64)| PathElement::new(vec![a, b], c.stroke_width(1));
                chart.draw_series([
                    path((x, y.map(lo)), (x, y.map(hi))),
                    path((x - cap, y.map(lo)), (x + cap, y.map(lo))),
                    path((x - cap, y.map(hi)), (x + cap, y.map(hi))),
                ])?;
            }
        }
        with_marker!(s, c.filled(), |mk| chart.draw_series(line.points.iter().map(|p| mk(at(p)))))?;
    }
    Ok(())
}

fn draw_legend(bars: bool, area: &DrawingArea<BitMapBackend, Shift>, entries: &[(String, usize, bool)]) -> Result<()> {
    // Rows shrink when there are many entries, so that all of them fit the panel.
    let step = ((area.dim_in_pixel().1 as i32 - 40) / entries.len().max(1) as i32).clamp(10, 22);
    let font =
        TextStyle::from((FONT, if step < 18 { 11 } else { 14 }).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    for (i, (label, s, reference)) in entries.iter().enumerate() {
        let y = 20 + step * i as i32;
        let c = color(*s);
        if *reference {
            area.draw(&PathElement::new(vec![(6, y), (36, y)], BLACK.stroke_width(2)))?;
        } else if bars {
            area.draw(&Rectangle::new([(8, y - 6), (34, y + 6)], c.filled()))?;
        } else {
            area.draw(&PathElement::new(vec![(6, y), (36, y)], c.stroke_width(2)))?;
            with_marker!(*s, c.filled(), |mk| area.draw(&mk((21, y))))?;
        }
        area.draw(&Text::new(label.clone(), (44, y), font.clone()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_axes_read_well() {
        assert_eq!(fmt_num(0.05), "0.05");
        assert_eq!(fmt_num(1.5), "1.5");
        assert_eq!(fmt_num(20.0), "20");
        assert_eq!(fmt_num(1200.0), "1200");
        assert!(YAxis::new(&[0.01, 5.0]).log);
        let lin = YAxis::new(&[1.0, 7.0]);
        assert!(!lin.log && lin.range.0 == 0.0 && lin.ticks.len() >= 4, "{:?}", lin.ticks);
    }
}
