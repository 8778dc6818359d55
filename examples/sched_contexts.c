/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* sched_contexts: hyla and an application sharing a machine through StarPU
 * scheduling contexts.
 *
 * The application starts StarPU and splits its workers in two contexts:
 * "qr" (the first half of the cores, and the GPUs) and "hess" (the other
 * half). It submits, without waiting in between and in one sequence, a
 * Householder QR and its Q (hyla_dgeqrf_async, hyla_dorgqr_async) of one
 * matrix into "qr", and the Hessenberg reduction (hyla_dgehrd_async) of
 * another into "hess", each through hyla_options.sched_ctx. It waits once,
 * then checks each result against the identities and, from hyla's trace,
 * that every task of the QR ran on a worker of "qr" and every task of the
 * reduction on one of "hess".
 * Usage: sched_contexts [N [NB]]; exit status 0 pass, 1 fail, 77 when
 * StarPU cannot start or has fewer than two CPU workers. */
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

/* A fixed pseudo-random matrix in [-1, 1). */
static void fill(int64_t m, int64_t n, double *a, unsigned seed)
{
	for (int64_t i = 0; i < m * n; i++) {
		seed = seed * 1103515245u + 12345u;
		a[i] = (double)(seed >> 8) * 0x1p-23 - 1;
	}
}

static double fro(int64_t m, int64_t n, const double *a, int64_t ld)
{
	return LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', (lapack_int)m, (lapack_int)n, a, (lapack_int)ld);
}

/* ||I - Q^T Q||_F for the m-by-n Q. */
static double orthogonality(int64_t m, int64_t n, const double *q)
{
	double *g = malloc(sizeof *g * (size_t)(n * n));
	cblas_dsyrk(CblasColMajor, CblasUpper, CblasTrans, (int)n, (int)m, 1, q, (int)m, 0, g, (int)n);
	double s = 0;
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i <= j; i++) {
			double d = g[i + j * n] - (i == j);
			s += (i == j ? 1 : 2) * d * d;
		}
	free(g);
	return sqrt(s);
}

/* ||A - Q R||_F / ||A||_F, R from the upper triangle of f (dgeqrf's). */
static double qr_residual(int64_t m, int64_t n, const double *a, const double *q, const double *f)
{
	double *r = calloc((size_t)(n * n), sizeof *r), *d = malloc(sizeof *d * (size_t)(m * n));
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i <= j; i++)
			r[i + j * n] = f[i + j * m];
	memcpy(d, a, sizeof *d * (size_t)(m * n));
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)n, -1, q, (int)m,
	            r, (int)n, 1, d, (int)m);
	double res = fro(m, n, d, m) / fro(m, n, a, m);
	free(r), free(d);
	return res;
}

/* ||A - Q H Q^T||_F / ||A||_F with Q from LAPACK's dorghr on the reduction h. */
static double hessenberg_residual(int64_t n, const double *a, const double *h, const double *tau)
{
	double *q = malloc(sizeof *q * (size_t)(n * n)), *hh = calloc((size_t)(n * n), sizeof *hh);
	double *t = malloc(sizeof *t * (size_t)(n * n));
	memcpy(q, h, sizeof *q * (size_t)(n * n));
	LAPACKE_dorghr(LAPACK_COL_MAJOR, (lapack_int)n, 1, (lapack_int)n, q, (lapack_int)n, tau);
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < n && i <= j + 1; i++)
			hh[i + j * n] = h[i + j * n];
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n, 1, q, (int)n, hh,
	            (int)n, 0, t, (int)n);
	memcpy(hh, a, sizeof *hh * (size_t)(n * n));
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, (int)n, (int)n, (int)n, -1, t, (int)n, q,
	            (int)n, 1, hh, (int)n);
	double res = fro(n, n, hh, n) / fro(n, n, a, n);
	free(q), free(hh), free(t);
	return res;
}

/* The context of the workers in ids (count of them) under the global policy. */
static unsigned make_context(const char *name, int *ids, int count)
{
	const char *policy = getenv("STARPU_SCHED");
	return starpu_sched_ctx_create(ids, count, name, STARPU_SCHED_CTX_POLICY_NAME,
	                               policy && *policy ? policy : "eager", 0);
}

/* How many of hyla's tasks whose codelet names one of the calls ran outside
 * its context; *seen counts the tasks of each call. */
static int misplaced(const hyla_trace_event *ev, size_t count, unsigned qr, unsigned hess,
                     int seen[2])
{
	int wrong = 0;
	for (size_t i = 0; i < count; i++) {
		const char *name = ev[i].codelet;
		int is_qr = !strncmp(name, "geqrf_", 6) || !strncmp(name, "orgqr_", 6);
		int is_hess = !strncmp(name, "gehrd_", 6);
		if (!is_qr && !is_hess)
			continue;
		seen[is_hess]++;
		unsigned ctx = is_qr ? qr : hess;
		if (!starpu_sched_ctx_contains_worker(ev[i].worker, ctx)) {
			if (wrong++ < 5)
				fprintf(stderr, "sched_contexts: %s ran on %d, outside context %u\n", name,
				        ev[i].worker, ctx);
		}
	}
	return wrong;
}

