/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
#include "common.h"
#include "matrix_io.h"
#include "result.h"
#include "spectra.h"
#include "trace_svg.h"
#include <getopt.h>
#include <starpu.h>
#include "hyla.h"
#include <cblas.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <lapacke.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
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

int cusolver_option(const char *prog)
{
#ifndef HYLA_WITH_CUDA
	die_usage(prog, "--cusolver needs hyla built with CUDA");
#endif
	(void)prog;
	return 1;
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
	char *end;
	errno = 0;
	long long v = strtoll(text, &end, 10);
	if (end != text && !*end && !errno && v < 1)
		die_usage(prog, "%s must be positive, not '%s'", what, text);
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

static int compare_doubles(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

void sort_times(double *times, int64_t count)
{
	qsort(times, (size_t)count, sizeof *times, compare_doubles);
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

/* Uniform (-1, 1) entries, blocks of RANDOM_COLUMNS columns each from its
 * own seed (the seed and the block's index), filled by several threads:
 * one thread took 1.6 s for 8000^2 entries (on 2 cores), about a minute
 * at 50000. The matrix depends on the seed alone. */
#define RANDOM_COLUMNS 64
#define RANDOM_THREADS 16 /* at most */

struct random_fill {
	int64_t m, n, lda, next;
	double *a;
	int seed;
};

static void *random_blocks(void *arg)
{
	struct random_fill *f = arg;
	for (int64_t b; (b = __atomic_fetch_add(&f->next, 1, __ATOMIC_RELAXED)) * RANDOM_COLUMNS < f->n;) {
		lapack_int iseed[4] = {f->seed & 4095, (f->seed >> 12) & 4095, (lapack_int)(b % 4096),
		                       (lapack_int)(2 * (b / 4096 % 2048) + 1)};
		for (int64_t j = b * RANDOM_COLUMNS; j < f->n && j < (b + 1) * RANDOM_COLUMNS; j++)
			LAPACKE_dlarnv(2, iseed, (lapack_int)f->m, f->a + j * f->lda);
	}
	return NULL;
}

void random_matrix(int64_t m, int64_t n, double *a, int64_t lda, int seed)
{
	struct random_fill f = {m, n, lda, 0, a, seed};
	long cores = m * n < (1 << 20) ? 1 : sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t threads[RANDOM_THREADS - 1];
	int started = 0;
	while (started < cores - 1 && started < RANDOM_THREADS - 1 &&
	       !pthread_create(&threads[started], NULL, random_blocks, &f))
		started++;
	random_blocks(&f);
	while (started)
		pthread_join(threads[--started], NULL);
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

/* ||x||_F of the m-by-n x with LAPACK's scaling (dlange: no overflow or
 * underflow in the squares). */
static double frobenius(int64_t m, int64_t n, const double *x, int64_t ld)
{
	return LAPACKE_dlange(LAPACK_COL_MAJOR, 'F', (lapack_int)m, (lapack_int)n, x, (lapack_int)ld);
}

/* num / den, with 0 / 0 taken as 0 (the residual of a zero matrix's exact
 * reduction). */
static double ratio(double num, double den)
{
	return den == 0 && num == 0 ? 0 : num / den;
}

double relative_difference(int64_t m, int64_t n, const double *x, const double *y, int64_t ld)
{
	double *d = malloc(sizeof *d * (size_t)(m * n));
	if (!d)
		return NAN;
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < m; i++)
			d[i + j * m] = x[i + j * ld] - y[i + j * ld];
	double diff = frobenius(m, n, d, m), norm = frobenius(m, n, y, ld);
	free(d);
	return norm > 0 ? diff / norm : diff;
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
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < m; i++)
			w[i + j * m] -= a[i + j * lda];
	double resid = ratio(frobenius(m, n, w, m), frobenius(m, n, a, lda));
	free(w);
	return resid;
}

/* ||(Q^T Q - I) X||_F / sqrt(k) for a fresh Gaussian n-by-k x (seed moves
 * on); z: m-by-k workspace. */
static double sampled_orthogonality(int64_t m, int64_t n, const double *q, int64_t ldq, int k,
                                    lapack_int seed[4], double *x, double *z)
{
	LAPACKE_dlarnv(3, seed, (lapack_int)(n * k), x);
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, k, n, 1, q, ldq, x, n, 0, z, m);
	cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, n, k, m, 1, q, ldq, z, m, -1, x, n);
	return frobenius(n, k, x, n) / sqrt(k);
}

