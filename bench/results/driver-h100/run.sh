#!/bin/bash
# The driver helper's one GPU call (issue 29): CUDA tests, conformance, check, memcheck on NY.
D=.dev/driver
xz -d $D/sssp-lab.xz && chmod +x $D/cuda $D/conformance $D/sssp-lab
export HOME=$(mktemp -d) SSSP_LAB_REQUIRE_GPU=cuda
{ date -u; nvidia-smi -L; nproc; compute-sanitizer --version | head -2; } > $OUT/machine.txt 2>&1
(
  s=$SECONDS; timeout 200 $D/cuda --test-threads=1; echo "cuda tests: rc=$? in $((SECONDS-s)) s"
  s=$SECONDS; SSSP_LAB_CONFORMANCE_DEVICES=cuda,cpu timeout 100 $D/conformance --test-threads=1 --nocapture
  echo "conformance: rc=$? in $((SECONDS-s)) s"
) > $OUT/tests.log 2>&1 &
( s=$SECONDS; timeout 200 $D/sssp-lab check; echo "check: rc=$? in $((SECONDS-s)) s" >&2 ) > $OUT/check.txt 2> $OUT/check.err &
(
  for a in martin-succ crauser-pred; do for l in fast per-phase; do
    echo "== compute-sanitizer --tool memcheck sssp-lab solve assets/USA-road-d.NY.gr.gz -s 1 -d cuda:0 -a $a --launch $l"
    s=$SECONDS
    timeout 75 compute-sanitizer --tool memcheck $D/sssp-lab solve assets/USA-road-d.NY.gr.gz -s 1 -d cuda:0 -a $a --launch $l > $OUT/ms.tmp 2>&1
    rc=$?; tail -12 $OUT/ms.tmp; echo "rc=$rc in $((SECONDS-s)) s"
  done; done; rm -f $OUT/ms.tmp
) > $OUT/memcheck.log 2>&1 &
wait
tail -3 $OUT/tests.log; tail -1 $OUT/check.err; grep -c "ERROR SUMMARY: 0 errors" $OUT/memcheck.log
