#!/bin/bash
# coord call 2 (session 38): near-far NF_ADAPT / NF_SKIP A/B (bench, 2 sources x 5 runs, every run
# checked), a Δ sweep with the new kernel, nearfar tests and sanitizers. Experiment files: sw.py.
set -u
D=.dev/coord; o=$OUT/c2; mkdir -p $o /tmp/g
pack() { ( cd $OUT && tar czf c2.tgz c2 ); }
log() { echo "== $(date -u +%T) $*" | tee -a $o/steps.txt; }
cd $D && xz -d *.xz && chmod +x sssp-lab nearfar-test converter && cd - > /dev/null
S=$D/sssp-lab; A=delta-stepping:worklist=near-far
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
log compile-check
timeout 60 $S solve $D/rmat14.gr -s 1 -a $A -d cuda -o /tmp/g/r14.dist > $o/compile.txt 2>&1 || exit 1
for spec in "kron21 -g" "urand21 -u"; do read -r f fl <<< "$spec"
  [ -f /tmp/g/$f.wel ] || ( $D/converter $fl 21 -k 16 -w -e /tmp/g/$f.wel ) > $o/conv-$f.log 2>&1 &
done
SSSP_LAB_REQUIRE_GPU=cuda SSSP_LAB_NY=assets/USA-road-d.NY.gr.gz timeout 100 $D/nearfar-test --test-threads=1 > $o/tests-nearfar.txt 2>&1; echo "rc=$?" >> $o/tests-nearfar.txt
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck synccheck; do for f in rmat14 rmat15h fan16; do
  timeout 100 $cs --tool $tool $S solve $D/$f.gr -s 1 -a $A -d cuda -o /tmp/g/$f-$tool.dist > $o/sanitize-$tool-$f.txt 2>&1; echo "rc=$?" >> $o/sanitize-$tool-$f.txt
done; done
for f in rmat14 rmat15h fan16; do $S solve $D/$f.gr -s 1 -a dijkstra -o /tmp/g/$f-ref.dist > /dev/null 2>&1
  for tool in memcheck racecheck synccheck; do cmp -s /tmp/g/$f-ref.dist /tmp/g/$f-$tool.dist && echo "$f $tool = dijkstra" >> $o/steps.txt || echo "$f $tool DIFFERS" >> $o/steps.txt; done; done
wait
run() { # name defs json
  SSSP_NF_DEFINES="$2" timeout 70 $S bench $D/$3 --out $o/$1 > $o/$1.log 2>&1; echo "rc=$?" >> $o/$1.log
}
for r in 1 2; do for g in urand21 kron21; do
  run r$r-$g-new "" ab-$g.json
  run r$r-$g-noadapt "NF_ADAPT=0" ab-$g.json
  run r$r-$g-noskip "NF_SKIP=0" ab-$g.json
done; done
for g in urand21 kron21; do run delta-$g "" d-$g.json; done
