#!/bin/bash
# coord call s1 (session 41): wgpu near-far on the H100 beside CUDA, one host, after the wgpu
# builders wait for their uploads (Gpu::settle: a buffer made with contents is copied in wgpu's
# next submission, so before this the first timed batch carried the graph's upload). NY,
# luxembourg, the 2048² grid and R-MAT 20, CUDA and wgpu defaults, three processes each; on the
# grid also wgpu at a fixed Δ (SSSP_NF_ADELTA=0) of the auto value and of 2× / ½× it.
# Source 1, --repeat 5 per process, every result compared with CPU Dijkstra.
set -u
D=.dev/coord T=/tmp/w
cd $D && xz -dkf sssp-lab.xz; chmod +x sssp-lab; cd ../..
o=$OUT/s1; mkdir -p $o $T
pack() { ( cd $OUT && tar czf s1.tgz s1 ); }
S=$D/sssp-lab A=delta-stepping:worklist=near-far
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
gunzip -c assets/USA-road-d.NY.gr.gz > $T/NY.gr; gunzip -c $D/lux.gr.gz > $T/lux.gr
$S gen -o $T/grid2048.gr grid --width 2048 --height 2048 --max-weight 100 --seed 1 > /dev/null 2>&1
$S gen -o $T/rmat20.gr rmat --scale 20 --edge-factor 16 --seed 1 > /dev/null 2>&1
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
side() { # GRAPH FILE DEVICE LABEL ALGO ENV...
  local k=$1 f=$2 dev=$3 lab=$4 a=$5; shift 5
  echo "== $k $dev $lab" >> $o/runs.txt
  wg "$@" timeout 120 $S solve $f -s 1 -a $a -d $dev --repeat 5 -o $T/got.txt >> $o/runs.txt 2>&1
  cmp -s $T/want.txt $T/got.txt && echo "$k $dev $lab: distances = dijkstra" >> $o/runs.txt || echo "$k $dev $lab: DIFFER" >> $o/runs.txt
}
for spec in "ny $T/NY.gr" "lux $T/lux.gr" "grid2048 $T/grid2048.gr" "rmat20 $T/rmat20.gr"; do read -r k f <<< "$spec"
  timeout 60 $S solve $f -s 1 -a dijkstra -d cpu -o $T/want.txt > /dev/null 2>&1
  for rep in 1 2 3; do
    side $k $f cuda:0 cuda $A X=0
    side $k $f wgpu:0 default $A X=0
    if [[ $k == grid2048 && $rep -le 2 ]]; then
      d=$(grep -o 'Δ = [0-9]*' $o/runs.txt | tail -1 | cut -d' ' -f3)
      for x in $d $((d / 2)) $((d * 2)); do side $k $f wgpu:0 "fixed-delta-$x" "$A,delta=$x" SSSP_NF_ADELTA=0; done
    fi
    pack
  done
done
echo done >> $o/runs.txt
pack
