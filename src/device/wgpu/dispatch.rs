//! What every wgpu backend uses to run kernels and read results: a dispatch ([`Kernel`]), the
//! workgroup grid ([`grid`]), and the map-and-copy read-back ([`read`], [`copy_words`],
//! [`run_batch`]).

use super::Gpu;
use crate::algo::SolveError;
use std::sync::{Arc, Mutex};

fn dev(msg: String) -> SolveError {
    SolveError::Device(msg)
}

/// Workgroups as (x, y) with x ≤ `max_dim`, as even as the two dimensions allow (the kernels
/// index with `num_workgroups`).
pub(crate) fn grid(groups: u32, max_dim: u32) -> (u32, u32) {
    let groups = groups.max(1);
    if groups <= max_dim {
        (groups, 1)
    } else {
        let y = groups.div_ceil(max_dim);
        (groups.div_ceil(y), y)
    }
}

/// One dispatch: pipeline, bind group, workgroups in x and y.
pub(crate) struct Kernel {
    pipeline: wgpu::ComputePipeline,
    group: wgpu::BindGroup,
    grid: (u32, u32),
}

impl Kernel {
    /// Pipeline `entry` of `module` with its override `constants`, bound to the `buffers` whose
    /// binding numbers are in `used` (exactly the ones the entry point uses: the layout is
    /// derived from the shader).
    pub(crate) fn new(
        d: &wgpu::Device,
        module: &wgpu::ShaderModule,
        entry: &str,
        constants: &[(&str, f64)],
        buffers: &[(u32, &wgpu::Buffer)],
        used: &[u32],
        grid: (u32, u32),
    ) -> Kernel {
        let pipeline = d.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(entry),
            layout: None,
            module,
            entry_point: Some(entry),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants,
                zero_initialize_workgroup_memory: false,
            },
            cache: None,
        });
        let group = bind_group(d, &pipeline, entry, buffers, used);
        Kernel { pipeline, group, grid }
    }

    /// The same pipeline bound to other `buffers` (binding numbers in `used`, as for
    /// [`Kernel::new`]): no second compile.
    pub(crate) fn rebound(
        &self,
        d: &wgpu::Device,
        label: &str,
        buffers: &[(u32, &wgpu::Buffer)],
        used: &[u32],
    ) -> Kernel {
        let group = bind_group(d, &self.pipeline, label, buffers, used);
        Kernel { pipeline: self.pipeline.clone(), group, grid: self.grid }
    }

    /// Sets the pipeline and its bind group on `pass` (for a dispatch sized elsewhere, e.g.
    /// indirectly).
    pub(crate) fn bind(&self, pass: &mut wgpu::ComputePass) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.group, &[]);
    }

    /// Records the dispatch into `pass`.
    pub(crate) fn dispatch(&self, pass: &mut wgpu::ComputePass) {
        self.bind(pass);
        pass.dispatch_workgroups(self.grid.0, self.grid.1, 1);
    }
}

/// Group 0 of `pipeline` (its layout derived from the shader) over the `buffers` whose binding
/// numbers are in `used`.
fn bind_group(
    d: &wgpu::Device,
    pipeline: &wgpu::ComputePipeline,
    label: &str,
    buffers: &[(u32, &wgpu::Buffer)],
    used: &[u32],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry> = buffers
        .iter()
        .filter(|(b, _)| used.contains(b))
        .map(|&(binding, buf)| wgpu::BindGroupEntry { binding, resource: buf.as_entire_binding() })
        .collect();
    d.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &entries,
    })
}

/// Refuses block sizes beyond the adapter and arrays of `words` u32 words beyond one storage
/// binding (`what`: the algorithm, for the message).
pub(crate) fn check_limits(
    gpu: &Gpu,
    graph: &crate::graph::Graph,
    what: &str,
    blocks: &[(&str, u32)],
    words: u64,
) -> Result<(), SolveError> {
    let limits = &gpu.limits;
    let max_wg = limits.max_compute_invocations_per_workgroup.min(limits.max_compute_workgroup_size_x);
    for &(kernel, b) in blocks {
        if b > max_wg {
            return Err(dev(format!("{}: block size {b} for {kernel}: the adapter allows {max_wg}", gpu.name)));
        }
    }
    let biggest = 4 * words;
    if biggest > limits.max_storage_buffer_binding_size {
        return Err(dev(format!(
            "graph `{}` ({} arcs) is too large for {what} on {}: an arc array of {biggest} bytes exceeds the \
             adapter's storage binding ({} bytes); use CUDA or the CPU",
            graph.name,
            graph.m(),
            gpu.name,
            limits.max_storage_buffer_binding_size
        )));
    }
    Ok(())
}