int qr_sampled_errors(int64_t m, int64_t n, const double *a, int64_t lda, const double *q,
                      int64_t ldq, const double *r, int64_t ldr, int k, double *resid,
                      double *orth)
{
	double *x = malloc(sizeof *x * (size_t)(n * k)), *y = malloc(sizeof *y * (size_t)(m * k));
	double *z = malloc(sizeof *z * (size_t)(m * k));
	lapack_int seed[4] = {3, 5, 7, 9};
	int ret = !x || !y || !z || LAPACKE_dlarnv(3, seed, (lapack_int)(n * k), x);
	if (ret == 0) { /* y = A x, z = Q (R x) */
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, k, n, 1, a, lda, x, n, 0, y, m);
		cblas_dtrmm(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, n, k, 1, r,
		            ldr, x, n);
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, k, n, 1, q, ldq, x, n, 0, z, m);
		cblas_daxpy(m * k, -1, z, 1, y, 1);
		*resid = ratio(frobenius(m, k, y, m) / sqrt(k), frobenius(m, n, a, lda));
		*orth = sampled_orthogonality(m, n, q, ldq, k, seed, x, z);
	}
	free(x), free(y), free(z);
	return ret != 0;
}

double triangular_condition(int64_t n, const double *r, int64_t ldr)
{
	double rcond = 0;
	if (LAPACKE_dtrcon(LAPACK_COL_MAJOR, '1', 'U', 'N', (lapack_int)n, r, (lapack_int)ldr, &rcond))
		return NAN;
	return rcond > 0 ? 1 / rcond : INFINITY;
}

/* A packed copy (ld = m) of a in the working precision, or NULL. */
void *working_copy(int64_t m, int64_t n, const double *a, int64_t lda, char prec)
{
	void *w = malloc((size_t)(m * n) * (prec == 's' ? sizeof(float) : sizeof(double)));
	if (w && prec == 's')
		to_float(m, n, a, lda, w);
	else if (w)
		LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', (lapack_int)m, (lapack_int)n, a, (lapack_int)lda, w,
		               (lapack_int)m);
	return w;
}

double lapack_qr_seconds(int64_t m, int64_t n, const double *a, int64_t lda, char prec)
{
	void *w = working_copy(m, n, a, lda, prec), *tau = malloc((size_t)n * sizeof(double));
	if (!w || !tau) {
		free(w), free(tau);
		return NAN;
	}
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
	FILE *out = result_json ? stderr : stdout;
	fprintf(out, "# workers:");
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
		fprintf(out, " %s: %d tasks, busy %.3f s of %.3f s |", name, info.executed_tasks, busy, total);
	}
	fprintf(out, " %d CPU: %d tasks, busy %.3f s in all (%.3f s the most on one)\n", ncpu,
	        cpu_tasks, cpu_busy, cpu_max);
}

/* resid = ||A - Q B Q^T||_F / (n ||A||_F), orth = ||I - Q^T Q||_F / n for
 * the n-by-n Q and B (leading dimension n). 0, or -1 out of memory. */
static int similarity_residuals(int64_t n, const double *a, int64_t lda, const double *q,
                                const double *b, double *resid, double *orth)
{
	size_t nn = (size_t)(n * n);
	double *qb = malloc(sizeof *qb * nn), *w = malloc(sizeof *w * nn);
	if (!qb || !w) {
		free(qb), free(w);
		return -1;
	}
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, q, n, b, n, 0, qb, n);
	LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', (lapack_int)n, (lapack_int)n, a, (lapack_int)lda, w,
	               (lapack_int)n);
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, 1, qb, n, q, n, -1, w, n);
	*resid = ratio(frobenius(n, n, w, n), frobenius(n, n, a, lda)) / (double)n;
	*orth = orthogonality(n, n, q, n) / (double)n;
	free(qb), free(w);
	return 0;
}

int hessenberg_residuals(int64_t n, const double *a, int64_t lda, const double *h, int64_t ldh,
                         const double *tau, const double *q_given, double *resid, double *orth)
{
	size_t nn = (size_t)(n * n);
	double *q = malloc(sizeof *q * nn), *hh = calloc(nn, sizeof *hh);
	int ret = !q || !hh ? -1 : 0;
	for (int64_t j = 0; j < n && !ret; j++)
		for (int64_t i = 0; i <= j + 1 && i < n; i++)
			hh[i + j * n] = h[i + j * ldh];
	if (!ret && q_given) {
		memcpy(q, q_given, sizeof *q * nn);
	} else if (!ret) {
		LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', (lapack_int)n, (lapack_int)n, h, (lapack_int)ldh, q,
		               (lapack_int)n);
		ret = n > 1 ? LAPACKE_dorghr(LAPACK_COL_MAJOR, (lapack_int)n, 1, (lapack_int)n, q,
		                             (lapack_int)n, tau) : 0;
		if (n == 1)
			q[0] = 1;
	}
	ret = ret ? -1 : similarity_residuals(n, a, lda, q, hh, resid, orth);
	free(q), free(hh);
	return ret;
}

