#!/usr/bin/env python3
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
"""hyla's benchmark suite: every driver over sizes and precisions, LAPACK on
the host cores in the same run, one table.

    python3 bench/suite.py [--bin build] [--sizes 2000,4000,8000] [--precs d,s]
                           [--repeat 3] [--out bench/results] [--env KEY=VALUE ...]
                           [--cusolver]

Runs each driver with --json --lapack (its peer: LAPACK's dgeqrf+dorgqr for
the QR drivers, dgehrd for hr_reduce, on all host cores; with --cusolver,
on a GPU, also cuSOLVER's dgeqrf+dorgqr for the QR drivers, dsytrd and dgebrd for
the reductions), keeps the fastest of
--repeat runs, and writes DATE-HOST.md (a markdown table with the machine
line) and DATE-HOST.csv under --out; with matplotlib also DATE-HOST.png
(time against n, one line per implementation). Models should be calibrated
first (perfmodels/README.md): the suite times, it does not calibrate.
"""
import argparse
import csv
import datetime
import json
import os
import socket
import subprocess
import sys

DRIVERS = {  # driver: (its arguments for size n, the peer's key in its JSON, cuSOLVER's key)
    'qr_mgs': (lambda n: [str(n)], 'lapack_geqrf_orgqr', 'cusolver_geqrf_orgqr'),
    'qr_cgs': (lambda n: [str(n)], 'lapack_geqrf_orgqr', 'cusolver_geqrf_orgqr'),
    'qr_householder': (lambda n: [str(n)], 'lapack_geqrf_orgqr', 'cusolver_geqrf_orgqr'),
    'hr_reduce': (lambda n: [str(n)], 'lapack_gehrd', None),
    'tridiag_reduce': (lambda n: [str(n)], 'lapack_sytrd', 'cusolver_sytrd'),
    'bidiag_reduce': (lambda n: [str(n)], 'lapack_gebrd', 'cusolver_gebrd'),
}


def run(binary, args, env):
    out = subprocess.run([binary] + args + ['--json', '--quiet'], capture_output=True, text=True,
                         env=env, check=False)
    if out.returncode != 0:
        raise RuntimeError('%s %s: exit %d: %s' % (binary, ' '.join(args), out.returncode,
                                                   out.stderr.strip().splitlines()[-1:]))
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--bin', default='build')
    ap.add_argument('--sizes', default='2000,4000,8000')
    ap.add_argument('--precs', default='d,s')
    ap.add_argument('--drivers', default=','.join(DRIVERS))
    ap.add_argument('--repeat', type=int, default=3)
    ap.add_argument('--out', default='bench/results')
    ap.add_argument('--env', nargs='*', default=[], help='KEY=VALUE for every run')
    ap.add_argument('--cusolver', action='store_true', help="also time cuSOLVER's peers (GPU)")
    o = ap.parse_args()
    env = dict(os.environ, STARPU_SILENT='1')
    env.setdefault('STARPU_SCHED', 'dmda')
    env.update(kv.split('=', 1) for kv in o.env)
    rows, machine = [], ''
    for driver in o.drivers.split(','):
        args_of, peer, gpu_peer = DRIVERS[driver]
        gpu = ['--cusolver'] if o.cusolver and gpu_peer else []
        for prec in o.precs.split(','):
            for n in (int(x) for x in o.sizes.split(',')):
                r = run(os.path.join(o.bin, driver),
                        args_of(n) + ['--prec', prec, '--repeat', str(o.repeat), '--lapack'] + gpu, env)
                machine = r['machine']
                rows.append({'driver': driver, 'prec': prec, 'n': n, 'time_s': r['time'],
                             'gflops': r['gflops'], 'peer': peer, 'peer_time_s': r.get(peer),
                             'speedup': r.get('speedup'), 'cusolver_s': r.get(gpu_peer) if gpu_peer else None,
                             'check': r.get('check', '')})
                print('%-10s %s n=%-6d %8.4f s  %s %8.4f s  %6.2fx  %s' % (
                    driver, prec, n, r['time'], peer, r.get(peer, float('nan')),
                    r.get('speedup', float('nan')), r.get('check', '')), flush=True)
    stamp = '%s-%s' % (datetime.date.today().isoformat(), socket.gethostname())
    os.makedirs(o.out, exist_ok=True)
    base = os.path.join(o.out, stamp)
    with open(base + '.csv', 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]) + ['machine', 'date'])
        w.writeheader()
        for row in rows:
            w.writerow(dict(row, machine=machine, date=datetime.date.today().isoformat()))
    with open(base + '.md', 'w') as f:
        f.write('# Benchmark suite, %s\n\n`%s`  \nEnvironment: %s; best of %d; command: '
                '`python3 bench/suite.py %s`\n\n' % (datetime.date.today().isoformat(), machine,
                                                      ' '.join(o.env) or 'default', o.repeat,
                                                      ' '.join(sys.argv[1:])))
        f.write('| driver | prec | n | hyla (s) | GFLOP/s | peer | peer (s) | speed-up | '
                'cuSOLVER (s) | vs cuSOLVER | check |\n')
        f.write('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n')
        for r in rows:
            cus = r['cusolver_s']
            f.write('| %s | %s | %d | %.4f | %.1f | %s | %.4f | %.2f× | %s | %s | %s |\n' % (
                r['driver'], r['prec'], r['n'], r['time_s'], r['gflops'], r['peer'],
                r['peer_time_s'], r['speedup'], '%.4f' % cus if cus else '',
                '%.2f×' % (cus / r['time_s']) if cus else '', r['check']))
    print('wrote %s.md and %s.csv' % (base, base))
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        print('matplotlib not found: no plot (apt-get install python3-matplotlib)')
        return
    # A colour per driver, a marker per precision, a line style per
    # implementation (hyla solid, the host's peer dashed, cuSOLVER dotted):
    # every series its own look.
    fig, ax = plt.subplots(figsize=(11, 5))
    colours = plt.get_cmap('tab10').colors
    markers = {'d': 'o', 's': '^'}
    for i, driver in enumerate(o.drivers.split(',')):
        for prec in o.precs.split(','):
            sel = [r for r in rows if r['driver'] == driver and r['prec'] == prec]
            ns = [r['n'] for r in sel]
            look = dict(color=colours[i % len(colours)], marker=markers.get(prec, 's'))
            ax.plot(ns, [r['time_s'] for r in sel], '-', label='%s %s (hyla)' % (driver, prec),
                    **look)
            ax.plot(ns, [r['peer_time_s'] for r in sel], '--', label='%s %s (%s)' % (
                driver, prec, sel[0]['peer'] if sel else ''), mfc='none', **look)
            if sel and sel[0]['cusolver_s']:
                ax.plot(ns, [r['cusolver_s'] for r in sel], ':', label='%s %s (cuSOLVER)' % (
                    driver, prec), mfc='none', **look)
    ax.set_xlabel('n')
    ax.set_ylabel('time (s)')
    ax.set_yscale('log')
    ax.set_title(machine, fontsize=7)
    ax.legend(fontsize=7, loc='center left', bbox_to_anchor=(1.01, 0.5))  # beside the data
    fig.savefig(base + '.png', dpi=120, bbox_inches='tight')
    print('wrote %s.png' % base)


if __name__ == '__main__':
    main()
