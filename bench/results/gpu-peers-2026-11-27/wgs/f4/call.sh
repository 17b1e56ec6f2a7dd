#!/bin/bash
# coord call f4 (session 46): per-phase records (--records) of CUDA and wgpu (new and old
# defaults) on R-MAT 20 from source 1: the same phases and arcs? Binary: commit 7a862fe.
set -u
D=.dev/coord T=/tmp/w S=.dev/coord/sssp-lab A=delta-stepping:worklist=near-far
o=$OUT/f4; mkdir -p $T $o; cd $D && xz -dkf sssp-lab.xz && xz -dkf converter.xz; chmod +x sssp-lab converter; cd ../..
t0=$(date +%s); el() { echo $(( $(date +%s) - t0 )); }
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
side() { # GRAPH FILE DEVICE LABEL REPEAT ALGO ENV...
  local k=$1 f=$2 dev=$3 lab=$4 rep=$5 al=$6; shift 6
  echo "== $k s1 $dev $lab at $(el)" >> $o/runs.txt
  wg "$@" timeout 40 $S solve $f -s 1 -a $al -d $dev --repeat $rep -o $T/got.txt > $T/side.txt 2>&1
  echo "rc=$?" >> $T/side.txt
  if cmp -s $T/want.txt $T/got.txt; then cat $T/side.txt >> $o/runs.txt; echo "$k s1 $dev $lab: distances = dijkstra" >> $o/runs.txt
  else tail -c 1500 $T/side.txt >> $o/runs.txt; echo "$k s1 $dev $lab: DIFFER" >> $o/runs.txt; fi
  rm -f $T/got.txt
}
$S gen -o $T/rmat20.gr rmat --scale 20 --edge-factor 16 --seed 1 > /dev/null 2>&1
$D/converter -f $T/rmat20.gr -w -b $T/rmat20.wsg > $o/conv-rmat20.log 2>&1 && rm -f $T/rmat20.gr
timeout 60 $S solve $T/rmat20.wsg -s 1 -a dijkstra -d cpu -o $T/want.txt > /dev/null 2>&1
side rmat20 $T/rmat20.wsg cuda:0 cuda-records 1 $A X=0
wg timeout 60 $S solve $T/rmat20.wsg -s 1 -a $A -d cuda:0 --records -o /dev/null > $o/cuda-records.txt 2>&1
wg timeout 60 $S solve $T/rmat20.wsg -s 1 -a $A -d wgpu:0 --records -o /dev/null > $o/wgpu-records.txt 2>&1
wg SSSP_NF_WG_FUSED=0 SSSP_NF_WG_FIRST=16 SSSP_NF_WG_CHECKED=1 timeout 60 $S solve $T/rmat20.wsg -s 1 -a $A -d wgpu:0 --records -o /dev/null > $o/wgpu-old-records.txt 2>&1
echo "done at $(el)" >> $o/runs.txt
( cd $OUT && tar czf f4.tgz f4 )
