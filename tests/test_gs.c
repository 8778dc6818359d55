/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Tester for the Gram-Schmidt QRs: test_gs ALG PREC M N NB [COND]
 * ALG: mgs, mgs_vector, cgs2, cgs, cgs_vector. Factors a random matrix (or
 * one of condition COND, LAPACK dlatms) and checks
 *   ||A - QR||_F / ||A||_F              <= 10 sqrt(n) eps
 *   ||I - Q^T Q||_F                     <= 5 sqrt(n) eps f(cond), the loss of
 *       orthogonality each algorithm is known for: f = cond (MGS),
 *       cond^2 (CGS), sqrt(n) (CGS2: rounding errors of n^2 entries);
 *   R against LAPACK's geqrf R, rows scaled to the same signs,
 *   ||R - D R_lapack||_F / ||R||_F      <= 5 sqrt(n) eps max(cond, f(cond));
 *   the U mu form (hyla_qr_to_umu): ||A - U mu||_F / ||A||_F as the
 *       residual, mu's diagonal exactly 1.
 * cond is the one given, else LAPACK's 1-norm estimate for R.
 * Prints one line; exit status 0 pass, 1 fail, 2 bad arguments. */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"

static const char *prog = "test_gs";

static const char *const algs[] = {"mgs", "mgs_vector", "cgs2", "cgs", "cgs_vector"};

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

/* The orthogonality each algorithm keeps, in units of eps sqrt(n). */
static double orth_growth(int alg, int64_t n, double cond)
{
	return alg < 2 ? cond : alg == 2 ? sqrt((double)n) : cond * cond;
}

/* ||R - D R_ref||_F / ||R||_F, D = diag(sign(R_ref(i,i) * R(i,i))). */
static double r_difference(int64_t n, const double *r, const double *ref, int64_t ldref)
{
	double diff = 0, norm = 0;
	for (int64_t i = 0; i < n; i++) {
		double s = (ref[i + i * ldref] < 0) == (r[i + i * n] < 0) ? 1 : -1;
		for (int64_t j = i; j < n; j++) {
			double d = r[i + j * n] - s * ref[i + j * ldref];
			diff += d * d;
			norm += r[i + j * n] * r[i + j * n];
		}
	}
	return sqrt(diff / norm);
}

