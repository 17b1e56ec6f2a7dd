#!/usr/bin/env bash
# Lease 6 (issue 31): the interleaved A/B of GAP and ours on the GPU machine's 16 cores.
# Run as `bash .dev/cpu2/call.sh` with .dev/cpu2 carried (binary, GAP, lux.gr.gz, the scripts).
set -uo pipefail
D=.dev/cpu2
o=$OUT/lease-6; mkdir -p "$o"
xz -dc $D/sssp-lab.xz > /tmp/sssp-lab && chmod +x /tmp/sssp-lab
chmod +x $D/gapbs/* 2>/dev/null
{ date -u; nproc; lscpu | grep -E 'Model name|Socket|Thread|Core|NUMA|L3|MHz'; uptime; free -g; } > "$o/machine.txt" 2>&1
PEERS=$D LUX_GZ=$D/lux.gr.gz ROUNDS=16 DEADLINE_S=${DEADLINE_S:-420} timeout 455 bash $D/cpu-ab-interleave.sh /tmp/sssp-lab "$o" ny lux kron21
echo "rc=$? at $(date -u)" >> "$o/log.txt"
uptime >> "$o/machine.txt"
cd $OUT && tar czf lease-6.tgz lease-6 && rm -rf lease-6
