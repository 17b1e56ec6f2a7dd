#!/usr/bin/env bash
# GAP's sssp and sssp-lab's CPU Δ-stepping interleaved in one call (issue 31, lease 6): per graph,
# ROUNDS rounds of  GAP(Δa) · ours ("new") · GAP(Δb) · ours with AB_ENV ("old", the A/B switch; on
# Kronecker only every other round, for time), each a fresh process on the same files, all on
# THREADS threads, so that drift of the host between calls (GAP itself 3.85 vs 4.74 ms on NY in
# leases 4 and 5) hits both sides alike. Raw output only; scripts/cpu-ab-stats.py makes the
# medians, interquartile ranges and bootstrap intervals of the ratio.
# Usage: scripts/cpu-ab-interleave.sh SSSP_LAB_BINARY OUT_DIR [GRAPH...]   (graphs: ny lux kron21)
#   PEERS: folder with gapbs/{sssp,converter} (default ../shared/peers). LUX_GZ: a prebuilt
#   lux.gr.gz (scripts/lux-road.py). ROUNDS (roads, default 20), KRON_ROUNDS (default 15),
#   THREADS (default nproc), DEADLINE_S: no round starts after this many seconds (default 430).
#   AB_ENV: the switch of the "old" side (default SSSP_DS_BARRIERS=1; lease 6 ran a build whose
#   default was one barrier per round with AB_ENV=SSSP_DS_BARRIERS=2, GAP's two).
set -uo pipefail
bin=$1
out=$2
shift 2
graphs=${*:-ny lux kron21}
peers=${PEERS:-../shared/peers}
threads=${THREADS:-$(nproc)}
g=bench/graphs
mkdir -p "$out" "$g"
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 )); }
log() { echo "[$(elapsed) s] $*" >> "$out/log.txt"; }

# The graph files, as scripts/cpu-peer-bench.sh writes them.
for f in $graphs; do
  case $f in
    ny) gunzip -c assets/USA-road-d.NY.gr.gz > "$g/NY.gr" && "$peers/gapbs/converter" -f "$g/NY.gr" -w -b "$g/NY.wsg" ;;
    lux) gunzip -c "${LUX_GZ:-bench/graphs/lux.gr.gz}" > "$g/lux.gr" && "$peers/gapbs/converter" -f "$g/lux.gr" -w -b "$g/lux.wsg" ;;
    kron21) "$peers/gapbs/converter" -g 21 -k 16 -w -e "$g/kron21.wel" && "$peers/gapbs/converter" -f "$g/kron21.wel" -w -b "$g/kron21.wsg" ;;
  esac
done >> "$out/log.txt" 2>&1
log "graphs written"

# One experiment per round: one random source (seed = round), REPS repetitions, auto Δ, every
# run checked against sequential Dijkstra (`check`, once per source, untimed).
experiment() { # NAME FILE GROUP SEED REPS BUDGET
  cat <<JSON
{"name": "$1", "description": "Issue 31 lease 6: one round of the interleaved A/B (scripts/cpu-ab-interleave.sh).",
 "kind": "sweep", "graphs": [{"file": "$2", "group": "$3"}],
 "algorithms": ["delta-stepping"], "devices": ["cpu-par:$threads"], "check": true,
 "block": {"all": [256]}, "cache": ["default"], "repetitions": $5,
 "sources": {"random": {"count": 1, "seed": $4}}, "cell_budget_s": $6}
JSON
}

gap() { # GRAPH DELTA TRIALS ROUND
  echo "## graph=$1 delta=$2 threads=$threads round=$4 at=$(elapsed)"
  OMP_NUM_THREADS=$threads OMP_PROC_BIND=false "$peers/gapbs/sssp" -f "$g/$1.wsg" -d "$2" -n "$3"
}

ours() { # TAG EXPERIMENT_FILE ROUND [ENV...]
  local tag=$1 exp=$2 r=$3; shift 3
  echo "## ours=$tag round=$r at=$(elapsed)" >> "$out/log.txt"
  env "$@" "$bin" bench "$exp" --out "$out/$tag/r$r" >> "$out/log.txt" 2>&1
  rm -rf "$out/$tag/r$r/plots" "$out/$tag/r$r/results.json"
}

for f in $graphs; do
  case $f in
    ny) file=bench/graphs/NY.gr; wsg=NY; group=road; da=25000; db=12500; trials=5; reps=5; rounds=${ROUNDS:-20}; budget=3 ;;
    lux) file=bench/graphs/lux.gr; wsg=lux; group=road; da=4000; db=8000; trials=5; reps=5; rounds=${ROUNDS:-20}; budget=3 ;;
    kron21) file=bench/graphs/kron21.wel; wsg=kron21; group=kron; da=1; db=2; trials=5; reps=5; rounds=${KRON_ROUNDS:-15}; budget=6 ;;
    *) continue ;;
  esac
  for (( r = 1; r <= rounds; r++ )); do
    if (( $(elapsed) > ${DEADLINE_S:-430} )); then log "$f: stopped before round $r (time)"; break; fi
    e=$out/exp-$f.json
    experiment "ab-$f" "$file" "$group" "$r" "$reps" "$budget" > "$e"
    gap "$wsg" "$da" "$trials" "$r" >> "$out/gap-$f.txt" 2>&1
    ours "new-$f" "$e" "$r"
    gap "$wsg" "$db" "$trials" "$r" >> "$out/gap-$f.txt" 2>&1
    if [[ $f != kron21 ]] || (( r % 2 == 1 )); then ours "old-$f" "$e" "$r" ${AB_ENV:-SSSP_DS_BARRIERS=1}; fi
  done
  log "$f done"
done
