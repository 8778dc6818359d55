/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// The bidiagonal reduction's panel (LAPACK's DLABRD, m >= n) on the GPU:
// one persistent cooperative kernel per panel, whose blocks meet at four
// grid-wide barriers per step i and never return to the host:
//   column  A(i:m, i) -= A(i:m, 0:i) Y(i, 0:i)^T + X(i:m, 0:i) A(0:i, i);
//           the parts of its norm, of p1 = A(i:m, 0:i)^T v and of
//           p2 = X(i:m, 0:i)^T v (v a multiple of the column below row i);
//   | barrier
//   gemv_t  the column's reflector (every block alike; beta to d(i),
//           tauq(i)); p1, p2; the pieces of A(i:m, i+1:n)^T v;
//   | barrier
//   row     v scaled in place; for the later columns j: Y(j, i) = tauq
//           (A^T v - Y(j, 0:i) p1 - A(0:i, j)^T p2); the row A(i, j) -=
//           Y(j, 0:i+1) A(i, 0:i+1)^T + A(0:i, j)^T X(i, 0:i)^T; the parts
//           of its norm, of q1 = Y(i+1:n, 0:i+1)^T u and q2 = A(0:i,
//           i+1:n) u;
//   | barrier
//   gemv_n  the row's reflector (beta to e(i), taup(i)); q1, q2; the
//           pieces of A(i+1:m, i+1:n) u;
//   | barrier
//   x       u scaled in place; X(i+1:m, i) = taup (A u - A(i+1:m, 0:i+1)
//           q1 - X(i+1:m, 0:i) q2).
// The reflectors are scaled a phase after their GEMVs read them (which
// scale as they go: gemv_coop.cuh), and the unit elements are known
// values, so the next step needs no other barrier. A column or row whose
// entries lie near the limits of the range is scaled in place (and alpha
// with it) after the barrier and its dots and reflector taken again
// (coop_reflector_after). Blocks own contiguous
// rows (or columns, for the row); sums over blocks are added in block
// order, so results do not vary from run to run; what another block wrote
// during the kernel is read through L2 (__ldcg).
#include <cooperative_groups.h>
#include "coop_reflector.cuh"
#include "gemv_coop.cuh"
#include "kernels.h"
#include "launch.h"

namespace cg = cooperative_groups;

