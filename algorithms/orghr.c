/* Q of the Hessenberg reduction, explicitly (LAPACK's dorghr contract), as a
 * task graph. Typed source: see runtime/precision.h.
 *
 * As LAPACK does, the reflectors move one column right, so that Q's block
 * rows and columns ilo..ihi-1 are the Q of a QR factorisation: dorgqr's
 * input, formed by hyla's (algorithms/orgqr.c). */
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>
#include "algorithms.h"
#include "typed.h"
#include "codelets.h"
#include "runtime.h"

/* LAPACK dorghr's first step (0-based columns): columns [ilo, ihi) get the
 * reflectors of the columns before them, zero outside rows (j, ihi); the
 * other columns become the identity's. */
static void shift_reflectors(int64_t n, int64_t ilo, int64_t ihi, real_t *a, int64_t lda)
{
	for (int64_t j = ihi - 1; j >= ilo; j--) {
		real_t *col = a + j * lda;
		memset(col, 0, sizeof *col * (size_t)j);
		memcpy(col + j + 1, col - lda + j + 1, sizeof *col * (size_t)(ihi - 1 - j));
		memset(col + ihi, 0, sizeof *col * (size_t)(n - ihi));
	}
	for (int64_t j = 0; j < n; j++) {
		if (j >= ilo && j < ihi)
			continue;
		memset(a + j * lda, 0, sizeof *a * (size_t)n);
		a[j + j * lda] = 1;
	}
}

int PUBLIC(orghr)(int64_t n, int64_t ilo, int64_t ihi, real_t *a, int64_t lda, const real_t *tau)
{
	int ret = hyla__check_hessenberg_args(n, ilo, ihi, a, lda, tau, ihi > ilo);
	if (ret != HYLA_SUCCESS || n == 0)
		return ret;
	if ((ret = hyla__ensure_init()) != HYLA_SUCCESS)
		return ret;

	shift_reflectors(n, ilo, ihi, a, lda);
	int64_t nh = ihi - ilo;
	real_t *q = a + ilo + ilo * lda;
	return nh > 0 ? TYPED(hyla__orgqr)(nh, nh, nh, q, lda, tau + ilo - 1, hyla_gehrd_default_nb(nh))
	              : HYLA_SUCCESS;
}
