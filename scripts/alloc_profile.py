"""Sums a DHAT profile (valgrind --tool=dhat) of examples/profile_pipeline
by pipeline stage: each allocation site goes to the first stage below whose
marker appears in its call stack. Prints a Markdown table."""

import collections
import json
import sys

# (stage, marker in the call stack), most specific first.
STAGES = [
    ("generator (not counted)", "skelpad::generate"),
    ("parse: token buffer (freed after each section)",
     "with_capacity<skelpad::syntax::lines::Token>"),
    ("parse: logical lines", "LogicalLine"),
    ("anim: working keys, key sources, timeline sources", "with_room (anim.rs"),
    ("anim: model channels and keys", "build_animation"),
    ("anim: runs, loops, channel map", "compile::anim"),
    ("parse: syntax tree, roles, diagnostics", "skelpad::syntax"),
    ("rig: name index", "compile::names"),
    ("rig: skins (copies of the default attachments)", "finish_skins"),
    ("rig: bones, slots, attachments, rig sources", "compile::rig"),
    ("compiler: section copies, source map", "skelpad::compile"),
]


def stage(stack):
    joined = " | ".join(stack)
    for name, marker in STAGES:
        if marker in joined:
            return name
    return "other"


def main(path):
    with open(path) as f:
        profile = json.load(f)
    frames = profile["ftbl"]
    total = collections.Counter()
    blocks = collections.Counter()
    at_peak = collections.Counter()
    for site in profile["pps"]:
        name = stage([frames[i] for i in site["fs"]])
        total[name] += site["tb"]
        blocks[name] += site["tbk"]
        at_peak[name] += site.get("gb", 0)
    counted = sum(v for k, v in total.items() if not k.startswith("generator"))
    print("| stage | allocated | blocks | live at the peak |")
    print("|---|---|---|---|")
    for name, b in total.most_common():
        print(f"| {name} | {b / 1e6:.2f} MB | {blocks[name]} | {at_peak[name] / 1e6:.2f} MB |")
    print(f"| **total, generator left out** | **{counted / 1e6:.2f} MB** | | |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: alloc_profile.py DHAT_JSON")
    main(sys.argv[1])
