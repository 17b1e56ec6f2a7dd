#!/usr/bin/env bash
# Screenshots of the real release binary under Xvfb (software Vulkan, lavapipe):
#   screenshots/ny-mid-run.png          NY road network, Crauser halfway through, with its plots
#   screenshots/small-graph-layout.png  karate club (no coordinates: laid out by the view)
#   screenshots/bad-file-error.png      the error banner for a bad file, NY still loaded
#   screenshots/ny-delta-stepping.png   NY with Δ-stepping (auto Δ) part-way: buckets, light/heavy relaxations
#   screenshots/negative-cycle.png      Hamrle1 (negative weights): switched to Bellman-Ford, which names a negative cycle
#   screenshots/rmat-delta-stepping-gpu.png  R-MAT scale 16, Δ-stepping with relax=balanced on the wgpu adapter: lane use
#   screenshots/rmat-balanced-relax-gpu.png  R-MAT scale 16, Crauser with relax=balanced on the wgpu adapter: lane use beside the dummy-thread ratio
#   screenshots/ssca2-helper-threads.png  SSCA#2 (seed 001 Table 2), helper threads on 4 CPU threads: time in barriers and locks, helper work
#   screenshots/bench-lab.png           the bench lab running experiments/smoke.json (CPU sweep)
#   screenshots/bench-threads.png       the bench lab part-way through experiments/seed001-speedup.json: speedup vs threads
#   screenshots/many-sources.png        NY, 96 sources on two one-thread Dijkstras and a 2-thread crauser-succ: equitable vs work-stealing timelines
#   screenshots/compare-martin-crauser-ny.png  README's first image: the NY lesson run on to settled
#                                       level 300 000, both lanes mid-run (settled region, reached
#                                       ring and frontier visible without zooming)
#   screenshots/compare-*.png           compare mode: each of the seven lessons of the Lessons menu
#   screenshots/auto-tune.png           the run panel's Auto-tune on NY for Δ-stepping on the wgpu adapter: predicted blocks, Δ and the rules
#   screenshots/dense-matrix-options.png  a dense graph (seed 004 §5) with martin-pred's seed 004 options (relax, split, minimum, layout)
#   screenshots/grid-16m-mid-run.png    a generated 4096 × 4096 grid (16.8 M vertices, 67 M arcs) part-way through Crauser from its centre: the GPU view's density tiles
#   screenshots/sequence/compare-ny-*.png  a screencast as frames: Martín vs Crauser on NY in lockstep by settled level, 0 … 320 steps
#   screenshots/*-1280x720.png          each tab again in a 1280 × 720 window (a projector): Step
#                                       (ny-mid-run), Bench lab, Many sources, Compare
#
# The app is driven by environment hooks read in `sssp_lab::app::run`: SSSP_LAB_OPEN (file to
# open), SSSP_LAB_DEMO (commands, see src/app/script.rs), SSSP_LAB_WINDOW (window size, WxH) and
# SSSP_LAB_READY_FILE (created once the commands are done and no background job runs).
#
# Usage: scripts/screenshots.sh            every shot (about 15-25 min on 2 cores)
#        ONLY='compare-*' scripts/screenshots.sh   just the shots whose names match the glob
#        REBUILD=1 scripts/screenshots.sh   rebuild target/release/sssp-lab first
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=target/release/sssp-lab
# README's first image: NY's lesson run on to settled level 300 000 (about 20 000 vertices settled of
# 264 346, ~17 000 of Martín's iterations): the settled region and the reached ring around it
# show on the whole of NY. Stepping there one compare step at a time would take an hour.
README_COMPARE="lesson:0;compare-level:300000"
OUT=screenshots
W=1400
H=900

need=()
command -v Xvfb >/dev/null || need+=(xvfb)
command -v import >/dev/null || need+=(imagemagick)
command -v xdotool >/dev/null || need+=(xdotool)
[ -e /usr/share/vulkan/icd.d/lvp_icd.x86_64.json ] || ls /usr/share/vulkan/icd.d/lvp_icd* >/dev/null 2>&1 \
    || need+=(mesa-vulkan-drivers libvulkan1)
