#!/usr/bin/env bash
# Lease 19 (session 53, issue 31 item 1), one GPU-machine host's 16 cores, interleaved with GAP
# process by process (scripts/cpu-ab-interleave.sh, as leases 11, 15, 17 and 18). The change
# under test: each row of the graph renumbered by degree sorted by new head id, as GAP's
# RelabelByDegree sorts every neighbourhood (src/graph/relabel.rs); SSSP_RELABEL_SORT=0 is
# lease 17-18's build (rows in the order read), SSSP_RELABEL_TIES=hub groups the vertices of
# one degree by their highest-ranked neighbour. SSSP_DS_COUNT=1 logs the build's one-off cost.
# CALL=1 / 3: Kronecker 21 at 16 threads; each round GAP(Δ1) · ours · GAP(Δ2) · ours SORT=0 ·
# ours TIES=hub, in blocks of 3 rounds until the budget (ROUND0 apart per call).
# CALL=2: Kronecker 21's scaling curve (8, 4, 2, 1 threads) beside GAP with the default.
# CALL=4: the session's final binary (the build's tasks cut at 64 Ki arcs, the hub-ties switch
# removed: the same renumbered graph), as CALL=1 with SSSP_RELABEL_SORT=0 the only A/B side.
# Run as `CALL=N bash .dev/coord/call.sh`; the raw output is tarred into $OUT every 20 s.
set -uo pipefail
C=${CALL_S:-560}
D=.dev/coord
CALL=${CALL:-1}
o=/tmp/lease19/call$CALL; mkdir -p "$o" bench/graphs
pack() { tar czf "$OUT/.c.tgz" -C /tmp lease19 2>/dev/null && mv "$OUT/.c.tgz" "$OUT/lease19.tgz"; }
bin=/tmp/l19-call$CALL.bin
xz -dc $D/sssp-lab.xz > "$bin" && chmod +x "$bin"
for b in sssp converter; do [[ -x $D/gapbs/$b ]] || xz -dc $D/gapbs/$b.xz > $D/gapbs/$b; done
chmod +x $D/gapbs/*
thp() { for f in enabled defrag; do echo "thp/$f: $(cat /sys/kernel/mm/transparent_hugepage/$f 2>/dev/null)"; done
  grep -E 'AnonHugePages|MemFree|MemTotal' /proc/meminfo; }
{ date -u; nproc; uname -r; lscpu | grep -E 'Model name|Socket|Thread|Core|NUMA|L2|L3|MHz|Hypervisor'; uptime; free -g
  thp; ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -8; } > "$o/machine.txt" 2>&1
B=$(( C - 20 ))
T0=$(date +%s)
left() { echo $(( B - ($(date +%s) - T0) )); }
export PEERS=$D OURS_WSG=1 REUSE_GRAPHS=1 BIG_REPS=8 BIG_AB_EVERY=1 SSSP_DS_COUNT=1
ab="SSSP_RELABEL_SORT=0;SSSP_RELABEL_TIES=hub"
[[ $CALL == 4 ]] && ab="SSSP_RELABEL_SORT=0"
{
  if [[ $CALL == 1 || $CALL == 3 || $CALL == 4 ]]; then
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
  fi
} &
run=$!
while kill -0 $run 2>/dev/null; do sleep 20; pack; done
wait $run
echo "rc=$? at $(date -u)" >> "$o/log.txt"
{ uptime; thp; } >> "$o/machine.txt" 2>&1
pack