int hessenberg_sampled_errors(int64_t n, const double *a, int64_t lda, const double *h,
                              int64_t ldh, const double *q, int k, double *resid, double *orth)
{
	double *x = malloc(sizeof *x * (size_t)(n * k)), *y = malloc(sizeof *y * (size_t)(n * k));
	double *z = calloc((size_t)(n * k), sizeof *z);
	lapack_int seed[4] = {3, 5, 7, 11};
	int ret = !x || !y || !z || LAPACKE_dlarnv(3, seed, (lapack_int)(n * k), x) ? -1 : 0;
	if (ret == 0) {
		/* y = Q^T x, z = H y (H's columns down to the subdiagonal), x = A x - Q z */
		cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, n, k, n, 1, q, n, x, n, 0, y, n);
		for (int64_t v = 0; v < k; v++)
			for (int64_t j = 0; j < n; j++)
				cblas_daxpy(j + 2 < n ? j + 2 : n, y[j + v * n], h + j * ldh, 1, z + v * n, 1);
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, k, n, 1, a, lda, x, n, 0, y, n);
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, k, n, -1, q, n, z, n, 1, y, n);
		*resid = ratio(frobenius(n, k, y, n) / sqrt(k), frobenius(n, n, a, lda)) / (double)n;
		*orth = sampled_orthogonality(n, n, q, n, k, seed, x, z) / (double)n;
	}
	free(x), free(y), free(z);
	return ret;
}

int tridiagonal_residuals(int64_t n, char uplo, const double *a, int64_t lda, const double *h,
                          const double *d, const double *e, const double *tau, double *resid,
                          double *orth)
{
	size_t nn = (size_t)(n * n);
	double *q = malloc(sizeof *q * nn), *t = calloc(nn, sizeof *t);
	int ret = !q || !t ? -1 : 0;
	for (int64_t j = 0; j < n && !ret; j++) {
		t[j + j * n] = d[j];
		if (j + 1 < n)
			t[j + 1 + j * n] = t[j + (j + 1) * n] = e[j];
	}
	if (!ret) {
		LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', (lapack_int)n, (lapack_int)n, h, (lapack_int)n, q,
		               (lapack_int)n);
		ret = LAPACKE_dorgtr(LAPACK_COL_MAJOR, uplo, (lapack_int)n, q, (lapack_int)n, tau) ? -1 : 0;
	}
	ret = ret ? -1 : similarity_residuals(n, a, lda, q, t, resid, orth);
	free(q), free(t);
	return ret;
}

int bidiagonal_residuals(int64_t m, int64_t n, const double *a, int64_t lda, const double *h,
                         const double *d, const double *e, const double *tauq, const double *taup,
                         double *resid, double *orth)
{
	/* Q: m-by-k, P^T: k-by-n, B: k-by-k, upper for m >= n, lower else. */
	int64_t k = m < n ? m : n;
	lapack_int lm = (lapack_int)m, ln = (lapack_int)n, lk = (lapack_int)k;
	double *q = malloc(sizeof *q * (size_t)(m * (m > n ? n : m)));
	double *pt = malloc(sizeof *pt * (size_t)(n * (m > n ? n : m))), *b = calloc((size_t)(k * k), sizeof *b);
	double *qb = malloc(sizeof *qb * (size_t)(m * k)), *w = malloc(sizeof *w * (size_t)(m * n));
	double *p = malloc(sizeof *p * (size_t)(n * k));
	int ret = !q || !pt || !b || !qb || !w || !p ? -1 : 0;
	if (!ret) {
		LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', lm, lk, h, lm, q, lm);
		LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', lk, ln, h, lm, pt, lk);
		ret = LAPACKE_dorgbr(LAPACK_COL_MAJOR, 'Q', lm, lk, ln, q, lm, tauq) ||
		      LAPACKE_dorgbr(LAPACK_COL_MAJOR, 'P', lk, ln, lm, pt, lk, taup) ? -1 : 0;
	}
	if (!ret) {
		for (int64_t j = 0; j < k; j++) {
			b[j + j * k] = d[j];
			if (j + 1 < k && m >= n)
				b[j + (j + 1) * k] = e[j];
			else if (j + 1 < k)
				b[j + 1 + j * k] = e[j];
		}
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, k, k, 1, q, m, b, k, 0, qb, m);
		LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', lm, ln, a, (lapack_int)lda, w, lm);
		cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, -1, qb, m, pt, k, 1, w, m);
		*resid = ratio(frobenius(m, n, w, m), frobenius(m, n, a, lda)) / (double)k;
		for (int64_t j = 0; j < n; j++) /* P = (P^T)^T: orthonormal columns */
			for (int64_t i = 0; i < k; i++)
				p[j + i * n] = pt[i + j * k];
		*orth = fmax(orthogonality(m, k, q, m), orthogonality(n, k, p, n)) / (double)k;
	}
	free(q), free(pt), free(b), free(qb), free(w), free(p);
	return ret;
}

