#!/usr/bin/env bash
# Session 44, CPU call 1 (issue 31): asynchronous buckets with priority-aware work stealing
# (Wasp, SC'25; src/algo/delta_stepping/wasp.rs, SSSP_DS_ASYNC=1): no round barriers; a thread
# with an empty bucket steals 64-vertex chunks from threads at an earlier or equal bucket, else
# opens its next. Interleaved with GAP on the 16 cores (scripts/cpu-ab-interleave.sh, as lease
# 11). Per road round: GAP(Δa) · ours (default, synchronous rounds) · GAP(Δb) · ASYNC=1 ·
# ASYNC=1 PULL=1 (a vertex of ≤ 8 in-arcs first lowers δ from its predecessors, Wasp's pull) ·
# ASYNC=1 AHEAD=0 (no thread opens a bucket past another working thread's). Then the 21-scale
# graphs from GAP's .wsg in blocks of one round (ASYNC=1 and ASYNC=1 PULL=1 sides).
# Binary: the session's commit that adds wasp.rs (the default path is unchanged).
# CALL=2 (ROADS_AB / BIG_AB_2 below): the pull on the synchronous rounds too (SSSP_DS_PULL=1;
# on a symmetric graph it reads the successor rows, no second CSR), async + pull with chunks of
# 16 and 256; the 21-scale graphs with the synchronous pull. SSSP_DS_COUNT=1 logs each run's work.
set -uo pipefail
C=${CALL_S:-570}
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
export PEERS=$D LUX_GZ=$D/lux.gr.gz OURS_WSG=1 REUSE_GRAPHS=1 REPS=5 BIG_REPS=8 BIG_AB_EVERY=1 \
  AB_ENVS="SSSP_DS_ASYNC=1;SSSP_DS_ASYNC=1 SSSP_DS_PULL=1;SSSP_DS_ASYNC=1 SSSP_DS_AHEAD=0" \
  BIG_AB="SSSP_DS_ASYNC=1;SSSP_DS_ASYNC=1 SSSP_DS_PULL=1"
if [[ $CALL == 2 ]]; then
  export SSSP_DS_COUNT=1 ROUNDS=${ROUNDS:-15} \
    AB_ENVS="SSSP_DS_PULL=1;SSSP_DS_ASYNC=1 SSSP_DS_PULL=1;SSSP_DS_ASYNC=1 SSSP_DS_PULL=1 SSSP_DS_ACHUNK=16;SSSP_DS_ASYNC=1 SSSP_DS_PULL=1 SSSP_DS_ACHUNK=256" \
    BIG_AB="SSSP_DS_PULL=1"
fi
# CALL=3: the roads only; async + pull with chunks of 32, and of 64 that a thread publishes at 16
# or 8 vertices already while some thread is idle (SSSP_DS_IDLE_CHUNK).
if [[ $CALL == 3 ]]; then
  export SSSP_DS_COUNT=1 ROUNDS=${ROUNDS:-15} BIG=0 \
    AB_ENVS="SSSP_DS_ASYNC=1 SSSP_DS_PULL=1;SSSP_DS_ASYNC=1 SSSP_DS_PULL=1 SSSP_DS_ACHUNK=32;SSSP_DS_ASYNC=1 SSSP_DS_PULL=1 SSSP_DS_IDLE_CHUNK=16;SSSP_DS_ASYNC=1 SSSP_DS_PULL=1 SSSP_DS_IDLE_CHUNK=8"
fi
# CALL=4: the roads with the binary whose default there is async + pull + chunks of 64 / 16 while
# a thread is idle (fast::modes); the A/B side is the rounds (SSSP_DS_ASYNC=0, the old default).
if [[ $CALL == 4 ]]; then
  export SSSP_DS_COUNT=1 ROUNDS=${ROUNDS:-17} BIG=0 AB_ENVS="SSSP_DS_ASYNC=0"
fi
{
  base=$(( CALL == 1 ? 0 : CALL * 100 - 100 ))
  if [[ ${ROADS:-1} == 1 ]]; then
    ROUND0=$base ROUNDS=${ROUNDS:-13} DEADLINE_S=$(( ${BIG:-1} == 1 ? B * 3 / 10 : B / 2 )) timeout "$(left)" \
      bash scripts/cpu-ab-interleave.sh "$o.bin" "$o" ny lux
  fi
  for blk in $(seq 0 $(( ${BIG:-1} == 1 ? 39 : -1 ))); do
    l=$(left); (( l < 25 )) && break
    echo "block $blk at $(( B - l )) s" >> "$o/blocks.txt"
    ROUND0=$(( base + blk )) BIG_ROUNDS=1 DEADLINE_S=$(( l - 12 )) timeout "$l" \
      bash scripts/cpu-ab-interleave.sh "$o.bin" "$o" kron21 urand21
  done
} &
run=$!
while kill -0 $run 2>/dev/null; do sleep 20; pack; done
wait $run
echo "rc=$? at $(date -u)" >> "$o/log.txt"
{ uptime; thp; } >> "$o/machine.txt" 2>&1
pack
