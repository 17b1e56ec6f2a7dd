//! The hierarchy kept on disk, so that a graph is contracted once per machine rather than once
//! per process: `cache_dir()/phast-v2/<fingerprint>.ch` (NY's build takes seconds; the app, each
//! `solve` and every test process would otherwise pay it again).
//!
//! The file is the hierarchy's arrays in little-endian order behind a header naming the graph's
//! fingerprint, and a hash of the arrays at the end: a file that is short, from another graph or
//! another format, or whose bytes changed, is ignored and the hierarchy built again. Writes go to
//! a temporary name first and are renamed into place, so concurrent processes never read half a
//! file.

use super::Hierarchy;
use crate::graph::Graph;
use std::hash::Hasher;
use std::io::Write;
use std::path::PathBuf;

const MAGIC: &[u8; 8] = b"SSSPCH02";

/// A 64-bit hash of the graph's arcs and weights (n, m and the successor CSR).
pub(super) fn fingerprint(g: &Graph) -> u64 {
    let s = g.successors();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    h.write_u64(g.n() as u64);
    h.write_u64(g.m() as u64);
    h.write(bytemuck::cast_slice(&s.offsets));
    h.write(bytemuck::cast_slice(&s.targets));
    h.write(bytemuck::cast_slice(&s.weights));
    h.finish()
}

fn path(fp: u64) -> PathBuf {
    crate::assets::cache_dir().join("phast-v2").join(format!("{fp:016x}.ch"))
}

fn hash(bytes: &[u8]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    h.write(bytes);
    h.finish()
}

/// Serialises `h` (see the module docs).
fn encode(fp: u64, h: &Hierarchy) -> Vec<u8> {
    let mut out = Vec::with_capacity(h.bytes() + 256);
    out.extend_from_slice(MAGIC);
    for v in [fp, h.n as u64, h.shortcuts as u64, h.core as u64, h.build_ms.to_bits()] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let mut u32s = |a: &[u32]| {
        out.extend_from_slice(&(a.len() as u64).to_le_bytes());
        a.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
    };
    for a in [&h.rank, &h.up_offsets, &h.up_heads, &h.order, &h.pos, &h.level_start, &h.in_offsets, &h.in_tails] {
        u32s(a);
    }
    for a in [&h.up_weights, &h.in_weights] {
        out.extend_from_slice(&(a.len() as u64).to_le_bytes());
        a.iter().for_each(|x| out.extend_from_slice(&x.to_le_bytes()));
    }
    let sum = hash(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Reads little-endian words off a byte slice.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn u64(&mut self) -> Option<u64> {
        let (head, rest) = self.0.split_first_chunk::<8>()?;
        self.0 = rest;
        Some(u64::from_le_bytes(*head))
    }

    fn u32s(&mut self) -> Option<Vec<u32>> {
        let len = usize::try_from(self.u64()?).ok()?;
        let bytes = self.0.get(..len.checked_mul(4)?)?;
        self.0 = &self.0[len * 4..];
        Some(bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }

    fn i64s(&mut self) -> Option<Vec<i64>> {
        let len = usize::try_from(self.u64()?).ok()?;
        let bytes = self.0.get(..len.checked_mul(8)?)?;
        self.0 = &self.0[len * 8..];
        Some(bytes.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8]))).collect())
    }
}

/// Decodes a file written by [`encode`] for fingerprint `fp`; `None` for anything else.
fn decode(fp: u64, bytes: &[u8]) -> Option<Hierarchy> {
    let (body, sum) = bytes.split_last_chunk::<8>()?;
    if hash(body) != u64::from_le_bytes(*sum) || !body.starts_with(MAGIC) {
        return None;
    }
    let mut r = Reader(&body[MAGIC.len()..]);
    if r.u64()? != fp {
        return None;
    }
    let n = usize::try_from(r.u64()?).ok()?;
    let shortcuts = usize::try_from(r.u64()?).ok()?;
    let core = usize::try_from(r.u64()?).ok()?;
    let build_ms = f64::from_bits(r.u64()?);
    let (rank, up_offsets, up_heads, order, pos, level_start, in_offsets, in_tails) =
        (r.u32s()?, r.u32s()?, r.u32s()?, r.u32s()?, r.u32s()?, r.u32s()?, r.u32s()?, r.u32s()?);
    let (up_weights, in_weights) = (r.i64s()?, r.i64s()?);
    let shapes_fit = rank.len() == n
        && order.len() == n
        && pos.len() == n
        && up_offsets.len() == n + 1
        && in_offsets.len() == n + 1
        && up_heads.len() == up_weights.len()
        && in_tails.len() == in_weights.len()
        && up_offsets.last().is_some_and(|&e| e as usize == up_heads.len())
        && in_offsets.last().is_some_and(|&e| e as usize == in_tails.len())
        && level_start.last().is_some_and(|&e| e as usize == n)
        && r.0.is_empty();
    shapes_fit.then_some(Hierarchy {
        n,
        rank,
        up_offsets,
        up_heads,
        up_weights,
        order,
        pos,
        level_start,
        in_offsets,
        in_tails,
        in_weights,
        shortcuts,
        core,
        build_ms,
    })
}

/// The stored hierarchy of the graph with fingerprint `fp`, if a valid one is on disk.
pub(super) fn load(fp: u64) -> Option<Hierarchy> {
    decode(fp, &std::fs::read(path(fp)).ok()?)
}

/// Stores `h` for fingerprint `fp`; failures (read-only home, full disk) only cost a rebuild
/// next time, so they are ignored.
pub(super) fn save(fp: u64, h: &Hierarchy) {
    let p = path(fp);
    let Some(dir) = p.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let tmp = dir.join(format!(".{fp:016x}.{}.tmp", std::process::id()));
    let written = std::fs::File::create(&tmp).and_then(|mut f| f.write_all(&encode(fp, h)));
    if written.is_err() || std::fs::rename(&tmp, &p).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::GeneratorSpec;
    use std::sync::Arc;

    #[test]
    fn a_stored_hierarchy_reads_back_equal_and_a_changed_byte_is_refused() {
        let g =
            Arc::new(GeneratorSpec::Grid { width: 12, height: 9, max_weight: 10, seed: 4 }.generate().expect("grid"));
        let h = super::super::hierarchy::build(&g).expect("hierarchy");
        let fp = fingerprint(&g);
        let bytes = encode(fp, &h);
        let back = decode(fp, &bytes).expect("decodes");
        assert_eq!(
            (back.order, back.in_tails, back.in_weights),
            (h.order.clone(), h.in_tails.clone(), h.in_weights.clone())
        );
        assert!(decode(fp ^ 1, &bytes).is_none(), "another graph's file");
        let mut bad = bytes.clone();
        bad[100] ^= 1;
        assert!(decode(fp, &bad).is_none(), "a changed byte");
        assert!(decode(fp, &bytes[..bytes.len() - 9]).is_none(), "a short file");
    }
}
