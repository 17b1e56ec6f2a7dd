//! A recorded run as an animated GIF, for slides (issue 28 item 8): one frame every K
//! iterations, the vertices coloured by status — settled, frontier, reached, unreached, in the
//! app's palette — over the arcs, the source ringed, and a caption with the iteration, |F| and
//! the settled count. The app's *Record…* dialog and `sssp-lab solve --animate FILE.gif` both
//! call [`record`]; neither needs egui.
//!
//! Placement: the graph's coordinates when it has them (DIMACS `.co`, METIS `.xyz`, generated
//! grids), else positions the caller passes (the app lays small graphs out as its view does),
//! else a grid by vertex id ([`grid_positions`]).
//!
//! Frames are indexed-colour images over the fixed palette [`PALETTE`], so every pixel of a
//! vertex has exactly its status colour (no quantisation) and a frame compresses well with GIF's
//! LZW. Encoding through the `gif` crate (image-rs), the one format every slide tool plays.

use crate::algo::VertexStatus;
use crate::graph::Graph;
use crate::trace::Trace;
use anyhow::{Context, Result, bail};
use std::io::Write;
use std::path::Path;

/// Background (white, for slides).
pub const BACKGROUND: [u8; 3] = [255, 255, 255];
/// Arcs: the app's faint grey edge colour as it looks on white.
pub const EDGE: [u8; 3] = [215, 215, 215];
/// Caption text.
pub const TEXT: [u8; 3] = [30, 30, 30];
/// Settled in an earlier iteration (the app's `palette::SETTLED`).
pub const SETTLED: [u8; 3] = [70, 130, 220];
/// Settled in the last iteration (`palette::FRONTIER`).
pub const FRONTIER: [u8; 3] = [250, 150, 30];
/// Unsettled with δ < ∞ (`palette::REACHED`).
pub const REACHED: [u8; 3] = [90, 190, 110];
/// δ = ∞ (`palette::UNREACHED`).
pub const UNREACHED: [u8; 3] = [120, 120, 120];
/// The ring around the source (`palette::SOURCE`).
pub const SOURCE: [u8; 3] = [230, 60, 200];

/// The global colour table of every GIF written here, by index.
pub const PALETTE: [[u8; 3]; 8] = [BACKGROUND, EDGE, TEXT, SETTLED, FRONTIER, REACHED, UNREACHED, SOURCE];
const I_BG: u8 = 0;
const I_EDGE: u8 = 1;
const I_TEXT: u8 = 2;
const I_SOURCE: u8 = 7;

/// The palette colour of a status.
pub fn status_rgb(status: VertexStatus) -> [u8; 3] {
    PALETTE[status_index(status) as usize]
}

fn status_index(status: VertexStatus) -> u8 {
    match status {
        VertexStatus::Settled => 3,
        VertexStatus::Frontier => 4,
        VertexStatus::Reached => 5,
        VertexStatus::Unreached => 6,
    }
}

/// Frames above this many are refused with the steps per frame that would fit (a GIF of
/// 227 575 frames is no slide).
pub const MAX_FRAMES: usize = 5000;
/// Arcs are drawn up to this many (beyond, the vertices alone show the run and a frame stays
/// cheap to prepare).
pub const MAX_DRAWN_ARCS: usize = 4_000_000;

/// Frame size in pixels, written `WIDTHxHEIGHT` (`640x480`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    pub width: u16,
    pub height: u16,
}

impl Default for Size {
    fn default() -> Size {
        Size { width: 640, height: 480 }
    }
}

