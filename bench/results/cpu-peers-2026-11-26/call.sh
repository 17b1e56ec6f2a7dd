#!/usr/bin/env bash
# One lease: GAP and ours (scripts/cpu-peer-bench.sh), then the A/B of lease 5's change at 16
# threads: the lease-4 binary (old.xz) and the lease-5 binary on the same cells, interleaved
# per graph (experiments/cpu-ab16-*.json); on the roads also the new binary's switches. Run as `bash .dev/cpu/call.sh lease-5`.
set -uo pipefail
L=${1:-lease-5}
D=.dev/cpu
o=$OUT/$L; mkdir -p "$o"
xz -dc $D/sssp-lab.xz > /tmp/sssp-lab && chmod +x /tmp/sssp-lab
xz -dc $D/old.xz > /tmp/sssp-lab-old && chmod +x /tmp/sssp-lab-old
{ nproc; lscpu | grep -E 'Model name|Socket|Thread|Core|NUMA|L3'; uptime; } > "$o/machine.txt" 2>&1
t0=$(date +%s)
PEERS=$D EXPS=$D/exp LUX_GZ=$D/lux.gr.gz timeout ${BUDGET:-350} bash $D/cpu-peer-bench.sh /tmp/sssp-lab "$o" ${PARTS:-graphs gapbs ours} > "$o/log.txt" 2>&1
echo "main rc=$? after $(( $(date +%s) - t0 )) s" >> "$o/log.txt"
for e in ny lux kron21 urand21; do
  # Leave room for the tar within the 8-minute call.
  (( $(date +%s) - t0 > 400 )) && { echo "ab16 $e skipped (time)" >> "$o/log.txt"; continue; }
  timeout 30 /tmp/sssp-lab-old bench $D/exp16/cpu-ab16-$e.json --out "$o/ab16-old/$e" >> "$o/log.txt" 2>&1
  timeout 30 /tmp/sssp-lab bench $D/exp16/cpu-ab16-$e.json --out "$o/ab16-new/$e" >> "$o/log.txt" 2>&1
  if [[ $e == ny || $e == lux ]]; then
    # The road switches on the new binary (fast.rs Knobs): GAP's no-sharing rule, sharing only
    # from 4 vertices per thread, and fusion thresholds 250 / 4 000 (GAP's 1 000).
    for k in SHARE=0 SHARE=4 FUSE=250 FUSE=4000; do
      env SSSP_DS_$k timeout 30 /tmp/sssp-lab bench $D/exp16/cpu-ab16-$e.json --out "$o/ab16-new-${k,,}/$e" >> "$o/log.txt" 2>&1
    done
  fi
  echo "ab16 $e after $(( $(date +%s) - t0 )) s" >> "$o/log.txt"
done
echo "all after $(( $(date +%s) - t0 )) s" >> "$o/log.txt"
find "$o" -name plots -type d -prune -exec rm -rf {} +
cd $OUT && tar czf $L.tgz $L && rm -rf $L
