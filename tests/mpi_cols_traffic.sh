#!/bin/sh
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
# What the column-distributed Householder QR (geqrf, then orgqr) sends
# between ranks (StarPU-MPI's STARPU_COMM_STATS), on 3 ranks: each rank's
# panels stay home; in each call the owner of panel k sends its reflectors
# ((m - k nb) w values, w its width: not R's rows above them) and its T
# (w^2) once to each rank that owns a later panel, and after geqrf its tau
# (w) to every rank: nothing else.
#   mpi_cols_traffic.sh MPIEXEC QR_COLS
set -u
mpiexec=$1 qr_cols=$2
ranks=3 m=300 n=200 nb=32
out=$(STARPU_COMM_STATS=1 "$mpiexec" -n $ranks "$qr_cols" $m $n --nb $nb --no-check 2>&1)
echo "$out" | grep -q "^qr_cols " || { echo "FAILED: qr_cols $m $n: $out" | head -20; exit 1; }
fails=0
for s in $(seq 0 $((ranks - 1))); do
	for d in $(seq 0 $((ranks - 1))); do
		[ "$s" = "$d" ] && continue
		want=$(awk -v P=$ranks -v m=$m -v n=$n -v nb=$nb -v s="$s" -v d="$d" 'BEGIN {
			nt = int((n + nb - 1) / nb); bytes = 0
			for (k = 0; k < nt; k++) {
				if (k % P != s) continue
				w = n - k * nb < nb ? n - k * nb : nb
				later = 0
				for (j = k + 1; j < nt; j++) if (j % P == d) later = 1
				bytes += 8 * (w + (later ? 2 * ((m - k * nb) * w + w * w) : 0))
			}
			print bytes }')
		sent=$(echo "$out" | sed -n "s/^\[starpu_comm_stats\]\[$s:$d\][[:space:]]*\([0-9]*\)\..*/\1/p")
		if [ "${sent:-0}" != "$want" ]; then
			echo "FAILED: rank $s sent rank $d '$sent' bytes, want $want"
			fails=$((fails + 1))
		fi
	done
done
[ $fails -eq 0 ] || exit 1
echo "mpi cols traffic: each panel's reflectors and T once to each rank with later panels, tau to all: pass"
