/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* gs_accuracy: orthogonality and residual of hyla's QRs (MGS, CGS, CGS2,
 * Householder: geqrf + orgqr) on matrices of
 * prescribed condition (LAPACK dlatms), for the accuracy study of
 * bench/accuracy.py. Prints CSV: algorithm,cond,orth,resid.
 * With --check, exits 1 unless each stays within a generous factor of its
 * expected curve (eps = 2^-53, c = 5 sqrt(n)):
 *   MGS ||I - Q^T Q|| <= c cond eps; CGS <= c cond^2 eps (while that is < 1);
 *   CGS2 and Householder <= c sqrt(n) eps (while cond eps < 1e-2);
 *   every residual ||A - QR||/||A|| <= c eps.
 * Usage: gs_accuracy [M N] [--check] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"
#include "program.h"

enum { MGS, CGS, CGS2, HOUSEHOLDER, NALGS };
static const char *const names[] = {"MGS", "CGS", "CGS2", "Householder"};

static int factor(int alg, int64_t m, int64_t n, double *q, double *r)
{
	if (alg == MGS)
		return hyla_dmgs(m, n, q, m, r, n, NULL);
	if (alg != HOUSEHOLDER)
		return hyla_dcgs(m, n, q, m, r, n,
		                 &(hyla_options){.cgs_variant = alg == CGS ? HYLA_CGS : HYLA_CGS2});
	double *tau = malloc(sizeof *tau * (size_t)n);
	int info = !tau || hyla_dgeqrf(m, n, q, m, tau, NULL);
	for (int64_t j = 0; j < n && !info; j++)
		for (int64_t i = 0; i < n; i++)
			r[i + j * n] = i <= j ? q[i + j * m] : 0;
	info = info || hyla_dorgqr(m, n, n, q, m, tau, NULL);
	free(tau);
	return info;
}

static double bound(int alg, double cond, int64_t n)
{
	double eps = 0x1p-53, c = 5 * sqrt((double)n);
	switch (alg) {
	case MGS: return c * cond * eps;
	case CGS: return cond * cond * eps < 1 ? c * cond * cond * eps : INFINITY;
	default: return cond * eps < 1e-2 ? c * sqrt((double)n) * eps : INFINITY;
	}
}

int main(int argc, char **argv)
{
	program_options(argc, argv, "gs_accuracy",
	                "usage: gs_accuracy [M N] [--check]\n"
	                "Orthogonality and residual of hyla's QRs on matrices of prescribed condition\n"
	                "(CSV: algorithm,cond,orth,resid); --check: exit 1 unless each stays within a\n"
	                "generous factor of its expected curve.\n");
	int check = argc > 1 && !strcmp(argv[argc - 1], "--check");
	int npos = argc - 1 - check;
	int64_t m = npos >= 1 ? parse_size("gs_accuracy", "M", argv[1]) : 1000;
	int64_t n = npos >= 2 ? parse_size("gs_accuracy", "N", argv[2]) : m / 2;
	if (npos > 2 || n > m)
		die_usage("gs_accuracy", "usage: gs_accuracy [M N] [--check], N <= M");
	double *a = malloc(sizeof *a * (size_t)(m * n)), *q = malloc(sizeof *q * (size_t)(m * n));
	double *r = malloc(sizeof *r * (size_t)(n * n));
	if (!a || !q || !r)
		return 1;
	int failed = 0;
	printf("algorithm,cond,orth,resid\n");
	for (int e = 1; e <= 14; e++) {
		double cond = pow(10, e);
		if (conditioned_matrix(m, n, a, m, cond, 7))
			return 1;
		for (int alg = 0; alg < NALGS; alg++) {
			memcpy(q, a, sizeof *a * (size_t)(m * n));
			int info = factor(alg, m, n, q, r);
			double orth = orthogonality(m, n, q, m), resid = qr_residual(m, n, a, m, q, m, r, n);
			int ok = info == 0 && orth <= bound(alg, cond, n) && resid <= 5 * sqrt((double)n) * 0x1p-53;
			printf("%s,%.0e,%.3e,%.3e%s\n", names[alg], cond, orth, resid,
			       check && !ok ? ",FAILED" : "");
			failed |= check && !ok;
		}
	}
	free(a), free(q), free(r);
	hyla_finalize();
	return failed;
}
