//! Traces on disk: a run saved by the app (*Save trace…*) or by `sssp-lab solve … --trace FILE`
//! and opened again in the app, on any machine, steppable forwards and back as if live.
//!
//! Format: one JSON object, gzip-compressed when the file name ends in `.gz`:
//!
//! | key | what |
//! |---|---|
//! | `format` | always `"sssp-lab trace"` (anything else is refused as "not a trace") |
//! | `version` | [`VERSION`]; a newer version is refused with a message naming both |
//! | `written_by` | `sssp-lab <crate version>` |
//! | `graph` | [`GraphRef`]: name, the path it was loaded from, n, m and a checksum of its arcs |
//! | `algorithm`, `device`, `device_id`, `block` | what ran where (`AlgoChoice` and `DeviceId` strings, block sizes) |
//! | `source`, `source_id` | the source as a vertex index and as the file numbers it |
//! | `finished` | whether the solver had no iterations left |
//! | `records` | every [`IterationRecord`] (the plots) |
//! | `deltas` | per iteration, the vertices whose δ dropped `[v, old, new]` and those settled; absent above [`MAX_DELTA_VERTICES`] vertices (then the file replays the plots, not the graph view) |
//!
//! The graph itself is not in the file: the app uses the loaded graph when its checksum matches,
//! else loads `graph.path` (relative paths are tried against the current folder), and refuses
//! a graph whose checksum differs.

use super::Trace;
use crate::algo::{BlockSizes, IterationRecord, Step, StepDelta};
use crate::graph::{Graph, VertexId};
use anyhow::{Context, Result, anyhow, bail};
use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use serde::{Deserialize, Serialize};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

/// The `format` value of every trace file.
pub const FORMAT: &str = "sssp-lab trace";
/// The version this build writes; it reads this one and older ones.
pub const VERSION: u32 = 1;
/// Graphs with more vertices are saved without deltas (records only).
pub const MAX_DELTA_VERTICES: usize = 4_000_000;
/// Most JSON a trace may hold (decompressed): far above what a run on a graph of
/// [`MAX_DELTA_VERTICES`] writes, and a bound on what an endless or wrong file makes us buffer.
pub const MAX_TRACE_BYTES: usize = 1 << 30;
/// Most vertices a trace's graph may have: vertex ids are 32 bits.
pub const MAX_TRACE_VERTICES: usize = u32::MAX as usize;

/// Everything `reader` holds (decompressed when `gz`), refused beyond `limit` bytes after
/// reading only `limit + 1`.
fn read_limited(reader: impl Read, gz: bool, limit: usize) -> Result<Vec<u8>> {
    let mut text = Vec::new();
    let take = limit as u64 + 1;
    if gz {
        // Chunk by chunk, so a compression bomb stops at the ratio real traces never reach.
        let compressed = std::rc::Rc::new(std::cell::Cell::new(0u64));
        let counting = CountingReader { inner: reader, count: std::rc::Rc::clone(&compressed) };
        let mut dec = MultiGzDecoder::new(counting).take(take);
        let mut chunk = vec![0u8; 1 << 16];
        loop {
            let k = dec.read(&mut chunk).context("cannot read")?;
            if k == 0 {
                break;
            }
            text.extend_from_slice(&chunk[..k]);
            let out = text.len() as u64;
            if out > 4 << 20 && out > compressed.get().saturating_mul(crate::formats::MAX_GZIP_RATIO) {
                bail!(
                    "the gzip data inflates more than {}× ({} compressed bytes gave {out} so far): a compression bomb?",
                    crate::formats::MAX_GZIP_RATIO,
                    compressed.get()
                );
            }
        }
    } else {
        reader.take(take).read_to_end(&mut text).context("cannot read")?;
    }
    if text.len() > limit {
        bail!(
            "more than {} MiB of JSON: larger than any trace sssp-lab writes (an endless or a wrong file?)",
            limit >> 20
        );
    }
    Ok(text)
}

