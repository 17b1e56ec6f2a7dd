#!/bin/bash
# The grid barrier moved into common.cuh (fast.cu and nearfar.cu share it): CUDA tests and near-far tests.
cd .dev/final2 && xz -d *.xz && chmod +x cuda nearfar && cd ../..
export SSSP_LAB_REQUIRE_GPU=cuda
nvidia-smi -L > $OUT/gpu.txt
run() { local name=$1 lim=$2; shift 2; local t0=$(date +%s); timeout $lim "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? $(( $(date +%s)-t0 ))s" | tee -a $OUT/summary.txt; tail -3 $OUT/$name.log; }
run nearfar 90 .dev/final2/nearfar --test-threads=1
run cuda 200 .dev/final2/cuda --test-threads=1
