/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Symmetric test matrices of known spectra and the eigensolver's checks. */
#include <cblas.h>
#include <stdio.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "spectra.h"

const char *const spectrum_kinds[] = {"random", "graded", "clustered", "known", "repeated", "gapped",
                                     "underflow", NULL};

/* a = Q diag(w) Q^T, Q the orthogonal factor of a random matrix. */
static int with_spectrum(int64_t n, double *a, const double *w, int seed)
{
	double *q = malloc(sizeof *q * (size_t)(n * n)), *qw = malloc(sizeof *qw * (size_t)(n * n));
	double *tau = malloc(sizeof *tau * (size_t)n);
	int ret = -1;
	if (q && qw && tau) {
		lapack_int ln = (lapack_int)n;
		random_matrix(n, n, q, n, seed);
		if (!LAPACKE_dgeqrf(LAPACK_COL_MAJOR, ln, ln, q, ln, tau) &&
		    !LAPACKE_dorgqr(LAPACK_COL_MAJOR, ln, ln, ln, q, ln, tau)) {
			for (int64_t j = 0; j < n; j++)
				for (int64_t i = 0; i < n; i++)
					qw[i + j * n] = q[i + j * n] * w[j];
			cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, 1, qw, n, q, n, 0, a,
			            n);
			for (int64_t j = 0; j < n; j++) /* exactly symmetric */
				for (int64_t i = j + 1; i < n; i++)
					a[j + i * n] = a[i + j * n];
			ret = 0;
		}
	}
	free(q), free(qw), free(tau);
	return ret;
}

int spectrum_known(const char *kind)
{
	return !strcmp(kind, "clustered") || !strcmp(kind, "known") || !strcmp(kind, "repeated");
}

int symmetric_matrix(const char *kind, int64_t n, double *a, int seed, double *known)
{
	if (!strcmp(kind, "random") || !strcmp(kind, "graded")) {
		random_matrix(n, n, a, n, seed);
		int graded = !strcmp(kind, "graded");
		for (int64_t j = 0; j < n; j++)
			for (int64_t i = j; i < n; i++) {
				if (graded)
					a[i + j * n] *= pow(10, -6.0 * (double)(i + j) / (double)n);
				a[j + i * n] = a[i + j * n];
			}
		return 0;
	}
	if (!strcmp(kind, "underflow")) { /* two blocks, the second's entries near 1e-309 */
		random_matrix(n, n, a, n, seed);
		for (int64_t j = 0; j < n; j++)
			for (int64_t i = j; i < n; i++)
				a[j + i * n] = a[i + j * n] =
				    (i < n / 2) != (j < n / 2) ? 0 : a[i + j * n] * (j >= n / 2 ? 1e-309 : 1);
		return 0;
	}
	if (!strcmp(kind, "gapped")) {
		random_matrix(n, n, a, n, seed);
		for (int64_t j = 0; j < n; j++)
			for (int64_t i = j; i < n; i++) {
				double x = a[i + j * n];
				int kept = i == j || (i - j <= 6 && (i - j) % 2 == 0 && fabs(x) < 0.15);
				a[j + i * n] = a[i + j * n] = kept ? x : 0;
			}
		return 0;
	}
	int clustered = !strcmp(kind, "clustered"), repeated = !strcmp(kind, "repeated");
	if (!clustered && !repeated && strcmp(kind, "known"))
		return -1;
	double *w = malloc(sizeof *w * (size_t)n);
	if (!w)
		return -1;
	/* known: 1..n; clustered: n - 3 in [1 - (n - 4) 1e-9, 1], then 2, 3,
	 * 4; repeated: 1..n/3, each three times (deflation's every case). */
	for (int64_t i = 0; i < n; i++)
		w[i] = repeated ? (double)(i / 3 + 1) : !clustered ? (double)(i + 1)
		       : i < n - 3 ? 1 - (double)(n - 4 - i) * 1e-9 : (double)(i - (n - 3) + 2);
	int ret = with_spectrum(n, a, w, seed);
	if (ret == 0 && known)
		memcpy(known, w, sizeof *w * (size_t)n);
	free(w);
	return ret;
}

/* ||A - X diag(s) op(Y)||_F / ||A||_F (A = 0: the numerator) into *resid
 * for the m-by-n a, X m-by-k (ldx), op(Y) k-by-n (ldy): Y^T with trans;
 * -1 for no memory. */
