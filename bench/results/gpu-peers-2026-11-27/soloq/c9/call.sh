#!/bin/bash
# coord call 9 (session 39): CUDA's solo threshold now 8 192 estimated arcs: the 4096² grid beside
# GAP-16 (its Δ sweep, then ours, 2 sources x 5 runs, every run checked) with 4 096 and 16 384 as
# A/B sides; NY and lux with the new default; wgpu (per-arc vertex relax, the default again) beside
# CUDA on NY, lux and the 2048² grid (source 1, distances compared with Dijkstra).
set -u
D=.dev/coord T=/tmp/w
cd $D && xz -dkf sssp-lab.xz; chmod +x sssp-lab sssp converter; cd ../..
o=$OUT/c9; mkdir -p $o $T bench/graphs
pack() { ( cd $OUT && tar czf c9.tgz c9 ); }
log() { echo "== $(date -u +%T) $*" | tee -a $o/steps.txt; }
S=$D/sssp-lab A=delta-stepping:worklist=near-far g=bench/graphs
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
gunzip -c assets/USA-road-d.NY.gr.gz > $g/NY.gr; gunzip -c $D/lux.gr.gz > $g/lux.gr
log graphs
$S gen -o $g/grid4096.gr grid --width 4096 --height 4096 --max-weight 100 --seed 1 > /dev/null 2>&1
$D/converter -f $g/grid4096.gr -w -b $g/grid4096.wsg > $o/conv-grid.log 2>&1 &
$S gen -o $T/grid2048.gr grid --width 2048 --height 2048 --max-weight 100 --seed 1 > /dev/null 2>&1
wait
log gapbs
{ echo "# $(date -u +%FT%TZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  for dl in 100 200 400; do echo "## graph=grid4096 delta=$dl threads=16"; OMP_NUM_THREADS=16 timeout 60 $D/sssp -f $g/grid4096.wsg -d $dl -n 8; done; } > $o/gapbs.txt 2>&1
run() { local n=$1 k=$2; shift 2; log "$n"; env "$@" timeout 90 $S bench $D/gpu-peers-$k.json --out $o/$n > $o/ours-$n.txt 2>&1; echo "rc=$?" >> $o/ours-$n.txt; pack; }
run grid grid SSSP_NF_DEFINES=
run grid-solo4096 grid SSSP_NF_SOLO_WORK=4096
run grid-solo16384 grid SSSP_NF_SOLO_WORK=16384
run ny ny SSSP_NF_DEFINES=
run lux lux SSSP_NF_DEFINES=
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
log wgpu
for spec in "ny $g/NY.gr" "lux $g/lux.gr" "grid2048 $T/grid2048.gr"; do read -r k f <<< "$spec"
  timeout 60 $S solve $f -s 1 -a dijkstra -d cpu -o $T/want.txt > /dev/null 2>&1
  for dev in cuda:0 wgpu:0 cuda:0 wgpu:0; do echo "== $k $dev" >> $o/wgpu.txt
    wg timeout 90 $S solve $f -s 1 -a $A -d $dev --repeat 5 -o $T/got.txt >> $o/wgpu.txt 2>&1
    cmp -s $T/want.txt $T/got.txt && echo "$k $dev: distances = dijkstra" >> $o/wgpu.txt || echo "$k $dev: DIFFER" >> $o/wgpu.txt
  done; pack
done
log done
find $o -name plots -type d -prune -exec rm -rf {} +; rm -f $o/*/results.json
pack
