//! METIS graph files (`.graph`), as used by the DIMACS10 challenge and the Walshaw archive, and
//! their `.xyz` coordinates.
//!
//! Source: METIS 5 manual §4.1.1 "Graph file"; DIMACS10 <https://sites.cc.gatech.edu/dimacs10/>
//! (docs/references.md `[metis]`, `[dimacs10]`).
//!
//! ```text
//! % comment (anywhere)
//! N M [FMT [NCON]]
//! line i = the neighbours of vertex i (1-based), N lines; an empty line is a vertex with none
//! ```
//! FMT has up to three 0/1 digits: hundreds = a vertex size leads the line, tens = NCON vertex
//! weights follow it (NCON defaults to 1), units = neighbours come as `neighbour weight` pairs.
//! The graph is undirected and every edge is listed at both of its ends, so each listed neighbour
//! becomes one arc and the file must list 2·M neighbours in all.

use super::input::{
    IdError, Input, Lines, MAX_VERTICES, Parsed, Progress, check_size, invalid, is_blank, out_of_range, parse_error,
    parse_f32, parse_id1, parse_u64, parse_weight, reserve_hint, show, tokens, trim_start,
};
use super::{LoadError, LoadOptions};
use crate::graph::{GraphBuilder, VertexLabels, WeightRule};

/// `%` comment line (possibly indented).
fn is_comment(line: &[u8]) -> bool {
    trim_start(line).first() == Some(&b'%')
}

/// The parsed header.
struct Header {
    n: usize,
    m: u64,
    /// Leading values to skip on each adjacency line (vertex size and vertex weights).
    skip: usize,
    edge_weights: bool,
    line: usize,
}

fn parse_header(p: &str, ln: usize, line: &[u8]) -> Result<Header, LoadError> {
    let expected = || format!("expected the METIS header `N M [FMT [NCON]]`, found `{}`", show(line));
    let mut t = tokens(line);
    let (Some(n), Some(m), fmt, ncon, None) = (t.next(), t.next(), t.next(), t.next(), t.next()) else {
        return Err(parse_error(p, ln, expected()));
    };
    let (Some(n), Some(m)) = (parse_u64(n), parse_u64(m)) else {
        return Err(parse_error(p, ln, expected()));
    };
    let (mut sizes, mut vertex_weights, mut edge_weights) = (false, false, false);
    if let Some(fmt) = fmt {
        if fmt.is_empty() || fmt.len() > 3 || !fmt.iter().all(|&b| b == b'0' || b == b'1') {
            return Err(parse_error(
                p,
                ln,
                format!(
                    "FMT `{}` in `{}`: expected up to three 0/1 digits (0, 1, 10, 11, 100, …)",
                    show(fmt),
                    show(line)
                ),
            ));
        }
        let digit = |from_right: usize| fmt.len() > from_right && fmt.get(fmt.len() - 1 - from_right) == Some(&b'1');
        edge_weights = digit(0);
        vertex_weights = digit(1);
        sizes = digit(2);
    }
    let ncon = match ncon {
        None => 1,
        Some(tok) => match parse_u64(tok) {
            Some(k) if (1..=1024).contains(&k) => k as usize,
            _ => {
                return Err(parse_error(
                    p,
                    ln,
                    format!("NCON `{}` in `{}`: expected 1 ..= 1024", show(tok), show(line)),
                ));
            }
        },
    };
    if n == 0 {
        return Err(parse_error(p, ln, "the header announces 0 vertices: the graph has no vertices"));
    }
    if n > MAX_VERTICES {
        return Err(parse_error(
            p,
            ln,
            format!("{n} vertices is more than sssp-lab can hold (at most {MAX_VERTICES})"),
        ));
    }
    check_size(p, ln, "the METIS header", n, m.saturating_mul(2))?;
    let skip = usize::from(sizes) + if vertex_weights { ncon } else { 0 };
    Ok(Header { n: n as usize, m, skip, edge_weights, line: ln })
}

