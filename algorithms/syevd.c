/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The symmetric eigensolver (LAPACK dsyevd's contract) as one task graph:
 * the matrix within LAPACK's range (a first task, which with the
 * eigenvectors also puts it in its lower triangle), its tridiagonal form T
 * (the eigenvalues alone: in two stages, dense to band to tridiagonal;
 * with the eigenvectors: hyla's one-stage reduction Q^T A Q = T,
 * algorithms/sytrd.c), T's eigenvalues and eigenvectors Z by divide and
 * conquer (algorithms/stedc.c), and the eigenvectors of A, Q Z. Typed
 * source: see runtime/precision.h.
 *
 * Q = H(1) ... H(n-1), reflector i below the subdiagonal of column i.
 * Those are a QR factorisation's reflectors one row down, so Q Z is
 * dormqr's product on rows 1..n-1 of Z (hyla__ormqr_submit): the
 * reflectors copied out of the matrix (a task) into panels of orgqr's
 * width, Z written over it by the divide and conquer, then for each panel of
 * reflectors from the last its T and its block reflector on every panel of
 * Z (Level-3 tasks, on the GPU where the models say). */
#include <stdlib.h>
#include "algorithms.h"
#include "codelets.h"
#include "runtime.h"
#include "typed.h"

/* The eigenvalues' reduction in two stages (codelets/sy2sb.c, bulge.c):
 * A to a band of half-bandwidth b by Level-3 steps, the band to T by
 * bulge chasing on the cores into d and e (out). An upper triangle is
 * reduced as the lower one of J A J (J the reversal), then put back. */
static int submit_two_stage(const hyla_desc *A, int upper, const hyla_desc out[2], int64_t b)
{
	int64_t n = A->n;
	b = b < HYLA_BAND_MAX ? b : HYLA_BAND_MAX; /* nb is the caller's: the chase costs n^2 b */
	b = b < n - 1 ? b : n > 1 ? n - 1 : 1;
	int ret = upper ? TYPED(hyla__insert_reverse)(A, NULL, 0) : HYLA_SUCCESS;
	starpu_data_handle_t x = hyla__workspace(n, b, sizeof(real_t));
	for (int64_t c = 0; ret == HYLA_SUCCESS && n - c - b >= 2; c += b)
		ret = TYPED(hyla__insert_sy2sb_step)(A, x, c, b);
	hyla__workspace_release(x);
	starpu_data_handle_t band =
	    hyla__workspace_vector((int64_t)TYPED(hyla__band_chase_len)(n, b), sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__insert_sy2sb_gather)(A, band, b);
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__insert_band_chase)(band, &out[0], &out[1], b);
	hyla__workspace_release(band);
	if (ret == HYLA_SUCCESS && upper)
		ret = TYPED(hyla__insert_reverse)(A, NULL, 0);
	return ret;
}

/* Whether the eigenvalues alone take the two stages: the chase needs a core;
 * beside a GPU the one-stage reduction streams the matrix at the GPU's
 * bandwidth, and the two stages' chase on the cores (n^2 b work) overtakes
 * it from about n = 12000 in double (H200 host, 15 cores, 2026-11-28: 8000
 * 0.45 s against 0.43 s; 12000 1.08 against 1.12 s; 16000 2.14 against
 * 2.33 s), not in single (16000 1.95 against 1.52 s). */
static int two_stage_pays(int64_t n)
{
	if (hyla_ncpus() == 0)
		return 0;
	if (hyla_ncuda() == 0)
		return 1;
	/* Beside a GPU only with the cores' combined worker for the chase (a
	 * StarPU hyla started, with its parallel-task patch). */
	return sizeof(real_t) == sizeof(double) && n >= 12000 &&
	       hyla__cores_worker_any(starpu_sched_ctx_get_context()) >= 0;
}

/* Submits the eigensolver on A (column-panel views of the n-by-n matrix,
 * uplo's triangle given) into w (n, the caller's), with the eigenvectors
 * over A when vectors, and the sequence's fence. */
