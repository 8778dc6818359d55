#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# The drivers' outputs never destroy data: an output (or a sibling, or the
# trace) that is the input, or another output, is refused before the run
# (exit 2, one line naming both); so is an unwritable sibling, leaving no
# file behind; a write that fails midway leaves the old file as it was and
# no temporary.  Usage: output_safety.sh BINDIR
bin=$1
fails=0
dir=$(mktemp -d)
trap 'chmod -R u+w "$dir"; rm -rf "$dir"' EXIT
cd "$dir" || exit 1
awk 'BEGIN { print "%%MatrixMarket matrix array real general"; print "40 40"; srand(7)
	for (k = 0; k < 1600; k++) print rand() - 0.5 }' > a.mtx
cp a.mtx a.orig

failed() {
	echo "FAILED: $*"
	fails=$((fails + 1))
}
# refused DRIVER ARGS... (after WORDS... --): exit 2, one stderr line holding
# every word, no file added or changed (a.mtx as it was).
refused() {
	words=
	while [ "$1" != -- ]; do words="$words $1"; shift; done
	shift
	before=$(ls -lA --time-style=+%s.%N)
	err=$("$bin/$@" 2>&1 >/dev/null)
	status=$?
	lines=$(printf '%s\n' "$err" | wc -l)
	cmp -s a.mtx a.orig || { failed "$*: the input a.mtx changed"; cp a.orig a.mtx; }
	if [ "$status" -ne 2 ] || [ "$lines" -ne 1 ]; then
		failed "$*: status $status (expected 2), stderr: $err"
		return
	fi
	for w in $words; do
		case $err in
		*"$w"*) ;;
		*) failed "$*: the message does not name '$w': $err"; return ;;
		esac
	done
	[ "$(ls -lA --time-style=+%s.%N)" = "$before" ] || failed "$*: the directory changed"
	echo "ok: $* -> $err"
}

# (b) An output that is the input, by any name, or two outputs that are one file.
refused a.mtx -- hr_reduce --input a.mtx --output a.mtx --no-check
refused a.mtx ./a.mtx -- hr_reduce --input a.mtx --output ./a.mtx --no-check
cp a.mtx x.r.npy # content tells the format, not the name
refused x.r.npy -- qr_mgs --input x.r.npy --output x.npy --no-check
cp a.mtx h.tau.mtx
refused h.tau.mtx -- hr_reduce --input h.tau.mtx --output h.mtx --no-check
cp a.mtx h.q.mtx
refused h.q.mtx -- hr_reduce --input h.q.mtx --output h.mtx --want-q --no-check
ln a.mtx hard.mtx
refused hard.mtx a.mtx -- hr_reduce --input a.mtx --output hard.mtx --no-check
ln -s a.mtx soft.mtx
refused soft.mtx a.mtx -- hr_reduce --input soft.mtx --output a.mtx --no-check
ln a.mtx a.svg # the input under the trace's name (read by its content)
refused --trace a.svg -- hr_reduce --input a.svg --trace a.svg --no-check
refused --trace o.tau.svg -- hr_reduce 40 --output o.svg --trace o.tau.svg --no-check
refused --trace o.r.svg -- qr_mgs 40 --output o.svg --trace ./o.r.svg --no-check
rm x.r.npy h.tau.mtx h.q.mtx hard.mtx soft.mtx a.svg

# (c) Every output is checked before the run: a sibling that cannot be
# written stops it with no main output written.
mkdir out.r.npy
refused out.r.npy -- qr_mgs 40 --output out.npy --no-check
mkdir h.q.npy
refused h.q.npy -- hr_reduce 40 --output h.npy --want-q --no-check
rmdir out.r.npy h.q.npy
mkdir t.tau.npy
refused t.tau.npy -- tridiag_reduce 40 --output t.npy --no-check
rmdir t.tau.npy
mkdir b.taup.npy
refused b.taup.npy -- bidiag_reduce 40 --output b.npy --no-check
rmdir b.taup.npy
if [ "$(id -u)" -ne 0 ]; then # root writes read-only files
	: > ro.tau.npy
	chmod a-w ro.tau.npy
	refused ro.tau.npy -- hr_reduce 40 --output ro.npy --no-check
	rm -f ro.tau.npy
fi

# (a) A write that fails midway (the file size limit) leaves the old file
# whole and no temporary; with SIGXFSZ ignored by the shell, and not.
limited() { # limited TRAP DRIVER ARGS...: the driver under a 512-byte file size limit
	t=$1
	shift
	sh -c "ulimit -f 1; $t exec \"\$@\"" sh "$bin/$@" > /dev/null 2> err.txt
}
head -c 30000 /dev/urandom > h.npy
cp h.npy h.orig
head -c 3000 /dev/urandom > h.tau.npy
cp h.tau.npy h.tau.orig
limited "trap '' XFSZ;" hr_reduce --input a.mtx --output h.npy --no-check
status=$?
[ "$status" -eq 1 ] || failed "hr_reduce under ulimit -f 1: status $status (expected 1): $(cat err.txt)"
cmp -s h.npy h.orig || failed "hr_reduce under ulimit -f 1: the old h.npy was not kept"
cmp -s h.tau.npy h.tau.orig || failed "hr_reduce under ulimit -f 1: the old h.tau.npy was not kept"
head -c 30000 /dev/urandom > q.npy
cp q.npy q.orig
limited "" qr_mgs 40 --output q.npy --no-check
status=$?
[ "$status" -eq 1 ] || failed "qr_mgs under ulimit -f 1: status $status (expected 1): $(cat err.txt)"
cmp -s q.npy q.orig || failed "qr_mgs under ulimit -f 1: the old q.npy was not kept"
head -c 30000 /dev/urandom > t.svg
cp t.svg t.orig
limited "trap '' XFSZ;" hr_reduce 40 --trace t.svg --no-check
status=$?
[ "$status" -eq 1 ] || failed "hr_reduce --trace under ulimit -f 1: status $status (expected 1): $(cat err.txt)"
cmp -s t.svg t.orig || failed "hr_reduce --trace under ulimit -f 1: the old t.svg was not kept"
ls | grep -q tmp && failed "temporaries left behind: $(ls | grep tmp)"

# Without a limit, the same commands replace the old files (through a
# symbolic link: its target), leaving no temporary.
ln -s q.npy qlink.npy
"$bin/hr_reduce" --input a.mtx --output h.npy --trace t.svg --no-check > /dev/null &&
	"$bin/qr_mgs" 40 --output qlink.npy --no-check > /dev/null ||
	failed "the unlimited runs failed"
cmp -s h.npy h.orig && failed "h.npy was not replaced"
cmp -s t.svg t.orig && failed "t.svg was not replaced"
cmp -s q.npy q.orig && failed "q.npy was not replaced through the link qlink.npy"
[ -L qlink.npy ] || failed "the link qlink.npy was replaced by a file"
[ -f qlink.r.npy ] || failed "qr_mgs wrote no R"
ls | grep -q tmp && failed "temporaries left behind: $(ls | grep tmp)"
[ "$fails" -eq 0 ] && echo "all passed"
exit $fails
