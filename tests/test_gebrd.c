/* Tester for the bidiagonal reduction: test_gebrd PREC M N
 * hyla_dgebrd on a random m-by-n A; checks, against LAPACK's dgebrd (or
 * sgebrd) on the same input: d, e, tauq, taup and the reflectors, relative
 * differences within 1e3 sqrt(n) eps (1e5 in single: LAPACK blocks the
 * same work otherwise, and the reflectors' rounding differs); the
 * identities with Q and P^T from LAPACK's dorgbr on hyla's output:
 * ||A - Q B P^T||_F / (n ||A||_F), ||I - Q^T Q||_F / n, ||I - P^T P||_F / n at
 * most 30 eps; B's singular values (dbdsqr) against dgesdd's within
 * 30 n eps ||A||_2.
 * Prints one line; exit status 0 pass, 1 fail, 2 bad arguments. */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"

static const char *prog = "test_gebrd";

static double rel_diff(int64_t len, const double *x, const double *y)
{
	double d = 0, s = 0;
	for (int64_t i = 0; i < len; i++) {
		d += (x[i] - y[i]) * (x[i] - y[i]);
		s += y[i] * y[i];
	}
	return s > 0 ? sqrt(d / s) : sqrt(d);
}

/* LAPACK's gebrd in prec on the double a (m-by-n), results in double. */
static void lapack_gebrd(char prec, int m, int n, double *a, double *v)
{
	double *d = v, *e = v + n, *tq = v + 2 * n, *tp = v + 3 * n;
	if (prec == 'd') {
		LAPACKE_dgebrd(LAPACK_COL_MAJOR, m, n, a, m, d, e, tq, tp);
		return;
	}
	float *f = malloc(sizeof *f * (size_t)m * n), *fv = malloc(sizeof *fv * (size_t)(4 * n));
	to_float(m, n, a, m, f);
	LAPACKE_sgebrd(LAPACK_COL_MAJOR, m, n, f, m, fv, fv + n, fv + 2 * n, fv + 3 * n);
	to_double(m, n, f, a, m);
	to_double(4 * n, 1, fv, v, 4 * n);
	free(f), free(fv);
}

static int hyla_gebrd(char prec, int64_t m, int64_t n, double *a, double *v)
{
	if (prec == 'd')
		return hyla_dgebrd(m, n, a, m, v, v + n, v + 2 * n, v + 3 * n);
	float *f = malloc(sizeof *f * (size_t)(m * n)), *fv = malloc(sizeof *fv * (size_t)(4 * n));
	to_float(m, n, a, m, f);
	int info = hyla_sgebrd(m, n, f, m, fv, fv + n, fv + 2 * n, fv + 3 * n);
	to_double(m, n, f, a, m);
	to_double(4 * n, 1, fv, v, 4 * n);
	free(f), free(fv);
	return info;
}

int main(int argc, char **argv)
{
	if (argc != 4 || (strcmp(argv[1], "d") && strcmp(argv[1], "s")))
		die_usage(prog, "usage: test_gebrd d|s M N (M >= N)");
	char prec = argv[1][0];
	int64_t m = parse_size(prog, "M", argv[2]), n = parse_size(prog, "N", argv[3]);
	if (m < n)
		die_usage(prog, "M = %lld must be >= N = %lld", (long long)m, (long long)n);
	size_t mn = (size_t)(m * n);
	double *a0 = malloc(sizeof *a0 * mn), *a = malloc(sizeof *a * mn), *ref = malloc(sizeof *ref * mn);
	double *v = calloc((size_t)(8 * n), sizeof *v), *vr = v + 4 * n;
	if (!a0 || !a || !ref || !v)
		return 1;
	random_matrix(m, n, a0, m, 8);
	if (prec == 's')
		round_to_float(m, n, a0, m);
	memcpy(a, a0, sizeof *a * mn);
	int info = hyla_gebrd(prec, m, n, a, v);
	memcpy(ref, a0, sizeof *ref * mn);
	lapack_gebrd(prec, (int)m, (int)n, ref, vr);

	/* The reflectors: below the diagonal (Q's) and right of the superdiagonal (P's). */
	double rd = 0, rs = 0;
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < m; i++)
			if (i > j || j > i + 1) {
				rd += (a[i + j * m] - ref[i + j * m]) * (a[i + j * m] - ref[i + j * m]);
				rs += ref[i + j * m] * ref[i + j * m];
			}
	double vdiff = sqrt(rd / rs), ddiff = rel_diff(n, v, vr), ediff = rel_diff(n - 1, v + n, vr + n);
	double tqdiff = rel_diff(n, v + 2 * n, vr + 2 * n), tpdiff = rel_diff(n, v + 3 * n, vr + 3 * n);

	double resid = NAN, orth = NAN, scale = 0;
	int checked = bidiagonal_residuals(m, n, a0, m, a, v, v + n, v + 2 * n, v + 3 * n, &resid, &orth);
	double sv = bidiagonal_sv_error(m, n, a0, m, v, v + n, &scale);

	double eps = prec == 's' ? 0x1p-24 : 0x1p-53;
	double tol = (prec == 's' ? 1e5 : 1e3) * sqrt((double)n) * eps;
	int ok = info == 0 && checked == 0 && resid <= 30 * eps && orth <= 30 * eps &&
	         sv <= 30 * n * eps * scale && ddiff <= tol && ediff <= tol && tqdiff <= tol &&
	         tpdiff <= tol && vdiff <= tol;
	printf("gebrd prec=%c m=%lld n=%lld info=%d resid=%.1f eps orth=%.1f eps sv=%.2e "
	       "vs LAPACK: d=%.1e e=%.1e tauq=%.1e taup=%.1e v=%.1e (tol %.1e) %s\n",
	       prec, (long long)m, (long long)n, info, resid / eps, orth / eps, sv, ddiff,
	       ediff, tqdiff, tpdiff, vdiff, tol, ok ? "pass" : "FAILED");
	free(a0), free(a), free(ref), free(v);
	return !ok;
}
