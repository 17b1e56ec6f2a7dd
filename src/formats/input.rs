//! Plumbing shared by the readers: opening a file (gzip or not) through a byte counter for
//! progress, a line reader that reuses one buffer, tokenising, and number parsing whose errors
//! say what was found.

use super::LoadError;
use crate::graph::{FileWeight, GraphBuilder, VertexLabels, Weight};
use flate2::bufread::MultiGzDecoder;
use std::cell::Cell;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Progress is reported after every this many (compressed) bytes.
const PROGRESS_STEP: u64 = 64 << 10;
/// Buffer size of the file and decompressor readers.
const BUF_BYTES: usize = 64 << 10;

/// Most vertices a header may announce. Above this the arrays of one graph (12 bytes a vertex
/// before any arc) would not fit the memory of the machines sssp-lab runs on, so a corrupt
/// header is refused before it allocates.
pub(crate) const MAX_VERTICES: u64 = 1 << 30;

/// Most arcs reserved up front from a header's count: the vector still grows past it, but a
/// corrupt header cannot make the reader allocate gigabytes for a small file.
fn reserve_cap(file_bytes: u64) -> usize {
    // A gzip file rarely inflates more than ~20×, an arc needs ≥ 2 bytes of text.
    usize::try_from(file_bytes.saturating_mul(10)).unwrap_or(usize::MAX).max(1 << 16)
}

/// How many arcs to reserve when a header announces `announced`.
pub(crate) fn reserve_hint(announced: u64, file_bytes: u64) -> usize {
    usize::try_from(announced).unwrap_or(usize::MAX).min(reserve_cap(file_bytes))
}

/// Reports the fraction of all input bytes read and forwards cancellation.
pub(crate) struct Progress<'a> {
    callback: &'a mut dyn FnMut(f32) -> bool,
    /// Bytes of every file this load reads (the graph file and its coordinate sibling).
    total: u64,
    /// Bytes of the files already finished.
    done: u64,
    /// Position (in `done + position in file` terms) of the next report.
    next_report: u64,
}

impl<'a> Progress<'a> {
    pub(crate) fn new(callback: &'a mut dyn FnMut(f32) -> bool, total: u64) -> Progress<'a> {
        Progress { callback, total, done: 0, next_report: PROGRESS_STEP }
    }

    fn report(&mut self, absolute: u64) -> Result<(), LoadError> {
        let fraction = if self.total == 0 { 1.0 } else { (absolute as f64 / self.total as f64).min(1.0) as f32 };
        if (self.callback)(fraction) { Ok(()) } else { Err(LoadError::Cancelled) }
    }

    /// Called after each line with the bytes read so far from the current file.
    #[inline]
    fn tick(&mut self, in_file: u64) -> Result<(), LoadError> {
        let absolute = self.done + in_file;
        if absolute >= self.next_report {
            self.next_report = absolute + PROGRESS_STEP;
            self.report(absolute)?;
        }
        Ok(())
    }

    /// The current file is done after `bytes` bytes.
    fn file_done(&mut self, bytes: u64) {
        self.done += bytes;
    }

    /// Everything is read: reports 1.0 (a `false` answer still cancels).
    pub(crate) fn finish(&mut self) -> Result<(), LoadError> {
        self.report(self.total.max(self.done))
    }
}

/// Counts the bytes read from the file and remembers whether the file itself failed (as opposed
/// to the gzip decoder above it).
struct Counting<R> {
    inner: R,
    count: Rc<Cell<u64>>,
    failed: Rc<Cell<bool>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.inner.read(buf) {
            Ok(k) => {
                self.count.set(self.count.get() + k as u64);
                Ok(k)
            }
            Err(e) => {
                if e.kind() != io::ErrorKind::Interrupted {
                    self.failed.set(true);
                }
                Err(e)
            }
        }
    }
}

