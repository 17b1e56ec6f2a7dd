#!/bin/bash
# Coordinator check (2026-11-27), tree = main + shell + coord + batch2: the frontier family's one
# Stepper shell on CUDA (tests/cuda.rs, conformance, the roads lesson, memcheck of two frontier
# solves) and the batched many-source near-far kernel (tests/manysource.rs, compute-sanitizer).
cd .dev/chk1 && xz -d *.xz && chmod +x * && cd ../..
export SSSP_LAB_REQUIRE_GPU=cuda SSSP_LAB_NY=$PWD/assets/USA-road-d.NY.gr.gz
nvidia-smi -L > $OUT/gpu.txt
run() { local name=$1 lim=$2; shift 2; local t0=$(date +%s); timeout $lim "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? $(( $(date +%s)-t0 ))s" | tee -a $OUT/summary.txt; tail -3 $OUT/$name.log; }
run cuda 170 .dev/chk1/cuda --test-threads=1
run conformance 150 .dev/chk1/conformance --test-threads=1
run lessons 100 .dev/chk1/lessons gpu_on_roads --nocapture
run manysource 90 .dev/chk1/manysource --test-threads=1
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
b=.dev/chk1/sssp-lab
$b gen -o /tmp/rmat12.gr rmat --scale 12 --edge-factor 16 --seed 3 > /dev/null 2>&1
$b gen -o /tmp/rmat10.gr rmat --scale 10 --edge-factor 8 --seed 3 > /dev/null 2>&1
$b gen -o /tmp/grid32.gr grid --width 32 --height 32 --max-weight 100 --seed 2 > /dev/null 2>&1
for a in crauser-succ martin-pred; do
  run memcheck-$a 60 $cs --tool memcheck $b solve /tmp/rmat12.gr -s 1 -a $a -d cuda -o /tmp/$a.dist
done
for tool in memcheck racecheck synccheck; do
  for f in rmat10 grid32; do
    for w in cuda:0:batch=8@40 cuda:0:batch; do
      tag=$( [ "$w" = cuda:0:batch ] && echo auto || echo d40 )
      run san-$tool-$f-$tag 60 $cs --tool $tool $b apsp /tmp/$f.gr --sources 24:1 --workers $w -o /tmp/$f.tsv
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|SYNCCHECK" $OUT/san-$tool-$f-$tag.log | tail -1 | tee -a $OUT/summary.txt
    done
  done
done
