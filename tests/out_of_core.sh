#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# The Householder QR, MGS and CGS out of core: with StarPU's GPU memory
# limited below the matrix (STARPU_LIMIT_CUDA_MEM, in MB), geqrf (R, tau
# and Q against LAPACK's), qr_householder's, qr_mgs's and qr_cgs's checks
# pass under each scheduler, on two GPUs too where there are; panels too
# wide for the memory, and a reduction or a solver whose matrices and
# StarPU's 32 MB chunk for small buffers do not fit, are refused with a
# clear message and exit 1, and the drop-in LAPACK makes the system
# LAPACK's call instead. Needs a GPU (exit 77 without).
# Usage: out_of_core.sh BUILD_DIR
bin=$1
case $("$bin/qr_householder" 64 --json --no-check --quiet 2>&1) in
*" 0 CUDA workers"*)
	echo "no GPU: skipped"
	exit 77
	;;
esac
fails=0

fail() {
	echo "FAILED: $*"
	fails=$((fails + 1))
}

# expect_pass LIMIT COMMAND...: exit 0 (a driver's line with check=pass).
expect_pass() {
	limit=$1
	shift
	t0=$(date +%s)
	out=$(STARPU_LIMIT_CUDA_MEM=$limit timeout 120 "$@" 2>&1)
	rc=$?
	case $rc:$out in
	0:*check=fail* | 0:*FAILED*) fail "limit $limit MB: $*: $(printf '%s' "$out" | tail -2)" ;;
	0:*) echo "ok: limit $limit MB, $STARPU_SCHED, $(($(date +%s) - t0)) s: $*" ;;
	*) fail "limit $limit MB: $* exit $rc: $(printf '%s' "$out" | tail -2)" ;;
	esac
}

for sched in ${HYLA_TEST_SCHEDS:-dmda eager ws random}; do
	export STARPU_SCHED=$sched
	# 72, 60 and 36 MB against 64 and 32 MB: panels of 1.5-3 MB, blocks
	# of at most 16 or 8 MB (a quarter of the memory); the second's full
	# Q is refused on the GPU (more than three quarters of it), and
	# LAPACK's dorgqr forms it on the host.
	expect_pass 64 "$bin/tests/test_geqrf" d 3000 3000 128
	expect_pass 64 "$bin/tests/test_geqrf" d 3001 2500 100
	expect_pass 64 "$bin/qr_householder" 3000 --orgqr-nb 128 --check
	expect_pass 32 "$bin/qr_householder" 3000 --prec s --orgqr-nb 128 --check
	# MGS's separate panels, brought and evicted by StarPU: 72 MB in
	# panels of 6 MB under 64 MB, 41 MB in 6 MB panels under 48 (an eighth
	# each), single and the vector form.
	expect_pass 64 "$bin/qr_mgs" 3000 --nb 256 --check
	expect_pass 48 "$bin/qr_mgs" 3000 1700 --nb 256 --check
	expect_pass 32 "$bin/qr_mgs" 3000 --prec s --nb 256 --check
	expect_pass 48 "$bin/qr_mgs" 2000 --form vector --check
	# CGS's projections a column block at a time (at most a quarter of the
	# memory): 72 MB in panels of 3 MB under 64 MB, in 6 MB panels under 96
	# (a sixteenth), one pass, single.
	expect_pass 64 "$bin/qr_cgs" 3000 --nb 128 --check
	expect_pass 96 "$bin/qr_cgs" 3000 --nb 256 --check
	expect_pass 64 "$bin/qr_cgs" 3000 --nb 128 --no-reorth --check
	expect_pass 32 "$bin/qr_cgs" 3000 --prec s --nb 128 --check
done

# With two GPUs or more: 15000^2 (1.8 GB) spread over two (0.9 GB each),
# under 1400 MB each (more than one GPU's three quarters, within two
# GPUs': in core on both), and under 800 MB each (out of core on both).
case $("$bin/qr_householder" 64 --json --no-check --quiet 2>&1) in
*" 1 CUDA workers"*) ;;
*)
	export STARPU_SCHED=dmda
	expect_pass 1400 "$bin/qr_householder" 15000 --check
	expect_pass 800 "$bin/qr_householder" 15000 --check
	;;
esac

# Panels too wide for the memory (orgqr's, 512 columns: 12 MB against
# 64 MB) are refused in a line, and the QR falls back to LAPACK's dorgqr.
out=$(STARPU_LIMIT_CUDA_MEM=64 timeout 120 "$bin/qr_householder" 3000 --orgqr-nb 512 --check 2>&1)
rc=$?
case $rc:$out in
0:*"at most 1/8"*check=pass*) echo "ok: orgqr's panels too wide, refused: LAPACK's then" ;;
*) fail "qr_householder 3000 --orgqr-nb 512 under 64 MB: exit $rc: $out" ;;
esac

