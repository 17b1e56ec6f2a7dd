#!/usr/bin/env bash
# Lease 17 (session 51, issue 31 item 1), one H100 host's 16 cores, interleaved with GAP process
# by process (scripts/cpu-ab-interleave.sh, as leases 11 and 15). The change under test: on a
# skewed graph of mean degree >= 10 (GAP's WorthRelabelling rule) the rounds run on the graph
# renumbered by degree, hubs first (src/graph/relabel.rs), built untimed when the solver is
# prepared, like the CSR; SSSP_DS_RELABEL=0 turns it off. SSSP_DS_COUNT=1 makes each process
# log "relabel: degree order ready in X ms", the one-off cost per graph.
# CALL=1: Kronecker 21 at 16 threads; each round GAP(Δ1) · ours · GAP(Δ2) · ours RELABEL=0,
# in blocks of 3 rounds until the budget.
# CALL=3: as CALL=1 with the relabelled arrays collapsed into huge pages after the copy (the
# loaders' way) and a third side, SSSP_RELABEL_PAGES=fault (call 1's build: marked before the
# copy), where call 1 saw 15 % of runs stall ~1.5 s on one thread.
# CALL=4: as CALL=1 (the binary of CALL=3, its default), more rounds to pool with call 3.
# CALL=2: Kronecker 21's scaling curve (8, 4, 2, 1 threads) beside GAP with the new default,
# then uniform random 21 at 16 threads with the relabel forced (SSSP_DS_RELABEL=1) as the A/B
# side (the rule leaves uniform graphs as read).
# Run as `CALL=N bash .dev/coord/call.sh`; the raw output is tarred into $OUT every 20 s.
set -uo pipefail
C=${CALL_S:-560}
D=.dev/coord
CALL=${CALL:-1}
o=/tmp/lease17/call$CALL; mkdir -p "$o" bench/graphs
pack() { tar czf "$OUT/.c.tgz" -C /tmp lease17 2>/dev/null && mv "$OUT/.c.tgz" "$OUT/lease17.tgz"; }
bin=/tmp/l17-call$CALL.bin
xz -dc $D/sssp-lab.xz > "$bin" && chmod +x "$bin"
for b in sssp converter; do xz -dc $D/gapbs/$b.xz > $D/gapbs/$b; done
chmod +x $D/gapbs/*
thp() { for f in enabled defrag; do echo "thp/$f: $(cat /sys/kernel/mm/transparent_hugepage/$f 2>/dev/null)"; done
  grep -E 'AnonHugePages|MemFree|MemTotal' /proc/meminfo; }
{ date -u; nproc; uname -r; lscpu | grep -E 'Model name|Socket|Thread|Core|NUMA|L2|L3|MHz|Hypervisor'; uptime; free -g
  thp; ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -8; } > "$o/machine.txt" 2>&1
B=$(( C - 20 ))
T0=$(date +%s)
left() { echo $(( B - ($(date +%s) - T0) )); }
export PEERS=$D OURS_WSG=1 REUSE_GRAPHS=1 BIG_REPS=8 BIG_AB_EVERY=1 SSSP_DS_COUNT=1
{
  if [[ $CALL == 1 || $CALL == 3 || $CALL == 4 ]]; then
    ab="SSSP_DS_RELABEL=0"; [[ $CALL == 3 ]] && ab="SSSP_DS_RELABEL=0;SSSP_RELABEL_PAGES=fault"
    for blk in $(seq 0 11); do
      l=$(left); (( l < 25 )) && break
      echo "block $blk at $(( B - l )) s" >> "$o/blocks.txt"
      THREADS=16 ROUND0=$(( CALL * 1000 + blk * 3 )) BIG_ROUNDS=3 BIG_AB="$ab" DEADLINE_S=$(( l - 12 )) \
        timeout "$l" bash scripts/cpu-ab-interleave.sh "$bin" "$o/t16" kron21
    done
  else
    k=5
    for th in 8 4 2 1; do
      l=$(left); (( l < 30 )) && break
      slice=$(( l * 2 / (k + 1) )); k=$(( k - 1 ))
      THREADS=$th ROUND0=$(( 2000 + 100 * th )) BIG_ROUNDS=3 BIG_REPS=$(( th < 4 ? 3 : 6 )) BIG_AB=none \
        DEADLINE_S=$(( slice - 15 )) timeout "$slice" bash scripts/cpu-ab-interleave.sh "$bin" "$o/t$th" kron21
    done
    for blk in 0 1 2 3 4 5; do
      l=$(left); (( l < 25 )) && break
      THREADS=16 ROUND0=$(( 2000 + blk * 3 )) BIG_ROUNDS=3 BIG_AB="SSSP_DS_RELABEL=1" DEADLINE_S=$(( l - 12 )) \
        timeout "$l" bash scripts/cpu-ab-interleave.sh "$bin" "$o/t16u" urand21
    done
  fi
} &
run=$!
while kill -0 $run 2>/dev/null; do sleep 20; pack; done
wait $run
echo "rc=$? at $(date -u)" >> "$o/log.txt"
{ uptime; thp; } >> "$o/machine.txt" 2>&1
pack
