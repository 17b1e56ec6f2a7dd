//! The arc layer: every arc as an anti-aliased line, rasterized on the CPU into an image the size
//! of the view, on a background thread (latest request wins), so panning and zooming never wait
//! for it: until a new raster arrives the view shows the previous one moved and scaled.

use super::camera::Xform;
use super::raster::{Coverage, PixBox, shade};
use crate::graph::Graph;
use crate::jobs::{Job, Repaint};
use egui::{Color32, ColorImage};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// Per-arc flags: [`SKIP`] for arcs not drawn (self-loops, the second arc of an undirected edge),
/// [`BOTH`] for drawn arcs whose reverse arc exists.
pub const SKIP: u8 = 1;
pub const BOTH: u8 = 2;

/// Longest row scanned for a reverse arc; beyond it the arc is simply drawn twice.
const MAX_SCAN: usize = 64;

/// Arc flags of `graph` (see [`SKIP`], [`BOTH`]) and the number of arcs drawn. O(m · degree).
pub fn arc_flags(graph: &Graph) -> (Vec<u8>, usize) {
    let csr = graph.successors();
    let mut flags = vec![0u8; csr.m()];
    let mut drawn = 0;
    for u in 0..csr.n() as u32 {
        for i in csr.range(u) {
            let v = csr.targets[i];
            if v == u {
                flags[i] = SKIP;
                continue;
            }
            let rv = csr.range(v);
            let has_reverse = rv.len() <= MAX_SCAN && csr.targets[rv].contains(&u);
            if has_reverse && u > v {
                flags[i] = SKIP;
            } else {
                flags[i] = if has_reverse { BOTH } else { 0 };
                drawn += 1;
            }
        }
    }
    (flags, drawn)
}

/// What the arc layer draws: a graph, world positions of its vertices and the arc flags.
pub struct ArcScene {
    pub graph: Arc<Graph>,
    pub pos: Arc<Vec<[f32; 2]>>,
    pub flags: Arc<Vec<u8>>,
    /// The drawn arcs as world segments in spatial order, built on first use (by the worker).
    segments: OnceLock<Segments>,
}

impl ArcScene {
    pub fn new(graph: Arc<Graph>, pos: Arc<Vec<[f32; 2]>>, flags: Arc<Vec<u8>>) -> ArcScene {
        ArcScene { graph, pos, flags, segments: OnceLock::new() }
    }
}

/// Segments per chunk of [`Segments`].
const CHUNK: usize = 256;
/// Above this many drawn arcs the segment list (16 bytes each) is not built; arcs are then read
/// from the CSR.
const MAX_SEGMENTS: usize = 8_000_000;

/// The drawn arcs as world-space segments sorted along a Morton curve of their midpoints, in
/// chunks of [`CHUNK`] with a bounding box each: rasterizing streams through memory, touches
/// nearby pixels in turn, and skips whole chunks outside the view.
struct Segments {
    seg: Vec<[f32; 4]>,
    chunks: Vec<[f32; 4]>,
}

impl Segments {
    fn build(scene: &ArcScene) -> Option<Segments> {
        let csr = scene.graph.successors();
        let pos = &scene.pos[..];
        let n = csr.n().min(pos.len());
        let drawn = (0..csr.m()).filter(|&i| scene.flags.get(i).is_none_or(|f| f & SKIP == 0)).count();
        if drawn > MAX_SEGMENTS {
            return None;
        }
        let mut seg = Vec::with_capacity(drawn);
        for u in 0..n {
            let p = pos[u];
            for i in csr.range(u as u32) {
                if scene.flags.get(i).is_some_and(|f| f & SKIP != 0) {
                    continue;
                }
                if let Some(&q) = pos.get(csr.targets[i] as usize)
                    && p.iter().chain(&q).all(|c| c.is_finite())
                {
                    seg.push([p[0], p[1], q[0], q[1]]);
                }
            }
        }
        let b = super::camera::Bbox::of(pos);
        let (sx, sy) = (65535.0 / b.width().max(1e-30), 65535.0 / b.height().max(1e-30));
        let key = |s: &[f32; 4]| {
            let x = (((s[0] + s[2]) * 0.5 - b.min[0]) * sx).clamp(0.0, 65535.0) as u32;
            let y = (((s[1] + s[3]) * 0.5 - b.min[1]) * sy).clamp(0.0, 65535.0) as u32;
            spread(x) | (spread(y) << 1)
        };
        seg.sort_unstable_by_key(key);
        let chunks = seg
            .chunks(CHUNK)
            .map(|c| {
                let mut bb = [f32::INFINITY, f32::INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY];
                for s in c {
                    bb[0] = bb[0].min(s[0]).min(s[2]);
                    bb[1] = bb[1].min(s[1]).min(s[3]);
                    bb[2] = bb[2].max(s[0]).max(s[2]);
                    bb[3] = bb[3].max(s[1]).max(s[3]);
                }
                bb
            })
            .collect();
        Some(Segments { seg, chunks })
    }
}

