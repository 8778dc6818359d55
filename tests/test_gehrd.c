/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Tester for the Hessenberg reduction and its Q:
 *   test_gehrd PREC N NB [PANEL [SCALE]]   (PANEL auto, gpu or cpu: hyla_gehrd_panel)
 * Reduces a random matrix (times SCALE, to try huge and tiny entries; SCALE
 * underflow: two diagonal blocks, the second times 1e-309, subnormal) and
 * forms Q with hyla's orghr; checks, with that Q and with LAPACK dorghr's,
 *   ||A - Q H Q^T||_F / (n ||A||_F) <= 30 eps,   ||I - Q^T Q||_F / n <= 30 eps,
 * that H and tau agree with LAPACK dgehrd's on the same input (same
 * reflector conventions, rounding apart): ||H - H_lapack||_F / ||A||_F and
 * max |tau - tau_lapack| <= 1000 sqrt(n) eps, and that hyla's Q agrees with
 * LAPACK dorghr's from the same reflectors, ||Q - Q_lapack||_F / sqrt(n)
 * <= 1000 sqrt(n) eps. For n >= 8 also (ilo, ihi) = (3, n-2), (1, n-2),
 * (3, n) with lda = n + 3: see range_differences.
 * Prints one line; exit status 0 pass, 1 fail, 2 bad arguments. */
#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"
#include "spectra.h"

static const char *prog = "test_gehrd";

/* ||triu(h, -1) - triu(ref, -1)||_F / ||a||_F */
static double h_difference(int64_t n, const double *h, const double *ref, const double *a)
{
	double diff = 0, norm = 0;
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < n; i++) {
			norm += a[i + j * n] * a[i + j * n];
			if (i <= j + 1)
				diff += (h[i + j * n] - ref[i + j * n]) * (h[i + j * n] - ref[i + j * n]);
		}
	return sqrt(diff / norm);
}

/* ||q - ref||_F / sqrt(n) */
static double q_difference(int64_t n, const double *q, const double *ref)
{
	double diff = 0;
	for (size_t i = 0; i < (size_t)(n * n); i++)
		diff += (q[i] - ref[i]) * (q[i] - ref[i]);
	return sqrt(diff / (double)n);
}

/* hyla's Q from the reduced h, tau (in the working precision), into q;
 * orghr in blocks of nb as the reduction (its own default would take small
 * n whole, on the host). */
static int hyla_q(char prec, int64_t n, int64_t nb, const double *h, const double *tau, double *q,
                  float *qf, float *tauf)
{
	hyla_options o = {.nb = nb};
	if (prec == 'd') {
		memcpy(q, h, sizeof *q * (size_t)(n * n));
		return hyla_dorghr(n, 1, n, q, n, tau, &o);
	}
	to_float(n, n, h, n, qf);
	to_float(n, 1, tau, n, tauf);
	int info = hyla_sorghr(n, 1, n, qf, n, tauf, &o);
	to_double(n, n, qf, q, n);
	return info;
}

/* gehrd (hyla's or LAPACK's) with ilo, ihi on the n-by-n a (leading
 * dimension ld), in the working precision; a and tau held in double. */
static int gehrd_in(char prec, int hyla, int n, int ilo, int ihi, double *a, int ld, double *tau,
                    int64_t nb, hyla_gehrd_panel panel)
{
	hyla_options o = {.nb = nb, .gehrd_panel = panel};
	if (prec == 'd')
		return hyla ? hyla_dgehrd(n, ilo, ihi, a, ld, tau, &o)
		            : LAPACKE_dgehrd(LAPACK_COL_MAJOR, n, ilo, ihi, a, ld, tau);
	size_t size = (size_t)ld * (size_t)n;
	float *af = malloc(sizeof *af * size), *tf = calloc((size_t)n, sizeof *tf);
	int info = -100;
	if (af && tf) {
		for (size_t i = 0; i < size; i++)
			af[i] = (float)a[i];
		info = hyla ? hyla_sgehrd(n, ilo, ihi, af, ld, tf, &o)
		            : LAPACKE_sgehrd(LAPACK_COL_MAJOR, n, ilo, ihi, af, ld, tf);
		for (size_t i = 0; i < size; i++)
			a[i] = af[i];
		for (int i = 0; i < n; i++)
			tau[i] = tf[i];
	}
	free(af), free(tf);
	return info;
}

