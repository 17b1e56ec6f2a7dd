#!/usr/bin/env bash
# GAP's sssp and sssp-lab's CPU Δ-stepping interleaved in one call (issue 31, leases 6-7): per
# graph and round, GAP(Δa) · ours ("new", the binary's default) · GAP(Δb) · ours with each A/B
# switch, each a fresh process on the same graph, all on THREADS threads, so that drift of the
# host between calls (GAP itself 3.85 vs 4.74 ms on NY in leases 4 and 5) hits every side alike.
# Raw output only; scripts/cpu-ab-stats.py makes the medians, interquartile ranges, stall shares
# and bootstrap intervals of the ratios.
# Usage: scripts/cpu-ab-interleave.sh SSSP_LAB_BINARY OUT_DIR [GRAPH...]
#   graphs: ny lux kron21 urand21 (default: all four, in that order)
#   PEERS: folder with gapbs/{sssp,converter} (default ../shared/peers). LUX_GZ: a prebuilt
#   lux.gr.gz (scripts/lux-road.py). THREADS (default nproc).
#   ROUNDS (roads, default 16), BIG_ROUNDS (the 21-scale graphs, default 5), REPS (roads, 5),
#   BIG_REPS (21-scale, 8: a process there costs ~10 s of reading, a run ~0.1 s).
#   STOP_<graph> (e.g. STOP_kron21=300): no round of that graph starts after this many seconds
#   since the start (default DEADLINE_S, 430), so that a later graph is still reached.
#   AB_ENVS: the switches of the A/B sides on the roads, ';'-separated, each one or more
#   VAR=value (default "SSSP_DS_PIN=1"); side i writes to ab-<slug>-<graph>.
#   BIG_AB: the switches of the A/B sides on the 21-scale graphs: specs ';'-separated, "none",
#   or "auto" (default): the road switch whose medians, over NY and lux, are lowest relative to
#   "new".
#   OURS_WSG=1 (lease 10): ours reads the 21-scale graphs from GAP's .wsg itself (about a second
#   instead of ~10 s of .wel text); no .wel is written.
#   The 21-scale graphs: GAP's converter writes the .wsg GAP reads (-g/-u 21 -k 16 -w) and
#   WSG2WEL (scripts/cpu-ab-wsg2wel.rs, built with rustc) turns it into the .wel we read, ~4 s
#   against the converter's ~50 s for `-e` (lease 6 wrote the .wel and converted it back).
#   Without WSG2WEL the converter writes both. GAP_GEN=1: GAP generates the graph in-process
#   instead of reading the .wsg (same generator and seed). BIG_SCALE: 21 unless testing.
#   AUTO_FROM: the road switches "auto" chooses from (';'-separated, default AB_ENVS).
#   BIG_AB_EVERY: the 21-scale A/B side runs every this many rounds (default 2, from round 1).
#   REUSE_GRAPHS=1: keep a 21-scale .wsg/.wel pair an earlier call on the same machine wrote.
#   ROUNDS_<graph> / AB_EVERY_<graph> (e.g. ROUNDS_urand21=9): override ROUNDS / BIG_ROUNDS and
#   BIG_AB_EVERY for one graph. ROUND0 (default 0): rounds are numbered ROUND0 + 1, ROUND0 + 2,
#   … (and seeded so), so that a second call of the same lease draws other sources and its
#   rounds stay apart when scripts/cpu-ab-stats.py merges the two folders.
set -uo pipefail
bin=$1
out=$2
shift 2
graphs=${*:-ny lux kron21 urand21}
peers=${PEERS:-../shared/peers}
threads=${THREADS:-$(nproc)}
g=bench/graphs
mkdir -p "$out" "$g"
t0=$(date +%s)
elapsed() { echo $(( $(date +%s) - t0 )); }
log() { echo "[$(elapsed) s] $*" >> "$out/log.txt"; }
slug() { local s=${1//SSSP_DS_/}; s=${s//SSSP_LAB_/}; s=${s//=/}; s=${s// /+}; echo "${s,,}"; }
IFS=';' read -r -a road_ab <<< "${AB_ENVS:-SSSP_DS_PIN=1}"
IFS=';' read -r -a auto_from <<< "${AUTO_FROM:-${AB_ENVS:-SSSP_DS_PIN=1}}"

# The graph files, as scripts/cpu-peer-bench.sh writes them.
for f in $graphs; do
  case $f in
    ny) gunzip -c assets/USA-road-d.NY.gr.gz > "$g/NY.gr" && "$peers/gapbs/converter" -f "$g/NY.gr" -w -b "$g/NY.wsg" ;;
    lux) gunzip -c "${LUX_GZ:-bench/graphs/lux.gr.gz}" > "$g/lux.gr" && "$peers/gapbs/converter" -f "$g/lux.gr" -w -b "$g/lux.wsg" ;;
    kron21|urand21)
      if [[ ${REUSE_GRAPHS:-0} == 1 && -s $g/$f.wsg && ( ${OURS_WSG:-0} == 1 || -s $g/$f.wel ) ]]; then log "graph $f kept from an earlier call"; continue; fi
      gen=$([[ $f == kron21 ]] && echo -g || echo -u)
      "$peers/gapbs/converter" $gen "${BIG_SCALE:-21}" -k 16 -w -b "$g/$f.wsg"
      if [[ ${OURS_WSG:-0} == 1 ]]; then :
      elif [[ -x ${WSG2WEL:-} ]]; then "$WSG2WEL" "$g/$f.wsg" "$g/$f.wel"
      else "$peers/gapbs/converter" $gen "${BIG_SCALE:-21}" -k 16 -w -e "$g/$f.wel"; fi ;;
  esac
  log "graph $f written"
done >> "$out/log.txt" 2>&1

