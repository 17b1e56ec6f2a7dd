//! Vertex colours: the shared palette for statuses, a ramp for distances, and z-order
//! priorities (frontier and wrong marks always on top).

use super::ColorMode;
use crate::algo::VertexStatus;
use crate::graph::{Distance, INF};
use crate::trace::Trace;
use egui::Color32;

pub use crate::app::palette::{FRONTIER, SOURCE, UNREACHED, WRONG, status_color, status_name};

/// Raster priority of each status (higher wins a pixel).
pub const PRIO_UNREACHED: u8 = 1;
pub const PRIO_SETTLED: u8 = 2;
pub const PRIO_REACHED: u8 = 3;
pub const PRIO_FRONTIER: u8 = 5;

/// A perceptually ordered ramp (viridis stops), 256 entries: index 0 = δ 0, 255 = the largest
/// finite δ. Built once.
pub fn distance_ramp() -> &'static [Color32] {
    static RAMP: std::sync::OnceLock<Vec<Color32>> = std::sync::OnceLock::new();
    RAMP.get_or_init(build_ramp)
}

fn build_ramp() -> Vec<Color32> {
    const STOPS: [[f32; 3]; 5] =
        [[68.0, 1.0, 84.0], [59.0, 82.0, 139.0], [33.0, 145.0, 140.0], [94.0, 201.0, 98.0], [253.0, 231.0, 37.0]];
    (0..256)
        .map(|i| {
            let t = i as f32 / 255.0 * (STOPS.len() - 1) as f32;
            let k = (t.floor() as usize).min(STOPS.len() - 2);
            let f = t - k as f32;
            let c = |j: usize| (STOPS[k][j] + (STOPS[k + 1][j] - STOPS[k][j]) * f).round() as u8;
            Color32::from_rgb(c(0), c(1), c(2))
        })
        .collect()
}

/// Colours vertices for one state of a run.
pub struct Shader<'a> {
    pub trace: Option<&'a Trace>,
    pub mode: ColorMode,
    /// Largest finite δ (for the ramp).
    pub max_dist: Distance,
    pub ramp: &'a [Color32],
}

impl<'a> Shader<'a> {
    pub fn new(trace: Option<&'a Trace>, mode: ColorMode, ramp: &'a [Color32]) -> Shader<'a> {
        let max_dist = match (trace, mode) {
            (Some(t), ColorMode::Distance) => t.distances().iter().copied().filter(|&d| d != INF).max().unwrap_or(0),
            _ => 0,
        };
        Shader { trace, mode, max_dist, ramp }
    }

    #[inline]
    pub fn status(&self, v: u32) -> VertexStatus {
        match self.trace {
            Some(t) => t.status(v),
            None => VertexStatus::Unreached,
        }
    }

    /// Colour and priority of `v` with status `s`.
    #[inline]
    pub fn shade(&self, v: u32, s: VertexStatus) -> (Color32, u8) {
        let prio = match s {
            VertexStatus::Unreached => PRIO_UNREACHED,
            VertexStatus::Settled => PRIO_SETTLED,
            VertexStatus::Reached => PRIO_REACHED,
            VertexStatus::Frontier => PRIO_FRONTIER,
        };
        let color = match (self.mode, s, self.trace) {
            (_, VertexStatus::Unreached, _) | (ColorMode::Status, _, _) | (_, _, None) => status_color(s),
            (ColorMode::Distance, _, Some(t)) => {
                let d = t.distances()[v as usize];
                self.ramp_color(d)
            }
        };
        (color, prio)
    }

    #[inline]
    pub fn ramp_color(&self, d: Distance) -> Color32 {
        if d == INF {
            return UNREACHED;
        }
        let i = if self.max_dist == 0 { 0 } else { ((d as f64 / self.max_dist as f64) * 255.0).round() as usize };
        self.ramp[i.min(self.ramp.len() - 1)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ramp_and_shader() {
        let ramp = distance_ramp();
        assert_eq!(ramp.len(), 256);
        assert_eq!(ramp[0], Color32::from_rgb(68, 1, 84));
        assert_eq!(ramp[255], Color32::from_rgb(253, 231, 37));
        let mut t = Trace::new(3, 0);
        t.set_finished();
        let s = Shader::new(Some(&t), ColorMode::Distance, ramp);
        assert_eq!(s.shade(1, s.status(1)), (UNREACHED, PRIO_UNREACHED));
        assert_eq!(s.shade(0, s.status(0)).1, PRIO_FRONTIER);
        assert_eq!(s.ramp_color(0), ramp[0]);
        let none = Shader::new(None, ColorMode::Status, ramp);
        assert_eq!(none.status(2), VertexStatus::Unreached);
    }
}
