//! Graph file readers and the DIMACS writer against the real files of `tests/data` (copied from
//! the project's shared graph folder, see `tests/data/README.md`), the bundled NY road network
//! in `assets/`, and hand-made broken files in `tests/data/bad/`.

use sssp_lab::formats::*;
use sssp_lab::graph::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn bad(name: &str) -> PathBuf {
    data("bad").join(name)
}

fn load_file(name: &str) -> Graph {
    let path = data(name);
    load(&path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn with_rule(rule: &str) -> LoadOptions {
    LoadOptions { weights: rule.parse().expect("weight rule"), ..Default::default() }
}

/// Every arc as (from, to, weight), sorted.
fn sorted_arcs(g: &Graph) -> Vec<(VertexId, VertexId, Weight)> {
    let csr = g.successors();
    let mut arcs: Vec<_> = (0..g.n() as VertexId).flat_map(|u| csr.arcs(u).map(move |(v, w)| (u, v, w))).collect();
    arcs.sort_unstable();
    arcs
}

fn weights(g: &Graph) -> Vec<Weight> {
    g.successors().weights.clone()
}

#[test]
fn every_good_file_loads_with_the_readme_counts() {
    // (file, n, arcs stored): undirected METIS edges and symmetric off-diagonal entries count twice.
    let cases: &[(&str, usize, usize)] = &[
        ("4.gr", 14, 256),
        ("4.el", 14, 256),
        ("4.wel", 14, 256),
        ("4.mtx", 14, 256),
        ("4w.mtx", 14, 256),
        ("rome99.gr.gz", 3353, 8870),
        ("luxembourg.osm.graph.gz", 114_599, 2 * 119_666),
        ("add20.graph.gz", 2395, 2 * 7462),
        ("data.graph.gz", 2851, 2 * 15_093),
        ("3elt.graph.gz", 4720, 2 * 13_722),
        ("uk.graph.gz", 4824, 2 * 6837),
        ("4elt.graph.gz", 15_606, 2 * 45_878),
        ("karate.graph", 34, 2 * 78),
        ("jazz.graph", 198, 2 * 2742),
        ("power.graph.gz", 4941, 2 * 6594),
        ("lesmis.graph", 77, 2 * 254),
        ("chesapeake.mtx", 39, 2 * 170),
        ("ca-GrQc.txt.gz", 5242, 28_980),
        ("facebook_combined.txt.gz", 4039, 88_234),
        ("wiki-Vote.txt.gz", 7115, 103_689),
    ];
    for &(name, n, m) in cases {
        let g = load_file(name);
        assert_eq!((g.n(), g.m()), (n, m), "{name}: (n, m)");
        assert_eq!(g.name, name, "graph name is the file name");
    }
}

#[test]
fn metis_headers_count_each_undirected_edge_twice() {
    for (name, header_m) in [("3elt.graph.gz", 13_722), ("4elt.graph.gz", 45_878), ("uk.graph.gz", 6837)] {
        let g = load_file(name);
        assert_eq!(g.m(), 2 * header_m, "{name}");
        // Every arc u → v has its reverse v → u.
        let arcs: Vec<_> = sorted_arcs(&g).into_iter().map(|(u, v, _)| (u, v)).collect();
        let mut reversed: Vec<_> = arcs.iter().map(|&(u, v)| (v, u)).collect();
        reversed.sort_unstable();
        assert_eq!(arcs, reversed, "{name}: undirected");
    }
}

#[test]
fn bundled_ny_road_network_loads_with_coordinates() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/USA-road-d.NY.gr.gz");
    let start = Instant::now();
    let g = load(&path, &LoadOptions::default()).expect("NY");
    let elapsed = start.elapsed();
    println!("USA-road-d.NY (gr + co, gzip): loaded in {:.3} s", elapsed.as_secs_f64());
    assert_eq!(g.n(), 264_346);
    assert_eq!(g.m(), 733_846);
    assert_eq!(g.name, "USA-road-d.NY.gr.gz");
    assert_eq!(g.weight_origin, "from file");
    let coords = g.coords().expect("NY has coordinates");
    assert_eq!(coords.len(), g.n());
    // v 1 -73530767 41085396 (longitude, latitude × 10⁶).
    assert!((coords[0][0] - -73_530_767.0).abs() <= 8.0 && (coords[0][1] - 41_085_396.0).abs() <= 4.0);
    let stats = g.stats();
    assert_eq!((stats.min_weight, stats.max_weight), (1, 36_946));
    assert_eq!(g.labels(), &VertexLabels::Offset(1));
}

#[test]
fn luxembourg_has_coordinates_from_its_xyz_sibling() {
    let g = load_file("luxembourg.osm.graph.gz");
    let coords = g.coords().expect("luxembourg has coordinates");
    assert_eq!(coords.len(), 114_599);
    assert_eq!(coords[0], [604_893.0, 5_063_036.0]);
    assert!(load_file("rome99.gr.gz").coords().is_none(), "no .co sibling, no coordinates");
}

#[test]
fn unweighted_files_say_so_and_weighted_files_keep_their_weights() {
    assert_eq!(load_file("karate.graph").weight_origin, "unit (file has no weights)");
    assert!(weights(&load_file("karate.graph")).iter().all(|&w| w == 1));
    let lesmis = load_file("lesmis.graph");
    assert_eq!(lesmis.weight_origin, "from file");
    let s = lesmis.stats();
    assert_eq!((s.min_weight, s.max_weight), (1, 31));
}

#[test]
fn gap_scale_4_files_agree_with_each_other() {
    let gr = load_file("4.gr");
    let wel = load_file("4.wel");
    let w_mtx = load_file("4w.mtx");
    let el = load_file("4.el");
    let mtx = load_file("4.mtx");
    for g in [&gr, &wel, &w_mtx, &el, &mtx] {
        assert_eq!((g.n(), g.m()), (14, 256), "{}", g.name);
        assert_eq!(g.stats().self_loops, 36, "{}", g.name);
    }
    // The three weighted files hold the same weighted arcs (in different orders).
    assert_eq!(sorted_arcs(&gr), sorted_arcs(&wel));
    assert_eq!(sorted_arcs(&gr), sorted_arcs(&w_mtx));
    let mut multiset = weights(&gr);
    multiset.sort_unstable();
    let mut other = weights(&w_mtx);
    other.sort_unstable();
    assert_eq!(multiset, other);
    // The unweighted ones hold the same arcs with weight 1.
    let unit: Vec<_> = sorted_arcs(&gr).into_iter().map(|(u, v, _)| (u, v, 1)).collect();
    assert_eq!(sorted_arcs(&el), unit);
    assert_eq!(sorted_arcs(&mtx), unit);
    // 4.el is 0-based and used as is (id 0..=13, one id unused); 4.gr is 1-based.
    assert_eq!(el.labels(), &VertexLabels::Offset(0));
    assert_eq!(gr.labels(), &VertexLabels::Offset(1));
}

#[test]
fn snap_ids_are_remapped_when_sparse_and_kept_when_dense() {
    let wiki = load_file("wiki-Vote.txt.gz");
    let VertexLabels::Explicit(ids) = wiki.labels() else { panic!("wiki-Vote ids should be remapped") };
    assert_eq!(ids.len(), 7115);
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "labels sorted");
    assert_eq!(wiki.labels().index(ids[100], wiki.n()), Some(100));
    let grqc = load_file("ca-GrQc.txt.gz");
    assert!(matches!(grqc.labels(), VertexLabels::Explicit(_)));
    let fb = load_file("facebook_combined.txt.gz");
    assert_eq!(fb.labels(), &VertexLabels::Offset(0));
}

