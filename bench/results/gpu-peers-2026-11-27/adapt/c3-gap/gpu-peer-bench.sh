#!/usr/bin/env bash
# delta-stepping:worklist=near-far on CUDA beside GAP's sssp (16 threads, Δ tuned per graph) on
# the same files in one call on the GPU machine (issue 30 item 3), plus the CUDA tests of
# tests/nearfar.rs and compute-sanitizer on a small graph.
# Usage: scripts/gpu-peer-bench.sh DIR OUT_DIR [PART...]
#   DIR holds sssp-lab, nearfar-test (the tests/nearfar.rs binary), sssp and converter (GAP's)
#   and the experiment files gpu-peers-*.json. PART: test, sanitize, graphs, gapbs, ours; GRAPHS
#   picks the graphs (default "ny kron21 urand21 grid"; "lux", the second road network, needs
#   lux.gr.gz in DIR: scripts/lux-road.py's output, gzipped).
set -uo pipefail
d=${1:?tool folder}; out=${2:?output folder}; shift 2
parts=${*:-test sanitize graphs gapbs ours}
graphs=${GRAPHS:-ny kron21 urand21 grid}
g=bench/graphs
mkdir -p "$out" "$g"
log() { echo "== $(date -u +%T) $*" | tee -a "$out/steps.txt"; }
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,driver_version --format=csv > "$out/gpu.txt" 2>&1

if [[ $parts == *graphs* ]]; then
  log graphs
  gunzip -c assets/USA-road-d.NY.gr.gz > "$g/NY.gr"
  "$d/converter" -f "$g/NY.gr" -w -b "$g/NY.wsg" > "$out/conv-NY.log" 2>&1
  if [[ $graphs == *lux* ]]; then
    gunzip -c "$d/lux.gr.gz" > "$g/lux.gr" && "$d/converter" -f "$g/lux.gr" -w -b "$g/lux.wsg" > "$out/conv-lux.log" 2>&1
  fi
  for spec in "kron21 -g" "urand21 -u"; do
    read -r f flag <<< "$spec"
    [[ $graphs == *$f* ]] || continue
    ( "$d/converter" "$flag" 21 -k 16 -w -e "$g/$f.wel" && "$d/converter" -f "$g/$f.wel" -w -b "$g/$f.wsg" ) \
      > "$out/conv-$f.log" 2>&1 &
  done
  if [[ $graphs == *grid* ]]; then
    ( "$d/sssp-lab" gen -o "$g/grid4096.gr" grid --width 4096 --height 4096 --max-weight 100 --seed 1 \
        && "$d/converter" -f "$g/grid4096.gr" -w -b "$g/grid4096.wsg" ) > "$out/conv-grid.log" 2>&1 &
  fi
fi

if [[ $parts == *test* ]]; then
  log tests
  SSSP_LAB_REQUIRE_GPU=cuda SSSP_LAB_NY=assets/USA-road-d.NY.gr.gz timeout 200 "$d/nearfar-test" --test-threads=1 \
    > "$out/tests.txt" 2>&1
  echo "rc=$?" >> "$out/tests.txt"; tail -n 15 "$out/tests.txt"
fi

if [[ $parts == *graphs* ]]; then wait; ls -l "$g" > "$out/graphs.txt"; fi

if [[ $parts == *gapbs* ]]; then
  log gapbs
  {
    echo "# $(date -u +%FT%TZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
    echo "# GAP sssp ($d/sssp), OMP_NUM_THREADS=16; GAP picks a random source per trial"
    declare -A specs=([ny]="NY 16 12500 25000 50000" [lux]="lux 16 1000 2000 4000 8000" [kron21]="kron21 16 1 2 4" [urand21]="urand21 16 2 4 8" \
                      [grid]="grid4096 8 100 200 400 1000 2000")
    for k in $graphs; do
      read -r f trials deltas <<< "${specs[$k]}"
      for dl in $deltas; do
        echo "## graph=$f delta=$dl threads=16"
        OMP_NUM_THREADS=16 timeout 120 "$d/sssp" -f "$g/$f.wsg" -d "$dl" -n "$trials"
      done
    done
  } >> "$out/gapbs.txt" 2>&1
  grep -h "##\|Average" "$out/gapbs.txt" | tail -n 40
fi

if [[ $parts == *ours* ]]; then
  for k in $graphs; do
    log "ours $k"
    timeout 200 "$d/sssp-lab" bench "$d/gpu-peers-$k.json" --out "$out/$k" > "$out/ours-$k.txt" 2>&1
    echo "rc=$?" >> "$out/ours-$k.txt"; tail -n 5 "$out/ours-$k.txt"
  done
fi
if [[ $parts == *sanitize* ]]; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  "$d/sssp-lab" gen -o "$out/rmat12.gr" rmat --scale 12 --edge-factor 16 --seed 3 > /dev/null 2>&1
  "$d/sssp-lab" gen -o "$out/grid64.gr" grid --width 64 --height 64 --max-weight 100 --seed 2 > /dev/null 2>&1
  for tool in memcheck racecheck synccheck; do
    for f in rmat12 grid64; do
      log "sanitizer $tool $f"
      timeout 90 "$cs" --tool "$tool" "$d/sssp-lab" solve "$out/$f.gr" -s 1 -a delta-stepping:worklist=near-far -d cuda \
        -o "$out/$f-$tool.dist" > "$out/sanitize-$tool-$f.txt" 2>&1
      echo "rc=$?" >> "$out/sanitize-$tool-$f.txt"; tail -n 3 "$out/sanitize-$tool-$f.txt"
    done
  done
  rm -f "$out"/*.dist "$out"/*.gr
fi

log done
