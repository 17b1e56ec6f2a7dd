#!/usr/bin/env bash
# Lease 8 (issue 31): prefetching in the relax loop (fast.rs `expand`, SSSP_DS_PREFETCH; the
# default `prefetch_rule`: 8 where the mean degree exceeds 4 and n >= 2^18, i.e. on Kronecker and
# uniform 21, none on roads) against GAP on all four graphs, two back-to-back calls on one warm machine's 16 cores.
# Planned as two calls (CALL=2 with ROUND0=100, REUSE_GRAPHS=1 and the rounds still missing);
# the session had 414 s of device time left, so ONE call ran, on an H200 host, binary of commit
# 0cde7d4: `CALL=1 CALL_S=330 ROUNDS=12 STOP_kron21=175 STOP_urand21=265 BIG_AB_EVERY=2 bash
# .dev/cpu4/call.sh` with .dev/cpu4 carried (binary, GAP's sssp/converter, wsg2wel, lux.gr.gz,
# the scripts) and the road sides cut to prefetch 8 and 16 (AB_ENVS below, as run). Sides per round (scripts/cpu-ab-interleave.sh): GAP(Δa) · ours (the default) ·
# GAP(Δb) · ours with each switch — roads (default: no prefetch, as lease 7): prefetch 8, 16;
# the 21-scale graphs (default: prefetch 8): no prefetch (GAP's loop, the lease-7 default), every
# AB_EVERY-th round.
# GRAPHS picks the graphs and their order; ROUNDS_<graph> / STOP_<graph> as the script says.
# The raw output is tarred into $OUT every 20 s, so a call cut short still brings back what ran.
set -uo pipefail
C=${CALL_S:-450}
N=${CALL:-1}
D=.dev/cpu4
o=/tmp/call$N; mkdir -p "$o"
pack() { tar czf "$OUT/.c.tgz" -C /tmp "call$N" 2>/dev/null && mv "$OUT/.c.tgz" "$OUT/call$N.tgz"; }
xz -dc $D/sssp-lab.xz > /tmp/sssp-lab && chmod +x /tmp/sssp-lab
chmod +x $D/gapbs/* $D/wsg2wel 2>/dev/null
{ date -u; nproc; lscpu | grep -E 'Model name|Socket|Thread|Core|NUMA|L3|MHz'; uptime; free -g
  cat /sys/kernel/mm/transparent_hugepage/enabled /proc/sys/kernel/numa_balancing 2>/dev/null
  ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -12; } > "$o/machine.txt" 2>&1
PEERS=$D LUX_GZ=$D/lux.gr.gz WSG2WEL=$D/wsg2wel ROUNDS=${ROUNDS:-16} BIG_ROUNDS=${BIG_ROUNDS:-16} BIG_REPS=8 \
  BIG_AB_EVERY=${BIG_AB_EVERY:-2} STOP_kron21=${STOP_kron21:-$(( C - 70 ))} STOP_urand21=${STOP_urand21:-$(( C - 70 ))} \
  AB_ENVS="SSSP_DS_PREFETCH=8;SSSP_DS_PREFETCH=16" BIG_AB="SSSP_DS_PREFETCH=0" \
  timeout $(( C - 30 )) bash $D/cpu-ab-interleave.sh /tmp/sssp-lab "$o" ${GRAPHS:-ny lux kron21 urand21} &
run=$!
while kill -0 $run 2>/dev/null; do sleep 20; pack; done
wait $run
echo "rc=$? at $(date -u)" >> "$o/log.txt"
{ uptime; ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -12; } >> "$o/machine.txt" 2>&1
pack
