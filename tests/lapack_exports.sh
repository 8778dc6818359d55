#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# libhyla_lapack exports LAPACK's symbols of its sixteen routines and nothing
# else. Usage: lapack_exports.sh LIBRARY
set -eu
expected="dgebrd_ dgehrd_ dgeqrf_ dgesdd_ dorghr_ dorgqr_ dsyevd_ dsytrd_ sgebrd_ sgehrd_ sgeqrf_ sgesdd_ sorghr_ sorgqr_ ssyevd_ ssytrd_"
got=$(nm -D --defined-only "$1" | awk '{print $3}' | sort | tr '\n' ' ' | sed 's/ $//')
if [ "$got" != "$expected" ]; then
	echo "FAILED: $1 exports: $got"
	exit 1
fi
echo "lapack_exports: the sixteen routines, nothing else: pass"
