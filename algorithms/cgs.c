/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Classical Gram-Schmidt QR as a task graph (Milde and Schneider; Farber).
 * Typed source: see runtime/precision.h.
 *
 * Blocked (left-looking, Level 3), for each column panel k (columns c..c+w):
 *   project(k, 1)  against the finished panels 0..k-1 at once (one matrix Q):
 *                  R(0:c, k) = Q^T A_k, A_k -= Q R(0:c, k)       (block CGS;
 *                  out of core a column block of them at a time);
 *   panel(k)       A_k's columns one after the other, each against the
 *                  earlier ones: A_k = Q1 T1, R(c:c+w, k) = T1, one
 *                  classical pass per column (CGS) or two (CGS2);
 * and for CGS2, the reorthogonalised block CGS of Barlow and Smoktunowicz
 * (BCGS2), which keeps ||I - Q^T Q|| at O(eps) while cond(A) eps < 1:
 *   project(k, 2)  S = Q^T Q1, Q1 -= Q S, R(0:c, k) += S T1;
 *   panel(k)       Q1 = Q_k T2 (one pass: Q1 is nearly orthonormal), and
 *                  R(c:c+w, k) = T2 T1.
 * Vector (Milde and Schneider's parallel order, Level 2), for each column i: q_i =
 * u_i / ||u_i||, then for every later column j at once R(i, j) = q_i^T v_j
 * with v_j the original column (kept in a copy: that is what makes it
 * classical), u_j -= R(i, j) q_i. */
#include <stdlib.h>
#include "algorithms.h"
#include "codelets.h"
#include "typed.h"

/* Accessors (Chameleon's A(m, n)): panel k of the column panels A, the
 * panels from k on (an array of handles). */
#define A(k) hyla__tile(A, 0, k)
#include "runtime.h"

/* R's column of each panel: rows 0 to the panel's last, in the caller's r;
 * the sequence unregisters them (so r is complete when it is waited for). */
static int register_r_columns(starpu_data_handle_t *rk, real_t *r, int64_t ldr, const hyla_desc *A,
                              hyla_sequence *seq)
{
	for (int64_t k = 0; k < A->nt; k++) {
		int64_t c = k * A->nb, w = hyla__tile_cols(A, k);
		starpu_matrix_data_register(&rk[k], STARPU_MAIN_RAM, (uintptr_t)(r + c * ldr),
		                            (uint32_t)ldr, (uint32_t)(c + w), (uint32_t)w, sizeof(real_t));
		int ret = hyla__sequence_own(seq, rk[k]);
		if (ret != HYLA_SUCCESS)
			return ret;
	}
	return HYLA_SUCCESS;
}

/* Panel k's projection against the finished panels before it: one task in
 * core; out of core one a column block, in order, each against the columns
 * as the one before left them (block MGS between blocks, CGS within them). */
static int submit_project(const hyla_desc *A, starpu_data_handle_t rk, starpu_data_handle_t w,
                          int64_t k, int pass, hyla_sequence *seq)
{
	if (!A->out_of_core)
		return TYPED(hyla__task_cgs_project)(A(k), rk, w, A->tiles, (int)k, 0, k * A->nb, pass,
		                                     seq);
	int ret = HYLA_SUCCESS;
	for (int i = 0; i < A->nblocks && A->blocks[i].first < k && ret == HYLA_SUCCESS; i++) {
		int64_t first = A->blocks[i].first, end = A->blocks[i].end < k ? A->blocks[i].end : k;
		ret = TYPED(hyla__task_cgs_project)(A(k), rk, w, A->tiles + first, (int)(end - first),
		                                    first * A->nb, k * A->nb, pass, seq);
	}
	return ret;
}

/* Out of core, panel k's tasks are submitted once panel k - 2's are done:
 * dmda would otherwise start every panel's projections as soon as the
 * panels they read exist, each wanting its panel and a block on the GPU. */
static int submit_blocked(const hyla_desc *A, const hyla_desc *info, starpu_data_handle_t *rk,
                          int passes, hyla_sequence *seq)
{
	starpu_data_handle_t wproj = WORKSPACE(cgs)(A->n, A->nb, 1);
	starpu_data_handle_t wpanel = WORKSPACE(cgs)(A->n, A->nb, 0);
	int ret = TYPED(hyla__gs_columns)(A, info, 0);
	for (int64_t k = 0; k < A->nt && ret == HYLA_SUCCESS; k++) {
		starpu_data_handle_t ak = A(k);
		int64_t c = k * A->nb;
		if (A->out_of_core && k >= 2)
			hyla__wait_tasks(A(k - 2));
		if (k > 0)
			ret = submit_project(A, rk[k], wproj, k, 1, seq);
		if (ret == HYLA_SUCCESS)
			ret = TASK(cgs_panel)(ak, rk[k], wpanel, c, passes, 0, seq);
		if (passes == 2 && k > 0) {
			if (ret == HYLA_SUCCESS)
				ret = submit_project(A, rk[k], wproj, k, 2, seq);
			if (ret == HYLA_SUCCESS)
				ret = TASK(cgs_panel)(ak, rk[k], wpanel, c, 1, 1, seq);
		}
		if (ret == HYLA_SUCCESS && k + 1 < A->nt) /* while panel k is factored */
			ret = TYPED(hyla__gs_columns)(A, info, k + 1);
		hyla__write_back(A, 0, k);
		hyla__progress_mark(ak, k + 1, A->nt);
	}
	hyla__workspace_release(wproj);
	hyla__workspace_release(wpanel);
	return ret;
}

/* The original columns V: a copy of A, StarPU's own memory. */
static int submit_vector(const hyla_desc *A, const hyla_desc *info, starpu_data_handle_t *rk,
                         hyla_sequence *seq)
{
	hyla_desc V;
	int ret = hyla__desc_register(&V, NULL, A->m, A->n, A->m, A->m, A->nb, sizeof(real_t));
	if (ret != HYLA_SUCCESS)
		return ret;
	for (int64_t p = 0; p < A->nt && ret == HYLA_SUCCESS; p++)
		ret = TYPED(hyla__gs_columns)(A, info, p);
	starpu_data_handle_t w = WORKSPACE(cgs)(A->n, A->nb, 0);
	for (int64_t p = 0; p < A->nt && ret == HYLA_SUCCESS; p++)
		if (starpu_data_cpy(V.tiles[p], A(p), 1, NULL, NULL))
			ret = HYLA_ERROR(HYLA_ERR_SUBMIT, "StarPU refused to copy panel %lld", (long long)p);
	for (int64_t i = 0; i < A->n && ret == HYLA_SUCCESS; i++) {
		int64_t k = i / A->nb, j = i % A->nb;
		for (int64_t p = k; p < A->nt && ret == HYLA_SUCCESS; p++)
			ret = TYPED(hyla__insert_cgs_vector)(A(k), A(p), V.tiles[p], rk[p], w,
			                                     i, j, p <= k + 1 ? STARPU_MAX_PRIO
			                                                     : STARPU_DEFAULT_PRIO, seq);
		if (j + 1 == hyla__tile_cols(A, k)) {
			hyla__write_back(A, 0, k);
			hyla__progress_mark(A(k), k + 1, A->nt);
		}
	}
	hyla__workspace_release(w);
	hyla__desc_unregister_submit(&V);
	return ret;
}

/* Submits the factorisation of A (column-panel views) with R into r, and
 * the sequence's fence; the wait finds a dependent column (gs_columns.c). */
static int submit_cgs(const hyla_desc *A, real_t *r, int64_t ldr, hyla_cgs_variant variant,
                      hyla_sequence *seq)
{
	starpu_data_handle_t *rk = malloc(sizeof *rk * (size_t)A->nt); /* the sequence's */
	if (!rk)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for %lld handles", (long long)A->nt);
	/* R below its column blocks (no handle's) zeroed while the tasks start. */
	struct hyla_clear clear;
	hyla__clear_start(&clear, A->n, A->nb, r, ldr, sizeof(real_t));
	hyla_desc info = {0};
	int ret = register_r_columns(rk, r, ldr, A, seq);
	if (ret == HYLA_SUCCESS && !A->out_of_core) /* each projection reads its R column */
		hyla__prefetch(rk, A->nt);
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__gs_begin)(A, r, ldr, &info, seq);
	if (ret == HYLA_SUCCESS)
		ret = variant == HYLA_CGS_VECTOR
		          ? submit_vector(A, &info, rk, seq)
		          : submit_blocked(A, &info, rk, variant == HYLA_CGS2 ? 2 : 1, seq);
	if (ret == HYLA_SUCCESS)
		ret = hyla__sequence_fence(seq, A, NULL);
	hyla__clear_finish(&clear);
	free(rk), free(info.tiles); /* the handles are the sequence's */
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_dcgs(int64_t m, int64_t n, double *a, int64_t lda, double *r, int64_t ldr,
              const hyla_options *opts)
#else
int hyla_scgs(int64_t m, int64_t n, float *a, int64_t lda, float *r, int64_t ldr,
              const hyla_options *opts)
#endif
{
	hyla_options o;
	int ret = hyla__check_gs_args(m, n, a, lda, r, ldr);
	if (ret == HYLA_SUCCESS)
		ret = hyla__options_check(opts, 7, &o);
	if (ret != HYLA_SUCCESS || n == 0 || (ret = hyla__ensure_init()) != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	int64_t nb = o.nb ? o.nb : hyla__default_nb("cgs", m, n);
	if (o.cgs_variant == HYLA_CGS_VECTOR && nb > HYLA_CGS_MAX_NB)
		nb = HYLA_CGS_MAX_NB;
	/* Out of core a projection holds its panel, a column block of up to a
	 * quarter of the memory, R's column and its workspace: panels of at
	 * most a sixteenth (an eighth, 6 MB under 48 MB, waited for ever). The
	 * vector form needs its matrix whole. */
	int blocked = o.cgs_variant != HYLA_CGS_VECTOR;
	hyla_desc A;
	void *pinned[2] = {NULL, NULL};
	ret = blocked ? hyla__fits_panels(m, n, nb < n ? nb : n, sizeof(real_t), 16) : HYLA_SUCCESS;
	if (ret == HYLA_SUCCESS) {
		pinned[0] = hyla__pin(a, m, n, lda, sizeof(real_t));
		pinned[1] = hyla__pin(r, n, n, ldr, sizeof(real_t));
		ret = hyla__desc_register_streamed(&A, a, m, n, lda, nb < n ? nb : n, sizeof(real_t),
		                                   blocked ? HYLA_LAYOUT_BLOCKS : HYLA_LAYOUT_WHOLE);
	}
	if (ret == HYLA_SUCCESS) {
		hyla_sequence seq = {0};
		ret = hyla__finish_sync(&seq, &A, submit_cgs(&A, r, ldr, o.cgs_variant, &seq));
	}
	hyla__unpin(pinned[0]);
	hyla__unpin(pinned[1]);
	hyla__context_leave(&o, outer);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_dcgs_async(hyla_matrix *a, double *r, int64_t ldr, const hyla_options *opts,
                    hyla_sequence *seq)
#else
int hyla_scgs_async(hyla_matrix *a, float *r, int64_t ldr, const hyla_options *opts,
                    hyla_sequence *seq)
#endif
{
	const hyla_desc *A;
	hyla_options o;
	int ret = hyla__matrix_desc(a, sizeof(real_t), 1, &A);
	if (ret == HYLA_SUCCESS)
		ret = hyla__check_gs_async_args(A, r, ldr);
	if (ret == HYLA_SUCCESS)
		ret = hyla__async_args(opts, 4, seq, &o);
	if (ret == HYLA_SUCCESS && o.cgs_variant == HYLA_CGS_VECTOR && A->nb > HYLA_CGS_MAX_NB)
		ret = HYLA_ERROR(-1, "the vector variant takes panels of at most %d columns",
		                 HYLA_CGS_MAX_NB);
	if (ret != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	ret = submit_cgs(A, r, ldr, o.cgs_variant, seq);
	return hyla__async_done(seq, &o, outer, ret);
}

#ifdef HYLA_PREC_D
int hyla_dqr_to_umu(int64_t m, int64_t n, double *q, int64_t ldq, double *r, int64_t ldr)
#else
int hyla_sqr_to_umu(int64_t m, int64_t n, float *q, int64_t ldq, float *r, int64_t ldr)
#endif
{
	int ret = hyla__check_gs_args(m, n, q, ldq, r, ldr);
	if (ret != HYLA_SUCCESS)
		return ret;
	for (int64_t j = 0; j < n; j++) {
		real_t d = r[j + j * ldr];
		for (int64_t i = 0; i < m; i++)
			q[i + j * ldq] *= d;
		for (int64_t k = j; k < n; k++)
			r[j + k * ldr] /= d;
	}
	return HYLA_SUCCESS;
}
