/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* qr_householder: Householder QR (hyla_dgeqrf, then hyla_dorgqr for Q) of a
 * random m-by-n matrix with hyla, timed apart; --resident: the same calls
 * through the asynchronous API on a matrix already on the GPU. */
#include <cblas.h>
#include <getopt.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"
#include "hyla_async.h"
#include "qr_driver.h"
#include "result.h"

enum { OPT_FULL_Q = QR_OPT_FIRST_OWN, OPT_RESIDENT, OPT_ORGQR_NB };
static int full_q, resident;
static int64_t orgqr_nb; /* --orgqr-nb; 0: --nb's, else hyla's table */
static void *full; /* the last run's m-by-m Q (--full-q), for the checks */

static int on_option(int opt, const char *arg)
{
	if (qr_driver_option(opt, arg))
		return 1;
	if (opt == OPT_FULL_Q)
		full_q = 1;
	else if (opt == OPT_RESIDENT)
		resident = 1;
	else if (opt == OPT_ORGQR_NB)
		orgqr_nb = parse_int("qr_householder", "--orgqr-nb", arg, 1, INT32_MAX);
	else
		return 0;
	if (full_q && resident) {
		fprintf(stderr, "qr_householder: error: --resident forms the thin Q only (not --full-q)\n");
		exit(EXIT_USAGE);
	}
	return 1;
}

/* R out of the reflectors (the upper triangle, zero below). */
static void take_r(char prec, int64_t m, int64_t n, const void *a, void *r)
{
	size_t el = prec == 's' ? sizeof(float) : sizeof(double);
	for (int64_t j = 0; j < n; j++) {
		memset((char *)r + (size_t)(j * n) * el, 0, (size_t)n * el);
		memcpy((char *)r + (size_t)(j * n) * el, (const char *)a + (size_t)(j * m) * el,
		       (size_t)(j + 1) * el);
	}
}

/* orgqr's options: opts with --orgqr-nb's block size where given. */
static hyla_options orgqr_options(const hyla_options *opts)
{
	hyla_options o = *opts;
	o.nb = orgqr_nb ? orgqr_nb : o.nb;
	return o;
}

/* Q of the n reflectors in a, its seconds into *secs: the thin m-by-n in
 * place, or (--full-q) the m-by-m (dorgqr with k = n < m) into full, its
 * first n columns back into a. */
static int form_q(char prec, int64_t m, int64_t n, void *a, const void *tau,
                  const hyla_options *opts, double *secs)
{
	size_t el = prec == 's' ? sizeof(float) : sizeof(double);
	int64_t cols = full_q ? m : n;
	void *q = a;
	if (full_q) {
		if (!full && !(full = malloc(el * (size_t)(m * m))))
			return HYLA_ERR_NOMEM;
		memcpy(full, a, el * (size_t)(m * n));
		q = full;
	}
	hyla_options o = orgqr_options(opts);
	double t = now_seconds();
	int info = prec == 's' ? hyla_sorgqr(m, cols, n, q, m, tau, &o)
	                       : hyla_dorgqr(m, cols, n, q, m, tau, &o);
	*secs = now_seconds() - t;
	if (full_q)
		memcpy(a, full, el * (size_t)(m * n));
	return info;
}

/* geqrf, then Q; R is copied out between them, untimed. */
static int factor(char prec, int64_t m, int64_t n, void *a, void *r, const hyla_options *opts,
                  double phase[2])
{
	void *tau = malloc((prec == 's' ? sizeof(float) : sizeof(double)) * (size_t)n);
	if (!tau)
		return HYLA_ERR_NOMEM;
	double t = now_seconds();
	int info = prec == 's' ? hyla_sgeqrf(m, n, a, m, tau, opts) : hyla_dgeqrf(m, n, a, m, tau, opts);
	phase[0] = now_seconds() - t;
	if (info == 0)
		take_r(prec, m, n, a, r);
	if (info == 0)
		info = form_q(prec, m, n, a, tau, opts, &phase[1]);
	free(tau);
	return info;
}

/* routine ("geqrf" or "orgqr") through the asynchronous API on the handle h,
 * wrapped in panels of the routine's own width, waited for; its seconds
 * into *secs. */
