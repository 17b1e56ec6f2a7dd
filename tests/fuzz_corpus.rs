//! Replays the committed fuzz corpus (`fuzz/corpus/<target>/`: the minimized seeds and every
//! input that once crashed, hung or over-allocated) through the same targets the fuzzer runs
//! (`fuzz/src/targets.rs`, included below), so a fixed crash stays fixed without the fuzzer.
//! Each input must end in a clean error or a value; a panic fails the test naming the file.
//! Seeds that the tests already keep in `tests/data` are listed in `fuzz/seeds-in-tests.txt`
//! rather than copied, and replayed with their target's corpus.

#[allow(dead_code)]
#[path = "../fuzz/src/targets.rs"]
mod targets;

use std::path::{Path, PathBuf};

#[test]
fn every_corpus_input_gives_a_value_or_a_clean_error() {
    targets::init();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = repo.join("fuzz/corpus");
    let shared = seeds_in_tests(repo);
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
        files.extend(shared.iter().filter(|(t, _)| t == name).map(|(_, p)| p.clone()));
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

/// `fuzz/seeds-in-tests.txt`: (target, file) of the seeds kept in `tests/data`.
fn seeds_in_tests(repo: &Path) -> Vec<(String, PathBuf)> {
    let list = repo.join("fuzz/seeds-in-tests.txt");
    let text = std::fs::read_to_string(&list).unwrap_or_else(|e| panic!("{}: {e}", list.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (target, path) = l.split_once(' ').unwrap_or_else(|| panic!("{}: bad line {l:?}", list.display()));
            let path = repo.join(path.trim());
            assert!(path.is_file(), "{}: {} is not a file", list.display(), path.display());
            assert!(targets::TARGETS.iter().any(|t| t.0 == target), "{}: no target {target}", list.display());
            (target.to_string(), path)
        })
        .collect()
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
