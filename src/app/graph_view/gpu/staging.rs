//! Keeping a large graph's preparation under the frame-time limit on software adapters: the
//! first touches of its buffers spread over frames ([`InitOp`]), and how much a frame first
//! touches or builds follows the measured frame time ([`Pace`]).
//!
//! Why: lavapipe pays for memory a buffer touches first (page faults and zeroing) on the frame
//! that touches it. The 16.8 M-vertex grid's buffers are ~450 MB (positions 134 MB, colour
//! words 67 MB, two status grids of 89 MB each, the density mips 43 MB): touched at once they
//! made frames of 0.5-0.6 s (`bench/results/graph-view-frames/`, 2026-11-26).

use super::agg::AggBuffers;
use super::wgpu;
use std::collections::VecDeque;
use std::time::Instant;

/// How a view of a large graph is staged. Tests shrink these to stage small graphs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stages {
    /// Graphs of more vertices than this are staged; smaller ones go up in one frame (a force
    /// layout re-uploads every few frames and must never blank the view).
    pub min_n: usize,
    /// Most bytes one [`InitOp`] touches. A frame runs 1 to 8 of them ([`Pace::steps`]).
    pub op_bytes: u64,
    /// Vertices packed and written per step by the first fill of the colour words (a frame
    /// runs 1 to 8 steps, like the ops).
    pub fill_slice: usize,
}

impl Default for Stages {
    fn default() -> Self {
        Stages { min_n: 1 << 20, op_bytes: OP_BYTES, fill_slice: (OP_BYTES / 4) as usize }
    }
}

/// One first touch of a new view's memory, at most [`Stages::op_bytes`] of it.
#[derive(Debug)]
pub enum InitOp {
    /// Writes the sorted positions of vertices `[from, to)`.
    Positions(usize, usize),
    /// Zeroes bytes `[from, to)` of the status grid (`back`: the one builds splat into).
    ClearStatus { back: bool, from: u64, to: u64 },
    /// Clears the density texture's mip levels `[from, to)`.
    ClearDensity(u32, u32),
}

/// The default of [`Stages::op_bytes`] (about 12 ms on lavapipe, two cores): fine enough that
/// the app, whose frames cost about 65 ms there before any touch, stays under 100 ms.
pub const OP_BYTES: u64 = 4 << 20;

/// Grids larger than this are first touched over frames (NY's status grids pass 16 MiB each).
pub const STAGED_GRID_BYTES: u64 = 16 << 20;

/// The first touches of a view whose grids are `agg`, in the order the view needs them: the
/// positions of `n` vertices (0 when they went up with their buffer), the status grids, the
/// density levels (level 0 alone, the rest together).
pub fn init_ops(n: usize, agg: &AggBuffers, op_bytes: u64) -> VecDeque<InitOp> {
    let mut ops = VecDeque::new();
    let op_bytes = op_bytes.max(256);
    let per = (op_bytes / 8) as usize;
    for from in (0..n).step_by(per) {
        ops.push_back(InitOp::Positions(from, (from + per).min(n)));
    }
    let grid = agg.status.size();
    for back in [false, true] {
        for from in (0..grid).step_by(op_bytes as usize) {
            ops.push_back(InitOp::ClearStatus { back, from, to: (from + op_bytes).min(grid) });
        }
    }
    let levels = agg.uniform.dens_levels;
    ops.push_back(InitOp::ClearDensity(0, 1.min(levels)));
    if levels > 1 {
        ops.push_back(InitOp::ClearDensity(1, levels));
    }
    ops
}

/// Runs `op` (its own submission, ahead of the frame's).
pub fn run(
    op: InitOp,
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    pos: &wgpu::Buffer,
    sorted_pos: &[[f32; 2]],
    agg: &AggBuffers,
) {
    if let InitOp::Positions(from, to) = op {
        queue.write_buffer(pos, from as u64 * 8, bytemuck::cast_slice(&sorted_pos[from..to]));
        return;
    }
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("graph_view.init") });
    match op {
        InitOp::Positions(..) => {}
        InitOp::ClearStatus { back, from, to } => {
            encoder.clear_buffer(agg.status_grid(back), from, Some(to - from));
        }
        InitOp::ClearDensity(from, to) => agg.clear_density(&mut encoder, from..to),
    }
    queue.submit([encoder.finish()]);
}

