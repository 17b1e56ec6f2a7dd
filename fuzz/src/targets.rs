//! The fuzz targets: one per reader and parser, each calling the public function the app and
//! the CLI call, on bytes in memory. A target returns normally for a clean error or a value and
//! panics only when an invariant of the value breaks; libFuzzer reports panics, hangs
//! (`-timeout`) and memory beyond `-rss_limit_mb`. Shared with `tests/fuzz_corpus.rs`, which
//! replays `fuzz/corpus/<target>/` through the same functions.

use sssp_lab::algo::AlgoChoice;
use sssp_lab::formats::{Format, LoadOptions, load_bytes, load_coordinates, set_memory_budget};
use sssp_lab::graph::Graph;
use sssp_lab::lab::experiment::Experiment;
use sssp_lab::manysource::rows::RowReader;
use sssp_lab::trace::file::TraceFile;
use std::path::Path;

/// Memory a header may announce under the fuzzer ([`set_memory_budget`]): a graph estimated
/// above this is refused before allocating. With `-rss_limit_mb=2048` it bounds every input.
pub const MEMORY_BUDGET: u64 = 32 << 20;

/// A named target.
pub type Target = (&'static str, fn(&[u8]));

/// Every target, by the name `SSSP_FUZZ_TARGET` and `fuzz/corpus/<name>/` use.
pub const TARGETS: &[Target] = &[
    ("dimacs", dimacs),
    ("dimacs_co", dimacs_co),
    ("metis", metis),
    ("metis_xyz", metis_xyz),
    ("mtx", mtx),
    ("el", el),
    ("wel", wel),
    ("dimacs_arcs", dimacs_arcs),
    ("el_count", el_count),
    ("gzip", gzip),
    ("trace", trace),
    ("experiment", experiment),
    ("rows", rows),
    ("algo", algo),
];

/// Sets the allocation bound; call once before the first input.
pub fn init() {
    set_memory_budget(Some(MEMORY_BUDGET));
}

/// The target called `name`.
pub fn by_name(name: &str) -> Option<fn(&[u8])> {
    TARGETS.iter().find(|t| t.0 == name).map(|t| t.1)
}

/// What every graph a reader returns must satisfy.
fn check_graph(g: &Graph) {
    assert!(g.n() > 0, "a graph without vertices was returned");
    let s = g.successors();
    assert_eq!(s.offsets.len(), g.n() + 1);
    assert!(s.targets.iter().all(|&t| (t as usize) < g.n()), "an arc leaves the graph");
    let _ = g.stats();
    let _ = g.labels().describe(g.n());
}

fn graph(data: &[u8], name: &str, format: Option<Format>) {
    let opts = LoadOptions { format, ..Default::default() };
    if let Ok(g) = load_bytes(data, name, &opts) {
        check_graph(&g);
    }
}

fn dimacs(data: &[u8]) {
    graph(data, "fuzz.gr", None);
}

fn metis(data: &[u8]) {
    graph(data, "fuzz.graph", None);
}

fn mtx(data: &[u8]) {
    graph(data, "fuzz.mtx", None);
}

fn el(data: &[u8]) {
    graph(data, "fuzz.el", None);
}

fn wel(data: &[u8]) {
    graph(data, "fuzz.wel", None);
}

fn dimacs_arcs(data: &[u8]) {
    graph(data, "fuzz.txt", Some(Format::DimacsArcs));
}

fn el_count(data: &[u8]) {
    graph(data, "fuzz.txt", Some(Format::CountedEdgeList));
}

/// First byte: the format; the rest is read as a `.gz` file (gzip forced, as by the suffix).
fn gzip(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else { return };
    let format = Format::EVERY[pick as usize % Format::EVERY.len()];
    graph(rest, "fuzz.gz", Some(format));
}

/// First byte: n − 1 (1 ..= 256 vertices); the rest is the coordinate file.
fn coords(data: &[u8], name: &str, format: Format) {
    let Some((&n, rest)) = data.split_first() else { return };
    let n = n as usize + 1;
    if let Ok(c) = load_coordinates(rest, name, format, n) {
        assert_eq!(c.len(), n, "coordinates for another vertex count");
    }
}

fn dimacs_co(data: &[u8]) {
    coords(data, "fuzz.co", Format::Dimacs);
}

fn metis_xyz(data: &[u8]) {
    coords(data, "fuzz.xyz", Format::Metis);
}

/// A trace that loads is replayed to its end and back when its graph is small.
fn trace(data: &[u8]) {
    let Ok(t) = TraceFile::from_bytes(data) else { return };
    if t.graph.n <= 1 << 16 {
        let mut r = t.to_trace();
        r.seek(r.len());
        r.seek(0);
    }
}

fn experiment(data: &[u8]) {
    if let Ok(e) = Experiment::from_json(data) {
        let _ = e.block.configs();
    }
}

/// Every row is read; a row must hold n distances.
fn rows(data: &[u8]) {
    let Ok(r) = RowReader::from_reader(data, Path::new("fuzz.rows"), false) else { return };
    let n = r.n();
    for row in r {
        match row {
            Ok((_, d)) => assert_eq!(d.len(), n, "a row of another length"),
            Err(_) => break,
        }
    }
}

/// A spec that parses prints back to a spec that parses to the same choice.
fn algo(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(c) = text.parse::<AlgoChoice>() {
        let again = c.to_string().parse::<AlgoChoice>();
        assert_eq!(again.as_ref(), Ok(&c), "`{text}` printed as `{c}`, which does not parse back to it");
    }
}
