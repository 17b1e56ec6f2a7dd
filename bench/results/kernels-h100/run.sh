#!/bin/bash
# GPU check of branch `kernels` (issue 29 item 4): CUDA tests, conformance, memcheck.
set -u
D=.dev/kernels
S=$(date +%s)
for f in $D/*.xz; do xz -d -T4 "$f" & done; wait
chmod +x $D/cuda $D/conformance $D/sssp-lab
mkdir -p $OUT/r/mc
R=$OUT/r
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; compute-sanitizer --version | tail -1; date -u; } > $R/gpu.txt 2>&1
export SSSP_LAB_REQUIRE_GPU=cuda
( timeout 320 $D/cuda --test-threads=1 > $R/cuda-tests.txt 2>&1; echo "rc=$?" >> $R/cuda-tests.txt ) &
( SSSP_LAB_CONFORMANCE_DEVICES=cuda timeout 320 $D/conformance --test-threads=1 --nocapture > $R/conformance-cuda.txt 2>&1; echo "rc=$?" >> $R/conformance-cuda.txt ) &
G=assets/USA-road-d.NY.gr.gz
$D/sssp-lab gen rmat --scale 12 --edge-factor 8 --out $R/rmat12.gr > /dev/null 2>&1
mc() { # name, args...
  local name=$1; shift
  timeout 300 compute-sanitizer --tool memcheck --error-exitcode 99 --print-limit 20 $D/sssp-lab solve "$@" > $R/mc/$name.log 2>&1
  echo "rc=$? :: $*" >> $R/mc/$name.log
}
for a in martin-succ martin-succ:relax=balanced martin-succ:relax=non-atomic crauser-pred bellman-ford delta-stepping delta-stepping:relax=balanced; do
  for l in fast per-phase; do
    mc "ny-$(echo $a | tr ':=' '__')-$l" $G --source 1 --device cuda:0 --algo $a --launch $l &
  done
done
# Stepped runs (--trace): the per-iteration and counting kernels.
for a in martin-succ:relax=balanced martin-succ:relax=non-atomic crauser-pred crauser-succ delta-stepping:relax=balanced; do
  mc "rmat12-trace-$(echo $a | tr ':=' '__')" $R/rmat12.gr --source 1 --device cuda:0 --algo $a --trace $R/t-$(echo $a | tr ':=' '__').trace.gz &
done
wait
rm -f $R/*.trace.gz $R/rmat12.gr
{ echo "memcheck runs (rc, ERROR SUMMARY, command):"
  for f in $R/mc/*.log; do echo "$(tail -1 $f | cut -d' ' -f1) | $(grep -m1 -o 'ERROR SUMMARY: [0-9]* errors' $f) | $(basename $f .log) | $(grep -m1 -o '[0-9]* reached' $f)"; done
  echo; echo "cuda tests:"; grep -E "^test result|rc=|FAILED|panicked" $R/cuda-tests.txt
  echo; echo "conformance:"; grep -E "^test result|rc=|runs on|FAILED|panicked" $R/conformance-cuda.txt
  echo; echo "wall: $(( $(date +%s) - S )) s"; } > $R/summary.txt
cat $R/summary.txt
tar -czf $OUT/kernels-h100.tar.gz -C $OUT r && rm -rf $OUT/r
