#!/usr/bin/env python3
"""Where a traced run's time goes, from a driver's --trace picture (SVG):
per worker kind and codelet the tasks and their time, and for each GPU the
time before its first task, its idle gaps between tasks, and the time after
its last one until the call's end (give the result line's time with --total).

    python3 bench/trace_summary.py trace.svg [--total SECONDS]
"""
import argparse
import collections
import re

TASK = re.compile(r'<rect x="[\d.]+" y="(\d+)"[^>]*><title>(\S+) ([\d.]+) ms at ([\d.]+) s')
WORKER = re.compile(r'<text x="10" y="(\d+)">([^<]+)</text>')


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("svg")
    ap.add_argument("--total", type=float, help="the call's time (s), from its result line")
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
    end_all = max(end for runs in tasks.values() for _, end, _ in runs)
    total = args.total if args.total else end_all
    for worker, runs in sorted(tasks.items()):
        if worker.startswith("CPU"):
            continue
        runs.sort()
        gaps = sorted(max(0.0, b - a) for (_, a, _), (b, _, _) in zip(runs, runs[1:]))
        busy = sum(end - begin for begin, end, _ in runs)
        print(f"{worker}: before its first task {runs[0][0]:.4f} s, busy {busy:.4f} s, "
              f"idle between tasks {sum(gaps):.4f} s, after its last task {total - runs[-1][1]:.4f} s "
              f"(of {total:.4f} s)")
        if gaps:
            print(f"  {len(gaps)} gaps: median {gaps[len(gaps) // 2] * 1e6:.0f} us, "
                  f"90% {gaps[len(gaps) * 9 // 10] * 1e6:.0f} us, longest {gaps[-1] * 1e6:.0f} us")


if __name__ == "__main__":
    main()
