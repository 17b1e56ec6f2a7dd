//! The headless CLI as a script would use it: exit codes, output files, errors naming file:line.

mod common;

use common::cli::{bin, data, run};
use std::path::Path;
use std::process::{Command, Output};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn solve_writes_one_line_per_vertex_with_file_ids() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("d.txt");
    let o = run(bin()
        .args(["solve", "--source", "1", "--algo", "crauser-pred", "--out"])
        .arg(&out)
        .arg(data("rome99.gr.gz")));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("iterations"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).expect("output written");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3353);
    assert_eq!(lines[0], "1 0", "the source is vertex 1 at distance 0");
    assert!(lines.iter().all(|l| l.split(' ').count() == 2));
}

#[test]
fn every_algorithm_writes_the_same_distances() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut outputs = Vec::new();
    for algo in ["dijkstra", "martin-succ", "martin-pred", "crauser-succ", "crauser-pred", "racy"] {
        let out = dir.path().join(format!("{algo}.txt"));
        let o = run(bin()
            .args(["solve", "-s", "3", "-a", algo, "--weights", "uniform:50:1", "-o"])
            .arg(&out)
            .arg(data("karate.graph")));
        assert!(o.status.success(), "{algo}: {}", stderr(&o));
        outputs.push(std::fs::read_to_string(&out).expect("written"));
    }
    assert!(outputs.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn unreachable_vertices_are_written_as_inf() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("d.txt");
    // wiki-Vote is directed with many vertices that vote for nobody.
    let o = run(bin().args(["solve", "-s", "30", "-o"]).arg(&out).arg(data("wiki-Vote.txt.gz")));
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).expect("written");
    assert!(text.lines().any(|l| l.ends_with(" inf")));
    assert!(text.lines().any(|l| l == "30 0"), "SNAP ids are the file's own");
}

#[test]
fn a_bad_file_exits_non_zero_naming_file_and_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bad = dir.path().join("bad.gr");
    std::fs::write(&bad, "p sp 3 2\na 1 2 5\na 2 9 1\n").expect("write");
    let o = run(bin().args(["solve", "-s", "1"]).arg(&bad));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("bad.gr:3"), "{}", stderr(&o));
}

/// Hamrle1 (real values, negative ones among them) loads; Dijkstra refuses it naming the first
/// negative arc; Bellman-Ford reports the negative cycle its symmetric negative entries make.
/// Both exit non-zero, and both state weights as the file does (real values, with the stored
/// integer beside them).
#[test]
fn negative_weights_load_dijkstra_refuses_and_bellman_ford_names_a_negative_cycle() {
    let o = run(bin().arg("info").arg(data("Hamrle1.mtx")));
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(bin().args(["solve", "-s", "1"]).arg(data("Hamrle1.mtx")));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("negative") && stderr(&o).contains("the arc from"), "{}", stderr(&o));
    assert!(stderr(&o).contains("weight -0.21772 (stored ×10^5: -21772)"), "{}", stderr(&o));
    for device in ["cpu", "cpu-par"] {
        let o = run(bin().args(["solve", "-s", "1", "-a", "bellman-ford", "-d", device]).arg(data("Hamrle1.mtx")));
        assert!(!o.status.success(), "{device}");
        assert!(stderr(&o).contains("negative cycle reachable from the source through vertex"), "{}", stderr(&o));
        assert!(stderr(&o).contains("total weight -0.20393 (stored ×10^5: -20393)"), "{}", stderr(&o));
    }
}

#[test]
fn a_bad_source_or_device_is_an_error() {
    let o = run(bin().args(["solve", "-s", "0"]).arg(data("karate.graph")));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("source 0"), "{}", stderr(&o));
    let o = run(bin().args(["solve", "-s", "1", "--device", "tpu"]).arg(data("karate.graph")));
    assert!(!o.status.success());
    let o = run(bin().args(["solve", "-s", "1", "--algo", "bogus"]).arg(data("karate.graph")));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("crauser-succ"), "lists the algorithms: {}", stderr(&o));
}

#[test]
fn info_prints_counts() {
    let o = run(bin().arg("info").arg(data("4elt.graph.gz")));
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("vertices     15606"), "{text}");
}