impl std::str::FromStr for Size {
    type Err = String;
    fn from_str(s: &str) -> Result<Size, String> {
        let bad = || format!("size `{s}`: expected WIDTHxHEIGHT, each 64..=4096 pixels (e.g. 640x480)");
        let (w, h) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        let w: u16 = w.trim().parse().map_err(|_| bad())?;
        let h: u16 = h.trim().parse().map_err(|_| bad())?;
        if !(64..=4096).contains(&w) || !(64..=4096).contains(&h) {
            return Err(bad());
        }
        Ok(Size { width: w, height: h })
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// What to record.
#[derive(Clone, Debug)]
pub struct Options {
    pub size: Size,
    /// Iterations per frame (K ≥ 1); `None`: about 100 frames ([`auto_steps_per_frame`]).
    pub steps_per_frame: Option<usize>,
    /// Display time of a frame, in hundredths of a second (the last frame holds 2 s longer).
    pub delay_cs: u16,
}

impl Default for Options {
    fn default() -> Options {
        Options { size: Size::default(), steps_per_frame: None, delay_cs: 10 }
    }
}

/// K such that a run of `len` iterations takes about 100 frames.
pub fn auto_steps_per_frame(len: usize) -> usize {
    len.div_ceil(100).max(1)
}

/// Frames of a run of `len` iterations at `k` per frame: positions 0, k, 2k, … and the end.
pub fn frame_count(len: usize, k: usize) -> usize {
    len.div_ceil(k.max(1)) + 1
}

/// The trace position frame `i` shows.
pub fn frame_position(i: usize, len: usize, k: usize) -> usize {
    (i * k.max(1)).min(len)
}

/// What [`record`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recorded {
    pub frames: usize,
    pub steps_per_frame: usize,
    pub bytes: u64,
}

/// Positions by vertex id on a square grid (row-major, y down): the fallback for graphs with
/// neither coordinates nor a layout.
pub fn grid_positions(n: usize) -> Vec<[f32; 2]> {
    let side = (n as f64).sqrt().ceil().max(1.0) as usize;
    (0..n).map(|v| [(v % side) as f32, -((v / side) as f32)]).collect()
}

/// World positions (y up) of the graph's coordinates: longitude/latitude in millionths of a
/// degree (DIMACS road networks) get x scaled by cos(latitude), as the app's view does.
pub fn coordinate_positions(coords: &[[f32; 2]]) -> Vec<[f32; 2]> {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in coords {
        for k in 0..2 {
            lo[k] = lo[k].min(p[k] as f64);
            hi[k] = hi[k].max(p[k] as f64);
        }
    }
    let c = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
    let lonlat = lo[0] >= -180e6
        && hi[0] <= 180e6
        && lo[1] >= -90e6
        && hi[1] <= 90e6
        && (hi[0] - lo[0]).max(hi[1] - lo[1]) > 1e4;
    let lat = c[1] / 1e6;
    let kx = if lonlat && lat.abs() < 85.0 { lat.to_radians().cos() } else { 1.0 };
    coords.iter().map(|p| [((p[0] as f64 - c[0]) * kx) as f32, (p[1] as f64 - c[1]) as f32]).collect()
}

/// The positions a recording of `graph` uses: its coordinates, else `layout` (n entries), else
/// [`grid_positions`].
pub fn positions_for(graph: &Graph, layout: Option<&[[f32; 2]]>) -> Vec<[f32; 2]> {
    let n = graph.n();
    match (graph.coords().filter(|c| c.len() == n), layout.filter(|l| l.len() == n)) {
        (Some(c), _) => coordinate_positions(c),
        (None, Some(l)) => l.to_vec(),
        (None, None) => grid_positions(n),
    }
}

/// Draws frames of one graph: the arcs once, then the vertices of each state over them.
pub struct Painter {
    w: usize,
    h: usize,
    /// Pixel centre of every vertex.
    px: Vec<[i32; 2]>,
    radius: i32,
    /// Background and arcs, copied into every frame.
    base: Vec<u8>,
    /// Caption strip: its top row and the text's scale (pixels per font dot).
    caption_top: usize,
    text_scale: usize,
    /// Status index of every vertex in the frame being drawn (reused).
    status: Vec<u8>,
}

impl Painter {
    /// Places `positions` (world units, y up) in a frame of `size` and draws the arcs.
    pub fn new(graph: &Graph, positions: &[[f32; 2]], size: Size) -> Painter {
        let (w, h) = (size.width as usize, size.height as usize);
        let text_scale = (h / 240).clamp(1, 4);
        let strip = 11 * text_scale;
        let caption_top = h - strip;
        let area_h = caption_top;
        let n = positions.len().max(1);
        let spacing = ((w * area_h) as f64 / n as f64).sqrt();
        let radius = (spacing * 0.28).clamp(0.0, 6.0) as i32;
        let margin = (radius + 4) as f64;
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for p in positions.iter().filter(|p| p[0].is_finite() && p[1].is_finite()) {
            for k in 0..2 {
                lo[k] = lo[k].min(p[k] as f64);
                hi[k] = hi[k].max(p[k] as f64);
            }
        }
        let span = [(hi[0] - lo[0]).max(1e-9), (hi[1] - lo[1]).max(1e-9)];
        let scale = ((w as f64 - 2.0 * margin) / span[0]).min((area_h as f64 - 2.0 * margin) / span[1]).max(0.0);
        let (cx, cy) = ((lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0);
        let px: Vec<[i32; 2]> = positions
            .iter()
            .map(|p| {
                let x = w as f64 / 2.0 + (p[0] as f64 - cx) * scale;
                let y = area_h as f64 / 2.0 - (p[1] as f64 - cy) * scale;
                if x.is_finite() && y.is_finite() { [x.round() as i32, y.round() as i32] } else { [0, 0] }
            })
            .collect();
        let mut p = Painter { w, h, px, radius, base: vec![I_BG; w * h], caption_top, text_scale, status: vec![0; n] };
        if graph.m() <= MAX_DRAWN_ARCS && graph.n() == p.px.len() {
            let csr = graph.successors();
            for u in 0..graph.n() as u32 {
                for &v in &csr.targets[csr.range(u)] {
                    let (a, b) = (p.px[u as usize], p.px[v as usize]);
                    line(&mut p.base, w, caption_top, a, b, I_EDGE);
                }
            }
        }
        p
    }

    /// Pixel centre of vertex `v` (tests read the frame there).
    pub fn pixel(&self, v: usize) -> Option<(usize, usize)> {
        let [x, y] = *self.px.get(v)?;
        (x >= 0 && y >= 0 && (x as usize) < self.w && (y as usize) < self.caption_top)
            .then_some((x as usize, y as usize))
    }

    /// The frame of `trace` at its cursor, as palette indices (row-major, `width × height`).
    pub fn frame(&mut self, trace: &Trace) -> Vec<u8> {
        self.frame_labelled(trace, "")
    }

    /// [`frame`](Self::frame) with `label` before the caption (a compare lane's letter).
    pub fn frame_labelled(&mut self, trace: &Trace, label: &str) -> Vec<u8> {
        let mut img = self.base.clone();
        let n = self.px.len().min(trace.distances().len());
        let mut settled = 0usize;
        for v in 0..n {
            let s = trace.status(v as u32);
            settled += matches!(s, VertexStatus::Settled | VertexStatus::Frontier) as usize;
            self.status[v] = status_index(s);
        }
        // Frontier on top and at least 3 pixels wide: it is what a step changes, and on a road
        // network of 100 k vertices a one-pixel frontier vanishes among the settled.
        for layer in [6u8, 5, 3, 4] {
            let r = if layer == 4 { self.radius.max(1) } else { self.radius };
            for v in (0..n).filter(|&v| self.status[v] == layer) {
                disc(&mut img, self.w, self.caption_top, self.px[v], r, layer);
            }
        }
        if (trace.source as usize) < n {
            let r = self.radius + 2 + self.radius / 2;
            ring(&mut img, self.w, self.caption_top, self.px[trace.source as usize], r.max(3), I_SOURCE);
        }
        let end = if trace.is_finished() && trace.pos() == trace.len() { "  finished" } else { "" };
        let caption = format!(
            "{label}iteration {}/{}  |F| {}  settled {}/{}{end}",
            trace.pos(),
            trace.len(),
            trace.frontier().len(),
            settled,
            n
        );
        // As large as the strip allows, smaller where a long caption would not fit the width.
        let chars = caption.chars().count().max(1);
        let s = self.text_scale.min(self.w.saturating_sub(8) / (6 * chars)).max(1);
        text(&mut img, self.w, self.h, [4, self.caption_top + 2 * self.text_scale], s, &caption);
        img
    }
}

/// Writes the GIF of `trace` (moved in: its cursor is moved frame by frame) on `graph` to
/// `path`. `positions`: see [`positions_for`]. `progress(frames_done, frames)` after each frame;
/// when it returns false the recording stops, the partial file is removed and `Ok(None)` comes
/// back. Errors: too many frames (with the K that fits), I/O (naming the path).
pub fn record(
    mut trace: Trace,
    graph: &Graph,
    positions: &[[f32; 2]],
    opts: &Options,
    path: &Path,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Option<Recorded>> {
    // Refused before the file exists: a refusal leaves whatever was at `path` alone.
    plan(trace.len(), opts)?;
    write_file(path, &mut |out| encode(&mut trace, graph, positions, opts, out, progress))
}

/// Runs `encode` into a new file at `path`; the file is removed again when it fails or is
/// cancelled (`Ok(None)`). The result's `bytes` is the file's size.
pub fn write_file(
    path: &Path,
    encode: &mut dyn FnMut(&mut dyn Write) -> Result<Option<Recorded>>,
) -> Result<Option<Recorded>> {
    let file = std::fs::File::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let written = encode(&mut out)
        .and_then(|r| out.flush().map(|()| r).map_err(anyhow::Error::from))
        .with_context(|| format!("{}: cannot write the GIF", path.display()));
    match written {
        Ok(Some(r)) => {
            let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            Ok(Some(Recorded { bytes, ..r }))
        }
        other => {
            drop(out);
            // Nothing half-written stays behind; a missing file is as good.
            let _ = std::fs::remove_file(path);
            other
        }
    }
}

/// [`record`] into any writer (tests decode the bytes). `bytes` of the result is 0.
pub fn encode(
    trace: &mut Trace,
    graph: &Graph,
    positions: &[[f32; 2]],
    opts: &Options,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Option<Recorded>> {
    let len = trace.len();
    let (k, frames) = plan(len, opts)?;
    if positions.len() != graph.n() {
        bail!("{} positions for a graph of {} vertices", positions.len(), graph.n());
    }
    let mut painter = Painter::new(graph, positions, opts.size);
    let mut gif = Gif::new(out, opts, frames)?;
    for i in 0..frames {
        trace.seek(frame_position(i, len, k));
        gif.frame(i, painter.frame(trace))?;
        if !progress(i + 1, frames) {
            return Ok(None);
        }
    }
    gif.finish()?;
    Ok(Some(Recorded { frames, steps_per_frame: k, bytes: 0 }))
}

/// A GIF being written, `frames` frames of `opts.size` in the [`PALETTE`], looping forever.
struct Gif<'a> {
    enc: gif::Encoder<&'a mut dyn Write>,
    opts: &'a Options,
    frames: usize,
}

impl<'a> Gif<'a> {
    fn new(out: &'a mut dyn Write, opts: &'a Options, frames: usize) -> Result<Self> {
        let flat: Vec<u8> = PALETTE.iter().flatten().copied().collect();
        let mut enc = gif::Encoder::new(out, opts.size.width, opts.size.height, &flat)?;
        enc.set_repeat(gif::Repeat::Infinite)?;
        Ok(Gif { enc, opts, frames })
    }

    /// Writes frame `i` (palette indices, row by row); the last is held 2 s longer, so that the
    /// end shows before the loop starts again.
    fn frame(&mut self, i: usize, pixels: Vec<u8>) -> Result<()> {
        let last = i + 1 == self.frames;
        let frame = gif::Frame {
            width: self.opts.size.width,
            height: self.opts.size.height,
            buffer: std::borrow::Cow::Owned(pixels),
            delay: if last { self.opts.delay_cs.saturating_add(200) } else { self.opts.delay_cs },
            ..gif::Frame::default()
        };
        self.enc.write_frame(&frame)?;
        Ok(())
    }

    /// Writes the GIF's trailer.
    fn finish(self) -> Result<()> {
        self.enc.into_inner()?;
        Ok(())
    }
}

/// A compare session as one GIF: the lanes' traces side by side (two in a row, three or four
/// in a 2 × 2 grid), each tile captioned with its lane's letter. `frames[i][l]` is lane `l`'s
/// position in frame `i` (the compare tab's history of forward actions, or [`lane_frames`]);
/// `opts.steps_per_frame` is not used. Cancel and errors as in [`encode`].
pub fn encode_lanes(
    lanes: &mut [(String, Trace)],
    frames: &[Vec<usize>],
    graph: &Graph,
    positions: &[[f32; 2]],
    opts: &Options,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Option<Recorded>> {
    if lanes.is_empty() || frames.is_empty() {
        bail!("no lanes or no frames to record");
    }
    if frames.len() > MAX_FRAMES {
        bail!("{} frames, more than {MAX_FRAMES}: choose more steps per frame", frames.len());
    }
    if positions.len() != graph.n() {
        bail!("{} positions for a graph of {} vertices", positions.len(), graph.n());
    }
    let (w, h) = (opts.size.width as usize, opts.size.height as usize);
    let cols = lanes.len().min(2);
    let rows = lanes.len().div_ceil(cols);
    let (tw, th) = (w / cols, h / rows);
    let tile = Size { width: tw as u16, height: th as u16 };
    let mut painters: Vec<Painter> = lanes.iter().map(|_| Painter::new(graph, positions, tile)).collect();
    let mut gif = Gif::new(out, opts, frames.len())?;
    for (i, pos) in frames.iter().enumerate() {
        let mut img = vec![I_BG; w * h];
        for (l, ((label, trace), painter)) in lanes.iter_mut().zip(&mut painters).enumerate() {
            trace.seek(pos.get(l).copied().unwrap_or(0));
            let part = painter.frame_labelled(trace, &format!("{label}  "));
            let (x0, y0) = ((l % cols) * tw, (l / cols) * th);
            for y in 0..th {
                let at = (y0 + y) * w + x0;
                img[at..at + tw].copy_from_slice(&part[y * tw..(y + 1) * tw]);
                if x0 > 0 {
                    img[at] = I_TEXT;
                }
            }
            if y0 > 0 {
                img[y0 * w + x0..y0 * w + x0 + tw].fill(I_TEXT);
            }
        }
        gif.frame(i, img)?;
        if !progress(i + 1, frames.len()) {
            return Ok(None);
        }
    }
    gif.finish()?;
    Ok(Some(Recorded { frames: frames.len(), steps_per_frame: 0, bytes: 0 }))
}

/// Frames of a compare session stepped by iteration: every lane at 0, k, 2k, … (each held at
/// its own end) until the longest lane's end.
pub fn lane_frames(lens: &[usize], k: usize) -> Vec<Vec<usize>> {
    let longest = lens.iter().copied().max().unwrap_or(0);
    (0..frame_count(longest, k))
        .map(|i| lens.iter().map(|&len| frame_position(i, longest, k).min(len)).collect())
        .collect()
}

/// Steps per frame and frames for a run of `len` iterations; errors: more than [`MAX_FRAMES`].
fn plan(len: usize, opts: &Options) -> Result<(usize, usize)> {
    let k = opts.steps_per_frame.unwrap_or_else(|| auto_steps_per_frame(len)).max(1);
    let frames = frame_count(len, k);
    if frames > MAX_FRAMES {
        bail!(
            "{len} iterations at {k} per frame make {frames} frames, more than {MAX_FRAMES}: choose at least {} steps per frame",
            len.div_ceil(MAX_FRAMES - 1)
        );
    }
    Ok((k, frames))
}

fn put(img: &mut [u8], w: usize, h: usize, x: i32, y: i32, c: u8) {
    if x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h {
        img[y as usize * w + x as usize] = c;
    }
}

/// Bresenham; `h` clips at the caption strip.
fn line(img: &mut [u8], w: usize, h: usize, a: [i32; 2], b: [i32; 2], c: u8) {
    let (mut x, mut y) = (a[0], a[1]);
    let (dx, dy) = ((b[0] - x).abs(), -(b[1] - y).abs());
    let (sx, sy) = (if x < b[0] { 1 } else { -1 }, if y < b[1] { 1 } else { -1 });
    let mut err = dx + dy;
    loop {
        put(img, w, h, x, y, c);
        if x == b[0] && y == b[1] {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}

fn disc(img: &mut [u8], w: usize, h: usize, p: [i32; 2], r: i32, c: u8) {
    for dy in -r..=r {
        for dx in -r..=r {
            if dx * dx + dy * dy <= r * r + r {
                put(img, w, h, p[0] + dx, p[1] + dy, c);
            }
        }
    }
}

fn ring(img: &mut [u8], w: usize, h: usize, p: [i32; 2], r: i32, c: u8) {
    let (inner, outer) = ((r - 1) * (r - 1), r * r + r);
    for dy in -r..=r {
        for dx in -r..=r {
            let d = dx * dx + dy * dy;
            if d > inner && d <= outer {
                put(img, w, h, p[0] + dx, p[1] + dy, c);
            }
        }
    }
}

/// Writes `s` at `at` (top left) in the 5 × 7 font, each dot `scale` pixels square.
fn text(img: &mut [u8], w: usize, h: usize, at: [usize; 2], scale: usize, s: &str) {
    for (i, ch) in s.chars().enumerate() {
        let Some(rows) = glyph(ch) else { continue };
        let x0 = at[0] + i * 6 * scale;
        for (r, row) in rows.iter().enumerate() {
            for (c, dot) in row.bytes().enumerate() {
                if dot != b'#' {
                    continue;
                }
                for yy in 0..scale {
                    for xx in 0..scale {
                        let (x, y) = (x0 + c * scale + xx, at[1] + r * scale + yy);
                        if x < w && y < h {
                            img[y * w + x] = I_TEXT;
                        }
                    }
                }
            }
        }
    }
}

/// The caption's characters in a 5 × 7 dot font (others are left blank): a bitmap font keeps
/// every text pixel one palette colour and needs no font file at run time.
fn glyph(ch: char) -> Option<[&'static str; 7]> {
    Some(match ch {
        '0' => [".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."],
        '1' => ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."],
        '2' => [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"],
        '3' => ["#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."],
        '4' => ["...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."],
        '5' => ["#####", "#....", "####.", "....#", "....#", "#...#", ".###."],
        '6' => ["..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."],
        '7' => ["#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."],
        '8' => [".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."],
        '9' => [".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."],
        'a' => [".....", ".....", ".###.", "....#", ".####", "#...#", ".####"],
        'd' => ["....#", "....#", ".##.#", "#..##", "#...#", "#...#", ".####"],
        'e' => [".....", ".....", ".###.", "#...#", "#####", "#....", ".###."],
        'f' => ["..##.", ".#..#", ".#...", "###..", ".#...", ".#...", ".#..."],
        'h' => ["#....", "#....", "#.##.", "##..#", "#...#", "#...#", "#...#"],
        'i' => ["..#..", ".....", ".##..", "..#..", "..#..", "..#..", ".###."],
        'l' => [".##..", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."],
        'n' => [".....", ".....", "#.##.", "##..#", "#...#", "#...#", "#...#"],
        'o' => [".....", ".....", ".###.", "#...#", "#...#", "#...#", ".###."],
        'r' => [".....", ".....", "#.##.", "##..#", "#....", "#....", "#...."],
        's' => [".....", ".....", ".####", "#....", ".###.", "....#", "####."],
        't' => [".#...", ".#...", "###..", ".#...", ".#...", ".#..#", "..##."],
        'A' => [".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"],
        'B' => ["####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."],
        'C' => [".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."],
        'D' => ["####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."],
        'F' => ["#####", "#....", "#....", "####.", "#....", "#....", "#...."],
        '/' => [".....", "....#", "...#.", "..#..", ".#...", "#....", "....."],
        '|' => ["..#..", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."],
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_bad_ones_say_the_form() {
        assert_eq!("640x480".parse(), Ok(Size { width: 640, height: 480 }));
        assert_eq!("1280X720".parse::<Size>().map(|s| s.to_string()), Ok("1280x720".into()));
        for bad in ["640", "0x480", "640x9000", "axb", ""] {
            assert!(bad.parse::<Size>().is_err_and(|e| e.contains("WIDTHxHEIGHT")), "{bad}");
        }
    }

    #[test]
    fn frames_cover_every_kth_position_and_the_end() {
        assert_eq!(frame_count(0, 1), 1);
        assert_eq!(frame_count(10, 3), 5);
        let pos: Vec<usize> = (0..5).map(|i| frame_position(i, 10, 3)).collect();
        assert_eq!(pos, [0, 3, 6, 9, 10]);
        assert_eq!(frame_count(250, auto_steps_per_frame(250)), 85);
    }

    #[test]
    fn every_caption_character_has_a_glyph() {
        for ch in "ABCD iteration 0123456789/ |F| settled finished".chars().filter(|c| *c != ' ') {
            assert!(glyph(ch).is_some_and(|g| g.iter().all(|r| r.len() == 5)), "{ch}");
        }
    }
}
