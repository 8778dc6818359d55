/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* bidiag_reduce: bidiagonal reduction Q^T A P = B of a random m-by-n matrix,
 * or a file's, with hyla (LAPACK dgebrd's output). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"
#include "result.h"

static const char *prog = "bidiag_reduce";
enum { OPT_SVD = 1000, OPT_CUSOLVER };
static int svd, cusolver;

static int on_option(int opt, const char *arg)
{
	(void)arg;
	switch (opt) {
	case OPT_SVD: svd = 1; return 1;
	case OPT_CUSOLVER: cusolver = cusolver_option(prog); return 1;
	}
	return 0;
}

static void usage(void)
{
	printf("usage: %s M [N] [options]\n"
	       "Bidiagonal reduction Q^T A P = B of a random M-by-N matrix (N = M by default;\n"
	       "B upper for M >= N, lower else), or of --input's, as a StarPU task graph on the\n"
	       "CPU cores and GPUs;\n"
	       "LAPACK dgebrd's output (--output writes A with the reflectors to FILE, and d, e,\n"
	       "tauq, taup to its .d, .e, .tauq, .taup siblings). Checks ||A - Q B P^T||_F /\n"
	       "(min(m,n) ||A||_F) and the orthogonality of Q and P (LAPACK's dorgbr), each at\n"
	       "most 30 eps.\n\n"
	       "  --svd            also B's singular values (LAPACK dbdsqr) against dgesdd's on A\n"
	       "  --cusolver       also time cuSOLVER's gebrd on the GPU (data already there;\n"
	       "                   M >= N)\n"
	       DRIVER_OPTIONS_HELP,
	       prog);
}

