#!/bin/bash
# coord call g1 (session 42): wgpu near-far beside CUDA on the issue's power-law graphs
# (Kronecker 21, uniform random 21 from GAP's converter, read from its .wsg) and R-MAT 20, with
# the launch's host work reworked (one readback buffer per run, only the logged entries copied
# out, the next launch encoded while the GPU runs the last). A/B: SSSP_NF_WG_AHEAD=0. Then the
# 4096² grid. Every side compared with CPU Dijkstra.
# (Reconstructed after the call from the session's edits: the folder was removed with the tree's
# bench/ before a later carry; the commands are those that ran.)
set -u
D=.dev/coord T=/tmp/w
cd $D && xz -dkf sssp-lab.xz && xz -dkf converter.xz; chmod +x sssp-lab converter; cd ../..
o=$OUT/g1; mkdir -p $o $T
pack() { ( cd $OUT && tar czf g1.tgz g1 ); }
S=$D/sssp-lab A=delta-stepping:worklist=near-far
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
( $D/converter -g 21 -k 16 -w -b $T/kron21.wsg > $o/conv-kron21.log 2>&1
  $D/converter -u 21 -k 16 -w -b $T/urand21.wsg > $o/conv-urand21.log 2>&1 ) &
conv=$!
$S gen -o $T/rmat20.gr rmat --scale 20 --edge-factor 16 --seed 1 > /dev/null 2>&1
side() { # GRAPH FILE SOURCE DEVICE LABEL REPEAT ENV...
  local k=$1 f=$2 s=$3 dev=$4 lab=$5 r=$6; shift 6
  echo "== $k s$s $dev $lab" >> $o/runs.txt
  wg "$@" timeout 120 $S solve $f -s $s -a $A -d $dev --repeat $r -o $T/got.txt >> $o/runs.txt 2>&1
  cmp -s $T/want-$s.txt $T/got.txt && echo "$k s$s $dev $lab: distances = dijkstra" >> $o/runs.txt || echo "$k s$s $dev $lab: DIFFER" >> $o/runs.txt
}
# Sources: the first candidates from which Dijkstra reaches over 1 000 vertices.
oracle() { # FILE -> sets SRC
  SRC=""
  for s in 1 2 3 5 8 13 21 34 55 89 144 233; do
    timeout 60 $S solve $1 -s $s -a dijkstra -d cpu -o $T/want-$s.txt > /dev/null 2>&1 || continue
    r=$(grep -vc ' inf$' $T/want-$s.txt); echo "source $s reaches $r" >> $o/runs.txt
    (( r > 1000 )) && SRC="$SRC $s"
    [[ $(wc -w <<< "$SRC") -ge 2 ]] && break
  done
  SRC=$(echo $SRC)
}
graph() { # KEY FILE
  local k=$1 f=$2
  oracle $f
  side $k $f ${SRC%% *} wgpu:0 profile 2 SSSP_NF_WG_PROFILE=1
  for s in $SRC; do
    side $k $f $s cuda:0 cuda 5 X=0
    side $k $f $s wgpu:0 default 5 X=0
    side $k $f $s wgpu:0 ahead-0 5 SSSP_NF_WG_AHEAD=0
    side $k $f $s cuda:0 cuda 5 X=0
    side $k $f $s wgpu:0 default 5 X=0
    pack
  done
}
graph rmat20 $T/rmat20.gr
wait $conv
graph kron21 $T/kron21.wsg
graph urand21 $T/urand21.wsg
rm -f $T/kron21.wsg $T/urand21.wsg
$S gen -o $T/grid4096.gr grid --width 4096 --height 4096 --max-weight 100 --seed 1 > /dev/null 2>&1
timeout 120 $S solve $T/grid4096.gr -s 1 -a dijkstra -d cpu -o $T/want-1.txt > /dev/null 2>&1
side grid4096 $T/grid4096.gr 1 wgpu:0 profile 1 SSSP_NF_WG_PROFILE=1
side grid4096 $T/grid4096.gr 1 cuda:0 cuda 3 X=0
side grid4096 $T/grid4096.gr 1 wgpu:0 default 3 X=0
side grid4096 $T/grid4096.gr 1 cuda:0 cuda 3 X=0
side grid4096 $T/grid4096.gr 1 wgpu:0 default 3 X=0
echo done >> $o/runs.txt
pack