double bidiagonal_sv_error(int64_t m, int64_t n, const double *a, int64_t lda, const double *d,
                           const double *e, double *scale)
{
	int64_t k = m < n ? m : n;
	double *s = malloc(sizeof *s * (size_t)(3 * k)), *sr = s ? s + k : NULL, *ee = s ? sr + k : NULL;
	double *c = malloc(sizeof *c * (size_t)(m * n)), err = NAN;
	if (s && c) {
		memcpy(s, d, sizeof *s * (size_t)k);
		if (k > 1)
			memcpy(ee, e, sizeof *ee * (size_t)(k - 1));
		LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', (lapack_int)m, (lapack_int)n, a, (lapack_int)lda, c,
		               (lapack_int)m);
		if (!LAPACKE_dbdsqr(LAPACK_COL_MAJOR, m >= n ? 'U' : 'L', (lapack_int)k, 0, 0, 0, s, ee,
		                    NULL, 1, NULL, 1, NULL, 1) &&
		    !LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'N', (lapack_int)m, (lapack_int)n, c, (lapack_int)m, sr,
		                    NULL, 1, NULL, 1)) {
			err = eigenvalue_error(k, s, sr);
			*scale = sr[0];
		}
	}
	free(s), free(c);
	return err;
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

double tridiagonal_eig_error(int64_t n, const double *a, int64_t lda, const double *d,
                             const double *e, double *scale)
{
	double *w = malloc(sizeof *w * (size_t)n), *ew = malloc(sizeof *ew * (size_t)n);
	double *c = malloc(sizeof *c * (size_t)(n * n)), err = NAN;
	if (w && ew && c) {
		memcpy(w, d, sizeof *w * (size_t)n);
		if (n > 1)
			memcpy(ew, e, sizeof *ew * (size_t)(n - 1));
		LAPACKE_dlacpy(LAPACK_COL_MAJOR, 'A', (lapack_int)n, (lapack_int)n, a, (lapack_int)lda, c,
		               (lapack_int)n);
		if (!LAPACKE_dsterf((lapack_int)n, w, ew) &&
		    !LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', (lapack_int)n, c, (lapack_int)n, ew)) {
			qsort(w, (size_t)n, sizeof *w, by_value);
			err = eigenvalue_error(n, w, ew);
			*scale = fmax(fabs(ew[0]), fabs(ew[n - 1]));
		}
	}
	free(w), free(ew), free(c);
	return err;
}

/* Dies unless path can be written as the run will (a temporary beside it,
 * renamed over it), so that no run is lost to it; an existing file must be
 * writable itself. what: the output's name in the error. Leaves no file
 * behind that was not there. */
static void check_writable(const char *prog, const char *what, const char *path)
{
	struct stat st;
	int existed = stat(path, &st) == 0;
	if (existed) {
		if (!S_ISREG(st.st_mode))
			die_usage(prog, "%s: not a regular file", what);
		int fd = open(path, O_WRONLY | O_APPEND);
		if (fd < 0)
			die_usage(prog, "%s: cannot write there: %s", what, strerror(errno));
		close(fd);
	}
	struct file_replace w;
	char err[512];
	FILE *f = file_replace_open(&w, path, err, sizeof err);
	if (!f)
		die_usage(prog, "%s: cannot write %s: %s", what,
		          existed ? "its replacement beside it" : "there", strerror(errno));
	fclose(f);
	remove(w.tmp);
}

/* A file's identity: its device and inode, or for one not there yet its
 * directory's and its name (ok: 0 if neither is there). */
struct file_id {
	int ok;
	dev_t dev;
	ino_t ino;
	const char *name;
};

static struct file_id file_id(const char *path)
{
	struct file_id id = {0};
	struct stat st;
	if (stat(path, &st) != 0) {
		const char *slash = strrchr(path, '/');
		char dir[4096];
		snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
		id.name = slash ? slash + 1 : path;
		if (stat(dir, &st) != 0)
			return id;
	}
	id.ok = 1, id.dev = st.st_dev, id.ino = st.st_ino;
	return id;
}

static int same_file(struct file_id a, struct file_id b)
{
	return a.ok && b.ok && a.dev == b.dev && a.ino == b.ino && !a.name == !b.name &&
	       (!a.name || !strcmp(a.name, b.name));
}

/* The files a run writes: --output, its siblings (output_tags), --trace. */
enum { MAX_OUTPUTS = 6 };
struct output {
	const char *option; /* "--output", "--trace", or NULL for a sibling */
	char path[4096];
};

static int driver_outputs(const struct driver_options *o, struct output *out)
{
	int k = 0;
	if (o->output) {
		out[k].option = "--output";
		snprintf(out[k++].path, sizeof out->path, "%s", o->output);
		for (int i = 0; i < 4 && o->output_tags[i]; i++, k++) {
			out[k].option = NULL;
			matrix_file_sibling(o->output, o->output_tags[i], out[k].path, sizeof out->path);
		}
	}
	if (o->trace) {
		out[k].option = "--trace";
		snprintf(out[k++].path, sizeof out->path, "%s", o->trace);
	}
	return k;
}

/* How errors name an output. */
static const char *output_name(const struct driver_options *o, const struct output *out,
                               char *buf, size_t len)
{
	if (out->option)
		snprintf(buf, len, "%s %s", out->option, out->path);
	else
		snprintf(buf, len, "%s (written beside --output %s)", out->path, o->output);
	return buf;
}