/// Counts the compressed bytes a gzip decoder reads.
struct CountingReader<R> {
    inner: R,
    count: std::rc::Rc<std::cell::Cell<u64>>,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.count.set(self.count.get() + k as u64);
        Ok(k)
    }
}

/// Refuses a `version` this build does not read, with what it is: missing, not a whole number
/// (a string, a fraction, a negative number, one beyond 64 bits), 0, or newer than [`VERSION`].
fn check_version(v: Option<&serde_json::Value>) -> Result<()> {
    let shown = v.map_or("nothing".to_string(), |v| v.to_string());
    let Some(v) = v else { bail!("no `version`: this build reads trace versions 1 to {VERSION}") };
    if let Some(k) = v.as_u64() {
        return match k {
            0 => bail!("trace format version 0 does not exist (versions start at 1); this build reads 1 to {VERSION}"),
            k if k <= u64::from(VERSION) => Ok(()),
            k if k <= u64::from(u32::MAX) => {
                bail!("trace format version {k}, written by a newer sssp-lab; this build reads versions 1 to {VERSION}")
            }
            k => bail!("trace format version {k} is beyond any sssp-lab's (versions are 32-bit); not a trace it wrote"),
        };
    }
    let what = match v {
        serde_json::Value::String(_) => "a string, not a number",
        serde_json::Value::Number(x) if x.as_i64().is_some() => "negative",
        serde_json::Value::Number(x) if x.as_f64().is_some_and(|f| f.abs() >= 1.8e19) => "beyond 64 bits",
        serde_json::Value::Number(x) if x.as_f64().is_some_and(|f| f.fract() == 0.0) => "written as a fraction",
        serde_json::Value::Number(_) => "not a whole number",
        _ => "not a number",
    };
    bail!("trace format version {shown} is {what}: versions are whole numbers 1 to {VERSION}")
}

/// The graph a trace ran on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphRef {
    pub name: String,
    /// Where it was loaded from, if it was a file, as given to the program that saved the
    /// trace (the app tries it as is, then beside the trace file).
    pub path: Option<String>,
    /// How it was generated, if it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<crate::generate::GeneratorSpec>,
    pub n: usize,
    pub m: usize,
    /// [`graph_checksum`] as 16 hex digits.
    pub checksum: String,
}

/// A saved run (see the module docs).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TraceFile {
    pub format: String,
    pub version: u32,
    pub written_by: String,
    pub graph: GraphRef,
    pub algorithm: String,
    pub device: String,
    pub device_id: String,
    pub block: BlockSizes,
    pub source: VertexId,
    pub source_id: u64,
    pub finished: bool,
    pub records: Vec<IterationRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deltas: Option<Vec<StepDelta>>,
}

/// FNV-1a over n, m and every successor arc (target, weight): equal graphs, equal checksums.
pub fn graph_checksum(g: &Graph) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut mix = |x: u64| {
        for b in x.to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    };
    mix(g.n() as u64);
    mix(g.m() as u64);
    let s = g.successors();
    for v in 0..g.n() as VertexId {
        mix(s.degree(v) as u64);
        for (t, w) in s.arcs(v) {
            mix((u64::from(t) << 32) | u64::from(w as u32));
        }
    }
    h
}

impl TraceFile {
    /// The trace of `trace` (every recorded iteration) on `graph`, loaded from `path` if a file,
    /// else generated by `generator` if given.
    pub fn new(
        trace: &Trace,
        graph: &Graph,
        path: Option<&Path>,
        generator: Option<crate::generate::GeneratorSpec>,
        what: RunInfo,
    ) -> TraceFile {
        let deltas = (graph.n() <= MAX_DELTA_VERTICES).then(|| trace.deltas().to_vec());
        TraceFile {
            format: FORMAT.into(),
            version: VERSION,
            written_by: format!("sssp-lab {}", env!("CARGO_PKG_VERSION")),
            graph: GraphRef {
                name: graph.name.clone(),
                path: path.map(|p| p.display().to_string()),
                generator: if path.is_none() { generator } else { None },
                n: graph.n(),
                m: graph.m(),
                checksum: format!("{:016x}", graph_checksum(graph)),
            },
            algorithm: what.algorithm,
            device: what.device,
            device_id: what.device_id,
            block: what.block,
            source: trace.source,
            source_id: graph.labels().label(trace.source),
            finished: trace.is_finished(),
            records: trace.records().to_vec(),
            deltas,
        }
    }

