//! GAP Benchmark Suite serialized graphs: `.sg` (unweighted) and `.wsg` (weighted), as GAP's
//! `converter -b` writes them and its kernels read them (docs/references.md `[gapbs]`; gapbs
//! `src/writer.h` `WriteSerializedGraph`, `src/reader.h` `ReadSerializedGraph`).
//!
//! Layout, little-endian, no padding:
//!
//! ```text
//! bool   directed            1 byte, 0 or 1
//! i64    arcs                stored out-arcs (an undirected graph stores each edge at both ends)
//! i64    n                   vertices, ids 0..n
//! i64    offsets[n + 1]      out-arcs of u are arcs offsets[u] .. offsets[u + 1]
//! arcs × i32 v               .sg:  the head of each arc
//! arcs × (i32 v, i32 w)      .wsg: head and weight
//! (directed only) in-offsets and in-arcs in the same shape — not read: the predecessor CSR is
//! the transpose sssp-lab builds itself
//! ```
//!
//! Why a binary reader: a 21-scale GAP graph (67 M arcs) takes ~10 s to read as `.wel` text and
//! about a second as `.wsg`, and the `.wsg` is the very file GAP's `sssp` reads, so a benchmark
//! beside GAP needs no conversion. Errors name the file and the byte offset; nothing is
//! allocated before the header passed the memory budget; a `.wsg`'s negative weight is refused
//! (GAP's `sssp` assumes none; a file with one is damaged) unless a weight rule replaces the
//! file's weights.

use super::input::{
    Input, Lines, MAX_VERTICES, Parsed, Progress, graph_bytes_estimate, human_bytes, invalid, memory_budget,
    reserve_hint,
};
use super::{LoadError, LoadOptions};
use crate::graph::{FileWeight, GraphBuilder, VertexId, VertexLabels, WeightRule};

/// Bytes of the header: `directed`, `arcs`, `n`.
const HEADER: usize = 17;
/// Arcs decoded per block read.
const BLOCK_ARCS: usize = 1 << 16;

/// The stream with the byte offset errors name.
struct Bytes<'p, 'a, 'r> {
    lines: Lines<'p, 'a, 'r>,
    at: u64,
}

impl Bytes<'_, '_, '_> {
    /// Fills `buf` exactly; a short read is a truncated file, naming `what` was being read.
    fn fill(&mut self, buf: &mut [u8], what: &str) -> Result<(), LoadError> {
        let got = self.lines.read_bytes(buf)?;
        if got < buf.len() {
            return Err(self.error(
                self.at + got as u64,
                format!("the file ends inside {what} ({} of {} bytes): truncated", got, buf.len()),
            ));
        }
        self.at += got as u64;
        Ok(())
    }

    fn error(&self, at: u64, msg: impl std::fmt::Display) -> LoadError {
        invalid(self.lines.path(), format!("byte {at}: {msg}"))
    }
}

fn i64_at(b: &[u8], i: usize) -> i64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[i * 8..i * 8 + 8]);
    i64::from_le_bytes(x)
}

fn i32_at(b: &[u8], i: usize) -> i32 {
    let mut x = [0u8; 4];
    x.copy_from_slice(&b[i * 4..i * 4 + 4]);
    i32::from_le_bytes(x)
}

