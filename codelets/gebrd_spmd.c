/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The bidiagonal panel (LAPACK's DLABRD, m >= n) as a parallel task: each
 * core of a combined worker takes a slice of the rows (the column
 * reflector's updates, X) and a slice of the columns (the row reflector's,
 * Y), so that both GEMVs over the trailing matrix, A^T v and A u, need no
 * sum over cores; the cores meet at six barriers a column
 * (codelets/spmd_team.h). Typed source: see runtime/precision.h. */
#include <cblas.h>
#include "codelets.h"
#include "spmd_team.h"

struct labrd {
	int64_t m, n, nb, lda, ldx, ldy;
	int64_t r0, r1, c0, c1; /* this core's rows [r0, r1) and columns [c0, c1) */
	real_t *a, *d, *e, *tauq, *taup, *x, *y;
	real_t *u; /* row i's reflector, contiguous (the common slots) */
};

/* Slot vectors after S_DOTS (nb each): two partial products summed over
 * cores, then this core's own two. */
enum { D_FIRST, D_SECOND, OWN_FIRST, OWN_SECOND, SLOT_VECTORS };

static real_t *vec(const struct labrd *p, const struct team *t, int which)
{
	return team_slot(t, t->rank) + S_DOTS + which * p->nb;
}

/* out = the cores' sums of partial product `which`, count entries. */
static void sum_of(const struct labrd *p, const struct team *t, int which, int64_t count, real_t *out)
{
	team_sums(t, S_DOTS + which * (int)p->nb, (int)count, out);
}

/* y_part = M(rows, 0:k)^T v over this core's rows of M (zero if none). */
static void rows_t_times(int64_t rows, int64_t k, const real_t *mat, int64_t ld, const real_t *v,
                         real_t *out)
{
	for (int64_t j = 0; j < k; j++)
		out[j] = 0;
	if (rows > 0 && k > 0)
		BLAS(gemv)(CblasColMajor, CblasTrans, (int)rows, (int)k, 1, mat, (int)ld, v, 1, 0, out, 1);
}

/* Column i: A(i:m, i) updated, its reflector (d, tauq). */
static void column_reflector(const struct labrd *p, const struct team *t, int64_t i)
{
	real_t *ai = p->a + i * p->lda, beta, tau, scale;
	int64_t lo = later(p->r0, i), hi = p->r1, rows = hi - lo, x0 = later(p->r0, i + 1);
	int owns_i = p->r0 <= i && i < p->r1;
	if (i > 0 && rows > 0) {
		real_t *yrow = vec(p, t, OWN_FIRST);
		for (int64_t k = 0; k < i; k++)
			yrow[k] = p->y[i + k * p->ldy];
		BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)rows, (int)i, -1, p->a + lo, (int)p->lda,
		           yrow, 1, 1, ai + lo, 1);
		BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)rows, (int)i, -1, p->x + lo, (int)p->ldx, ai,
		           1, 1, ai + lo, 1);
	}
	team_part_norm(t, ai, x0, hi, 1);
	if (owns_i)
		t->common[C_ALPHA] = ai[i];
	team_wait(t);
	team_reflector(t, ai, x0, hi, 1, &beta, &tau, &scale);
	for (int64_t r = x0; r < hi; r++)
		ai[r] *= scale;
	if (owns_i)
		ai[i] = 1;
	if (t->rank == 0)
		p->d[i] = beta, p->tauq[i] = tau;
	team_wait(t);
}

/* Y(i+1:n, i) and row i: A(i, i+1:n) updated, its reflector (e, taup),
 * into u; this core's columns. */
