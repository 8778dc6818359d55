/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// The tridiagonal reduction's panel (LAPACK's DLATRD, lower) on the GPU:
// one persistent cooperative kernel per panel, whose blocks meet at two
// grid-wide barriers per column i and never return to the host:
//   column   (finish i - 1) w = tau (A v - A(., 0:i-1) z1 - W(., 0:i-1) z2)
//            from the SYMV's pieces; W(i:n, i-1) = w + alpha v, alpha =
//            -tau/2 w^T v; v scaled in place (1 at its unit element);
//            then row i of A and W, A(i:n, i) -= A(i:n, 0:i) W(i, 0:i)^T +
//            W(i:n, 0:i) A(i, 0:i)^T, and the parts of its norm and of z1 =
//            W(i+1:n, 0:i)^T v and z2 = A(i+1:n, 0:i)^T v (v a multiple of
//            the column below its unit element);
//   | barrier
//   symv     the reflector of A(i+1:n, i) (every block alike; beta to e(i),
//            tau(i)); z1 and z2 summed; the SYMV's pieces over the trailing
//            matrix (symv_lower.cuh), reading v as scale times the column,
//            with the parts of v^T A v;
//   | barrier
// Two identities spare the barriers between: w^T v = tau (v^T A v - 2 z1^T
// z2), so every block has alpha from the SYMV's parts; and every block
// works out row i of w (the next column's update needs W(i, i - 1)) from
// the pieces, as its owner does. Between the column's two parts no barrier:
// both split rows i..n-1 alike (coop_rows(i, n)), so a block reads back
// only the rows it wrote itself. A column whose entries lie near the limits
// of the range is scaled in place (and alpha with it) after the barrier and
// its dots and reflector taken again (coop_reflector_after).
// Blocks own contiguous rows (coop_reflector.cuh); sums over blocks are
// added in block order, so results do not vary from run to run; data
// another block wrote during the kernel is read through L2 (__ldcg): the
// panel's columns and W (the SYMV reads the trailing matrix with
// streaming loads, its columns in the panel before they change).
#include <cooperative_groups.h>
#include "coop_reflector.cuh"
#include "symv_lower.cuh"
#include "kernels.h"
#include "launch.h"

namespace cg = cooperative_groups;

