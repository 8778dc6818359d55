/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The Hessenberg panel (LAPACK's DLAHR2) as a parallel task: each core of a
 * combined worker takes a slice of the rows, and the cores meet at barriers,
 * four per column, as the blocks of the GPU kernel do (a core alone would
 * stream the trailing matrix once per column at one core's bandwidth).
 * Sums over cores are added in core order. Typed source: see
 * runtime/precision.h. */
#include <cblas.h>
#include <float.h>
#include <math.h>
#include "codelets.h"
#include "runtime.h"

/* Per core in the scratch: V^T c, V^T v (HYLA_GEHRD_GPU_MAX_NB each), the
 * sum of squares, the largest entry, the rescaled sum; slot 0 holds alpha. */
enum { DOTS_C, DOTS_V = HYLA_GEHRD_GPU_MAX_NB, SQ = 2 * HYLA_GEHRD_GPU_MAX_NB, AMAX, RESCALED };

struct panel {
	int n, nb, r0, lda, ldt, ldy, rank, size;
	real_t *a, *tau, *t, *y, *scratch;
	struct hyla_spmd_barrier *barrier;
};

static real_t *mine(const struct panel *p, int rank)
{
	return p->scratch + 1 + (int64_t)rank * HYLA_GEHRD_SPMD_STRIDE;
}

/* V(r, k): zero above row r0 + k, one there, the stored reflector below. */
static real_t v_at(const struct panel *p, int64_t r, int k)
{
	return r < p->r0 + k ? 0 : r == p->r0 + k ? 1 : p->a[r + (int64_t)k * p->lda];
}

/* out[k] = sum over rows [lo, hi) of V(r, k) x[r], k < j. */
static void vt_times(const struct panel *p, int64_t lo, int64_t hi, int j, const real_t *x,
                     real_t *out)
{
	int64_t dense = p->r0 + j > lo ? p->r0 + j : lo; /* V is stored in full from row r0 + j */
	for (int k = 0; k < j; k++)
		out[k] = 0;
	for (int64_t r = lo; r < hi && r < dense; r++)
		for (int k = 0; k < j; k++)
			out[k] += v_at(p, r, k) * x[r];
	if (hi > dense && j > 0)
		BLAS(gemv)(CblasColMajor, CblasTrans, (int)(hi - dense), j, 1, p->a + dense, p->lda,
		           x + dense, 1, 1, out, 1);
}

/* x[r] -= sum_k V(r, k) w[k] over rows [lo, hi), k < j. */
static void minus_v_times(const struct panel *p, int64_t lo, int64_t hi, int j, const real_t *w,
                          real_t *x)
{
	int64_t dense = p->r0 + j > lo ? p->r0 + j : lo;
	for (int64_t r = lo; r < hi && r < dense; r++)
		for (int k = 0; k < j; k++)
			x[r] -= v_at(p, r, k) * w[k];
	if (hi > dense && j > 0)
		BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)(hi - dense), j, -1, p->a + dense, p->lda, w,
		           1, 1, x + dense, 1);
}

/* sum[k] = the cores' values at offset + k, k < count, in core order. */
static void add_cores(const struct panel *p, int offset, int count, real_t *sum)
{
	for (int k = 0; k < count; k++)
		sum[k] = 0;
	for (int q = 0; q < p->size; q++)
		for (int k = 0; k < count; k++)
			sum[k] += mine(p, q)[offset + k];
}

/* Column j's reflector from c (LAPACK's dlarfg, every core alike): beta,
 * tau, and the scale of the part below the diagonal. */
static void reflector(const struct panel *p, const real_t *c, int64_t lo, int64_t hi, int j,
                      real_t *beta, real_t *tau, real_t *scale)
{
	const real_t tiny = sizeof(real_t) == sizeof(double) ? DBL_MIN / DBL_EPSILON : FLT_MIN / FLT_EPSILON;
	int64_t x0 = p->r0 + j + 1;
	real_t sq = 0, amax = 0, alpha, scale_norm = 1;
	for (int q = 0; q < p->size; q++) {
		sq += mine(p, q)[SQ];
		amax = fmax(amax, mine(p, q)[AMAX]);
	}
	alpha = p->scratch[0];
	if (amax > 0 && (!isfinite(sq) || sq < tiny)) { /* huge or tiny: the norm of c / amax */
		real_t part = 0;
		for (int64_t r = lo > x0 ? lo : x0; r < hi; r++)
			part += (c[r] / amax) * (c[r] / amax);
		mine(p, p->rank)[RESCALED] = part;
		hyla__spmd_barrier(p->barrier, p->size);
		sq = 0;
		for (int q = 0; q < p->size; q++)
			sq += mine(p, q)[RESCALED];
		scale_norm = amax;
	}
	*beta = alpha, *tau = 0, *scale = 1;
	if (amax > 0) {
		*beta = -copysign(hypot(alpha, scale_norm * sqrt(sq)), alpha);
		*tau = (*beta - alpha) / *beta;
		*scale = 1 / (alpha - *beta);
	}
}

/* Column j: the updates from the right and the left, the reflector, y_j and
 * T's column j. beta: the last reflector's, back on its subdiagonal here. */
