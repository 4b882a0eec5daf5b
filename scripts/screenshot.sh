#!/usr/bin/env bash
# Takes the README screenshot: runs the editor under a virtual X server
# (Xvfb), waits for its first frames, and saves the screen as a PNG.
#
#   scripts/screenshot.sh [OUT.png] [SCRIPT.skel2d]
#
# Installs what it needs with apt-get (Debian/Ubuntu, as root or via sudo).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-assets/screenshot.png}"
script="${2:-}"

# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh
ensure_xvfb_packages

cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/skelpad"

display=":${SCREENSHOT_DISPLAY:-97}"
Xvfb "$display" -screen 0 1400x860x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
# A fresh settings folder, so the screenshot does not depend on earlier runs.
home="$(mktemp -d)"
cleanup() {
    [ -n "${app:-}" ] && kill "$app" 2>/dev/null || true
    kill "$xvfb" 2>/dev/null || true
    rm -rf "$home"
}
trap cleanup EXIT
wait_for_display "$display"

args=()
[ -n "$script" ] && args+=("$script")
DISPLAY="$display" XDG_DATA_HOME="$home" XDG_CONFIG_HOME="$home" WAYLAND_DISPLAY= \
    LIBGL_ALWAYS_SOFTWARE=1 "$bin" "${args[@]}" &
app=$!

# Wait for the window, focus it (there is no window manager), let it play.
wid="$(wait_for_window "$display")"
# Without a window manager, focusing may be refused; the picture does not need it.
DISPLAY="$display" xdotool windowsize "$wid" 1400 860 windowmove "$wid" 0 0 windowfocus --sync "$wid" 2>/dev/null || true
sleep "${SCREENSHOT_WAIT:-3}"
mkdir -p "$(dirname "$out")"
DISPLAY="$display" import -window root -crop 1400x860+0+0 "$out"
echo "wrote $out"