namespace {

#define MAXNB HYLA_REDUCTION_GPU_MAX_NB
// Scratch (one allocation per panel): the blocks' partial sums (the
// column's norm, the row's, p's, q's), p and q, the GEMVs' pieces.
enum { COL_NORM = 0, ROW_NORM = 3, P_DOTS = 6, Q_DOTS = P_DOTS + 2 * MAXNB,
       SLOTS = Q_DOTS + 2 * MAXNB + 1 };
#define P_OFFSET (SLOTS * COOP_MAXB)
#define Q_OFFSET (P_OFFSET + 2 * MAXNB)
#define PIECES_OFFSET (Q_OFFSET + 2 * MAXNB + 1)

template <typename T>
struct Panel {
	int m, n, nb; // rows and columns from the panel's corner; its width
	T *a, *x, *y, *d, *e, *tauq, *taup, *scratch;
	int64_t lda, ldx, ldy;
};

// Column i brought up to date.
template <typename T>
__device__ void column_update(const Panel<T> &p, int i, T *yrow, T *acol)
{
	T *col = p.a + i * p.lda;
	for (int k = threadIdx.x; k < i; k += COOP_THREADS) {
		yrow[k] = __ldcg(&p.y[i + k * p.ldy]);
		acol[k] = k < i - 1 ? __ldcg(&col[k]) : T(1); // A(i-1, i): the last row reflector's unit
	}
	__syncthreads();
	int r0, r1;
	coop_rows(i, p.m, &r0, &r1);
	auto part = [&](int r, int q) {
		T s = 0;
		for (int k = q; k < i; k += COOP_SLICES)
			s += __ldcg(&p.a[r + k * p.lda]) * yrow[k] + __ldcg(&p.x[r + k * p.ldx]) * acol[k];
		return s;
	};
	coop_row_sums<T>(r0, r1, part, [&](int r, T s) { col[r] = __ldcg(&col[r]) - s; });
	__syncthreads();
}

// Column i's parts, x and alpha first scaled in place by down: p1's and
// p2's, its norm's.
template <typename T>
__device__ void column_parts(const Panel<T> &p, int i, T down)
{
	T *col = p.a + i * p.lda;
	int r0, r1;
	coop_rows(i, p.m, &r0, &r1);
	coop_scale(col, 1, max(r0, i + 1), r1, i >= r0 && i < r1 ? &col[i] : (T *)nullptr, down);
	auto ax = [&](int s, int r) { return __ldcg(s < i ? &p.a[r + s * p.lda] : &p.x[r + (s - i) * p.ldx]); };
	const bool bad = coop_dots(ax, col, 1, max(r0, i + 1), r1, 2 * i, P_DOTS, p.scratch);
	coop_norm_parts(col, 1, max(r0, i + 1), r1, i >= r0 && i < r1 ? col[i] : T(0),
	                p.scratch + COL_NORM * COOP_MAXB, bad);
}

// The later columns j (from the block's share of i+1..n-1): Y(j, i), the
// row's A(i, j). v scaled.
template <typename T>
__device__ void row_update(const Panel<T> &p, int i, const Gemv<T> &g, T vscale, T *pq, T *arow,
                          T *xrow)
{
	T *col = p.a + i * p.lda, *row = p.a + i + (i + 1) * p.lda, *yi = p.y + i * p.ldy;
	const T *pv = p.scratch + P_OFFSET;
	for (int k = threadIdx.x; k < 2 * i; k += COOP_THREADS)
		pq[k] = __ldcg(&pv[k]);
	for (int k = threadIdx.x; k < i; k += COOP_THREADS) {
		arow[k] = __ldcg(&p.a[i + k * p.lda]);
		xrow[k] = __ldcg(&p.x[i + k * p.ldx]);
	}
	int r0, r1;
	coop_rows(i, p.m, &r0, &r1);
	for (int r = max(r0, i + 1) + threadIdx.x; r < r1; r += COOP_THREADS)
		col[r] *= vscale;
	if (threadIdx.x == 0 && i >= r0 && i < r1)
		col[i] = 1;
	__syncthreads();
	const T tq = __ldcg(&p.tauq[i]);
	int j0, j1;
	coop_rows(i + 1, p.n, &j0, &j1);
	// Y(j, i) and the row's update, their sums over k split among the slices.
	struct Pair {
		T y, u;
		__device__ Pair operator+(Pair o) const { return {y + o.y, u + o.u}; }
	};
	auto part = [&](int j, int q) {
		Pair s = {0, 0};
		for (int k = q; k < i; k += COOP_SLICES) {
			const T yjk = __ldcg(&p.y[j + k * p.ldy]), akj = __ldcg(&p.a[k + j * p.lda]);
			s.y += yjk * pq[k] + akj * pq[i + k];
			s.u += yjk * arow[k] + akj * xrow[k];
		}
		return s;
	};
	coop_row_sums<Pair>(j0, j1, part, [&](int j, Pair s) {
		const T y = tq * (gemv_total(g, g.cols, j - i - 1) - s.y);
		yi[j] = y;
		row[(j - i - 1) * p.lda] = __ldcg(&row[(j - i - 1) * p.lda]) - y - s.u;
	});
	__syncthreads();
}

// Row i's parts, x and alpha first scaled in place by down: q1's and
// q2's, its norm's.
template <typename T>
__device__ void row_parts(const Panel<T> &p, int i, T down)
{
	T *row = p.a + i + (i + 1) * p.lda;
	int j0, j1;
	coop_rows(i + 1, p.n, &j0, &j1);
	const int c0 = j0 - i - 1, c1 = j1 - i - 1; // the block's part of the row
	coop_scale(row, p.lda, max(c0, 1), c1, c0 == 0 && c1 > 0 ? &row[0] : (T *)nullptr, down);
	auto ya = [&](int s, int c) {
		return __ldcg(s <= i ? &p.y[i + 1 + c + s * p.ldy] : &p.a[s - i - 1 + (i + 1 + c) * p.lda]);
	};
	const bool bad = coop_dots(ya, row, p.lda, max(c0, 1), c1, 2 * i + 1, Q_DOTS, p.scratch);
	coop_norm_parts(row, p.lda, max(c0, 1), c1, c0 == 0 && c1 > 0 ? row[0] : T(0),
	                p.scratch + ROW_NORM * COOP_MAXB, bad);
}

// u scaled; X(i+1:m, i) for the block's rows.
template <typename T>
__device__ void x_phase(const Panel<T> &p, int i, const Gemv<T> &g, T uscale, T *q)
{
	T *row = p.a + i + (i + 1) * p.lda, *xi = p.x + i * p.ldx;
	const T *qv = p.scratch + Q_OFFSET;
	for (int k = threadIdx.x; k < 2 * i + 1; k += COOP_THREADS)
		q[k] = __ldcg(&qv[k]);
	int c0, c1;
	coop_rows(0, p.n - i - 1, &c0, &c1);
	for (int c = max(c0, 1) + threadIdx.x; c < c1; c += COOP_THREADS)
		row[c * p.lda] *= uscale;
	if (threadIdx.x == 0 && c0 == 0 && c1 > 0)
		row[0] = 1;
	__syncthreads();
	const T tp = __ldcg(&p.taup[i]);
	int r0, r1;
	coop_rows(i + 1, p.m, &r0, &r1);
	auto part = [&](int r, int qq) {
		T s = 0;
		for (int k = qq; k <= i; k += COOP_SLICES)
			s += __ldcg(&p.a[r + k * p.lda]) * q[k];
		for (int k = qq; k < i; k += COOP_SLICES)
			s += __ldcg(&p.x[r + k * p.ldx]) * q[i + 1 + k];
		return s;
	};
	coop_row_sums<T>(r0, r1, part, [&](int r, T s) { xi[r] = tp * (gemv_total(g, g.rows, r - i - 1) - s); });
	__syncthreads();
}

template <typename T>
__global__ void __launch_bounds__(COOP_THREADS, 2) labrd_panel(Panel<T> p)
{
	__shared__ T vec[2 * MAXNB + 1], arow[MAXNB], xrow[MAXNB];
	cg::grid_group grid = cg::this_grid();
	T *pieces = p.scratch + PIECES_OFFSET;
	for (int i = 0; i < p.nb; i++) {
		T *col = p.a + i * p.lda, *row = p.a + i + (i + 1) * p.lda;
		const int mi = p.m - i, ni = p.n - i - 1;
		Gemv<T> gt = gemv_t(col + i + p.lda, p.lda, mi, ni, Reflector<T>{col + i, 1, 0}, pieces);
		Gemv<T> gn = gemv_n(row + 1, p.lda, mi - 1, ni, Reflector<T>{row, p.lda, 0}, pieces);
		column_update(p, i, vec, arow);
		T pscale, qscale; // the dots' sums' scales
		const T vscale = coop_reflector_after([&](T down) { column_parts(p, i, down); },
		                                      p.scratch + COL_NORM * COOP_MAXB, &p.d[i], &p.tauq[i],
		                                      grid, &pscale).scale;
		coop_sums_out(p.scratch, P_DOTS, 2 * i, pscale, [&](int s) {
			return __ldcg(s < i ? &p.a[i + s * p.lda] : &p.x[i + (s - i) * p.ldx]);
		}, p.scratch + P_OFFSET);
		gt.u.scale = vscale;
		gemv_t_pieces(gt);
		grid.sync();
		row_update(p, i, gt, vscale, vec, arow, xrow);
		const T uscale = coop_reflector_after([&](T down) { row_parts(p, i, down); },
		                                      p.scratch + ROW_NORM * COOP_MAXB, &p.e[i], &p.taup[i],
		                                      grid, &qscale).scale;
		coop_sums_out(p.scratch, Q_DOTS, 2 * i + 1, qscale, [&](int s) {
			return __ldcg(s <= i ? &p.y[i + 1 + s * p.ldy] : &p.a[s - i - 1 + (i + 1) * p.lda]);
		}, p.scratch + Q_OFFSET);
		gn.u.scale = uscale;
		gemv_n_pieces(gn);
		grid.sync();
		x_phase(p, i, gn, uscale, vec);
	}
}

} // namespace

