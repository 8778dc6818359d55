/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Concurrent first use: test_concurrent_init RUNS
 * Each run is a fresh process in which 4 threads, released together, call
 * hyla_dgeqrf (threads 0, 2) or hyla_dgehrd (1, 3) on matrices of their
 * own with no hyla_init before: hyla must start once, and each result must
 * equal the same call's made afterwards from one thread to rounding,
 * ||X_thread - X_serial||_F <= 10 n eps ||A||_F. A run that crashes, fails
 * or differs fails the test. Prints a line per failed run and a summary. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common.h"
#include "hyla.h"

enum { THREADS = 4, N = 160 };

struct job {
	int id, info;
	double a[N * N], tau[N];
};

static pthread_barrier_t start;

static int reduce(struct job *j)
{
	return j->id % 2 ? hyla_dgehrd(N, 1, N, j->a, N, j->tau, NULL)
	                 : hyla_dgeqrf(N, N, j->a, N, j->tau, NULL);
}

static void *thread_main(void *arg)
{
	struct job *j = arg;
	pthread_barrier_wait(&start);
	j->info = reduce(j);
	return NULL;
}

static int one_run(void)
{
	static struct job jobs[THREADS], serial[THREADS];
	pthread_t threads[THREADS];
	pthread_barrier_init(&start, NULL, THREADS);
	for (int t = 0; t < THREADS; t++) {
		jobs[t].id = t;
		random_matrix(N, N, jobs[t].a, N, 10 + t);
		serial[t] = jobs[t];
	}
	for (int t = 0; t < THREADS; t++)
		if (pthread_create(&threads[t], NULL, thread_main, &jobs[t])) {
			fprintf(stderr, "test_concurrent_init: cannot start a thread\n");
			return 1;
		}
	for (int t = 0; t < THREADS; t++)
		pthread_join(threads[t], NULL);
	int fails = 0;
	for (int t = 0; t < THREADS; t++) {
		double norm = 0, diff = 0;
		for (int i = 0; i < N * N; i++)
			norm += serial[t].a[i] * serial[t].a[i];
		int info = reduce(&serial[t]);
		for (int i = 0; i < N * N; i++)
			diff += (jobs[t].a[i] - serial[t].a[i]) * (jobs[t].a[i] - serial[t].a[i]);
		diff = sqrt(diff), norm = sqrt(norm);
		if (jobs[t].info || info || !(diff <= 10 * N * 0x1p-53 * norm)) {
			fprintf(stderr, "thread %d (%s): info %d (serial %d), difference %.2e\n", t,
			        t % 2 ? "dgehrd" : "dgeqrf", jobs[t].info, info, diff);
			fails++;
		}
	}
	hyla_finalize();
	return fails != 0;
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 20, failed = 0;
	for (int k = 0; k < runs; k++) {
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0)
			_exit(one_run());
		int status = 0;
		if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			printf("FAILED: run %d: %s %d\n", k, pid > 0 && WIFSIGNALED(status) ? "signal" : "status",
			       pid > 0 && WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
			failed++;
		}
	}
	printf("%s: %d of %d runs failed\n", failed ? "FAILED" : "ok", failed, runs);
	return failed != 0;
}
