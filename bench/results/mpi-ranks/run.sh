#!/usr/bin/env bash
# Ranks vs time of `sssp-lab apsp --mpi` on one machine (docs/mpi.md): a Martín graph of 1M
# vertices (7M arcs), 96 random sources, Dijkstra, one cpu worker per rank, chunks of 2
# sources; 1 to 4 ranks, one run where rank 0 only coordinates, and the one-process runs for
# reference. Writes runs.tsv (one line per run) and json/<config>-<rep>.{json,log} here.
#
# Each run waits until the machine is idle (it has 2 cores: a build or another run beside it
# would skew it) and records `other_cpu_s`, the CPU time that processes other than the run used
# meanwhile (busy time from /proc/stat minus the run's own user + system time): near 0 = quiet.
#
# Usage: bench/results/mpi-ranks/run.sh [REPS]   (after `cargo build --release --features mpi`)
# Env: CARGO_TARGET_DIR (default target), GRAPH (default bench/graphs/martin-1m.gr, generated
# when missing).
set -euo pipefail
cd "$(dirname "$0")/../../.."
reps=${1:-3}
bin=${CARGO_TARGET_DIR:-target}/release/sssp-lab
graph=${GRAPH:-bench/graphs/martin-1m.gr}
out=bench/results/mpi-ranks
[ -f "$graph" ] || { mkdir -p "$(dirname "$graph")"; "$bin" gen martin --n 1000000 --seed 1 -o "$graph"; }
mkdir -p "$out/json"
common=(apsp "$graph" --sources 96:1 --workers cpu:1)
mpirun=(mpirun --allow-run-as-root --oversubscribe --bind-to none --mca btl_vader_single_copy_mechanism none)
printf 'config\tranks\tworking_ranks\trep\tmakespan_ms\twall_s\tcpu_s\tother_cpu_s\tchecksum\ttotal_bytes\trun_bytes_per_remote_task\tremote_tasks\treply_wait_ms\n' >"$out/runs.tsv"
busy() { awk '/^cpu /{print ($2+$3+$4+$7+$8)/100}' /proc/stat; }
quiet() { # waits until the machine has been idle (< 0.1 core busy) for 3 s in a row
    local n=0 a b
    while [ $n -lt 3 ]; do
        a=$(busy); sleep 1; b=$(busy)
        if [ "$(echo "$b - $a < 0.1" | bc)" = 1 ]; then n=$((n + 1)); else n=0; fi
    done
}
run() { # config ranks working_ranks rep command...
    local config=$1 ranks=$2 working=$3 rep=$4; shift 4
    local json="$out/json/$config-$rep.json" log="$out/json/$config-$rep.log" b0 b1 t0 t1
    quiet
    b0=$(busy)
    t0=$(date +%s.%N)
    /usr/bin/time -f 'cpu %U %S' -o "$log.time" "$@" --json "$json" 2>"$log"
    t1=$(date +%s.%N)
    b1=$(busy)
    python3 - "$json" "$config" "$ranks" "$working" "$rep" "$t0" "$t1" "$b0" "$b1" "$log.time" >>"$out/runs.tsv" <<'PY'
import json, sys
path, config, ranks, working, rep, t0, t1, b0, b1, timef = sys.argv[1:]
d = json.load(open(path))
cpu = sum(map(float, open(timef).read().split("cpu ")[-1].split()))
t = d.get("mpi", {}).get("traffic", {})
wait = sum(r["reply_wait_ms"] for r in d.get("mpi", {}).get("per_rank", []))
print("\t".join(map(str, [config, ranks, working, rep, round(d["makespan_ms"], 1),
    round(float(t1) - float(t0), 2), round(cpu, 2), round(max(0.0, float(b1) - float(b0) - cpu), 2),
    "%016x" % d["checksum"], t.get("total_bytes", 0), round(t.get("run_bytes_per_remote_task", 0), 1),
    t.get("remote_tasks", 0), round(wait, 1)])))
PY
    rm -f "$log.time"
}
for rep in $(seq 1 "$reps"); do
    run single-cpu1 1 1 "$rep" "$bin" "${common[@]}"
    run single-cpu2 1 1 "$rep" "$bin" apsp "$graph" --sources 96:1 --workers cpu:2
    for np in 1 2 3 4; do
        run "mpi-np$np" "$np" "$np" "$rep" "${mpirun[@]}" -np "$np" "$bin" "${common[@]}" --mpi --mpi-chunk 2
    done
    run mpi-np3-coordinator-only 3 2 "$rep" "${mpirun[@]}" -np 3 "$bin" "${common[@]}" --mpi --mpi-chunk 2 --mpi-coordinator-only
done
column -t "$out/runs.tsv"
