//! Writes a graph as a DIMACS 9th challenge `.gr` file, with a `.co` coordinate sibling.

use super::input::{has_gz_suffix, sibling_path};
use crate::graph::{Graph, VertexId, VertexLabels};
use flate2::Compression;
use flate2::write::GzEncoder;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// A buffered output file, gzip-compressed when its name ends in `.gz`.
enum Out {
    Plain(BufWriter<File>),
    Gz(GzEncoder<BufWriter<File>>),
}

impl Out {
    fn create(path: &Path) -> io::Result<Out> {
        let file = BufWriter::with_capacity(256 << 10, File::create(path)?);
        Ok(if has_gz_suffix(path) { Out::Gz(GzEncoder::new(file, Compression::default())) } else { Out::Plain(file) })
    }

    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Out::Plain(w) => w,
            Out::Gz(w) => w,
        }
    }

    /// Flushes everything (and writes the gzip trailer), reporting any error.
    fn finish(self) -> io::Result<()> {
        let mut file = match self {
            Out::Plain(w) => w,
            Out::Gz(w) => w.finish()?,
        };
        file.flush()
    }
}

/// A one-line version of `s` for a `c` comment.
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// Writes `graph` to `path` in the DIMACS 9th challenge shortest-path format: `c` comments with
/// the graph's name, the origin of its weights and (when the input had other ids) its id mapping,
/// `p sp n m`, then one `a U V W` line per arc in CSR order with 1-based vertex indices.
///
/// When the graph has coordinates, they go to the sibling `.co` file (`x.gr` → `x.co`,
/// `x.gr.gz` → `x.co.gz`) as `p aux sp co n` and `v ID X Y` lines, so that [`super::load`] reads
/// both back. A stale `.co` next to a graph without coordinates is left alone (and would be read
/// back). Both files are gzip-compressed when `path` ends in `.gz`.
///
/// Loading the result gives the same CSR (targets and weights in the same order).
///
/// Errors: any I/O error creating or writing the files.
pub fn write_dimacs(graph: &Graph, path: &Path) -> io::Result<()> {
    let mut out = Out::create(path)?;
    let w = out.writer();
    let n = graph.n();
    writeln!(w, "c {} (written by sssp-lab)", one_line(&graph.name))?;
    writeln!(w, "c weights: {}", one_line(&graph.weight_origin))?;
    let labels = graph.labels();
    if *labels != VertexLabels::Offset(1) {
        writeln!(w, "c input vertex {}; written here as 1..={n}", labels.describe(n))?;
    }
    writeln!(w, "p sp {} {}", n, graph.m())?;
    let succ = graph.successors();
    for u in 0..n as VertexId {
        for (v, wt) in succ.arcs(u) {
            writeln!(w, "a {} {} {}", u as u64 + 1, v as u64 + 1, wt)?;
        }
    }
    out.finish()?;

    if let Some(coords) = graph.coords() {
        let co = sibling_path(path, "co", has_gz_suffix(path));
        let mut out = Out::create(&co)?;
        let w = out.writer();
        writeln!(w, "c coordinates of {} (written by sssp-lab)", one_line(&graph.name))?;
        writeln!(w, "p aux sp co {n}")?;
        for (v, [x, y]) in coords.iter().enumerate() {
            writeln!(w, "v {} {x} {y}", v + 1)?;
        }
        out.finish()?;
    }
    Ok(())
}
