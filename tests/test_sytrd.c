/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Tester for the symmetric tridiagonal reduction: test_sytrd PREC N UPLO
 * hyla_dsytrd on a random symmetric A; checks, against LAPACK's dsytrd (or
 * ssytrd) on the same input: d, e, tau and the reflectors of the first LEAD
 * steps, relative differences within 100 sqrt(n) cond eps (1e5 for upper:
 * hyla reduces the mirrored matrix, other rounding). Later steps are not
 * compared entry by entry: T's entries can amplify rounding by 1e5 and more
 * (seen at n = 90, and with the GPU's GEMMs on most inputs), so a different
 * summation order is not an error; the identities below and the
 * eigenvalues judge them. The identities with Q from
 * LAPACK's dorgtr on hyla's output: ||A - Q T Q^T||_F / (n ||A||_F) and
 * ||I - Q^T Q||_F / n at most 30 eps; T's eigenvalues (dsterf) against
 * dsyevd's within 30 n eps ||A||_2.
 * Prints one line; exit status 0 pass, 1 fail, 2 bad arguments. */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"

static const char *prog = "test_sytrd";

/* Steps compared entry by entry with LAPACK's (the first ones reduced). */
#define LEAD 8

int main(int argc, char **argv)
{
	if (argc != 4 || (strcmp(argv[1], "d") && strcmp(argv[1], "s")) ||
	    (strcmp(argv[3], "L") && strcmp(argv[3], "U")))
		die_usage(prog, "usage: test_sytrd d|s N L|U");
	char prec = argv[1][0], uplo = argv[3][0];
	int64_t n = parse_size(prog, "N", argv[2]), nn = n * n;
	double *a0 = malloc(sizeof *a0 * (size_t)nn), *a = malloc(sizeof *a * (size_t)nn);
	double *ref = malloc(sizeof *ref * (size_t)nn);
	double *d = malloc(sizeof *d * (size_t)(6 * n)), *e = d + n, *tau = e + n, *dr = tau + n;
	double *er = dr + n, *tr = er + n;
	if (!a0 || !a || !ref || !d)
		return 1;
	random_matrix(n, n, a0, n, 6);
	for (int64_t j = 0; j < n; j++) /* symmetric: the lower triangle mirrored */
		for (int64_t i = 0; i < j; i++)
			a0[i + j * n] = a0[j + i * n];
	if (prec == 's')
		round_to_float(n, n, a0, n);

	int info;
	if (prec == 's') {
		float *f = malloc(sizeof *f * (size_t)nn), *fd = malloc(sizeof *fd * (size_t)(3 * n));
		to_float(n, n, a0, n, f);
		info = hyla_ssytrd(uplo, n, f, n, fd, fd + n, fd + 2 * n, NULL);
		to_double(n, n, f, a, n);
		for (int64_t i = 0; i < n; i++)
			d[i] = fd[i], e[i] = fd[n + i], tau[i] = fd[2 * n + i];
		free(f), free(fd);
	} else {
		memcpy(a, a0, sizeof *a * (size_t)nn);
		info = hyla_dsytrd(uplo, n, a, n, d, e, tau, NULL);
	}
	if (prec == 's') {
		float *f = malloc(sizeof *f * (size_t)nn), *fd = malloc(sizeof *fd * (size_t)(3 * n));
		to_float(n, n, a0, n, f);
		LAPACKE_ssytrd(LAPACK_COL_MAJOR, uplo, (int)n, f, (int)n, fd, fd + n, fd + 2 * n);
		to_double(n, n, f, ref, n);
		for (int64_t i = 0; i < n; i++)
			dr[i] = fd[i], er[i] = fd[n + i], tr[i] = fd[2 * n + i];
		free(f), free(fd);
	} else {
		memcpy(ref, a0, sizeof *ref * (size_t)nn);
		LAPACKE_dsytrd(LAPACK_COL_MAJOR, uplo, (int)n, ref, (int)n, dr, er, tr);
	}

	/* The first LEAD steps: columns 0.. for lower, n-1 down for upper (the
	 * reflectors: the triangle dsytrd stores them in, past the subdiagonal). */
	int64_t lead = n - 1 < LEAD ? n - 1 : LEAD, first = uplo == 'L' ? 0 : n - 1 - lead;
	double rd = 0, rs = 0;
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < n; i++) {
			int stored = uplo == 'L' ? i > j + 1 && j < lead : j > i + 1 && j > first;
			if (stored) {
				rd += (a[i + j * n] - ref[i + j * n]) * (a[i + j * n] - ref[i + j * n]);
				rs += ref[i + j * n] * ref[i + j * n];
			}
		}
	double vdiff = rs > 0 ? sqrt(rd / rs) : sqrt(rd);
	int64_t d0 = uplo == 'L' ? 0 : first + 1;
	double ddiff = relative_difference(lead, 1, d + d0, dr + d0, lead);
	double ediff = relative_difference(lead, 1, e + first, er + first, lead);
	double tdiff = relative_difference(lead, 1, tau + first, tr + first, lead);

	double resid, orth, spread;
	int checked = tridiagonal_residuals(n, uplo, a0, n, a, d, e, tau, &resid, &orth);
	double eig = tridiagonal_eig_error(n, a0, n, d, e, &spread);
	double mid = fabs(d[n / 2]) > 0 ? fabs(d[n / 2]) : 1;

	double eps = prec == 's' ? 0x1p-24 : 0x1p-53;
	double kappa = spread / mid, tol = (uplo == 'U' ? 1e5 : 100) * sqrt((double)n) * eps;
	int ok = info == 0 && checked == 0 && resid <= 30 * eps && orth <= 30 * eps && eig <= 30 * n * eps * spread &&
	         ddiff <= tol * kappa && ediff <= tol * kappa && tdiff <= tol * kappa && vdiff <= tol * kappa;
	printf("sytrd prec=%c n=%lld uplo=%c info=%d resid=%.1f eps orth=%.1f eps eig=%.2e "
	       "first steps vs LAPACK: d=%.1e e=%.1e tau=%.1e v=%.1e (tol %.1e) %s\n",
	       prec, (long long)n, uplo, info, resid / eps, orth / eps, eig, ddiff, ediff, tdiff, vdiff,
	       tol * kappa, ok ? "pass" : "FAILED");
	free(a0), free(a), free(ref), free(d);
	return !ok;
}
