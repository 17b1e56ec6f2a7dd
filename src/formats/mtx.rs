//! MatrixMarket `.mtx` sparse matrices as graphs: entry (I, J, V) is the arc I → J of weight V.
//!
//! Source: NIST MatrixMarket exchange format
//! (<https://math.nist.gov/MatrixMarket/formats.html>), as served by the SuiteSparse collection
//! (docs/references.md `[matrixmarket]`).
//!
//! ```text
//! %%MatrixMarket matrix coordinate FIELD SYMMETRY      FIELD = integer | real | pattern
//! % comments                                            SYMMETRY = general | symmetric
//! R C NNZ
//! I J [V]   (NNZ times, 1-based)
//! ```
//! n = max(R, C). A `symmetric` file stores one triangle: each off-diagonal entry also gives the
//! reverse arc. Values are integers (negative too) or reals, scaled to integers
//! ([`crate::graph::WeightScale`]); dense `array`
//! files, `complex`, `hermitian` and `skew-symmetric` matrices are refused.

use super::input::{
    IdError, Input, Lines, MAX_VERTICES, Parsed, Progress, check_size, invalid, out_of_range, parse_error, parse_id1,
    parse_u64, parse_weight, reserve_hint, show, tokens, trim_start,
};
use super::{LoadError, LoadOptions};
use crate::graph::{GraphBuilder, VertexLabels, WeightRule};

const BANNER: &str = "%%MatrixMarket matrix coordinate (integer|real|pattern) (general|symmetric)";

/// What the banner says.
struct Banner {
    pattern: bool,
    symmetric: bool,
}

fn parse_banner(p: &str, ln: usize, line: &[u8]) -> Result<Banner, LoadError> {
    let lower = line.to_ascii_lowercase();
    let mut t = tokens(&lower);
    let found = || format!("expected the banner `{BANNER}`, found `{}`", show(line));
    let (Some(b"%%matrixmarket"), Some(object), Some(format), Some(field), Some(symmetry), None) =
        (t.next(), t.next(), t.next(), t.next(), t.next(), t.next())
    else {
        return Err(parse_error(p, ln, found()));
    };
    if object != b"matrix" {
        return Err(parse_error(p, ln, format!("MatrixMarket object `{}` is not a matrix: {}", show(object), found())));
    }
    match format {
        b"coordinate" => {}
        b"array" => {
            return Err(parse_error(
                p,
                ln,
                "dense `array` MatrixMarket files are not graphs: sssp-lab reads sparse `coordinate` matrices",
            ));
        }
        _ => return Err(parse_error(p, ln, found())),
    }
    let pattern = match field {
        b"pattern" => true,
        b"integer" | b"real" | b"double" => false,
        b"complex" => {
            return Err(parse_error(
                p,
                ln,
                "`complex` values cannot be arc weights: expected `integer`, `real` or `pattern`",
            ));
        }
        _ => return Err(parse_error(p, ln, found())),
    };
    let symmetric = match symmetry {
        b"general" => false,
        b"symmetric" => true,
        b"skew-symmetric" | b"hermitian" => {
            return Err(parse_error(
                p,
                ln,
                format!(
                    "`{}` matrices are not supported (their mirrored entries are negated or conjugated): \
                     expected `general` or `symmetric`",
                    show(symmetry)
                ),
            ));
        }
        _ => return Err(parse_error(p, ln, found())),
    };
    Ok(Banner { pattern, symmetric })
}

fn is_comment_or_blank(line: &[u8]) -> bool {
    let t = trim_start(line);
    t.is_empty() || t.first() == Some(&b'%')
}

