/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The distributed tall-skinny QR (include/hyla_mpi.h) on a random M-by-N
 * matrix whose rows are spread evenly over the MPI ranks: each rank makes
 * its own rows (entry (i, j) a function of the seed, i and j alone, so the
 * matrix is the same on any number of ranks), then hyla_rows_qr. Rank 0
 * prints one result line. The check: ||A - QR||_F / ||A||_F and
 * ||I - Q^T Q||_F at most 30 n eps, and R against LAPACK's dgeqrf on the
 * whole matrix gathered on rank 0 (rows' signs aligned) within
 * 10 n eps cond(A).
 *   mpirun -np P qr_rows M N [--prec d|s] [--no-check] [--repeat K] [--seed S] */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "graded_matrix.h"
#include "hyla_mpi.h"
#include "program.h"

static const char *usage =
	"usage: mpirun -np P qr_rows M N [options]\n"
	"QR (A = QR, M >= N) of a random M-by-N matrix whose rows are spread over the MPI ranks,\n"
	"by hyla's distributed CholeskyQR2 over StarPU-MPI (condition number 1e3).\n\n"
	"  --prec P     d (double) or s (single); default d\n"
	"  --check      check Q, R and R against LAPACK's (default)\n"
	"  --no-check   skip the checks\n"
	"  --repeat K   run K times, report the fastest (default 1)\n"
	"  --seed S     random matrix seed (default 1)\n";

static int fail(int rank, const char *msg)
{
	if (rank == 0)
		fprintf(stderr, "qr_rows: error: %s\n", msg);
	return 2;
}

/* The checks on the double copies a0 (A) and q (Q) of this rank's rows and
 * R: sums over the ranks; on rank 0 also R against LAPACK's. */
static int check(MPI_Comm comm, int rank, int size, int64_t m, int64_t n, int64_t mloc,
                 const double *a0, const double *q, const double *r, double eps, char *line,
                 size_t len)
{
	double *diff = malloc(sizeof *diff * (size_t)(mloc * n + 1));
	double *g = calloc((size_t)(n * n), sizeof *g), sums[2] = {0, 0}, all[2];
	if (!diff || !g)
		return -1;
	/* A - QR, this rank's rows. */
	memcpy(diff, q, sizeof *diff * (size_t)(mloc * n));
	if (mloc > 0)
		cblas_dtrmm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit,
		            (int)mloc, (int)n, 1, r, (int)n, diff, (int)mloc);
	for (int64_t k = 0; k < mloc * n; k++) {
		sums[0] += (a0[k] - diff[k]) * (a0[k] - diff[k]);
		sums[1] += a0[k] * a0[k];
	}
	MPI_Allreduce(sums, all, 2, MPI_DOUBLE, MPI_SUM, comm);
	if (mloc > 0)
		cblas_dsyrk(CblasColMajor, CblasUpper, CblasTrans, (int)n, (int)mloc, 1, q, (int)mloc, 0,
		            g, (int)n);
	MPI_Reduce(rank ? g : MPI_IN_PLACE, g, (int)(n * n), MPI_DOUBLE, MPI_SUM, 0, comm);
	/* The whole A on rank 0, LAPACK's R. */
	int *counts = malloc(sizeof *counts * (size_t)size), *displs = malloc(sizeof *displs * (size_t)size);
	double *whole = rank == 0 ? malloc(sizeof *whole * (size_t)(m * n)) : NULL;
	int ok = counts && displs && (rank || whole), all_ok;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
	ok = all_ok;
	double r_diff = 0;
	int here = (int)mloc;
	if (ok)
		MPI_Gather(&here, 1, MPI_INT, counts, 1, MPI_INT, 0, comm);
	for (int p = 0, at = 0; ok && rank == 0 && p < size; at += counts[p++])
		displs[p] = at;
	for (int64_t j = 0; ok && j < n; j++) /* column by column: the ranks' rows in order */
		MPI_Gatherv(a0 + j * mloc, here, MPI_DOUBLE, whole ? whole + j * m : NULL, counts, displs,
		            MPI_DOUBLE, 0, comm);
	double orth = 0, resid = sqrt(all[0] / all[1]);
	if (rank == 0 && ok) {
		for (int64_t j = 0; j < n; j++)
			for (int64_t i = 0; i <= j; i++) {
				double d = (i == j) - g[i + j * n];
				orth += (i == j ? 1 : 2) * d * d;
			}
		orth = sqrt(orth);
		double *tau = malloc(sizeof *tau * (size_t)n), rnorm = 0;
		ok = tau && LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (int)m, (int)n, whole, (int)m, tau) == 0;
		for (int64_t i = 0; ok && i < n; i++) {
			double s = (whole[i + i * m] < 0) == (r[i + i * n] < 0) ? 1 : -1;
			for (int64_t j = i; j < n; j++) {
				r_diff = fmax(r_diff, fabs(s * whole[i + j * m] - r[i + j * n]));
				rnorm = fmax(rnorm, fabs(r[i + j * n]));
			}
		}
		r_diff /= rnorm;
		free(tau);
	}
	double tol = 30 * (double)n * eps, rtol = 10 * (double)n * eps * pow(10, COND_DIGITS);
	int pass = ok && resid <= tol && orth <= tol && r_diff <= rtol;
	snprintf(line, len, " orth=%.2e resid=%.2e (tol %.1e) r_vs_lapack=%.2e (tol %.1e) check=%s",
	         orth, resid, tol, r_diff, rtol, pass ? "pass" : "FAILED");
	MPI_Bcast(&pass, 1, MPI_INT, 0, comm);
	free(diff), free(g), free(counts), free(displs), free(whole);
	return pass;
}

