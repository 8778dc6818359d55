/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* hyla's public two-sided codelets in an application's own graph, on an
 * hyla_matrix of an n-by-n matrix with panel width nb: the tridiagonal
 * reduction (lower) of a symmetric matrix from hyla_task_dsytrd_panel and
 * _update, and again from hyla_task_dsytrd_step, and the Hessenberg
 * reduction from hyla_task_dgehrd_panel and _update; the last panel's
 * columns by LAPACK on the host after the graph.
 * Checks, against LAPACK's dsytrd / dgehrd on the same input: the first
 * LEAD tridiagonal steps entry by entry (d and e on the matrix where dsytrd
 * leaves them, the reflectors, tau; later steps amplify rounding, see
 * test_sytrd.c), H and tau (as test_gehrd.c); and the identities
 * ||A - Q T Q^T||, ||I - Q^T Q|| within 30 eps. The application starts
 * StarPU itself. Usage: test_codelets_reduce [N NB]. */
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

#define LEAD 8
#define EPS 0x1p-53

/* Elements col..col+w-1 of a vector of yours as a w-by-1 matrix handle. */
static starpu_data_handle_t piece(double *v, int64_t w)
{
	starpu_data_handle_t h;
	starpu_matrix_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)v, (uint32_t)w, (uint32_t)w, 1,
	                            sizeof(double));
	return h;
}

/* A rows-by-cols matrix that StarPU allocates where a task uses it. */
static starpu_data_handle_t workspace(int64_t rows, int64_t cols)
{
	starpu_data_handle_t h;
	starpu_matrix_data_register(&h, -1, 0, (uint32_t)rows, (uint32_t)rows, (uint32_t)cols,
	                            sizeof(double));
	return h;
}

/* Panel k's updates of the later panels as one group: the next one
 * alone, the others two at a time. */
static int64_t group(int64_t k, int64_t p, int64_t np)
{
	return p == k + 1 || p + 1 == np ? 1 : 2;
}

/* The tridiagonal graph on every panel but the last (pan: the np panels,
 * n rows): panel k into its pieces of e and tau (registered into keep, to be
 * unregistered, brought home, after), then its updates; or (steps) both in
 * one step task a panel. */
static int submit_sytrd(const starpu_data_handle_t *pan, int64_t np, int64_t n, int64_t nb,
                        double *e, double *tau, starpu_data_handle_t *keep, int steps)
{
	int ret = 0;
	for (int64_t k = 0; k + 1 < np && ret == 0; k++) {
		int64_t col = k * nb;
		starpu_data_handle_t w = workspace(n, nb);
		keep[2 * k] = piece(e + col, nb);
		keep[2 * k + 1] = piece(tau + col, nb);
		if (steps) {
			ret = hyla_task_dsytrd_step(keep[2 * k], keep[2 * k + 1], w, pan + k, (int)(np - k),
			                            col);
			starpu_data_unregister_submit(w);
			continue;
		}
		ret = hyla_task_dsytrd_panel(keep[2 * k], keep[2 * k + 1], w, pan + k, (int)(np - k), col);
		for (int64_t p = k + 1, count; p < np && ret == 0; p += count) {
			count = group(k, p, np);
			ret = hyla_task_dsytrd_update(pan[k], w, pan + p, (int)count, col, p * nb,
			                              p == k + 1 ? STARPU_MAX_PRIO : STARPU_DEFAULT_PRIO);
		}
		starpu_data_unregister_submit(w);
	}
	return ret;
}

/* The Hessenberg graph, the same way, into tau. */
static int submit_gehrd(const starpu_data_handle_t *pan, int64_t np, int64_t n, int64_t nb,
                        double *tau, starpu_data_handle_t *keep)
{
	starpu_data_handle_t scratch = hyla_workspace_dgehrd(), w = workspace(nb, 2 * nb);
	int ret = 0;
	for (int64_t k = 0; k + 1 < np && ret == 0; k++) {
		int64_t col = k * nb;
		starpu_data_handle_t t = workspace(nb, nb), y = workspace(n, nb), v = workspace(n, nb);
		keep[k] = piece(tau + col, nb);
		ret = hyla_task_dgehrd_panel(keep[k], t, y, v, scratch, pan + k, (int)(np - k), col,
		                             STARPU_CPU | STARPU_CUDA);
		for (int64_t p = k + 1, count; p < np && ret == 0; p += count) {
			count = group(k, p, np);
			ret = hyla_task_dgehrd_update(v, t, y, w, pan + p, (int)count, col, p * nb,
			                              p == k + 1 ? STARPU_MAX_PRIO : STARPU_DEFAULT_PRIO);
		}
		starpu_data_unregister_submit(t);
		starpu_data_unregister_submit(y);
		starpu_data_unregister_submit(v);
	}
	starpu_data_unregister_submit(scratch);
	starpu_data_unregister_submit(w);
	return ret;
}