/// Builds the [`LoadError::Io`] of `path`.
pub(crate) fn io_error(path: &Path) -> impl FnOnce(io::Error) -> LoadError + '_ {
    move |error| LoadError::Io { path: path.display().to_string(), error }
}

/// Size of a file in bytes.
pub(crate) fn file_len(path: &Path) -> Result<u64, LoadError> {
    std::fs::metadata(path).map(|m| m.len()).map_err(io_error(path))
}

/// Whether the path's file name ends in `.gz` (any case).
pub(crate) fn has_gz_suffix(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.to_ascii_lowercase().ends_with(".gz"))
}

/// Longest line a reader buffers. METIS lists a vertex's neighbours on one line, so a hub of a
/// social graph with millions of neighbours needs megabytes; 64 MiB is far beyond any real file
/// and still a bounded buffer when a file is one endless line (`/dev/zero`, a binary file).
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// Most a gzip stream may inflate, text bytes per compressed byte, once past
/// [`GZIP_FREE_BYTES`]. Real graph files inflate 2.6–3.9× (every `.gz` in `tests/data` and
/// NY); a 1 MB compression bomb of `0 1` lines inflates 1000× to 52 M arcs and seconds of
/// parsing, so beyond 32× the reader stops and says so.
pub const MAX_GZIP_RATIO: u64 = 32;
/// Text read before [`MAX_GZIP_RATIO`] applies (a small file's header may compress well).
const GZIP_FREE_BYTES: u64 = 4 << 20;

/// Where a reader's bytes come from: a file, or bytes already in memory ([`super::load_bytes`]),
/// with the name errors show and the byte count that progress and reservations use.
pub(crate) struct Input<'r> {
    reader: Box<dyn Read + 'r>,
    /// As errors show it (`file:line`).
    shown: String,
    /// Bytes of (compressed) input, 0 when unknown.
    pub(crate) bytes: u64,
    /// The name ends in `.gz`: decompress even without the magic bytes (and so fail clearly
    /// when the data is not gzip).
    gz_name: bool,
}

impl<'r> Input<'r> {
    /// Opens a file.
    pub(crate) fn file(path: &Path) -> Result<Input<'r>, LoadError> {
        let bytes = file_len(path)?;
        let f = File::open(path).map_err(io_error(path))?;
        Ok(Input { reader: Box::new(f), shown: path.display().to_string(), bytes, gz_name: has_gz_suffix(path) })
    }

    /// Any reader, shown as `name` (a `.gz` suffix forces gzip, as for files).
    pub(crate) fn reader(reader: impl Read + 'r, name: &str, bytes: u64) -> Input<'r> {
        Input { reader: Box::new(reader), shown: name.to_string(), bytes, gz_name: has_gz_suffix(Path::new(name)) }
    }
}

/// Reads a text input line by line into one reused buffer, decompressing gzip on the fly.
///
/// Line numbers are 1-based and count every line (comments and blank lines included), so they
/// match what an editor shows for the uncompressed text. A line longer than
/// [`MAX_LINE_BYTES`] is an error, not an ever-growing buffer.
pub(crate) struct Lines<'p, 'a, 'r> {
    reader: Box<dyn BufRead + 'r>,
    buf: Vec<u8>,
    line: usize,
    count: Rc<Cell<u64>>,
    file_failed: Rc<Cell<bool>>,
    compressed: bool,
    /// Decompressed bytes returned so far (for [`MAX_GZIP_RATIO`]).
    text_bytes: u64,
    path: String,
    progress: &'p mut Progress<'a>,
}

