/* Symmetric tridiagonal reduction Q^T A Q = T as a task graph (seed 002,
 * section 3.5; LAPACK dsytrd's contract and output). Typed source: see
 * runtime/precision.h.
 *
 * Lower: A is column panels of width nb, views of one handle (the trailing
 * matrix one matrix wherever it is). For each panel k but the last:
 *   panel(k)       LAPACK's DLATRD on its columns (CPU): reflectors, e, tau
 *                  and W, one SYMV per column over the trailing matrix;
 *   update(k, g)   A -= V W^T + W V^T on the lower part of the later panels:
 *                  the next one alone and first, the others in groups;
 * the last panel goes to LAPACK's dsytrd (CPU). At the end e goes back onto
 * the subdiagonal and d is read off the diagonal, as dsytrd leaves them
 * (a last task). Upper: the same on J A J (J the reversal), LAPACK's upper
 * reduction being the lower one mirrored, through a reversed copy (the
 * synchronous call only). */
#include <lapacke.h>
#include <stdlib.h>
#include "algorithms.h"
#include "codelets.h"
#include "runtime.h"

static int submit_sytrd(const hyla_desc *A, const hyla_desc *E, const hyla_desc *Tau)
{
	int64_t n = A->n, nb = A->nb;
	int64_t width = hyla_gehrd_update_width(n), group = width / nb > 1 ? width / nb : 1;
	int ret = HYLA_SUCCESS;
	for (int64_t k = 0; k + 1 < A->nt && ret == HYLA_SUCCESS; k++) {
		int64_t c = k * nb;
		starpu_data_handle_t w;
		starpu_matrix_data_register(&w, -1, 0, (uint32_t)n, (uint32_t)n, (uint32_t)nb, sizeof(real_t));
		ret = TYPED(hyla__insert_sytrd_panel)(hyla__tile(E, k, 0), hyla__tile(Tau, k, 0), w,
		                                      &A->tiles[k], (int)(A->nt - k), c);
		for (int64_t p = k + 1; p < A->nt && ret == HYLA_SUCCESS;) {
			int64_t count = p == k + 1 ? 1 : (A->nt - p < group ? A->nt - p : group);
			ret = TYPED(hyla__insert_sytrd_update)(A->tiles[k], w, &A->tiles[p], (int)count, c,
			                                       p * nb, p == k + 1 ? STARPU_MAX_PRIO
			                                                          : STARPU_DEFAULT_PRIO);
			p += count;
		}
		starpu_data_unregister_submit(w);
		hyla__progress_mark(A->tiles[k], k + 1, A->nt);
	}
	int64_t last = (A->nt - 1) * nb, t = n - last;
	if (ret == HYLA_SUCCESS && t >= 2) {
		starpu_data_handle_t scratch;
		starpu_vector_data_register(&scratch, -1, 0, (uint32_t)(2 * t + 64 * t), sizeof(real_t));
		ret = TYPED(hyla__insert_sytrd_tail)(A->tiles[A->nt - 1], hyla__tile(Tau, A->nt - 1, 0),
		                                     scratch, last);
		starpu_data_unregister_submit(scratch);
	}
	return ret;
}

/* LAPACK's dsytrd on the host (_work: no NaN scan, as LAPACK itself). */
static int sytrd_host(char uplo, int64_t n, real_t *a, int64_t lda, real_t *d, real_t *e,
                      real_t *tau)
{
	lapack_int ln = (lapack_int)n, ld = (lapack_int)lda;
	real_t size;
	LAPACKE(sytrd_work)(LAPACK_COL_MAJOR, uplo, ln, a, ld, d, e, tau, &size, -1);
	real_t *work = malloc(sizeof *work * ((size_t)size + 1));
	if (!work)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for dsytrd's workspace");
	int info = (int)LAPACKE(sytrd_work)(LAPACK_COL_MAJOR, uplo, ln, a, ld, d, e, tau, work,
	                                    (lapack_int)size + 1);
	free(work);
	return info;
}

/* Submits the lower reduction of A (column-panel views) into d, e and tau
 * (registered here, in the caller's memory once the request is waited
 * for), its end (d and e where dsytrd leaves them) and the request's fence. */