#[test]
fn negative_weights_load_and_name_their_first_arc() {
    for (name, first) in [
        ("negative_weight.graph", (1, 2, -2)),
        ("negative.mtx", (1, 2, -4)),
        ("negative.wel", (1, 2, -5)),
        ("negative_weight.gr", (1, 2, -3)),
    ] {
        let g = load(&data(&format!("weights/{name}")), &LoadOptions::default()).expect(name);
        assert_eq!(g.first_negative_arc(), Some(first), "{name}");
        assert!(g.negative_bound() < 0, "{name}");
        assert_eq!(g.weight_scale, None, "{name}: integers stay as they are");
    }
    let g = load(&data("4.gr"), &LoadOptions::default()).expect("4.gr");
    assert_eq!((g.first_negative_arc(), g.negative_bound()), (None, 0));
    // Hamrle1: real values, negative ones among them, and the weight rules still replace them.
    let g = load(&data("Hamrle1.mtx"), &LoadOptions::default()).expect("Hamrle1 loads");
    assert_eq!((g.n(), g.m()), (32, 98));
    assert!(g.first_negative_arc().is_some());
    let scale = g.weight_scale.expect("real values are scaled");
    // |values| ≤ 156.79, not exact at any scale: 10⁵ is the largest power of ten with |w| ≤ 2²⁴.
    assert_eq!((scale.decimals, scale.chosen), (5, false));
    // The smallest values (~10⁻⁵) keep about two digits: the error the facts panel shows.
    assert!(scale.max_rel_error > 0.0 && scale.max_rel_error < 0.05, "{scale:?}");
    assert!(g.weight_origin.contains("×10^5"), "{}", g.weight_origin);
    let g = load(&data("Hamrle1.mtx"), &with_rule("unit")).expect("unit weights ignore the values");
    assert_eq!(g.weight_origin, "unit");
    assert_eq!(g.first_negative_arc(), None);
    let g = load(&data("Hamrle1.mtx"), &with_rule("uniform:9:1")).expect("uniform weights ignore the values");
    assert!(weights(&g).iter().all(|&w| (1..=9).contains(&w)));
}

