#!/bin/bash
# call 6 (final): the committed near-far stage binary on an H100: nearfar tests (CUDA required),
# compute-sanitizer memcheck / racecheck / synccheck on near-far grid phases (R-MAT 14 balanced,
# fan-out 2^16 vertex; memcheck also on fan-out 2^20, where blocks overflow their stage), GAP-16
# beside ours on Kronecker / uniform 21, and the NF_BAL_U=4 A/B.
set -u
D=.dev/gpu3; o=$OUT/d6; mkdir -p $o bench/graphs
pack() { ( cd $OUT && tar czf d6.tgz d6 ); }
log() { echo "== $(date -u +%T) $*" | tee -a $o/steps.txt; }
xz -d $D/sssp-lab.xz $D/nearfar-test.xz; chmod +x $D/sssp-lab $D/converter $D/nearfar-test $D/gap-sssp
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
for spec in "kron21 -g" "urand21 -u"; do read -r f fl <<< "$spec"
  ( $D/converter $fl 21 -k 16 -w -e bench/graphs/$f.wel && $D/converter -f bench/graphs/$f.wel -w -b bench/graphs/$f.wsg ) > $o/conv-$f.log 2>&1 &
done
log tests
SSSP_LAB_REQUIRE_GPU=cuda SSSP_LAB_NY=assets/USA-road-d.NY.gr.gz timeout 100 $D/nearfar-test --test-threads=1 > $o/tests-nearfar.txt 2>&1; echo "rc=$?" >> $o/tests-nearfar.txt
tail -3 $o/tests-nearfar.txt
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
$D/sssp-lab gen -o $o/rmat14.gr rmat --scale 14 --edge-factor 16 --seed 3 > /dev/null 2>&1
$D/sssp-lab gen -o $o/fan16.gr fanout --n 65536 -d 4 --seed 3 > /dev/null 2>&1
$D/sssp-lab gen -o $o/fan20.gr fanout --n 1048576 -d 4 --seed 3 > /dev/null 2>&1
for tool in memcheck racecheck synccheck; do for f in rmat14 fan16; do
  log "sanitizer $tool $f"
  timeout 100 $cs --tool $tool $D/sssp-lab solve $o/$f.gr -s 1 -a delta-stepping:worklist=near-far -d cuda -o $o/$f-$tool.dist > $o/sanitize-$tool-$f.txt 2>&1; echo "rc=$?" >> $o/sanitize-$tool-$f.txt
  tail -2 $o/sanitize-$tool-$f.txt
done; done
log "sanitizer memcheck fan20"
timeout 120 $cs --tool memcheck $D/sssp-lab solve $o/fan20.gr -s 1 -a delta-stepping:worklist=near-far -d cuda -o $o/fan20.dist > $o/sanitize-memcheck-fan20.txt 2>&1; echo "rc=$?" >> $o/sanitize-memcheck-fan20.txt
tail -2 $o/sanitize-memcheck-fan20.txt
$D/sssp-lab solve $o/fan20.gr -s 1 -a dijkstra -o $o/fan20-ref.dist > /dev/null 2>&1
cmp -s $o/fan20.dist $o/fan20-ref.dist && echo "fan20 near-far under memcheck = dijkstra" | tee -a $o/steps.txt
rm -f $o/*.gr $o/*.dist; pack
wait; ls -l bench/graphs > $o/graphs.txt
log gapbs
{ echo "# $(date -u +%FT%TZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2); GAP sssp, OMP_NUM_THREADS=16"
  for spec in "kron21 1 2" "urand21 2 4"; do read -r f d1 d2 <<< "$spec"
    for dl in $d1 $d2; do echo "## graph=$f delta=$dl threads=16"; OMP_NUM_THREADS=16 timeout 90 $D/gap-sssp -f bench/graphs/$f.wsg -d $dl -n 16; done
  done; } > $o/gapbs.txt 2>&1
grep -h "##\|Average" $o/gapbs.txt; pack
for round in 1 2; do for g in kron21 urand21; do for u in 2 4; do
  log "ours $g U=$u round $round"
  SSSP_NF_DEFINES="NF_BAL_U=$u" timeout 80 $D/sssp-lab bench $D/ab-$g.json --out $o/r$round-$g-u$u > $o/r$round-$g-u$u.log 2>&1; echo "rc=$?" >> $o/r$round-$g-u$u.log
  rm -rf $o/r$round-$g-u$u/plots $o/r$round-$g-u$u/report.md $o/r$round-$g-u$u/results.json; pack
done; done; done
log done; pack