int main(int argc, char **argv)
{
	int alg = -1;
	for (int i = 0; argc > 1 && i < 5; i++)
		if (!strcmp(argv[1], algs[i]))
			alg = i;
	if (argc < 6 || argc > 7 || alg < 0 || (strcmp(argv[2], "d") && strcmp(argv[2], "s")))
		die_usage(prog, "usage: test_gs mgs|mgs_vector|cgs2|cgs|cgs_vector d|s M N NB [COND]");
	char prec = argv[2][0];
	int64_t m = parse_size(prog, "M", argv[3]), n = parse_size(prog, "N", argv[4]);
	int64_t nb = parse_size(prog, "NB", argv[5]);
	double cond = argc == 7 ? atof(argv[6]) : 0;

	double *a0 = malloc(sizeof *a0 * (size_t)(m * n));
	double *q = malloc(sizeof *q * (size_t)(m * n));
	double *r = malloc(sizeof *r * (size_t)(n * n));
	void *work_a = malloc(sizeof(double) * (size_t)(m * n));
	void *work_r = malloc(sizeof(double) * (size_t)(n * n));
	double *tau = malloc(sizeof *tau * (size_t)n);
	if (!a0 || !q || !r || !work_a || !work_r || !tau)
		return 1;
	if (cond > 0) {
		if (conditioned_matrix(m, n, a0, m, cond, 3)) {
			fprintf(stderr, "%s: dlatms failed\n", prog);
			return 1;
		}
	} else {
		random_matrix(m, n, a0, m, 3);
	}
	if (prec == 's')
		round_to_float(m, n, a0, m);

	if (prec == 's')
		to_float(m, n, a0, m, work_a);
	else
		memcpy(work_a, a0, sizeof(double) * (size_t)(m * n));
	memset(work_r, 0xff, sizeof(double) * (size_t)(n * n)); /* NaNs where R must be zeroed */
	int info = factor(alg, prec, m, n, work_a, work_r, nb);
	if (prec == 's') {
		to_double(m, n, work_a, q, m);
		to_double(n, n, work_r, r, n);
	} else {
		memcpy(q, work_a, sizeof(double) * (size_t)(m * n));
		memcpy(r, work_r, sizeof(double) * (size_t)(n * n));
	}
	/* U and mu from the same factors. */
	int umu_info = prec == 's' ? hyla_sqr_to_umu(m, n, work_a, m, work_r, n)
	                           : hyla_dqr_to_umu(m, n, work_a, m, work_r, n);
	double *u = malloc(sizeof *u * (size_t)(m * n)), *mu = malloc(sizeof *mu * (size_t)(n * n));
	if (!u || !mu)
		return 1;
	if (prec == 's') {
		to_double(m, n, work_a, u, m);
		to_double(n, n, work_r, mu, n);
	} else {
		memcpy(u, work_a, sizeof(double) * (size_t)(m * n));
		memcpy(mu, work_r, sizeof(double) * (size_t)(n * n));
	}
	int lower_zero = 1; /* R's strictly lower triangle, as the routines zero it */
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = j + 1; i < n; i++)
			lower_zero = lower_zero && r[i + j * n] == 0;
	int unit = umu_info == 0;
	for (int64_t j = 0; j < n; j++)
		unit = unit && mu[j + j * n] == 1;
	double umu_resid = qr_residual(m, n, a0, m, u, m, mu, n);

	/* Reference R from LAPACK, in double on the same (rounded) input. */
	double *ref = work_a;
	memcpy(ref, a0, sizeof(double) * (size_t)(m * n));
	LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (lapack_int)m, (lapack_int)n, ref, (lapack_int)m, tau);

	double eps = prec == 's' ? 0x1p-24 : 0x1p-53;
	double kappa = cond > 0 ? cond : triangular_condition(n, ref, m);
	double resid = qr_residual(m, n, a0, m, q, m, r, n);
	double orth = orthogonality(m, n, q, m);
	double rdiff = r_difference(n, r, ref, m);
	double growth = orth_growth(alg, n, kappa);
	double tol_resid = 10 * sqrt((double)n) * eps, tol_orth = 5 * sqrt((double)n) * growth * eps;
	double tol_r = 5 * sqrt((double)n) * (growth > kappa ? growth : kappa) * eps;
	/* The drivers' sampled check: passes this result, catches a wrong R. */
	double s_resid = NAN, s_orth = NAN, s_bad = NAN, junk;
	int sampled = qr_sampled_errors(m, n, a0, m, q, m, r, n, 4, &s_resid, &s_orth) == 0;
	r[(n - 1) * n] += 1e4 * sqrt((double)n) * tol_resid * fabs(r[0]); /* resid ~ 1e4 tol */
	sampled &= qr_sampled_errors(m, n, a0, m, q, m, r, n, 4, &s_bad, &junk) == 0;
	sampled &= s_resid <= tol_resid && s_orth <= tol_orth && s_bad > 100 * tol_resid;
	int ok = info == 0 && lower_zero && resid <= tol_resid && orth <= tol_orth && rdiff <= tol_r &&
	         unit && umu_resid <= tol_resid && sampled;
	printf("%s prec=%c m=%lld n=%lld nb=%lld cond=%.1e info=%d resid=%.2e (tol %.1e) "
	       "orth=%.2e (tol %.1e) r_vs_lapack=%.2e (tol %.1e) umu_resid=%.2e mu_unit=%s "
	       "sampled=%.1e/%.1e (wrong R: %.1e) r_lower_zero=%s %s\n",
	       algs[alg], prec, (long long)m, (long long)n, (long long)nb, kappa, info, resid,
	       tol_resid, orth, tol_orth, rdiff, tol_r, umu_resid, unit ? "yes" : "no", s_resid, s_orth,
	       s_bad, lower_zero ? "yes" : "no", ok ? "pass" : "FAILED");
	free(a0), free(q), free(r), free(work_a), free(work_r), free(tau), free(u), free(mu);
	return !ok;
}
