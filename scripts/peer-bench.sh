#!/usr/bin/env bash
# GAP's sssp beside sssp-lab on the same graphs, in one run on one machine (the GPU machine:
# 16 cores + H100). Usage: scripts/peer-bench.sh [SSSP_LAB_BINARY] [OUT_DIR]
#   writes OUT_DIR/gapbs.txt (GAP's output) and runs experiments/peer-gapbs.json into OUT_DIR.
set -euo pipefail
bin=${1:-target/release/sssp-lab}
out=${2:-bench/results/peer-gapbs}
peers=${PEERS:-../shared/peers}
tmp=$(mktemp -d)
mkdir -p "$out"
gunzip -c assets/USA-road-d.NY.gr.gz > "$tmp/NY.gr"
# The same Kronecker graph the experiment generates (rmat 0.57/0.19/0.19, seed 1).
"$bin" gen --out "$tmp/kron20.gr" rmat --scale 20 --edge-factor 16 --a 0.57 --b 0.19 --c 0.19 --max-weight 255 --seed 1
{
  echo "# $(date -u +%FT%TZ) $(nproc) cores; GAP sssp ${peers}/gapbs/sssp, 5 trials each, sources chosen by GAP"
  for threads in 1 "$(nproc)"; do
    echo "## NY, -d 50000, OMP_NUM_THREADS=$threads"
    OMP_NUM_THREADS=$threads "$peers/gapbs/sssp" -f "$tmp/NY.gr" -d 50000 -n 5
    echo "## kron20, -d 2, OMP_NUM_THREADS=$threads"
    OMP_NUM_THREADS=$threads "$peers/gapbs/sssp" -f "$tmp/kron20.gr" -d 2 -n 5
  done
} > "$out/gapbs.txt" 2>&1
"$bin" bench experiments/peer-gapbs.json --out "$out"
rm -rf "$tmp"
