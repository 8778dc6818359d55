/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* reorth_loop: Lyapunov exponents by repeated re-orthogonalisation (the use
 * of Gram-Schmidt in Brandes et al. 2012), with hyla inside the application's loop.
 *
 * The application evolves a block V of k vectors under a fixed n-by-n map
 * M (its own task: V = M V), and after every step re-orthonormalises V with
 * hyla's CGS2 (hyla_dcgs_async): V = Q R, R_t kept. All T steps are
 * submitted at once, no waiting in between; StarPU's dependencies order
 * them. The exponents are the averages of log R_t(i, i) over the last 3/4
 * of the steps (the first quarter lets the random start fade); with M
 * symmetric of eigenvalues lambda_i they tend to log |lambda_i| (the k
 * largest).
 * Usage: reorth_loop [N [K [T]]]; exit status 0 when they agree. */
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

/* The map's eigenvalues: lambda_i = 2 * 0.7^i (distinct, so the block's
 * directions converge to the leading eigenvectors). */
static double lambda(int64_t i)
{
	return 2 * pow(0.7, (double)i);
}

/* V = M V: buffers[0] is M (R), the others V's panels (RW, views of one
 * matrix in host memory). */
static void step_cpu(void *buffers[], void *arg)
{
	(void)arg;
	const double *m = (const double *)STARPU_MATRIX_GET_PTR(buffers[0]);
	int n = (int)STARPU_MATRIX_GET_NX(buffers[0]), ldm = (int)STARPU_MATRIX_GET_LD(buffers[0]);
	double *v = (double *)STARPU_MATRIX_GET_PTR(buffers[1]);
	int ldv = (int)STARPU_MATRIX_GET_LD(buffers[1]), k = 0;
	for (unsigned b = 1; b < STARPU_TASK_GET_NBUFFERS(starpu_task_get_current()); b++)
		k += (int)STARPU_MATRIX_GET_NY(buffers[b]);
	double *mv = malloc(sizeof *mv * (size_t)n * (size_t)k);
	if (!mv)
		abort();
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, k, n, 1, m, ldm, v, ldv, 0, mv, n);
	for (int j = 0; j < k; j++)
		memcpy(v + (size_t)j * ldv, mv + (size_t)j * n, sizeof *mv * (size_t)n);
	free(mv);
}

static struct starpu_codelet step_cl = {
	.cpu_funcs = {step_cpu},
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "app_step",
};

/* M = Q diag(lambda) Q^T with Q orthogonal (from a random matrix's QR). */
static int make_map(int64_t n, double *m)
{
	double *q = malloc(sizeof *q * (size_t)(n * n)), *ql = malloc(sizeof *ql * (size_t)(n * n));
	double *tau = malloc(sizeof *tau * (size_t)n);
	lapack_int seed[4] = {1, 2, 3, 5};
	int ret = !q || !ql || !tau ||
	          LAPACKE_dlarnv(2, seed, (lapack_int)(n * n), q) ||
	          LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)n, q, (lapack_int)n, tau) ||
	          LAPACKE_dorgqr(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)n, (lapack_int)n, q,
	                         (lapack_int)n, tau);
	for (int64_t j = 0; j < n && !ret; j++)
		for (int64_t i = 0; i < n; i++)
			ql[i + j * n] = q[i + j * n] * lambda(j);
	if (!ret)
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)n, (int)n, (int)n, 1, ql, (int)n,
		            q, (int)n, 0, m, (int)n);
	free(q), free(ql), free(tau);
	return ret;
}