// DLABRD's loop for m >= n, 0-based: a is A(c, c) of the panel at column c
// (m rows, n > nb columns from there), x and y are X(c, 0) and Y(c, 0).
template <typename T>
static void labrd(int m, int n, int nb, T *a, int lda, T *d, T *e, T *tauq, T *taup, T *x,
                  int ldx, T *y, int ldy, cudaStream_t stream)
{
	if (nb > MAXNB)
		hyla_fail("the bidiagonal panel wider than 128 columns");
	const int blocks = coop_resident_blocks(labrd_panel<T>, "the bidiagonal panel's occupancy query");
	const size_t elems = PIECES_OFFSET + (size_t)GEMV_SEGS * m;
	T *scratch = (T *)hyla__cuda_scratch(sizeof(T) * elems, stream);
	Panel<T> p = {m, n, nb, a, x, y, d, e, tauq, taup, scratch, lda, ldx, ldy};
	coop_launch(labrd_panel<T>, blocks, &p, stream, "the launch of labrd_panel");
	hyla__cuda_scratch_free(scratch, stream);
}

extern "C" void hyla__cuda_labrd_d(int m, int n, int nb, double *a, int lda, double *d, double *e,
                                   double *tauq, double *taup, double *x, int ldx, double *y,
                                   int ldy, cudaStream_t stream)
{
	labrd(m, n, nb, a, lda, d, e, tauq, taup, x, ldx, y, ldy, stream);
}

extern "C" void hyla__cuda_labrd_s(int m, int n, int nb, float *a, int lda, float *d, float *e,
                                   float *tauq, float *taup, float *x, int ldx, float *y, int ldy,
                                   cudaStream_t stream)
{
	labrd(m, n, nb, a, lda, d, e, tauq, taup, x, ldx, y, ldy, stream);
}
