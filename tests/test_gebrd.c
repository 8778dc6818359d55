/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Tester for the bidiagonal reduction: test_gebrd PREC M N (any shape)
 * hyla_dgebrd on a random m-by-n A; checks, against LAPACK's dgebrd (or
 * sgebrd) on the same input: d, e, tauq, taup and the reflectors of the
 * first LEAD steps, relative differences within 1e3 sqrt(n) eps (1e5 in
 * single: LAPACK blocks the same work otherwise, and the reflectors'
 * rounding differs). Later steps are not compared entry by entry: B's
 * entries amplify rounding (the GPU's GEMMs sum in another order), so the
 * identities and the singular values judge them. The
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

/* Steps compared entry by entry with LAPACK's (the first ones reduced). */
#define LEAD 8

/* LAPACK's gebrd in prec on the double a (m-by-n), results in double: d,
 * e, tauq, taup at v, v + k, v + 2k, v + 3k (k = min(m, n)). */
static void lapack_gebrd(char prec, int m, int n, double *a, double *v)
{
	int k = m < n ? m : n;
	double *d = v, *e = v + k, *tq = v + 2 * k, *tp = v + 3 * k;
	if (prec == 'd') {
		LAPACKE_dgebrd(LAPACK_COL_MAJOR, m, n, a, m, d, e, tq, tp);
		return;
	}
	float *f = malloc(sizeof *f * (size_t)m * n), *fv = malloc(sizeof *fv * (size_t)(4 * k));
	to_float(m, n, a, m, f);
	LAPACKE_sgebrd(LAPACK_COL_MAJOR, m, n, f, m, fv, fv + k, fv + 2 * k, fv + 3 * k);
	to_double(m, n, f, a, m);
	to_double(4 * k, 1, fv, v, 4 * k);
	free(f), free(fv);
}

static int hyla_gebrd(char prec, int64_t m, int64_t n, double *a, double *v)
{
	int64_t k = m < n ? m : n;
	if (prec == 'd')
		return hyla_dgebrd(m, n, a, m, v, v + k, v + 2 * k, v + 3 * k, NULL);
	float *f = malloc(sizeof *f * (size_t)(m * n)), *fv = malloc(sizeof *fv * (size_t)(4 * k));
	to_float(m, n, a, m, f);
	int info = hyla_sgebrd(m, n, f, m, fv, fv + k, fv + 2 * k, fv + 3 * k, NULL);
	to_double(m, n, f, a, m);
	to_double(4 * k, 1, fv, v, 4 * k);
	free(f), free(fv);
	return info;
}

int main(int argc, char **argv)
{
	if (argc != 4 || (strcmp(argv[1], "d") && strcmp(argv[1], "s")))
		die_usage(prog, "usage: test_gebrd d|s M N");
	char prec = argv[1][0];
	int64_t m = parse_size(prog, "M", argv[2]), n = parse_size(prog, "N", argv[3]);
	int64_t k = m < n ? m : n;
	size_t mn = (size_t)(m * n);
	double *a0 = malloc(sizeof *a0 * mn), *a = malloc(sizeof *a * mn), *ref = malloc(sizeof *ref * mn);
	double *v = calloc((size_t)(8 * k), sizeof *v), *vr = v + 4 * k;
	if (!a0 || !a || !ref || !v)
		return 1;
	random_matrix(m, n, a0, m, 8);
	if (prec == 's')
		round_to_float(m, n, a0, m);
	memcpy(a, a0, sizeof *a * mn);
	int info = hyla_gebrd(prec, m, n, a, v);
	memcpy(ref, a0, sizeof *ref * mn);
	lapack_gebrd(prec, (int)m, (int)n, ref, vr);

	/* The first LEAD steps; their reflectors: off the bidiagonal (upper for
	 * m >= n, lower else), step min(i, j) for entry (i, j). */
	int64_t lead = k < LEAD ? k : LEAD;
	double rd = 0, rs = 0;
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < m; i++)
			if ((m >= n ? i > j || j > i + 1 : j > i || i > j + 1) && (i < lead || j < lead)) {
				rd += (a[i + j * m] - ref[i + j * m]) * (a[i + j * m] - ref[i + j * m]);
				rs += ref[i + j * m] * ref[i + j * m];
			}
	int64_t elead = lead < k - 1 ? lead : k - 1;
	double vdiff = rs > 0 ? sqrt(rd / rs) : sqrt(rd), ddiff = relative_difference(lead, 1, v, vr, lead);
	double ediff = relative_difference(elead, 1, v + k, vr + k, elead);
	double tqdiff = relative_difference(lead, 1, v + 2 * k, vr + 2 * k, lead);
	double tpdiff = relative_difference(lead, 1, v + 3 * k, vr + 3 * k, lead);

	double resid = NAN, orth = NAN, scale = 0;
	int checked = bidiagonal_residuals(m, n, a0, m, a, v, v + k, v + 2 * k, v + 3 * k, &resid, &orth);
	double sv = bidiagonal_sv_error(m, n, a0, m, v, v + k, &scale);

	double eps = prec == 's' ? 0x1p-24 : 0x1p-53;
	double tol = (prec == 's' ? 1e5 : 1e3) * sqrt((double)k) * eps;
	int ok = info == 0 && checked == 0 && resid <= 30 * eps && orth <= 30 * eps &&
	         sv <= 30 * k * eps * scale && ddiff <= tol && ediff <= tol && tqdiff <= tol &&
	         tpdiff <= tol && vdiff <= tol;
	printf("gebrd prec=%c m=%lld n=%lld info=%d resid=%.1f eps orth=%.1f eps sv=%.2e "
	       "first steps vs LAPACK: d=%.1e e=%.1e tauq=%.1e taup=%.1e v=%.1e (tol %.1e) %s\n",
	       prec, (long long)m, (long long)n, info, resid / eps, orth / eps, sv, ddiff,
	       ediff, tqdiff, tpdiff, vdiff, tol, ok ? "pass" : "FAILED");
	free(a0), free(a), free(ref), free(v);
	return !ok;
}
