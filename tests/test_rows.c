/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The distributed tall-skinny QR's edges (include/hyla_mpi.h), on any
 * number of ranks (mpirun -np P test_rows):
 *   - the last rank with no rows: Q and R still right (Q^T Q = I, and
 *     A = QR on the rows there are);
 *   - a matrix whose last column is zero: hyla_rows_qr returns that
 *     column and every rank's rows are unchanged;
 *   - bad arguments refused with NULL or -i, on every rank alike (ld <
 *     mloc or ldr < n on rank 0 only; n differing between ranks, where
 *     there are several; a matrix before hyla_mpi_init).
 * Prints one line on rank 0; exit status 0 pass, 1 fail. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyla_mpi.h"

static int failures, rank, size;

static void expect(int ok, const char *what)
{
	int all;
	MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (!all && rank == 0)
		fprintf(stderr, "FAILED: %s\n", what);
	failures += !all;
}

/* This rank's mloc rows of an n-column matrix: entry (i, j) from the
 * global row; the last column zero if singular. */
static void fill(double *a, int64_t row0, int64_t mloc, int64_t n, int singular)
{
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < mloc; i++)
			a[i + j * mloc] = singular && j == n - 1 ? 0 : sin((double)(row0 + i + 1) * (double)(j + 1));
}

int main(int argc, char **argv)
{
	int provided;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	double one = 1;
	expect(hyla_rows_create(MPI_COMM_WORLD, &one, sizeof one, 1, 1, 1) == NULL,
	       "a matrix before hyla_mpi_init accepted");
	if (hyla_mpi_init(MPI_COMM_WORLD) != HYLA_SUCCESS) {
		MPI_Finalize();
		return 1;
	}
	enum { N = 12, PER_RANK = 40 };
	int64_t mloc = rank == size - 1 && size > 1 ? 0 : PER_RANK, row0 = (int64_t)rank * PER_RANK;
	double *a = malloc(sizeof *a * PER_RANK * N), *a0 = malloc(sizeof *a0 * PER_RANK * N);
	double r[N * N], g[N * N] = {0};

	/* The last rank without rows. */
	fill(a, row0, mloc, N, 0);
	memcpy(a0, a, sizeof *a * (size_t)(mloc * N));
	hyla_rows *h = hyla_rows_create(MPI_COMM_WORLD, a, sizeof(double), mloc, N, PER_RANK);
	int info = h ? hyla_rows_qr(h, r, N) : -100;
	hyla_rows_destroy(h);
	expect(info == 0, "an empty rank: hyla_rows_qr returned an error");
	double resid = 0;
	for (int64_t i = 0; i < mloc; i++)
		for (int j = 0; j < N; j++) {
			double qr = 0;
			for (int k = 0; k <= j; k++)
				qr += a[i + k * mloc] * r[k + j * N];
			resid = fmax(resid, fabs(qr - a0[i + j * mloc]));
			for (int k = 0; k < N; k++)
				g[k + j * N] += a[i + k * mloc] * a[i + j * mloc];
		}
	MPI_Allreduce(MPI_IN_PLACE, g, N * N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	double orth = 0;
	for (int k = 0; k < N * N; k++)
		orth = fmax(orth, fabs(g[k] - (k % (N + 1) == 0)));
	expect(resid < 1e-13 && orth < 1e-13, "an empty rank: A != QR or Q^T Q != I");

	/* A zero column: refused, the rows unchanged. */
	fill(a, row0, mloc, N, 1);
	memcpy(a0, a, sizeof *a * (size_t)(mloc * N));
	h = hyla_rows_create(MPI_COMM_WORLD, a, sizeof(double), mloc, N, PER_RANK);
	info = h ? hyla_rows_qr(h, r, N) : -100;
	hyla_rows_destroy(h);
	expect(info == N, "a zero column: not reported");
	expect(!memcmp(a, a0, sizeof *a * (size_t)(mloc * N)), "a zero column: A changed");

	/* Bad arguments, on one rank or differing between ranks. */
	h = hyla_rows_create(MPI_COMM_WORLD, a, sizeof(double), mloc, N, rank == 0 ? 1 : PER_RANK);
	expect(h == NULL, "ld < mloc on rank 0 accepted");
	h = hyla_rows_create(MPI_COMM_WORLD, a, sizeof(double), mloc, N - (rank == 0), PER_RANK);
	expect((h == NULL) == (size > 1), "n differing between ranks accepted (or one rank refused)");
	hyla_rows_destroy(h);
	h = hyla_rows_create(MPI_COMM_WORLD, a, 2, mloc, N, PER_RANK);
	expect(h == NULL, "elsize 2 accepted");
	h = hyla_rows_create(MPI_COMM_WORLD, a, sizeof(double), mloc, N, PER_RANK);
	expect(h && hyla_rows_qr(h, r, rank == 0 ? N - 1 : N) == -3, "ldr < n on rank 0 accepted");
	hyla_rows_destroy(h);

	if (rank == 0)
		printf("rows edges on %d ranks: %s\n", size, failures ? "FAILED" : "pass");
	free(a), free(a0);
	hyla_mpi_finalize();
	MPI_Finalize();
	return failures != 0;
}
