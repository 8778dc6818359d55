/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* tridiag_reduce: symmetric tridiagonal reduction Q^T A Q = T of a random
 * symmetric n-by-n matrix, or a file's, with hyla (LAPACK dsytrd's output). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"
#include "result.h"
#include "spectra.h"

static const char *prog = "tridiag_reduce";
enum { OPT_UPLO = 1000, OPT_TRIANGLE, OPT_EIG, OPT_CUSOLVER };
static char uplo = 'L', triangle; /* triangle: the input's one to use (no check) */
static int eig, cusolver;

static int on_option(int opt, const char *arg)
{
	switch (opt) {
	case OPT_UPLO: uplo = triangle_option(prog, "--uplo", arg); return 1;
	case OPT_TRIANGLE: triangle = triangle_option(prog, "--triangle", arg); return 1;
	case OPT_EIG: eig = 1; return 1;
	case OPT_CUSOLVER: cusolver = cusolver_option(prog); return 1;
	}
	return 0;
}

static void usage(void)
{
	printf("usage: %s N [options]\n"
	       "Symmetric tridiagonal reduction Q^T A Q = T of a random symmetric N-by-N matrix,\n"
	       "or of --input's (checked for symmetry), as a StarPU task graph on the CPU cores\n"
	       "and GPUs; LAPACK dsytrd's output (--output writes A with the reflectors to FILE,\n"
	       "and d, e, tau to its .d, .e, .tau siblings). Checks ||A - Q T Q^T||_F / (n ||A||_F)\n"
	       "and ||I - Q^T Q||_F / n, each at most 30 eps (Q from LAPACK's dorgtr).\n\n"
	       "  --uplo L|U       the triangle the reduction works on (default L)\n"
	       "  --triangle L|U   --input: use that triangle of the file's matrix and skip the\n"
	       "                   symmetry check (default: the file must be symmetric)\n"
	       "  --eig            also T's eigenvalues (LAPACK dsterf) against dsyevd's on A\n"
	       "  --cusolver       also time cuSOLVER's sytrd on the GPU (data already there)\n"
	       DRIVER_OPTIONS_HELP,
	       prog);
}

