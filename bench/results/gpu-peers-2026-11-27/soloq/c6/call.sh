#!/bin/bash
# coord call 6 (session 39): racecheck with line tables (the kernel's source as compiled is dumped
# for mapping), and two A/Bs on NY and luxembourg (4 sources x 5, every run checked): waiting blocks
# sleep 1 µs between barrier polls (NF_BAR_SLEEP=1000), row offsets and arcs through L2 only (NF_LDCG=1).
# Binary of commit 7693e5a's parent tree plus those two switches (7693e5a records them).
set -u
D=.dev/coord
cd $D && xz -dkf sssp-lab.xz; chmod +x sssp-lab; cd ../..
o=$OUT/c6; mkdir -p $o/src bench/graphs /tmp/w
pack() { ( cd $OUT && tar czf c6.tgz c6 ); }
log() { echo "== $(date -u +%T) $*" | tee -a $o/steps.txt; }
S=$D/sssp-lab A=delta-stepping:worklist=near-far
gunzip -c assets/USA-road-d.NY.gr.gz > bench/graphs/NY.gr; gunzip -c $D/lux.gr.gz > bench/graphs/lux.gr
$S gen -o /tmp/w/grid64.gr grid --width 64 --height 64 --max-weight 100 --seed 2 > /dev/null 2>&1
gunzip -c $D/rmat14.gr.gz > /tmp/w/rmat14.gr
log racecheck
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for spec in "grid64 sync" "rmat14 sync" "grid64 async"; do read -r f v <<< "$spec"; defs=""; [ $v = async ] && defs="NF_ASYNC=1"
  SSSP_CUDA_DUMP_DIR=$o/src SSSP_NF_DEFINES="$defs" timeout 60 $cs --tool racecheck --show-backtrace no $S solve /tmp/w/$f.gr -s 1 -a $A -d cuda -o /tmp/w/$f.dist > $o/racecheck-$f-$v.txt 2>&1
  mv $o/src/nearfar.cu $o/src/nearfar-$f-$v.cu 2>/dev/null
done
pack
for k in ny lux; do python3 $D/sw.py bench/graphs/$( [ $k = ny ] && echo NY || echo lux ).gr $k "$A" ab-$k 4 5 > /tmp/w/ab-$k.json; done
run() { local n=$1 j=$2; shift 2; env "$@" timeout 60 $S bench /tmp/w/$j.json --out $o/$n > $o/$n.log 2>&1; echo "rc=$?" >> $o/$n.log; }
for r in 1 2; do for k in ny lux; do
  log "round $r $k"
  run r$r-$k-base ab-$k SSSP_NF_DEFINES=
  run r$r-$k-sleep ab-$k SSSP_NF_DEFINES=NF_BAR_SLEEP=1000
  run r$r-$k-ldcg ab-$k SSSP_NF_DEFINES=NF_LDCG=1
  run r$r-$k-both ab-$k "SSSP_NF_DEFINES=NF_LDCG=1 NF_BAR_SLEEP=1000"
  pack
done; done
log done
find $o -name plots -type d -prune -exec rm -rf {} +; rm -f $o/*/results.json
pack
