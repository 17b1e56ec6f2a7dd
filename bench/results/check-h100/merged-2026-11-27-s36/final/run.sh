#!/bin/bash
# Coordinator's final check (2026-11-27, session 36), the merged tree: CUDA tests, near-far tests
# on CUDA and wgpu (the card's Vulkan adapter), conformance, many-source; then near-far on CUDA
# and on wgpu where grid phases dominate (R-MAT 20, a 2048² grid), distances against Dijkstra.
set -u
D=$PWD/.dev/chk2 T=/tmp/c2 O=$OUT/final
mkdir -p $T $O
for f in cuda conformance nearfar manysource sssp-lab; do xz -dc $D/$f.xz > $T/$f && chmod +x $T/$f; done
cp $D/libvulkan.so.1 $T/
export LD_LIBRARY_PATH=$T${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} XDG_RUNTIME_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $O/gpu.txt 2>&1
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
export VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan
export SSSP_LAB_NY=$PWD/assets/USA-road-d.NY.gr.gz
run() { local name=$1 lim=$2; shift 2; local t0=$(date +%s); timeout $lim "$@" > $O/$name.log 2>&1; echo "$name rc=$? $(( $(date +%s)-t0 ))s $(grep -E '^test result' $O/$name.log | tail -1)" | tee -a $O/summary.txt; }
SSSP_LAB_REQUIRE_GPU=cuda run cuda 170 $T/cuda --test-threads=1
SSSP_LAB_REQUIRE_GPU=cuda,wgpu run nearfar 120 $T/nearfar --test-threads=1
SSSP_LAB_REQUIRE_GPU=cuda run conformance 150 $T/conformance --test-threads=1
SSSP_LAB_REQUIRE_GPU=cuda run manysource 90 $T/manysource --test-threads=1
A=delta-stepping:worklist=near-far
$T/sssp-lab gen -o $T/rmat20.gr rmat --scale 20 --edge-factor 16 --seed 1 > /dev/null 2>&1
$T/sssp-lab gen -o $T/grid2048.gr grid --width 2048 --height 2048 --max-weight 100 --seed 1 > /dev/null 2>&1
for g in rmat20 grid2048; do
  f=$T/$g.gr
  timeout 60 $T/sssp-lab solve -s 1 -a dijkstra -d cpu -o $T/$g-want.txt $f 2>> $O/check.txt
  for dev in cuda:0 wgpu:0; do
    timeout 60 $T/sssp-lab solve -s 1 -a $A -d $dev -o $T/$g-$dev.txt $f 2>> $O/check.txt
    cmp -s $T/$g-want.txt $T/$g-$dev.txt && echo "$g $dev: distances = dijkstra" >> $O/check.txt || echo "$g $dev: DIFFER" >> $O/check.txt
    for s in 1 1000; do
      echo "== $g $dev source $s" >> $O/times.txt
      timeout 90 $T/sssp-lab solve -s $s -a $A -d $dev --repeat 10 -o /dev/null $f >> $O/times.txt 2>&1
    done
  done
done
grep -E '^==|median|iterations' $O/times.txt | tail -24
cat $O/check.txt | grep -E 'dijkstra|DIFFER'
cd $OUT && tar czf final.tgz final && cp final/summary.txt . && rm -rf final
