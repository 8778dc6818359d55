/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* eigh: the eigenvalues (and with --vectors the eigenvectors) of a
 * symmetric matrix, random or of a known spectrum or a file's, with hyla
 * (LAPACK dsyevd's contract; NumPy's name). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"
#include "result.h"
#include "spectra.h"

static const char *prog = "eigh";
enum { OPT_VECTORS = 1000, OPT_UPLO, OPT_TRIANGLE, OPT_KIND, OPT_CUSOLVER };
static char uplo = 'L', triangle; /* triangle: the input's one to use (no check) */
static const char *kind = "random";
static int vectors, cusolver;

static int on_option(int opt, const char *arg)
{
	switch (opt) {
	case OPT_VECTORS: vectors = 1; return 1;
	case OPT_UPLO: uplo = triangle_option(prog, "--uplo", arg); return 1;
	case OPT_TRIANGLE: triangle = triangle_option(prog, "--triangle", arg); return 1;
	case OPT_KIND:
		for (int i = 0; spectrum_kinds[i]; i++)
			if (!strcmp(arg, spectrum_kinds[i]))
				return kind = spectrum_kinds[i], 1;
		die_usage(prog, "--kind must be random, graded, clustered, known or repeated, not '%s'", arg);
	case OPT_CUSOLVER: cusolver = cusolver_option(prog); return 1;
	}
	return 0;
}

static void usage(void)
{
	printf("usage: %s N [options]\n"
	       "Eigenvalues, ascending (and with --vectors orthonormal eigenvectors), of a symmetric\n"
	       "N-by-N matrix, random or of --kind's spectrum or --input's (checked for symmetry),\n"
	       "as a StarPU task graph on the CPU cores and GPUs: hyla_dsyevd (LAPACK dsyevd's\n"
	       "contract). --output writes the eigenvalues to FILE and the eigenvectors to its .v\n"
	       "sibling. Checks: the eigenvalues against LAPACK's dsyevd on the same matrix (and\n"
	       "the exact ones where --kind knows them) within 30 n eps ||A||_2; with --vectors\n"
	       "||A - V W V^T||_F / (n ||A||_F) and ||I - V^T V||_F / n at most 30 eps.\n\n"
	       "  --vectors        the eigenvectors too (jobz V; default: values alone)\n"
	       "  --uplo L|U       the triangle the solver reads (default L)\n"
	       "  --kind K         random (default), graded (D A D, D = diag(10^(-6i/n))),\n"
	       "                   clustered (n - 3 eigenvalues 1e-9 apart up to 1, then 2, 3, 4)\n"
	       "                   known (eigenvalues 1, 2, ..., n), repeated (1, 2, ..., n/3,\n"
	       "                   each three times), gapped (random within 6 of the diagonal,\n"
	       "                   zero at odd distances from it) or underflow (two blocks, the\n"
	       "                   second scaled by 1e-309)\n"
	       "  --triangle L|U   --input: use that triangle of the file's matrix and skip the\n"
	       "                   symmetry check (default: the file must be symmetric)\n"
	       "  --cusolver       also time cuSOLVER's syevd on the GPU (data already there)\n"
	       DRIVER_OPTIONS_HELP,
	       prog);
}

/* The checks into the result; 1 if one failed. */
static int check(const struct driver_options *o, int64_t n, const double *a0, const void *a,
                 const void *w, const double *exact)
{
	size_t nn = (size_t)(n * n);
	double *ref = malloc(sizeof *ref * (size_t)(2 * n)), *wd = ref + n;
	double *v = vectors ? malloc(sizeof *v * nn) : NULL;
	if (!ref || (vectors && !v)) {
		fprintf(stderr, "%s: error: out of memory for the checks\n", prog);
		exit(1);
	}
	host_blas_begin();
	if (o->prec == 's')
		to_double(n, 1, w, wd, n);
	else
		memcpy(wd, w, sizeof *wd * (size_t)n);
	int ok = lapack_eigenvalues(n, a0, ref) == 0;
	double eps = o->prec == 's' ? 0x1p-24 : 0x1p-53;
	double norm = fmax(fabs(ref[0]), fabs(ref[n - 1])), tol = 30 * (double)n * eps * norm;
	double err = eigenvalue_error(n, wd, ref);
	ok = ok && err <= tol;
	result_num("values_vs_dsyevd", "%.2e", err, NULL);
	if (exact) {
		double e = eigenvalue_error(n, wd, exact);
		ok = ok && e <= tol;
		result_num("values_vs_exact", "%.2e", e, NULL);
	}
	if (vectors) {
		double resid = NAN, orth = NAN;
		if (o->prec == 's')
			to_double(n, n, a, v, n);
		else
			memcpy(v, a, sizeof *v * nn);
		ok = ok && eigen_residuals(n, a0, wd, v, n, &resid, &orth) == 0 &&
		     resid <= 30 * (double)n * eps && orth <= 30 * (double)n * eps;
		result_num("resid_eps", "%.2f", resid / ((double)n * eps), NULL);
		result_num("orth_eps", "%.2f", orth / ((double)n * eps), NULL);
	}
	result_str("check", ok ? "pass" : "FAILED");
	host_blas_end();
	free(ref), free(v);
	return !ok;
}

