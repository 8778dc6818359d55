#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# What the distributed tall-skinny QR sends between ranks (StarPU-MPI's
# STARPU_COMM_STATS), on 3 ranks: each rank's rows stay home; a rank other
# than 0 sends its Gram sum each pass (2 n^2 values), rank 0 sends each
# other rank the two passes' factors and R (3 n^2 values) and the two
# statuses (2 ints), whatever the number of rows.
#   mpi_traffic.sh MPIEXEC QR_ROWS
set -u
mpiexec=$1 qr_rows=$2
n=40
for m in 2000 20000; do
	out=$(STARPU_COMM_STATS=1 "$mpiexec" -n 3 "$qr_rows" $m $n 2>&1)
	echo "$out" | grep -q "check=pass" || { echo "FAILED: qr_rows $m $n: $out" | head -20; exit 1; }
	for r in 1 2; do
		sent=$(echo "$out" | sed -n "s/^\[starpu_comm_stats\]\[$r:0\][[:space:]]*\([0-9]*\)\..*/\1/p")
		[ "$sent" = $((2 * n * n * 8)) ] || { echo "FAILED: m=$m: rank $r sent rank 0 '$sent' bytes"; exit 1; }
		sent=$(echo "$out" | sed -n "s/^\[starpu_comm_stats\]\[0:$r\][[:space:]]*\([0-9]*\)\..*/\1/p")
		[ "$sent" = $((3 * n * n * 8 + 8)) ] || { echo "FAILED: m=$m: rank 0 sent rank $r '$sent' bytes"; exit 1; }
	done
done
echo "mpi traffic: 2n^2 values up and 3n^2 down a rank, at m = 2000 and 20000: pass"
