//! Bringing a view's device state up to date with the frame: the graph and layout uploaded,
//! the arc chunks, the colour words and the aggregates' grids (`GpuView::sync`).

use super::*;

impl GpuView {
    /// Brings the view's device state up to date with the frame, one stage after another:
    /// pipelines, sorted graph, upload, a large graph's first touches, arc chunks, colour words,
    /// then what the frame draws. `Ok(None)` while a stage needs more frames (the note says
    /// which): each stage is spread over frames so that none stalls the UI.
    pub(super) fn sync(
        &mut self,
        ctx: &egui::Context,
        rs: &RenderState,
        f: &Frame<'_>,
        frontier: &mut Vec<VertexId>,
    ) -> Result<Option<ViewCallback>, String> {
        let scene = f.scene;
        let n = scene.graph.n();
        let limits = rs.device.limits();
        let plan = BufferPlan::new(n, limits.max_buffer_size, limits.max_storage_buffer_binding_size)?;
        let sorted = self.prepared(ctx, scene, plan)?;
        let mut renderer = rs.renderer.write();
        let res = renderer.callback_resources.entry::<Resources>().or_insert_with(Resources::default);
        if !self.pipelines_ready(ctx, rs, res)? {
            return Ok(self.nothing_yet());
        }
        let Resources { pipelines, views } = res;
        let Some(pipes) = pipelines.as_ref() else { return Err("no pipelines".into()) };
        let Some((sorted_for, buckets)) = sorted else {
            self.note = Some("GPU view: sorting the graph into buckets...".into());
            return Ok(self.nothing_yet());
        };
        if !self.graph_uploaded(ctx, rs, pipes, views, scene, sorted_for, &buckets, plan)? {
            return Ok(self.nothing_yet());
        }
        let Some(view) = views.get_mut(&self.id) else { return Err("no view buffers".into()) };
        if !self.first_touches_done(ctx, rs, view, &buckets)? {
            return Ok(self.nothing_yet());
        }
        view.frames = view.frames.saturating_add(1);
        self.upload_arc_chunk(ctx, rs, view, &buckets, n)?;
        if self.words_for != Some(f.words_key) && !self.colour_words(ctx, rs, pipes, view, &buckets, f, frontier)? {
            return Ok(self.nothing_yet());
        }
        Ok(Some(self.frame_callback(ctx, view, &buckets, f)))
    }

    /// A frame that draws nothing yet: the overlay names no layer.
    fn nothing_yet(&mut self) -> Option<ViewCallback> {
        self.last = ("nothing", "nothing");
        None
    }

    /// Whether the pipelines for this target format are there; they are compiled on a worker
    /// while the graph is sorted (about 300 ms on a software adapter, which stalled the frame
    /// that first uploaded a graph). New pipelines drop every view's buffers.
    fn pipelines_ready(&mut self, ctx: &egui::Context, rs: &RenderState, res: &mut Resources) -> Result<bool, String> {
        if res.pipelines.as_ref().is_some_and(|p| p.format == rs.target_format) {
            return Ok(true);
        }
        let job = self.pipelines_job.get_or_insert_with(|| {
            let (device, format) = (rs.device.clone(), rs.target_format);
            Job::spawn("compiling the graph view's shaders", repaint(ctx), move |_| {
                guarded(&device, "creating the pipelines", || pipelines(&device, format))
            })
        });
        match job.poll() {
            Some(out) => {
                self.pipelines_job = None;
                res.pipelines = Some(out??);
                res.views.clear();
                self.uploaded = None;
                Ok(true)
            }
            None => {
                self.note = Some("GPU view: compiling its shaders...".into());
                Ok(false)
            }
        }
    }

