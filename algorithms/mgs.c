/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Modified Gram-Schmidt QR as a task graph (Brandes et al. 2012).
 * Typed source: see runtime/precision.h.
 *
 * The matrix is cut into column panels of width nb. For each panel k:
 *   panel(k)        MGS inside the panel: Q1 and R(k,k), and G = Q1^T Q1;
 *   update(k -> p)  for each later panel p: R(k,p) = (I + L)^{-1} Q1^T A_p,
 *                   A_p -= Q1 R(k,p), with L = strict_lower(G).
 * (I + L)^{-1} makes the nb projections, applied at once, equal to MGS's
 * applied one after the other: r_i = q_i^T a - sum_{j<i} (q_i^T q_j) r_j.
 * The vector form factors one column at a time (c1 = c0 + 1), so each step
 * is a GEMV^T and a GER over every remaining column. */
#include <math.h>
#include <stdlib.h>
#include "algorithms.h"
#include "codelets.h"
#include "typed.h"
#include "runtime.h"

#define A(k) hyla__tile(A, 0, k)
#define R(k, p) hyla__tile(R, k, p)
#define G(k) hyla__tile(G, 0, k)

static int submit_mgs(const hyla_desc *A, const hyla_desc *R, const hyla_desc *G,
                      const hyla_desc *info, starpu_data_handle_t scratch, hyla_mgs_form form,
                      hyla_sequence *seq)
{
	const int critical = STARPU_MAX_PRIO, normal = STARPU_DEFAULT_PRIO;
	for (int64_t k = 0; k < A->nt; k++) {
		int64_t wk = hyla__tile_cols(A, k);
		int64_t step = form == HYLA_MGS_VECTOR ? 1 : wk;
		for (int64_t c0 = 0; c0 < wk; c0 += step) {
			int64_t c1 = c0 + step;
			int first = k == 0 && c0 == 0; /* each panel's first access comes next */
			int ret = first ? TYPED(hyla__gs_columns)(A, info, 0) : HYLA_SUCCESS;
			if (ret == HYLA_SUCCESS)
				ret = TASK(mgs_panel)(A(k), R(k, k), G(k), scratch, c0, c1, k * A->nb,
				                      critical, seq);
			for (int64_t p = k + 1; p < A->nt && ret == HYLA_SUCCESS; p++) {
				if (first)
					ret = TYPED(hyla__gs_columns)(A, info, p);
				if (ret == HYLA_SUCCESS)
					ret = TASK(mgs_update)(A(k), G(k), A(p), R(k, p), c0, c1,
					                       p == k + 1 ? critical : normal, seq);
			}
			if (ret != HYLA_SUCCESS)
				return ret;
		}
		/* Q_k and row block k of R are final: write them back while the
		 * rest goes on, rather than all at the end. */
		hyla__write_back(A, 0, k);
		for (int64_t p = k; p < A->nt; p++)
			hyla__write_back(R, k, p);
		hyla__progress_mark(G(k), k + 1, A->nt);
	}
	return HYLA_SUCCESS;
}

/* R's tiles on and above the diagonal, in the caller's r, the sequence's to
 * unregister, and sent to the GPU by block row, their order; the ones below
 * are no task's (NULL). */
static int register_r_upper(hyla_desc *R, real_t *r, int64_t n, int64_t ldr, int64_t nb,
                            hyla_sequence *seq)
{
	int64_t nt = (n + nb - 1) / nb;
	*R = (hyla_desc){.ptr = (char *)r, .m = n, .n = n, .ld = ldr, .mb = nb, .nb = nb, .mt = nt,
	                 .nt = nt, .elsize = sizeof(real_t)};
	if (!(R->tiles = calloc((size_t)(nt * nt), sizeof *R->tiles)))
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for %lld tile handles", (long long)(nt * nt));
	int ret = HYLA_SUCCESS;
	for (int64_t k = 0; k < nt && ret == HYLA_SUCCESS; k++)
		for (int64_t p = k; p < nt && ret == HYLA_SUCCESS; p++) {
			starpu_data_handle_t *tile = &R->tiles[k + p * nt];
			starpu_matrix_data_register(tile, STARPU_MAIN_RAM, (uintptr_t)(r + k * nb + p * nb * ldr),
			                            (uint32_t)ldr, (uint32_t)hyla__tile_rows(R, k),
			                            (uint32_t)hyla__tile_cols(R, p), sizeof(real_t));
			ret = hyla__sequence_own(seq, *tile);
			if (ret == HYLA_SUCCESS)
				hyla__prefetch(tile, 1);
		}
	return ret;
}

