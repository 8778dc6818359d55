#!/usr/bin/env python3
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
"""Where a traced run's time goes, from a driver's --trace picture (SVG):
per worker kind and codelet the tasks and their time, and for each GPU the
time before its first task (the matrix's upload), the time it ran tasks, its
idle gaps between them, and when its last task ended (the call ends after
that with the results' return; the driver's result line gives the best of
--repeat, the picture its last run).

    python3 bench/trace_summary.py trace.svg
"""
import argparse
import collections
import re

TASK = re.compile(r'<rect x="[\d.]+" y="(\d+)"[^>]*><title>(\S+) ([\d.]+) ms at ([\d.]+) s')
WORKER = re.compile(r'<text x="10" y="(\d+)">(?:<title>[^<]*</title>)?([^<]+)</text>')


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("svg")
    args = ap.parse_args()
    text = open(args.svg).read()
    rows = {int(y) - 12: name for y, name in WORKER.findall(text)}  # a row's text sits 12 px down
    tasks = collections.defaultdict(list)  # worker -> [(start, end, codelet)]
    for y, codelet, ms, start in TASK.findall(text):
        begin = float(start)
        tasks[rows[int(y)]].append((begin, begin + float(ms) * 1e-3, codelet))
    if not tasks:
        raise SystemExit(f"{args.svg}: no tasks in it")
    per_kind = collections.defaultdict(lambda: [0, 0.0])
    for worker, runs in tasks.items():
        kind = "CPU" if worker.startswith("CPU") else worker
        for begin, end, codelet in runs:
            per_kind[(kind, codelet)][0] += 1
            per_kind[(kind, codelet)][1] += end - begin
    print(f"{'worker':<24} {'codelet':<24} {'tasks':>7} {'busy s':>9}")
    for (kind, codelet), (count, busy) in sorted(per_kind.items()):
        print(f"{kind[:24]:<24} {codelet:<24} {count:>7} {busy:>9.4f}")
    for worker, runs in sorted(tasks.items()):
        if worker.startswith("CPU"):
            continue
        # Tasks of one GPU may overlap (asynchronous): busy is their union,
        # a gap the time from the latest end so far to the next start.
        runs.sort()
        busy, gaps, reached = 0.0, [], runs[0][0]
        for begin, end, _ in runs:
            if begin > reached:
                gaps.append(begin - reached)
            busy += max(0.0, end - max(begin, reached))
            reached = max(reached, end)
        gaps.sort()
        print(f"{worker}: before its first task {runs[0][0]:.4f} s, busy {busy:.4f} s, "
              f"idle between tasks {sum(gaps):.4f} s, last task ends at {reached:.4f} s")
        if gaps:
            print(f"  {len(gaps)} gaps: median {gaps[len(gaps) // 2] * 1e6:.0f} us, "
                  f"90% {gaps[len(gaps) * 9 // 10] * 1e6:.0f} us, longest {gaps[-1] * 1e6:.0f} us")


if __name__ == "__main__":
    main()
