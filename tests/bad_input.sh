#!/bin/sh
# Each bad command line must exit with status 2 and one line on stderr.
# Usage: bad_input.sh DRIVER (qr_mgs takes M [N], the others N).
drv=$1
fails=0
run_env=
expect_usage_error() {
	err=$(env $run_env "$drv" "$@" 2>&1 >/dev/null)
	status=$?
	lines=$(printf '%s\n' "$err" | wc -l)
	if [ "$status" -ne 2 ] || [ "$lines" -ne 1 ]; then
		echo "FAILED: $run_env $(basename "$drv") $*: status $status, stderr: $err"
		fails=$((fails + 1))
	else
		echo "ok: $run_env $(basename "$drv") $* -> $err"
	fi
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
case $(basename "$drv") in
qr_mgs)
	expect_usage_error 100 200
	expect_usage_error 2000000000 2000000000
	expect_usage_error 100 --form diagonal
	;;
*)
	expect_usage_error 100 50
	expect_usage_error 2000000000
	expect_usage_error 100 --panel fpga
	expect_usage_error 100 --panel
	run_env=STARPU_NCUDA=0
	expect_usage_error 100 --panel gpu
	expect_usage_error 100 --require-gpu
	run_env=
	;;
esac
exit $fails
