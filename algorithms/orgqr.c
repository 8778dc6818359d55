/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Q from Householder reflectors as LAPACK's dgeqrf leaves them (dorgqr's
 * contract), as a task graph. Typed source: see runtime/precision.h.
 *
 * The k reflector columns are column panels (views of one handle); with
 * k < n the columns after them, which start as the identity's (LAPACK's
 * way), are a second set of panels. Reflector panel by panel from the last:
 *   t(i)         the panel's T (LAPACK's dlarft, on a core or the GPU);
 *   apply(i, c)  (I - V T V^T) on the later panels c of both sets (GPU where
 *                the models say so), in groups (hyla__update_group);
 *   form(i)      the panel's own columns of Q;
 * with a GPU, apply(i) on the first set, form(i) and t(i - 1) in one step
 * task, t(i - 1) on a second stream. With a GPU and Q wanted in the host's
 * memory, large matrices go by groups of panels, each going home while the
 * GPU forms the next (submit_orgqr_groups). */
#include <stdlib.h>
#include "algorithms.h"
#include "codelets.h"
#include "runtime.h"
#include "typed.h"

/* Accessors (Chameleon's A(m, n)): panel k of the column panels A, the
 * panels from k on (an array of handles). */
#define A(k) hyla__tile(A, 0, k)
#define A_FROM(k) (&A->tiles[k])

/* submit_orgqr_groups: 4 groups (the last one smaller) from 12 panels on.
 * H100, orgqr with Q going home, one pass against 4 groups: 8000 (nb 512)
 * 0.036-0.039 s against 0.032-0.034 s (8 groups 0.035-0.038 s), 16384
 * 0.197 s against 0.162 s; 4000 (2 panels a group) 0.0105-0.0109 s against
 * 0.0107-0.0114 s. */
enum { ORGQR_GROUPS = 4, ORGQR_GROUP_PANELS = 3 };

/* apply(panel, ...) on the panels [first, d->nt) of d in groups, the first
 * alone when it is next in line. */
static int submit_applies(starpu_data_handle_t panel, starpu_data_handle_t t, starpu_data_handle_t w,
                          int64_t c0, const hyla_desc *d, int64_t first, int next_alone,
                          int64_t group)
{
	int ret = HYLA_SUCCESS;
	for (int64_t c = first; c < d->nt && ret == HYLA_SUCCESS;) {
		int alone = next_alone && c == first;
		int64_t count = alone ? 1 : (d->nt - c < group ? d->nt - c : group);
		ret = TASK(larfb)(panel, t, w, &d->tiles[c], (int)count, c0, 0,
		                  alone ? STARPU_MAX_PRIO : STARPU_DEFAULT_PRIO);
		c += count;
	}
	return ret;
}

/* The T of panel i, registered here (unregister_submit it after its uses). */
static int submit_t(const hyla_desc *A, const hyla_desc *tau, int64_t i, starpu_data_handle_t *t)
{
	int64_t w = hyla__tile_cols(A, i);
	*t = hyla__workspace(w, w, sizeof(real_t));
	return TASK(larft)(A(i), hyla__tile(tau, i, 0), *t, i * A->nb, STARPU_MAX_PRIO);
}

/* With a GPU (steps), panel i's apply and form and panel i - 1's T in one
 * step task; without, as tasks of their own. */
