//! `SSSP_NF_WG_PROFILE=1` for the wgpu near-far launches (`docs/gpu-worklist.md` §14): a
//! timestamp after every dispatch of a launch, summed per dispatch kind, and the host's share.

use super::PROFILE_QUERIES;
use crate::device::wgpu::Gpu;

/// The profile's query set and resolve buffer (see `NearFarWgpu::profile`), or `None`.
pub(super) fn queries(gpu: &Gpu) -> Option<(wgpu::QuerySet, wgpu::Buffer)> {
    let want = std::env::var("SSSP_NF_WG_PROFILE").is_ok_and(|v| v.trim() == "1");
    let inside = gpu.device.features().contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES);
    if !want || !inside {
        return None;
    }
    let set = gpu.device.create_query_set(&wgpu::QuerySetDescriptor {
        label: Some("nf profile"),
        ty: wgpu::QueryType::Timestamp,
        count: PROFILE_QUERIES,
    });
    let resolve = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("nf profile"),
        size: 8 * u64::from(PROFILE_QUERIES),
        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    Some((set, resolve))
}

/// The profile's line for one launch: GPU time per dispatch kind from the timestamps `ts`
/// (ticks: the pass's start, then one after each dispatch: resume, rounds × (round, grid), the
/// final round; `fused`: resume, one round, the steps, the final round), and the host's encode /
/// wait / log-read times (ms). A dispatch "works" when it took over 20 µs (an empty one takes ~10
/// on the H100).
pub(super) fn line(ts: &[u64], period_ns: f32, rounds: u32, phases: usize, host: [f64; 3], fused: bool) -> String {
    let span = |a: Option<&u64>, b: Option<&u64>| match (a, b) {
        (Some(&a), Some(&b)) => b.saturating_sub(a) as f64 * f64::from(period_ns) * 1e-6,
        _ => 0.0,
    };
    let ms = |i: usize| span(ts.get(i.wrapping_sub(1)), ts.get(i));
    let pass = span(ts.first(), ts.last());
    if fused {
        let r = rounds as usize;
        let round = ms(1) + ms(2) + ms(r + 3);
        let steps: Vec<f64> = (0..r).map(|k| ms(3 + k)).collect();
        let busy = steps.iter().filter(|&&t| t > 0.02).count();
        return format!(
            "nf-wg profile: {rounds} fused steps, {phases} phases: host encode {:.3} ms, submit to ctl {:.3} ms, log {:.3} ms; \
             GPU pass {pass:.3} ms = resume and rounds (scheduler, solo phases) {round:.3} + \
             steps (grid phase, scheduler, solo phases) {:.3} ({busy} over 20 us)",
            host[0],
            host[1],
            host[2],
            steps.iter().sum::<f64>(),
        );
    }
    let (mut round, mut grid) = (ms(1) + ms(2 * rounds as usize + 2), 0.0);
    let (mut round_busy, mut grid_busy) = (0u32, 0u32);
    for r in 0..rounds as usize {
        let (a, b) = (ms(2 + 2 * r), ms(3 + 2 * r));
        round += a;
        grid += b;
        round_busy += u32::from(a > 0.02);
        grid_busy += u32::from(b > 0.02);
    }
    format!(
        "nf-wg profile: {rounds} rounds, {phases} phases: host encode {:.3} ms, submit to ctl {:.3} ms, log {:.3} ms; \
         GPU pass {pass:.3} ms = resume and rounds (scheduler, solo phases) {round:.3} ({round_busy} over 20 us) + \
         grid phases {grid:.3} ({grid_busy} over 20 us)",
        host[0], host[1], host[2],
    )
}

#[cfg(test)]
mod tests {
    /// The profile sums the dispatches by kind: resume and rounds (with the final one) apart from
    /// the grid phases, and counts those over 20 µs.
    #[test]
    fn profile_line_sums_dispatches_by_kind() {
        // Period 1 ns per tick: start 0, resume +1 µs, round 1 +30 µs, grid 1 +10 µs, round 2
        // +5 µs, grid 2 +40 µs, final round +2 µs.
        let ts = [0u64, 1_000, 31_000, 41_000, 46_000, 86_000, 88_000];
        let line = super::line(&ts, 1.0, 2, 7, [0.1, 0.2, 0.3], false);
        assert!(line.contains("GPU pass 0.088 ms"), "{line}");
        assert!(line.contains("(scheduler, solo phases) 0.038 (1 over 20 us)"), "{line}");
        assert!(line.contains("grid phases 0.050 (1 over 20 us)"), "{line}");
        // Fused: start, resume +1 µs, round +30 µs, steps +10 and +40 µs, final round +2 µs.
        let ts = [0u64, 1_000, 31_000, 41_000, 81_000, 83_000];
        let line = super::line(&ts, 1.0, 2, 7, [0.1, 0.2, 0.3], true);
        assert!(line.contains("GPU pass 0.083 ms"), "{line}");
        assert!(line.contains("(scheduler, solo phases) 0.033 + steps"), "{line}");
        assert!(line.contains("solo phases) 0.050 (1 over 20 us)"), "{line}");
    }
}
