/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Householder QR as a task graph (Kerr, Campbell and Richards 2009), with
 * LAPACK dgeqrf's output: R on and above the diagonal, the reflectors below
 * it, tau(0:min(m,n)). Typed source: see runtime/precision.h.
 *
 * The first min(m, n) columns are column panels of width nb (views of one
 * handle), the columns after them (m < n) a second matrix of panels. The
 * asynchronous call takes the caller's panels as they are: for m < n, the
 * panels wholly left of column m, then the others, whose last m mod nb
 * rows go to LAPACK's dgeqrf in a last task (CPU). For each panel k:
 *   panel(k)      LAPACK's dgeqrf on its rows from c0 on and the block
 *                 reflector's T (LAPACK's dlarft), on a core or the GPU;
 *   update(k, c)  Q_k^T = (I - V T V^T)^T on rows c0.. of the later panels:
 *                 without a GPU the next one alone and first (so the next
 *                 panel can start: look-ahead), the others in groups
 *                 (hyla__update_group);
 * with a GPU, from the second panel on, update(k - 1, all) and panel(k) in
 * one step task, where the panel runs beside the update of the panels after
 * it (look-ahead on two streams). The columns after min(m, n) are updated
 * by each panel in one task. The LAPACK-style call streams the matrix to
 * the GPU (panel by panel, in order) and starts with the first head panels
 * alone (see struct geqrf_run); a matrix larger than its GPU's memory goes
 * left-looking by column blocks instead (submit_geqrf_blocks). */
#include <stdlib.h>
#include "algorithms.h"
#include "codelets.h"
#include "runtime.h"
#include "typed.h"

/* Accessors (Chameleon's A(m, n)): panel k of the column panels A, the
 * panels from k on (an array of handles). */
#define A(k) hyla__tile(A, 0, k)
#define A_FROM(k) (&A->tiles[k])

struct geqrf_run {
	const hyla_desc *A, *B, *tau; /* B: the columns after min(m, n), or NULL */
	starpu_data_handle_t w, scratch;
	starpu_data_handle_t work; /* with a GPU, the steps' (and out of core the blocks')
	                              workspace; else NULL */
	int64_t group;
	int lookahead;
	/* With a GPU and the matrix arriving there panel by panel (the
	 * LAPACK-style call): the steps of the first head panels update only
	 * those, and once head - 1 of them are factored, their reflectors go to
	 * the panels after the head in tasks of head panels, as their copies
	 * come; 0: the matrix is there already. */
	int64_t head;
};

/* update(k, ...) on the panels [first, last) of d, the first one alone when
 * it is next in line. */
static int submit_updates(const struct geqrf_run *r, starpu_data_handle_t v,
                          starpu_data_handle_t t, int64_t c0, const hyla_desc *d, int64_t first,
                          int next_alone)
{
	int ret = HYLA_SUCCESS;
	for (int64_t c = first; c < d->nt && ret == HYLA_SUCCESS;) {
		int alone = next_alone && c == first;
		int64_t count = alone ? 1 : (d->nt - c < r->group ? d->nt - c : r->group);
		ret = TASK(larfb)(v, t, r->w, &d->tiles[c], (int)count, c0, 1,
		                                      alone ? STARPU_MAX_PRIO : STARPU_DEFAULT_PRIO);
		c += count;
	}
	return ret;
}

/* The head's reflectors (panels [0, head - 1)) as one block reflector on
 * the panels after the head, head of them a task. */
static int submit_head(const struct geqrf_run *r)
{
	const hyla_desc *A = r->A;
	int count = (int)r->head - 1;
	int64_t width = count * A->nb; /* the block reflector's */
	starpu_data_handle_t *tau = malloc(sizeof *tau * (size_t)count);
	if (!tau)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for %d handles", count);
	for (int j = 0; j < count; j++)
		tau[j] = hyla__tile(r->tau, j, 0);
	starpu_data_handle_t t = hyla__workspace(width, width, sizeof(real_t));
	starpu_data_handle_t work = hyla__workspace_vector(width * r->head * A->nb, sizeof(real_t));
	int ret = TYPED(hyla__insert_geqrf_head_t)(A->tiles, tau, count, t);
	for (int64_t g = r->head; g < A->nt && ret == HYLA_SUCCESS; g += r->head)
		ret = TYPED(hyla__insert_geqrf_head)(A->tiles, count, t, work, A_FROM(g),
		                                     (int)(A->nt - g < r->head ? A->nt - g : r->head));
	hyla__workspace_release(t);
	hyla__workspace_release(work);
	free(tau);
	return ret;
}

