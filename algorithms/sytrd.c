/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Symmetric tridiagonal reduction Q^T A Q = T as a task graph (Tomov, Nath and Dongarra 2010,
 * section 3.5; LAPACK dsytrd's contract and output). Typed source: see
 * runtime/precision.h.
 *
 * Lower: A is column panels of width nb, views of one handle (the trailing
 * matrix one matrix wherever it is). For each panel k but the last:
 *   panel(k)       LAPACK's DLATRD on its columns (CPU): reflectors, e, tau
 *                  and W, one SYMV per column over the trailing matrix;
 *   update(k, g)   A -= V W^T + W V^T on the lower part of the later panels:
 *                  the next one alone and first, the others in groups;
 * with a GPU, both in one step task (its panel reads the whole trailing
 * matrix: no look-ahead to gain, a runtime gap to spare);
 * the last panel goes to LAPACK's dsytrd (CPU). At the end e goes back onto
 * the subdiagonal and d is read off the diagonal, as dsytrd leaves them
 * (a last task). Upper: the same on J A J (J the reversal), LAPACK's upper
 * reduction being the lower one mirrored: a first task reverses the matrix
 * in place, a last one reverses it back with d, e and tau. */
#include <stdlib.h>
#include "algorithms.h"
#include "codelets.h"
#include "runtime.h"
#include "typed.h"

/* Accessors (Chameleon's A(m, n)): panel k of the column panels A, the
 * panels from k on (an array of handles), tile k of a vector. */
#define A(k) hyla__tile(A, 0, k)
#define A_FROM(k) (&A->tiles[k])
#define E(k) hyla__tile(E, k, 0)
#define TAU(k) hyla__tile(Tau, k, 0)

/* Panel k, then its updates of the later panels: the next panel's first
 * (look-ahead), the others in groups. */
static int submit_panel(const hyla_desc *A, const hyla_desc *E, const hyla_desc *Tau, int64_t k,
                        int64_t group)
{
	int64_t c = k * A->nb;
	starpu_data_handle_t w = hyla__workspace(A->n, A->nb, sizeof(real_t)); /* read by its updates */
	int ret = TASK(sytrd_panel)(E(k), TAU(k), w, A_FROM(k),
	                            (int)(A->nt - k), c);
	for (int64_t p = k + 1; p < A->nt && ret == HYLA_SUCCESS;) {
		int64_t count = p == k + 1 ? 1 : (A->nt - p < group ? A->nt - p : group);
		ret = TASK(sytrd_update)(A(k), w, A_FROM(p), (int)count, c, p * A->nb,
		                         p == k + 1 ? STARPU_MAX_PRIO : STARPU_DEFAULT_PRIO);
		p += count;
	}
	hyla__workspace_release(w);
	return ret;
}

/* With a GPU (no look-ahead: hyla__update_group) and a panel it can take,
 * a step task a panel: the panel and the update of all later panels (a GPU
 * panel reads the whole trailing matrix); else panels and their updates. */
static int submit_sytrd(const hyla_desc *A, const hyla_desc *E, const hyla_desc *Tau,
                        int64_t width)
{
	int64_t n = A->n, nb = A->nb;
	int lookahead;
	int64_t group = hyla__update_group(A->nt, width, nb, &lookahead);
	starpu_data_handle_t w = NULL; /* the steps' W */
	if (lookahead ? hyla__parallel_tasks() : nb <= HYLA_REDUCTION_GPU_MAX_NB)
		w = hyla__workspace(n, nb, sizeof(real_t));
	int ret = HYLA_SUCCESS;
	for (int64_t k = 0; k + 1 < A->nt && ret == HYLA_SUCCESS; k++) {
		ret = w ? TASK(sytrd_step)(E(k), TAU(k), w, A_FROM(k),
		                           (int)(A->nt - k), k * nb)
		        : submit_panel(A, E, Tau, k, group);
		if (ret == HYLA_SUCCESS) {
			hyla__write_back(A, 0, k);
			hyla__progress_mark(A(k), k + 1, A->nt);
		}
	}
	hyla__workspace_release(w);
	int64_t last = (A->nt - 1) * nb, t = n - last;
	if (ret == HYLA_SUCCESS && t >= 2) {
		starpu_data_handle_t scratch = hyla__workspace_vector(2 * t + 64 * t, sizeof(real_t));
		ret = TYPED(hyla__insert_sytrd_tail)(A(A->nt - 1), TAU(A->nt - 1),
		                                     scratch, last);
		hyla__workspace_release(scratch);
	}
	return ret;
}

int TYPED(hyla__sytrd_submit)(const hyla_desc *A, int upper, const hyla_desc out[3],
                              const hyla_options *o)
{
	int ret = upper ? TYPED(hyla__insert_reverse)(A, NULL, 0) : HYLA_SUCCESS;
	if (ret == HYLA_SUCCESS)
		ret = submit_sytrd(A, &out[1], &out[2], hyla__update_width(o, A->n));
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__insert_band_finish)(&out[0], &out[1], A, 1);
	if (ret == HYLA_SUCCESS && upper)
		ret = TYPED(hyla__insert_reverse)(A, out, 3);
	return ret;
}

