#!/bin/bash
# Diagnostic d3 (session 49): wgpu per-dispatch GPU times (SSSP_PHAST_PROFILE=1, timestamps inside
# the pass) and CUDA per-launch events on NY and luxembourg, and the wgpu single-block threshold
# (SSSP_PHAST_SOLO) with commands encoded ahead, alternating processes, source 1, 20 runs each.
set -u
D=.dev/coord T=/tmp/w S=.dev/coord/sssp-lab o=$OUT/d3; mkdir -p $T $o bench/graphs
cd $D && xz -dkf sssp-lab.xz; chmod +x sssp-lab; cd ../..
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
g=bench/graphs; gunzip -c assets/USA-road-d.NY.gr.gz > $g/NY.gr; gunzip -c $D/lux.gr.gz > $g/lux.gr
for spec in "ny $g/NY.gr" "lux $g/lux.gr"; do read -r k f <<< "$spec"
  for dev in wgpu:0 cuda:0; do echo "== $k $dev" >> $o/profile.txt
    wg SSSP_PHAST_PROFILE=1 timeout 60 $S solve $f -s 1 -a phast -d $dev --repeat 5 -o $T/got.txt >> $o/profile.txt 2>&1
  done
  for r in 1 2; do for solo in 512 1024 2048 4096; do echo "== $k wgpu solo $solo" >> $o/solo.txt
    wg SSSP_PHAST_SOLO=$solo timeout 60 $S solve $f -s 1 -a phast -d wgpu:0 --repeat 20 -o $T/got.txt 2>&1 | grep median >> $o/solo.txt
    echo "== $k wgpu solo $solo profile" >> $o/solo.txt
    wg SSSP_PHAST_SOLO=$solo SSSP_PHAST_PROFILE=1 timeout 60 $S solve $f -s 1 -a phast -d wgpu:0 --repeat 3 -o $T/got.txt 2>&1 | grep profile | tail -1 >> $o/solo.txt
  done; echo "== $k cuda" >> $o/solo.txt; timeout 60 $S solve $f -s 1 -a phast -d cuda:0 --repeat 20 -o $T/got.txt 2>&1 | grep median >> $o/solo.txt; done
done
cat $o/solo.txt