impl<'p, 'a, 'r> Lines<'p, 'a, 'r> {
    /// Opens `input`. Gzip is recognised by a `.gz` suffix or by the gzip magic bytes.
    pub(crate) fn open(input: Input<'r>, progress: &'p mut Progress<'a>) -> Result<Lines<'p, 'a, 'r>, LoadError> {
        let Input { reader, shown, gz_name, .. } = input;
        let count = Rc::new(Cell::new(0));
        let file_failed = Rc::new(Cell::new(false));
        let counting = Counting { inner: reader, count: Rc::clone(&count), failed: Rc::clone(&file_failed) };
        let mut raw = BufReader::with_capacity(BUF_BYTES, counting);
        let head = raw.fill_buf().map_err(|source| LoadError::Io { path: shown.clone(), error: source })?;
        let compressed = head.starts_with(&[0x1f, 0x8b]) || gz_name;
        let reader: Box<dyn BufRead + 'r> = if compressed {
            Box::new(BufReader::with_capacity(BUF_BYTES, MultiGzDecoder::new(raw)))
        } else {
            Box::new(raw)
        };
        Ok(Lines {
            reader,
            buf: Vec::with_capacity(256),
            line: 0,
            count,
            file_failed,
            compressed,
            text_bytes: 0,
            path: shown,
            progress,
        })
    }

    /// The path as it appears in error messages.
    pub(crate) fn path(&self) -> &str {
        &self.path
    }

    /// Number of the last line returned (0 before the first).
    pub(crate) fn line(&self) -> usize {
        self.line
    }

    /// The next line without its line terminator (`\n` or `\r\n`), with its 1-based number;
    /// `None` at the end of the file.
    ///
    /// Errors: a read error of the file ([`LoadError::Io`]); corrupt or truncated gzip data
    /// ([`LoadError::Parse`] at the line being read); a line longer than [`MAX_LINE_BYTES`];
    /// cancellation through the progress callback.
    pub(crate) fn next_line(&mut self) -> Result<Option<(usize, &[u8])>, LoadError> {
        self.buf.clear();
        let limit = MAX_LINE_BYTES as u64 + 1;
        match (&mut self.reader).take(limit).read_until(b'\n', &mut self.buf) {
            Ok(0) => Ok(None),
            Ok(_) => {
                self.line += 1;
                if self.buf.len() > MAX_LINE_BYTES {
                    return Err(parse_error(
                        &self.path,
                        self.line,
                        format!(
                            "line longer than {} MiB without a line break: not a text graph file (a binary file, \
                             or an endless one such as /dev/zero?)",
                            MAX_LINE_BYTES >> 20
                        ),
                    ));
                }
                self.text_bytes += self.buf.len() as u64;
                if self.compressed
                    && self.text_bytes > GZIP_FREE_BYTES
                    && self.text_bytes > self.count.get().saturating_mul(MAX_GZIP_RATIO)
                {
                    return Err(parse_error(
                        &self.path,
                        self.line,
                        format!(
                            "the gzip data inflates more than {MAX_GZIP_RATIO}× ({} compressed bytes gave {} of text \
                             so far; graph files inflate 3–4×): a compression bomb? Decompress it yourself to load it",
                            self.count.get(),
                            self.text_bytes
                        ),
                    ));
                }
                self.progress.tick(self.count.get())?;
                let mut s: &[u8] = &self.buf;
                if let Some(rest) = s.strip_suffix(b"\n") {
                    s = rest;
                }
                if let Some(rest) = s.strip_suffix(b"\r") {
                    s = rest;
                }
                Ok(Some((self.line, s)))
            }
            Err(e) => Err(self.read_error(e)),
        }
    }

    /// Fills `buf` from the (decompressed) stream as far as it goes, for the binary formats
    /// ([`super::gapbs`]); returns the bytes read, fewer than `buf.len()` only at the end.
    /// Errors: as [`Lines::next_line`] (read errors, corrupt gzip data, cancellation).
    pub(crate) fn read_bytes(&mut self, buf: &mut [u8]) -> Result<usize, LoadError> {
        let mut got = 0;
        while got < buf.len() {
            match self.reader.read(&mut buf[got..]) {
                Ok(0) => break,
                Ok(k) => got += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.read_error(e)),
            }
        }
        self.progress.tick(self.count.get())?;
        Ok(got)
    }

    fn read_error(&self, e: io::Error) -> LoadError {
        if self.compressed && !self.file_failed.get() {
            LoadError::Parse {
                path: self.path.clone(),
                line: self.line + 1,
                msg: format!("corrupt or truncated gzip data ({e})"),
            }
        } else {
            LoadError::Io { path: self.path.clone(), error: e }
        }
    }

    /// Closes the file and counts its bytes as done for progress.
    pub(crate) fn finish(self) {
        let bytes = self.count.get();
        self.progress.file_done(bytes);
    }
}

