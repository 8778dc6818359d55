/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The tridiagonal panel (LAPACK's DLATRD, lower) as a parallel task: each
 * core of a combined worker takes a slice of the rows, and the cores meet
 * at four barriers a column (codelets/spmd_team.h). A core's rows of
 * w = A22 v: the symmetric block of its rows, the rows' part left of it,
 * and the columns' part below it (A22 is stored lower). Typed source: see
 * runtime/precision.h. */
#include <cblas.h>
#include "codelets.h"
#include "spmd_team.h"

struct latrd {
	int64_t n, nb, lda, ldw, lo, hi; /* [lo, hi): this core's rows */
	real_t *a, *e, *tau, *w;
};

/* Slot layout after S_DOTS: W^T v and A^T v (nb each, summed over cores),
 * then this core's own vectors (nb each). */
enum { D_WV, D_AV, OWN_W, OWN_A, OWN_S1, OWN_S2, SLOT_VECTORS };

static real_t *vec(const struct latrd *p, const struct team *t, int core, int which)
{
	return team_slot(t, core) + S_DOTS + which * p->nb;
}

/* A(i:n, i) -= A(i:n, 0:i) W(i, 0:i)^T + W(i:n, 0:i) A(i, 0:i)^T on this
 * core's rows; wlast: W(i, i-1), which its owner may be writing now. */
static void update_column(const struct latrd *p, const struct team *t, int64_t i, real_t wlast)
{
	int64_t lo = later(p->lo, i), rows = p->hi - lo;
	if (i == 0 || rows <= 0)
		return;
	real_t *wrow = vec(p, t, t->rank, OWN_W), *arow = vec(p, t, t->rank, OWN_A);
	for (int64_t k = 0; k < i; k++) {
		wrow[k] = k == i - 1 ? wlast : p->w[i + k * p->ldw];
		arow[k] = p->a[i + k * p->lda];
	}
	real_t *col = p->a + i * p->lda + lo;
	BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)rows, (int)i, -1, p->a + lo, (int)p->lda, wrow, 1,
	           1, col, 1);
	BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)rows, (int)i, -1, p->w + lo, (int)p->ldw, arow, 1,
	           1, col, 1);
}

/* w[R] = A22(R, :) v for this core's rows R of A22 = A(i+1:n, i+1:n). */
static void symv_rows(const struct latrd *p, int64_t i, int64_t lo, int64_t hi, real_t *wi)
{
	const real_t *v = p->a + i * p->lda;
	int64_t rows = hi - lo, lda = p->lda;
	BLAS(symv)(CblasColMajor, CblasLower, (int)rows, 1, p->a + lo + lo * lda, (int)lda, v + lo, 1, 0,
	           wi + lo, 1);
	if (lo > i + 1)
		BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)rows, (int)(lo - i - 1), 1,
		           p->a + lo + (i + 1) * lda, (int)lda, v + i + 1, 1, 1, wi + lo, 1);
	if (p->n > hi)
		BLAS(gemv)(CblasColMajor, CblasTrans, (int)(p->n - hi), (int)rows, 1, p->a + hi + lo * lda,
		           (int)lda, v + hi, 1, 1, wi + lo, 1);
}

/* Column i (LAPACK's DLATRD loop body); *wlast: W(i, i-1) in, W(i+1, i) out. */
static void column(const struct latrd *p, const struct team *t, int64_t i, real_t *wlast)
{
	real_t *ai = p->a + i * p->lda, *wi = p->w + i * p->ldw;
	real_t *mine = team_slot(t, t->rank), beta, tau, scale;
	int64_t x0 = later(p->lo, i + 2), lo = later(p->lo, i + 1), hi = p->hi, rows = hi - lo;
	int owns_next = p->lo <= i + 1 && i + 1 < hi;
	update_column(p, t, i, *wlast);
	team_part_norm(t, ai, x0, hi, 1);
	if (owns_next)
		t->common[C_ALPHA] = ai[i + 1];
	team_wait(t);
	team_reflector(t, ai, x0, hi, 1, &beta, &tau, &scale);
	for (int64_t r = x0; r < hi; r++)
		ai[r] *= scale;
	if (owns_next)
		ai[i + 1] = 1;
	if (t->rank == 0)
		p->e[i] = beta, p->tau[i] = tau;
	team_wait(t);
	/* w = A22 v - A W^T v - W A^T v, scaled by tau; then the part along v. */
	real_t *wv = vec(p, t, t->rank, D_WV), *av = vec(p, t, t->rank, D_AV);
	for (int64_t k = 0; k < i; k++)
		wv[k] = av[k] = 0;
	if (rows > 0) {
		symv_rows(p, i, lo, hi, wi);
		if (i > 0) {
			BLAS(gemv)(CblasColMajor, CblasTrans, (int)rows, (int)i, 1, p->w + lo, (int)p->ldw,
			           ai + lo, 1, 0, wv, 1);
			BLAS(gemv)(CblasColMajor, CblasTrans, (int)rows, (int)i, 1, p->a + lo, (int)p->lda,
			           ai + lo, 1, 0, av, 1);
		}
	}
	team_wait(t);
	real_t *s1 = vec(p, t, t->rank, OWN_S1), *s2 = vec(p, t, t->rank, OWN_S2), dot = 0;
	team_sums(t, S_DOTS + D_WV * (int)p->nb, (int)i, s1);
	team_sums(t, S_DOTS + D_AV * (int)p->nb, (int)i, s2);
	if (rows > 0) {
		if (i > 0) {
			BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)rows, (int)i, -1, p->a + lo, (int)p->lda,
			           s1, 1, 1, wi + lo, 1);
			BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)rows, (int)i, -1, p->w + lo, (int)p->ldw,
			           s2, 1, 1, wi + lo, 1);
		}
		BLAS(scal)((int)rows, tau, wi + lo, 1);
		dot = BLAS(dot)((int)rows, wi + lo, 1, ai + lo, 1);
	}
	mine[S_SCALAR] = dot;
	if (owns_next)
		t->common[C_FREE] = wi[i + 1];
	team_wait(t);
	real_t total = 0;
	for (int q = 0; q < t->size; q++)
		total += team_slot(t, q)[S_SCALAR];
	real_t alpha = -(real_t)0.5 * tau * total;
	if (rows > 0)
		BLAS(axpy)((int)rows, alpha, ai + lo, 1, wi + lo, 1);
	*wlast = t->common[C_FREE] + alpha;
}

int TYPED(hyla__latrd_spmd)(struct hyla_team_arg *arg, int rank, int size, int n, int nb,
                            real_t *a, int lda, real_t *e, real_t *tau, real_t *w, int ldw)
{
	struct team t;
	if (!team_join(&t, arg, rank, size, 1, SLOT_VECTORS * nb)) /* W(i+1, i) */
		return 0;
	struct latrd p = {n, nb, lda, ldw, 0, 0, a, e, tau, w};
	team_share(0, n, rank, size, &p.lo, &p.hi);
	real_t wlast = 0;
	for (int64_t i = 0; i < nb; i++)
		column(&p, &t, i, &wlast);
	team_leave(&t);
	return 1;
}
