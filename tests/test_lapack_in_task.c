/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The drop-in LAPACK inside an application's own StarPU: the application
 * starts StarPU, a task of its own calls dgeqrf_, then the main thread, then
 * a task again (HYLA_LAPACK_MIN_N=0: hyla for every size). The tasks' calls
 * must go to the system LAPACK (a synchronous hyla call in a worker would
 * wait for itself: a hang or StarPU's abort), the main thread's to hyla;
 * each R against the system LAPACK's. Prints one line; exit status 0 pass,
 * 1 fail. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <float.h>
#include <lapack.h>
#include <math.h>
#include <starpu.h>
#include <stdio.h>
#include <string.h>

enum { M = 90, N = 70, LWORK = 64 * N };

/* dgeqrf_ (the drop-in's) on a random matrix; 1 if R and the reflectors
 * are the system LAPACK's within 100 n eps. */
static int qr_matches(void)
{
	static __thread double a[M * N], b[M * N], tau[N], work[LWORK];
	int m = M, n = N, lwork = LWORK, info, info2;
	unsigned draw = 1;
	for (int i = 0; i < M * N; i++) {
		draw = draw * 1103515245u + 12345u;
		a[i] = b[i] = (double)((draw >> 8) & 0xffff) / 32768 - 1;
	}
	LAPACK_dgeqrf(&m, &n, a, &m, tau, work, &lwork, &info);
	__typeof__(dgeqrf_) *system = (__typeof__(dgeqrf_) *)dlsym(
		dlopen("liblapack.so.3", RTLD_NOW | RTLD_LOCAL), "dgeqrf_");
	system(&m, &n, b, &m, tau, work, &lwork, &info2);
	double diff = 0, norm = 0;
	for (int i = 0; i < M * N; i++)
		diff += (a[i] - b[i]) * (a[i] - b[i]), norm += b[i] * b[i];
	return info == 0 && info2 == 0 && sqrt(diff / norm) <= 100 * N * DBL_EPSILON;
}

static void task_qr(void *buffers[], void *arg)
{
	(void)buffers;
	*(int *)arg = qr_matches();
}

static struct starpu_codelet qr_codelet = {.cpu_funcs = {task_qr}, .nbuffers = 0};

static int in_task(void)
{
	int ok = 0;
	struct starpu_task *task = starpu_task_create();
	task->cl = &qr_codelet;
	task->cl_arg = &ok;
	task->synchronous = 1;
	return starpu_task_submit(task) == 0 && ok;
}

int main(void)
{
	if (starpu_init(NULL) != 0) {
		fprintf(stderr, "test_lapack_in_task: starpu_init failed\n");
		return 1;
	}
	int first = in_task(), main_thread = qr_matches(), again = in_task();
	starpu_shutdown();
	int ok = first && main_thread && again;
	printf("test_lapack_in_task: task %s, main thread %s, task %s: %s\n", first ? "ok" : "WRONG",
	       main_thread ? "ok" : "WRONG", again ? "ok" : "WRONG", ok ? "pass" : "FAILED");
	return !ok;
}
