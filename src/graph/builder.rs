//! Assembles a [`Graph`] from arcs as readers and generators produce them, applying the weight
//! rule for unweighted inputs.

use super::{Csr, Graph, VertexId, VertexLabels, Weight};
use std::fmt;
use std::str::FromStr;

/// How arcs get their weights.
///
/// `File` keeps the weights the input has, and gives weight 1 to unweighted inputs (and says so
/// in [`Graph::weight_origin`]). `Unit` and `Uniform` override whatever the file says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum WeightRule {
    #[default]
    File,
    /// Every arc weighs 1 (hop counts).
    Unit,
    /// Uniform integers in `1..=max`, a pure function of (seed, {u, v}), so both arcs of an
    /// undirected edge get the same weight and a reload gives the same graph.
    Uniform { max: Weight, seed: u64 },
}

impl fmt::Display for WeightRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightRule::File => write!(f, "file"),
            WeightRule::Unit => write!(f, "unit"),
            WeightRule::Uniform { max, seed } => write!(f, "uniform:{max}:{seed}"),
        }
    }
}

impl FromStr for WeightRule {
    type Err = String;
    /// Parses `file`, `unit` or `uniform:MAX:SEED` (MAX ≥ 1).
    fn from_str(s: &str) -> Result<Self, String> {
        let parts: Vec<&str> = s.trim().split(':').collect();
        match parts.as_slice() {
            ["file"] => Ok(WeightRule::File),
            ["unit"] => Ok(WeightRule::Unit),
            ["uniform", max, seed] => {
                let max: Weight =
                    max.parse().map_err(|_| format!("uniform weight MAX `{max}` is not a positive integer"))?;
                let seed: u64 = seed.parse().map_err(|_| format!("uniform weight SEED `{seed}` is not an integer"))?;
                if max == 0 {
                    return Err("uniform weight MAX must be at least 1".into());
                }
                Ok(WeightRule::Uniform { max, seed })
            }
            _ => Err(format!("weight rule `{s}`: expected `file`, `unit` or `uniform:MAX:SEED`")),
        }
    }
}

/// SplitMix64 finaliser: a fixed, well-mixed function of its input, so weights do not depend on
/// any RNG crate's version.
pub(crate) fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl WeightRule {
    fn apply(&self, u: VertexId, v: VertexId, file_weight: Option<Weight>) -> Weight {
        match *self {
            WeightRule::File => file_weight.unwrap_or(1),
            WeightRule::Unit => 1,
            WeightRule::Uniform { max, seed } => {
                let (a, b) = if u <= v { (u, v) } else { (v, u) };
                let h = mix64(seed ^ mix64(((a as u64) << 32) | b as u64));
                (h % max as u64) as Weight + 1
            }
        }
    }
}

/// Collects arcs, then builds the CSR in one counting sort.
///
/// Readers check vertex ids against n themselves (they know the file line); `push` only
/// records. Memory: 12 bytes per arc until [`build`](Self::build).
#[derive(Debug)]
pub struct GraphBuilder {
    n: usize,
    arcs: Vec<(VertexId, VertexId, Weight)>,
    weighted: bool,
    rule: WeightRule,
}

impl GraphBuilder {
    /// A builder for `n` vertices using weight rule `rule`.
    pub fn new(n: usize, rule: WeightRule) -> GraphBuilder {
        GraphBuilder { n, arcs: Vec::new(), weighted: false, rule }
    }

    /// Reserves room for `m` arcs.
    pub fn reserve(&mut self, m: usize) {
        self.arcs.reserve(m.min(1 << 28));
    }

    /// Number of vertices.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Number of arcs pushed so far.
    pub fn arcs_len(&self) -> usize {
        self.arcs.len()
    }

    /// Adds arc u → v; `weight` is `None` for unweighted formats. Caller guarantees u, v < n.
    #[inline]
    pub fn push(&mut self, u: VertexId, v: VertexId, weight: Option<Weight>) {
        self.weighted |= weight.is_some();
        let w = self.rule.apply(u, v, weight);
        self.arcs.push((u, v, w));
    }

    /// Adds u → v and v → u with the same weight (undirected edge).
    #[inline]
    pub fn push_undirected(&mut self, u: VertexId, v: VertexId, weight: Option<Weight>) {
        self.push(u, v, weight);
        self.push(v, u, weight);
    }

    /// Builds the graph.
    ///
    /// Errors: no vertices; m ≥ 2³² arcs; coordinates whose count differs from n.
    pub fn build(
        self,
        name: impl Into<String>,
        coords: Option<Vec<[f32; 2]>>,
        labels: VertexLabels,
    ) -> Result<Graph, String> {
        if self.n == 0 {
            return Err("the graph has no vertices".into());
        }
        if self.n > u32::MAX as usize || self.arcs.len() >= u32::MAX as usize {
            return Err(format!(
                "{} vertices / {} arcs: sssp-lab indexes vertices and arcs with 32 bits (at most 4 294 967 294)",
                self.n,
                self.arcs.len()
            ));
        }
        if let Some(c) = &coords
            && c.len() != self.n
        {
            return Err(format!("{} coordinates for {} vertices", c.len(), self.n));
        }
        let origin = match (self.rule, self.weighted) {
            (WeightRule::File, true) => "from file".to_string(),
            (WeightRule::File, false) => "unit (file has no weights)".to_string(),
            (rule, _) => rule.to_string(),
        };
        let succ = Csr::from_arcs(self.n, self.arcs.iter().copied());
        Ok(Graph::from_parts(name.into(), origin, succ, coords, labels))
    }
}
