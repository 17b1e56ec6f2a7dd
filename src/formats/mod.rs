//! Graph file readers and the DIMACS writer (docs/references.md `[terms-graphs]`; each source below
//! has an entry there: `[dimacs9]`, `[metis]`, `[dimacs10]`, `[matrixmarket]`, `[snap]`, `[gapbs]`).
//!
//! One module per format, each a streaming parser that reads a line at a time into a reused
//! buffer and names `file:line` in every error (GAP's binary `.sg`/`.wsg`: `file: byte K`):
//!
//! | format | extensions | source |
//! |---|---|---|
//! | [`Format::Dimacs`] | `.gr` (+ sibling `.co` coordinates) | 9th DIMACS Implementation Challenge: Shortest Paths |
//! | [`Format::Metis`] | `.graph` (+ sibling `.xyz` coordinates) | METIS manual §4.1.1, DIMACS10 / Walshaw archive |
//! | [`Format::MatrixMarket`] | `.mtx` | NIST MatrixMarket exchange format, SuiteSparse collection |
//! | [`Format::EdgeList`] | `.el`, `.txt` | SNAP edge lists, GAP Benchmark Suite `.el` |
//! | [`Format::WeightedEdgeList`] | `.wel` | GAP Benchmark Suite `.wel` |
//! | [`Format::GapSerialized`] | `.sg` | GAP Benchmark Suite serialized graph (binary) |
//! | [`Format::GapSerializedWeighted`] | `.wsg` | GAP Benchmark Suite serialized weighted graph (binary) |
//!
//! Every file may be gzip-compressed (`.gz` suffix, or detected by its magic bytes). Unweighted
//! inputs get weights by the [`WeightRule`] of [`LoadOptions`].
//!
//! Hostile input is refused up front: no line is buffered beyond [`MAX_LINE_BYTES`], no gzip
//! stream inflates beyond [`MAX_GZIP_RATIO`] (past its first 4 MiB), and a
//! header announcing a graph beyond [`memory_budget`] is refused with the estimate before
//! anything is allocated. What a reader accepts but the user should know (a rectangular matrix,
//! ignored columns, ids beyond 32 bits) lands in [`Graph::warnings`]. [`load_bytes`] reads from
//! memory; the fuzz targets (`fuzz/`) and `tests/fuzz_corpus.rs` call it.

/// The bundled default graph: DIMACS USA-road-d.NY (the `.co.gz` beside it gives coordinates),
/// carried inside the binary and written to a cache folder on first use ([`crate::assets`]), so
/// it is found from any working directory and without the build tree.
pub fn bundled_graph_path() -> std::path::PathBuf {
    crate::assets::bundled_graph()
}

mod dimacs;
mod edgelist;
mod gapbs;
mod input;
mod metis;
mod mtx;
mod write;

pub use write::write_dimacs;

use crate::graph::{Graph, WeightRule};
pub use input::{MAX_GZIP_RATIO, MAX_LINE_BYTES, graph_bytes_estimate, memory_budget, set_memory_budget};

use input::{Input, Parsed, Progress, find_sibling, invalid};
use std::fmt;
use std::io::Read;
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
    /// DIMACS arcs without the `p sp N M` line: `a U V W` lines (`c` comments), ids 0-based and
    /// n = largest id + 1 (sparse ids renumbered, as for edge lists), as some OpenStreetMap
    /// exports write. Only by name (`--format dimacs-arcs`): no extension means it.
    #[serde(rename = "dimacs-arcs")]
    DimacsArcs,
    /// An edge list whose first line holds only the vertex count N, then `U V` lines with ids in
    /// `0..N`. Only by name (`--format el-count`).
    #[serde(rename = "el-count")]
    CountedEdgeList,
    /// GAP's serialized unweighted graph (`converter -b`, binary CSR): every arc weighs 1.
    #[serde(rename = "sg")]
    GapSerialized,
    /// GAP's serialized weighted graph (`converter -w -b`, binary CSR with i32 weights), the
    /// file GAP's `sssp` reads.
    #[serde(rename = "wsg")]
    GapSerializedWeighted,
}

