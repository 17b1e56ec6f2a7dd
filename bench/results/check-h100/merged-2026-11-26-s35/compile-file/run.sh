#!/bin/bash
# near-far and batch kernels now compiled through Gpu::compile_file (kernels.rs's load_plain).
cd .dev/final3 && xz -d *.xz && chmod +x nearfar manysource && cd ../..
export SSSP_LAB_REQUIRE_GPU=cuda
nvidia-smi -L > $OUT/gpu.txt
run() { local name=$1 lim=$2; shift 2; local t0=$(date +%s); timeout $lim "$@" > $OUT/$name.log 2>&1; echo "$name rc=$? $(( $(date +%s)-t0 ))s" | tee -a $OUT/summary.txt; tail -3 $OUT/$name.log; }
run nearfar 90 .dev/final3/nearfar --test-threads=1
run manysource 90 .dev/final3/manysource --test-threads=1
