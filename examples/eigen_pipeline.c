/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* eigen_pipeline: hyla inside an application's own StarPU task graph.
 *
 * The application starts StarPU, registers its own n-by-n matrix (leading
 * dimension n + 3) as a StarPU handle and fills it with a task of its own;
 * hyla_matrix_wrap makes that handle an hyla matrix without a copy (StarPU's
 * partitioning waits for the fill there). Then, without waiting in between:
 *   1. hyla's Hessenberg reduction (hyla_dgehrd_async);
 *   2. its own task that computes the eigenvalues of H with LAPACK dhseqr,
 *      on the matrix's panels (hyla_matrix_panel).
 * StarPU's data dependencies order the two. It then waits once (for its
 * eigenvalues), gives the handle back (hyla_matrix_destroy), and compares
 * the eigenvalues with LAPACK dgeev's on the same matrix.
 * Usage: eigen_pipeline [N [NB]]; exit status 0 when they agree. */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hyla_async.h"
#include "program.h"
#ifdef STARPU_USE_CUDA
#include <starpu_cublas_v2.h>
#endif

/* Entry (i, j) of the test matrix: a fixed pseudo-random value in [-1, 1). */
static double entry(int64_t i, int64_t j)
{
	uint64_t x = (uint64_t)(i * 7919 + j * 104729 + 17) * 0x9E3779B97F4A7C15ull;
	x ^= x >> 31;
	x *= 0xBF58476D1CE4E5B9ull;
	x ^= x >> 29;
	return (double)(x >> 11) * 0x1p-52 - 1;
}

/* The application's fill: columns from the argument's index on. */
static void fill_cpu(void *buffers[], void *arg)
{
	int64_t col;
	starpu_codelet_unpack_args(arg, &col, 0);
	double *a = (double *)STARPU_MATRIX_GET_PTR(buffers[0]);
	int64_t m = STARPU_MATRIX_GET_NX(buffers[0]), w = STARPU_MATRIX_GET_NY(buffers[0]);
	int64_t ld = STARPU_MATRIX_GET_LD(buffers[0]);
	for (int64_t j = 0; j < w; j++)
		for (int64_t i = 0; i < m; i++)
			a[i + j * ld] = entry(i, col + j);
}

static struct starpu_codelet fill_cl = {
	.cpu_funcs = {fill_cpu},
	.nbuffers = 1,
	.modes = {STARPU_W},
	.name = "app_fill",
};

/* 2. Eigenvalues of H (the panels, views of one matrix in host memory, R)
 * into wr and wi (W), from a copy: dhseqr overwrites its input. */
static void eigenvalues_cpu(void *buffers[], void *arg)
{
	(void)arg;
	int nbuf = (int)STARPU_TASK_GET_NBUFFERS(starpu_task_get_current());
	const double *h = (const double *)STARPU_MATRIX_GET_PTR(buffers[2]);
	int64_t n = STARPU_MATRIX_GET_NX(buffers[2]), ld = STARPU_MATRIX_GET_LD(buffers[2]);
	double *wr = (double *)STARPU_VECTOR_GET_PTR(buffers[0]);
	double *wi = (double *)STARPU_VECTOR_GET_PTR(buffers[1]);
	double *copy = malloc(sizeof *copy * (size_t)(n * n));
	if (!copy || nbuf < 3)
		abort();
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < n; i++)
			copy[i + j * n] = i <= j + 1 ? h[i + j * ld] : 0;
	lapack_int info = LAPACKE_dhseqr(LAPACK_COL_MAJOR, 'E', 'N', (lapack_int)n, 1, (lapack_int)n,
	                                 copy, (lapack_int)n, wr, wi, NULL, 1);
	if (info != 0)
		wr[0] = NAN;
	free(copy);
}

static struct starpu_codelet eigenvalues_cl = {
	.cpu_funcs = {eigenvalues_cpu},
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "app_dhseqr",
};

static int by_value(const void *x, const void *y)
{
	const double *a = x, *b = y;
	return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) : (a[1] < b[1] ? -1 : a[1] > b[1]);
}

/* Largest distance between the two spectra, sorted the same way. */
static double spectra_distance(int64_t n, const double *wr, const double *wi, const double *vr,
                               const double *vi)
{
	double *p = malloc(sizeof *p * (size_t)(4 * n)), *q = p + 2 * n, dist = 0;
	for (int64_t i = 0; i < n; i++) {
		p[2 * i] = wr[i], p[2 * i + 1] = wi[i];
		q[2 * i] = vr[i], q[2 * i + 1] = vi[i];
	}
	qsort(p, (size_t)n, 2 * sizeof *p, by_value);
	qsort(q, (size_t)n, 2 * sizeof *q, by_value);
	for (int64_t i = 0; i < n; i++)
		dist = fmax(dist, hypot(p[2 * i] - q[2 * i], p[2 * i + 1] - q[2 * i + 1]));
	free(p);
	return dist;
}

