#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# Cores alone: each driver under each StarPU scheduler against LAPACK on the
# same cores (the driver's --lapack, same process, after hyla's runs), a
# markdown table with the same-run ratio; with --load K, K busy processes
# compete for the cores during both (started before, stopped after each row).
#   bench/schedulers.sh [--load K] [BUILD_DIR]
# Environment: HYLA_SIZES (default 2000), HYLA_SCHEDS (default "dmda eager
# lws ws peager"), HYLA_DRIVERS (default the four reductions and QR),
# HYLA_REPEAT (default 3); the performance models are StarPU's (calibrate
# first: perfmodels/calibrate.sh).
set -eu
load=0
if [ "${1:-}" = --load ]; then
	load=$2
	shift 2
fi
bin=${1:-$(cd "$(dirname "$0")/.." && pwd)/build}
drivers=${HYLA_DRIVERS:-"hr_reduce tridiag_reduce bidiag_reduce qr_householder"}
# STARPU_CALIBRATE set: dm* rows run dm* (the drivers otherwise run eager on
# cores alone, and say so).
export STARPU_NCUDA=0 STARPU_SILENT=1 STARPU_CALIBRATE=${STARPU_CALIBRATE:-0}
busy=
stop_load() {
	[ -z "$busy" ] || kill $busy 2>/dev/null || true
	busy=
}
trap stop_load EXIT
field() { # field NAME LINE: the value of NAME=... in a result line
	printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | sed 's/[a-z]*$//'
}
echo "# $(date +%F), $(nproc) cores, $load competing busy process(es), STARPU_NCUDA=0"
echo
echo "| driver | n | scheduler | hyla best (s) | hyla median (s) | LAPACK (s) | LAPACK / hyla median |"
echo "|---|---|---|---|---|---|---|"
for d in $drivers; do
	for n in ${HYLA_SIZES:-2000}; do
		for s in ${HYLA_SCHEDS:-dmda eager lws ws peager}; do
			for i in $(seq "$load"); do
				sh -c 'while :; do :; done' &
				busy="$busy $!"
			done
			line=$(STARPU_SCHED=$s "$bin/$d" "$n" --lapack --no-check --repeat "${HYLA_REPEAT:-3}" 2>/dev/null |
				grep ' time=' | tail -n 1) || line=
			stop_load
			t=$(field time "$line") m=$(field median "$line")
			l=$(field "lapack_[a-z_]*" "$line" | head -n 1)
			ratio=$(awk -v l="${l:-0}" -v m="${m:-0}" 'BEGIN { if (m > 0) printf "%.2f", l / m; else print "-" }')
			echo "| $d | $n | $s | ${t:--} | ${m:--} | ${l:--} | $ratio |"
		done
	done
done
