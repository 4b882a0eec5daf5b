#!/usr/bin/env bash
# Opens the generated 5000-bone script (`generate::script(5000, 10)`, the
# editor benches' script: ~50,000 lines) in the real editor window under
# Xvfb with the frame log on (SKELPAD_FRAME_LOG), then types fast, scrolls
# with the wheel and jumps to the end (Ctrl+End) and back (Ctrl+Home).
# Prints each phase's frame times — the app's update, and eframe's whole
# frame (update, tessellation, painting with software GL) — and saves a
# screenshot after each phase. Not run in CI.
#
#   scripts/xvfb-big-file.sh [OUT_DIR]
#
# SKELPAD_BIN: the skelpad binary (else the release build, built first);
# PROFILE_BIN: the `profile_pipeline` example that writes the script (else
# built in release). Display :${BIG_FILE_DISPLAY:-92}.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-$(mktemp -d)}"
mkdir -p "$out"

# shellcheck source=scripts/xvfb-lib.sh
. scripts/xvfb-lib.sh
ensure_xvfb_packages
real_bin="$(skelpad_bin)"
gen="${PROFILE_BIN:-}"
if [ -z "$gen" ]; then
    cargo build --release --quiet --example profile_pipeline
    gen="${CARGO_TARGET_DIR:-target}/release/examples/profile_pipeline"
fi
work="$(mktemp -d)"
file="$work/big.skel2d"
log="$out/frames.log"
"$gen" script plain 5000 0 >"$file" 2>/dev/null
echo "script: $(wc -l <"$file") lines, $(wc -c <"$file") bytes"
# The editor's stderr (the frame log) goes to the log, between the
# phases' markers.
cat >"$work/run.sh" <<EOF
#!/bin/sh
exec "$real_bin" "\$@" 2>>"$log"
EOF
chmod +x "$work/run.sh"
bin="$work/run.sh"
: >"$log"
mark() { echo "=== $1" >>"$log"; }

export SKELPAD_FRAME_LOG=1
mark open
XVFB_WAIT=8 start_editor ":${BIG_FILE_DISPLAY:-92}" "$file"
x() { DISPLAY="$display" xdotool "$@"; }
shot() { DISPLAY="$display" import -window root -crop 1400x860+0+0 "$out/$1.png"; }
shot opened

# Typing: the cursor on a line near the top, at its end; a comment typed
# at 100 keys a second (10 ms apart), then deleted.
mark click
x mousemove --window "$wid" 300 200 click 1
sleep 1
mark type
x key --delay 10 End
x type --delay 10 " # typed fast into a 50000-line script"
sleep 2
shot typed
mark backspace
x key --delay 10 --repeat 20 BackSpace
sleep 1

# Scrolling: 120 wheel steps at 60 a second over the text.
mark scroll
x mousemove --window "$wid" 300 400
x click --repeat 120 --delay 16 5
sleep 3
shot scrolled

# Jumps: to the end and back to the top.
mark jump-end
x key ctrl+End
sleep 3
shot end
mark jump-home
x key ctrl+Home
sleep 1.5
mark done

python3 - "$log" <<'PY'
import re, statistics, sys
phase, frames = None, {}
for line in open(sys.argv[1]):
    if line.startswith("=== "):
        phase = line[4:].strip()
        continue
    m = re.match(r"skelpad frame (\d+): update ([\d.]+) ms, (\d+) events; previous frame ([\d.]+) ms", line)
    if m and phase:
        frames.setdefault(phase, []).append((float(m.group(2)), float(m.group(4))))
for phase, fs in frames.items():
    up = sorted(f[0] for f in fs)
    whole = sorted(f[1] for f in fs if f[1] > 0)
    def s(v):
        return f"median {statistics.median(v):7.2f} ms, slowest {v[-1]:7.2f} ms" if v else "-"
    print(f"{phase:10} {len(fs):4} frames  update: {s(up)}   whole frame: {s(whole)}")
PY
echo "screenshots and the frame log: $out"