#[test]
fn real_weights_are_scaled_exactly_when_they_can_be_and_as_the_user_asks() {
    // 2.5 and 1: exact at one decimal.
    for name in ["fractional.mtx", "real_weight.wel", "real_weight.gr"] {
        let g = load(&data(&format!("weights/{name}")), &LoadOptions::default()).expect(name);
        let scale = g.weight_scale.expect("scaled");
        assert_eq!((scale.decimals, scale.max_rel_error), (1, 0.0), "{name}");
        let mut w = weights(&g);
        w.sort();
        assert_eq!(w, if name.ends_with("wel") { vec![25, 50] } else { vec![10, 25] }, "{name}");
    }
    let opts = LoadOptions { weight_decimals: Some(0), ..Default::default() };
    let g = load(&data("weights/fractional.mtx"), &opts).expect("rounded to integers");
    let scale = g.weight_scale.expect("scaled");
    assert!(scale.chosen && scale.decimals == 0 && scale.max_rel_error > 0.0);
    // The user's scale applies to integer files too, and refuses what overflows.
    let opts = LoadOptions { weight_decimals: Some(2), ..Default::default() };
    let g = load(&data("4.gr"), &opts).expect("scaled integers");
    let plain = load(&data("4.gr"), &LoadOptions::default()).expect("4.gr");
    assert_eq!(weights(&g), weights(&plain).iter().map(|w| w * 100).collect::<Vec<_>>());
    let opts = LoadOptions { weight_decimals: Some(9), ..Default::default() };
    let err = load(&data("4.gr"), &opts).expect_err("weights ×10⁹ overflow");
    assert!(err.to_string().contains("choose fewer decimals"), "{err}");
}

