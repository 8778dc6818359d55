/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* svd: the singular values (and with --vectors the thin singular vectors)
 * of a matrix, random or of a known spectrum or a file's, with hyla
 * (LAPACK dgesdd's contract; NumPy's name). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"
#include "result.h"
#include "spectra.h"

static const char *prog = "svd";
enum { OPT_VECTORS = 1000, OPT_KIND, OPT_CUSOLVER };
static const char *kind = "random";
static int vectors, cusolver;

static int on_option(int opt, const char *arg)
{
	switch (opt) {
	case OPT_VECTORS: vectors = 1; return 1;
	case OPT_KIND:
		for (int i = 0; singular_kinds[i]; i++)
			if (!strcmp(arg, singular_kinds[i]))
				return kind = singular_kinds[i], 1;
		die_usage(prog, "--kind must be random, graded, geometric, repeated, gapped or underflow, not '%s'",
		          arg);
	case OPT_CUSOLVER: cusolver = cusolver_option(prog); return 1;
	}
	return 0;
}

static void usage(void)
{
	printf("usage: %s M [N] [options]\n"
	       "Singular values, descending (and with --vectors the thin U and V^T), of an M-by-N\n"
	       "matrix (N = M by default), random or of --kind's spectrum or --input's, as a\n"
	       "StarPU task graph on the CPU cores and GPUs: hyla_dgesdd (LAPACK dgesdd's\n"
	       "contract, jobz N or S). --output writes the singular values to FILE, U and V^T to\n"
	       "its .u and .vt siblings. Checks: the values against LAPACK's dgesdd on the same\n"
	       "matrix (and the exact ones for --kind geometric and repeated) within\n"
	       "30 max(m,n) eps ||A||_2; with --vectors ||A - U S V^T||_F / (max(m,n) ||A||_F),\n"
	       "||I - U^T U||_F / m and ||I - V^T V||_F / n at most 30 eps.\n\n"
	       "  --vectors        the thin singular vectors too (jobz S; default: values alone)\n"
	       "  --kind K         random (default), graded (D A, D = diag(10^(-6i/m))),\n"
	       "                   geometric (singular values from 1 down to 1e-12), repeated\n"
	       "                   (1, 2, ... each three times, then a third zeros), gapped\n"
	       "                   (a sparse upper band: diagonal, and entries 2, 4, 6 above it)\n"
	       "                   or underflow (two diagonal blocks, the second times 1e-309)\n"
	       "  --cusolver       also time cuSOLVER's gesvd on the GPU (M >= N; data already\n"
	       "                   there)\n"
	       DRIVER_OPTIONS_HELP,
	       prog);
}

/* The checks into the result; 1 if one failed. */
static int check(const struct driver_options *o, int64_t m, int64_t n, const double *a0,
                 const void *s, const void *u, const void *vt, const double *exact)
{
	int64_t k = m < n ? m : n;
	double *ref = malloc(sizeof *ref * (size_t)(2 * k)), *sd = ref + k;
	double *ud = vectors ? malloc(sizeof *ud * (size_t)(m * k)) : NULL;
	double *vd = vectors ? malloc(sizeof *vd * (size_t)(k * n)) : NULL;
	if (!ref || (vectors && (!ud || !vd))) {
		fprintf(stderr, "%s: error: out of memory for the checks\n", prog);
		exit(1);
	}
	host_blas_begin();
	if (o->prec == 's')
		to_double(k, 1, s, sd, k);
	else
		memcpy(sd, s, sizeof *sd * (size_t)k);
	double eps = o->prec == 's' ? 0x1p-24 : 0x1p-53, big = (double)(m > n ? m : n);
	int ok = lapack_singular_values(m, n, a0, ref) == 0;
	double tol = 30 * big * eps * ref[0], err = eigenvalue_error(k, sd, ref);
	ok = ok && err <= tol;
	result_num("values_vs_dgesdd", "%.2e", err, NULL);
	if (exact) {
		double e = eigenvalue_error(k, sd, exact);
		ok = ok && e <= tol;
		result_num("values_vs_exact", "%.2e", e, NULL);
	}
	if (vectors) {
		double resid = NAN, orth_u = NAN, orth_v = NAN;
		if (o->prec == 's') {
			to_double(m, k, u, ud, m);
			to_double(k, n, vt, vd, k);
		} else {
			memcpy(ud, u, sizeof *ud * (size_t)(m * k));
			memcpy(vd, vt, sizeof *vd * (size_t)(k * n));
		}
		ok = ok && svd_residuals(m, n, a0, sd, ud, m, vd, k, &resid, &orth_u, &orth_v) == 0;
		resid /= big * eps, orth_u /= (double)m * eps, orth_v /= (double)n * eps;
		ok = ok && resid <= 30 && orth_u <= 30 && orth_v <= 30;
		result_num("resid_eps", "%.2f", resid, NULL);
		result_num("orth_u_eps", "%.2f", orth_u, NULL);
		result_num("orth_v_eps", "%.2f", orth_v, NULL);
	}
	result_str("check", ok ? "pass" : "FAILED");
	host_blas_end();
	free(ref), free(ud), free(vd);
	return !ok;
}

