/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* A matrix's column panels in blocks over several GPUs (runtime.h says how;
 * tests/test_column_blocks.c checks the map for 1 to 16 GPUs). */
#include "runtime.h"

int hyla__column_blocks(int64_t nt, int gpus, int64_t widest, int64_t first[HYLA_MAX_BLOCKS + 1])
{
	int64_t most = HYLA_MAX_BLOCKS / gpus * gpus, want = (int64_t)gpus * HYLA_BLOCKS_PER_GPU;
	if (widest > 0 && (nt + widest - 1) / widest > want)
		want = (nt + widest - 1) / widest;
	if (want > most)
		want = most;
	int64_t per = (nt + want - 1) / want, count = (nt + per - 1) / per;
	for (int64_t b = 0; b <= count; b++)
		first[b] = b * per < nt ? b * per : nt;
	return (int)count;
}
