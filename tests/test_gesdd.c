/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Tester for the SVD: test_gesdd PREC M N JOBZ KIND [NB]
 * hyla_dgesdd (or sgesdd) with JOBZ (N, S, A or O) on an M-by-N A of KIND
 * (random, graded, geometric, repeated, gapped, underflow:
 * examples/spectra.h).
 * Checks: the singular values against LAPACK's dgesdd on the same (rounded)
 * input, and the exact ones for geometric and repeated, within
 * 30 max(m, n) eps ||A||_2; with vectors
 * ||A - U S V^T||_F / (max(m, n) ||A||_F), ||I - U^T U||_F / m and
 * ||I - V V^T||_F / n at most 30 eps (with A: all of U and V^T); in
 * double with leading dimensions beyond the minimum. NB: the block size
 * (0: default). Prints one line; exit status 0 pass, 1 fail, 2 bad
 * arguments. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"
#include "spectra.h"

static const char *prog = "test_gesdd";

/* The rows-by-cols x (leading dimension ld, float in single) in double,
 * leading dimension rows. */
static double *in_double(char prec, int64_t rows, int64_t cols, const void *x, int64_t ld)
{
	double *d = malloc(sizeof *d * (size_t)(rows * cols));
	for (int64_t j = 0; d && j < cols; j++)
		for (int64_t i = 0; i < rows; i++)
			d[i + j * rows] = prec == 's' ? ((const float *)x)[i + j * ld]
			                              : ((const double *)x)[i + j * ld];
	return d;
}

int main(int argc, char **argv)
{
	if ((argc != 6 && argc != 7) || (strcmp(argv[1], "d") && strcmp(argv[1], "s")) ||
	    strlen(argv[4]) != 1 || !strchr("NSAO", argv[4][0]))
		die_usage(prog, "usage: test_gesdd d|s M N N|S|A|O "
		                "random|graded|geometric|repeated|gapped|underflow [NB]");
	char prec = argv[1][0], jobz = argv[4][0];
	const char *kind = argv[5];
	int64_t m = parse_size(prog, "M", argv[2]), n = parse_size(prog, "N", argv[3]);
	int64_t k = m < n ? m : n, ucols = jobz == 'A' ? m : k, vrows = jobz == 'A' ? n : k;
	hyla_options opts = {.nb = argc == 7 ? parse_int(prog, "NB", argv[6], 0, 1 << 20) : 0};
	size_t el = prec == 's' ? sizeof(float) : sizeof(double);
	/* Double precision: leading dimensions beyond the minimum. */
	int pad = prec == 'd';
	int64_t lda = m + pad, ldu = m + 2 * pad, ldvt = vrows + pad;
	double *a0 = malloc(sizeof *a0 * (size_t)(m * n)), *ref = malloc(sizeof *ref * (size_t)(2 * k));
	double *exact = ref + k;
	void *wa = malloc(el * (size_t)(lda * n)), *ws = malloc(el * (size_t)k);
	void *wu = malloc(el * (size_t)(ldu * ucols)), *wvt = malloc(el * (size_t)(ldvt * n));
	if (!a0 || !ref || !wa || !ws || !wu || !wvt)
		return 1;
	int known = !strcmp(kind, "geometric") || !strcmp(kind, "repeated");
	if (general_matrix(kind, m, n, a0, 5, known ? exact : NULL))
		die_usage(prog, "KIND '%s' is not one of random, graded, geometric, repeated, gapped, underflow",
		          kind);
	if (prec == 's')
		round_to_float(m, n, a0, m);

	int info;
	if (prec == 's') {
		to_float(m, n, a0, m, wa);
		info = hyla_sgesdd(jobz, m, n, wa, lda, ws, wu, ldu, wvt, ldvt, &opts);
	} else {
		for (int64_t j = 0; j < n; j++)
			memcpy((double *)wa + j * lda, a0 + j * m, sizeof *a0 * (size_t)m);
		info = hyla_dgesdd(jobz, m, n, wa, lda, ws, wu, ldu, wvt, ldvt, &opts);
	}
	/* jobz O: U over a (m >= n), else V^T over a. */
	int u_in_a = jobz == 'O' && m >= n, vt_in_a = jobz == 'O' && m < n;
	double *s = in_double(prec, k, 1, ws, k);
	double *u = in_double(prec, m, ucols, u_in_a ? wa : wu, u_in_a ? lda : ldu);
	double *vt = in_double(prec, vrows, n, vt_in_a ? wa : wvt, vt_in_a ? lda : ldvt);
	if (!s || !u || !vt)
		return 1;

	double eps = prec == 's' ? 0x1p-24 : 0x1p-53, big = (double)(m > n ? m : n);
	int ok = info == 0 && lapack_singular_values(m, n, a0, ref) == 0;
	double tol = 30 * big * eps * ref[0];
	double err = eigenvalue_error(k, s, ref), err_exact = known ? eigenvalue_error(k, s, exact) : 0;
	ok = ok && err <= tol && err_exact <= tol;
	double resid = 0, orth_u = 0, orth_v = 0;
	if (jobz != 'N') {
		ok = ok && svd_residuals(m, n, a0, s, u, m, vt, vrows, &resid, &orth_u, &orth_v) == 0;
		if (jobz == 'A') { /* all of U and V^T */
			orth_u = orthogonality(m, m, u, m);
			orth_v = orthogonality(n, n, vt, n);
		}
		resid /= big * eps, orth_u /= (double)m * eps, orth_v /= (double)n * eps;
		ok = ok && resid <= 30 && orth_u <= 30 && orth_v <= 30;
	}
	printf("gesdd prec=%c m=%lld n=%lld jobz=%c kind=%s nb=%lld info=%d values vs LAPACK %.1e, "
	       "vs exact %.1e (tol %.1e) resid=%.2f orth_u=%.2f orth_v=%.2f (n eps) %s\n",
	       prec, (long long)m, (long long)n, jobz, kind, (long long)opts.nb, info, err, err_exact,
	       tol, resid, orth_u, orth_v, ok ? "pass" : "FAILED");
	free(a0), free(ref), free(wa), free(ws), free(wu), free(wvt), free(s), free(u), free(vt);
	return !ok;
}
