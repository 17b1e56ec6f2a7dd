#!/usr/bin/env bash
# Session 50, CPU call 2 (issue 31 item 2), one host's 16 cores: seed 001's helper threads
# without locks (helper-fold, src/algo/seed001/fold.rs) against the paper's baseline
# (dijkstra-bheap), beside the radix-heap dijkstra and the lock-based helper, on 1-16 threads:
# experiments/cpu-seed001-fold-{paper,large,huge}.json; then thread 0 profiled
# (SSSP_SEED001_PROFILE=1, exp-profile.json) and the window published every 2nd and 4th
# iteration (SSSP_FOLD_EVERY, exp-every.json). Every timed run is checked against Dijkstra (the
# `correct` column). Call 1 (folder call1/) ran the first binary: queues of vertex ids only,
# thread 0 reading δ and the marks from shared arrays. Run as `bash .dev/coord/call16.sh` with
# .dev/coord/sssp-lab.xz and the exp-*.json carried.
set -uo pipefail
o=/tmp/lease16; mkdir -p "$o"
pack() { tar czf "$OUT/.c.tgz" -C /tmp lease16 2>/dev/null && mv "$OUT/.c.tgz" "$OUT/lease16.tgz"; }
xz -dc .dev/coord/sssp-lab.xz > "$o.bin" && chmod +x "$o.bin"
{ date -u; nproc; uname -r; lscpu | grep -E 'Model name|Socket|Thread|Core|NUMA|L3|MHz|Hypervisor'; uptime; free -g
  ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -8; } > "$o/machine.txt" 2>&1
run() { # NAME TIMEOUT EXPERIMENT [ENV...]
  local name=$1 t=$2 exp=$3; shift 3
  echo "== $name $* $(date -u +%T)" >> "$o/log.txt"
  env "$@" timeout "$t" "$o.bin" bench "$exp" -o "$o/$name" >> "$o/log.txt" 2> "$o/$name.stderr"
  echo "rc=$? $(date -u +%T)" >> "$o/log.txt"
  pack
}
run fold-paper 90 experiments/cpu-seed001-fold-paper.json
run fold-large 150 experiments/cpu-seed001-fold-large.json
run fold-huge 120 experiments/cpu-seed001-fold-huge.json
run profile 60 .dev/coord/exp-profile.json SSSP_SEED001_PROFILE=1
run every2 60 .dev/coord/exp-every.json SSSP_FOLD_EVERY=2
run every4 60 .dev/coord/exp-every.json SSSP_FOLD_EVERY=4
pack
