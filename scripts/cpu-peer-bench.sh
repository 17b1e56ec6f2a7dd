#!/usr/bin/env bash
# GAP's sssp beside sssp-lab's CPU Δ-stepping on the same files, thread counts 1-16, and seed
# 001's schemes against both sequential baselines, in one call on the GPU machine's 16 cores
# (issue 31). CPU devices only: no CUDA context in the process.
# Usage: scripts/cpu-peer-bench.sh [SSSP_LAB_BINARY] [OUT_DIR] [PART...]
#   PART: graphs (write the graph files), gapbs (GAP's Δ tuned per graph on all cores, then
#   1, 2, 4, 8, 16 threads at the best Δ, into OUT_DIR/gapbs.txt), ours (experiments/cpu-{ny,
#   lux,kron21,urand21}.json), seed001 (experiments/cpu-seed001-*.json); all when none given.
#   PEERS: folder holding gapbs/sssp and gapbs/converter (default ../shared/peers).
#   EXPS: folder of the experiment files (default experiments). LUX_GZ: a prebuilt lux.gr.gz
#   (scripts/lux-road.py output) when python3 or ../shared/graphs is not at hand.
#   GAP_SWEEP=full: GAP's whole Δ sweep (the default tries the best Δ of earlier leases and
#   its neighbours). GRAPHS: the graphs of the ours part (default "ny lux kron21 urand21").
set -euo pipefail
bin=${1:-target/release/sssp-lab}
out=${2:-bench/results/cpu-peers}
shift $(( $# < 2 ? $# : 2 ))
parts=${*:-graphs gapbs ours seed001}
peers=${PEERS:-../shared/peers}
exps=${EXPS:-experiments}
g=bench/graphs
mkdir -p "$out" "$g"
threads=$(nproc)

if [[ $parts == *graphs* ]]; then
  gunzip -c assets/USA-road-d.NY.gr.gz > "$g/NY.gr"
  if [[ -n ${LUX_GZ:-} ]]; then
    gunzip -c "$LUX_GZ" > "$g/lux.gr"
  else
    python3 scripts/lux-road.py ../shared/graphs/luxembourg.osm.graph.gz ../shared/graphs/luxembourg.osm.xyz.gz "$g/lux.gr"
  fi
  # GAP's generators as its benchmark specifies them; the .wel is what both programs read,
  # GAP through its own serialisation of the same arcs (parsing 1 GB of text per Δ costs minutes).
  # The two families side by side (each mostly writes and parses text on one thread).
  for spec in "kron21 -g" "urand21 -u"; do
    read -r f flag <<< "$spec"
    ( "$peers/gapbs/converter" "$flag" 21 -k 16 -w -e "$g/$f.wel" && "$peers/gapbs/converter" -f "$g/$f.wel" -w -b "$g/$f.wsg" ) &
  done
  for f in NY lux; do "$peers/gapbs/converter" -f "$g/$f.gr" -w -b "$g/$f.wsg"; done
  wait
  ls -l "$g"
fi

if [[ $parts == *gapbs* ]]; then
  avg() { awk '/Average Time/ {print $3}'; }
  {
    echo "# $(date -u +%FT%TZ) $threads cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
    echo "# GAP sssp ($peers/gapbs/sssp); GAP picks a random source per trial"
    # GAP_SWEEP=full: the first leases' Δ ranges; the default is the best of those leases and
    # its neighbours (NY 25 000, lux 4 000, Kron 1-2, urand 2-8), to fit one call of 8 minutes.
    if [[ ${GAP_SWEEP:-} == full ]]; then
      specs=("NY 16 12500 25000 50000 100000" "lux 16 250 500 1000 2000 4000 8000" \
             "kron21 8 1 2 4 8 16" "urand21 8 1 2 4 8 16")
    else
      specs=("NY 16 12500 25000 50000" "lux 16 2000 4000 8000" "kron21 8 1 2 4" "urand21 8 2 4 8")
    fi
    for spec in "${specs[@]}"; do
      read -r f trials deltas <<< "$spec"
      best=""; best_t=1e9
      for d in $deltas; do
        echo "## graph=$f delta=$d threads=$threads"
        r=$(OMP_NUM_THREADS=$threads "$peers/gapbs/sssp" -f "$g/$f.wsg" -d "$d" -n "$trials")
        echo "$r"
        t=$(avg <<< "$r")
        if awk -v a="$t" -v b="$best_t" 'BEGIN{exit !(a < b)}'; then best=$d; best_t=$t; fi
      done
      echo "## best graph=$f delta=$best avg_s=$best_t"
      for t in 1 2 4 8 16; do
        echo "## graph=$f delta=$best threads=$t"
        OMP_NUM_THREADS=$t "$peers/gapbs/sssp" -f "$g/$f.wsg" -d "$best" -n "$trials"
      done
    done
  } > "$out/gapbs.txt" 2>&1
fi

if [[ $parts == *ours* ]]; then
  for e in ${GRAPHS:-ny lux kron21 urand21}; do "$bin" bench "$exps/cpu-$e.json" --out "$out/$e"; done
fi

if [[ $parts == *seed001* ]]; then
  for e in paper large huge; do "$bin" bench "$exps/cpu-seed001-$e.json" --out "$out/seed001-$e"; done
fi
