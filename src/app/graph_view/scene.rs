//! The placement of one graph and its derived indexes: world positions (file coordinates, a
//! background force layout, or the cells of the raster mode), picking grid, arc scene and the
//! background cell order by δ.

use super::arcs::{self, SKIP};
use super::camera::Bbox;
use super::layout::{self, LayoutJob};
use super::pick::{Cells, PickGrid};
use super::{LAYOUT_MAX_N, ViewMode};
use crate::app::jobs::{Job, repaint, take_finished};
use crate::graph::{Distance, Graph, VertexId};
use crate::trace::Trace;
use std::sync::Arc;

/// Graphs up to this many vertices and drawn arcs are drawn as egui shapes rather than by the
/// GPU view.
const VECTOR_MAX_N: usize = 1500;
const VECTOR_MAX_ARCS: usize = 6000;

/// The placement of one graph and its derived indexes.
pub struct Scene {
    pub graph: Arc<Graph>,
    pub mode: ViewMode,
    /// World positions (coordinates and layout modes; empty for the raster mode).
    pub pos: Arc<Vec<[f32; 2]>>,
    /// Bumped (globally) whenever `pos` or the cell order changes.
    pub generation: u64,
    /// The first generation of this graph: the GPU view's colour key names the graph by it.
    pub first_generation: u64,
    pub bbox: Bbox,
    /// Typical distance between neighbouring vertices, world units.
    pub spacing: f32,
    pub pick: PickGrid,
    pub flags: Arc<Vec<u8>>,
    pub arcs_to_draw: usize,
    pub layout: Option<LayoutJob>,
    pub needs_layout: bool,
    pub cells: Cells,
    /// Cell → vertex and vertex → cell when the cells are ordered by δ.
    pub order: Option<(Vec<u32>, Vec<u32>)>,
    /// The state version `order` was computed for.
    pub order_version: Option<u64>,
    pub order_job: Option<Job<OrderResult>>,
}

impl Scene {
    /// The scene of `graph`, whose first generation is `generation`: coordinates when the graph
    /// has them, else a layout (started with the next frame) or the raster of cells.
    ///
    /// Cost: O(n + m) (coordinate normalisation, picking grid, arc de-duplication).
    pub fn new(graph: Arc<Graph>, generation: u64) -> Scene {
        let n = graph.n();
        let coords = graph.coords().filter(|c| c.len() == n);
        let mode = match coords {
            Some(_) => ViewMode::Coordinates,
            None if n <= LAYOUT_MAX_N => ViewMode::Layout,
            None => ViewMode::Raster,
        };
        let (flags, arcs_to_draw) = match mode {
            ViewMode::Raster => (Vec::new(), 0),
            _ => arcs::arc_flags(&graph),
        };
        let cells = Cells::new(n);
        let mut scene = Scene {
            graph: graph.clone(),
            mode,
            pos: Arc::new(Vec::new()),
            generation,
            first_generation: generation,
            bbox: cells.bbox(),
            spacing: 1.0,
            pick: PickGrid::default(),
            flags: Arc::new(flags),
            arcs_to_draw,
            layout: None,
            needs_layout: false,
            cells,
            order: None,
            order_version: None,
            order_job: None,
        };
        match mode {
            ViewMode::Coordinates => {
                let pos = world_coords(coords.unwrap_or_default());
                scene.set_positions(Arc::new(pos), generation);
            }
            ViewMode::Layout => {
                // The layout job starts with the next frame (it needs the egui context to ask
                // for repaints).
                scene.set_positions(Arc::new(layout::initial_positions(n)), generation);
                scene.needs_layout = true;
            }
            ViewMode::Raster => {}
        }
        scene
    }

    /// World position of vertex `v`.
    pub fn world(&self, v: VertexId) -> Option<[f32; 2]> {
        match self.mode {
            ViewMode::Raster => {
                if v as usize >= self.cells.n {
                    return None;
                }
                let i = self.order.as_ref().map_or(v, |(_, rank)| rank[v as usize]);
                Some(self.cells.center(i as usize))
            }
            _ => self.pos.get(v as usize).copied(),
        }
    }

    pub fn vector(&self) -> bool {
        self.mode != ViewMode::Raster && self.graph.n() <= VECTOR_MAX_N && self.arcs_to_draw <= VECTOR_MAX_ARCS
    }

