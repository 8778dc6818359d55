/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The first stage of the two-stage bidiagonal reduction, singular values
 * only, on the cores (Ltaief, Luszczek and Dongarra 2013): the m-by-n A
 * (m >= n) to an upper band of b superdiagonals, one step task every b
 * columns. Step at column c, w =
 * min(b, n - c):
 *   A(c:m, c:c+w) = Q R (QR), Q^T on A(c:m, c+w:n);
 *   A(c:c+w, c+w:n) = L P (LQ, min(w, n - c - w) reflectors), P^T on
 *   A(c+w:m, c+w:n),
 * both block reflectors applied by xLARFB: Level 3, each core its columns
 * (Q^T) or its rows (P^T). The LQ is the QR of the row block's transpose,
 * a copy: xGELQF on the block in place strides across A's columns (n = 8000
 * on 16 cores: 3.3 s of core 0's time, the others waiting). R and L lie in the band; the LQ is skipped where
 * the row block is in the band already; Q's reflectors stay below the band.
 * The second stage: codelets/gb2bd.c. Typed source: see
 * runtime/precision.h. */
#include <lapacke.h>
#include <string.h>
#include "codelets.h"
#include "spmd_team.h"

#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))
#define LD(buf) ((int)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int)STARPU_MATRIX_GET_NX(buf))

struct ge2gb_args {
	struct hyla_team_arg team; /* first: zeroed at submission */
	int64_t col, first, n, b;  /* the step's column, its first panel's, A's columns, the band */
};

/* Whether the step at column c has work: a QR of more than one row, or a
 * row block reaching past the band. */
static int step_has_work(int64_t m, int64_t n, int64_t c, int64_t b)
{
	return m - c > 1 || n - c - 1 > b;
}

/* On a combined worker of the cores (or one core): core 0 factors the
 * panel, every core applies Q^T to its columns; core 0 factors the row
 * block, every core applies P^T to its rows. */
static void step_cpu(void *buffers[], void *cl_arg)
{
	struct ge2gb_args *arg = cl_arg;
	int size = starpu_combined_worker_get_size(), rank = starpu_combined_worker_get_rank();
	if (rank >= size)
		return; /* see hyla__spmd_cols */
	if (!hyla__contiguous_cols(buffers, 0, sizeof(real_t)))
		STARPU_ABORT_MSG("ge2gb step: the panels are not contiguous");
	int lda = LD(buffers[0]), m = ROWS(buffers[0]), n = (int)arg->n, b = (int)arg->b;
	int c = (int)arg->col, w = n - c < b ? n - c : b, mc = m - c, nc = n - c - w;
	real_t *p = MAT(buffers[0]) + (int64_t)(c - arg->first) * lda + c; /* A(c, c) */
	real_t *row = p + (int64_t)w * lda;                                  /* A(c, c + w) */
	int lq = n - c - 1 > b, k = w < nc ? w : nc, most = (mc > nc ? mc : nc) / size + 1;
	struct team t;
	/* Common: tau, T, xGEQRF's work, the row block's transpose (nc by w);
	 * a core's slot: its xLARFB work (its columns' or rows' share, w wide). */
	if (!team_join(&t, &arg->team, rank, size,
	               b + (int64_t)b * b + 64 * (int64_t)b + (lq ? (int64_t)nc * w : 0), most * b))
		STARPU_ABORT_MSG("ge2gb step: no memory for the cores' work");
	real_t *tau = t.common + C_FREE, *tt = tau + b, *work = tt + (int64_t)b * b;
	real_t *vt = work + 64 * (int64_t)b; /* the row block's reflectors, as columns */
	real_t *mine = team_slot(&t, rank) + S_DOTS;
	if (rank == 0 && mc > 1) {
		LAPACKE(geqrf_work)(LAPACK_COL_MAJOR, mc, w, p, lda, tau, work, 64 * b);
		TYPED(hyla__larft_host)(mc, w, p, lda, tau, tt, b);
	}
	team_wait(&t);
	int j0 = (int)((int64_t)nc * rank / size), j1 = (int)((int64_t)nc * (rank + 1) / size);
	if (mc > 1 && j1 > j0)
		LAPACKE(larfb_work)(LAPACK_COL_MAJOR, 'L', 'T', 'F', 'C', mc, j1 - j0, w, p, lda, tt, b,
		                    row + (int64_t)j0 * lda, lda, mine, j1 - j0);
	team_wait(&t);
	if (lq && rank == 0) {
		for (int j = 0; j < nc; j++)
			for (int i = 0; i < w; i++)
				vt[j + (int64_t)i * nc] = row[i + (int64_t)j * lda];
		LAPACKE(geqrf_work)(LAPACK_COL_MAJOR, nc, w, vt, nc, tau, work, 64 * b);
		TYPED(hyla__larft_host)(nc, k, vt, nc, tau, tt, b);
		for (int i = 0; i < w; i++) /* L = R^T */
			for (int j = 0; j <= i && j < k; j++)
				row[i + (int64_t)j * lda] = vt[j + (int64_t)i * nc];
	}
	team_wait(&t);
	int rows = mc - w, i0 = (int)((int64_t)rows * rank / size),
	    i1 = (int)((int64_t)rows * (rank + 1) / size);
	if (lq && i1 > i0)
		LAPACKE(larfb_work)(LAPACK_COL_MAJOR, 'R', 'N', 'F', 'C', i1 - i0, nc, k, vt, nc, tt, b,
		                    row + w + i0, lda, mine, i1 - i0);
	team_leave(&t);
}

/* Without a GPU in the context (beside one the one-stage reduction streams
 * the matrix at the GPU's bandwidth). */
static int cores_only(unsigned worker, struct starpu_task *task, unsigned impl)
{
	(void)worker, (void)impl;
	return hyla__views_node(task->sched_ctx) == STARPU_MAIN_RAM;
}

static struct starpu_codelet step_cl = {
	.cpu_funcs = {step_cpu},
	.can_execute = cores_only,
	.type = STARPU_SPMD,
	.max_parallelism = HYLA_MAX_PARALLELISM,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "ge2gb_step_" PREC_NAME,
};

int TYPED(hyla__insert_ge2gb_steps)(const hyla_desc *A, int64_t b)
{
	int ret = HYLA_SUCCESS;
	for (int64_t c = 0; ret == HYLA_SUCCESS && c < A->n; c += b) {
		if (!step_has_work(A->m, A->n, c, b))
			continue;
		int64_t k = c / A->nb;
		struct ge2gb_args arg = {.col = c, .first = k * A->nb, .n = A->n, .b = b};
		ret = hyla__submit_on_panels((struct hyla_task){.cl = &step_cl, .arg = &arg,
		                                                .arg_size = sizeof arg,
		                                                .priority = hyla__parallel_prio(STARPU_MAX_PRIO),
		                                                .all_cores = 1},
		                             &A->tiles[k], (int)(A->nt - k), STARPU_RW, STARPU_RW);
	}
	return ret;
}