    /// Writes the trace to `path` (gzip when it ends in `.gz`). Errors: I/O.
    pub fn save(&self, path: &Path) -> Result<()> {
        let f = std::fs::File::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
        let w = BufWriter::new(f);
        let result = if path.extension().is_some_and(|e| e == "gz") {
            let mut gz = GzEncoder::new(w, Compression::default());
            serde_json::to_writer(&mut gz, self).map_err(anyhow::Error::from).and_then(|_| Ok(gz.finish()?.flush()?))
        } else {
            let mut w = w;
            serde_json::to_writer(&mut w, self).map_err(anyhow::Error::from).and_then(|_| Ok(w.flush()?))
        };
        result.with_context(|| format!("{}: write failed", path.display()))
    }

    /// Reads a trace. Errors: I/O, not a trace, a version this build does not read (newer, or
    /// not a version at all: each named as what it is), a malformed or inconsistent file (see
    /// [`TraceFile::from_bytes`]) — each naming the file.
    pub fn load(path: &Path) -> Result<TraceFile> {
        let f = std::fs::File::open(path).with_context(|| format!("{}: cannot open", path.display()))?;
        let gz = path.extension().is_some_and(|e| e == "gz");
        TraceFile::from_reader(BufReader::new(f), gz).map_err(|e| anyhow!("{}: {e:#}", path.display()))
    }

    /// [`TraceFile::load`] on a reader (`gz`: gzip-compressed); errors do not name a file.
    /// Reads at most [`MAX_TRACE_BYTES`] of JSON.
    pub fn from_reader(reader: impl Read, gz: bool) -> Result<TraceFile> {
        TraceFile::from_bytes(&read_limited(reader, gz, MAX_TRACE_BYTES)?)
    }

