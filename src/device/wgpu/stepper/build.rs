//! Building a wgpu stepper: limits, buffers, pipelines and bind groups of the vertex-parallel
//! kernels, and (on the first fast run) of the fast path.

use super::*;
use crate::algo::SolveOptions;
use crate::graph::Graph;

/// Workgroups of the vertex-parallel kernels (2-D beyond the per-dimension limit) and the
/// minimum's per-block partials.
struct Grids {
    relax: (u32, u32),
    min1: (u32, u32),
    update: (u32, u32),
    partials: u32,
}

impl Grids {
    fn new(gpu: &Gpu, tuning: &WgpuTuning, n: u32, opts: &SolveOptions) -> Grids {
        let max_dim = tuning.max_workgroups_per_dim.unwrap_or(gpu.limits.max_compute_workgroups_per_dimension).max(1);
        let partials = n.div_ceil(2 * opts.block.minimum).max(1);
        Grids {
            relax: grid(n.div_ceil(opts.block.relax), max_dim),
            min1: grid(partials, max_dim),
            update: grid(n.div_ceil(opts.block.update), max_dim),
            partials,
        }
    }

    fn two_d(&self) -> bool {
        self.relax.1 > 1 || self.min1.1 > 1 || self.update.1 > 1
    }
}

/// What the fast path's kernels are shaped by and work on (see `WgpuFrontier::fast_items`).
struct FastItems {
    shape: FastShape,
    vinfo: Vec<[u32; 2]>,
    list: Vec<[u32; 2]>,
    capacity: u64,
}

/// The compiled vertex-parallel kernels: init, relax (of the run's mode), minimum1, minimum2,
/// update.
struct Pipelines {
    relax_kernel: Kernel,
    init: Arc<Compiled>,
    relax: Arc<Compiled>,
    min1: Arc<Compiled>,
    min2: Arc<Compiled>,
    update: Arc<Compiled>,
}

