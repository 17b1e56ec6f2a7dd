//! `sssp-lab apsp --mpi` under `mpirun` on this machine (issue 13 item 6, docs/mpi.md): four
//! ranks give the one-process run's checksum and every source exactly once; a coordinator-only
//! rank 0 runs nothing itself; a rank that cannot load the graph, or loads another one, stops
//! the run with a message naming it instead of hanging; a rank whose workers all fail hands its
//! tasks back and the run completes. Needs the `mpi` feature and Open MPI's
//! `mpirun` (scripts/test installs it); without `mpirun` the tests are skipped, printing why,
//! unless `SSSP_LAB_REQUIRE_MPI` is set.
#![cfg(feature = "mpi")]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_sssp-lab");

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// Whether `mpirun` is there; when it is not, says so (or fails under `SSSP_LAB_REQUIRE_MPI`).
fn have_mpirun() -> bool {
    let ok = Command::new("mpirun").arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("SSSP_LAB_REQUIRE_MPI").is_none(),
            "SSSP_LAB_REQUIRE_MPI is set but mpirun does not run (install openmpi-bin)"
        );
        eprintln!("mpirun not found: skipping the MPI test (scripts/test installs openmpi-bin)");
    }
    ok
}

/// `mpirun` with `app` (the program and its arguments; MPMD parts split by `:`), as root and
/// with more ranks than cores allowed, under a time limit so that a hang fails the test.
fn mpirun(app: &[&str]) -> Output {
    Command::new("timeout")
        .args(["300", "mpirun", "--allow-run-as-root", "--oversubscribe"])
        // Containers often forbid the cross-process copy Open MPI's shared memory uses.
        .args(["--mca", "btl_vader_single_copy_mechanism", "none"])
        .args(app)
        .output()
        .unwrap_or_else(|e| panic!("mpirun: {e}"))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn checksum(o: &Output) -> String {
    let err = stderr(o);
    let line = err.lines().find(|l| l.contains("checksum")).unwrap_or_else(|| panic!("no checksum line: {err}"));
    line.rsplit(' ').next().unwrap_or_default().to_string()
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// (source, checksum) of every task, sorted.
fn tasks(run: &Value) -> Vec<(u64, u64)> {
    let mut t: Vec<(u64, u64)> = run["tasks"]
        .as_array()
        .unwrap_or_else(|| panic!("no tasks: {run}"))
        .iter()
        .map(|t| (t["source"].as_u64().unwrap_or(u64::MAX), t["checksum"].as_u64().unwrap_or(0)))
        .collect();
    t.sort_unstable();
    t
}

/// The one-process run of `sources` on rome99: its checksum line and tasks.
fn single(dir: &Path, sources: &str) -> (String, Vec<(u64, u64)>) {
    let path = dir.join("single.json");
    let o = Command::new(BIN)
        .args(["apsp", "--sources", sources, "--workers", "cpu:1", "--json"])
        .arg(&path)
        .arg(data("rome99.gr.gz"))
        .output()
        .unwrap_or_else(|e| panic!("{BIN}: {e}"));
    assert!(o.status.success(), "{}", stderr(&o));
    (checksum(&o), tasks(&json(&path)))
}

/// What a run test starts from: the one-process run of `sources` on rome99 (its checksum
/// line and tasks), where the MPI run writes its JSON, and rome99's path; `None` (the test
/// is skipped) without `mpirun`.
struct Setup {
    /// Holds the JSON files until the test ends: bind it (`_dir`), never `..`.
    _dir: tempfile::TempDir,
    want: String,
    want_tasks: Vec<(u64, u64)>,
    json: PathBuf,
    graph: String,
}

fn setup(sources: &str) -> Option<Setup> {
    if !have_mpirun() {
        return None;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let (want, want_tasks) = single(dir.path(), sources);
    let json = dir.path().join("mpi.json");
    let graph = data("rome99.gr.gz").to_string_lossy().into_owned();
    Some(Setup { _dir: dir, want, want_tasks, json, graph })
}

/// The run's worker labels (`r<rank>/<label>`), in order.
fn labels(run: &Value) -> Vec<&str> {
    run["workers"].as_array().into_iter().flatten().filter_map(|w| w["label"].as_str()).collect()
}

#[test]
fn four_ranks_give_the_single_process_checksum_and_every_source_once() {
    let Some(Setup { _dir, want, want_tasks, json: path, graph }) = setup("64:1") else { return };
    assert_eq!(want_tasks.len(), 64);
    let args =
        ["-np", "4", BIN, "apsp", &graph, "--sources", "64:1", "--workers", "cpu:1", "--mpi", "--mpi-chunk", "3"];
    let o = mpirun(&[&args[..], &["--json", &path.to_string_lossy()]].concat());
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert_eq!(checksum(&o), want, "{err}");
    assert!(err.contains("[64/64]") && err.contains("mpi: 4 ranks"), "{err}");
    let run = json(&path);
    assert_eq!(tasks(&run), want_tasks, "every source once, each with the one-process summary");
    assert_eq!(labels(&run), ["r0/cpu#0", "r1/cpu#0", "r2/cpu#0", "r3/cpu#0"]);
    let mpi = &run["mpi"];
    assert_eq!(mpi["ranks"], 4);
    let remote = mpi["traffic"]["remote_tasks"].as_u64().unwrap_or(0);
    assert_eq!(mpi["traffic"]["record_bytes"].as_u64(), Some(56 * remote), "one 56-byte record per remote task");
}

#[test]
fn a_coordinator_only_rank_0_leaves_every_task_to_the_others() {
    let Some(Setup { _dir, want, want_tasks, json: path, graph }) = setup("1..40") else { return };
    let json_path = path.to_string_lossy();
    let o = mpirun(&[
        "-np",
        "3",
        BIN,
        "apsp",
        &graph,
        "--sources",
        "1..40",
        "--workers",
        "cpu:1",
        "--policy",
        "equitable",
        "--mpi",
        "--mpi-coordinator-only",
        "--json",
        &json_path,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(checksum(&o), want);
    let run = json(&path);
    assert_eq!(tasks(&run), want_tasks);
    assert_eq!(labels(&run), ["r1/cpu#0", "r2/cpu#0"], "rank 0 runs no worker");
    assert_eq!(run["mpi"]["traffic"]["remote_tasks"], 40);
}

#[test]
fn a_rank_without_the_graph_stops_the_run_with_its_reason() {
    if !have_mpirun() {
        return;
    }
    let (good, other) = (data("rome99.gr.gz"), data("4.gr"));
    let (good, other) = (good.to_string_lossy(), other.to_string_lossy());
    let missing = "/nonexistent/graph.gr";
    // MPMD: rank 0 and rank 1 get different files.
    for (file, says) in [(missing, "rank 1"), (&*other, "loaded another graph")] {
        let o = mpirun(&["-np", "1", BIN, "apsp", &good, "--mpi", ":", "-np", "1", BIN, "apsp", file, "--mpi"]);
        let err = stderr(&o);
        assert_ne!(o.status.code(), Some(124), "the run hung: {err}");
        assert!(!o.status.success(), "{err}");
        assert!(err.contains(says), "{says}: {err}");
        if file == missing {
            assert!(err.contains(missing), "{err}");
        }
    }
}

#[test]
fn a_rank_whose_workers_all_fail_gives_its_tasks_back_and_the_run_completes() {
    let Some(Setup { _dir, want, want_tasks, json: path, graph }) = setup("1..40") else { return };
    let json_path = path.to_string_lossy();
    // Rank 1's only worker is a wgpu adapter that does not exist: it fails on its first task.
    let rank0 =
        ["-np", "1", BIN, "apsp", &graph, "--sources", "1..40", "--workers", "cpu:1", "--mpi", "--mpi-chunk", "4"];
    let rank1 = ["-np", "1", BIN, "apsp", &graph, "--workers", "wgpu:99", "--mpi"];
    let o = mpirun(&[&rank0[..], &["--json", &json_path, ":"], &rank1[..]].concat());
    let err = stderr(&o);
    assert!(o.status.success(), "a rank that stops is not a failed run: {err}");
    assert_eq!(checksum(&o), want, "{err}");
    assert!(err.contains("rank 1 (") && err.contains("stopped during the run"), "{err}");
    let run = json(&path);
    assert_eq!(tasks(&run), want_tasks, "rank 1's chunk went to rank 0");
    assert!(run["mpi"]["per_rank"][1]["failed"].is_string(), "{}", run["mpi"]);
}