namespace {

#define MAXNB HYLA_REDUCTION_GPU_MAX_NB
#define SYMV_WARPS (COOP_MAXB * COOP_THREADS / 32)
// Scratch (one allocation per panel): the blocks' partial sums (the norm's
// three slots, z1's and z2's, v^T A v's), z1 and z2, then the SYMV's pieces.
#define VAV_SLOT (3 + 2 * MAXNB)
#define Z_OFFSET ((VAV_SLOT + 1) * COOP_MAXB)
#define SYMV_OFFSET (Z_OFFSET + 2 * MAXNB)

template <typename T>
struct Panel {
	int n, nb; // rows and columns from the panel's corner; its width
	T *a, *w, *e, *tau, *scratch;
	int64_t lda, ldw;
};

// Column j's SYMV (x: the column below its unit element, not yet times
// scale; times 2^-top where its reflector was taken again).
template <typename T>
__device__ SymvLower<T> symv_of(const Panel<T> &p, int j, T scale)
{
	const T *v = p.a + j * p.lda + j + 1;
	return symv_lower(v + p.lda, v, scale, p.lda, p.n - j - 1, p.scratch + SYMV_OFFSET, SYMV_WARPS);
}

// Row r of [W(:, 0:i) A(:, 0:i)], entry s: z1 and z2's terms.
template <typename T>
__device__ T z_entry(const Panel<T> &p, int i, int s, int r)
{
	return __ldcg(s < i ? &p.w[r + s * p.ldw] : &p.a[r + (s - i) * p.lda]);
}

// Slice q's part of w(r) / tau for column j (r from row j + 1 of the panel):
// the SYMV's and the corrections by A(r, 0:j) z1 and W(r, 0:j) z2.
template <typename T>
__device__ T w_part(const Panel<T> &p, int j, const SymvLower<T> &s, const T *z, int r, int q)
{
	T y = symv_row_part(s, r - j - 1, q, COOP_SLICES);
	for (int k = q; k < j; k += COOP_SLICES)
		y -= __ldcg(&p.a[r + k * p.lda]) * z[k] + __ldcg(&p.w[r + k * p.ldw]) * z[j + k];
	return y;
}

// Column j = i - 1 finished: W(i:n, j) and v scaled for the block's rows;
// for all blocks alike, row i of A(:, 0:j) and W(:, 0:j) into arow, wrow
// (the next column's update), v(i) = 1 and W(i, j) = w(i) + alpha.
template <typename T>
__device__ void finish_column(const Panel<T> &p, int j, CoopReflector<T> ref, T *z, T *arow, T *wrow)
{
	__shared__ T alpha_of;
	const int i = j + 1, lane = threadIdx.x % 32;
	const SymvLower<T> s = symv_of(p, j, ref.scale);
	const T vav = threadIdx.x < 32 ? coop_blocks_sum(p.scratch, VAV_SLOT) : T(0);
	for (int k = threadIdx.x; k < 2 * j; k += COOP_THREADS)
		z[k] = __ldcg(&p.scratch[Z_OFFSET + k]);
	for (int k = threadIdx.x; k < j; k += COOP_THREADS) {
		arow[k] = __ldcg(&p.a[i + k * p.lda]);
		wrow[k] = __ldcg(&p.w[i + k * p.ldw]);
	}
	__syncthreads();
	if (threadIdx.x < 32) { // alpha = -tau/2 w^T v, w^T v = tau (v^T A v - 2 z1^T z2)
		T zz = 0;
		for (int k = lane; k < j; k += 32)
			zz += z[k] * z[j + k];
		zz = warp_reduce<T>(zz);
		if (lane == 0)
			alpha_of = T(-0.5) * ref.tau * ref.tau * (vav - 2 * zz);
	}
	__syncthreads();
	const T alpha = alpha_of;
	int r0, r1;
	coop_rows(i, p.n, &r0, &r1);
	T *col = p.a + j * p.lda, *wj = p.w + j * p.ldw;
	// The block's rows, then row i once more (the row after them).
	coop_row_sums<T>(r0, r1 + 1, [&](int r, int q) { return w_part(p, j, s, z, r < r1 ? r : i, q); },
	                 [&](int r, T y) {
		                 const T v = r == r1 || r == i ? T(1) : ref.scale * __ldcg(&col[r]);
		                 if (r == r1) {
			                 arow[j] = v;
			                 wrow[j] = ref.tau * y + alpha * v;
			                 return;
		                 }
		                 wj[r] = ref.tau * y + alpha * v;
		                 col[r] = v;
	                 });
}

// Column i brought up to date (row i of A and W in arow, wrow).
template <typename T>
__device__ void column_update(const Panel<T> &p, int i, const T *arow, const T *wrow)
{
	T *col = p.a + i * p.lda;
	int r0, r1;
	coop_rows(i, p.n, &r0, &r1);
	auto part = [&](int r, int q) {
		T x = 0;
		for (int k = q; k < i; k += COOP_SLICES)
			x += __ldcg(&p.a[r + k * p.lda]) * wrow[k] + __ldcg(&p.w[r + k * p.ldw]) * arow[k];
		return x;
	};
	coop_row_sums<T>(r0, r1, part, [&](int r, T x) { col[r] -= x; });
	__syncthreads();
}

// Column i's parts over x = A(i+2:n, i) (v = scale x there), x and alpha
// first scaled in place by down: z1's and z2's, its reflector's norm's.
template <typename T>
__device__ void column_parts(const Panel<T> &p, int i, T down)
{
	T *col = p.a + i * p.lda;
	int r0, r1;
	coop_rows(i, p.n, &r0, &r1);
	coop_scale(col, 1, max(r0, i + 2), r1, i + 1 >= r0 && i + 1 < r1 ? &col[i + 1] : (T *)nullptr, down);
	const bool bad = coop_dots([&](int s, int r) { return z_entry(p, i, s, r); }, col, 1,
	                           max(r0, i + 2), r1, 2 * i, 3, p.scratch);
	coop_norm_parts(col, 1, max(r0, i + 2), r1, i + 1 >= r0 && i + 1 < r1 ? col[i + 1] : T(0),
	                p.scratch, bad);
}

// After column i's reflector (beta to e(i), tau(i) by block 0; the column
// not yet times scale): z1 and z2 from the blocks' parts (zscale: their scale;
// v(i+1) = 1), then the SYMV's pieces and the block's part of v^T A v.
template <typename T>
__device__ void symv_phase(const Panel<T> &p, int i, CoopReflector<T> ref, T zscale)
{
	coop_sums_out(p.scratch, 3, 2 * i, zscale, [&](int s) { return z_entry(p, i, s, i + 1); },
	              p.scratch + Z_OFFSET);
	const T vav = block_reduce<COOP_THREADS, T>(symv_tiles(symv_of(p, i, ref.scale)));
	if (threadIdx.x == 0)
		p.scratch[VAV_SLOT * COOP_MAXB + blockIdx.x] = vav;
}

template <typename T>
__global__ void __launch_bounds__(COOP_THREADS, 2) latrd_panel(Panel<T> p)
{
	__shared__ T arow[MAXNB], wrow[MAXNB], z[2 * MAXNB];
	cg::grid_group grid = cg::this_grid();
	const int cols = min(p.nb, p.n - 1);
	CoopReflector<T> ref = {0, 0, 0, false};
	for (int i = 0; i <= cols; i++) {
		if (i > 0)
			finish_column(p, i - 1, ref, z, arow, wrow);
		if (i == cols)
			break;
		column_update(p, i, arow, wrow);
		T zscale;
		const CoopReflector<T> r = coop_reflector_after([&](T down) { column_parts(p, i, down); },
		                                                p.scratch, &p.e[i], &p.tau[i], grid, &zscale);
		ref = {r.scale, r.tau, 0, false}; // what finish_column needs
		symv_phase(p, i, ref, zscale);
		grid.sync();
	}
}

} // namespace