impl WgpuFrontier {
    /// The frontier stepper on this adapter: checks the graph and block sizes against the
    /// adapter, uploads the graph, compiles the vertex-parallel kernels and initialises the
    /// state from the source. Errors ([`SolveError::Device`]) name the adapter limit a request
    /// exceeds.
    pub(in crate::device::wgpu) fn stepper(
        gpu: Arc<Gpu>,
        run: FrontierRun,
        req: &Build<'_>,
        tuning: WgpuTuning,
    ) -> Result<WgpuStepper, SolveError> {
        let (graph, source, opts) = (&req.graph, req.source, req.opts);
        let n = graph.n();
        let max_binding = check_limits(&gpu, graph, opts)?;
        let csr: &Csr = match run.variant {
            RelaxVariant::Successors => graph.successors(),
            RelaxVariant::Predecessors => graph.predecessors(),
        };
        let (arcs, per_chunk) = arc_layout(&gpu, graph, csr, &tuning, max_binding)?;
        let grids = Grids::new(&gpu, &tuning, n as u32, opts);
        let p = compile(&gpu, run, opts, arcs, &tuning)?;
        let d = &gpu.device;
        let (b, groups, index) = gpu.guarded("creating buffers", || {
            let b = create_buffers(&gpu, graph, csr, per_chunk, &grids, req, run);
            let g_init = bind_group(d, Kernel::Init, &p.init, &b, &[]);
            let groups = [
                bind_group(d, p.relax_kernel, &p.relax, &b, &[]),
                bind_group(d, Kernel::Minimum1, &p.min1, &b, &[]),
                bind_group(d, Kernel::Minimum2, &p.min2, &b, &[]),
                bind_group(d, Kernel::Update, &p.update, &b, &[]),
            ];
            // Initialise: δ = ∞, U = V, except the source (the frontier of iteration 1).
            let mut enc = d.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("init") });
            {
                let mut pass = enc
                    .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("init"), timestamp_writes: None });
                pass.set_pipeline(&p.init.pipeline);
                pass.set_bind_group(0, &g_init, &[]);
                pass.dispatch_workgroups(grids.update.0, grids.update.1, 1);
            }
            let index = gpu.queue.submit([enc.finish()]);
            (b, groups, index)
        })?;
        let [g_relax, g_min1, g_min2, g_update] = groups;
        gpu.wait(index, "initialising")?;

        let backend = WgpuFrontier {
            relax: Pass { compiled: p.relax, group: g_relax, grid: grids.relax },
            minimum1: Pass { compiled: p.min1, group: g_min1, grid: grids.min1 },
            minimum2: Pass { compiled: p.min2, group: g_min2, grid: (1, 1) },
            update: Pass { compiled: p.update, group: g_update, grid: grids.update },
            fast: None,
            graph: Arc::clone(graph),
            opts: opts.clone(),
            source,
            run,
            tuning,
            n: n as u32,
            arcs,
            b,
            two_d: grids.two_d(),
            fast_run: None,
            gpu: Arc::clone(&gpu),
        };
        Ok(Frontier::new(backend, run, req.ident(device_name(&gpu))))
    }

    /// Builds the fast path's pipelines and buffers.
    pub(super) fn build_fast(&mut self) -> Result<(), SolveError> {
        let gpu = Arc::clone(&self.gpu);
        let n = self.n;
        let max_dim = self.tuning.max_workgroups_per_dim.unwrap_or(gpu.limits.max_compute_workgroups_per_dimension);
        let pred = self.run.variant == RelaxVariant::Predecessors;
        let FastItems { shape, vinfo, list, capacity } = self.fast_items(max_dim);
        let (cap, pred_items) = (shape.relax_cap, list.len() as u32);
        let key = |kernel: Kernel, wg: u32| PipelineKey {
            kernel,
            wg,
            instrument: false,
            crauser: self.run.threshold == Threshold::Crauser,
            arcs: self.arcs,
            fast: shape,
            bounds_checks: self.tuning.bounds_checks,
        };
        let relax_kernel = if pred { Kernel::FastRelaxPred } else { Kernel::FastRelaxSucc };
        let c_setup = kernels::get(&gpu, key(Kernel::FastSetup, self.opts.block.update))?;
        let c_relax = kernels::get(&gpu, key(relax_kernel, shape.relax_wg))?;
        let c_update = kernels::get(&gpu, key(Kernel::FastUpdate, self.opts.block.update))?;
        let d = &gpu.device;
        let b = &self.b;
        let fast = gpu.guarded("creating the fast path", || {
            let FastBuffers { params, vinfo, flist, fctl, args } =
                fast_buffers(d, [n, self.source, capacity as u32, pred_items], &vinfo, &list, pred);
            let extra = [
                (bind::PARAMS, &params),
                (bind::OMEGA, &vinfo),
                (bind::FLIST, &flist),
                (bind::FCTL, &fctl),
                (bind::ARGS_A, &args[0]),
                (bind::ARGS_B, &args[1]),
            ];
            // update strides over the vertices with a fixed grid (see fast_update).
            let update_grid = (n.div_ceil(4 * self.opts.block.update).clamp(1, FAST_UPDATE_CAP.min(max_dim)), 1);
            Fast {
                setup: Pass {
                    group: bind_group(d, Kernel::FastSetup, &c_setup, b, &extra),
                    compiled: c_setup,
                    grid: self.update.grid,
                },
                relax: Pass {
                    group: bind_group(d, relax_kernel, &c_relax, b, &extra),
                    compiled: c_relax,
                    grid: (cap, 1),
                },
                update: Pass {
                    group: bind_group(d, Kernel::FastUpdate, &c_update, b, &extra),
                    compiled: c_update,
                    grid: update_grid,
                },
                fctl,
                args,
                first_groups: cap,
                _keep: [params, vinfo, flist],
            }
        })?;
        self.fast = Some(fast);
        Ok(())
    }

    /// The fast path's work items and their shape: lanes per item (a power of two near the
    /// mean degree, ≤ 32, dividing the workgroup), `(ω, items)` per vertex, for predecessors
    /// the fixed item list over every vertex's in-arcs, the frontier lists' capacity, and the
    /// relax grid (at most `FAST_RELAX_CAP` workgroups, whose teams loop over longer lists).
    fn fast_items(&self, max_dim: u32) -> FastItems {
        let (graph, n) = (&self.graph, self.n);
        let relax_wg = self.opts.block.relax;
        let mean_degree = graph.m().div_ceil(graph.n().max(1)) as u32;
        let team = mean_degree.max(1).next_power_of_two().min(32).min(1 << relax_wg.trailing_zeros());
        let chunk = 64 * team;
        let pred = self.run.variant == RelaxVariant::Predecessors;
        let items_of = |deg: usize| (deg as u32).div_ceil(chunk).max(1);
        let succ = graph.successors();
        let vinfo: Vec<[u32; 2]> = (0..n)
            .map(|v| {
                let w = graph.omega()[v as usize];
                [if w == INF { U_INF } else { w as u32 }, if pred { 0 } else { items_of(succ.degree(v)) }]
            })
            .collect();
        let (capacity, list): (u64, Vec<[u32; 2]>) = if pred {
            let p = graph.predecessors();
            let list: Vec<[u32; 2]> = (0..n)
                .filter(|&v| p.degree(v) > 0)
                .flat_map(|v| (0..items_of(p.degree(v))).map(move |c| [v, c]))
                .collect();
            (list.len() as u64, list)
        } else {
            (vinfo.iter().map(|x| x[1] as u64).sum(), Vec::new())
        };
        let work = if pred { list.len() as u64 } else { n as u64 };
        let cap =
            (FAST_RELAX_CAP.min(max_dim) as u64).min((work * team as u64).div_ceil(relax_wg as u64).max(1)) as u32;
        let shape = FastShape { team, chunk, relax_wg, relax_cap: cap, relax_fixed: if pred { cap } else { 0 } };
        FastItems { shape, vinfo, list, capacity }
    }
}

