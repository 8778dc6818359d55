/* Tester for the bidiagonal reduction: test_gebrd PREC M N
 * hyla_dgebrd on a random m-by-n A; checks, against LAPACK's dgebrd (or
 * sgebrd) on the same input: d, e, tauq, taup and the reflectors, relative
 * differences within 1e3 sqrt(n) eps (1e5 in single: LAPACK blocks the
 * same work otherwise, and the reflectors' rounding differs); the
 * identities with Q and P^T from LAPACK's dorgbr on hyla's output:
 * ||A - Q B P^T||_F / (n ||A||_F), ||I - Q^T Q||_F / n, ||I - P^T P||_F / n at
 * most 30 eps; B's singular values (dbdsqr) against dgesvd's within
 * 30 n eps ||A||_2.
 * Prints one line; exit status 0 pass, 1 fail, 2 bad arguments. */
#include <cblas.h>
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
	double *q = malloc(sizeof *q * mn), *pt = malloc(sizeof *pt * (size_t)(n * n));
	if (!a0 || !a || !ref || !v || !q || !pt)
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

	/* Q (m-by-n) and P^T (n-by-n) from LAPACK's dorgbr; B from d and e. */
	memcpy(q, a, sizeof *q * mn);
	LAPACKE_dorgbr(LAPACK_COL_MAJOR, 'Q', (int)m, (int)n, (int)n, q, (int)m, v + 2 * n);
	LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'U', (int)n, (int)n, a, (int)m, pt, (int)n);
	LAPACKE_dorgbr(LAPACK_COL_MAJOR, 'P', (int)n, (int)n, (int)m, pt, (int)n, v + 3 * n);
	double *b = calloc((size_t)(n * n), sizeof *b), *qb = malloc(sizeof *qb * mn);
	for (int64_t j = 0; j < n; j++) {
		b[j + j * n] = v[j];
		if (j + 1 < n)
			b[j + (j + 1) * n] = v[n + j];
	}
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)n, 1, q, (int)m, b,
	            (int)n, 0, qb, (int)m);
	double *w = malloc(sizeof *w * mn);
	memcpy(w, a0, sizeof *w * mn);
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)n, -1, qb, (int)m, pt,
	            (int)n, 1, w, (int)m);
	double norm = LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', (int)m, (int)n, a0, (int)m);
	double resid = LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', (int)m, (int)n, w, (int)m) / (n * norm);
	double orth_q = orthogonality(m, n, q, m) / n, orth_p = orthogonality(n, n, pt, n) / n;

	/* Singular values: B's (dbdsqr) against A's (dgesvd), both descending. */
	double *s = malloc(sizeof *s * (size_t)(2 * n)), *sr = s + n;
	memcpy(s, v, sizeof *s * (size_t)n);
	memcpy(b, v + n, sizeof *b * (size_t)(n - 1 > 0 ? n - 1 : 1));
	LAPACKE_dbdsqr(LAPACK_COL_MAJOR, 'U', (int)n, 0, 0, 0, s, b, NULL, 1, NULL, 1, NULL, 1);
	memcpy(w, a0, sizeof *w * mn);
	double *superb = malloc(sizeof *superb * (size_t)n);
	LAPACKE_dgesvd(LAPACK_COL_MAJOR, 'N', 'N', (int)m, (int)n, w, (int)m, sr, NULL, 1, NULL, 1, superb);
	double sv = 0;
	for (int64_t i = 0; i < n; i++)
		sv = fmax(sv, fabs(s[i] - sr[i]));

	double eps = prec == 's' ? 0x1p-24 : 0x1p-53;
	double tol = (prec == 's' ? 1e5 : 1e3) * sqrt((double)n) * eps;
	int ok = info == 0 && resid <= 30 * eps && orth_q <= 30 * eps && orth_p <= 30 * eps &&
	         sv <= 30 * n * eps * sr[0] && ddiff <= tol && ediff <= tol && tqdiff <= tol &&
	         tpdiff <= tol && vdiff <= tol;
	printf("gebrd prec=%c m=%lld n=%lld info=%d resid=%.1f eps orth q=%.1f p=%.1f eps sv=%.2e "
	       "vs LAPACK: d=%.1e e=%.1e tauq=%.1e taup=%.1e v=%.1e (tol %.1e) %s\n",
	       prec, (long long)m, (long long)n, info, resid / eps, orth_q / eps, orth_p / eps, sv, ddiff,
	       ediff, tqdiff, tpdiff, vdiff, tol, ok ? "pass" : "FAILED");
	free(a0), free(a), free(ref), free(v), free(q), free(pt), free(b), free(qb), free(w), free(s);
	free(superb);
	return !ok;
}
