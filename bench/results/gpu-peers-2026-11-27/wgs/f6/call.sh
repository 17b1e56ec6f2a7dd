#!/bin/bash
# coord call f6 (session 46): the final binary's wgpu near-far beside CUDA on every graph class of
# the wgpu/CUDA targets but the grids: NY and luxembourg (vertex relax: unchanged defaults), R-MAT
# 20 (sources 1 and 2), Kronecker 21 and uniform random 21 (balanced relax: fused steps, first
# launch 32, unchecked, even share). Two passes, 5 runs per process, every side compared with CPU
# Dijkstra. Binary: commit 714cf96 (the code of 6061f6f).
set -u
D=.dev/coord T=/tmp/w S=.dev/coord/sssp-lab A=delta-stepping:worklist=near-far
o=$OUT/f6; mkdir -p $T $o; cd $D && xz -dkf sssp-lab.xz && xz -dkf converter.xz; chmod +x sssp-lab converter; cd ../..
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
  done; done
  ( cd $OUT && tar czf f6.tgz f6 )
}
( $D/converter -g 21 -k 16 -w -b $T/kron21.wsg > $o/conv-kron21.log 2>&1
  $D/converter -u 21 -k 16 -w -b $T/urand21.wsg > $o/conv-urand21.log 2>&1 ) &
conv=$!
gunzip -c assets/USA-road-d.NY.gr.gz > $T/NY.gr
gunzip -c $D/lux.gr.gz > $T/lux.gr
$S gen -o $T/rmat20.gr rmat --scale 20 --edge-factor 16 --seed 1 > /dev/null 2>&1
$D/converter -f $T/rmat20.gr -w -b $T/rmat20.wsg > $o/conv-rmat20.log 2>&1 && rm -f $T/rmat20.gr
echo "graphs at $(el)" >> $o/runs.txt
sweep ny $T/NY.gr 1
sweep lux $T/lux.gr 1
sweep rmat20 $T/rmat20.wsg 1 2
rm -f $T/rmat20.wsg
wait $conv
sweep kron21 $T/kron21.wsg 1
rm -f $T/kron21.wsg
sweep urand21 $T/urand21.wsg 1
echo "done at $(el)" >> $o/runs.txt
( cd $OUT && tar czf f6.tgz f6 )
