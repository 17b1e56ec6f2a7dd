#!/usr/bin/env bash
# Frame times of the graph view (issue 15): the real release binary under Xvfb with software
# Vulkan (lavapipe) runs the app's scripted pan / zoom / step sequence (SSSP_LAB_FRAME_LOG, see
# src/app/frame_bench.rs) on
#   - NY (USA-road-d.NY, the default bundled graph: 264 346 vertices, 733 846 arcs), and
#   - a generated W × H grid (GRID=W:H, default 4096:4096 = 16.8 M vertices, 67 M arcs),
# and writes $OUT/{ny,grid-W-H}.json (OUT defaults to bench/results/graph-view-frames; the CPU
# rasters that the first results compared with, ny-cpu-raster.json, are gone). The grid runs
# GRID_FRAMES frames per 60 of each phase (default 20: its frames take long on lavapipe). A
# benchmark, not a test: the numbers depend on the machine (recorded in machine.txt beside them).
#
#   scripts/frame-bench.sh                    # both graphs
#   GRID=2048:2048 scripts/frame-bench.sh     # a smaller grid
#   ONLY=ny scripts/frame-bench.sh            # NY only
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-target/release/sssp-lab}
OUT=${OUT:-bench/results/graph-view-frames}
GRID=${GRID:-4096:4096}
ONLY=${ONLY:-}
W=1400
H=900

for tool in Xvfb xdotool; do
    command -v "$tool" >/dev/null || { echo "needs $tool (see scripts/screenshots.sh for the packages)"; exit 1; }
done
if [ ! -x "$BIN" ] || [ "${REBUILD:-0}" = 1 ]; then
    cargo build --release
fi
mkdir -p "$OUT"

# shellcheck source=scripts/xvfb-session.sh
. scripts/xvfb-session.sh
xvfb_session "${DISPLAY_NUM:-98}" "$W" "$H"
# Software Vulkan only: the numbers are lavapipe's.
export VK_ICD_FILENAMES=${VK_ICD_FILENAMES:-$(ls /usr/share/vulkan/icd.d/lvp_icd*.json | head -1)}
export WGPU_BACKEND=${WGPU_BACKEND:-vulkan}

# bench NAME TIMEOUT_S VAR=VALUE...: runs the app until it writes $OUT/NAME.json and closes.
bench() {
    local name=$1 limit=$2
    shift 2
    local log="$OUT/$name.log"
    rm -f "$OUT/$name.json"
    /usr/bin/time -v env "$@" SSSP_LAB_FRAME_LOG="$OUT/$name.json" "$BIN" >"$log" 2>&1 &
    APP=$!
    local t0=$SECONDS
    while kill -0 "$APP" 2>/dev/null; do
        if [ $((SECONDS - t0)) -gt "$limit" ]; then
            echo "$name: no result after ${limit} s; stopped"
            kill "$APP" 2>/dev/null || true
            break
        fi
        sleep 1
    done
    wait "$APP" 2>/dev/null || true
    APP=
    if [ -e "$OUT/$name.json" ]; then
        echo "$name: $((SECONDS - t0)) s, peak RSS $(grep -o 'Maximum resident set size (kbytes): [0-9]*' "$log" | grep -o '[0-9]*$') kB"
        python3 - "$OUT/$name.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(f"  {d['graph']}: n={d['n']} m={d['m']} gpu={d['gpu']} arcs drawn={d['arcs_drawn']}")
for s in d["summary"]:
    print(f"  {s['phase']:>10}: mean {s['mean_ms']:7.1f} ms  p50 {s['p50_ms']:7.1f}  p95 {s['p95_ms']:7.1f}  max {s['max_ms']:7.1f}  ({s['fps_mean']:.1f} fps)")
PY
    else
        echo "$name: no result; see $log"
    fi
}

{
    echo "date: $(date -u +%FT%TZ)"
    echo "commit: $(git rev-parse --short HEAD)"
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') × $(nproc)"
    echo "memory: $(free -g | awk '/Mem:/ {print $2}') GiB"
    echo "display: Xvfb ${W}x${H}x24"
    echo "vulkan: lavapipe ($VK_ICD_FILENAMES), mesa $(dpkg-query -W -f '${Version}' mesa-vulkan-drivers 2>/dev/null || echo '?')"
} >"$OUT/machine.txt"

if [ -z "$ONLY" ] || [ "$ONLY" = ny ]; then
    bench ny 300
fi
if [ -z "$ONLY" ] || [ "$ONLY" = grid ]; then
    gw=${GRID%%:*}
    gh=${GRID##*:}
    bench "grid-$gw-$gh" "${GRID_TIMEOUT:-1500}" SSSP_LAB_DEMO="gen:grid:$gw:$gh" SSSP_LAB_FRAMES="${GRID_FRAMES:-20}"
fi