enum graph { SYTRD, SYTRD_STEPS, GEHRD };

/* Runs the graph on a copy of a0 into a; then the last panel's columns
 * (from last) by LAPACK on the host, and for sytrd d and e where dsytrd
 * leaves them. */
static int reduce(enum graph graph, int64_t n, int64_t nb, const double *a0, double *a, double *d,
                  double *e, double *tau)
{
	memcpy(a, a0, sizeof *a * (size_t)(n * n));
	int64_t np = (n + nb - 1) / nb, last = (np - 1) * nb, t = n - last;
	starpu_data_handle_t *keep = calloc((size_t)(2 * np), sizeof *keep);
	starpu_data_handle_t *pan = malloc(sizeof *pan * (size_t)np);
	hyla_matrix *A = hyla_matrix_create(a, sizeof *a, n, n, n, nb);
	int ret = keep && pan && A ? 0 : -1;
	for (int64_t k = 0; k < np && ret == 0; k++)
		pan[k] = hyla_matrix_panel(A, k);
	const int gehrd = graph == GEHRD;
	if (ret == 0)
		ret = gehrd ? submit_gehrd(pan, np, n, nb, tau, keep)
		            : submit_sytrd(pan, np, n, nb, e, tau, keep, graph == SYTRD_STEPS);
	for (int64_t k = 0; keep && k < 2 * np; k++)
		if (keep[k])
			starpu_data_unregister(keep[k]);
	free(keep), free(pan);
	if (A)
		hyla_matrix_destroy(A);
	if (gehrd) { /* dgehrd from ilo = last + 1 touches only the columns from last on */
		double *tail = malloc(sizeof *tail * (size_t)n);
		ret |= tail ? LAPACKE_dgehrd(LAPACK_COL_MAJOR, (int)n, (int)last + 1, (int)n, a, (int)n, tail)
		            : -1;
		for (int64_t i = last; tail && i + 1 < n; i++)
			tau[i] = tail[i];
		free(tail);
		return ret;
	}
	for (int64_t j = 0; j < last; j++) {
		d[j] = a[j + j * n];
		a[j + 1 + j * n] = e[j];
	}
	return ret | LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'L', (int)t, a + last + last * n, (int)n,
	                            d + last, e + last, tau + last);
}

/* sqrt(sum (x - y)^2 / sum y^2) over the lower triangle of the first cols
 * columns of two n-by-n matrices (ld n; n = 1: the first cols entries of
 * two vectors). */
static double lower_diff(int64_t n, int64_t cols, const double *x, const double *y)
{
	double dd = 0, ss = 0;
	for (int64_t j = 0; j < cols; j++)
		for (int64_t i = n > 1 ? j : 0; i < n; i++) {
			dd += (x[i + j * n] - y[i + j * n]) * (x[i + j * n] - y[i + j * n]);
			ss += y[i + j * n] * y[i + j * n];
		}
	return ss > 0 ? sqrt(dd / ss) : sqrt(dd);
}

