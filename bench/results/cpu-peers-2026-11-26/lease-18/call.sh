#!/usr/bin/env bash
# Lease 18 (session 52, issue 31 item 1), one GPU-machine host's 16 cores, interleaved with GAP
# process by process (scripts/cpu-ab-interleave.sh, as leases 11, 15 and 17). The change under
# test: the rounds read each arc as one 32-bit word, head in the low ⌈log2 n⌉ bits and weight
# above (src/graph/packed.rs), wherever they fit (the 21-scale graphs: 21 + 8 bits), built
# untimed when the solver is prepared like the CSR; SSSP_DS_PACK=0 reads the CSR's two arrays.
# SSSP_DS_COUNT=1 makes each process log "pack: ... ready in X ms", the one-off cost per graph.
# CALL=1: Kronecker 21 at 16 threads; each round GAP(Δ1) · ours · GAP(Δ2) · ours PACK=0, in
# blocks of 3 rounds until the budget.
# CALL=2: uniform random 21 at 16 threads, the same A/B, for about half the budget; then
# Kronecker 21's scaling curve (8, 4, 2, 1 threads) beside GAP with the new default.
# CALL=3: as CALL=1, more rounds to pool with call 1 (ROUND0 apart).
# Run as `CALL=N bash .dev/coord/call.sh`; the raw output is tarred into $OUT every 20 s.
set -uo pipefail
C=${CALL_S:-560}
D=.dev/coord
CALL=${CALL:-1}
o=/tmp/lease18/call$CALL; mkdir -p "$o" bench/graphs
pack() { tar czf "$OUT/.c.tgz" -C /tmp lease18 2>/dev/null && mv "$OUT/.c.tgz" "$OUT/lease18.tgz"; }
bin=/tmp/l18-call$CALL.bin
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
ab="SSSP_DS_PACK=0"
{
  if [[ $CALL == 1 || $CALL == 3 ]]; then
    for blk in $(seq 0 11); do
      l=$(left); (( l < 25 )) && break
      echo "block $blk at $(( B - l )) s" >> "$o/blocks.txt"
      THREADS=16 ROUND0=$(( CALL * 1000 + blk * 3 )) BIG_ROUNDS=3 BIG_AB="$ab" DEADLINE_S=$(( l - 12 )) \
        timeout "$l" bash scripts/cpu-ab-interleave.sh "$bin" "$o/t16" kron21
    done
  else
    for blk in 0 1 2 3; do
      l=$(( $(left) - 260 )); (( l < 25 )) && break
      THREADS=16 ROUND0=$(( 2000 + blk * 3 )) BIG_ROUNDS=3 BIG_AB="$ab" DEADLINE_S=$(( l - 12 )) \
        timeout "$l" bash scripts/cpu-ab-interleave.sh "$bin" "$o/t16u" urand21
    done
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