/// Host bytes a graph of `n` vertices and `m` arcs needs while it is built and solved: the
/// builder's 12 bytes an arc, both CSRs (8 bytes an arc each, 4 a vertex), ω and the build's
/// per-vertex scratch (~24 bytes a vertex). An estimate to refuse absurd headers with, not an
/// accounting.
pub fn graph_bytes_estimate(n: u64, m: u64) -> u64 {
    n.saturating_mul(32).saturating_add(m.saturating_mul(28))
}

/// 0 = no override: the machine's available memory.
static MEMORY_BUDGET: AtomicU64 = AtomicU64::new(0);

/// Caps the memory a header may announce before a reader refuses it (`None`: the machine's
/// available memory, the default). Fuzz targets set their allocation bound here.
pub fn set_memory_budget(bytes: Option<u64>) {
    MEMORY_BUDGET.store(bytes.unwrap_or(0), Ordering::Relaxed);
}

/// Bytes a load may plan to allocate: the override of [`set_memory_budget`], else
/// `MemAvailable` of `/proc/meminfo`, else (no such file) unbounded.
pub fn memory_budget() -> u64 {
    match MEMORY_BUDGET.load(Ordering::Relaxed) {
        0 => available_memory().unwrap_or(u64::MAX),
        b => b,
    }
}

/// `MemAvailable` in bytes (Linux).
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// `1.5 GB`.
pub(crate) fn human_bytes(b: u64) -> String {
    if b >= 1 << 30 { format!("{:.1} GB", b as f64 / 1e9) } else { format!("{:.1} MB", b as f64 / 1e6) }
}

/// Refuses a header announcing `n` vertices and `m` arcs when the graph would not fit
/// [`memory_budget`]: the message gives the estimate and the budget. `what` names the header
/// (`the `p sp` line`).
pub(crate) fn check_size(p: &str, ln: usize, what: &str, n: u64, m: u64) -> Result<(), LoadError> {
    let need = graph_bytes_estimate(n, m);
    let budget = memory_budget();
    if need > budget {
        return Err(parse_error(
            p,
            ln,
            format!(
                "{what} announces {n} vertices and {m} arcs, about {} of memory; only {} is available: \
                 refused before allocating",
                human_bytes(need),
                human_bytes(budget)
            ),
        ));
    }
    Ok(())
}

/// What a graph reader hands back: the arcs, how vertices are numbered, the name errors use
/// and what the user should know about how the file was read.
pub(crate) struct Parsed {
    pub(crate) builder: GraphBuilder,
    pub(crate) labels: VertexLabels,
    pub(crate) shown: String,
    pub(crate) warnings: Vec<String>,
}

/// A [`LoadError::Parse`].
pub(crate) fn parse_error(path: &str, line: usize, msg: impl Into<String>) -> LoadError {
    LoadError::Parse { path: path.to_string(), line, msg: msg.into() }
}

/// A [`LoadError::Invalid`].
pub(crate) fn invalid(path: &str, msg: impl Into<String>) -> LoadError {
    LoadError::Invalid { path: path.to_string(), msg: msg.into() }
}

/// The whitespace-separated tokens of a line.
#[inline]
pub(crate) fn tokens(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|b: &u8| b.is_ascii_whitespace()).filter(|t| !t.is_empty())
}

