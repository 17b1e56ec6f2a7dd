//! Graph file readers and the DIMACS writer (docs/references.md `[terms-graphs]`; each source below
//! has an entry there: `[dimacs9]`, `[metis]`, `[dimacs10]`, `[matrixmarket]`, `[snap]`, `[gapbs]`).
//!
//! One module per format, each a streaming parser that reads a line at a time into a reused
//! buffer and names `file:line` in every error:
//!
//! | format | extensions | source |
//! |---|---|---|
//! | [`Format::Dimacs`] | `.gr` (+ sibling `.co` coordinates) | 9th DIMACS Implementation Challenge: Shortest Paths |
//! | [`Format::Metis`] | `.graph` (+ sibling `.xyz` coordinates) | METIS manual §4.1.1, DIMACS10 / Walshaw archive |
//! | [`Format::MatrixMarket`] | `.mtx` | NIST MatrixMarket exchange format, SuiteSparse collection |
//! | [`Format::EdgeList`] | `.el`, `.txt` | SNAP edge lists, GAP Benchmark Suite `.el` |
//! | [`Format::WeightedEdgeList`] | `.wel` | GAP Benchmark Suite `.wel` |
//!
//! Every file may be gzip-compressed (`.gz` suffix, or detected by its magic bytes). Unweighted
//! inputs get weights by the [`WeightRule`] of [`LoadOptions`].

/// The bundled default graph: DIMACS USA-road-d.NY (the `.co.gz` beside it gives coordinates),
/// carried inside the binary and written to a cache folder on first use ([`crate::assets`]), so
/// it is found from any working directory and without the build tree.
pub fn bundled_graph_path() -> std::path::PathBuf {
    crate::assets::bundled_graph()
}

mod dimacs;
mod edgelist;
mod input;
mod metis;
mod mtx;
mod write;

pub use write::write_dimacs;

use crate::graph::{Graph, WeightRule};
use input::{Progress, file_len, find_sibling, invalid};
use std::fmt;
use std::path::Path;
use std::str::FromStr;

/// A graph file format sssp-lab reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Format {
    /// DIMACS 9th challenge shortest-path format: `p sp N M`, arcs `a U V W`, 1-based, directed,
    /// integer weights; coordinates from a sibling `.co` file (`v ID X Y`).
    #[serde(rename = "dimacs")]
    Dimacs,
    /// METIS / DIMACS10 adjacency format: header `N M [FMT [NCON]]`, then one line of 1-based
    /// neighbours per vertex; undirected (every edge listed at both ends); coordinates from a
    /// sibling `.xyz` file.
    #[serde(rename = "metis")]
    Metis,
    /// MatrixMarket `coordinate` matrices (`integer`, `real` or `pattern`; `general` or
    /// `symmetric`): entry `I J [V]` is the arc I → J.
    #[serde(rename = "mtx")]
    MatrixMarket,
    /// Unweighted edge list, one `U V` arc per line, `#`/`%` comments (SNAP, GAP `.el`).
    #[serde(rename = "el")]
    EdgeList,
    /// Weighted edge list, one `U V W` arc per line (GAP `.wel`).
    #[serde(rename = "wel")]
    WeightedEdgeList,
}

impl Format {
    /// Every format, in the order of [`Format::id`]'s documentation.
    pub const ALL: [Format; 5] =
        [Format::Dimacs, Format::Metis, Format::MatrixMarket, Format::EdgeList, Format::WeightedEdgeList];

    /// The format of a file by its extension, ignoring a trailing `.gz` (case-insensitive):
    /// `.gr` → Dimacs, `.graph` → Metis, `.mtx` → MatrixMarket, `.el`/`.txt` → EdgeList,
    /// `.wel` → WeightedEdgeList. `None` for anything else.
    pub fn from_path(path: &Path) -> Option<Format> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        let name = name.strip_suffix(".gz").unwrap_or(&name);
        let (_, ext) = name.rsplit_once('.')?;
        match ext {
            "gr" => Some(Format::Dimacs),
            "graph" => Some(Format::Metis),
            "mtx" => Some(Format::MatrixMarket),
            "el" | "txt" => Some(Format::EdgeList),
            "wel" => Some(Format::WeightedEdgeList),
            _ => None,
        }
    }

    /// Short name used on the command line and in saved settings: `dimacs`, `metis`, `mtx`,
    /// `el`, `wel`.
    pub fn id(self) -> &'static str {
        match self {
            Format::Dimacs => "dimacs",
            Format::Metis => "metis",
            Format::MatrixMarket => "mtx",
            Format::EdgeList => "el",
            Format::WeightedEdgeList => "wel",
        }
    }

    /// Human name, e.g. for a file dialog filter.
    pub fn description(self) -> &'static str {
        match self {
            Format::Dimacs => "DIMACS shortest-path (.gr)",
            Format::Metis => "METIS / DIMACS10 (.graph)",
            Format::MatrixMarket => "MatrixMarket (.mtx)",
            Format::EdgeList => "edge list (.el, .txt)",
            Format::WeightedEdgeList => "weighted edge list (.wel)",
        }
    }

    /// File extensions (without dot and without `.gz`) recognised by [`Format::from_path`].
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::Dimacs => &["gr"],
            Format::Metis => &["graph"],
            Format::MatrixMarket => &["mtx"],
            Format::EdgeList => &["el", "txt"],
            Format::WeightedEdgeList => &["wel"],
        }
    }
}