# MGS's panels of more than an eighth of the memory (6 MB under 40 MB: one
# such waited for ever under 32 MB), CGS's of more than a sixteenth (6 MB
# under 48 MB waited for ever), are refused in a line, exit 1.
expect_narrower() { # LIMIT PARTS COMMAND...
	limit=$1
	parts=$2
	shift 2
	out=$(STARPU_LIMIT_CUDA_MEM=$limit timeout 60 "$@" 2>&1)
	rc=$?
	case $rc:$out in
	1:*"at most 1/$parts of the GPU's $limit MB"*"error:"*) echo "ok: limit $limit MB: $* refused" ;;
	*) fail "limit $limit MB: $*: exit $rc: $out" ;;
	esac
}
expect_narrower 40 8 "$bin/qr_mgs" 3000 1700 --nb 256 --check
expect_narrower 48 16 "$bin/qr_cgs" 3000 1700 --nb 256 --check

# The drop-in LAPACK under 1 MB, less than the 32 MB chunks StarPU takes
# small GPU buffers from (below them such a buffer is never had, and its
# task waited for ever): hyla refuses each call untouched and the system
# LAPACK's call follows (no abort, no hang).
out=$(STARPU_LIMIT_CUDA_MEM=1 HYLA_LAPACK_MIN_N=0 HYLA_LAPACK_NB=8 timeout 120 \
	"$bin/tests/test_lapack_dropin" hyla 2>&1)
rc=$?
case $rc:$out in
0:*) echo "ok: the drop-in LAPACK under 1 MB: the system's calls after hyla's refusals" ;;
*) fail "test_lapack_dropin hyla under 1 MB: exit $rc: $(printf '%s' "$out" | tail -3)" ;;
esac

# What needs its matrices whole on the GPU takes at most three quarters of
# the memory less StarPU's 32 MB chunk: beyond, hyla's line, the driver's,
# exit 1 (hr_reduce 1500, 18 MB, and eigh 1200 with its vectors under
# 40 MB had waited for ever for a small buffer); within, the checks pass.
expect_refused() { # LIMIT COMMAND...
	limit=$1
	shift
	out=$(STARPU_LIMIT_CUDA_MEM=$limit timeout 60 "$@" 2>&1)
	rc=$?
	case $rc:$out in
	1:*"the GPU's $limit MB leave beside StarPU's 32 MB chunk"*"error:"*) echo "ok: limit $limit MB: $* refused" ;;
	*) fail "limit $limit MB: $*: exit $rc: $out" ;;
	esac
}
expect_refused 48 "$bin/hr_reduce" 3000 --no-check
expect_refused 40 "$bin/hr_reduce" 1500 --no-check
expect_refused 64 "$bin/eigh" 1200 --vectors --no-check
expect_refused 64 "$bin/qr_cgs" 3000 --variant vector --no-check
expect_refused 64 "$bin/svd" 1000 --vectors --no-check
expect_refused 64 "$bin/svd" 500 2000 --vectors --no-check
expect_refused 64 "$bin/bidiag_reduce" 1000 2000 --no-check
export STARPU_SCHED=dmda
expect_pass 64 "$bin/hr_reduce" 1500 --lapack
expect_pass 64 "$bin/svd" 1000 --check
expect_pass 128 "$bin/svd" 1000 --vectors --check
expect_pass 128 "$bin/eigh" 1200 --vectors --check
expect_pass 64 "$bin/svd" 300 1200 --vectors --check
expect_pass 64 "$bin/bidiag_reduce" 800 1600 --lapack
# At the rule's edge under 128 MB (72 MiB whole): hr_reduce's 62 MiB and
# its 8 MiB of Y and V, a 69 MiB tridiagonal reduction, eigh's 3.5 n^2 at
# 68 MiB and the SVD's 7 n^2 at 71 MiB.
expect_pass 128 "$bin/hr_reduce" 2850 --lapack
expect_pass 128 "$bin/tridiag_reduce" 3000 --lapack
expect_pass 128 "$bin/eigh" 1600 --vectors --check
expect_pass 128 "$bin/svd" 1160 --vectors --check
# 46 MB under 64 MB: out of core (it had been taken whole, and waited).
expect_pass 64 "$bin/qr_householder" 2400 --check
[ $fails -eq 0 ] && echo "out of core: pass" || echo "out of core: $fails failures"
[ $fails -eq 0 ]