static int submit_orgqr(const hyla_desc *A, const hyla_desc *B, const hyla_desc *tau,
                        starpu_data_handle_t w_apply, starpu_data_handle_t w_form, int64_t group,
                        int lookahead, int steps)
{
	starpu_data_handle_t t = NULL, next = NULL;
	/* The reflectors go to the GPU as the tasks come to them, the last
	 * first, while the earlier tasks run. */
	int ret = hyla__desc_send_panel(A, A->nt - 1);
	if (ret == HYLA_SUCCESS)
		ret = submit_t(A, tau, A->nt - 1, &t);
	for (int64_t i = A->nt - 1; i >= 0 && ret == HYLA_SUCCESS; i--) {
		int64_t c0 = i * A->nb;
		starpu_data_handle_t panel = A(i);
		if (i > 0) /* panel i - 1: its T is made in this round */
			ret = hyla__desc_send_panel(A, i - 1);
		/* The columns after the reflectors first: the step overwrites the panel. */
		if (B && ret == HYLA_SUCCESS)
			ret = submit_applies(panel, t, w_apply, c0, B, 0, 0, group);
		if (ret == HYLA_SUCCESS && steps) {
			int64_t w = i > 0 ? hyla__tile_cols(A, i - 1) : 0;
			if (i > 0)
				next = hyla__workspace(w, w, sizeof(real_t));
			ret = TASK(orgqr_step)(panel, t, w_form, w_apply, i > 0 ? A(i - 1) : NULL,
			                       i > 0 ? hyla__tile(tau, i - 1, 0) : NULL, next,
			                       A_FROM(i + 1), (int)(A->nt - i - 1), c0);
		} else if (ret == HYLA_SUCCESS) {
			/* Without a GPU the panel next to this one first: the next
			 * step's apply waits on it. */
			ret = submit_applies(panel, t, w_apply, c0, A, i + 1, lookahead, group);
			if (ret == HYLA_SUCCESS)
				ret = TYPED(hyla__insert_orgqr_form)(panel, t, w_form, c0, STARPU_MAX_PRIO);
			if (ret == HYLA_SUCCESS && i > 0)
				ret = submit_t(A, tau, i - 1, &next);
		}
		hyla__workspace_release(t);
		t = next, next = NULL;
		hyla__progress_mark(panel, A->nt - i, A->nt);
	}
	hyla__workspace_release(t);
	return ret;
}

/* The first panel of the group submitted last on the GPU of the group
 * [first, end): the next group, or with the matrix spread over the GPUs
 * (a group a block) the next one on the same GPU; nt if none. */
static int64_t previous_on_gpu(const hyla_desc *A, int64_t first, int64_t end)
{
	if (A->nblocks == 1)
		return end;
	const struct hyla_block *b = hyla__desc_block(A, first);
	for (const struct hyla_block *c = b + 1; c < A->blocks + A->nblocks; c++)
		if (c->node == b->node)
			return c->first;
	return A->nt;
}

/* With a GPU, no columns after the reflectors and Q wanted home before the
 * call returns: Q by groups of per_group panels, the last group first, so
 * that each group's columns go home while the GPU works on the next (in
 * submit_orgqr's one pass every column is final only after the last step).
 * Group [first, end)'s columns are H(0) ... H(end - 1) E: its own steps from
 * end - 1 down to first, then the earlier panels' block reflectors on its
 * columns. From the last group, so that a panel's reflectors are overwritten
 * only after every later group has read them; the last group's tasks make
 * every T and read the reflectors in the order they are sent. A group is
 * submitted once the one before on its GPU is done: dmda would run them
 * interleaved, every group then ending near the end. With the matrix
 * spread over the GPUs the groups are its column blocks, each formed on its
 * own GPU beside the others. */
static int submit_orgqr_groups(const hyla_desc *A, const hyla_desc *tau,
                               starpu_data_handle_t w_apply, starpu_data_handle_t w_form,
                               int64_t per_group)
{
	int64_t nt = A->nt;
	starpu_data_handle_t *t = calloc((size_t)nt, sizeof *t);
	if (!t)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for orgqr's %lld T handles", (long long)nt);
	int ret = hyla__desc_send_panel(A, nt - 1);
	if (ret == HYLA_SUCCESS)
		ret = submit_t(A, tau, nt - 1, &t[nt - 1]);
	for (int64_t first = (nt - 1) / per_group * per_group; first >= 0 && ret == HYLA_SUCCESS;
	     first -= per_group) {
		int64_t end = first + per_group < nt ? first + per_group : nt;
		int64_t previous = previous_on_gpu(A, first, end);
		if (previous < nt)
			hyla__wait_tasks(A(previous));
		for (int64_t i = end - 1; i >= 0 && ret == HYLA_SUCCESS; i--) {
			int makes_t = end == nt && i > 0, own = i >= first;
			if (makes_t) {
				ret = hyla__desc_send_panel(A, i - 1);
				t[i - 1] = hyla__workspace(hyla__tile_cols(A, i - 1), hyla__tile_cols(A, i - 1),
				                           sizeof(real_t));
			}
			int64_t from = own ? i + 1 : first; /* the group's panels it updates */
			if (ret == HYLA_SUCCESS && (own || makes_t))
				ret = TYPED(hyla__insert_orgqr_step)(
					A(i), t[i], w_form, w_apply, makes_t ? A(i - 1) : NULL,
					makes_t ? hyla__tile(tau, i - 1, 0) : NULL, makes_t ? t[i - 1] : NULL,
					A_FROM(from), (int)(end - from), i * A->nb, own, STARPU_MAX_PRIO);
			else if (ret == HYLA_SUCCESS)
				ret = TASK(larfb)(A(i), t[i], w_apply, A_FROM(first), (int)(end - first),
				                  i * A->nb, 0, STARPU_MAX_PRIO);
		}
		for (int64_t p = first; p < end && ret == HYLA_SUCCESS; p++)
			hyla__write_back(A, 0, p);
		hyla__progress_mark(A(first), nt - first, nt);
	}
	for (int64_t i = 0; i < nt; i++)
		hyla__workspace_release(t[i]);
	free(t);
	return ret;
}

