/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Q of the Hessenberg reduction, explicitly (LAPACK's dorghr contract), as a
 * task graph. Typed source: see runtime/precision.h.
 *
 * As LAPACK does, the reflectors move one column right, so that Q's block
 * rows and columns ilo..ihi-1 are the Q of a QR factorisation: dorgqr's
 * input, formed by hyla's (algorithms/orgqr.c). The asynchronous call
 * shifts in a task and forms all n columns: column 0, the identity's, is a
 * reflector with tau = 0. */
#include "algorithms.h"
#include "typed.h"
#include "codelets.h"
#include "runtime.h"

/* The shift of the reflectors in a task, then Q's graph on all n columns. */
static int submit_shifted(const hyla_desc *A, const real_t *tau, const hyla_options *o,
                          hyla_sequence *seq)
{
	int64_t n = A->n;
	/* The shifted tau, (0, tau), in StarPU's memory; tau is the sequence's. */
	hyla_desc shifted;
	int ret = hyla__desc_register(&shifted, NULL, n, 1, n, A->nb, 1, sizeof(real_t));
	if (ret != HYLA_SUCCESS)
		return ret;
	starpu_data_handle_t given = NULL;
	if (n > 1) {
		starpu_vector_data_register(&given, STARPU_MAIN_RAM, (uintptr_t)tau, (uint32_t)(n - 1),
		                            sizeof(real_t));
		ret = hyla__sequence_own(seq, given);
	}
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__insert_orghr_shift)(given, shifted.tiles, (int)shifted.mt, A->tiles,
		                                      (int)A->nt);
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__orgqr_submit)(A, NULL, &shifted, o, 0, seq);
	hyla__desc_unregister_submit(&shifted);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_dorghr(int64_t n, int64_t ilo, int64_t ihi, double *a, int64_t lda, const double *tau,
                const hyla_options *opts)
#else
int hyla_sorghr(int64_t n, int64_t ilo, int64_t ihi, float *a, int64_t lda, const float *tau,
                const hyla_options *opts)
#endif
{
	hyla_options o;
	int ret = hyla__check_hessenberg_args(n, ilo, ihi, a, lda, tau, ihi > ilo);
	if (ret == HYLA_SUCCESS)
		ret = hyla__options_check(opts, 7, &o);
	if (ret != HYLA_SUCCESS || n == 0 || (ret = hyla__ensure_init()) != HYLA_SUCCESS)
		return ret;
	TYPED(hyla__orghr_shift)(n, ilo, ihi, a, lda, 1);
	int64_t nh = ihi - ilo;
	if (nh == 0)
		return HYLA_SUCCESS;
	unsigned outer = hyla__context_enter(&o);
	ret = TYPED(hyla__orgqr)(nh, nh, nh, a + ilo + ilo * lda, lda, tau + ilo - 1, &o,
	                         o.nb ? o.nb : hyla__default_nb("orghr", nh, nh));
	hyla__context_leave(&o, outer);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_dorghr_async(hyla_matrix *a, const double *tau, const hyla_options *opts,
                      hyla_sequence *seq)
#else
int hyla_sorghr_async(hyla_matrix *a, const float *tau, const hyla_options *opts,
                      hyla_sequence *seq)
#endif
{
	const hyla_desc *A;
	hyla_options o;
	int ret = hyla__matrix_desc(a, sizeof(real_t), 1, &A);
	if (ret == HYLA_SUCCESS && A->m != A->n)
		ret = HYLA_ERROR(-1, "a is %lld-by-%lld, not square", (long long)A->m, (long long)A->n);
	if (ret == HYLA_SUCCESS && !tau && A->n > 1)
		ret = HYLA_ERROR(-2, "tau is NULL");
	if (ret == HYLA_SUCCESS)
		ret = hyla__async_args(opts, 3, seq, &o);
	if (ret != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	ret = submit_shifted(A, tau, &o, seq);
	return hyla__async_done(seq, &o, outer, ret);
}
