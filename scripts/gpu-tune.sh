#!/usr/bin/env bash
# The GPU tuning sweeps that used to be `examples/cuda_bench.rs --tune` and `wgpu_bench.rs`
# (bench/results/cuda-tune.md, wgpu-split.md), as `sssp-lab solve` runs: every knob is a value
# passed with the run (--block, --blocks-per-sm, --solo-work, --launch), none is global state.
#
#   scripts/gpu-tune.sh BIN OUT_DIR [GRAPH...]      (default graph: fan-out n = 98 304, d = 2)
#
# Writes OUT_DIR/tune.tsv: graph, device, algorithm, block, blocks/SM, solo work, launch, median
# and min ms of run_to_end over 5 runs, iterations.
set -uo pipefail
bin=$1 out=$2
shift 2
mkdir -p "$out"
graphs=("$@")
if [ ${#graphs[@]} -eq 0 ]; then
    "$bin" gen fanout --n 98304 -d 2 --max-weight 100 --seed 1 --out "$out/fanout-98304-2.gr" 2>/dev/null
    graphs=("$out/fanout-98304-2.gr")
fi
printf 'graph\tdevice\talgorithm\tblock\tblocks_per_sm\tsolo_work\tlaunch\tmedian_ms\tmin_ms\titerations\n' > "$out/tune.tsv"
run() { # graph device algo block bps solo launch
    local extra=()
    [ "$5" != default ] && extra+=(--blocks-per-sm "$5")
    [ "$6" != default ] && extra+=(--solo-work "$6")
    local line
    line=$("$bin" solve "$1" -s 1 -a "$3" -d "$2" --block "$4" --launch "$7" "${extra[@]}" --repeat 5 2>&1)
    local med min its
    med=$(echo "$line" | sed -n 's/.*median \([0-9.]*\) ms, min \([0-9.]*\) ms.*/\1/p')
    min=$(echo "$line" | sed -n 's/.*median \([0-9.]*\) ms, min \([0-9.]*\) ms.*/\2/p')
    its=$(echo "$line" | sed -n 's/.*: \([0-9]*\) iterations,.*/\1/p')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(basename "$1")" "$2" "$3" "$4" "$5" "$6" "$7" \
        "${med:-fail}" "${min:-fail}" "${its:-?}" >> "$out/tune.tsv"
}
for g in "${graphs[@]}"; do
    for algo in crauser-succ martin-succ; do
        for block in 256 512 1024; do
            for bps in default 1 2 4; do run "$g" cuda:0 "$algo" "$block" "$bps" default fast; done
            for solo in 0 $((4 * block)) $((32 * block)); do run "$g" cuda:0 "$algo" "$block" default "$solo" fast; done
        done
    done
    for dev in cuda:0 wgpu:0; do
        for algo in crauser-succ martin-succ crauser-pred martin-pred; do
            for launch in fast per-phase; do run "$g" "$dev" "$algo" 256 default default "$launch"; done
        done
    done
done
