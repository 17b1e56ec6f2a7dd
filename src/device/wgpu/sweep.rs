//! The wgpu backend of PHAST's sweep (`[phast]` Delling, Goldberg, Nowatzyk, Werneck, IPDPS 2011
//! §4; kernels `kernels/phast.wgsl`; the driver, with the launch plan, is
//! [`crate::device::driver::sweep::Sweep`]).
//!
//! The hierarchy's sweep arrays ([`sweep::device_arrays`]) are storage buffers uploaded when the
//! stepper is built (and waited for: [`super::Gpu::settle`]); δ is n u32 words by sweep position.
//! A run is one command buffer with one compute pass: `phast_fill` and `phast_scatter` when it
//! resets, then one `phast_staged` or `phast_levels` dispatch per entry of the plan; one
//! submission, one wait. A fast run's command buffer is encoded before the timing (`ready`) and
//! the next one's while the GPU runs this one: encoding costs the host ~10 µs a dispatch, and
//! the commands are the same for every source (the scatter covers the pairs buffer's capacity
//! and reads the count from the parameters).
//! Each dispatch reads its parameters (levels first..=last, pair count, n) from a uniform bound at
//! a dynamic offset: slot 0 for the reset, slot 1 + i for launch i, written only when the plan
//! differs from the one the buffer holds (a many-source worker writes it once). Times are the
//! host's (the driver's clock).

use super::Gpu;
use super::dispatch::{check_limits, read_with, readback_buffer};
use crate::algo::phast::hierarchy;
use crate::algo::{SolveError, Stepper};
use crate::device::driver::sweep::{self, Launch, PAIRS_MIN, STAGE_LEVELS, Stage, Sweep, SweepBackend};
use crate::device::gpu::{Build, SweepRun};
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

mod profile;

const SOURCE: &str = include_str!("../../../kernels/phast.wgsl");

/// wgpu's single-block threshold per thread of a workgroup, CUDA's 4 since the commands are
/// encoded ahead. A dispatch costs the H200's GPU ~9 µs however little it does (call d3's
/// timestamps; CUDA's grid level ~3.5 µs), and it used to cost the host ~10 µs of encoding too,
/// which made 16 (4 096 vertices) the better threshold (call p1). With encoding off the run's
/// path (call d3, NY, 20 runs each): 1 024 → 0.56 ms (GPU pass 413 µs), 2 048 → 0.61, 4 096 →
/// 0.64–0.66 (443 µs); luxembourg even (0.30–0.33 ms at every threshold).
const WGPU_SOLO_PER_THREAD: u32 = 4;
/// Bytes of one dispatch's parameters (`SweepParams`: first, last, count, n).
const PARAM_BYTES: u64 = 16;
/// Invocations of the staged workgroup at most (fewer where the adapter allows fewer).
const STAGE_THREADS: u32 = 1024;
/// Fewer δ words of workgroup storage than this and no staged run is planned: it would hold only
/// the few top levels that cost little anyway.
const STAGE_MIN_WORDS: u32 = 1024;

/// The staged dispatch's room on an adapter with `limits`: its workgroup storage less the level
/// starts' array (`PHAST_STAGE_LEVELS` + 1 words), on up to [`STAGE_THREADS`] invocations. δ only:
/// the 16–48 KiB of workgroup storage adapters give would hold the arcs of few levels.
fn stage_room(limits: &wgpu::Limits) -> Stage {
    let words = (limits.max_compute_workgroup_storage_size / 4).saturating_sub(STAGE_LEVELS + 1);
    let threads =
        STAGE_THREADS.min(limits.max_compute_invocations_per_workgroup).min(limits.max_compute_workgroup_size_x);
    if words < STAGE_MIN_WORDS || threads == 0 {
        Stage::default()
    } else {
        Stage { bytes: 4 * words, threads, arcs: false }
    }
}

