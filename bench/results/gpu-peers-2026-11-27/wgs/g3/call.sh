#!/bin/bash
# coord call g3 (session 42): the new wgpu defaults (far piles cleared in the builder, grid
# workgroups of 1024, solo threshold 8 192 estimated arcs) beside CUDA on every graph: NY,
# luxembourg, the 2048² grid, R-MAT 20, Kronecker 21, uniform random 21 (GAP's converter, .wsg), the
# 4096² grid (.wsg). A/B: the old solo threshold (SSSP_NF_SOLO_WORK=32768) and grid workgroups
# (SSSP_NF_WG_GRID_WG=512). Every side compared with CPU Dijkstra.
set -u
D=.dev/coord T=/tmp/w
cd $D && xz -dkf sssp-lab.xz && xz -dkf converter.xz; chmod +x sssp-lab converter; cd ../..
o=$OUT/g3; mkdir -p $o $T
pack() { ( cd $OUT && tar czf g3.tgz g3 ); }
S=$D/sssp-lab A=delta-stepping:worklist=near-far
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
gunzip -c assets/USA-road-d.NY.gr.gz > $T/NY.gr
{ echo "health: CUDA NY at $(date +%s)"; timeout 60 $S solve $T/NY.gr -s 1 -a $A -d cuda:0 --repeat 1 2>&1 | tail -2; echo "rc=$?"; } >> $o/runs.txt
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
( $D/converter -g 21 -k 16 -w -b $T/kron21.wsg > $o/conv-kron21.log 2>&1
  $D/converter -u 21 -k 16 -w -b $T/urand21.wsg > $o/conv-urand21.log 2>&1 ) &
conv=$!
$S gen -o $T/rmat20.gr rmat --scale 20 --edge-factor 16 --seed 1 > /dev/null 2>&1
$S gen -o $T/grid2048.gr grid --width 2048 --height 2048 --max-weight 100 --seed 1 > /dev/null 2>&1
gunzip -c $D/lux.gr.gz > $T/lux.gr
side() { # GRAPH FILE SOURCE DEVICE LABEL REPEAT ENV...
  local k=$1 f=$2 s=$3 dev=$4 lab=$5 r=$6; shift 6
  echo "== $k s$s $dev $lab at $(date +%s)" >> $o/runs.txt
  wg "$@" timeout ${SIDE_S:-30} $S solve $f -s $s -a $A -d $dev --repeat $r -o $T/got.txt > $T/side.txt 2>&1
  echo "rc=$?" >> $T/side.txt
  if cmp -s $T/want-$s.txt $T/got.txt; then cat $T/side.txt >> $o/runs.txt; echo "$k s$s $dev $lab: distances = dijkstra" >> $o/runs.txt
  else tail -c 1500 $T/side.txt >> $o/runs.txt; echo "$k s$s $dev $lab: DIFFER" >> $o/runs.txt; fi
  rm -f $T/got.txt
}
# Sources: the first candidates from which Dijkstra reaches over 1 000 vertices.
oracle() { # FILE -> sets SRC
  SRC=""
  for s in 1 2 3 5 8 13 21 34 55 89 144 233; do
    timeout 60 $S solve $1 -s $s -a dijkstra -d cpu -o $T/want-$s.txt > /dev/null 2>&1 || continue
    r=$(grep -vc ' inf$' $T/want-$s.txt); echo "source $s reaches $r" >> $o/runs.txt
    (( r > 1000 )) && SRC="$SRC $s"
    [[ -n $SRC ]] && break
  done
  SRC=$(echo $SRC)
}
graph() { # KEY FILE REPEAT AB...
  local k=$1 f=$2 r=$3; shift 3
  oracle $f
  SRC=${SRC%% *}
  for s in $SRC; do
    for rep in 1 2; do
      side $k $f $s cuda:0 cuda $r X=0
      side $k $f $s wgpu:0 default $r X=0
      for ab in "$@"; do side $k $f $s wgpu:0 "$ab" $r "$ab"; done
    done
    pack
  done
}
graph ny $T/NY.gr 5 SSSP_NF_SOLO_WORK=32768
graph lux $T/lux.gr 5 SSSP_NF_SOLO_WORK=32768
graph grid2048 $T/grid2048.gr 5 SSSP_NF_SOLO_WORK=32768 SSSP_NF_SOLO_WORK=4096
graph rmat20 $T/rmat20.gr 5 SSSP_NF_WG_GRID_WG=512 SSSP_NF_SOLO_WORK=32768
rm -f $T/NY.gr $T/lux.gr $T/grid2048.gr $T/rmat20.gr
wait $conv
graph kron21 $T/kron21.wsg 5 SSSP_NF_WG_GRID_WG=512
graph urand21 $T/urand21.wsg 5 SSSP_NF_WG_GRID_WG=512
rm -f $T/kron21.wsg $T/urand21.wsg
$S gen -o $T/grid4096.gr grid --width 4096 --height 4096 --max-weight 100 --seed 1 > /dev/null 2>&1
$D/converter -f $T/grid4096.gr -w -b $T/grid4096.wsg > $o/conv-grid.log 2>&1; rm -f $T/grid4096.gr
graph grid4096 $T/grid4096.wsg 3 SSSP_NF_SOLO_WORK=32768 SSSP_NF_SOLO_WORK=4096
echo done >> $o/runs.txt
pack
