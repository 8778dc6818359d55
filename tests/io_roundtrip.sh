#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# Round trips through files: NumPy writes matrices (.npy in C and Fortran
# order, float64 and float32, and Matrix Market), the drivers read them with
# --input and write their results with --output, NumPy checks the defining
# identities on what they wrote.  Usage: io_roundtrip.sh BINDIR
set -eu
bin=$1
py=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import numpy' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "FAILED: NumPy not found (scripts/install-deps.sh installs python3-numpy)"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$py" - "$dir" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
rng = np.random.default_rng(3)
a = rng.uniform(-1, 1, (150, 150))
np.save(d + '/a.npy', a)
np.save(d + '/af.npy', np.asfortranarray(a.astype(np.float32)))
np.save(d + '/t.npy', rng.uniform(-1, 1, (200, 120)))
s = rng.uniform(-1, 1, (160, 160))
np.save(d + '/sym.npy', s + s.T)
np.save(d + '/huge.npy', 1e300 * rng.uniform(-1, 1, (60, 60)))  # scaled by 2^-997 for the run
np.save(d + '/hugesym.npy', 1e300 * (s[:60, :60] + s[:60, :60].T))
with open(d + '/a.mtx', 'w') as f:
    f.write('%%MatrixMarket matrix array real general\n% written by io_roundtrip.sh\n150 150\n')
    f.write('\n'.join('%.17g' % x for x in a.flatten(order='F')) + '\n')
PY

"$bin/hr_reduce" --input "$dir/a.npy" --output "$dir/h.npy" --want-q --nb 32
"$bin/hr_reduce" --input "$dir/a.mtx" --output "$dir/hm.mtx" --nb 32
"$bin/hr_reduce" --input "$dir/af.npy" --prec s --output "$dir/hs.npy" --want-q --nb 32
"$bin/qr_mgs" --input "$dir/t.npy" --output "$dir/q.npy" --nb 32
"$bin/qr_cgs" --input "$dir/t.npy" --output "$dir/c.npy" --nb 32
"$bin/qr_cgs" --input "$dir/t.npy" --output "$dir/u.npy" --variant vector --umu --nb 32
"$bin/tridiag_reduce" --input "$dir/sym.npy" --output "$dir/tri.npy"
"$bin/hr_reduce" --input "$dir/huge.npy" --output "$dir/hh.npy" --want-q --nb 16
"$bin/qr_householder" --input "$dir/huge.npy" --output "$dir/hq.npy" --nb 16
"$bin/tridiag_reduce" --input "$dir/hugesym.npy" --output "$dir/htri.npy" --nb 16
"$bin/bidiag_reduce" --input "$dir/huge.npy" --output "$dir/hbi.npy" --nb 16
"$bin/hr_reduce" 200 --json --stats --trace "$dir/hr.svg" > "$dir/hr.json"
"$bin/qr_mgs" 300 100 --json --lapack > "$dir/qr.json"

"$py" - "$dir" <<'PY'
import sys
import numpy as np
d = sys.argv[1]
ok = True
def check(what, value, bound):
    global ok
    good = value <= bound
    ok = ok and good
    print('%-40s %.2e (bound %.1e) %s' % (what, value, bound, 'ok' if good else 'FAILED'))
def hessenberg(a, h, q, eps):
    n = a.shape[0]
    h = np.triu(h, -1)
    check('||A - Q H Q^T|| / (n ||A||)', np.linalg.norm(a - q @ h @ q.T) / (n * np.linalg.norm(a)), 30 * eps)
    check('||I - Q^T Q|| / n', np.linalg.norm(np.eye(n) - q.T @ q) / n, 30 * eps)
