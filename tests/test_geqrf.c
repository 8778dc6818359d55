/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Tester for Householder QR: test_geqrf PREC M N NB
 * hyla_geqrf_ex on a random m-by-n A (any shape), then hyla_orgqr_ex forms
 * Q (m-by-min(m,n)); checks, in units of eps:
 *   ||A - Q R||_F / ||A||_F <= 10 sqrt(n),  ||I - Q^T Q||_F <= 2 k
 *   (R: the upper trapezoid of hyla's result, k = min(m, n); the Frobenius
 *   norm of k^2 rounding errors grows like k);
 *   R and tau against LAPACK's dgeqrf on the same input, and Q against
 *   LAPACK's dorgqr on LAPACK's reflectors: relative differences within
 *   100 sqrt(n) cond eps (the same algorithm, other rounding);
 *   the full m-by-m Q of a tall A (hyla_orgqr with k = n < m) orthogonal
 *   and equal to the thin one in its first n columns.
 * Prints one line; exit status 0 pass, 1 fail, 2 bad arguments. */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"

static const char *prog = "test_geqrf";

/* hyla's QR (geqrf then orgqr of the first k columns) of the double a, in
 * prec; a becomes the reflectors (in double), q the m-by-k Q. */
static int hyla_qr(char prec, int64_t m, int64_t n, int64_t nb, double *a, double *tau, double *q,
                   int64_t k)
{
	int info;
	if (prec == 's') {
		float *f = malloc(sizeof *f * (size_t)(m * n)), *ft = malloc(sizeof *ft * (size_t)k);
		to_float(m, n, a, m, f);
		info = hyla_sgeqrf(m, n, f, m, ft, &(hyla_options){.nb = nb});
		to_double(m, n, f, a, m);
		for (int64_t i = 0; i < k; i++)
			tau[i] = ft[i];
		info = info ? info : hyla_sorgqr(m, k, k, f, m, ft, &(hyla_options){.nb = nb});
		to_double(m, k, f, q, m);
		free(f), free(ft);
		return info;
	}
	info = hyla_dgeqrf(m, n, a, m, tau, &(hyla_options){.nb = nb});
	memcpy(q, a, sizeof *q * (size_t)(m * k));
	return info ? info : hyla_dorgqr(m, k, k, q, m, tau, &(hyla_options){.nb = nb});
}

int main(int argc, char **argv)
{
	if (argc != 5 || (strcmp(argv[1], "d") && strcmp(argv[1], "s")))
		die_usage(prog, "usage: test_geqrf d|s M N NB");
	char prec = argv[1][0];
	int64_t m = parse_size(prog, "M", argv[2]), n = parse_size(prog, "N", argv[3]);
	int64_t nb = parse_size(prog, "NB", argv[4]), k = m < n ? m : n;
	double *a0 = malloc(sizeof *a0 * (size_t)(m * n)), *a = malloc(sizeof *a * (size_t)(m * n));
	double *ref = malloc(sizeof *ref * (size_t)(m * n)), *q = malloc(sizeof *q * (size_t)(m * k));
	double *qref = malloc(sizeof *qref * (size_t)(m * k)), *r = calloc((size_t)(k * n), sizeof *r);
	double *tau = malloc(sizeof *tau * (size_t)k), *tref = malloc(sizeof *tref * (size_t)k);
	double *full = malloc(sizeof *full * (size_t)(m * m));
	if (!a0 || !a || !ref || !q || !qref || !r || !tau || !tref || !full)
		return 1;
	random_matrix(m, n, a0, m, 4);
	if (prec == 's')
		round_to_float(m, n, a0, m);
	memcpy(a, a0, sizeof *a * (size_t)(m * n));
	int info = hyla_qr(prec, m, n, nb, a, tau, q, k);

	/* R: hyla's upper trapezoid; the identities with hyla's Q. */
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i <= j && i < k; i++)
			r[i + j * k] = a[i + j * m];
	double *qr = malloc(sizeof *qr * (size_t)(m * n));
	memcpy(qr, a0, sizeof *qr * (size_t)(m * n));
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, -1, q, (int)m, r,
	            (int)k, 1, qr, (int)m);
	double resid = LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', (int)m, (int)n, qr, (int)m) /
	               LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', (int)m, (int)n, a0, (int)m);
	double orth = orthogonality(m, k, q, m);

	/* LAPACK on the same (rounded) input, in double. */
	memcpy(ref, a0, sizeof *ref * (size_t)(m * n));
	LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (int)m, (int)n, ref, (int)m, tref);
	memcpy(qref, ref, sizeof *qref * (size_t)(m * k));
	LAPACKE_dorgqr(LAPACK_COL_MAJOR, (int)m, (int)k, (int)k, qref, (int)m, tref);
	double kappa = triangular_condition(k, ref, m);
	double *rref = calloc((size_t)(k * n), sizeof *rref);
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i <= j && i < k; i++)
			rref[i + j * k] = ref[i + j * m];
	double rdiff = relative_difference(k, n, r, rref, k), tdiff = relative_difference(k, 1, tau, tref, k);
	double qdiff = relative_difference(m, k, q, qref, m);

	/* The full Q of a tall A: LAPACK's way for k < n columns, in double. */
	double full_orth = 0, full_first = 0;
	if (m > n && prec == 'd') {
		memcpy(full, a, sizeof *full * (size_t)(m * n));
		info = info ? info : hyla_dorgqr(m, m, n, full, m, tau, &(hyla_options){.nb = nb});
		full_orth = orthogonality(m, m, full, m);
		full_first = relative_difference(m, n, full, q, m);
	}

	double eps = prec == 's' ? 0x1p-24 : 0x1p-53, rn = sqrt((double)(n > 1 ? n : 1));
	double tol = 10 * rn * eps, tol_orth = 2 * (double)k * eps, tol_lapack = 100 * rn * kappa * eps;
	int ok = info == 0 && resid <= tol && orth <= tol_orth && rdiff <= tol_lapack &&
	         tdiff <= tol_lapack && qdiff <= tol_lapack && full_orth <= 2 * (double)m * eps &&
	         full_first <= tol;
	printf("geqrf prec=%c m=%lld n=%lld nb=%lld cond=%.1e info=%d resid=%.2e (tol %.1e) orth=%.2e "
	       "(tol %.1e) vs LAPACK: r=%.2e tau=%.2e q=%.2e (tol %.1e) full_q orth=%.2e first=%.2e %s\n",
	       prec, (long long)m, (long long)n, (long long)nb, kappa, info, resid, tol, orth, tol_orth, rdiff,
	       tdiff, qdiff, tol_lapack, full_orth, full_first, ok ? "pass" : "FAILED");
	free(a0), free(a), free(ref), free(q), free(qref), free(r), free(tau), free(tref), free(full);
	free(qr), free(rref);
	return !ok;
}
