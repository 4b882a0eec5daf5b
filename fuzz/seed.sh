#!/bin/sh
# Fills fuzz/corpus/* (git-ignored) with the seeds each target starts from:
#   parse, syntax  every .skel2d of the repository (examples, conformance
#                  scripts, test fixtures, rigs), ../shared/conformance, and
#                  every skel2d / skel2d-error code block of the docs
#   read_skf, skf_import  SkelForm's samples and skelpad's own exports of the
#                  examples and tests/skf_rigs (when a skelpad binary is
#                  given in $SKELPAD); skf_import also gets their armature.json
#   spriter        the Spriter samples and the test fixtures (SCML and SCON)
# Run from the repository root: sh fuzz/seed.sh
set -eu
C=${CORPUS:-fuzz/corpus}
S=../shared
mkdir -p $C/parse $C/syntax $C/read_skf $C/skf_import $C/spriter

for f in $(find examples tests docs -name '*.skel2d') $S/conformance/*.skel2d; do
	[ -f "$f" ] && cp "$f" "$C/parse/$(echo "$f" | tr '/' '_')"
done
for md in docs/*.md README.md LANGUAGE-EXT.md ARCHITECTURE.md $S/LANGUAGE.md; do
	[ -f "$md" ] || continue
	awk -v out="$C/parse/doc_$(basename "$md")" '
		/^```skel2d/ { inside = 1; n++; next }
		/^```/ { inside = 0; next }
		inside { print > (out "_" n ".skel2d") }
	' "$md"
done
cp $C/parse/* $C/syntax/

cp $S/samples/skelform/*.skf $C/read_skf/
if [ -n "${SKELPAD:-}" ]; then
	for f in examples/*.skel2d tests/skf_rigs/*.skel2d; do
		"$SKELPAD" export --allow-errors -o "$C/read_skf/$(basename "$f" .skel2d).skf" "$f" >/dev/null 2>&1 ||
			echo "not exported: $f"
	done
fi
cp $C/read_skf/* $C/skf_import/
for f in $C/read_skf/*.skf; do
	unzip -p "$f" armature.json >"$C/skf_import/$(basename "$f").armature.json" 2>/dev/null || true
done

cp $S/samples/spriter/*/*.sc?? tests/fixtures/spriter/*.sc?? $C/spriter/
find tests/spriter_reference -name '*.sc??' -exec cp {} $C/spriter/ \;
for t in parse syntax read_skf skf_import spriter; do
	echo "$t: $(ls $C/$t | wc -l) seeds"
done