int main(int argc, char **argv)
{
	program_options(argc, argv, "eigen_pipeline",
	                "usage: eigen_pipeline [N [NB]]\n"
	                "hyla inside an application's StarPU task graph: its own handle filled by its task,\n"
	                "wrapped (hyla_matrix_wrap), reduced to Hessenberg form (hyla_dgehrd_async), its\n"
	                "eigenvalues taken by its own dhseqr task, one wait; compared with dgeev.\n"
	                "N: order (default 600), NB: panel width (default 64). Exit 0 when they agree.\n");
	int64_t n = argc > 1 ? atoll(argv[1]) : 600, nb = argc > 2 ? atoll(argv[2]) : 64;
	if (n < 2 || nb < 1) {
		fprintf(stderr, "eigen_pipeline: usage: eigen_pipeline [N >= 2 [NB >= 1]]\n");
		return 2;
	}
	openblas_set_num_threads(1); /* one core a CPU worker: no BLAS threads of its own */
	if (starpu_init(NULL) != 0)
		return 77;
#ifdef STARPU_USE_CUDA
	starpu_cublas_init();
#endif
	int64_t ld = n + 3, col = 0;
	double *a = malloc(sizeof *a * (size_t)(ld * n)), *tau = malloc(sizeof *tau * (size_t)n);
	double *wr = malloc(sizeof *wr * (size_t)(4 * n)), *wi = wr + n, *vr = wi + n, *vi = vr + n;
	if (!a || !tau || !wr)
		return 1;
	starpu_data_handle_t own, hwr, hwi;
	starpu_matrix_data_register(&own, STARPU_MAIN_RAM, (uintptr_t)a, (uint32_t)ld, (uint32_t)n,
	                            (uint32_t)n, sizeof *a);
	int ret = starpu_task_insert(&fill_cl, STARPU_W, own, STARPU_VALUE, &col, sizeof col, 0);
	hyla_matrix *A = hyla_matrix_wrap(own, nb);
	hyla_sequence *seq = hyla_sequence_create();
	if (!A || !seq)
		return 1;
	starpu_vector_data_register(&hwr, STARPU_MAIN_RAM, (uintptr_t)wr, (uint32_t)n, sizeof *wr);
	starpu_vector_data_register(&hwi, STARPU_MAIN_RAM, (uintptr_t)wi, (uint32_t)n, sizeof *wi);

	int64_t panels = hyla_matrix_panels(A);
	if (ret == 0)
		ret = hyla_dgehrd_async(A, tau, NULL, seq);
	struct starpu_data_descr *d = malloc(sizeof *d * (size_t)(panels + 2));
	d[0] = (struct starpu_data_descr){hwr, STARPU_W};
	d[1] = (struct starpu_data_descr){hwi, STARPU_W};
	for (int64_t k = 0; k < panels; k++)
		d[2 + k] = (struct starpu_data_descr){hyla_matrix_panel(A, k), STARPU_R};
	if (ret == 0)
		ret = starpu_task_insert(&eigenvalues_cl, STARPU_DATA_MODE_ARRAY, d, (int)(panels + 2), 0);
	free(d);

	starpu_data_unregister(hwr); /* waits for the eigenvalues' task */
	starpu_data_unregister(hwi);
	int info = hyla_sequence_wait(seq);
	hyla_matrix_destroy(A); /* the handle is the application's again */
	starpu_data_unregister(own);

	/* LAPACK dgeev on the same matrix. */
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < n; i++)
			a[i + j * n] = entry(i, j);
	double norm = LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', (lapack_int)n, (lapack_int)n, a,
	                             (lapack_int)n);
	lapack_int geev = LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', (lapack_int)n, a, (lapack_int)n,
	                                vr, vi, NULL, 1, NULL, 1);
	double dist = spectra_distance(n, wr, wi, vr, vi), tol = 1e3 * n * 0x1p-53 * norm;
	int ok = ret == 0 && info == 0 && geev == 0 && dist <= tol;
	printf("eigen_pipeline n=%lld nb=%lld: fill task, its handle wrapped -> hyla_dgehrd_async -> "
	       "dhseqr task, one wait; "
	       "max |lambda - lambda_dgeev| = %.2e (tol %.1e) %s\n",
	       (long long)n, (long long)nb, dist, tol, ok ? "pass" : "FAILED");
	hyla_sequence_destroy(seq);
	free(a), free(tau), free(wr);
#ifdef STARPU_USE_CUDA
	starpu_cublas_shutdown();
#endif
	starpu_shutdown();
	return !ok;
}