#[test]
fn weight_rules_are_reproducible_and_in_range() {
    let unit = load(&data("4.gr"), &with_rule("unit")).expect("unit");
    assert!(weights(&unit).iter().all(|&w| w == 1));
    assert_eq!(unit.weight_origin, "unit");
    for name in ["4.gr", "karate.graph", "4.el", "chesapeake.mtx", "ca-GrQc.txt.gz"] {
        let a = load(&data(name), &with_rule("uniform:100:7")).expect("uniform");
        let b = load(&data(name), &with_rule("uniform:100:7")).expect("uniform");
        assert_eq!(weights(&a), weights(&b), "{name}: same seed, same weights");
        assert!(weights(&a).iter().all(|&w| (1..=100).contains(&w)), "{name}: in 1..=100");
        assert_eq!(a.weight_origin, "uniform:100:7");
        let c = load(&data(name), &with_rule("uniform:100:8")).expect("uniform");
        assert_ne!(weights(&a), weights(&c), "{name}: another seed, other weights");
    }
    // Both arcs of an undirected edge get the same weight.
    let g = load(&data("karate.graph"), &with_rule("uniform:100:7")).expect("uniform");
    let arcs = sorted_arcs(&g);
    for &(u, v, w) in &arcs {
        assert!(arcs.binary_search(&(v, u, w)).is_ok(), "reverse of {u}→{v} has weight {w}");
    }
}

