#!/bin/sh
# Each bad command line must exit with status 2 and one line on stderr.
# Usage: bad_input.sh DRIVER (qr_mgs takes M [N], the others N).
drv=$1
fails=0
expect_usage_error() {
	err=$("$drv" "$@" 2>&1 >/dev/null)
	status=$?
	lines=$(printf '%s\n' "$err" | wc -l)
	if [ "$status" -ne 2 ] || [ "$lines" -ne 1 ]; then
		echo "FAILED: $(basename "$drv") $*: status $status, stderr: $err"
		fails=$((fails + 1))
	else
		echo "ok: $(basename "$drv") $* -> $err"
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
	;;
esac
exit $fails