// DLATRD's loop, 0-based: a is A(c, c) of the panel at column c (n rows
// and columns from there), w is W(c, 0). Blocks: a warp per SYMV unit of
// the first column, up to as many as fit on the GPU at once.
template <typename T>
static void latrd(int n, int nb, T *a, int lda, T *e, T *tau, T *w, int ldw, cudaStream_t stream)
{
	if (nb > MAXNB)
		hyla_fail("the tridiagonal panel wider than 128 columns");
	const int64_t rows = (n + SYMV_H - 1) / SYMV_H, units = rows * (rows + 1) / 2 * SYMV_UNITS;
	const int64_t wanted = (units + COOP_THREADS / 32 - 1) / (COOP_THREADS / 32);
	int blocks = coop_resident_blocks(latrd_panel<T>, "the tridiagonal panel's occupancy query");
	blocks = wanted < blocks ? (int)wanted : blocks;
	const size_t elems = SYMV_OFFSET + symv_scratch_elems(n, SYMV_WARPS);
	T *scratch = (T *)hyla__cuda_scratch(sizeof(T) * elems, stream);
	Panel<T> p = {n, nb, a, w, e, tau, scratch, lda, ldw};
	coop_launch(latrd_panel<T>, blocks, &p, stream, "the launch of latrd_panel");
	hyla__cuda_scratch_free(scratch, stream);
}

extern "C" void hyla__cuda_latrd_d(int n, int nb, double *a, int lda, double *e, double *tau,
                                   double *w, int ldw, cudaStream_t stream)
{
	latrd(n, nb, a, lda, e, tau, w, ldw, stream);
}

extern "C" void hyla__cuda_latrd_s(int n, int nb, float *a, int lda, float *e, float *tau,
                                   float *w, int ldw, cudaStream_t stream)
{
	latrd(n, nb, a, lda, e, tau, w, ldw, stream);
}
