#!/usr/bin/env bash
# Types a 14-line script into the real editor window through a virtual X
# server (Xvfb) with real key events (xdotool → XTEST, TYPING_DELAY ms
# between keys, 12 by default; Enter right after the last character of each
# line), saves it with Ctrl+S and checks that the file holds exactly the
# script. The completion list is on: lines end in whole names that prefix
# others (`skeleton`, `body` before `body.arm`), which the list must never
# turn into something else at any speed. Not run in CI.
#
#   TYPING_DELAY=8 scripts/xvfb-typing.sh [SCREENSHOT.png]
#
# Uses SKELPAD_BIN if set, else builds the release binary. Needs xvfb,
# xdotool and imagemagick (installed with apt-get when missing, as
# scripts/screenshot.sh does). Exit status 0 when the saved bytes match.
set -euo pipefail
cd "$(dirname "$0")/.."
shot="${1:-}"
delay="${TYPING_DELAY:-12}"

# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh
ensure_xvfb_packages

bin="$(skelpad_bin)"

display=":${TYPING_DISPLAY:-96}"
Xvfb "$display" -screen 0 1400x860x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
work="$(mktemp -d)"
cleanup() {
    [ -n "${app:-}" ] && kill "$app" 2>/dev/null || true
    kill "$xvfb" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
wait_for_display "$display"

# The file to type over: the editor opens it, Ctrl+A selects it all, and
# typing replaces it (the save dialog is not scriptable here).
file="$work/typed.skel2d"
printf 'placeholder\n\twill be replaced\n' >"$file"

# What the file must hold afterwards: 12 lines, tabs for indentation.
expected="$work/expected.skel2d"
printf '%s\n' \
    'skeleton' \
    $'\tbody l30 r90' \
    $'\t\t@ :rect w20 h40 f#48C' \
    $'\tbody.head l12 x32' \
    $'\t\t@ :circle d18 f#FDB' \
    $'\tbody.arm l25 x25 r-120' \
    $'\t\t@ :rect x12 w25 h6 f#48C' \
    'anim "wave" 24fps 0:6:sio' \
    $'\tbody.arm' \
    $'\t\tr 0 -> 40 -> 0 -> 40 -> 0' \
    $'\tbody.head' \
    $'\t\tr 0 --> 10 --> 0' \
    $'\tbody' \
    $'\t\tx 0 -> 4 -> 0' >"$expected"

mkdir -p "$work/home"
DISPLAY="$display" XDG_DATA_HOME="$work/home" XDG_CONFIG_HOME="$work/home" WAYLAND_DISPLAY= \
    LIBGL_ALWAYS_SOFTWARE=1 "$bin" "$file" &
app=$!

wid="$(wait_for_window "$display")"
x() { DISPLAY="$display" xdotool "$@"; }
# The window may not be mapped yet: focusing it fails until it is.
sleep 1
for _ in $(seq 1 50); do
    x windowsize "$wid" 1400 860 windowmove "$wid" 0 0 2>/dev/null || true
    x windowfocus --sync "$wid" 2>/dev/null && break
    sleep 0.2
done
sleep 2
# Into the text (the editor panel is on the left), select everything.
x mousemove --window "$wid" 250 120 click 1
sleep 0.3
x key --delay "$delay" ctrl+a
sleep 0.3

# Enter keeps the indentation of the line it ends, so each burst types only
# the tabs a line adds, and Shift+Tab takes away what the next line drops.
# Every burst has Enter right after a line's last character and the next
# line's first key right after Enter.
# `xdotool type` sends a line feed for "\n", which is not the Enter key:
# every character goes as its key instead, in one burst, Return for "\n".
keysym() {
    case "$1" in
        $'\n') echo Return ;; $'\t') echo Tab ;; ' ') echo space ;; '#') echo numbersign ;;
        '@') echo at ;; '"') echo quotedbl ;; '>') echo greater ;; '-') echo minus ;;
        ':') echo colon ;; '.') echo period ;; ',') echo comma ;; *) echo "$1" ;;
    esac
}
type() {
    local keys=() i
    for ((i = 0; i < ${#1}; i++)); do keys+=("$(keysym "${1:i:1}")"); done
    x key --delay "$delay" "${keys[@]}"
}
outdent() { for _ in $(seq 1 "$1"); do x key --delay "$delay" shift+Tab; done; }
type $'skeleton\n\tbody l30 r90\n\t@ :rect w20 h40 f#48C\n'
outdent 1
type $'body.head l12 x32\n\t@ :circle d18 f#FDB\n'
outdent 1
type $'body.arm l25 x25 r-120\n\t@ :rect x12 w25 h6 f#48C\n'
outdent 2
type $'anim "wave" 24fps 0:6:sio\n\tbody.arm\n\tr 0 -> 40 -> 0 -> 40 -> 0\n'
outdent 1
type $'body.head\n\tr 0 --> 10 --> 0\n'
outdent 1
type $'body\n\tx 0 -> 4 -> 0\n'
outdent 2
sleep 0.5
x key --delay "$delay" ctrl+s
sleep 1.5

if [ -n "$shot" ]; then
    mkdir -p "$(dirname "$shot")"
    x mousemove 900 500
    sleep 0.5
    DISPLAY="$display" import -window root -crop 1400x860+0+0 "$shot"
    echo "screenshot: $shot"
fi

if cmp -s "$file" "$expected"; then
    echo "typing test: PASS at $delay ms a key — the saved file holds exactly the $(wc -l <"$expected") typed lines ($(wc -c <"$expected") bytes)"
else
    echo "typing test: FAIL — the saved file differs from what was typed:" >&2
    diff <(cat -A "$expected") <(cat -A "$file") >&2 || true
    exit 1
fi
