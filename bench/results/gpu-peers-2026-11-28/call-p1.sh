#!/bin/bash
# Call p1 (session 47, 2026-11-28): PHAST (`phast`: a contraction hierarchy built once per graph,
# then an upward search and one sweep phase per level) on the H100 beside GAP's sssp on 16 threads
# (Δ tuned per graph) on NY and luxembourg, in one call on one host. Before the timings: the CUDA
# tests of tests/phast_gpu.rs (CUDA required) and compute-sanitizer (memcheck, racecheck,
# synccheck) on the sweep kernels. Every timed run of ours is checked against sequential Dijkstra
# (the bench's `correct` column; `solve` sides compared with `cmp`).
set -u
D=.dev/coord T=/tmp/w S=.dev/coord/sssp-lab
o=$OUT/p1; mkdir -p $T $o bench/graphs
cd $D && xz -dkf sssp-lab.xz && xz -dkf phast-gpu-test.xz; chmod +x sssp-lab phast-gpu-test sssp; cd ../..
t0=$(date +%s); log() { echo "== $(( $(date +%s) - t0 )) s: $*" | tee -a $o/steps.txt; }
pack() { ( cd $OUT && tar czf p1.tgz p1 ); }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
g=bench/graphs
gunzip -c assets/USA-road-d.NY.gr.gz > $g/NY.gr; gunzip -c $D/lux.gr.gz > $g/lux.gr
log tests
wg SSSP_LAB_REQUIRE_GPU=cuda timeout 200 $D/phast-gpu-test --test-threads=1 > $o/tests.txt 2>&1; echo "rc=$?" >> $o/tests.txt
tail -n 5 $o/tests.txt
log sanitizers
timeout 60 $S solve tests/data/rome99.gr.gz -s 1 -a dijkstra -o $T/want-rome.txt > /dev/null 2>&1
for tool in memcheck racecheck synccheck; do for b in 32 256; do
  echo "## $tool block $b" >> $o/sanitizers.txt
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 $S solve tests/data/rome99.gr.gz -s 1 -a phast -d cuda:0 --block $b -o $T/got.txt >> $o/sanitizers.txt 2>&1
  echo "rc=$?" >> $o/sanitizers.txt
  cmp -s $T/want-rome.txt $T/got.txt && echo "distances = dijkstra" >> $o/sanitizers.txt || echo "DIFFER" >> $o/sanitizers.txt
done; done
grep -c 'ERROR SUMMARY: 0 errors' $o/sanitizers.txt; pack
log gapbs
{ echo "# $(date -u +%FT%TZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  for dl in 12500 25000 50000; do echo "## graph=ny delta=$dl threads=16"; OMP_NUM_THREADS=16 timeout 60 $D/sssp -f $g/NY.gr -d $dl -n 16; done
  for dl in 2000 4000 8000; do echo "## graph=lux delta=$dl threads=16"; OMP_NUM_THREADS=16 timeout 60 $D/sssp -f $g/lux.gr -d $dl -n 16; done
} > $o/gapbs.txt 2>&1; pack
log ours
for k in ny lux; do
  wg timeout 200 $S bench experiments/gpu-peers-phast-$k.json --out $o/$k > $o/ours-$k.txt 2>&1; echo "rc=$?" >> $o/ours-$k.txt; pack
done
log solve
for spec in "ny $g/NY.gr" "lux $g/lux.gr"; do read -r k f <<< "$spec"
  timeout 60 $S solve $f -s 1 -a dijkstra -d cpu -o $T/want.txt > /dev/null 2>&1
  for side in "cuda:0 X=0" "wgpu:0 X=0" "cuda:0 SSSP_PHAST_SOLO=0" "cuda:0 SSSP_PHAST_SOLO=4096" "wgpu:0 SSSP_PHAST_SOLO=4096" "cuda:0 X=0"; do
    read -r dev env <<< "$side"; echo "== $k $dev $env" >> $o/solve.txt
    wg $env timeout 90 $S solve $f -s 1 -a phast -d $dev --repeat 20 -o $T/got.txt >> $o/solve.txt 2>&1
    cmp -s $T/want.txt $T/got.txt && echo "$k $dev $env: distances = dijkstra" >> $o/solve.txt || echo "$k $dev $env: DIFFER" >> $o/solve.txt
  done; pack
done
log done
find $o -name plots -type d -prune -exec rm -rf {} +; rm -f $o/*/results.json
pack
