#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# Each bad command line must exit with status 2 and one line on stderr.
# Usage: bad_input.sh DRIVER (the QR drivers take M [N], the others N).
drv=$1
fails=0
run_env=
expect_usage_error() {
	err=$(env $run_env "$drv" "$@" 2>&1 >/dev/null)
	status=$?
	lines=$(printf '%s\n' "$err" | wc -l)
	if [ "$status" -ne 2 ] || [ "$lines" -ne 1 ] || [ -z "$err" ]; then
		echo "FAILED: $run_env $(basename "$drv") $*: status $status, stderr: $err"
		fails=$((fails + 1))
	elif [ -n "$want" ] && ! printf '%s\n' "$err" | grep -qF -- "$want"; then
		echo "FAILED: $run_env $(basename "$drv") $*: the message does not name $want: $err"
		fails=$((fails + 1))
	else
		echo "ok: $run_env $(basename "$drv") $* -> $err"
	fi
}
# expect_naming WORD ARGS...: the same, and the message names WORD (the
# argument at fault).
want=
expect_naming() {
	want=$1
	shift
	expect_usage_error "$@"
	want=
}
expect_usage_error
expect_usage_error 0
expect_usage_error -5
expect_usage_error abc
expect_usage_error 12x
expect_usage_error 99999999999999999999
expect_usage_error 100 --nb 0
expect_usage_error 100 --nb -3
expect_usage_error 100 --prec z
expect_usage_error 100 --repeat 0
expect_usage_error 100 --bogus
expect_usage_error 100 50 20
expect_usage_error 100 --nb
expect_usage_error 100 --prec
expect_naming "'-12'" -12
expect_naming "'-5'" -5
expect_naming "'-50'" 100 -50
expect_naming "'-50'" -50 100
expect_naming "'0'" 0
expect_naming "'abc'" 100 abc
expect_naming "'--bogus'" 100 --bogus
expect_naming "'--bogus'" --bogus 100
expect_naming "'-x'" 100 -x
expect_naming "'--nb'" 100 --nb
expect_naming "'--check=1'" 100 --check=1
expect_naming "'--re'" 100 --re
# Matrix files: each malformed one must be refused with one line.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
npy() { # npy FILE DICT DATA-BYTES: a .npy v1 file with that header dict
	len=$(printf '%s\n' "$2" | wc -c)
	printf '\223NUMPY\001\000'"\\$(printf %o "$len")"'\000%s\n' "$2" > "$1"
	head -c "$3" /dev/zero >> "$1"
}
npy "$dir/ok.npy" "{'descr': '<f8', 'fortran_order': False, 'shape': (4, 4), }" 128
npy "$dir/short.npy" "{'descr': '<f8', 'fortran_order': False, 'shape': (4, 4), }" 100
npy "$dir/int.npy" "{'descr': '<i4', 'fortran_order': False, 'shape': (4, 4), }" 64
npy "$dir/big_endian.npy" "{'descr': '>f8', 'fortran_order': False, 'shape': (4, 4), }" 128
npy "$dir/vector.npy" "{'descr': '<f8', 'fortran_order': False, 'shape': (16,), }" 128
npy "$dir/empty.npy" "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 4), }" 0
npy "$dir/huge.npy" "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999, 4), }" 0
npy "$dir/garbled.npy" "{'descr': '<f8', 'fortran_order': Maybe, 'shape': (4, 4), }" 128
npy "$dir/no_comma.npy" "{'descr': '<f8', 'fortran_order': False, 'shape': (4 4), }" 128
npy "$dir/false.npy" "{'descr': '<f8', 'fortran_order': Falsehood, 'shape': (4, 4), }" 128
npy "$dir/lying.npy" "{'descr': '<f8', 'fortran_order': False, 'shape': (4, 4), }" 136
# lying.npy: its header length says 8 bytes more than the dict and padding have
printf '\\%o' "$(( $(od -An -tu1 -j8 -N1 "$dir/lying.npy") + 8 ))" | xargs -0 printf |
	dd of="$dir/lying.npy" bs=1 seek=8 conv=notrunc status=none
