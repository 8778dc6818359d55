#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# LAPACK's own testers against the drop-in LAPACK (libhyla_lapack). Each
# run twice: on the system LAPACK, then with the drop-in preloaded, hyla for
# every size (HYLA_LAPACK_MIN_N=0) and a small block size (HYLA_LAPACK_NB=4,
# so that hyla's task graphs run on the testers' small matrices). The two
# verdicts (the testers' lines that pass, fail or report an error) must be
# equal (with --full: equal but for rounding, within_rounding below: the
# larger inputs and block sizes reach tests that flip on an ulp), and hyla
# must have taken calls of each routine the input exercises.
#   scripts/lapack-testers.sh [--full] [BUILD_DIR]     (BUILD_DIR: build/)
# The testers' own inputs, double and single precision: nep.in, sep.in,
# svd.in, ded.in/sed.in, dsg.in/ssg.in, gqr.in, glm.in, lse.in (error exits
# included) through xeigtst[ds], and the QR paths of dtest.in/stest.in (QR,
# QP, LS) through xlintst[ds]. --full runs them at block sizes 4, 7 and
# hyla's own, and the NEP and QR paths at sizes up to 100 besides (where the
# system LAPACK passes them all; SEP's and SVD's testers do not, beyond
# their own sizes). Outputs in BUILD_DIR/lapack-testers/. The testers are
# built once from Debian's lapack source package (the installed liblapack3's
# version), linked to the system -llapack -lblas, and cached in $HYLA_CACHE
# (default ~/.cache/hyla). HYLA_LAPACK_TESTERS_PRECS: the precisions run
# (default "d s"; the sanitizer pass of .ci/run takes d).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
full=
if [ "${1:-}" = --full ]; then
	full=1
	shift
fi
case "$#:${1:-}" in
0: | 1:[!-]*) ;;
*)
	echo "usage: scripts/lapack-testers.sh [--full] [BUILD_DIR]" >&2
	exit 2
	;;
esac
build=${1:-$here/build}
dropin=$build/lapack/libhyla_lapack.so
if [ ! -f "$dropin" ]; then
	echo "lapack-testers: no $dropin (build hyla first: scripts/build.sh)" >&2
	exit 1
fi
build=$(cd "$build" && pwd)
dropin=$build/lapack/libhyla_lapack.so
cache=${HYLA_CACHE:-$HOME/.cache/hyla}

# The testers' build: LAPACK's makefiles, the system's libraries. The cache's
# key: the version, this make.inc and the build steps' revision (raise it
# when the steps below change what is built). HYLA_LAPACK_TESTERS names a
# folder of testers built so instead (the GPU machine's, staged).
recipe=1
if [ -z "${HYLA_LAPACK_TESTERS:-}" ]; then
	version=$(dpkg-query -W -f='${Version}' liblapack3)
	make_inc="FC = gfortran
FFLAGS = -O2 -frecursive
FFLAGS_DRV = \$(FFLAGS)
FFLAGS_NOOPT = -O0 -frecursive
AR = ar
ARFLAGS = cr
RANLIB = ranlib
TIMER = INT_ETIME
BLASLIB = /usr/lib/$(gcc -print-multiarch)/libblas.so
LAPACKLIB = /usr/lib/$(gcc -print-multiarch)/liblapack.so
TMGLIB = \$(TOPSRCDIR)/libtmglib.a"
	key=$(printf '%s\n%s\n' "$make_inc" "$recipe" | sha256sum | cut -c1-12)
fi
testers=${HYLA_LAPACK_TESTERS:-$cache/lapack-testers-${version:-}-${key:-}}

