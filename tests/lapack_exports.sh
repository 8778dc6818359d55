#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# libhyla_lapack exports LAPACK's symbols of its twelve routines and nothing
# else. Usage: lapack_exports.sh LIBRARY
set -eu
expected="dgebrd_ dgehrd_ dgeqrf_ dorghr_ dorgqr_ dsytrd_ sgebrd_ sgehrd_ sgeqrf_ sorghr_ sorgqr_ ssytrd_"
got=$(nm -D --defined-only "$1" | awk '{print $3}' | sort | tr '\n' ' ' | sed 's/ $//')
if [ "$got" != "$expected" ]; then
	echo "FAILED: $1 exports: $got"
	exit 1
fi
echo "lapack_exports: the twelve routines, nothing else: pass"