/// Bad files: (file, expected variant, substrings of the message).
#[test]
fn every_bad_file_is_refused_with_its_location() {
    #[derive(Debug, PartialEq)]
    enum Kind {
        Parse,
        Invalid,
        ParseOrIo,
    }
    use Kind::*;
    let cases: &[(&str, Kind, &[&str])] = &[
        ("truncated.gr", Parse, &["truncated.gr:4:", "announces 3 arcs, the file has 2"]),
        ("wrong_header.gr", Parse, &["wrong_header.gr:2:", "expected `p sp N M`, found `p max 3 2`"]),
        ("arc_before_p.gr", Parse, &["arc_before_p.gr:2:", "before the `p sp N M` line"]),
        ("id_out_of_range.gr", Parse, &["id_out_of_range.gr:4:", "id 17 out of range 1..=14"]),
        ("bad_token.gr", Parse, &["bad_token.gr:7:", "expected `a U V W`, found `a 1 x 3`"]),
        ("nan_weight.gr", Parse, &["nan_weight.gr:3:", "not a finite number"]),
        ("huge_weight.gr", Parse, &["huge_weight.gr:3:", "4294967296", "beyond the supported range"]),
        ("empty.gr", Invalid, &["empty.gr:", "empty file"]),
        ("no_header.gr", Parse, &["no_header.gr:2:", "without a `p sp N M` line"]),
        ("zero_vertices.gr", Parse, &["zero_vertices.gr:1:", "no vertices"]),
        ("two_headers.gr", Parse, &["two_headers.gr:2:", "second `p` line"]),
        ("unknown_line.gr", Parse, &["unknown_line.gr:2:", "found `x 1 2 1`"]),
        ("bad_co.gr", Parse, &["bad_co.co:4:", "expected `v ID X Y`, found `v 2 oops 21`"]),
        ("short_co.gr", Parse, &["short_co.co:3:", "coordinates for 2 of the 3 vertices"]),
        ("truncated.gr.gz", ParseOrIo, &["truncated.gr.gz"]),
        ("corrupt.gr.gz", ParseOrIo, &["corrupt.gr.gz"]),
        ("not_gzip.gr.gz", Parse, &["not_gzip.gr.gz:1:", "gzip"]),
        ("too_few_lines.graph", Parse, &["too_few_lines.graph:5:", "4 vertices", "lines for 3"]),
        ("edge_count.graph", Parse, &["edge_count.graph:4:", "announces 2 edges", "lists 6"]),
        ("id_out_of_range.graph", Parse, &["id_out_of_range.graph:3:", "id 7 out of range 1..=3"]),
        ("odd_pairs.graph", Parse, &["odd_pairs.graph:3:", "pairs"]),
        ("bad_fmt.graph", Parse, &["bad_fmt.graph:1:", "FMT `2`"]),
        ("too_many_lines.graph", Parse, &["too_many_lines.graph:5:", "another adjacency line"]),
        ("bad_xyz.graph", Parse, &["bad_xyz.xyz:2:", "coordinates for 2 of the 3 vertices"]),
        ("empty.graph", Invalid, &["empty.graph:", "empty file"]),
        ("array.mtx", Parse, &["array.mtx:1:", "`array`"]),
        ("complex.mtx", Parse, &["complex.mtx:1:", "`complex`"]),
        ("skew.mtx", Parse, &["skew.mtx:1:", "`skew-symmetric`"]),
        ("hermitian.mtx", Parse, &["hermitian.mtx:1:", "`hermitian`"]),
        ("no_banner.mtx", Parse, &["no_banner.mtx:1:", "expected the banner", "found `3 3 2`"]),
        ("nan.mtx", Parse, &["nan.mtx:4:", "NaN", "not a finite number", "--weights unit"]),
        ("count.mtx", Parse, &["count.mtx:4:", "announces 3 entries, the file has 2"]),
        ("too_many.mtx", Parse, &["too_many.mtx:4:", "announces 1 entries"]),
        ("out_of_range.mtx", Parse, &["out_of_range.mtx:4:", "id 4 out of range 1..=3"]),
        ("missing_value.mtx", Parse, &["missing_value.mtx:4:", "expected an entry `I J V`, found `2 3`"]),
        ("no_size.mtx", Parse, &["no_size.mtx:2:", "size line"]),
        ("empty.mtx", Invalid, &["empty.mtx:", "empty file"]),
        ("bad_token.el", Parse, &["bad_token.el:3:", "expected `U V`", "found `0 x`"]),
        ("one_column.el", Parse, &["one_column.el:2:", "found `2`"]),
        ("negative_id.el", Parse, &["negative_id.el:1:", "found `0 -1`"]),
        ("comments_only.el", Invalid, &["comments_only.el:", "no edges"]),
        ("empty.el", Invalid, &["empty.el:", "empty file"]),
        ("nan.wel", Parse, &["nan.wel:2:", "not a finite number"]),
        ("two_columns.wel", Parse, &["two_columns.wel:2:", "expected `U V W`"]),
        ("four_columns.wel", Parse, &["four_columns.wel:1:", "expected `U V W`"]),
        ("huge.wel", Parse, &["huge.wel:1:", "beyond the supported range"]),
        ("unknown_format.dat", Invalid, &["unknown_format.dat:", "cannot tell the format"]),
    ];
    for (name, kind, needles) in cases {
        let err = match load(&bad(name), &LoadOptions::default()) {
            Ok(g) => panic!("{name}: loaded ({} vertices), expected an error", g.n()),
            Err(e) => e,
        };
        let msg = err.to_string();
        let ok_kind = match kind {
            Parse => matches!(err, LoadError::Parse { .. }),
            Invalid => matches!(err, LoadError::Invalid { .. }),
            ParseOrIo => matches!(err, LoadError::Parse { .. } | LoadError::Io { .. }),
        };
        assert!(ok_kind, "{name}: expected {kind:?}, got {err:?}");
        for needle in *needles {
            assert!(msg.contains(needle), "{name}: `{msg}` should contain `{needle}`");
        }
        println!("{msg}");
    }
}

#[test]
fn a_missing_file_is_an_io_error_naming_it() {
    let err = load(&data("no-such-file.gr"), &LoadOptions::default()).expect_err("missing");
    assert!(matches!(err, LoadError::Io { .. }), "{err:?}");
    assert!(err.to_string().contains("no-such-file.gr"));
}

