/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The Gram-Schmidt QRs at the edges: test_gs_edges PREC
 * - scaled inputs: a 200-by-200 matrix of condition 4e3, times 1e200 and
 *   1e-170 (1e30 and 1e-30 in single), factors as the unscaled one does:
 *   info 0, ||A - Q R||_F / ||A||_F at most 30 n eps (A and R scaled back),
 *   ||I - Q^T Q||_F at most twice the unscaled run's plus 30 n eps;
 * - a dependent column: a 300-by-100 matrix whose column 60 equals column
 *   10 gives info 60; one whose column 40 is 1e-18 times column 5 plus
 *   column 7 gives 40 (the remainder is below the rounding of the
 *   projections relative to the column, not zero);
 * for MGS (blocked, vector), CGS2, CGS and CGS's vector form. Prints a line
 * per case; exit status 0 pass, 1 fail. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"

static const char *const names[] = {"mgs", "mgs_vector", "cgs2", "cgs", "cgs_vector"};

static int factor(int alg, char prec, int64_t m, int64_t n, void *a, void *r, int64_t nb)
{
	if (alg < 2) {
		hyla_mgs_form form = alg ? HYLA_MGS_VECTOR : HYLA_MGS_BLOCKED;
		hyla_options o = {.nb = nb, .mgs_form = form};
		return prec == 's' ? hyla_smgs(m, n, a, m, r, n, &o) : hyla_dmgs(m, n, a, m, r, n, &o);
	}
	hyla_cgs_variant v = alg == 2 ? HYLA_CGS2 : alg == 3 ? HYLA_CGS : HYLA_CGS_VECTOR;
	hyla_options o = {.nb = nb, .cgs_variant = v};
	return prec == 's' ? hyla_scgs(m, n, a, m, r, n, &o) : hyla_dcgs(m, n, a, m, r, n, &o);
}

/* Factors the double a (m-by-n) in prec, Q over q and R into r (double). */
static int run(int alg, char prec, int64_t m, int64_t n, const double *a, double *q, double *r)
{
	size_t elsize = prec == 's' ? sizeof(float) : sizeof(double);
	void *wa = working_copy(m, n, a, m, prec), *wr = malloc(elsize * (size_t)(n * n));
	if (!wa || !wr) {
		fprintf(stderr, "test_gs_edges: out of memory\n");
		exit(1);
	}
	int info = factor(alg, prec, m, n, wa, wr, 32);
	if (prec == 's') {
		to_double(m, n, wa, q, m);
		to_double(n, n, wr, r, n);
	} else {
		memcpy(q, wa, sizeof *q * (size_t)(m * n));
		memcpy(r, wr, sizeof *r * (size_t)(n * n));
	}
	free(wa), free(wr);
	return info;
}

static int scaled_case(int alg, char prec, double scale, const double *a0, int64_t n)
{
	double eps = prec == 's' ? 0x1p-24 : 0x1p-53;
	size_t nn = (size_t)(n * n);
	double *a = malloc(sizeof *a * nn), *q = malloc(sizeof *q * nn), *r = malloc(sizeof *r * nn);
	int info0 = run(alg, prec, n, n, a0, q, r);
	double orth0 = orthogonality(n, n, q, n);
	for (size_t i = 0; i < nn; i++)
		a[i] = a0[i] * scale;
	int info = run(alg, prec, n, n, a, q, r);
	for (size_t i = 0; i < nn; i++)
		a[i] /= scale, r[i] /= scale;
	double orth = orthogonality(n, n, q, n), resid = qr_residual(n, n, a, n, q, n, r, n);
	int ok = info0 == 0 && info == 0 && resid <= 30 * n * eps && orth <= 2 * orth0 + 30 * n * eps;
	printf("%s %s %c scaled by %g: info %d (unscaled %d), ||A - QR||/||A|| %.2e, ||I - Q^T Q|| "
	       "%.2e (unscaled %.2e)\n", ok ? "ok:" : "FAILED:", names[alg], prec, scale, info, info0,
	       resid, orth, orth0);
	free(a), free(q), free(r);
	return ok;
}

static int dependent_case(int alg, char prec, int64_t m, int64_t n, const double *a, int expect)
{
	double *q = malloc(sizeof *q * (size_t)(m * n)), *r = malloc(sizeof *r * (size_t)(n * n));
	int info = run(alg, prec, m, n, a, q, r);
	int ok = info == expect;
	printf("%s %s %c dependent column %d: info %d\n", ok ? "ok:" : "FAILED:", names[alg], prec,
	       expect, info);
	free(q), free(r);
	return ok;
}

int main(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "d") && strcmp(argv[1], "s"))) {
		fprintf(stderr, "usage: test_gs_edges d|s\n");
		return 2;
	}
	char prec = argv[1][0];
	const int64_t n = 200, m2 = 300, n2 = 100;
	double *a = malloc(sizeof *a * (size_t)(n * n)), *b = malloc(sizeof *b * (size_t)(m2 * n2));
	double *c = malloc(sizeof *c * (size_t)(m2 * n2));
	if (!a || !b || !c || conditioned_matrix(n, n, a, n, 4e3, 7)) {
		fprintf(stderr, "test_gs_edges: out of memory\n");
		return 1;
	}
	random_matrix(m2, n2, b, m2, 3);
	memcpy(b + 59 * m2, b + 9 * m2, sizeof *b * (size_t)m2);
	random_matrix(m2, n2, c, m2, 4);
	for (int64_t i = 0; i < m2; i++)
		c[i + 39 * m2] = 1e-18 * c[i + 4 * m2] + c[i + 6 * m2];
	if (prec == 's') {
		round_to_float(n, n, a, n);
		round_to_float(m2, n2, b, m2);
		round_to_float(m2, n2, c, m2);
	}
	double big = prec == 's' ? 1e30 : 1e200, tiny = prec == 's' ? 1e-30 : 1e-170;
	int fails = 0;
	for (int alg = 0; alg < 5; alg++) {
		fails += !scaled_case(alg, prec, big, a, n);
		fails += !scaled_case(alg, prec, tiny, a, n);
		fails += !dependent_case(alg, prec, m2, n2, b, 60);
		if (prec == 'd')
			fails += !dependent_case(alg, prec, m2, n2, c, 40);
	}
	free(a), free(b), free(c);
	hyla_finalize();
	return fails != 0;
}
