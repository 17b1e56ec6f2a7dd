//! The layers of docs/architecture.md, checked on the sources: the core library imports nothing
//! of the GUI (egui, eframe, egui_plot, rfd), nor the app or the CLI; the CLI does not import the
//! app. (A Cargo workspace would check this at build time; see docs/architecture.md.)

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Lines of code (comments dropped) in `src/<dir>` (or the file `src/<dir>.rs`) that name one of
/// `forbidden`.
fn offending(dir: &str, forbidden: &[&str]) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let as_dir = src.join(dir);
    if as_dir.is_dir() {
        rust_files(&as_dir, &mut files);
    } else {
        files.push(src.join(format!("{dir}.rs")));
    }
    let mut bad = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if forbidden.iter().any(|w| code.contains(w)) {
                bad.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    bad
}

#[test]
fn the_core_imports_nothing_of_the_gui_the_app_or_the_cli() {
    let gui = ["egui", "eframe", "rfd::", "crate::app", "crate::cli"];
    for dir in ["algo", "device", "formats", "generate", "graph", "lab", "manysource", "jobs", "trace", "tune"] {
        let bad = offending(dir, &gui);
        assert!(bad.is_empty(), "src/{dir} reaches above the core:\n{}", bad.join("\n"));
    }
}

#[test]
fn the_cli_does_not_import_the_app() {
    let bad = offending("cli", &["crate::app", "egui", "eframe"]);
    assert!(bad.is_empty(), "src/cli imports the app:\n{}", bad.join("\n"));
}

/// The core's layers as `docs/architecture.md` draws them, top first: a layer may import the
/// layers below it, never one above (modules of one row do not import each other).
const LAYERS: [&[&str]; 7] = [
    &["lab"],
    &["tune", "manysource"],
    &["jobs", "trace"],
    &["device"],
    &["algo"],
    &["formats", "generate"],
    &["graph", "assets"],
];

#[test]
fn the_core_layers_only_import_downwards() {
    let mut bad = Vec::new();
    for (i, row) in LAYERS.iter().enumerate() {
        for dir in row.iter() {
            // Every module of the rows above, and the row's others.
            let above: Vec<String> = LAYERS[..=i]
                .iter()
                .flat_map(|r| r.iter())
                .filter(|m| *m != dir)
                .flat_map(|m| [format!("crate::{m}::"), format!("crate::{m};"), format!("crate::{m}}}")])
                .collect();
            let above: Vec<&str> = above.iter().map(String::as_str).collect();
            bad.extend(offending(dir, &above));
        }
    }
    assert!(bad.is_empty(), "imports that point up the layers of docs/architecture.md:\n{}", bad.join("\n"));
}

/// Inside `algo/`: the frontier stepper and its multi-core twin share what both need through
/// `algo/frontier_common.rs`, below both. The multi-core stepper imports nothing of
/// `frontier.rs`; `frontier.rs` names only the multi-core builder, in its specs.
#[test]
fn the_frontier_steppers_do_not_import_each_other() {
    let frontier = ["frontier::", "super::frontier;", " FrontierStepper", "(FrontierStepper", "::FrontierStepper"];
    let up = offending("algo/parallel", &frontier);
    let up: Vec<String> = up.into_iter().filter(|l| !l.contains("frontier_common::")).collect();
    assert!(up.is_empty(), "algo/parallel.rs imports algo/frontier.rs:\n{}", up.join("\n"));
    let down: Vec<String> = offending("algo/frontier", &["parallel::", "ParallelFrontierStepper"])
        .into_iter()
        .filter(|l| !l.contains("super::parallel::parallel_stepper"))
        .collect();
    assert!(down.is_empty(), "algo/frontier.rs uses more of algo/parallel.rs than its builder:\n{}", down.join("\n"));
}

/// The tuner sits below the lab: check sets come to it as `tune::CheckSet` values.
#[test]
fn the_tuner_does_not_import_the_lab() {
    let bad = offending("tune", &["crate::lab"]);
    assert!(bad.is_empty(), "src/tune imports the lab:\n{}", bad.join("\n"));
}

/// The layers inside `src/device/` as `docs/architecture.md` draws them, top first (`mod.rs`,
/// which builds steppers from all of them, is above every row). A module may import the rows
/// below it, never one above, and not the others of its row (CUDA and wgpu stay apart).
const DEVICE_LAYERS: [&[&str]; 6] =
    [&["family", "roofline"], &["cuda", "wgpu"], &["driver"], &["layout"], &["gpu_delta"], &["gpu"]];

/// The `device` module (`src/device/<m>.rs` or `src/device/<m>/`) a path in `file`'s code names,
/// with `super::` chains resolved against the file's place; None for paths leaving `device`.
fn device_module_named(file: &Path, code: &str) -> Vec<String> {
    let device = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/device");
    let rel = file.strip_prefix(&device).expect("a file under src/device");
    // The file's module path below `device` (`cuda/solver/fast.rs` → [cuda, solver, fast]).
    let mut here: Vec<String> = rel.with_extension("").iter().map(|c| c.to_string_lossy().into_owned()).collect();
    if here.last().is_some_and(|l| l == "mod") {
        here.pop();
    }
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::device::") {
        let rest = &code[at + "crate::device::".len()..];
        found.push(rest.split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap_or("").to_string());
    }
    let mut i = 0;
    while let Some(at) = code[i..].find("super::") {
        let start = i + at;
        // Count the chain `super::super::…` and resolve it from the file's module.
        let mut ups = 0;
        let mut rest = &code[start..];
        while let Some(r) = rest.strip_prefix("super::") {
            ups += 1;
            rest = r;
        }
        let preceded = code[..start].ends_with("super::");
        if !preceded && ups <= here.len() {
            let base = &here[..here.len() - ups];
            let next = rest.split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap_or("");
            found.push(base.first().cloned().unwrap_or_else(|| next.to_string()));
        }
        i = start + "super::".len() * ups.max(1);
    }
    found.retain(|m| !m.is_empty());
    found
}

#[test]
fn the_device_layers_only_import_downwards() {
    let device = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/device");
    let mut bad = Vec::new();
    for (i, row) in DEVICE_LAYERS.iter().enumerate() {
        for m in row.iter() {
            let forbidden: Vec<&str> =
                DEVICE_LAYERS[..=i].iter().flat_map(|r| r.iter().copied()).filter(|x| x != m).collect();
            let mut files = Vec::new();
            if device.join(m).is_dir() {
                rust_files(&device.join(m), &mut files);
            }
            if device.join(format!("{m}.rs")).is_file() {
                files.push(device.join(format!("{m}.rs")));
            }
            assert!(!files.is_empty(), "src/device/{m}: listed in DEVICE_LAYERS but missing");
            for f in files {
                let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
                for (n, line) in text.lines().enumerate() {
                    let code = line.split("//").next().unwrap_or("");
                    for named in device_module_named(&f, code) {
                        if forbidden.contains(&named.as_str()) {
                            bad.push(format!(
                                "{}:{}: {} (src/device/{m} imports {named})",
                                f.display(),
                                n + 1,
                                line.trim()
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "imports that point up the layers of src/device:\n{}", bad.join("\n"));
}
