#!/bin/bash
# call 5: near-far with the block stage, Δ sweep on kron21 / urand21 (every run checked).
set -u
D=.dev/gpu3; o=$OUT/d5; mkdir -p $o bench/graphs
pack() { ( cd $OUT && tar czf d5.tgz d5 ); }
xz -dc $D/sssp-lab.xz > /tmp/sssp-lab; chmod +x /tmp/sssp-lab $D/converter
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv > $o/gpu.txt
for g in kron21 urand21; do [ -s bench/graphs/$g.wel ] || { f=-g; [ $g = urand21 ] && f=-u; $D/converter $f 21 -k 16 -w -e bench/graphs/$g.wel > /dev/null 2>&1 & }; done; wait
for g in kron21 urand21; do
  timeout 150 /tmp/sssp-lab bench $D/sw-$g.json --out $o/$g > $o/$g.log 2>&1; echo "rc=$?" >> $o/$g.log
  rm -rf $o/$g/plots $o/$g/report.md; tail -1 $o/$g.log; pack
done
