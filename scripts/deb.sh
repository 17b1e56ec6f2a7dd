#!/usr/bin/env bash
# The Debian package (issue 32 item 3):
#
#   scripts/deb.sh                 builds target/debian/sssp-lab_<version>-1_<arch>.deb
#   scripts/deb.sh --smoke [DIR]   also installs it (dpkg -i, as root) and launches the installed
#                                  app headless under Xvfb from an empty folder; writes DIR/smoke.log
#                                  and DIR/screenshot.png (default bench/results/install)
#
# The package holds /usr/bin/sssp-lab (stripped; the bundled NY graph and the fonts are inside it,
# src/assets.rs), /usr/share/applications/sssp-lab.desktop and
# /usr/share/icons/hicolor/256x256/apps/sssp-lab.png (drawn by packaging/icon.py). Metadata:
# [package.metadata.deb] in Cargo.toml. Needs `cargo install cargo-deb` (installed here when
# missing); the smoke test needs xvfb, imagemagick's `import` and lavapipe (apt).
set -euo pipefail
cd "$(dirname "$0")/.."

command -v cargo-deb >/dev/null || cargo install cargo-deb --locked
deb="$(cargo deb --strip 2>&1 | tee /dev/stderr | grep -E '\.deb$' | tail -1)"
[ -f "$deb" ] || deb="$(ls -t target/debian/*.deb | head -1)"
echo "package: $deb ($(du -h "$deb" | cut -f1))"
dpkg-deb --contents "$deb" | awk '{ print $1, $3, $6 }'

[ "${1:-}" = "--smoke" ] || exit 0
out="$(mkdir -p "${2:-bench/results/install}" && cd "${2:-bench/results/install}" && pwd)"
log="$out/smoke.log"
dpkg -i "$deb"
{
    echo "# $(date -u '+%F %T') UTC, $(uname -srm)"
    echo "\$ dpkg -s sssp-lab | grep -E 'Version|Installed-Size|Depends'"
    dpkg -s sssp-lab | grep -E '^(Version|Installed-Size|Depends)'
    echo "\$ ls -l /usr/bin/sssp-lab /usr/share/applications/sssp-lab.desktop /usr/share/icons/hicolor/256x256/apps/sssp-lab.png"
    ls -l /usr/bin/sssp-lab /usr/share/applications/sssp-lab.desktop /usr/share/icons/hicolor/256x256/apps/sssp-lab.png
} >"$log"

# A clean home and an empty working folder: nothing of the build tree is reachable.
home="$(mktemp -d)"; work="$(mktemp -d)"
cd "$work"
{
    echo "\$ cd $work && HOME=$home sssp-lab check --no-bundled --device cpu --sources 1 | tail -2"
    HOME="$home" sssp-lab check --no-bundled --device cpu --sources 1 2>/dev/null | tail -2
    echo "\$ HOME=$home sssp-lab info   (no file: the bundled NY, which the binary carries)"
    HOME="$home" sssp-lab info 2>&1
} >>"$log" 2>&1

# Headless launch: the app opens its default graph (the bundled NY) and creates the ready file
# once it is loaded and idle (src/app/mod.rs, SSSP_LAB_READY_FILE).
ready="$work/ready"
export HOME="$home" SSSP_LAB_FRESH=1 SSSP_LAB_READY_FILE="$ready" XDG_RUNTIME_DIR="$work/xdg"
mkdir -m 700 -p "$XDG_RUNTIME_DIR"
display=":$((90 + RANDOM % 9))"
Xvfb "$display" -screen 0 1400x900x24 >/dev/null 2>&1 &
xvfb=$!
export DISPLAY="$display"
sleep 1
start=$(date +%s)
sssp-lab >"$work/app.log" 2>&1 &
app=$!
status="not ready after 180 s"
for _ in $(seq 1 360); do
    if [ -e "$ready" ]; then status="ready (NY loaded, idle) after $(( $(date +%s) - start )) s"; break; fi
    if ! kill -0 "$app" 2>/dev/null; then status="exited early"; break; fi
    sleep 0.5
done
import -window root "$out/screenshot.png" 2>/dev/null || true
kill "$app" 2>/dev/null || true
wait "$app" 2>/dev/null || true
kill "$xvfb" 2>/dev/null || true
{
    echo "\$ Xvfb $display & sssp-lab   (SSSP_LAB_READY_FILE, fresh settings, empty HOME and cwd)"
    echo "app: $status"
    echo "app log (last lines):"
    tail -5 "$work/app.log"
} >>"$log"
cat "$log"
case "$status" in ready*) exit 0 ;; *) exit 1 ;; esac
