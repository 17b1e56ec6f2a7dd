#!/bin/bash
set -u
D=.dev/coord
[ -x $D/sssp-lab ] || { xz -dc $D/sssp-lab.xz > $D/sssp-lab; chmod +x $D/sssp-lab; }
mkdir -p bench/graphs $OUT/road-delta
gunzip -c assets/USA-road-d.NY.gr.gz > bench/graphs/NY.gr; gunzip -c $D/lux.gr.gz > bench/graphs/lux.gr
for k in ny lux; do timeout 200 $D/sssp-lab bench $D/road-delta-$k.json --out $OUT/road-delta/$k > $OUT/road-delta/$k.log 2>&1; echo "$k rc=$?"; done
find $OUT -name plots -type d -prune -exec rm -rf {} +
