#!/usr/bin/env bash
# One lease: GAP and ours (scripts/cpu-peer-bench.sh), plus ours on the roads without sharing a
# straggler's bin (SSSP_DS_SHARE=0) and with GAP's rules (that and a fixed chunk of 64).
set -uo pipefail
L=${1:-lease-3}
D=.dev/cpu
o=$OUT/$L; mkdir -p "$o"
xz -dc $D/sssp-lab.xz > /tmp/sssp-lab && chmod +x /tmp/sssp-lab
{ nproc; lscpu | grep -E 'Model name|Socket|Thread|Core|NUMA|L3'; uptime; } > "$o/machine.txt" 2>&1
t0=$(date +%s)
PEERS=$D EXPS=$D/exp LUX_GZ=$D/lux.gr.gz timeout ${BUDGET:-420} bash $D/cpu-peer-bench.sh /tmp/sssp-lab "$o" ${PARTS:-graphs gapbs ours} > "$o/log.txt" 2>&1
echo "main rc=$? after $(( $(date +%s) - t0 )) s" >> "$o/log.txt"
for e in ny lux; do
  SSSP_DS_SHARE=0 timeout 40 /tmp/sssp-lab bench $D/exp/cpu-$e.json --out "$o/$e-noshare" >> "$o/log.txt" 2>&1
  SSSP_DS_SHARE=0 SSSP_DS_CHUNK=64 timeout 40 /tmp/sssp-lab bench $D/exp/cpu-$e.json --out "$o/$e-gaprules" >> "$o/log.txt" 2>&1
done
echo "all after $(( $(date +%s) - t0 )) s" >> "$o/log.txt"
rm -rf "$o"/*/plots
cd $OUT && tar czf $L.tgz $L && rm -rf $L
