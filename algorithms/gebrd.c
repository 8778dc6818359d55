/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Bidiagonal reduction Q^T A P = B as a task graph (Tomov, Nath and Dongarra 2010, section 3.5;
 * LAPACK dgebrd's contract and output). Typed source: see
 * runtime/precision.h.
 *
 * m >= n: column panels of width nb (views of one handle). For each panel k
 * but the last:
 *   panel(k)       LAPACK's DLABRD on its nb columns and rows (CPU): the
 *                  column and row reflectors, d, e, tauq, taup, X and Y, two
 *                  GEMVs per column over the trailing matrix (its rows of
 *                  the trailing columns change too: it holds them RW);
 *   update(k, g)   A -= V Y^T + X U^T below the panel's rows, on the later
 *                  panels: the next one alone and first, then groups;
 * with a GPU, both in one step task (its panel reads the whole trailing
 * matrix: no look-ahead to gain, a runtime gap to spare);
 * the last panel goes to LAPACK's dgebrd. At the end d and e go back on the
 * diagonal and superdiagonal, as dgebrd leaves them (a last task). m < n:
 * the same on A^T (LAPACK's lower-bidiagonal reduction of A is the upper
 * one of A^T, mirrored: Q and P, tauq and taup trade places), through a
 * transposed copy that the sequence owns (a task copies it in, another
 * back). */
#include <stdlib.h>
#include "algorithms.h"
#include "codelets.h"
#include "runtime.h"
#include "typed.h"

/* Accessors (Chameleon's A(m, n)): panel k of the column panels A, the
 * panels from k on (an array of handles). */
#define A(k) hyla__tile(A, 0, k)
#define A_FROM(k) (&A->tiles[k])

/* d, e, tauq, taup as descriptors of nb-row tiles. */
struct gebrd_out {
	hyla_desc d, e, tauq, taup;
};

/* Panel k (out: its d, e, tauq, taup), then its updates of the later
 * panels: the next panel's first (look-ahead), the others in groups. */
static int submit_panel(const hyla_desc *A, const starpu_data_handle_t out[4], int64_t k,
                        int64_t group)
{
	int64_t c = k * A->nb;
	/* The panel's X and Y, read by its updates. */
	starpu_data_handle_t x = hyla__workspace(A->m, A->nb, sizeof(real_t));
	starpu_data_handle_t y = hyla__workspace(A->n, A->nb, sizeof(real_t));
	int ret = TASK(gebrd_panel)(out, x, y, A_FROM(k), (int)(A->nt - k), c);
	for (int64_t p = k + 1; p < A->nt && ret == HYLA_SUCCESS;) {
		int64_t count = p == k + 1 ? 1 : (A->nt - p < group ? A->nt - p : group);
		ret = TASK(gebrd_update)(A(k), x, y, A_FROM(p), (int)count, c, p * A->nb,
		                         p == k + 1 ? STARPU_MAX_PRIO : STARPU_DEFAULT_PRIO);
		p += count;
	}
	hyla__workspace_release(x);
	hyla__workspace_release(y);
	return ret;
}

/* With a GPU (no look-ahead: hyla__update_group) and a panel it can take,
 * a step task a panel: the panel and the update of all later panels (a GPU
 * panel reads the whole trailing matrix); else panels and their updates. */
static int submit_gebrd(const hyla_desc *A, const struct gebrd_out *o, int64_t width)
{
	int64_t m = A->m, n = A->n, nb = A->nb;
	int lookahead;
	int64_t group = hyla__update_group(A->nt, width, nb, &lookahead);
	starpu_data_handle_t x = NULL, y = NULL; /* the steps' X and Y */
	if (lookahead ? hyla__parallel_tasks() : nb <= HYLA_REDUCTION_GPU_MAX_NB) {
		x = hyla__workspace(m, nb, sizeof(real_t));
		y = hyla__workspace(n, nb, sizeof(real_t));
	}
	int ret = HYLA_SUCCESS;
	for (int64_t k = 0; k + 1 < A->nt && ret == HYLA_SUCCESS; k++) {
		const starpu_data_handle_t out[4] = {hyla__tile(&o->d, k, 0), hyla__tile(&o->e, k, 0),
		                                     hyla__tile(&o->tauq, k, 0), hyla__tile(&o->taup, k, 0)};
		ret = x ? TASK(gebrd_step)(out, x, y, A_FROM(k), (int)(A->nt - k), k * nb)
		        : submit_panel(A, out, k, group);
		if (ret == HYLA_SUCCESS) {
			hyla__write_back(A, 0, k);
			hyla__progress_mark(A(k), k + 1, A->nt);
		}
	}
	hyla__workspace_release(x);
	hyla__workspace_release(y);
	int64_t last = (A->nt - 1) * nb, t = n - last;
	if (ret == HYLA_SUCCESS) {
		starpu_data_handle_t scratch = hyla__workspace_vector(2 * t + 64 * (m - last + t),
		                                                      sizeof(real_t));
		ret = TYPED(hyla__insert_gebrd_tail)(A(A->nt - 1), hyla__tile(&o->tauq, A->nt - 1, 0),
		                                     hyla__tile(&o->taup, A->nt - 1, 0), scratch, last);
		hyla__workspace_release(scratch);
	}
	return ret;
}

int TYPED(hyla__gebrd_tall_submit)(const hyla_desc *A, real_t *d, real_t *e, real_t *tauq,
                                   real_t *taup, int64_t width, hyla_desc out[4],
                                   hyla_sequence *seq)
{
	int64_t n = A->n, nb = A->nb;
	struct gebrd_out o = {0};
	int ret = hyla__sequence_vector(seq, &o.d, d, n, nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = hyla__sequence_vector(seq, &o.e, e, n - 1, nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = hyla__sequence_vector(seq, &o.tauq, tauq, n, nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = hyla__sequence_vector(seq, &o.taup, taup, n, nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = submit_gebrd(A, &o, width);
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__insert_band_finish)(&o.d, &o.e, A, 0);
	out[0] = o.d, out[1] = o.e, out[2] = o.tauq, out[3] = o.taup;
	return ret;
}

/* The same, the vectors' descriptors freed (the sequence's handles). */
static int submit_tall(const hyla_desc *A, real_t *d, real_t *e, real_t *tauq, real_t *taup,
                       int64_t width, hyla_sequence *seq)
{
	hyla_desc out[4];
	int ret = TYPED(hyla__gebrd_tall_submit)(A, d, e, tauq, taup, width, out, seq);
	for (int i = 0; i < 4; i++)
		free(out[i].tiles);
	return ret;
}

/* Submits the reduction of A (column-panel views) and the sequence's fence.
 * m < n: the reduction of the sequence's copy A^T, transposed back, with
 * tauq and taup trading places. */
static int submit_call(const hyla_desc *A, real_t *d, real_t *e, real_t *tauq, real_t *taup,
                       const hyla_options *opts, hyla_sequence *seq)
{
	int ret;
	if (A->m >= A->n) {
		ret = submit_tall(A, d, e, tauq, taup, hyla__update_width(opts, A->n), seq);
	} else {
		const hyla_desc *T;
		ret = hyla__sequence_matrix(seq, A->n, A->m, A->nb < A->m ? A->nb : A->m, sizeof(real_t), 0,
		                            &T);
		if (ret == HYLA_SUCCESS)
			ret = TYPED(hyla__insert_transpose)(A, T);
		if (ret == HYLA_SUCCESS)
			ret = submit_tall(T, d, e, taup, tauq, hyla__update_width(opts, T->n), seq);
		if (ret == HYLA_SUCCESS)
			ret = TYPED(hyla__insert_transpose)(T, A);
	}
	return ret == HYLA_SUCCESS ? hyla__sequence_fence(seq, A, NULL) : ret;
}

/* The task graph on the m-by-n a, min(m, n) > nb. */
static int gebrd_graph(int64_t m, int64_t n, real_t *a, int64_t lda, real_t *d, real_t *e,
                       real_t *tauq, real_t *taup, const hyla_options *o, int64_t nb)
{
	hyla_desc A;
	/* A wide matrix is reduced as its transpose, a copy beside it. */
	int ret = m < n ? hyla__fits_whole(m, n, m * n, sizeof(real_t)) : HYLA_SUCCESS;
	void *pinned = ret == HYLA_SUCCESS ? hyla__pin(a, m, n, lda, sizeof(real_t)) : NULL;
	if (ret == HYLA_SUCCESS &&
	    (ret = hyla__desc_register_views(&A, a, m, n, lda, nb, sizeof(real_t))) == HYLA_SUCCESS) {
		hyla_sequence seq = {0};
		ret = hyla__finish_sync(&seq, &A, submit_call(&A, d, e, tauq, taup, o, &seq));
	}
	hyla__unpin(pinned);
	return ret;
}

int TYPED(hyla__gebrd)(int64_t m, int64_t n, real_t *a, int64_t lda, real_t *d, real_t *e,
                       real_t *tauq, real_t *taup, const hyla_options *o)
{
	int64_t nb = o->nb ? o->nb : hyla__default_nb("gebrd", m, n);
	return (m < n ? m : n) <= nb ? TYPED(hyla__host_gebrd)(m, n, a, lda, d, e, tauq, taup)
	                             : gebrd_graph(m, n, a, lda, d, e, tauq, taup, o, nb);
}

#ifdef HYLA_PREC_D
int hyla_dgebrd(int64_t m, int64_t n, double *a, int64_t lda, double *d, double *e, double *tauq,
                double *taup, const hyla_options *opts)
#else
int hyla_sgebrd(int64_t m, int64_t n, float *a, int64_t lda, float *d, float *e, float *tauq,
                float *taup, const hyla_options *opts)
#endif
{
	hyla_options o;
	int ret = hyla__check_gebrd_args(m, n, a, lda, d, e, tauq, taup);
	if (ret == HYLA_SUCCESS)
		ret = hyla__options_check(opts, 9, &o);
	if (ret != HYLA_SUCCESS || m == 0 || n == 0 || (ret = hyla__ensure_init()) != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	ret = TYPED(hyla__gebrd)(m, n, a, lda, d, e, tauq, taup, &o);
	hyla__context_leave(&o, outer);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_dgebrd_async(hyla_matrix *a, double *d, double *e, double *tauq, double *taup,
                      const hyla_options *opts, hyla_sequence *seq)
#else
int hyla_sgebrd_async(hyla_matrix *a, float *d, float *e, float *tauq, float *taup,
                      const hyla_options *opts, hyla_sequence *seq)
#endif
{
	const hyla_desc *A;
	hyla_options o;
	int ret = hyla__matrix_desc(a, sizeof(real_t), 1, &A);
	if (ret == HYLA_SUCCESS && !d)
		ret = HYLA_ERROR(-2, "d is NULL");
	if (ret == HYLA_SUCCESS && (A->m < A->n ? A->m : A->n) > 1 && !e)
		ret = HYLA_ERROR(-3, "e is NULL");
	if (ret == HYLA_SUCCESS && !tauq)
		ret = HYLA_ERROR(-4, "tauq is NULL");
	if (ret == HYLA_SUCCESS && !taup)
		ret = HYLA_ERROR(-5, "taup is NULL");
	if (ret == HYLA_SUCCESS)
		ret = hyla__async_args(opts, 6, seq, &o);
	if (ret != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	ret = submit_call(A, d, e, tauq, taup, &o, seq);
	return hyla__async_done(seq, &o, outer, ret);
}