impl Format {
    /// Every format a file extension names, in the order of [`Format::id`]'s documentation
    /// (file dialogs filter by these).
    pub const ALL: [Format; 7] = [
        Format::Dimacs,
        Format::Metis,
        Format::MatrixMarket,
        Format::EdgeList,
        Format::WeightedEdgeList,
        Format::GapSerialized,
        Format::GapSerializedWeighted,
    ];

    /// Every format, those only read by name (`--format`) last.
    pub const EVERY: [Format; 9] = [
        Format::Dimacs,
        Format::Metis,
        Format::MatrixMarket,
        Format::EdgeList,
        Format::WeightedEdgeList,
        Format::GapSerialized,
        Format::GapSerializedWeighted,
        Format::DimacsArcs,
        Format::CountedEdgeList,
    ];

    /// The format of a file by its extension, ignoring a trailing `.gz` (case-insensitive):
    /// `.gr` → Dimacs, `.graph` → Metis, `.mtx` → MatrixMarket, `.el`/`.txt` → EdgeList,
    /// `.wel` → WeightedEdgeList, `.sg` / `.wsg` → GAP's serialized graphs. `None` for anything
    /// else.
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
            "sg" => Some(Format::GapSerialized),
            "wsg" => Some(Format::GapSerializedWeighted),
            _ => None,
        }
    }

    /// Short name used on the command line and in saved settings: `dimacs`, `metis`, `mtx`,
    /// `el`, `wel`, `sg`, `wsg`, `dimacs-arcs`, `el-count`.
    pub fn id(self) -> &'static str {
        match self {
            Format::Dimacs => "dimacs",
            Format::Metis => "metis",
            Format::MatrixMarket => "mtx",
            Format::EdgeList => "el",
            Format::WeightedEdgeList => "wel",
            Format::GapSerialized => "sg",
            Format::GapSerializedWeighted => "wsg",
            Format::DimacsArcs => "dimacs-arcs",
            Format::CountedEdgeList => "el-count",
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
            Format::GapSerialized => "GAP serialized graph (.sg)",
            Format::GapSerializedWeighted => "GAP serialized weighted graph (.wsg)",
            Format::DimacsArcs => "headerless DIMACS arcs, 0-based",
            Format::CountedEdgeList => "edge list after a vertex count",
        }
    }

    /// File extensions (without dot and without `.gz`) recognised by [`Format::from_path`]
    /// (none for the formats read only by name).
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::Dimacs => &["gr"],
            Format::Metis => &["graph"],
            Format::MatrixMarket => &["mtx"],
            Format::EdgeList => &["el", "txt"],
            Format::WeightedEdgeList => &["wel"],
            Format::GapSerialized => &["sg"],
            Format::GapSerializedWeighted => &["wsg"],
            Format::DimacsArcs | Format::CountedEdgeList => &[],
        }
    }
}

impl FromStr for Format {
    type Err = String;

    /// Parses an [`id`](Format::id) or an alias (`gr`, `graph`, `matrixmarket`, `snap`, `txt`,
    /// `arcs`, `snap-count`), case-insensitive. The error lists the accepted names.
    fn from_str(s: &str) -> Result<Format, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "dimacs" | "gr" => Ok(Format::Dimacs),
            "metis" | "graph" => Ok(Format::Metis),
            "mtx" | "matrixmarket" => Ok(Format::MatrixMarket),
            "el" | "snap" | "txt" => Ok(Format::EdgeList),
            "wel" => Ok(Format::WeightedEdgeList),
            "sg" => Ok(Format::GapSerialized),
            "wsg" => Ok(Format::GapSerializedWeighted),
            "dimacs-arcs" | "arcs" => Ok(Format::DimacsArcs),
            "el-count" | "snap-count" => Ok(Format::CountedEdgeList),
            _ => Err(format!(
                "unknown graph format `{s}`: expected one of dimacs (gr), metis (graph), mtx (matrixmarket), \
                 el (snap, txt), wel, sg, wsg, dimacs-arcs (arcs), el-count (snap-count)"
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
                "cannot tell the format from the file name: expected .gr, .graph, .mtx, .el, .txt, .wel, .sg or \
                 .wsg (optionally .gz), or name the format",
            ));
        }
    };
    let sibling = match format {
        Format::Dimacs => find_sibling(path, "co"),
        Format::Metis => find_sibling(path, "xyz"),
        _ => None,
    };
    let mut total = input::file_len(path)?;
    if let Some(s) = &sibling {
        total += input::file_len(s)?;
    }
    let mut progress = Progress::new(progress, total);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| shown.clone());
    let parsed = parse(Input::file(path)?, format, opts, &mut progress)?;
    let coords = match (&sibling, format) {
        (Some(s), Format::Dimacs) => Some(dimacs::read_coords(Input::file(s)?, parsed.builder.n(), &mut progress)?),
        (Some(s), Format::Metis) => Some(metis::read_xyz(Input::file(s)?, parsed.builder.n(), &mut progress)?),
        _ => None,
    };
    let graph = build(parsed, &name, coords)?;
    progress.finish()?;
    Ok(graph)
}

