#!/usr/bin/env bash
# Lease 10, call 2 (issue 31, coordinator, after call 1): the same binary as call 1 (branch cpu6),
# on another H100 host's 16 cores, the 21-scale graphs only and no A/B side, so that the rounds
# pooled with call 1 reach 16 per graph (call 1: Kronecker 21 12, uniform 21 9). Each round is
# GAP(Δa) · ours · GAP(Δb) on one host, as in call 1; rounds numbered from 100 (ROUND0) so that
# scripts/cpu-ab-stats.py keeps them apart from call 1's when it pools the two folders.
# Blocks: uniform 21 (4 rounds) twice, then Kronecker 21 (4), then alternating until the time is
# spent. Usage on the device: `bash .dev/cpu6/call2.sh` (CALL_S, default 300).
set -uo pipefail
C=${CALL_S:-300}
D=.dev/cpu6
o=/tmp/call2; mkdir -p "$o" bench/graphs
pack() { tar czf "$OUT/.c.tgz" -C /tmp call2 2>/dev/null && mv "$OUT/.c.tgz" "$OUT/call2.tgz"; }
xz -dc $D/sssp-lab.xz > "$o.bin" && chmod +x "$o.bin"
chmod +x $D/gapbs/* 2>/dev/null
{ date -u; nproc; lscpu | grep -E 'Model name|Socket|Thread|Core|NUMA|L3|MHz'; uptime; free -g
  ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -12; } > "$o/machine.txt" 2>&1
B=$(( C - 15 ))
T0=$(date +%s)
left() { echo $(( B - ($(date +%s) - T0) )); }
export PEERS=$D OURS_WSG=1 REUSE_GRAPHS=1 BIG_REPS=8 BIG_AB=none
{
  blk=0
  for g in urand21 urand21 kron21 urand21 kron21 urand21 kron21; do
    l=$(left); (( l < 20 )) && break
    echo "block $blk ($g) at $(( B - l )) s" >> "$o/blocks.txt"
    ROUND0=$(( 100 + blk * 4 )) BIG_ROUNDS=4 DEADLINE_S=$(( l - 10 )) timeout "$l" \
      bash $D/cpu-ab-interleave.sh "$o.bin" "$o" $g
    blk=$(( blk + 1 ))
  done
} &
run=$!
while kill -0 $run 2>/dev/null; do sleep 20; pack; done
wait $run
echo "rc=$? at $(date -u)" >> "$o/log.txt"
{ uptime; ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -12; } >> "$o/machine.txt" 2>&1
pack
