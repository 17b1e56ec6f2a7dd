//! Distance rows on disk: what `sssp-lab apsp --rows FILE` writes when the user asks for the
//! distances themselves rather than per-source summaries.
//!
//! Format, version 1 (all integers little-endian), gzip-compressed as a whole when the file name
//! ends in `.gz`:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `SSSPROWS` |
//! | 4 | version, `1` |
//! | 4 | reserved, `0` |
//! | 8 | n, vertices per row |
//! | then, per row, until the end of the file: | |
//! | 8 | source, as numbered in the graph file (its label) |
//! | 8 × n | δ of vertices 0 … n−1 (the loader's order) as i64; `i64::MAX` = unreached |
//!
//! Rows come in the order tasks finished, not by source. The row count is not in the header (the
//! writer streams); a file cut short in the middle of a row is an error when read.

use crate::graph::Distance;
use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// First 8 bytes of a rows file.
pub const MAGIC: &[u8; 8] = b"SSSPROWS";
/// The version this code writes and reads.
pub const VERSION: u32 = 1;

/// Streams rows into a file (see the module docs for the format).
pub struct RowWriter {
    out: Box<dyn Write + Send>,
    path: PathBuf,
    n: usize,
    rows: u64,
    buf: Vec<u8>,
}

impl RowWriter {
    /// Creates `path` (gzip when it ends in `.gz`) for rows of `n` distances and writes the
    /// header. Errors: the file cannot be created or written.
    pub fn create(path: &Path, n: usize) -> io::Result<RowWriter> {
        let f = BufWriter::with_capacity(1 << 20, File::create(path)?);
        let mut out: Box<dyn Write + Send> = if path.extension().is_some_and(|e| e == "gz") {
            Box::new(GzEncoder::new(f, Compression::fast()))
        } else {
            Box::new(f)
        };
        out.write_all(MAGIC)?;
        out.write_all(&VERSION.to_le_bytes())?;
        out.write_all(&0u32.to_le_bytes())?;
        out.write_all(&(n as u64).to_le_bytes())?;
        Ok(RowWriter { out, path: path.to_owned(), n, rows: 0, buf: Vec::with_capacity(8 * (n + 1)) })
    }

    /// Appends the row of `source` (its id in the file). Errors: `dist` does not hold n entries,
    /// or the write failed.
    pub fn write(&mut self, source: u64, dist: &[Distance]) -> io::Result<()> {
        if dist.len() != self.n {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}: a row of {} distances, the file holds rows of {}",
                    self.path.display(),
                    dist.len(),
                    self.n
                ),
            ));
        }
        self.buf.clear();
        self.buf.extend_from_slice(&source.to_le_bytes());
        for d in dist {
            self.buf.extend_from_slice(&d.to_le_bytes());
        }
        self.out.write_all(&self.buf)?;
        self.rows += 1;
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Flushes (and ends the gzip stream). Errors: the final writes failed.
    pub fn finish(mut self) -> io::Result<u64> {
        self.out.flush()?;
        drop(self.out);
        Ok(self.rows)
    }
}

/// Most distances a row may hold: vertex ids are 32 bits.
pub const MAX_ROW_LEN: u64 = u32::MAX as u64;

/// Reads a rows file one row at a time (an iterator of `(source, row)`).
pub struct RowReader<'r> {
    input: Box<dyn Read + 'r>,
    path: PathBuf,
    n: usize,
    row: u64,
}

impl RowReader<'static> {
    /// Opens `path` (gzip when it ends in `.gz`) and checks the header. Errors: I/O, a wrong
    /// magic, an unknown version (the message names both), a row length beyond
    /// [`MAX_ROW_LEN`].
    pub fn open(path: &Path) -> io::Result<RowReader<'static>> {
        let f = BufReader::with_capacity(1 << 20, File::open(path)?);
        RowReader::from_reader(f, path, path.extension().is_some_and(|e| e == "gz"))
    }
}

impl<'r> RowReader<'r> {
    /// [`RowReader::open`] on any reader (`gz`: gzip-compressed); `path` names it in errors.
    pub fn from_reader(reader: impl Read + 'r, path: &Path, gz: bool) -> io::Result<RowReader<'r>> {
        let mut input: Box<dyn Read + 'r> = if gz { Box::new(MultiGzDecoder::new(reader)) } else { Box::new(reader) };
        let mut head = [0u8; 24];
        input.read_exact(&mut head).map_err(|e| bad(path, format!("no complete header ({e})")))?;
        if &head[..8] != MAGIC {
            return Err(bad(path, "not a distance-rows file (the magic is not SSSPROWS)".into()));
        }
        let version = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
        if version != VERSION {
            return Err(bad(path, format!("format version {version}; this build reads version {VERSION}")));
        }
        let mut n8 = [0u8; 8];
        n8.copy_from_slice(&head[16..24]);
        let n = u64::from_le_bytes(n8);
        if n > MAX_ROW_LEN {
            return Err(bad(
                path,
                format!(
                    "rows of {n} distances: beyond the {MAX_ROW_LEN} vertices 32-bit ids number (a corrupt header?)"
                ),
            ));
        }
        Ok(RowReader { input, path: path.to_owned(), n: n as usize, row: 0 })
    }

    /// Distances per row (the graph's vertex count).
    pub fn n(&self) -> usize {
        self.n
    }
}

fn bad(path: &Path, what: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("{}: {what}", path.display()))
}

