#!/usr/bin/env bash
# Issue #2's speed figures on this machine: NY load time and the solve time of every CPU
# algorithm from vertex 1 (median of 5, one process per algorithm, all in one run so the
# ratios are comparable). Writes bench/results/cpu-ny.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/sssp-lab
ny=assets/USA-road-d.NY.gr.gz
out=bench/results/cpu-ny.md
{
    echo "# CPU solvers on NY (USA-road-d.NY, 264 346 vertices, 733 846 arcs), source 1"
    echo
    echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(date -u +%F)."
    echo "Command: \`scripts/bench-cpu-ny.sh\` (\`sssp-lab solve $ny -s 1 -a ALGO -d DEVICE --repeat 5\`)."
    echo
    echo "| algorithm | device | iterations | median ms | min ms | max ms |"
    echo "|---|---|---:|---:|---:|---:|"
    for dev in cpu cpu-par; do
        for algo in dijkstra martin-succ martin-pred crauser-succ crauser-pred; do
            [ "$dev" = cpu-par ] && [ "$algo" = dijkstra ] && continue
            log=$($bin solve $ny -s 1 -a $algo -d $dev --repeat 5 2>&1)
            it=$(echo "$log" | sed -n 's/.*: \([0-9]*\) iterations.*/\1/p')
            read -r med min max < <(echo "$log" | sed -n 's/.*median \([0-9.]*\) ms, min \([0-9.]*\) ms, max \([0-9.]*\) ms.*/\1 \2 \3/p')
            echo "| $algo | $dev | $it | $med | $min | $max |"
        done
    done
    echo
    echo "NY load (gr + co, gzip), 5 runs of \`sssp-lab info\`:"
    for i in 1 2 3 4 5; do $bin info $ny | sed -n 's/loaded in *//p'; done | sort -n | sed -n 3p | sed 's/^/median /'
} > "$out"
cat "$out"
