/* Q of the Hessenberg reduction, explicitly (LAPACK's dorghr contract), as a
 * task graph. Typed source: see runtime/precision.h.
 *
 * As LAPACK does, the reflectors move one column right, so that Q's block
 * rows and columns ilo..ihi-1 are the Q of a QR factorisation (dorgqr's
 * input); that block is formed panel by panel from the last:
 *   t(i)         the panel's T (CPU, LAPACK's dlarft);
 *   apply(i, c)  (I - V T V^T) on the later panels c, in groups (GPU where
 *                the models say so);
 *   form(i)      the panel's own columns of Q. */
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>
#include "algorithms.h"
#include "codelets.h"
#include "runtime.h"

static int submit_orgqr(const hyla_desc *A, const hyla_desc *tau, starpu_data_handle_t w_apply,
                        starpu_data_handle_t w_form, int64_t group)
{
	int ret = HYLA_SUCCESS;
	for (int64_t i = A->nt - 1; i >= 0 && ret == HYLA_SUCCESS; i--) {
		int64_t c0 = i * A->nb, w = hyla__tile_cols(A, i);
		starpu_data_handle_t t;
		starpu_matrix_data_register(&t, -1, 0, (uint32_t)w, (uint32_t)w, (uint32_t)w, sizeof(real_t));
		starpu_data_handle_t panel = A->tiles[i];
		ret = TYPED(hyla__insert_orgqr_t)(panel, hyla__tile(tau, i, 0), t, c0, STARPU_MAX_PRIO);
		/* The panel next to this one first: the next step's apply waits on it. */
		for (int64_t c = i + 1; c < A->nt && ret == HYLA_SUCCESS;) {
			int64_t count = c == i + 1 ? 1 : (A->nt - c < group ? A->nt - c : group);
			ret = TYPED(hyla__insert_orgqr_apply)(panel, t, w_apply, &A->tiles[c], (int)count, c0,
			                                      c == i + 1 ? STARPU_MAX_PRIO : STARPU_DEFAULT_PRIO);
			c += count;
		}
		if (ret == HYLA_SUCCESS)
			ret = TYPED(hyla__insert_orgqr_form)(panel, t, w_form, c0, STARPU_MAX_PRIO);
		starpu_data_unregister_submit(t);
		hyla__progress_mark(panel, A->nt - i, A->nt);
	}
	return ret;
}

/* LAPACK's dorgqr on the host (m = n = k = nh). */
static int orgqr_host(int64_t nh, real_t *q, int64_t lda, real_t *tau)
{
	lapack_int n = (lapack_int)nh, ld = (lapack_int)lda, info;
	real_t size;
	LAPACKE(orgqr_work)(LAPACK_COL_MAJOR, n, n, n, q, ld, tau, &size, -1);
	real_t *work = malloc(sizeof *work * ((size_t)size + 1));
	if (!work)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for dorgqr's workspace");
	info = LAPACKE(orgqr_work)(LAPACK_COL_MAJOR, n, n, n, q, ld, tau, work, (lapack_int)size + 1);
	free(work);
	return (int)info;
}

/* Q's block ilo..ihi-1 (nh-by-nh at q, reflectors as dgeqrf leaves them)
 * with the task graph; on the host if the matrix cannot be registered (the
 * reflectors have moved already: the input is gone). */
static int orgqr_graph(int64_t nh, real_t *q, int64_t lda, real_t *tau, int64_t nb)
{
	hyla_desc descA, descTau;
	int ret = hyla__desc_register_views(&descA, q, nh, nh, lda, nb, sizeof(real_t));
	if (ret != HYLA_SUCCESS)
		return orgqr_host(nh, q, lda, tau);
	if ((ret = hyla__desc_register(&descTau, tau, nh, 1, nh, nb, 1, sizeof(real_t))) != HYLA_SUCCESS) {
		hyla__desc_unregister(&descA);
		return ret;
	}
	int64_t width = hyla_gehrd_update_width(nh), group = width / nb > 1 ? width / nb : 1;
	starpu_data_handle_t w_apply, w_form;
	starpu_vector_data_register(&w_apply, -1, 0, (uint32_t)(nb * group * nb), sizeof(real_t));
	starpu_vector_data_register(&w_form, -1, 0, (uint32_t)(2 * nb * nb), sizeof(real_t));

	ret = submit_orgqr(&descA, &descTau, w_apply, w_form, group);

	starpu_data_unregister_submit(w_apply);
	starpu_data_unregister_submit(w_form);
	hyla__desc_unregister(&descTau);
	hyla__desc_unregister(&descA);
	return ret;
}

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
	int64_t nh = ihi - ilo, nb = hyla_gehrd_default_nb(nh);
	real_t *q = a + ilo + ilo * lda, *tau_q = (real_t *)tau + ilo - 1;
	if (nh <= nb)
		return nh > 0 ? orgqr_host(nh, q, lda, tau_q) : HYLA_SUCCESS;
	return orgqr_graph(nh, q, lda, tau_q, nb);
}