    /// Parses and checks the JSON of a trace. Errors: not JSON, not a trace, a version this
    /// build does not read, a malformed file, and inconsistencies: records and deltas of
    /// different lengths, a source or a delta vertex beyond n, a graph beyond 32-bit vertex
    /// ids, negative distances from an algorithm that never makes them.
    pub fn from_bytes(bytes: &[u8]) -> Result<TraceFile> {
        let value: serde_json::Value = serde_json::from_slice(bytes).context("not a trace (not JSON)")?;
        if value.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
            bail!("not a sssp-lab trace (no `\"format\": \"{FORMAT}\"`)");
        }
        check_version(value.get("version"))?;
        let t: TraceFile = serde_json::from_value(value).context("malformed trace")?;
        t.check().map_err(|e| anyhow!("{e}"))?;
        Ok(t)
    }

    fn check(&self) -> Result<(), String> {
        if self.graph.n > MAX_TRACE_VERTICES {
            return Err(format!(
                "its graph has n = {} vertices, beyond the {MAX_TRACE_VERTICES} that 32-bit vertex ids number",
                self.graph.n
            ));
        }
        if self.source as usize >= self.graph.n {
            return Err(format!("source {} is not a vertex of a graph with {} vertices", self.source, self.graph.n));
        }
        if let Some(d) = &self.deltas {
            if d.len() != self.records.len() {
                return Err(format!("{} records but {} deltas", self.records.len(), d.len()));
            }
            let n = self.graph.n;
            let beyond = |v: VertexId| v as usize >= n;
            if d.iter().any(|d| d.settled.iter().any(|&v| beyond(v)) || d.lowered.iter().any(|l| beyond(l.0))) {
                return Err(format!("a delta names a vertex beyond n = {n}"));
            }
            let negative_ok =
                self.algorithm.parse::<crate::algo::AlgoChoice>().is_ok_and(|a| a.algorithm.spec().negative_weights);
            if !negative_ok
                && let Some((i, l)) = d
                    .iter()
                    .enumerate()
                    .find_map(|(i, d)| d.lowered.iter().find(|l| l.1 < 0 || l.2 < 0).map(|l| (i, l)))
            {
                return Err(format!(
                    "iteration {} lowers vertex {} from {} to {}: a negative distance, which `{}` never computes \
                     (only algorithms for negative weights do)",
                    i + 1,
                    l.0,
                    l.1,
                    l.2,
                    self.algorithm
                ));
            }
        }
        Ok(())
    }

    /// Whether `graph` is the one this trace ran on (see [`TraceFile::check_graph`]).
    pub fn matches(&self, graph: &Graph) -> bool {
        self.check_graph(graph).is_ok()
    }

    /// Checks that `graph` is the one this trace ran on: n, m and checksum, and that the
    /// source's number in the graph's file is the trace's `source_id`. Errors: what differs.
    pub fn check_graph(&self, graph: &Graph) -> Result<(), String> {
        if graph.n() != self.graph.n || graph.m() != self.graph.m {
            return Err(format!(
                "the graph has n = {}, m = {}; the trace ran on n = {}, m = {}",
                graph.n(),
                graph.m(),
                self.graph.n,
                self.graph.m
            ));
        }
        let sum = format!("{:016x}", graph_checksum(graph));
        if sum != self.graph.checksum {
            return Err(format!("the graph's checksum is {sum}; the trace ran on {}", self.graph.checksum));
        }
        let label = graph.labels().label(self.source);
        if label != self.source_id {
            return Err(format!(
                "the trace's source is vertex {} with `source_id` {}, but the graph numbers that vertex {label}",
                self.source, self.source_id
            ));
        }
        Ok(())
    }

    /// The trace, steppable, with the cursor at iteration 0. Without deltas the view stays at
    /// iteration 0's state while the plots follow the cursor.
    pub fn to_trace(&self) -> Trace {
        let mut t = Trace::new(self.graph.n, self.source);
        let deltas = self.deltas.clone().unwrap_or_default();
        let mut deltas = deltas.into_iter();
        for r in &self.records {
            t.push(Step { record: r.clone(), delta: Some(deltas.next().unwrap_or_default()) });
        }
        if self.finished {
            t.set_finished();
        }
        t.seek(0);
        t
    }
}

/// Whether `path` names a trace file by its name (`*.trace.json`, `*.trace.json.gz`): the app
/// opens such files as traces, everything else as graphs.
pub fn is_trace_path(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
    name.ends_with(".trace.json") || name.ends_with(".trace.json.gz")
}

/// Where the graph of a trace saved at `trace_path` may be: its recorded path as is, then the
/// same path and the bare file name beside the trace file (traces travel with their graphs).
pub fn graph_candidates(recorded: &str, trace_path: &Path) -> Vec<std::path::PathBuf> {
    let p = Path::new(recorded);
    let dir = trace_path.parent().unwrap_or(Path::new("."));
    let mut out = vec![p.to_path_buf(), dir.join(p)];
    if let Some(name) = p.file_name() {
        out.push(dir.join(name));
    }
    out
}

/// What ran: the parts of a trace file the [`Trace`] does not hold.
#[derive(Clone, Debug, Default)]
pub struct RunInfo {
    /// `AlgoChoice` string, e.g. `martin-succ:relax=non-atomic`.
    pub algorithm: String,
    /// The device as the stepper describes it.
    pub device: String,
    /// The `DeviceId` string (`cpu`, `cuda:0`, …).
    pub device_id: String,
    pub block: BlockSizes,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::{CRAUSER_SUCC, SolveOptions, cpu_stepper};
    use std::sync::Arc;

