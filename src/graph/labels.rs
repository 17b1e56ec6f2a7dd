//! Mapping between internal vertex indices `0..n` and the ids written in the input file.

use super::VertexId;

/// How the ids of the input file map to vertex indices.
///
/// DIMACS, METIS and MatrixMarket number vertices from 1 (`Offset(1)`); GAP edge lists from 0
/// (`Offset(0)`); SNAP lists may use sparse ids, kept in `Explicit` (index → file id).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VertexLabels {
    Offset(u64),
    Explicit(Vec<u64>),
}

impl VertexLabels {
    /// The file's id of vertex `v`.
    pub fn label(&self, v: VertexId) -> u64 {
        match self {
            VertexLabels::Offset(base) => v as u64 + base,
            VertexLabels::Explicit(ids) => ids.get(v as usize).copied().unwrap_or(v as u64),
        }
    }

    /// The vertex index of file id `id`, if such a vertex exists in a graph of `n` vertices.
    pub fn index(&self, id: u64, n: usize) -> Option<VertexId> {
        match self {
            VertexLabels::Offset(base) => {
                let v = id.checked_sub(*base)?;
                (v < n as u64).then_some(v as VertexId)
            }
            VertexLabels::Explicit(ids) => {
                // Explicit labels are stored sorted (edge-list readers remap in id order).
                ids.binary_search(&id).ok().map(|i| i as VertexId)
            }
        }
    }

    /// Human description, e.g. "ids 1..=264346".
    pub fn describe(&self, n: usize) -> String {
        match self {
            VertexLabels::Offset(base) if n > 0 => format!("ids {}..={}", base, base + n as u64 - 1),
            VertexLabels::Offset(_) => "no vertices".into(),
            VertexLabels::Explicit(ids) => format!(
                "sparse ids {}..={} remapped",
                ids.first().copied().unwrap_or(0),
                ids.last().copied().unwrap_or(0)
            ),
        }
    }
}