impl FromStr for Format {
    type Err = String;

    /// Parses an [`id`](Format::id) or an alias (`gr`, `graph`, `matrixmarket`, `snap`, `txt`),
    /// case-insensitive. The error lists the accepted names.
    fn from_str(s: &str) -> Result<Format, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "dimacs" | "gr" => Ok(Format::Dimacs),
            "metis" | "graph" => Ok(Format::Metis),
            "mtx" | "matrixmarket" => Ok(Format::MatrixMarket),
            "el" | "snap" | "txt" => Ok(Format::EdgeList),
            "wel" => Ok(Format::WeightedEdgeList),
            _ => Err(format!(
                "unknown graph format `{s}`: expected one of dimacs (gr), metis (graph), mtx (matrixmarket), \
                 el (snap, txt), wel"
            )),
        }
    }
}

impl fmt::Display for Format {
    /// Writes the [`id`](Format::id).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// How to load a file.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// The format; `None` = by extension ([`Format::from_path`]).
    pub format: Option<Format>,
    /// Where the weights come from. With [`WeightRule::Unit`] or [`WeightRule::Uniform`] the
    /// file's weight values are not parsed at all (so files with real or negative values load).
    pub weights: WeightRule,
    /// Scale the file's weights by 10^k ([`crate::graph::WeightScale`]); `None` = automatic
    /// (only files with real values are scaled).
    pub weight_decimals: Option<u32>,
}

/// Why a graph file could not be loaded. Every variant but `Cancelled` names the file; parse
/// errors also name the 1-based line and say what was found and what was expected.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be opened or read.
    /// (`error` is shown in the message and is not also the error's `source`, so a chained
    /// report prints the OS error once.)
    #[error("{path}: {error}")]
    Io { path: String, error: std::io::Error },
    /// A line does not follow the format (also: corrupt gzip data, counts that disagree with the
    /// header at the end of the file — then `line` is the last line).
    #[error("{path}:{line}: {msg}")]
    Parse { path: String, line: usize, msg: String },
    /// The file as a whole is not a usable graph (empty, unknown format, too large).
    #[error("{path}: {msg}")]
    Invalid { path: String, msg: String },
    /// The progress callback asked to stop.
    #[error("loading cancelled")]
    Cancelled,
}

/// Loads a graph file (see [`load_with_progress`]).
pub fn load(path: &Path, opts: &LoadOptions) -> Result<Graph, LoadError> {
    load_with_progress(path, opts, &mut |_| true)
}

/// Loads a graph file in the format of `opts.format` or, when `None`, of its extension.
///
/// `progress` receives the fraction (0 ..= 1) of the file bytes read so far — compressed bytes
/// for gzip files, the coordinate sibling included — about every 64 KiB and once with 1.0 at the
/// end; returning `false` stops the load with [`LoadError::Cancelled`].
///
/// The graph's [`name`](Graph::name) is the file name without directories. Coordinates are read
/// from a sibling file when one exists (`x.gr[.gz]` → `x.co[.gz]`, `x.graph[.gz]` →
/// `x.xyz[.gz]`); a broken coordinate file is an error naming that file.
///
/// Errors: [`LoadError::Io`] when a file cannot be read; [`LoadError::Parse`] for malformed lines,
/// ids out of range, NaN / infinite / too large weights, corrupt gzip data, and
/// counts that disagree with the header; [`LoadError::Invalid`] for an unknown format, an empty
/// file or graph; [`LoadError::Cancelled`].
pub fn load_with_progress(
    path: &Path,
    opts: &LoadOptions,
    progress: &mut dyn FnMut(f32) -> bool,
) -> Result<Graph, LoadError> {
    let shown = path.display().to_string();
    let format = match opts.format.or_else(|| Format::from_path(path)) {
        Some(f) => f,
        None => {
            return Err(invalid(
                &shown,
                "cannot tell the format from the file name: expected .gr, .graph, .mtx, .el, .txt or .wel \
                 (optionally .gz), or name the format",
            ));
        }
    };
    let sibling = match format {
        Format::Dimacs => find_sibling(path, "co"),
        Format::Metis => find_sibling(path, "xyz"),
        _ => None,
    };
    let mut total = file_len(path)?;
    if let Some(s) = &sibling {
        total += file_len(s)?;
    }
    let mut progress = Progress::new(progress, total);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| shown.clone());
    let graph = match format {
        Format::Dimacs => dimacs::read(path, sibling.as_deref(), &name, opts, &mut progress)?,
        Format::Metis => metis::read(path, sibling.as_deref(), &name, opts, &mut progress)?,
        Format::MatrixMarket => mtx::read(path, &name, opts, &mut progress)?,
        Format::EdgeList => edgelist::read(path, &name, false, opts, &mut progress)?,
        Format::WeightedEdgeList => edgelist::read(path, &name, true, opts, &mut progress)?,
    };
    progress.finish()?;
    Ok(graph)
}
