#!/bin/bash
# coord call g3c (session 42): g3's confirmation on R-MAT 20, Kronecker 21, uniform random 21 and
# the 4096² grid (GAP's converter, .wsg), sequential as g3b: CUDA and wgpu with the defaults
# (grid workgroups 1024, solo threshold 8 192), two processes each.
set -u
D=.dev/coord T=/tmp/w S=.dev/coord/sssp-lab A=delta-stepping:worklist=near-far
o=$OUT/g3c; mkdir -p $T $o; cd $D && xz -dkf sssp-lab.xz && xz -dkf converter.xz; chmod +x sssp-lab converter; cd ../..
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
gunzip -c assets/USA-road-d.NY.gr.gz > $T/NY.gr; gunzip -c $D/lux.gr.gz > $T/lux.gr
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
pack() { ( cd $OUT && tar czf g3c.tgz g3c ); }
health() { echo "health $1 at $(date +%s)" >> $o/runs.txt; wg X=0 timeout 20 $S solve $T/NY.gr -s 1 -a $A -d cuda:0 --repeat 1 > $T/h.txt 2>&1; echo "rc=$? at $(date +%s)" >> $o/runs.txt; tail -c 300 $T/h.txt >> $o/runs.txt; }
side() { # GRAPH FILE DEVICE LABEL REPEAT ENV...
  local k=$1 f=$2 dev=$3 lab=$4 r=$5; shift 5
  echo "== $k s1 $dev $lab at $(date +%s)" >> $o/runs.txt
  wg "$@" timeout 30 $S solve $f -s 1 -a $A -d $dev --repeat $r -o $T/got.txt > $T/side.txt 2>&1
  echo "rc=$?" >> $T/side.txt
  if cmp -s $T/want.txt $T/got.txt; then cat $T/side.txt >> $o/runs.txt; echo "$k s1 $dev $lab: distances = dijkstra" >> $o/runs.txt
  else tail -c 1500 $T/side.txt >> $o/runs.txt; echo "$k s1 $dev $lab: DIFFER" >> $o/runs.txt; fi
  rm -f $T/got.txt
}
$D/converter -g 21 -k 16 -w -b $T/kron21.wsg > $o/conv-kron21.log 2>&1
$D/converter -u 21 -k 16 -w -b $T/urand21.wsg > $o/conv-urand21.log 2>&1
$S gen -o $T/rmat20.gr rmat --scale 20 --edge-factor 16 --seed 1 > /dev/null 2>&1
$S gen -o $T/grid4096.gr grid --width 4096 --height 4096 --max-weight 100 --seed 1 > /dev/null 2>&1
$D/converter -f $T/grid4096.gr -w -b $T/grid4096.wsg > $o/conv-grid.log 2>&1; rm -f $T/grid4096.gr
for spec in "rmat20 $T/rmat20.gr 5" "kron21 $T/kron21.wsg 5" "urand21 $T/urand21.wsg 5" "grid4096 $T/grid4096.wsg 3"; do read -r k f r <<< "$spec"
  timeout 60 $S solve $f -s 1 -a dijkstra -d cpu -o $T/want.txt > /dev/null 2>&1
  for rep in 1 2; do
    side $k $f cuda:0 cuda $r X=0
    side $k $f wgpu:0 default $r X=0
    pack
  done
done
echo done >> $o/runs.txt
pack
