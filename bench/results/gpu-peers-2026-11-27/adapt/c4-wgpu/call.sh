#!/bin/bash
# coord call 4 (session 38): the merged tree (CUDA NF_ADAPT/SKIP/CONTIG + wgpu's workgroup stage and
# skip): near-far tests on CUDA and wgpu (the card's Vulkan adapter), then near-far on cuda:0 and
# wgpu:0 on R-MAT 20 and Kronecker 21 (and NY), with the wgpu switches off for the A/B.
set -u
D=$PWD/.dev/coord T=/tmp/w O=$OUT/wgpu
mkdir -p $T $O
pack() { ( cd $OUT && tar czf wgpu.tgz wgpu ); }
for f in sssp-lab nearfar-test; do xz -dc $D/$f.xz > $T/$f && chmod +x $T/$f; done
chmod +x $D/converter
cp $D/libvulkan.so.1 $T/
export LD_LIBRARY_PATH=$T${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} XDG_RUNTIME_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv > $O/gpu.txt 2>&1
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
export VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan
NY=$PWD/assets/USA-road-d.NY.gr.gz
( $D/converter -g 21 -k 16 -w -e $T/kron21.wel > $O/conv-kron21.log 2>&1 ) &
$T/sssp-lab gen -o $T/rmat20.gr rmat --scale 20 --edge-factor 16 --seed 1 > /dev/null 2>&1
( export SSSP_LAB_NY=$NY SSSP_LAB_REQUIRE_GPU=cuda,wgpu; timeout 120 $T/nearfar-test --test-threads=1 > $O/tests.txt 2>&1; echo "rc=$?" >> $O/tests.txt )
tail -n 3 $O/tests.txt; pack
wait
A=delta-stepping:worklist=near-far
for spec in "rmat20 $T/rmat20.gr 1" "kron21 $T/kron21.wel 1433988" "ny $NY 1"; do read -r g f s <<< "$spec"
  timeout 90 $T/sssp-lab solve -s $s -a dijkstra -d cpu -o $T/want.txt $f 2>> $O/check.txt
  for dev in cuda:0 wgpu:0; do
    timeout 90 $T/sssp-lab solve -s $s -a $A -d $dev -o $T/got.txt --records $f 2> $O/rec-$g-$dev.txt
    cmp -s $T/want.txt $T/got.txt && echo "$g $dev: distances = dijkstra" >> $O/check.txt || echo "$g $dev: DIFFER" >> $O/check.txt
    gzip -f $O/rec-$g-$dev.txt
  done
  pack
  for r in 1 2; do
    for cfg in "cuda:0" "wgpu:0" "wgpu:0 SSSP_NF_WG_STAGE=0" "wgpu:0 SSSP_NF_SKIP=0" "cuda:0 SSSP_NF_SKIP=0"; do
      [ $r = 2 ] && [[ $cfg == *=0* ]] && continue
      set -- $cfg; dev=$1; shift
      echo "== $g s=$s r=$r $cfg" >> $O/times.txt
      env "$@" timeout 90 $T/sssp-lab solve -s $s -a $A -d $dev --repeat 10 -o /dev/null $f >> $O/times.txt 2>&1
      pack
    done
  done
done
grep -E '^==|median' $O/times.txt | paste - - | sed 's/ms, max.*//' ; cat $O/check.txt | grep -E 'dijkstra|DIFFER'
pack