/// Spreads the 16 low bits of `x` to the even bits (Morton interleave).
fn spread(x: u32) -> u32 {
    let mut x = x & 0xffff;
    x = (x | (x << 8)) & 0x00ff_00ff;
    x = (x | (x << 4)) & 0x0f0f_0f0f;
    x = (x | (x << 2)) & 0x3333_3333;
    (x | (x << 1)) & 0x5555_5555
}

/// Everything that determines an arc raster; a new one is made when this changes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArcKey {
    pub generation: u64,
    pub xform: Xform,
    pub size: [usize; 2],
    pub color: [u8; 4],
}

/// A finished arc raster: the part of the view that has arcs (`crop`, in pixels of a raster of
/// `key.size`), as an image of the crop's size.
pub struct ArcImage {
    pub image: ColorImage,
    pub crop: PixBox,
    pub key: ArcKey,
    pub millis: f32,
    pub drawn: usize,
}

/// Reusable scratch buffers of the arc rasterizer. `acc` is all zero between rasters (each
/// raster clears what it touched).
#[derive(Default)]
pub struct ArcRaster {
    spos: Vec<[f32; 2]>,
    acc: Vec<u16>,
    lut: Vec<Color32>,
    lut_color: Option<[u8; 4]>,
}

impl ArcRaster {
    /// Rasterizes the arcs of `scene` under `key`. Returns the image of the touched part, where
    /// that part is, and how many arcs touched the raster.
    pub fn render(&mut self, scene: &ArcScene, key: &ArcKey) -> (ColorImage, PixBox, usize) {
        let [w, h] = key.size;
        if self.acc.len() != w * h {
            self.acc.clear();
            self.acc.resize(w * h, 0);
        }
        let mut cov = Coverage::new(&mut self.acc, w, h);
        let mut drawn = 0;
        let x = &key.xform;
        let (cx, cy, s, ox, oy) = (x.cx as f32, x.cy as f32, x.s as f32, x.ox as f32, x.oy as f32);
        if let Some(segs) = scene
            .segments
            .get_or_init(|| Segments::build(scene).unwrap_or(Segments { seg: Vec::new(), chunks: Vec::new() }))
            .nonempty()
        {
            // The view in world coordinates, one pixel larger all round.
            let a = x.inverse([-1.0, -1.0]);
            let b = x.inverse([w as f64 + 1.0, h as f64 + 1.0]);
            let view = [a[0].min(b[0]) as f32, a[1].min(b[1]) as f32, a[0].max(b[0]) as f32, a[1].max(b[1]) as f32];
            for (ci, bb) in segs.chunks.iter().enumerate() {
                if bb[2] < view[0] || bb[0] > view[2] || bb[3] < view[1] || bb[1] > view[3] {
                    continue;
                }
                let end = ((ci + 1) * CHUNK).min(segs.seg.len());
                for sg in &segs.seg[ci * CHUNK..end] {
                    let p = [(sg[0] - cx) * s + ox, oy - (sg[1] - cy) * s];
                    let q = [(sg[2] - cx) * s + ox, oy - (sg[3] - cy) * s];
                    if cov.line(p, q) {
                        drawn += 1;
                    }
                }
            }
        } else {
            // Too many arcs for a segment list: straight from the CSR.
            let pos = &scene.pos[..];
            let csr = scene.graph.successors();
            let n = csr.n().min(pos.len());
            self.spos.clear();
            self.spos.extend(pos[..n].iter().map(|&p| key.xform.apply(p)));
            let spos = &self.spos;
            let flags = &scene.flags[..];
            for u in 0..n {
                let p = spos[u];
                for i in csr.range(u as u32) {
                    if flags.get(i).is_some_and(|f| f & SKIP != 0) {
                        continue;
                    }
                    let Some(&q) = spos.get(csr.targets[i] as usize) else { continue };
                    if cov.line(p, q) {
                        drawn += 1;
                    }
                }
            }
        }
        let crop = cov.bbox;
        if self.lut_color != Some(key.color) {
            let [r, g, b, a] = key.color;
            self.lut = super::raster::coverage_lut([r, g, b], a);
            self.lut_color = Some(key.color);
        }
        let lut = &self.lut;
        let image = crop.take(&mut self.acc, w, 0, |a| shade(lut, a));
        (image, crop, drawn)
    }
}

impl Segments {
    fn nonempty(&self) -> Option<&Segments> {
        (!self.seg.is_empty()).then_some(self)
    }
}

struct ArcJob {
    scene: Arc<ArcScene>,
    key: ArcKey,
}

/// A background job that renders [`ArcJob`]s, always the latest one waiting, and streams the
/// rasters back. It ends when the worker is dropped (its request channel closes).
pub struct ArcWorker {
    tx: Option<Sender<ArcJob>>,
    job: Job<(), ArcImage>,
    /// The key of the job sent last and not yet answered.
    pub pending: Option<ArcKey>,
    pub last_submit: Option<Instant>,
}