int main(int argc, char **argv)
{
	int provided, rank, size;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
	MPI_Comm comm = MPI_COMM_WORLD;
	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	if (rank == 0)
		program_options(argc, argv, "qr_rows", usage);
	else
		for (int i = 1; i < argc; i++)
			if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "--version"))
				exit(0);
	int64_t m = 0, n = 0, seed = 1, repeat = 1, sizes = 0;
	char prec = 'd';
	int checking = 1, ret = 0;
	for (int i = 1; i < argc && !ret; i++) {
		char *end;
		if (!strcmp(argv[i], "--no-check") || !strcmp(argv[i], "--check"))
			checking = !strcmp(argv[i], "--check");
		else if (!strcmp(argv[i], "--prec") && i + 1 < argc && strlen(argv[i + 1]) == 1 &&
		         strchr("ds", argv[i + 1][0]))
			prec = argv[++i][0];
		else if ((!strcmp(argv[i], "--repeat") || !strcmp(argv[i], "--seed")) && i + 1 < argc &&
		         (strtoll(argv[i + 1], &end, 10), *end == 0) && strtoll(argv[i + 1], NULL, 10) > 0) {
			int64_t *value = !strcmp(argv[i], "--repeat") ? &repeat : &seed;
			*value = strtoll(argv[i + 1], NULL, 10);
			i++;
		}
		else if (argv[i][0] != '-' && sizes < 2 && (strtoll(argv[i], &end, 10), *end == 0) &&
		         strtoll(argv[i], NULL, 10) > 0)
			*(sizes++ ? &n : &m) = strtoll(argv[i], NULL, 10);
		else
			ret = fail(rank, "bad argument (qr_rows --help lists them)");
	}
	if (!ret && (sizes != 2 || m < n))
		ret = fail(rank, "give M and N with M >= N >= 1");
	if (!ret && hyla_mpi_init(comm) != HYLA_SUCCESS)
		ret = 1;
	if (ret) {
		MPI_Finalize();
		return ret;
	}
	int64_t row0 = m * rank / size, mloc = m * (rank + 1) / size - row0;
	size_t es = prec == 'd' ? sizeof(double) : sizeof(float);
	double *a0 = malloc(sizeof *a0 * (size_t)(mloc * n + 1)), *q = malloc(sizeof *q * (size_t)(mloc * n + 1));
	double *r = malloc(sizeof *r * (size_t)(n * n));
	void *work = malloc(es * (size_t)(mloc * n + 1)), *rw = calloc((size_t)(n * n), es);
	if (!a0 || !q || !r || !work || !rw) {
		hyla_mpi_finalize();
		MPI_Finalize();
		return fail(rank, "no memory");
	}
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < mloc; i++)
			a0[i + j * mloc] = entry((uint64_t)seed, row0 + i, j, n);
	double best = INFINITY;
	int info = 0;
	for (int64_t k = 0; k < repeat && !info; k++) {
		for (int64_t x = 0; x < mloc * n; x++)
			if (prec == 'd')
				((double *)work)[x] = a0[x];
			else
				((float *)work)[x] = (float)a0[x];
		hyla_rows *a = hyla_rows_create(comm, work, es, mloc, n, mloc > 0 ? mloc : 1);
		if (!a) {
			info = -1;
			break;
		}
		MPI_Barrier(comm);
		double t0 = MPI_Wtime();
		info = hyla_rows_qr(a, rw, n);
		hyla_rows_destroy(a);
		double t = MPI_Wtime() - t0, slowest;
		MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
		best = fmin(best, slowest);
	}
	char line[256] = "";
	int pass = 1;
	if (!info && checking) {
		for (int64_t x = 0; x < mloc * n; x++)
			q[x] = prec == 'd' ? ((double *)work)[x] : ((float *)work)[x];
		for (int64_t x = 0; x < n * n; x++)
			r[x] = prec == 'd' ? ((double *)rw)[x] : ((float *)rw)[x];
		pass = check(comm, rank, size, m, n, mloc, a0, q, r,
		             prec == 'd' ? 0x1p-53 : 0x1p-24, line, sizeof line) == 1;
	}
	if (rank == 0 && info)
		fprintf(stderr, "qr_rows: error: hyla_rows_qr returned %d (%s)\n", info,
		        info > 0 ? "the Gram matrix is not positive definite" : hyla_strerror(info));
	if (rank == 0 && !info)
		printf("qr_rows m=%lld n=%lld prec=%c ranks=%d cpus=%d cuda=%d time=%.4f s gflops=%.1f%s\n",
		       (long long)m, (long long)n, prec, size, hyla_ncpus(), hyla_ncuda(), best,
		       4.0 * (double)m * (double)n * (double)n / best / 1e9, line);
	free(a0), free(q), free(r), free(work), free(rw);
	hyla_mpi_finalize();
	MPI_Finalize();
	return info ? 1 : pass ? 0 : 1;
}