static int product_residual(int64_t m, int64_t n, int64_t k, const double *a, const double *x,
                            int64_t ldx, const double *s, const double *y, int64_t ldy,
                            int trans, double *resid)
{
	double *r = malloc(sizeof *r * (size_t)(m * n)), *xs = malloc(sizeof *xs * (size_t)(m * k));
	if (r && xs) {
		memcpy(r, a, sizeof *r * (size_t)(m * n));
		for (int64_t j = 0; j < k; j++)
			for (int64_t i = 0; i < m; i++)
				xs[i + j * m] = x[i + j * ldx] * s[j];
		cblas_dgemm(CblasColMajor, CblasNoTrans, trans ? CblasTrans : CblasNoTrans, m, n, k, -1,
		            xs, m, y, ldy, 1, r, m);
		lapack_int lm = (lapack_int)m, ln = (lapack_int)n;
		double norm = LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', lm, ln, a, lm);
		*resid = LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', lm, ln, r, lm) / (norm > 0 ? norm : 1);
	}
	int ret = r && xs ? 0 : -1;
	free(r), free(xs);
	return ret;
}

int eigen_residuals(int64_t n, const double *a, const double *w, const double *v, int64_t ldv,
                    double *resid, double *orth)
{
	*orth = orthogonality(n, n, v, ldv);
	return product_residual(n, n, n, a, v, ldv, w, v, ldv, 1, resid);
}

double eigenvalue_error(int64_t n, const double *w, const double *ref)
{
	double err = 0;
	for (int64_t i = 0; i < n; i++) {
		double d = fabs(w[i] - ref[i]);
		if (isnan(d)) /* fmax would drop it */
			return NAN;
		err = fmax(err, d);
	}
	return err;
}

int lapack_eigenvalues(int64_t n, const double *a, double *w)
{
	double *c = malloc(sizeof *c * (size_t)(n * n));
	if (!c)
		return -1;
	memcpy(c, a, sizeof *c * (size_t)(n * n));
	int info = (int)LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', (lapack_int)n, c, (lapack_int)n, w);
	free(c);
	return info;
}

void symmetric_input(const char *prog, const struct driver_options *o, int64_t n, double *a,
                     char triangle, char uplo)
{
	char from = triangle ? triangle : o->input ? 0 : 'L';
	double worst = 0, top = 0;
	int64_t wi = 0, wj = 0;
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = j; i < n; i++) {
			double *lo = &a[i + j * n], *up = &a[j + i * n];
			top = fmax(top, fmax(fabs(*lo), fabs(*up)));
			if (from == 'L')
				*up = *lo;
			else if (from == 'U')
				*lo = *up;
			else if (fabs(*lo - *up) > worst)
				worst = fabs(*lo - *up), wi = i, wj = j;
		}
	double eps = o->prec == 's' ? 0x1p-24 : 0x1p-53;
	if (!from && worst > 100 * n * eps * top)
		die_usage(prog, "--input %s is not symmetric: |a(%lld,%lld) - a(%lld,%lld)| = %.3g "
		          "(use --triangle L or U to take one triangle)", o->input, (long long)wi + 1,
		          (long long)wj + 1, (long long)wj + 1, (long long)wi + 1, worst);
	for (int64_t j = 0; !from && worst > 0 && j < n; j++)
		for (int64_t i = j + 1; i < n; i++) {
			if (uplo == 'L')
				a[j + i * n] = a[i + j * n];
			else
				a[i + j * n] = a[j + i * n];
		}
}

double lapack_syevd_seconds(int64_t n, const double *a, char prec, char jobz)
{
	void *c = working_copy(n, n, a, n, prec), *w = malloc((size_t)n * sizeof(double));
	double t = NAN;
	if (c && w) {
		host_blas_begin();
		t = now_seconds();
		lapack_int ln = (lapack_int)n, info =
			prec == 's' ? LAPACKE_ssyevd(LAPACK_COL_MAJOR, jobz, 'L', ln, c, ln, w)
			            : LAPACKE_dsyevd(LAPACK_COL_MAJOR, jobz, 'L', ln, c, ln, w);
		t = info ? NAN : now_seconds() - t;
		host_blas_end();
	}
	free(c), free(w);
	return t;
}

const char *const singular_kinds[] = {"random", "graded", "geometric", "repeated", "gapped",
                                      "underflow", NULL};

/* A random orthogonal rows-by-cols q (rows >= cols): the Q of a random
 * matrix's QR; 0 or -1. */
static int random_orthogonal(int64_t rows, int64_t cols, double *q, int seed)
{
	double *tau = malloc(sizeof *tau * (size_t)cols);
	lapack_int r = (lapack_int)rows, c = (lapack_int)cols;
	random_matrix(rows, cols, q, rows, seed);
	int ret = tau && !LAPACKE_dgeqrf(LAPACK_COL_MAJOR, r, c, q, r, tau) &&
	                  !LAPACKE_dorgqr(LAPACK_COL_MAJOR, r, c, c, q, r, tau) ? 0 : -1;
	free(tau);
	return ret;
}

/* Singular value j (descending) of k of the kinds made as U diag(s) V^T. */
static double singular_value(const char *kind, int64_t j, int64_t k)
{
	if (!strcmp(kind, "geometric"))
		return k > 1 ? pow(1e-12, (double)j / (double)(k - 1)) : 1;
	int64_t r = (2 * k + 2) / 3; /* repeated: r values, each three times, then zeros */
	return j < r ? (double)((r - 1 - j) / 3 + 1) : 0;
}

