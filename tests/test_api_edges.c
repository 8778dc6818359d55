/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The library's answers at its edges: test_api_edges
 * - argument checks name the first wrong argument in LAPACK's order, the
 *   32-bit limits included (hyla_dgeqrf(1, INT64_MAX, ...) is -2, not -1);
 * - a matrix used after hyla_finalize gives HYLA_ERR_NOINIT, and destroying
 *   it then is safe;
 * - OpenBLAS's thread count: one while hyla's own StarPU runs, the
 *   caller's again after hyla_finalize, untouched when the application
 *   started StarPU (hyla warns instead);
 * - StarPU settings that would make starpu_init abort (STARPU_NCPU=abc or
 *   -1, an unknown STARPU_SCHED, a STARPU_HOME that cannot be made) give
 *   HYLA_ERR_ENV from hyla_init, each in a fresh process.
 * Prints a line per case; exit status 0 pass, 1 fail. */
#include <cblas.h>
#include <math.h>
#include <starpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "hyla.h"
#include "hyla_async.h"

static int fails;

static void expect(const char *what, int got, int want)
{
	printf("%s: %s: %d (want %d)\n", got == want ? "ok" : "FAILED", what, got, want);
	fails += got != want;
}

static void argument_order(void)
{
	double a[16], tau[4], d[4], e[4], r[16];
	expect("dgeqrf(1, INT64_MAX, a, 1, tau)", hyla_dgeqrf(1, INT64_MAX, a, 1, tau, NULL), -2);
	expect("dgeqrf(INT64_MAX, 1, a, 1, tau)", hyla_dgeqrf(INT64_MAX, 1, a, 1, tau, NULL), -1);
	expect("dgeqrf(4, 4, a, INT64_MAX, NULL)", hyla_dgeqrf(4, 4, a, INT64_MAX, NULL, NULL), -4);
	expect("dgehrd(INT64_MAX, 1, 0, a, 1, tau)", hyla_dgehrd(INT64_MAX, 1, 0, a, 1, tau, NULL), -1);
	expect("dgehrd(4, 1, 4, a, INT64_MAX, NULL)", hyla_dgehrd(4, 1, 4, a, INT64_MAX, NULL, NULL), -5);
	expect("dsytrd('L', 4, a, INT64_MAX, NULL, ...)",
	       hyla_dsytrd('L', 4, a, INT64_MAX, NULL, e, tau, NULL), -4);
	expect("dgebrd(4, 4, a, 4, d, NULL, NULL, tau)",
	       hyla_dgebrd(4, 4, a, 4, d, NULL, NULL, tau, NULL), -6);
	expect("dgebrd(4, 4, a, 4, d, e, NULL, NULL)",
	       hyla_dgebrd(4, 4, a, 4, d, e, NULL, NULL, NULL), -7);
	expect("dmgs(4, 4, a, INT64_MAX, NULL, ...)",
	       hyla_dmgs(4, 4, a, INT64_MAX, NULL, 4, NULL), -4);
	expect("dcgs(4, 4, a, 4, r, INT64_MAX, ...)",
	       hyla_dcgs(4, 4, a, 4, r, INT64_MAX, NULL), -6);
	expect("dsyevd('X', 'L', 4, a, 4, d)", hyla_dsyevd('X', 'L', 4, a, 4, d, NULL), -1);
	expect("dsyevd('V', 'L', 4, a, 3, d)", hyla_dsyevd('V', 'L', 4, a, 3, d, NULL), -5);
	expect("dsyevd('N', 'U', 4, a, 4, NULL)", hyla_dsyevd('N', 'U', 4, a, 4, NULL, NULL), -6);
	expect("dgesdd('S', 4, 4, a, 4, d, NULL, 4, r, 4)",
	       hyla_dgesdd('S', 4, 4, a, 4, d, NULL, 4, r, 4, NULL), -7);
	expect("dgesdd('A', 4, 3, a, 4, d, r, 4, r, 2)",
	       hyla_dgesdd('A', 4, 3, a, 4, d, r, 4, r, 2, NULL), -10);
	expect("dgesdd('O', 3, 4, a, 3, d, r, 2, NULL, 1)",
	       hyla_dgesdd('O', 3, 4, a, 3, d, r, 2, NULL, 1, NULL), -8);
	double nan_a[16] = {1, 2, 3, 4, 5, NAN, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
	expect("dgesdd('S', 4, 4, a with a NaN, ...)",
	       hyla_dgesdd('S', 4, 4, nan_a, 4, d, r, 4, r, 4, NULL), -4);
	expect("dgesdd with a NaN: a untouched", nan_a[0] == 1 && nan_a[15] == 16, 1);
	/* A NaN in the last column of a matrix the scan splits over threads. */
	int64_t big = 2100;
	double *x = calloc((size_t)(big * big + big), sizeof *x);
	if (x) {
		x[big * big - 1] = NAN;
		expect("dgesdd('N', 2100, 2100, a with a NaN in its last column, ...)",
		       hyla_dgesdd('N', big, big, x, big, x + big * big, NULL, 1, NULL, 1, NULL), -4);
		free(x);
	}
	expect("dgesdd('N', 4, 4, a, 4, d, NULL, 1, NULL, 1, opts with nb -1)",
	       hyla_dgesdd('N', 4, 4, a, 4, d, NULL, 1, NULL, 1, &(hyla_options){.nb = -1}), -11);
}

static void after_finalize(void)
{
	static double a[64 * 64], tau[64];
	for (int i = 0; i < 64 * 64; i++)
		a[i] = (double)((i * 7919) % 101) / 101 - 0.5;
	expect("hyla_init", hyla_init(), HYLA_SUCCESS);
	hyla_matrix *m = hyla_matrix_create(a, sizeof(double), 64, 64, 64, 16);
	hyla_matrix *u = hyla_matrix_create(a, sizeof(double), 64, 32, 64, 16);
	hyla_sequence *seq = hyla_sequence_create();
	expect("dgesdd_async('A', ...)", hyla_dgesdd_async('A', m, tau, m, m, NULL, seq), -1);
	expect("dgesdd_async('S', a, NULL, ...)", hyla_dgesdd_async('S', m, NULL, m, m, NULL, seq),
	       -3);
	expect("dgesdd_async('S', a, s, u 64x32, ...)",
	       hyla_dgesdd_async('S', m, tau, u, m, NULL, seq), -4);
	expect("dgesdd_async('S', a, s, u, vt 64x32, ...)",
	       hyla_dgesdd_async('S', m, tau, m, u, NULL, seq), -5);
	expect("dgesdd_async('N', a, s, NULL, NULL, NULL, NULL)",
	       hyla_dgesdd_async('N', m, tau, NULL, NULL, NULL, NULL), -7);
	hyla_matrix_destroy(u);
	hyla_finalize();
	expect("dgeqrf_async after hyla_finalize", hyla_dgeqrf_async(m, tau, NULL, seq),
	       HYLA_ERR_NOINIT);
	hyla_matrix_destroy(m);
	hyla_sequence_destroy(seq);
}

static void blas_threads(void)
{
	openblas_set_num_threads(2);
	int before = openblas_get_num_threads();
	hyla_init();
	expect("OpenBLAS threads under hyla's StarPU", openblas_get_num_threads(), 1);
	hyla_finalize();
	expect("OpenBLAS threads after hyla_finalize", openblas_get_num_threads(), before);
	if (starpu_init(NULL) != 0) {
		expect("starpu_init", -1, 0);
		return;
	}
	hyla_init();
	expect("OpenBLAS threads under the application's StarPU", openblas_get_num_threads(), before);
	hyla_finalize();
	starpu_shutdown();
}

/* hyla_init's answer in a child process with name=value set. */
static void bad_setting(const char *name, const char *value)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		setenv(name, value, 1);
		int ret = hyla_init();
		if (ret == HYLA_SUCCESS)
			hyla_finalize();
		_exit(ret == HYLA_ERR_ENV ? 0 : 1);
	}
	int status = 0;
	int ok = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	         WEXITSTATUS(status) == 0;
	printf("%s: %s=%s gives HYLA_ERR_ENV\n", ok ? "ok" : "FAILED", name, value);
	fails += !ok;
}

int main(void)
{
	argument_order();
	after_finalize();
	blas_threads();
	bad_setting("STARPU_NCPU", "abc");
	bad_setting("STARPU_NCPU", "-1");
	bad_setting("STARPU_NCUDA", "2x");
	bad_setting("STARPU_SCHED", "no-such-scheduler");
	bad_setting("STARPU_HOME", "/proc/hyla-cannot-make-this");
	return fails != 0;
}