/// Refuses per-vertex arrays larger than one storage binding and block sizes beyond the
/// adapter's workgroups; returns the largest binding in bytes.
fn check_limits(gpu: &Gpu, graph: &Graph, opts: &SolveOptions) -> Result<u64, SolveError> {
    let limits = &gpu.limits;
    let n = graph.n();
    let max_binding = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size);
    if (2 * n as u64 + 1) * 4 > max_binding {
        return Err(dev(format!(
            "{}: graph `{}` has {n} vertices; its per-vertex arrays exceed the adapter's largest storage \
             binding ({} MiB)",
            gpu.name,
            graph.name,
            max_binding >> 20
        )));
    }
    let max_wg = limits.max_compute_invocations_per_workgroup.min(limits.max_compute_workgroup_size_x);
    for (what, bsize) in [("relax", opts.block.relax), ("minimum", opts.block.minimum), ("update", opts.block.update)] {
        if bsize == 0 || bsize > max_wg {
            return Err(dev(format!(
                "{}: block size {bsize} for {what} is not possible: workgroups hold 1 to {max_wg} invocations \
                 on this adapter (max_compute_invocations_per_workgroup)",
                gpu.name
            )));
        }
    }
    let shared = opts.block.minimum as u64 * 8 + 64;
    if shared > limits.max_compute_workgroup_storage_size as u64 {
        return Err(dev(format!(
            "{}: block size {} for minimum needs {shared} bytes of workgroup memory, the adapter has {}",
            gpu.name, opts.block.minimum, limits.max_compute_workgroup_storage_size
        )));
    }
    Ok(max_binding)
}

/// Arc arrays split into chunks of 2^shift arcs when larger than one binding; returns the
/// layout and the arcs per chunk. Errors: more chunks than the kernels or the adapter bind.
fn arc_layout(
    gpu: &Gpu,
    graph: &Graph,
    csr: &Csr,
    tuning: &WgpuTuning,
    max_binding: u64,
) -> Result<(ArcLayout, u64), SolveError> {
    let m = csr.m() as u64;
    let chunk_bytes = tuning.arc_chunk_bytes.unwrap_or(max_binding).min(max_binding).max(4);
    let shift = (63 - (chunk_bytes / 4).leading_zeros()).min(31);
    let per_chunk = 1u64 << shift;
    let chunks = m.div_ceil(per_chunk).max(1);
    let storage_limit = gpu.limits.max_storage_buffers_per_shader_stage as u64;
    let storage_needed = super::super::MIN_STORAGE_BUFFERS as u64 + 2 * (chunks - 1);
    if chunks > kernels::MAX_CHUNKS as u64 || storage_needed > storage_limit {
        let fit = (kernels::MAX_CHUNKS as u64)
            .min(storage_limit.saturating_sub(super::super::MIN_STORAGE_BUFFERS as u64) / 2 + 1);
        return Err(dev(format!(
            "{}: graph `{}` has {m} arcs ({} KiB per arc array), which needs {chunks} bindings of at most {} KiB \
             each; at most {fit} fit (max_storage_buffers_per_shader_stage = {storage_limit})",
            gpu.name,
            graph.name,
            (m * 4) >> 10,
            (per_chunk * 4) >> 10,
        )));
    }
    Ok((ArcLayout { chunks: chunks as u32, shift: if chunks == 1 { 31 } else { shift } }, per_chunk))
}

