#!/bin/bash
# Call p9 (session 48): the final commit's CUDA reset (the fill queued once) checked: tests/phast with CUDA and wgpu required,
# compute-sanitizer on rome99 (both tops) and NY, solve of NY/lux from 3 sources against Dijkstra.
set -u
D=.dev/coord T=/tmp/w S=.dev/coord/sssp-lab o=$OUT/p9; mkdir -p $T $o bench/graphs
cd $D && xz -dkf sssp-lab.xz && xz -dkf phast-gpu-test.xz; chmod +x sssp-lab phast-gpu-test; cd ../..
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
g=bench/graphs; gunzip -c assets/USA-road-d.NY.gr.gz > $g/NY.gr; gunzip -c $D/lux.gr.gz > $g/lux.gr
nvidia-smi --query-gpu=name,driver_version --format=csv > $o/gpu.txt
wg SSSP_LAB_REQUIRE_GPU=cuda,wgpu timeout 200 $D/phast-gpu-test --test-threads=1 > $o/tests.txt 2>&1; echo "rc=$?" >> $o/tests.txt
for spec in "rome tests/data/rome99.gr.gz" "ny $g/NY.gr" "lux $g/lux.gr"; do read -r k f <<< "$spec"
  for s in 1 77 2001; do
    timeout 60 $S solve $f -s $s -a dijkstra -d cpu -o $T/want.txt > /dev/null 2>&1
    for a in phast phast:top=global; do for env in X=0 SSSP_PHAST_GRAPH=0; do
      env $env timeout 60 $S solve $f -s $s -a $a -d cuda:0 --repeat 3 -o $T/got.txt > /dev/null 2>&1
      cmp -s $T/want.txt $T/got.txt && echo "$k $s $a $env: distances = dijkstra" >> $o/solve.txt || echo "$k $s $a $env: DIFFER" >> $o/solve.txt
    done; done
  done
done
timeout 60 $S solve tests/data/rome99.gr.gz -s 1 -a dijkstra -o $T/want.txt > /dev/null 2>&1
timeout 60 $S solve $g/NY.gr -s 1 -a dijkstra -o $T/want-ny.txt > /dev/null 2>&1
for tool in memcheck racecheck synccheck; do
  for a in phast phast:top=global; do echo "## $tool rome99 $a" >> $o/sanitizers.txt
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $S solve tests/data/rome99.gr.gz -s 1 -a $a -d cuda:0 --block 32 -o $T/got.txt >> $o/sanitizers.txt 2>&1; echo "rc=$?" >> $o/sanitizers.txt
    cmp -s $T/want.txt $T/got.txt && echo "distances = dijkstra" >> $o/sanitizers.txt || echo DIFFER >> $o/sanitizers.txt
  done
  echo "## $tool NY phast" >> $o/sanitizers.txt
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 3 $S solve $g/NY.gr -s 1 -a phast -d cuda:0 -o $T/got.txt >> $o/sanitizers.txt 2>&1; echo "rc=$?" >> $o/sanitizers.txt
  cmp -s $T/want-ny.txt $T/got.txt && echo "distances = dijkstra" >> $o/sanitizers.txt || echo DIFFER >> $o/sanitizers.txt
done
tail -3 $o/tests.txt; grep -c "= dijkstra" $o/solve.txt; grep -c DIFFER $o/solve.txt $o/sanitizers.txt; grep -c "0 errors\|0 hazards" $o/sanitizers.txt