/* orghr likewise (hyla's in blocks of nb). */
static int orghr_in(char prec, int hyla, int n, int ilo, int ihi, double *a, int ld,
                    const double *tau, int64_t nb)
{
	hyla_options o = {.nb = nb};
	if (prec == 'd')
		return hyla ? hyla_dorghr(n, ilo, ihi, a, ld, tau, &o)
		            : LAPACKE_dorghr(LAPACK_COL_MAJOR, n, ilo, ihi, a, ld, tau);
	size_t size = (size_t)ld * (size_t)n;
	float *af = malloc(sizeof *af * size), *tf = calloc((size_t)n, sizeof *tf);
	int info = -100;
	if (af && tf) {
		for (size_t i = 0; i < size; i++)
			af[i] = (float)a[i];
		for (int i = 0; i < n; i++)
			tf[i] = (float)tau[i];
		info = hyla ? hyla_sorghr(n, ilo, ihi, af, ld, tf, &o)
		            : LAPACKE_sorghr(LAPACK_COL_MAJOR, n, ilo, ihi, af, ld, tf);
		for (size_t i = 0; i < size; i++)
			a[i] = af[i];
	}
	free(af), free(tf);
	return info;
}

/* hyla's gehrd and orghr with ilo, ihi and lda = n + 3, on A as
 * balancing leaves it (upper triangular outside rows and columns ilo..ihi,
 * LAPACK's assumption), in the working precision:
 *   *resid   ||A - Q H Q^T||_F / (n ||A||_F) and *orth ||I - Q^T Q||_F / n,
 *            hyla's Q and H;
 *   *q_diff  ||Q - Q_lapack||_F / sqrt(n), both from LAPACK's reflectors;
 *   *h_diff  ||H - H_lapack||_F / ||A||_F outside the reflectors and the
 *            largest tau difference, in double only (in single, rounding
 *            differences grow through the columns past what a fixed bound
 *            allows; the identities above decide); INFINITY if tau outside
 *            the range is not 0 or the rows past n were written.
 * INFINITY on a failure. */
static void range_differences(char prec, int n, int ilo, int ihi, int64_t nb,
                              hyla_gehrd_panel panel, const double *a0, double *h_diff,
                              double *q_diff, double *resid, double *orth)
{
	int ld = n + 3;
	size_t size = (size_t)ld * (size_t)n;
	enum { A, H_LAPACK, H, Q_LAPACK, Q_OF_LAPACK, Q, W, NBUF };
	double *x[NBUF], *tau_lapack = malloc(sizeof(double) * (size_t)n);
	double *tau = malloc(sizeof(double) * (size_t)n);
	int info = !tau_lapack || !tau;
	for (int k = 0; k < NBUF; k++)
		info |= !(x[k] = calloc(size, sizeof *x[k]));
	*h_diff = *q_diff = *resid = *orth = INFINITY;
	/* tau's entries outside the range must come back 0; the rows past n
	 * (NaN) must stay untouched. */
	for (int i = 0; i < n && !info; i++)
		tau[i] = tau_lapack[i] = 7;
	for (int64_t j = 0; j < n && !info; j++)
		for (int64_t i = 0; i < ld; i++)
			x[A][i + j * ld] = i >= n ? NAN : i > j && (j < ilo - 1 || i >= ihi) ? 0 : a0[i + j * n];
	if (!info) {
		memcpy(x[H_LAPACK], x[A], sizeof(double) * size);
		memcpy(x[H], x[A], sizeof(double) * size);
		info = gehrd_in(prec, 0, n, ilo, ihi, x[H_LAPACK], ld, tau_lapack, nb, panel);
	}
	info = info ? info : gehrd_in(prec, 1, n, ilo, ihi, x[H], ld, tau, nb, panel);
	if (!info) {
		memcpy(x[Q_LAPACK], x[H_LAPACK], sizeof(double) * size);
		memcpy(x[Q_OF_LAPACK], x[H_LAPACK], sizeof(double) * size);
		memcpy(x[Q], x[H], sizeof(double) * size);
		info = orghr_in(prec, 0, n, ilo, ihi, x[Q_LAPACK], ld, tau_lapack, nb);
	}
	info = info ? info : orghr_in(prec, 1, n, ilo, ihi, x[Q_OF_LAPACK], ld, tau_lapack, nb);
	info = info ? info : orghr_in(prec, 1, n, ilo, ihi, x[Q], ld, tau, nb);
	if (info)
		goto out;
	double hd = 0, qd = 0, norm = 0;
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < n; i++) {
			size_t at = (size_t)(i + j * ld);
			if (i > j + 1 && j >= ilo - 1 && j < ihi - 1 && i < ihi)
				x[H][at] = 0; /* H alone, for the residual */
			else
				hd += (x[H][at] - x[H_LAPACK][at]) * (x[H][at] - x[H_LAPACK][at]);
			qd += (x[Q_OF_LAPACK][at] - x[Q_LAPACK][at]) * (x[Q_OF_LAPACK][at] - x[Q_LAPACK][at]);
			norm += x[A][at] * x[A][at];
		}
	double td = 0;
	for (int i = 0; i + 1 < n; i++) {
		int outside = i < ilo - 1 || i >= ihi - 1;
		double d = prec == 'd' ? fabs(tau[i] - tau_lapack[i]) : 0;
		td = fmax(td, outside && tau[i] != 0 ? INFINITY : d);
	}
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = n; i < ld; i++)
			if (!isnan(x[H][i + j * ld]) || !isnan(x[Q][i + j * ld]))
				td = INFINITY;
	*h_diff = fmax(prec == 'd' ? sqrt(hd / norm) : 0, td);
	*q_diff = sqrt(qd / (double)n);
	*orth = orthogonality(n, n, x[Q], ld) / n;
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, x[Q], ld, x[H], ld, 0, x[W],
	            ld);
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, 1, x[W], ld, x[Q], ld, -1, x[A], ld);
	double rd = 0;
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < n; i++)
			rd += x[A][i + j * ld] * x[A][i + j * ld];
	*resid = sqrt(rd / norm) / n;
