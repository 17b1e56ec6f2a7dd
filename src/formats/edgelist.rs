//! Edge lists: SNAP `.txt` and GAP `.el` (`U V` per line) and GAP `.wel` (`U V W` per line).
//!
//! Sources: SNAP <https://snap.stanford.edu/data/> (`#` comments, a `# Nodes: N Edges: M`
//! header, ids 0-based but possibly sparse); GAP Benchmark Suite `src/reader.h` (0-based,
//! no header). Every line is one directed arc as written; `#` and `%` lines are comments.
//! In `.el`/`.txt` files columns after the second are ignored (SNAP's signed and temporal
//! lists); `.wel` lines must have exactly three. References: docs/references.md `[snap]`, `[gapbs]`.
//!
//! # Vertex ids
//! Let k be the number of distinct ids and `max` the largest. The ids are used as they are
//! (vertex v = id v, n = max + 1, [`VertexLabels::Offset`]`(0)`) or remapped in increasing order
//! to `0..k` ([`VertexLabels::Explicit`]):
//! 1. a SNAP header `# Nodes: N` decides when it matches: N = max + 1 → as they are; N = k →
//!    remapped (wiki-Vote: 7 115 nodes with ids up to 8 297);
//! 2. otherwise ids are used as they are when max + 1 ≤ 2k (a few unused ids become isolated
//!    vertices, as in GAP's `4.el`), and remapped when they are sparser than that.

use super::input::{
    Lines, MAX_VERTICES, Progress, invalid, parse_error, parse_u64, parse_weight, show, tokens, trim_start,
};
use super::{LoadError, LoadOptions};
use crate::graph::{FileWeight, Graph, GraphBuilder, VertexLabels, WeightRule};
use std::path::Path;

/// The `N` of a SNAP `# Nodes: N Edges: M` comment.
fn snap_nodes(comment: &[u8]) -> Option<u64> {
    let mut t = tokens(comment);
    while let Some(tok) = t.next() {
        if tok.eq_ignore_ascii_case(b"nodes:") {
            return t.next().and_then(parse_u64);
        }
    }
    None
}

/// Reads an edge list; `weighted` for `.wel`.
pub(super) fn read(
    path: &Path,
    name: &str,
    weighted: bool,
    opts: &LoadOptions,
    progress: &mut Progress<'_>,
) -> Result<Graph, LoadError> {
    let mut lines = Lines::open(path, progress)?;
    let p = lines.path().to_string();
    let read_weights = weighted && opts.weights == WeightRule::File;
    let form = if weighted { "`U V W`" } else { "`U V`" };
    let mut ends: Vec<[u64; 2]> = Vec::new();
    let mut weights: Vec<FileWeight> = Vec::new();
    let mut header_nodes: Option<u64> = None;
    let mut max_id: u64 = 0;

    while let Some((ln, line)) = lines.next_line()? {
        let body = trim_start(line);
        match body.first() {
            None => continue,
            Some(b'#' | b'%') => {
                if header_nodes.is_none() {
                    header_nodes = snap_nodes(body);
                }
                continue;
            }
            Some(_) => {}
        }
        let expected = || format!("expected {form} (non-negative integer ids), found `{}`", show(line));
        let mut t = tokens(body);
        let (Some(u), Some(v)) = (t.next(), t.next()) else {
            return Err(parse_error(&p, ln, expected()));
        };
        let (Some(u), Some(v)) = (parse_u64(u), parse_u64(v)) else {
            return Err(parse_error(&p, ln, expected()));
        };
        if weighted {
            let (Some(w), None) = (t.next(), t.next()) else {
                return Err(parse_error(&p, ln, expected()));
            };
            if read_weights {
                weights.push(parse_weight(w).map_err(|e| parse_error(&p, ln, e.message(w, line)))?);
            }
        }
        max_id = max_id.max(u).max(v);
        ends.push([u, v]);
    }
    let last = lines.line();
    lines.finish();
    if ends.is_empty() {
        return Err(if last == 0 {
            invalid(&p, format!("empty file: expected {form} lines"))
        } else {
            invalid(&p, format!("no edges: expected {form} lines besides the comments"))
        });
    }

    let ids = Ids::collect(&ends, max_id);
    let distinct = ids.distinct() as u64;
    let as_is = match header_nodes {
        Some(h) if h == max_id.saturating_add(1) => true,
        Some(h) if h == distinct => false,
        _ => max_id.saturating_add(1) <= distinct.saturating_mul(2),
    };
    let (n, labels, map) = if as_is {
        let n = max_id.saturating_add(1);
        if n > MAX_VERTICES {
            return Err(invalid(
                &p,
                format!("id {max_id} is too large: sssp-lab holds at most {MAX_VERTICES} vertices"),
            ));
        }
        (n as usize, VertexLabels::Offset(0), None)
    } else {
        let (labels, map) = ids.remap();
        (distinct as usize, VertexLabels::Explicit(labels), Some(map))
    };

    let mut builder = GraphBuilder::new(n, opts.weights);
    builder.set_decimals(opts.weight_decimals);
    builder.reserve(ends.len());
    for (k, &[u, v]) in ends.iter().enumerate() {
        let w = if read_weights { weights.get(k).copied() } else { None };
        let (u, v) = match &map {
            None => (u as u32, v as u32),
            Some(map) => match (map.index(u), map.index(v)) {
                (Some(u), Some(v)) => (u, v),
                _ => return Err(invalid(&p, format!("internal error: id {u} or {v} missing from the id map"))),
            },
        };
        builder.push_file(u, v, w);
    }
    drop(ends);
    builder.build(name, None, labels).map_err(|msg| invalid(&p, msg))
}

