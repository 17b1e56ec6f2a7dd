#!/usr/bin/env bash
# Lease 7 (issue 31): what makes our runs stall. GAP and ours interleaved on all four graphs in
# one call on the GPU machine's 16 cores. Run as `CALL_S=… bash .dev/cpu3/call.sh` with .dev/cpu3
# carried (binary, GAP's sssp/converter, wsg2wel, lux.gr.gz, the scripts). Sides per round:
# GAP(Δa) · ours (the default: no GPU probe, team and δ array started before the timed run) ·
# GAP(Δb) · ours with each switch — roads: the old GPU probe (SSSP_LAB_PROBE=1), pinning,
# spinning waiters that yield, a team that stays hot 50 ms between runs, pinning + yield; the
# 21-scale graphs, every other round: the road switch with the lowest medians (AUTO_FROM).
# The raw output is tarred into $OUT every 20 s, so a call cut short still brings back what ran.
set -uo pipefail
# CALL_S: the seconds the call may run; the graphs' stops and the last tar are fitted into it.
C=${CALL_S:-480}
D=.dev/cpu3
o=/tmp/lease-7; mkdir -p "$o"
pack() { tar czf "$OUT/.l7.tgz" -C /tmp lease-7 2>/dev/null && mv "$OUT/.l7.tgz" "$OUT/lease-7.tgz"; }
xz -dc $D/sssp-lab.xz > /tmp/sssp-lab && chmod +x /tmp/sssp-lab
chmod +x $D/gapbs/* $D/wsg2wel 2>/dev/null
{ date -u; nproc; lscpu | grep -E 'Model name|Socket|Thread|Core|NUMA|L3|MHz'; uptime; free -g
  cat /sys/kernel/mm/transparent_hugepage/enabled /proc/sys/kernel/numa_balancing 2>/dev/null
  ls /usr/share/vulkan/icd.d /etc/vulkan/icd.d 2>/dev/null
  ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -15; } > "$o/machine.txt" 2>&1
PEERS=$D LUX_GZ=$D/lux.gr.gz WSG2WEL=$D/wsg2wel ROUNDS=${ROUNDS:-12} BIG_ROUNDS=10 BIG_REPS=8 BIG_AB_EVERY=2 \
  STOP_kron21=$(( C * 53 / 100 )) STOP_urand21=$(( C - 75 )) \
  AB_ENVS="SSSP_LAB_PROBE=1;SSSP_DS_PIN=1;SSSP_DS_YIELD=1;SSSP_DS_HOT=50;SSSP_DS_PIN=1 SSSP_DS_YIELD=1" \
  AUTO_FROM="SSSP_DS_PIN=1;SSSP_DS_YIELD=1;SSSP_DS_HOT=50;SSSP_DS_PIN=1 SSSP_DS_YIELD=1" BIG_AB=auto \
  timeout $(( C - 35 )) bash $D/cpu-ab-interleave.sh /tmp/sssp-lab "$o" ny lux kron21 urand21 &
run=$!
while kill -0 $run 2>/dev/null; do sleep 20; pack; done
wait $run
echo "rc=$? at $(date -u)" >> "$o/log.txt"
{ uptime; ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -15; } >> "$o/machine.txt" 2>&1
pack
