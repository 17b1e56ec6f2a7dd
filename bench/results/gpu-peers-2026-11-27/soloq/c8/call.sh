#!/bin/bash
# coord call 8 (session 39, binary of commit 4e52a1b): wgpu near-far on the card's Vulkan driver
# beside CUDA (NY, lux, R-MAT 20; source 1, 10 runs each, distances compared with Dijkstra), the
# wgpu switches off one at a time on the roads (SSSP_NF_WG_VBATCH=0, SSSP_NF_WG_SUBGROUP=0,
# SSSP_NF_ADELTA=0); the solo threshold (SSSP_NF_SOLO_WORK) on the grid and the roads (bench, every
# run checked); the conformance suite and compute-sanitizer with CUDA.
set -u
D=.dev/coord T=/tmp/w
cd $D && for f in sssp-lab conformance-test; do xz -dkf $f.xz; done; chmod +x sssp-lab conformance-test; cd ../..
o=$OUT/c8; mkdir -p $o $T bench/graphs
pack() { ( cd $OUT && tar czf c8.tgz c8 ); }
log() { echo "== $(date -u +%T) $*" | tee -a $o/steps.txt; }
S=$D/sssp-lab A=delta-stepping:worklist=near-far g=bench/graphs
gunzip -c assets/USA-road-d.NY.gr.gz > $g/NY.gr; gunzip -c $D/lux.gr.gz > $g/lux.gr
$S gen -o $T/grid64.gr grid --width 64 --height 64 --max-weight 100 --seed 2 > /dev/null 2>&1
timeout 60 $S solve $T/grid64.gr -s 1 -a $A -d cuda -o $T/g64.dist > $o/compile.txt 2>&1 || { cat $o/compile.txt; pack; exit 1; }
( $S gen -o $g/grid4096.gr grid --width 4096 --height 4096 --max-weight 100 --seed 1 > /dev/null 2>&1
  $S gen -o $T/rmat20.gr rmat --scale 20 --edge-factor 16 --seed 1 > /dev/null 2>&1 ) &
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
cmpd() { cmp -s $T/want.txt $T/got.txt && echo "$1: distances = dijkstra" >> $o/wgpu.txt || echo "$1: DIFFER" >> $o/wgpu.txt; }
log wgpu-roads
for spec in "ny $g/NY.gr" "lux $g/lux.gr"; do read -r k f <<< "$spec"
  timeout 30 $S solve $f -s 1 -a dijkstra -d cpu -o $T/want.txt > /dev/null 2>&1
  for cfg in "cuda:0" "wgpu:0" "wgpu:0 SSSP_NF_WG_VBATCH=0" "wgpu:0 SSSP_NF_WG_SUBGROUP=0" "wgpu:0 SSSP_NF_ADELTA=0" "cuda:0 SSSP_NF_ADELTA=0" "wgpu:0" "cuda:0"; do
    set -- $cfg; dev=$1; shift; echo "== $k $dev $*" >> $o/wgpu.txt
    wg "$@" timeout 60 $S solve $f -s 1 -a $A -d $dev --repeat 10 -o $T/got.txt >> $o/wgpu.txt 2>&1; cmpd "$k $dev $*"
  done; pack
done
wait
log wgpu-rmat
for spec in "rmat20 $T/rmat20.gr"; do read -r k f <<< "$spec"
  timeout 60 $S solve $f -s 1 -a dijkstra -d cpu -o $T/want.txt > /dev/null 2>&1
  for dev in cuda:0 wgpu:0; do echo "== $k $dev" >> $o/wgpu.txt
    wg timeout 120 $S solve $f -s 1 -a $A -d $dev --repeat 5 -o $T/got.txt >> $o/wgpu.txt 2>&1; cmpd "$k $dev"; done; pack
done
log solo-work
run() { local n=$1 k=$2; shift 2; log "$n"; env "$@" timeout 90 $S bench $D/gpu-peers-$k.json --out $o/$n > $o/ours-$n.txt 2>&1; echo "rc=$?" >> $o/ours-$n.txt; pack; }
for k in grid ny lux; do for w in 32768 8192; do run $k-solo$w $k SSSP_NF_SOLO_WORK=$w; done; done
log conformance
SSSP_LAB_REQUIRE_GPU=cuda timeout 100 $D/conformance-test > $o/tests-conformance.txt 2>&1; echo "rc=$?" >> $o/tests-conformance.txt
log sanitizers
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for f in fan16 rmat14; do gunzip -c $D/$f.gr.gz > $T/$f.gr; done
for f in grid64 fan16 rmat14; do $S solve $T/$f.gr -s 1 -a dijkstra -o $T/$f-ref.dist > /dev/null 2>&1
  for tool in racecheck memcheck synccheck; do
    timeout 40 $cs --tool $tool $S solve $T/$f.gr -s 1 -a $A -d cuda -o $T/$f-$tool.dist > $o/sanitize-$tool-$f.txt 2>&1; echo "rc=$?" >> $o/sanitize-$tool-$f.txt
    cmp -s $T/$f-ref.dist $T/$f-$tool.dist && echo "$f $tool = dijkstra" >> $o/steps.txt || echo "$f $tool DIFFERS" >> $o/steps.txt
  done
done
log done
find $o -name plots -type d -prune -exec rm -rf {} +; rm -f $o/*/results.json
pack
