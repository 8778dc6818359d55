/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The Gram-Schmidt QR drivers' shared body (qr_driver.h). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"
#include "qr_driver.h"
#include "result.h"

static const struct qr_driver *drv;
static int cusolver, sampled;

int qr_driver_option(int opt, const char *arg)
{
	(void)arg;
	if (opt == QR_OPT_SAMPLED)
		sampled = 1;
	else if (opt == QR_OPT_CUSOLVER)
		cusolver = cusolver_option(drv->prog);
	return opt == QR_OPT_SAMPLED || opt == QR_OPT_CUSOLVER;
}

static void usage(void)
{
	printf("usage: %s M [N] [options]\n"
	       "%s QR (A = QR, m >= n) of a random M-by-N matrix (N = M by default), or of\n"
	       "--input's, as a StarPU task graph on the CPU cores and GPUs. --output writes Q\n"
	       "to FILE and R to FILE's .r sibling. The check: ||A - QR||_F / ||A||_F at most\n"
	       "10 n eps and ||I - Q^T Q||_F within the algorithm's known bound.\n\n"
	       "%s" QR_DRIVER_OPTIONS_HELP DRIVER_OPTIONS_HELP,
	       drv->prog, drv->title, drv->options_help);
}

/* Q and R (or U and mu) of the run in double, for the checks. */
static void in_double(char prec, int64_t m, int64_t n, void *a, void *r, double **q, double **rd)
{
	*q = prec == 's' ? malloc(sizeof **q * (size_t)(m * n)) : a;
	*rd = prec == 's' ? malloc(sizeof **rd * (size_t)(n * n)) : r;
	if (!*q || !*rd) {
		fprintf(stderr, "%s: error: out of memory for the checks\n", drv->prog);
		exit(1);
	}
	if (prec == 's') {
		to_double(m, n, a, *q, m);
		to_double(n, n, r, *rd, n);
	}
}

static int check(const struct driver_options *o, const double *a0, void *a, void *r)
{
	int64_t m = o->m, n = o->n;
	host_blas_begin();
	double *q, *rd;
	in_double(o->prec, m, n, a, r, &q, &rd);
	double eps = o->prec == 's' ? 0x1p-24 : 0x1p-53, orth = NAN, resid = NAN;
	if (sampled) {
		if (qr_sampled_errors(m, n, a0, m, q, m, rd, n, 4, &resid, &orth))
			fprintf(stderr, "%s: error: out of memory for the sampled check\n", drv->prog);
		result_str("check_by", "sampled");
	} else {
		orth = orthogonality(m, n, q, m);
		resid = qr_residual(m, n, a0, m, q, m, rd, n);
	}
	double kappa = triangular_condition(n, rd, n);
	/* LAPACK's testers' threshold: each error at most 30 times its bound in
	 * units of n eps. The algorithm's bound on ||I - Q^T Q|| grows with the
	 * condition number; past 1/2 the columns are no orthonormal basis
	 * whatever the bound says (a rank-deficient matrix's estimate is huge). */
	int ok = orth <= 30 * n * drv->orth_growth(kappa, n) * eps && orth <= 0.5 &&
	         resid <= 30 * n * eps;
	result_num("orth", "%.2e", orth, NULL);
	result_num("resid", "%.2e", resid, NULL);
	result_num("cond1", "%.1e", kappa, NULL);
	result_str("check", ok ? "pass" : "FAILED");
	if (o->prec == 's')
		free(q), free(rd);
	host_blas_end();
	return ok;
}