int general_matrix(const char *kind, int64_t m, int64_t n, double *a, int seed, double *known)
{
	if (!strcmp(kind, "random") || !strcmp(kind, "graded")) {
		random_matrix(m, n, a, m, seed);
		if (!strcmp(kind, "graded"))
			for (int64_t j = 0; j < n; j++)
				for (int64_t i = 0; i < m; i++)
					a[i + j * m] *= pow(10, -6.0 * (double)i / (double)m);
		return 0;
	}
	if (!strcmp(kind, "gapped")) {
		random_matrix(m, n, a, m, seed);
		for (int64_t j = 0; j < n; j++)
			for (int64_t i = 0; i < m; i++) {
				double x = a[i + j * m];
				int kept = i == j || (j - i > 0 && j - i <= 6 && (j - i) % 2 == 0 && fabs(x) < 0.15);
				a[i + j * m] = kept ? x : 0;
			}
		return 0;
	}
	if (!strcmp(kind, "underflow")) {
		random_matrix(m, n, a, m, seed);
		for (int64_t j = 0; j < n; j++)
			for (int64_t i = 0; i < m; i++)
				a[i + j * m] *= (i < m / 2) != (j < n / 2) ? 0 : j >= n / 2 ? 1e-309 : 1;
		return 0;
	}
	if (strcmp(kind, "geometric") && strcmp(kind, "repeated"))
		return -1;
	int64_t k = m < n ? m : n;
	double *u = malloc(sizeof *u * (size_t)(m * k)), *v = malloc(sizeof *v * (size_t)(n * k));
	int ret = u && v && !random_orthogonal(m, k, u, seed) && !random_orthogonal(n, k, v, seed + 1)
	              ? 0 : -1;
	if (ret == 0) {
		for (int64_t j = 0; j < k; j++) {
			double s = singular_value(kind, j, k);
			if (known)
				known[j] = s;
			for (int64_t i = 0; i < m; i++)
				u[i + j * m] *= s;
		}
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, m, n, k, 1, u, m, v, n, 0, a, m);
	}
	free(u), free(v);
	return ret;
}

int svd_residuals(int64_t m, int64_t n, const double *a, const double *s, const double *u,
                  int64_t ldu, const double *vt, int64_t ldvt, double *resid, double *orth_u,
                  double *orth_v)
{
	int64_t k = m < n ? m : n;
	double *v = malloc(sizeof *v * (size_t)(n * k)); /* V, for its orthogonality */
	if (!v)
		return -1;
	for (int64_t j = 0; j < k; j++)
		for (int64_t i = 0; i < n; i++)
			v[i + j * n] = vt[j + i * ldvt];
	*orth_u = orthogonality(m, k, u, ldu);
	*orth_v = orthogonality(n, k, v, n);
	free(v);
	return product_residual(m, n, k, a, u, ldu, s, vt, ldvt, 0, resid);
}

int lapack_singular_values(int64_t m, int64_t n, const double *a, double *s)
{
	double *c = malloc(sizeof *c * (size_t)(m * n));
	if (!c)
		return -1;
	memcpy(c, a, sizeof *c * (size_t)(m * n));
	lapack_int lm = (lapack_int)m;
	int info = (int)LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'N', lm, (lapack_int)n, c, lm, s, NULL, 1,
	                               NULL, 1);
	free(c);
	return info;
}

double lapack_gesdd_seconds(int64_t m, int64_t n, const double *a, char prec, char jobz)
{
	int64_t k = m < n ? m : n;
	size_t el = prec == 's' ? sizeof(float) : sizeof(double);
	void *c = working_copy(m, n, a, m, prec), *s = malloc(el * (size_t)k);
	int want = jobz != 'N';
	void *u = want ? malloc(el * (size_t)(m * k)) : NULL;
	void *vt = want ? malloc(el * (size_t)(k * n)) : NULL;
	double t = NAN;
	if (c && s && (!want || (u && vt))) {
		lapack_int lm = (lapack_int)m, ln = (lapack_int)n, lk = (lapack_int)k, info;
		host_blas_begin();
		t = now_seconds();
		info = prec == 's' ? LAPACKE_sgesdd(LAPACK_COL_MAJOR, jobz, lm, ln, c, lm, s, u, lm, vt,
		                                    want ? lk : 1)
		                   : LAPACKE_dgesdd(LAPACK_COL_MAJOR, jobz, lm, ln, c, lm, s, u, lm, vt,
		                                    want ? lk : 1);
		t = info ? NAN : now_seconds() - t;
		host_blas_end();
	}
	free(c), free(s), free(u), free(vt);
	return t;
}

char triangle_option(const char *prog, const char *opt, const char *arg)
{
	if (strcmp(arg, "L") && strcmp(arg, "U"))
		die_usage(prog, "%s must be L or U, not '%s'", opt, arg);
	return arg[0];
}