static int check_sytrd(int64_t n, int64_t nb, const double *a0, double *a, double *ref, double *v,
                       enum graph graph)
{
	double *d = v, *e = d + n, *tau = e + n, *dr = tau + n, *er = dr + n, *tr = er + n;
	int info = reduce(graph, n, nb, a0, a, d, e, tau);
	memcpy(ref, a0, sizeof *ref * (size_t)(n * n));
	LAPACKE_dsytrd(LAPACK_COL_MAJOR, 'L', (int)n, ref, (int)n, dr, er, tr);
	int64_t lead = n - 1 < LEAD ? n - 1 : LEAD;
	/* d and e on the matrix, the reflectors below them; tau */
	double lead_diff = fmax(lower_diff(n, lead, a, ref), lower_diff(1, lead, tau, tr));
	double resid, orth, spread, mid = fabs(d[n / 2]) > 0 ? fabs(d[n / 2]) : 1;
	int checked = tridiagonal_residuals(n, 'L', a0, n, a, d, e, tau, &resid, &orth);
	double eig = tridiagonal_eig_error(n, a0, n, d, e, &spread);
	double tol = 100 * sqrt((double)n) * EPS * spread / mid;
	int ok = info == 0 && checked == 0 && resid <= 30 * EPS && orth <= 30 * EPS &&
	         eig <= 30 * n * EPS * spread && lead_diff <= tol;
	printf("public codelets: tridiagonal (lower) %lldx%lld nb=%lld from hyla_task_dsytrd_%s: "
	       "resid=%.1f eps orth=%.1f eps eig=%.2e first steps vs LAPACK %.1e (tol %.1e) %s\n",
	       (long long)n, (long long)n, (long long)nb, graph == SYTRD_STEPS ? "step" : "panel, _update",
	       resid / EPS, orth / EPS, eig, lead_diff, tol, ok ? "pass" : "FAILED");
	return ok;
}

static int check_gehrd(int64_t n, int64_t nb, const double *a0, double *a, double *ref, double *v)
{
	double *tau = v, *tr = v + n;
	int info = reduce(GEHRD, n, nb, a0, a, NULL, NULL, tau);
	memcpy(ref, a0, sizeof *ref * (size_t)(n * n));
	LAPACKE_dgehrd(LAPACK_COL_MAJOR, (int)n, 1, (int)n, ref, (int)n, tr);
	double hdiff = 0, norm = 0, tdiff = 0;
	for (int64_t j = 0; j < n; j++) {
		for (int64_t i = 0; i <= j + 1 && i < n; i++)
			hdiff += (a[i + j * n] - ref[i + j * n]) * (a[i + j * n] - ref[i + j * n]);
		for (int64_t i = 0; i < n; i++)
			norm += a0[i + j * n] * a0[i + j * n];
	}
	for (int64_t i = 0; i + 1 < n; i++)
		tdiff = fmax(tdiff, fabs(tau[i] - tr[i]));
	hdiff = sqrt(hdiff / norm);
	double resid, orth, tol = 1000 * sqrt((double)n) * EPS;
	int checked = hessenberg_residuals(n, a0, n, a, n, tau, NULL, &resid, &orth);
	int ok = info == 0 && checked == 0 && resid <= 30 * EPS && orth <= 30 * EPS && hdiff <= tol &&
	         tdiff <= tol;
	printf("public codelets: Hessenberg %lldx%lld nb=%lld from hyla_task_dgehrd_panel, _update: "
	       "resid=%.1f eps orth=%.1f eps H vs LAPACK %.1e tau %.1e (tol %.1e) %s\n",
	       (long long)n, (long long)n, (long long)nb, resid / EPS, orth / EPS, hdiff, tdiff, tol,
	       ok ? "pass" : "FAILED");
	return ok;
}

int main(int argc, char **argv)
{
	int64_t n = argc > 2 ? atoll(argv[1]) : 203, nb = argc > 2 ? atoll(argv[2]) : 32;
	if (n < 2 || nb < 1)
		return 2;
	openblas_set_num_threads(1); /* one core a CPU worker: no BLAS threads of its own */
	if (starpu_init(NULL) != 0)
		return 77;
#ifdef STARPU_USE_CUDA
	starpu_cublas_init();
#endif
	double *a0 = malloc(sizeof *a0 * (size_t)(n * n)), *a = malloc(sizeof *a * (size_t)(n * n));
	double *ref = malloc(sizeof *ref * (size_t)(n * n)), *v = malloc(sizeof *v * (size_t)(6 * n));
	if (!a0 || !a || !ref || !v)
		return 1;
	random_matrix(n, n, a0, n, 5);
	int ok = check_gehrd(n, nb, a0, a, ref, v);
	for (int64_t j = 0; j < n; j++) /* symmetric: the lower triangle mirrored */
		for (int64_t i = 0; i < j; i++)
			a0[i + j * n] = a0[j + i * n];
	ok &= check_sytrd(n, nb, a0, a, ref, v, SYTRD);
	ok &= check_sytrd(n, nb, a0, a, ref, v, SYTRD_STEPS);
	free(a0), free(a), free(ref), free(v);
#ifdef STARPU_USE_CUDA
	starpu_cublas_shutdown();
#endif
	starpu_shutdown();
	return !ok;
}
