//! Edge lists: SNAP `.txt` and GAP `.el` (`U V` per line) and GAP `.wel` (`U V W` per line),
//! and two dialects only an explicit format reads: `dimacs-arcs` (`a U V W` lines without a
//! `p sp` line, 0-based, as some OpenStreetMap exports write) and `el-count` (a first line
//! holding only the vertex count N, then `U V` lines with ids in `0..N`).
//!
//! Sources: SNAP <https://snap.stanford.edu/data/> (`#` comments, a `# Nodes: N Edges: M`
//! header, ids 0-based but possibly sparse); GAP Benchmark Suite `src/reader.h` (0-based,
//! no header). Every line is one directed arc as written; `#` and `%` lines are comments.
//! In `.el`/`.txt` files columns after the second are ignored (SNAP's signed and temporal
//! lists) with a warning; `.wel` lines must have exactly three. An id beyond 32 bits (2⁶⁴ − 1
//! is −1 written unsigned) is read, renumbered, with a warning. References: docs/references.md `[snap]`, `[gapbs]`.
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
    Input, Lines, MAX_VERTICES, Parsed, Progress, check_size, invalid, parse_error, parse_u64, parse_weight, show,
    tokens, trim_start,
};
use super::{LoadError, LoadOptions};
use crate::graph::{FileWeight, GraphBuilder, VertexLabels, WeightRule};

/// Which kind of edge list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialect {
    /// `U V [ignored…]` (SNAP, GAP `.el`).
    Plain,
    /// `U V W` (GAP `.wel`).
    Weighted,
    /// DIMACS arcs without a `p sp` line: `a U V W`, `c` comments, ids 0-based (OpenStreetMap
    /// exports). `--format dimacs-arcs`.
    DimacsArcs,
    /// A first line holding only the vertex count N, then `U V` lines with ids in `0..N`.
    /// `--format el-count`.
    Counted,
}

/// What the plain reader's refusal of a bare count suggests.
const COUNT_HINT: &str = "a first line holding only the vertex count reads with `--format el-count`";

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

/// Reads an edge list of `dialect`.
pub(super) fn read(
    input: Input<'_>,
    dialect: Dialect,
    opts: &LoadOptions,
    progress: &mut Progress<'_>,
) -> Result<Parsed, LoadError> {
    let mut lines = Lines::open(input, progress)?;
    let p = lines.path().to_string();
    let mut scan = Scan::new(dialect, opts);
    while let Some((ln, line)) = lines.next_line()? {
        scan.line(&p, ln, line)?;
    }
    let last = lines.line();
    lines.finish();
    if scan.ends.is_empty() {
        return Err(if last == 0 {
            invalid(&p, format!("empty file: expected {} lines", scan.form))
        } else {
            invalid(&p, format!("no edges: expected {} lines besides the comments", scan.form))
        });
    }
    let warnings = scan.warnings(&p);
    let (n, labels, map) = scan.numbering(&p)?;
    check_size(&p, last, "the file", n as u64, scan.ends.len() as u64)?;
    let builder = scan.build(&p, n, map.as_ref(), opts)?;
    Ok(Parsed { builder, labels, shown: p, warnings })
}

/// What the reader gathers line by line, before it numbers the vertices.
struct Scan {
    dialect: Dialect,
    /// How a line should look, for the messages.
    form: &'static str,
    weighted: bool,
    read_weights: bool,
    ends: Vec<[u64; 2]>,
    weights: Vec<FileWeight>,
    header_nodes: Option<u64>,
    /// el-count: (N, its line) once read.
    count: Option<(u64, usize)>,
    max_id: u64,
    /// The line of the first id beyond 32 bits, for the warning.
    wide_id: Option<(u64, usize)>,
    /// Lines with columns after `U V` (plain lists): how many, and the first.
    extra_columns: (u64, usize),
}