/// Buffers and pipelines of one sweep on a wgpu device.
struct SweepWgpu {
    gpu: Arc<Gpu>,
    n: usize,
    block: u32,
    max_dim: u32,
    fill: wgpu::ComputePipeline,
    scatter: wgpu::ComputePipeline,
    levels: wgpu::ComputePipeline,
    /// `phast_staged` with its workgroup size and storage, where the plan has a staged run.
    staged: Option<wgpu::ComputePipeline>,
    stage: Stage,
    layout: wgpu::BindGroupLayout,
    /// level starts, in-arc offsets, tails, weights, δ (bindings 1–5).
    arrays: [wgpu::Buffer; 5],
    /// The upward search's pairs (binding 6), 2 words each; grows with a larger search.
    pairs: wgpu::Buffer,
    pairs_cap: usize,
    /// Per-dispatch parameters, `slots` slots of `align` bytes (binding 0, dynamic offset).
    params: wgpu::Buffer,
    align: u64,
    slots: usize,
    group: wgpu::BindGroup,
    /// The launches slots 1… hold.
    written: Vec<Launch>,
    /// δ's readback (4 n bytes), reused by every read.
    rb: wgpu::Buffer,
    /// The next run's commands, encoded while the GPU ran the last one (or by `ready`), with the
    /// plan and reset they are for.
    ahead: Option<(Vec<Launch>, bool, wgpu::CommandBuffer)>,
    /// Encode ahead (`SSSP_PHAST_AHEAD=0` turns it off for A/B runs).
    encode_ahead: bool,
    /// `SSSP_PHAST_PROFILE=1`: timestamps around every dispatch ([`profile`]).
    profile: Option<profile::Profile>,
}

/// The sweep family's wgpu builder (`GpuFamily::wgpu`): builds (or finds) the hierarchy, uploads
/// its sweep arrays and returns the driver. Errors ([`SolveError::Device`]; the hierarchy's own as
/// it gives them): an array beyond one storage binding, a block beyond the adapter, GPU errors.
pub(super) fn stepper(gpu: Arc<Gpu>, run: SweepRun, b: &Build<'_>) -> Result<Box<dyn Stepper>, SolveError> {
    let graph = &b.graph;
    let h = hierarchy(graph)?;
    let arrays = sweep::device_arrays(&h);
    let n = graph.n();
    let words = arrays.in_tails.len().max(n + 1).max(2 * PAIRS_MIN) as u64;
    check_limits(&gpu, graph, "phast", &[("phast_levels", run.block)], words)?;
    let limits = &gpu.limits;
    let stage = if run.staged { stage_room(limits) } else { Stage::default() };
    let align = u64::from(limits.min_uniform_buffer_offset_alignment).max(PARAM_BYTES);
    let slots = h.levels() + 1;
    let max_dim = limits.max_compute_workgroups_per_dimension.max(1);
    let d = &gpu.device;
    let built = gpu.guarded("building the PHAST stepper", || {
        use super::dispatch::buffer_init;
        let storage = wgpu::BufferUsages::STORAGE;
        let copy = wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST;
        let init = |label: &str, data: &[u32], usage| buffer_init(d, label, bytemuck::cast_slice(data), usage);
        let buffers = [
            init("phast level starts", &arrays.level_start, storage),
            init("phast in-arc offsets", &arrays.in_offsets, storage),
            init("phast in-arc tails", &arrays.in_tails, storage),
            init("phast in-arc weights", &arrays.in_weights, storage),
            init("phast dist", &vec![u32::MAX; n.max(1)], storage | copy),
        ];
        let pairs = pairs_buffer(d, PAIRS_MIN);
        let params = d.create_buffer(&wgpu::BufferDescriptor {
            label: Some("phast params"),
            size: align * slots as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let rb = readback_buffer(&gpu, 4 * n.max(1) as u64);
        let layout = bind_layout(d);
        let pl = d.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("phast"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let desc = wgpu::ShaderModuleDescriptor {
            label: Some("phast.wgsl"),
            source: wgpu::ShaderSource::Wgsl(super::kernels::with_common(SOURCE).into()),
        };
        // SAFETY: every index is bounded by the uploaded arrays: k < level_start[l + 1] ≤ n (δ and
        // in_offsets have n and n + 1 words), a in in_offsets[k]..in_offsets[k + 1] ⊆ the arcs, the
        // tails and the pairs' positions are sweep positions < n, i < count ≤ the pairs written,
        // l ≤ last < levels (level_start has levels + 1 words); loops are bounded by those.
        let module = unsafe { d.create_shader_module_trusted(desc, wgpu::ShaderRuntimeChecks::unchecked()) };
        let constants = [("WG", f64::from(run.block))];
        let pipeline_with = |entry: &str, constants: &[(&str, f64)]| {
            d.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&pl),
                module: &module,
                entry_point: Some(entry),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants,
                    zero_initialize_workgroup_memory: false,
                },
                cache: None,
            })
        };
        let pipeline = |entry: &str| pipeline_with(entry, &constants);
        let (fill, scatter, levels) = (pipeline("phast_fill"), pipeline("phast_scatter"), pipeline("phast_levels"));
        let staged = (stage.bytes > 0).then(|| {
            let c = [("WG", f64::from(stage.threads)), ("STAGE_WORDS", f64::from(stage.bytes / 4))];
            pipeline_with("phast_staged", &c)
        });
        let group = bind_group(d, &layout, &params, &buffers, &pairs);
        (fill, scatter, levels, staged, layout, buffers, pairs, params, group, rb)
    })?;
    let (fill, scatter, levels, staged, layout, arrays_buf, pairs, params, group, rb) = built;
    let device = format!(
        "{} · {} · host wall-clock timing",
        gpu.name,
        sweep::describe(&h, &arrays, run, WGPU_SOLO_PER_THREAD, stage)
    );
    let profile = profile::profile(&gpu, slots + 2);
    let backend = SweepWgpu {
        gpu,
        n,
        block: run.block,
        max_dim,
        fill,
        scatter,
        levels,
        staged,
        stage,
        layout,
        arrays: arrays_buf,
        pairs,
        pairs_cap: PAIRS_MIN,
        params,
        align,
        slots,
        group,
        written: Vec::new(),
        rb,
        ahead: None,
        encode_ahead: std::env::var("SSSP_PHAST_AHEAD").map_or(true, |v| v.trim() != "0"),
        profile,
    };
    Ok(Box::new(Sweep::new(backend, h, run, b.ident(device))))
}

