/* qr_mgs: modified Gram-Schmidt QR of a random m-by-n matrix with hyla. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"
#include "result.h"

static const char *prog = "qr_mgs";

static hyla_mgs_form form = HYLA_MGS_BLOCKED;

static void usage(void)
{
	printf("usage: %s M [N] [options]\n"
	       "Modified Gram-Schmidt QR (A = QR, m >= n) of a random M-by-N matrix\n"
	       "(N = M by default), or of --input's, as a StarPU task graph on the CPU cores\n"
	       "and GPUs. --output writes Q to FILE and R to FILE's .r sibling.\n\n"
	       "  --form F         blocked (Level-3 trailing updates) or vector\n"
	       "                   (GEMV^T + GER per column); default blocked\n"
	       DRIVER_OPTIONS_HELP, prog);
}

static int on_form(int opt, const char *arg)
{
	if (opt != 'f')
		return 0;
	if (!strcmp(arg, "blocked"))
		form = HYLA_MGS_BLOCKED;
	else if (!strcmp(arg, "vector"))
		form = HYLA_MGS_VECTOR;
	else
		die_usage(prog, "--form must be blocked or vector, not '%s'", arg);
	return 1;
}

int main(int argc, char **argv)
{
	static const struct option extra[] = {{"form", required_argument, 0, 'f'}, {0, 0, 0, 0}};
	struct driver_options o = parse_driver_options(argc, argv, prog, 2, extra, on_form, usage);
	if (o.n > o.m)
		die_usage(prog, "N = %lld exceeds M = %lld (MGS needs a tall or square matrix)",
		          (long long)o.n, (long long)o.m);
	int64_t m = o.m, n = o.n;
	size_t elsize = o.prec == 's' ? sizeof(float) : sizeof(double);
	/* The input kept in double, the factored copy, R, and the checks' workspace. */
	check_memory(prog, (double)m * n * (2 * 8 + 2 * elsize) + (double)n * n * (8 + elsize));

	driver_start(prog, &o);

	double *a0 = malloc(sizeof *a0 * (size_t)(m * n));
	void *a = hyla_malloc(elsize * (size_t)(m * n));
	void *r = hyla_malloc(elsize * (size_t)(n * n));
	double *times = malloc(sizeof *times * (size_t)o.repeat);
	if (!a0 || !a || !r || !times) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		return 1;
	}
	driver_matrix(prog, &o, a0);
	int64_t nb = o.nb ? o.nb : hyla_mgs_default_nb(m, n);

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
		info = o.prec == 's' ? hyla_smgs(m, n, a, m, r, n, nb, form)
		                     : hyla_dmgs(m, n, a, m, r, n, nb, form);
		times[k] = now_seconds() - t;
		driver_progress_end();
		driver_trace_end(prog, &o, k);
	}
	if (info != 0) {
		fprintf(stderr, "%s: error: hyla_%cmgs returned %d (%s)\n", prog, o.prec, info,
		        hyla_strerror(info));
		return 1;
	}
	driver_write(prog, &o, NULL, m, n, a, m);
	driver_write(prog, &o, "r", n, n, r, n);
	if (o.stats)
		worker_stats_print();
	sort_times(times, o.repeat);
	double best = times[0], median = times[o.repeat / 2];

	char prec[2] = {o.prec, 0};
	result_begin(prog);
	result_num("m", "%.0f", (double)m, NULL);
	result_num("n", "%.0f", (double)n, NULL);
	result_str("prec", prec);
	result_str("form", form == HYLA_MGS_BLOCKED ? "blocked" : "vector");
	result_num("nb", "%.0f", (double)nb, NULL);
	result_num("time", "%.4f", best, " s");
	if (o.repeat > 1)
		result_num("median", "%.4f", median, " s");
	result_num("gflops", "%.1f", 2.0 * m * n * n / best * 1e-9, NULL);

	int failed = 0;
	if (o.check) {
		host_blas_begin();
		double *q = o.prec == 's' ? malloc(sizeof *q * (size_t)(m * n)) : a;
		double *rd = o.prec == 's' ? malloc(sizeof *rd * (size_t)(n * n)) : r;
		if (!q || !rd) {
			fprintf(stderr, "%s: error: out of memory for the checks\n", prog);
			return 1;
		}
		if (o.prec == 's') {
			to_double(m, n, a, q, m);
			to_double(n, n, r, rd, n);
		}
		double eps = o.prec == 's' ? 0x1p-24 : 0x1p-53;
		double orth = orthogonality(m, n, q, m);
		double resid = qr_residual(m, n, a0, m, q, m, rd, n);
		double kappa = triangular_condition(n, rd, n);
		/* MGS: orthogonality lost in proportion to the condition number,
		 * residual at rounding level whatever the condition. */
		int ok = orth <= n * kappa * eps && resid <= 10 * n * eps;
		failed = !ok;
		result_num("orth", "%.2e", orth, NULL);
		result_num("resid", "%.2e", resid, NULL);
		result_num("cond1", "%.1e", kappa, NULL);
		result_str("check", ok ? "pass" : "FAILED");
		if (o.prec == 's')
			free(q), free(rd);
		host_blas_end();
	}
	if (o.lapack) {
		double t = lapack_qr_seconds(m, n, a0, m, o.prec);
		result_num("lapack_geqrf_orgqr", "%.4f", t, " s");
		result_num("speedup", "%.2f", t / best, "x");
	}
	result_end();

	free(a0), free(times);
	hyla_free(a, elsize * (size_t)(m * n));
	hyla_free(r, elsize * (size_t)(n * n));
	hyla_finalize();
	return failed;
}
