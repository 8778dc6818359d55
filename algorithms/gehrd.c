/* Hessenberg reduction Q^T A Q = H as a task graph (seed 002: Tomov, Nath,
 * Dongarra). Typed source: see runtime/precision.h.
 *
 * A is registered as column panels of width nb, views of one handle (so the
 * trailing matrix stays one contiguous matrix on the GPU). For each panel k
 * but the last:
 *   panel(k)       DLAHR2 on its nb columns: V, T, Y = A V T, with one GEMV
 *                  per column over the whole trailing matrix;
 *   update(k, c)   for each later panel c: A_c -= Y V_c^T (from the right,
 *                  all rows, the seed's M and G parts), then
 *                  A_c = (I - V T^T V^T) A_c (from the left).
 * The last panel goes to LAPACK's DGEHD2 on the CPU. The output is LAPACK
 * dgehrd's: H on and above the first subdiagonal, the reflectors below it,
 * tau(0:n-1). */
#include <lapacke.h>
#include "algorithms.h"
#include "codelets.h"
#include "runtime.h"

/* Submits the reduction of the n-by-n matrix held by A (column panels of
 * width A->nb) into tau (chunks of nb). */
static int submit_gehrd(const hyla_desc *A, const hyla_desc *tau, starpu_data_handle_t scratch,
                        starpu_data_handle_t w, int64_t group)
{
	int64_t n = A->n, nb = A->nb;
	for (int64_t k = 0; k + 1 < A->nt; k++) {
		starpu_data_handle_t t, y, v;
		starpu_matrix_data_register(&t, -1, 0, (uint32_t)nb, (uint32_t)nb, (uint32_t)nb, sizeof(real_t));
		starpu_matrix_data_register(&y, -1, 0, (uint32_t)n, (uint32_t)n, (uint32_t)nb, sizeof(real_t));
		starpu_matrix_data_register(&v, -1, 0, (uint32_t)n, (uint32_t)n, (uint32_t)nb, sizeof(real_t));
		int ret = TYPED(hyla__insert_gehrd_panel)(hyla__tile(tau, k, 0), t, y, v, scratch,
		                                          &A->tiles[k], (int)(A->nt - k), k * nb,
		                                          STARPU_MAX_PRIO);
		/* The next panel alone first (it is on the critical path), then
		 * groups of panels wide enough for Level-3 efficiency. */
		for (int64_t c = k + 1; c < A->nt && ret == HYLA_SUCCESS;) {
			int64_t count = c == k + 1 ? 1 : (A->nt - c < group ? A->nt - c : group);
			int prio = c == k + 1 ? STARPU_MAX_PRIO : STARPU_DEFAULT_PRIO;
			ret = TYPED(hyla__insert_gehrd_update)(v, t, y, w, &A->tiles[c], (int)count, k * nb,
			                                       c * nb, prio);
			c += count;
		}
		starpu_data_unregister_submit(t);
		starpu_data_unregister_submit(y);
		starpu_data_unregister_submit(v);
		if (ret != HYLA_SUCCESS)
			return ret;
	}
	int64_t last = (A->nt - 1) * nb;
	if (n - last >= 2)
		return TYPED(hyla__insert_gehrd_tail)(hyla__tile(A, 0, A->nt - 1),
		                                      hyla__tile(tau, A->nt - 1, 0), last);
	return HYLA_SUCCESS;
}

int PUBLIC(gehrd)(int64_t n, int64_t ilo, int64_t ihi, real_t *a, int64_t lda, real_t *tau)
{
	return PUBLIC(gehrd_nb)(n, ilo, ihi, a, lda, tau, 0);
}

int PUBLIC(gehrd_nb)(int64_t n, int64_t ilo, int64_t ihi, real_t *a, int64_t lda, real_t *tau,
                     int64_t nb)
{
	int ret = hyla__check_hessenberg_args(n, ilo, ihi, a, lda, tau, n > 1);
	if (ret == HYLA_SUCCESS && (nb < 0 || nb > INT32_MAX))
		ret = HYLA_ERROR(-7, "nb = %lld must be >= 0 (0: default)", (long long)nb);
	if (ret != HYLA_SUCCESS || n <= 1)
		return ret;
	if ((ret = hyla__ensure_init()) != HYLA_SUCCESS)
		return ret;
	if (nb == 0)
		nb = hyla_gehrd_default_nb(n);
	if (ilo != 1 || ihi != n || n <= nb)
		return (int)LAPACKE(gehrd)(LAPACK_COL_MAJOR, (lapack_int)n, (lapack_int)ilo,
		                               (lapack_int)ihi, a, (lapack_int)lda, tau);

	hyla_desc descA, descTau;
	if ((ret = hyla__desc_register_views(&descA, a, n, n, lda, nb, sizeof(real_t))) != HYLA_SUCCESS)
		return ret;
	if ((ret = hyla__desc_register(&descTau, tau, n - 1, 1, n - 1, nb, 1, sizeof(real_t)))
	    != HYLA_SUCCESS) {
		hyla__desc_unregister(&descA);
		return ret;
	}
	int64_t group = hyla_gehrd_update_width(n) / nb > 1 ? hyla_gehrd_update_width(n) / nb : 1;
	starpu_data_handle_t scratch = TYPED(hyla__gehrd_register_scratch)(), w;
	starpu_matrix_data_register(&w, -1, 0, (uint32_t)nb, (uint32_t)nb, (uint32_t)(group * nb),
	                            sizeof(real_t));

	ret = submit_gehrd(&descA, &descTau, scratch, w, group);

	starpu_data_unregister_submit(scratch);
	starpu_data_unregister_submit(w);
	hyla__desc_unregister(&descTau);
	hyla__desc_unregister(&descA);
	return ret;
}