/* Dies unless every file the run writes can be written and none is the
 * input or another of them (as files: whatever their names). */
static void check_outputs(const char *prog, const struct driver_options *o)
{
	struct output out[MAX_OUTPUTS];
	struct file_id id[MAX_OUTPUTS], in = o->input ? file_id(o->input) : (struct file_id){0};
	char a[4400], b[4400];
	int count = driver_outputs(o, out);
	for (int i = 0; i < count; i++) {
		id[i] = file_id(out[i].path);
		if (same_file(id[i], in))
			die_usage(prog, "%s is the same file as --input %s", output_name(o, &out[i], a, sizeof a),
			          o->input);
		for (int j = 0; j < i; j++)
			if (same_file(id[i], id[j]))
				die_usage(prog, "%s is the same file as %s", output_name(o, &out[i], a, sizeof a),
				          output_name(o, &out[j], b, sizeof b));
	}
	for (int i = 0; i < count; i++)
		check_writable(prog, output_name(o, &out[i], a, sizeof a), out[i].path);
}

/* The power of two that brings the m-by-n a's largest finite entry into
 * [1, 2) when it lies beyond 2^+-limit (0: leave it). */
static int range_scale(int64_t m, int64_t n, const double *a, int limit)
{
	double big = 0;
	for (int64_t i = 0; i < m * n; i++)
		if (isfinite(a[i]))
			big = fmax(big, fabs(a[i]));
	int e = big > 0 ? ilogb(big) : 0;
	return e > limit || e < -limit ? -e : 0;
}

void driver_matrix(const char *prog, struct driver_options *o, double *a)
{
	o->input_scale = 0;
	if (!o->input) {
		random_matrix(o->m, o->n, a, o->m, o->seed);
		if (o->prec == 's')
			round_to_float(o->m, o->n, a, o->m);
		return;
	}
	char err[256];
	if (matrix_file_read(o->input, o->m, o->n, a, err, sizeof err))
		die_usage(prog, "--input %s: %s", o->input, err);
	o->input_scale = range_scale(o->m, o->n, a, o->prec == 's' ? 60 : 500);
	for (int64_t i = 0; o->input_scale && i < o->m * o->n; i++)
		a[i] = ldexp(a[i], o->input_scale);
	if (o->prec == 's')
		round_to_float(o->m, o->n, a, o->m); /* what single precision reduces */
	for (int64_t j = 0; j < o->n && !o->allow_nonfinite; j++)
		for (int64_t i = 0; i < o->m; i++)
			if (!isfinite(a[i + j * o->m]))
				die_usage(prog, "--input %s: entry (%lld, %lld) is %g%s; give --allow-nonfinite to "
				          "reduce it anyway", o->input, (long long)i + 1, (long long)j + 1,
				          a[i + j * o->m], o->prec == 's' ? " in single precision" : "");
}

void driver_write(const char *prog, const struct driver_options *o, const char *tag, int64_t m,
                  int64_t n, const void *a, int64_t lda)
{
	driver_write_scaled(prog, o, tag, m, n, a, lda, 1, 0);
}

void driver_write_scaled(const char *prog, const struct driver_options *o, const char *tag,
                         int64_t m, int64_t n, const void *a, int64_t lda, int64_t lo, int64_t hi)
{
	if (!o->output)
		return;
	char path[4096], err[512];
	int declared = !tag;
	for (int i = 0; i < 4 && o->output_tags[i]; i++)
		declared |= tag && !strcmp(tag, o->output_tags[i]);
	if (!declared) { /* a driver's bug: the checks before the run missed it */
		fprintf(stderr, "%s: error: the output .%s is not in output_tags\n", prog, tag);
		exit(1);
	}
	if (tag)
		matrix_file_sibling(o->output, tag, path, sizeof path);
	else
		snprintf(path, sizeof path, "%s", o->output);
	int copy = o->prec == 's' || (o->input_scale && lo <= hi);
	double *d = copy ? malloc(sizeof *d * (size_t)(m * n)) : NULL;
	if (copy && !d) {
		fprintf(stderr, "%s: error: no memory to write %s\n", prog, path);
		exit(1);
	}
	for (int64_t j = 0; d && j < n; j++)
		for (int64_t i = 0; i < m; i++) {
			double x = o->prec == 's' ? ((const float *)a)[i + j * lda]
			                          : ((const double *)a)[i + j * lda];
			d[i + j * m] = j - i >= lo && j - i <= hi ? ldexp(x, -o->input_scale) : x;
		}
	int ret = matrix_file_write(path, m, n, d ? d : a, d ? m : lda, err, sizeof err);
	free(d);
	if (ret) {
		fprintf(stderr, "%s: error: %s\n", prog, err);
		exit(1);
	}
}

