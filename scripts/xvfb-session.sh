# Sourced by scripts/frame-bench.sh and scripts/screenshots.sh: a private X server for the real
# app. `xvfb_session DISPLAY_NUM WIDTH HEIGHT` gives the app its own XDG_RUNTIME_DIR, starts Xvfb
# on :DISPLAY_NUM at WIDTH × HEIGHT × 24, exports DISPLAY and parks the pointer in the bottom-right
# corner, away from the graph view (no hover tooltips). On exit it kills the app the caller
# started last ($APP, if set) and the X server, and removes the run-time directory.
xvfb_session() {
    local display_num=$1 w=$2 h=$3
    XDG_RUNTIME_DIR=$(mktemp -d)
    chmod 700 "$XDG_RUNTIME_DIR"
    export XDG_RUNTIME_DIR
    Xvfb ":$display_num" -screen 0 "${w}x${h}x24" -nolisten tcp -noreset >/dev/null 2>&1 &
    XVFB=$!
    APP=
    trap xvfb_session_cleanup EXIT
    export DISPLAY=":$display_num"
    sleep 1
    xdotool mousemove "$((w - 1))" "$((h - 1))" || echo "warning: xdotool could not move the pointer"
}

xvfb_session_cleanup() {
    [ -n "$APP" ] && kill "$APP" 2>/dev/null || true
    kill "$XVFB" 2>/dev/null || true
    rm -rf "$XDG_RUNTIME_DIR"
}
