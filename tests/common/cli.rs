//! The `sssp-lab` binary as a script runs it, shared by `tests/cli.rs` and `tests/tune.rs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary Cargo built for this test run.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sssp-lab"))
}

/// A file of `tests/data`.
pub fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// Runs `cmd` to its end (it must start).
pub fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("the binary runs")
}
