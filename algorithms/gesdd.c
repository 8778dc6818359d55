/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The singular value decomposition A = U S V^T (LAPACK dgesdd's contract):
 * hyla's bidiagonal reduction Q^T A P = B (algorithms/gebrd.c; the values
 * alone: in two stages, codelets/ge2gb.c and gb2bd.c), B's SVD
 * U_B S V_B^T by divide and conquer (algorithms/bdsdc.c), and the vectors
 * U = Q U_B and V = P V_B, as task graphs. Typed source: see
 * runtime/precision.h.
 *
 * For m >= n: Q's reflectors are dgeqrf's, in a's columns; P's are in a's
 * rows, right of the superdiagonal: copied into columns, they are the
 * tridiagonal reduction's, one row down. Each product is dormqr's
 * (hyla__ormqr_submit): U = Q diag(U_B, I) on u's panels, V = P V_B on a
 * workspace, transposed into vt at the end. For m < n: the same on A^T,
 * whose U and V are A's V and U. */
#include <lapacke.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "algorithms.h"
#include "codelets.h"
#include "runtime.h"
#include "typed.h"

/* b = a^T for the rows-by-cols a, in tiles that stay in cache (element by
 * element, the 8000-square V took 0.7 s on the GPU machine's host). */
static void transpose(int64_t rows, int64_t cols, const real_t *a, int64_t lda, real_t *b,
                      int64_t ldb)
{
	enum { TILE = 32 };
	for (int64_t j0 = 0; j0 < cols; j0 += TILE)
		for (int64_t i0 = 0; i0 < rows; i0 += TILE)
			for (int64_t j = j0; j < j0 + TILE && j < cols; j++)
				for (int64_t i = i0; i < i0 + TILE && i < rows; i++)
					b[j + i * ldb] = a[i + j * lda];
}

/* A's largest |entry|, or NaN if it holds one, by columns [first, end). */
struct scan {
	const real_t *a;
	int64_t m, lda, first, end;
	real_t big;
	int nan, running;
	pthread_t thread;
};

static void *scan_columns(void *arg)
{
	struct scan *p = arg;
	real_t big = 0;
	int nan = 0;
	for (int64_t j = p->first; j < p->end; j++)
		for (int64_t i = 0; i < p->m; i++) {
			real_t x = (real_t)fabs(p->a[i + j * p->lda]);
			big = x > big ? x : big;
			nan |= x != x;
		}
	p->big = big, p->nan = nan;
	return NULL;
}

/* The same for the whole of A, a thread for each whole 16 MB, at most 8
 * (LAPACK's dlange took 0.3 s at 8000 on the GPU machine's host; one
 * thread 0.15 s on a core of the 2-core machine: a tenth of svd 8000's time
 * beside the H200). */
static real_t largest(int64_t m, int64_t n, const real_t *a, int64_t lda)
{
	enum { PARTS = 8, BYTES_A_PART = 1 << 24 };
	double bytes = (double)m * (double)n * sizeof *a;
	int parts = bytes / BYTES_A_PART < PARTS ? (int)(bytes / BYTES_A_PART) : PARTS;
	parts = parts < 1 ? 1 : parts;
	struct scan part[PARTS];
	for (int t = 0; t < parts; t++) {
		part[t] = (struct scan){.a = a, .m = m, .lda = lda, .first = n * t / parts,
		                        .end = n * (t + 1) / parts};
		part[t].running = t > 0 && pthread_create(&part[t].thread, NULL, scan_columns,
		                                          &part[t]) == 0;
	}
	for (int t = 0; t < parts; t++)
		if (!part[t].running) /* the first part, or no thread to be had: here */
			scan_columns(&part[t]);
	real_t big = 0;
	int nan = 0;
	for (int t = 0; t < parts; t++) {
		if (part[t].running)
			pthread_join(part[t].thread, NULL);
		big = part[t].big > big ? part[t].big : big;
		nan |= part[t].nan;
	}
	return nan ? (real_t)NAN : big;
}

/* Whether the values alone take the two-stage reduction (codelets/ge2gb.c,
 * gb2bd.c): wherever a core can chase the band (beside a GPU: with the
 * cores' combined worker, a StarPU hyla started). On cores alone the
 * one-stage reduction's GEMVs are memory bound (2 cores, n = 4000: 5.1 s
 * against LAPACK's 19.6 s, where the one-stage graph ran at LAPACK's
 * speed); beside an H200 the two stages took 0.12, 0.30 and 0.93 s at
 * n = 2000, 4000 and 8000, the one-stage graph 0.14, 0.36 and 1.43 s. */
