#!/usr/bin/env bash
# Every CUDA kernel under compute-sanitizer, in one command (issue 32 item 5):
#
#   scripts/sanitize.sh [OUT_DIR]          (default bench/results/sanitizers)
#
# For each algorithm option the CUDA device runs (`sssp-lab check --list --device cuda:0`: every
# algorithm × each parameter value of the registry's test set), each launch mode (`fast`: the
# persistent kernel / lists and teams; `per-phase`: the papers' three launches per iteration),
# each small graph and each tool (memcheck, racecheck, synccheck), runs
#   compute-sanitizer --tool TOOL sssp-lab solve GRAPH --device cuda:0 --algo A --launch L
# (release binary: $SSSP_LAB, default target/release/sssp-lab), JOBS at a time (default 8), and
# writes OUT_DIR/runs.tsv (one line a run: tool, algorithm, launch, graph, exit status, errors
# reported, verdict), OUT_DIR/summary.md and OUT_DIR/logs/*.log.
#
# Verdicts: `clean` (exit 0, 0 errors), `DIRTY` (the sanitizer reported errors), `FAILED` (the
# solve or the sanitizer failed otherwise), `expected` (racecheck hazards of the non-atomic
# relax, `racy`: unsynchronised writes to δ are its point, seed 004 §4.3; its clean runs are
# labelled too). Exit non-zero when a run is DIRTY or FAILED.
#
# Env: SSSP_LAB (binary), JOBS (parallel runs), TOOLS (default "memcheck racecheck synccheck"),
# LAUNCHES (default "fast per-phase"), GRAPHS (of rmat9 grid24x16 counterexample128),
# RUN_TIMEOUT (seconds a run may take, default 120), ALGOS (override the list, space-separated),
# SANITIZER (default compute-sanitizer, else /usr/local/cuda/bin/compute-sanitizer).
set -uo pipefail
cd "$(dirname "$0")/.."

out="${1:-bench/results/sanitizers}"
bin="${SSSP_LAB:-target/release/sssp-lab}"
jobs="${JOBS:-8}"
tools="${TOOLS:-memcheck racecheck synccheck}"
launches="${LAUNCHES:-fast per-phase}"
san="${SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}"
[ -x "$bin" ] || { echo "sanitize.sh: no binary at $bin (cargo build --release, or set SSSP_LAB)" >&2; exit 2; }
[ -x "$san" ] || { echo "sanitize.sh: compute-sanitizer not found (set SANITIZER)" >&2; exit 2; }
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
mkdir -p "$out/logs" "$out/graphs"
out="$(cd "$out" && pwd)"

# Small graphs: a skewed R-MAT (balanced relax, teams), a grid with coordinates (many
# iterations) and the racy relax's counterexample. Seconds each under the slowest tool.
"$bin" gen rmat --scale 9 --edge-factor 8 --out "$out/graphs/rmat9.gr" 2>/dev/null
"$bin" gen grid --width 24 --height 16 --out "$out/graphs/grid24x16.gr" 2>/dev/null
"$bin" gen counterexample --n 128 --out "$out/graphs/counterexample128.gr" 2>/dev/null
graphs="${GRAPHS:-rmat9 grid24x16 counterexample128}"

if [ -n "${ALGOS:-}" ]; then
    list="$(for a in $ALGOS; do printf 'cuda:0\t%s\texact\n' "$a"; done)"
else
    list="$("$bin" check --list --device cuda:0)" || { echo "sanitize.sh: no CUDA device" >&2; exit 2; }
fi
echo "sanitize.sh: $(echo "$list" | wc -l) algorithm options × launches ($launches) × graphs ($graphs) × tools ($tools), $jobs at a time" >&2