    /// New positions (layout progress): rebuild the picking grid.
    fn set_positions(&mut self, pos: Arc<Vec<[f32; 2]>>, generation: u64) {
        self.bbox = Bbox::of(&pos);
        self.spacing = self.bbox.spacing(pos.len());
        if let Some(len) = median_arc_length(&self.graph, &pos, &self.flags) {
            // Dense cores (cities, hairballs) have shorter arcs than the box suggests.
            self.spacing = self.spacing.min(len);
        }
        self.pick = PickGrid::build(&pos);
        self.pos = pos;
        self.generation = generation;
    }

    /// Layout snapshots and cell orders that arrived; starts the layout, and in the raster mode
    /// the sort of the cells by δ when `want_order` (or drops the order when not). New positions
    /// or a new cell order get `generation`; returns whether it was used.
    pub fn poll(
        &mut self,
        ctx: &egui::Context,
        trace: Option<&Trace>,
        state_version: u64,
        want_order: bool,
        generation: u64,
    ) -> bool {
        let mut bumped = false;
        if self.needs_layout {
            self.needs_layout = false;
            self.layout = Some(LayoutJob::start(self.graph.clone(), repaint(ctx)));
        }
        if let Some(job) = &mut self.layout
            && let Some(pos) = job.newest()
        {
            self.set_positions(pos, generation);
            bumped = true;
        }
        if self.mode == ViewMode::Raster {
            // Results of the background sort.
            if let Some((_, Ok((version, order, rank)))) = take_finished(&mut self.order_job) {
                self.order = Some((order, rank));
                self.order_version = Some(version);
                self.generation = generation;
                bumped = true;
            }
            match (want_order, trace) {
                (true, Some(t)) => {
                    if self.order_version != Some(state_version) && self.order_job.is_none() {
                        let dist = t.distances().to_vec();
                        self.order_job = Some(Job::spawn("ordering cells by distance", repaint(ctx), move |_| {
                            let (order, rank) = distance_order(&dist);
                            (state_version, order, rank)
                        }));
                    }
                }
                _ => {
                    if self.order.is_some() {
                        self.order = None;
                        self.order_version = None;
                        self.generation = generation;
                        bumped = true;
                    }
                }
            }
        }
        bumped
    }
}

/// A finished cell order: the state version it is for, cell → vertex, vertex → cell.
pub type OrderResult = (u64, Vec<u32>, Vec<u32>);

/// World positions from file coordinates: centred on the bounding box; when the coordinates look
/// like longitude/latitude in millionths of a degree (DIMACS road networks), x is scaled by
/// cos(latitude) so that the map is not stretched.
pub fn world_coords(coords: &[[f32; 2]]) -> Vec<[f32; 2]> {
    let b = Bbox::of(coords);
    let c = b.center();
    let lonlat = b.min[0] >= -180e6
        && b.max[0] <= 180e6
        && b.min[1] >= -90e6
        && b.max[1] <= 90e6
        && b.width().max(b.height()) > 1e4;
    let lat = c[1] / 1e6;
    let kx = if lonlat && lat.abs() < 85.0 { lat.to_radians().cos() } else { 1.0 };
    coords.iter().map(|p| [((p[0] as f64 - c[0]) * kx) as f32, (p[1] as f64 - c[1]) as f32]).collect()
}

/// Median length of (a sample of at most 4096) drawn arcs, if any is longer than zero.
fn median_arc_length(graph: &Graph, pos: &[[f32; 2]], flags: &[u8]) -> Option<f32> {
    let csr = graph.successors();
    let m = csr.m();
    if m == 0 || pos.len() < csr.n() {
        return None;
    }
    let stride = m.div_ceil(4096).max(1);
    let mut lens = Vec::with_capacity(4096);
    let mut u = 0u32;
    for i in (0..m).step_by(stride) {
        while csr.offsets[u as usize + 1] as usize <= i {
            u += 1;
        }
        if flags.get(i).is_some_and(|f| f & SKIP != 0) {
            continue;
        }
        let (p, q) = (pos[u as usize], pos[csr.targets[i] as usize]);
        let d = ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt();
        if d.is_finite() && d > 0.0 {
            lens.push(d);
        }
    }
    if lens.is_empty() {
        return None;
    }
    let mid = lens.len() / 2;
    let (_, m, _) = lens.select_nth_unstable_by(mid, f32::total_cmp);
    Some(*m)
}

/// Vertices in order of δ (then id), and each vertex's rank in that order.
pub fn distance_order(dist: &[Distance]) -> (Vec<u32>, Vec<u32>) {
    let mut order: Vec<u32> = (0..dist.len() as u32).collect();
    order.sort_unstable_by_key(|&v| (dist[v as usize], v));
    let mut rank = vec![0u32; dist.len()];
    for (i, &v) in order.iter().enumerate() {
        rank[v as usize] = i as u32;
    }
    (order, rank)
}