static int two_stage_pays(void)
{
	if (hyla_ncpus() == 0)
		return 0;
	return hyla_ncuda() == 0 || hyla__cores_worker_any(starpu_sched_ctx_get_context()) >= 0;
}

/* Submits the SVD of A (column-panel views, m >= n) into s, with U (m-by-k
 * panels, W; u_rw: its columns beyond n hold the identity's, so RW) and VT
 * (n-by-n panels, W) its singular vectors (U NULL: the values alone); e: 3n
 * elements (e, tauq, taup). */
static int submit_svd(const hyla_desc *A, real_t *s, real_t *e, const hyla_desc *U, int u_rw,
                      const hyla_desc *VT, const hyla_options *o, hyla_sequence *seq)
{
	int64_t m = A->m, n = A->n, nbq = o->nb ? o->nb : hyla__default_nb("orgqr", m, n);
	hyla_desc out[4] = {{0}}, Tq = {0}, Tp = {0}; /* d, e, tauq, taup; tau in nbq tiles */
	const hyla_desc *Qr = NULL, *Pr = NULL, *W = NULL;
	int ret = HYLA_SUCCESS;
	if (!U && two_stage_pays()) {
		int64_t b = o->nb ? o->nb : hyla__default_nb("gesdd_band", m, n);
		b = b < HYLA_BAND_MAX ? b : HYLA_BAND_MAX; /* nb is the caller's: the chase costs n^2 b */
		b = b < n - 1 ? b : n > 1 ? n - 1 : 1;
		ret = hyla__sequence_vector(seq, &out[0], s, n, A->nb, sizeof(real_t));
		if (ret == HYLA_SUCCESS)
			ret = hyla__sequence_vector(seq, &out[1], e, n - 1, A->nb, sizeof(real_t));
		if (ret == HYLA_SUCCESS)
			ret = TYPED(hyla__insert_ge2gb_steps)(A, b);
		starpu_data_handle_t band =
		    hyla__workspace_vector((int64_t)TYPED(hyla__gb2bd_len)(n, b), sizeof(real_t));
		if (ret == HYLA_SUCCESS)
			ret = TYPED(hyla__insert_ge2gb_gather)(A, band, b);
		if (ret == HYLA_SUCCESS)
			ret = TYPED(hyla__insert_gb2bd)(band, &out[0], &out[1], b);
		hyla__workspace_release(band);
	} else {
		ret = TYPED(hyla__gebrd_tall_submit)(A, s, e, e + n, e + 2 * n,
		                                     hyla__update_width(o, n), out, seq);
	}
	if (ret == HYLA_SUCCESS && !U)
		ret = TYPED(hyla__bdsdc_submit)(&out[0], &out[1], NULL, 0, NULL, nbq, seq);
	/* Q's reflectors copied out of A and P's transposed into columns (the
	 * tridiagonal reduction's shape, one row down), in panels of orgqr's
	 * width; V into a workspace in U's panel width (the divide and
	 * conquer's), transposed into VT at the end. */
	if (ret == HYLA_SUCCESS && U)
		ret = hyla__sequence_matrix(seq, m, n, nbq, sizeof(real_t), 1, &Qr);
	if (ret == HYLA_SUCCESS && U)
		ret = TYPED(hyla__insert_copy)(A, Qr);
	if (ret == HYLA_SUCCESS && U && n > 1)
		ret = hyla__sequence_matrix(seq, n, n - 1, nbq, sizeof(real_t), 1, &Pr);
	if (ret == HYLA_SUCCESS && Pr)
		ret = TYPED(hyla__insert_transpose)(A, Pr);
	if (ret == HYLA_SUCCESS && U)
		ret = hyla__sequence_matrix(seq, n, n, U->nb, sizeof(real_t), 1, &W);
	if (ret == HYLA_SUCCESS && U &&
	    (ret = hyla__desc_register(&Tq, NULL, n, 1, n, nbq, 1, sizeof(real_t))) == HYLA_SUCCESS)
		ret = TYPED(hyla__insert_retile)(&out[2], &Tq);
	if (ret == HYLA_SUCCESS && Pr &&
	    (ret = hyla__desc_register(&Tp, NULL, n - 1, 1, n - 1, nbq, 1, sizeof(real_t))) ==
	        HYLA_SUCCESS)
		ret = TYPED(hyla__insert_retile)(&out[3], &Tp);
	if (ret == HYLA_SUCCESS && U)
		ret = TYPED(hyla__bdsdc_submit)(&out[0], &out[1], U, u_rw, W, U->nb, seq);
	if (ret == HYLA_SUCCESS && U)
		ret = TYPED(hyla__ormqr_submit)(Qr, &Tq, U, 0, o);
	if (ret == HYLA_SUCCESS && Pr)
		ret = TYPED(hyla__ormqr_submit)(Pr, &Tp, W, 1, o);
	if (ret == HYLA_SUCCESS && U)
		ret = TYPED(hyla__insert_transpose)(W, VT);
	hyla__desc_unregister_submit(&Tq);
	hyla__desc_unregister_submit(&Tp);
	for (int i = 0; i < 4; i++)
		free(out[i].tiles); /* the sequence's handles */
	return ret;
}

