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

int PUBLIC(orghr)(int64_t n, int64_t ilo, int64_t ihi, real_t *a, int64_t lda, const real_t *tau)
{
	int ret = hyla__check_hessenberg_args(n, ilo, ihi, a, lda, tau, ihi > ilo);
	if (ret != HYLA_SUCCESS || n == 0)
		return ret;
	if ((ret = hyla__ensure_init()) != HYLA_SUCCESS)
		return ret;

	TYPED(hyla__orghr_shift)(n, ilo, ihi, a, lda);
	int64_t nh = ihi - ilo;
	real_t *q = a + ilo + ilo * lda;
	return nh > 0 ? TYPED(hyla__orgqr)(nh, nh, nh, q, lda, tau + ilo - 1, hyla_gehrd_default_nb(nh))
	              : HYLA_SUCCESS;
}

int PUBLIC(orghr_async)(hyla_matrix *a, const real_t *tau, hyla_request *req)
{
	const hyla_desc *A;
	int ret = hyla__matrix_desc(a, sizeof(real_t), 1, &A);
	if (ret != HYLA_SUCCESS)
		return ret;
	int64_t n = A->n;
	if (A->m != n)
		return HYLA_ERROR(-1, "a is %lld-by-%lld, not square", (long long)A->m, (long long)n);
	if (!tau && n > 1)
		return HYLA_ERROR(-2, "tau is NULL");
	if (!req)
		return HYLA_ERROR(-3, "req is NULL");
	/* The shifted tau, (0, tau), in StarPU's memory; tau is the request's. */
	hyla_desc shifted;
	ret = hyla__desc_register(&shifted, NULL, n, 1, n, A->nb, 1, sizeof(real_t));
	if (ret != HYLA_SUCCESS)
		return ret;
	starpu_data_handle_t given = NULL;
	if (n > 1) {
		starpu_vector_data_register(&given, STARPU_MAIN_RAM, (uintptr_t)tau, (uint32_t)(n - 1),
		                            sizeof(real_t));
		ret = hyla__request_own(req, given);
	}
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__insert_orghr_shift)(given, shifted.tiles, (int)shifted.mt, A->tiles,
		                                      (int)A->nt);
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__orgqr_submit)(A, NULL, &shifted, req);
	hyla__desc_unregister_submit(&shifted);
	return ret;
}
