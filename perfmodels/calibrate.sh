#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# Calibrates hyla's performance models on this machine: runs each driver
# (STARPU_CALIBRATE=1, dmda) over sizes from small to the largest you will run,
# then once more at each size to check the models' predictions against the
# tasks' times (HYLA_MODELS_CHECK), round after round (each round the drivers
# and precisions whose models are not ready yet) until every model it uses
# is ready (fitted, and its predictions within 25%: the drivers' --models),
# then prints the report per codelet and worker kind.
#   perfmodels/calibrate.sh [BUILD_DIR]   (installed: hyla-calibrate [BIN_DIR])
# Environment: STARPU_PERF_MODEL_DIR where the models go (default: StarPU's,
# $STARPU_HOME/.starpu/sampling, where the drivers and the library look
# too); HYLA_CALIBRATE_SIZES (default
# "2000 4000 8000" with a GPU, "500 1000 2000" without); HYLA_CALIBRATE_ROUNDS
# (at most, default 6); HYLA_CALIBRATE_DRIVERS (default: all);
# HYLA_CALIBRATE_LOG=FILE appends each driver process's wall time there
# (where a calibration's time goes).
# Exit status 0 when every model is ready.
set -u
# The drivers: beside the script where it is installed, else the build's.
self=$(cd "$(dirname "$0")" && pwd)
if [ -x "$self/hr_reduce" ]; then bin=${1:-$self}; else bin=${1:-$(dirname "$self")/build}; fi
export STARPU_SCHED=dmda STARPU_SILENT=1 STARPU_CALIBRATE_MINIMUM=${STARPU_CALIBRATE_MINIMUM:-2}
dir=${STARPU_PERF_MODEL_DIR:-${STARPU_HOME:-$HOME}/.starpu/sampling}
mkdir -p "$dir"
# Where the library reads the check back (runtime/models.c).
check=$dir/hyla-check.${STARPU_HOSTNAME:-$(hostname | cut -d. -f1)}
drivers=${HYLA_CALIBRATE_DRIVERS:-"qr_mgs qr_cgs qr_householder hr_reduce tridiag_reduce bidiag_reduce eigh svd"}
for d in $drivers; do
	[ -x "$bin/$d" ] || { echo "calibrate.sh: no driver $d in $bin" >&2; exit 2; }
done
if "$bin/qr_mgs" 8 --require-gpu --no-check >/dev/null 2>&1; then
	sizes=${HYLA_CALIBRATE_SIZES:-"2000 4000 8000"} repeat=4
else
	sizes=${HYLA_CALIBRATE_SIZES:-"500 1000 2000"} repeat=3
fi
echo "calibrating into ${STARPU_PERF_MODEL_DIR:-${STARPU_HOME:-$HOME}/.starpu/sampling}, sizes $sizes"

pairs= # the drivers and precisions to run: "driver:prec ..."
for d in $drivers; do pairs="$pairs $d:d $d:s"; done

# A driver's variants, the options that change its placed tasks ("-":
# none): hr_reduce's Q (its split panel, --panel cpu, places its tasks by
# rule: no model to calibrate); the solvers without and with vectors (each
# has models of its own; qr_mgs's vector form shares the blocked one's).
# Not qr_cgs's vector variant (docs/models.md says why and how).
variants() { # variants DRIVER
	case $1 in
	hr_reduce) echo --want-q ;;
	eigh | svd) echo - --vectors ;;
	*) echo - ;;
	esac
}
option() { [ "$1" = - ] || echo "$1"; }

# A driver whose tasks are a first part of another's is calibrated and
# checked by that one's runs when both are due: the solvers' reductions are
# tridiag_reduce's and bidiag_reduce's (the same tasks, shapes and models),
# so their own runs would measure the same again.
within() { # within DRIVER: the driver whose runs place DRIVER's tasks too
	case $1 in
	tridiag_reduce) echo eigh ;;
	bidiag_reduce) echo svd ;;
	esac
}
due() { # due PAIRS: those of PAIRS whose runs are not within another's of PAIRS
	for pair in $1; do
		case " $1 " in
		*" $(within "${pair%:*}"):${pair#*:} "*) ;;
		*) printf '%s ' "$pair" ;;
		esac
	done
}