/* hyla__sytrd_submit with d, e and tau registered here (the sequence's; in
 * the caller's memory once the sequence is waited for), and the sequence's
 * fence. */
static int submit_call(const hyla_desc *A, int upper, real_t *d, real_t *e, real_t *tau,
                       const hyla_options *o, hyla_sequence *seq)
{
	int64_t n = A->n, nb = A->nb;
	hyla_desc out[3] = {{0}}; /* d, e, tau */
	int ret = hyla__sequence_vector(seq, &out[0], d, n, nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = hyla__sequence_vector(seq, &out[1], e, n - 1, nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = hyla__sequence_vector(seq, &out[2], tau, n - 1, nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__sytrd_submit)(A, upper, out, o);
	if (ret == HYLA_SUCCESS)
		ret = hyla__sequence_fence(seq, A, NULL);
	free(out[0].tiles), free(out[1].tiles), free(out[2].tiles); /* the handles are the sequence's */
	return ret;
}

/* The task graph on the n-by-n a, n > nb. */
static int sytrd_graph(int upper, int64_t n, real_t *a, int64_t lda, real_t *d, real_t *e,
                       real_t *tau, const hyla_options *o, int64_t nb)
{
	hyla_desc A;
	void *pinned = hyla__pin(a, n, n, lda, sizeof(real_t));
	int ret = hyla__desc_register_views(&A, a, n, n, lda, nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS) {
		hyla_sequence seq = {0};
		ret = hyla__finish_sync(&seq, &A, submit_call(&A, upper, d, e, tau, o, &seq));
	}
	hyla__unpin(pinned);
	return ret;
}

int TYPED(hyla__sytrd)(int upper, int64_t n, real_t *a, int64_t lda, real_t *d, real_t *e,
                       real_t *tau, const hyla_options *o)
{
	int64_t nb = o->nb ? o->nb : hyla__default_nb("sytrd", n, n);
	return n <= nb ? TYPED(hyla__host_sytrd)(upper ? 'U' : 'L', n, a, lda, d, e, tau)
	               : sytrd_graph(upper, n, a, lda, d, e, tau, o, nb);
}

#ifdef HYLA_PREC_D
int hyla_dsytrd(char uplo, int64_t n, double *a, int64_t lda, double *d, double *e, double *tau,
                const hyla_options *opts)
#else
int hyla_ssytrd(char uplo, int64_t n, float *a, int64_t lda, float *d, float *e, float *tau,
                const hyla_options *opts)
#endif
{
	hyla_options o;
	int ret = hyla__check_sytrd_args(uplo, n, a, lda, d, e, tau);
	if (ret == HYLA_SUCCESS)
		ret = hyla__options_check(opts, 8, &o);
	if (ret != HYLA_SUCCESS || n == 0 || (ret = hyla__ensure_init()) != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	ret = TYPED(hyla__sytrd)(uplo == 'U' || uplo == 'u', n, a, lda, d, e, tau, &o);
	hyla__context_leave(&o, outer);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_dsytrd_async(char uplo, hyla_matrix *a, double *d, double *e, double *tau,
                      const hyla_options *opts, hyla_sequence *seq)
#else
int hyla_ssytrd_async(char uplo, hyla_matrix *a, float *d, float *e, float *tau,
                      const hyla_options *opts, hyla_sequence *seq)
#endif
{
	const hyla_desc *A;
	hyla_options o;
	int ret = HYLA_SUCCESS;
	if (uplo != 'U' && uplo != 'L' && uplo != 'u' && uplo != 'l')
		ret = HYLA_ERROR(-1, "uplo = '%c' must be 'U' or 'L'", uplo);
	if (ret == HYLA_SUCCESS)
		ret = hyla__matrix_desc(a, sizeof(real_t), 2, &A);
	if (ret == HYLA_SUCCESS && A->m != A->n)
		ret = HYLA_ERROR(-2, "a is %lld-by-%lld, not square", (long long)A->m, (long long)A->n);
	if (ret == HYLA_SUCCESS && !d)
		ret = HYLA_ERROR(-3, "d is NULL");
	if (ret == HYLA_SUCCESS && A->n > 1 && !e)
		ret = HYLA_ERROR(-4, "e is NULL");
	if (ret == HYLA_SUCCESS && A->n > 1 && !tau)
		ret = HYLA_ERROR(-5, "tau is NULL");
	if (ret == HYLA_SUCCESS)
		ret = hyla__async_args(opts, 6, seq, &o);
	if (ret != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	ret = submit_call(A, uplo == 'U' || uplo == 'u', d, e, tau, &o, seq);
	return hyla__async_done(seq, &o, outer, ret);
}