#[test]
fn weight_rules_skip_the_validation_of_file_values() {
    for name in ["weights/negative.mtx", "weights/fractional.mtx", "bad/nan.mtx", "weights/negative_weight.gr"] {
        let g = load(&data(name), &with_rule("unit")).unwrap_or_else(|e| panic!("{name} with unit weights: {e}"));
        assert!(weights(&g).iter().all(|&w| w == 1), "{name}");
    }
}

#[test]
fn an_explicit_format_overrides_the_extension() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("graph.dat");
    std::fs::copy(data("4.wel"), &path).expect("copy");
    let opts = LoadOptions { format: Some(Format::WeightedEdgeList), ..Default::default() };
    let g = load(&path, &opts).expect("forced wel");
    assert_eq!(sorted_arcs(&g), sorted_arcs(&load_file("4.gr")));
}

#[test]
fn formats_are_named_by_extension_id_and_alias() {
    let cases = [
        ("x.gr", Some(Format::Dimacs)),
        ("dir/USA-road-d.NY.gr.gz", Some(Format::Dimacs)),
        ("a.GRAPH", Some(Format::Metis)),
        ("luxembourg.osm.graph.gz", Some(Format::Metis)),
        ("m.mtx.gz", Some(Format::MatrixMarket)),
        ("g.el", Some(Format::EdgeList)),
        ("wiki-Vote.txt.gz", Some(Format::EdgeList)),
        ("g.wel", Some(Format::WeightedEdgeList)),
        ("g.gz", None),
        ("g", None),
        ("g.csv", None),
    ];
    for (path, format) in cases {
        assert_eq!(Format::from_path(Path::new(path)), format, "{path}");
    }
    for f in Format::ALL {
        assert_eq!(f.id().parse::<Format>(), Ok(f));
        assert_eq!(f.to_string(), f.id());
        let json = serde_json::to_string(&f).expect("serialize");
        assert_eq!(serde_json::from_str::<Format>(&json).expect("deserialize"), f);
    }
    for (alias, f) in [
        ("gr", Format::Dimacs),
        ("graph", Format::Metis),
        ("snap", Format::EdgeList),
        ("txt", Format::EdgeList),
        ("matrixmarket", Format::MatrixMarket),
        ("MTX", Format::MatrixMarket),
    ] {
        assert_eq!(alias.parse::<Format>(), Ok(f), "{alias}");
    }
    let err = "csv".parse::<Format>().expect_err("unknown");
    for name in ["dimacs", "metis", "mtx", "el", "wel"] {
        assert!(err.contains(name), "{err}");
    }
}

#[test]
fn progress_rises_to_one_and_false_cancels() {
    let path = data("wiki-Vote.txt.gz");
    let mut seen = Vec::new();
    load_with_progress(&path, &LoadOptions::default(), &mut |f| {
        seen.push(f);
        true
    })
    .expect("loads");
    assert!(seen.len() >= 4, "about one report per 64 KiB of 284 KiB: {seen:?}");
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "monotone: {seen:?}");
    assert!(seen.iter().all(|f| (0.0..=1.0).contains(f)));
    assert_eq!(seen.last(), Some(&1.0));

    let mut calls = 0;
    let err = load_with_progress(&path, &LoadOptions::default(), &mut |_| {
        calls += 1;
        calls < 2
    })
    .expect_err("cancelled");
    assert!(matches!(err, LoadError::Cancelled), "{err:?}");
    assert_eq!(calls, 2, "stops at the first false");
}