static void row_reflector(const struct labrd *p, const struct team *t, int64_t i)
{
	real_t *v = p->a + i * p->lda, *ri = p->a + i, *yi = p->y + i * p->ldy; /* column, row i */
	real_t tauq = p->tauq[i], beta, tau, scale;
	int64_t lo = later(p->c0, i + 1), hi = p->c1, cols = hi - lo, r = later(p->r0, i);
	int owns_next = p->c0 <= i + 1 && i + 1 < p->c1;
	if (cols > 0)
		BLAS(gemv)(CblasColMajor, CblasTrans, (int)(p->m - i), (int)cols, 1, p->a + i + lo * p->lda,
		           (int)p->lda, v + i, 1, 0, yi + lo, 1);
	/* A(i:m, 0:i)^T v and X(i:m, 0:i)^T v over this core's rows. */
	rows_t_times(p->r1 - r, i, p->a + r, p->lda, v + r, vec(p, t, D_FIRST));
	rows_t_times(p->r1 - r, i, p->x + r, p->ldx, v + r, vec(p, t, D_SECOND));
	team_wait(t);
	real_t *s1 = vec(p, t, OWN_FIRST), *s2 = vec(p, t, OWN_SECOND);
	sum_of(p, t, D_FIRST, i, s1);
	sum_of(p, t, D_SECOND, i, s2);
	if (cols > 0) {
		int64_t lda = p->lda, ldy = p->ldy;
		real_t *row = ri + lo * lda;
		if (i > 0) {
			BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)cols, (int)i, -1, p->y + lo, (int)ldy, s1,
			           1, 1, yi + lo, 1);
			BLAS(gemv)(CblasColMajor, CblasTrans, (int)i, (int)cols, -1, p->a + lo * lda, (int)lda,
			           s2, 1, 1, yi + lo, 1);
		}
		BLAS(scal)((int)cols, tauq, yi + lo, 1);
		/* A(i, cols) -= Y(cols, 0:i+1) A(i, 0:i+1)^T + A(0:i, cols)^T X(i, 0:i)^T */
		BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)cols, (int)(i + 1), -1, p->y + lo, (int)ldy,
		           p->a + i, (int)lda, 1, row, (int)lda);
		if (i > 0)
			BLAS(gemv)(CblasColMajor, CblasTrans, (int)i, (int)cols, -1, p->a + lo * lda, (int)lda,
			           p->x + i, (int)p->ldx, 1, row, (int)lda);
	}
	int64_t x0 = later(lo, i + 2);
	team_part_norm(t, ri, x0, hi, p->lda);
	if (owns_next)
		t->common[C_ALPHA] = ri[(i + 1) * p->lda];
	team_wait(t);
	team_reflector(t, ri, x0, hi, p->lda, &beta, &tau, &scale);
	for (int64_t c = x0; c < hi; c++)
		ri[c * p->lda] *= scale;
	if (owns_next)
		ri[(i + 1) * p->lda] = 1;
	for (int64_t c = lo; c < hi; c++)
		p->u[c] = ri[c * p->lda];
	if (t->rank == 0)
		p->e[i] = beta, p->taup[i] = tau;
	team_wait(t);
}

/* X(i+1:m, i) = taup (A u - A(:, 0:i+1) Y^T u - X(:, 0:i) A(0:i, :) u) on
 * this core's rows. */
static void x_column(const struct labrd *p, const struct team *t, int64_t i)
{
	real_t *xi = p->x + i * p->ldx, *u = p->u;
	int64_t lo = later(p->r0, i + 1), rows = p->r1 - lo, c = later(p->c0, i + 1);
	int64_t cols = p->c1 - c, lda = p->lda;
	if (rows > 0)
		BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)rows, (int)(p->n - i - 1), 1,
		           p->a + lo + (i + 1) * lda, (int)lda, u + i + 1, 1, 0, xi + lo, 1);
	/* Y(cols, 0:i+1)^T u and A(0:i, cols) u over this core's columns. */
	rows_t_times(cols, i + 1, p->y + c, p->ldy, u + c, vec(p, t, D_FIRST));
	real_t *au = vec(p, t, D_SECOND);
	for (int64_t k = 0; k < i; k++)
		au[k] = 0;
	if (cols > 0 && i > 0)
		BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)i, (int)cols, 1, p->a + c * lda, (int)lda,
		           u + c, 1, 0, au, 1);
	team_wait(t);
	real_t *t1 = vec(p, t, OWN_FIRST), *t2 = vec(p, t, OWN_SECOND);
	sum_of(p, t, D_FIRST, i + 1, t1);
	sum_of(p, t, D_SECOND, i, t2);
	if (rows <= 0)
		return;
	BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)rows, (int)(i + 1), -1, p->a + lo, (int)lda, t1, 1,
	           1, xi + lo, 1);
	if (i > 0)
		BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)rows, (int)i, -1, p->x + lo, (int)p->ldx, t2,
		           1, 1, xi + lo, 1);
	BLAS(scal)((int)rows, p->taup[i], xi + lo, 1);
}

int TYPED(hyla__labrd_spmd)(struct hyla_team_arg *arg, int rank, int size, int m, int n, int nb,
                            real_t *a, int lda, real_t *d, real_t *e, real_t *tauq, real_t *taup,
                            real_t *x, int ldx, real_t *y, int ldy)
{
	struct team t;
	if (nb >= n || !team_join(&t, arg, rank, size, n, SLOT_VECTORS * nb))
		return 0;
	struct labrd p = {.m = m, .n = n, .nb = nb, .lda = lda, .ldx = ldx, .ldy = ldy, .a = a,
	                  .d = d, .e = e, .tauq = tauq, .taup = taup, .x = x, .y = y,
	                  .u = t.common + C_FREE};
	team_share(0, m, rank, size, &p.r0, &p.r1);
	team_share(0, n, rank, size, &p.c0, &p.c1);
	for (int64_t i = 0; i < nb; i++) {
		column_reflector(&p, &t, i);
		row_reflector(&p, &t, i);
		x_column(&p, &t, i);
	}
	team_leave(&t);
	return 1;
}
