#!/usr/bin/env python3
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
"""The accuracy study of the Gram-Schmidt QRs: ||I - Q^T Q|| and ||A - QR||/||A||
against cond(A) from 1e1 to 1e14 (LAPACK dlatms matrices) for hyla's MGS, CGS, CGS2 and
Householder QR, from build/gs_accuracy. Writes accuracy.csv, accuracy.md and, with
matplotlib, accuracy.png into --out.

    python3 bench/accuracy.py [--bin build] [--m 1000] [--n 500] [--out bench/results]
"""
import argparse
import csv
import datetime
import io
import os
import platform
import subprocess

EPS = 2.0 ** -53


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--bin', default='build')
    ap.add_argument('--m', type=int, default=1000)
    ap.add_argument('--n', type=int, default=500)
    ap.add_argument('--out', default='bench/results')
    args = ap.parse_args()
    text = subprocess.run([os.path.join(args.bin, 'gs_accuracy'), str(args.m), str(args.n)],
                          check=True, capture_output=True, text=True).stdout
    rows = list(csv.DictReader(io.StringIO(text)))
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, 'accuracy.csv'), 'w') as f:
        f.write(text)
    algs = list(dict.fromkeys(r['algorithm'] for r in rows))
    conds = list(dict.fromkeys(r['cond'] for r in rows))
    value = {(r['algorithm'], r['cond']): r for r in rows}
    stamp = '%s, %s, m = %d, n = %d, double' % (datetime.date.today(), platform.node(), args.m, args.n)
    lines = ['||I - Q^T Q||_F against cond(A), and the largest ||A - QR||_F / ||A||_F (last row); %s.' % stamp, '',
             '| cond(A) | ' + ' | '.join(algs) + ' |', '| --- ' * (len(algs) + 1) + '|']
    for c in conds:
        lines.append('| %s | ' % c + ' | '.join('%.1e' % float(value[a, c]['orth']) for a in algs) + ' |')
    lines.append('| ‖A − QR‖/‖A‖ (max) | ' + ' | '.join(
        '%.1e' % max(float(value[a, c]['resid']) for c in conds) for a in algs) + ' |')
    with open(os.path.join(args.out, 'accuracy.md'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    print('\n'.join(lines))
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        print('(no matplotlib: accuracy.png not written)')
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    x = [float(c) for c in conds]
    for a, marker in zip(algs, 'osD^'):
        ax.loglog(x, [float(value[a, c]['orth']) for c in conds], marker=marker, label=a)
    ax.loglog(x, [k * EPS for k in x], 'k:', linewidth=0.8, label='cond · eps')
    ax.loglog(x, [min(k * k * EPS, 1e2) for k in x], 'k--', linewidth=0.8, label='cond² · eps')
    ax.set_xlabel('cond(A)')
    ax.set_ylabel('||I − QᵀQ||_F')
    ax.set_title('Loss of orthogonality, m = %d, n = %d (double)' % (args.m, args.n))
    ax.grid(True, which='major', alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, 'accuracy.png'), dpi=110)


if __name__ == '__main__':
    main()