#[test]
fn write_dimacs_round_trips() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, out) in [
        ("4.gr", "4.gr"),
        ("lesmis.graph", "lesmis.gr.gz"),
        ("chesapeake.mtx", "chesapeake.gr"),
        ("ca-GrQc.txt.gz", "ca.gr.gz"),
        ("luxembourg.osm.graph.gz", "luxembourg.gr.gz"),
    ] {
        let original = load_file(name);
        let path = dir.path().join(out);
        write_dimacs(&original, &path).expect("write");
        let back = load(&path, &LoadOptions::default()).unwrap_or_else(|e| panic!("{out}: {e}"));
        assert_eq!(back.n(), original.n(), "{name}");
        let (a, b) = (original.successors(), back.successors());
        assert_eq!(a.offsets, b.offsets, "{name}: offsets");
        assert_eq!(a.targets, b.targets, "{name}: targets");
        assert_eq!(a.weights, b.weights, "{name}: weights");
        assert_eq!(original.coords(), back.coords(), "{name}: coordinates");
    }
    assert!(dir.path().join("luxembourg.co.gz").is_file(), "coordinates go to the .co sibling");
    assert!(!dir.path().join("4.co").exists(), "no coordinates, no .co");
    let text = std::fs::read_to_string(dir.path().join("4.gr")).expect("read");
    assert!(text.starts_with("c 4.gr (written by sssp-lab)\nc weights: from file\np sp 14 256\na 1 "), "{text}");
}

#[test]
fn write_dimacs_keeps_ny_coordinates_exactly() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/USA-road-d.NY.gr.gz");
    let ny = load(&path, &LoadOptions::default()).expect("NY");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("ny.gr");
    write_dimacs(&ny, &out).expect("write");
    let back = load(&out, &LoadOptions::default()).expect("reload");
    assert_eq!(ny.successors().targets, back.successors().targets);
    assert_eq!(ny.successors().weights, back.successors().weights);
    assert_eq!(ny.coords(), back.coords());
}

// Issue 32 item 6, reader side: hostile input refused up front with the right reason, lenient
// reads named or warned.

fn from_bytes(text: &str, name: &str, format: Option<Format>) -> Result<Graph, String> {
    load_bytes(text.as_bytes(), name, &LoadOptions { format, ..Default::default() }).map_err(|e| e.to_string())
}

#[test]
fn an_endless_line_is_an_error_not_an_ever_growing_buffer() {
    for name in ["zero.gr", "zero.graph", "zero.mtx", "zero.el", "zero.wel"] {
        let e = load_reader(std::io::repeat(b'7'), 0, name, &LoadOptions::default()).map(|_| ()).unwrap_err();
        let e = e.to_string();
        assert!(e.contains(&format!("{name}:1:")) && e.contains("without a line break"), "{e}");
    }
}

#[test]
fn a_headerless_dimacs_arc_list_is_named_in_the_refusal_and_read_by_its_format() {
    let text = "c OSM export\na 0 1 5\na 1 2 3\na 2 0 1\n";
    let e = from_bytes(text, "osm.gr", None).unwrap_err();
    assert!(e.contains("osm.gr:2:") && e.contains("--format dimacs-arcs"), "{e}");
    let g = from_bytes(text, "osm.gr", Some("dimacs-arcs".parse().expect("format name"))).expect("dimacs-arcs");
    assert_eq!((g.n(), g.m()), (3, 3));
    assert_eq!(sorted_arcs(&g), vec![(0, 1, 5), (1, 2, 3), (2, 0, 1)]);
    assert_eq!(g.labels().label(0), 0, "0-based ids kept");
    let e = from_bytes("p sp 2 1\na 1 2 3\n", "x.txt", Some(Format::DimacsArcs)).unwrap_err();
    assert!(e.contains("--format dimacs"), "a file with a `p` line is pointed back to dimacs: {e}");
}

#[test]
fn a_snap_file_that_starts_with_a_bare_vertex_count_is_named_in_the_refusal_and_read_by_its_format() {
    let text = "5\n0 1\n1 2\n";
    let e = from_bytes(text, "count.txt", None).unwrap_err();
    assert!(e.contains("count.txt:1:") && e.contains("--format el-count"), "{e}");
    let g = from_bytes(text, "count.txt", Some("el-count".parse().expect("format name"))).expect("el-count");
    assert_eq!((g.n(), g.m()), (5, 2), "n is the count, not the largest id + 1");
    let e = from_bytes("2\n0 5\n", "c.txt", Some(Format::CountedEdgeList)).unwrap_err();
    assert!(e.contains("c.txt:2:") && e.contains("out of range 0..2"), "{e}");
}

