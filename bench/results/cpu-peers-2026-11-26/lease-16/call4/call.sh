#!/usr/bin/env bash
# Session 50, CPU call 4 (issue 31 item 2), one host's 16 cores: rounds of exp-ab.json (the
# baseline dijkstra-bheap and helper-fold at 8 and 16 threads in one process, fan-out 100 K and
# 1 M, d = 20), the hand-off every iteration (SSSP_FOLD_EVERY=1, the default) and every 2nd in
# turn, until the budget; each round's ratio is from one process on one host. Call 3's
# profile showed k = 4 losing the marks (25 % spared at 16 threads against 99.7 %).
# Run as `bash .dev/coord/call16.sh` with .dev/coord/{sssp-lab.xz,exp-ab.json} carried.
set -uo pipefail
o=/tmp/lease16; mkdir -p "$o/ab"
pack() { tar czf "$OUT/.c.tgz" -C /tmp lease16 2>/dev/null && mv "$OUT/.c.tgz" "$OUT/lease16.tgz"; }
xz -dc .dev/coord/sssp-lab.xz > "$o.bin" && chmod +x "$o.bin"
{ date -u; nproc; uname -r; lscpu | grep -E 'Model name|Socket|Thread|Core|NUMA|L3|MHz|Hypervisor'; uptime; free -g
  ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -8; } > "$o/machine.txt" 2>&1
T0=$(date +%s)
run() { # NAME TIMEOUT EXPERIMENT [ENV...]
  local name=$1 t=$2 exp=$3; shift 3
  echo "== $name $* $(date -u +%T)" >> "$o/log.txt"
  env "$@" timeout "$t" "$o.bin" bench "$exp" -o "$o/$name" >> "$o/log.txt" 2> "$o/$name.stderr"
  echo "rc=$? $(date -u +%T)" >> "$o/log.txt"
  pack
}
r=1
while (( $(date +%s) - T0 < 290 )); do
  for k in 1 2; do
    run "ab/r$r-k$k" 60 .dev/coord/exp-ab.json SSSP_FOLD_EVERY=$k
  done
  r=$((r + 1))
done
pack
