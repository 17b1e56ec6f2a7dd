#!/usr/bin/env bash
# Lease 11 (issue 31): huge pages. One call, all four graphs interleaved with GAP on the 16 cores
# (scripts/cpu-ab-interleave.sh; from lease-10/call.sh). Binary of branch cpu7: src/graph/huge.rs
# asks for 2 MiB pages (madvise MADV_HUGEPAGE + MADV_COLLAPSE) under the CSR arrays when a graph
# is built and under the Δ-stepping's 32-bit δ array when the solver is prepared (both untimed);
# SSSP_HUGE=0 turns that off. The host's THP mode is `madvise`, so GAP (which does not madvise)
# runs on 4 KiB pages, as its users run it here; machine.txt records the THP settings.
# Sides per round, every graph, every round: GAP(Δa) · ours (the default, huge pages) · GAP(Δb) ·
# ours with SSSP_HUGE=0 (the A/B this lease is for). Roads (17 rounds each) first: their arrays
# are under the 4 MiB threshold, so there the A/B is an A/A check. Then the 21-scale graphs from
# GAP's .wsg in blocks of 3 rounds, uniform then Kronecker, until the time is spent.
# Each process of ours logs "N MiB of this process on huge pages" after building the graph.
# Usage on the device: `bash .dev/cpu7/call.sh` (CALL_S: the seconds the call may take, 470;
# CALL=2: the 21-scale graphs only, rounds numbered from 100 so they pool with call 1's;
# BIG_AB=none drops the A/B side there, ~2x the rounds of GAP against the default).
# The raw output is tarred into $OUT every 20 s, so a call cut short still brings back what ran.
set -uo pipefail
C=${CALL_S:-470}
D=.dev/cpu7
CALL=${CALL:-1}
o=${CALL_DIR:-/tmp/call$CALL}; mkdir -p "$o" bench/graphs
pack() { tar czf "$OUT/.c.tgz" -C "$(dirname "$o")" "$(basename "$o")" 2>/dev/null && mv "$OUT/.c.tgz" "$OUT/call$CALL.tgz"; }
xz -dc $D/sssp-lab.xz > "$o.bin" && chmod +x "$o.bin"
# The carry must fit 64 MiB beside the tree: GAP's binaries come xz'd, and ours was built with
# the bundled NY assets emptied (bench reads NY from assets/ as a file; README, lease 11).
for b in sssp converter; do [[ -f $D/gapbs/$b.xz ]] && xz -dc $D/gapbs/$b.xz > $D/gapbs/$b; done
chmod +x $D/gapbs/* 2>/dev/null
thp() { for f in enabled defrag khugepaged/defrag shmem_enabled; do echo "thp/$f: $(cat /sys/kernel/mm/transparent_hugepage/$f 2>/dev/null)"; done
  grep -E 'AnonHugePages|MemFree|MemTotal' /proc/meminfo; }
{ date -u; nproc; uname -r; lscpu | grep -E 'Model name|Socket|Thread|Core|NUMA|L3|MHz|Hypervisor'; uptime; free -g
  thp; cat /proc/sys/kernel/numa_balancing 2>/dev/null
  ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -12; } > "$o/machine.txt" 2>&1
B=$(( C - 20 ))  # seconds the interleave script gets in all
T0=$(date +%s)
left() { echo $(( B - ($(date +%s) - T0) )); }
export PEERS=$D LUX_GZ=$D/lux.gr.gz OURS_WSG=1 REUSE_GRAPHS=1 REPS=5 BIG_REPS=8 BIG_AB_EVERY=1 \
  AB_ENVS="SSSP_HUGE=0" BIG_AB=${BIG_AB:-SSSP_HUGE=0}
{
  if [[ $CALL == 1 ]]; then
    ROUND0=0 ROUNDS=${ROUNDS:-17} DEADLINE_S=$(( B / 4 )) timeout "$(left)" bash $D/cpu-ab-interleave.sh "$o.bin" "$o" ny lux
  fi
  base=$(( CALL == 1 ? 0 : 100 ))
  for blk in $(seq 0 $(( ${BLOCKS:-12} - 1 ))); do
    l=$(left); (( l < 25 )) && break
    echo "block $blk at $(( B - l )) s" >> "$o/blocks.txt"
    ROUND0=$(( base + blk * 3 )) BIG_ROUNDS=3 DEADLINE_S=$(( l - 12 )) timeout "$l" \
      bash $D/cpu-ab-interleave.sh "$o.bin" "$o" urand21 kron21
  done
} &
run=$!
while kill -0 $run 2>/dev/null; do sleep 20; pack; done
wait $run
echo "rc=$? at $(date -u)" >> "$o/log.txt"
{ uptime; thp; ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -12; } >> "$o/machine.txt" 2>&1
pack
