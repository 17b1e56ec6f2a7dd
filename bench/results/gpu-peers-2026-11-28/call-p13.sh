#!/bin/bash
# Call p13 (session 49, 2026-11-28): the final binary checked on the GPU machine after the last
# changes (a test of large and small upward searches alternating on one stepper): tests/phast with
# CUDA and wgpu required; compute-sanitizer memcheck and racecheck on that test's CUDA runs; `solve`
# on rome99, NY and luxembourg from 3 sources each on both devices against Dijkstra.
set -u
D=.dev/coord T=/tmp/w S=.dev/coord/sssp-lab o=$OUT/p13; mkdir -p $T $o bench/graphs
cd $D && xz -dkf sssp-lab.xz && xz -dkf phast-gpu-test.xz; chmod +x sssp-lab phast-gpu-test; cd ../..
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
g=bench/graphs; gunzip -c assets/USA-road-d.NY.gr.gz > $g/NY.gr; gunzip -c $D/lux.gr.gz > $g/lux.gr
nvidia-smi --query-gpu=name,driver_version --format=csv > $o/gpu.txt
wg SSSP_LAB_REQUIRE_GPU=cuda,wgpu timeout 200 $D/phast-gpu-test --test-threads=1 > $o/tests.txt 2>&1; echo "rc=$?" >> $o/tests.txt
for tool in memcheck racecheck; do echo "## $tool large_and_small_upward_searches_alternate" >> $o/sanitizers.txt
  wg SSSP_LAB_REQUIRE_GPU=cuda timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 $D/phast-gpu-test large_and_small --test-threads=1 >> $o/sanitizers.txt 2>&1; echo "rc=$?" >> $o/sanitizers.txt
done
for spec in "rome tests/data/rome99.gr.gz" "ny $g/NY.gr" "lux $g/lux.gr"; do read -r k f <<< "$spec"
  for s in 1 77 2001; do
    timeout 60 $S solve $f -s $s -a dijkstra -d cpu -o $T/want.txt > /dev/null 2>&1
    for dev in cuda:0 wgpu:0; do for a in phast phast:top=global; do
      wg timeout 60 $S solve $f -s $s -a $a -d $dev --repeat 3 -o $T/got.txt > /dev/null 2>&1
      cmp -s $T/want.txt $T/got.txt && echo "$k $s $dev $a: distances = dijkstra" >> $o/solve.txt || echo "$k $s $dev $a: DIFFER" >> $o/solve.txt
    done; done
  done
done
tail -3 $o/tests.txt; grep "rc=\|ERROR SUMMARY\|RACECHECK SUMMARY\|test result" $o/sanitizers.txt; grep -c "= dijkstra" $o/solve.txt; grep -c DIFFER $o/solve.txt