int TYPED(hyla__orgqr_submit)(const hyla_desc *A, const hyla_desc *B, const hyla_desc *tau,
                              const hyla_options *o, int home, hyla_sequence *seq)
{
	int64_t nb = A->nb;
	int lookahead, steps = hyla_ncuda() > 0;
	int64_t group = hyla__update_group(B && B->nt > A->nt ? B->nt : A->nt,
	                                   hyla__update_width(o, A->n), nb, &lookahead);
	int64_t per_group = A->nblocks > 1 ? A->blocks[0].end
	                    : home && steps && !B && A->nt >= ORGQR_GROUPS * ORGQR_GROUP_PANELS
	                        ? (A->nt + ORGQR_GROUPS - 1) / ORGQR_GROUPS
	                        : 0;
	int64_t widest = per_group > group ? per_group : group; /* the panels an apply takes */
	starpu_data_handle_t w_apply = hyla__workspace_vector(nb * widest * nb, sizeof(real_t));
	starpu_data_handle_t w_form = hyla__workspace_vector(2 * nb * nb, sizeof(real_t));
	int ret = per_group ? submit_orgqr_groups(A, tau, w_apply, w_form, per_group)
	                    : submit_orgqr(A, B, tau, w_apply, w_form, group, lookahead, steps);
	hyla__workspace_release(w_apply);
	hyla__workspace_release(w_form);
	return ret == HYLA_SUCCESS ? hyla__sequence_fence(seq, A, B) : ret;
}

int TYPED(hyla__ormqr_submit)(const hyla_desc *V, const hyla_desc *tau, const hyla_desc *C,
                              int64_t offset, const hyla_options *o)
{
	int64_t nb = V->nb;
	int lookahead;
	int64_t group = hyla__update_group(C->nt, hyla__update_width(o, C->n), C->nb, &lookahead);
	starpu_data_handle_t w = hyla__workspace_vector(nb * group * C->nb, sizeof(real_t));
	int ret = HYLA_SUCCESS;
	for (int64_t i = V->nt - 1; i >= 0 && ret == HYLA_SUCCESS; i--) {
		int64_t c0 = i * nb + offset;
		starpu_data_handle_t t = hyla__workspace(hyla__tile_cols(V, i), hyla__tile_cols(V, i),
		                                         sizeof(real_t));
		ret = TASK(larft)(hyla__tile(V, 0, i), hyla__tile(tau, i, 0), t, c0, STARPU_MAX_PRIO);
		for (int64_t c = 0; c < C->nt && ret == HYLA_SUCCESS; c += group) {
			int count = (int)(C->nt - c < group ? C->nt - c : group);
			ret = TASK(larfb)(hyla__tile(V, 0, i), t, w, &C->tiles[c], count, c0, 0,
			                  STARPU_DEFAULT_PRIO);
		}
		hyla__workspace_release(t);
	}
	hyla__workspace_release(w);
	return ret;
}

/* hyla__orgqr_submit with tau registered here (the sequence owns it). */
static int submit_call(const hyla_desc *A, const hyla_desc *B, const real_t *tau,
                       const hyla_options *o, int home, hyla_sequence *seq)
{
	hyla_desc T;
	int ret = hyla__sequence_vector(seq, &T, (real_t *)tau, A->n, A->nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__orgqr_submit)(A, B, &T, o, home, seq);
	free(T.tiles); /* the handles are the sequence's */
	return ret;
}

