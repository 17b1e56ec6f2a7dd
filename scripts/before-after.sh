#!/usr/bin/env bash
# Runs experiments/arch-before-after.json with two builds of sssp-lab alternately (old, new,
# old, new …) on one machine, so that drift hits both alike; each run writes its own results
# directory. Compare them with `sssp-lab report` or cell by cell (bench/results/arch-before-after).
#
#   scripts/before-after.sh OLD_BIN NEW_BIN OUT_DIR [ROUNDS] [SECONDS_PER_RUN]
set -uo pipefail
old=$1 new=$2 out=$3 rounds=${4:-2} limit=${5:-120}
mkdir -p "$out"
for round in $(seq 1 "$rounds"); do
    for build in old new; do
        bin=$old; [ "$build" = new ] && bin=$new
        start=$(date +%s)
        timeout --signal=KILL "$limit" "$bin" bench experiments/arch-before-after.json \
            --out "$out/$build-$round" 2> "$out/$build-$round.log"
        echo "$build round $round: exit $? after $(( $(date +%s) - start )) s" | tee -a "$out/summary.txt"
    done
done