/* The graph of jobz 'N', 'S' and (m >= n) 'A' on A (column-panel views, any
 * shape) into s, U (u_rw: its columns beyond n hold the identity's) and VT
 * (NULL: the values alone), and the sequence's fence: m < n through A^T, a
 * copy the sequence owns (transposes on the GPU where the views are),
 * whose U and V^T are transposed into A's V^T and U. */
static int submit_gesdd(const hyla_desc *A, real_t *s, const hyla_desc *U, int u_rw,
                        const hyla_desc *VT, const hyla_options *o, hyla_sequence *seq)
{
	int64_t m = A->m, n = A->n, mn = m < n ? m : n;
	real_t *e = hyla__sequence_malloc(seq, sizeof *e * (size_t)(3 * mn)); /* and tauq, taup */
	int ret = e ? HYLA_SUCCESS : HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for e, tauq and taup");
	if (ret == HYLA_SUCCESS && m >= n)
		ret = submit_svd(A, s, e, U, u_rw, VT, o, seq);
	if (ret == HYLA_SUCCESS && m < n) {
		int64_t nb = o->nb ? o->nb : hyla__default_nb("gebrd", n, m);
		int64_t nbq = o->nb ? o->nb : hyla__default_nb("orgqr", n, m);
		const hyla_desc *T = NULL, *Ut = NULL, *VTt = NULL;
		ret = hyla__sequence_matrix(seq, n, m, nb < m ? nb : m, sizeof(real_t), 1, &T);
		if (ret == HYLA_SUCCESS)
			ret = TYPED(hyla__insert_transpose)(A, T);
		if (ret == HYLA_SUCCESS && U)
			ret = hyla__sequence_matrix(seq, n, m, nbq, sizeof(real_t), 1, &Ut);
		if (ret == HYLA_SUCCESS && U)
			ret = hyla__sequence_matrix(seq, m, m, nbq, sizeof(real_t), 1, &VTt);
		if (ret == HYLA_SUCCESS)
			ret = submit_svd(T, s, e, Ut, 0, VTt, o, seq);
		if (ret == HYLA_SUCCESS && U)
			ret = TYPED(hyla__insert_transpose)(VTt, U);
		if (ret == HYLA_SUCCESS && U)
			ret = TYPED(hyla__insert_transpose)(Ut, VT);
	}
	return ret == HYLA_SUCCESS ? hyla__sequence_fence(seq, U ? U : A, VT) : ret;
}

/* The synchronous graph on the m-by-n a (jobz 'N' with u NULL, 'S', and for
 * m >= n 'A' with k = m): U m-by-k into u, V^T min(m, n)-by-n into vt. a's
 * contents are the call's (dgesdd destroys them): they stay where the graph
 * left them. */
static int svd_on(int64_t m, int64_t n, int64_t k, real_t *a, int64_t lda, real_t *s, real_t *u,
                  int64_t ldu, real_t *vt, int64_t ldvt, const hyla_options *o)
{
	int64_t mn = m < n ? m : n, big = m < n ? n : m;
	int64_t nb = o->nb ? o->nb : hyla__default_nb("gebrd", big, mn);
	int64_t nbq = o->nb ? o->nb : hyla__default_nb("orgqr", big, mn);
	for (int64_t j = mn; u && j < k; j++) { /* U = Q diag(U_B, I): the identity's columns */
		memset(u + j * ldu, 0, sizeof *u * (size_t)m);
		u[j + j * ldu] = 1;
	}
	hyla_desc A = {0}, U = {0}, VT = {0};
	void *pinned[3] = {hyla__pin(a, m, n, lda, sizeof(real_t)),
	                   u ? hyla__pin(u, m, k, ldu, sizeof(real_t)) : NULL,
	                   u ? hyla__pin(vt, mn, n, ldvt, sizeof(real_t)) : NULL};
	int ret = hyla__desc_register_views(&A, a, m, n, lda, nb, sizeof(real_t));
	A.scratch = 1;
	if (ret == HYLA_SUCCESS && u)
		ret = k > mn ? hyla__desc_register_views(&U, u, m, k, ldu, nbq, sizeof(real_t))
		             : hyla__desc_register_output(&U, u, m, k, ldu, nbq, sizeof(real_t));
	if (ret == HYLA_SUCCESS && u)
		ret = hyla__desc_register_output(&VT, vt, mn, n, ldvt, nbq, sizeof(real_t));
	hyla_sequence seq = {0};
	int sub = ret == HYLA_SUCCESS
	              ? submit_gesdd(&A, s, u ? &U : NULL, k > mn, u ? &VT : NULL, o, &seq)
	              : ret;
	ret = hyla__finish_sync(&seq, &U, sub); /* U unregistered, whatever failed */
	hyla__desc_unregister(&VT);
	hyla__desc_unregister(&A);
	for (int i = 0; i < 3; i++)
		hyla__unpin(pinned[i]);
	return ret;
}