static int timed_call(const char *routine, char prec, starpu_data_handle_t h, void *tau,
                      const hyla_options *opts, double *secs)
{
	hyla_options o = strcmp(routine, "orgqr") ? *opts : orgqr_options(opts);
	hyla_options_defaults(routine, starpu_matrix_get_nx(h), starpu_matrix_get_ny(h), &o);
	hyla_matrix *a = hyla_matrix_wrap(h, o.nb); /* on the GPU whole first, once */
	hyla_sequence *seq = hyla_sequence_create();
	int info = a && seq ? 0 : HYLA_ERR_NOMEM;
	double t = now_seconds();
	if (info == 0 && !strcmp(routine, "geqrf"))
		info = prec == 's' ? hyla_sgeqrf_async(a, tau, &o, seq) : hyla_dgeqrf_async(a, tau, &o, seq);
	else if (info == 0)
		info = prec == 's' ? hyla_sorgqr_async(a, tau, &o, seq) : hyla_dorgqr_async(a, tau, &o, seq);
	if (seq) {
		int waited = hyla_sequence_wait(seq);
		info = info ? info : waited;
	}
	*secs = now_seconds() - t;
	hyla_sequence_destroy(seq);
	hyla_matrix_destroy(a); /* gathered where its panels are: the GPU */
	return info;
}

/* --resident: geqrf and orgqr on the matrix on the GPU, as cuSOLVER's peer
 * runs (an application's StarPU handle, each call's panels of its own
 * width); R read between them and Q brought home after, untimed. */
static int factor_resident(char prec, int64_t m, int64_t n, void *a, void *r,
                           const hyla_options *opts, double phase[2])
{
	size_t el = prec == 's' ? sizeof(float) : sizeof(double);
	void *tau = malloc(el * (size_t)n);
	if (!tau)
		return HYLA_ERR_NOMEM;
	starpu_data_handle_t h;
	starpu_matrix_data_register(&h, STARPU_MAIN_RAM, (uintptr_t)a, (uint32_t)m, (uint32_t)m,
	                            (uint32_t)n, el);
	int info = timed_call("geqrf", prec, h, tau, opts, &phase[0]);
	if (info == 0 && starpu_data_acquire(h, STARPU_R) != 0)
		info = HYLA_ERR_STARPU;
	if (info == 0) {
		take_r(prec, m, n, a, r);
		starpu_data_release(h);
		info = timed_call("orgqr", prec, h, tau, opts, &phase[1]);
	}
	starpu_data_unregister(h);
	free(tau);
	return info;
}

static int factor_or_resident(char prec, int64_t m, int64_t n, void *a, void *r,
                              const hyla_options *opts, double phase[2])
{
	return (resident ? factor_resident : factor)(prec, m, n, a, r, opts, phase);
}

static const char *variant(void)
{
	return full_q ? "full_q" : resident ? "thin_q_resident" : "thin_q";
}

/* Householder keeps orthogonality at rounding level whatever the condition. */
static double orth_growth(double cond, int64_t n)
{
	(void)cond, (void)n;
	return 2;
}

/* LAPACK's operation counts: dgeqrf 2mn^2 - 2n^3/3, dorgqr (k = n) the same;
 * the full m-by-m Q: 4m^2 n - 2(m+m) n^2 + 4n^3/3. */
static double flops(int64_t m, int64_t n)
{
	double dm = (double)m, dn = (double)n, geqrf = 2 * dm * dn * dn - 2 * dn * dn * dn / 3;
	double orgqr = full_q ? 4 * dm * dm * dn - 4 * dm * dn * dn + 4 * dn * dn * dn / 3 : geqrf;
	return geqrf + orgqr;
}

/* The criteria of Kerr, Campbell and Richards (QR decomposition on GPUs,
 * 2009): ||QR - A|| <= m eps ||A||, ||Q^T Q - I||
 * <= m eps, ||L|| <= m eps ||A|| with L the part of Q^T A below the
 * diagonal, each with LAPACK's testers' factor of 30 (rounding's constants
 * that m eps leaves out: 10-by-10 matrices reach 1.2 m eps). The result
 * line's kcr_* fields. */