models() { # models DRIVER PREC: the --models report of each variant
	status=0
	for v in $(variants "$1"); do
		STARPU_CALIBRATE=0 "$bin/$1" --models --prec "$2" $(option "$v") || status=1
	done
	return $status
}

reports=$(mktemp -d) || exit 1
trap 'rm -rf "$reports"' EXIT
report() { # each pair's --models report into reports/, all at once (they only read the models)
	for pair in $pairs; do
		{ models "${pair%:*}" "${pair#*:}" >"$reports/$pair" 2>&1; echo $? >"$reports/$pair.status"; } &
	done
	wait
}

not_ready() { # the pairs whose models were not ready at the last report
	for pair in $pairs; do
		[ "$(cat "$reports/$pair.status")" = 0 ] || printf '%s ' "$pair"
	done
}

# Several runs in one process: a task shape's first run in a process pays
# one-time costs (CUDA loads a kernel at its first launch: up to 35 ms more
# than the next on an H200), so the check judges the later ones
# (runtime/model_check.c), and with a GPU the calibration measures each
# shape four times a round: StarPU's history drops a size's samples when the
# next one strays too far from them (the first run's, at the second), so the
# last two remain, and the models predict a size measured
# STARPU_CALIBRATE_MINIMUM times by its mean. In a later round's process
# that first run counts as one error against two samples, and StarPU drops
# it alone. Without a GPU nothing is loaded at a first run: three times
# (with two, the Householder form stayed 36% off for six rounds on 2 cores).
runs() { # runs PAIRS REPEAT: each driver's variants at every size in its precision
	for pair in $1; do
		d=${pair%:*} prec=${pair#*:}
		for v in $(variants "$d"); do
			for n in $sizes; do
				t0=$(date +%s%N)
				"$bin/$d" "$n" --prec $prec --no-check --quiet --repeat "$2" $(option "$v") \
					>/dev/null 2>&1 || echo "  $d $n --prec $prec $(option "$v") failed"
				[ -z "${HYLA_CALIBRATE_LOG:-}" ] || echo "round $round $d $n $prec $v" \
					"$([ "$STARPU_CALIBRATE" = 1 ] && echo calibrate || echo check)" \
					"$((($(date +%s%N) - t0) / 1000000)) ms" >>"$HYLA_CALIBRATE_LOG"
			done
		done
	done
}

# Each round calibrates and checks the pairs not ready yet; each pair's
# last check is kept (parts/), and the check the library reads is theirs
# together.
parts=$dir/hyla-check-parts
mkdir -p "$parts"
start=$(date +%s)
round=0
report
todo=$(not_ready)
while [ -n "$todo" ] && [ $round -lt "${HYLA_CALIBRATE_ROUNDS:-6}" ]; do
	round=$((round + 1))
	run=$(due "$todo")
	STARPU_CALIBRATE=1 runs "$run" $repeat
	for pair in $todo; do
		rm -f "$parts/$pair"
		case " $run " in
		*" $pair "*) STARPU_CALIBRATE=0 HYLA_MODELS_CHECK=$parts/$pair runs "$pair" 2 ;;
		esac
	done
	cat "$parts"/* >"$check.new" 2>/dev/null
	mv "$check.new" "$check"
	report
	echo "round $round done ($(echo $todo | wc -w) driver-precision pairs calibrated and checked), $(($(date +%s) - start)) s"
	todo=$(not_ready)
	for pair in $todo; do # what is not ready yet, and why
		grep -h "not ready$" "$reports/$pair" | sed "s/^/  ${pair%:*} --prec ${pair#*:}: /"
	done
done
for pair in $pairs; do
	cat "$reports/$pair"
done | sort -u
status=0
[ -z "$(not_ready)" ] || status=1
echo "calibration: $([ $status = 0 ] && echo ready || echo 'not ready (run again, or more rounds)') after $(($(date +%s) - start)) s"
exit $status
