#!/bin/bash
# Final commit e28430c: tests/nearfar.rs (CUDA and wgpu required) and tests/manysource.rs (CUDA)
# after the last host-code refactors (wgpu near-far's pipelines, the batch worker's Δ choice).
D=$PWD/.dev/chk4 T=/tmp/c4; mkdir -p $T
for f in nearfar manysource; do xz -dc $D/$f.xz > $T/$f && chmod +x $T/$f; done; cp $D/libvulkan.so.1 $T/
export LD_LIBRARY_PATH=$T XDG_RUNTIME_DIR=$(mktemp -d) SSSP_LAB_NY=$PWD/assets/USA-road-d.NY.gr.gz
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
export VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan
nvidia-smi -L | tee $OUT/gpu.txt
SSSP_LAB_REQUIRE_GPU=cuda,wgpu timeout 100 $T/nearfar --test-threads=1 > $OUT/nearfar.log 2>&1; echo "nearfar rc=$? $(grep '^test result' $OUT/nearfar.log)"
SSSP_LAB_REQUIRE_GPU=cuda timeout 100 $T/manysource --test-threads=1 > $OUT/manysource.log 2>&1; echo "manysource rc=$? $(grep '^test result' $OUT/manysource.log)"
