#!/usr/bin/env bash
# Issue 11 item 6 on the GPU machine: CPU cells in a process that holds a CUDA context, three
# ways, in one run. Usage: scripts/cpu-in-cuda.sh [SSSP_LAB_BINARY] [OUT_DIR]
set -euo pipefail
bin=${1:-target/release/sssp-lab}
out=${2:-bench/results/cpu-in-cuda}
mkdir -p "$out"
"$bin" bench experiments/cpu-in-cuda-control.json --out "$out/control"
"$bin" bench experiments/cpu-in-cuda-process.json --out "$out/with-cuda"
GLIBC_TUNABLES=glibc.malloc.mmap_threshold=1073741824:glibc.malloc.trim_threshold=1073741824 \
  "$bin" bench experiments/cpu-in-cuda-process.json --out "$out/with-cuda-keep-memory"