#[test]
fn gen_writes_a_graph_that_info_reads_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("g.gr");
    let o = run(bin().args(["gen", "fanout", "--n", "1000", "-d", "20", "--out"]).arg(&out));
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(bin().arg("info").arg(&out));
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("arcs         20000"), "{text}");
    let grid = dir.path().join("grid.gr.gz");
    let o = run(bin().args(["gen", "grid", "--width", "10", "--height", "5", "--out"]).arg(&grid));
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(bin().arg("info").arg(&grid));
    assert!(String::from_utf8_lossy(&o.stdout).contains("coordinates  yes"));
    let o = run(bin().args(["gen", "fanout", "--n", "10", "-d", "10", "--out"]).arg(dir.path().join("x.gr")));
    assert!(!o.status.success(), "d ≥ n is refused");
    // Seed 001 Table 2's ssca1 (28 K arcs in the paper), and a bad probability.
    let ssca = dir.path().join("ssca.gr");
    let o = run(bin().args(["gen", "ssca2", "-C", "5", "-P", "0.25", "--out"]).arg(&ssca));
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(bin().arg("info").arg(&ssca));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("vertices     10000") && text.contains("arcs         28"), "{text}");
    let o = run(bin().args(["gen", "ssca2", "-P", "2", "--out"]).arg(dir.path().join("y.gr")));
    assert!(!o.status.success() && stderr(&o).contains("must be in [0, 1]"), "{}", stderr(&o));
}

#[test]
fn threads_run_the_multi_core_solver_and_refuse_gpus() {
    let g = data("rome99.gr.gz");
    let o = run(bin().args(["solve", "-s", "1", "-a", "crauser-succ", "--threads", "3", "-o", "-"]).arg(&g));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("CPU (3 threads)"), "{}", stderr(&o));
    let o = run(bin().args(["solve", "-s", "1", "--threads", "2", "-d", "cuda", "-o", "-"]).arg(&g));
    assert!(!o.status.success() && stderr(&o).contains("--threads applies to the CPU"), "{}", stderr(&o));
    let o = run(bin().args(["solve", "-s", "1", "--threads", "0", "-o", "-"]).arg(&g));
    assert!(!o.status.success(), "0 threads is refused");
}

#[test]
fn check_passes_on_the_cpu() {
    let o = run(bin().args(["check", "--device", "cpu", "--no-bundled", "--sources", "2"]));
    assert!(o.status.success(), "{}\n{}", String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("check passed"));
}

#[test]
fn trace_lines_name_the_algorithms_declared_values() {
    let o = run(bin().args(["solve", "-s", "1", "-a", "crauser-succ", "--records"]).arg(data("4.gr")));
    assert!(o.status.success(), "{}", stderr(&o));
    let records: Vec<serde_json::Value> =
        stderr(&o).lines().filter(|l| l.starts_with('{')).map(|l| serde_json::from_str(l).expect("json")).collect();
    assert!(!records.is_empty());
    for key in ["iteration", "frontier", "delta", "delta_martin", "delta_crauser", "next_frontier"] {
        assert!(records[0].get(key).is_some(), "{key} missing in {}", records[0]);
    }
    assert_eq!(records.last().and_then(|r| r.get("delta")), Some(&serde_json::Value::from("inf")));
}

#[test]
fn algorithm_parameters_are_validated_and_listed() {
    let o = run(bin().args(["solve", "-s", "1", "-a", "martin-succ:relax=sometimes"]).arg(data("4.gr")));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("atomic, non-atomic"), "{}", stderr(&o));
    let o = run(bin().args(["solve", "--help"]));
    let help = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(help.contains("crauser-pred") && help.contains(":relax=atomic|non-atomic"), "{help}");
}

#[test]
fn solve_trace_writes_a_trace_the_library_reads_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("r.trace.json.gz");
    let o = run(bin().args(["solve", "-s", "1", "-a", "crauser-succ", "--trace"]).arg(&path).arg(data("rome99.gr.gz")));
    assert!(o.status.success() && stderr(&o).contains("trace written to"), "{}", stderr(&o));
    let t = sssp_lab::trace::file::TraceFile::load(&path).expect("trace");
    assert!(t.finished && !t.records.is_empty());
    assert_eq!((t.graph.n, t.source_id, t.algorithm.as_str()), (3353, 1, "crauser-succ"));
    assert!(t.deltas.as_ref().is_some_and(|d| d.len() == t.records.len()));
}