# One run: prints its tsv line.
one() {
    local tool="$1" algo="$2" exact="$3" launch="$4" graph="$5"
    local name; name="$(echo "$tool-$algo-$launch-$graph" | tr ':=,/' '____')"
    local log="$out/logs/$name.log"
    timeout "${RUN_TIMEOUT:-120}" "$san" --tool "$tool" --error-exitcode 99 --print-limit 20 \
        "$bin" solve "$out/graphs/$graph.gr" --source 1 --device cuda:0 --algo "$algo" --launch "$launch" \
        >"$log" 2>&1
    local rc=$?
    # memcheck/synccheck: "ERROR SUMMARY: N errors"; racecheck: "RACECHECK SUMMARY: N hazards displayed".
    local errors
    errors="$(grep -Eo '(ERROR SUMMARY: [0-9]+|RACECHECK SUMMARY: [0-9]+)' "$log" | grep -Eo '[0-9]+$' | awk '{s+=$1} END {print s+0}')"
    local verdict
    if [ "$rc" -eq 0 ] && [ "$errors" -eq 0 ] && [ "$exact" = inexact ]; then
        verdict="clean (racy relax: its race is on global δ, which racecheck, a shared-memory checker, does not see)"
    elif [ "$rc" -eq 0 ] && [ "$errors" -eq 0 ]; then
        verdict=clean
    elif [ "$exact" = inexact ] && [ "$tool" = racecheck ] && [ "$rc" -eq 99 ]; then
        verdict="expected (racy relax: unsynchronised δ writes, seed 004 §4.3)"
    elif [ "$rc" -eq 99 ] || [ "$errors" -gt 0 ]; then
        verdict=DIRTY
    else
        verdict="FAILED (exit $rc: $(grep -m1 -E '^error:' "$log" | cut -c1-150))"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tool" "$algo" "$launch" "$graph" "$rc" "$errors" "$verdict"
}
export -f one
export san bin out

start=$(date +%s)
# Tool by tool (memcheck first), each line appended as its run ends: a run cut short by a time
# limit still leaves runs.unsorted behind.
: >"$out/runs.unsorted"
for tool in $tools; do
    echo "$list" | while IFS=$'\t' read -r _dev algo exact; do
        for launch in $launches; do
            for graph in $graphs; do echo "$tool $algo $exact $launch $graph"; done
        done
    done
done | xargs -P "$jobs" -n 5 bash -c 'one "$@" >>"$out/runs.unsorted"' _
{ printf 'tool\talgorithm\tlaunch\tgraph\texit\terrors\tverdict\n'; sort "$out/runs.unsorted"; } >"$out/runs.tsv"
rm -f "$out/runs.unsorted"
wall=$(( $(date +%s) - start ))

{
    echo "# compute-sanitizer over every CUDA kernel option"
    echo
    echo "\`scripts/sanitize.sh\` on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1),"
    echo "$("$san" --version 2>/dev/null | grep -m1 -i version), $(date -u +%F), $wall s wall ($jobs runs at a time)."
    echo "Graphs: $graphs (generated by \`sssp-lab gen\`, source 1); launches: $launches."
    echo
    echo "| tool | runs | clean | of them racy relax | expected (racy) | DIRTY | FAILED |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    for tool in $tools; do
        awk -F'\t' -v t="$tool" 'NR > 1 && $1 == t {
            n++; if ($7 ~ /^clean/) c++; if ($7 ~ /^clean \(racy/) r++
            else if ($7 ~ /^expected/) e++; else if ($7 == "DIRTY") d++; else if ($7 !~ /^clean/) f++
        } END { printf "| %s | %d | %d | %d | %d | %d | %d |\n", t, n, c, r, e, d, f }' "$out/runs.tsv"
    done
    echo
    echo "Every run: \`runs.tsv\`; logs of runs that were not clean: \`logs/\`."
    echo
    echo "Racy relax (\`martin-succ:relax=non-atomic\` and its kin, inexact by design): every run is labelled in"
    echo "\`runs.tsv\`; its race is on δ in global memory, so memcheck and racecheck report nothing for it."
    if awk -F'\t' 'NR > 1 && $7 !~ /^clean/' "$out/runs.tsv" | grep -q .; then
        echo
        echo "## Runs that were not clean"
        echo
        awk -F'\t' 'NR > 1 && $7 !~ /^clean/ { printf "- %s `%s` %s on %s: %s errors, %s\n", $1, $2, $3, $4, $6, $7 }' "$out/runs.tsv"
    fi
} >"$out/summary.md"
# Keep only the logs worth reading.
awk -F'\t' 'NR > 1 && $7 ~ /^clean/ { print $1 "-" $2 "-" $3 "-" $4 }' "$out/runs.tsv" | tr ':=,/' '____' |
    while read -r n; do rm -f "$out/logs/$n.log"; done
cat "$out/summary.md"
! awk -F'\t' 'NR > 1 && ($7 == "DIRTY" || $7 ~ /^FAILED/)' "$out/runs.tsv" | grep -q .