int main(int argc, char **argv)
{
	program_options(argc, argv, "reorth_loop",
	                "usage: reorth_loop [N [K [T]]]\n"
	                "Lyapunov exponents of a symmetric N-by-N map by T steps of V = M V and\n"
	                "re-orthonormalisation with hyla_dcgs_async (K vectors), all submitted at once;\n"
	                "compared with log |lambda_i|. Defaults: N 300, K 8, T 80.\n");
	int64_t n = argc > 1 ? atoll(argv[1]) : 300, k = argc > 2 ? atoll(argv[2]) : 8;
	int64_t steps = argc > 3 ? atoll(argv[3]) : 80;
	if (n < 2 || k < 1 || k > n || steps < 1) {
		fprintf(stderr, "reorth_loop: usage: reorth_loop [N >= 2 [1 <= K <= N [T >= 1]]]\n");
		return 2;
	}
	openblas_set_num_threads(1); /* one core a CPU worker: no BLAS threads of its own */
	if (starpu_init(NULL) != 0)
		return 77;
#ifdef STARPU_USE_CUDA
	starpu_cublas_init();
#endif
	double *m = malloc(sizeof *m * (size_t)(n * n)), *v = malloc(sizeof *v * (size_t)(n * k));
	double *r = malloc(sizeof *r * (size_t)(steps * k * k));
	hyla_sequence **seqs = calloc((size_t)steps, sizeof *seqs);
	lapack_int seed[4] = {7, 11, 13, 17};
	if (!m || !v || !r || !seqs || make_map(n, m) || LAPACKE_dlarnv(2, seed, (lapack_int)(n * k), v))
		return 1;
	/* Panels of half the block, so that hyla's graph has more than one. */
	hyla_matrix *V = hyla_matrix_create(v, sizeof *v, n, k, n, k > 1 ? (k + 1) / 2 : 1);
	starpu_data_handle_t hm;
	starpu_matrix_data_register(&hm, STARPU_MAIN_RAM, (uintptr_t)m, (uint32_t)n, (uint32_t)n,
	                            (uint32_t)n, sizeof *m);
	int64_t panels = V ? hyla_matrix_panels(V) : 0;
	struct starpu_data_descr *d = malloc(sizeof *d * (size_t)(panels + 1));
	if (!V || !d)
		return 1;
	d[0] = (struct starpu_data_descr){hm, STARPU_R};
	for (int64_t p = 0; p < panels; p++)
		d[1 + p] = (struct starpu_data_descr){hyla_matrix_panel(V, p), STARPU_RW};

	int ret = 0;
	for (int64_t t = 0; t < steps && ret == 0; t++) {
		ret = starpu_task_insert(&step_cl, STARPU_DATA_MODE_ARRAY, d, (int)(panels + 1), 0);
		if (ret == 0 && !(seqs[t] = hyla_sequence_create()))
			ret = 1;
		if (ret == 0)
			ret = hyla_dcgs_async(V, r + t * k * k, k, NULL, seqs[t]);
	}
	int failed = ret != 0;
	for (int64_t t = 0; t < steps && seqs[t]; t++) {
		failed |= hyla_sequence_wait(seqs[t]) != 0;
		hyla_sequence_destroy(seqs[t]);
	}
	starpu_task_wait_for_all();
	starpu_data_unregister(hm);
	hyla_matrix_destroy(V);

	double worst = 0;
	printf("reorth_loop n=%lld k=%lld steps=%lld (V = M V, then hyla_dcgs_async, all submitted at "
	       "once)\n  exponent: measured / log|lambda|\n", (long long)n, (long long)k,
	       (long long)steps);
	int64_t burn = steps / 4;
	for (int64_t i = 0; i < k; i++) {
		double sum = 0;
		for (int64_t t = burn; t < steps; t++)
			sum += log(fabs(r[t * k * k + i + i * k]));
		double measured = sum / (double)(steps - burn), expected = log(lambda(i));
		worst = fmax(worst, fabs(measured - expected));
		printf("  %2lld: %+.8f / %+.8f\n", (long long)i, measured, expected);
	}
	/* What is left of the start after the burn-in: about 0.7^t at step t,
	 * summed over the steps kept, averaged (10: the start's misalignment). */
	double tol = fmax(1e-10, 10 * pow(0.7, (double)burn) / (0.3 * (double)(steps - burn)));
	int ok = !failed && worst <= tol;
	printf("reorth_loop: max error %.2e (tol %.1e) %s\n", worst, tol, ok ? "pass" : "FAILED");
	free(m), free(v), free(r), free(seqs), free(d);
#ifdef STARPU_USE_CUDA
	starpu_cublas_shutdown();
#endif
	starpu_shutdown();
	return !ok;
}