/// Compiles (or takes from the cache) the vertex-parallel kernels of the run's mode.
fn compile(
    gpu: &Gpu,
    run: FrontierRun,
    opts: &SolveOptions,
    arcs: ArcLayout,
    tuning: &WgpuTuning,
) -> Result<Pipelines, SolveError> {
    let key = |kernel: Kernel, wg: u32| PipelineKey {
        kernel,
        wg,
        instrument: opts.instrument,
        crauser: run.threshold == Threshold::Crauser,
        arcs,
        fast: FastShape::default(),
        bounds_checks: tuning.bounds_checks,
    };
    let relax_kernel = match (run.racy, run.variant) {
        (true, _) => Kernel::RelaxRacy,
        (_, RelaxVariant::Predecessors) => Kernel::RelaxPred,
        _ if run.balanced => Kernel::RelaxSuccBalanced,
        _ => Kernel::RelaxSucc,
    };
    Ok(Pipelines {
        relax_kernel,
        init: kernels::get(gpu, key(Kernel::Init, opts.block.update))?,
        relax: kernels::get(gpu, key(relax_kernel, opts.block.relax))?,
        min1: kernels::get(gpu, key(Kernel::Minimum1, opts.block.minimum))?,
        min2: kernels::get(gpu, key(Kernel::Minimum2, opts.block.minimum))?,
        update: kernels::get(gpu, key(Kernel::Update, opts.block.update))?,
    })
}

/// Every buffer of the vertex-parallel path: the graph (arc arrays in chunks of `per_chunk`),
/// the state, the log, the indirect sizes, two read-back buffers and the timestamp queries.
fn create_buffers(
    gpu: &Gpu,
    graph: &Graph,
    csr: &Csr,
    per_chunk: u64,
    grids: &Grids,
    req: &Build<'_>,
    run: FrontierRun,
) -> Buffers {
    let d = &gpu.device;
    let (n, m) = (graph.n(), csr.m() as u64);
    let storage = wgpu::BufferUsages::STORAGE;
    let init = |label: &str, data: &[u8], usage: wgpu::BufferUsages| {
        let contents = if data.is_empty() { &[0u8; 4][..] } else { data };
        d.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
    };
    let zeroed = |label: &str, size: u64, usage: wgpu::BufferUsages| {
        d.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: size.max(4).next_multiple_of(4),
            usage,
            mapped_at_creation: false,
        })
    };
    let copy = wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
    let omega: Vec<u32> = graph.omega().iter().map(|&w| if w == INF { U_INF } else { w as u32 }).collect();
    let mut targets = Vec::new();
    let mut weights = Vec::new();
    for c in 0..m.div_ceil(per_chunk).max(1) {
        let lo = (c * per_chunk) as usize;
        let hi = ((c + 1) * per_chunk).min(m) as usize;
        targets.push(init("targets", bytemuck::cast_slice(&csr.targets[lo..hi]), storage));
        weights.push(init("weights", bytemuck::cast_slice(&csr.weights[lo..hi]), storage));
    }
    let stamp_len = if req.opts.instrument && run.variant == RelaxVariant::Successors { n as u64 * 4 } else { 4 };
    let (r, m1) = (grids.relax, grids.min1);
    Buffers {
        params: init(
            "params",
            bytemuck::cast_slice(&[n as u32, req.source, grids.partials, 0u32]),
            wgpu::BufferUsages::UNIFORM,
        ),
        dist: zeroed("dist", n as u64 * 4, storage | copy),
        status: zeroed("status", n as u64 * 4, storage | copy),
        ctrl: zeroed("ctrl", 16, storage | copy),
        log: zeroed("log", BATCH_MAX as u64 * LOG_WORDS as u64 * 4, storage | copy),
        omega: init("omega", bytemuck::cast_slice(&omega), storage),
        partials: zeroed("partials", grids.partials as u64 * 8, storage),
        offsets: init("offsets", bytemuck::cast_slice(&csr.offsets), storage),
        stamp: zeroed("stamp", stamp_len, storage),
        indirect: init(
            "indirect",
            bytemuck::cast_slice(&[r.0, r.1, 1, m1.0, m1.1, 1u32]),
            storage | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST,
        ),
        targets,
        weights,
        readback: [0, 1]
            .map(|_| zeroed("readback", RB_SIZE, wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST)),
        queries: gpu.timestamps.then(|| {
            let count = 2 * BATCH_MAX * TS_PER_ITER;
            let set = d.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("kernel times"),
                ty: wgpu::QueryType::Timestamp,
                count,
            });
            let resolve = zeroed(
                "timestamps",
                count as u64 * 8,
                wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            );
            (set, resolve)
        }),
        state_readback: None,
    }
}