/// Scales the per-frame build budgets so that a frame that builds costs at most
/// [`Pace::BUILD_MS`] more than one that does not (or stays under [`Pace::HIGH_MS`] where the
/// frames are fast). The time between two frames is the earlier frame's whole cost (UI pass,
/// prepare, the rasterization), which is what the user waits for. Every [`Pace::REST_EVERY`]th
/// frame of a build rests, and the time it takes is the floor: an absolute target alone shrank
/// the budgets to nothing in the app, whose frames cost 70-90 ms on lavapipe before any build.
#[derive(Debug)]
pub struct Pace {
    last: Option<Instant>,
    /// What the last frame did: built, rested (had work, skipped it) or neither.
    last_did: Did,
    scale: f64,
    /// Moving mean of the resting frames' times, ms.
    floor_ms: Option<f64>,
    building_frames: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Did {
    Built,
    Rested,
    Nothing,
}

impl Default for Pace {
    /// A slow start: a new graph's first builds touch memory for the first time (the grid's
    /// first full-budget build frame took 232 ms on lavapipe), so they start at a quarter of the
    /// budgets and grow while frames stay short.
    fn default() -> Self {
        Pace { last: None, last_did: Did::Nothing, scale: 0.25, floor_ms: None, building_frames: 0 }
    }
}

impl Pace {
    /// A building frame may cost this much more than a resting one.
    pub const BUILD_MS: f64 = 25.0;
    /// Frames under this are fine whatever the floor.
    pub const HIGH_MS: f64 = 85.0;
    /// One building frame in this many rests.
    pub const REST_EVERY: u64 = 16;

    /// Called once per frame; `work` says whether a build has work. Returns whether this frame
    /// builds (a resting frame does not). [`Pace::apply`] then gives its budgets.
    pub fn frame(&mut self, work: bool) -> bool {
        let now = Instant::now();
        if let Some(last) = self.last {
            let ms = (now - last).as_secs_f64() * 1e3;
            match self.last_did {
                Did::Built => self.scale = self.next(ms),
                Did::Rested => self.floor_ms = Some(self.floor_ms.map_or(ms, |f| 0.75 * f + 0.25 * ms)),
                // The time since a frame that had nothing to build may include idle time.
                Did::Nothing => {}
            }
        }
        self.last = Some(now);
        self.last_did = if !work {
            Did::Nothing
        } else {
            self.building_frames += 1;
            if self.building_frames % Self::REST_EVERY == Self::REST_EVERY / 2 { Did::Rested } else { Did::Built }
        };
        self.last_did == Did::Built
    }

    fn next(&self, ms: f64) -> f64 {
        let high = self.floor_ms.map_or(Self::HIGH_MS, |f| (f + Self::BUILD_MS).max(Self::HIGH_MS));
        if ms > high {
            (self.scale * 0.7).max(1.0 / 64.0)
        } else if ms < high - Self::BUILD_MS {
            (self.scale * 1.15).min(2.0)
        } else {
            self.scale
        }
    }

    /// How many first-touch steps ([`InitOp`]s or colour-word slices) a frame runs: 1 at the
    /// slow start, up to 8 where frames stay short (a hardware adapter's).
    pub fn steps(&self) -> usize {
        self.apply(4)
    }

    /// [`Pace::frame`] for a frame with first touches to do: its steps, 0 on a resting frame.
    pub fn touch_frame(&mut self) -> usize {
        if self.frame(true) { self.steps() } else { 0 }
    }

    /// `budget` scaled, at least 1 (`usize::MAX`, a hardware adapter's, stays).
    pub fn apply(&self, budget: usize) -> usize {
        if budget == usize::MAX { budget } else { ((budget as f64 * self.scale) as usize).max(1) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pace_shrinks_after_late_frames_and_grows_after_early_ones() {
        let mut p = Pace { scale: 1.0, ..Pace::default() };
        assert_eq!(p.next(200.0), 0.7);
        p.scale = 0.7;
        assert_eq!(p.next(70.0), 0.7);
        assert!((p.next(20.0) - 0.805).abs() < 1e-12);
        p.scale = 1.0 / 64.0;
        assert_eq!(p.next(500.0), 1.0 / 64.0);
        p.scale = 2.0;
        assert_eq!(p.next(1.0), 2.0);
        assert_eq!(p.apply(usize::MAX), usize::MAX);
        p.scale = 1e-9;
        assert_eq!(p.apply(250_000), 1);
        assert_eq!(p.steps(), 1);
        assert_eq!(Pace::default().steps(), 1);
        p.scale = 2.0;
        assert_eq!(p.steps(), 8);
    }

    #[test]
    fn the_target_follows_the_resting_frames() {
        // The app on lavapipe: 90 ms frames before any build. 110 ms is then a build's 20 ms,
        // which is fine; 130 ms is not.
        let p = Pace { scale: 1.0, floor_ms: Some(90.0), ..Pace::default() };
        assert_eq!(p.next(110.0), 1.0);
        assert_eq!(p.next(130.0), 0.7);
        assert!(p.next(50.0) > 1.0);
    }

    #[test]
    fn one_building_frame_in_sixteen_rests_and_measures_the_floor() {
        let mut p = Pace::default();
        let built: Vec<bool> = (0..32).map(|_| p.frame(true)).collect();
        assert_eq!(built.iter().filter(|b| !**b).count(), 2, "{built:?}");
        assert!(p.floor_ms.is_some(), "a resting frame was timed");
        // A frame with nothing to build neither builds nor is timed as a build.
        assert!(!p.frame(false));
        assert_eq!(p.last_did, Did::Nothing);
        // First touches rest the same way: no steps on the resting frame.
        let mut q = Pace::default();
        let steps: Vec<usize> = (0..16).map(|_| q.touch_frame()).collect();
        assert_eq!(steps.iter().filter(|&&s| s == 0).count(), 1, "{steps:?}");
    }
}