int main(int argc, char **argv)
{
	static const struct option extra[] = {{"uplo", required_argument, 0, OPT_UPLO},
	                                      {"triangle", required_argument, 0, OPT_TRIANGLE},
	                                      {"eig", no_argument, 0, OPT_EIG},
	                                      {"cusolver", no_argument, 0, OPT_CUSOLVER}, {0}};
	struct driver_options o = parse_driver_options(argc, argv, prog, 1, extra, on_option, usage);
	o.require_gpu |= cusolver;
	o.algorithms[0] = "sytrd";
	static const char *const tags[] = {"d", "e", "tau"}; /* what --output writes */
	memcpy(o.output_tags, tags, sizeof tags);
	if (o.models)
		driver_start(prog, &o); /* reports and exits */
	if (o.m != o.n)
		die_usage(prog, "--input %s is %lld x %lld; the reduction needs a square matrix", o.input,
		          (long long)o.m, (long long)o.n);
	if (triangle && !o.input)
		die_usage(prog, "--triangle applies to --input");
	int64_t n = o.n;
	size_t elsize = o.prec == 's' ? sizeof(float) : sizeof(double), nn = (size_t)(n * n);
	/* Input in double, the reduced copy, the checks' four n-by-n in double. */
	check_memory(prog, (double)nn * (5 * 8 + elsize));
	double *a0 = malloc(sizeof *a0 * nn);
	if (!a0) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		return 1;
	}
	driver_matrix(prog, &o, a0);
	o.work_power = 3; /* the progress estimate: see driver_progress_begin */
	hyla_options opts = {.nb = o.nb};
	symmetric_input(prog, &o, n, a0, triangle, uplo);
	driver_start(prog, &o);

	void *a = hyla_malloc(elsize * nn), *v = malloc(elsize * (size_t)(3 * n));
	double *times = malloc(sizeof *times * (size_t)o.repeat);
	if (!a || !v || !times) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		return 1;
	}
	char *d = v, *e = d + elsize * (size_t)n, *tau = e + elsize * (size_t)n;
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
		info = o.prec == 's'
		           ? hyla_ssytrd(uplo, n, a, n, (float *)d, (float *)e, (float *)tau, &opts)
		           : hyla_dsytrd(uplo, n, a, n, (double *)d, (double *)e, (double *)tau, &opts);
		times[k] = now_seconds() - t;
		driver_progress_end();
		driver_trace_end(prog, &o, k);
	}
	if (info != 0) {
		fprintf(stderr, "%s: error: hyla_%csytrd returned %d (%s)\n", prog, o.prec, info,
		        hyla_strerror(info));
		return 1;
	}
	int64_t n1 = n > 1 ? n - 1 : 1;
	/* T's diagonals and the triangle not referenced scale with A. */
	if (uplo == 'U')
		driver_write_scaled(prog, &o, NULL, n, n, a, n, INT64_MIN, 1);
	else
		driver_write_scaled(prog, &o, NULL, n, n, a, n, -1, INT64_MAX);
	driver_write_scaled(prog, &o, "d", n, 1, d, n, ALL_DIAGONALS);
	driver_write_scaled(prog, &o, "e", n1, 1, e, n1, ALL_DIAGONALS);
	driver_write(prog, &o, "tau", n1, 1, tau, n1);
	if (o.stats)
		worker_stats_print();
	sort_times(times, o.repeat);
	double best = times[0];
	char prec[2] = {o.prec, 0}, up[2] = {uplo, 0};
	result_begin(prog);
	result_num("n", "%.0f", (double)n, NULL);
	result_str("prec", prec);
	result_str("uplo", up);
	if (o.input_scale)
		result_num("input_scale", "%.0f", (double)o.input_scale, NULL);
	hyla_options used = opts;
	hyla_options_defaults("sytrd", n, n, &used);
	result_num("nb", "%.0f", (double)used.nb, NULL);
	result_num("time", "%.4f", best, " s");
	if (o.repeat > 1)
		result_num("median", "%.4f", times[o.repeat / 2], " s");
	result_num("gflops", "%.1f", 4.0 / 3.0 * (double)n * n * n / best * 1e-9, NULL);

	int failed = 0;
	if (o.check || eig) {
		host_blas_begin();
		double *h = malloc(sizeof *h * nn), *dv = malloc(sizeof *dv * (size_t)(3 * n));
		if (!h || !dv) {
			fprintf(stderr, "%s: error: out of memory for the checks\n", prog);
			return 1;
		}
		if (o.prec == 's') {
			to_double(n, n, a, h, n);
			to_double(3 * n, 1, v, dv, 3 * n);
		} else {
			memcpy(h, a, sizeof *h * nn);
			memcpy(dv, v, sizeof *dv * (size_t)(3 * n));
		}
		double eps = o.prec == 's' ? 0x1p-24 : 0x1p-53;
		if (o.check) {
			double resid = NAN, orth = NAN;
			int ok = tridiagonal_residuals(n, uplo, a0, n, h, dv, dv + n, dv + 2 * n, &resid,
			                               &orth) == 0 && resid <= 30 * eps && orth <= 30 * eps;
			failed |= !ok;
			result_num("resid_eps", "%.2f", resid / eps, NULL);
			result_num("orth_eps", "%.2f", orth / eps, NULL);
			result_str("check", ok ? "pass" : "FAILED");
		}
		if (eig) {
			double scale = 0, err = tridiagonal_eig_error(n, a0, n, dv, dv + n, &scale);
			int ok = err <= 30 * n * eps * scale;
			failed |= !ok;
			result_num("eig_vs_dsyevd", "%.2e", err, NULL);
			result_str("eig_check", ok ? "pass" : "FAILED");
		}
		free(h), free(dv);
		host_blas_end();
	}
	if (o.lapack) {
		double t = lapack_sytrd_seconds(n, a0, n, o.prec, uplo);
		result_num("lapack_sytrd", "%.4f", t, " s");
		result_num("speedup", "%.2f", t / best, "x");
	}
#ifdef HYLA_WITH_CUDA
	if (cusolver && report_cusolver(prog, CUSOLVER_SYTRD, n, n, a0, n, o.prec, uplo, best))
		return 1;
#endif
	result_end();
	free(a0), free(times), free(v);
	hyla_free(a, elsize * nn);
	hyla_finalize();
	return failed;
}
