#!/usr/bin/env python3
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
"""hyla on 1, 2, ... GPUs of one host: a scaling table.

    python3 bench/scaling.py run --bin build --gpus 1,2,4 [--sizes 16000,32000]
                             [--drivers hr_reduce,...] [--repeat 2] [--part K/N]
                             [--results FILE]
    python3 bench/scaling.py table [--results FILE]

`run` times each driver at each size on the first g GPUs (CUDA_VISIBLE_DEVICES)
for each g of --gpus, dmda, after one untimed run of the same command (which
also calibrates the models: point STARPU_PERF_MODEL_DIR at a folder that is
kept, and carry it back out, to reuse them). Each result is appended to
--results as one JSON line as soon as it is measured, so the work can be
split over several calls (--part K/N: the K-th of N equal shares of the
driver-size cases, K from 1) and a call cut short keeps what it finished.
`table` prints, per driver and size, the best time on each number of GPUs,
the speed-up over one GPU and the efficiency (speed-up / GPUs)."""
import argparse
import json
import os
import re
import subprocess
import sys

DRIVERS = ("hr_reduce", "tridiag_reduce", "bidiag_reduce", "qr_householder", "qr_cgs")


def timed(binary, n, gpus, repeat, env):
    env = dict(env, CUDA_VISIBLE_DEVICES=",".join(str(g) for g in range(gpus)), STARPU_SILENT="1")
    env.setdefault("STARPU_SCHED", "dmda")
    cmd = [binary, str(n), "--no-check", "--json", "--quiet"]
    for args in ([], ["--repeat", str(repeat)]):  # the untimed run first
        out = subprocess.run(cmd + args, capture_output=True, text=True, env=env, check=False)
        if out.returncode:
            sys.exit(f"{' '.join(cmd + args)} on {gpus} GPU(s): exit {out.returncode}: "
                     f"{out.stderr.strip()[-300:]}")
    r = json.loads(out.stdout)
    workers = re.search(r"(\d+) CUDA workers", r["machine"])
    if not workers or int(workers.group(1)) < gpus:  # CUDA skips devices it does not have
        sys.exit(f"{binary} asked for {gpus} GPU(s): {r['machine']}")
    return r


def run(o):
    cases = [(d, n) for d in o.drivers.split(",") for n in map(int, o.sizes.split(","))]
    k, parts = map(int, o.part.split("/"))
    if not 1 <= k <= parts:
        sys.exit(f"--part {o.part}: want K/N with 1 <= K <= N")
    if set(o.drivers.split(",")) - set(DRIVERS):
        sys.exit(f"--drivers {o.drivers}: each of {', '.join(DRIVERS)}")
    for driver, n in cases[(k - 1) * len(cases) // parts:k * len(cases) // parts]:
        for gpus in map(int, o.gpus.split(",")):
            r = timed(os.path.join(o.bin, driver), n, gpus, o.repeat, os.environ)
            line = {"driver": driver, "n": n, "gpus": gpus, "time": r["time"],
                    "machine": r["machine"]}
            with open(o.results, "a") as f:
                f.write(json.dumps(line) + "\n")
            print(f"{driver} {n} on {gpus} GPU(s): {r['time']:.3f} s", flush=True)


def table(o):
    best, machines = {}, set()
    with open(o.results) as f:
        for line in f:
            r = json.loads(line)
            key = (r["driver"], r["n"], r["gpus"])
            best[key] = min(best.get(key, r["time"]), r["time"])
            machines.add(r["machine"])
    for m in sorted(machines):
        print(f"{m}  ")
    print()
    print("| driver | n | GPUs | time (s) | speed-up over 1 GPU | efficiency |")
    print("| --- | --- | --- | --- | --- | --- |")
    for driver, n, gpus in sorted(best):
        t, one = best[(driver, n, gpus)], best.get((driver, n, 1))
        gain = f"{one / t:.2f}×" if one else "—"
        eff = f"{one / t / gpus:.0%}" if one and gpus else "—"
        print(f"| {driver} | {n} | {gpus} | {t:.3f} | {gain} | {eff} |")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run")
    r.add_argument("--bin", default="build")
    r.add_argument("--gpus", default="1,2")
    r.add_argument("--sizes", default="16000,32000")
    r.add_argument("--drivers", default=",".join(DRIVERS))
    r.add_argument("--repeat", type=int, default=2)
    r.add_argument("--part", default="1/1")
    r.add_argument("--results", default="scaling.jsonl")
    t = sub.add_parser("table")
    t.add_argument("--results", default="scaling.jsonl")
    o = p.parse_args()
    run(o) if o.what == "run" else table(o)


if __name__ == "__main__":
    main()
