#!/usr/bin/env bash
# GAP's sssp beside sssp-lab on the same graph files, in one run on one machine (the GPU
# machine: 16 cores + H100), issue 11 item 5.
# Usage: scripts/peer-bench.sh [SSSP_LAB_BINARY] [OUT_DIR] [PART...]
#   PART: graphs (write the graph files), gapbs (GAP's times, Δ tuned per graph, into
#   OUT_DIR/gapbs.txt), ours (experiments/peer-gapbs.json and peer-grid.json into OUT_DIR/…);
#   all three when none is given. PEERS names the folder holding gapbs/sssp and gapbs/converter
#   (default ../shared/peers).
set -euo pipefail
bin=${1:-target/release/sssp-lab}
out=${2:-bench/results/peer-gapbs}
shift $(( $# < 2 ? $# : 2 ))
parts=${*:-graphs gapbs ours}
peers=${PEERS:-../shared/peers}
g=bench/graphs
mkdir -p "$out" "$g"
threads=$(nproc)

if [[ $parts == *graphs* ]]; then
  gunzip -c assets/USA-road-d.NY.gr.gz > "$g/NY.gr"
  # GAP's generators, as its benchmark specifies them; the .wel is what both programs read.
  "$peers/gapbs/converter" -g 20 -k 16 -w -e "$g/kron20.wel"
  "$peers/gapbs/converter" -g 21 -k 16 -w -e "$g/kron21.wel"
  "$peers/gapbs/converter" -u 21 -k 16 -w -e "$g/urand21.wel"
  "$bin" gen --out "$g/grid4096.gr" grid --width 4096 --height 4096 --max-weight 100 --seed 1
  # GAP reads its own serialisation of the same files (parsing 1 GB of text once per Δ would
  # cost minutes of device time); the arcs and weights are the file's.
  for f in kron20 kron21 urand21; do "$peers/gapbs/converter" -f "$g/$f.wel" -w -b "$g/$f.wsg"; done
  "$peers/gapbs/converter" -f "$g/grid4096.gr" -w -b "$g/grid4096.wsg"
  "$peers/gapbs/converter" -f "$g/NY.gr" -w -b "$g/NY.wsg"
  ls -l "$g"
fi

if [[ $parts == *gapbs* ]]; then
  {
    echo "# $(date -u +%FT%TZ) $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
    echo "# GAP sssp ($peers/gapbs/sssp), 16 trials each (GAP picks a random source per trial)"
    run() { # graph delta threads
      echo "## graph=$1 delta=$2 threads=$3"
      OMP_NUM_THREADS=$3 "$peers/gapbs/sssp" -f "$g/$1.wsg" -d "$2" -n 16
    }
    for d in 25000 50000 100000; do run NY $d "$threads"; done
    run NY 50000 1
    for f in kron20 kron21 urand21; do for d in 1 2 4 8; do run $f $d "$threads"; done; done
    for d in 100 400 1600; do run grid4096 $d "$threads"; done
  } > "$out/gapbs.txt" 2>&1
fi

if [[ $parts == *ours* ]]; then
  "$bin" bench experiments/peer-road.json --out "$out/road"
  "$bin" bench experiments/peer-gapbs.json --out "$out/power-law"
  "$bin" bench experiments/peer-grid.json --out "$out/grid4096"
fi