int main(int argc, char **argv)
{
	program_options(argc, argv, "sched_contexts",
	                "usage: sched_contexts [N [NB]]\n"
	                "hyla and an application sharing the machine through StarPU scheduling contexts:\n"
	                "a QR of a 2N-by-N matrix in one context, a Hessenberg reduction of an N-by-N one\n"
	                "in another; checks the results and that no task left its context.\n"
	                "N: default 400, NB: panel width (default 32). Exit 0 pass, 1 fail, 77 skipped.\n");
	int64_t n = argc > 1 ? atoll(argv[1]) : 400, nb = argc > 2 ? atoll(argv[2]) : 32, m = 2 * n;
	if (n < 2 || nb < 1) {
		fprintf(stderr, "sched_contexts: usage: sched_contexts [N >= 2 [NB >= 1]]\n");
		return 2;
	}
	openblas_set_num_threads(1); /* one core a CPU worker: no BLAS threads of its own */
	if (starpu_init(NULL) != 0)
		return 77;
#ifdef STARPU_USE_CUDA
	starpu_cublas_init();
#endif
	int ncpu = (int)starpu_cpu_worker_get_count(), ncuda = (int)starpu_cuda_worker_get_count();
	if (ncpu < 2 || hyla_init() != 0) {
		printf("sched_contexts: skipped (%d CPU workers; two contexts need two)\n", ncpu);
		starpu_shutdown();
		return 77;
	}
	int *cpus = malloc(sizeof *cpus * (size_t)(ncpu + ncuda));
	starpu_worker_get_ids_by_type(STARPU_CPU_WORKER, cpus, ncpu);
	starpu_worker_get_ids_by_type(STARPU_CUDA_WORKER, cpus + ncpu, ncuda);
	/* "hess": cores [0, half); "qr": cores [half, ncpu) and the GPUs. */
	int half = ncpu / 2;
	unsigned hess = make_context("hess", cpus, half);
	unsigned qr = make_context("qr", cpus + half, ncpu - half + ncuda);

	double *a0 = malloc(sizeof *a0 * (size_t)(m * n)), *b0 = malloc(sizeof *b0 * (size_t)(n * n));
	double *f = malloc(sizeof *f * (size_t)(m * n)), *q = malloc(sizeof *q * (size_t)(m * n));
	double *h = malloc(sizeof *h * (size_t)(n * n)), *tau = malloc(sizeof *tau * (size_t)n);
	double *tau_h = malloc(sizeof *tau_h * (size_t)n);
	fill(m, n, a0, 1);
	fill(n, n, b0, 2);
	memcpy(q, a0, sizeof *q * (size_t)(m * n));
	memcpy(h, b0, sizeof *h * (size_t)(n * n));
	hyla_matrix *A = hyla_matrix_create(q, sizeof(double), m, n, m, nb);
	hyla_matrix *B = hyla_matrix_create(h, sizeof(double), n, n, n, nb);
	hyla_sequence *seq = hyla_sequence_create();
	hyla_options in_qr = {.sched_ctx = qr}, in_hess = {.sched_ctx = hess};

	hyla_trace_start();
	int ret = hyla_dgeqrf_async(A, tau, &in_qr, seq);
	ret = ret ? ret : hyla_dgehrd_async(B, tau_h, &in_hess, seq);
	/* R, for the check, before orgqr overwrites it: the panels read in place. */
	int info = hyla_sequence_wait(seq);
	for (int64_t k = 0; k < hyla_matrix_panels(A); k++)
		starpu_data_acquire(hyla_matrix_panel(A, k), STARPU_R);
	memcpy(f, q, sizeof *f * (size_t)(m * n));
	for (int64_t k = 0; k < hyla_matrix_panels(A); k++)
		starpu_data_release(hyla_matrix_panel(A, k));
	ret = ret ? ret : hyla_dorgqr_async(A, tau, &in_qr, seq);
	info = info ? info : hyla_sequence_wait(seq);
	hyla_trace_event *events;
	size_t count = hyla_trace_stop(&events);
	hyla_matrix_destroy(A);
	hyla_matrix_destroy(B);

	int seen[2] = {0, 0};
	int wrong = misplaced(events, count, qr, hess, seen);
	double eps = 0x1p-53;
	double qr_res = qr_residual(m, n, a0, q, f) / (n * eps), orth = orthogonality(m, n, q) / (n * eps);
	double h_res = hessenberg_residual(n, b0, h, tau_h) / (n * eps);
	int ok = ret == 0 && info == 0 && wrong == 0 && seen[0] > 0 && seen[1] > 0 && qr_res <= 30 &&
	         orth <= 30 && h_res <= 30;
	printf("sched_contexts n=%lld nb=%lld: QR in context qr (%d cores + %d GPUs), Hessenberg in "
	       "context hess (%d cores); tasks %d + %d, %d outside their context; "
	       "qr resid_eps=%.2f orth_eps=%.2f, hessenberg resid_eps=%.2f %s\n",
	       (long long)n, (long long)nb, ncpu - half, ncuda, half, seen[0], seen[1], wrong, qr_res,
	       orth, h_res, ok ? "pass" : "FAILED");

	hyla_sequence_destroy(seq);
	free(events), free(cpus);
	free(a0), free(b0), free(f), free(q), free(h), free(tau), free(tau_h);
	starpu_sched_ctx_delete(qr);
	starpu_sched_ctx_delete(hess);
	hyla_finalize();
#ifdef STARPU_USE_CUDA
	starpu_cublas_shutdown();
#endif
	starpu_shutdown();
	return !ok;
}
