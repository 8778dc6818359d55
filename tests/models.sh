#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# The calibration workflow on qr_cgs, in an empty model directory: --models
# says not ready (exit 1) and a dmda run says so in one line; after
# perfmodels/calibrate.sh, --models says ready (exit 0) with each model's
# check, and the note is gone. The accuracy asked is 100% (HYLA_MODEL_ACCURACY):
# this tests the workflow; a busy CI machine's task times vary more than 25%.
# Usage: models.sh BUILD_DIR
bin=$1
here=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export STARPU_PERF_MODEL_DIR="$dir" HYLA_MODEL_ACCURACY=1
fails=0
check() { # check WHAT CONDITION...
	what=$1
	shift
	if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; fails=$((fails + 1)); fi
}
"$bin/qr_cgs" --models > "$dir/before.txt"
check "--models exits 1 before calibration" [ $? -eq 1 ]
check "--models names each model" [ "$(grep -c 'not ready' "$dir/before.txt")" -ge 2 ]
STARPU_SCHED=dmda "$bin/qr_cgs" 200 2> "$dir/note.txt" >/dev/null
check "a dmda run notes it in one line" [ "$(grep -c 'not calibrated' "$dir/note.txt")" -eq 1 ]
HYLA_CALIBRATE_DRIVERS=qr_cgs HYLA_CALIBRATE_SIZES="200 400" \
	sh "$here/perfmodels/calibrate.sh" "$bin" > "$dir/calibrate.txt"
check "calibrate.sh reports ready" [ $? -eq 0 ]
"$bin/qr_cgs" --models > "$dir/after.txt"
check "--models exits 0 after calibration" [ $? -eq 0 ]
check "the report gives the fits" grep -q 'n^.*error.*ready' "$dir/after.txt"
check "the report gives the checks" grep -q 'predicted [0-9]* tasks within' "$dir/after.txt"
STARPU_SCHED=dmda "$bin/qr_cgs" 200 2> "$dir/note.txt" >/dev/null
check "no note once calibrated" [ "$(grep -c 'not calibrated' "$dir/note.txt")" -eq 0 ]
[ $fails -eq 0 ] || cat "$dir/calibrate.txt"
exit $fails
