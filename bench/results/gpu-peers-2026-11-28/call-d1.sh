#!/bin/bash
# Diagnostic (session 48): the staged launch's GPU time against its number of levels (SSSP_PHAST_STAGE_LEVEL caps a staged level's size), per-launch events (SSSP_PHAST_PROFILE).
set -u
D=.dev/coord S=.dev/coord/sssp-lab o=$OUT/d1; mkdir -p $o bench/graphs
cd $D && xz -dkf sssp-lab.xz; chmod +x sssp-lab; cd ../..
gunzip -c assets/USA-road-d.NY.gr.gz > bench/graphs/NY.gr
timeout 60 $S solve bench/graphs/NY.gr -s 1 -a phast -d cpu -o /tmp/x.txt > /dev/null 2>&1
for cap in 1 8 32 128 512 1024 100000; do echo "== cap $cap" >> $o/diag.txt
  SSSP_PHAST_STAGE_LEVEL=$cap SSSP_PHAST_PROFILE=1 timeout 60 $S solve bench/graphs/NY.gr -s 1 -a phast -d cuda:0 --repeat 8 -o /tmp/got.txt 2>&1 | grep "phast profile" | tail -4 | cut -c1-90 >> $o/diag.txt
done
for cap in 1 32 1024 100000; do echo "== graph cap $cap" >> $o/diag.txt
  SSSP_PHAST_STAGE_LEVEL=$cap timeout 60 $S solve bench/graphs/NY.gr -s 1 -a phast -d cuda:0 --repeat 20 -o /tmp/got.txt 2>&1 | grep -E "median|sweep:" | cut -c1-300 >> $o/diag.txt
done
cat $o/diag.txt
