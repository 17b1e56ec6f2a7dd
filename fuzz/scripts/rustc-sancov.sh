#!/bin/sh
# RUSTC_WRAPPER for the fuzz build: libFuzzer's coverage instrumentation (what `cargo fuzz
# --sanitizer none` adds) only for the crates under test — sssp_lab and the fuzz binary —
# so the ~500 dependency crates the main build already compiled are reused as they are; the
# binary is linked with libFuzzer (built by scripts/run.sh into fuzz/target/libfuzzer/).
here=$(cd "$(dirname "$0")/.." && pwd)
rustc="$1"
shift
# The instrumentation and checks both crates get (flags without spaces: split on purpose below).
sancov="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4
    -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table
    -Cllvm-args=-sanitizer-coverage-trace-compares -Cdebug-assertions -Coverflow-checks --cfg fuzzing"
case " $* " in
*" --crate-name sssp_fuzz "*)
    # shellcheck disable=SC2086
    exec "$rustc" "$@" $sancov -Lnative="$here/target/libfuzzer" -lstatic=Fuzzer -lstdc++
    ;;
*" --crate-name sssp_lab "*)
    # shellcheck disable=SC2086
    exec "$rustc" "$@" $sancov
    ;;
*) exec "$rustc" "$@" ;;
esac
