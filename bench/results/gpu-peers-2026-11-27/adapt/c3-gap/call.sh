#!/bin/bash
# coord call 3 (session 38): near-far with NF_ADAPT/NF_SKIP/NF_CONTIG (commit efa56eb) beside GAP-16
# on NY, luxembourg, Kronecker 21, uniform 21 and the 4096² grid; the NF_SKIP=0 A/B on the
# power-law graphs and NF_ADAPT=0 on the grid, each a separate process after the default one.
# .dev/coord held copies of scripts/gpu-peer-bench.sh (unchanged this session) and experiments/gpu-peers-*.json.
set -u
D=.dev/coord
cd $D && for f in *.xz; do [ -f "${f%.xz}" ] || xz -dk "$f"; done; chmod +x sssp-lab nearfar-test sssp converter; cd ../..
o=$OUT/final; mkdir -p $o
pack() { ( cd $OUT && tar czf final.tgz final ); }
( while sleep 20; do pack; done ) & pk=$!
GRAPHS="ny lux kron21 urand21 grid" timeout 400 bash $D/gpu-peer-bench.sh $D $o test graphs gapbs ours > $o/log.txt 2>&1
echo "rc=$?" >> $o/log.txt
for spec in "kron21 NF_SKIP=0" "urand21 NF_SKIP=0" "grid NF_ADAPT=0"; do read -r k defs <<< "$spec"
  echo "== $(date -u +%T) $k $defs" >> $o/steps.txt
  SSSP_NF_DEFINES="$defs" timeout 100 $D/sssp-lab bench $D/gpu-peers-$k.json --out $o/$k-ab > $o/ours-$k-ab.txt 2>&1; echo "rc=$?" >> $o/ours-$k-ab.txt
done
kill $pk; find $o -name plots -type d -prune -exec rm -rf {} +; rm -f $o/*/results.json
pack
