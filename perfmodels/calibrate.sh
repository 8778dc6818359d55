#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# Calibrates hyla's performance models on this machine: runs each driver
# (STARPU_CALIBRATE=1, dmda) over sizes from small to the largest you will run,
# then once more at each size to check the models' predictions against the
# tasks' times (HYLA_MODELS_CHECK), round after round until every model it
# uses is ready (fitted, and its predictions within 25%: the drivers'
# --models), then prints the report per codelet and worker kind.
#   perfmodels/calibrate.sh [BUILD_DIR]   (installed: hyla-calibrate [BIN_DIR])
# Environment: STARPU_PERF_MODEL_DIR where the models go (default: StarPU's,
# $STARPU_HOME/.starpu/sampling, where the drivers and the library look
# too); HYLA_CALIBRATE_SIZES (default
# "2000 4000 8000" with a GPU, "500 1000 2000" without); HYLA_CALIBRATE_ROUNDS
# (at most, default 6); HYLA_CALIBRATE_DRIVERS (default: all).
# Exit status 0 when every model is ready.
set -u
# The drivers: beside the script where it is installed, else the build's.
self=$(cd "$(dirname "$0")" && pwd)
if [ -x "$self/hr_reduce" ]; then bin=${1:-$self}; else bin=${1:-$(dirname "$self")/build}; fi
export STARPU_SCHED=dmda STARPU_SILENT=1
dir=${STARPU_PERF_MODEL_DIR:-${STARPU_HOME:-$HOME}/.starpu/sampling}
mkdir -p "$dir"
# Where the library reads the check back (runtime/models.c).
check=$dir/hyla-check.${STARPU_HOSTNAME:-$(hostname | cut -d. -f1)}
drivers=${HYLA_CALIBRATE_DRIVERS:-"qr_mgs qr_cgs qr_householder hr_reduce tridiag_reduce bidiag_reduce"}
if "$bin/qr_mgs" 8 --require-gpu --no-check >/dev/null 2>&1; then
	sizes=${HYLA_CALIBRATE_SIZES:-"2000 4000 8000"}
else
	sizes=${HYLA_CALIBRATE_SIZES:-"500 1000 2000"}
fi
echo "calibrating into ${STARPU_PERF_MODEL_DIR:-${STARPU_HOME:-$HOME}/.starpu/sampling}, sizes $sizes"

ready() { # every driver's models ready (hr_reduce: with its Q too)
	for d in $drivers; do
		for prec in d s; do
			q=; [ "$d" = hr_reduce ] && q=--want-q
			"$bin/$d" --models --prec $prec $q >/dev/null 2>&1 || return 1
		done
	done
}

runs() { # every driver at every size, both precisions
	for d in $drivers; do
		for n in $sizes; do
			for prec in d s; do
				q=; [ "$d" = hr_reduce ] && q=--want-q
				"$bin/$d" "$n" --prec $prec --no-check --quiet $q >/dev/null 2>&1 ||
					echo "  $d $n --prec $prec failed"
			done
		done
	done
}

start=$(date +%s)
round=0
while ! ready && [ $round -lt "${HYLA_CALIBRATE_ROUNDS:-6}" ]; do
	round=$((round + 1))
	STARPU_CALIBRATE=1 runs
	rm -f "$check"
	STARPU_CALIBRATE=0 HYLA_MODELS_CHECK=$check runs
	echo "round $round done (calibration and check), $(($(date +%s) - start)) s"
done
status=0
for d in $drivers; do
	for prec in d s; do
		q=; [ "$d" = hr_reduce ] && q=--want-q
		"$bin/$d" --models --prec $prec $q || status=1
	done
done | sort -u
ready || status=1
echo "calibration: $([ $status = 0 ] && echo ready || echo 'not ready (run again, or more rounds)') after $(($(date +%s) - start)) s"
exit $status
