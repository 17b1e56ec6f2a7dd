//! GAP's serialized weighted graph (`.wsg`, gapbs `writer.h` `WriteSerializedGraph`) to its
//! weighted edge list (`.wel`), the same lines as `converter -e` writes (for every vertex u in
//! order, every out-arc in CSR order: `u v w`), in seconds instead of the converter's ~50 s on a
//! 21-scale graph (it flushes every line). For scripts/cpu-ab-interleave.sh, which then reads
//! one generated `.wsg` on GAP's side and its `.wel` on ours: the same graph by construction.
//! Build: `rustc --edition 2021 -O -o wsg2wel scripts/cpu-ab-wsg2wel.rs`. Usage: `wsg2wel IN.wsg OUT.wel`.
//! Layout: bool directed (1 byte), i64 arcs, i64 n, i64 offsets[n + 1], then arcs × (i32 v,
//! i32 w); a directed graph's in-arcs follow and are not needed.
use std::io::{BufReader, BufWriter, Read, Write};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        return Err("usage: wsg2wel IN.wsg OUT.wel".into());
    }
    let mut r = BufReader::with_capacity(1 << 22, std::fs::File::open(&args[1])?);
    let mut head = [0u8; 17];
    r.read_exact(&mut head)?;
    let arcs = i64::from_le_bytes(head[1..9].try_into()?);
    let n = i64::from_le_bytes(head[9..17].try_into()?);
    if !(0..=1 << 40).contains(&arcs) || !(0..=1 << 34).contains(&n) {
        return Err(format!("{}: implausible header (n = {n}, arcs = {arcs})", args[1]).into());
    }
    let mut offsets = vec![0u8; (n as usize + 1) * 8];
    r.read_exact(&mut offsets)?;
    let offset = |i: usize| i64::from_le_bytes(offsets[i * 8..i * 8 + 8].try_into().unwrap_or([0; 8]));
    if offset(n as usize) != arcs {
        return Err(format!("{}: offsets end at {} but the header says {arcs} arcs", args[1], offset(n as usize)).into());
    }
    let mut w = BufWriter::with_capacity(1 << 22, std::fs::File::create(&args[2])?);
    let mut arc = [0u8; 8];
    for u in 0..n as usize {
        for _ in offset(u)..offset(u + 1) {
            r.read_exact(&mut arc)?;
            let v = i32::from_le_bytes(arc[0..4].try_into()?);
            let wt = i32::from_le_bytes(arc[4..8].try_into()?);
            writeln!(w, "{u} {v} {wt}")?;
        }
    }
    w.flush()?;
    Ok(())
}
