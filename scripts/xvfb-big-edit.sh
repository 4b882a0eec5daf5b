#!/usr/bin/env bash
# Types fast into the animations of a generated 1000-bone script (the
# `everything` style: 740 KB, CRLF, long names, loops) in the real editor
# window under Xvfb, saves with Ctrl+S and checks the saved bytes: the
# edits inside animation items take the compiler's splice path (only the
# edited items re-parsed and recompiled), so this is that path driven the
# way a person drives it. Not run in CI.
#
#   scripts/xvfb-big-edit.sh [SCREENSHOT.png]
#
# Uses SKELPAD_BIN if set, else builds the release binary; builds the
# release `profile_pipeline` example to write the script. Exit status 0
# when the saved file is the original with exactly the typed text.
set -euo pipefail
cd "$(dirname "$0")/.."
shot="${1:-}"

# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh
ensure_xvfb_packages
bin="$(skelpad_bin)"
cargo build --release --quiet --example profile_pipeline
work="$(mktemp -d)"
file="$work/big.skel2d"
target/release/examples/profile_pipeline write everything 1000 0 >"$file" 2>/dev/null
cp "$file" "$work/original.skel2d"

XVFB_WAIT=4 start_editor ":${BIG_EDIT_DISPLAY:-95}" "$file"
x() { DISPLAY="$display" xdotool "$@"; }
x mousemove --window "$wid" 250 120 click 1
sleep 0.5

# The last lines of the script are the last item of the last animation:
#   <TAB>segment_blade_lower_999 :4:li
#   <TAB><TAB>r 0 { -> -10 { :2:so-> +5 -> *0.5 }[2] -> 0 }[3]
#   <TAB><TAB>x 0 +3::sio--> +5 -> *1.5 ->
# (then a final line break). Type at the end of the `x` line, then at the
# end of the `r` line, 12 ms between keys.
x key --delay 12 ctrl+End Up End
x key --delay 12 space 7 space minus minus greater space 9
x key --delay 12 Up End
x key --delay 12 space minus greater space 4 2
# A line typed into the item before it, and a digit deleted and typed back.
x key --delay 12 Up Up End Return
x key --delay 12 y space 1 space minus greater space 2
x key --delay 12 BackSpace 3
sleep 1
x key --delay 12 ctrl+s
sleep 2

if [ -n "$shot" ]; then
    mkdir -p "$(dirname "$shot")"
    x mousemove --window "$wid" 260 300
    sleep 1
    DISPLAY="$display" import -window root -crop 1400x860+0+0 "$shot"
    echo "screenshot: $shot"
fi

# What the file must hold: the same edits made with text tools.
python3 - "$work/original.skel2d" "$work/expected.skel2d" <<'PY'
import sys
lines = open(sys.argv[1], newline="").read().split("\r\n")
assert lines[-1] == "", "the script ends with a line break"
x, r = len(lines) - 2, len(lines) - 3
lines[x] += " 7 --> 9"
lines[r] += " -> 42"
# Up twice from the `r` line: the `x` line of the item before it; Return
# keeps its two tabs (and the file's CRLF).
lines.insert(r - 1, "\t\ty 1 -> 3")
open(sys.argv[2], "w", newline="").write("\r\n".join(lines))
PY
if cmp -s "$file" "$work/expected.skel2d"; then
    echo "big-edit test: PASS — the saved file is the original with exactly the typed text ($(wc -c <"$file") bytes)"
else
    echo "big-edit test: FAIL — the saved file differs from what was typed:" >&2
    diff <(cat -A "$work/expected.skel2d") <(cat -A "$file") | head -20 >&2 || true
    exit 1
fi