/* Dies naming the command-line element arg that getopt refused, and why. */
static void die_bad_option(const char *prog, const char *arg, const struct option *longopts)
{
	if (arg[0] == '-' && (isdigit((unsigned char)arg[1]) || arg[1] == '.'))
		die_usage(prog, "sizes must be positive, not '%s'", arg);
	if (!strncmp(arg, "--", 2)) {
		size_t len = strcspn(arg + 2, "=");
		int matches = 0, exact = 0;
		char which[256] = "";
		for (int i = 0; longopts[i].name; i++)
			if (!strncmp(longopts[i].name, arg + 2, len)) {
				exact |= strlen(longopts[i].name) == len;
				size_t at = strlen(which);
				snprintf(which + at, sizeof which - at, "%s--%s", matches++ ? ", " : "",
				         longopts[i].name);
			}
		if (arg[2 + len] == '=' && (exact || matches == 1))
			die_usage(prog, "option '%s' takes no value", arg);
		if (matches > 1)
			die_usage(prog, "option '%s' is ambiguous (%s)", arg, which);
	}
	die_usage(prog, "unknown option '%s'", arg);
}

struct driver_options parse_driver_options(int argc, char **argv, const char *prog, int npos_max,
                                           const struct option *extra,
                                           int (*on_extra)(int opt, const char *arg),
                                           void (*usage)(void))
{
	struct driver_options o = {.prec = 'd', .check = 1, .repeat = 1, .seed = 1};
	static const struct option common[] = {
		{"nb", required_argument, 0, 'b'},     {"prec", required_argument, 0, 'p'},
		{"check", no_argument, 0, 'c'},        {"no-check", no_argument, 0, 'C'},
		{"lapack", no_argument, 0, 'l'},       {"repeat", required_argument, 0, 'r'},
		{"seed", required_argument, 0, 's'},   {"require-gpu", no_argument, 0, 'g'},
		{"stats", no_argument, 0, 'S'},        {"help", no_argument, 0, 'h'},
		{"input", required_argument, 0, 'I'},  {"output", required_argument, 0, 'O'},
		{"allow-nonfinite", no_argument, 0, 'N'}, {"json", no_argument, 0, 'J'},
		{"quiet", no_argument, 0, 'q' + 256}, {"trace", required_argument, 0, 't' + 256},
		{"models", no_argument, 0, 'M' + 256}, {"version", no_argument, 0, 'V' + 256}};
	enum { NCOMMON = sizeof common / sizeof common[0] };
	struct option longopts[NCOMMON + 16] = {{0}};
	int nextra = 0;
	memcpy(longopts, common, sizeof common);
	while (extra && extra[nextra].name && nextra < 15) {
		longopts[NCOMMON + nextra] = extra[nextra];
		nextra++;
	}
	const char *pos[3]; /* the sizes, the first three of npos */
	int npos = 0;
	opterr = 0;
	for (;;) {
		/* In order ("-": the sizes come as 1, argv is not permuted), so
		 * argv[at] is the element getopt reads. */
		int at = optind, c = getopt_long(argc, argv, "-:h", longopts, NULL);
		if (c == -1)
			break;
		switch (c) {
		case 1:
			if (npos < 3)
				pos[npos] = optarg;
			npos++;
			break;
		case 'b': o.nb = parse_size(prog, "--nb", optarg); break;
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
		case 'I': o.input = optarg; break;
		case 'O': o.output = optarg; break;
		case 'N': o.allow_nonfinite = 1; break;
		case 'J': result_json = 1; break;
		case 'q' + 256: o.quiet = 1; break;
		case 't' + 256:
			if (strlen(optarg) < 5 || strcmp(optarg + strlen(optarg) - 4, ".svg"))
				die_usage(prog, "--trace %s: the chart is SVG; give a file name ending in .svg",
				          optarg);
			o.trace = optarg;
			break;
		case 'M' + 256: o.models = 1; break;
		case 'h': usage(); exit(0);
		case 'V' + 256:
			printf("%s (hyla) %s, StarPU %d.%d.%d\n", prog, hyla_version(), STARPU_MAJOR_VERSION,
			       STARPU_MINOR_VERSION, STARPU_RELEASE_VERSION);
			exit(0);
		case ':': die_usage(prog, "option '%s' needs a value", argv[at]);
		default:
			if (c != '?' && on_extra && on_extra(c, optarg))
				break;
			die_bad_option(prog, argv[at], longopts);
		}
	}
	for (; optind < argc; optind++, npos++) /* after "--" */
		if (npos < 3)
			pos[npos] = argv[optind];
	if (o.models && npos == 0)
		return o;
	if (o.input) {
		struct stat st;
		if (stat(o.input, &st) == 0 && !S_ISREG(st.st_mode))
			die_usage(prog, "--input %s: not a regular file", o.input);
		if (npos > 0)
			die_usage(prog, "--input gives the sizes; drop '%s'", pos[0]);
		char err[256];
		if (matrix_file_size(o.input, &o.m, &o.n, err, sizeof err))
			die_usage(prog, "--input %s: %s", o.input, err);
		return o;
	}
	const char *sizes = npos_max == 1 ? "N" : "M [N]";
	if (npos < 1)
		die_usage(prog, "expected %s, got no size argument", sizes);
	if (npos > npos_max)
		die_usage(prog, "unexpected argument '%s' (expected %s)", pos[npos_max], sizes);
	o.m = parse_size(prog, npos_max == 1 ? "N" : "M", pos[0]);
	o.n = npos == 2 ? parse_size(prog, "N", pos[1]) : o.m;
	return o;
}