    /// Whether this view's buffers hold the sorted graph `sorted_for`; uploads it when not and
    /// starts the words, the fill and the pacing over. A large graph (over `Stages::min_n`
    /// vertices) draws from the next frame on, after its first touches.
    #[allow(clippy::too_many_arguments)]
    fn graph_uploaded(
        &mut self,
        ctx: &egui::Context,
        rs: &RenderState,
        pipes: &Pipelines,
        views: &mut HashMap<u64, ViewBuffers>,
        scene: &Scene,
        sorted_for: u64,
        buckets: &Buckets,
        plan: BufferPlan,
    ) -> Result<bool, String> {
        if self.uploaded == Some(sorted_for) && views.contains_key(&self.id) {
            return Ok(true);
        }
        views.remove(&self.id);
        let v = guarded(&rs.device, "uploading the graph", || upload(rs, pipes, scene, buckets, plan, self.stages))??;
        self.arcs_drawn = buckets.n_pairs();
        self.total_pairs = buckets.n_pairs();
        let want = if scene.mode == ViewMode::Raster { 0 } else { scene.arcs_to_draw };
        self.note = (self.arcs_drawn < want).then(|| {
            format!(
                "GPU: first {} of {} arcs drawn ({} MiB budget)",
                super::super::overlay::fmt_count(self.arcs_drawn),
                super::super::overlay::fmt_count(want),
                ARC_BUDGET_BYTES >> 20
            )
        });
        self.init_left = v.init.len();
        views.insert(self.id, v);
        self.dens_done.store(0, Ordering::Relaxed);
        self.uploaded = Some(sorted_for);
        self.words_for = None;
        self.gpu_words = None;
        self.words_ready = false;
        self.first_fill = None;
        self.pace = staging::Pace::default();
        self.init_pace = staging::Pace::default();
        if scene.graph.n() > self.stages.min_n {
            ctx.request_repaint();
            return Ok(false);
        }
        if let Some(v) = views.get_mut(&self.id) {
            v.frames = 2;
        }
        Ok(true)
    }

    /// Runs this frame's share of a large graph's first touches; whether they are all done.
    fn first_touches_done(
        &mut self,
        ctx: &egui::Context,
        rs: &RenderState,
        view: &mut ViewBuffers,
        buckets: &Buckets,
    ) -> Result<bool, String> {
        if view.init.is_empty() {
            self.init_left = 0;
            return Ok(true);
        }
        // A resting frame (one in sixteen) touches nothing: its time is the floor.
        let steps = self.init_pace.touch_frame();
        for op in view.init.drain(..steps.min(view.init.len())) {
            guarded(&rs.device, "uploading the graph", || {
                staging::run(op, &rs.device, &rs.queue, &view.pos, &buckets.pos, &view.agg)
            })?;
        }
        let left = view.init.len();
        self.init_left = left;
        self.note =
            Some(format!("GPU view: uploading the graph, {} MiB to go", (left as u64 * self.stages.op_bytes) >> 20));
        ctx.request_repaint();
        Ok(false)
    }

    /// Uploads the next chunk of arc pairs, one a frame; a large graph's arcs follow its first
    /// colour words (each is a frame's first touch).
    fn upload_arc_chunk(
        &self,
        ctx: &egui::Context,
        rs: &RenderState,
        view: &mut ViewBuffers,
        buckets: &Buckets,
        n: usize,
    ) -> Result<(), String> {
        let uploaded_pairs = view.arcs.len() * view.chunk_pairs;
        if uploaded_pairs >= view.total_pairs || !(self.words_ready || n <= self.stages.min_n) {
            return Ok(());
        }
        let c = &buckets.pairs[uploaded_pairs * 2..(uploaded_pairs + view.chunk_pairs).min(view.total_pairs) * 2];
        // Written rather than created with contents, which has wgpu zero a staging buffer
        // before copying into it.
        let b = guarded(&rs.device, "uploading the arcs", || {
            let b = rs.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("graph_view.arcs"),
                size: std::mem::size_of_val(c) as u64,
                usage: wgpu::BufferUsages::INDEX | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            rs.queue.write_buffer(&b, 0, bytemuck::cast_slice(c));
            b
        })?;
        view.arcs.push((b, c.len() as u32));
        ctx.request_repaint();
        Ok(())
    }

    /// Colours the vertices for the frame's state: from the solver's own buffers when they hold
    /// it (zero-copy), a slice a frame while a large graph's first fill runs, else on the host.
    /// Whether the words are done (`false` only while the first fill goes on).
    #[allow(clippy::too_many_arguments)]
    fn colour_words(
        &mut self,
        ctx: &egui::Context,
        rs: &RenderState,
        pipes: &Pipelines,
        view: &mut ViewBuffers,
        buckets: &Buckets,
        f: &Frame<'_>,
        frontier: &mut Vec<VertexId>,
    ) -> Result<bool, String> {
        let n = f.scene.graph.n();
        let need = 4 * n as u64;
        let zero_copy = f.live.filter(|l| {
            // The pass binds whole per-vertex buffers.
            need <= rs.device.limits().max_storage_buffer_binding_size
                && l.device == rs.device
                && l.dist.size() >= need
                && l.stamp.size() >= need
                && f.wrong.len() <= live::MAX_WRONG
                && f.trace.is_some_and(|t| t.pos() == l.iterations as usize)
        });
        match (zero_copy, f.trace) {
            (Some(l), Some(t)) => self.live_words(rs, pipes, view, buckets, f, l, t, frontier)?,
            _ if !self.words_ready && n > self.stages.min_n => {
                let steps = self.init_pace.touch_frame();
                if !self.fill_slice(&rs.queue, &view.words, buckets, f, frontier, steps) {
                    let done = self.first_fill.map_or(0, |(_, d, _)| d);
                    self.note =
                        Some(format!("GPU view: colouring the vertices, {:.0} %", 100.0 * done as f64 / n as f64));
                    // The fill's last frame is the staged one that runs no builds.
                    view.frames = 0;
                    ctx.request_repaint();
                    return Ok(false);
                }
            }
            _ => self.host_words(&rs.queue, &view.words, buckets, f, frontier),
        }
        self.words_ready = true;
        self.words_for = Some(f.words_key);
        self.words_version += 1;
        Ok(true)
    }