/* Step k with a GPU: update(k - 1) and panel(k) in one task on the
 * panels of k's column block from k on (of the head, while it lasts), then
 * update(k - 1) on each later block (the matrix spread over the GPUs), a
 * task a block on the block's GPU, the next block's first (its first
 * panel is the next block's first step's). */
static int submit_step(const struct geqrf_run *r, int64_t k, starpu_data_handle_t t_prev,
                       starpu_data_handle_t t)
{
	const hyla_desc *A = r->A;
	const struct hyla_block *b = hyla__desc_block(A, k);
	int64_t end = k < r->head ? r->head : b->end;
	int ret = TASK(geqrf_step)(A(k - 1), t_prev, r->work, A_FROM(k), (int)(end - k),
	                           hyla__tile(r->tau, k, 0), t, r->scratch, k * A->nb);
	for (const struct hyla_block *c = b + 1; c < A->blocks + A->nblocks && ret == HYLA_SUCCESS; c++)
		ret = TASK(larfb)(A(k - 1), t_prev, r->work, A_FROM(c->first), (int)(c->end - c->first),
		                  (k - 1) * A->nb, 1, c == b + 1 ? STARPU_MAX_PRIO : STARPU_DEFAULT_PRIO);
	return ret;
}

/* Out of core (a matrix larger than the GPU's memory, in blocks that fit
 * it with room to spare): left-looking by blocks, so that the bus carries
 * the earlier panels' reflectors (m nb a panel) rather than the trailing
 * matrix at every step. Block i takes each earlier panel's Q^T in order,
 * then its own steps; its tasks are submitted once block i - 2's are done,
 * so that at most two blocks and the reflectors read are wanted on the GPU
 * at once (dmda would otherwise start every block's updates as soon as
 * their reflectors exist). Every T is kept for the later blocks. */
static int submit_geqrf_blocks(const struct geqrf_run *r)
{
	const hyla_desc *A = r->A;
	starpu_data_handle_t *t = calloc((size_t)A->nt, sizeof *t);
	if (!t)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for %lld T handles", (long long)A->nt);
	int ret = HYLA_SUCCESS;
	for (int i = 0; i < A->nblocks && ret == HYLA_SUCCESS; i++) {
		const struct hyla_block *b = &A->blocks[i];
		int count = (int)(b->end - b->first);
		if (i >= 2)
			hyla__wait_tasks(A(A->blocks[i - 2].end - 1));
		for (int64_t k = 0; k < b->first && ret == HYLA_SUCCESS; k++)
			ret = TASK(larfb)(A(k), t[k], r->work, A_FROM(b->first), count, k * A->nb, 1,
			                  STARPU_DEFAULT_PRIO);
		for (int64_t k = b->first; k < b->end && ret == HYLA_SUCCESS; k++) {
			int64_t c0 = k * A->nb, w = hyla__tile_cols(A, k);
			starpu_data_handle_t tau = hyla__tile(r->tau, k, 0);
			t[k] = hyla__workspace(w, w, sizeof(real_t));
			ret = k == b->first ? TASK(geqrf_panel)(A(k), tau, t[k], r->scratch, c0)
			                    : TASK(geqrf_step)(A(k - 1), t[k - 1], r->work, A_FROM(k),
			                                       (int)(b->end - k), tau, t[k], r->scratch, c0);
			if (ret == HYLA_SUCCESS && r->B)
				ret = submit_updates(r, A(k), t[k], c0, r->B, 0, 0);
			hyla__write_back(A, 0, k);
			hyla__progress_mark(A(k), k + 1, A->nt);
		}
	}
	for (int64_t k = 0; k < A->nt; k++)
		hyla__workspace_release(t[k]);
	free(t);
	return ret;
}

