//! The frontier solvers' threshold rules, written once for every device (`[seed000]` §3.1,
//! `[seed004]` §4, Crauser et al. `[crauser98]` OUT criterion):
//!
//! - Martín: Δᵢ = min{δ(u) : u ∈ U}; settle every u ∈ U with δ(u) = Δᵢ (≤ is equivalent).
//! - Crauser: Δᵢ = min{δ(u) + ω(u) : u ∈ U}, ω(u) the lightest out-arc of u; settle every
//!   u ∈ U with δ(u) ≤ Δᵢ.
//!
//! A device computes the two minima over U (its **minimum** phase) and hands them to
//! [`Thresholds::from_minima`]; the record, the plots and the update phase read the result.

use crate::graph::{Distance, INF};
use serde::{Deserialize, Serialize};

/// Δ policy of a frontier solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Threshold {
    /// Δᵢ = min δ over U; settle δ = Δᵢ.
    Martin,
    /// Δᵢ = min (δ + ω) over U; settle δ ≤ Δᵢ.
    Crauser,
}

/// How the relax phase reaches the arcs (`[seed004]` Fig. 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RelaxVariant {
    /// One thread per vertex; frontier vertices push along out-arcs with atomicMin.
    Successors,
    /// One thread per vertex; unsettled vertices pull from frontier in-neighbours, no atomics.
    Predecessors,
}

/// Both policies' thresholds at one state, and the one in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// Martín's min{δ(u) : u ∈ U}; [`INF`] when no unsettled vertex is reached (the run ends).
    pub martin: Distance,
    /// Crauser's min{δ(u) + ω(u) : u ∈ U}; [`INF`] when the run ends.
    pub crauser: Distance,
    /// Δᵢ of the policy in force; [`INF`] when the run ends.
    pub delta: Distance,
}

impl Thresholds {
    /// From the two minima over U of one minimum phase.
    ///
    /// `min_delta_plus_omega` ignores sinks (ω = ∞). When every reached unsettled vertex is a
    /// sink it is ∞ while `min_delta` is not: then all of them are final, and Crauser's Δ is
    /// clamped up to Martín's so that they settle. Crauser's Δ is never below Martín's (ω ≥ 0).
    pub fn from_minima(threshold: Threshold, min_delta: Distance, min_delta_plus_omega: Distance) -> Thresholds {
        if min_delta == INF {
            return Thresholds { martin: INF, crauser: INF, delta: INF };
        }
        let delta = match threshold {
            Threshold::Martin => min_delta,
            Threshold::Crauser => min_delta_plus_omega.max(min_delta),
        };
        Thresholds { martin: min_delta, crauser: min_delta_plus_omega, delta }
    }

    /// True when the minimum found no reached unsettled vertex: the run is over.
    pub fn finished(&self) -> bool {
        self.martin == INF
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crauser_is_clamped_when_only_sinks_remain() {
        let t = Thresholds::from_minima(Threshold::Crauser, 7, INF);
        assert_eq!((t.martin, t.crauser, t.delta), (7, INF, INF));
        let t = Thresholds::from_minima(Threshold::Crauser, 7, 9);
        assert_eq!(t.delta, 9);
        let t = Thresholds::from_minima(Threshold::Martin, 7, 9);
        assert_eq!(t.delta, 7);
        assert!(Thresholds::from_minima(Threshold::Martin, INF, 3).finished());
    }
}