build_testers() {
	if ! command -v gfortran >/dev/null; then
		if [ -n "${HYLA_NO_APT:-}" ] || [ "$(id -u)" != 0 ]; then
			echo "lapack-testers: gfortran is missing (apt-get install gfortran, as root)" >&2
			exit 1
		fi
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gfortran >/dev/null
	fi
	echo "lapack-testers: building LAPACK $version's testers into $testers"
	mkdir -p "$cache"
	work=$(mktemp -d "$cache/.lapack-testers.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	"$here/scripts/debian-source.sh" "$work" "lapack=$version" lapack
	src=$(ls -d "$work"/lapack-*/)
	printf '%s\n' "$make_inc" >"$src/make.inc"
	jobs=$(nproc)
	{ make -s -j"$jobs" -C "$src/TESTING/MATGEN" &&
		make -s -j"$jobs" -C "$src/TESTING/EIG" double single &&
		make -s -j"$jobs" -C "$src/TESTING/LIN" double single; } >"$work/make.log" 2>&1 ||
		{ tail -40 "$work/make.log"; exit 1; }
	mkdir "$work/testers"
	cp "$src"/TESTING/EIG/xeigtst[ds] "$src"/TESTING/LIN/xlintst[ds] "$src"/TESTING/*.in \
		"$work/testers/"
	# In place whole or not at all (a build beside this one may have won).
	mv -T "$work/testers" "$testers" 2>/dev/null || [ -x "$testers/xlintsts" ]
	rm -rf "$work"
	trap - EXIT
}
if [ ! -x "$testers/xlintsts" ]; then
	if [ -n "${HYLA_LAPACK_TESTERS:-}" ]; then
		echo "lapack-testers: no testers in $testers" >&2
		exit 1
	fi
	build_testers
fi

out=$build/lapack-testers
rm -rf "$out"
mkdir -p "$out"
# A sanitizer build's drop-in needs the sanitizer's runtime loaded first.
preload=$dropin
if ldd "$dropin" | grep -q libasan; then
	preload=$(gcc -print-file-name=libasan.so):$dropin
fi
export STARPU_SILENT=1

# What decides a tester's verdict: its lines that pass, fail or report an
# error (the same on the same input and library, timings aside).
verdict() {
	grep -iE 'pass|fail|error|illegal|\*\*\*|info' "$1" || true
}
# The lines of its failed tests, a ratio last ("result 11 is 32.27",
# "test( 9)= 50.40", "ratio= 61.2").
failures() {
	grep -E '(result +[0-9]+ is|test\( *[0-9]+\) *=|ratio *=) *[-+0-9.DE]+ *$' "$1" || true
}
# "RUN FAILED": the tests run and failed, from its threshold lines.
counts() {
	awk '/passed the threshold/ { gsub(/[()]/, " ")
		for (i = 1; i + 2 <= NF; i++) if ($(i + 1) == "tests" && $(i + 2) == "run") run += $i }
	/failed to pass the threshold/ { for (i = 2; i + 2 <= NF; i++)
		if ($i == "out" && $(i + 1) == "of") { failed += $(i - 1); run += $(i + 2) } }
	END { print run + 0, failed + 0 }' "$1"
}
# within_rounding NAME: the drop-in's verdict differs from the system LAPACK's by
# rounding alone: the same lines but the threshold ones, as many tests run,
# and no failure beyond the system's but at most two tests past the
# threshold by less than 5 times. (LAPACK's inverse-iteration tests turn on
# rounding: LAPACK alone fails some after ulp changes; docs/lapack.md.)
# Leaves those tests in NAME.flips.
within_rounding() {
	o=$out/$1
	grep -v threshold "$o.system.verdict" >"$o.system.other" || true
	grep -v threshold "$o.hyla.verdict" >"$o.hyla.other" || true
	failures "$o.system.out" >"$o.system.failures"
	failures "$o.hyla.out" | grep -vxF -f "$o.system.failures" >"$o.flips" || true
	limit=$(sed -n 's/.*test ratio is less than *\([0-9.]*\).*/\1/p' "$o.system.out" | head -n 1)
	extra=$(wc -l <"$o.flips")
	set -- $(counts "$o.system.out") $(counts "$o.hyla.out")
	rounding="$2 failed on the system LAPACK, $4 on the drop-in"
	cmp -s "$o.system.other" "$o.hyla.other" && [ "$1" = "$3" ] && [ "$extra" -le 2 ] &&
		[ "$4" -le $(($2 + extra)) ] &&
		awk -v limit="${limit:-0}" '{ x = $NF; sub(/D/, "E", x); if (x + 0 >= 5 * limit) bad = 1 }
			END { exit bad }' "$o.flips"
}
now() { date +%s%N; }
ms() { echo $((($2 - $1) / 1000000)); }

failed=0
# run NAME TESTER INPUT NB ROUTINES: the tester on the system LAPACK, then
# on the drop-in with block size NB (0: hyla's own); ROUTINES (geqrf, ...)
# are those hyla must have taken calls of.
run() {
	name=$1 tester=$testers/$2 input=$3 nb=$4 routines=$5
	prec=$(printf '%s' "$2" | tail -c 1)
	t0=$(now)
	status=0
	"$tester" <"$input" >"$out/$name.system.out" 2>&1 || status=$?
	t1=$(now)
	LD_PRELOAD=$preload HYLA_LAPACK_MIN_N=0 HYLA_LAPACK_NB=$nb HYLA_LAPACK_VERBOSE=1 \
		"$tester" <"$input" >"$out/$name.hyla.out" 2>"$out/$name.hyla.err" || status=$status/$?
	t2=$(now)
	verdict "$out/$name.system.out" >"$out/$name.system.verdict"
	verdict "$out/$name.hyla.out" >"$out/$name.hyla.verdict"
	problem=
	calls=
	for r in $routines; do
		count=$(sed -n "s/^hyla_lapack: $prec${r}_ \([0-9]*\) to hyla.*/\1/p" "$out/$name.hyla.err")
		calls="$calls $prec${r}_ ${count:-0}"
		[ "${count:-0}" -gt 0 ] || problem="hyla took no call of $prec${r}_"
	done
	if [ "$status" != 0 ]; then
		problem="exit status $status (system/drop-in)"
	elif ! grep -q 'passed the threshold' "$out/$name.system.verdict"; then
		problem="no verdict on the system LAPACK (see $out/$name.system.out)"
	elif cmp -s "$out/$name.system.verdict" "$out/$name.hyla.verdict"; then
		verdicts="equal verdicts"
	elif [ -n "$full" ] && within_rounding "$name"; then
		verdicts="verdicts equal but for rounding ($rounding$(tr -s ' ' <"$out/$name.flips" |
			sed 's/^/; /' | tr -d '\n'))"
	else
		problem="the verdicts differ (system <, drop-in >):