impl Iterator for RowReader<'_> {
    type Item = io::Result<(u64, Vec<Distance>)>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut word = [0u8; 8];
        // A clean end of file between rows ends the iteration; anything else is an error.
        match self.input.read(&mut word[..1]) {
            Ok(0) => return None,
            Ok(_) => {}
            Err(e) => return Some(Err(e)),
        }
        let row = self.row;
        // The row is read as it arrives, not allocated from the header's n: a corrupt header
        // on a short file costs what the file holds, not 8·n bytes.
        let want = 7 + 8 * self.n as u64;
        let mut rest = Vec::with_capacity((want as usize).min(1 << 20));
        if let Err(e) = (&mut self.input).take(want).read_to_end(&mut rest) {
            return Some(Err(bad(&self.path, format!("row {row} cannot be read ({e})"))));
        }
        if (rest.len() as u64) < want {
            return Some(Err(bad(
                &self.path,
                format!("row {row} is cut short ({} of its {} bytes)", rest.len() + 1, want + 1),
            )));
        }
        word[1..].copy_from_slice(&rest[..7]);
        let source = u64::from_le_bytes(word);
        let dist = rest[7..]
            .chunks_exact(8)
            .map(|c| Distance::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        self.row += 1;
        Some(Ok((source, dist.collect())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::INF;

    #[test]
    fn rows_round_trip_plain_and_gzip_and_truncation_is_an_error() -> io::Result<()> {
        let dir = std::env::temp_dir().join(format!("sssp-rows-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        for name in ["r.bin", "r.bin.gz"] {
            let p = dir.join(name);
            let mut w = RowWriter::create(&p, 3)?;
            w.write(7, &[0, 5, INF])?;
            w.write(9, &[4, 0, -2])?;
            assert!(w.write(1, &[0]).is_err());
            assert_eq!(w.finish()?, 2);
            let r = RowReader::open(&p)?;
            assert_eq!(r.n(), 3);
            let rows: Vec<_> = r.collect::<io::Result<_>>()?;
            assert_eq!(rows, vec![(7, vec![0, 5, INF]), (9, vec![4, 0, -2])]);
        }
        let p = dir.join("r.bin");
        let bytes = std::fs::read(&p)?;
        std::fs::write(&p, &bytes[..bytes.len() - 3])?;
        let got: Vec<_> = RowReader::open(&p)?.collect();
        assert!(got[1].as_ref().is_err_and(|e| e.to_string().contains("row 1 is cut short")));
        std::fs::write(&p, b"SSSPROWS\x02\0\0\0\0\0\0\0\x03\0\0\0\0\0\0\0")?;
        assert!(RowReader::open(&p).is_err_and(|e| e.to_string().contains("version 2")));
        std::fs::remove_dir_all(&dir)
    }

    #[test]
    fn a_header_announcing_huge_rows_costs_what_the_file_holds() {
        let mut head = b"SSSPROWS\x01\0\0\0\0\0\0\0".to_vec();
        head.extend_from_slice(&(1u64 << 40).to_le_bytes());
        let e = RowReader::from_reader(&head[..], Path::new("big.bin"), false).err().map(|e| e.to_string());
        assert!(e.as_deref().is_some_and(|e| e.contains("big.bin") && e.contains("32-bit")), "{e:?}");
        // n = 2³² − 1 is allowed; a row of it on a short file is "cut short", not 32 GiB.
        let mut head = b"SSSPROWS\x01\0\0\0\0\0\0\0".to_vec();
        head.extend_from_slice(&MAX_ROW_LEN.to_le_bytes());
        head.extend_from_slice(&[1u8; 40]);
        let r = RowReader::from_reader(&head[..], Path::new("short.bin"), false).unwrap_or_else(|e| panic!("{e}"));
        let rows: Vec<_> = r.collect();
        assert!(rows[0].as_ref().is_err_and(|e| e.to_string().contains("row 0 is cut short (40 of")), "{rows:?}");
    }
}