/// A storage buffer for `cap` pairs.
fn pairs_buffer(d: &wgpu::Device, cap: usize) -> wgpu::Buffer {
    d.create_buffer(&wgpu::BufferDescriptor {
        label: Some("phast pairs"),
        size: 8 * cap.max(1) as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// The kernels' one bind group layout: the parameters at a dynamic offset, six storage buffers.
fn bind_layout(d: &wgpu::Device) -> wgpu::BindGroupLayout {
    let entry = |binding: u32, ty: wgpu::BufferBindingType, dynamic: bool| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset: dynamic,
            min_binding_size: if dynamic { wgpu::BufferSize::new(PARAM_BYTES) } else { None },
        },
        count: None,
    };
    let read = wgpu::BufferBindingType::Storage { read_only: true };
    d.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("phast"),
        entries: &[
            entry(0, wgpu::BufferBindingType::Uniform, true),
            entry(1, read, false),
            entry(2, read, false),
            entry(3, read, false),
            entry(4, read, false),
            entry(5, wgpu::BufferBindingType::Storage { read_only: false }, false),
            entry(6, read, false),
        ],
    })
}

fn bind_group(
    d: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    params: &wgpu::Buffer,
    arrays: &[wgpu::Buffer; 5],
    pairs: &wgpu::Buffer,
) -> wgpu::BindGroup {
    let mut entries = vec![wgpu::BindGroupEntry {
        binding: 0,
        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: params,
            offset: 0,
            size: wgpu::BufferSize::new(PARAM_BYTES),
        }),
    }];
    for (i, buf) in arrays.iter().enumerate() {
        entries.push(wgpu::BindGroupEntry { binding: 1 + i as u32, resource: buf.as_entire_binding() });
    }
    entries.push(wgpu::BindGroupEntry { binding: 6, resource: pairs.as_entire_binding() });
    d.create_bind_group(&wgpu::BindGroupDescriptor { label: Some("phast"), layout, entries: &entries })
}

impl SweepWgpu {
    /// Workgroups of a grid-stride dispatch over `items` (at least one, at most the adapter's
    /// maximum per dimension).
    fn groups(&self, items: u32) -> u32 {
        items.div_ceil(self.block).clamp(1, self.max_dim)
    }

    /// Slot `i`'s words.
    fn slot(first: u32, last: u32, count: u32, n: u32) -> [u32; 4] {
        [first, last, count, n]
    }

    /// Makes room for `words` of pairs (a new buffer and bind group when they do not fit).
    fn ensure_pairs(&mut self, words: usize) {
        if words <= 2 * self.pairs_cap {
            return;
        }
        self.pairs_cap = (words / 2).next_power_of_two();
        self.pairs = pairs_buffer(&self.gpu.device, self.pairs_cap);
        self.group = bind_group(&self.gpu.device, &self.layout, &self.params, &self.arrays, &self.pairs);
        // Commands encoded ahead bind the old buffer and size the scatter for its capacity.
        self.ahead = None;
    }

