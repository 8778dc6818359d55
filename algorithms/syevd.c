/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The symmetric eigensolver (LAPACK dsyevd's contract): hyla's tridiagonal
 * reduction Q^T A Q = T (algorithms/sytrd.c), T's eigenvalues and
 * eigenvectors Z on the cores (LAPACK's dsterf, or dstedc: Cuppen, "A
 * divide and conquer method for the symmetric tridiagonal eigenproblem",
 * 1981, in the stable form of Gu and Eisenstat, 1995), and the eigenvectors
 * of A, Q Z, as a task graph. Typed source: see runtime/precision.h.
 *
 * Q = H(1) ... H(n-1), reflector i below the subdiagonal of column i (the
 * lower reduction's storage: the upper triangle is mirrored into the lower
 * one first). Those are a QR factorisation's reflectors one row down, so Q Z
 * is dormqr's product on rows 1..n-1 of Z: the reflectors, copied out of a,
 * in column panels of width nb; for each panel from the last, its T
 * (dlarft) and (I - V T V^T) on every panel of Z (Level-3 tasks, on the GPU
 * where the models say). Z is written over a by the stedc task. */
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "algorithms.h"
#include "codelets.h"
#include "runtime.h"
#include "typed.h"

/* After the reduction (lower): T's eigenvectors over a, then Q Z. */
static int eigenvectors(int64_t n, real_t *a, int64_t lda, real_t *w, real_t *e, real_t *tau,
                        const hyla_options *o)
{
	size_t bytes = sizeof(real_t) * (size_t)(n * n);
	real_t *v = hyla_malloc(bytes);
	if (!v)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for the reflectors' copy (%zu bytes)", bytes);
	for (int64_t j = 0; j + 1 < n; j++) /* the reflectors: below the subdiagonal */
		memcpy(v + j * n + j + 1, a + j * lda + j + 1, sizeof *v * (size_t)(n - j - 1));
	int64_t nb = o->nb ? o->nb : hyla__default_nb("orgqr", n, n);
	hyla_desc V, Z;
	int ret = hyla__desc_register_reflectors(&V, v, n, n - 1, n, nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS && (ret = hyla__desc_register_views(&Z, a, n, n, lda, nb,
	                                                            sizeof(real_t))) != HYLA_SUCCESS)
		hyla__desc_unregister(&V);
	if (ret != HYLA_SUCCESS) {
		hyla_free(v, bytes);
		return ret;
	}
	hyla_sequence seq = {0};
	hyla_desc D = {0}, E = {0}, Tau = {0};
	int sub = hyla__sequence_vector(&seq, &D, w, n, n, sizeof(real_t));
	if (sub == HYLA_SUCCESS)
		sub = hyla__sequence_vector(&seq, &E, e, n - 1, n, sizeof(real_t));
	if (sub == HYLA_SUCCESS)
		sub = hyla__sequence_vector(&seq, &Tau, tau, n - 1, nb, sizeof(real_t));
	if (sub == HYLA_SUCCESS)
		sub = TYPED(hyla__insert_stedc)(D.tiles[0], E.tiles[0], &Z, &seq);
	if (sub == HYLA_SUCCESS)
		sub = TYPED(hyla__ormqr_submit)(&V, &Tau, &Z, 1, o);
	if (sub == HYLA_SUCCESS)
		sub = hyla__sequence_fence(&seq, &Z, &V);
	free(D.tiles), free(E.tiles), free(Tau.tiles); /* the handles are the sequence's */
	ret = hyla__finish_sync(&seq, &Z, sub);
	hyla__desc_unregister(&V);
	hyla_free(v, bytes);
	return ret;
}

/* The task graph's path, n above the reduction's block size. As dsyevd, a
 * matrix whose largest entry is beyond sqrt(safe minimum / eps) or its
 * inverse is scaled inside that range first, the eigenvalues back after:
 * the reduction of a tiny matrix would otherwise lose digits to
 * subnormal numbers. */
static int syevd_graph(int vectors, int upper, int64_t n, real_t *a, int64_t lda, real_t *w,
                       const hyla_options *o)
{
	if (upper) /* dsyevd reads one triangle: the lower one gets the upper's values */
		for (int64_t j = 0; j < n; j++)
			for (int64_t i = j + 1; i < n; i++)
				a[i + j * lda] = a[j + i * lda];
	lapack_int ln = (lapack_int)n, ld = (lapack_int)lda;
	real_t small = (real_t)sqrt(LAPACKE(lamch_work)('S') / LAPACKE(lamch_work)('P'));
	real_t norm = LAPACKE(lansy_work)(LAPACK_COL_MAJOR, 'M', 'L', ln, a, ld, NULL);
	real_t to = norm > 0 && norm < small ? small : norm > 1 / small ? 1 / small : 0;
	if (to != 0)
		LAPACKE(lascl_work)(LAPACK_COL_MAJOR, 'L', 0, 0, norm, to, ln, ln, a, ld);
	real_t *e = malloc(sizeof *e * (size_t)(2 * (n - 1))), *tau = e + n - 1;
	if (!e)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for e and tau");
	int ret = TYPED(hyla__sytrd)(0, n, a, lda, w, e, tau, o);
	if (ret == HYLA_SUCCESS)
		ret = vectors ? eigenvectors(n, a, lda, w, e, tau, o)
		              : (int)LAPACKE(sterf_work)(ln, w, e);
	if (to != 0)
		LAPACKE(lascl_work)(LAPACK_COL_MAJOR, 'G', 0, 0, to, norm, ln, 1, w, ln);
	free(e);
	return ret;
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
	int64_t nb = o.nb ? o.nb : hyla__default_nb("sytrd", n, n);
	ret = n <= nb ? TYPED(hyla__host_syevd)(vectors ? 'V' : 'N', upper ? 'U' : 'L', n, a, lda, w)
	              : syevd_graph(vectors, upper, n, a, lda, w, &o);
	hyla__context_leave(&o, outer);
	return ret;
}