#[test]
fn apsp_writes_one_summary_per_source_and_the_policies_agree() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut checksums = Vec::new();
    for policy in ["equitable", "stealing:4"] {
        let out = dir.path().join(format!("{policy}.tsv"));
        let o = run(bin()
            .args(["apsp", "--sources", "1..40", "--workers", "cpu:2,cpu-par:2", "--policy", policy, "--out"])
            .arg(&out)
            .arg(data("rome99.gr.gz")));
        assert!(o.status.success(), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("makespan") && err.contains("[40/40]"), "{err}");
        let line = err.lines().find(|l| l.contains("checksum")).unwrap_or_default().to_string();
        checksums.push(line.rsplit(' ').next().unwrap_or_default().to_string());
        let text = std::fs::read_to_string(&out).expect("output written");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 41, "a header and one line per source");
        assert!(lines[1].starts_with("1\t3353\t"), "source 1 reaches all of rome99: {}", lines[1]);
    }
    assert_eq!(checksums[0], checksums[1], "same work, same checksum");
    // Distance rows on request: 40 rows of n = 3353 i64 after a 24-byte header, file ids.
    let rows = dir.path().join("rows.bin");
    let o = run(bin()
        .args(["apsp", "--sources", "1..40", "--workers", "cpu:2", "--rows"])
        .arg(&rows)
        .arg(data("rome99.gr.gz")));
    assert!(o.status.success() && stderr(&o).contains("40 distance rows written"), "{}", stderr(&o));
    let png = dir.path().join("timeline.png");
    let o =
        run(bin().args(["apsp", "--sources", "1..8", "--workers", "cpu:2", "--timeline"]).arg(&png).arg(data("4.gr")));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read(&png).is_ok_and(|b| b.starts_with(b"\x89PNG")), "a PNG timeline");
    let r = sssp_lab::manysource::rows::RowReader::open(&rows).expect("rows file");
    let mut ids: Vec<u64> = r.map(|x| x.expect("row").0).collect();
    ids.sort_unstable();
    assert_eq!(ids, (1..=40).collect::<Vec<u64>>());
    let o = run(bin().args(["apsp", "--sources", "1..4", "--rows", "/nonexistent/dir/rows.bin"]).arg(data("4.gr")));
    assert!(!o.status.success() && stderr(&o).contains("/nonexistent/dir/rows.bin: cannot create"), "{}", stderr(&o));
    let o = run(bin().args(["apsp", "--workers", "gpu:0"]).arg(data("4.gr")));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("worker `gpu:0`"), "{}", stderr(&o));
    let o = run(bin().args(["apsp", "--sources", "1..99"]).arg(data("4.gr")));
    assert!(!o.status.success());
    assert!(stderr(&o).contains("is not a vertex"), "{}", stderr(&o));
}

// Issue 32: hostile inputs refused up front, with the right reason.

/// Runs the binary with a fixed memory size, so refusals do not depend on the machine.
fn bin_with_memory(bytes: u64) -> Command {
    let mut c = bin();
    c.env("SSSP_LAB_MEMORY_BYTES", bytes.to_string());
    c
}

#[test]
fn a_missing_file_names_its_os_error_once() {
    let o = run(bin().args(["info", "/nonexistent/graph.gr"]));
    let err = stderr(&o);
    assert!(!o.status.success());
    assert_eq!(err.matches("os error 2").count(), 1, "{err}");
    assert!(err.contains("/nonexistent/graph.gr"), "{err}");
}

#[test]
fn generators_that_would_exhaust_memory_are_refused_with_the_estimate() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("g.gr");
    let cases: [&[&str]; 3] = [
        &["gen", "martin", "--n", "500000000"],
        &["gen", "dense", "--n", "100000"],
        &["gen", "ssca2", "--n", "100000", "--parallel", "1000000000"],
    ];
    for args in cases {
        let o = run(bin_with_memory(16_000_000_000).args(args).arg("--out").arg(&out));
        let err = stderr(&o);
        assert!(!o.status.success(), "{args:?}: {err}");
        assert!(
            err.contains("needs about") && err.contains("GB") && err.contains("16.0 GB available"),
            "{args:?}: {err}"
        );
        assert!(!out.exists(), "{args:?}: nothing written");
    }
    // The real machine's memory when no override is given: still refused, still named.
    let o = run(bin().args(["gen", "martin", "--n", "500000000", "--out"]).arg(&out));
    assert!(!o.status.success() && stderr(&o).contains("/proc/meminfo"), "{}", stderr(&o));
}

/// Writes an experiment file into `dir` and runs `bench` on it; returns the output and the report.
fn bench(dir: &Path, json: &str) -> (Output, String) {
    let exp = dir.join("exp.json");
    std::fs::write(&exp, json).expect("experiment written");
    let out = dir.join("out");
    let o = run(bin_with_memory(16_000_000_000).arg("bench").arg(&exp).arg("--out").arg(&out));
    (o, std::fs::read_to_string(out.join("report.md")).unwrap_or_default())
}