a = np.load(d + '/a.npy')
h, q, tau = np.load(d + '/h.npy'), np.load(d + '/h.q.npy'), np.load(d + '/h.tau.npy')
check('tau has n-1 entries', abs(tau.shape[0] - 149), 0)
hessenberg(a, h, q, 2.0 ** -53)
mm = np.loadtxt(d + '/hm.mtx', comments='%', skiprows=2).reshape(150, 150, order='F')
check('Matrix Market output = .npy output', np.abs(mm - h).max(), 1e-12)
af = np.load(d + '/af.npy').astype(np.float64)
hessenberg(af, np.load(d + '/hs.npy'), np.load(d + '/hs.q.npy'), 2.0 ** -24)
t, qt, r = np.load(d + '/t.npy'), np.load(d + '/q.npy'), np.load(d + '/q.r.npy')
check('||A - Q R|| / ||A|| (qr_mgs)', np.linalg.norm(t - qt @ r) / np.linalg.norm(t), 1e-13)
check('||I - Q^T Q|| (qr_mgs)', np.linalg.norm(np.eye(120) - qt.T @ qt), 1e-12)
qc, rc = np.load(d + '/c.npy'), np.load(d + '/c.r.npy')
check('||A - Q R|| / ||A|| (qr_cgs)', np.linalg.norm(t - qc @ rc) / np.linalg.norm(t), 1e-13)
check('||I - Q^T Q|| (qr_cgs)', np.linalg.norm(np.eye(120) - qc.T @ qc), 1e-13)
u, mu = np.load(d + '/u.npy'), np.load(d + '/u.mu.npy')
check('||A - U mu|| / ||A|| (qr_cgs --umu)', np.linalg.norm(t - u @ mu) / np.linalg.norm(t), 1e-13)
check('mu unit upper triangular', np.abs(mu - np.triu(mu)).max() + np.abs(np.diag(mu) - 1).max(), 0)
g = u.T @ u
check('U orthogonal columns', np.abs(g - np.diag(np.diag(g))).max() / np.diag(g).max(), 1e-10)
sym, dd, ee = np.load(d + '/sym.npy'), np.load(d + '/tri.d.npy'), np.load(d + '/tri.e.npy')
tri = np.diag(dd.ravel()) + np.diag(ee.ravel(), 1) + np.diag(ee.ravel(), -1)
check('eig(T from d, e) = eig(A) (tridiag_reduce)',
      np.abs(np.linalg.eigvalsh(tri) - np.linalg.eigvalsh(sym)).max() / np.abs(np.linalg.eigvalsh(sym)).max(), 1e-13)
# Inputs scaled for the run: the outputs are A's (compared at 1e-300 scale,
# where NumPy's norms do not overflow).
big = np.load(d + '/huge.npy') * 1e-300
hessenberg(big, np.load(d + '/hh.npy') * 1e-300, np.load(d + '/hh.q.npy'), 2.0 ** -53)
qh, rh = np.load(d + '/hq.npy'), np.load(d + '/hq.r.npy') * 1e-300
check('||A - Q R|| / ||A|| (qr_householder, scaled input)', np.linalg.norm(big - qh @ rh) / np.linalg.norm(big), 1e-13)
hs, td, te = (np.load(d + '/hugesym.npy') * 1e-300, np.load(d + '/htri.d.npy') * 1e-300,
              np.load(d + '/htri.e.npy') * 1e-300)
tri = np.diag(td.ravel()) + np.diag(te.ravel(), 1) + np.diag(te.ravel(), -1)
check('eig(T) = eig(A) (tridiag_reduce, scaled input)',
      np.abs(np.linalg.eigvalsh(tri) - np.linalg.eigvalsh(hs)).max() / np.abs(np.linalg.eigvalsh(hs)).max(), 1e-13)
bd, be = np.load(d + '/hbi.d.npy').ravel() * 1e-300, np.load(d + '/hbi.e.npy').ravel() * 1e-300
bb = np.diag(bd) + np.diag(be, 1)
check('sv(B) = sv(A) (bidiag_reduce, scaled input)',
      np.abs(np.linalg.svd(bb, compute_uv=False) - np.linalg.svd(big, compute_uv=False)).max()
      / np.linalg.svd(big, compute_uv=False).max(), 1e-13)
check('B on the diagonals of a (bidiag_reduce)', np.abs(np.diag(np.load(d + '/hbi.npy')) * 1e-300 - bd).max(), 0)
import json
for name, keys in (('hr', ('driver', 'machine', 'n', 'time', 'gflops', 'resid', 'orth', 'check')),
                   ('qr', ('driver', 'machine', 'm', 'n', 'time', 'orth', 'check', 'speedup'))):
    with open(d + '/' + name + '.json') as f:
        result = json.load(f)   # the whole stdout must be one JSON object
    check('--json (%s): keys missing' % name, len([k for k in keys if k not in result]), 0)
    check('--json (%s): check passed' % name, 0 if result['check'] == 'pass' else 1, 0)
import xml.etree.ElementTree as ET
bars = [r for r in ET.parse(d + '/hr.svg').getroot().iter('{http://www.w3.org/2000/svg}rect')
        if r.find('{http://www.w3.org/2000/svg}title') is not None]
check('--trace: task bars in the chart (none?)', 0 if len(bars) > 10 else 1, 0)
import re
spans = [tuple(float(x) for x in re.search(r'([\d.]+) ms at ([\d.]+) s', b.find(
    '{http://www.w3.org/2000/svg}title').text).groups()) for b in bars]
spans = [(at, at + ms * 1e-3) for ms, at in spans]
path = sorted(s for b, s in zip(bars, spans) if b.get('stroke') == 'black')
check('--trace: critical-path bars', 0 if len(path) > 1 else 1, 0)
# a chain: each task starts after the one before it ends, the last ends last
check('--trace: critical path overlaps itself', sum(b[0] < a[1] - 2e-4 for a, b in zip(path, path[1:])), 0)
check('--trace: critical path ends with the run', 0 if path and path[-1][1] >= max(e for _, e in spans) - 2e-4 else 1, 0)
sys.exit(0 if ok else 1)
PY
