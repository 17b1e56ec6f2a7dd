//! Per-iteration series: the measurements every algorithm records ([`COMMON_SERIES`], typed
//! fields of [`IterationRecord`]) and the ones an algorithm declares itself
//! ([`super::AlgorithmSpec::series`], stored in [`IterationRecord::values`] in declaration
//! order). Plots, exports and reports iterate over [`series_of`], so a new algorithm's
//! measurements show up without edits to a shared struct. Terms: `[terms-measurements]` in
//! docs/references.md.

use super::{Algorithm, IterationRecord};
use crate::graph::{Distance, INF};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How a series' values read and plot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesUnit {
    /// A count of vertices, arcs or threads; plotted on a log₁₀ axis.
    Count,
    /// A distance (Δ thresholds); ∞ is not plotted.
    Distance,
    /// A fraction in 0..=1.
    Ratio,
    /// Milliseconds.
    Ms,
}

/// Which per-iteration plot of the app shows a series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlotGroup {
    /// Vertex sets (log scale).
    Sets,
    /// Thresholds and other distances.
    Thresholds,
    /// Thread figures of the relax kernel.
    Threads,
    /// Arcs and relaxations (log scale).
    Work,
    /// Only in the record table and exports.
    Table,
}

/// One named series.
#[derive(Clone, Copy, Debug)]
pub struct SeriesSpec {
    /// Stable key for files and scripts, e.g. `delta_crauser`.
    pub key: &'static str,
    /// Plot legend, e.g. `Δ Crauser (min δ+ω)`.
    pub label: &'static str,
    /// One line of explanation (hover text).
    pub help: &'static str,
    pub unit: SeriesUnit,
    pub group: PlotGroup,
}

/// A series of some algorithm's records: common or declared.
#[derive(Clone, Copy, Debug)]
pub struct SeriesRef {
    pub spec: &'static SeriesSpec,
    source: Source,
}

#[derive(Clone, Copy, Debug)]
enum Source {
    Common(Getter),
    Declared(usize),
}

impl SeriesRef {
    /// The value in `r`, `None` where there is none (an unset value, a sequential run's
    /// thread counts). Distances are exact up to 2⁵³; ∞ is `f64::INFINITY`.
    pub fn value(&self, r: &IterationRecord) -> Option<f64> {
        match self.source {
            Source::Common(get) => get(r),
            Source::Declared(i) => r.values.get(i),
        }
    }
}

/// Reads a common series' value from a record.
pub type Getter = fn(&IterationRecord) -> Option<f64>;

/// Measurements every algorithm records (the typed fields of [`IterationRecord`]).
pub static COMMON_SERIES: [(SeriesSpec, Getter); 7] = [
    (
        SeriesSpec {
            key: "frontier",
            label: "|F| frontier",
            help: "vertices whose out-arcs this iteration relaxed",
            unit: SeriesUnit::Count,
            group: PlotGroup::Sets,
        },
        |r| Some(r.frontier as f64),
    ),
    (
        SeriesSpec {
            key: "unsettled",
            label: "|U| unsettled",
            help: "unsettled vertices when the iteration started",
            unit: SeriesUnit::Count,
            group: PlotGroup::Sets,
        },
        |r| Some(r.unsettled as f64),
    ),
    (
        SeriesSpec {
            key: "reached",
            label: "reached in U",
            help: "unsettled vertices with δ < ∞ after the relax",
            unit: SeriesUnit::Count,
            group: PlotGroup::Sets,
        },
        |r| Some(r.reached as f64),
    ),
    (
        SeriesSpec {
            key: "edges_scanned",
            label: "arcs scanned",
            help: "arcs the relax phase looked at",
            unit: SeriesUnit::Count,
            group: PlotGroup::Table,
        },
        |r| Some(r.edges_scanned as f64),
    ),
    (
        SeriesSpec {
            key: "relax_attempted",
            label: "attempted",
            help: "relaxations attempted: arcs from the active set to a vertex not settled",
            unit: SeriesUnit::Count,
            group: PlotGroup::Work,
        },
        |r| Some(r.relax_attempted as f64),
    ),
    (
        SeriesSpec {
            key: "relax_improved",
            label: "improved",
            help: "distinct vertices whose δ went down",
            unit: SeriesUnit::Count,
            group: PlotGroup::Work,
        },
        |r| Some(r.relax_improved as f64),
    ),
    (
        SeriesSpec {
            key: "dummy_ratio",
            label: "dummy ratio",
            help: "1 − working / launched threads of the relax kernel ([seed000] Fig. 2d)",
            unit: SeriesUnit::Ratio,
            group: PlotGroup::Threads,
        },
        |r| r.threads.map(|t| t.dummy_ratio()),
    ),
];