int main(int argc, char **argv)
{
	static const struct option extra[] = {{"vectors", no_argument, 0, OPT_VECTORS},
	                                      {"kind", required_argument, 0, OPT_KIND},
	                                      {"cusolver", no_argument, 0, OPT_CUSOLVER}, {0}};
	struct driver_options o = parse_driver_options(argc, argv, prog, 2, extra, on_option, usage);
	o.require_gpu |= cusolver;
	o.algorithms[0] = vectors ? "gesdd_vectors" : "gesdd";
	static const char *const tags[] = {"u", "vt"}; /* what --output writes */
	memcpy(o.output_tags, tags, sizeof tags);
	if (o.models)
		driver_start(prog, &o); /* reports and exits */
	if (o.input && strcmp(kind, "random"))
		die_usage(prog, "--kind applies to generated matrices, not --input");
	int64_t m = o.m, n = o.n, k = m < n ? m : n;
	if (cusolver && m < n)
		die_usage(prog, "--cusolver: cuSOLVER's gesvd takes M >= N, not %lld x %lld",
		          (long long)m, (long long)n);
	size_t el = o.prec == 's' ? sizeof(float) : sizeof(double), mn = (size_t)(m * n);
	/* Input in double, the solver's copy, U and V^T, the checks' three more. */
	check_memory(prog, (double)mn * (4 * 8 + 3 * el));
	double *a0 = malloc(sizeof *a0 * mn), *exact = malloc(sizeof *exact * (size_t)k);
	if (!a0 || !exact) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		return 1;
	}
	int known = !strcmp(kind, "geometric") || !strcmp(kind, "repeated");
	if (o.input || !strcmp(kind, "random"))
		driver_matrix(prog, &o, a0);
	else if (general_matrix(kind, m, n, a0, o.seed, known ? exact : NULL)) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		return 1;
	}
	if (o.prec == 's')
		round_to_float(m, n, a0, m);
	o.work_power = 3; /* the progress estimate: the reduction's */
	hyla_options opts = {.nb = o.nb};
	driver_start(prog, &o);

	void *a = hyla_malloc(el * mn), *s = malloc(el * (size_t)k);
	void *u = vectors ? hyla_malloc(el * (size_t)(m * k)) : NULL;
	void *vt = vectors ? hyla_malloc(el * (size_t)(k * n)) : NULL;
	double *times = malloc(sizeof *times * (size_t)o.repeat);
	if (!a || !s || !times || (vectors && (!u || !vt))) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		return 1;
	}
	char jobz = vectors ? 'S' : 'N';
	int64_t ldvt = k > 0 ? k : 1;
	int info = 0;
	for (int64_t r = 0; r < o.repeat && info == 0; r++) {
		if (o.prec == 's')
			to_float(m, n, a0, m, a);
		else
			memcpy(a, a0, sizeof(double) * mn);
		if (o.stats)
			worker_stats_start();
		driver_progress_begin(prog, &o);
		driver_trace_begin(&o, r);
		double t = now_seconds();
		info = o.prec == 's' ? hyla_sgesdd(jobz, m, n, a, m, s, u, m, vt, ldvt, &opts)
		                     : hyla_dgesdd(jobz, m, n, a, m, s, u, m, vt, ldvt, &opts);
		times[r] = now_seconds() - t;
		driver_progress_end();
		driver_trace_end(prog, &o, r);
	}
	if (info != 0) {
		fprintf(stderr, "%s: error: hyla_%cgesdd returned %d (%s)\n", prog, o.prec, info,
		        hyla_strerror(info));
		return 1;
	}
	driver_write_scaled(prog, &o, NULL, k, 1, s, k, ALL_DIAGONALS);
	if (vectors) {
		driver_write(prog, &o, "u", m, k, u, m);
		driver_write(prog, &o, "vt", k, n, vt, ldvt);
	}
	if (o.stats)
		worker_stats_print();
	sort_times(times, o.repeat);
	double best = times[0];
	char prec[2] = {o.prec, 0}, job[2] = {jobz, 0};
	result_begin(prog);
	result_num("m", "%.0f", (double)m, NULL);
	result_num("n", "%.0f", (double)n, NULL);
	result_str("prec", prec);
	result_str("jobz", job);
	result_str("kind", o.input ? "input" : kind);
	if (o.input_scale)
		result_num("input_scale", "%.0f", (double)o.input_scale, NULL);
	hyla_options used = opts;
	hyla_options_defaults("gesdd", m, n, &used);
	result_num("nb", "%.0f", (double)used.nb, NULL);
	result_num("time", "%.4f", best, " s");
	if (o.repeat > 1)
		result_num("median", "%.4f", times[o.repeat / 2], " s");
	int failed = o.check ? check(&o, m, n, a0, s, u, vt, known && !o.input ? exact : NULL) : 0;
	if (o.lapack) {
		double t = lapack_gesdd_seconds(m, n, a0, o.prec, jobz);
		result_num("lapack_gesdd", "%.4f", t, " s");
		result_num("speedup", "%.2f", t / best, "x");
	}
#ifdef HYLA_WITH_CUDA
	if (cusolver && report_cusolver(prog, vectors ? CUSOLVER_GESVD_VECTORS : CUSOLVER_GESVD, m, n,
	                                a0, m, o.prec, 'L', best))
		return 1;
#endif
	result_end();
	free(a0), free(exact), free(times), free(s);
	hyla_free(a, el * mn);
	hyla_free(u, el * (size_t)(m * k));
	hyla_free(vt, el * (size_t)(k * n));
	hyla_finalize();
	return failed;
}
