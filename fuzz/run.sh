#!/bin/sh
# Builds the fuzz binary and runs every target one after another (or those named):
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET…]
# Each run: libFuzzer, one job, nice 10, -rss_limit_mb=2048, -timeout=10, its corpus in
# fuzz/corpus/<target>/ (new inputs kept in fuzz/target/corpus/<target>/), logs and crash inputs
# under fuzz/target/. bench/results/fuzz/README.md records what a run gave.
set -eu
cd "$(dirname "$0")"
secs=${1:-60}
[ $# -gt 0 ] && shift
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1}
# The main tree's target/ holds the dependencies already built (same dev profile, same lock);
# the wrapper instruments only sssp_lab and the fuzz binary.
CARGO_TARGET_DIR=../target RUSTC_WRAPPER="$PWD/rustc-sancov.sh" cargo build --bin sssp-fuzz
bin=../target/debug/sssp-fuzz
targets=${*:-$(sed -n 's/^    ("\([a-z_]*\)", .*/\1/p' src/targets.rs)}
mkdir -p target/logs target/artifacts
for t in $targets; do
    mkdir -p "target/corpus/$t" "corpus/$t"
    SSSP_FUZZ_TARGET=$t nice -n 10 "$bin" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="target/artifacts/$t-" \
        "target/corpus/$t" "corpus/$t" >"target/logs/$t.log" 2>&1 || echo "$t: libFuzzer exited $?"
    tail -n 12 "target/logs/$t.log" | grep -E "stat::number_of_executed_units|cov:" | tail -n 2
done
