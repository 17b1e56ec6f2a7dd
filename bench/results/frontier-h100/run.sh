#!/bin/bash
# The frontier helper's one GPU call (issue 29): CUDA tests, conformance (CUDA cases), memcheck.
D=.dev/frontier
for f in cuda conformance sssp-lab; do [ -f $D/$f.xz ] && xz -d $D/$f.xz; done
chmod +x $D/cuda $D/conformance $D/sssp-lab
export HOME=$(mktemp -d) SSSP_LAB_REQUIRE_GPU=cuda
{ date -u; nvidia-smi -L; nproc; compute-sanitizer --version | head -2; } > $OUT/machine.txt 2>&1
(
  s=$SECONDS; timeout 215 $D/cuda --test-threads=1; echo "cuda tests: rc=$? in $((SECONDS-s)) s"
  s=$SECONDS; SSSP_LAB_CONFORMANCE_DEVICES=cuda,cpu timeout 110 $D/conformance --test-threads=1 --nocapture
  echo "conformance: rc=$? in $((SECONDS-s)) s"
) > $OUT/tests.log 2>&1 &
(
  G=$(mktemp -d)/rmat12.gr
  $D/sssp-lab gen -o $G rmat --scale 12 --edge-factor 16
  ms() { # graph, algo, launch
    echo "== compute-sanitizer --tool memcheck sssp-lab solve $1 -s 1 -d cuda:0 -a $2 --launch $3"
    s=$SECONDS
    timeout 60 compute-sanitizer --tool memcheck $D/sssp-lab solve $1 -s 1 -d cuda:0 -a $2 --launch $3 -o /dev/null > $OUT/ms.tmp 2>&1
    rc=$?; grep -v "^[0-9]* [0-9inf]*$" $OUT/ms.tmp | tail -8; echo "rc=$rc in $((SECONDS-s)) s"
  }
  ms assets/USA-road-d.NY.gr.gz martin-succ fast
  ms assets/USA-road-d.NY.gr.gz crauser-pred fast
  ms $G martin-succ per-phase
  ms $G crauser-pred per-phase
  ms $G crauser-pred:split=uh3 per-phase
  rm -f $OUT/ms.tmp
) > $OUT/memcheck.log 2>&1 &
wait
tail -4 $OUT/tests.log; grep -c "ERROR SUMMARY: 0 errors" $OUT/memcheck.log; grep "rc=" $OUT/memcheck.log