$(diff "$out/$name.system.verdict" "$out/$name.hyla.verdict" | head -20)
$(cat "$out/$name.flips" 2>/dev/null | head -20)"
	fi
	passed=$(grep -c 'passed' "$out/$name.hyla.verdict" || true)
	if [ -n "$problem" ]; then
		failed=$((failed + 1))
		echo "FAILED: $name ($2 < $(basename "$input"), nb $nb): $problem"
	else
		echo "$name ($2 < $(basename "$input"), nb $nb): $verdicts ($passed passed);" \
			"hyla took$calls; $(ms "$t0" "$t1") ms system, $(ms "$t1" "$t2") ms drop-in"
	fi
}

# lin_input PREC [M/N values]: the QR paths of ?test.in (QR, QP, LS), with
# its sizes or the given ones.
lin_input() {
	path=$(echo "$1" | tr ds DS)
	{
		if [ -n "${2:-}" ]; then
			sed -n 1p "$testers/${1}test.in"
			printf '%s\n%s\n%s\n%s\n' "$(echo $2 | wc -w)" "$2" "$(echo $2 | wc -w)" "$2"
			sed -n 6,16p "$testers/${1}test.in"
		else
			sed -n 1,16p "$testers/${1}test.in"
		fi
		printf '%sQR    8\n%sQP    6\n%sLS    6\n' "$path" "$path" "$path"
	}
}
# larger IN FIRST LAST VALUES...: IN with lines FIRST..LAST (its sizes)
# replaced by the given lines.
larger() {
	in=$1 first=$2 last=$3
	shift 3
	sed -n "1,$((first - 1))p" "$testers/$in"
	printf '%s\n' "$@"
	sed -n "$((last + 1)),\$p" "$testers/$in"
}

# The CI set at block size 4; --full: at 4, 7 and hyla's own (0), with
# the larger matrices besides.
nbs=4
[ -z "$full" ] || nbs="4 7 0"
larger nep.in 2 3 3 "40 64 100" >"$out/nep_large.in"
for p in ${HYLA_LAPACK_TESTERS_PRECS:-d s}; do
	lin_input $p >"$out/${p}qr.in"
	lin_input $p "1 20 64 100" >"$out/${p}qr_large.in"
	for nb in $nbs; do
		s=${full:+_nb$nb}
		run ${p}nep$s xeigtst$p "$testers/nep.in" $nb "gehrd orghr"
		run ${p}sep$s xeigtst$p "$testers/sep.in" $nb "sytrd orgqr syevd"
		run ${p}svd$s xeigtst$p "$testers/svd.in" $nb "gebrd geqrf orgqr gesdd"
		run ${p}ed$s xeigtst$p "$testers/${p}ed.in" $nb "gehrd orghr"
		run ${p}sg$s xeigtst$p "$testers/${p}sg.in" $nb "sytrd"
		run ${p}gqr$s xeigtst$p "$testers/gqr.in" $nb "geqrf orgqr"
		run ${p}glm$s xeigtst$p "$testers/glm.in" $nb "geqrf"
		run ${p}lse$s xeigtst$p "$testers/lse.in" $nb "geqrf"
		run ${p}qr$s xlintst$p "$out/${p}qr.in" $nb "geqrf orgqr gebrd"
		[ -n "$full" ] || continue
		run ${p}nep_large$s xeigtst$p "$out/nep_large.in" $nb "gehrd orghr"
		run ${p}qr_large$s xlintst$p "$out/${p}qr_large.in" $nb "geqrf orgqr gebrd"
	done
done
if [ "$failed" != 0 ]; then
	echo "lapack-testers: $failed run(s) FAILED (outputs in $out)"
	exit 1
fi
echo "lapack-testers: all runs equal to the system LAPACK's: pass"
