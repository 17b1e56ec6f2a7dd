//! `sssp-lab`: no arguments opens the app on the bundled New York road network; subcommands
//! do the same work headless (see `sssp-lab --help`).

use std::process::ExitCode;

fn main() -> ExitCode {
    sssp_lab::cli::main()
}
