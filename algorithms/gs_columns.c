/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* What the Gram-Schmidt QRs share around their task graphs: a first task on
 * each panel (codelets/gs_columns.c) that takes each column's norm and
 * scales the columns whose squares would overflow or underflow, and the
 * wait's end, which finds the first dependent column and scales R back.
 * Typed source: see runtime/precision.h. */
#include <math.h>
#include <stdlib.h>
#include "algorithms.h"
#include "codelets.h"
#include "runtime.h"
#include "typed.h"

struct gs_end {
	real_t *r;
	int64_t ldr, m, n;
	real_t info[]; /* per column: its norm, the power of two that scaled it */
};

/* Column j depends on the earlier ones when what is left of it after their
 * projections, r_jj, is at most 10 sqrt(m) eps of its norm: the rounding
 * errors of those projections alone reach about sqrt(j) eps of it. The
 * earliest such column is the call's info. */
static int finish(void *arg)
{
	struct gs_end *g = arg;
	const real_t eps = PREC_CHAR == 'd' ? 0x1p-53 : 0x1p-24;
	const real_t tol = 10 * sqrt((real_t)g->m) * eps;
	int info = 0;
	for (int64_t j = 0; j < g->n; j++) {
		real_t *rj = g->r + j * g->ldr, norm = g->info[2 * j];
		int e = (int)g->info[2 * j + 1];
		if (!info && !(rj[j] > tol * norm))
			info = (int)(j + 1);
		for (int64_t i = 0; e && i <= j; i++)
			rj[i] = scalbn(rj[i], -e);
	}
	return info;
}

int TYPED(hyla__gs_begin)(const hyla_desc *A, real_t *r, int64_t ldr, hyla_desc *info,
                          hyla_sequence *seq)
{
	*info = (hyla_desc){0};
	struct gs_end *g = calloc(1, sizeof *g + sizeof(real_t) * 2 * (size_t)A->n);
	if (!g)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for %lld column norms", (long long)A->n);
	*g = (struct gs_end){.r = r, .ldr = ldr, .m = A->m, .n = A->n};
	int ret = hyla__sequence_finish(seq, finish, g);
	if (ret != HYLA_SUCCESS)
		return ret;
	ret = hyla__desc_register(info, g->info, 2, A->n, 2, 2, A->nb, sizeof(real_t));
	return ret == HYLA_SUCCESS ? hyla__sequence_own_tiles(seq, info) : ret;
}

int TYPED(hyla__gs_columns)(const hyla_desc *A, const hyla_desc *info, int64_t k)
{
	return TYPED(hyla__insert_gs_columns)(A->tiles[k], info->tiles[k],
	                                      k == 0 ? STARPU_MAX_PRIO : STARPU_DEFAULT_PRIO);
}
