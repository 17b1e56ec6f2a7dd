//! DIMACS 9th Implementation Challenge (shortest paths) `.gr` graphs and `.co` coordinates.
//!
//! Source: <http://www.diag.uniroma1.it/challenge9/format.shtml> (docs/references.md `[dimacs9]`).
//!
//! ```text
//! c comment                 .co:  c comment
//! p sp N M                        p aux sp co N
//! a U V W   (M times)             v ID X Y   (N times)
//! ```
//! Ids are 1-based, arcs directed, weights integers (negative ones too) or reals (scaled, [`crate::graph::WeightScale`]). The `p` line must come before
//! the first arc and the number of arcs must equal M.

use super::input::{
    IdError, Input, Lines, MAX_VERTICES, Parsed, Progress, check_size, invalid, out_of_range, parse_error, parse_f32,
    parse_id1, parse_u64, parse_weight, reserve_hint, show, tokens,
};
use super::{LoadError, LoadOptions};
use crate::graph::{GraphBuilder, VertexLabels, WeightRule};

/// What the refusal of a headerless arc list suggests.
const ARCS_HINT: &str = "a headerless arc list (0-based `a U V W` lines, as some OpenStreetMap exports write) \
                         reads with `--format dimacs-arcs`";

/// Reads a `.gr` file (its `.co` sibling is read by the caller once n is known).
pub(super) fn read(input: Input<'_>, opts: &LoadOptions, progress: &mut Progress<'_>) -> Result<Parsed, LoadError> {
    let file_bytes = input.bytes;
    let mut lines = Lines::open(input, progress)?;
    let p = lines.path().to_string();
    let file_weights = opts.weights == WeightRule::File;
    // (n, m, line of the `p` line) once seen.
    let mut header: Option<(usize, u64, usize)> = None;
    let mut builder: Option<GraphBuilder> = None;
    let mut arcs: u64 = 0;

    while let Some((ln, line)) = lines.next_line()? {
        let mut t = tokens(line);
        let Some(first) = t.next() else { continue };
        match first {
            b"a" => {
                let (Some(b), Some((n, _, _))) = (builder.as_mut(), header) else {
                    return Err(parse_error(
                        &p,
                        ln,
                        format!("arc `{}` before the `p sp N M` line; {ARCS_HINT}", show(line)),
                    ));
                };
                let expected = || format!("expected `a U V W`, found `{}`", show(line));
                let (Some(u), Some(v), Some(w), None) = (t.next(), t.next(), t.next(), t.next()) else {
                    return Err(parse_error(&p, ln, expected()));
                };
                let id = |tok: &[u8]| match parse_id1(tok, n) {
                    Ok(i) => Ok(i),
                    Err(IdError::Malformed) => Err(parse_error(&p, ln, expected())),
                    Err(IdError::OutOfRange(id)) => Err(parse_error(&p, ln, out_of_range(id, n, line))),
                };
                let (u, v) = (id(u)?, id(v)?);
                let w = if file_weights {
                    Some(parse_weight(w).map_err(|e| parse_error(&p, ln, e.message(w, line)))?)
                } else {
                    None
                };
                b.push_file(u, v, w);
                arcs += 1;
            }
            b"p" => {
                if let Some((_, _, first_line)) = header {
                    return Err(parse_error(&p, ln, format!("second `p` line (the first is line {first_line})")));
                }
                let expected = || format!("expected `p sp N M`, found `{}`", show(line));
                let (Some(b"sp"), Some(n), Some(m), None) = (t.next(), t.next(), t.next(), t.next()) else {
                    return Err(parse_error(&p, ln, expected()));
                };
                let (Some(n), Some(m)) = (parse_u64(n), parse_u64(m)) else {
                    return Err(parse_error(&p, ln, expected()));
                };
                if n == 0 {
                    return Err(parse_error(&p, ln, "`p sp 0 …`: the graph has no vertices"));
                }
                if n > MAX_VERTICES {
                    return Err(parse_error(
                        &p,
                        ln,
                        format!("{n} vertices is more than sssp-lab can hold (at most {MAX_VERTICES})"),
                    ));
                }
                check_size(&p, ln, "the `p sp` line", n, m)?;
                let n = n as usize;
                let mut b = GraphBuilder::new(n, opts.weights);
                b.set_decimals(opts.weight_decimals);
                b.reserve(reserve_hint(m, file_bytes));
                builder = Some(b);
                header = Some((n, m, ln));
            }
            _ if first.first() == Some(&b'c') => {}
            _ => {
                return Err(parse_error(
                    &p,
                    ln,
                    format!("expected a `c`, `p sp N M` or `a U V W` line, found `{}`", show(line)),
                ));
            }
        }
    }
    let last = lines.line();
    lines.finish();
    let (Some(builder), Some((_, m, p_line))) = (builder, header) else {
        return Err(if last == 0 {
            invalid(&p, "empty file: expected a DIMACS `p sp N M` line and `a U V W` arcs")
        } else {
            parse_error(&p, last, "end of file without a `p sp N M` line")
        });
    };
    if arcs != m {
        return Err(parse_error(
            &p,
            last,
            format!("the `p` line (line {p_line}) announces {m} arcs, the file has {arcs}"),
        ));
    }
    Ok(Parsed { builder, labels: VertexLabels::Offset(1), shown: p, warnings: Vec::new() })
}

