#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# The drivers against a corpus of valid, malformed and mutated matrix files
# (tests/fuzz_corpus.py writes it into CORPUS_DIR, replacing what was there):
# each file through each driver that reads one, with its checks on. A run
# must end in one of:
#   a correct result   exit 0, "check=pass" and no "FAILED" on stdout,
#                      nothing on stderr
#   a clean refusal    exit 2, one line on stderr: "DRIVER: error: ..."
#   a numerical one    qr_mgs and qr_cgs only: exit 1, one line on stderr,
#                      "the factorisation returned J", J > 0 (column J
#                      depends on the earlier ones: hyla's documented info)
# never a signal, a hang (60 s), a failed check or another exit status.
# Besides, bad-* files (and /dev/zero) must be refused, and an
# ok-MxN[-sym]-* file reduced by each driver whose shape it fits (QR:
# M >= N; hr_reduce: square; tridiag_reduce, eigh: symmetric; bidiag_reduce, svd: any).
# Usage: fuzz_drivers.sh CORPUS_DIR BUILD_DIR [--long]
#   --long  2000 random mutations instead of 100 (about 5 times longer)
# $HYLA_FUZZ_JOBS runs at once (default: the number of cores). On 2 cores
# with a CPU-only StarPU: about 1 minute; with a CUDA-enabled StarPU, whose
# libraries take 0.1 s to load per run, about 3 minutes.
set -u
drivers="qr_mgs qr_cgs qr_householder hr_reduce tridiag_reduce bidiag_reduce eigh svd"

# Whether the driver takes a matrix of that shape (an ok-MxN[-sym]-* name).
fits() {
	dims=${name#ok-}
	dims=${dims%%-*}
	m=${dims%x*} n=${dims#*x}
	case $drv in
	qr_*) [ "$m" -ge "$n" ] ;;
	hr_reduce) [ "$m" -eq "$n" ] ;;
	tridiag_reduce | eigh) case $name in ok-*-sym-*) true ;; *) false ;; esac ;;
	*) true ;;
	esac
}

# One run's verdict, one line: "= pass" (or refused, numerical) or
# "FAILED: ...", then the first lines of its stderr.
verdict() {
	lines=$(grep -c '' "$tmp/err")
	case $rc in
	0)
		if ! grep -q 'check=pass' "$tmp/out" || grep -q 'FAILED' "$tmp/out"; then
			echo "FAILED: exit 0 without a passing check: $(cat "$tmp/out")"
		elif [ "$lines" -ne 0 ]; then
			echo "FAILED: exit 0 with $lines lines on stderr"
		else
			case $name in
			bad-* | zero) echo "FAILED: accepted a malformed file: $(cat "$tmp/out")" ;;
			*) echo "= pass" ;;
			esac
		fi
		;;
	2)
		if [ "$lines" -ne 1 ] || ! grep -q "^$drv: error: ." "$tmp/err"; then
			echo "FAILED: refused with $lines lines on stderr, not one"
		else
			case $name in
			ok-*) if fits; then echo "FAILED: refused a valid matrix"; else echo "= refused"; fi ;;
			*) echo "= refused" ;;
			esac
		fi
		;;
	1)
		if [ "$drv" != qr_mgs ] && [ "$drv" != qr_cgs ]; then
			echo "FAILED: exit 1: $(tail -n 1 "$tmp/out")"
		elif [ "$lines" -ne 1 ] ||
			! grep -q "^$drv: error: the factorisation returned [1-9]" "$tmp/err"; then
			echo "FAILED: exit 1: $(tail -n 1 "$tmp/out")"
		else
			case $name in
			bad-* | zero) echo "FAILED: a malformed file reached the factorisation" ;;
			*) echo "= numerical" ;;
			esac
		fi
		;;
	124) echo "FAILED: no answer in 60 s" ;;
	*) if [ "$rc" -gt 128 ]; then echo "FAILED: killed by signal $((rc - 128))"; else echo "FAILED: exit $rc"; fi ;;
	esac
}

if [ "${1:-}" = --run ]; then # a worker: --run BUILD_DIR FILE...
	bin=$2
	shift 2
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	for f in "$@"; do
		name=$(basename "$f")
		for drv in $drivers; do
			timeout 60 "$bin/$drv" --input "$f" >"$tmp/out" 2>"$tmp/err"
			rc=$?
			v=$(verdict)
			case $v in
			=*) echo "$v" ;;
			*)
				echo "$drv --input $f: $v"
				sed -n '1,4s/^/    stderr: /p' "$tmp/err"
				;;
			esac
		done
	done
	exit 0
fi

corpus=$1 bin=$2
mutations=100
[ "${3:-}" = --long ] && mutations=2000
here=$(cd "$(dirname "$0")" && pwd)
py=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import argparse, struct' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "FAILED: no python3"; exit 1; }
"$py" "$here/fuzz_corpus.py" "$corpus" --mutations "$mutations" || exit 1
export STARPU_SILENT=1
unset STARPU_SCHED # the drivers' default: no notes about models on stderr
log=$(mktemp)
trap 'rm -f "$log"' EXIT
{ ls -d "$corpus"/*; echo /dev/zero; } |
	xargs -n 16 -P "${HYLA_FUZZ_JOBS:-$(nproc)}" sh "$0" --run "$bin" > "$log"
grep -v '^= ' "$log"
count() { grep -c "^= $1\(\$\|:\)" "$log"; }
fails=$(grep -c ': FAILED: ' "$log")
runs=$(grep -c '^= \|: FAILED: ' "$log")
expected=$(( ($(ls "$corpus" | wc -l) + 1) * $(echo $drivers | wc -w) ))
echo "fuzz_drivers: $runs runs: $(count pass) correct results, $(count refused) refusals," \
	"$(count numerical) dependent-column errors, $fails failures"
if [ "$runs" -ne "$expected" ]; then
	echo "FAILED: $runs runs, not $expected (a worker died)"
	exit 1
fi
[ "$fails" -eq 0 ]
