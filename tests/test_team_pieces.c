/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The pieces a parallel panel's cores take from one another
 * (codelets/spmd_team.h): threads standing in for a combined worker's
 * cores, some of them late at random, take the pieces of many columns; each
 * piece must be taken exactly once a column, and some must be taken by a
 * core that does not own it (else the test proves nothing of the taking).
 * Usage: test_team_pieces [CORES] [COLUMNS] [PIECES_A_CORE]. */
#define HYLA_PREC_D
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "precision.h"
#include "spmd_team.h"

static int cores, columns, k;
static struct hyla_team_arg arg; /* zeroed, as at a task's submission */
static unsigned *taken;          /* taken[column * pieces + piece]: times taken */
static unsigned stolen;

static void late(unsigned *seed)
{
	if (rand_r(seed) % 8 == 0) { /* now and then a core comes late */
		struct timespec pause = {0, 20000 + rand_r(seed) % 80000};
		nanosleep(&pause, NULL);
	}
}

static void *core(void *rank_arg)
{
	int rank = (int)(intptr_t)rank_arg;
	unsigned seed = (unsigned)rank + 1;
	struct team t;
	if (!team_join(&t, &arg, rank, cores, 0, 0))
		return NULL;
	for (int c = 0; c < columns; c++) {
		team_wait(&t); /* the column's barrier before its pieces */
		late(&seed);
		struct team_pieces pieces = team_pieces(&t, c, k);
		for (int j; (j = team_piece(&pieces)) >= 0;) {
			__atomic_add_fetch(&taken[(size_t)c * cores * k + j], 1, __ATOMIC_RELAXED);
			if (j / k != rank)
				__atomic_add_fetch(&stolen, 1, __ATOMIC_RELAXED);
		}
	}
	team_leave(&t);
	return NULL;
}

int main(int argc, char **argv)
{
	cores = argc > 1 ? atoi(argv[1]) : 8;
	columns = argc > 2 ? atoi(argv[2]) : 2000;
	k = argc > 3 ? atoi(argv[3]) : 4;
	if (cores < 1 || cores > 64 || columns < 1 || k < 1) {
		fprintf(stderr, "test_team_pieces: error: cores 1-64, columns and pieces >= 1\n");
		return 2;
	}
	taken = calloc((size_t)columns * cores * k, sizeof *taken);
	pthread_t threads[64];
	for (int q = 0; q < cores; q++)
		if (pthread_create(&threads[q], NULL, core, (void *)(intptr_t)q)) {
			fprintf(stderr, "test_team_pieces: error: no thread %d\n", q);
			return 2;
		}
	for (int q = 0; q < cores; q++)
		pthread_join(threads[q], NULL);
	long wrong = 0;
	for (size_t i = 0; i < (size_t)columns * cores * k; i++)
		wrong += taken[i] != 1;
	int ok = wrong == 0 && (cores == 1 || stolen > 0);
	printf("test_team_pieces cores=%d columns=%d pieces_a_core=%d taken_not_once=%ld stolen=%u %s\n",
	       cores, columns, k, wrong, stolen, ok ? "PASSED" : "FAILED");
	free(taken);
	return ok ? 0 : 1;
}
