#include "common.h"
#include <starpu.h>
#include <cblas.h>
#include <errno.h>
#include <lapacke.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void die_usage(const char *prog, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: error: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see %s --help)\n", prog);
	exit(EXIT_USAGE);
}

int64_t parse_int(const char *prog, const char *what, const char *text, int64_t lo, int64_t hi)
{
	char *end;
	errno = 0;
	long long v = strtoll(text, &end, 10);
	if (errno || end == text || *end)
		die_usage(prog, "%s must be an integer, not '%s'", what, text);
	if (v < lo || v > hi)
		die_usage(prog, "%s = %lld is out of range [%lld, %lld]", what, v, (long long)lo,
		          (long long)hi);
	return v;
}

int64_t parse_size(const char *prog, const char *what, const char *text)
{
	return parse_int(prog, what, text, 1, INT32_MAX);
}

void check_memory(const char *prog, double bytes)
{
	double avail = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
	if (bytes > 0.9 * avail) {
		fprintf(stderr, "%s: error: needs %.1f GiB of memory, the machine has %.1f GiB\n", prog,
		        bytes / (1 << 30), avail / (1 << 30));
		exit(EXIT_USAGE);
	}
}

double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int host_cores(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

void host_blas_begin(void)
{
	/* StarPU 1.3's idle workers poll: pause them while the host computes. */
	if (starpu_is_initialized())
		starpu_pause();
	openblas_set_num_threads(host_cores());
}

void host_blas_end(void)
{
	openblas_set_num_threads(1);
	if (starpu_is_initialized())
		starpu_resume();
}

void random_matrix(int64_t m, int64_t n, double *a, int64_t lda, int seed)
{
	lapack_int iseed[4] = {seed & 4095, (seed >> 12) & 4095, 17, 2 * (seed & 2047) + 1};
	for (int64_t j = 0; j < n; j++)
		LAPACKE_dlarnv(2, iseed, (lapack_int)m, a + j * lda);
}

/* Fortran dlatms from libtmglib (LAPACKE_dlatms rejects valid input in
 * LAPACKE 3.11). */
void dlatms_(const int *m, const int *n, const char *dist, int *iseed, const char *sym, double *d,
             const int *mode, const double *cond, const double *dmax, const int *kl, const int *ku,
             const char *pack, double *a, const int *lda, double *work, int *info, size_t,
             size_t, size_t);

int conditioned_matrix(int64_t m, int64_t n, double *a, int64_t lda, double cond, int seed)
{
	int im = (int)m, in = (int)n, ilda = (int)lda, mode = 3, kl = im - 1, ku = in - 1, info;
	int iseed[4] = {seed & 4095, 7, 11, 2 * (seed & 2047) + 1};
	double dmax = 1;
	double *d = malloc(sizeof *d * (size_t)(m < n ? n : m));
	double *work = malloc(sizeof *work * 3 * (size_t)(m < n ? n : m));
	if (!d || !work) {
		free(d), free(work);
		return -1;
	}
	dlatms_(&im, &in, "U", iseed, "N", d, &mode, &cond, &dmax, &kl, &ku, "N", a, &ilda, work,
	        &info, 1, 1, 1);
	free(d), free(work);
	return info;
}

void round_to_float(int64_t m, int64_t n, double *a, int64_t lda)
{
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < m; i++)
			a[i + j * lda] = (float)a[i + j * lda];
}

void to_float(int64_t m, int64_t n, const double *a, int64_t lda, float *f)
{
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < m; i++)
			f[i + j * m] = (float)a[i + j * lda];
}

void to_double(int64_t m, int64_t n, const float *f, double *a, int64_t lda)
{
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < m; i++)
			a[i + j * lda] = f[i + j * m];
}

double orthogonality(int64_t m, int64_t n, const double *q, int64_t ldq)
{
	double *w = calloc((size_t)(n * n), sizeof *w);
	if (!w)
		return NAN;
	for (int64_t j = 0; j < n; j++)
		w[j + j * n] = 1;
	cblas_dsyrk(CblasColMajor, CblasUpper, CblasTrans, n, m, -1, q, ldq, 1, w, n);
	double sum = 0;
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i <= j; i++)
			sum += (i == j ? 1 : 2) * w[i + j * n] * w[i + j * n];
	free(w);
	return sqrt(sum);
}

