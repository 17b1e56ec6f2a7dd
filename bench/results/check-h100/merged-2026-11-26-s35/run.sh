#!/bin/bash
# Merged tree (s35): CUDA tests, near-far tests, the new lesson on CUDA, many-source batch tests, conformance.
cd .dev/final && xz -d *.xz && chmod +x cuda conformance lessons nearfar manysource sssp-lab && cd ../..
export SSSP_LAB_REQUIRE_GPU=cuda
nvidia-smi -L > $OUT/gpu.txt
run() { local name=$1 lim=$2; shift 2; local t0=$(date +%s); timeout $lim "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? $(( $(date +%s)-t0 ))s" | tee -a $OUT/summary.txt; tail -3 $OUT/$name.log; }
run cuda 150 .dev/final/cuda --test-threads=1
run nearfar 90 .dev/final/nearfar --test-threads=1
run lessons 120 .dev/final/lessons gpu_on_roads --nocapture
run manysource 90 .dev/final/manysource --test-threads=1
run conformance 130 .dev/final/conformance --test-threads=1