/// Runs the reader of `format` on `input`.
fn parse(
    input: Input<'_>,
    format: Format,
    opts: &LoadOptions,
    progress: &mut Progress<'_>,
) -> Result<Parsed, LoadError> {
    match format {
        Format::Dimacs => dimacs::read(input, opts, progress),
        Format::Metis => metis::read(input, opts, progress),
        Format::MatrixMarket => mtx::read(input, opts, progress),
        Format::EdgeList => edgelist::read(input, edgelist::Dialect::Plain, opts, progress),
        Format::WeightedEdgeList => edgelist::read(input, edgelist::Dialect::Weighted, opts, progress),
        Format::DimacsArcs => edgelist::read(input, edgelist::Dialect::DimacsArcs, opts, progress),
        Format::CountedEdgeList => edgelist::read(input, edgelist::Dialect::Counted, opts, progress),
        Format::GapSerialized => gapbs::read(input, false, opts, progress),
        Format::GapSerializedWeighted => gapbs::read(input, true, opts, progress),
    }
}

/// The graph of a reader's output, with its warnings.
fn build(parsed: Parsed, name: &str, coords: Option<Vec<[f32; 2]>>) -> Result<Graph, LoadError> {
    let Parsed { builder, labels, shown, warnings } = parsed;
    let mut graph = builder.build(name, coords, labels).map_err(|msg| invalid(&shown, msg))?;
    graph.warnings = warnings;
    Ok(graph)
}

/// Reads a graph from bytes in memory, as [`load`] reads a file: `name` stands for the file name
/// (in errors, as the graph's name, for the format when `opts.format` is `None`, and a `.gz`
/// suffix forces gzip; gzip is also recognised by its magic bytes). No coordinate sibling is read
/// ([`load_coordinates`] reads one).
///
/// Errors: as [`load_with_progress`] (the [`LoadError::Io`] of a reader that fails).
pub fn load_bytes(bytes: &[u8], name: &str, opts: &LoadOptions) -> Result<Graph, LoadError> {
    load_reader(bytes, bytes.len() as u64, name, opts)
}

/// [`load_bytes`] for any reader of `len` bytes (0 when unknown; only progress and the arcs
/// reserved up front use it).
pub fn load_reader(reader: impl Read, len: u64, name: &str, opts: &LoadOptions) -> Result<Graph, LoadError> {
    let format = match opts.format.or_else(|| Format::from_path(Path::new(name))) {
        Some(f) => f,
        None => return Err(invalid(name, "cannot tell the format from the name: name the format")),
    };
    let mut callback = |_| true;
    let mut progress = Progress::new(&mut callback, len);
    let parsed = parse(Input::reader(reader, name, len), format, opts, &mut progress)?;
    build(parsed, name, None)
}

/// Reads the coordinates of a graph of `n` vertices from bytes in memory: a DIMACS `.co`
/// (`format` [`Format::Dimacs`]) or a METIS `.xyz` ([`Format::Metis`]); `name` as for
/// [`load_bytes`]. Errors: as the sibling files of [`load`]; any other format is
/// [`LoadError::Invalid`].
pub fn load_coordinates(bytes: &[u8], name: &str, format: Format, n: usize) -> Result<Vec<[f32; 2]>, LoadError> {
    let mut callback = |_| true;
    let mut progress = Progress::new(&mut callback, bytes.len() as u64);
    let input = Input::reader(bytes, name, bytes.len() as u64);
    match format {
        Format::Dimacs => dimacs::read_coords(input, n, &mut progress),
        Format::Metis => metis::read_xyz(input, n, &mut progress),
        other => Err(invalid(name, format!("{other} files have no coordinate sibling"))),
    }
}
