/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* hyla's public codelets in an application's own graph: a Householder QR
 * of an m-by-n matrix (m >= n) written with hyla_task_dgeqrf_panel (its
 * T too) and hyla_task_dlarfb (or, with "steps", hyla_task_dgeqrf_step
 * from the second panel on, then Q from hyla_task_dorgqr_step) on an
 * hyla_matrix, against LAPACK's dgeqrf (R and tau) and dorgqr (Q). The
 * application starts StarPU itself (then hyla_init, and hyla_finalize
 * before starpu_shutdown).
 * Usage: test_codelets [M N NB [steps]]. */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla_codelets.h"
#ifdef STARPU_USE_CUDA
#include <starpu_cublas_v2.h>
#endif

/* Q (m-by-n) in place of the factorisation in a (and tau) from
 * hyla_task_dorgqr_step, the last panel first; 0 on success. */
static int form_q_by_steps(int64_t m, int64_t n, int64_t nb, double *a, double *tau)
{
	hyla_matrix *Q = hyla_matrix_create(a, sizeof *a, m, n, m, nb);
	int64_t np = hyla_matrix_panels(Q);
	starpu_data_handle_t *taus = calloc((size_t)np, sizeof *taus), *later = calloc((size_t)np, sizeof *later);
	starpu_data_handle_t w_form, w_apply, t = NULL, prev_t = NULL;
	int ret = !taus || !later;
	starpu_vector_data_register(&w_form, -1, 0, (uint32_t)(2 * nb * nb), sizeof(double));
	starpu_vector_data_register(&w_apply, -1, 0, (uint32_t)(nb * n), sizeof(double));
	for (int64_t k = 0; k < np && !ret; k++) {
		int64_t width = k * nb + nb <= n ? nb : n - k * nb;
		starpu_matrix_data_register(&taus[k], STARPU_MAIN_RAM, (uintptr_t)(tau + k * nb),
		                            (uint32_t)width, (uint32_t)width, 1, sizeof(double));
		later[k] = hyla_matrix_panel(Q, k);
	}
	for (int64_t i = np - 1; i >= 0 && !ret; i--) {
		if (i == np - 1) {
			uint32_t w = (uint32_t)(n - i * nb);
			starpu_matrix_data_register(&t, -1, 0, w, w, w, sizeof(double));
			ret = hyla_task_dlarft(later[i], taus[i], t, i * nb, STARPU_MAX_PRIO);
		}
		if (i > 0)
			starpu_matrix_data_register(&prev_t, -1, 0, (uint32_t)nb, (uint32_t)nb, (uint32_t)nb,
			                            sizeof(double));
		if (!ret)
			ret = hyla_task_dorgqr_step(later[i], t, w_form, w_apply, i > 0 ? later[i - 1] : NULL,
			                            i > 0 ? taus[i - 1] : NULL, prev_t, later + i + 1,
			                            (int)(np - i - 1), i * nb);
		starpu_data_unregister_submit(t);
		t = prev_t, prev_t = NULL;
	}
	if (t)
		starpu_data_unregister_submit(t);
	for (int64_t k = 0; k < np && taus; k++)
		if (taus[k])
			starpu_data_unregister_submit(taus[k]);
	starpu_data_unregister_submit(w_form);
	starpu_data_unregister_submit(w_apply);
	starpu_task_wait_for_all();
	hyla_matrix_destroy(Q);
	free(taus), free(later);
	return ret;
}

