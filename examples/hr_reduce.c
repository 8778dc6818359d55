/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* hr_reduce: Hessenberg reduction Q^T A Q = H of a random n-by-n matrix or a file's. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"
#include "result.h"

static const char *prog = "hr_reduce";
static int want_q, sampled;
static hyla_gehrd_panel panel = HYLA_PANEL_AUTO;
enum { OPT_SAMPLED = 1000 }; /* above the common options' codes */
static const char *panel_names[] = {"auto", "gpu", "cpu"};

static int on_option(int opt, const char *arg)
{
	if (opt == 'q' || opt == OPT_SAMPLED) {
		*(opt == 'q' ? &want_q : &sampled) = 1;
		return 1;
	}
	if (opt != 'P')
		return 0;
	for (int p = 0; p < 3; p++)
		if (!strcmp(arg, panel_names[p])) {
			panel = (hyla_gehrd_panel)p;
			return 1;
		}
	die_usage(prog, "--panel must be auto, gpu or cpu, not '%s'", arg);
}

static void usage(void)
{
	printf("usage: %s N [options]\n"
	       "Hessenberg reduction Q^T A Q = H of a random N-by-N matrix, or of --input's\n"
	       "(LAPACK dgehrd's output: H and the reflectors in A, tau; --output writes them to\n"
	       "FILE and FILE's .tau sibling, Q to its .q sibling) as a StarPU task graph on the CPU\n"
	       "cores and GPUs. Checks ||A - Q H Q^T||_F / (n ||A||_F) and ||I - Q^T Q||_F / n\n"
	       "(Q from LAPACK's dorghr, or hyla's with --want-q), each at most 30 eps.\n\n"
	       "  --want-q         also form Q explicitly (hyla's dorghr), timed apart\n"
	       "  --sampled-check  check on 4 random vectors with hyla's Q (needs --want-q), O(n^2)\n"
	       "                   (the default when n^3 > 1e13, where the full check would outlast\n"
	       "                   the run)\n"
	       "  --panel P        auto (default): the fused panel, where a GPU is (the models pick\n"
	       "                   GPU or core) or on all the cores; gpu: the fused panel on the\n"
	       "                   GPU; cpu: Tomov et al.'s split panel, the column loop on a core\n"
	       "                   and each column's GEMV where the matrix lives (with a GPU one\n"
	       "                   task a panel on its worker, nb 32 by default)\n"
	       DRIVER_OPTIONS_HELP,
	       prog);
}

