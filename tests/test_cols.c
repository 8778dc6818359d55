/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The column-distributed Householder QR's edges (include/hyla_mpi.h), on
 * any number of ranks (mpirun -np P test_cols):
 *   - the panels' split: hyla_cols_local's counts add up to n;
 *   - a gather gives back the matrix as made;
 *   - two panels only (ranks from the third on hold none, and give NULL
 *     for their panels): R and tau equal
 *     LAPACK's dgeqrf's, Q^T Q = I and A = QR;
 *   - bad arguments refused with NULL or -i, on every rank alike (ld < m
 *     on rank 0 only; m differing between ranks, where there are several;
 *     tau NULL on rank 0; fewer rows than columns; a bad root; a matrix
 *     before hyla_mpi_init).
 * Prints one line on rank 0; exit status 0 pass, 1 fail. */
#include <lapacke.h>
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

enum { M = 70, N = 20, NB = 10 }; /* two panels */

static double entry(int64_t i, int64_t j)
{
	return sin((double)(i + 1) * (double)(j + 2)) + (i == j);
}

/* This rank's panels (hyla_cols_local's columns), leading dimension M. */
static void fill(double *a)
{
	for (int64_t c = 0; c < hyla_cols_local(N, NB, size, rank); c++)
		for (int64_t i = 0; i < M; i++)
			a[i + c * M] = entry(i, (c / NB * size + rank) * NB + c % NB);
}

int main(int argc, char **argv)
{
	int provided;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm comm = MPI_COMM_WORLD;
	double a[M * N], whole[M * N], want[M * N], tau[N], want_tau[N];
	expect(hyla_cols_create(comm, a, sizeof(double), M, N, NB, M) == NULL,
	       "a matrix before hyla_mpi_init accepted");
	if (hyla_mpi_init(comm) != HYLA_SUCCESS) {
		MPI_Finalize();
		return 1;
	}
	int64_t sum = 0;
	for (int r = 0; r < size; r++)
		sum += hyla_cols_local(N, NB, size, r);
	expect(sum == N && hyla_cols_local(N, 0, size, 0) == -1 && hyla_cols_local(N, NB, size, size) == -1,
	       "hyla_cols_local's split");

	/* The gather, then the QR against LAPACK's on the gathered matrix. */
	fill(a);
	hyla_cols *h = hyla_cols_create(comm, hyla_cols_local(N, NB, size, rank) ? a : NULL,
	                                sizeof(double), M, N, NB, M);
	expect(h && hyla_cols_gather(h, 0, whole, M) == 0, "the gather failed");
	int same = 1;
	for (int64_t k = 0; rank == 0 && k < M * N; k++)
		same &= whole[k] == entry(k % M, k / M);
	expect(same, "the gather differs from the matrix made");
	int info = h ? hyla_cols_geqrf(h, tau) : -100;
	expect(info == 0 && hyla_cols_gather(h, 0, whole, M) == 0, "hyla_cols_geqrf failed");
	double r_diff = 0, tau_diff = 0;
	if (rank == 0) {
		for (int64_t k = 0; k < M * N; k++)
			want[k] = entry(k % M, k / M);
		LAPACKE_dgeqrf(LAPACK_COL_MAJOR, M, N, want, M, want_tau);
		for (int j = 0; j < N; j++) {
			tau_diff = fmax(tau_diff, fabs(tau[j] - want_tau[j]));
			for (int i = 0; i <= j; i++)
				r_diff = fmax(r_diff, fabs(whole[i + j * M] - want[i + j * M]));
		}
	}
	MPI_Bcast(&tau_diff, 1, MPI_DOUBLE, 0, comm);
	double tau0 = tau[0];
	MPI_Bcast(&tau0, 1, MPI_DOUBLE, 0, comm);
	expect(r_diff < 1e-13 && tau_diff < 1e-13, "R or tau differ from LAPACK's dgeqrf's");
	expect(tau[0] == tau0, "tau differs between ranks");
	info = h ? hyla_cols_orgqr(h, tau) : -100;
	expect(info == 0 && hyla_cols_gather(h, 0, whole, M) == 0, "hyla_cols_orgqr failed");
	double orth = 0, resid = 0;
	for (int j = 0; rank == 0 && j < N; j++)
		for (int k = 0; k < N; k++) {
			double g = 0;
			for (int i = 0; i < M; i++)
				g += whole[i + j * M] * whole[i + k * M];
			orth = fmax(orth, fabs(g - (j == k)));
		}
	for (int i = 0; rank == 0 && i < M; i++)
		for (int j = 0; j < N; j++) {
			double qr = 0;
			for (int k = 0; k <= j; k++)
				qr += whole[i + k * M] * want[k + j * M];
			resid = fmax(resid, fabs(qr - entry(i, j)));
		}
	MPI_Bcast(&orth, 1, MPI_DOUBLE, 0, comm);
	MPI_Bcast(&resid, 1, MPI_DOUBLE, 0, comm);
	expect(orth < 1e-13 && resid < 1e-12, "Q^T Q != I or A != QR");

	/* Bad arguments. */
	expect(hyla_cols_geqrf(h, rank == 0 ? NULL : tau) == -2, "tau NULL on rank 0 accepted");
	expect(hyla_cols_gather(h, size, whole, M) == -2, "a root past the ranks accepted");
	hyla_cols_destroy(h);
	h = hyla_cols_create(comm, a, sizeof(double), M, N, NB, rank == 0 ? M - 1 : M);
	expect(h == NULL, "ld < m on rank 0 accepted");
	h = hyla_cols_create(comm, a, sizeof(double), M - (rank == 0), N, NB, M);
	expect((h == NULL) == (size > 1), "m differing between ranks accepted (or one rank refused)");
	hyla_cols_destroy(h);
	h = hyla_cols_create(comm, a, 2, M, N, NB, M);
	expect(h == NULL, "elsize 2 accepted");
	h = hyla_cols_create(comm, a, sizeof(double), N - 1, N, NB, M);
	expect(h && hyla_cols_geqrf(h, tau) == -1, "fewer rows than columns accepted");
	hyla_cols_destroy(h);

	if (rank == 0)
		printf("cols edges on %d ranks: %s\n", size, failures ? "FAILED" : "pass");
	hyla_mpi_finalize();
	MPI_Finalize();
	return failures != 0;
}