/// The device string: adapter, distance range, timing, and the warp model where the
/// adapter's subgroups are not 32 lanes.
fn device_name(gpu: &Gpu) -> String {
    let mut name = format!(
        "{} · {DISTANCE_RANGE} · {}",
        gpu.name,
        if gpu.timestamps { "GPU timestamps" } else { "host wall-clock timing" }
    );
    match gpu.subgroup {
        (32, 32) => {}
        (0, _) => name.push_str(" · 32-thread warp model (adapter reports no subgroup size)"),
        (lo, hi) if lo == hi => name.push_str(&format!(" · 32-thread warp model (subgroup {lo})")),
        (lo, hi) => name.push_str(&format!(" · 32-thread warp model (subgroup {lo}–{hi})")),
    }
    name
}

/// The fast path's own buffers.
struct FastBuffers {
    params: wgpu::Buffer,
    vinfo: wgpu::Buffer,
    flist: wgpu::Buffer,
    fctl: wgpu::Buffer,
    args: [wgpu::Buffer; 2],
}

/// Creates the fast path's buffers: its parameters `[n, source, capacity, predecessor items]`,
/// `(ω, items)` per vertex, the predecessor item list or room for two frontier lists, the
/// control words with the log of two batches, and the two indirect relax sizes.
fn fast_buffers(d: &wgpu::Device, params: [u32; 4], vinfo: &[[u32; 2]], list: &[[u32; 2]], pred: bool) -> FastBuffers {
    let capacity = params[2] as u64;
    let storage = wgpu::BufferUsages::STORAGE;
    let init = |label: &str, data: &[u8], usage: wgpu::BufferUsages| {
        let contents = if data.is_empty() { &[0u8; 8][..] } else { data };
        d.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
    };
    let params = init("fast params", bytemuck::cast_slice(&params), wgpu::BufferUsages::UNIFORM);
    let vinfo = init("vinfo", bytemuck::cast_slice(vinfo), storage);
    let flist = if pred {
        init("predecessor items", bytemuck::cast_slice(list), storage)
    } else {
        d.create_buffer(&wgpu::BufferDescriptor {
            label: Some("frontier lists"),
            size: (2 * capacity * 8).max(8),
            usage: storage,
            mapped_at_creation: false,
        })
    };
    let fctl = d.create_buffer(&wgpu::BufferDescriptor {
        label: Some("fctl"),
        size: (FCTL_WORDS as u64 + 2 * BATCH_MAX as u64 * LOG_WORDS as u64) * 4,
        usage: storage | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let args = [0, 1].map(|_| {
        d.create_buffer(&wgpu::BufferDescriptor {
            label: Some("relax size"),
            size: 16,
            usage: storage | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    });
    FastBuffers { params, vinfo, flist, fctl, args }
}
