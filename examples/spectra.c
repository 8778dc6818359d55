/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Symmetric test matrices of known spectra and the eigensolver's checks. */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "spectra.h"

const char *const spectrum_kinds[] = {"random", "graded", "clustered", "known", NULL};

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
	int clustered = !strcmp(kind, "clustered");
	if (!clustered && strcmp(kind, "known"))
		return -1;
	double *w = malloc(sizeof *w * (size_t)n);
	if (!w)
		return -1;
	for (int64_t i = 0; i < n; i++)
		w[i] = !clustered ? (double)(i + 1) : i < n - 4 ? 1 - (double)(n - 4 - i) * 1e-9
		                                                : (double)(i - (n - 4) + 1);
	int ret = with_spectrum(n, a, w, seed);
	if (ret == 0 && known)
		memcpy(known, w, sizeof *w * (size_t)n);
	free(w);
	return ret;
}

int eigen_residuals(int64_t n, const double *a, const double *w, const double *v, int64_t ldv,
                    double *resid, double *orth)
{
	double *r = malloc(sizeof *r * (size_t)(n * n)), *vw = malloc(sizeof *vw * (size_t)(n * n));
	if (!r || !vw) {
		free(r), free(vw);
		return -1;
	}
	memcpy(r, a, sizeof *r * (size_t)(n * n));
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < n; i++)
			vw[i + j * n] = v[i + j * ldv] * w[j];
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, -1, vw, n, v, ldv, 1, r, n);
	*resid = LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', (lapack_int)n, (lapack_int)n, r, (lapack_int)n) /
	         LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', (lapack_int)n, (lapack_int)n, a, (lapack_int)n);
	*orth = orthogonality(n, n, v, ldv);
	free(r), free(vw);
	return 0;
}

double eigenvalue_error(int64_t n, const double *w, const double *ref)
{
	double err = 0;
	for (int64_t i = 0; i < n; i++)
		err = fmax(err, fabs(w[i] - ref[i]));
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