double qr_residual(int64_t m, int64_t n, const double *a, int64_t lda, const double *q,
                   int64_t ldq, const double *r, int64_t ldr)
{
	double *w = malloc(sizeof *w * (size_t)(m * n));
	if (!w)
		return NAN;
	LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', (lapack_int)m, (lapack_int)n, q, (lapack_int)ldq, w,
	               (lapack_int)m);
	cblas_dtrmm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, m, n, 1, r,
	            ldr, w, m);
	double diff = 0, norm = 0;
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < m; i++) {
			double x = a[i + j * lda];
			diff += (w[i + j * m] - x) * (w[i + j * m] - x);
			norm += x * x;
		}
	free(w);
	return sqrt(diff / norm);
}

double triangular_condition(int64_t n, const double *r, int64_t ldr)
{
	double rcond = 0;
	if (LAPACKE_dtrcon(LAPACK_COL_MAJOR, '1', 'U', 'N', (lapack_int)n, r, (lapack_int)ldr, &rcond))
		return NAN;
	return rcond > 0 ? 1 / rcond : INFINITY;
}

double lapack_qr_seconds(int64_t m, int64_t n, const double *a, int64_t lda, char prec)
{
	size_t count = (size_t)(m * n);
	void *w = malloc(count * (prec == 's' ? sizeof(float) : sizeof(double)));
	void *tau = malloc((size_t)n * sizeof(double));
	if (!w || !tau) {
		free(w), free(tau);
		return NAN;
	}
	if (prec == 's')
		to_float(m, n, a, lda, w);
	else
		LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', (lapack_int)m, (lapack_int)n, a, (lapack_int)lda, w,
		               (lapack_int)m);
	host_blas_begin();
	double t = now_seconds();
	if (prec == 's') {
		LAPACKE_sgeqrf(LAPACK_COL_MAJOR, (lapack_int)m, (lapack_int)n, w, (lapack_int)m, tau);
		LAPACKE_sorgqr(LAPACK_COL_MAJOR, (lapack_int)m, (lapack_int)n, (lapack_int)n, w,
		               (lapack_int)m, tau);
	} else {
		LAPACKE_dgeqrf(LAPACK_COL_MAJOR, (lapack_int)m, (lapack_int)n, w, (lapack_int)m, tau);
		LAPACKE_dorgqr(LAPACK_COL_MAJOR, (lapack_int)m, (lapack_int)n, (lapack_int)n, w,
		               (lapack_int)m, tau);
	}
	t = now_seconds() - t;
	host_blas_end();
	free(w), free(tau);
	return t;
}

void worker_stats_start(void)
{
	starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
	for (unsigned w = 0; w < starpu_worker_get_count(); w++)
		starpu_profiling_worker_get_info((int)w, NULL);
}

void worker_stats_print(void)
{
	int cpu_tasks = 0, ncpu = 0;
	double cpu_busy = 0, cpu_max = 0;
	printf("# workers:");
	for (unsigned w = 0; w < starpu_worker_get_count(); w++) {
		struct starpu_profiling_worker_info info;
		starpu_profiling_worker_get_info((int)w, &info);
		double busy = starpu_timing_timespec_to_us(&info.executing_time) * 1e-6;
		double total = starpu_timing_timespec_to_us(&info.total_time) * 1e-6;
		if (starpu_worker_get_type((int)w) == STARPU_CPU_WORKER) {
			ncpu++;
			cpu_tasks += info.executed_tasks;
			cpu_busy += busy;
			cpu_max = busy > cpu_max ? busy : cpu_max;
			continue;
		}
		char name[64];
		starpu_worker_get_name((int)w, name, sizeof name);
		printf(" %s: %d tasks, busy %.3f s of %.3f s |", name, info.executed_tasks, busy, total);
	}
	printf(" %d CPU: %d tasks, busy %.3f s in all (%.3f s the most on one)\n", ncpu, cpu_tasks,
	       cpu_busy, cpu_max);
}