static int submit_syevd(const hyla_desc *A, int vectors, int upper, real_t *w,
                        const hyla_options *o, hyla_sequence *seq)
{
	int64_t n = A->n, nb = A->nb;
	real_t *e = hyla__sequence_malloc(seq, sizeof *e * (size_t)(n > 1 ? 2 * (n - 1) : 1));
	if (!e) /* e and tau, freed by the wait */
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for e and tau");
	int ret = HYLA_SUCCESS;
	hyla_desc out[3] = {{0}}; /* d, e, tau */
	const hyla_desc *V = NULL;
	starpu_data_handle_t scale = hyla__workspace_vector(2, sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = hyla__sequence_vector(seq, &out[0], w, n, nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = hyla__sequence_vector(seq, &out[1], e, n - 1, nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = hyla__sequence_vector(seq, &out[2], e + n - 1, n - 1, nb, sizeof(real_t));
	/* With vectors the upper triangle is mirrored and reduced as the lower
	 * one (Q's reflectors then below the subdiagonal); the values alone
	 * leave the other triangle untouched. */
	int mirror = vectors && upper;
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__insert_syevd_prepare)(A, upper ? 'U' : 'L', mirror, scale);
	if (ret == HYLA_SUCCESS)
		ret = vectors || !two_stage_pays(n)
		          ? TYPED(hyla__sytrd_submit)(A, upper && !mirror, out, o)
		          : submit_two_stage(A, upper, out,
		                             o->nb ? o->nb : hyla__default_nb("syevd_band", n, n));
	/* The reflectors, before Z overwrites them, in panels of orgqr's width
	 * (the block reflectors' width in Q Z), with tau in tiles of it. */
	int64_t nbq = o->nb ? o->nb : hyla__default_nb("orgqr", n, n);
	hyla_desc retiled = {0};
	const hyla_desc *tau = &out[2];
	if (ret == HYLA_SUCCESS && vectors && n > 1)
		ret = hyla__sequence_matrix(seq, n, n - 1, nbq, sizeof(real_t), 1, &V);
	if (ret == HYLA_SUCCESS && V)
		ret = TYPED(hyla__insert_copy)(A, V);
	if (ret == HYLA_SUCCESS && V && nbq != nb &&
	    (ret = hyla__desc_register(&retiled, NULL, n - 1, 1, n - 1, nbq, 1, sizeof(real_t))) ==
	        HYLA_SUCCESS) {
		tau = &retiled;
		ret = TYPED(hyla__insert_retile)(&out[2], &retiled);
	}
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__stedc_submit)(&out[0], &out[1], scale, vectors ? A : NULL, nbq, seq);
	if (ret == HYLA_SUCCESS && V)
		ret = TYPED(hyla__ormqr_submit)(V, tau, A, 1, o);
	hyla__desc_unregister_submit(&retiled);
	hyla__workspace_release(scale);
	free(out[0].tiles), free(out[1].tiles), free(out[2].tiles); /* the handles are the sequence's */
	return ret == HYLA_SUCCESS ? hyla__sequence_fence(seq, A, NULL) : ret;
}

#ifdef HYLA_PREC_D
int hyla_dsyevd(char jobz, char uplo, int64_t n, double *a, int64_t lda, double *w,
                const hyla_options *opts)
#else
int hyla_ssyevd(char jobz, char uplo, int64_t n, float *a, int64_t lda, float *w,
                const hyla_options *opts)
#endif
{
	hyla_options o;
	int ret = hyla__check_syevd_args(jobz, uplo, n, a, lda, w);
	if (ret == HYLA_SUCCESS)
		ret = hyla__options_check(opts, 7, &o);
	if (ret != HYLA_SUCCESS || n == 0 || (ret = hyla__ensure_init()) != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	int vectors = jobz == 'V' || jobz == 'v', upper = uplo == 'U' || uplo == 'u';
	int64_t nb = o.nb ? o.nb : hyla__default_nb("syevd", n, n);
	hyla_desc A;
	if (n <= nb) {
		ret = TYPED(hyla__host_syevd)(vectors ? 'V' : 'N', upper ? 'U' : 'L', n, a, lda, w);
	} else {
		/* With vectors V, the top merge's U and its children's beside A. */
		ret = vectors ? hyla__fits_whole(n, n, 5 * n * n / 2, sizeof(real_t)) : HYLA_SUCCESS;
		void *pinned = ret == HYLA_SUCCESS ? hyla__pin(a, n, n, lda, sizeof(real_t)) : NULL;
		if (ret == HYLA_SUCCESS &&
		    (ret = hyla__desc_register_views(&A, a, n, n, lda, nb, sizeof(real_t))) == HYLA_SUCCESS) {
			A.scratch = !vectors; /* the values alone: dsyevd destroys a, no trip home */
			hyla_sequence seq = {0};
			ret = hyla__finish_sync(&seq, &A, submit_syevd(&A, vectors, upper, w, &o, &seq));
		}
		hyla__unpin(pinned);
	}
	hyla__context_leave(&o, outer);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_dsyevd_async(char jobz, char uplo, hyla_matrix *a, double *w, const hyla_options *opts,
                      hyla_sequence *seq)
#else
int hyla_ssyevd_async(char jobz, char uplo, hyla_matrix *a, float *w, const hyla_options *opts,
                      hyla_sequence *seq)
#endif
{
	const hyla_desc *A;
	hyla_options o;
	int ret = HYLA_SUCCESS;
	if (jobz != 'N' && jobz != 'V' && jobz != 'n' && jobz != 'v')
		ret = HYLA_ERROR(-1, "jobz = '%c' must be 'N' or 'V'", jobz);
	if (ret == HYLA_SUCCESS && uplo != 'U' && uplo != 'L' && uplo != 'u' && uplo != 'l')
		ret = HYLA_ERROR(-2, "uplo = '%c' must be 'U' or 'L'", uplo);
	if (ret == HYLA_SUCCESS)
		ret = hyla__matrix_desc(a, sizeof(real_t), 3, &A);
	if (ret == HYLA_SUCCESS && A->m != A->n)
		ret = HYLA_ERROR(-3, "a is %lld-by-%lld, not square", (long long)A->m, (long long)A->n);
	if (ret == HYLA_SUCCESS && !w)
		ret = HYLA_ERROR(-4, "w is NULL");
	if (ret == HYLA_SUCCESS)
		ret = hyla__async_args(opts, 5, seq, &o);
	if (ret != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	ret = submit_syevd(A, jobz == 'V' || jobz == 'v', uplo == 'U' || uplo == 'u', w, &o, seq);
	return hyla__async_done(seq, &o, outer, ret);
}
