/* Tester for MGS QR: test_mgs PREC M N NB FORM [COND]
 * Factors a random matrix (or one of condition COND) and checks
 *   ||A - QR||_F / ||A||_F      <= 10 sqrt(n) eps
 *   ||I - Q^T Q||_F             <= 5 sqrt(n) cond eps   (MGS loses
 *                                  orthogonality in proportion to cond)
 *   R against LAPACK's geqrf R, rows scaled to the same signs,
 *   ||R - D R_lapack||_F / ||R||_F <= 5 sqrt(n) cond eps.
 * cond is the one given, else LAPACK's 1-norm estimate for R.
 * Prints one line; exit status 0 pass, 1 fail, 2 bad arguments. */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"

static const char *prog = "test_mgs";

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
	if (argc < 6 || argc > 7 || (strcmp(argv[1], "d") && strcmp(argv[1], "s")))
		die_usage(prog, "usage: test_mgs d|s M N NB blocked|vector [COND]");
	char prec = argv[1][0];
	int64_t m = parse_size(prog, "M", argv[2]), n = parse_size(prog, "N", argv[3]);
	int64_t nb = parse_size(prog, "NB", argv[4]);
	hyla_mgs_form form = strcmp(argv[5], "vector") ? HYLA_MGS_BLOCKED : HYLA_MGS_VECTOR;
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

	int info;
	if (prec == 's') {
		to_float(m, n, a0, m, work_a);
		info = hyla_smgs(m, n, work_a, m, work_r, n, nb, form);
		to_double(m, n, work_a, q, m);
		to_double(n, n, work_r, r, n);
	} else {
		memcpy(work_a, a0, sizeof(double) * (size_t)(m * n));
		info = hyla_dmgs(m, n, work_a, m, work_r, n, nb, form);
		memcpy(q, work_a, sizeof(double) * (size_t)(m * n));
		memcpy(r, work_r, sizeof(double) * (size_t)(n * n));
	}

	/* Reference R from LAPACK, in double on the same (rounded) input. */
	double *ref = work_a;
	memcpy(ref, a0, sizeof(double) * (size_t)(m * n));
	LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (lapack_int)m, (lapack_int)n, ref, (lapack_int)m, tau);

	double eps = prec == 's' ? 0x1p-24 : 0x1p-53;
	double kappa = cond > 0 ? cond : triangular_condition(n, ref, m);
	double resid = qr_residual(m, n, a0, m, q, m, r, n);
	double orth = orthogonality(m, n, q, m);
	double rdiff = r_difference(n, r, ref, m);
	double tol_resid = 10 * sqrt((double)n) * eps, tol_orth = 5 * sqrt((double)n) * kappa * eps;
	int ok = info == 0 && resid <= tol_resid && orth <= tol_orth && rdiff <= tol_orth;
	printf("mgs prec=%c m=%lld n=%lld nb=%lld form=%s cond=%.1e info=%d resid=%.2e (tol %.1e) "
	       "orth=%.2e (tol %.1e) r_vs_lapack=%.2e %s\n",
	       prec, (long long)m, (long long)n, (long long)nb, argv[5], kappa, info, resid, tol_resid,
	       orth, tol_orth, rdiff, ok ? "pass" : "FAILED");
	free(a0), free(q), free(r), free(work_a), free(work_r), free(tau);
	return !ok;
}
