/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The distributed Householder QR (include/hyla_mpi.h) of a random M-by-N
 * matrix in column panels dealt block-cyclically over the MPI ranks: each
 * rank makes its own panels (entry (i, j) a function of the seed, i and j
 * alone, so the matrix is the same on any number of ranks), then
 * hyla_cols_geqrf and hyla_cols_orgqr. Rank 0 prints one result line. The
 * check (the matrix gathered on rank 0 after each call, outside the
 * timings): ||A - QR||_F / ||A||_F and ||I - Q^T Q||_F at most 30 n eps,
 * and R against LAPACK's dgeqrf on the same matrix (rows' signs aligned)
 * within 10 n eps cond(A).
 *   mpirun -np P qr_cols M [N] [--nb B] [--prec d|s] [--no-check] [--repeat K] [--seed S] */
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
	"usage: mpirun -np P qr_cols M [N] [options]\n"
	"Householder QR (A = QR, M >= N; N = M by default) of a random M-by-N matrix whose column\n"
	"panels are dealt block-cyclically over the MPI ranks, by hyla over StarPU-MPI: LAPACK\n"
	"dgeqrf's output, then Q (dorgqr's). Condition number about 1e3.\n\n"
	"  --nb B       panel width (default 128)\n"
	"  --prec P     d (double) or s (single); default d\n"
	"  --check      check Q, R and R against LAPACK's (default)\n"
	"  --no-check   skip the checks\n"
	"  --repeat K   run K times, report the fastest (default 1)\n"
	"  --seed S     random matrix seed (default 1)\n";

static int fail(int rank, const char *msg)
{
	if (rank == 0)
		fprintf(stderr, "qr_cols: error: %s\n", msg);
	return 2;
}

/* This rank's panels of the matrix, in precision es. */
static void fill(void *local, size_t es, uint64_t seed, int64_t m, int64_t n, int64_t nb, int size,
                 int rank, int64_t nloc)
{
	for (int64_t c = 0; c < nloc; c++) {
		int64_t j = (c / nb * size + rank) * nb + c % nb;
		for (int64_t i = 0; i < m; i++) {
			double v = entry(seed, i, j, n);
			if (es == sizeof(double))
				((double *)local)[i + c * m] = v;
			else
				((float *)local)[i + c * m] = (float)v;
		}
	}
}

static double value(const void *p, size_t es, int64_t k)
{
	return es == sizeof(double) ? ((const double *)p)[k] : ((const float *)p)[k];
}

/* On rank 0: the checks of Q (q) and R (upper triangle of rr, leading
 * dimension m) against A, made again from the seed. */
static int check(uint64_t seed, int64_t m, int64_t n, const void *q, const void *rr, size_t es,
                 char *line, size_t len)
{
	double *a = malloc(sizeof *a * (size_t)(m * n)), *qd = malloc(sizeof *qd * (size_t)(m * n));
	double *r = calloc((size_t)(n * n), sizeof *r), *g = malloc(sizeof *g * (size_t)(n * n));
	double *tau = malloc(sizeof *tau * (size_t)n);
	if (!a || !qd || !r || !g || !tau) {
		free(a), free(qd), free(r), free(g), free(tau);
		snprintf(line, len, " check=FAILED (no memory)");
		return 0;
	}
	for (int64_t j = 0; j < n; j++) {
		for (int64_t i = 0; i < m; i++) {
			a[i + j * m] = entry(seed, i, j, n);
			qd[i + j * m] = value(q, es, i + j * m);
		}
		for (int64_t i = 0; i <= j; i++)
			r[i + j * n] = value(rr, es, i + j * m);
	}
	double eps = es == sizeof(double) ? 0x1p-53 : 0x1p-24, resid = 0, anorm = 0, orth = 0;
	cblas_dsyrk(CblasColMajor, CblasUpper, CblasTrans, (int)n, (int)m, 1, qd, (int)m, 0, g, (int)n);
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i <= j; i++)
			orth += (i == j ? 1 : 2) * ((i == j) - g[i + j * n]) * ((i == j) - g[i + j * n]);
	cblas_dtrmm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, (int)m, (int)n,
	            1, r, (int)n, qd, (int)m);
	for (int64_t k = 0; k < m * n; k++) {
		resid += (a[k] - qd[k]) * (a[k] - qd[k]);
		anorm += a[k] * a[k];
	}
	resid = sqrt(resid / anorm), orth = sqrt(orth);
	int ok = LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (int)m, (int)n, a, (int)m, tau) == 0;
	double r_diff = 0, rnorm = 0;
	for (int64_t i = 0; ok && i < n; i++) {
		double s = (a[i + i * m] < 0) == (r[i + i * n] < 0) ? 1 : -1;
		for (int64_t j = i; j < n; j++) {
			r_diff = fmax(r_diff, fabs(s * a[i + j * m] - r[i + j * n]));
			rnorm = fmax(rnorm, fabs(r[i + j * n]));
		}
	}
	r_diff /= rnorm;
	double tol = 30 * (double)n * eps, rtol = 10 * (double)n * eps * pow(10, COND_DIGITS);
	int pass = ok && resid <= tol && orth <= tol && r_diff <= rtol;
	snprintf(line, len, " orth=%.2e resid=%.2e (tol %.1e) r_vs_lapack=%.2e (tol %.1e) check=%s",
	         orth, resid, tol, r_diff, rtol, pass ? "pass" : "FAILED");
	free(a), free(qd), free(r), free(g), free(tau);
	return pass;
}

