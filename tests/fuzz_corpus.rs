//! Replays the committed fuzz corpus (`fuzz/corpus/<target>/`: the minimized seeds and every
//! input that once crashed, hung or over-allocated) through the same targets the fuzzer runs
//! (`fuzz/src/targets.rs`, included below), so a fixed crash stays fixed without the fuzzer.
//! Each input must end in a clean error or a value; a panic fails the test naming the file.

#[allow(dead_code)]
#[path = "../fuzz/src/targets.rs"]
mod targets;

use std::path::Path;

#[test]
fn every_corpus_input_gives_a_value_or_a_clean_error() {
    targets::init();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let mut replayed = 0;
    let mut failed = Vec::new();
    for (name, run) in targets::TARGETS {
        let dir = root.join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no seed inputs for target {name} in {}", dir.display());
        for f in files {
            let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            if std::panic::catch_unwind(|| run(&bytes)).is_err() {
                failed.push(f.display().to_string());
            }
            replayed += 1;
        }
    }
    assert!(failed.is_empty(), "{} of {replayed} corpus inputs panicked: {failed:?}", failed.len());
}

#[test]
fn every_target_has_a_corpus_folder_and_nothing_else_is_there() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let mut dirs: Vec<String> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    dirs.sort();
    let mut names: Vec<String> = targets::TARGETS.iter().map(|t| t.0.to_string()).collect();
    names.sort();
    assert_eq!(dirs, names);
}