/// A mappable buffer of `bytes` (rounded up to a word) to copy results into.
pub(crate) fn readback_buffer(gpu: &Gpu, bytes: u64) -> wgpu::Buffer {
    gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("readback"),
        size: bytes.next_multiple_of(4).max(4),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Maps `buffer[0..size]` after submission `index` and copies the bytes out.
pub(crate) fn read(
    gpu: &Gpu,
    buffer: &wgpu::Buffer,
    size: u64,
    index: wgpu::SubmissionIndex,
    what: &str,
) -> Result<Vec<u8>, SolveError> {
    read_with(gpu, buffer, size, index, what, <[u8]>::to_vec)
}

/// Maps `buffer[0..size]` after submission `index`, hands the mapped bytes to `take` (which
/// copies out what it needs: a launch reads its control block and only the log entries it
/// wrote, not the log's whole bound) and unmaps the buffer, so it can be copied into again.
pub(crate) fn read_with<T>(
    gpu: &Gpu,
    buffer: &wgpu::Buffer,
    size: u64,
    index: wgpu::SubmissionIndex,
    what: &str,
    take: impl FnOnce(&[u8]) -> T,
) -> Result<T, SolveError> {
    let result: Arc<Mutex<Option<Result<(), wgpu::BufferAsyncError>>>> = Arc::new(Mutex::new(None));
    let r2 = Arc::clone(&result);
    let slice = buffer.slice(0..size);
    gpu.guarded(what, || {
        slice.map_async(wgpu::MapMode::Read, move |r| {
            if let Ok(mut slot) = r2.lock() {
                *slot = Some(r);
            }
        })
    })?;
    gpu.wait(index, what)?;
    // The callback runs in some poll after the submission finished (possibly another
    // thread's); poll until it has.
    let mut mapped = result.lock().ok().and_then(|mut r| r.take());
    for _ in 0..10_000 {
        if mapped.is_some() {
            break;
        }
        gpu.poll_once(what)?;
        mapped = result.lock().ok().and_then(|mut r| r.take());
    }
    match mapped {
        Some(Ok(())) => {}
        Some(Err(e)) => return Err(dev(format!("{}: {what}: mapping failed: {e}", gpu.name))),
        None => return Err(dev(format!("{}: {what}: mapping did not finish", gpu.name))),
    }
    let out = take(&slice.get_mapped_range().map_err(|e| dev(format!("{}: {what}: mapped range: {e}", gpu.name)))?);
    buffer.unmap();
    Ok(out)
}

/// Copies the first `n` u32 words of `src` back (through a readback buffer made for the call).
pub(crate) fn copy_words(gpu: &Gpu, src: &wgpu::Buffer, n: usize, what: &str) -> Result<Vec<u32>, SolveError> {
    let rb = gpu.guarded(what, || readback_buffer(gpu, 4 * n.max(1) as u64))?;
    copy_words_via(gpu, src, &rb, n, what)
}

/// Copies the first `n` u32 words of `src` back through `rb`, a readback buffer of at least
/// 4 max(n, 1) bytes the caller keeps (unmapped again when this returns).
pub(crate) fn copy_words_via(
    gpu: &Gpu,
    src: &wgpu::Buffer,
    rb: &wgpu::Buffer,
    n: usize,
    what: &str,
) -> Result<Vec<u32>, SolveError> {
    let bytes = 4 * n.max(1) as u64;
    let index = gpu.guarded(what, || {
        let mut enc = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(what) });
        enc.copy_buffer_to_buffer(src, 0, rb, 0, Some(bytes));
        gpu.queue.submit([enc.finish()])
    })?;
    read_with(gpu, rb, bytes, index, what, |raw| {
        let mut words: Vec<u32> = bytemuck::cast_slice(raw).to_vec();
        words.truncate(n);
        words
    })
}

/// Runs `count` rounds of `kernels` in one compute pass after `setup` (the queue writes that
/// reset the log), then reads back `log[0..log_words]`.
pub(crate) fn run_batch(
    gpu: &Gpu,
    kernels: &[&Kernel],
    count: u32,
    setup: impl FnOnce(&wgpu::Queue),
    log: &wgpu::Buffer,
    log_words: usize,
    what: &str,
) -> Result<Vec<u32>, SolveError> {
    let bytes = 4 * log_words as u64;
    let (rb, index) = gpu.guarded(what, || {
        setup(&gpu.queue);
        let mut enc = gpu.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(what) });
        {
            let mut pass =
                enc.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some(what), timestamp_writes: None });
            for _ in 0..count {
                for k in kernels {
                    k.dispatch(&mut pass);
                }
            }
        }
        let rb = readback_buffer(gpu, bytes);
        enc.copy_buffer_to_buffer(log, 0, &rb, 0, Some(bytes));
        (rb, gpu.queue.submit([enc.finish()]))
    })?;
    let raw = read(gpu, &rb, bytes, index, what)?;
    Ok(bytemuck::cast_slice(&raw).to_vec())
}

/// A storage buffer initialised with `data` (one zero word when empty: wgpu refuses empty
/// bindings).
pub(crate) fn buffer_init(d: &wgpu::Device, label: &str, data: &[u8], usage: wgpu::BufferUsages) -> wgpu::Buffer {
    use wgpu::util::DeviceExt;
    let contents = if data.is_empty() { &[0u8; 4][..] } else { data };
    d.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
}
