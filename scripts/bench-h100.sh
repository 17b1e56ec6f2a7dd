#!/usr/bin/env bash
# Runs bundled experiments on the GPU machine (H100 + 16 cores) with prebuilt binaries, each
# under its own time limit, writing results.{csv,json}, report.md and plots/ per experiment.
#
#   scripts/bench-h100.sh OUT_DIR BIN_DIR EXPERIMENT:SECONDS...
#
# BIN_DIR holds `sssp-lab` (cargo build --release, built elsewhere: the GPU machine has no
# Rust) and optionally `dijkstra_boost` (g++ -O3 -static bench/boost/dijkstra_boost.cpp: it has
# no Boost headers). An experiment killed by its limit keeps the rows of its last 30 s
# checkpoint (outcome "running"); `sssp-lab report` redraws its report from them.
# Extra `sssp-lab bench` flags (e.g. --cell-budget 2) go in $BENCH_FLAGS.
set -uo pipefail
out=$1 bin=$2
shift 2
[ -x "$bin/dijkstra_boost" ] && export SSSP_LAB_BOOST_BIN="$bin/dijkstra_boost"
mkdir -p "$out"
for spec in "$@"; do
    name=${spec%%:*} limit=${spec##*:}
    start=$(date +%s)
    # shellcheck disable=SC2086
    timeout --signal=KILL "$limit" "$bin/sssp-lab" bench "experiments/$name.json" --out "$out/$name" \
        ${BENCH_FLAGS:-} 2> "$out/$name.log"
    rc=$?
    echo "$name: exit $rc after $(( $(date +%s) - start )) s" | tee -a "$out/summary.txt"
    tail -n 3 "$out/$name.log"
done
