#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# The drivers' checks pass correct results and fail wrong ones, at the edges:
# tiny sizes (rounding's constants), a zero matrix (residual 0, not NaN),
# inputs scaled by 1e200 and 1e-170 (norms with scaling), a block of
# subnormal entries, and a matrix with a repeated column (the Gram-Schmidt
# drivers report the dependent column).
# Usage: driver_checks.sh BUILD_DIR
bin=$1
fails=0
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

fail() {
	echo "FAILED: $*"
	fails=$((fails + 1))
}

# expect_pass_run DRIVER ARGS...: exit 0, check=pass, no NaN anywhere.
expect_pass_run() {
	drv=$1
	shift
	out=$("$bin/$drv" "$@" 2>&1)
	case $out in
	*nan* | *FAILED*) fail "$drv $*: $(printf '%s' "$out" | tail -2)" ;;
	*check=pass*) echo "ok: $drv $*" ;;
	*) fail "$drv $*: $(printf '%s' "$out" | tail -2)" ;;
	esac
}

# mm FILE M N SCALE EXPR: a Matrix Market array file, entry (i, j) (from 1)
# SCALE * EXPR (an awk expression in i, j and m, n).
mm() {
	awk -v m="$2" -v n="$3" -v s="$4" "BEGIN {
		print \"%%MatrixMarket matrix array real general\"; print m, n
		for (j = 1; j <= n; j++) for (i = 1; i <= m; i++) printf \"%.17g\\n\", s * ($5)
	}" > "$1"
}

# Tiny sizes: LAPACK's testers' factor of 30 over the n eps bounds.
for n in 1 2 3 4 5 7 10 13 16; do
	expect_pass_run qr_householder $n
	expect_pass_run qr_mgs $n
	expect_pass_run qr_cgs $n
done
expect_pass_run qr_mgs 2 1
expect_pass_run qr_cgs 2 1
expect_pass_run hr_reduce 3

# A zero matrix: the residuals are 0.
mm "$dir/zero.mtx" 20 20 0 "1"
for drv in hr_reduce tridiag_reduce bidiag_reduce qr_householder eigh; do
	expect_pass_run $drv --input "$dir/zero.mtx"
done
expect_pass_run eigh --vectors --input "$dir/zero.mtx"
expect_pass_run svd --vectors --input "$dir/zero.mtx"

# Well-conditioned (diagonally dominant, symmetric) inputs scaled far out.
for s in 1e200 1e-170; do
	mm "$dir/scaled.mtx" 60 60 $s "(i == j ? 2 * n : 0) + sin(i * j + i + j)"
	for drv in qr_mgs qr_cgs qr_householder hr_reduce tridiag_reduce bidiag_reduce eigh svd; do
		expect_pass_run $drv --input "$dir/scaled.mtx"
	done
	expect_pass_run eigh --vectors --input "$dir/scaled.mtx"
	expect_pass_run svd --vectors --input "$dir/scaled.mtx"
	expect_pass_run qr_cgs --input "$dir/scaled.mtx" --no-reorth
	expect_pass_run qr_mgs --input "$dir/scaled.mtx" --form vector
done

# Block diagonal, the second block subnormal: reflectors of columns whose
# norm's inverse overflows (rescaled, as xLARFG does); mawk reads no
# subnormal literal, so 1e-309 is a product.
mm "$dir/subnormal.mtx" 60 60 1 \
	"((i <= 30) != (j <= 30) ? 0 : j > 30 ? 1e-300 * 1e-9 : 1) * ((i == j ? 2 * n : 0) + sin(i * j + i + j))"
for drv in qr_mgs qr_cgs qr_householder hr_reduce tridiag_reduce bidiag_reduce eigh svd; do
	expect_pass_run $drv --input "$dir/subnormal.mtx"
done
expect_pass_run eigh --vectors --input "$dir/subnormal.mtx"
expect_pass_run svd --vectors --input "$dir/subnormal.mtx"

# Column 60 equals column 10: the factorisation reports column 60.
mm "$dir/dependent.mtx" 300 100 1 "sin(1.7 * i * (j == 60 ? 10 : j) + (j == 60 ? 10 : j))"
for cmd in "qr_mgs" "qr_mgs --form vector" "qr_cgs" "qr_cgs --no-reorth"; do
	out=$("$bin/"$cmd --input "$dir/dependent.mtx" 2>&1)
	status=$?
	case $status:$out in
	1:*"returned 60"*) echo "ok: $cmd: column 60 dependent" ;;
	*) fail "$cmd on a repeated column: status $status: $(printf '%s' "$out" | tail -1)" ;;
	esac
done
exit $fails
