#!/usr/bin/env bash
# Builds SpriterPlusPlus (the official C++ Spriter runtime) OUTSIDE this
# repository with the small driver in scripts/spriter-reference/driver.cpp
# and writes the expectation files that tests/suite/spriter_reference.rs compares
# skelpad's `pose --draw` output with.
#
# Run by hand; it fetches nothing. Get SpriterPlusPlus yourself first, e.g.
#   git clone https://github.com/lucidspriter/SpriterPlusPlus /tmp/SpriterPlusPlus
#   (the files in tests/spriter_reference/ were made from commit 8fb550e)
# then, from the repository root:
#   scripts/spriter-reference.sh /tmp/SpriterPlusPlus [BUILD_DIR] [SAMPLES_DIR] [OUT_DIR]
# BUILD_DIR defaults to /tmp/spriter-reference-build, SAMPLES_DIR to
# ../shared/samples/spriter, OUT_DIR to tests/spriter_reference. To check
# other Spriter files, write their expectations elsewhere and run
#   SKELPAD_SPRITER_SAMPLES=SAMPLES_DIR SKELPAD_SPRITER_REFS=OUT_DIR cargo test --test suite spriter_reference:: Needs g++ (C++14). The source tree must hold
# spriterengine/, example/override/, pugixml/ and nlohmann-json/ (all in
# SpriterPlusPlus's repository).
set -euo pipefail
SRC=$(cd "${1:?usage: $0 SPRITERPLUSPLUS_SOURCE [BUILD_DIR] [SAMPLES_DIR] [OUT_DIR]}" && pwd)
BUILD=${2:-/tmp/spriter-reference-build}
SAMPLES=${3:-../shared/samples/spriter}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
OUT=${4:-$REPO/tests/spriter_reference}
mkdir -p "$BUILD/obj" "$OUT"
case "$BUILD" in "$REPO"/*) echo "BUILD_DIR must be outside the repository" >&2; exit 2 ;; esac

CXX=${CXX:-g++}
FLAGS=(-std=c++14 -O1 -w -I "$SRC" -I "$SRC/nlohmann-json" -I "$SRC/pugixml")
sources=$(cd "$SRC" && find spriterengine -name '*.cpp' | sort)
sources="$sources pugixml/pugixml.cpp"
for f in example/override/pugixmlspriterfile{attribute,document,element}wrapper.cpp \
         example/override/jsonspriterfile{attribute,document,element}wrapper.cpp; do
  sources="$sources $f"
done
objs=()
for s in $sources; do
  o="$BUILD/obj/$(echo "$s" | tr / _).o"
  if [ ! -f "$o" ] || [ "$SRC/$s" -nt "$o" ]; then
    "$CXX" "${FLAGS[@]}" -c "$SRC/$s" -o "$o"
  fi
  objs+=("$o")
done
# The json wrapper includes "json.hpp" from its own folder in some versions.
"$CXX" "${FLAGS[@]}" -I "$SRC/example/override" -c "$HERE/spriter-reference/driver.cpp" -o "$BUILD/obj/driver.o"
"$CXX" -o "$BUILD/spriter-driver" "$BUILD/obj/driver.o" "${objs[@]}"
echo "built $BUILD/spriter-driver from $SRC ($(cd "$SRC" && git rev-parse --short HEAD 2>/dev/null || echo 'unknown commit'))"

# One expectation file per sample file; character maps by the names in the file.
count=0
while IFS= read -r -d '' f; do
  rel=${f#"$SAMPLES"/}
  name=$(echo "$rel" | sed "s|/|__|g")
  maps=()
  while IFS= read -r m; do [ -n "$m" ] && maps+=("$m"); done < <(
    grep -o '<character_map [^>]*name="[^"]*"' "$f" 2>/dev/null | sed 's/.*name="\([^"]*\)".*/\1/' || true)
  if [[ "$f" == *.scon ]]; then
    while IFS= read -r m; do [ -n "$m" ] && maps+=("$m"); done < <(
      python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))
for e in d.get("entity",[]):
  for m in e.get("character_map",[]): print(m["name"])' "$f" 2>/dev/null || true)
  fi
  if "$BUILD/spriter-driver" "$f" "${maps[@]}" > "$OUT/$name.json"; then
    count=$((count + 1))
    echo "wrote $OUT/$name.json (${#maps[@]} character map(s))"
  else
    rm -f "$OUT/$name.json"
    echo "SpriterPlusPlus failed on $rel: no expectations for it" >&2
  fi
done < <(find "$SAMPLES" \( -name '*.scml' -o -name '*.scon' \) -print0 | sort -z)
echo "$count file(s)"

# skelpad's own Spriter test files (tests/fixtures/spriter), when writing
# the repository's expectations.
if [ -z "${4:-}" ]; then
  mkdir -p "$OUT/fixtures"
  for f in "$REPO"/tests/fixtures/spriter/*.scml "$REPO"/tests/fixtures/spriter/*.scon; do
    [ -f "$f" ] || continue
    maps=()
    while IFS= read -r m; do [ -n "$m" ] && maps+=("$m"); done < <(
      grep -o '<character_map [^>]*name="[^"]*"' "$f" 2>/dev/null | sed 's/.*name="\([^"]*\)".*/\1/' || true)
    "$BUILD/spriter-driver" "$f" "${maps[@]}" > "$OUT/fixtures/$(basename "$f").json"
    echo "wrote $OUT/fixtures/$(basename "$f").json"
  done
fi