int main(int argc, char **argv)
{
	int64_t m = argc > 3 ? atoll(argv[1]) : 300, n = argc > 3 ? atoll(argv[2]) : 200;
	int64_t nb = argc > 3 ? atoll(argv[3]) : 48;
	int steps = argc > 4 && !strcmp(argv[4], "steps");
	if (m < n || n < 1 || nb < 1)
		return 2;
	openblas_set_num_threads(1); /* one core a CPU worker: no BLAS threads of its own */
	if (starpu_init(NULL) != 0 || hyla_init() != 0)
		return 77;
#ifdef STARPU_USE_CUDA
	starpu_cublas_init();
#endif
	double *a0 = malloc(sizeof *a0 * (size_t)(m * n)), *a = malloc(sizeof *a * (size_t)(m * n));
	double *tau = malloc(sizeof *tau * (size_t)n), *tref = malloc(sizeof *tref * (size_t)n);
	random_matrix(m, n, a0, m, 9);
	memcpy(a, a0, sizeof *a * (size_t)(m * n));
	hyla_matrix *A = hyla_matrix_create(a, sizeof *a, m, n, m, nb);
	int64_t np = hyla_matrix_panels(A);
	starpu_data_handle_t scratch = hyla_workspace_dgeqrf(nb), w;
	starpu_vector_data_register(&w, -1, 0, (uint32_t)(nb * n), sizeof(double));
	/* tau's pieces: unregistered (brought home) after the last task. */
	starpu_data_handle_t *taus = calloc((size_t)np, sizeof *taus);
	int ret = !taus;
	starpu_data_handle_t t_prev = NULL;
	for (int64_t k = 0; k < np && ret == 0; k++) {
		int64_t c0 = k * nb, width = c0 + nb <= n ? nb : n - c0;
		starpu_data_handle_t panel = hyla_matrix_panel(A, k), th, t;
		starpu_matrix_data_register(&taus[k], STARPU_MAIN_RAM, (uintptr_t)(tau + c0), (uint32_t)width,
		                            (uint32_t)width, 1, sizeof(double));
		th = taus[k];
		starpu_matrix_data_register(&t, -1, 0, (uint32_t)width, (uint32_t)width, (uint32_t)width,
		                            sizeof(double));
		if (steps && k > 0) { /* Q_{k-1}^T on panels k.., then panel k, in one task */
			starpu_data_handle_t *later = malloc(sizeof *later * (size_t)(np - k));
			ret = !later;
			for (int64_t p = k; p < np && later; p++)
				later[p - k] = hyla_matrix_panel(A, p);
			if (later)
				ret = hyla_task_dgeqrf_step(hyla_matrix_panel(A, k - 1), t_prev, w, later,
				                            (int)(np - k), th, t, scratch, c0);
			free(later);
		} else {
			ret = hyla_task_dgeqrf_panel(panel, th, t, scratch, c0);
		}
		if (ret == 0 && !steps && k + 1 < np) /* Q_k^T on all the later panels at once */
			ret = hyla_task_dlarfb(panel, t, w, (const starpu_data_handle_t[]){hyla_matrix_panel(A, k + 1)},
			                       1, c0, 1, STARPU_MAX_PRIO);
		for (int64_t p = k + 2; p < np && ret == 0 && !steps; p++)
			ret = hyla_task_dlarfb(panel, t, w, (const starpu_data_handle_t[]){hyla_matrix_panel(A, p)},
			                       1, c0, 1, STARPU_DEFAULT_PRIO);
		if (t_prev)
			starpu_data_unregister_submit(t_prev);
		t_prev = t;
	}
	if (t_prev)
		starpu_data_unregister_submit(t_prev);
	for (int64_t k = 0; k < np && taus; k++)
		if (taus[k])
			starpu_data_unregister(taus[k]);
	free(taus);
	starpu_data_unregister_submit(scratch);
	starpu_data_unregister_submit(w);
	starpu_task_wait_for_all();
	hyla_matrix_destroy(A);

	double *ref = malloc(sizeof *ref * (size_t)(m * n));
	memcpy(ref, a0, sizeof *ref * (size_t)(m * n));
	LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (int)m, (int)n, ref, (int)m, tref);
	double rd = 0, rs = 0, td = 0;
	for (int64_t j = 0; j < n; j++) {
		td = fmax(td, fabs(tau[j] - tref[j]));
		for (int64_t i = 0; i <= j; i++) {
			double d = a[i + j * m] - ref[i + j * m];
			rd += d * d;
			rs += ref[i + j * m] * ref[i + j * m];
		}
	}
	double rdiff = sqrt(rd / rs), tol = 1e3 * sqrt((double)n) * 0x1p-53;
	int ok = ret == 0 && rdiff <= tol && td <= tol;
	printf("public codelets: Householder QR %lldx%lld nb=%lld from hyla_task_dgeqrf_panel and %s: "
	       "R vs LAPACK %.2e, tau %.2e (tol %.1e) %s\n", (long long)m, (long long)n, (long long)nb,
	       steps ? "_dgeqrf_step" : "_dlarfb", rdiff, td, tol, ok ? "pass" : "FAILED");
	if (steps) { /* Q from hyla_task_dorgqr_step against LAPACK's dorgqr */
		ret = form_q_by_steps(m, n, nb, a, tau);
		LAPACKE_dorgqr(LAPACK_COL_MAJOR, (int)m, (int)n, (int)n, ref, (int)m, tref);
		double qd = 0;
		for (int64_t i = 0; i < m * n; i++)
			qd = fmax(qd, fabs(a[i] - ref[i]));
		int qok = ret == 0 && qd <= tol;
		printf("public codelets: Q %lldx%lld from hyla_task_dorgqr_step: against LAPACK's dorgqr "
		       "%.2e (tol %.1e) %s\n", (long long)m, (long long)n, qd, tol, qok ? "pass" : "FAILED");
		ok = ok && qok;
	}
	free(a0), free(a), free(tau), free(tref), free(ref);
	hyla_finalize();
#ifdef STARPU_USE_CUDA
	starpu_cublas_shutdown();
#endif
	starpu_shutdown();
	return !ok;
}