# One experiment per round: one random source (seed = round), REPS repetitions, auto Δ, every
# run checked against sequential Dijkstra (`check`; computed once per source, untimed).
experiment() { # NAME FILE GROUP SEED REPS BUDGET
  cat <<JSON
{"name": "$1", "description": "Issue 31: one round of the interleaved A/B (scripts/cpu-ab-interleave.sh).",
 "kind": "sweep", "graphs": [{"file": "$2", "group": "$3"}],
 "algorithms": ["delta-stepping"], "devices": ["cpu-par:$threads"], "check": true,
 "block": {"all": [256]}, "cache": ["default"], "repetitions": $5,
 "sources": {"random": {"count": 1, "seed": $4}}, "cell_budget_s": $6}
JSON
}

gap() { # GRAPH DELTA TRIALS ROUND
  echo "## graph=$1 delta=$2 threads=$threads round=$4 at=$(elapsed)"
  local input=(-f "$g/$1.wsg")
  if [[ ${GAP_GEN:-0} == 1 ]]; then
    case $1 in kron21) input=(-g "${BIG_SCALE:-21}" -k 16) ;; urand21) input=(-u "${BIG_SCALE:-21}" -k 16) ;; esac
  fi
  OMP_NUM_THREADS=$threads OMP_PROC_BIND=false "$peers/gapbs/sssp" "${input[@]}" -d "$2" -n "$3"
}

ours() { # TAG EXPERIMENT_FILE ROUND [ENV...]
  local tag=$1 exp=$2 r=$3; shift 3
  echo "## ours=$tag round=$r at=$(elapsed) env=$*" >> "$out/log.txt"
  env "$@" "$bin" bench "$exp" --out "$out/$tag/r$r" >> "$out/log.txt" 2>&1
  rm -rf "$out/$tag/r$r/plots" "$out/$tag/r$r/results.json" "$out/$tag/r$r/report.md"
}

# Median of our total_ms over every run of one side (results.csv column total_ms).
side_median() { # DIR
  local col
  col=$(head -1 "$(ls "$1"/r*/results.csv | head -1)" | tr ',' '\n' | grep -n '^total_ms$' | cut -d: -f1)
  for f in "$1"/r*/results.csv; do tail -n +2 "$f" | cut -d, -f"$col"; done | grep . | sort -g |
    awk '{a[NR] = $1} END { if (NR) print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2); else print "nan" }'
}

# The road switch with the lowest sum over the roads of log(median / new's median).
best_road_switch() {
  local best="" best_score=""
  for spec in "${auto_from[@]}"; do
    local s score=0 ok=1
    s=$(slug "$spec")
    for f in ny lux; do
      [[ -d $out/ab-$s-$f && -d $out/new-$f ]] || { ok=0; continue; }
      score=$(awk -v a="$(side_median "$out/ab-$s-$f")" -v b="$(side_median "$out/new-$f")" -v acc="$score" \
        'BEGIN { print acc + log(a / b) }')
    done
    (( ok )) || continue
    log "road switch $spec: sum of log(median / default's) = $score"
    if [[ -z $best_score ]] || awk -v x="$score" -v y="$best_score" 'BEGIN { exit !(x < y) }'; then
      best=$spec best_score=$score
    fi
  done
  echo "$best"
}

for f in $graphs; do
  case $f in
    ny) file=bench/graphs/NY.gr; wsg=NY; group=road; da=25000; db=12500 ;;
    lux) file=bench/graphs/lux.gr; wsg=lux; group=road; da=4000; db=8000 ;;
    kron21) file=bench/graphs/kron21.$([[ ${OURS_WSG:-0} == 1 ]] && echo wsg || echo wel); wsg=kron21; group=kron; da=1; db=2 ;;
    urand21) file=bench/graphs/urand21.$([[ ${OURS_WSG:-0} == 1 ]] && echo wsg || echo wel); wsg=urand21; group=urand; da=2; db=4 ;;
    *) continue ;;
  esac
  if [[ $group == road ]]; then
    rounds=${ROUNDS:-16} reps=${REPS:-5} budget=3 sides=("${road_ab[@]}")
  else
    rounds=${BIG_ROUNDS:-5} reps=${BIG_REPS:-8} budget=10
    big=${BIG_AB:-auto}
    [[ $big == auto ]] && big=$(best_road_switch)
    [[ $big == none ]] && big=""
    sides=()
    [[ -n $big ]] && IFS=';' read -r -a sides <<< "$big"
    log "$f: A/B side: ${big:-none}"
  fi
  rounds_var=ROUNDS_$f every_var=AB_EVERY_$f
  rounds=${!rounds_var:-$rounds} every=${!every_var:-${BIG_AB_EVERY:-2}}
  stop_var=STOP_$f
  stop=${!stop_var:-${DEADLINE_S:-430}}
  r0=${ROUND0:-0}
  for (( r = r0 + 1; r <= r0 + rounds; r++ )); do
    if (( $(elapsed) > stop )); then log "$f: stopped before round $r (time)"; break; fi
    e=$out/exp-$f.json
    experiment "ab-$f" "$file" "$group" "$r" "$reps" "$budget" > "$e"
    gap "$wsg" "$da" 5 "$r" >> "$out/gap-$f.txt" 2>&1
    ours "new-$f" "$e" "$r"
    gap "$wsg" "$db" 5 "$r" >> "$out/gap-$f.txt" 2>&1
    if [[ $group != road ]] && (( (r - r0 - 1) % every != 0 )); then continue; fi
    for spec in "${sides[@]}"; do
      read -r -a vars <<< "$spec"
      ours "ab-$(slug "$spec")-$f" "$e" "$r" "${vars[@]}"
    done
  done
  log "$f done"
done