    /// The zero-copy words: computed on the device from the solver's δ and stamp buffers.
    #[allow(clippy::too_many_arguments)]
    fn live_words(
        &mut self,
        rs: &RenderState,
        pipes: &Pipelines,
        view: &mut ViewBuffers,
        buckets: &Buckets,
        f: &Frame<'_>,
        l: &DeviceVertexState,
        t: &Trace,
        frontier: &mut Vec<VertexId>,
    ) -> Result<(), String> {
        // The ramp's top, as the host path computes it (a scan of δ in distance mode).
        let max_dist = Shader::new(Some(t), f.color_mode, distance_ramp()).max_dist;
        let lw = match &mut view.live {
            Some(lw) => lw,
            None => view.live.insert(guarded(&rs.device, "uploading the slot order", || {
                live::LiveWords::new(&rs.device, &buckets.order)
            })?),
        };
        guarded(&rs.device, "colouring from the solver's buffers", || {
            lw.write(
                &rs.device,
                &rs.queue,
                &pipes.words,
                l,
                f.scene.graph.n(),
                f.color_mode,
                max_dist.clamp(0, u32::MAX as i64) as u32,
                &view.words,
                &buckets.slot,
                f.wrong,
            )
        })?;
        frontier.clear();
        frontier.extend_from_slice(t.frontier());
        self.gpu_words = None;
        self.words_path = WordsPath::ZeroCopy;
        Ok(())
    }

    /// What the frame draws: each layer directly when the camera sees no more than its budget,
    /// else from the aggregates; whether it builds the aggregates this frame (paced, so that a
    /// build never stalls the UI).
    fn frame_callback(
        &mut self,
        ctx: &egui::Context,
        view: &ViewBuffers,
        buckets: &Buckets,
        f: &Frame<'_>,
    ) -> ViewCallback {
        let seen = buckets.visible(f.world);
        let arcs = layer(seen.n_pairs, self.budgets.arcs, seen.pairs);
        let dots = layer(seen.n_vertices, self.budgets.dots, seen.vertices);
        let building = view.total_pairs > 0 && (self.dens_done.load(Ordering::Relaxed) as usize) < view.total_pairs;
        if arcs == Layer::Aggregate && building {
            let done = self.dens_done.load(Ordering::Relaxed) as f64 / view.total_pairs as f64;
            self.note = Some(format!("GPU view: counting arcs into the density tiles, {:.0} %", 100.0 * done));
            ctx.request_repaint();
        } else if self.note.as_deref().is_some_and(|n| n.starts_with("GPU view:")) {
            self.note = None;
        }
        if self.status_behind.load(Ordering::Relaxed) {
            // The status grid is built a chunk per frame.
            ctx.request_repaint();
        }
        self.last = (layer_name(&arcs), layer_name(&dots));
        let work = view.frames >= 2 && (building || self.status_behind.load(Ordering::Relaxed));
        let builds = view.frames >= 2 && (self.pace.frame(work) || !work);
        let status_vertices = self.pace.apply(self.budgets.status_vertices as usize).min(u32::MAX as usize) as u32;
        ViewCallback {
            id: self.id,
            uniform: f.uniform,
            arcs,
            dots,
            words_version: self.words_version,
            builds,
            build_pairs: self.pace.apply(self.budgets.build_pairs),
            status_vertices,
            dens_done: self.dens_done.clone(),
            status_behind: self.status_behind.clone(),
        }
    }
}

/// A layer of `seen` items (the camera's `ranges`): nothing, direct within `budget`, else the
/// aggregate.
fn layer(seen: u64, budget: u64, ranges: Vec<(u32, u32)>) -> Layer {
    if seen == 0 {
        Layer::Nothing
    } else if seen <= budget {
        Layer::Direct(ranges)
    } else {
        Layer::Aggregate
    }
}
