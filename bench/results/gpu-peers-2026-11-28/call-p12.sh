#!/bin/bash
# Call p12 (session 49, 2026-11-28): the final PHAST code of session 49 — the staged kernel with shifts, not divisions (call d4), CUDA's graph holding
# the reset too (the fill and the scatter, whose node takes each run's upward search through
# cuGraphExecKernelNodeSetParams), and wgpu encodes a run's commands ahead (in `ready`, then the
# next run's while the GPU runs this one) — beside GAP's sssp on 16 threads (Δ tuned per graph),
# NY and luxembourg, one call on one host. A/B sides: SSSP_PHAST_GRAPH_RESET=0 (the reset queued
# before the graph, session 48's code), SSSP_PHAST_AHEAD=0 (wgpu encodes inside each run, session
# 48's code), SSSP_WGPU_SPIN_US=0 (wgpu's wait blocks at once instead of checking for 2 ms first);
# wgpu's single-block threshold is 4 vertices a thread (CUDA's) since call d3. Before the timings: tests/phast
# with CUDA and wgpu required; after, compute-sanitizer (memcheck, racecheck, synccheck) on the
# sweep kernels. Every timed run of ours is checked against sequential Dijkstra.
set -u
P=${P:-p12}
D=.dev/coord T=/tmp/w S=.dev/coord/sssp-lab
o=$OUT/$P; mkdir -p $T $o bench/graphs
cd $D && xz -dkf sssp-lab.xz && xz -dkf phast-gpu-test.xz; chmod +x sssp-lab phast-gpu-test sssp; cd ../..
t0=$(date +%s); log() { echo "== $(( $(date +%s) - t0 )) s: $*" | tee -a $o/steps.txt; }
pack() { ( cd $OUT && tar czf $P.tgz $P ); }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv > $o/gpu.txt
cp $D/libvulkan.so.1 $T/
path=$(ldconfig -p | awk '$1 == "libEGL_nvidia.so.0" { print $NF; exit }')
printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > $T/icd.json
wg() { ( export LD_LIBRARY_PATH=$T VK_DRIVER_FILES=$T/icd.json VK_ICD_FILENAMES=$T/icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=$(mktemp -d); env "$@" ); }
g=bench/graphs
gunzip -c assets/USA-road-d.NY.gr.gz > $g/NY.gr; gunzip -c $D/lux.gr.gz > $g/lux.gr
log tests
wg SSSP_LAB_REQUIRE_GPU=cuda,wgpu timeout 200 $D/phast-gpu-test --test-threads=1 --nocapture > $o/tests.txt 2>&1; echo "rc=$?" >> $o/tests.txt
tail -n 5 $o/tests.txt; pack
log gapbs
{ echo "# $(date -u +%FT%TZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
  for dl in 12500 25000 50000; do echo "## graph=ny delta=$dl threads=16"; OMP_NUM_THREADS=16 timeout 60 $D/sssp -f $g/NY.gr -d $dl -n 16; done
  for dl in 2000 4000 8000; do echo "## graph=lux delta=$dl threads=16"; OMP_NUM_THREADS=16 timeout 60 $D/sssp -f $g/lux.gr -d $dl -n 16; done
} > $o/gapbs.txt 2>&1; pack
log ours
for k in ny lux; do
  wg timeout 200 $S bench experiments/gpu-peers-phast-$k.json --out $o/$k > $o/ours-$k.txt 2>&1; echo "rc=$?" >> $o/ours-$k.txt; pack
done
log profile
for spec in "ny $g/NY.gr" "lux $g/lux.gr"; do read -r k f <<< "$spec"
  for a in phast phast:top=global; do for dev in cuda:0 wgpu:0; do echo "== $k $a $dev" >> $o/profile.txt
    wg SSSP_PHAST_PROFILE=1 timeout 60 $S solve $f -s 1 -a $a -d $dev --repeat 5 -o $T/got.txt >> $o/profile.txt 2>&1
  done; done
done
log solve
for spec in "ny $g/NY.gr" "lux $g/lux.gr"; do read -r k f <<< "$spec"
  timeout 60 $S solve $f -s 1 -a dijkstra -d cpu -o $T/want.txt > /dev/null 2>&1
  for side in "cuda:0 phast X=0" "cuda:0 phast SSSP_PHAST_GRAPH_RESET=0" "cuda:0 phast:top=global X=0" \
              "wgpu:0 phast X=0" "wgpu:0 phast SSSP_WGPU_SPIN_US=0" "wgpu:0 phast SSSP_PHAST_AHEAD=0" \
              "wgpu:0 phast:top=global X=0" "wgpu:0 phast:top=global X=0" "wgpu:0 phast SSSP_PHAST_AHEAD=0" \
              "wgpu:0 phast SSSP_WGPU_SPIN_US=0" "wgpu:0 phast X=0" "cuda:0 phast:top=global X=0" \
              "cuda:0 phast SSSP_PHAST_GRAPH_RESET=0" "cuda:0 phast X=0"; do
    read -r dev a env <<< "$side"; echo "== $k $dev $a $env" >> $o/solve.txt
    wg $env timeout 90 $S solve $f -s 1 -a $a -d $dev --repeat 20 -o $T/got.txt >> $o/solve.txt 2>&1
    cmp -s $T/want.txt $T/got.txt && echo "$k $dev $a $env: distances = dijkstra" >> $o/solve.txt || echo "$k $dev $a $env: DIFFER" >> $o/solve.txt
  done; pack
done
log sanitizers
timeout 60 $S solve tests/data/rome99.gr.gz -s 1 -a dijkstra -o $T/want-rome.txt > /dev/null 2>&1
timeout 60 $S solve $g/NY.gr -s 1 -a dijkstra -o $T/want-ny.txt > /dev/null 2>&1
san() { # tool graph want algo block
  echo "## $1 $2 $4 block $5" >> $o/sanitizers.txt
  timeout 100 compute-sanitizer --tool $1 --error-exitcode 3 $S solve $2 -s 1 -a $4 -d cuda:0 --block $5 -o $T/got.txt >> $o/sanitizers.txt 2>&1
  echo "rc=$?" >> $o/sanitizers.txt
  cmp -s $3 $T/got.txt && echo "distances = dijkstra" >> $o/sanitizers.txt || echo "DIFFER" >> $o/sanitizers.txt
}
for tool in memcheck racecheck synccheck; do
  for b in 32 256; do for a in phast phast:top=global; do san $tool tests/data/rome99.gr.gz $T/want-rome.txt $a $b; done; done
  san $tool $g/NY.gr $T/want-ny.txt phast 256
done
grep -c 'ERROR SUMMARY: 0 errors' $o/sanitizers.txt; grep -c DIFFER $o/sanitizers.txt; pack
log done
find $o -name plots -type d -prune -exec rm -rf {} +; rm -f $o/*/results.json
pack
