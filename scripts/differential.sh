#!/usr/bin/env bash
# Differential test against the original Skel2D tool (urraka/skel2d): random
# scripts, valid and slightly broken, are posed by the original's own parser
# and runtime under Node and by `skelpad pose --json`; poses (at 0, every tenth
# of the duration and the end), durations and draw order must agree, except
# where LANGUAGE.md says [differs] (those scripts are set aside or compared
# without the differing part, and counted).
#
# Not part of CI: it needs Node and a checkout of the original, kept OUTSIDE
# this repository (nothing of it is committed here):
#
#   git clone https://github.com/urraka/skel2d /tmp/skel2d
#   SKEL2D_SRC=/tmp/skel2d scripts/differential.sh [COUNT] [FIRST_SEED]
#
# Scripts that disagree are written to $DIFF_OUT (default
# /tmp/skelpad-differential) as SEED.skel2d with SEED.txt (the differences)
# and both JSON results; `node scripts/differential/gen.js SEED` prints the
# script of one seed again. Exit status 1 when anything disagrees.
set -euo pipefail
cd "$(dirname "$0")/.."

count="${1:-2000}"
seed="${2:-1}"
: "${SKEL2D_SRC:?set SKEL2D_SRC to a checkout of https://github.com/urraka/skel2d (outside this repository)}"
if [[ ! -f "$SKEL2D_SRC/src/skel2d_parser.js" && ! -f "$SKEL2D_SRC/skel2d_parser.js" ]]; then
	echo "differential.sh: no skel2d_parser.js under $SKEL2D_SRC" >&2
	exit 2
fi
case "$(realpath "$SKEL2D_SRC")/" in
"$(pwd)"/*) echo "differential.sh: keep the original's checkout outside this repository" >&2; exit 2 ;;
esac
command -v node >/dev/null || { echo "differential.sh: node is needed" >&2; exit 2; }

cargo build --quiet --bin skelpad
bin="${CARGO_TARGET_DIR:-target}/debug/skelpad"
exec node scripts/differential/run.js --src "$SKEL2D_SRC" --skelpad "$bin" \
	--count "$count" --seed "$seed" --out "${DIFF_OUT:-/tmp/skelpad-differential}"
