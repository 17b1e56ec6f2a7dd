#!/bin/bash
# coord call g3b (session 42): g3's confirmation on the roads and the 2048² grid, sequential (g3's
# three attempts hung in every solve side; the diagnostic call ran each side alone fine). Health
# checks between the steps say which step hangs a later solve, if one does.
set -u
D=.dev/coord T=/tmp/w S=.dev/coord/sssp-lab A=delta-stepping:worklist=near-far
o=$OUT/g3b; mkdir -p $T $o; cd $D && xz -dkf sssp-lab.xz; chmod +x sssp-lab; cd ../..
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
gunzip -c assets/USA-road-d.NY.gr.gz > $T/NY.gr; gunzip -c $D/lux.gr.gz > $T/lux.gr
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
pack() { ( cd $OUT && tar czf g3b.tgz g3b ); }
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
health 0
$S gen -o $T/grid2048.gr grid --width 2048 --height 2048 --max-weight 100 --seed 1 > /dev/null 2>&1
health after-gen
for spec in "ny $T/NY.gr" "lux $T/lux.gr" "grid2048 $T/grid2048.gr"; do read -r k f <<< "$spec"
  timeout 60 $S solve $f -s 1 -a dijkstra -d cpu -o $T/want.txt > /dev/null 2>&1
  health after-oracle-$k
  for rep in 1 2; do
    side $k $f cuda:0 cuda 5 X=0
    side $k $f wgpu:0 default 5 X=0
    side $k $f wgpu:0 solo-32768 5 SSSP_NF_SOLO_WORK=32768
    pack
  done
done
echo done >> $o/runs.txt
pack
