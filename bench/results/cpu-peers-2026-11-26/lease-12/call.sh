#!/usr/bin/env bash
# Session 43, CPU call (issue 31): the auto Δ at the lightest arc where the rule's width is at
# most twice it (Kronecker 21: 2 -> 1). Kronecker 21 from GAP's .wsg, interleaved with GAP on the
# 16 cores (scripts/cpu-ab-interleave.sh, as lease 11): per round GAP(Δ 1) · ours (the new
# default, Δ 1) · GAP(Δ 2) · every other round ours with SSSP_DS_DELTA_X=2 (Δ 2, the old default).
# CALL=2: rounds numbered from 100 so that a second call pools with the first.
set -uo pipefail
C=${CALL_S:-560}
D=.dev/coord
CALL=${CALL:-1}
o=/tmp/call$CALL; mkdir -p "$o" bench/graphs
pack() { tar czf "$OUT/.c.tgz" -C "$(dirname "$o")" "$(basename "$o")" 2>/dev/null && mv "$OUT/.c.tgz" "$OUT/call$CALL.tgz"; }
xz -dc $D/sssp-lab.xz > "$o.bin" && chmod +x "$o.bin"
for b in sssp converter; do xz -dc $D/gapbs/$b.xz > $D/gapbs/$b; done
chmod +x $D/gapbs/*
thp() { for f in enabled defrag; do echo "thp/$f: $(cat /sys/kernel/mm/transparent_hugepage/$f 2>/dev/null)"; done
  grep -E 'AnonHugePages|MemFree|MemTotal' /proc/meminfo; }
{ date -u; nproc; uname -r; lscpu | grep -E 'Model name|Socket|Thread|Core|NUMA|L3|MHz|Hypervisor'; uptime; free -g
  thp; ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -8; } > "$o/machine.txt" 2>&1
B=$(( C - 20 ))
T0=$(date +%s)
left() { echo $(( B - ($(date +%s) - T0) )); }
export PEERS=$D OURS_WSG=1 REUSE_GRAPHS=1 BIG_REPS=8 BIG_AB_EVERY=2 BIG_AB="SSSP_DS_DELTA_X=2"
{
  base=$(( CALL == 1 ? 0 : 100 ))
  for blk in $(seq 0 19); do
    l=$(left); (( l < 25 )) && break
    echo "block $blk at $(( B - l )) s" >> "$o/blocks.txt"
    ROUND0=$(( base + blk * 2 )) BIG_ROUNDS=2 DEADLINE_S=$(( l - 12 )) timeout "$l" \
      bash scripts/cpu-ab-interleave.sh "$o.bin" "$o" kron21
  done
} &
run=$!
while kill -0 $run 2>/dev/null; do sleep 20; pack; done
wait $run
echo "rc=$? at $(date -u)" >> "$o/log.txt"
{ uptime; thp; } >> "$o/machine.txt" 2>&1
pack
