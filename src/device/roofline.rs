//! The roofline gauge: how far each kernel of a run is from the device's memory-bandwidth
//! limit, so a user sees whether it is launch-, latency- or bandwidth-bound.
//!
//! The limit ([`peak`]) comes from the driver on CUDA (memory clock × bus width × 2), from a
//! timed 64 MiB buffer copy on wgpu adapters and from a timed 256 MiB `memcpy` on the CPU
//! (one thread, or split over the pool's threads for `cpu-par`), measured once per device and
//! process. The bytes a kernel moves are *modelled* from the iteration's counts
//! ([`kernel_bytes`], the vertex-parallel kernels of seed 000 / seed 004: one thread per vertex),
//! not measured with hardware counters: caches make the real traffic lower on small graphs and
//! the model says what an uncached kernel would have to move.

use super::DeviceId;
use crate::algo::{IterationRecord, RelaxVariant};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

/// A device's bandwidth limit.
#[derive(Clone, Debug, PartialEq)]
pub struct Peak {
    /// Bytes per second (read + write).
    pub bytes_per_s: f64,
    /// Where the figure comes from, e.g. `driver`, `64 MiB copy`.
    pub source: String,
}

/// The limit of `device`, measured or read once per process. Errors: the device is missing or
/// failed (the message says why).
pub fn peak(device: DeviceId) -> Result<Peak, String> {
    static CACHE: Mutex<Option<HashMap<DeviceId, Result<Peak, String>>>> = Mutex::new(None);
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    let map = cache.get_or_insert_with(HashMap::new);
    if let Some(p) = map.get(&device) {
        return p.clone();
    }
    let p = match device {
        DeviceId::Cpu => Ok(Peak { bytes_per_s: memcpy_bandwidth(1), source: "256 MiB memcpy, 1 thread".into() }),
        DeviceId::CpuParallel(t) => {
            let threads = if t == 0 { rayon::current_num_threads() } else { t as usize };
            Ok(Peak { bytes_per_s: memcpy_bandwidth(threads), source: format!("256 MiB memcpy, {threads} threads") })
        }
        DeviceId::Cuda(i) => super::cuda::peak_bandwidth(i)
            .map(|b| Peak { bytes_per_s: b, source: "driver: memory clock x bus width x 2".into() })
            .map_err(|e| e.to_string()),
        DeviceId::Wgpu(i) => super::wgpu::copy_bandwidth(i)
            .map(|b| Peak { bytes_per_s: b, source: "64 MiB buffer copy".into() })
            .map_err(|e| e.to_string()),
    };
    map.insert(device, p.clone());
    p
}

/// Best of three copies of 256 MiB split over `threads` threads, bytes/s (read + write).
fn memcpy_bandwidth(threads: usize) -> f64 {
    const BYTES: usize = 256 << 20;
    let src = vec![1u8; BYTES];
    let mut dst = vec![0u8; BYTES];
    let chunk = BYTES.div_ceil(threads.max(1));
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let t = Instant::now();
        std::thread::scope(|s| {
            for (d, c) in dst.chunks_mut(chunk).zip(src.chunks(chunk)) {
                s.spawn(move || d.copy_from_slice(c));
            }
        });
        best = best.min(t.elapsed().as_secs_f64());
    }
    std::hint::black_box(&dst);
    2.0 * BYTES as f64 / best.max(1e-9)
}

/// Modelled bytes of one iteration's three kernels (relax, minimum, update).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct KernelBytes {
    pub relax: f64,
    pub minimum: f64,
    pub update: f64,
}

/// The bytes the vertex-parallel kernels of iteration `r` move on a graph of `n` vertices with
/// `dist_bytes`-wide δ (4 or 8), by the variant's access pattern:
/// - relax, successors: every thread reads its status word (4 n); each frontier vertex reads
///   its two offsets and its δ (8 + d); each scanned arc its target and weight (8), the
///   target's status (4) and δ (d, read-modify-write: 2 d);
/// - relax, predecessors: every unsettled vertex reads its offsets and δ (8 + 2 d); each
///   scanned in-arc its tail and weight (8), the tail's status (4) and δ (d);
/// - minimum: δ, ω and status of every vertex (2 d + 4 per vertex);
/// - update: δ and status of every vertex (d + 4; the few status writes are left out).
pub fn kernel_bytes(r: &IterationRecord, n: u64, variant: Option<RelaxVariant>, dist_bytes: f64) -> KernelBytes {
    let (n, d) = (n as f64, dist_bytes);
    let arcs = r.edges_scanned as f64;
    let relax = match variant {
        Some(RelaxVariant::Predecessors) => 4.0 * n + r.unsettled as f64 * (8.0 + 2.0 * d) + arcs * (12.0 + d),
        _ => 4.0 * n + r.frontier as f64 * (8.0 + d) + arcs * (12.0 + 2.0 * d),
    };
    KernelBytes { relax, minimum: n * (2.0 * d + 4.0), update: n * (d + 4.0) }
}

