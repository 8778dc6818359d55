#!/usr/bin/env python3
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
"""SciPy through the drop-in LAPACK against SciPy alone and hyla's drivers.

For each size and operation, in one run on one machine: the LAPACK call as
SciPy makes it (scipy.linalg.lapack, Fortran-ordered input, overwrite_a, no
finiteness check) with the system LAPACK, the same call with libhyla_lapack
preloaded (hyla started by a warm-up call of the same size), and the driver
that does the same work (hr_reduce, qr_householder, eigh). Each process runs
one operation; times are the best and median of --repeat calls, each on a
fresh copy of the matrix (the copy not timed).

  python3 bench/scipy_dropin.py --bin build [--sizes 4000,8000] [--repeat 3]

Operations: hessenberg (dgehrd), qr (dgeqrf + dorgqr: mode="economic"),
eigh (dsyevd, the values alone)."""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

DRIVERS = {"hessenberg": "hr_reduce", "qr": "qr_householder", "eigh": "eigh"}
ROUTINES = {"hessenberg": ["dgehrd"], "qr": ["dgeqrf", "dorgqr"], "eigh": ["dsyevd"]}


def lapack_call(op, n):
    """The timed call on a fresh matrix, and the matrix's maker."""
    import numpy as np
    from scipy.linalg import lapack

    rng = np.random.default_rng(7)
    base = rng.standard_normal((n, n))
    if op == "eigh":
        base = base + base.T
    base = np.asfortranarray(base)
    if op == "hessenberg":
        lwork = int(lapack.dgehrd_lwork(n, lo=0, hi=n - 1)[0])

        def call(a):
            info = lapack.dgehrd(a, lo=0, hi=n - 1, lwork=lwork, overwrite_a=1)[-1]
            return info
    elif op == "qr":
        lwork = int(lapack.dgeqrf_lwork(n, n)[0])
        qwork = 64 * n  # dorgqr's blocked size (SciPy asks with lwork = -1)

        def call(a):
            qr, tau, _, info = lapack.dgeqrf(a, lwork=lwork, overwrite_a=1)
            return info or lapack.dorgqr(qr, tau, lwork=qwork, overwrite_a=1)[-1]
    else:
        lwork, liwork = (int(x) for x in lapack.dsyevd_lwork(n, compute_v=0)[:2])

        def call(a):
            return lapack.dsyevd(a, compute_v=0, lower=1, lwork=lwork, liwork=liwork,
                                 overwrite_a=1)[-1]
    return call, lambda: base.copy(order="F")


def worker(op, n, repeat):
    """In its own process: a warm-up call, then repeat timed calls."""
    call, fresh = lapack_call(op, n)
    if call(fresh()):
        sys.exit(f"{op} {n}: LAPACK's info != 0")
    times = []
    for _ in range(repeat):
        a = fresh()
        t = time.perf_counter()
        info = call(a)
        times.append(time.perf_counter() - t)
        if info:
            sys.exit(f"{op} {n}: LAPACK's info != 0")
    print(f"times {' '.join(f'{x:.4f}' for x in times)}")


def measure(cmd, env):
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"{' '.join(cmd)} failed: {out.stderr.strip()[-500:]}")
    return out.stdout + out.stderr


def scipy_times(op, n, repeat, preload):
    env = dict(os.environ)
    if preload:
        env["LD_PRELOAD"] = preload
        env["HYLA_LAPACK_VERBOSE"] = "1"
    text = measure([sys.executable, __file__, "--worker", op, str(n), str(repeat)], env)
    found = re.search(r"^times (.*)$", text, re.M)
    if not found:
        sys.exit(f"{op} {n}: the worker printed no times: {text.strip()[-300:]}")
    times = [float(x) for x in found.group(1).split()]
    # The drop-in's report at exit: every timed routine's calls went to hyla.
    taken = {name.rstrip("_"): count
             for name, count in re.findall(r"hyla_lapack: (\w+) (\d+) to hyla", text)}
    for routine in ROUTINES[op] if preload else []:
        if int(taken.get(routine, 0)) < repeat + 1:
            sys.exit(f"{op} {n}: {routine}'s calls did not all reach hyla through the drop-in")
    return min(times), statistics.median(times)


def driver_times(binary, op, n, repeat):
    text = measure([os.path.join(binary, DRIVERS[op]), str(n), "--repeat", str(repeat),
                    "--no-check"], dict(os.environ))
    best = float(re.search(r"time=([0-9.]+)", text).group(1))
    median = re.search(r"median=([0-9.]+)", text)
    return best, float(median.group(1)) if median else best


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", default="build", help="hyla's build folder")
    p.add_argument("--sizes", default="4000,8000")
    p.add_argument("--ops", default="hessenberg,qr,eigh")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--no-plain", action="store_true", help="leave SciPy alone out (slow)")
    p.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        worker(args.worker[0], int(args.worker[1]), int(args.worker[2]))
        return
    ops = args.ops.split(",")
    if set(ops) - set(DRIVERS):
        sys.exit(f"--ops {args.ops}: each of {', '.join(DRIVERS)}")
    preload = os.path.abspath(os.path.join(args.bin, "lapack", "libhyla_lapack.so"))
    if not os.path.exists(preload):
        sys.exit(f"{preload}: no drop-in library there (build hyla first)")
    print("| operation | n | SciPy | SciPy + drop-in | driver | SciPy / drop-in | drop-in / driver |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for n in (int(x) for x in args.sizes.split(",")):
        for op in ops:
            plain = None if args.no_plain else scipy_times(op, n, args.repeat, None)
            dropin = scipy_times(op, n, args.repeat, preload)
            driver = driver_times(args.bin, op, n, args.repeat)
            cell = lambda t: f"{t[0]:.3f} s ({t[1]:.3f})" if t else "—"
            gain = f"{plain[0] / dropin[0]:.2f}×" if plain else "—"
            print(f"| {op} | {n} | {cell(plain)} | {cell(dropin)} | {cell(driver)} | {gain} | "
                  f"{dropin[0] / driver[0]:.2f}× |", flush=True)


if __name__ == "__main__":
    main()
