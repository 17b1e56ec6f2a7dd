#!/bin/bash
# coord call f7 (session 46): an even share per workgroup for the vertex relax too
# (SSSP_NF_WG_EVEN_VERTEX=1) against its default, CUDA beside: the 4096² and 2048² grids, NY,
# luxembourg. Two passes, 5 runs per process, every side compared with CPU Dijkstra.
# Binary: commit b245543 plus an EVEN_VERTEX switch (SSSP_NF_WG_EVEN_VERTEX=1), which commit e4f8209
# made the default (one EVEN switch for both relaxes).
set -u
D=.dev/coord T=/tmp/w S=.dev/coord/sssp-lab A=delta-stepping:worklist=near-far
o=$OUT/f7; mkdir -p $T $o; cd $D && xz -dkf sssp-lab.xz && xz -dkf converter.xz; chmod +x sssp-lab converter; cd ../..
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
side() { # GRAPH FILE SOURCE DEVICE LABEL ENV...
  local k=$1 f=$2 s=$3 dev=$4 lab=$5; shift 5
  echo "== $k s$s $dev $lab at $(el)" >> $o/runs.txt
  wg "$@" timeout 60 $S solve $f -s $s -a $A -d $dev --repeat 5 -o $T/got.txt > $T/side.txt 2>&1
  echo "rc=$?" >> $T/side.txt
  if cmp -s $T/want-$s.txt $T/got.txt; then cat $T/side.txt >> $o/runs.txt; echo "$k s$s $dev $lab: distances = dijkstra" >> $o/runs.txt
  else tail -c 1500 $T/side.txt >> $o/runs.txt; echo "$k s$s $dev $lab: DIFFER" >> $o/runs.txt; fi
  rm -f $T/got.txt
}
sweep() { # GRAPH FILE SOURCES...
  local k=$1 f=$2 s; shift 2
  for s in "$@"; do timeout 60 $S solve $f -s $s -a dijkstra -d cpu -o $T/want-$s.txt > /dev/null 2>&1; done
  for pass in 1 2; do for s in "$@"; do
    side $k $f $s cuda:0 cuda X=0
    side $k $f $s wgpu:0 wgpu X=0
    side $k $f $s wgpu:0 wgpu-even SSSP_NF_WG_EVEN_VERTEX=1
  done; done
  ( cd $OUT && tar czf f7.tgz f7 )
}
gunzip -c assets/USA-road-d.NY.gr.gz > $T/NY.gr
gunzip -c $D/lux.gr.gz > $T/lux.gr
$S gen -o $T/grid2048.gr grid --width 2048 --height 2048 --max-weight 100 --seed 1 > /dev/null 2>&1
$D/converter -f $T/grid2048.gr -w -b $T/grid2048.wsg > $o/conv-grid2048.log 2>&1 && rm -f $T/grid2048.gr
$S gen -o $T/grid4096.gr grid --width 4096 --height 4096 --max-weight 100 --seed 1 > /dev/null 2>&1
$D/converter -f $T/grid4096.gr -w -b $T/grid4096.wsg > $o/conv-grid4096.log 2>&1 && rm -f $T/grid4096.gr
echo "graphs at $(el)" >> $o/runs.txt
sweep grid4096 $T/grid4096.wsg 1
sweep grid2048 $T/grid2048.wsg 1
sweep ny $T/NY.gr 1
sweep lux $T/lux.gr 1
echo "done at $(el)" >> $o/runs.txt
( cd $OUT && tar czf f7.tgz f7 )
