//! `sssp-lab`: no arguments opens the app on the bundled New York road network; subcommands
//! do the same work headless (see `sssp-lab --help`). The one place where the CLI and the app
//! meet: the CLI gets the app's entry point as a function and imports nothing of it.

use std::process::ExitCode;

fn main() -> ExitCode {
    sssp_lab::cli::main(|file, load| sssp_lab::app::run(sssp_lab::app::Startup { file, load, ..Default::default() }))
}
