#!/usr/bin/env bash
# Session 50, CPU call 3 (issue 31 item 2), one host's 16 cores. helper-fold's hand-off
# (queues folded and window published) every k-th iteration, SSSP_FOLD_EVERY=k (call 2 had k
# for the window only). (1) Thread 0 profiled (SSSP_SEED001_PROFILE=1: TSC cycles in ExtractMin,
# DecreaseKey, the scan, the fold and the window; exp-profile.json) with k = 1 and 4. (2) Rounds
# of exp-ab.json (the baseline and helper-fold at 8 and 16 threads in one process, so each
# round's ratio is from one process on one host), k = 1, 2, 4, 8 in turn, until the budget.
# Run as `bash .dev/coord/call16.sh` with .dev/coord/{sssp-lab.xz,exp-*.json} carried.
set -uo pipefail
o=/tmp/lease16; mkdir -p "$o"
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
run profile-k1 90 .dev/coord/exp-profile.json SSSP_SEED001_PROFILE=1 SSSP_FOLD_EVERY=1
run profile-k4 90 .dev/coord/exp-profile.json SSSP_SEED001_PROFILE=1 SSSP_FOLD_EVERY=4
r=1
while (( $(date +%s) - T0 < 480 )); do
  for k in 1 2 4 8; do
    (( $(date +%s) - T0 < 520 )) || break
    run "ab/r$r-k$k" 60 .dev/coord/exp-ab.json SSSP_FOLD_EVERY=$k
  done
  r=$((r + 1))
done
pack
