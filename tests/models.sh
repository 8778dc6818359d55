#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# The calibration workflow on qr_cgs, in an empty model directory: --models
# says not ready (exit 1) and a dmda run says so in one line; after
# perfmodels/calibrate.sh, --models says ready (exit 0) with each model's
# check, and the note is gone; the check judges the tasks it says; on cores
# alone a driver runs eager for dmda and says so; hr_reduce's split panel
# places its tasks without models; a reduction calibrated within its
# solver's runs. The accuracy asked is 100% (HYLA_MODEL_ACCURACY):
# this tests the workflow; a busy CI machine's task times vary more than 25%.
# Usage: models.sh BUILD_DIR
bin=$1
here=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export STARPU_PERF_MODEL_DIR="$dir" HYLA_MODEL_ACCURACY=1
unset STARPU_CALIBRATE HYLA_MODELS_CHECK HYLA_MODELS_CHECK_TASKS
fails=0
check() { # check WHAT CONDITION...
	what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; fails=$((fails + 1)); fi
}
"$bin/qr_cgs" --models > "$dir/before.txt"
check "--models exits 1 before calibration" [ $? -eq 1 ]
check "--models names each model" [ "$(grep -c 'not ready' "$dir/before.txt")" -ge 2 ]
# (STARPU_CALIBRATE set, even to StarPU's default 0: dmda on cores alone too.)
STARPU_SCHED=dmda STARPU_CALIBRATE=0 "$bin/qr_cgs" 200 2> "$dir/note.txt" >/dev/null
check "a dmda run notes it in one line" [ "$(grep -c 'not calibrated' "$dir/note.txt")" -eq 1 ]
if ! "$bin/qr_mgs" 8 --require-gpu --no-check >/dev/null 2>&1; then
	STARPU_SCHED=dmda "$bin/qr_cgs" 200 > "$dir/eager.txt" 2> "$dir/note.txt"
	check "on cores alone a dmda run runs eager and says so, with no note" \
		grep -q 'sched eager .*STARPU_SCHED=dmda: eager on cores alone' "$dir/eager.txt"
	check "... and no note" [ ! -s "$dir/note.txt" ]
fi
HYLA_CALIBRATE_DRIVERS=qr_cgs HYLA_CALIBRATE_SIZES="200 400" \
	sh "$here/perfmodels/calibrate.sh" "$bin" > "$dir/calibrate.txt"
check "calibrate.sh reports ready" [ $? -eq 0 ]
# A reduction that is a solver's first step: eigh's runs calibrate and
# check tridiag_reduce's models, which then runs none of its own.
HYLA_CALIBRATE_DRIVERS="tridiag_reduce eigh" HYLA_CALIBRATE_SIZES=600 \
	HYLA_CALIBRATE_LOG="$dir/runs.txt" sh "$here/perfmodels/calibrate.sh" "$bin" >/dev/null
check "tridiag_reduce calibrated within eigh's runs" [ $? -eq 0 ]
eigh_runs=$(grep -c ' eigh ' "$dir/runs.txt") own_runs=$(grep -c ' tridiag_reduce ' "$dir/runs.txt")
check "... with no run of its own ($eigh_runs of eigh, $own_runs)" [ "$eigh_runs" -gt 0 -a "$own_runs" -eq 0 ]
"$bin/tridiag_reduce" --models >/dev/null
check "... and its --models says ready" [ $? -eq 0 ]
"$bin/qr_cgs" --models > "$dir/after.txt"
check "--models exits 0 after calibration" [ $? -eq 0 ]
check "the report gives the fits" grep -q 'n^.*error.*ready' "$dir/after.txt"
check "the report gives the checks" grep -q 'predicted [0-9]* tasks within' "$dir/after.txt"
STARPU_SCHED=dmda STARPU_CALIBRATE=0 "$bin/qr_cgs" 200 2> "$dir/note.txt" >/dev/null
check "no note once calibrated" [ "$(grep -c 'not calibrated' "$dir/note.txt")" -eq 0 ]
# The check judges every task but each shape's first in the process: its
# tasks are the logged tasks less the distinct (model, kind, footprint).
STARPU_SCHED=dmda HYLA_MODELS_CHECK="$dir/check.txt" HYLA_MODELS_CHECK_TASKS="$dir/tasks.txt" \
	"$bin/qr_cgs" 300 --repeat 2 --no-check >/dev/null
logged=$(grep -vc '^#' "$dir/tasks.txt")
shapes=$(grep -v '^#' "$dir/tasks.txt" | cut -f1-3 | sort -u | wc -l)
judged=$(awk -F'\t' '{n += $3} END {print n + 0}' "$dir/check.txt")
check "the task log starts with the command" grep -q '^# .*qr_cgs 300' "$dir/tasks.txt"
check "the check judges all but each shape's first task ($judged = $logged - $shapes)" \
	[ "$logged" -gt "$shapes" -a "$judged" -eq $((logged - shapes)) ]
check "each check line also gives its worst task and its shapes' error" \
	awk -F'\t' 'NF != 9 || $7 > $5 || $8 > $6 || $9 > $5 + 0.2 {bad = 1} END {exit bad}' "$dir/check.txt"
# The eigensolver's divide and conquer: its models in the report, the
# assembly judged by shape.
STARPU_SCHED=dmda STARPU_CALIBRATE=1 "$bin/eigh" 600 --vectors --repeat 3 --no-check >/dev/null
STARPU_SCHED=dmda HYLA_MODELS_CHECK="$dir/eigh-check.txt" "$bin/eigh" 600 --vectors --repeat 2 \
	--no-check >/dev/null
HYLA_MODELS_CHECK="$dir/eigh-check.txt" "$bin/eigh" --vectors --models > "$dir/eigh.txt"
for model in dc_leaf dc_roots dc_gemm orgqr_apply orgqr_t; do
	check "eigh --vectors --models reports hyla_${model}_d" grep -q "^hyla_${model}_d_v" "$dir/eigh.txt"
done
check "... and judges the assembly by shape" \
	grep -q "^hyla_dc_assemble_d_v1 .*each shape's in all" "$dir/eigh.txt"
# hr_reduce's split panel places its tasks by rule: no model of its own.
"$bin/hr_reduce" --models --panel cpu > "$dir/split.txt"
check "--models --panel cpu says no model places the split panel's tasks" \
	grep -q '^gehrd_split: no model places its tasks (its columns on a core' "$dir/split.txt"
[ $fails -eq 0 ] || cat "$dir/calibrate.txt"
exit $fails
