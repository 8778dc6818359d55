/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The tridiagonal panel (LAPACK's DLATRD, lower) as a parallel task: each
 * core of a combined worker takes a slice of the rows, and the cores meet
 * at four barriers a column (codelets/spmd_team.h); the SYMV over the
 * trailing matrix reads each entry once, in pieces (symv_share). Typed
 * source: see runtime/precision.h. */
#include <cblas.h>
#include <string.h>
#include "codelets.h"
#include "spmd_team.h"

struct latrd {
	int64_t n, nb, lda, ldw, lo, hi; /* [lo, hi): this core's rows */
	real_t *a, *e, *tau, *w;
	real_t *starts, *parts; /* each piece's first row of A22 v, and its part (n each) */
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

/* Columns of the lower triangle K at a time (8, then 4, then one), each
 * entry read once, their contributions both ways added into y (rows
 * c0..n-1): y[r] += a[r,c] x[c] for r >= c, y[c] += a[r,c] x[r] for r > c.
 * Two vectors V of rows a pass (GCC's vector extension), each with its own
 * sums; the K broadcasts of x and the 2K sums stay in registers where
 * AVX-512 gives 32 of them. Eight columns a pass read and write y half as
 * often as four (2 cores: tridiag_reduce 4000 3.5-4.1 s against 5.3-6.4 s).
 * Measured on one SYMV, 16 cores of an Intel Xeon (Emerald Rapids), order
 * 4000: 0.33-0.40 ms with one 32-byte vector a pass, 0.23-0.34 ms with two
 * 64-byte ones; on an AMD EPYC's core, order 1000: 0.084-0.089 ms and
 * 0.068 ms (OpenBLAS's dsymv 0.064). */
#define LOAD(v, p) memcpy(&(v), (p), sizeof(v)) /* inline: no vector argument in the ABI */

#define COLUMNS(K, V)                                                                        \
	for (; c + (K) <= c1; c += (K)) {                                                        \
		enum { L = sizeof(V) / sizeof(real_t) };                                             \
		const real_t *col[K];                                                                \
		real_t t[K] = {0};                                                                   \
		V s[K] = {{0}}, s2[K] = {{0}}, xk[K];                                                \
		for (int k = 0; k < (K); k++)                                                        \
			col[k] = a + (c + k) * lda, xk[k] = (V){0} + x[c + k];                           \
		for (int64_t r = c; r < c + (K); r++) /* the K-by-K triangle on top */               \
			for (int k = 0; c + k <= r; k++) {                                               \
				y[r] += col[k][r] * x[c + k];                                                \
				if (c + k < r)                                                               \
					t[k] += col[k][r] * x[r];                                                \
			}                                                                                \
		int64_t r = c + (K);                                                                 \
		for (; r + 2 * L <= n; r += 2 * L) {                                                 \
			V xr, yr, xr2, yr2, v, v2;                                                       \
			LOAD(xr, x + r), LOAD(yr, y + r), LOAD(xr2, x + r + L), LOAD(yr2, y + r + L);    \
			for (int k = 0; k < (K); k++) {                                                  \
				LOAD(v, col[k] + r), LOAD(v2, col[k] + r + L);                               \
				yr += v * xk[k], yr2 += v2 * xk[k];                                          \
				s[k] += v * xr, s2[k] += v2 * xr2;                                           \
			}                                                                                \
			memcpy(y + r, &yr, sizeof yr), memcpy(y + r + L, &yr2, sizeof yr2);              \
		}                                                                                    \
		for (; r < n; r++)                                                                   \
			for (int k = 0; k < (K); k++) {                                                  \
				y[r] += col[k][r] * x[c + k];                                                \
				t[k] += col[k][r] * x[r];                                                    \
			}                                                                                \
		for (int k = 0; k < (K); k++) {                                                      \
			real_t sum = t[k];                                                               \
			for (int l = 0; l < L; l++)                                                      \
				sum += s[k][l] + s2[k][l];                                                   \
			y[c + k] += sum;                                                                 \
		}                                                                                    \
	}

#define SYMV_COLUMNS(name, V)                                                                \
	static void name(int64_t n, const real_t *a, int64_t lda, const real_t *x, int64_t c0,   \
	                 int64_t c1, real_t *y)                                                  \
	{                                                                                        \
		int64_t c = c0;                                                                      \
		COLUMNS(8, V)                                                                        \
		COLUMNS(4, V)                                                                        \
		COLUMNS(1, V)                                                                        \
	}

typedef real_t vec32_t __attribute__((vector_size(32)));
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
typedef real_t vec64_t __attribute__((vector_size(64)));
__attribute__((target("arch=x86-64-v4"))) SYMV_COLUMNS(symv_avx512, vec64_t)
__attribute__((target_clones("arch=x86-64-v3", "default"))) SYMV_COLUMNS(symv_any, vec32_t)
static void symv_columns(int64_t n, const real_t *a, int64_t lda, const real_t *x, int64_t c0,
                         int64_t c1, real_t *y)
{
	if (__builtin_cpu_supports("x86-64-v4"))
		symv_avx512(n, a, lda, x, c0, c1, y);
	else
		symv_any(n, a, lda, x, c0, c1, y);
}
#else
SYMV_COLUMNS(symv_columns, vec32_t)
#endif

/* Piece j of w = A22 v, A22 = A(i+1:n, i+1:n) stored lower (as OpenBLAS's
 * threaded SYMV shares it): the columns [s0, s1) of a split of A22's
 * triangle into equal areas, each entry read once, into the piece's part
 * (rows s0..n-1), which the rows' owners add up (add_parts). */
static void symv_piece(const struct latrd *p, int64_t i, int j, int pieces)
{
	const real_t *v = p->a + i * p->lda;
	int64_t m = p->n - i - 1;
	int64_t s0 = i + 1 + hyla__triangle_share(m, j, pieces);
	int64_t s1 = i + 1 + hyla__triangle_share(m, j + 1, pieces);
	real_t *part = p->parts + j * p->n;
	p->starts[j] = (real_t)s0;
	for (int64_t r = s0; r < p->n; r++)
		part[r] = 0;
	symv_columns(p->n, p->a, p->lda, v, s0, s1, part);
}

/* Column i's SYMV, in pieces. */
static void symv_share(const struct latrd *p, const struct team *t, int64_t i)
{
	int k = team_pieces_per_core(t, p->n - i - 1);
	struct team_pieces pieces = team_pieces(t, i, k);
	for (int j; (j = team_piece(&pieces)) >= 0;)
		symv_piece(p, i, j, k * t->size);
}

/* w[r] = the pieces' parts for this core's rows, in piece order. */
static void add_parts(const struct latrd *p, int pieces, int64_t lo, int64_t hi, real_t *wi)
{
	for (int64_t r = lo; r < hi; r++)
		wi[r] = 0;
	for (int q = 0; q < pieces; q++) {
		const real_t *part = p->parts + q * p->n;
		for (int64_t r = later(lo, (int64_t)p->starts[q]); r < hi; r++)
			wi[r] += part[r];
	}
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
	symv_share(p, t, i);
	if (rows > 0) {
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
		add_parts(p, team_pieces_per_core(t, p->n - i - 1) * t->size, lo, hi, wi);
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
	/* Common: W(i+1, i), the pieces' starts and parts. */
	int64_t pieces = (int64_t)size * TEAM_PIECES;
	if (!team_join(&t, arg, rank, size, 1 + pieces + pieces * n, SLOT_VECTORS * nb))
		return 0;
	struct latrd p = {n, nb, lda, ldw, 0, 0, a, e, tau, w, t.common + C_FREE + 1,
	                  t.common + C_FREE + 1 + pieces};
	team_share(0, n, rank, size, &p.lo, &p.hi);
	real_t wlast = 0;
	for (int64_t i = 0; i < nb; i++)
		column(&p, &t, i, &wlast);
	team_leave(&t);
	return 1;
}