int qr_driver_main(int argc, char **argv, const struct qr_driver *d)
{
	drv = d;
	const char *prog = d->prog;
	struct driver_options o = parse_driver_options(argc, argv, prog, 2, d->extra, d->on_extra, usage);
	if (o.n > o.m)
		die_usage(prog, "N = %lld exceeds M = %lld (the QR drivers take tall or square matrices)",
		          (long long)o.n, (long long)o.m);
	o.require_gpu |= cusolver;
	o.algorithms[0] = d->models_of ? d->models_of() : d->models;
	o.output_tags[0] = d->umu && *d->umu ? "mu" : "r"; /* what --output writes */
	if (o.models)
		driver_start(prog, &o); /* reports and exits */
	int64_t m = o.m, n = o.n;
	size_t elsize = o.prec == 's' ? sizeof(float) : sizeof(double);
	/* The input kept in double, the factored copy, R, and the checks'
	 * workspace (m n + n^2 doubles, and Q and R in double for single; the
	 * sampled check's is O(m + n)). */
	sampled |= (double)m * (double)n * (double)n > 1e13;
	double check_bytes = o.check && !sampled ? (double)m * n * (8 + elsize) + (double)n * n * 16 : 0;
	check_memory(prog, (double)m * n * (8 + elsize) + (double)n * n * elsize + check_bytes);

	driver_start(prog, &o);

	double *a0 = malloc(sizeof *a0 * (size_t)(m * n));
	void *a = hyla_malloc(elsize * (size_t)(m * n));
	void *r = hyla_malloc(elsize * (size_t)(n * n));
	double *times = malloc(sizeof *times * (size_t)(2 * o.repeat)), *first;
	double phase[2] = {0, 0};
	int status = 1; /* until the run is reported */
	if (!a0 || !a || !r || !times) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		goto out;
	}
	first = times + o.repeat;
	driver_matrix(prog, &o, a0);
	hyla_options opts = {.nb = o.nb}, used = opts;
	hyla_options_defaults(d->models, m, n, &used);

	int info = 0;
	for (int64_t k = 0; k < o.repeat && info == 0; k++) {
		if (o.prec == 's')
			to_float(m, n, a0, m, a);
		else
			memcpy(a, a0, sizeof(double) * (size_t)(m * n));
		if (o.stats)
			worker_stats_start();
		driver_progress_begin(prog, &o);
		driver_trace_begin(&o, k);
		double t = now_seconds();
		info = d->factor(o.prec, m, n, a, r, &opts, phase);
		times[k] = d->phases[0] ? phase[0] + phase[1] : now_seconds() - t;
		first[k] = phase[0];
		driver_progress_end();
		driver_trace_end(prog, &o, k);
	}
	if (info != 0) {
		fprintf(stderr, "%s: error: the factorisation returned %d (%s)\n", prog, info,
		        hyla_strerror(info));
		goto out;
	}
	if (o.stats)
		worker_stats_print();
	int64_t fastest = 0;
	for (int64_t k = 1; k < o.repeat; k++)
		fastest = times[k] < times[fastest] ? k : fastest;
	double best_first = first[fastest];
	sort_times(times, o.repeat);
	double best = times[0], median = times[o.repeat / 2];

	char prec[2] = {o.prec, 0};
	result_begin(prog);
	result_num("m", "%.0f", (double)m, NULL);
	result_num("n", "%.0f", (double)n, NULL);
	if (o.input_scale)
		result_num("input_scale", "%.0f", (double)o.input_scale, NULL);
	result_str("prec", prec);
	result_str("variant", d->variant());
	result_num("nb", "%.0f", (double)(used.nb < n ? used.nb : n), NULL);
	if (d->second_routine && d->second_nb && *d->second_nb)
		result_num(d->second_nb_key, "%.0f", (double)(*d->second_nb < n ? *d->second_nb : n), NULL);
	else if (d->second_routine && !o.nb) {
		hyla_options second = {0};
		hyla_options_defaults(d->second_routine, m, n, &second);
		result_num(d->second_nb_key, "%.0f", (double)(second.nb < n ? second.nb : n), NULL);
	}
	result_num("time", "%.4f", best, " s");
	if (o.repeat > 1)
		result_num("median", "%.4f", median, " s");
	if (d->phases[0]) {
		result_num(d->phases[0], "%.4f", best_first, " s");
		result_num(d->phases[1], "%.4f", best - best_first, " s");
	}
	double flops = d->flops ? d->flops(m, n) : 2.0 * m * n * n;
	result_num("gflops", "%.1f", flops / best * 1e-9, NULL);

	int failed = o.check && !check(&o, a0, a, r);
	if (o.check && d->more_checks && !sampled)
		failed |= d->more_checks(o.prec, m, n, a0, a, r);
	int umu = d->umu && *d->umu;
	if (umu) {
		int ret = o.prec == 's' ? hyla_sqr_to_umu(m, n, a, m, r, n)
		                        : hyla_dqr_to_umu(m, n, a, m, r, n);
		failed |= ret != 0;
	}
	/* R scales with A (U = Q diag(R) too, mu does not). */
	if (umu) {
		driver_write_scaled(prog, &o, NULL, m, n, a, m, ALL_DIAGONALS);
		driver_write(prog, &o, "mu", n, n, r, n);
	} else {
		driver_write(prog, &o, NULL, m, n, a, m);
		driver_write_scaled(prog, &o, "r", n, n, r, n, ALL_DIAGONALS);
	}
	if (o.lapack) {
		double t = lapack_qr_seconds(m, n, a0, m, o.prec);
		result_num("lapack_geqrf_orgqr", "%.4f", t, " s");
		result_num("speedup", "%.2f", t / best, "x");
	}
#ifdef HYLA_WITH_CUDA
	if (cusolver && report_cusolver(prog, CUSOLVER_QR, m, n, a0, m, o.prec, 0, best))
		goto out;
#endif
	result_end();
	status = failed;
out:
	free(a0), free(times);
	hyla_free(a, elsize * (size_t)(m * n));
	hyla_free(r, elsize * (size_t)(n * n));
	hyla_finalize();
	return status;
}
