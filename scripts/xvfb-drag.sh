#!/usr/bin/env bash
# Drag on the canvas, the text follows — checked through a real X server.
#
#   scripts/xvfb-drag.sh [OUT_DIR]
#
# Runs the release build under Xvfb on a small rig, finds the origin mark of
# the bone `arm` on screen (its diamond is drawn in a colour nothing else
# uses and runs from 5 units behind the origin to 10 ahead), drags it
# 100 px to the right with xdotool (mousedown, moves, mouseup), saves with
# Ctrl+S and checks that only that bone's line, and on it only its `x`
# token, changed. Leaves before/after screenshots in OUT_DIR. Not run in CI
# (needs Xvfb, xdotool and ImageMagick; installs them with apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/xvfb-drag}"
mkdir -p "$out"

# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh
ensure_xvfb_packages

# SKELPAD_BIN: a skelpad binary to use instead of building the release one.
bin="$(skelpad_bin)"

work="$(mktemp -d)"
script="$work/rig.skel2d"
# `arm` is magenta and 10 long: its diamond is the only magenta on screen.
printf '%s\n' \
    'skeleton # drag test' \
    '	body l0' \
    '		@ :circle d30 f#8AC' \
    '	arm x30 y20 l10 #F0F # the arm' \
    '		@ :rect x40 w60 h8 f#C86' \
    '	leg x-60 l40' \
    > "$script"
cp "$script" "$work/before.skel2d"

start_editor ":${XVFB_DISPLAY:-96}" "$script"
DISPLAY="$display" import -window root -crop 1400x860+0+0 "$out/before.png"

# `arm`'s diamond (drawn at 70 % over the background) is the magenta.
mark="$(magenta_mark "$out/before.png" arm)"
read -r cx cy <<<"$mark"

# Drag it 100 px to the right, in steps, as a hand would.
export DISPLAY="$display"
xdotool mousemove "$cx" "$cy"
sleep 0.2
xdotool mousedown 1
sleep 0.1
for dx in 5 10 20 30 40 50 60 70 80 90 100; do
    xdotool mousemove "$((cx + dx))" "$cy"
    sleep 0.05
done
sleep 0.2
xdotool mouseup 1
sleep 0.5
# Save: focus the window again (there is no window manager) and hold Ctrl.
save_with_ctrl_s "$wid"
import -window root -crop 1400x860+0+0 "$out/after.png"
cp "$script" "$out/after.skel2d"
cp "$work/before.skel2d" "$out/before.skel2d"

# Only the `arm` line, and on it only the `x` token, may differ.
python3 - "$work/before.skel2d" "$script" <<'EOF'
import sys
before = open(sys.argv[1], newline='').read().split('\n')
after = open(sys.argv[2], newline='').read().split('\n')
assert len(before) == len(after), "line count changed"
changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
assert changed == [3], f"changed lines: {[i + 1 for i in changed]}"
a, b = before[3], after[3]
ta, tb = a.split(' '), b.split(' ')
assert len(ta) == len(tb), f"token count changed: {a!r} -> {b!r}"
diff = [(x, y) for x, y in zip(ta, tb) if x != y]
assert len(diff) == 1 and diff[0][0] == 'x30' and diff[0][1].startswith('x'), f"tokens changed: {diff}"
new = float(diff[0][1][1:])
assert new > 30, f"x did not grow: {new}"
decimals = diff[0][1].split('.')[1] if '.' in diff[0][1] else ''
assert len(decimals) <= 2 and not decimals.endswith('0'), diff[0][1]
print(f"ok: line 4 `{a.strip()}` -> `{b.strip()}` (x 30 -> {new}); every other byte unchanged")
EOF
echo "screenshots: $out/before.png $out/after.png"
