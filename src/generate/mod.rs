//! Seeded, reproducible graph generators (docs/references.md `[terms-graphs]`). The same spec always gives the same
//! graph (PCG64 streams, independent of thread count).

mod budget;
mod families;
mod ssca2;

pub use budget::{BYTES_PER_ARC, BYTES_PER_VERTEX, machine_memory};

pub use families::{counterexample, dense, fanout, grid, martin, rmat, teaching};
pub use ssca2::{Ssca2, ssca2};

use crate::graph::{Graph, Weight};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A generator and its parameters; serialisable so experiment files can name graphs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "family", rename_all = "kebab-case")]
pub enum GeneratorSpec {
    /// Martín et al.'s graphs: every vertex gets 7 random predecessors, weights 1..=10
    /// (seed 004 §6, seed 000 §4.3).
    Martin { n: usize, seed: u64 },
    /// Seed 004 §5's dense graphs for adjacency matrices: ⌊n/5⌋ distinct random predecessors
    /// per vertex, weights 1..=10 ([`dense`]).
    Dense { n: usize, seed: u64 },
    /// Random fan-out graphs: every vertex has exactly `d` distinct random successors (never
    /// itself), weights 1..=`max_weight` (seed 000 §4.3 uses 1..=100).
    Fanout { n: usize, d: usize, max_weight: Weight, seed: u64 },
    /// R-MAT with 2^scale vertices and edge_factor·2^scale arcs, quadrant probabilities
    /// (a, b, c, 1 − a − b − c) (GTgraph; seed 001 Table 2), weights 1..=`max_weight`.
    Rmat { scale: u32, edge_factor: u32, a: f64, b: f64, c: f64, max_weight: Weight, seed: u64 },
    /// SSCA#2 (GTgraph; seed 001 Table 2): cliques of uniform size 1..=`max_clique` (C), arcs
    /// between cliques with probability `prob_inter` (P) halving with distance, ids permuted
    /// ([`Ssca2`]). Table 2 uses n = 10 000 with (P, C) = (0.25, 5), (0.5, 20), (0.5, 30).
    Ssca2(Ssca2),
    /// width × height 4-neighbour grid, undirected, weights 1..=`max_weight`, with coordinates.
    Grid { width: usize, height: usize, max_weight: Weight, seed: u64 },
    /// Seed 004 Fig. 5: source 0 → middle vertices 1..n−2 (weight 1), middle i → sink n−1 with
    /// weight n − 1 − i: every middle vertex races on the sink's δ in one relax.
    Counterexample { n: usize },
    /// A 5-vertex example in the spirit of seed 000 Fig. 1 (source, three neighbours, one more).
    Teaching,
}

impl GeneratorSpec {
    /// Builds the graph. Errors: parameters out of range (n = 0, d ≥ n, probabilities that do not
    /// sum to ≤ 1, more than 2³² arcs), or an estimated peak beyond the machine's available
    /// memory ([`GeneratorSpec::check_memory`]), refused before anything is allocated.
    pub fn generate(&self) -> Result<Graph, String> {
        self.check_memory()?;
        match *self {
            GeneratorSpec::Martin { n, seed } => martin(n, seed),
            GeneratorSpec::Dense { n, seed } => dense(n, seed),
            GeneratorSpec::Fanout { n, d, max_weight, seed } => fanout(n, d, max_weight, seed),
            GeneratorSpec::Rmat { scale, edge_factor, a, b, c, max_weight, seed } => {
                rmat(scale, edge_factor, [a, b, c], max_weight, seed)
            }
            GeneratorSpec::Grid { width, height, max_weight, seed } => grid(width, height, max_weight, seed),
            GeneratorSpec::Ssca2(p) => ssca2(p),
            GeneratorSpec::Counterexample { n } => counterexample(n),
            GeneratorSpec::Teaching => Ok(teaching()),
        }
    }

    /// Default parameters of each family, for menus.
    pub fn examples() -> Vec<GeneratorSpec> {
        vec![
            GeneratorSpec::Teaching,
            GeneratorSpec::Counterexample { n: 1024 },
            GeneratorSpec::Grid { width: 64, height: 48, max_weight: 10, seed: 1 },
            GeneratorSpec::Fanout { n: 24_576, d: 2, max_weight: 100, seed: 1 },
            GeneratorSpec::Martin { n: 1 << 20, seed: 1 },
            GeneratorSpec::Dense { n: 2048, seed: 1 },
            GeneratorSpec::Rmat { scale: 16, edge_factor: 16, a: 0.45, b: 0.15, c: 0.15, max_weight: 255, seed: 1 },
            GeneratorSpec::Ssca2(Ssca2::table2(20, 0.5)),
        ]
    }

    /// Family name.
    pub fn family(&self) -> &'static str {
        match self {
            GeneratorSpec::Martin { .. } => "martin",
            GeneratorSpec::Dense { .. } => "dense",
            GeneratorSpec::Fanout { .. } => "fanout",
            GeneratorSpec::Rmat { .. } => "rmat",
            GeneratorSpec::Grid { .. } => "grid",
            GeneratorSpec::Ssca2(_) => "ssca2",
            GeneratorSpec::Counterexample { .. } => "counterexample",
            GeneratorSpec::Teaching => "teaching",
        }
    }
}

impl fmt::Display for GeneratorSpec {
    /// Short name used as the graph's name, e.g. `fanout n=98304 d=20 w≤100 seed=1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GeneratorSpec::Martin { n, seed } => write!(f, "martin n={n} seed={seed}"),
            GeneratorSpec::Dense { n, seed } => write!(f, "dense n={n} deg={} seed={seed}", (n / 5).max(1)),
            GeneratorSpec::Fanout { n, d, max_weight, seed } => {
                write!(f, "fanout n={n} d={d} w≤{max_weight} seed={seed}")
            }
            GeneratorSpec::Rmat { scale, edge_factor, a, b, c, max_weight, seed } => {
                write!(f, "rmat scale={scale} ef={edge_factor} ({a},{b},{c}) w≤{max_weight} seed={seed}")
            }
            GeneratorSpec::Grid { width, height, max_weight, seed } => {
                write!(f, "grid {width}×{height} w≤{max_weight} seed={seed}")
            }
            GeneratorSpec::Ssca2(p) => f.write_str(&ssca2::ssca2_name(p)),
            GeneratorSpec::Counterexample { n } => write!(f, "counterexample n={n}"),
            GeneratorSpec::Teaching => write!(f, "teaching (5 vertices)"),
        }
    }
}