/// Every series of `algo`'s records: the common ones, then its declared ones.
pub fn series_of(algo: Algorithm) -> Vec<SeriesRef> {
    let common = COMMON_SERIES.iter().map(|(spec, get)| SeriesRef { spec, source: Source::Common(*get) });
    let declared =
        algo.spec().series.iter().enumerate().map(|(i, spec)| SeriesRef { spec, source: Source::Declared(i) });
    common.chain(declared).collect()
}

/// Most values an algorithm may declare.
pub const MAX_VALUES: usize = 8;

/// An algorithm's declared per-iteration values, inline (no allocation per iteration), in the
/// order of its [`super::AlgorithmSpec::series`]. Unset slots are NaN. Serialized as a list of
/// numbers with `"inf"` for ∞ and `null` for unset.
#[derive(Clone, Copy, Debug)]
pub struct Values {
    v: [f64; MAX_VALUES],
    len: u8,
}

impl Default for Values {
    fn default() -> Self {
        Values { v: [f64::NAN; MAX_VALUES], len: 0 }
    }
}

impl PartialEq for Values {
    /// Slot by slot over the used slots; unset (NaN) equals unset.
    fn eq(&self, o: &Values) -> bool {
        self.len == o.len && (0..self.len()).all(|i| self.get(i) == o.get(i))
    }
}

impl Values {
    /// Values from a slice (at most [`MAX_VALUES`]; more are dropped).
    pub fn from_slice(xs: &[f64]) -> Values {
        let mut out = Values::default();
        for (slot, x) in out.v.iter_mut().zip(xs) {
            *slot = *x;
        }
        out.len = xs.len().min(MAX_VALUES) as u8;
        out
    }

    /// Value `i`, `None` when unset.
    pub fn get(&self, i: usize) -> Option<f64> {
        self.v[..self.len as usize].get(i).copied().filter(|x| !x.is_nan())
    }

    /// Value `i` as a distance ([`INF`] for ∞ or unset).
    pub fn distance(&self, i: usize) -> Distance {
        self.get(i).filter(|x| x.is_finite()).map_or(INF, |x| x as Distance)
    }

    /// Number of slots in use.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True when no slot is in use.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A distance as a series value: ∞ stays ∞.
pub fn dist_value(d: Distance) -> f64 {
    if d == INF { f64::INFINITY } else { d as f64 }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Cell {
    Num(f64),
    Text(String),
    Unset(()),
}

impl Serialize for Values {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let cells: Vec<Cell> = self.v[..self.len as usize]
            .iter()
            .map(|&x| match x {
                x if x.is_nan() => Cell::Unset(()),
                x if x.is_infinite() => Cell::Text("inf".into()),
                x => Cell::Num(x),
            })
            .collect();
        cells.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Values {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cells = Vec::<Cell>::deserialize(d)?;
        let xs: Vec<f64> = cells
            .into_iter()
            .map(|c| match c {
                Cell::Num(x) => x,
                Cell::Text(t) if t == "inf" => f64::INFINITY,
                _ => f64::NAN,
            })
            .collect();
        Ok(Values::from_slice(&xs))
    }
}

/// Phase of a pseudo-code line, highlighted in the app when it runs next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Init,
    Loop,
    Relax,
    Minimum,
    Update,
}

/// One line of an algorithm's pseudo-code.
pub type CodeLine = (Phase, &'static str);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_through_json_with_infinity_and_unset() {
        let v = Values::from_slice(&[3.0, f64::INFINITY, f64::NAN]);
        let s = serde_json::to_string(&v).unwrap();
        assert_eq!(s, r#"[3.0,"inf",null]"#);
        let back: Values = serde_json::from_str(&s).unwrap();
        assert_eq!(back.get(0), Some(3.0));
        assert_eq!(back.distance(1), INF);
        assert_eq!(back.get(2), None);
        assert_eq!(back.len(), 3);
    }
}
