#!/usr/bin/env bash
# Session 50, CPU call 1 (issue 31 item 2), one host's 16 cores: the first helper-fold binary
# (queues of vertex ids only; thread 0 read δ and the helpers' marks from shared arrays) on
# experiments/cpu-seed001-fold-{paper,large,huge}.json. Run as `bash .dev/coord/call16.sh`.
set -uo pipefail
o=/tmp/lease16; mkdir -p "$o"
pack() { tar czf "$OUT/.c.tgz" -C /tmp lease16 2>/dev/null && mv "$OUT/.c.tgz" "$OUT/lease16.tgz"; }
xz -dc .dev/coord/sssp-lab.xz > "$o.bin" && chmod +x "$o.bin"
{ date -u; nproc; uname -r; lscpu | grep -E 'Model name|Socket|Thread|Core|NUMA|L3|MHz|Hypervisor'; uptime; free -g
  ps -eo pid,ni,pcpu,nlwp,comm --sort=-pcpu | head -8; } > "$o/machine.txt" 2>&1
for e in paper:120 large:200 huge:230; do t=${e#*:}; e=${e%:*}
  echo "== $e $(date -u +%T)" >> "$o/log.txt"
  timeout $t "$o.bin" bench "experiments/cpu-seed001-fold-$e.json" -o "$o/fold-$e" >> "$o/log.txt" 2>&1
  echo "rc=$? $(date -u +%T)" >> "$o/log.txt"
  pack
done
pack
