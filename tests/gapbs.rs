//! GAP's serialized graphs (`.sg`, `.wsg`; `src/formats/gapbs.rs`) against the text files GAP's
//! converter made them from (`tests/data/README.md`): the same vertices, GAP's arcs (self-loops
//! dropped, parallel arcs merged to the lightest) and the same Dijkstra distances; and every
//! kind of damage refused with the file and the byte.

use petgraph::graph::{DiGraph, NodeIndex};
use sssp_lab::formats::*;
use sssp_lab::graph::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn load_file(name: &str) -> Graph {
    load(&data(name), &LoadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every arc (from, to) with its weight, as GAP's builder keeps them: no self-loops, one arc per
/// pair at the lightest weight.
fn gap_arcs(g: &Graph) -> BTreeMap<(VertexId, VertexId), Weight> {
    let mut arcs = BTreeMap::new();
    for u in 0..g.n() as VertexId {
        for (v, w) in g.successors().arcs(u).filter(|&(v, _)| v != u) {
            arcs.entry((u, v)).and_modify(|x: &mut Weight| *x = (*x).min(w)).or_insert(w);
        }
    }
    arcs
}

/// Distances from `source` by petgraph's Dijkstra (`None`: unreachable).
fn oracle(g: &Graph, source: VertexId) -> Vec<Option<i64>> {
    let mut pg = DiGraph::<(), i64>::with_capacity(g.n(), g.m());
    for _ in 0..g.n() {
        pg.add_node(());
    }
    for u in 0..g.n() as VertexId {
        for (v, w) in g.successors().arcs(u) {
            pg.add_edge(NodeIndex::new(u as usize), NodeIndex::new(v as usize), w as i64);
        }
    }
    let d = petgraph::algo::dijkstra(&pg, NodeIndex::new(source as usize), None, |e| *e.weight());
    (0..g.n()).map(|v| d.get(&NodeIndex::new(v)).copied()).collect()
}

#[test]
fn a_wsg_from_gaps_converter_is_the_graph_of_its_text_file() {
    // (serialized, text, sources): rome99 is a directed road network (the .wsg carries its
    // in-arcs too, gzip-compressed here); 4.wsg a scale-4 Kronecker graph with self-loops and
    // parallel arcs; k6.wsg an undirected generated graph beside the .wel GAP wrote of it.
    for (wsg, text) in [("rome99.wsg.gz", "rome99.gr.gz"), ("4.wsg", "4.wel"), ("k6.wsg", "k6.wel")] {
        let (a, b) = (load_file(wsg), load_file(text));
        assert_eq!(a.n(), b.n(), "{wsg}");
        assert_eq!(a.weight_origin, "from file", "{wsg}");
        let arcs = gap_arcs(&a);
        assert_eq!(arcs.len(), a.m(), "{wsg}: GAP's files hold neither self-loops nor parallel arcs");
        assert_eq!(arcs, gap_arcs(&b), "{wsg} against {text}");
        for source in [0, (a.n() / 2) as VertexId, a.n() as VertexId - 1] {
            assert_eq!(oracle(&a, source), oracle(&b, source), "{wsg}, source {source}");
        }
    }
}

#[test]
fn an_sg_has_the_arcs_of_its_wsg_at_weight_one() {
    let (sg, wsg) = (load_file("4.sg"), load_file("4.wsg"));
    assert_eq!(sg.weight_origin, "unit (file has no weights)");
    let unit: BTreeMap<_, _> = gap_arcs(&wsg).into_keys().map(|k| (k, 1)).collect();
    assert_eq!(gap_arcs(&sg), unit);
    let rule = LoadOptions { weights: "uniform:9:3".parse().expect("rule"), ..Default::default() };
    let g = load(&data("4.sg"), &rule).expect("4.sg with uniform weights");
    assert!(g.successors().weights.iter().all(|w| (1..=9).contains(w)));
}

#[test]
fn formats_by_extension_and_name() {
    assert_eq!(Format::from_path(Path::new("kron21.wsg")), Some(Format::GapSerializedWeighted));
    assert_eq!(Format::from_path(Path::new("a/B.SG.gz")), Some(Format::GapSerialized));
    assert_eq!("wsg".parse::<Format>(), Ok(Format::GapSerializedWeighted));
    assert_eq!("sg".parse::<Format>(), Ok(Format::GapSerialized));
    let bytes = std::fs::read(data("4.wsg")).expect("4.wsg");
    let opts = LoadOptions { format: Some(Format::GapSerializedWeighted), ..Default::default() };
    let g = load_bytes(&bytes, "graph.bin", &opts).expect("by name");
    assert_eq!(gap_arcs(&g), gap_arcs(&load_file("4.wsg")));
}

/// `4.wsg` with `edit` applied, loaded from memory; the error's text.
fn damaged(edit: impl FnOnce(&mut Vec<u8>), opts: &LoadOptions) -> String {
    let mut bytes = std::fs::read(data("4.wsg")).expect("4.wsg");
    edit(&mut bytes);
    match load_bytes(&bytes, "bad.wsg", opts) {
        Ok(g) => panic!("loaded a damaged file: n = {}, m = {}", g.n(), g.m()),
        Err(e) => e.to_string(),
    }
}

/// A change to a file's bytes.
type Edit = dyn FnOnce(&mut Vec<u8>);

fn put_i64(b: &mut [u8], at: usize, x: i64) {
    b[at..at + 8].copy_from_slice(&x.to_le_bytes());
}

fn put_i32(b: &mut [u8], at: usize, x: i32) {
    b[at..at + 4].copy_from_slice(&x.to_le_bytes());
}

#[test]
fn damaged_files_are_refused_naming_the_file_and_the_byte() {
    // 4.wsg: directed, 53 arcs, 14 vertices; offsets at byte 17, arcs at 17 + 15 · 8 = 137.
    let file = LoadOptions::default();
    let arcs_at = 17 + 15 * 8;
    let cases: Vec<(&str, Box<Edit>, &str)> = vec![
        ("empty", Box::new(|b| b.clear()), "byte 0: the file ends inside the 17-byte header"),
        ("header cut", Box::new(|b| b.truncate(12)), "byte 12: the file ends inside the 17-byte header"),
        ("offsets cut", Box::new(|b| b.truncate(60)), "byte 60: the file ends inside the offsets"),
        ("arcs cut", Box::new(move |b| b.truncate(arcs_at + 30)), "the file ends inside the arcs"),
        ("directed 7", Box::new(|b| b[0] = 7), "byte 0: the `directed` byte is 7"),
        ("no vertices", Box::new(|b| put_i64(b, 9, 0)), "byte 9: the header announces 0 vertices"),
        ("negative arcs", Box::new(|b| put_i64(b, 1, -5)), "byte 1: the header announces -5 arcs"),
        (
            "absurd",
            Box::new(|b| {
                put_i64(b, 1, 4_000_000_000);
                put_i64(b, 9, 1 << 30)
            }),
            "refused before allocating",
        ),
        (
            "promises more than it holds",
            Box::new(|b| {
                put_i64(b, 1, 10_000_000);
                put_i64(b, 9, 1_000_000)
            }),
            "byte 1105: the file ends inside the offsets",
        ),
        ("first offset", Box::new(|b| put_i64(b, 17, 3)), "offset of vertex 0 is 3, expected 0"),
        ("decreasing", Box::new(|b| put_i64(b, 17 + 8 * 5, 1)), "offset of vertex 5 is 1"),
        ("past the arcs", Box::new(|b| put_i64(b, 17 + 8 * 3, 54)), "offset of vertex 3 is 54"),
        ("short end", Box::new(|b| put_i64(b, 17 + 8 * 14, 50)), "the offsets end at 50, but the header announces 53"),
        ("head too big", Box::new(move |b| put_i32(b, arcs_at + 8 * 4, 14)), "head 14 is outside 0..14"),
        ("head negative", Box::new(move |b| put_i32(b, arcs_at + 8 * 4, -1)), "head -1 is outside 0..14"),
        ("negative weight", Box::new(move |b| put_i32(b, arcs_at + 8 * 4 + 4, -2)), "weighs -2"),
    ];
    for (case, edit, want) in cases {
        let err = damaged(edit, &file);
        assert!(err.starts_with("bad.wsg: byte "), "{case}: {err}");
        assert!(err.contains(want), "{case}: {err}");
    }
    // The byte of a bad arc is its own: arc 4's head at 137 + 32, its weight 4 bytes on.
    let err = damaged(|b| put_i32(b, arcs_at + 8 * 4 + 4, -2), &file);
    assert!(err.contains(&format!("byte {}: arc 4 ", arcs_at + 36)), "{err}");
    // A weight rule replaces the file's weights, so a negative one is not read as damage.
    let unit = LoadOptions { weights: WeightRule::Unit, ..Default::default() };
    let mut bytes = std::fs::read(data("4.wsg")).expect("4.wsg");
    put_i32(&mut bytes, arcs_at + 8 * 4 + 4, -2);
    let g = load_bytes(&bytes, "unit.wsg", &unit).expect("unit weights");
    assert!(g.successors().weights.iter().all(|&w| w == 1));
    // A truncated gzip stream is named as such.
    let gz = std::fs::read(data("rome99.wsg.gz")).expect("rome99.wsg.gz");
    let err = load_bytes(&gz[..gz.len() / 2], "cut.wsg.gz", &file).map(|_| ()).expect_err("cut gzip");
    assert!(err.to_string().starts_with("cut.wsg.gz"), "{err}");
}

/// Random damage (bytes overwritten, the file cut anywhere) is an error or a graph, never a
/// panic, read as `.wsg` and as `.sg` (the fuzz targets draw these formats too).
#[test]
fn random_damage_never_panics() {
    let good = std::fs::read(data("4.wsg")).expect("4.wsg");
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move |k: usize| {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((x >> 33) % k as u64) as usize
    };
    let opts = LoadOptions::default();
    for _ in 0..3000 {
        let mut b = good.clone();
        for _ in 0..1 + next(4) {
            let i = next(b.len());
            b[i] = next(256) as u8;
        }
        b.truncate(next(b.len() + 40));
        for name in ["f.wsg", "f.sg"] {
            if let Ok(g) = load_bytes(&b, name, &opts) {
                assert!(g.successors().targets.iter().all(|&v| (v as usize) < g.n()));
            }
        }
    }
}
