/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The drop-in LAPACK: test_lapack_dropin hyla|system
 * A program that knows only LAPACK (lapack.h), linked with libhyla_lapack
 * ahead of -llapack or given it by LD_PRELOAD, against the system LAPACK's
 * own routines (liblapack.so.3 by dlopen): the results of the six routines
 * in both precisions, the workspace queries, bad arguments through its own
 * xerbla_ (name and number), four threads at once, a child of fork. At the
 * end, with "hyla", StarPU must be running (hyla did the work:
 * HYLA_LAPACK_MIN_N=0); with "system" it must not (the calls were below the
 * crossover). A recursion of the drop-in into itself would hang or crash
 * it. Prints one line; exit status 0 pass, 1 fail, 2 bad arguments. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <float.h>
#include <lapack.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *system_lapack;
static atomic_int checks, failures;

static void check(int ok, const char *fmt, ...)
{
	atomic_fetch_add(&checks, 1);
	if (ok)
		return;
	atomic_fetch_add(&failures, 1);
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "test_lapack_dropin: FAILED: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void *reference(const char *name)
{
	void *f = dlsym(system_lapack, name);
	if (!f) {
		fprintf(stderr, "test_lapack_dropin: liblapack.so.3 has no %s\n", name);
		exit(1);
	}
	return f;
}

/* LAPACK's error handler, this program's own (as LAPACK's testers have):
 * records what it heard instead of stopping. */
static char heard_name[16];
static int heard_number, heard_calls;

void xerbla_(const char *name, const int *number, size_t len)
{
	while (len > 0 && name[len - 1] == ' ')
		len--;
	snprintf(heard_name, sizeof heard_name, "%.*s", (int)len, name);
	heard_number = *number;
	heard_calls++;
}

static void forget_xerbla(void)
{
	heard_calls = 0, heard_number = 0, heard_name[0] = 0;
}

static void xerbla_heard(const char *routine, int number, int info)
{
	check(heard_calls == 1 && !strcmp(heard_name, routine) && heard_number == number &&
	              info == -number,
	      "%s's argument %d: xerbla heard %d call(s), %s argument %d; info %d", routine, number,
	      heard_calls, heard_name, heard_number, info);
}

/* The hard inputs' kinds (lapack_dropin_cases.h's hard_matrix). */
enum hard_kind { HUGE_SCALE, TINY_SCALE, HUGE_LOW_RANK, TINY_LOW_RANK, ZERO_COLUMNS, ZERO, SUBNORMAL_BLOCK,
                 HARD_KINDS };

#define real_t double
#define EPS DBL_EPSILON
#define L(x) LAPACK_d##x
#define R(x) ((__typeof__(d##x##_) *)reference("d" #x "_"))
#define T(x) x##_d
#include "lapack_dropin_cases.h"
#undef real_t
#undef EPS
#undef L
#undef R
#undef T
#define real_t float
#define EPS FLT_EPSILON
#define L(x) LAPACK_s##x
#define R(x) ((__typeof__(s##x##_) *)reference("s" #x "_"))
#define T(x) x##_s
#include "lapack_dropin_cases.h"

/* Concurrent callers: each thread its own matrices, every routine. */
static void *caller(void *arg)
{
	unsigned draw = 100 + (unsigned)(size_t)arg;
	qr_d(120, 90, 90, draw);
	hessenberg_d(90, 2, 85, draw);
	tridiagonal_s('L', 90, draw);
	bidiagonal_d(100, 90, draw);
	return NULL;
}

/* A child of fork, StarPU's threads not in it: the system LAPACK answers,
 * and the child exits (through exit: at-exit handlers run). */
static int forked;
static void forked_child(void)
{
	int before = atomic_load(&failures), status = -1;
	pid_t pid = fork(), waited;
	if (pid == 0) {
		forked = 1;
		qr_d(60, 40, 40, 11);
		exit(atomic_load(&failures) > before);
	}
	while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	check(pid > 0 && waited == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "a child of fork: status %d", status);
}

/* LeakSanitizer's check at exit (a sanitizer build): not in the child,
 * which holds the memory of its parent's threads without them. */
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
	return forked;
}

int main(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "hyla") && strcmp(argv[1], "system"))) {
		fprintf(stderr, "usage: test_lapack_dropin hyla|system\n");
		return 2;
	}
	system_lapack = dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL);
	if (!system_lapack || dlsym(RTLD_DEFAULT, "dgeqrf_") == reference("dgeqrf_")) {
		fprintf(stderr, "test_lapack_dropin: FAILED: %s\n",
		        system_lapack ? "dgeqrf_ is the system LAPACK's, not the drop-in's" : dlerror());
		return 1;
	}
	all_d();
	all_s();
	if (!strcmp(argv[1], "hyla")) /* above the crossover: orghr's shift on threads */
		hessenberg_d(1600, 3, 1550, 15);
	pthread_t threads[4];
	for (size_t i = 0; i < 4; i++)
		pthread_create(&threads[i], NULL, caller, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(threads[i], NULL);
	forked_child();

	int (*running)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "starpu_is_initialized");
	int hyla = running && running();
	check(hyla == !strcmp(argv[1], "hyla"), "hyla %s, expected %s", hyla ? "ran" : "did not run",
	      argv[1]);
	printf("test_lapack_dropin %s: %d checks, %d failed: %s\n", argv[1], atomic_load(&checks),
	       atomic_load(&failures), atomic_load(&failures) ? "FAILED" : "pass");
	return atomic_load(&failures) ? 1 : 0;
}