static struct {
	pthread_mutex_t lock;
	const char *prog;
	double start, last;
	int64_t done;
	int shown, power;
} progress = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void show_progress(int64_t done, int64_t total, void *arg)
{
	(void)arg;
	pthread_mutex_lock(&progress.lock);
	double now = now_seconds(), elapsed = now - progress.start;
	if (done > progress.done)
		progress.done = done;
	if (elapsed >= 2 && now - progress.last >= 0.25 && progress.done > 0 &&
	    progress.done < total) {
		double rest = pow(1 - (double)progress.done / (double)total, progress.power);
		double left = elapsed * rest / (1 - rest);
		fprintf(stderr, "\r%s: panel %lld of %lld, %.0f s, about %.0f s left   ", progress.prog,
		        (long long)progress.done, (long long)total, elapsed, left);
		progress.last = now;
		progress.shown = 1;
	}
	pthread_mutex_unlock(&progress.lock);
}

void driver_progress_begin(const char *prog, const struct driver_options *o)
{
	if (o->quiet || !isatty(STDERR_FILENO))
		return;
	pthread_mutex_lock(&progress.lock);
	progress.prog = prog;
	progress.start = now_seconds();
	progress.last = 0;
	progress.done = 0;
	progress.power = o->work_power > 0 ? o->work_power : 1;
	pthread_mutex_unlock(&progress.lock);
	hyla_set_progress(show_progress, NULL);
}

void driver_progress_end(void)
{
	hyla_set_progress(NULL, NULL);
	pthread_mutex_lock(&progress.lock);
	if (progress.shown)
		fputs("\r\033[K", stderr);
	progress.shown = 0;
	pthread_mutex_unlock(&progress.lock);
}

void driver_trace_begin(const struct driver_options *o, int64_t k)
{
	if (o->trace && k == o->repeat - 1)
		hyla_trace_start();
}

void driver_trace_end(const char *prog, const struct driver_options *o, int64_t k)
{
	if (!o->trace || k != o->repeat - 1)
		return;
	hyla_trace_event *events;
	size_t n = hyla_trace_stop(&events);
	char summary[512], err[512];
	hyla_machine_summary(summary, sizeof summary);
	char title[700];
	snprintf(title, sizeof title, "%s | %s", prog, summary);
	int ret = trace_svg_write(o->trace, title, events, n, err, sizeof err);
	free(events);
	if (ret) {
		fprintf(stderr, "%s: error: %s\n", prog, err);
		exit(1);
	}
}

/* Whether every model of the driver's algorithms is ready (report: lines). */
static int models_ready(const struct driver_options *o, FILE *report)
{
	int ready = 1;
	for (int i = 0; i < 3 && o->algorithms[i]; i++)
		ready &= hyla_models_ready(o->algorithms[i], o->prec, report) == 1;
	return ready;
}

/* On cores alone the dm* schedulers have no kinds of worker to choose
 * between (the reductions' panels run on all the cores whatever the
 * scheduler), and their placement of the updates lost to eager's (the H100
 * machine's 16 cores, 2026-11-27: tridiag_reduce 8000 7.74 s under dmda,
 * 5.77 s under eager; docs/performance.md). The drivers run eager there
 * and say so on the machine line; not while the models are calibrated or
 * checked (STARPU_CALIBRATE, HYLA_MODELS_CHECK or HYLA_MODELS_CHECK_TASKS
 * set), which need dmda. */
static int set(const char *name)
{
	const char *value = getenv(name);
	return value && *value;
}

static int dm_on_cores_alone(const char *sched)
{
	return sched && !strncmp(sched, "dm", 2) && hyla_ncuda() == 0 && !set("STARPU_CALIBRATE") &&
	       !set("HYLA_MODELS_CHECK") && !set("HYLA_MODELS_CHECK_TASKS");
}