/// What limits a kernel, from its time and its share of the bandwidth limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Shorter than a few launch latencies: the launch, not the work, sets the time.
    Launch,
    /// Below half the bandwidth limit: too few memory requests in flight (few threads with
    /// work, dependent loads).
    Latency,
    /// At half the limit or more.
    Bandwidth,
}

impl Bound {
    /// Kernels shorter than this are launch-bound (a launch and its sync cost ≈ 5–10 µs).
    pub const LAUNCH_MS: f64 = 0.02;

    /// The bound of a kernel that took `ms` at `share` of the limit.
    pub fn of(ms: f64, share: f64) -> Bound {
        if ms < Self::LAUNCH_MS {
            Bound::Launch
        } else if share >= 0.5 {
            Bound::Bandwidth
        } else {
            Bound::Latency
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Bound::Launch => "launch-bound",
            Bound::Latency => "latency-bound",
            Bound::Bandwidth => "bandwidth-bound",
        }
    }
}

/// One kernel's point on the roofline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KernelPoint {
    pub ms: f64,
    /// Modelled bytes / time, bytes/s.
    pub bytes_per_s: f64,
    /// Of the device's limit (0 … 1, may exceed 1 when caches serve the model's bytes).
    pub share: f64,
    pub bound: Bound,
}

impl KernelPoint {
    /// The point of a kernel that moved `bytes` in `ms` on a device with limit `peak` (bytes/s);
    /// `None` without a time.
    pub fn new(bytes: f64, ms: f64, peak: f64) -> Option<KernelPoint> {
        (ms > 0.0).then(|| {
            let bytes_per_s = bytes / (ms * 1e-3);
            let share = if peak > 0.0 { bytes_per_s / peak } else { 0.0 };
            KernelPoint { ms, bytes_per_s, share, bound: Bound::of(ms, share) }
        })
    }
}

/// Relax, minimum and update of iteration `r` on the roofline (each `None` without a time).
pub fn iteration_points(
    r: &IterationRecord,
    n: u64,
    variant: Option<RelaxVariant>,
    dist_bytes: f64,
    peak: f64,
) -> [Option<KernelPoint>; 3] {
    let b = kernel_bytes(r, n, variant, dist_bytes);
    let t = &r.times;
    [
        KernelPoint::new(b.relax, t.relax_ms, peak),
        KernelPoint::new(b.minimum, t.minimum_ms, peak),
        KernelPoint::new(b.update, t.update_ms, peak),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_follow_the_counts_and_bounds_the_times() {
        let r = IterationRecord { frontier: 10, unsettled: 90, settled: 20, edges_scanned: 40, ..Default::default() };
        let b = kernel_bytes(&r, 100, Some(RelaxVariant::Successors), 4.0);
        assert_eq!(b.relax, 400.0 + 10.0 * 12.0 + 40.0 * 20.0);
        assert_eq!(b.minimum, 1200.0);
        let p = KernelPoint::new(1e9, 1.0, 2e12).unwrap_or_else(|| panic!("a time"));
        assert!((p.bytes_per_s - 1e12).abs() < 1.0 && (p.share - 0.5).abs() < 1e-9);
        assert_eq!(p.bound, Bound::Bandwidth);
        assert_eq!(Bound::of(0.005, 0.9), Bound::Launch);
        assert_eq!(Bound::of(1.0, 0.1), Bound::Latency);
        assert!(KernelPoint::new(1.0, 0.0, 1.0).is_none());
    }

    #[test]
    fn the_cpu_limit_is_measured_once_and_plausible() {
        let a = peak(DeviceId::Cpu).unwrap_or_else(|e| panic!("{e}"));
        assert!(a.bytes_per_s > 1e8, "{a:?}");
        assert_eq!(peak(DeviceId::Cpu), Ok(a), "cached");
    }
}
