/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* LAPACK on the host: what the routines do below their task graphs' sizes
 * (the _work interfaces: no NaN scan, which would turn NaN input into an
 * argument error; LAPACK passes NaN through). Typed source: see
 * runtime/precision.h. */
#include <lapacke.h>
#include <stdlib.h>
#include "typed.h"

/* The workspace for a LAPACK routine: what its query answered, at least the
 * routine's minimum max(1, minimum) (an application's ILAENV may give a
 * block size of 0, and the query then answers 0), plus one against the
 * answer's rounding. */
static lapack_int lwork_of(real_t query, int64_t minimum)
{
	minimum = minimum > 1 ? minimum : 1;
	int64_t size = (int64_t)query > minimum ? (int64_t)query : minimum;
	return (lapack_int)(size + 1);
}

int TYPED(hyla__host_geqrf)(int64_t m, int64_t n, real_t *a, int64_t lda, real_t *tau)
{
	lapack_int lm = (lapack_int)m, ln = (lapack_int)n, ld = (lapack_int)lda;
	real_t size;
	LAPACKE(geqrf_work)(LAPACK_COL_MAJOR, lm, ln, a, ld, tau, &size, -1);
	lapack_int lwork = lwork_of(size, n);
	real_t *work = malloc(sizeof *work * (size_t)lwork);
	if (!work)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for dgeqrf's workspace");
	int info = (int)LAPACKE(geqrf_work)(LAPACK_COL_MAJOR, lm, ln, a, ld, tau, work,
	                                    lwork);
	free(work);
	return info;
}

int TYPED(hyla__host_orgqr)(int64_t m, int64_t n, int64_t k, real_t *a, int64_t lda,
                            const real_t *tau)
{
	lapack_int lm = (lapack_int)m, ln = (lapack_int)n, lk = (lapack_int)k, ld = (lapack_int)lda;
	real_t size;
	LAPACKE(orgqr_work)(LAPACK_COL_MAJOR, lm, ln, lk, a, ld, tau, &size, -1);
	lapack_int lwork = lwork_of(size, n);
	real_t *work = malloc(sizeof *work * (size_t)lwork);
	if (!work)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for dorgqr's workspace");
	int info = (int)LAPACKE(orgqr_work)(LAPACK_COL_MAJOR, lm, ln, lk, a, ld, tau, work,
	                                    lwork);
	free(work);
	return info;
}

int TYPED(hyla__host_sytrd)(char uplo, int64_t n, real_t *a, int64_t lda, real_t *d, real_t *e,
                            real_t *tau)
{
	lapack_int ln = (lapack_int)n, ld = (lapack_int)lda;
	real_t size;
	LAPACKE(sytrd_work)(LAPACK_COL_MAJOR, uplo, ln, a, ld, d, e, tau, &size, -1);
	lapack_int lwork = lwork_of(size, 1);
	real_t *work = malloc(sizeof *work * (size_t)lwork);
	if (!work)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for dsytrd's workspace");
	int info = (int)LAPACKE(sytrd_work)(LAPACK_COL_MAJOR, uplo, ln, a, ld, d, e, tau, work,
	                                    lwork);
	free(work);
	return info;
}

int TYPED(hyla__host_gebrd)(int64_t m, int64_t n, real_t *a, int64_t lda, real_t *d, real_t *e,
                            real_t *tauq, real_t *taup)
{
	lapack_int lm = (lapack_int)m, ln = (lapack_int)n, ld = (lapack_int)lda;
	real_t size;
	LAPACKE(gebrd_work)(LAPACK_COL_MAJOR, lm, ln, a, ld, d, e, tauq, taup, &size, -1);
	lapack_int lwork = lwork_of(size, m > n ? m : n);
	real_t *work = malloc(sizeof *work * (size_t)lwork);
	if (!work)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for dgebrd's workspace");
	int info = (int)LAPACKE(gebrd_work)(LAPACK_COL_MAJOR, lm, ln, a, ld, d, e, tauq, taup, work,
	                                    lwork);
	free(work);
	return info;
}

