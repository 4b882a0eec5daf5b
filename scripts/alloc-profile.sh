#!/usr/bin/env bash
# Where a compile's memory goes: runs one parse + compile of a generated
# script under valgrind's DHAT and sums the bytes allocated by pipeline stage
# (scripts/alloc_profile.py). The generator's own allocations are shown
# apart and left out of the total.
#
#   scripts/alloc-profile.sh [STYLE] [BONES]     (default: everything 1000)
#
# Needs valgrind and python3. DHAT sees only the system allocator, so the
# driver is built without the mimalloc feature, in its own target folder
# (target/alloc-profile) so that the normal build keeps its artifacts.
set -euo pipefail
cd "$(dirname "$0")/.."
style="${1:-everything}"
bones="${2:-1000}"
command -v valgrind >/dev/null || { echo "alloc-profile: valgrind is not installed" >&2; exit 2; }
target="${CARGO_TARGET_DIR:-target}/alloc-profile"
CARGO_TARGET_DIR="$target" cargo build --release --no-default-features --features app \
    --example profile_pipeline >&2
out="$(mktemp --suffix .dhat.json)"
trap 'rm -f "$out"' EXIT
valgrind --tool=dhat --dhat-out-file="$out" \
    "$target/release/examples/profile_pipeline" compile "$style" "$bones" 1 2>&1 \
    | grep -E 'bytes$|Total:|t-gmax:' >&2
python3 scripts/alloc_profile.py "$out"