int main(int argc, char **argv)
{
	static const struct option extra[] = {{"want-q", no_argument, 0, 'q'},
	                                      {"sampled-check", no_argument, 0, OPT_SAMPLED},
	                                      {"panel", required_argument, 0, 'P'}, {0}};
	struct driver_options o = parse_driver_options(argc, argv, prog, 1, extra, on_option, usage);
	o.algorithms[0] = panel == HYLA_PANEL_CPU ? "gehrd_split" : "gehrd";
	o.algorithms[1] = want_q ? "orghr" : NULL;
	o.output_tags[0] = "tau"; /* what --output writes */
	o.output_tags[1] = want_q ? "q" : NULL;
	if (o.models)
		driver_start(prog, &o); /* reports and exits */
	if (o.m != o.n)
		die_usage(prog, "--input %s is %lld x %lld; the Hessenberg reduction needs a square matrix",
		          o.input, (long long)o.m, (long long)o.n);
	int64_t n = o.n;
	size_t elsize = o.prec == 's' ? sizeof(float) : sizeof(double), nn = (size_t)(n * n);
	sampled = o.check && (sampled || (double)n * (double)n * (double)n > 1e13);
	if (sampled && !want_q)
		die_usage(prog, "the sampled check (n^3 > 1e13 or --sampled-check) uses hyla's Q: add "
		          "--want-q, or --no-check");
	/* Input kept in double, the reduced copy and Q, the checks' H and Q in
	 * double (single precision) and, for the full check, four n-by-n. */
	double checks = !o.check ? 0 : (o.prec == 's' ? 16 : 0) + (sampled ? 0 : 4 * 8);
	check_memory(prog, (double)nn * (8 + elsize * (want_q ? 2 : 1) + checks));
	if (panel == HYLA_PANEL_GPU)
		o.require_gpu = 1;
	driver_start(prog, &o);

	double *a0 = malloc(sizeof *a0 * nn), *times = malloc(sizeof *times * (size_t)o.repeat);
	void *a = hyla_malloc(elsize * nn), *tau = calloc((size_t)n, elsize);
	void *q = want_q ? hyla_malloc(elsize * nn) : NULL;
	double *q_times = malloc(sizeof *q_times * (size_t)o.repeat);
	if (!a0 || !a || !tau || !times || !q_times || (want_q && !q)) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		return 1;
	}
	driver_matrix(prog, &o, a0);
	o.work_power = 3; /* the progress estimate: see driver_progress_begin */
	/* --nb is the reduction's; Q's takes the library's default. */
	hyla_options opts = {.nb = o.nb, .gehrd_panel = panel}, used = opts;
	hyla_options_defaults("gehrd", n, n, &used);

	int info = 0;
	for (int64_t k = 0; k < o.repeat && info == 0; k++) {
		if (o.prec == 's')
			to_float(n, n, a0, n, a);
		else
			memcpy(a, a0, sizeof(double) * nn);
		if (o.stats)
			worker_stats_start();
		driver_progress_begin(prog, &o);
		driver_trace_begin(&o, k);
		double t = now_seconds();
		info = o.prec == 's' ? hyla_sgehrd(n, 1, n, a, n, tau, &opts)
		                     : hyla_dgehrd(n, 1, n, a, n, tau, &opts);
		times[k] = now_seconds() - t;
		driver_progress_end();
		driver_trace_end(prog, &o, k);
		if (info != 0 || !want_q)
			continue;
		memcpy(q, a, elsize * nn);
		driver_progress_begin(prog, &o);
		t = now_seconds();
		info = o.prec == 's' ? hyla_sorghr(n, 1, n, q, n, tau, NULL)
		                     : hyla_dorghr(n, 1, n, q, n, tau, NULL);
		q_times[k] = now_seconds() - t;
		driver_progress_end();
	}
	if (info != 0) {
		fprintf(stderr, "%s: error: hyla_%c%s returned %d (%s)\n", prog, o.prec,
		        want_q ? "gehrd/orghr" : "gehrd", info, hyla_strerror(info));
		return 1;
	}
	driver_write_scaled(prog, &o, NULL, n, n, a, n, -1, INT64_MAX); /* H scales with A */
	driver_write(prog, &o, "tau", n > 1 ? n - 1 : 1, 1, tau, n > 1 ? n - 1 : 1);
	if (want_q)
		driver_write(prog, &o, "q", n, n, q, n);
	if (o.stats)
		worker_stats_print();
	sort_times(times, o.repeat);
	double best = times[0];
	char prec[2] = {o.prec, 0};
	result_begin(prog);
	result_num("n", "%.0f", (double)n, NULL);
	if (o.input_scale)
		result_num("input_scale", "%.0f", (double)o.input_scale, NULL);
	result_str("prec", prec);
	result_num("nb", "%.0f", (double)used.nb, NULL);
	result_str("panel", panel_names[panel]);
	if (n <= used.nb)
		result_str("path", "lapack(n<=nb)");
	result_num("time", "%.4f", best, " s");
	if (o.repeat > 1)
		result_num("median", "%.4f", times[o.repeat / 2], " s");
	result_num("gflops", "%.1f", 10.0 / 3.0 * (double)n * n * n / best * 1e-9, NULL);
	if (want_q) {
		sort_times(q_times, o.repeat);
		result_num("orghr_time", "%.4f", q_times[0], " s");
		result_num("orghr_gflops", "%.1f", 4.0 / 3.0 * (double)n * n * n / q_times[0] * 1e-9, NULL);
	}

	int failed = 0;
	if (o.check) {
		host_blas_begin();
		double *h = o.prec == 's' ? malloc(sizeof *h * nn) : a;
		double *taud = o.prec == 's' ? malloc(sizeof *taud * (size_t)n) : tau;
		double *qd = o.prec == 's' && want_q ? malloc(sizeof *qd * nn) : q;
		if (!h || !taud || (want_q && !qd)) {
			fprintf(stderr, "%s: error: out of memory for the checks\n", prog);
			return 1;
		}
		if (o.prec == 's') {
			to_double(n, n, a, h, n);
			to_double(n - 1 > 0 ? n - 1 : 1, 1, tau, taud, 1);
			if (want_q)
				to_double(n, n, q, qd, n);
		}
		double eps = o.prec == 's' ? 0x1p-24 : 0x1p-53, resid = NAN, orth = NAN;
		int ok = (sampled ? hessenberg_sampled_errors(n, a0, n, h, n, qd, 4, &resid, &orth)
		                  : hessenberg_residuals(n, a0, n, h, n, taud, qd, &resid, &orth)) == 0 &&
		         resid <= 30 * eps && orth <= 30 * eps;
		if (sampled)
			result_str("check_by", "sampled");
		failed = !ok;
		result_num("resid", "%.2e", resid, NULL);
		result_num("orth", "%.2e", orth, NULL);
		result_num("resid_eps", "%.2f", resid / eps, NULL);
		result_num("orth_eps", "%.2f", orth / eps, NULL);
		result_str("check", ok ? "pass" : "FAILED");
		if (o.prec == 's')
			free(h), free(taud), free(want_q ? qd : NULL);
		host_blas_end();
	}
	if (o.lapack) {
		double tq = 0, t = lapack_gehrd_seconds(n, a0, n, o.prec, want_q ? &tq : NULL);
		result_num("lapack_gehrd", "%.4f", t, " s");
		result_num("speedup", "%.2f", t / best, "x");
		if (want_q) {
			result_num("lapack_orghr", "%.4f", tq, " s");
			result_num("orghr_speedup", "%.2f", tq / q_times[0], "x");
		}
	}
	result_end();
	free(a0), free(times), free(tau), free(q_times);
	hyla_free(a, elsize * nn);
	if (want_q)
		hyla_free(q, elsize * nn);
	hyla_finalize();
	return failed;
}