void driver_start(const char *prog, const struct driver_options *o)
{
	if (!o->models)
		check_outputs(prog, o);
	/* A file over the size limit (ulimit -f) fails its write, cleanly,
	 * instead of killing the run midway. */
	signal(SIGXFSZ, SIG_IGN);
	setenv("STARPU_SILENT", "1", 0);
	/* The drivers check their input for NaN themselves, and LAPACKE 3.11's
	 * own scans index in 32 bits (a crash in dtrcon from n = 46341). */
	LAPACKE_set_nancheck(0);
	int started = hyla_init();
	if (started == HYLA_ERR_ENV) /* hyla said which setting, in one line */
		exit(EXIT_USAGE);
	if (started != HYLA_SUCCESS) {
		fprintf(stderr, "%s: error: could not start StarPU\n", prog);
		exit(1);
	}
	if (o->models) {
		int ready = models_ready(o, stdout);
		printf("%s: performance models %s\n", prog, ready ? "ready" : "not calibrated yet");
		hyla_finalize();
		exit(!ready);
	}
	if (o->require_gpu && hyla_ncuda() == 0) {
		fprintf(stderr, "%s: error: a GPU is required (--require-gpu, --panel gpu or --cusolver) but no "
		        "CUDA worker is present\n", prog);
		hyla_finalize();
		exit(EXIT_USAGE);
	}
	const char *sched = getenv("STARPU_SCHED");
	if (dm_on_cores_alone(sched)) {
		/* StarPU reads STARPU_SCHED in starpu_init: start it again. */
		snprintf(result_machine_note, sizeof result_machine_note,
		         " | STARPU_SCHED=%.32s: eager on cores alone", sched);
		hyla_finalize();
		setenv("STARPU_SCHED", "eager", 1);
		if (hyla_init() != HYLA_SUCCESS) {
			fprintf(stderr, "%s: error: could not start StarPU\n", prog);
			exit(1);
		}
		sched = getenv("STARPU_SCHED");
	}
	if (sched && !strncmp(sched, "dm", 2) && !models_ready(o, NULL))
		fprintf(stderr, "%s: note: the performance models are not calibrated on this machine, so "
		        "%s calibrates during this run (slower): run perfmodels/calibrate.sh first\n",
		        prog, sched);
	if (result_json)
		return;
	char summary[512];
	hyla_machine_summary(summary, sizeof summary);
	printf("# %s%s\n", summary, result_machine_note);
}

double lapack_gebrd_seconds(int64_t m, int64_t n, const double *a, int64_t lda, char prec)
{
	int64_t k = m < n ? m : n;
	void *w = working_copy(m, n, a, lda, prec), *v = malloc((size_t)(4 * k) * sizeof(double));
	if (!w || !v) {
		free(w), free(v);
		return NAN;
	}
	host_blas_begin();
	double t = now_seconds();
	lapack_int lm = (lapack_int)m, ln = (lapack_int)n;
	if (prec == 's')
		LAPACKE_sgebrd(LAPACK_COL_MAJOR, lm, ln, w, lm, v, (float *)v + k, (float *)v + 2 * k,
		               (float *)v + 3 * k);
	else
		LAPACKE_dgebrd(LAPACK_COL_MAJOR, lm, ln, w, lm, v, (double *)v + k, (double *)v + 2 * k,
		               (double *)v + 3 * k);
	t = now_seconds() - t;
	host_blas_end();
	free(w), free(v);
	return t;
}

double lapack_sytrd_seconds(int64_t n, const double *a, int64_t lda, char prec, char uplo)
{
	void *w = working_copy(n, n, a, lda, prec), *v = malloc((size_t)(3 * n) * sizeof(double));
	if (!w || !v) {
		free(w), free(v);
		return NAN;
	}
	host_blas_begin();
	double t = now_seconds();
	if (prec == 's')
		LAPACKE_ssytrd(LAPACK_COL_MAJOR, uplo, (lapack_int)n, w, (lapack_int)n, v, (float *)v + n,
		               (float *)v + 2 * n);
	else
		LAPACKE_dsytrd(LAPACK_COL_MAJOR, uplo, (lapack_int)n, w, (lapack_int)n, v, (double *)v + n,
		               (double *)v + 2 * n);
	t = now_seconds() - t;
	host_blas_end();
	free(w), free(v);
	return t;
}

double lapack_gehrd_seconds(int64_t n, const double *a, int64_t lda, char prec, double *orghr)
{
	void *w = working_copy(n, n, a, lda, prec), *tau = malloc((size_t)n * sizeof(double));
	if (!w || !tau) {
		free(w), free(tau);
		return NAN;
	}
	host_blas_begin();
	double t = now_seconds();
	if (prec == 's')
		LAPACKE_sgehrd(LAPACK_COL_MAJOR, (lapack_int)n, 1, (lapack_int)n, w, (lapack_int)n, tau);
	else
		LAPACKE_dgehrd(LAPACK_COL_MAJOR, (lapack_int)n, 1, (lapack_int)n, w, (lapack_int)n, tau);
	t = now_seconds() - t;
	if (orghr) {
		double t0 = now_seconds();
		if (prec == 's')
			LAPACKE_sorghr(LAPACK_COL_MAJOR, (lapack_int)n, 1, (lapack_int)n, w, (lapack_int)n, tau);
		else
			LAPACKE_dorghr(LAPACK_COL_MAJOR, (lapack_int)n, 1, (lapack_int)n, w, (lapack_int)n, tau);
		*orghr = now_seconds() - t0;
	}
	host_blas_end();
	free(w), free(tau);
	return t;
}