    fn traced() -> (Arc<Graph>, Trace) {
        let g = Arc::new(crate::generate::grid(12, 9, 7, 3).unwrap_or_else(|e| panic!("{e}")));
        let opts = SolveOptions { record_deltas: true, ..Default::default() };
        let mut st = cpu_stepper(Arc::clone(&g), CRAUSER_SUCC, 5, &opts).unwrap_or_else(|e| panic!("{e}"));
        let mut t = Trace::new(g.n(), 5);
        while let Some(s) = st.step().unwrap_or_else(|e| panic!("{e}")) {
            t.push(s);
        }
        t.set_finished();
        (g, t)
    }

    #[test]
    fn a_trace_round_trips_and_replays_to_the_same_states() -> Result<()> {
        let (g, t) = traced();
        let dir = std::env::temp_dir().join(format!("sssp-trace-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        for name in ["t.trace.json", "t.trace.json.gz"] {
            let p = dir.join(name);
            assert!(is_trace_path(&p));
            let info = RunInfo { algorithm: "crauser-succ".into(), device_id: "cpu".into(), ..Default::default() };
            TraceFile::new(&t, &g, None, Some(crate::generate::GeneratorSpec::Teaching), info).save(&p)?;
            let back = TraceFile::load(&p)?;
            assert!(back.matches(&g));
            assert_eq!(back.graph.generator, Some(crate::generate::GeneratorSpec::Teaching));
            let mut r = back.to_trace();
            assert_eq!((r.pos(), r.len(), r.is_finished()), (0, t.len(), true));
            assert_eq!(r.records(), t.records());
            r.seek(r.len());
            assert_eq!(r.distances(), t.distances(), "replayed to the end: the same δ");
            r.seek(3);
            let mut live = t.clone();
            live.seek(3);
            assert!((0..g.n() as VertexId).all(|v| r.status(v) == live.status(v)));
        }
        let other = crate::generate::grid(12, 9, 7, 4).unwrap_or_else(|e| panic!("{e}"));
        assert!(!TraceFile::load(&dir.join("t.trace.json"))?.matches(&other), "another graph does not match");
        std::fs::remove_dir_all(&dir)?;
        Ok(())
    }

    #[test]
    fn newer_versions_other_files_and_inconsistent_traces_are_refused() -> Result<()> {
        let (g, t) = traced();
        let dir = std::env::temp_dir().join(format!("sssp-trace-bad-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let p = dir.join("t.trace.json");
        TraceFile::new(&t, &g, None, None, RunInfo::default()).save(&p)?;
        let text = std::fs::read_to_string(&p)?;
        let err = |text: &str| -> String {
            let _ = std::fs::write(&p, text);
            TraceFile::load(&p).err().map(|e| format!("{e:#}")).unwrap_or_default()
        };
        assert!(err(&text.replacen("\"version\":1", "\"version\":9", 1)).contains("version 9, written by a newer"));
        assert!(err(&text.replacen("sssp-lab trace", "something else", 1)).contains("not a sssp-lab trace"));
        assert!(err("c DIMACS\np sp 3 2\n").contains("not a trace"));
        assert!(err(&text[..text.len() / 2]).contains("not a trace (not JSON)"));
        let v: serde_json::Value = serde_json::from_str(&text)?;
        let mut cut = v.clone();
        if let Some(d) = cut.get_mut("deltas").and_then(|d| d.as_array_mut()) {
            d.pop();
        }
        assert!(err(&cut.to_string()).contains("records but"));
        std::fs::remove_dir_all(&dir)?;
        Ok(())
    }

    fn with(text: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
        let mut v: serde_json::Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}"));
        edit(&mut v);
        let bytes = v.to_string();
        TraceFile::from_bytes(bytes.as_bytes()).err().map(|e| format!("{e:#}")).unwrap_or_default()
    }

    fn trace_text() -> (Arc<Graph>, Trace, String) {
        let (g, t) = traced();
        let file =
            TraceFile::new(&t, &g, None, None, RunInfo { algorithm: "crauser-succ".into(), ..Default::default() });
        let text = serde_json::to_string(&file).unwrap_or_else(|e| panic!("{e}"));
        (g, t, text)
    }

    #[test]
    fn versions_that_are_not_versions_get_their_own_reason() {
        let (_, _, text) = trace_text();
        let version = |v: serde_json::Value| with(&text, |t| t["version"] = v);
        let e = version(0.into());
        assert!(e.contains("version 0 does not exist") && !e.contains("newer"), "{e}");
        let e = version("1".into());
        assert!(e.contains("\"1\" is a string") && !e.contains("newer"), "{e}");
        let e = version((-1).into());
        assert!(e.contains("-1 is negative") && !e.contains("newer"), "{e}");
        let e = version(1.5.into());
        assert!(e.contains("not a whole number"), "{e}");
        let huge = text.replacen("\"version\":1", "\"version\":18446744073709551621", 1);
        let e = TraceFile::from_bytes(huge.as_bytes()).err().map(|e| format!("{e:#}")).unwrap_or_default();
        assert!(e.contains("beyond 64 bits") && !e.contains("newer"), "{e}");
        let e = version(4_294_967_296u64.into());
        assert!(e.contains("beyond any sssp-lab") && !e.contains("newer"), "{e}");
        assert!(version(2.into()).contains("version 2, written by a newer sssp-lab"));
        assert!(with(&text, |t| t.as_object_mut().map_or((), |o| drop(o.remove("version")))).contains("no `version`"));
    }

    #[test]
    fn a_graph_beyond_32_bits_is_not_cut_to_32_bits() {
        let (_, _, text) = trace_text();
        let e = with(&text, |t| t["graph"]["n"] = (1u64 << 40).into());
        assert!(e.contains("n = 1099511627776") && e.contains("32-bit"), "{e}");
        assert!(!e.contains("n = 0"), "{e}");
    }

    #[test]
    fn negative_distances_and_a_source_id_that_disagrees_are_refused() {
        let (g, _, text) = trace_text();
        let e = with(&text, |t| {
            if let Some(l) = t["deltas"][1]["lowered"][0].as_array_mut() {
                l[2] = (-3).into();
            }
        });
        assert!(e.contains("iteration 2 lowers vertex") && e.contains("negative distance"), "{e}");
        // Bellman-Ford computes negative distances on graphs with negative weights: allowed.
        let bf = with(&text, |t| {
            t["algorithm"] = "bellman-ford".into();
            if let Some(l) = t["deltas"][1]["lowered"][0].as_array_mut() {
                l[2] = (-3).into();
            }
        });
        assert_eq!(bf, "", "bellman-ford may lower below 0");

        let good = TraceFile::from_bytes(text.as_bytes()).unwrap_or_else(|e| panic!("{e:#}"));
        assert_eq!(good.check_graph(&g), Ok(()));
        let mut wrong = good.clone();
        wrong.source_id += 1;
        let e = wrong.check_graph(&g).unwrap_err();
        assert!(e.contains("source_id") && e.contains("numbers that vertex"), "{e}");
        assert!(!wrong.matches(&g), "a trace whose source_id disagrees is not installed");
    }

    #[test]
    fn an_endless_trace_is_refused_without_buffering_it_all() {
        // Only the limit plus one byte is read from an endless input; the refusal says why.
        let e = read_limited(std::io::repeat(b' '), false, 2 << 20).err().map(|e| format!("{e:#}")).unwrap_or_default();
        assert!(e.contains("more than 2 MiB of JSON"), "{e}");
        assert_eq!(read_limited(&b"{}"[..], false, 2 << 20).ok(), Some(b"{}".to_vec()));
        let mut gz = GzEncoder::new(Vec::new(), Compression::best());
        let spaces = vec![b' '; 1 << 20];
        for _ in 0..40 {
            let _ = gz.write_all(&spaces);
        }
        let bomb = gz.finish().unwrap_or_default();
        let e = read_limited(&bomb[..], true, MAX_TRACE_BYTES).err().map(|e| format!("{e:#}")).unwrap_or_default();
        assert!(e.contains("inflates more than 32×"), "{e}");
    }
}
