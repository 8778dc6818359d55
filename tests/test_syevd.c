/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Tester for the symmetric eigensolver: test_syevd PREC N UPLO JOBZ KIND [NB]
 * hyla_dsyevd (or ssyevd) on a symmetric A of KIND (random, graded,
 * clustered, known, repeated: examples/spectra.h) held in its UPLO triangle, the
 * other one NaN, which the values alone must leave as it was (in double
 * also the rows past n of lda = n + 2, never touched). Checks: the
 * eigenvalues against LAPACK's dsyevd on the same (rounded) input, and
 * against the exact ones where KIND knows them, within 30 n eps ||A||_2;
 * with JOBZ V, ||A - V W V^T||_F / (n ||A||_F) and ||I - V^T V||_F / n at
 * most 30 eps. NB: the block size (0: default).
 * Prints one line; exit status 0 pass, 1 fail, 2 bad arguments. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"
#include "spectra.h"

static const char *prog = "test_syevd";

int main(int argc, char **argv)
{
	if ((argc != 6 && argc != 7) || (strcmp(argv[1], "d") && strcmp(argv[1], "s")) ||
	    (strcmp(argv[3], "L") && strcmp(argv[3], "U")) ||
	    (strcmp(argv[4], "N") && strcmp(argv[4], "V")))
		die_usage(prog, "usage: test_syevd d|s N L|U N|V random|graded|clustered|known|repeated|gapped|underflow [NB]");
	char prec = argv[1][0], uplo = argv[3][0], jobz = argv[4][0];
	const char *kind = argv[5];
	int64_t n = parse_size(prog, "N", argv[2]), nn = n * n;
	hyla_options opts = {.nb = argc == 7 ? parse_int(prog, "NB", argv[6], 0, 1 << 20) : 0};
	/* Double precision: a leading dimension beyond n, whose rows past n
	 * must stay as they were. */
	int64_t lda = prec == 'd' ? n + 2 : n;
	double *a0 = malloc(sizeof *a0 * (size_t)nn), *a = malloc(sizeof *a * (size_t)(lda * n));
	double *w = malloc(sizeof *w * (size_t)(3 * n)), *ref = w + n, *exact = ref + n;
	if (!a0 || !a || !w)
		return 1;
	int known = spectrum_known(kind);
	if (symmetric_matrix(kind, n, a0, 7, known ? exact : NULL))
		die_usage(prog, "KIND '%s' is not one of random, graded, clustered, known, repeated, gapped, underflow", kind);
	if (prec == 's')
		round_to_float(n, n, a0, n);
	/* The triangle the solver must not read: NaN; the rows past n: 7. */
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < lda; i++)
			a[i + j * lda] = i >= n ? 7 : (uplo == 'L' ? i < j : i > j) ? NAN : a0[i + j * n];

	int info;
	if (prec == 's') {
		float *f = malloc(sizeof *f * (size_t)nn), *fw = malloc(sizeof *fw * (size_t)n);
		if (!f || !fw)
			return 1;
		to_float(n, n, a, n, f);
		info = hyla_ssyevd(jobz, uplo, n, f, n, fw, &opts);
		to_double(n, n, f, a, n);
		for (int64_t i = 0; i < n; i++)
			w[i] = fw[i];
		free(f), free(fw);
	} else {
		info = hyla_dsyevd(jobz, uplo, n, a, lda, w, &opts);
	}
	/* Values alone: the other triangle as it was; always: the rows past n. */
	int kept = 1;
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < lda; i++)
			if (i >= n ? a[i + j * lda] != 7
			           : jobz == 'N' && (uplo == 'L' ? i < j : i > j) && !isnan(a[i + j * lda]))
				kept = 0;

	double eps = prec == 's' ? 0x1p-24 : 0x1p-53;
	int ok = info == 0 && kept && lapack_eigenvalues(n, a0, ref) == 0;
	double norm = fmax(fabs(ref[0]), fabs(ref[n - 1])), tol = 30 * (double)n * eps * norm;
	double err = eigenvalue_error(n, w, ref), err_exact = known ? eigenvalue_error(n, w, exact) : 0;
	ok = ok && err <= tol && err_exact <= tol;
	double resid = 0, orth = 0;
	if (jobz == 'V') {
		ok = ok && eigen_residuals(n, a0, w, a, lda, &resid, &orth) == 0;
		resid /= (double)n * eps, orth /= (double)n * eps;
		ok = ok && resid <= 30 && orth <= 30;
	}
	printf("syevd prec=%c n=%lld lda=%lld uplo=%c jobz=%c kind=%s nb=%lld info=%d values vs "
	       "LAPACK %.1e, vs exact %.1e (tol %.1e) resid=%.2f orth=%.2f (n eps)%s %s\n",
	       prec, (long long)n, (long long)lda, uplo, jobz, kind, (long long)opts.nb, info, err,
	       err_exact, tol, resid, orth, kept ? "" : " untouched entries changed",
	       ok ? "pass" : "FAILED");
	free(a0), free(a), free(w);
	return !ok;
}