impl ArcWorker {
    /// Starts the job; each raster wakes the UI through `repaint`.
    pub fn start(repaint: Repaint) -> ArcWorker {
        let (tx, requests) = channel::<ArcJob>();
        let job = Job::streaming("graph arcs", repaint, move |jc| {
            let mut raster = ArcRaster::default();
            while let Ok(mut job) = requests.recv() {
                while let Ok(newer) = requests.try_recv() {
                    job = newer;
                }
                let t0 = Instant::now();
                let (image, crop, drawn) = raster.render(&job.scene, &job.key);
                let millis = t0.elapsed().as_secs_f32() * 1000.0;
                if !jc.send(ArcImage { image, crop, key: job.key, millis, drawn }) {
                    return;
                }
            }
        });
        ArcWorker { tx: Some(tx), job, pending: None, last_submit: None }
    }

    /// Whether the thread is running.
    pub fn alive(&self) -> bool {
        self.tx.is_some() && !self.job.is_finished()
    }

    pub fn submit(&mut self, scene: Arc<ArcScene>, key: ArcKey) {
        if let Some(tx) = &self.tx {
            if tx.send(ArcJob { scene, key }).is_ok() {
                self.pending = Some(key);
                self.last_submit = Some(Instant::now());
            } else {
                self.tx = None;
            }
        }
    }

    /// The newest finished raster, if any arrived.
    pub fn poll(&mut self) -> Option<ArcImage> {
        let mut latest = None;
        for img in self.job.events() {
            if self.pending == Some(img.key) {
                self.pending = None;
            }
            latest = Some(img);
        }
        latest
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;

    #[test]
    fn undirected_edges_are_drawn_once() {
        let g = generate::grid(5, 4, 10, 1).unwrap();
        let (flags, drawn) = arc_flags(&g);
        // 5×4 grid: 4·4 + 5·3 = 31 edges, each stored as two arcs.
        assert_eq!(g.m(), 62);
        assert_eq!(drawn, 31);
        assert!(flags.iter().filter(|&&f| f & SKIP == 0).all(|&f| f & BOTH != 0));
        // The counterexample is directed: every arc drawn, none bidirectional.
        let c = generate::counterexample(10).unwrap();
        let (flags, drawn) = arc_flags(&c);
        assert_eq!(drawn, c.m());
        assert!(flags.iter().all(|&f| f == 0));
    }

    #[test]
    fn raster_has_the_requested_size_and_draws_visible_arcs() {
        let g = Arc::new(generate::grid(10, 10, 10, 1).unwrap());
        let pos = Arc::new(g.coords().unwrap().to_vec());
        let (flags, _) = arc_flags(&g);
        let scene = ArcScene::new(g, pos, Arc::new(flags));
        let xform = Xform { cx: 4.5, cy: 4.5, s: 10.0, ox: 60.0, oy: 40.0 };
        let key = ArcKey { generation: 1, xform, size: [120, 80], color: [100, 100, 100, 255] };
        let mut r = ArcRaster::default();
        let (img, crop, drawn) = r.render(&scene, &key);
        // The grid spans x 15..105 and is cut at the top and bottom.
        assert_eq!(img.size, [crop.width(), crop.height()]);
        assert!(crop.x0 >= 13 && crop.x0 <= 16 && crop.x1 >= 104 && crop.x1 <= 107, "{crop:?}");
        assert_eq!((crop.y0, crop.y1), (0, 80));
        assert!(r.acc.iter().all(|&a| a == 0), "the accumulator is left blank");
        // The grid spans 90 × 90 px centred in a 120 × 80 raster: cut at top and bottom, but
        // every horizontal edge row inside and every vertical edge crosses the raster.
        assert!(drawn > 100 && drawn <= 180, "{drawn}");
        assert!(img.pixels.iter().any(|c| c.a() > 0));
        // Far away: nothing.
        let away = ArcKey { xform: Xform { ox: 1e6, ..xform }, ..key };
        let (img, crop, drawn) = r.render(&scene, &away);
        assert_eq!(drawn, 0);
        assert!(crop.is_empty() && img.pixels.is_empty());
        // The CSR path (used for huge graphs) draws the same.
        let scene2 = ArcScene::new(scene.graph.clone(), scene.pos.clone(), scene.flags.clone());
        scene2.segments.set(Segments { seg: Vec::new(), chunks: Vec::new() }).ok();
        let (a, ca, da) = r.render(&scene, &key);
        let (b, cb, db) = r.render(&scene2, &key);
        assert_eq!(da, db);
        assert!(ca.x0.abs_diff(cb.x0) <= 1 && ca.x1.abs_diff(cb.x1) <= 1, "{ca:?} {cb:?}");
        let ink = |i: &ColorImage| i.pixels.iter().map(|c| c.a() as f64).sum::<f64>();
        assert!((ink(&a) / ink(&b) - 1.0).abs() < 0.02);
    }
}
