/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The Hessenberg panel (LAPACK's DLAHR2) as a parallel task: each core of a
 * combined worker takes a slice of the rows, and the cores meet at barriers
 * (codelets/spmd_team.h), as the blocks of the GPU kernel do (a core alone
 * would stream the trailing matrix once per column at one core's
 * bandwidth). Typed source: see runtime/precision.h. */
#include <cblas.h>
#include "codelets.h"
#include "spmd_team.h"

struct panel {
	int64_t n, nb, r0, lda, ldt, ldy;
	int64_t lo, hi; /* this core's rows, of r0..n */
	real_t *a, *tau, *t, *y;
};

/* Slot vectors after S_DOTS, nb each: this core's V^T c and V^T v parts,
 * and its copy of their sums. */
enum { DOTS_C, DOTS_V, SUMS, SLOT_VECTORS };

static real_t *vec(const struct panel *p, const struct team *t, int which)
{
	return team_slot(t, t->rank) + S_DOTS + which * p->nb;
}

/* V(r, k): zero above row r0 + k, one there, the stored reflector below. */
static real_t v_at(const struct panel *p, int64_t r, int64_t k)
{
	return r < p->r0 + k ? 0 : r == p->r0 + k ? 1 : p->a[r + k * p->lda];
}

/* out[k] = sum over rows [lo, hi) of V(r, k) x[r], k < j. */
static void vt_times(const struct panel *p, int64_t lo, int64_t hi, int64_t j, const real_t *x,
                     real_t *out)
{
	int64_t dense = later(p->r0 + j, lo); /* V is stored in full from row r0 + j */
	for (int64_t k = 0; k < j; k++)
		out[k] = 0;
	for (int64_t r = lo; r < hi && r < dense; r++)
		for (int64_t k = 0; k < j; k++)
			out[k] += v_at(p, r, k) * x[r];
	if (hi > dense && j > 0)
		BLAS(gemv)(CblasColMajor, CblasTrans, (int)(hi - dense), (int)j, 1, p->a + dense,
		           (int)p->lda, x + dense, 1, 1, out, 1);
}

/* x[r] -= sum_k V(r, k) w[k] over rows [lo, hi), k < j. */
static void minus_v_times(const struct panel *p, int64_t lo, int64_t hi, int64_t j, const real_t *w,
                          real_t *x)
{
	int64_t dense = later(p->r0 + j, lo);
	for (int64_t r = lo; r < hi && r < dense; r++)
		for (int64_t k = 0; k < j; k++)
			x[r] -= v_at(p, r, k) * w[k];
	if (hi > dense && j > 0)
		BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)(hi - dense), (int)j, -1, p->a + dense,
		           (int)p->lda, w, 1, 1, x + dense, 1);
}

/* Column j from the right (c -= Y times V's row r0 + j - 1) and the left
 * (c -= V T^T V^T c), the last reflector's beta back on its subdiagonal,
 * then column j's reflector: tau[j] and T(j, j) (core 0), beta, the column
 * scaled with its unit stored. The cores' rows of it, not yet all of them. */
static void reflect(const struct panel *p, const struct team *t, int64_t j, real_t *beta)
{
	real_t *c = p->a + j * p->lda, *w = vec(p, t, SUMS), tau, scale;
	int64_t lo = p->lo, hi = p->hi, x0 = p->r0 + j + 1;
	if (j > 0) {
		int64_t up = p->r0 + j - 1;
		for (int64_t k = 0; k < j; k++)
			w[k] = k == j - 1 ? 1 : p->a[up + k * p->lda];
		BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)(hi - lo), (int)j, -1, p->y + lo, (int)p->ldy,
		           w, 1, 1, c + lo, 1);
		if (lo <= up && up < hi)
			p->a[up + (j - 1) * p->lda] = *beta;
		vt_times(p, lo, hi, j, c, vec(p, t, DOTS_C));
		team_wait(t);
		team_sums(t, S_DOTS + DOTS_C * (int)p->nb, (int)j, w);
		BLAS(trmv)(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, (int)j, p->t, (int)p->ldt,
		           w, 1);
		minus_v_times(p, lo, hi, j, w, c);
	}
	team_part_norm(t, c, later(lo, x0), hi, 1);
	if (lo <= x0 - 1 && x0 - 1 < hi)
		t->common[C_ALPHA] = c[x0 - 1];
	team_wait(t);
	team_reflector(t, c, later(lo, x0), hi, 1, beta, &tau, &scale);
	if (t->rank == 0)
		p->tau[j] = tau, p->t[j + j * p->ldt] = tau;
	for (int64_t r = later(lo, x0); r < hi; r++)
		c[r] *= scale;
	if (lo <= x0 - 1 && x0 - 1 < hi)
		c[x0 - 1] = 1;
}

