/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The map of a matrix's column panels over several GPUs (runtime/blocks.c),
 * for 1 to 16 GPUs and 1 to 3000 panels, with and without a bound on the
 * blocks' width (out of core): the blocks cover the panels in order, each
 * GPU's share is within one block of an even share, while as many blocks
 * as GPUs remain to the right of any column every GPU holds one of them
 * (the trailing matrix stays spread), and no block is wider than the bound
 * where HYLA_MAX_BLOCKS blocks of it cover the panels. */
#include <stdio.h>
#include <stdlib.h>
#include "runtime.h"

static int failures;

static void fail(int64_t nt, int gpus, int64_t bound, const char *what)
{
	if (failures++ < 10)
		fprintf(stderr, "FAILED: %lld panels over %d GPUs, blocks of at most %lld: %s\n",
		        (long long)nt, gpus, (long long)bound, what);
}

static void check(int64_t nt, int gpus, int64_t bound)
{
	int64_t first[HYLA_MAX_BLOCKS + 1], share[16] = {0}, widest = 0;
	int count = hyla__column_blocks(nt, gpus, bound, first);
	if (count < 1 || count > HYLA_MAX_BLOCKS || first[0] != 0 || first[count] != nt)
		return fail(nt, gpus, bound, "the blocks do not cover the panels");
	for (int b = 0; b < count; b++) {
		int64_t width = first[b + 1] - first[b];
		if (width < 1)
			return fail(nt, gpus, bound, "an empty block");
		widest = width > widest ? width : widest;
		if (bound && width > bound && nt <= bound * (HYLA_MAX_BLOCKS / gpus * gpus))
			return fail(nt, gpus, bound, "a block wider than the bound");
		share[b % gpus] += width;
	}
	if (count < (nt < gpus ? nt : gpus))
		fail(nt, gpus, bound, "fewer blocks than GPUs");
	for (int g = 0; g < gpus; g++)
		if (share[g] * gpus < nt - widest * gpus || share[g] * gpus > nt + widest * gpus)
			fail(nt, gpus, bound, "a GPU's share is uneven");
	for (int b = 0; b + gpus <= count; b++) {
		int held = 0;
		for (int c = b; c < count; c++)
			held |= 1 << (c % gpus);
		if (held != (1 << gpus) - 1)
			fail(nt, gpus, bound, "a GPU holds none of the trailing blocks");
	}
}

int main(void)
{
	for (int gpus = 1; gpus <= 16; gpus++)
		for (int64_t nt = 1; nt <= 3000; nt++)
			for (int64_t bound = 0; bound <= 40; bound += bound < 4 ? 1 : 9)
				check(nt, gpus, bound);
	check(1000000, 8, 0);
	check(1000000, 1, 20000);
	if (failures)
		fprintf(stderr, "%d failures\n", failures);
	else
		printf("column blocks: 1-16 GPUs, 1-3000 panels, bounded and not: pass\n");
	return failures != 0;
}