int main(int argc, char **argv)
{
	static const struct option extra[] = {{"svd", no_argument, 0, OPT_SVD},
	                                      {"cusolver", no_argument, 0, OPT_CUSOLVER}, {0}};
	struct driver_options o = parse_driver_options(argc, argv, prog, 2, extra, on_option, usage);
	o.require_gpu |= cusolver;
	o.algorithms[0] = "gebrd";
	static const char *const tags[] = {"d", "e", "tauq", "taup"}; /* what --output writes */
	memcpy(o.output_tags, tags, sizeof tags);
	if (o.models)
		driver_start(prog, &o); /* reports and exits */
	int64_t m = o.m, n = o.n, k = m < n ? m : n;
	if (cusolver && m < n)
		die_usage(prog, "--cusolver: cuSOLVER's gebrd takes M >= N, not %lld < %lld", (long long)m,
		          (long long)n);
	size_t elsize = o.prec == 's' ? sizeof(float) : sizeof(double), mn = (size_t)(m * n);
	/* Input in double, the reduced copy, the checks' five m-by-n in double. */
	check_memory(prog, (double)mn * (6 * 8 + elsize));
	double *a0 = malloc(sizeof *a0 * mn);
	if (!a0) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		return 1;
	}
	driver_matrix(prog, &o, a0);
	o.work_power = 3; /* the progress estimate: see driver_progress_begin */
	hyla_options opts = {.nb = o.nb};
	driver_start(prog, &o);

	void *a = hyla_malloc(elsize * mn), *v = malloc(elsize * (size_t)(4 * k));
	double *times = malloc(sizeof *times * (size_t)o.repeat);
	if (!a || !v || !times) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		return 1;
	}
	char *d = v, *e = d + elsize * (size_t)k, *tq = e + elsize * (size_t)k, *tp = tq + elsize * (size_t)k;
	int info = 0;
	for (int64_t k = 0; k < o.repeat && info == 0; k++) {
		if (o.prec == 's')
			to_float(m, n, a0, m, a);
		else
			memcpy(a, a0, sizeof(double) * mn);
		if (o.stats)
			worker_stats_start();
		driver_progress_begin(prog, &o);
		driver_trace_begin(&o, k);
		double t = now_seconds();
		info = o.prec == 's'
		           ? hyla_sgebrd(m, n, a, m, (float *)d, (float *)e, (float *)tq, (float *)tp, &opts)
		           : hyla_dgebrd(m, n, a, m, (double *)d, (double *)e, (double *)tq, (double *)tp,
		                         &opts);
		times[k] = now_seconds() - t;
		driver_progress_end();
		driver_trace_end(prog, &o, k);
	}
	if (info != 0) {
		fprintf(stderr, "%s: error: hyla_%cgebrd returned %d (%s)\n", prog, o.prec, info,
		        hyla_strerror(info));
		return 1;
	}
	int64_t k1 = k > 1 ? k - 1 : 1;
	/* B's two diagonals scale with A. */
	driver_write_scaled(prog, &o, NULL, m, n, a, m, m >= n ? 0 : -1, m >= n ? 1 : 0);
	driver_write_scaled(prog, &o, "d", k, 1, d, k, ALL_DIAGONALS);
	driver_write_scaled(prog, &o, "e", k1, 1, e, k1, ALL_DIAGONALS);
	driver_write(prog, &o, "tauq", k, 1, tq, k);
	driver_write(prog, &o, "taup", k, 1, tp, k);
	if (o.stats)
		worker_stats_print();
	sort_times(times, o.repeat);
	double best = times[0], big = (double)(m > n ? m : n), small = (double)k;
	char prec[2] = {o.prec, 0};
	result_begin(prog);
	result_num("m", "%.0f", (double)m, NULL);
	result_num("n", "%.0f", (double)n, NULL);
	result_str("prec", prec);
	if (o.input_scale)
		result_num("input_scale", "%.0f", (double)o.input_scale, NULL);
	hyla_options used = opts;
	hyla_options_defaults("gebrd", m, n, &used);
	result_num("nb", "%.0f", (double)used.nb, NULL);
	result_num("time", "%.4f", best, " s");
	if (o.repeat > 1)
		result_num("median", "%.4f", times[o.repeat / 2], " s");
	/* LAPACK's count for dgebrd: 4 max(m,n) min(m,n)^2 - 4 min(m,n)^3 / 3. */
	result_num("gflops", "%.1f", (4 * big * small * small - 4 * small * small * small / 3) / best * 1e-9,
	           NULL);

	int failed = 0;
	if (o.check || svd) {
		host_blas_begin();
		double *h = malloc(sizeof *h * mn), *dv = malloc(sizeof *dv * (size_t)(4 * k));
		if (!h || !dv) {
			fprintf(stderr, "%s: error: out of memory for the checks\n", prog);
			return 1;
		}
		if (o.prec == 's') {
			to_double(m, n, a, h, m);
			to_double(4 * k, 1, v, dv, 4 * k);
		} else {
			memcpy(h, a, sizeof *h * mn);
			memcpy(dv, v, sizeof *dv * (size_t)(4 * k));
		}
		double eps = o.prec == 's' ? 0x1p-24 : 0x1p-53;
		if (o.check) {
			double resid = NAN, orth = NAN;
			int ok = bidiagonal_residuals(m, n, a0, m, h, dv, dv + k, dv + 2 * k, dv + 3 * k,
			                              &resid, &orth) == 0 && resid <= 30 * eps && orth <= 30 * eps;
			failed |= !ok;
			result_num("resid_eps", "%.2f", resid / eps, NULL);
			result_num("orth_eps", "%.2f", orth / eps, NULL);
			result_str("check", ok ? "pass" : "FAILED");
		}
		if (svd) {
			double scale = 0, err = bidiagonal_sv_error(m, n, a0, m, dv, dv + k, &scale);
			int ok = err <= 30 * small * eps * scale;
			failed |= !ok;
			result_num("sv_vs_dgesdd", "%.2e", err, NULL);
			result_str("sv_check", ok ? "pass" : "FAILED");
		}
		free(h), free(dv);
		host_blas_end();
	}
	if (o.lapack) {
		double t = lapack_gebrd_seconds(m, n, a0, m, o.prec);
		result_num("lapack_gebrd", "%.4f", t, " s");
		result_num("speedup", "%.2f", t / best, "x");
	}
#ifdef HYLA_WITH_CUDA
	if (cusolver && report_cusolver(prog, CUSOLVER_GEBRD, m, n, a0, m, o.prec, 0, best))
		return 1;
#endif
	result_end();
	free(a0), free(times), free(v);
	hyla_free(a, elsize * mn);
	hyla_finalize();
	return failed;
}
