#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# hyla as a user gets it: `cmake --install` into a temporary prefix, then two
# of the installed examples built from outside the tree, one with pkg-config
# alone (eigen_pipeline) and one with CMake's find_package(hyla) alone
# (sched_contexts), and run with no LD_LIBRARY_PATH. The installed drivers
# answer --version. The drop-in LAPACK, linked and preloaded. Usage:
# install_test.sh BUILD_DIR
set -eu
build=$1
# Programs built outside against a sanitizer build would need its runtime
# first: this test is the plain build's.
if ldd "$build/libhyla.so" | grep -q libasan; then
	echo "install_test: skipped (a sanitizer build)"
	exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
prefix=$dir/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
cd "$dir"
unset LD_LIBRARY_PATH
examples=$prefix/share/hyla/examples

# pkg-config: hyla's flags, and the example's own LAPACKE and OpenBLAS
# (the compiler's output shown only on failure: CUDA 13's headers, which
# StarPU's include, warn of deprecations).
cc -O2 -I"$examples" -o eigen_pipeline "$examples/eigen_pipeline.c" \
	$(PKG_CONFIG_PATH="$(dirname "$(find "$prefix" -name hyla.pc)")" \
		pkg-config --cflags --libs hyla lapacke openblas) \
	-lm 2>cc.log || { cat cc.log; exit 1; }
./eigen_pipeline 200 32

# find_package(hyla): the imported target hyla::hyla.
mkdir app
cat > app/CMakeLists.txt <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(app LANGUAGES C)
find_package(hyla 0.2 REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(LAPACK REQUIRED IMPORTED_TARGET lapacke openblas)
add_executable(sched_contexts $examples/sched_contexts.c)
target_include_directories(sched_contexts PRIVATE $examples)
target_link_libraries(sched_contexts PRIVATE hyla::hyla PkgConfig::LAPACK m)
CMAKE
cmake -S app -B app/build -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build app/build >build.log 2>&1 || { cat build.log; exit 1; }
status=0
app/build/sched_contexts 200 32 || status=$?
[ "$status" = 0 ] || [ "$status" = 77 ] || exit "$status"

# The drop-in LAPACK as README.md shows it, hyla for every size: a program
# linked ahead of LAPACK (RᵀR = AᵀA from its dgeqrf), and Debian's NumPy
# (the system LAPACK) with it preloaded (QR, eigh, SVD, eig: their
# residuals); hyla must have taken the calls.
lib=$(dirname "$(find "$prefix" -name libhyla_lapack.so)")
cat > qr.c <<'C'
#include <lapack.h>
#include <math.h>
#include <stdio.h>
int main(void)
{
	enum { M = 120, N = 90 };
	static double a[M * N], r[M * N], tau[N], work[64 * N];
	int m = M, n = N, lwork = 64 * N, info;
	for (int i = 0; i < M * N; i++)
		a[i] = r[i] = sin(i * 0.37) + (i % 7) * 0.1;
	LAPACK_dgeqrf(&m, &n, r, &m, tau, work, &lwork, &info);
	double worst = 0;
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			double ata = 0, rtr = 0;
			for (int k = 0; k < M; k++)
				ata += a[k + i * M] * a[k + j * M];
			for (int k = 0; k <= i && k <= j; k++)
				rtr += r[k + i * M] * r[k + j * M];
			worst = fmax(worst, fabs(ata - rtr) / (M * 1e-16 * (1 + fabs(ata))));
		}
	printf("dgeqrf: info %d, |RtR - AtA| %.2f m eps\n", info, worst);
	return info != 0 || worst > 100;
}
C
cc -O2 -o qr qr.c -L"$lib" -Wl,-rpath,"$lib" -lhyla_lapack -llapack -lblas -lm
export HYLA_LAPACK_MIN_N=0 HYLA_LAPACK_VERBOSE=1
./qr 2>qr.err || { cat qr.err; echo "FAILED: a program linked ahead of LAPACK"; exit 1; }
grep -q "dgeqrf_ 1 to hyla" qr.err || { cat qr.err; echo "FAILED: hyla took no dgeqrf_"; exit 1; }
LD_PRELOAD=$lib/libhyla_lapack.so /usr/bin/python3 - 2>py.err <<'PY' ||
import numpy as np
rng = np.random.default_rng(1)
a = rng.standard_normal((200, 150))
s = a[:150] + a[:150].T
q, r = np.linalg.qr(a)
w, v = np.linalg.eigh(s)
u, sv, vt = np.linalg.svd(a, full_matrices=False)
e, x = np.linalg.eig(a[:150])
for name, resid in (("qr", q @ r - a), ("eigh", s @ v - v * w), ("svd", (u * sv) @ vt - a),
                    ("eig", a[:150] @ x - x * e)):
    print("numpy", name, np.linalg.norm(resid) / np.linalg.norm(a))
    assert np.linalg.norm(resid) < 1e-12 * np.linalg.norm(a), name
PY
	{ cat py.err; echo "FAILED: NumPy with the drop-in preloaded"; exit 1; }
for routine in dgeqrf dorgqr dsyevd dgesdd dgehrd dorghr; do
	grep -q "^hyla_lapack: ${routine}_ [1-9][0-9]* to hyla" py.err ||
		{ cat py.err; echo "FAILED: hyla took no ${routine}_ of NumPy's"; exit 1; }
done
unset HYLA_LAPACK_MIN_N HYLA_LAPACK_VERBOSE

for driver in hr_reduce qr_householder; do
	"$prefix/bin/$driver" --version | grep -q "^$driver (hyla) [0-9]" ||
		{ echo "FAILED: $driver --version"; exit 1; }
done
echo "install_test: installed, two examples and the drop-in LAPACK used from outside the tree: pass"