static void column(const struct panel *p, int j, int64_t lo, int64_t hi, real_t *beta)
{
	real_t *c = p->a + (int64_t)j * p->lda, *yj = p->y + (int64_t)j * p->ldy, *me = mine(p, p->rank);
	real_t w[HYLA_GEHRD_GPU_MAX_NB], tau, scale;
	int64_t x0 = p->r0 + j + 1, rows = p->n - p->r0;
	if (j > 0) {
		/* c -= Y u, u = V's row r0 + j - 1; then V^T c. */
		int64_t up = p->r0 + j - 1;
		for (int k = 0; k < j; k++)
			w[k] = k == j - 1 ? 1 : p->a[up + (int64_t)k * p->lda];
		BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)(hi - lo), j, -1, p->y + lo, p->ldy, w, 1, 1,
		           c + lo, 1);
		if (lo <= up && up < hi)
			p->a[up + (int64_t)(j - 1) * p->lda] = *beta;
		vt_times(p, lo, hi, j, c, me + DOTS_C);
		hyla__spmd_barrier(p->barrier, p->size);
		/* c -= V T^T V^T c. */
		add_cores(p, DOTS_C, j, w);
		BLAS(trmv)(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, j, p->t, p->ldt, w, 1);
		minus_v_times(p, lo, hi, j, w, c);
	}
	real_t sq = 0, amax = 0;
	for (int64_t r = lo > x0 ? lo : x0; r < hi; r++) {
		sq += c[r] * c[r];
		amax = fmax(amax, fabs(c[r]));
	}
	me[SQ] = sq, me[AMAX] = amax;
	if (lo <= x0 - 1 && x0 - 1 < hi)
		p->scratch[0] = c[x0 - 1];
	hyla__spmd_barrier(p->barrier, p->size);
	reflector(p, c, lo, hi, j, beta, &tau, &scale);
	if (p->rank == 0)
		p->tau[j] = tau, p->t[j + (int64_t)j * p->ldt] = tau;
	for (int64_t r = lo > x0 ? lo : x0; r < hi; r++)
		c[r] *= scale;
	if (lo <= x0 - 1 && x0 - 1 < hi)
		c[x0 - 1] = 1;
	hyla__spmd_barrier(p->barrier, p->size);
	/* y_j = A(r0:n, j+1:) v_j and V^T v_j, then y_j = tau (y_j - Y s). */
	BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)(hi - lo), (int)(rows - j), 1,
	           p->a + lo + (int64_t)(j + 1) * p->lda, p->lda, c + x0 - 1, 1, 0, yj + lo, 1);
	vt_times(p, lo > x0 - 1 ? lo : x0 - 1, hi, j, c, me + DOTS_V);
	hyla__spmd_barrier(p->barrier, p->size);
	add_cores(p, DOTS_V, j, w);
	BLAS(gemv)(CblasColMajor, CblasNoTrans, (int)(hi - lo), j, -1, p->y + lo, p->ldy, w, 1, 1,
	           yj + lo, 1);
	BLAS(scal)((int)(hi - lo), tau, yj + lo, 1);
	if (p->rank == 0 && j > 0) { /* T(0:j, j) = -tau T s */
		real_t *tj = p->t + (int64_t)j * p->ldt;
		for (int k = 0; k < j; k++)
			tj[k] = -tau * w[k];
		BLAS(trmv)(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, j, p->t, p->ldt, tj, 1);
	}
}

void TYPED(hyla__gehrd_panel_spmd)(struct hyla_spmd_barrier *barrier, int rank, int size, int n,
                                   int nb, int r0, real_t *a, int lda, real_t *tau, real_t *t,
                                   int ldt, real_t *y, int ldy, real_t *v, int ldv, real_t *scratch)
{
	struct panel p = {n, nb, r0, lda, ldt, ldy, rank, size, a, tau, t, y, scratch, barrier};
	int64_t rows = n - r0, lo = r0 + rows * rank / size, hi = r0 + rows * (rank + 1) / size;
	real_t beta = 0;
	for (int j = 0; j < nb; j++)
		column(&p, j, lo, hi, &beta);
	int64_t last = r0 + nb - 1;
	if (lo <= last && last < hi)
		a[last + (int64_t)(nb - 1) * lda] = beta;
	hyla__spmd_barrier(barrier, size);
	/* V in full, then Y's rows above r0 and the panel's (ytop_cpu's steps),
	 * each core its rows. */
	int v0 = (int)((int64_t)n * rank / size), v1 = (int)((int64_t)n * (rank + 1) / size);
	TYPED(hyla__gehrd_build_v)(v1 - v0, nb, r0 - v0, a + v0, lda, v + v0, ldv);
	hyla__spmd_barrier(barrier, size);
	int t0 = (int)((int64_t)r0 * rank / size), t1 = (int)((int64_t)r0 * (rank + 1) / size);
	if (t1 > t0)
		TYPED(hyla__gehrd_ytop_rows)(t0, t1, n, nb, r0, a, lda, v, ldv, t, ldt, y, ldy);
}