/* Submits the factorisation of A with R's tiles over r (registered here, the
 * sequence owns them) and the sequence's fence; the wait finds a dependent
 * column (gs_columns.c). */
static int submit_call(const hyla_desc *A, real_t *r, int64_t ldr, hyla_mgs_form form,
                       hyla_sequence *seq)
{
	int64_t n = A->n, nb = A->nb;
	/* R below its diagonal blocks (no handle's) zeroed while the tasks start. */
	struct hyla_clear clear;
	hyla__clear_start(&clear, n, nb, r, ldr, sizeof(real_t));
	hyla_desc R, G, info = {0};
	int ret = register_r_upper(&R, r, n, ldr, nb, seq);
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__gs_begin)(A, r, ldr, &info, seq);
	if (ret == HYLA_SUCCESS)
		ret = hyla__desc_register(&G, NULL, nb, A->nt * nb, nb, nb, nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS) {
		starpu_data_handle_t scratch = WORKSPACE(mgs)();
		ret = submit_mgs(A, &R, &G, &info, scratch, form, seq);
		hyla__workspace_release(scratch);
		hyla__desc_unregister_submit(&G);
	}
	if (ret == HYLA_SUCCESS)
		ret = hyla__sequence_fence(seq, A, NULL);
	hyla__clear_finish(&clear);
	free(R.tiles), free(info.tiles); /* the handles are the sequence's */
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_dmgs(int64_t m, int64_t n, double *a, int64_t lda, double *r, int64_t ldr,
              const hyla_options *opts)
#else
int hyla_smgs(int64_t m, int64_t n, float *a, int64_t lda, float *r, int64_t ldr,
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
	int64_t nb = o.nb ? o.nb : hyla__default_nb("mgs", m, n);
	/* Separate panels (not views), out of core where they must be, sent to
	 * the GPU in order as the first tasks run (here only: an application's
	 * may have tasks pending). */
	hyla_desc A;
	void *pinned[2] = {NULL, NULL};
	ret = hyla__fits_panels(m, n, nb < n ? nb : n, sizeof(real_t), 8);
	if (ret == HYLA_SUCCESS) {
		pinned[0] = hyla__pin(a, m, n, lda, sizeof(real_t));
		pinned[1] = hyla__pin(r, n, n, ldr, sizeof(real_t));
		ret = hyla__desc_register(&A, a, m, n, lda, m, nb < n ? nb : n, sizeof(real_t));
	}
	if (ret == HYLA_SUCCESS) {
		hyla__prefetch(A.tiles, A.nt);
		hyla_sequence seq = {0};
		ret = hyla__finish_sync(&seq, &A, submit_call(&A, r, ldr, o.mgs_form, &seq));
	}
	hyla__unpin(pinned[0]);
	hyla__unpin(pinned[1]);
	hyla__context_leave(&o, outer);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_dmgs_async(hyla_matrix *a, double *r, int64_t ldr, const hyla_options *opts,
                    hyla_sequence *seq)
#else
int hyla_smgs_async(hyla_matrix *a, float *r, int64_t ldr, const hyla_options *opts,
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
	if (ret != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	ret = submit_call(A, r, ldr, o.mgs_form, seq);
	return hyla__async_done(seq, &o, outer, ret);
}
