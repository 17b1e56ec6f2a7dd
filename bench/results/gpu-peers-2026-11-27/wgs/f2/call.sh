#!/bin/bash
# coord call f2 (session 46): fused steps with the first launch at 32 steps, unchecked, and solo
# thresholds 8 192 / 16 384, beside two dispatches and CUDA; R-MAT 20, Kronecker 21, uniform 21;
# every side compared with CPU Dijkstra. Binary: commit cc606e4 (as f1).
set -u
D=.dev/coord T=/tmp/w S=.dev/coord/sssp-lab A=delta-stepping:worklist=near-far
o=$OUT/f2; mkdir -p $T $o; cd $D && xz -dkf sssp-lab.xz && xz -dkf converter.xz; chmod +x sssp-lab converter; cd ../..
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
( $D/converter -g 21 -k 16 -w -b $T/kron21.wsg > $o/conv-kron21.log 2>&1
  $D/converter -u 21 -k 16 -w -b $T/urand21.wsg > $o/conv-urand21.log 2>&1 ) &
conv=$!
$S gen -o $T/rmat20.gr rmat --scale 20 --edge-factor 16 --seed 1 > /dev/null 2>&1
$D/converter -f $T/rmat20.gr -w -b $T/rmat20.wsg > $o/conv-rmat20.log 2>&1 && rm -f $T/rmat20.gr
echo "graphs rmat20 at $(el)" >> $o/runs.txt
sweep() { # GRAPH FILE EXTRA-SIDES...
  local k=$1 f=$2
  timeout 60 $S solve $f -s 1 -a dijkstra -d cpu -o $T/want.txt > /dev/null 2>&1
  side $k $f wgpu:0 profile-fused-first32 1 $A SSSP_NF_WG_PROFILE=1 SSSP_NF_WG_FIRST=32
  side $k $f wgpu:0 profile-fused-first32-solo8192 1 $A SSSP_NF_WG_PROFILE=1 SSSP_NF_WG_FIRST=32 SSSP_NF_SOLO_WORK=8192
  for pass in 1 2; do
    side $k $f cuda:0 cuda 5 $A X=0
    side $k $f wgpu:0 two 5 $A SSSP_NF_WG_FUSED=0
    side $k $f wgpu:0 fused 5 $A X=0
    side $k $f wgpu:0 fused-first32 5 $A SSSP_NF_WG_FIRST=32
    side $k $f wgpu:0 fused-first32-unchecked 5 $A SSSP_NF_WG_FIRST=32 SSSP_NF_WG_CHECKED=0
    side $k $f wgpu:0 fused-first32-solo8192 5 $A SSSP_NF_WG_FIRST=32 SSSP_NF_SOLO_WORK=8192
    side $k $f wgpu:0 fused-first32-solo16384 5 $A SSSP_NF_WG_FIRST=32 SSSP_NF_SOLO_WORK=16384
  done
  ( cd $OUT && tar czf f2.tgz f2 )
}
sweep rmat20 $T/rmat20.wsg
rm -f $T/rmat20.wsg
wait $conv
echo "graphs kron urand at $(el)" >> $o/runs.txt
sweep kron21 $T/kron21.wsg
rm -f $T/kron21.wsg
(( $(el) < 400 )) && sweep urand21 $T/urand21.wsg
echo "done at $(el)" >> $o/runs.txt
( cd $OUT && tar czf f2.tgz f2 )