/* The graph's path for any shape (svd_on), jobz 'A' and 'O' with m < n
 * through host copies: A^T (n-by-m), whose U is A's V and V A's U; jobz 'O'
 * through a copy of U that then goes over a. norm: A's largest |entry|. */
static int svd_graph(char jobz, int64_t m, int64_t n, real_t *a, int64_t lda, real_t *s, real_t *u,
                     int64_t ldu, real_t *vt, int64_t ldvt, real_t norm, const hyla_options *o)
{
	int64_t mn = m < n ? m : n, big = m < n ? n : m;
	int all = jobz == 'A', want = jobz != 'N', host_t = m < n && (all || jobz == 'O');
	int64_t k = all ? big : mn; /* the problem's U: rows-by-k */
	/* Refused before A changes (transposed, scaled) where its GPU cannot
	 * take the matrices whole: the caller then has A as it gave it. */
	int64_t rows = host_t ? big : m, cols = host_t ? mn : n; /* svd_on's problem */
	/* Held whole beside A: a wide problem's A^T; with vectors U, V^T, Q's
	 * and P's reflectors, V (submit_svd), a wide one's U^T and V^T^T, and
	 * the top merge's children's U and V (the eigensolver's count). */
	int64_t beside = !want ? (rows < cols ? rows * cols : 0)
	                 : rows >= cols ? rows * k + rows * cols + 4 * cols * cols
	                                : 4 * rows * cols + 5 * rows * rows;
	int fits = hyla__fits_whole(rows, cols, beside, sizeof(real_t));
	if (fits != HYLA_SUCCESS)
		return fits;
	/* The transposed problem's matrix, U and V^T (mn-by-mn), and 'O''s U,
	 * where the caller's arrays do not serve. */
	size_t elems = (size_t)((host_t ? big * mn : 0) + (want && (host_t || jobz == 'O') ? big * k : 0) +
	                        (want && host_t ? mn * mn : 0));
	real_t *copy = elems ? malloc(sizeof(real_t) * elems) : NULL, *next = copy;
	if (elems && !copy)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for the SVD's copies (%zu elements)", elems);
	real_t *ta = a, *tu = u, *tvt = vt;
	int64_t ltu = ldu, ltvt = ldvt, lta = lda;
	if (host_t) {
		ta = next, next += big * mn, lta = big;
		transpose(m, n, a, lda, ta, big);
	}
	if (want && (host_t || jobz == 'O'))
		tu = next, next += big * k, ltu = big;
	if (want && host_t)
		tvt = next, ltvt = mn;
	/* As dgesdd: a matrix whose largest entry is beyond sqrt(safe minimum) /
	 * eps or its inverse is scaled inside that range first, the singular
	 * values back after (a tiny matrix would lose digits to subnormals). */
	lapack_int lm = (lapack_int)mn;
	real_t small = (real_t)sqrt(LAPACKE(lamch_work)('S')) / LAPACKE(lamch_work)('P');
	real_t to = norm > 0 && norm < small ? small : norm > 1 / small ? 1 / small : 0;
	if (to != 0)
		LAPACKE(lascl_work)(LAPACK_COL_MAJOR, 'G', 0, 0, norm, to, (lapack_int)rows,
		                    (lapack_int)cols, ta, (lapack_int)lta);
	int ret = svd_on(rows, cols, k, ta, lta, s, want ? tu : NULL, ltu, tvt, ltvt, o);
	if (to != 0)
		LAPACKE(lascl_work)(LAPACK_COL_MAJOR, 'G', 0, 0, to, norm, lm, 1, s, lm);
	if (ret == HYLA_SUCCESS && want && host_t) { /* A's U is V_t, its V^T is U_t^T */
		transpose(mn, mn, tvt, ltvt, u, ldu);
		transpose(big, k, tu, ltu, jobz == 'O' ? a : vt, jobz == 'O' ? lda : ldvt);
	} else if (ret == HYLA_SUCCESS && jobz == 'O') {
		for (int64_t j = 0; j < mn; j++)
			memcpy(a + j * lda, tu + j * ltu, sizeof *a * (size_t)m);
	}
	free(copy);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_dgesdd(char jobz, int64_t m, int64_t n, double *a, int64_t lda, double *s, double *u,
                int64_t ldu, double *vt, int64_t ldvt, const hyla_options *opts)
#else
int hyla_sgesdd(char jobz, int64_t m, int64_t n, float *a, int64_t lda, float *s, float *u,
                int64_t ldu, float *vt, int64_t ldvt, const hyla_options *opts)
#endif
{
	hyla_options o;
	int ret = hyla__check_gesdd_args(jobz, m, n, a, lda, s, u, ldu, vt, ldvt);
	if (ret == HYLA_SUCCESS)
		ret = hyla__options_check(opts, 11, &o);
	/* As dgesdd: a NaN in A is -4, A untouched (one pass over A: the
	 * scaling reads the same largest entry). */
	real_t norm = ret == HYLA_SUCCESS ? largest(m, n, a, lda) : 0;
	if (isnan(norm))
		ret = HYLA_ERROR(-4, "a holds NaN");
	if (ret != HYLA_SUCCESS || m == 0 || n == 0 || (ret = hyla__ensure_init()) != HYLA_SUCCESS)
		return ret;
	unsigned outer = hyla__context_enter(&o);
	char job = jobz >= 'a' ? (char)(jobz - 'a' + 'A') : jobz;
	int64_t nb = o.nb ? o.nb : hyla__default_nb("gebrd", m, n);
	ret = (m < n ? m : n) <= nb
	          ? TYPED(hyla__host_gesdd)(job, m, n, a, lda, s, u, ldu, vt, ldvt)
	          : svd_graph(job, m, n, a, lda, s, u, ldu, vt, ldvt, norm, &o);
	hyla__context_leave(&o, outer);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_dgesdd_async(char jobz, hyla_matrix *a, double *s, hyla_matrix *u, hyla_matrix *vt,
                      const hyla_options *opts, hyla_sequence *seq)
#else
int hyla_sgesdd_async(char jobz, hyla_matrix *a, float *s, hyla_matrix *u, hyla_matrix *vt,
                      const hyla_options *opts, hyla_sequence *seq)
#endif
{
	const hyla_desc *A = NULL, *U = NULL, *VT = NULL;
	hyla_options o;
	int want = jobz == 'S' || jobz == 's', ret = HYLA_SUCCESS;
	if (!want && jobz != 'N' && jobz != 'n')
		ret = HYLA_ERROR(-1, "jobz = '%c' must be 'N' or 'S'", jobz);
	if (ret == HYLA_SUCCESS)
		ret = hyla__matrix_desc(a, sizeof(real_t), 2, &A);
	int64_t m = A ? A->m : 0, n = A ? A->n : 0, mn = m < n ? m : n;
	if (ret == HYLA_SUCCESS && !s)
		ret = HYLA_ERROR(-3, "s is NULL");
	if (ret == HYLA_SUCCESS && want && (ret = hyla__matrix_desc(u, sizeof(real_t), 4, &U)) ==
	                                       HYLA_SUCCESS && (U->m != m || U->n != mn))
		ret = HYLA_ERROR(-4, "u is %lld-by-%lld, not %lld-by-%lld", (long long)U->m,
		                 (long long)U->n, (long long)m, (long long)mn);
	if (ret == HYLA_SUCCESS && want && (ret = hyla__matrix_desc(vt, sizeof(real_t), 5, &VT)) ==
	                                       HYLA_SUCCESS && (VT->m != mn || VT->n != n))
		ret = HYLA_ERROR(-5, "vt is %lld-by-%lld, not %lld-by-%lld", (long long)VT->m,
		                 (long long)VT->n, (long long)mn, (long long)n);
	if (ret == HYLA_SUCCESS)
		ret = hyla__async_args(opts, 6, seq, &o);
	if (ret != HYLA_SUCCESS)
		return ret;
	if (mn == 0)
		return HYLA_SUCCESS;
	unsigned outer = hyla__context_enter(&o);
	ret = submit_gesdd(A, s, U, 0, VT, &o, seq);
	return hyla__async_done(seq, &o, outer, ret);
}
