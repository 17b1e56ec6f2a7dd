#!/usr/bin/env bash
# wgpunf's one call: near-far on cuda:0 and on the H100's Vulkan adapter through wgpu (issue 30).
set -uo pipefail
D=$PWD/.dev/wgpunf O=$OUT T=/tmp/nf
mkdir -p $T $O/runs
xz -dc $D/sssp-lab.xz > $T/sssp-lab && chmod +x $T/sssp-lab
xz -dc $D/nftest.xz > $T/nftest && chmod +x $T/nftest
cp $D/libvulkan.so.1 $T/
export LD_LIBRARY_PATH=$T${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} XDG_RUNTIME_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $O/gpu.txt 2>&1
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
echo "libEGL_nvidia: $path" >> $O/gpu.txt
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
export VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan
NY=$PWD/assets/USA-road-d.NY.gr.gz
$T/sssp-lab gen -o $T/grid1024.gr grid --width 1024 --height 1024 --max-weight 100 --seed 1 >> $O/gpu.txt 2>&1
A=delta-stepping:worklist=near-far
# probe: the wgpu adapter must be NVIDIA
$T/sssp-lab solve -s 1 -a $A -d wgpu:0 -o /dev/null $NY 2> $O/probe.txt; grep -q NVIDIA $O/probe.txt || { echo "wgpu adapter is not NVIDIA" >> $O/probe.txt; }
# tests: CUDA and wgpu on the H100
( export SSSP_LAB_NY=$NY SSSP_LAB_REQUIRE_GPU=cuda,wgpu; timeout 150 $T/nftest --test-threads=1 > $O/tests.txt 2>&1; echo "rc=$?" >> $O/tests.txt ) 
for g in ny grid; do
  f=$NY; [ $g = grid ] && f=$T/grid1024.gr
  $T/sssp-lab solve -s 1 -a dijkstra -d cpu -o $T/$g-want.txt $f 2>> $O/check.txt
  for dev in cuda:0 wgpu:0; do
    $T/sssp-lab solve -s 1 -a $A -d $dev -o $T/$g-$dev.txt --records $f 2> $O/runs/records-$g-$dev.jsonl
    cmp -s $T/$g-want.txt $T/$g-$dev.txt && echo "$g $dev: distances = dijkstra" >> $O/check.txt || echo "$g $dev: DIFFER" >> $O/check.txt
    for s in 1 1000 100000; do
      echo "== $g $dev source $s" >> $O/times.txt
      $T/sssp-lab solve -s $s -a $A -d $dev --repeat 10 -o /dev/null $f >> $O/times.txt 2>&1
    done
  done
done
gzip -f $O/runs/*.jsonl
tar -C $O -czf $O/runs.tgz runs && rm -rf $O/runs