/// Reads a `.co` file for a graph of `n` vertices: `p aux sp co N` with N = n, then one
/// `v ID X Y` line per vertex (each id once).
pub(super) fn read_coords(input: Input<'_>, n: usize, progress: &mut Progress<'_>) -> Result<Vec<[f32; 2]>, LoadError> {
    let mut lines = Lines::open(input, progress)?;
    let p = lines.path().to_string();
    let mut coords = vec![[0f32; 2]; n];
    let mut seen = vec![false; n];
    let mut header: Option<usize> = None;
    let mut count = 0usize;
    while let Some((ln, line)) = lines.next_line()? {
        let mut t = tokens(line);
        let Some(first) = t.next() else { continue };
        match first {
            b"v" => {
                if header.is_none() {
                    return Err(parse_error(
                        &p,
                        ln,
                        format!("coordinate `{}` before the `p aux sp co N` line", show(line)),
                    ));
                }
                let expected = || format!("expected `v ID X Y`, found `{}`", show(line));
                let (Some(id), Some(x), Some(y), None) = (t.next(), t.next(), t.next(), t.next()) else {
                    return Err(parse_error(&p, ln, expected()));
                };
                let v = match parse_id1(id, n) {
                    Ok(v) => v as usize,
                    Err(IdError::Malformed) => return Err(parse_error(&p, ln, expected())),
                    Err(IdError::OutOfRange(id)) => return Err(parse_error(&p, ln, out_of_range(id, n, line))),
                };
                let (Some(x), Some(y)) = (parse_f32(x), parse_f32(y)) else {
                    return Err(parse_error(&p, ln, expected()));
                };
                match (seen.get_mut(v), coords.get_mut(v)) {
                    (Some(s), Some(c)) => {
                        if *s {
                            return Err(parse_error(&p, ln, format!("second coordinate line for vertex {}", v + 1)));
                        }
                        *s = true;
                        *c = [x, y];
                    }
                    _ => return Err(parse_error(&p, ln, out_of_range(v as u64 + 1, n, line))),
                }
                count += 1;
            }
            b"p" => {
                if header.is_some() {
                    return Err(parse_error(&p, ln, "second `p` line"));
                }
                let expected = || format!("expected `p aux sp co N`, found `{}`", show(line));
                let (Some(b"aux"), Some(b"sp"), Some(b"co"), Some(k), None) =
                    (t.next(), t.next(), t.next(), t.next(), t.next())
                else {
                    return Err(parse_error(&p, ln, expected()));
                };
                let Some(k) = parse_u64(k) else {
                    return Err(parse_error(&p, ln, expected()));
                };
                if k != n as u64 {
                    return Err(parse_error(
                        &p,
                        ln,
                        format!("the coordinate file is for {k} vertices, the graph has {n}"),
                    ));
                }
                header = Some(ln);
            }
            _ if first.first() == Some(&b'c') => {}
            _ => {
                return Err(parse_error(
                    &p,
                    ln,
                    format!("expected a `c`, `p aux sp co N` or `v ID X Y` line, found `{}`", show(line)),
                ));
            }
        }
    }
    let last = lines.line();
    lines.finish();
    if header.is_none() {
        return Err(if last == 0 {
            invalid(&p, "empty coordinate file: expected `p aux sp co N` and `v ID X Y` lines")
        } else {
            parse_error(&p, last, "end of file without a `p aux sp co N` line")
        });
    }
    if count != n {
        return Err(parse_error(&p, last, format!("coordinates for {count} of the {n} vertices")));
    }
    Ok(coords)
}
