#!/bin/bash
# tests/nearfar.rs after the phase-count fix, three times, CUDA and wgpu required.
D=$PWD/.dev/chk3 T=/tmp/c3; mkdir -p $T
xz -dc $D/nearfar.xz > $T/nearfar && chmod +x $T/nearfar; cp $D/libvulkan.so.1 $T/
export LD_LIBRARY_PATH=$T XDG_RUNTIME_DIR=$(mktemp -d) SSSP_LAB_NY=$PWD/assets/USA-road-d.NY.gr.gz SSSP_LAB_REQUIRE_GPU=cuda,wgpu
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
export VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan
nvidia-smi -L
for i in 1 2 3; do timeout 100 $T/nearfar --test-threads=1 > $OUT/nearfar-$i.log 2>&1; echo "run $i rc=$? $(grep '^test result' $OUT/nearfar-$i.log)"; grep -A3 panicked $OUT/nearfar-$i.log | head -5; done