if [ ${#need[@]} -gt 0 ]; then
    echo "installing ${need[*]} (and the X/EGL run-time libraries)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" libegl1 libegl-mesa0 libgl1-mesa-dri \
        libxkbcommon-x11-0 libx11-xcb1 libxcursor1 libxrandr2 libxi6 >/dev/null
fi
if [ ! -x "$BIN" ] || [ "${REBUILD:-0}" = 1 ]; then
    cargo build --release
fi
mkdir -p "$OUT"

# shellcheck source=scripts/xvfb-session.sh
. scripts/xvfb-session.sh
xvfb_session "${DISPLAY_NUM:-97}" "$W" "$H"

# [WAIT=SECONDS] shot NAME SETTLE_SECONDS VAR=VALUE...: starts the app with these variables, waits
# until it reports ready (at most WAIT, default 120 s), lets the view settle, takes the screenshot
# (of the app's window when SSSP_LAB_WINDOW sets a size other than the screen's), closes the app.
shot() {
    local name=$1 settle=$2
    shift 2
    # ONLY=GLOB retakes just the shots whose names match.
    if [ -n "${ONLY:-}" ] && [[ "$name" != $ONLY ]]; then return 0; fi
    local tag=${name//\//-}
    local ready="$XDG_RUNTIME_DIR/$tag.ready"
    env "$@" SSSP_LAB_READY_FILE="$ready" "$BIN" >"$XDG_RUNTIME_DIR/$tag.log" 2>&1 &
    APP=$!
    for _ in $(seq 1 "$((2 * ${WAIT:-120}))"); do
        [ -e "$ready" ] && break
        kill -0 "$APP" 2>/dev/null || { echo "the app exited early:"; cat "$XDG_RUNTIME_DIR/$tag.log"; exit 1; }
        sleep 0.5
    done
    [ -e "$ready" ] || echo "warning: $name: the app did not report ready; taking the shot anyway"
    sleep "$settle"
    # Wiggle the pointer in the corner so the app sees it away from the view (no hover).
    xdotool mousemove "$((W - 3))" "$((H - 3))" mousemove "$((W - 1))" "$((H - 1))" || true
    sleep 0.5
    local win=root
    if [[ " $* " == *" SSSP_LAB_WINDOW="* ]]; then
        win=$(xdotool search --name '^sssp-lab$' 2>/dev/null | head -1) || true
        [ -n "$win" ] || { echo "warning: $name: no sssp-lab window found; taking the whole screen"; win=root; }
    fi
    import -window "$win" "$OUT/$name.png"
    kill "$APP" 2>/dev/null || true
    wait "$APP" 2>/dev/null || true
    APP=
    echo "wrote $OUT/$name.png"
}

shot ny-mid-run 3 SSSP_LAB_DEMO="algo:crauser-succ;run;seek:3750"
shot small-graph-layout 4 SSSP_LAB_OPEN=tests/data/karate.graph SSSP_LAB_DEMO="algo:martin-succ;steps:2"
shot bad-file-error 3 SSSP_LAB_DEMO="open:tests/data/bad/huge_weight.gr"
shot ny-delta-stepping 3 SSSP_LAB_DEMO="algo:delta-stepping;run;seek:1200"
WAIT=300 shot ny-phast 3 SSSP_LAB_DEMO="algo:phast;steps:100"
shot negative-cycle 3 SSSP_LAB_OPEN=tests/data/Hamrle1.mtx SSSP_LAB_DEMO="steps:40"
shot rmat-delta-stepping-gpu 4 SSSP_LAB_DEMO="gen:rmat;algo:delta-stepping:relax=balanced;device:wgpu:0;steps:8"
shot rmat-balanced-relax-gpu 4 SSSP_LAB_DEMO="gen:rmat;algo:crauser-succ:relax=balanced;device:wgpu:0;steps:12"
shot ssca2-helper-threads 3 SSSP_LAB_DEMO="gen:ssca2;algo:helper;device:cpu-par:4;steps:300"
shot bench-lab 3 SSSP_LAB_BENCH=experiments/smoke.json
shot bench-threads 1 SSSP_LAB_BENCH=experiments/seed001-speedup.json
shot many-sources 2 SSSP_LAB_MANY="96:1;cpu:2,cpu-par:2"
WAIT=600 shot compare-martin-crauser-ny 3 SSSP_LAB_DEMO="$README_COMPARE"
shot compare-racy-vs-atomic 2 SSSP_LAB_DEMO="lesson:1;compare-run"
shot compare-dummy-threads 2 SSSP_LAB_DEMO="lesson:2;compare-steps:6"
shot compare-delta-width 2 SSSP_LAB_DEMO="lesson:3;compare-steps:30"
shot compare-bellman-ford 2 SSSP_LAB_DEMO="lesson:4;compare-steps:8"
shot compare-helper-threads 2 SSSP_LAB_DEMO="lesson:5;compare-steps:300"
shot compare-gpu-roads 2 SSSP_LAB_DEMO="lesson:6;compare-steps:600"
shot auto-tune 2 SSSP_LAB_DEMO="algo:delta-stepping;device:wgpu:0;tune"
shot ny-wgpu-zero-copy 4 SSSP_LAB_DEMO="algo:crauser-succ;device:wgpu:0;steps:300"
shot grid-16m-mid-run 3 SSSP_LAB_DEMO="gen:grid:4096:4096;source:8390656;algo:crauser-succ;steps:2400"
shot dense-matrix-options 2 SSSP_LAB_DEMO="gen:dense;algo:martin-pred:layout=matrix;steps:2"
mkdir -p "$OUT/sequence"
for k in 0 10 20 40 80 160 320; do
    shot "sequence/compare-ny-$(printf %03d "$k")" 2 SSSP_LAB_DEMO="lesson:0;compare-steps:$k"
done

# Each tab again in a 1280 × 720 window (issue 28: a projector's size).
P720=SSSP_LAB_WINDOW=1280x720
shot ny-mid-run-1280x720 3 "$P720" SSSP_LAB_DEMO="algo:crauser-succ;run;seek:3750"
shot bench-lab-1280x720 3 "$P720" SSSP_LAB_BENCH=experiments/smoke.json
shot many-sources-1280x720 2 "$P720" SSSP_LAB_MANY="96:1;cpu:2,cpu-par:2"
WAIT=600 shot compare-martin-crauser-ny-1280x720 3 "$P720" SSSP_LAB_DEMO="$README_COMPARE"
