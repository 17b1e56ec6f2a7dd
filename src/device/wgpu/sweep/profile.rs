//! `SSSP_PHAST_PROFILE=1` for the wgpu sweep (the twin of the CUDA backend's per-launch events):
//! a timestamp at the pass's start and after every dispatch, printed to stderr as one line per
//! run with the host's share. Needs `TIMESTAMP_QUERY_INSIDE_PASSES`; without it there is no
//! profile. A profiled run encodes its commands itself (nothing ahead).

use crate::algo::SolveError;
use crate::device::driver::sweep::Launch;
use crate::device::wgpu::Gpu;
use crate::device::wgpu::dispatch::{read_with, readback_buffer};

/// The profile's queries: one before the first dispatch and one after each of at most
/// `cap` − 1 dispatches.
pub(super) struct Profile {
    set: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    rb: wgpu::Buffer,
    cap: u32,
}

/// The profile of a sweep whose runs have at most `dispatches` dispatches, where asked for and
/// the device can write timestamps inside a pass.
pub(super) fn profile(gpu: &Gpu, dispatches: usize) -> Option<Profile> {
    let want = std::env::var("SSSP_PHAST_PROFILE").is_ok_and(|v| v.trim() == "1");
    if !want || !gpu.device.features().contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES) {
        return None;
    }
    let cap = dispatches as u32 + 1;
    let set = gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
        label: Some("phast profile"),
        ty: wgpu::QueryType::Timestamp,
        count: cap,
    });
    let resolve = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("phast profile"),
        size: 8 * u64::from(cap),
        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let rb = readback_buffer(gpu, 8 * u64::from(cap));
    Some(Profile { set, resolve, rb, cap })
}

/// Timestamps of a run: the pass's start, then one after the reset's two dispatches where
/// `reset` and one after each launch.
pub(super) fn stamps(reset: bool, launches: &[Launch]) -> u32 {
    1 + 2 * u32::from(reset) + launches.len() as u32
}

impl Profile {
    /// Writes timestamp `i` (ignored past the set's size).
    pub(super) fn stamp(&self, pass: &mut wgpu::ComputePass<'_>, i: u32) {
        if i < self.cap {
            pass.write_timestamp(&self.set, i);
        }
    }

    /// Copies the first `count` timestamps to the readback, after the pass.
    pub(super) fn resolve(&self, enc: &mut wgpu::CommandEncoder, count: u32) {
        let count = count.min(self.cap);
        enc.resolve_query_set(&self.set, 0..count, &self.resolve, 0);
        enc.copy_buffer_to_buffer(&self.resolve, 0, &self.rb, 0, Some(8 * u64::from(count)));
    }

    /// The run's line: GPU µs of each dispatch (the reset's, then each launch's) from the
    /// [`stamps`] of submission `index`, and the host's µs before the submission and from it to
    /// the wait's end (`host`).
    pub(super) fn line(
        &self,
        gpu: &Gpu,
        index: wgpu::SubmissionIndex,
        reset: bool,
        launches: &[Launch],
        host: [f64; 2],
    ) -> Result<String, SolveError> {
        let count = stamps(reset, launches).min(self.cap);
        let ts: Vec<u64> = read_with(gpu, &self.rb, 8 * u64::from(count), index, "reading the PHAST profile", |raw| {
            raw.chunks_exact(8).map(bytemuck::pod_read_unaligned).collect()
        })?;
        let us = |i: usize| match (ts.get(i), ts.get(i + 1)) {
            (Some(&a), Some(&b)) => b.saturating_sub(a) as f64 * f64::from(gpu.timestamp_period) * 1e-3,
            _ => 0.0,
        };
        let pass = match (ts.first(), ts.last()) {
            (Some(&a), Some(&b)) => b.saturating_sub(a) as f64 * f64::from(gpu.timestamp_period) * 1e-3,
            _ => 0.0,
        };
        let mut line = format!(
            "phast-wg profile: host {:.1} µs before the submission, {:.1} µs to the wait's end; GPU pass {pass:.1} µs",
            host[0], host[1]
        );
        let mut i = 0;
        if reset {
            line += &format!("; fill {:.1}; scatter {:.1}", us(0), us(1));
            i = 2;
        }
        for x in launches {
            let kind = x.kind();
            line += &format!("; {}-{} {kind} {:.1}", x.first, x.last, us(i));
            i += 1;
        }
        Ok(line)
    }
}