/// The line with leading whitespace removed.
#[inline]
pub(crate) fn trim_start(line: &[u8]) -> &[u8] {
    let start = line.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(line.len());
    line.get(start..).unwrap_or_default()
}

/// Whether the line holds only whitespace.
#[inline]
pub(crate) fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// A line (or token) for an error message: lossy UTF-8, trimmed, at most 80 characters.
pub(crate) fn show(bytes: &[u8]) -> String {
    // Only the head: a line may be megabytes long.
    let text = String::from_utf8_lossy(bytes.get(..bytes.len().min(400)).unwrap_or(bytes));
    let text = text.trim();
    if text.chars().count() > 80 {
        let cut: String = text.chars().take(77).collect();
        format!("{cut}…")
    } else {
        text.to_string()
    }
}

/// A non-negative decimal integer (digits only), `None` when the token is anything else or
/// overflows 64 bits.
#[inline]
pub(crate) fn parse_u64(tok: &[u8]) -> Option<u64> {
    if tok.is_empty() {
        return None;
    }
    let mut v: u64 = 0;
    for &b in tok {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v.checked_mul(10)?.checked_add(u64::from(d))?;
    }
    Some(v)
}

/// A finite decimal number (coordinates), parsed straight to `f32` (correctly rounded).
pub(crate) fn parse_f32(tok: &[u8]) -> Option<f32> {
    let x: f32 = std::str::from_utf8(tok).ok()?.parse().ok()?;
    x.is_finite().then_some(x)
}

/// Why a weight token was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WeightError {
    /// Not a number at all.
    Malformed,
    /// NaN or ±infinity.
    NotFinite,
    /// An integer beyond ±(2³¹ − 1).
    TooLarge,
}

const WEIGHT_HINT: &str = "load with `--weights unit` or `--weights uniform:MAX:SEED` to replace the file's weights";

impl WeightError {
    /// The message for token `tok` found on line `line`.
    pub(crate) fn message(self, tok: &[u8], line: &[u8]) -> String {
        let tok = show(tok);
        let line = show(line);
        match self {
            WeightError::Malformed => format!("weight `{tok}` is not a number in `{line}`"),
            WeightError::NotFinite => format!("weight {tok} in `{line}` is not a finite number; {WEIGHT_HINT}"),
            WeightError::TooLarge => {
                format!("weight {tok} in `{line}` is beyond the supported range ±{}; {WEIGHT_HINT}", Weight::MAX)
            }
        }
    }
}

/// A weight: an integer within ±(2³¹ − 1), also written as a real with no fractional part (`3`,
/// `-3`, `3.0`, `3e2`), or a finite real (`0.25`), scaled later ([`crate::graph::WeightScale`]).
#[inline]
pub(crate) fn parse_weight(tok: &[u8]) -> Result<FileWeight, WeightError> {
    if let Some(v) = parse_u64(tok) {
        return Weight::try_from(v).map(FileWeight::Int).map_err(|_| WeightError::TooLarge);
    }
    if let Some(v) = tok.strip_prefix(b"-").and_then(parse_u64) {
        return i64::try_from(v)
            .ok()
            .and_then(|v| Weight::try_from(-v).ok())
            .map(FileWeight::Int)
            .ok_or(WeightError::TooLarge);
    }
    let x: f64 = std::str::from_utf8(tok).ok().and_then(|s| s.parse().ok()).ok_or(WeightError::Malformed)?;
    if !x.is_finite() {
        Err(WeightError::NotFinite)
    } else if x.fract() != 0.0 {
        Ok(FileWeight::Real(x))
    } else if x.abs() > Weight::MAX as f64 {
        Err(WeightError::TooLarge)
    } else {
        Ok(FileWeight::Int(x as Weight))
    }
}

/// Why a vertex id token was refused.
pub(crate) enum IdError {
    Malformed,
    OutOfRange(u64),
}

