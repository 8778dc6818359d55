/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* R's strictly lower triangle zeroed for the Gram-Schmidt QRs, on threads
 * for a large R (a core writes about 10 GB/s: R's 256 MB below the diagonal
 * at n = 8000 took 25-35 ms on the calling thread before the first task). */
#include <math.h>
#include <string.h>
#include "algorithms.h"

/* Column j from row below(j): the end of its diagonal block of nb. */
static int64_t below(const struct hyla_clear_part *p, int64_t j)
{
	int64_t end = (j / p->nb + 1) * p->nb;
	return end < p->n ? end : p->n;
}

static void *clear_columns(void *arg)
{
	const struct hyla_clear_part *p = arg;
	for (int64_t j = p->first; j < p->end; j++)
		memset(p->r + (size_t)(below(p, j) + j * p->ldr) * p->elsize, 0,
		       (size_t)(p->n - below(p, j)) * p->elsize);
	return NULL;
}

/* A thread for each 4 MB, at most HYLA_CLEAR_THREADS. */
enum { CLEAR_BYTES_A_THREAD = 1 << 22 };

void hyla__clear_start(struct hyla_clear *c, int64_t n, int64_t nb, void *r, int64_t ldr,
                       size_t elsize)
{
	struct hyla_clear_part whole = {.r = r, .n = n, .nb = nb, .ldr = ldr, .elsize = elsize};
	for (int64_t j = 0; j < n; j++) /* inside the diagonal blocks, here */
		memset(whole.r + (size_t)(j + 1 + j * ldr) * elsize, 0,
		       (size_t)(below(&whole, j) - j - 1) * elsize);
	double bytes = (double)n * (double)(n - 1) / 2 * (double)elsize;
	c->threads = bytes / CLEAR_BYTES_A_THREAD < HYLA_CLEAR_THREADS
	                 ? (int)(bytes / CLEAR_BYTES_A_THREAD)
	                 : HYLA_CLEAR_THREADS;
	int64_t first = 0;
	for (int t = 0; t < c->threads; t++) {
		/* The columns before end hold (t + 1) / threads of the triangle:
		 * (n - end)^2 = (1 - (t + 1) / threads) n^2. */
		int64_t end = t + 1 == c->threads ? n : n - (int64_t)(n * sqrt(1 - (t + 1.0) / c->threads));
		c->parts[t] = whole;
		c->parts[t].first = first, c->parts[t].end = end;
		c->parts[t].running = pthread_create(&c->parts[t].thread, NULL, clear_columns,
		                                     &c->parts[t]) == 0;
		if (!c->parts[t].running)
			clear_columns(&c->parts[t]); /* no thread to be had: here */
		first = end;
	}
	if (c->threads == 0) { /* small: here */
		whole.end = n;
		clear_columns(&whole);
	}
}

void hyla__clear_finish(struct hyla_clear *c)
{
	for (int t = 0; t < c->threads; t++)
		if (c->parts[t].running)
			pthread_join(c->parts[t].thread, NULL);
	c->threads = 0;
}

void hyla__clear_lower(int64_t n, void *r, int64_t ldr, size_t elsize)
{
	struct hyla_clear c;
	hyla__clear_start(&c, n, 1, r, ldr, elsize);
	hyla__clear_finish(&c);
}