    /// The commands of a run: the reset (`phast_fill`, then `phast_scatter` over the pairs
    /// buffer's capacity, so the same commands serve any search) where `reset`, then `launches`,
    /// slot i + 1 of the parameters for launch i. Validation errors surface at the caller's
    /// error scope.
    fn encode(&self, reset: bool, launches: &[Launch]) -> Result<wgpu::CommandBuffer, SolveError> {
        self.encode_with(reset, launches, None)
    }

    /// [`Self::encode`], with the profile's timestamps around every dispatch where given.
    fn encode_with(
        &self,
        reset: bool,
        launches: &[Launch],
        profile: Option<&profile::Profile>,
    ) -> Result<wgpu::CommandBuffer, SolveError> {
        let what = "running the PHAST sweep";
        let n = self.n as u32;
        let mut enc = self.gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(what) });
        {
            let mut pass =
                enc.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some(what), timestamp_writes: None });
            let mut stamps = 0;
            let mut stamp = |pass: &mut wgpu::ComputePass<'_>| {
                if let Some(p) = profile {
                    p.stamp(pass, stamps);
                    stamps += 1;
                }
            };
            stamp(&mut pass);
            if reset {
                pass.set_bind_group(0, &self.group, &[0]);
                pass.set_pipeline(&self.fill);
                pass.dispatch_workgroups(self.groups(n), 1, 1);
                stamp(&mut pass);
                pass.set_pipeline(&self.scatter);
                pass.dispatch_workgroups(self.groups(self.pairs_cap as u32), 1, 1);
                stamp(&mut pass);
            }
            let mut current = None;
            for (i, x) in launches.iter().enumerate() {
                let pipeline = match (&self.staged, x.staged) {
                    (Some(p), true) => p,
                    (None, true) => {
                        return Err(SolveError::Device(format!(
                            "{}: a staged launch without its pipeline",
                            self.gpu.name
                        )));
                    }
                    (_, false) => &self.levels,
                };
                if current != Some(x.staged) {
                    pass.set_pipeline(pipeline);
                    current = Some(x.staged);
                }
                let offset = (i as u64 + 1) * self.align;
                pass.set_bind_group(0, &self.group, &[offset as u32]);
                pass.dispatch_workgroups(x.blocks.clamp(1, self.max_dim), 1, 1);
                stamp(&mut pass);
            }
        }
        if let Some(p) = profile {
            p.resolve(&mut enc, profile::stamps(reset, launches));
        }
        Ok(enc.finish())
    }

    /// Encodes the commands of a run of `launches` (after the reset where `reset`) for the next
    /// run to take, unless they are there already or the plan is a single launch (a step).
    fn encode_ahead(&mut self, reset: bool, launches: &[Launch]) -> Result<(), SolveError> {
        if launches.len() > 1
            && self.encode_ahead
            && self.ahead.as_ref().is_none_or(|(p, r, _)| *r != reset || p != launches)
        {
            let gpu = Arc::clone(&self.gpu);
            let cb = gpu.guarded("encoding the PHAST sweep", || self.encode(reset, launches))??;
            self.ahead = Some((launches.to_vec(), reset, cb));
        }
        Ok(())
    }

    /// The commands of a run of `launches` (after the reset where `reset`): the ones encoded
    /// ahead when they are for the same run, else fresh ones.
    fn encoded(&mut self, reset: bool, launches: &[Launch]) -> Result<wgpu::CommandBuffer, SolveError> {
        match self.ahead.take() {
            Some((plan, r, cb)) if r == reset && plan == launches => Ok(cb),
            _ => self.encode(reset, launches),
        }
    }

    fn run_pass(
        &mut self,
        reset: Option<&[u32]>,
        launches: &[Launch],
        cancel: &AtomicBool,
    ) -> Result<Option<f64>, SolveError> {
        if launches.len() + 1 > self.slots {
            return Err(SolveError::Device(format!(
                "{}: a PHAST plan of {} launches for {} parameter slots",
                self.gpu.name,
                launches.len(),
                self.slots
            )));
        }
        let n = self.n as u32;
        let count = reset.map_or(0, |w| (w.len() / 2) as u32);
        let what = "running the PHAST sweep";
        let gpu = Arc::clone(&self.gpu);
        let t0 = std::time::Instant::now();
        let index = gpu.guarded(what, || -> Result<wgpu::SubmissionIndex, SolveError> {
            let q = &gpu.queue;
            if let Some(words) = reset {
                self.ensure_pairs(words.len());
                if count > 0 {
                    q.write_buffer(&self.pairs, 0, bytemuck::cast_slice(&words[..2 * count as usize]));
                }
                q.write_buffer(&self.params, 0, bytemuck::cast_slice(&Self::slot(0, 0, count, n)));
            }
            if self.written.len() < launches.len() || self.written[..launches.len()] != *launches {
                let mut bytes = vec![0u8; self.align as usize * launches.len()];
                for (i, x) in launches.iter().enumerate() {
                    let at = i * self.align as usize;
                    bytes[at..at + PARAM_BYTES as usize]
                        .copy_from_slice(bytemuck::cast_slice(&Self::slot(x.first, x.last, 0, n)));
                }
                if !bytes.is_empty() {
                    q.write_buffer(&self.params, self.align, &bytes);
                }
                self.written = launches.to_vec();
            }
            let cb = match &self.profile {
                Some(p) => self.encode_with(reset.is_some(), launches, Some(p))?,
                None => self.encoded(reset.is_some(), launches)?,
            };
            if cancel.load(Ordering::Relaxed) {
                return Err(SolveError::Cancelled);
            }
            // The queued writes go first: wgpu submits them ahead of the command buffers.
            Ok(q.submit([cb]))
        })??;
        let t_submitted = std::time::Instant::now();
        if let Some(p) = &self.profile {
            gpu.wait(index.clone(), what)?;
            let host = [(t_submitted - t0).as_secs_f64() * 1e6, t_submitted.elapsed().as_secs_f64() * 1e6];
            eprintln!("{}", p.line(&gpu, index, reset.is_some(), launches, host)?);
            return Ok(None);
        }
        // While the GPU runs, encode the next run of the same plan (a bench's repetitions and a
        // many-source worker repeat it): encoding costs the host ~10 µs a dispatch on the H100
        // (docs/gpu-worklist.md §14), which would otherwise come before each submission.
        self.encode_ahead(reset.is_some(), launches)?;
        gpu.wait(index, what)?;
        Ok(None)
    }

    fn read(&self, range: Range<usize>) -> Result<Vec<u32>, SolveError> {
        if range.is_empty() {
            return Ok(Vec::new());
        }
        let what = "copying δ from the GPU";
        let gpu = &self.gpu;
        let bytes = 4 * range.len() as u64;
        let index = gpu.guarded(what, || {
            let mut enc = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(what) });
            enc.copy_buffer_to_buffer(&self.arrays[4], 4 * range.start as u64, &self.rb, 0, Some(bytes));
            gpu.queue.submit([enc.finish()])
        })?;
        read_with(gpu, &self.rb, bytes, index, what, |raw| bytemuck::cast_slice::<u8, u32>(raw).to_vec())
    }
}

