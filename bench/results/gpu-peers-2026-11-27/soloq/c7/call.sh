#!/bin/bash
# coord call 7 (session 39): near-far (commit in README) beside GAP-16 on NY, luxembourg, Kronecker
# 21, uniform 21 and the 4096² grid (scripts/gpu-peer-bench.sh: nearfar tests, graphs, GAP's Δ
# sweep, ours with the auto rules); then A/Bs each in its own process: the L1 prefetch of
# near-appended row offsets off (NF_PF=0) on NY and lux, two rounds; the adaptive Δ counting a grid
# phase's total arcs (NF_AD_GRID=0) and the fixed Δ (SSSP_NF_ADELTA=0) on the grid; solo-phase cycles.
set -u
D=.dev/coord
cd $D && for f in *.xz; do xz -dkf "$f"; done; chmod +x sssp-lab nearfar-test conformance-test sssp converter; cd ../..
o=$OUT/c7; mkdir -p $o /tmp/w
pack() { ( cd $OUT && tar czf c7.tgz c7 ); }
log() { echo "== $(date -u +%T) $*" | tee -a $o/steps.txt; }
S=$D/sssp-lab A=delta-stepping:worklist=near-far
$S gen -o /tmp/w/grid64.gr grid --width 64 --height 64 --max-weight 100 --seed 2 > /dev/null 2>&1
timeout 60 $S solve /tmp/w/grid64.gr -s 1 -a $A -d cuda -o /tmp/w/g64.dist > $o/compile.txt 2>&1 || { cat $o/compile.txt; pack; exit 1; }
( while sleep 20; do pack; done ) & pk=$!
GRAPHS="ny lux kron21 urand21 grid" timeout 330 bash $D/gpu-peer-bench.sh $D $o test graphs gapbs ours > $o/log.txt 2>&1
echo "rc=$?" >> $o/log.txt
g=bench/graphs
run() { local n=$1 k=$2; shift 2; log "$n"; env "$@" timeout 90 $S bench $D/gpu-peers-$k.json --out $o/$n > $o/ours-$n.txt 2>&1; echo "rc=$?" >> $o/ours-$n.txt; }
for r in 1 2; do for k in ny lux; do run r$r-$k-pf0 $k SSSP_NF_DEFINES=NF_PF=0; run r$r-$k-pf1 $k SSSP_NF_DEFINES=; done; done
run grid-adgrid0 grid SSSP_NF_DEFINES=NF_AD_GRID=0
run grid-fixed grid SSSP_NF_ADELTA=0
for spec in "ny $g/NY.gr" "lux $g/lux.gr" "grid $g/grid4096.gr"; do read -r k f <<< "$spec"
  echo "== $k" >> $o/prof.txt
  SSSP_NF_DEFINES="NF_PROF=1" timeout 60 $S solve $f -s 1 -a $A -d cuda --repeat 3 -o /dev/null >> $o/prof.txt 2>&1
  timeout 60 $S solve $f -s 1 -a $A -d cuda --records -o /dev/null 2> $o/rec-$k.txt > /dev/null; gzip -f $o/rec-$k.txt
done
log done
kill $pk; find $o -name plots -type d -prune -exec rm -rf {} +; rm -f $o/*/results.json
pack
