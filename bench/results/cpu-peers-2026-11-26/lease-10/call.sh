#!/usr/bin/env bash
# Lease 10 (issue 31): one call, all four graphs interleaved with GAP on the 16 cores
# (scripts/cpu-ab-interleave.sh; simplified from lease-9/call.sh: no second call). Binary of
# branch cpu6: hubs split only where a vertex has more than 2 048 arcs (Kronecker yes, uniform
# and roads no), and ours reads the 21-scale graphs from the very .wsg GAP reads (OURS_WSG=1,
# src/formats/gapbs.rs) instead of ~10 s of .wel text per process.
# Sides per round: GAP(Δa) · ours (the default) · GAP(Δb) · ours with each switch —
#   roads: SSSP_DS_DELTA_X=2 (the auto Δ doubled: NY's rule gives ~13 300, GAP's best is 25 000);
#   21-scale: SSSP_DS_SPLIT=0 (no split: slower on Kronecker, equal to the default on uniform
#   now that the rule leaves uniform alone) and SSSP_DS_DELTA_X=2 (lease 2: uniform 99.6 ms at
#   Δ 2 against 108.1 at the rule's Δ 1), every AB_EVERY-th round.
# Usage on the device: `bash .dev/cpu6/call.sh` (CALL_S: the seconds the call may take, 470).
# The raw output is tarred into $OUT every 20 s, so a call cut short still brings back what ran.
set -uo pipefail
C=${CALL_S:-470}
D=.dev/cpu6
o=${CALL_DIR:-/tmp/call1}; mkdir -p "$o" bench/graphs
pack() { tar czf "$OUT/.c.tgz" -C "$(dirname "$o")" "$(basename "$o")" 2>/dev/null && mv "$OUT/.c.tgz" "$OUT/call1.tgz"; }
xz -dc $D/sssp-lab.xz > "$o.bin" && chmod +x "$o.bin"
chmod +x $D/gapbs/* 2>/dev/null
{ date -u; nproc; lscpu | grep -E 'Model name|Socket|Thread|Core|NUMA|L3|MHz'; uptime; free -g
  cat /sys/kernel/mm/transparent_hugepage/enabled /proc/sys/kernel/numa_balancing 2>/dev/null
  ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -12; } > "$o/machine.txt" 2>&1
B=$(( C - 20 ))  # seconds the interleave script gets
# Budget (lease 9: roads ~1 s a round; a 21-scale GAP process ~1.5 s; ours from .wsg ~4 s):
# roads 17 rounds each, then Kronecker until STOP_kron21 and uniform until the end, both
# asked for 20 rounds so that each gets its 16+ inside the call.
PEERS=$D LUX_GZ=$D/lux.gr.gz OURS_WSG=1 ROUND0=0 ROUNDS=${ROUNDS:-17} BIG_ROUNDS=${BIG_ROUNDS:-20} BIG_REPS=8 \
  STOP_kron21=${STOP_kron21:-$(( (B + 40) / 2 ))} STOP_urand21=$(( B - 15 )) BIG_AB_EVERY=${AB_EVERY:-2} \
  AB_ENVS="SSSP_DS_DELTA_X=2" BIG_AB="SSSP_DS_SPLIT=0;SSSP_DS_DELTA_X=2" \
  timeout "$B" bash $D/cpu-ab-interleave.sh "$o.bin" "$o" ny lux kron21 urand21 &
run=$!
while kill -0 $run 2>/dev/null; do sleep 20; pack; done
wait $run
echo "rc=$? at $(date -u)" >> "$o/log.txt"
{ uptime; ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -12; } >> "$o/machine.txt" 2>&1
pack