/// Reads a `.sg` (`weighted` false: every arc gets weight 1, or the weight rule's) or a `.wsg`.
///
/// Errors ([`LoadError::Invalid`], `file: byte K: …`): a header that is not GAP's (the
/// `directed` byte not 0/1, negative or absurd counts, no vertices), a graph beyond
/// [`super::memory_budget`], offsets that do not start at 0, decrease, pass the arc count or do
/// not end at it, a head outside `0..n`, a negative weight (with the file's weights), and a
/// file that ends early; read and gzip errors as the text readers.
pub(crate) fn read(
    input: Input<'_>,
    weighted: bool,
    opts: &LoadOptions,
    progress: &mut Progress<'_>,
) -> Result<Parsed, LoadError> {
    let file_bytes = input.bytes;
    let mut b = Bytes { lines: Lines::open(input, progress)?, at: 0 };
    let p = b.lines.path().to_string();
    let mut head = [0u8; HEADER];
    b.fill(&mut head, "the 17-byte header (directed, arcs, n)")?;
    if head[0] > 1 {
        return Err(b.error(
            0,
            format!(
                "the `directed` byte is {}, not 0 or 1: not a GAP serialized graph (converter -b writes them)",
                head[0]
            ),
        ));
    }
    let (m, n) = (i64_at(&head[1..], 0), i64_at(&head[1..], 1));
    if n <= 0 || n as u64 > MAX_VERTICES {
        return Err(b.error(9, format!("the header announces {n} vertices: expected 1 ..= {MAX_VERTICES}")));
    }
    if m < 0 || m >= u32::MAX as i64 {
        return Err(b.error(1, format!("the header announces {m} arcs: expected 0 ..= {}", u32::MAX - 1)));
    }
    let (n, m) = (n as usize, m as usize);
    let arc_bytes = if weighted { 8 } else { 4 };
    let need = graph_bytes_estimate(n as u64, m as u64);
    if need > memory_budget() {
        return Err(b.error(
            1,
            format!(
                "the header announces {n} vertices and {m} arcs, about {} of memory; only {} is available: \
                 refused before allocating",
                human_bytes(need),
                human_bytes(memory_budget())
            ),
        ));
    }
    // Read in blocks, so that a header promising more than a small file holds fails at the
    // file's end before gigabytes are allocated.
    let mut offsets = Vec::with_capacity((n + 1).min(BLOCK_ARCS));
    let mut raw = vec![0u8; 8 * BLOCK_ARCS.min(n + 1)];
    let mut last = 0i64;
    while offsets.len() <= n {
        let k = (n + 1 - offsets.len()).min(BLOCK_ARCS);
        b.fill(&mut raw[..8 * k], "the offsets")?;
        for j in 0..k {
            let (i, o) = (offsets.len(), i64_at(&raw, j));
            let at = HEADER as u64 + 8 * i as u64;
            if (i == 0 && o != 0) || o < last || o > m as i64 {
                let want =
                    if i == 0 { "0".to_string() } else { format!("{last} ..= {m} (non-decreasing, at most the arcs)") };
                return Err(b.error(at, format!("offset of vertex {i} is {o}, expected {want}")));
            }
            last = o;
            offsets.push(o as usize);
        }
    }
    if last != m as i64 {
        return Err(b.error(
            HEADER as u64 + 8 * n as u64,
            format!("the offsets end at {last}, but the header announces {m} arcs"),
        ));
    }
    drop(raw);

    let mut builder = GraphBuilder::new(n, opts.weights);
    builder.set_decimals(opts.weight_decimals);
    builder.reserve(reserve_hint(m as u64, file_bytes));
    let file_weights = weighted && opts.weights == WeightRule::File;
    let mut block = vec![0u8; BLOCK_ARCS * arc_bytes];
    let mut u = 0usize;
    let mut arc = 0usize;
    while arc < m {
        let k = (m - arc).min(BLOCK_ARCS);
        let start = b.at;
        b.fill(&mut block[..k * arc_bytes], "the arcs")?;
        for j in 0..k {
            let i = arc + j;
            while offsets[u + 1] <= i {
                u += 1;
            }
            let at = start + (j * arc_bytes) as u64;
            let (v, w) =
                if weighted { (i32_at(&block, 2 * j), i32_at(&block, 2 * j + 1)) } else { (i32_at(&block, j), 1) };
            if v < 0 || v as usize >= n {
                return Err(b.error(at, format!("arc {i} ({u} → {v}): head {v} is outside 0..{n}")));
            }
            if file_weights && w < 0 {
                return Err(
                    b.error(at + 4, format!("arc {i} ({u} → {v}) weighs {w}: a GAP graph's weights are non-negative"))
                );
            }
            let weight = weighted.then_some(FileWeight::Int(w));
            builder.push_file(u as VertexId, v as VertexId, weight);
        }
        arc += k;
    }
    b.lines.finish();
    Ok(Parsed { builder, labels: VertexLabels::Offset(0), shown: p, warnings: Vec::new() })
}