/// Reads a `.mtx` file.
pub(super) fn read(input: Input<'_>, opts: &LoadOptions, progress: &mut Progress<'_>) -> Result<Parsed, LoadError> {
    let file_bytes = input.bytes;
    let mut lines = Lines::open(input, progress)?;
    let p = lines.path().to_string();

    let banner = match lines.next_line()? {
        Some((ln, line)) => parse_banner(&p, ln, line)?,
        None => return Err(invalid(&p, format!("empty file: expected the banner `{BANNER}`"))),
    };
    let size_line;
    let mut warnings = Vec::new();
    let (rows, cols, nnz) = loop {
        let Some((ln, line)) = lines.next_line()? else {
            return Err(parse_error(&p, lines.line(), "end of file before the size line `R C NNZ`"));
        };
        if is_comment_or_blank(line) {
            continue;
        }
        let expected = || format!("expected the size line `R C NNZ`, found `{}`", show(line));
        let mut t = tokens(line);
        let (Some(r), Some(c), Some(k), None) = (t.next(), t.next(), t.next(), t.next()) else {
            return Err(parse_error(&p, ln, expected()));
        };
        let (Some(r), Some(c), Some(k)) = (parse_u64(r), parse_u64(c), parse_u64(k)) else {
            return Err(parse_error(&p, ln, expected()));
        };
        let n = r.max(c);
        if n == 0 {
            return Err(parse_error(&p, ln, "a 0 × 0 matrix: the graph has no vertices"));
        }
        if n > MAX_VERTICES {
            return Err(parse_error(
                &p,
                ln,
                format!("{n} vertices is more than sssp-lab can hold (at most {MAX_VERTICES})"),
            ));
        }
        if banner.symmetric && r != c {
            return Err(parse_error(&p, ln, format!("a symmetric matrix must be square, found {r} × {c}")));
        }
        let arcs = if banner.symmetric { k.saturating_mul(2) } else { k };
        check_size(&p, ln, "the size line", n, arcs)?;
        if r != c {
            warnings.push(format!(
                "{p}:{ln}: the matrix is {r} × {c}, not square: read as a graph of max({r}, {c}) = {n} vertices \
                 (row i and column i are the same vertex; the extra {} have no {} arcs)",
                if r < c { "columns" } else { "rows" },
                if r < c { "outgoing" } else { "incoming" }
            ));
        }
        size_line = ln;
        break (r as usize, c as usize, k);
    };
    let n = rows.max(cols);
    let read_values = !banner.pattern && opts.weights == WeightRule::File;
    let columns = if banner.pattern { 2 } else { 3 };
    let entry_form = if banner.pattern { "`I J`" } else { "`I J V`" };
    let mut builder = GraphBuilder::new(n, opts.weights);
    builder.set_decimals(opts.weight_decimals);
    let arcs_hint = if banner.symmetric { nnz.saturating_mul(2) } else { nnz };
    builder.reserve(reserve_hint(arcs_hint, file_bytes));
    let mut entries: u64 = 0;

    while let Some((ln, line)) = lines.next_line()? {
        if is_comment_or_blank(line) {
            continue;
        }
        let expected = || format!("expected an entry {entry_form}, found `{}`", show(line));
        let mut t = tokens(line);
        let (Some(i), Some(j), value, extra) = (t.next(), t.next(), t.next(), t.next()) else {
            return Err(parse_error(&p, ln, expected()));
        };
        let token_count = 2 + usize::from(value.is_some()) + usize::from(extra.is_some());
        if token_count != columns {
            return Err(parse_error(&p, ln, expected()));
        }
        let index = |tok: &[u8], bound: usize| match parse_id1(tok, bound) {
            Ok(x) => Ok(x),
            Err(IdError::Malformed) => Err(parse_error(&p, ln, expected())),
            Err(IdError::OutOfRange(id)) => Err(parse_error(&p, ln, out_of_range(id, bound, line))),
        };
        let (u, v) = (index(i, rows)?, index(j, cols)?);
        let weight = match value {
            Some(tok) if read_values => Some(parse_weight(tok).map_err(|e| parse_error(&p, ln, e.message(tok, line)))?),
            _ => None,
        };
        entries += 1;
        if entries > nnz {
            return Err(parse_error(
                &p,
                ln,
                format!("the size line (line {size_line}) announces {nnz} entries, this is entry {entries}"),
            ));
        }
        builder.push_file(u, v, weight);
        if banner.symmetric && u != v {
            builder.push_file(v, u, weight);
        }
    }
    let last = lines.line();
    lines.finish();
    if entries != nnz {
        return Err(parse_error(
            &p,
            last,
            format!("the size line (line {size_line}) announces {nnz} entries, the file has {entries}"),
        ));
    }
    Ok(Parsed { builder, labels: VertexLabels::Offset(1), shown: p, warnings })
}