#[test]
fn bench_exits_non_zero_and_lists_the_cells_that_failed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let graphs = format!(
        r#"[{{ "file": "no/such/graph.gr" }}, {{ "file": "{}" }}, {{ "generate": {{ "family": "martin", "n": 500000000, "seed": 1 }} }}, {{ "file": "{}" }}]"#,
        data("Hamrle1.mtx").display(),
        data("4.gr").display()
    );
    let json = format!(
        r#"{{ "name": "failing", "kind": "sweep", "graphs": {graphs}, "algorithms": ["crauser-succ"], "devices": ["cpu"],
            "repetitions": 1, "sources": {{ "random": {{ "count": 1, "seed": 1 }} }} }}"#
    );
    let (o, report) = bench(dir.path(), &json);
    let err = stderr(&o);
    assert!(!o.status.success(), "{err}");
    assert!(err.contains("3 of the experiment's cells failed"), "{err}");
    assert!(
        err.contains("no/such/graph.gr") && err.contains("negative weights") && err.contains("needs about"),
        "{err}"
    );
    assert!(report.contains("## Failed cells (3)"), "{report}");
    // A source that is not a vertex fails its cell too.
    let json = format!(
        r#"{{ "name": "bad-source", "kind": "sweep", "graphs": [{{ "file": "{}" }}], "algorithms": ["dijkstra"],
            "devices": ["cpu"], "repetitions": 1, "sources": {{ "ids": [99] }} }}"#,
        data("4.gr").display()
    );
    let (o, report) = bench(dir.path(), &json);
    assert!(!o.status.success() && stderr(&o).contains("does not exist"), "{}", stderr(&o));
    assert!(report.contains("## Failed cells (1)"), "{report}");
}

#[test]
fn apsp_workers_and_repeat_refuse_what_they_cannot_mean() {
    let o = run(bin().args(["apsp", "--sources", "0:1"]).arg(data("4.gr")));
    assert!(!o.status.success() && stderr(&o).contains("write 0..1"), "{}", stderr(&o));
    let o = run(bin().args(["apsp", "--workers", "cpu-par:0"]).arg(data("4.gr")));
    assert!(!o.status.success() && stderr(&o).contains("T ≥ 1"), "{}", stderr(&o));
    let o = run(bin().args(["solve", "-s", "1", "--repeat", "0"]).arg(data("4.gr")));
    assert!(!o.status.success() && stderr(&o).contains("--repeat"), "{}", stderr(&o));
}

#[test]
fn real_valued_weights_say_their_scale_in_the_distances_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mtx = dir.path().join("real.mtx");
    std::fs::write(&mtx, "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1.5\n").expect("written");
    let out = dir.path().join("d.txt");
    let o = run(bin().args(["solve", "-s", "1", "-o"]).arg(&out).arg(&mtx));
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).expect("written");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("# distances are in units of 10^-1"), "{text}");
    assert_eq!(&lines[1..], ["1 0", "2 15"], "{text}");
    // 1e-12 rounds to 0 at any scale the loader allows: the output says the distances are not the file's.
    std::fs::write(&mtx, "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1e-12\n2 3 1e-12\n")
        .expect("written");
    let o = run(bin().args(["solve", "-s", "1", "-o"]).arg(&out).arg(&mtx));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning: rounding"), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).expect("written");
    assert!(text.lines().any(|l| l.starts_with("# warning: rounding")), "{text}");
    // Integer weights: no header at all.
    let o = run(bin().args(["solve", "-s", "1", "-o"]).arg(&out).arg(data("4.gr")));
    assert!(o.status.success() && !std::fs::read_to_string(&out).unwrap_or_default().starts_with('#'));
}

#[test]
fn tune_on_negative_weights_gives_the_reason() {
    let o = run(bin().args(["tune"]).arg(data("Hamrle1.mtx")));
    let err = stderr(&o);
    assert!(!o.status.success(), "{err}");
    assert!(err.contains("negative weights") && err.contains("bellman-ford"), "{err}");
}

#[test]
fn check_reports_unsupported_cells_as_skipped_with_the_reason() {
    let o = run(bin().args(["check", "--device", "cpu-par", "--no-bundled", "--sources", "1"]));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", stderr(&o));
    assert!(out.contains("SKIPPED not supported:") && !out.contains("ERROR"), "{out}");
    assert!(out.lines().any(|l| l.contains(" cells in ") && l.contains("skipped")), "{out}");
    let o = run(bin().args(["check", "--list", "--device", "cpu"]));
    let list = String::from_utf8_lossy(&o.stdout);
    assert!(list.lines().any(|l| l == "cpu\tdijkstra\texact"), "{list}");
}
