#!/bin/sh
# Runs every 1 MB input of fuzz/scripts/big-inputs.py through its target once with libFuzzer's
# -timeout=1 (a run over 1 s is a hang) and prints each input's time:
#   fuzz/scripts/hangcheck.sh    (after fuzz/scripts/run.sh built the binary)
set -eu
cd "$(dirname "$0")/.."
python3 scripts/big-inputs.py
for d in target/big/*/; do
    t=$(basename "$d")
    for f in "$d"*; do
        out=$(SSSP_FUZZ_TARGET=$t ../target/debug/sssp-fuzz -timeout=1 -rss_limit_mb=2048 "$f" 2>&1) || echo "$t $(basename "$f"): FAILED"
        echo "$out" | sed -n "s|^Executed .*/\([^/]*\) in \([0-9]*\) ms|$t \1 \2 ms|p"
    done
done
