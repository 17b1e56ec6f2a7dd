#!/bin/bash
# coord call s4 (session 41): wgpu near-far, the defaults after call s3 — a round two dispatches,
# wgpu's runtime checks kept (unchecked was ~10 % slower in s3), grid workgroups of 512, a run's
# first launch 16 rounds (was 4), the adaptive Δ's floor at the auto Δ / 2 — beside CUDA on one
# host. A/B: SSSP_NF_WG_FIRST=4|32, SSSP_NF_ADELTA_MIN_DIV=4 (roads and grid). Source 1,
# --repeat 5 per process, every result compared with CPU Dijkstra; one profile process on the grid and R-MAT.
set -u
D=.dev/coord T=/tmp/w
cd $D && xz -dkf sssp-lab.xz; chmod +x sssp-lab; cd ../..
o=$OUT/s4; mkdir -p $o $T
pack() { ( cd $OUT && tar czf s4.tgz s4 ); }
S=$D/sssp-lab A=delta-stepping:worklist=near-far
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
gunzip -c assets/USA-road-d.NY.gr.gz > $T/NY.gr; gunzip -c $D/lux.gr.gz > $T/lux.gr
$S gen -o $T/grid2048.gr grid --width 2048 --height 2048 --max-weight 100 --seed 1 > /dev/null 2>&1
$S gen -o $T/rmat20.gr rmat --scale 20 --edge-factor 16 --seed 1 > /dev/null 2>&1
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
side() { # GRAPH FILE DEVICE LABEL REPEAT ENV...
  local k=$1 f=$2 dev=$3 lab=$4 r=$5; shift 5
  echo "== $k $dev $lab" >> $o/runs.txt
  wg "$@" timeout 120 $S solve $f -s 1 -a $A -d $dev --repeat $r -o $T/got.txt >> $o/runs.txt 2>&1
  cmp -s $T/want.txt $T/got.txt && echo "$k $dev $lab: distances = dijkstra" >> $o/runs.txt || echo "$k $dev $lab: DIFFER" >> $o/runs.txt
}
for spec in "ny $T/NY.gr" "lux $T/lux.gr" "grid2048 $T/grid2048.gr" "rmat20 $T/rmat20.gr"; do read -r k f <<< "$spec"
  timeout 60 $S solve $f -s 1 -a dijkstra -d cpu -o $T/want.txt > /dev/null 2>&1
  [[ $k == grid2048 || $k == rmat20 ]] && side $k $f wgpu:0 profile 2 SSSP_NF_WG_PROFILE=1
  for rep in 1 2; do
    side $k $f cuda:0 cuda 5 X=0
    side $k $f wgpu:0 default 5 X=0
    side $k $f wgpu:0 first-4 5 SSSP_NF_WG_FIRST=4
    [[ $rep == 1 ]] && side $k $f wgpu:0 first-32 5 SSSP_NF_WG_FIRST=32
    [[ $k != rmat20 ]] && side $k $f wgpu:0 min-div-4 5 SSSP_NF_ADELTA_MIN_DIV=4
    pack
  done
done
echo done >> $o/runs.txt
pack