out:
	for (int k = 0; k < NBUF; k++)
		free(x[k]);
	free(tau_lapack), free(tau);
}

int main(int argc, char **argv)
{
	if (argc < 4 || argc > 6 || (strcmp(argv[1], "d") && strcmp(argv[1], "s")))
		die_usage(prog, "usage: test_gehrd d|s N NB [auto|gpu|cpu [SCALE|underflow]]");
	const char *panel_name = argc >= 5 ? argv[4] : "auto";
	hyla_gehrd_panel panel = !strcmp(panel_name, "gpu") ? HYLA_PANEL_GPU
	                         : !strcmp(panel_name, "cpu") ? HYLA_PANEL_CPU : HYLA_PANEL_AUTO;
	if (panel == HYLA_PANEL_AUTO && strcmp(panel_name, "auto"))
		die_usage(prog, "PANEL must be auto, gpu or cpu, not '%s'", panel_name);
	/* underflow: two diagonal blocks, the second's entries near 1e-309. */
	int underflow = argc == 6 && !strcmp(argv[5], "underflow");
	double scale = argc == 6 && !underflow ? atof(argv[5]) : 1;
	char prec = argv[1][0];
	int64_t n = parse_size(prog, "N", argv[2]), nb = parse_size(prog, "NB", argv[3]);
	size_t nn = (size_t)(n * n);
	double *a0 = malloc(sizeof *a0 * nn), *h = malloc(sizeof *h * nn), *ref = malloc(sizeof *ref * nn);
	double *tau = calloc((size_t)n, sizeof *tau), *tau_ref = calloc((size_t)n, sizeof *tau_ref);
	float *af = malloc(sizeof *af * nn), *tauf = calloc((size_t)n, sizeof *tauf);
	if (!a0 || !h || !ref || !tau || !tau_ref || !af || !tauf)
		return 1;
	if (underflow) {
		general_matrix("underflow", n, n, a0, 7, NULL);
	} else {
		random_matrix(n, n, a0, n, 7);
		for (size_t i = 0; i < nn; i++)
			a0[i] *= scale;
	}
	if (prec == 's')
		round_to_float(n, n, a0, n);

	int info;
	if (prec == 's') {
		to_float(n, n, a0, n, af);
		info = hyla_sgehrd(n, 1, n, af, n, tauf, &(hyla_options){.nb = nb, .gehrd_panel = panel});
		to_double(n, n, af, h, n);
		to_double(n, 1, tauf, tau, n);
		to_float(n, n, a0, n, af);
		LAPACKE_sgehrd(LAPACK_COL_MAJOR, (lapack_int)n, 1, (lapack_int)n, af, (lapack_int)n, tauf);
		to_double(n, n, af, ref, n);
		to_double(n, 1, tauf, tau_ref, n);
	} else {
		memcpy(h, a0, sizeof *h * nn);
		info = hyla_dgehrd(n, 1, n, h, n, tau, &(hyla_options){.nb = nb, .gehrd_panel = panel});
		memcpy(ref, a0, sizeof *ref * nn);
		LAPACKE_dgehrd(LAPACK_COL_MAJOR, (lapack_int)n, 1, (lapack_int)n, ref, (lapack_int)n, tau_ref);
	}

	double eps = prec == 's' ? 0x1p-24 : 0x1p-53, resid = INFINITY, orth = INFINITY;
	double q_resid = INFINITY, q_orth = INFINITY, qdiff = INFINITY, hrange = 0, qrange = 0;
	double rrange = 0, orange = 0;
	hessenberg_residuals(n, a0, n, h, n, tau, NULL, &resid, &orth);
	double *q = malloc(sizeof *q * nn), *q_ref = malloc(sizeof *q_ref * nn);
	if (!q || !q_ref)
		return 1;
	int qinfo = hyla_q(prec, n, nb, h, tau, q, af, tauf);
	if (qinfo == 0) {
		hessenberg_residuals(n, a0, n, h, n, tau, q, &q_resid, &q_orth);
		memcpy(q_ref, h, sizeof *q_ref * nn);
		if (n == 1)
			q_ref[0] = 1;
		else if (prec == 's') {
			to_float(n, n, h, n, af);
			to_float(n, 1, tau, n, tauf);
			LAPACKE_sorghr(LAPACK_COL_MAJOR, (lapack_int)n, 1, (lapack_int)n, af, (lapack_int)n, tauf);
			to_double(n, n, af, q_ref, n);
		} else
			LAPACKE_dorghr(LAPACK_COL_MAJOR, (lapack_int)n, 1, (lapack_int)n, q_ref, (lapack_int)n, tau);
		qdiff = q_difference(n, q, q_ref);
	}
	double hdiff = h_difference(n, h, ref, a0), taudiff = 0;
	for (int64_t i = 0; i + 1 < n; i++) {
		double d = fabs(tau[i] - tau_ref[i]);
		taudiff = d > taudiff || isnan(d) ? d : taudiff; /* a NaN stays */
	}
	/* Ranges that use both of dormhr's sides, only the right one, only the left one. */
	const int ranges[3][2] = {{3, (int)n - 2}, {1, (int)n - 2}, {3, (int)n}};
	for (int c = 0; c < 3 && n >= 8; c++) {
		double h, q, r, o;
		range_differences(prec, (int)n, ranges[c][0], ranges[c][1], nb, panel, a0, &h, &q, &r, &o);
		hrange = fmax(hrange, h), qrange = fmax(qrange, q), rrange = fmax(rrange, r);
		orange = fmax(orange, o);
	}
	double tol = 1000 * sqrt((double)n) * eps;
	/* The subnormal block's entries lie 2^-1074 / 1e-309 (45 eps in double)
	 * apart: its reflectors' tau agree with LAPACK's to that. */
	double tau_tol = 1000 * sqrt((double)n) * fmax(eps, underflow ? 0x1p-1074 / 1e-309 : 0);
	/* LAPACK reduces blocks below its crossover (128) unblocked, hyla blocked:
	 * two valid reductions whose H and tau drift apart more (6000 eps seen at
	 * n = 128 with ilo = 3, ihi = n); the identities above stay at 30 eps. */
	double tol_range = 10 * tol;
	/* hr_reduce's sampled check: passes hyla's result, catches a wrong H. */
	double s_resid = INFINITY, s_orth = INFINITY, s_bad = 0, junk;
	int sampled = qinfo == 0 && hessenberg_sampled_errors(n, a0, n, h, n, q, 4, &s_resid, &s_orth) == 0;
	double anorm = LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', (lapack_int)n, (lapack_int)n, a0,
	                              (lapack_int)n);
	h[(n - 1) * n] += 1e4 * 30 * eps * (double)n * anorm; /* resid ~ 1e4 x 30 eps */
	sampled &= qinfo == 0 && hessenberg_sampled_errors(n, a0, n, h, n, q, 4, &s_bad, &junk) == 0;
	sampled &= s_resid <= 30 * eps && s_orth <= 30 * eps && s_bad > 100 * 30 * eps;
	int ok = info == 0 && resid <= 30 * eps && orth <= 30 * eps && hdiff <= tol &&
	         taudiff <= tau_tol && qinfo == 0 && q_resid <= 30 * eps && q_orth <= 30 * eps && qdiff <= tol &&
	         rrange <= 30 * eps && orange <= 30 * eps && hrange <= tol_range && qrange <= tol &&
	         sampled;
	printf("gehrd prec=%c n=%lld nb=%lld panel=%s info=%d resid=%.2f eps orth=%.2f eps (tol 30) "
	       "h_vs_lapack=%.2e tau_vs_lapack=%.2e (tol %.1e, tau %.1e) | orghr info=%d resid=%.2f eps "
	       "orth=%.2f eps q_vs_lapack=%.2e | ilo,ihi ranges: resid %.2f orth %.2f eps h,tau_vs_lapack "
	       "%.2e (tol %.1e) orghr_vs_lapack %.2e | sampled %.2f/%.2f eps (wrong H: %.1e eps) %s\n",
	       prec, (long long)n, (long long)nb, panel_name, info, resid / eps, orth / eps, hdiff,
	       taudiff, tol, tau_tol, qinfo, q_resid / eps, q_orth / eps, qdiff, rrange / eps,
	       orange / eps, hrange, tol_range, qrange, s_resid / eps, s_orth / eps, s_bad / eps, ok ? "pass" : "FAILED");
	free(a0), free(h), free(ref), free(tau), free(tau_ref), free(af), free(tauf), free(q), free(q_ref);
	return !ok;
}
