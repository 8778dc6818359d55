/* Argument checks the algorithms share. */
#include "algorithms.h"
#include "runtime.h"

int hyla__check_hessenberg_args(int64_t n, int64_t ilo, int64_t ihi, const void *a, int64_t lda,
                                const void *tau, int need_tau)
{
	if (n < 0)
		return HYLA_ERROR(-1, "n = %lld must be >= 0", (long long)n);
	if (ilo < 1 || ilo > (n > 1 ? n : 1))
		return HYLA_ERROR(-2, "ilo = %lld must be in [1, max(1, n)]", (long long)ilo);
	if (ihi < (ilo < n ? ilo : n) || ihi > n)
		return HYLA_ERROR(-3, "ihi = %lld must be in [min(ilo, n), n]", (long long)ihi);
	if (!a && n > 0)
		return HYLA_ERROR(-4, "a is NULL");
	if (lda < (n > 1 ? n : 1))
		return HYLA_ERROR(-5, "lda = %lld must be >= max(1, n)", (long long)lda);
	if (!tau && need_tau)
		return HYLA_ERROR(-6, "tau is NULL");
	if (n > INT32_MAX || lda > INT32_MAX)
		return HYLA_ERROR(-1, "n and lda must be < 2^31 (32-bit BLAS and StarPU 1.3)");
	return HYLA_SUCCESS;
}