impl SweepBackend for SweepWgpu {
    const SOLO_PER_THREAD: u32 = WGPU_SOLO_PER_THREAD;

    fn stage(&self) -> Stage {
        self.stage
    }

    fn run(
        &mut self,
        reset: Option<&[u32]>,
        launches: &[Launch],
        cancel: &AtomicBool,
    ) -> Result<Option<f64>, SolveError> {
        self.run_pass(reset, launches, cancel)
    }

    fn read_dist(&mut self, range: Range<usize>) -> Result<Vec<u32>, SolveError> {
        self.read(range)
    }

    fn ready(&mut self, launches: &[Launch], reset: bool) -> Result<(), SolveError> {
        self.encode_ahead(reset, launches)
    }
}

#[cfg(test)]
mod tests {
    /// The kernel file with the prelude and common.wgsl passes naga's front end and validator
    /// (uniformity included: the barriers between levels), no adapter needed.
    #[test]
    fn kernel_parses_and_validates() {
        let text = super::super::kernels::with_common(super::SOURCE);
        let module =
            wgpu::naga::front::wgsl::parse_str(&text).unwrap_or_else(|e| panic!("{}", e.emit_to_string(&text)));
        wgpu::naga::valid::Validator::new(
            wgpu::naga::valid::ValidationFlags::all(),
            wgpu::naga::valid::Capabilities::all(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{}", e.emit_to_string(&text)));
    }
}
