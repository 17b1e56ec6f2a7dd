#!/bin/bash
# Diagnostic d2 (session 48): the staged block's threads (SSSP_PHAST_STAGE_THREADS 256 / 512 / 1024): per-launch GPU times and solve totals.
set -u
D=.dev/coord S=.dev/coord/sssp-lab o=$OUT/d2; mkdir -p $o bench/graphs
cd $D && xz -dkf sssp-lab.xz; chmod +x sssp-lab; cd ../..
g=bench/graphs; gunzip -c assets/USA-road-d.NY.gr.gz > $g/NY.gr; gunzip -c $D/lux.gr.gz > $g/lux.gr
nvidia-smi --query-gpu=name --format=csv > $o/gpu.txt
for f in $g/NY.gr $g/lux.gr; do timeout 60 $S solve $f -s 1 -a phast -d cpu -o /tmp/want-$(basename $f).txt > /dev/null 2>&1; done
for r in 1 2; do for t in 256 512 1024; do for f in $g/NY.gr $g/lux.gr; do
  echo "== $r $(basename $f) threads $t" >> $o/d2.txt
  SSSP_PHAST_STAGE_THREADS=$t SSSP_PHAST_PROFILE=1 timeout 60 $S solve $f -s 1 -a phast -d cuda:0 --repeat 6 -o /tmp/got.txt 2>&1 | grep "phast profile" | tail -3 | cut -c1-80 >> $o/d2.txt
  SSSP_PHAST_STAGE_THREADS=$t timeout 60 $S solve $f -s 1 -a phast -d cuda:0 --repeat 20 -o /tmp/got.txt 2>&1 | grep -E "median" >> $o/d2.txt
  cmp -s /tmp/want-$(basename $f).txt /tmp/got.txt && echo "= dijkstra" >> $o/d2.txt || echo DIFFER >> $o/d2.txt
done; done; done
cat $o/d2.txt
