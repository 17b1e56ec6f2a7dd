//! The binary runs from anywhere (issue 32 item 3): copied out of the build tree, run from
//! another working directory with an empty home, it still opens the bundled NY graph (which it
//! carries) and runs the bundled experiments' relative paths. The `cargo install` test builds a
//! second release binary (minutes) and is ignored by default:
//! `cargo test --release --test install -- --ignored`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A copy of the built binary in `dir`, nothing else beside it.
fn copied_binary(dir: &Path) -> PathBuf {
    let to = dir.join("sssp-lab");
    std::fs::copy(env!("CARGO_BIN_EXE_sssp-lab"), &to).expect("binary copied");
    to
}

/// Runs `bin args` in `cwd` with `home` as HOME (and no XDG cache), returning the output.
fn run_in(bin: &Path, cwd: &Path, home: &Path, args: &[&str]) -> Output {
    Command::new(bin)
        .args(args)
        .current_dir(cwd)
        .env("HOME", home)
        .env_remove("XDG_CACHE_HOME")
        .output()
        .expect("the binary runs")
}

fn text(o: &Output) -> String {
    format!("{}\n{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

#[test]
fn a_copied_binary_opens_the_bundled_graph_from_another_directory() {
    let (bin_dir, cwd, home) = (tempdir(), tempdir(), tempdir());
    let bin = copied_binary(bin_dir.path());
    let o = run_in(&bin, cwd.path(), home.path(), &["info"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("USA-road-d.NY.gr.gz") && out.contains("vertices     264346"), "{out}");
    assert!(out.contains("coordinates  yes"), "the .co sibling came along: {out}");
    let o = run_in(&bin, cwd.path(), home.path(), &["check", "--help"]);
    assert!(o.status.success() && text(&o).contains("--no-bundled"), "{}", text(&o));
    // An experiment naming the bundled graph by its repository path runs from elsewhere too.
    let exp = cwd.path().join("ny.json");
    std::fs::write(
        &exp,
        r#"{ "name": "ny", "kind": "sweep", "graphs": [{ "file": "assets/USA-road-d.NY.gr.gz" }],
             "algorithms": ["dijkstra"], "devices": ["cpu"], "repetitions": 1,
             "sources": { "random": { "count": 1, "seed": 1 } } }"#,
    )
    .expect("experiment written");
    let o = run_in(&bin, cwd.path(), home.path(), &["bench", "ny.json", "--out", "out"]);
    assert!(o.status.success(), "{}", text(&o));
    let csv = std::fs::read_to_string(cwd.path().join("out/results.csv")).expect("results written");
    assert!(csv.contains("USA-road-d.NY.gr.gz"), "{csv}");
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("tempdir")
}

/// `cargo install --path . --root DIR` gives an `sssp-lab` that reads the bundled graph and
/// passes `check` on the CPU from `/`.
#[test]
#[ignore = "builds a release binary with cargo install (minutes)"]
fn cargo_install_gives_a_binary_that_runs_from_the_root_directory() {
    let (root, home) = (tempdir(), tempdir());
    let o = Command::new(env!("CARGO"))
        .args(["install", "--offline", "--locked", "--path", env!("CARGO_MANIFEST_DIR"), "--root"])
        .arg(root.path())
        .env("CARGO_TARGET_DIR", Path::new(env!("CARGO_MANIFEST_DIR")).join("target/install-test"))
        .output()
        .expect("cargo runs");
    assert!(o.status.success(), "{}", text(&o));
    let bin = root.path().join("bin/sssp-lab");
    let o = run_in(&bin, Path::new("/"), home.path(), &["info"]);
    assert!(o.status.success() && text(&o).contains("vertices     264346"), "{}", text(&o));
    let o = run_in(&bin, Path::new("/"), home.path(), &["check", "--device", "cpu", "--sources", "1"]);
    assert!(o.status.success() && text(&o).contains("check passed"), "{}", text(&o));
}
