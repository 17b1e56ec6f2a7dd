#!/bin/bash
# coord call w4 (session 40): wgpu near-far on the H100 beside CUDA, one host: two near items per
# invocation and pass with both vertices' arc operations issued together (SSSP_NF_WG_TWO=1), the
# solo threshold lowered so that big grid phases run on all SMs (SSSP_NF_SOLO_WORK=4096 / 2048);
# R-MAT 20: the δ pre-read back on (SSSP_NF_WG_PRECHECK=1; off is the default now). Source 1,
# --repeat 5 per process, each side twice, every result compared with CPU Dijkstra.
set -u
D=.dev/coord T=/tmp/w
cd $D && xz -dkf sssp-lab.xz; chmod +x sssp-lab; cd ../..
o=$OUT/w4; mkdir -p $o $T
pack() { ( cd $OUT && tar czf w4.tgz w4 ); }
S=$D/sssp-lab A=delta-stepping:worklist=near-far
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
gunzip -c assets/USA-road-d.NY.gr.gz > $T/NY.gr; gunzip -c $D/lux.gr.gz > $T/lux.gr
$S gen -o $T/grid2048.gr grid --width 2048 --height 2048 --max-weight 100 --seed 1 > /dev/null 2>&1
$S gen -o $T/rmat20.gr rmat --scale 20 --edge-factor 16 --seed 1 > /dev/null 2>&1
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
side() { # GRAPH FILE DEVICE LABEL ENV...
  local k=$1 f=$2 dev=$3 lab=$4; shift 4
  echo "== $k $dev $lab" >> $o/runs.txt
  wg "$@" timeout 120 $S solve $f -s 1 -a $A -d $dev --repeat 5 -o $T/got.txt >> $o/runs.txt 2>&1
  cmp -s $T/want.txt $T/got.txt && echo "$k $dev $lab: distances = dijkstra" >> $o/runs.txt || echo "$k $dev $lab: DIFFER" >> $o/runs.txt
}
for spec in "ny $T/NY.gr" "lux $T/lux.gr" "grid2048 $T/grid2048.gr" "rmat20 $T/rmat20.gr"; do read -r k f <<< "$spec"
  timeout 60 $S solve $f -s 1 -a dijkstra -d cpu -o $T/want.txt > /dev/null 2>&1
  for rep in 1 2; do
    side $k $f cuda:0 cuda X=0
    side $k $f wgpu:0 default X=0
    if [[ $k == rmat20 ]]; then
      side $k $f wgpu:0 precheck SSSP_NF_WG_PRECHECK=1
    else
      side $k $f wgpu:0 two SSSP_NF_WG_TWO=1
      side $k $f wgpu:0 solo4096 SSSP_NF_SOLO_WORK=4096
      side $k $f wgpu:0 solo2048 SSSP_NF_SOLO_WORK=2048
      side $k $f wgpu:0 two-solo4096 SSSP_NF_WG_TWO=1 SSSP_NF_SOLO_WORK=4096
    fi
    pack
  done
done
echo done >> $o/runs.txt
pack