static int submit_geqrf(const struct geqrf_run *r)
{
	if (r->A->out_of_core && r->work)
		return submit_geqrf_blocks(r);
	const hyla_desc *A = r->A;
	int ret = HYLA_SUCCESS;
	starpu_data_handle_t t_prev = NULL;
	for (int64_t k = 0; k < A->nt && ret == HYLA_SUCCESS; k++) {
		int64_t c0 = k * A->nb, w = hyla__tile_cols(A, k);
		starpu_data_handle_t panel = A(k), tau = hyla__tile(r->tau, k, 0);
		starpu_data_handle_t t = hyla__workspace(w, w, sizeof(real_t));
		if (r->work && k > 0)
			ret = submit_step(r, k, t_prev, t);
		else
			ret = TASK(geqrf_panel)(panel, tau, t, r->scratch, c0);
		if (ret == HYLA_SUCCESS && !r->work)
			ret = submit_updates(r, panel, t, c0, A, k + 1, r->lookahead);
		if (ret == HYLA_SUCCESS && r->B)
			ret = submit_updates(r, panel, t, c0, r->B, 0, 0);
		hyla__workspace_release(t_prev);
		t_prev = t;
		hyla__write_back(A, 0, k);
		hyla__progress_mark(panel, k + 1, A->nt);
		if (ret == HYLA_SUCCESS && k + 1 == r->head)
			ret = submit_head(r);
	}
	hyla__workspace_release(t_prev);
	return ret;
}

/* Submits the factorisation of A (the first min(m, n) columns, or for
 * m < n as many as a multiple of nb fits) and B (the columns after them,
 * or NULL) with tau (registered here, in the caller's memory once the
 * sequence is waited for) and the sequence's fence. B's rows below A's
 * columns, if any: LAPACK's dgeqrf, a last task. */
static int submit_call(const hyla_desc *A, const hyla_desc *B, real_t *tau,
                       const hyla_options *o, hyla_sequence *seq, int64_t head)
{
	int64_t nb = A->nb, n = A->n + (B ? B->n : 0), k = A->m < n ? A->m : n;
	hyla_desc T;
	int ret = hyla__desc_register(&T, tau, k, 1, k, nb, 1, sizeof(real_t));
	if (ret != HYLA_SUCCESS)
		return ret;
	ret = hyla__sequence_own_tiles(seq, &T);
	struct geqrf_run run = {.A = A, .B = B, .tau = &T};
	if (head >= 2 && head + 1 < A->nt)
		run.head = head;
	int64_t group = run.group = hyla__update_group(B && B->nt > A->nt ? B->nt : A->nt,
	                                               hyla__update_width(o, n), nb, &run.lookahead);
	if (ret == HYLA_SUCCESS) {
		run.scratch = WORKSPACE(geqrf)(nb);
		run.w = hyla__workspace_vector(nb * group * nb, sizeof(real_t));
		if (hyla_ncuda() > 0)
			run.work = hyla__workspace_vector(nb * A->n, sizeof(real_t));
		ret = submit_geqrf(&run);
		hyla__workspace_release(run.w);
		hyla__workspace_release(run.scratch);
		hyla__workspace_release(run.work);
	}
	if (ret == HYLA_SUCCESS && A->n < k) {
		starpu_data_handle_t scratch = WORKSPACE(geqrf)(B->n);
		ret = TYPED(hyla__insert_geqrf_tail)(hyla__tile(&T, A->nt, 0), scratch, B->tiles,
		                                     (int)B->nt, A->n);
		hyla__workspace_release(scratch);
	}
	if (ret == HYLA_SUCCESS)
		ret = hyla__sequence_fence(seq, A, B);
	free(T.tiles); /* the handles are the sequence's */
	return ret;
}

