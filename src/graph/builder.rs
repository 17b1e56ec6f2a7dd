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

/// A weight as a file writes it: an integer, or a real number that [`WeightScale`] turns into
/// one when the graph is built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FileWeight {
    Int(Weight),
    /// A finite real with a fractional part (`0.25`, `1.5e-3`).
    Real(f64),
}

/// How real-valued weights became the integer weights every device computes with: each value x
/// is stored as round(x · 10^`decimals`).
///
/// Why integers and not floating point: the frontier solvers compare thresholds for equality
/// across devices, WGSL has no floating-point atomics, and integer sums are exact, so every
/// device gives bit-identical distances that the oracle can check. The price is a rounding
/// error the user sees (`max_rel_error`) and can trade against range with `decimals`.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WeightScale {
    /// Weights are the file's values × 10^decimals, rounded to the nearest integer.
    pub decimals: u32,
    /// True when the user chose `decimals`; false when [`GraphBuilder`] derived it.
    pub chosen: bool,
    /// Largest |stored / 10^decimals − x| / |x| over the non-zero values (0 = exact).
    pub max_rel_error: f64,
}

impl fmt::Display for WeightScale {
    /// `×10^3 (exact)` or `×10^2 (rounded, ≤ 0.04 % error)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "real values ×10^{}", self.decimals)?;
        if self.max_rel_error == 0.0 {
            write!(f, " (exact)")
        } else {
            write!(f, " (rounded, ≤ {:.2e} relative error)", self.max_rel_error)
        }
    }
}

/// The largest |weight| an automatic [`WeightScale`] produces: 2²⁴ keeps seven significant
/// digits for the heaviest arc and leaves 32-bit GPU distances room for paths of ~2⁸ such arcs.
pub const AUTO_SCALE_LIMIT: f64 = (1u64 << 24) as f64;

/// Collects arcs, then builds the CSR in one counting sort.
///
/// Readers check vertex ids against n themselves (they know the file line); `push` only
/// records. Memory: 12 bytes per arc until [`build`](Self::build), plus 8 per arc once a real
/// weight appears.
#[derive(Debug)]
pub struct GraphBuilder {
    n: usize,
    arcs: Vec<(VertexId, VertexId, Weight)>,
    /// Every arc's file value, once the first real value arrived (aligned with `arcs`).
    reals: Option<Vec<f64>>,
    /// `Some(k)`: scale every file weight by 10^k (the user's choice).
    decimals: Option<u32>,
    weighted: bool,
    rule: WeightRule,
}

impl GraphBuilder {
    /// A builder for `n` vertices using weight rule `rule`.
    pub fn new(n: usize, rule: WeightRule) -> GraphBuilder {
        GraphBuilder { n, arcs: Vec::new(), reals: None, decimals: None, weighted: false, rule }
    }

    /// Scales the file's weights by 10^`decimals` (real or integer values alike); `None` scales
    /// only files with real values, by the smallest power of ten that makes them exact integers
    /// or the largest that keeps them ≤ [`AUTO_SCALE_LIMIT`].
    pub fn set_decimals(&mut self, decimals: Option<u32>) {
        self.decimals = decimals;
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

    /// Adds arc u → v with a weight as the file wrote it (`None`: the format has no weights).
    #[inline]
    pub fn push_file(&mut self, u: VertexId, v: VertexId, weight: Option<FileWeight>) {
        let scaled = self.decimals.is_some() && self.rule == WeightRule::File;
        match weight {
            Some(FileWeight::Real(x)) if self.rule == WeightRule::File => {
                let reals = self.reals.get_or_insert_with(|| self.arcs.iter().map(|a| a.2 as f64).collect());
                reals.push(x);
                self.weighted = true;
                self.arcs.push((u, v, 0));
            }
            Some(FileWeight::Int(w)) if self.reals.is_some() || scaled => {
                let reals = self.reals.get_or_insert_with(|| self.arcs.iter().map(|a| a.2 as f64).collect());
                reals.push(w as f64);
                self.push(u, v, Some(w));
            }
            Some(FileWeight::Int(w)) => self.push(u, v, Some(w)),
            Some(FileWeight::Real(_)) => self.push(u, v, Some(1)),
            None => self.push(u, v, None),
        }
    }

    /// Adds u → v and v → u with the same weight (undirected edge).
    #[inline]
    pub fn push_undirected(&mut self, u: VertexId, v: VertexId, weight: Option<Weight>) {
        self.push(u, v, weight);
        self.push(v, u, weight);
    }

    /// Builds the graph.
    ///
    /// Errors: no vertices; m ≥ 2³² arcs; coordinates whose count differs from n; scaled
    /// weights beyond ±(2³¹ − 1).
    pub fn build(
        mut self,
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
        let scale = match self.reals.take() {
            Some(reals) => Some(apply_scale(&mut self.arcs, &reals, self.decimals)?),
            None => None,
        };
        let origin = match (self.rule, self.weighted, scale) {
            (WeightRule::File, true, Some(s)) => format!("from file, {s}"),
            (WeightRule::File, true, None) => "from file".to_string(),
            (WeightRule::File, false, _) => "unit (file has no weights)".to_string(),
            (rule, _, _) => rule.to_string(),
        };
        let succ = Csr::from_arcs(self.n, self.arcs.iter().copied());
        let mut graph = Graph::from_parts(name.into(), origin, succ, coords, labels);
        graph.weight_scale = scale;
        Ok(graph)
    }
}

/// Stores round(x · 10^k) in `arcs` for every file value x (`reals`, aligned), with k the
/// user's `decimals` or the automatic choice described at [`GraphBuilder::set_decimals`].
fn apply_scale(
    arcs: &mut [(VertexId, VertexId, Weight)],
    reals: &[f64],
    decimals: Option<u32>,
) -> Result<WeightScale, String> {
    let max_abs = reals.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let exact_at = |k: u32| {
        let s = 10f64.powi(k as i32);
        reals.iter().all(|&x| {
            let y = x * s;
            (y - y.round()).abs() <= 1e-9 * y.abs().max(1.0)
        })
    };
    let (decimals, chosen) = match decimals {
        Some(k) => (k, true),
        None => {
            let fits = |k: u32| max_abs * 10f64.powi(k as i32) <= AUTO_SCALE_LIMIT;
            let largest = (0..=9).rev().find(|&k| fits(k)).unwrap_or(0);
            ((0..=largest).find(|&k| exact_at(k)).unwrap_or(largest), false)
        }
    };
    let s = 10f64.powi(decimals as i32);
    if max_abs * s > Weight::MAX as f64 {
        return Err(format!(
            "weights ×10^{decimals}: the largest |weight| {max_abs} becomes {:.3e}, beyond the integer range ±{}; \
             choose fewer decimals",
            max_abs * s,
            Weight::MAX
        ));
    }
    let mut max_rel_error = 0.0f64;
    for (arc, &x) in arcs.iter_mut().zip(reals) {
        let w = (x * s).round();
        arc.2 = w as Weight;
        if x != 0.0 {
            max_rel_error = max_rel_error.max((w / s - x).abs() / x.abs());
        }
    }
    if max_rel_error < 1e-12 {
        max_rel_error = 0.0;
    }
    Ok(WeightScale { decimals, chosen, max_rel_error })
}