/* y_j = tau_j (y_j - Y V^T v_j) on this core's rows, y_j holding there
 * A(r0:n, j+1:) v_j, and T(0:j, j) = -tau_j T V^T v_j (core 0). */
static void finish_y(const struct panel *p, const struct team *t, int64_t j)
{
	real_t *yj = p->y + j * p->ldy, *w = vec(p, t, SUMS), tau = p->tau[j];
	int64_t lo = p->lo, hi = p->hi;
	vt_times(p, later(lo, p->r0 + j), hi, j, p->a + j * p->lda, vec(p, t, DOTS_V));
	team_wait(t);
	team_sums(t, S_DOTS + DOTS_V * (int)p->nb, (int)j, w);
	BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)(hi - lo), (int)j, -1, p->y + lo, (int)p->ldy, w, 1,
	           1, yj + lo, 1);
	BLAS(scal)((int)(hi - lo), tau, yj + lo, 1);
	if (t->rank == 0 && j > 0) {
		real_t *tj = p->t + j * p->ldt;
		for (int64_t k = 0; k < j; k++)
			tj[k] = -tau * w[k];
		BLAS(trmv)(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, (int)j, p->t, (int)p->ldt,
		           tj, 1);
	}
}

int TYPED(hyla__gehrd_panel_spmd)(struct hyla_team_arg *arg, int rank, int size, int n, int nb,
                                  int r0, real_t *a, int lda, real_t *tau, real_t *t, int ldt,
                                  real_t *y, int ldy, real_t *v, int ldv)
{
	struct panel p = {.n = n, .nb = nb, .r0 = r0, .lda = lda, .ldt = ldt, .ldy = ldy, .a = a,
	                  .tau = tau, .t = t, .y = y};
	struct team team;
	if (!team_join(&team, arg, rank, size, 0, SLOT_VECTORS * nb))
		return 0;
	team_share(r0, n, rank, size, &p.lo, &p.hi);
	real_t beta = 0;
	for (int64_t j = 0; j < nb; j++) {
		real_t *c = a + j * lda;
		reflect(&p, &team, j, &beta);
		team_wait(&team);
		/* y_j = A(r0:n, j+1:) v_j over this core's rows (the panel's later
		 * columns not updated yet: DLAHR2's values from before the panel). */
		BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)(p.hi - p.lo), (int)(n - r0 - j), 1,
		           a + p.lo + (j + 1) * lda, lda, c + r0 + j, 1, 0, y + p.lo + j * ldy, 1);
		finish_y(&p, &team, j);
	}
	int64_t last = r0 + nb - 1;
	if (p.lo <= last && last < p.hi)
		a[last + (int64_t)(nb - 1) * lda] = beta;
	team_wait(&team);
	/* V in full, then Y's rows above r0 and the panel's (ytop_cpu's steps),
	 * each core its rows. */
	int64_t v0, v1, t0, t1;
	team_share(0, n, rank, size, &v0, &v1);
	TYPED(hyla__gehrd_build_v)((int)(v1 - v0), nb, (int)(r0 - v0), a + v0, lda, v + v0, ldv);
	team_wait(&team);
	team_share(0, r0, rank, size, &t0, &t1);
	if (t1 > t0)
		TYPED(hyla__gehrd_ytop_rows)((int)t0, (int)t1, n, nb, r0, a, lda, v, ldv, t, ldt, y, ldy);
	team_leave(&team);
	return 1;
}