#[test]
fn a_rectangular_matrix_extra_columns_and_64_bit_ids_load_with_a_warning() {
    let g = from_bytes("%%MatrixMarket matrix coordinate pattern general\n2 5 2\n1 5\n2 4\n", "r.mtx", None)
        .expect("rectangular matrix");
    assert_eq!(g.n(), 5);
    assert!(
        g.warnings.iter().any(|w| w.starts_with("r.mtx:2:") && w.contains("2 × 5, not square")),
        "{:?}",
        g.warnings
    );

    let g = from_bytes("0 1 -1 1234\n1 2\n2 0 1 99\n", "signed.el", None).expect("extra columns");
    assert_eq!(g.m(), 3);
    assert!(g.warnings.iter().any(|w| w.starts_with("signed.el:1:") && w.contains("2 line(s)")), "{:?}", g.warnings);

    let g = from_bytes("0 18446744073709551615\n18446744073709551615 1\n", "wide.el", None).expect("2^64 - 1 id");
    assert_eq!(g.n(), 3);
    assert!(g.warnings.iter().any(|w| w.contains("18446744073709551615") && w.contains("2⁶⁴ − 1")), "{:?}", g.warnings);

    assert!(from_bytes("0 1\n1 2\n", "plain.el", None).expect("plain").warnings.is_empty());
}

#[test]
fn headers_announcing_absurd_graphs_are_refused_with_the_estimate_before_allocating() {
    let cases = [
        ("huge.gr", "p sp 1000 1099511627776\na 1 2 1\n"),
        ("huge.graph", "1000 1099511627776\n2\n1\n"),
        ("huge.mtx", "%%MatrixMarket matrix coordinate pattern general\n1000 1000 1099511627776\n1 2\n"),
    ];
    for (name, text) in cases {
        let e = from_bytes(text, name, None).unwrap_err();
        assert!(e.contains("refused before allocating") && e.contains(" GB of memory"), "{name}: {e}");
    }
    let est = graph_bytes_estimate(1000, 1 << 40);
    assert!(est > 1 << 44, "{est}");
}

#[test]
fn the_explicit_formats_parse_by_name_and_no_extension_means_them() {
    for (s, f) in
        [("dimacs-arcs", Format::DimacsArcs), ("arcs", Format::DimacsArcs), ("el-count", Format::CountedEdgeList)]
    {
        assert_eq!(s.parse::<Format>(), Ok(f));
        assert_eq!(f.id().parse::<Format>(), Ok(f));
        assert!(f.extensions().is_empty());
    }
    assert!(Format::EVERY.iter().all(|f| f.id().parse::<Format>() == Ok(*f)));
    let e = "nope".parse::<Format>().unwrap_err();
    assert!(e.contains("dimacs-arcs") && e.contains("el-count"), "{e}");
}

#[test]
fn a_gzip_bomb_is_refused_past_its_first_megabytes() {
    use std::io::Write;
    // 64 MiB of `0 1` lines compress ~1000×: a 1 MB file of this kind would be 52 M arcs.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let chunk = b"0 1\n".repeat(1 << 18);
    for _ in 0..64 {
        gz.write_all(&chunk).expect("compress");
    }
    let bomb = gz.finish().expect("compress");
    let e = load_bytes(&bomb, "bomb.el.gz", &LoadOptions::default()).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("bomb.el.gz:") && e.contains(&format!("inflates more than {MAX_GZIP_RATIO}×")), "{e}");
    // Real files inflate 3-4×: NY (14 MB of text) loads, tested above.
}