static int kcr_criteria(char prec, int64_t m, int64_t n, const double *a0, const void *q,
                         const void *r)
{
	host_blas_begin();
	double *qd = malloc(sizeof *qd * (size_t)(m * n)), *rd = malloc(sizeof *rd * (size_t)(n * n));
	double *qta = malloc(sizeof *qta * (size_t)(n * n));
	if (!qd || !rd || !qta) {
		fprintf(stderr, "qr_householder: error: out of memory for the checks\n");
		exit(1);
	}
	if (prec == 's') {
		to_double(m, n, q, qd, m);
		to_double(n, n, r, rd, n);
	} else {
		memcpy(qd, q, sizeof *qd * (size_t)(m * n));
		memcpy(rd, r, sizeof *rd * (size_t)(n * n));
	}
	double eps = prec == 's' ? 0x1p-24 : 0x1p-53;
	double norm_a = LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', (int)m, (int)n, a0, (int)m);
	double resid = qr_residual(m, n, a0, m, qd, m, rd, n) * norm_a;
	double orth = orthogonality(m, n, qd, m);
	cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, (int)n, (int)n, (int)m, 1, qd, (int)m, a0,
	            (int)m, 0, qta, (int)n);
	for (int64_t j = 0; j < n; j++) /* L: Q^T A's part below the diagonal */
		memset(qta + j * n, 0, sizeof *qta * (size_t)(j + 1));
	double lower = LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', (int)n, (int)n, qta, (int)n);
	double bound = 30 * m * eps;
	int ok = resid <= bound * norm_a && orth <= bound && lower <= bound * norm_a;
	result_str("kcr_qr_minus_a", resid <= bound * norm_a ? "pass" : "FAILED");
	result_str("kcr_qtq_minus_i", orth <= bound ? "pass" : "FAILED");
	result_num("kcr_l", "%.2e", norm_a > 0 ? lower / norm_a : lower, NULL);
	result_str("kcr_l_check", lower <= bound * norm_a ? "pass" : "FAILED");
	if (full_q) {
		double *fd = prec == 's' ? malloc(sizeof *fd * (size_t)(m * m)) : full;
		if (fd && prec == 's')
			to_double(m, m, full, fd, m);
		double full_orth = fd ? orthogonality(m, m, fd, m) : NAN;
		result_num("full_q_orth", "%.2e", full_orth, NULL);
		ok &= full_orth <= 2 * bound;
		if (prec == 's')
			free(fd);
	}
	free(qd), free(rd), free(qta);
	host_blas_end();
	return !ok;
}

int main(int argc, char **argv)
{
	static const struct option extra[] = {QR_DRIVER_OPTIONS,
	                                      {"full-q", no_argument, 0, OPT_FULL_Q},
	                                      {"resident", no_argument, 0, OPT_RESIDENT},
	                                      {"orgqr-nb", required_argument, 0, OPT_ORGQR_NB},
	                                      {0, 0, 0, 0}};
	struct qr_driver d = {
		.prog = "qr_householder",
		.models = "geqrf",
		.title = "Householder (LAPACK dgeqrf's output, then dorgqr's Q)",
		.options_help = "  --full-q         form the full m-by-m Q (timed in orgqr_time; the check\n"
		                "                   uses its first n columns and reports full_q_orth)\n"
		                "  --orgqr-nb B     orgqr's block size (default: --nb's, else hyla's table)\n"
		                "  --resident       the matrix on the GPU before the clock starts and Q left\n"
		                "                   there until it stops, as --cusolver's peer: geqrf and\n"
		                "                   orgqr through the asynchronous API (hyla_async.h)\n",
		.extra = extra,
		.on_extra = on_option,
		.factor = factor_or_resident,
		.phases = {"geqrf_time", "orgqr_time"},
		.flops = flops,
		.second_routine = "orgqr",
		.second_nb_key = "orgqr_nb",
		.second_nb = &orgqr_nb,
		.variant = variant,
		.orth_growth = orth_growth,
		.more_checks = kcr_criteria,
	};
	int status = qr_driver_main(argc, argv, &d);
	free(full);
	return status;
}
