/* qr_mgs: modified Gram-Schmidt QR of a random m-by-n matrix with hyla. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"
#include "hyla.h"

static const char *prog = "qr_mgs";

static void usage(void)
{
	printf("usage: %s M [N] [options]\n"
	       "Modified Gram-Schmidt QR (A = QR, m >= n) of a random M-by-N matrix\n"
	       "(N = M by default) as a StarPU task graph on the CPU cores and GPUs.\n\n"
	       "  --nb B           panel width (default: %s)\n"
	       "  --form F         blocked (Level-3 trailing updates) or vector\n"
	       "                   (GEMV^T + GER per column); default blocked\n"
	       "  --prec P         d (double) or s (single); default d\n"
	       "  --check          check ||I - Q^T Q||_F and ||A - QR||_F/||A||_F (default)\n"
	       "  --no-check       skip the checks\n"
	       "  --lapack         also time LAPACK dgeqrf + dorgqr on all host cores\n"
	       "  --repeat K       run K times, report the fastest and the median (default 1)\n"
	       "  --seed S         random matrix seed (default 1)\n"
	       "  --require-gpu    fail unless a CUDA worker is present\n"
	       "  --stats          print tasks and busy time per worker (last run)\n"
	       "  --help           this text\n\n"
	       "StarPU's environment applies: STARPU_SCHED (eager, random, dmda, ws, ...),\n"
	       "STARPU_NCPU, STARPU_NCUDA, STARPU_CALIBRATE, STARPU_WORKER_STATS.\n"
	       "Exit status: 0 pass, 1 a check failed or the run failed, 2 bad arguments.\n",
	       prog, "512 with a GPU and N >= 6144, 256 with a GPU, 128 without");
}

struct options {
	int64_t m, n, nb, repeat;
	char prec;
	hyla_mgs_form form;
	int check, lapack, seed, require_gpu, stats;
};

static struct options parse(int argc, char **argv)
{
	struct options o = {.prec = 'd', .form = HYLA_MGS_BLOCKED, .check = 1, .repeat = 1, .seed = 1};
	static const struct option longopts[] = {
		{"nb", required_argument, 0, 'b'},     {"form", required_argument, 0, 'f'},
		{"prec", required_argument, 0, 'p'},   {"check", no_argument, 0, 'c'},
		{"no-check", no_argument, 0, 'C'},     {"lapack", no_argument, 0, 'l'},
		{"repeat", required_argument, 0, 'r'}, {"seed", required_argument, 0, 's'},
		{"require-gpu", no_argument, 0, 'g'},  {"stats", no_argument, 0, 'S'},
		{"help", no_argument, 0, 'h'},
		{0, 0, 0, 0}};
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'b': o.nb = parse_size(prog, "--nb", optarg); break;
		case 'f':
			if (!strcmp(optarg, "blocked"))
				o.form = HYLA_MGS_BLOCKED;
			else if (!strcmp(optarg, "vector"))
				o.form = HYLA_MGS_VECTOR;
			else
				die_usage(prog, "--form must be blocked or vector, not '%s'", optarg);
			break;
		case 'p':
			if (strcmp(optarg, "d") && strcmp(optarg, "s"))
				die_usage(prog, "--prec must be d or s, not '%s'", optarg);
			o.prec = optarg[0];
			break;
		case 'c': o.check = 1; break;
		case 'C': o.check = 0; break;
		case 'l': o.lapack = 1; break;
		case 'r': o.repeat = parse_int(prog, "--repeat", optarg, 1, 1000); break;
		case 's': o.seed = (int)parse_int(prog, "--seed", optarg, 0, INT32_MAX); break;
		case 'g': o.require_gpu = 1; break;
		case 'S': o.stats = 1; break;
		case 'h': usage(); exit(0);
		case ':': die_usage(prog, "option '%s' needs a value", argv[optind - 1]);
		default:
			if (argv[optind - 1][0] == '-' && argv[optind - 1][1] >= '0' && argv[optind - 1][1] <= '9')
				die_usage(prog, "sizes must be positive, not '%s'", argv[optind - 1]);
			die_usage(prog, "unknown option '%s'", argv[optind - 1]);
		}
	}
	int npos = argc - optind;
	if (npos < 1 || npos > 2)
		die_usage(prog, "expected M [N], got %d size argument%s", npos, npos == 1 ? "" : "s");
	o.m = parse_size(prog, "M", argv[optind]);
	o.n = npos == 2 ? parse_size(prog, "N", argv[optind + 1]) : o.m;
	if (o.n > o.m)
		die_usage(prog, "N = %lld exceeds M = %lld (MGS needs a tall or square matrix)",
		          (long long)o.n, (long long)o.m);
	return o;
}

static int compare_doubles(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
	struct options o = parse(argc, argv);
	int64_t m = o.m, n = o.n;
	size_t elsize = o.prec == 's' ? sizeof(float) : sizeof(double);
	/* The input kept in double, the factored copy, R, and the checks' workspace. */
	check_memory(prog, (double)m * n * (2 * 8 + 2 * elsize) + (double)n * n * (8 + elsize));

	if (hyla_init() != HYLA_SUCCESS) {
		fprintf(stderr, "%s: error: could not start StarPU\n", prog);
		return 1;
	}
	if (o.require_gpu && hyla_ncuda() == 0) {
		fprintf(stderr, "%s: error: --require-gpu given but no CUDA worker is present\n", prog);
		hyla_finalize();
		return EXIT_USAGE;
	}
	char summary[512];
	hyla_machine_summary(summary, sizeof summary);
	printf("# %s\n", summary);

	double *a0 = malloc(sizeof *a0 * (size_t)(m * n));
	void *a = hyla_malloc(elsize * (size_t)(m * n));
	void *r = hyla_malloc(elsize * (size_t)(n * n));
	double *times = malloc(sizeof *times * (size_t)o.repeat);
	if (!a0 || !a || !r || !times) {
		fprintf(stderr, "%s: error: out of memory\n", prog);
		return 1;
	}
	random_matrix(m, n, a0, m, o.seed);
	if (o.prec == 's')
		round_to_float(m, n, a0, m);
	int64_t nb = o.nb ? o.nb : hyla_mgs_default_nb(m, n);

	int info = 0;
	for (int64_t k = 0; k < o.repeat && info == 0; k++) {
		if (o.prec == 's')
			to_float(m, n, a0, m, a);
		else
			memcpy(a, a0, sizeof(double) * (size_t)(m * n));
		if (o.stats)
			worker_stats_start();
		double t = now_seconds();
		info = o.prec == 's' ? hyla_smgs(m, n, a, m, r, n, nb, o.form)
		                     : hyla_dmgs(m, n, a, m, r, n, nb, o.form);
		times[k] = now_seconds() - t;
	}
	if (info != 0) {
		fprintf(stderr, "%s: error: hyla_%cmgs returned %d (%s)\n", prog, o.prec, info,
		        hyla_strerror(info));
		return 1;
	}
	if (o.stats)
		worker_stats_print();
	qsort(times, (size_t)o.repeat, sizeof *times, compare_doubles);
	double best = times[0], median = times[o.repeat / 2];

	printf("qr_mgs m=%lld n=%lld prec=%c form=%s nb=%lld time=%.4f s", (long long)m,
	       (long long)n, o.prec, o.form == HYLA_MGS_BLOCKED ? "blocked" : "vector", (long long)nb,
	       best);
	if (o.repeat > 1)
		printf(" median=%.4f s", median);
	printf(" gflops=%.1f", 2.0 * m * n * n / best * 1e-9);

	int failed = 0;
	if (o.check) {
		host_blas_begin();
		double *q = o.prec == 's' ? malloc(sizeof *q * (size_t)(m * n)) : a;
		double *rd = o.prec == 's' ? malloc(sizeof *rd * (size_t)(n * n)) : r;
		if (!q || !rd) {
			fprintf(stderr, "\n%s: error: out of memory for the checks\n", prog);
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
		printf(" orth=%.2e resid=%.2e cond1=%.1e check=%s", orth, resid, kappa,
		       ok ? "pass" : "FAILED");
		if (o.prec == 's')
			free(q), free(rd);
		host_blas_end();
	}
	if (o.lapack) {
		double t = lapack_qr_seconds(m, n, a0, m, o.prec);
		printf(" lapack_geqrf_orgqr=%.4f s speedup=%.2fx", t, t / best);
	}
	printf("\n");

	free(a0), free(times);
	hyla_free(a, elsize * (size_t)(m * n));
	hyla_free(r, elsize * (size_t)(n * n));
	hyla_finalize();
	return failed;
}