printf '\223NUMPY\001' > "$dir/cut_header.npy"
mm='%%MatrixMarket matrix'
printf '%s coordinate real general\n4 4 1\n1 1 1.0\n' "$mm" > "$dir/sparse.mtx"
printf '%s array complex general\n2 2\n1 0\n2 0\n3 0\n4 0\n' "$mm" > "$dir/complex.mtx"
printf '%s array real general\n2 2\n1\n2\n3\n' "$mm" > "$dir/truncated.mtx"
printf '%s array real general\n2 2\n1\n2\nthree\n4\n' "$mm" > "$dir/word.mtx"
printf '%s array real general\n2 2\n1\n2\n3\n4\n5\n' "$mm" > "$dir/extra.mtx"
printf '%s array real general\n2 x\n' "$mm" > "$dir/size.mtx"
printf '%s array real symmetric\n2 3\n' "$mm" > "$dir/sym_rect.mtx"
printf '%s array real general\n2 2\n1\nnan\n3\n4\n' "$mm" > "$dir/nan.mtx"
printf '%s array real general\n1 1\n1%0200d\n' "$mm" 0 > "$dir/long_word.mtx"
printf 'hello\n' > "$dir/text.mtx"
for f in short int big_endian vector empty huge garbled no_comma false lying cut_header; do
	expect_usage_error --input "$dir/$f.npy"
done
for f in sparse complex truncated word extra size sym_rect nan long_word text; do
	expect_usage_error --input "$dir/$f.mtx"
done
expect_usage_error --input "$dir/missing.npy"
expect_naming "'4'" --input "$dir/ok.npy" 4
expect_naming "--output $dir/no/such/dir/out.npy" --input "$dir/ok.npy" --output "$dir/no/such/dir/out.npy"
expect_naming "--output /proc/version" 100 --output /proc/version
expect_naming "--trace $dir/no/such/dir/t.svg: cannot write there: No such file or directory" \
	100 --trace "$dir/no/such/dir/t.svg"
expect_naming "--trace $dir" 100 --trace "$dir"
expect_naming "--trace $dir/t.png: the chart is SVG" 100 --trace "$dir/t.png"

case $(basename "$drv") in
bidiag_reduce)
	expect_usage_error 2000000000 2000000000
	run_env=STARPU_NCUDA=0
	expect_usage_error 100 --require-gpu
	run_env=
	;;
qr_mgs | qr_cgs | qr_householder)
	expect_usage_error 100 200
	expect_usage_error 2000000000 2000000000
	expect_usage_error 100 --form diagonal
	expect_usage_error 100 --variant diagonal
	expect_usage_error 100 --variant vector --reorth
	expect_usage_error 100 --reorth --variant vector
	run_env=STARPU_NCUDA=0
	expect_usage_error 100 --cusolver
	run_env=
	;;
tridiag_reduce)
	printf '%s array real general\n2 2\n1\n2\n3\n4\n' "$mm" > "$dir/unsym.mtx"
	expect_usage_error --input "$dir/unsym.mtx"
	expect_usage_error --input "$dir/unsym.mtx" --triangle X
	expect_usage_error 100 --triangle L
	expect_usage_error 100 --uplo Q
	expect_naming "'50'" 100 50
	run_env=STARPU_NCUDA=0
	expect_usage_error 100 --require-gpu
	run_env=
	;;
svd)
	expect_naming "--kind applies" --input "$dir/ok.npy" --kind geometric
	expect_naming "'spiky'" 100 --kind spiky
	expect_usage_error 2000000000 2000000000
	run_env=STARPU_NCUDA=0
	expect_usage_error 100 --cusolver
	run_env=
	;;
eigh)
	printf '%s array real general\n2 2\n1\n2\n3\n4\n' "$mm" > "$dir/unsym.mtx"
	expect_usage_error --input "$dir/unsym.mtx"
	expect_usage_error --input "$dir/unsym.mtx" --triangle X
	expect_naming "--kind applies" --input "$dir/ok.npy" --kind known
	expect_usage_error 100 --triangle L
	expect_usage_error 100 --uplo Q
	expect_naming "'spiky'" 100 --kind spiky
	expect_naming "'50'" 100 50
	expect_usage_error 2000000000
	run_env=STARPU_NCUDA=0
	expect_usage_error 100 --cusolver
	run_env=
	;;
*)
	expect_naming "'50'" 100 50
	expect_usage_error 2000000000
	expect_usage_error 100 --panel fpga
	expect_usage_error 100 --panel
	printf '%s array real general\n3 2\n1\n2\n3\n4\n5\n6\n' "$mm" > "$dir/wide.mtx"
	expect_usage_error --input "$dir/wide.mtx"
	run_env=STARPU_NCUDA=0
	expect_usage_error 100 --panel gpu
	expect_usage_error 100 --require-gpu
	run_env=
	;;
esac
# StarPU settings that would make starpu_init abort: refused before it runs.
for setting in STARPU_NCPU=abc STARPU_NCPU=-1 STARPU_NCUDA=1x STARPU_SCHED=no-such-scheduler \
	STARPU_HOME=/proc/no/such/home; do
	run_env=$setting
	expect_naming "${setting%%=*}" 40
done
run_env=
exit $fails
