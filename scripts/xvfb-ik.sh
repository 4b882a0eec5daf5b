#!/usr/bin/env bash
# Drag an IK target on the canvas, the chain follows — through a real X server.
#
#   scripts/xvfb-ik.sh [OUT_DIR]
#
# Runs the release build under Xvfb on a two-segment arm whose hand reaches
# for the bone `goal` (an `ik` section, LANGUAGE-EXT.md). Finds the origin
# mark of `goal` on screen (its diamond is the only magenta), drags it up
# and to the left with xdotool, saves with Ctrl+S, and checks that only the
# `goal` line changed and that in the saved script's setup pose the hand is
# on the goal (`skelpad pose`). Leaves before/after screenshots in OUT_DIR
# (look at them: the arm bends towards the goal in both). Not run in CI
# (needs Xvfb, xdotool and ImageMagick; installs them with apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/xvfb-ik}"
mkdir -p "$out"

# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh
ensure_xvfb_packages

bin="$(skelpad_bin)"

work="$(mktemp -d)"
script="$work/ik.skel2d"
# `goal` is magenta and 10 long: its diamond is the only magenta on screen.
printf '%s\n' \
    'skeleton # IK drag test' \
    '	body r90 l60' \
    '		@ :rect x30 w60 h30 f#8AC' \
    '	body.upper x60 r-120 l50 #0CF' \
    '		@ :rect x25 w50 h10 f#C86' \
    '	body.upper.fore x50 r40 l40 #0CF' \
    '		@ :rect x20 w40 h8 f#C86' \
    '	body.upper.fore.hand x40 l6 #0CF' \
    '	goal x70 y30 l10 #F0F # the target' \
    'ik' \
    '	hand to goal up 2 ccw' \
    > "$script"
cp "$script" "$work/before.skel2d"

start_editor ":${XVFB_DISPLAY:-97}" "$script"
DISPLAY="$display" import -window root -crop 1400x860+0+0 "$out/before.png"

mark="$(magenta_mark "$out/before.png" goal)"
read -r cx cy <<<"$mark"

export DISPLAY="$display"
xdotool mousemove "$cx" "$cy"
sleep 0.2
xdotool mousedown 1
sleep 0.1
for d in 4 8 12 16 20 24 28 32 36 40; do
    xdotool mousemove "$((cx - d))" "$((cy - d * 3 / 4))"
    sleep 0.05
done
sleep 0.3
import -window root -crop 1400x860+0+0 "$out/dragging.png"
xdotool mouseup 1
sleep 0.5
save_with_ctrl_s "$wid"
import -window root -crop 1400x860+0+0 "$out/after.png"
cp "$script" "$out/after.skel2d"
cp "$work/before.skel2d" "$out/before.skel2d"

# Only the `goal` line may differ; in the saved setup pose the hand is on
# the goal (or, out of reach, the arm points straight at it).
"$bin" pose "$script" > "$work/pose.txt"
python3 - "$work/before.skel2d" "$script" "$work/pose.txt" <<'EOF'
import math, re, sys
before = open(sys.argv[1]).read().split('\n')
after = open(sys.argv[2]).read().split('\n')
changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
assert len(before) == len(after) and changed == [8], f"changed lines: {[i + 1 for i in changed]}"
print(f"ok: line 9 `{before[8].strip()}` -> `{after[8].strip()}`")
pos = {}
for line in open(sys.argv[3]):
    m = re.match(r'\s+bone (\S+)\s+\[(.*)\]', line)
    if m and m.group(1) not in pos:
        v = [float(x) for x in m.group(2).split()]
        pos[m.group(1)] = (v[4], v[5])
goal, hand, shoulder = pos['goal'], pos['body.upper.fore.hand'], pos['body.upper']
d = math.dist(shoulder, goal)
if d < 90:
    err = math.dist(hand, goal)
    assert err < 0.05, f"hand {hand} is {err} from the goal {goal}"
    print(f"ok: the hand follows the goal to {goal} (off by {err:.2e})")
else:
    print(f"note: goal {goal} is out of reach ({d:.1f} > 90); the hand is at {hand}")
EOF
echo "screenshots: $out/before.png $out/dragging.png $out/after.png"
