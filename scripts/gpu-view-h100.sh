#!/usr/bin/env bash
# Looks for a Vulkan device on the GPU machine (no display, no Vulkan loader installed) and, where
# one answers, runs the graph view's headless frame bench there (issue 15: frame times on the H100).
#
#   scripts/gpu-view-h100.sh BIN_DIR OUT_DIR
#
# BIN_DIR holds `libtests.gz` (the stripped release lib tests: `cargo test --release --lib
# --no-run`) and this machine's `libvulkan.so.1`: the GPU machine has
# the NVIDIA driver's ICD libraries but no loader. The driver's own ICD file names
# `libGLX_nvidia.so.0`, which refuses `vkCreateInstance` without an X server; the same driver
# answers through `libEGL_nvidia.so.0`, so each ICD library found is tried in turn.
set -uo pipefail
bin=$1 out=$2
out=$(realpath -m "$out")
mkdir -p "$out" /tmp/gv
for f in libtests; do gzip -dc "$bin/$f.gz" > "/tmp/gv/$f" && chmod +x "/tmp/gv/$f"; done
cp "$bin/libvulkan.so.1" /tmp/gv/
export LD_LIBRARY_PATH=/tmp/gv${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

{
    echo "## devices"; ls -la /dev/nvidia* /dev/dri 2>&1
    echo "## nvidia-smi"; nvidia-smi --query-gpu=name,driver_version,display_mode,display_active --format=csv
    echo "## libraries"; ldconfig -p | grep -i -E "nvidia|EGL|GLX|vulkan"
    echo "## ICD and vendor files"
    find / -xdev \( -path /proc -prune \) -o \( -name "*nvidia*.json" -o -name "*icd*.json" \) -print 2>/dev/null |
        while read -r f; do echo "== $f"; cat "$f"; done
    echo "## environment"; env | grep -i -E "nvidia|^vk_|display|xdg" || true
} > "$out/environment.txt" 2>&1

cd "$(dirname "$0")/.." || exit 1
# The bench's `ny` names the checkout it was built in; the GPU machine's copy is elsewhere.
ny=$PWD/assets/USA-road-d.NY.gr.gz found="" bench=app::graph_view::gpu::bench::headless_frame_bench
for lib in libGLX_nvidia.so.0 libEGL_nvidia.so.0; do
    path=$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }')
    [ -n "$path" ] || { echo "$lib: not found" >> "$out/probe.txt"; continue; }
    icd=/tmp/gv/icd-$lib.json
    printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$path" > "$icd"
    echo "## $lib ($path)" >> "$out/probe.txt"
    # The first bench run is the probe: it writes its frame log only if an adapter answered.
    VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd VK_LOADER_DEBUG=error,warn,driver WGPU_BACKEND=vulkan \
        SSSP_LAB_HEADLESS_BENCH=$ny SSSP_LAB_FRAME_LOG="$out/ny-cpu.json" \
        timeout --signal=KILL 90 /tmp/gv/libtests --ignored --exact "$bench" --nocapture >> "$out/probe.txt" 2>&1
    if grep -q NVIDIA "$out/ny-cpu.json" 2>/dev/null; then found=$icd; break; fi
done
if [ -z "$found" ]; then
    echo "no Vulkan device answered; see probe.txt" | tee "$out/summary.txt"
    exit 0
fi
echo "Vulkan through $found" | tee "$out/summary.txt"
export VK_DRIVER_FILES=$found VK_ICD_FILENAMES=$found WGPU_BACKEND=vulkan
# name, graph, solver, arcs budget (SSSP_LAB_VIEW_ARCS; "-": the adapter's default), seconds
# EXTRA_RUNS adds lines of the same form.
while read -r name graph solver arcs limit; do
    [ -n "$name" ] || continue
    start=$(date +%s) extra=()
    [ "$arcs" = - ] || extra=(SSSP_LAB_VIEW_ARCS="$arcs")
    env "${extra[@]}" SSSP_LAB_HEADLESS_BENCH="$graph" SSSP_LAB_HEADLESS_SOLVER="$solver" \
        SSSP_LAB_FRAME_LOG="$out/$name.json" \
        timeout --signal=KILL "$limit" /tmp/gv/libtests --ignored --exact "$bench" --nocapture > "$out/$name.log" 2>&1
    echo "$name: exit $? after $(( $(date +%s) - start )) s" | tee -a "$out/summary.txt"
done <<RUNS
floor-grid-8-8 grid:8:8 cpu - 60
ny-wgpu $ny wgpu - 60
ny-wgpu-host $ny wgpu-host - 60
grid-4096-4096-cpu grid:4096:4096 cpu - 120
grid-4096-4096-wgpu grid:4096:4096 wgpu - 120
${EXTRA_RUNS:-}
RUNS
