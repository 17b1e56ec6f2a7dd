#!/usr/bin/env bash
# Session 45, CPU call 1 (issue 31), one H100 host's 16 cores, interleaved with GAP process by
# process (scripts/cpu-ab-interleave.sh, as lease 14).
# Part 1, the roads at 16 threads: the default (Wasp's asynchronous buckets + pull; bin entries
# now carry the δ they were binned with) · SSSP_DS_DEDUP=1 (an entry is skipped unless δ of its
# vertex is still that δ: a vertex lowered twice before it is taken is expanded once; 1.20 → 1.10
# expansions per vertex reached on 2 threads of the build machine) · SSSP_DS_DELTA_X=0.5 and
# 0.7 (a narrower auto Δ: NY was slower with a wider one, lease 14 call 5) · SSSP_DS_AHEAD=4 (no
# thread opens a bucket more than 4 past another working thread's) · DEDUP=1 with Δ × 0.7.
# Part 2, the thread-scaling curve of the roads (1, 2, 4, 8 threads; 16 is part 1): GAP ·
# ours · ours DEDUP=1.
# Call 1 ran on a host where GAP itself took twice its lease-14 time (NY 8.4 ms): every A/B
# undecided. CALL=3 repeats it with the sides that were not clearly slower (DEDUP=1, Δ × 0.7)
# and the rounds (SSSP_DS_ASYNC=0) beside them, at 16, 8, 4 and 2 threads; /proc/stat's steal
# time (ticks of 10 ms stolen by the hypervisor) before and after each part goes to steal.txt.
# CALL=4: the roads' scaling curve again with the session's final binary (plain vertex entries
# as in lease 14; DEDUP removed), the rounds (SSSP_DS_ASYNC=0) beside at 2-16 threads.
# CALL=5: the roads at 16 threads (21 rounds) with software prefetch in the asynchronous run
# (SSSP_DS_PREFETCH=k: the chunk's entry k ahead gets its arcs, 2k ahead its offsets and δ, k/2
# ahead its heads' δ; lease 8 measured it on the rounds only) at k = 2, 4, 8, and chunks of 32
# (SSSP_DS_ACHUNK=32, 16 while a thread is idle; lease 14 call 3 had 32 without the idle rule).
# CALL=6: the roads at 16 threads (21 rounds) with the graph renumbered in breadth-first order
# (SSSP_DS_RELABEL=1; built untimed with the solver, δ copied back through the permutation).
# CALL=2: the 21-scale graphs' scaling curve (1, 2, 4, 8, 16 threads, GAP and ours).
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
export PEERS=$D LUX_GZ=$D/lux.gr.gz OURS_WSG=1 REUSE_GRAPHS=1 REPS=5 BIG_REPS=8 SSSP_DS_COUNT=1
steal() { echo "$1 $(date +%s) $(grep '^cpu ' /proc/stat)" >> "$o/steal.txt"; }
{
  base=$(( CALL * 1000 ))
  if [[ $CALL == 3 || $CALL == 4 ]]; then
    for th in 16 8 4 2 1; do
      l=$(left); (( l < 20 )) && break
      steal "start t$th"
      ab="SSSP_DS_DEDUP=1;SSSP_DS_DELTA_X=0.7;SSSP_DS_ASYNC=0"
      (( th == 1 )) && ab="SSSP_DS_DEDUP=1"
      [[ $CALL == 4 ]] && ab="SSSP_DS_ASYNC=0"  # at 1 thread an A/A: one thread never runs asynchronously
      THREADS=$th ROUND0=$(( base + 100 * th )) ROUNDS=$(( th == 16 ? ${ROUNDS:-21} : ${SROUNDS:-9} )) \
        DEADLINE_S=$(( th == 16 ? l / 2 : l / 4 )) AB_ENVS="$ab" \
        timeout "$l" bash scripts/cpu-ab-interleave.sh "$o.bin" "$o/t$th" ny lux
      steal "end t$th"
    done
  fi
  if [[ $CALL == 5 ]]; then
    ROUND0=$base ROUNDS=${ROUNDS:-21} DEADLINE_S=$(( B / 2 )) \
      AB_ENVS="SSSP_DS_PREFETCH=2;SSSP_DS_PREFETCH=4;SSSP_DS_PREFETCH=8;SSSP_DS_ACHUNK=32" \
      timeout "$(left)" bash scripts/cpu-ab-interleave.sh "$o.bin" "$o/t16" ny lux
  fi
  if [[ $CALL == 6 ]]; then
    ROUND0=$base ROUNDS=${ROUNDS:-21} DEADLINE_S=$(( B / 2 )) AB_ENVS="SSSP_DS_RELABEL=1" \
      timeout "$(left)" bash scripts/cpu-ab-interleave.sh "$o.bin" "$o/t16" ny lux
  fi
  if [[ $CALL == 3 || $CALL == 4 || $CALL == 5 || $CALL == 6 ]]; then :
  elif [[ $CALL == 1 ]]; then
    ROUND0=$base ROUNDS=${ROUNDS:-19} DEADLINE_S=$(( B / 2 )) \
      AB_ENVS="SSSP_DS_DEDUP=1;SSSP_DS_DELTA_X=0.5;SSSP_DS_DELTA_X=0.7;SSSP_DS_AHEAD=4;SSSP_DS_DEDUP=1 SSSP_DS_DELTA_X=0.7" \
      timeout "$(left)" bash scripts/cpu-ab-interleave.sh "$o.bin" "$o/t16" ny lux
    for th in 8 4 2 1; do
      l=$(left); (( l < 20 )) && break
      THREADS=$th ROUND0=$(( base + 100 * th )) ROUNDS=${SROUNDS:-7} DEADLINE_S=$(( l / 3 )) AB_ENVS="SSSP_DS_DEDUP=1" \
        timeout "$l" bash scripts/cpu-ab-interleave.sh "$o.bin" "$o/t$th" ny lux
    done
  else
    BIG_ROUNDS=0 timeout "$(left)" bash scripts/cpu-ab-interleave.sh "$o.bin" "$o/gen" kron21 urand21
    k=5
    for th in 16 8 4 2 1; do
      l=$(left); (( l < 30 )) && break
      slice=$(( l / k )); k=$(( k - 1 ))
      THREADS=$th ROUND0=$(( base + 100 * th )) BIG_ROUNDS=${SROUNDS:-3} BIG_REPS=$(( th < 4 ? 3 : 6 )) BIG_AB=none \
        STOP_kron21=$(( slice / 2 )) DEADLINE_S=$(( slice - 15 )) timeout "$l" \
        bash scripts/cpu-ab-interleave.sh "$o.bin" "$o/t$th" kron21 urand21
    done
  fi
} &
run=$!
while kill -0 $run 2>/dev/null; do sleep 20; pack; done
wait $run
echo "rc=$? at $(date -u)" >> "$o/log.txt"
{ uptime; thp; } >> "$o/machine.txt" 2>&1
pack