int TYPED(hyla__host_gehrd)(int64_t n, int64_t ilo, int64_t ihi, real_t *a, int64_t lda,
                            real_t *tau)
{
	lapack_int ln = (lapack_int)n, ld = (lapack_int)lda, lo = (lapack_int)ilo, hi = (lapack_int)ihi;
	real_t size;
	LAPACKE(gehrd_work)(LAPACK_COL_MAJOR, ln, lo, hi, a, ld, tau, &size, -1);
	lapack_int lwork = lwork_of(size, n);
	real_t *work = malloc(sizeof *work * (size_t)lwork);
	if (!work)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for dgehrd's workspace");
	int info = (int)LAPACKE(gehrd_work)(LAPACK_COL_MAJOR, ln, lo, hi, a, ld, tau, work,
	                                    lwork);
	free(work);
	return info;
}

int TYPED(hyla__host_ormhr)(char side, char trans, int64_t rows, int64_t cols, const real_t *b,
                            int64_t ld, const real_t *tau, real_t *c)
{
	lapack_int r = (lapack_int)rows, k = (lapack_int)cols, l = (lapack_int)ld;
	lapack_int m = side == 'L' ? r : k;
	real_t size;
	LAPACKE(ormhr_work)(LAPACK_COL_MAJOR, side, trans, r, k, 1, m, b, l, tau, c, l, &size, -1);
	lapack_int lwork = lwork_of(size, side == 'L' ? cols : rows);
	real_t *work = malloc(sizeof *work * (size_t)lwork);
	if (!work)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for dormhr's workspace");
	int info = (int)LAPACKE(ormhr_work)(LAPACK_COL_MAJOR, side, trans, r, k, 1, m, b, l, tau, c, l,
	                                    work, lwork);
	free(work);
	return info;
}

int TYPED(hyla__host_syevd)(char jobz, char uplo, int64_t n, real_t *a, int64_t lda, real_t *w)
{
	lapack_int ln = (lapack_int)n, ld = (lapack_int)lda, isize;
	real_t size;
	LAPACKE(syevd_work)(LAPACK_COL_MAJOR, jobz, uplo, ln, a, ld, w, &size, -1, &isize, -1);
	int vectors = jobz == 'V' || jobz == 'v';
	lapack_int lwork = lwork_of(size, vectors ? 1 + 6 * n + 2 * n * n : 2 * n + 1);
	lapack_int liwork = isize > 3 + 5 * ln ? isize : 3 + 5 * ln;
	real_t *work = malloc(sizeof *work * (size_t)lwork);
	lapack_int *iwork = malloc(sizeof *iwork * (size_t)liwork);
	int info = work && iwork ? (int)LAPACKE(syevd_work)(LAPACK_COL_MAJOR, jobz, uplo, ln, a, ld, w,
	                                                    work, lwork, iwork, liwork)
	                         : HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for dsyevd's workspace");
	free(work), free(iwork);
	return info;
}

int TYPED(hyla__host_gesdd)(char jobz, int64_t m, int64_t n, real_t *a, int64_t lda, real_t *s,
                            real_t *u, int64_t ldu, real_t *vt, int64_t ldvt)
{
	lapack_int lm = (lapack_int)m, ln = (lapack_int)n, ld = (lapack_int)lda;
	lapack_int lu = (lapack_int)ldu, lv = (lapack_int)ldvt, k = lm < ln ? lm : ln;
	real_t size;
	lapack_int *iwork = malloc(sizeof *iwork * (size_t)(8 * (k > 0 ? k : 1)));
	if (!iwork)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for dgesdd's workspace");
	LAPACKE(gesdd_work)(LAPACK_COL_MAJOR, jobz, lm, ln, a, ld, s, u, lu, vt, lv, &size, -1, iwork);
	lapack_int lwork = lwork_of(size, 4 * k * k + 7 * k + (m > n ? m : n));
	real_t *work = malloc(sizeof *work * (size_t)lwork);
	int info = work ? (int)LAPACKE(gesdd_work)(LAPACK_COL_MAJOR, jobz, lm, ln, a, ld, s, u, lu, vt,
	                                           lv, work, lwork, iwork)
	                : HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for dgesdd's workspace");
	free(work), free(iwork);
	return info;
}