impl Scan {
    fn new(dialect: Dialect, opts: &LoadOptions) -> Scan {
        let weighted = matches!(dialect, Dialect::Weighted | Dialect::DimacsArcs);
        let form = match dialect {
            Dialect::Plain | Dialect::Counted => "`U V`",
            Dialect::Weighted => "`U V W`",
            Dialect::DimacsArcs => "`a U V W`",
        };
        Scan {
            dialect,
            form,
            weighted,
            read_weights: weighted && opts.weights == WeightRule::File,
            ends: Vec::new(),
            weights: Vec::new(),
            header_nodes: None,
            count: None,
            max_id: 0,
            wide_id: None,
            extra_columns: (0, 0),
        }
    }

    /// Takes line `ln`: blank, a comment, the dialect's own lines (`a` and `c` of DIMACS arcs,
    /// el-count's count) or an arc.
    fn line(&mut self, p: &str, ln: usize, line: &[u8]) -> Result<(), LoadError> {
        let body = trim_start(line);
        let mut t = tokens(body);
        match (self.dialect, body.first()) {
            (_, None) => return Ok(()),
            (Dialect::DimacsArcs, Some(b'c')) => return Ok(()),
            (Dialect::DimacsArcs, _) => dimacs_arc_tag(p, ln, line, t.next())?,
            (_, Some(b'#' | b'%')) => {
                if self.header_nodes.is_none() {
                    self.header_nodes = snap_nodes(body);
                }
                return Ok(());
            }
            (Dialect::Counted, Some(_)) if self.count.is_none() => {
                self.count = Some((vertex_count(p, ln, line, &mut t)?, ln));
                return Ok(());
            }
            _ => {}
        }
        self.arc(p, ln, line, body, t)
    }

    /// The arc of line `ln` (`t`: its tokens after the dialect's tag, if any).
    fn arc<'l>(
        &mut self,
        p: &str,
        ln: usize,
        line: &[u8],
        body: &[u8],
        mut t: impl Iterator<Item = &'l [u8]>,
    ) -> Result<(), LoadError> {
        let form = self.form;
        let expected = || format!("expected {form} (non-negative integer ids), found `{}`", show(line));
        let (Some(u_tok), Some(v_tok)) = (t.next(), t.next()) else {
            if self.dialect == Dialect::Plain && self.ends.is_empty() && parse_u64(body.trim_ascii_end()).is_some() {
                return Err(parse_error(p, ln, format!("{}; {COUNT_HINT}", expected())));
            }
            return Err(parse_error(p, ln, expected()));
        };
        let (Some(u), Some(v)) = (parse_u64(u_tok), parse_u64(v_tok)) else {
            return Err(parse_error(p, ln, expected()));
        };
        if self.weighted {
            let (Some(w), None) = (t.next(), t.next()) else {
                return Err(parse_error(p, ln, expected()));
            };
            if self.read_weights {
                self.weights.push(parse_weight(w).map_err(|e| parse_error(p, ln, e.message(w, line)))?);
            }
        } else if t.next().is_some() {
            if self.extra_columns.0 == 0 {
                self.extra_columns.1 = ln;
            }
            self.extra_columns.0 += 1;
        }
        if let Some((n, n_line)) = self.count
            && u.max(v) >= n
        {
            return Err(parse_error(
                p,
                ln,
                format!("id {} out of range 0..{n} (the vertex count of line {n_line}) in `{}`", u.max(v), show(line)),
            ));
        }
        if u.max(v) > u64::from(u32::MAX) && self.wide_id.is_none() {
            self.wide_id = Some((u.max(v), ln));
        }
        self.max_id = self.max_id.max(u).max(v);
        self.ends.push([u, v]);
        Ok(())
    }

    /// What was read but changed or left out: extra columns, ids beyond 32 bits.
    fn warnings(&self, p: &str) -> Vec<String> {
        let mut warnings = Vec::new();
        if self.extra_columns.0 > 0 {
            warnings.push(format!(
                "{p}:{}: {} line(s) have columns after `U V` (first here); they were ignored (SNAP's signed and \
                 temporal lists keep signs and times there)",
                self.extra_columns.1, self.extra_columns.0
            ));
        }
        if let Some((id, ln)) = self.wide_id {
            let why = if id == u64::MAX { " (2⁶⁴ − 1 is often −1 written unsigned)" } else { "" };
            warnings.push(format!(
                "{p}:{ln}: id {id} does not fit 32 bits{why}; the ids were renumbered 0..k in increasing order, \
                 the vertex labels keep the file's ids"
            ));
        }
        warnings
    }

    /// The vertex count and labels, and the id map when the ids are renumbered (see the
    /// module's "Vertex ids").
    fn numbering(&self, p: &str) -> Result<(usize, VertexLabels, Option<IdMap>), LoadError> {
        let max_id = self.max_id;
        let ids = Ids::collect(&self.ends, max_id);
        let distinct = ids.distinct() as u64;
        let as_is = match (self.count, self.header_nodes) {
            (Some(_), _) => true,
            (None, Some(h)) if h == max_id.saturating_add(1) => true,
            (None, Some(h)) if h == distinct => false,
            _ => max_id.saturating_add(1) <= distinct.saturating_mul(2),
        };
        if as_is {
            let n = self.count.map_or(max_id.saturating_add(1), |c| c.0);
            if n > MAX_VERTICES {
                return Err(invalid(
                    p,
                    format!("id {max_id} is too large: sssp-lab holds at most {MAX_VERTICES} vertices"),
                ));
            }
            Ok((n as usize, VertexLabels::Offset(0), None))
        } else {
            let (labels, map) = ids.remap();
            Ok((distinct as usize, VertexLabels::Explicit(labels), Some(map)))
        }
    }

    /// The graph's builder: every arc as read, its ids through `map` when renumbered.
    fn build(self, p: &str, n: usize, map: Option<&IdMap>, opts: &LoadOptions) -> Result<GraphBuilder, LoadError> {
        let mut builder = GraphBuilder::new(n, opts.weights);
        builder.set_decimals(opts.weight_decimals);
        builder.reserve(self.ends.len());
        for (k, &[u, v]) in self.ends.iter().enumerate() {
            let w = if self.read_weights { self.weights.get(k).copied() } else { None };
            let (u, v) = match map {
                None => (u as u32, v as u32),
                Some(map) => match (map.index(u), map.index(v)) {
                    (Some(u), Some(v)) => (u, v),
                    _ => return Err(invalid(p, format!("internal error: id {u} or {v} missing from the id map"))),
                },
            };
            builder.push_file(u, v, w);
        }
        Ok(builder)
    }
}