/// The set of ids of an edge list.
enum Ids {
    /// `seen[id]` for ids up to a bound proportional to the arc count.
    Dense(Vec<bool>),
    /// Sorted distinct ids, when they are too sparse for `Dense`.
    Sparse(Vec<u64>),
}

/// id → vertex index after remapping.
enum IdMap {
    /// `index[id]`, `u32::MAX` for ids not present.
    Dense(Vec<u32>),
    /// Binary search in the sorted ids.
    Sparse(Vec<u64>),
}

impl Ids {
    fn collect(ends: &[[u64; 2]], max_id: u64) -> Ids {
        let dense_bound = (ends.len() as u64).saturating_mul(16).saturating_add(1 << 16);
        if max_id < dense_bound {
            let mut seen = vec![false; max_id as usize + 1];
            for &[u, v] in ends {
                if let Some(s) = seen.get_mut(u as usize) {
                    *s = true;
                }
                if let Some(s) = seen.get_mut(v as usize) {
                    *s = true;
                }
            }
            Ids::Dense(seen)
        } else {
            let mut all: Vec<u64> = ends.iter().flatten().copied().collect();
            all.sort_unstable();
            all.dedup();
            Ids::Sparse(all)
        }
    }

    fn distinct(&self) -> usize {
        match self {
            Ids::Dense(seen) => seen.iter().filter(|&&s| s).count(),
            Ids::Sparse(ids) => ids.len(),
        }
    }

    /// The sorted labels (index → id) and the id → index map.
    fn remap(self) -> (Vec<u64>, IdMap) {
        match self {
            Ids::Dense(seen) => {
                let mut labels = Vec::new();
                let mut index = vec![u32::MAX; seen.len()];
                for (id, (&s, slot)) in seen.iter().zip(index.iter_mut()).enumerate() {
                    if s {
                        *slot = labels.len() as u32;
                        labels.push(id as u64);
                    }
                }
                (labels, IdMap::Dense(index))
            }
            Ids::Sparse(ids) => (ids.clone(), IdMap::Sparse(ids)),
        }
    }
}

impl IdMap {
    #[inline]
    fn index(&self, id: u64) -> Option<u32> {
        match self {
            IdMap::Dense(index) => index.get(usize::try_from(id).ok()?).copied().filter(|&i| i != u32::MAX),
            IdMap::Sparse(ids) => ids.binary_search(&id).ok().and_then(|i| u32::try_from(i).ok()),
        }
    }
}