/* The task graph on the m-by-n a, k = min(m, n) > nb. */
static int geqrf_graph(int64_t m, int64_t n, real_t *a, int64_t lda, real_t *tau,
                       const hyla_options *o, int64_t nb)
{
	int64_t k = m < n ? m : n;
	hyla_desc A, B = {0};
	/* Column blocks (over GPUs, out of core) for m >= n: a wide matrix's
	 * columns after the first m are one matrix on one GPU, beside them. */
	int ret = n > k ? hyla__fits_whole(m, n, 0, sizeof(real_t)) : HYLA_SUCCESS;
	void *pinned = ret == HYLA_SUCCESS ? hyla__pin(a, m, n, lda, sizeof(real_t)) : NULL;
	if (ret == HYLA_SUCCESS)
		ret = hyla__desc_register_streamed(&A, a, m, k, lda, nb, sizeof(real_t),
		                                   m >= n ? HYLA_LAYOUT_SPREAD : HYLA_LAYOUT_WHOLE);
	if (ret == HYLA_SUCCESS && n > k &&
	    (ret = hyla__desc_register_views(&B, a + k * lda, m, n - k, lda, nb, sizeof(real_t))) !=
	        HYLA_SUCCESS)
		hyla__desc_unregister(&A);
	if (ret == HYLA_SUCCESS) {
		hyla_sequence seq = {0};
		/* The first 1024 columns' steps beside the later columns' copy. */
		int64_t head = A.nblocks == 1 && A.blocks[0].room ? (1024 + nb - 1) / nb : 0;
		ret = hyla__finish_sync(&seq, &A, submit_call(&A, n > k ? &B : NULL, tau, o, &seq, head));
		hyla__desc_unregister(&B);
	}
	hyla__unpin(pinned);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_dgeqrf(int64_t m, int64_t n, double *a, int64_t lda, double *tau, const hyla_options *opts)
#else
int hyla_sgeqrf(int64_t m, int64_t n, float *a, int64_t lda, float *tau, const hyla_options *opts)
#endif
{
	hyla_options o;
	int ret = hyla__check_geqrf_args(m, n, a, lda, tau);
	if (ret == HYLA_SUCCESS)
		ret = hyla__options_check(opts, 6, &o);
	if (ret != HYLA_SUCCESS || m == 0 || n == 0 || (ret = hyla__ensure_init()) != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	int64_t nb = o.nb ? o.nb : hyla__default_nb("geqrf", m, n);
	ret = (m < n ? m : n) <= nb ? TYPED(hyla__host_geqrf)(m, n, a, lda, tau)
	                            : geqrf_graph(m, n, a, lda, tau, &o, nb);
	hyla__context_leave(&o, outer);
	return ret;
}

/* Panels [first, first + count) of a as a descriptor of their own (a's
 * handles, not registered again). */
static hyla_desc panels(const hyla_desc *a, int64_t first, int64_t count)
{
	hyla_desc d = *a;
	d.ptr += (size_t)(first * a->nb * a->ld) * a->elsize;
	d.n = first + count < a->nt ? count * a->nb : a->n - first * a->nb;
	d.nt = count;
	d.tiles = a->tiles + first;
	d.blocks[0] = (struct hyla_block){.node = a->blocks[0].node, .end = count};
	return d;
}

#ifdef HYLA_PREC_D
int hyla_dgeqrf_async(hyla_matrix *a, double *tau, const hyla_options *opts, hyla_sequence *seq)
#else
int hyla_sgeqrf_async(hyla_matrix *a, float *tau, const hyla_options *opts, hyla_sequence *seq)
#endif
{
	const hyla_desc *A;
	hyla_options o;
	int ret = hyla__matrix_desc(a, sizeof(real_t), 1, &A);
	if (ret == HYLA_SUCCESS && !tau)
		ret = HYLA_ERROR(-2, "tau is NULL");
	if (ret == HYLA_SUCCESS)
		ret = hyla__async_args(opts, 3, seq, &o);
	if (ret != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	if (A->m >= A->n) {
		ret = submit_call(A, NULL, tau, &o, seq, 0);
	} else {
		/* Wide: the panels wholly left of column m (none for m < nb), then
		 * the others. */
		int64_t full = A->m / A->nb;
		hyla_desc V = panels(A, 0, full), B = panels(A, full, A->nt - full);
		ret = submit_call(&V, &B, tau, &o, seq, 0);
	}
	return hyla__async_done(seq, &o, outer, ret);
}