/// Reads a `.graph` file (its `.xyz` sibling is read by the caller once n is known).
pub(super) fn read(input: Input<'_>, opts: &LoadOptions, progress: &mut Progress<'_>) -> Result<Parsed, LoadError> {
    let file_bytes = input.bytes;
    let mut lines = Lines::open(input, progress)?;
    let p = lines.path().to_string();
    let file_weights = opts.weights == WeightRule::File;

    // Header: the first line that is neither a comment nor blank.
    let header = loop {
        match lines.next_line()? {
            None => {
                let last = lines.line();
                return Err(if last == 0 {
                    invalid(&p, "empty file: expected the METIS header `N M [FMT [NCON]]`")
                } else {
                    parse_error(&p, last, "end of file before the METIS header `N M [FMT [NCON]]`")
                });
            }
            Some((_, line)) if is_comment(line) || is_blank(line) => {}
            Some((ln, line)) => break parse_header(&p, ln, line)?,
        }
    };
    let n = header.n;
    let mut builder = GraphBuilder::new(n, opts.weights);
    builder.set_decimals(opts.weight_decimals);
    builder.reserve(reserve_hint(header.m.saturating_mul(2), file_bytes));

    let mut listed: u64 = 0;
    let mut v: usize = 0;
    while v < n {
        let Some((ln, line)) = lines.next_line()? else {
            return Err(parse_error(
                &p,
                lines.line(),
                format!(
                    "the header (line {}) announces {n} vertices, the file has adjacency lines for {v}",
                    header.line
                ),
            ));
        };
        if is_comment(line) {
            continue;
        }
        let mut t = tokens(line);
        for k in 0..header.skip {
            if t.next().and_then(parse_u64).is_none() {
                return Err(parse_error(
                    &p,
                    ln,
                    format!(
                        "vertex {}: expected {} leading vertex size/weight value(s) then neighbours, found `{}` \
                         (value {} missing or not an integer)",
                        v + 1,
                        header.skip,
                        show(line),
                        k + 1
                    ),
                ));
            }
        }
        let u = v as u32;
        while let Some(tok) = t.next() {
            let target = match parse_id1(tok, n) {
                Ok(i) => i,
                Err(IdError::Malformed) => {
                    return Err(parse_error(
                        &p,
                        ln,
                        format!("vertex {}: expected neighbour ids, found `{}` in `{}`", v + 1, show(tok), show(line)),
                    ));
                }
                Err(IdError::OutOfRange(id)) => return Err(parse_error(&p, ln, out_of_range(id, n, line))),
            };
            let weight = if header.edge_weights {
                let Some(w) = t.next() else {
                    return Err(parse_error(
                        &p,
                        ln,
                        format!(
                            "vertex {}: expected `neighbour weight` pairs (FMT has edge weights), found an odd count in `{}`",
                            v + 1,
                            show(line)
                        ),
                    ));
                };
                if file_weights {
                    Some(parse_weight(w).map_err(|e| parse_error(&p, ln, e.message(w, line)))?)
                } else {
                    None
                }
            } else {
                None
            };
            builder.push_file(u, target, weight);
            listed += 1;
        }
        v += 1;
    }
    // After the N adjacency lines only comments and blank lines may follow.
    while let Some((ln, line)) = lines.next_line()? {
        if !is_comment(line) && !is_blank(line) {
            return Err(parse_error(
                &p,
                ln,
                format!("the header announces {n} vertices, but another adjacency line follows: `{}`", show(line)),
            ));
        }
    }
    let last = lines.line();
    lines.finish();
    if listed != header.m.saturating_mul(2) {
        return Err(parse_error(
            &p,
            last,
            format!(
                "the header (line {}) announces {} edges, so 2·{} = {} neighbour entries, the file lists {listed}",
                header.line,
                header.m,
                header.m,
                header.m.saturating_mul(2)
            ),
        ));
    }
    Ok(Parsed { builder, labels: VertexLabels::Offset(1), shown: p, warnings: Vec::new() })
}

/// Reads an `.xyz` file: one `x y [z]` line per vertex (z ignored); blank and `%`/`#` comment
/// lines are skipped.
pub(super) fn read_xyz(input: Input<'_>, n: usize, progress: &mut Progress<'_>) -> Result<Vec<[f32; 2]>, LoadError> {
    let mut lines = Lines::open(input, progress)?;
    let p = lines.path().to_string();
    let mut coords = Vec::with_capacity(n.min(1 << 20));
    while let Some((ln, line)) = lines.next_line()? {
        let first = trim_start(line).first();
        if first.is_none() || first == Some(&b'%') || first == Some(&b'#') {
            continue;
        }
        let expected = || format!("expected `X Y [Z]`, found `{}`", show(line));
        let mut t = tokens(line);
        let (Some(x), Some(y), z, None) = (t.next(), t.next(), t.next(), t.next()) else {
            return Err(parse_error(&p, ln, expected()));
        };
        let (Some(x), Some(y)) = (parse_f32(x), parse_f32(y)) else {
            return Err(parse_error(&p, ln, expected()));
        };
        if z.is_some_and(|z| parse_f32(z).is_none()) {
            return Err(parse_error(&p, ln, expected()));
        }
        if coords.len() == n {
            return Err(parse_error(&p, ln, format!("more coordinate lines than the graph's {n} vertices")));
        }
        coords.push([x, y]);
    }
    let last = lines.line();
    lines.finish();
    if coords.len() != n {
        return Err(if last == 0 {
            invalid(&p, format!("empty coordinate file: expected {n} `X Y [Z]` lines"))
        } else {
            parse_error(&p, last, format!("coordinates for {} of the {n} vertices", coords.len()))
        });
    }
    Ok(coords)
}