static double slowest(MPI_Comm comm, double t)
{
	double all;
	MPI_Allreduce(&t, &all, 1, MPI_DOUBLE, MPI_MAX, comm);
	return all;
}

int main(int argc, char **argv)
{
	int provided, rank, size;
	MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
	MPI_Comm comm = MPI_COMM_WORLD;
	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	if (rank == 0)
		program_options(argc, argv, "qr_cols", usage);
	else
		for (int i = 1; i < argc; i++)
			if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "--version"))
				exit(0);
	int64_t m = 0, n = 0, nb = 128, seed = 1, repeat = 1, sizes = 0;
	char prec = 'd';
	int checking = 1, ret = 0;
	for (int i = 1; i < argc && !ret; i++) {
		char *end;
		if (!strcmp(argv[i], "--no-check") || !strcmp(argv[i], "--check"))
			checking = !strcmp(argv[i], "--check");
		else if (!strcmp(argv[i], "--prec") && i + 1 < argc && strlen(argv[i + 1]) == 1 &&
		         strchr("ds", argv[i + 1][0]))
			prec = argv[++i][0];
		else if ((!strcmp(argv[i], "--repeat") || !strcmp(argv[i], "--seed") ||
		          !strcmp(argv[i], "--nb")) &&
		         i + 1 < argc && (strtoll(argv[i + 1], &end, 10), *end == 0) &&
		         strtoll(argv[i + 1], NULL, 10) > 0) {
			int64_t *v = !strcmp(argv[i], "--repeat") ? &repeat : !strcmp(argv[i], "--seed") ? &seed : &nb;
			*v = strtoll(argv[++i], NULL, 10);
		} else if (argv[i][0] != '-' && sizes < 2 && (strtoll(argv[i], &end, 10), *end == 0) &&
		           strtoll(argv[i], NULL, 10) > 0)
			*(sizes++ ? &n : &m) = strtoll(argv[i], NULL, 10);
		else
			ret = fail(rank, "bad argument (qr_cols --help lists them)");
	}
	if (sizes == 1)
		n = m;
	if (!ret && (sizes < 1 || m < n))
		ret = fail(rank, "give M (and N) with M >= N >= 1");
	if (!ret && hyla_mpi_init(comm) != HYLA_SUCCESS)
		ret = 1;
	if (ret) {
		MPI_Finalize();
		return ret;
	}
	size_t es = prec == 'd' ? sizeof(double) : sizeof(float);
	int64_t nloc = hyla_cols_local(n, nb, size, rank);
	void *local = malloc(es * (size_t)(m * nloc + 1)), *tau = malloc(es * (size_t)n);
	void *rr = rank == 0 && checking ? malloc(es * (size_t)(m * n)) : NULL;
	void *q = rank == 0 && checking ? malloc(es * (size_t)(m * n)) : NULL;
	int ok = local && tau && (rank || !checking || (rr && q)), all_ok;
	MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
	double best = INFINITY, best_geqrf = 0, best_orgqr = 0;
	int info = all_ok ? 0 : fail(rank, "no memory");
	for (int64_t k = 0; k < repeat && !info; k++) {
		int last = k + 1 == repeat;
		fill(local, es, (uint64_t)seed, m, n, nb, size, rank, nloc);
		hyla_cols *a = hyla_cols_create(comm, local, es, m, n, nb, m);
		if (!a) {
			info = 1;
			break;
		}
		MPI_Barrier(comm);
		double t0 = MPI_Wtime();
		info = hyla_cols_geqrf(a, tau);
		double t_geqrf = slowest(comm, MPI_Wtime() - t0);
		if (!info && last && checking)
			info = hyla_cols_gather(a, 0, rr, m);
		MPI_Barrier(comm);
		t0 = MPI_Wtime();
		if (!info)
			info = hyla_cols_orgqr(a, tau);
		double t_orgqr = slowest(comm, MPI_Wtime() - t0);
		if (!info && last && checking)
			info = hyla_cols_gather(a, 0, q, m);
		hyla_cols_destroy(a);
		if (t_geqrf + t_orgqr < best)
			best = t_geqrf + t_orgqr, best_geqrf = t_geqrf, best_orgqr = t_orgqr;
	}
	char line[256] = "";
	int pass = 1;
	if (!info && checking && rank == 0)
		pass = check((uint64_t)seed, m, n, q, rr, es, line, sizeof line);
	MPI_Bcast(&pass, 1, MPI_INT, 0, comm);
	if (rank == 0 && info)
		fprintf(stderr, "qr_cols: error: %d (%s)\n", info, hyla_strerror(info));
	double flops = 4 * (double)m * (double)n * (double)n - 4 * (double)n * (double)n * (double)n / 3;
	if (rank == 0 && !info)
		printf("qr_cols m=%lld n=%lld nb=%lld prec=%c ranks=%d cpus=%d cuda=%d time=%.4f s "
		       "geqrf_time=%.4f s orgqr_time=%.4f s gflops=%.1f%s\n",
		       (long long)m, (long long)n, (long long)nb, prec, size, hyla_ncpus(), hyla_ncuda(), best,
		       best_geqrf, best_orgqr, flops / best / 1e9, line);
	free(local), free(tau), free(rr), free(q);
	hyla_mpi_finalize();
	MPI_Finalize();
	return info ? 1 : pass ? 0 : 1;
}