/// A DIMACS-arcs line that is not a comment must start with `a`; a `p` line means a real
/// DIMACS file, whose ids are 1-based.
fn dimacs_arc_tag(p: &str, ln: usize, line: &[u8], tag: Option<&[u8]>) -> Result<(), LoadError> {
    match tag {
        Some(b"a") => Ok(()),
        Some(b"p") => Err(parse_error(
            p,
            ln,
            format!(
                "`{}`: this file has a DIMACS `p` line, so its ids are 1-based: read it with `--format dimacs`",
                show(line)
            ),
        )),
        _ => Err(parse_error(p, ln, format!("expected a `c` comment or an `a U V W` arc, found `{}`", show(line)))),
    }
}

/// el-count's first line: the vertex count N alone, at least 1 and at most [`MAX_VERTICES`].
fn vertex_count<'l>(p: &str, ln: usize, line: &[u8], t: &mut impl Iterator<Item = &'l [u8]>) -> Result<u64, LoadError> {
    let (Some(n), None) = (t.next().and_then(parse_u64), t.next()) else {
        return Err(parse_error(
            p,
            ln,
            format!("expected the vertex count N alone on the first line, found `{}`", show(line)),
        ));
    };
    if n == 0 {
        return Err(parse_error(p, ln, "the first line announces 0 vertices: the graph has no vertices"));
    }
    if n > MAX_VERTICES {
        return Err(parse_error(
            p,
            ln,
            format!("{n} vertices is more than sssp-lab can hold (at most {MAX_VERTICES})"),
        ));
    }
    check_size(p, ln, "the first line", n, 0)?;
    Ok(n)
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
