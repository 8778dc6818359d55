/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* hyla__clear_lower and its two steps with diagonal blocks of nb
 * (algorithms/clear_lower.c) on sizes that take 0, 1, 4 and 8 threads (the
 * 8 of nb = n with nothing below the block to zero): the strictly
 * lower triangle zero, the rest (diagonal, upper triangle, rows past n of a
 * leading dimension) as it was. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "algorithms.h"

static int check(int64_t n, int64_t ldr, size_t elsize, int64_t nb)
{
	size_t bytes = (size_t)(ldr * n) * elsize;
	unsigned char *r = malloc(bytes ? bytes : 1);
	if (!r)
		return 1;
	for (size_t b = 0; b < bytes; b++)
		r[b] = 0xa5;
	if (nb) {
		struct hyla_clear c;
		hyla__clear_start(&c, n, nb, r, ldr, elsize);
		hyla__clear_finish(&c);
	} else {
		hyla__clear_lower(n, r, ldr, elsize);
	}
	int64_t wrong = 0;
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < ldr; i++)
			for (size_t b = 0; b < elsize; b++)
				wrong += r[(size_t)(i + j * ldr) * elsize + b] != (i > j && i < n ? 0 : 0xa5);
	free(r);
	printf("n=%lld ldr=%lld elsize=%zu nb=%lld: %lld wrong bytes\n", (long long)n, (long long)ldr,
	       elsize, (long long)nb, (long long)wrong);
	return wrong != 0;
}

int main(void)
{
	return check(0, 1, 8, 0) | check(1, 1, 8, 0) | check(7, 9, 4, 0) | check(700, 701, 8, 0) |
	       check(1200, 1201, 8, 0) | check(2100, 2100, 8, 0) | check(3001, 3003, 4, 0) |
	       check(6000, 6000, 8, 0) | check(7, 9, 4, 3) | check(700, 701, 8, 64) |
	       check(1200, 1201, 8, 128) | check(3001, 3003, 4, 256) | check(6000, 6000, 8, 512) |
	       check(5000, 5001, 8, 5000);
}
