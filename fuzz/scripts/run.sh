#!/bin/sh
# Builds libFuzzer and the fuzz binary, then runs every target one after another (or those
# named):   fuzz/scripts/run.sh [SECONDS_PER_TARGET] [TARGET…]
# Each run: libFuzzer, one job, nice 10, -rss_limit_mb=2048, -timeout=10, -max_len=65536, its
# corpus in fuzz/corpus/<target>/ and the seeds fuzz/seeds-in-tests.txt names (new inputs kept in fuzz/target/corpus/<target>/), logs and
# crash inputs under fuzz/target/. bench/results/fuzz/README.md records what a run gave.
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
[ $# -gt 0 ] && shift
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1}

# libFuzzer itself: LLVM's sources as the libfuzzer-sys crate ships them (`cargo fetch` of
# that crate, or any checkout: LIBFUZZER_SRC=dir), compiled with the system C++ compiler.
lib=target/libfuzzer/libFuzzer.a
if [ ! -f "$lib" ]; then
    src=${LIBFUZZER_SRC:-$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/libfuzzer-sys-0.4.*/libfuzzer 2>/dev/null | tail -n 1)}
    if [ -z "$src" ]; then
        cargo info libfuzzer-sys@0.4.13 >/dev/null # downloads the crate's sources
        src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/libfuzzer-sys-0.4.*/libfuzzer | tail -n 1)
    fi
    mkdir -p target/libfuzzer
    for f in "$src"/*.cpp; do
        ${CXX:-c++} -O2 -std=c++17 -fno-omit-frame-pointer -w -c "$f" -o "target/libfuzzer/$(basename "$f" .cpp).o"
    done
    ar rcs "$lib" target/libfuzzer/*.o
fi

# The main tree's target/ holds the dependencies already built (same dev profile, same lock);
# the wrapper instruments only sssp_lab and the fuzz binary and links libFuzzer.
CARGO_TARGET_DIR=../target RUSTC_WRAPPER="$PWD/scripts/rustc-sancov.sh" cargo build --bin sssp-fuzz
bin=../target/debug/sssp-fuzz
targets=${*:-$(sed -n 's/^    ("\([a-z_]*\)", .*/\1/p' src/targets.rs)}
mkdir -p target/logs target/artifacts
for t in $targets; do
    mkdir -p "target/corpus/$t" "corpus/$t"
    # Seeds kept once in tests/data go in with the inputs the fuzzer found.
    sed -n "s|^$t ||p" seeds-in-tests.txt | while read -r f; do cp "../$f" "target/corpus/$t/"; done
    SSSP_FUZZ_TARGET=$t nice -n 10 "$bin" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="target/artifacts/$t-" \
        "target/corpus/$t" "corpus/$t" >"target/logs/$t.$(date +%s).log" 2>&1 || echo "$t: libFuzzer exited $?"
    echo "$t $(grep -hE '^#[0-9]+.*DONE' target/logs/$t.*.log | tail -n 1)"
done