static int submit_call(const hyla_desc *A, real_t *d, real_t *e, real_t *tau, hyla_request *req)
{
	int64_t n = A->n, nb = A->nb;
	hyla_desc D = {0}, E = {0}, Tau = {0};
	int ret = hyla__request_vector(req, &D, d, n, nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = hyla__request_vector(req, &E, e, n - 1, nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = hyla__request_vector(req, &Tau, tau, n - 1, nb, sizeof(real_t));
	if (ret == HYLA_SUCCESS)
		ret = submit_sytrd(A, &E, &Tau);
	if (ret == HYLA_SUCCESS)
		ret = TYPED(hyla__insert_band_finish)(&D, &E, A, 1);
	if (ret == HYLA_SUCCESS)
		ret = hyla__request_fence(req, A->tiles, (int)A->nt);
	free(D.tiles), free(E.tiles), free(Tau.tiles); /* the handles are the request's */
	return ret;
}

/* The lower reduction of the n-by-n a (n > nb) with the graph. */
static int reduce_lower(int64_t n, real_t *a, int64_t lda, real_t *d, real_t *e, real_t *tau,
                        int64_t nb)
{
	hyla_desc A;
	int ret = hyla__desc_register_views(&A, a, n, n, lda, nb, sizeof(real_t));
	if (ret != HYLA_SUCCESS)
		return ret;
	struct hyla_request req = {0};
	return hyla__finish_sync(&req, &A, submit_call(&A, d, e, tau, &req));
}

/* b = J a J with J the reversal (b(i, j) = a(n-1-i, n-1-j)): the upper
 * triangle of a becomes the lower one of b. */
static void reverse(int64_t n, const real_t *a, int64_t lda, real_t *b, int64_t ldb)
{
	for (int64_t j = 0; j < n; j++)
		for (int64_t i = 0; i < n; i++)
			b[i + j * ldb] = a[(n - 1 - i) + (n - 1 - j) * lda];
}

/* dsytrd's upper reduction of a is its lower one of J a J, mirrored
 * (columns from the last on): d, e and tau come reversed. */
static int reduce_upper(int64_t n, real_t *a, int64_t lda, real_t *d, real_t *e, real_t *tau,
                        int64_t nb)
{
	real_t *b = hyla_malloc(sizeof *b * (size_t)(n * n));
	if (!b)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for the %lld-by-%lld mirror", (long long)n,
		                  (long long)n);
	reverse(n, a, lda, b, n);
	int ret = reduce_lower(n, b, n, d, e, tau, nb);
	if (ret == HYLA_SUCCESS) {
		reverse(n, b, n, a, lda);
		for (int64_t i = 0, j = n - 1; i < j; i++, j--) {
			real_t t = d[i];
			d[i] = d[j], d[j] = t;
		}
		for (int64_t i = 0, j = n - 2; i < j; i++, j--) {
			real_t t = e[i];
			e[i] = e[j], e[j] = t;
			t = tau[i];
			tau[i] = tau[j], tau[j] = t;
		}
	}
	hyla_free(b, sizeof *b * (size_t)(n * n));
	return ret;
}

int PUBLIC(sytrd)(char uplo, int64_t n, real_t *a, int64_t lda, real_t *d, real_t *e, real_t *tau)
{
	int ret = hyla__check_sytrd_args(uplo, n, a, lda, d, e, tau);
	if (ret != HYLA_SUCCESS || n == 0)
		return ret;
	if ((ret = hyla__ensure_init()) != HYLA_SUCCESS)
		return ret;
	int64_t nb = hyla_sytrd_default_nb(n);
	int upper = uplo == 'U' || uplo == 'u';
	if (n <= nb)
		return sytrd_host(upper ? 'U' : 'L', n, a, lda, d, e, tau);
	return upper ? reduce_upper(n, a, lda, d, e, tau, nb) : reduce_lower(n, a, lda, d, e, tau, nb);
}

int PUBLIC(sytrd_async)(char uplo, hyla_matrix *a, real_t *d, real_t *e, real_t *tau,
                        hyla_request *req)
{
	if (uplo != 'L' && uplo != 'l')
		return HYLA_ERROR(-1, "uplo = '%c': the asynchronous reduction takes 'L' only", uplo);
	const hyla_desc *A = hyla__matrix_desc(a, sizeof(real_t));
	if (!A)
		return -2;
	if (A->m != A->n)
		return HYLA_ERROR(-2, "a is %lld-by-%lld, not square", (long long)A->m, (long long)A->n);
	if (!d)
		return HYLA_ERROR(-3, "d is NULL");
	if (A->n > 1 && !e)
		return HYLA_ERROR(-4, "e is NULL");
	if (A->n > 1 && !tau)
		return HYLA_ERROR(-5, "tau is NULL");
	if (!req)
		return HYLA_ERROR(-6, "req is NULL");
	return submit_call(A, d, e, tau, req);
}
