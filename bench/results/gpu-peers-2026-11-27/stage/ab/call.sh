#!/bin/bash
# call 4 (2026-11-27, H100): near-far's block stage (kernels/nearfar.cu NF_STAGE) A/B on kron21,
# urand21, NY, interleaved processes (stage on / off, two rounds), every run checked against
# Dijkstra; the nearfar and conformance tests with CUDA required. Run as `bash .dev/gpu3/call4.sh`
# with the stripped binaries (sssp-lab, the nearfar and conformance test binaries) and GAP's
# converter in .dev/gpu3.
set -u
D=.dev/gpu3; o=$OUT/d4; mkdir -p $o bench/graphs
pack() { ( cd $OUT && tar czf d4.tgz d4 ); }
xz -d $D/sssp-lab.xz $D/nearfar-test.xz $D/conf-test.xz; chmod +x $D/sssp-lab $D/converter $D/nearfar-test $D/conf-test
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv > $o/gpu.txt
( $D/converter -g 21 -k 16 -w -e bench/graphs/kron21.wel > /dev/null 2>&1 ) &
( $D/converter -u 21 -k 16 -w -e bench/graphs/urand21.wel > /dev/null 2>&1 ) &
export SSSP_LAB_REQUIRE_GPU=cuda SSSP_LAB_NY=assets/USA-road-d.NY.gr.gz
timeout 100 $D/nearfar-test --test-threads=1 > $o/tests-nearfar.txt 2>&1; echo "rc=$?" >> $o/tests-nearfar.txt
timeout 150 $D/conf-test --test-threads=1 > $o/tests-conformance.txt 2>&1; echo "rc=$?" >> $o/tests-conformance.txt
wait; pack
for round in 1 2; do
  for g in ny kron21 urand21; do
    for st in 1 0; do
      SSSP_NF_STAGE=$st timeout 70 $D/sssp-lab bench $D/ab-$g.json --out $o/r$round-$g-s$st > $o/r$round-$g-s$st.log 2>&1; echo "rc=$?" >> $o/r$round-$g-s$st.log
      rm -rf $o/r$round-$g-s$st/plots $o/r$round-$g-s$st/report.md
      pack
    done
  done
done
