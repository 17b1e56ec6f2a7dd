//! Bringing a view's device state up to date with the frame: the graph and layout uploaded,
//! the arc chunks, the colour words and the aggregates' grids (`GpuView::sync`).

use super::*;

impl GpuView {
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
        if res.pipelines.as_ref().is_none_or(|p| p.format != rs.target_format) {
            // Compiled on a worker while the graph is sorted (about 300 ms on a software adapter,
            // which stalled the frame that first uploaded a graph).
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
                }
                None => {
                    self.note = Some("GPU view: compiling its shaders...".into());
                    self.last = ("nothing", "nothing");
                    return Ok(None);
                }
            }
        }
        let Some(pipes) = &res.pipelines else { return Err("no pipelines".into()) };
        let Some((sorted_for, buckets)) = sorted else {
            self.note = Some("GPU view: sorting the graph into buckets...".into());
            self.last = ("nothing", "nothing");
            return Ok(None);
        };

        if self.uploaded != Some(sorted_for) || !res.views.contains_key(&self.id) {
            res.views.remove(&self.id);
            let v =
                guarded(&rs.device, "uploading the graph", || upload(rs, pipes, scene, &buckets, plan, self.stages))??;
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
            res.views.insert(self.id, v);
            self.dens_done.store(0, Ordering::Relaxed);
            self.uploaded = Some(sorted_for);
            self.words_for = None;
            self.gpu_words = None;
            self.words_ready = false;
            self.first_fill = None;
            self.pace = staging::Pace::default();
            self.init_pace = staging::Pace::default();
            if n > self.stages.min_n {
                ctx.request_repaint();
                self.last = ("nothing", "nothing");
                return Ok(None);
            }
            if let Some(v) = res.views.get_mut(&self.id) {
                v.frames = 2;
            }
        }
        let Some(view) = res.views.get_mut(&self.id) else { return Err("no view buffers".into()) };
        if !view.init.is_empty() {
            // A resting frame (one in sixteen) touches nothing: its time is the floor.
            let steps = self.init_pace.touch_frame();
            for op in view.init.drain(..steps.min(view.init.len())) {
                guarded(&rs.device, "uploading the graph", || {
                    staging::run(op, &rs.device, &rs.queue, &view.pos, &buckets.pos, &view.agg)
                })?;
            }
            let left = view.init.len();
            self.init_left = left;
            self.note = Some(format!(
                "GPU view: uploading the graph, {} MiB to go",
                (left as u64 * self.stages.op_bytes) >> 20
            ));
            self.last = ("nothing", "nothing");
            ctx.request_repaint();
            return Ok(None);
        }
        self.init_left = 0;
        view.frames = view.frames.saturating_add(1);
        let uploaded_pairs = view.arcs.len() * view.chunk_pairs;
        // A large graph's arcs follow its first colour words (each is a frame's first touch).
        if uploaded_pairs < view.total_pairs && (self.words_ready || n <= self.stages.min_n) {
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
        }

        if self.words_for != Some(f.words_key) {
            let need = 4 * n as u64;
            let zero_copy = f.live.filter(|l| {
                // The pass binds whole per-vertex buffers.
                need <= limits.max_storage_buffer_binding_size
                    && l.device == rs.device
                    && l.dist.size() >= need
                    && l.stamp.size() >= need
                    && f.wrong.len() <= live::MAX_WRONG
                    && f.trace.is_some_and(|t| t.pos() == l.iterations as usize)
            });
            match (zero_copy, f.trace) {
                (Some(l), Some(t)) => {
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
                            n,
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
                }
                _ if !self.words_ready && n > self.stages.min_n => {
                    let steps = self.init_pace.touch_frame();
                    if !self.fill_slice(&rs.queue, &view.words, &buckets, f, frontier, steps) {
                        let done = self.first_fill.map_or(0, |(_, d, _)| d);
                        self.note =
                            Some(format!("GPU view: colouring the vertices, {:.0} %", 100.0 * done as f64 / n as f64));
                        self.last = ("nothing", "nothing");
                        // The fill's last frame is the staged one that runs no builds.
                        view.frames = 0;
                        ctx.request_repaint();
                        return Ok(None);
                    }
                }
                _ => {
                    self.host_words(&rs.queue, &view.words, &buckets, f, frontier);
                }
            }
            self.words_ready = true;
            self.words_for = Some(f.words_key);
            self.words_version += 1;
        }

        let seen = buckets.visible(f.world);
        let arcs = if seen.n_pairs == 0 {
            Layer::Nothing
        } else if seen.n_pairs <= self.budgets.arcs {
            Layer::Direct(seen.pairs)
        } else {
            Layer::Aggregate
        };
        let dots = if seen.n_vertices == 0 {
            Layer::Nothing
        } else if seen.n_vertices <= self.budgets.dots {
            Layer::Direct(seen.vertices)
        } else {
            Layer::Aggregate
        };
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
        Ok(Some(ViewCallback {
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
        }))
    }
}