/// A 1-based vertex id in `1..=n`, returned as the 0-based index.
#[inline]
pub(crate) fn parse_id1(tok: &[u8], n: usize) -> Result<u32, IdError> {
    let id = parse_u64(tok).ok_or(IdError::Malformed)?;
    if id == 0 || id > n as u64 {
        return Err(IdError::OutOfRange(id));
    }
    u32::try_from(id - 1).map_err(|_| IdError::OutOfRange(id))
}

/// `id 17 out of range 1..=14 in `a 1 17 3``.
pub(crate) fn out_of_range(id: u64, n: usize, line: &[u8]) -> String {
    format!("id {id} out of range 1..={n} in `{}`", show(line))
}

/// The sibling file with extension `ext` next to `path` (`x.gr.gz` → `x.co`, then `x.co.gz`),
/// if one exists.
pub(crate) fn find_sibling(path: &Path, ext: &str) -> Option<std::path::PathBuf> {
    let plain = sibling_path(path, ext, false);
    if plain.is_file() {
        return Some(plain);
    }
    let gz = sibling_path(path, ext, true);
    gz.is_file().then_some(gz)
}

/// `path` without a `.gz` suffix and with its extension replaced by `ext`, plus `.gz` when
/// `gz`: `dir/x.gr.gz` → `dir/x.co(.gz)`.
pub(crate) fn sibling_path(path: &Path, ext: &str, gz: bool) -> std::path::PathBuf {
    let base = if has_gz_suffix(path) { path.with_extension("") } else { path.to_path_buf() };
    let mut out = base.with_extension(ext);
    if gz {
        let mut name = out.file_name().map(|n| n.to_os_string()).unwrap_or_default();
        name.push(".gz");
        out.set_file_name(name);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_parse_and_refuse() {
        use FileWeight::{Int, Real};
        assert_eq!(parse_weight(b"0"), Ok(Int(0)));
        assert_eq!(parse_weight(b"2147483647"), Ok(Int(i32::MAX)));
        assert_eq!(parse_weight(b"-2147483647"), Ok(Int(-i32::MAX)));
        assert_eq!(parse_weight(b"2147483648"), Err(WeightError::TooLarge));
        assert_eq!(parse_weight(b"99999999999999999999999"), Err(WeightError::TooLarge));
        assert_eq!(parse_weight(b"3.0"), Ok(Int(3)));
        assert_eq!(parse_weight(b"1e3"), Ok(Int(1000)));
        assert_eq!(parse_weight(b"-0"), Ok(Int(0)));
        assert_eq!(parse_weight(b"-1"), Ok(Int(-1)));
        assert_eq!(parse_weight(b"-.5"), Ok(Real(-0.5)));
        assert_eq!(parse_weight(b".5"), Ok(Real(0.5)));
        assert_eq!(parse_weight(b"1e300"), Err(WeightError::TooLarge));
        assert_eq!(parse_weight(b"NaN"), Err(WeightError::NotFinite));
        assert_eq!(parse_weight(b"inf"), Err(WeightError::NotFinite));
        assert_eq!(parse_weight(b"x"), Err(WeightError::Malformed));
    }

    #[test]
    fn siblings() {
        let p = Path::new("d/USA-road-d.NY.gr.gz");
        assert_eq!(sibling_path(p, "co", true), Path::new("d/USA-road-d.NY.co.gz"));
        assert_eq!(sibling_path(p, "co", false), Path::new("d/USA-road-d.NY.co"));
        assert_eq!(sibling_path(Path::new("lux.osm.graph"), "xyz", false), Path::new("lux.osm.xyz"));
    }

    #[test]
    fn integers() {
        assert_eq!(parse_u64(b"0"), Some(0));
        assert_eq!(parse_u64(b"18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_u64(b"18446744073709551616"), None);
        assert_eq!(parse_u64(b"-1"), None);
        assert_eq!(parse_u64(b""), None);
    }
}