int main(int argc, char **argv)
{
	static const struct option extra[] = {{"vectors", no_argument, 0, OPT_VECTORS},
	                                      {"uplo", required_argument, 0, OPT_UPLO},
	                                      {"triangle", required_argument, 0, OPT_TRIANGLE},
	                                      {"kind", required_argument, 0, OPT_KIND},
	                                      {"cusolver", no_argument, 0, OPT_CUSOLVER}, {0}};
	struct driver_options o = parse_driver_options(argc, argv, prog, 1, extra, on_option, usage);
	o.require_gpu |= cusolver;
	o.algorithms[0] = vectors ? "syevd_vectors" : "syevd";
	static const char *const tags[] = {"v"}; /* what --output writes */
	memcpy(o.output_tags, tags, sizeof tags);
	if (o.models)
		driver_start(prog, &o); /* reports and exits */
	if (o.m != o.n)
		die_usage(prog, "--input %s is %lld x %lld; eigh needs a square matrix", o.input,
		          (long long)o.m, (long long)o.n);
	if (triangle && !o.input)
		die_usage(prog, "--triangle applies to --input");
	if (o.input && strcmp(kind, "random"))
		die_usage(prog, "--kind applies to generated matrices, not --input");
	int64_t n = o.n;
	size_t elsize = o.prec == 's' ? sizeof(float) : sizeof(double), nn = (size_t)(n * n);
	/* Input in double, the solver's copy, the checks' three n-by-n in double. */
	check_memory(prog, (double)nn * (4 * 8 + elsize));
	double *a0 = malloc(sizeof *a0 * nn), *exact = malloc(sizeof *exact * (size_t)n);
	if (!a0 || !exact) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		return 1;
	}
	int known = spectrum_known(kind);
	if (o.input || !strcmp(kind, "random"))
		driver_matrix(prog, &o, a0);
	else if (symmetric_matrix(kind, n, a0, o.seed, known ? exact : NULL)) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		return 1;
	}
	if (o.prec == 's')
		round_to_float(n, n, a0, n);
	o.work_power = 3; /* the progress estimate: the reduction's */
	hyla_options opts = {.nb = o.nb};
	symmetric_input(prog, &o, n, a0, triangle, uplo);
	driver_start(prog, &o);

	void *a = hyla_malloc(elsize * nn), *w = malloc(elsize * (size_t)n);
	double *times = malloc(sizeof *times * (size_t)o.repeat);
	if (!a || !w || !times) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		return 1;
	}
	char jobz = vectors ? 'V' : 'N';
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
		info = o.prec == 's' ? hyla_ssyevd(jobz, uplo, n, a, n, w, &opts)
		                     : hyla_dsyevd(jobz, uplo, n, a, n, w, &opts);
		times[k] = now_seconds() - t;
		driver_progress_end();
		driver_trace_end(prog, &o, k);
	}
	if (info != 0) {
		fprintf(stderr, "%s: error: hyla_%csyevd returned %d (%s)\n", prog, o.prec, info,
		        hyla_strerror(info));
		return 1;
	}
	driver_write_scaled(prog, &o, NULL, n, 1, w, n, ALL_DIAGONALS);
	if (vectors)
		driver_write(prog, &o, "v", n, n, a, n);
	if (o.stats)
		worker_stats_print();
	sort_times(times, o.repeat);
	double best = times[0];
	char prec[2] = {o.prec, 0}, up[2] = {uplo, 0}, job[2] = {jobz, 0};
	result_begin(prog);
	result_num("n", "%.0f", (double)n, NULL);
	result_str("prec", prec);
	result_str("uplo", up);
	result_str("jobz", job);
	result_str("kind", o.input ? "input" : kind);
	if (o.input_scale)
		result_num("input_scale", "%.0f", (double)o.input_scale, NULL);
	hyla_options used = opts;
	hyla_options_defaults("syevd", n, n, &used);
	result_num("nb", "%.0f", (double)used.nb, NULL);
	result_num("time", "%.4f", best, " s");
	if (o.repeat > 1)
		result_num("median", "%.4f", times[o.repeat / 2], " s");
	int failed = o.check ? check(&o, n, a0, a, w, known && !o.input ? exact : NULL) : 0;
	if (o.lapack) {
		double t = lapack_syevd_seconds(n, a0, o.prec, jobz);
		result_num("lapack_syevd", "%.4f", t, " s");
		result_num("speedup", "%.2f", t / best, "x");
	}
#ifdef HYLA_WITH_CUDA
	if (cusolver && report_cusolver(prog, vectors ? CUSOLVER_SYEVD_VECTORS : CUSOLVER_SYEVD, n, n,
	                                a0, n, o.prec, uplo, best))
		return 1;
#endif
	result_end();
	free(a0), free(exact), free(times), free(w);
	hyla_free(a, elsize * nn);
	hyla_finalize();
	return failed;
}