int TYPED(hyla__orgqr)(int64_t m, int64_t n, int64_t k, real_t *a, int64_t lda, const real_t *tau,
                       const hyla_options *o, int64_t nb)
{
	if (k <= nb)
		return TYPED(hyla__host_orgqr)(m, n, k, a, lda, tau);
	/* Columns past the k reflectors start as the identity's. */
	for (int64_t j = k; j < n; j++)
		for (int64_t i = 0; i < m; i++)
			a[i + j * lda] = i == j;
	hyla_desc A, B = {0};
	/* Spread over the GPUs only where Q is formed by groups (a group a block);
	 * a full Q's later columns whole beside the reflectors. */
	int fits = n == k || hyla__fits_whole(m, n, 0, sizeof(real_t)) == HYLA_SUCCESS;
	void *pinned = fits ? hyla__pin(a, m, n, lda, sizeof(real_t)) : NULL;
	int registered = fits && hyla__desc_register_reflectors(&A, a, m, k, lda, nb, sizeof(real_t),
	                                                n == k ? HYLA_LAYOUT_SPREAD
	                                                       : HYLA_LAYOUT_WHOLE) == HYLA_SUCCESS;
	if (registered && n > k &&
	    hyla__desc_register_views(&B, a + k * lda, m, n - k, lda, nb, sizeof(real_t)) !=
	        HYLA_SUCCESS) {
		hyla__desc_unregister(&A); /* A's reflectors come home (the rows above them do not matter) */
		registered = 0;
	}
	int ret;
	if (registered) {
		hyla_sequence seq = {0};
		ret = hyla__finish_sync(&seq, &A, submit_call(&A, n > k ? &B : NULL, tau, o, 1, &seq));
		hyla__desc_unregister(&B);
	}
	hyla__unpin(pinned);
	return registered ? ret : TYPED(hyla__host_orgqr)(m, n, k, a, lda, tau);
}

#ifdef HYLA_PREC_D
int hyla_dorgqr(int64_t m, int64_t n, int64_t k, double *a, int64_t lda, const double *tau,
                const hyla_options *opts)
#else
int hyla_sorgqr(int64_t m, int64_t n, int64_t k, float *a, int64_t lda, const float *tau,
                const hyla_options *opts)
#endif
{
	hyla_options o;
	int ret = hyla__check_orgqr_args(m, n, k, a, lda, tau);
	if (ret == HYLA_SUCCESS)
		ret = hyla__options_check(opts, 7, &o);
	if (ret != HYLA_SUCCESS || n == 0 || (ret = hyla__ensure_init()) != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	ret = TYPED(hyla__orgqr)(m, n, k, a, lda, tau, &o,
	                         o.nb ? o.nb : hyla__default_nb("orgqr", m, n));
	hyla__context_leave(&o, outer);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_dorgqr_async(hyla_matrix *a, const double *tau, const hyla_options *opts,
                      hyla_sequence *seq)
#else
int hyla_sorgqr_async(hyla_matrix *a, const float *tau, const hyla_options *opts,
                      hyla_sequence *seq)
#endif
{
	const hyla_desc *A;
	hyla_options o;
	int ret = hyla__matrix_desc(a, sizeof(real_t), 1, &A);
	if (ret == HYLA_SUCCESS && A->m < A->n)
		ret = HYLA_ERROR(-1, "a is %lld-by-%lld: Q needs m >= n", (long long)A->m,
		                 (long long)A->n);
	if (ret == HYLA_SUCCESS && !tau)
		ret = HYLA_ERROR(-2, "tau is NULL");
	if (ret == HYLA_SUCCESS)
		ret = hyla__async_args(opts, 3, seq, &o);
	if (ret != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	/* After the call that made the reflectors and tau (its fence): the
	 * first tasks here only read a. */
	ret = hyla__gate(A);
	if (ret == HYLA_SUCCESS)
		ret = submit_call(A, NULL, tau, &o, 0, seq);
	return hyla__async_done(seq, &o, outer, ret);
}
