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
 * task, t(i - 1) on a second stream. */
#include <stdlib.h>
#include "algorithms.h"
#include "codelets.h"
#include "runtime.h"
#include "typed.h"

/* Accessors (Chameleon's A(m, n)): panel k of the column panels A, the
 * panels from k on (an array of handles). */
#define A(k) hyla__tile(A, 0, k)
#define A_FROM(k) (&A->tiles[k])

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
	/* The reflectors go to the GPU as the steps come to them, the last
	 * first, while the earlier steps run; without steps, all of them now. */
	int ret = HYLA_SUCCESS;
	for (int64_t j = A->nt - 1; j >= (steps ? A->nt - 1 : 0) && ret == HYLA_SUCCESS; j--)
		ret = hyla__desc_send_panel(A, j);
	if (ret == HYLA_SUCCESS)
		ret = submit_t(A, tau, A->nt - 1, &t);
	for (int64_t i = A->nt - 1; i >= 0 && ret == HYLA_SUCCESS; i--) {
		int64_t c0 = i * A->nb;
		starpu_data_handle_t panel = A(i);
		if (steps && i > 0)
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

int TYPED(hyla__orgqr_submit)(const hyla_desc *A, const hyla_desc *B, const hyla_desc *tau,
                              const hyla_options *o, hyla_sequence *seq)
{
	int64_t nb = A->nb;
	int lookahead;
	int64_t group = hyla__update_group(B && B->nt > A->nt ? B->nt : A->nt,
	                                   hyla__update_width(o, A->n), nb, &lookahead);
	starpu_data_handle_t w_apply = hyla__workspace_vector(nb * group * nb, sizeof(real_t));
	starpu_data_handle_t w_form = hyla__workspace_vector(2 * nb * nb, sizeof(real_t));
	int ret = submit_orgqr(A, B, tau, w_apply, w_form, group, lookahead, hyla_ncuda() > 0);
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
                       const hyla_options *o, hyla_sequence *seq)
{
	hyla_desc T;
	int ret = hyla__sequence_vector(seq, &T, (real_t *)tau, A->n, A->nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__orgqr_submit)(A, B, &T, o, seq);
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
	if (hyla__desc_register_reflectors(&A, a, m, k, lda, nb, sizeof(real_t)) != HYLA_SUCCESS)
		return TYPED(hyla__host_orgqr)(m, n, k, a, lda, tau);
	int ret = n > k ? hyla__desc_register_views(&B, a + k * lda, m, n - k, lda, nb, sizeof(real_t))
	                : HYLA_SUCCESS;
	if (ret != HYLA_SUCCESS) { /* A's reflectors come home (its rows above them do not matter) */
		hyla__desc_unregister(&A);
		return TYPED(hyla__host_orgqr)(m, n, k, a, lda, tau);
	}
	hyla_sequence seq = {0};
	ret = hyla__finish_sync(&seq, &A, submit_call(&A, n > k ? &B : NULL, tau, o, &seq));
	hyla__desc_unregister(&B);
	return ret;
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
		ret = submit_call(A, NULL, tau, &o, seq);
	return hyla__async_done(seq, &o, outer, ret);
}
