#!/usr/bin/env python3
"""Runs divan benches in rounds, with the machine's speed measured between them.

    scripts/bench-rounds.py BENCH_BINARY ROUNDS FILTER...

BENCH_BINARY is a divan bench binary built with `machine_reference` in it
(`cargo bench --no-run --bench styles` prints its path). Each round runs
`machine_reference`, then each FILTER (a divan `--bench` filter), then
`machine_reference` again. The machines this project is measured on change
speed by up to 2.5 times within minutes (a second core that comes and goes,
a whole core slower), so a figure means little without the machine's speed
at that moment beside it. A FILTER may name one row by its full path
(`parse_and_compile::5000::everything`): a round is then about 1.5 s long,
short enough for the readings at its two ends to describe it.

Prints, per benchmark row: the median of the rounds' medians and the
fastest sample over all rounds; then the same over the *quiet* rounds only,
those whose two-thread reference (both readings) stayed within 15% of the
fastest reference median seen in this run. The reference rows come first,
so a reader sees what "quiet" meant this time.
"""

import re
import statistics
import subprocess
import sys
from collections import defaultdict

UNITS = {"ns": 1e-3, "µs": 1.0, "ms": 1e3, "s": 1e6}
VALUE = re.compile(r"([\d.]+)\s*(ns|µs|ms|s)\b")
QUIET = 1.15


def rows(output):
    """(path, median µs, fastest µs) for each leaf row of divan's tree."""
    path = []
    for line in output.splitlines():
        m = re.match(r"^([│ ]*)[├╰]─ (\S+)(.*)$", line)
        if not m:
            continue
        depth = len(m.group(1)) // 3
        path = path[:depth] + [m.group(2)]
        cells = m.group(3).split("│")
        if len(cells) < 3:
            continue
        fastest, median = VALUE.search(cells[0]), VALUE.search(cells[2])
        if not (fastest and median):
            continue
        value = lambda v: float(v.group(1)) * UNITS[v.group(2)]
        yield "/".join(path), value(median), value(fastest)


def run(binary, filt):
    out = subprocess.run(
        [binary, "--bench", filt], capture_output=True, text=True, check=True
    ).stdout
    return list(rows(out))


def show(us):
    return f"{us / 1000:.2f} ms" if us >= 1000 else f"{us:.1f} µs"


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    binary, rounds, filters = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    # per round: {row: (median, fastest)}, and the reference readings
    results, references = [], []
    for r in range(rounds):
        before = dict((p, (m, f)) for p, m, f in run(binary, "machine_reference"))
        found = {}
        for filt in filters:
            for p, m, f in run(binary, filt):
                if not p.startswith("machine_reference"):
                    found[p] = (m, f)
        after = dict((p, (m, f)) for p, m, f in run(binary, "machine_reference"))
        refs = {p: (before[p], after[p]) for p in before if p in after}
        results.append(found)
        references.append(refs)
        two = [v[0] for v in refs.get("machine_reference/2", ())]
        print(
            f"round {r + 1}: reference two threads "
            + ", ".join(show(x) for x in two),
            file=sys.stderr,
        )
    key = "machine_reference/2"
    best = min(min(b[0], a[0]) for refs in references for b, a in [refs[key]])
    quiet = [
        i
        for i, refs in enumerate(references)
        if max(refs[key][0][0], refs[key][1][0]) <= best * QUIET
    ]
    print(f"{rounds} rounds; quiet rounds (reference within 15% of {show(best)}): "
          f"{[i + 1 for i in quiet]}")
    table = defaultdict(list)
    for i, refs in enumerate(references):
        for p, (b, a) in refs.items():
            table[p].append((i, b[0], min(b[1], a[1])))
            table[p].append((i, a[0], min(b[1], a[1])))
    for i, found in enumerate(results):
        for p, (m, f) in found.items():
            table[p].append((i, m, f))
    print("| row | all rounds: median [fastest] | quiet rounds: median [fastest] |")
    print("|---|---|---|")
    for p, vals in table.items():
        cells = []
        for pick in (range(rounds), quiet):
            got = [(m, f) for i, m, f in vals if i in pick]
            if got:
                med = statistics.median(m for m, _ in got)
                cells.append(f"{show(med)} [{show(min(f for _, f in got))}]")
            else:
                cells.append("-")
        print(f"| {p} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
