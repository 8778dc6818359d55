/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// The Hessenberg panel (LAPACK's DLAHR2) on the GPU: one persistent
// cooperative kernel per panel, whose blocks meet at three grid-wide barriers
// per column j and never return to the host:
//   rows     column j-1 in its final form (v scaled, beta on the subdiagonal);
//            y_{j-1} finished (the GEMV's pieces added, y -= Y s, y *= tau)
//            and T's column j-1; column j brought up to date from the right
//            (c -= Y u); partial sums of V^T c;
//   | barrier
//   reflect  w = T^T V^T c, c -= V w (the update from the left), the norm of
//            the part below the diagonal;
//   | barrier
//   product  the reflector (LAPACK's dlarfg: beta, tau, scale, every block
//            alike); partial sums of s = V^T v_j; y_j = A v_j over the
//            trailing matrix, its rows-by-columns split evenly over the blocks;
//   | barrier
// Rows belong to blocks by tiles of TILE rows. Sums over blocks are added in
// block order, so results do not vary from run to run. Data another block
// wrote during the kernel is read through L2 (__ldcg).
#include <cooperative_groups.h>
#include "kernels.h"
#include "block_reduce.cuh"
#include "launch.h"
#include "rescale.cuh"

namespace cg = cooperative_groups;

// A block works on tiles of TILE rows; SLICES threads share each row, each
// taking every SLICES-th column of the row's dot products.
#define THREADS 512
#define TILE 64
#define SLICES (THREADS / TILE)
#define WARPS (THREADS / 32)
#define MAX_NB HYLA_GEHRD_MAX_NB
#define MAX_BLOCKS HYLA_GEHRD_MAX_BLOCKS

// Scratch layout (elements): the updated c[r0 + j] (alpha); the blocks'
// partial sums (column k of block b at k * MAX_BLOCKS + b) of V^T c and of
// V^T v_j; the norm's sum of squares and largest entry, the rescaled sum of
// squares; the GEMV's pieces that do not start a tile (block b's at
// S_YPART + b * THREADS; those that do go to y directly).
enum { S_ALPHA, S_DOTS_C = 8, S_DOTS_V = S_DOTS_C + MAX_BLOCKS * MAX_NB,
       S_NORM = S_DOTS_V + MAX_BLOCKS * MAX_NB, S_RESCALED = S_NORM + 2 * MAX_BLOCKS,
       S_YPART = S_RESCALED + MAX_BLOCKS, S_END = S_YPART + MAX_BLOCKS * THREADS };
static_assert(S_END <= HYLA_GEHRD_SCRATCH_ELEMS, "scratch too small");
static_assert(MAX_NB < THREADS, "a thread per panel column");

template <typename T>
struct Panel {
	int n, nb, r0;
	T *a, *y, *t, *tau, *scratch;
	int64_t lda, ldy, ldt;
};

// Entry (r, k) of the panel's V for a row r of the block's own tiles: zero
// above row r0 + k, one there, the stored reflector below.
template <typename T>
__device__ T v_at(const Panel<T> &p, int64_t r, int k)
{
	return r < p.r0 + k ? T(0) : r == p.r0 + k ? T(1) : p.a[r + k * p.lda];
}

// The row's total over its SLICES threads, in the thread of slice 0 (the
// others get 0). Every thread of the block calls it.
template <typename T>
__device__ T slice_total(T v)
{
	__shared__ T buf[SLICES][TILE];
	const int rx = threadIdx.x % TILE, ks = threadIdx.x / TILE;
	buf[ks][rx] = v;
	__syncthreads();
	T s = 0;
	if (ks == 0)
		for (int q = 0; q < SLICES; q++)
			s += buf[q][rx];
	__syncthreads();
	return s;
}

// acc[k] += sum over the tile's rows base.. of V(r, k) x[r - base], k < j.
template <typename T>
__device__ void tile_dots(const Panel<T> &p, int64_t base, int j, const T *x, T *acc)
{
	const int lane = threadIdx.x % 32;
#pragma unroll 2
	for (int k = threadIdx.x / 32; k < j; k += WARPS) {
		T sum = 0;
#pragma unroll
		for (int i = lane; i < TILE; i += 32)
			if (base + i < p.n)
				sum += v_at(p, base + i, k) * x[i];
		sum = warp_reduce(sum);
		if (lane == 0)
			acc[k] += sum;
	}
}

// The block's acc[0:j] to the partial sums at part.
template <typename T>
__device__ void store_dots(T *part, int j, const T *acc)
{
	__syncthreads();
	for (int k = threadIdx.x; k < j; k += THREADS)
		part[k * MAX_BLOCKS + blockIdx.x] = acc[k];
}

// The sum (or max) of the blocks' values part[b], b = g, g + G, ... <
// gridDim.x, added in that order; the loads all in flight at once.
template <typename T, int G, bool MAX = false>
__device__ T strided_sum(const T *part, int g)
{
	constexpr int R = (MAX_BLOCKS + G - 1) / G;
	T v[R], s = 0;
#pragma unroll
	for (int i = 0; i < R; i++)
		v[i] = g + i * G < gridDim.x ? __ldcg(&part[g + i * G]) : T(0);
#pragma unroll
	for (int i = 0; i < R; i++)
		s = MAX ? fmax(s, v[i]) : s + v[i];
	return s;
}

// acc[0:j] = the blocks' partial sums at part, added in block order (8
// threads per column).
template <typename T>
__device__ void add_dots(const T *part, int j, T *acc)
{
	const int g = threadIdx.x % 8;
	for (int k0 = 0; k0 < j; k0 += THREADS / 8) {
		const int k = k0 + threadIdx.x / 8;
		T sum = k < j ? strided_sum<T, 8>(part + k * MAX_BLOCKS, g) : T(0);
		for (int off = 4; off > 0; off /= 2)
			sum += __shfl_down_sync(0xffffffffu, sum, off, 8);
		if (g == 0 && k < j)
			acc[k] = sum;
	}
	__syncthreads();
}

// The sum (or max) of the blocks' values at part[0:gridDim.x], block order.
template <typename T, bool MAX>
__device__ T add_blocks(const T *part)
{
	__shared__ T total;
	if (threadIdx.x < 32) {
		T s = warp_reduce<T, MAX>(strided_sum<T, 32, MAX>(part, threadIdx.x));
		if (threadIdx.x == 0)
			total = s;
	}
	__syncthreads();
	T r = total;
	__syncthreads();
	return r;
}

// The blocks' sum of squares and largest entry below the diagonal (in block
// order) and alpha, loaded at once by three warps.
template <typename T>
__device__ void column_norm(const Panel<T> &p, T &sq, T &amax, T &alpha)
{
	__shared__ T got[3];
	const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
	if (warp == 0) {
		T s = warp_reduce(strided_sum<T, 32>(p.scratch + S_NORM, lane));
		if (lane == 0)
			got[0] = s;
	} else if (warp == 1) {
		T m = warp_reduce<T, true>(strided_sum<T, 32, true>(p.scratch + S_NORM + MAX_BLOCKS, lane));
		if (lane == 0)
			got[1] = m;
	} else if (warp == 2 && lane == 0) {
		got[2] = __ldcg(&p.scratch[S_ALPHA]);
	}
	__syncthreads();
	sq = got[0], amax = got[1], alpha = got[2];
	__syncthreads();
}

// Row tiles of the block: r0 + (blockIdx.x + i gridDim.x) TILE, i = 0, 1, ...
#define FOR_TILES(base)                                                                           \
	for (int64_t base = p.r0 + (int64_t)blockIdx.x * TILE; base < p.n;                            \
	     base += (int64_t)gridDim.x * TILE)

// Column j's GEMV: the trailing matrix's rows r0.., in tiles of THREADS rows
// (a row a thread), by its columns = rows - j columns from panel column j + 1,
// taken tile by tile as one sequence of tiles x columns entries, split
// evenly: block b takes [lo(b), lo(b + 1)), lo(b) = b entries / blocks. A
// block's piece of a tile that starts at the tile's first column goes to y;
// the others (a block has at most one: its first) to the block's row of
// S_YPART.
struct Split {
	int64_t columns, entries;
};

__device__ Split split_of(int rows, int j)
{
	const int64_t tiles = (rows + THREADS - 1) / THREADS, columns = rows - j;
	return {columns, tiles * columns};
}

__device__ int64_t split_lo(const Split &sp, int64_t b)
{
	return b * sp.entries / gridDim.x;
}

// y(r0:n, j) = A(r0:n, panel columns j+1..) v_j, v_j's element of row i
// being 0 above row r0 + j, 1 there, scale c[i] below (c: column j).
template <typename T>
__device__ void gemv(const Panel<T> &p, int j, T scale)
{
	__shared__ T xs[THREADS];
	const Split sp = split_of(p.n - p.r0, j);
	const T *c = p.a + j * p.lda, *a1 = p.a + (j + 1) * p.lda;
	for (int64_t e = split_lo(sp, blockIdx.x), end = split_lo(sp, blockIdx.x + 1); e < end;) {
		const int64_t tile = e / sp.columns, q1 = e % sp.columns;
		const int64_t q2 = q1 + (end - e) < sp.columns ? q1 + (end - e) : sp.columns;
		const int64_t r = p.r0 + tile * THREADS + threadIdx.x;
		const bool in = r < p.n;
		T sum = 0;
		/* x in shared memory, THREADS columns at a time. */
		for (int64_t x1 = q1; x1 < q2; x1 += THREADS) {
			const int count = q2 - x1 < THREADS ? (int)(q2 - x1) : THREADS;
			const int64_t q = x1 + threadIdx.x;
			__syncthreads();
			if (threadIdx.x < count)
				xs[threadIdx.x] = q == 0 ? T(1) : scale * __ldcg(&c[p.r0 + j + q]);
			__syncthreads();
			if (!in)
				continue;
			const T *col = a1 + x1 * p.lda + r;
			int i = 0;
			for (; i + 16 <= count; i += 16) {
				T l[16]; /* 16 loads in flight per thread, then their products */
#pragma unroll
				for (int k = 0; k < 16; k++)
					l[k] = __ldcs(col + (i + k) * p.lda);
#pragma unroll
				for (int k = 0; k < 16; k++)
					sum += l[k] * xs[i + k];
			}
			for (; i < count; i++)
				sum += __ldcs(col + i * p.lda) * xs[i];
		}
		if (in) {
			if (q1 == 0)
				p.y[r + j * p.ldy] = sum;
			else
				p.scratch[S_YPART + blockIdx.x * THREADS + threadIdx.x] = sum;
		}
		e += q2 - q1;
	}
}

// lo[b] = split_lo(b) for b <= gridDim.x, column j's split (a thread each).
__device__ void split_table(int rows, int j, int64_t *lo)
{
	const Split sp = split_of(rows, j);
	for (int b = threadIdx.x; b <= gridDim.x; b += THREADS)
		lo[b] = split_lo(sp, b);
	__syncthreads();
}

// Row r of column j's GEMV product: its pieces in block order (lo: column
// j's split_table).
template <typename T>
__device__ T gemv_row(const Panel<T> &p, int j, int64_t r, const int64_t *lo)
{
	const int64_t columns = p.n - p.r0 - j, tile = (r - p.r0) / THREADS;
	const int64_t first = tile * columns, end = first + columns;
	int b = 0, z = gridDim.x; /* the first block that starts after the tile's first entry */
	while (b < z) {
		const int m = (b + z) / 2;
		if (lo[m] > first)
			z = m;
		else
			b = m + 1;
	}
	const int64_t i = (r - p.r0) % THREADS;
	T sum = __ldcg(&p.y[r + j * p.ldy]);
	for (; b < gridDim.x && lo[b] < end; b += 8) { /* 8 loads in flight */
		T v[8];
#pragma unroll
		for (int k = 0; k < 8; k++) {
			const int c = b + k;
			v[k] = c < gridDim.x && lo[c] < end && lo[c] < lo[c + 1]
			           ? __ldcg(&p.scratch[S_YPART + c * THREADS + i])
			           : T(0);
		}
#pragma unroll
		for (int k = 0; k < 8; k++)
			sum += v[k];
	}
	return sum;
}

// The reflector of the last column: tau, 1 / (alpha - beta), beta.
template <typename T>
struct Reflector {
	T tau, scale, beta;
};

// Column jp = j - 1 in its final form, y_jp finished, T's column jp; for
// j < nb, column j updated from the right and the partial sums of V^T c.
template <typename T>
__device__ void rows_phase(const Panel<T> &p, int j, const Reflector<T> &h)
{
	__shared__ T u[MAX_NB], s[MAX_NB], acc[MAX_NB], x_tile[TILE];
	__shared__ int64_t lo[MAX_BLOCKS + 1];
	const int rx = threadIdx.x % TILE, ks = threadIdx.x / TILE, jp = j - 1;
	const bool update = j < p.nb;
	T *c = p.a + j * p.lda, *cp = p.a + jp * p.lda, *yp = p.y + jp * p.ldy;
	const int64_t unit = p.r0 + jp;
	FOR_TILES(base) {
		const int64_t r = base + threadIdx.x;
		if (threadIdx.x < TILE && r < p.n) {
			if (r == unit)
				cp[r] = h.beta;
			else if (r > unit && h.scale != T(1))
				cp[r] *= h.scale;
		}
	}
	/* u = V's row r0 + jp (j <= MAX_NB < THREADS), loaded beside s. */
	const T uk = update && threadIdx.x < jp ? __ldcg(&p.a[unit + threadIdx.x * p.lda]) : T(1);
	split_table(p.n - p.r0, jp, lo);
	add_dots(p.scratch + S_DOTS_V, jp, s);
	if (update && threadIdx.x < j) {
		u[threadIdx.x] = uk;
		acc[threadIdx.x] = 0;
	}
	if (blockIdx.x == gridDim.x - 1) {
		/* T(l, jp) = -tau sum_{m >= l} T(l, m) s[m]: a warp per l, on the
		 * last block (the one least likely to own rows). */
		const int lane = threadIdx.x % 32;
		for (int l = threadIdx.x / 32; l < jp; l += WARPS) {
			T sum = 0;
			for (int m = l + lane; m < jp; m += 32)
				sum += p.t[l + m * p.ldt] * s[m];
			sum = warp_reduce(sum);
			if (lane == 0)
				p.t[l + jp * p.ldt] = -h.tau * sum;
		}
	}
	__syncthreads();
	FOR_TILES(base) {
		const int64_t r = base + rx;
		const T c_old = ks == 0 && update && r < p.n ? c[r] : T(0);
		T ys = 0, yu = 0;
		if (r < p.n)
#pragma unroll 4
			for (int k = ks; k < jp; k += SLICES) {
				T yk = p.y[r + k * p.ldy];
				ys += yk * s[k];
				yu += yk * u[k];
			}
		ys = slice_total(ys);
		if (update)
			yu = slice_total(yu);
		if (ks == 0) {
			T cr = 0;
			if (r < p.n) {
				T yr = h.tau * (gemv_row(p, jp, r, lo) - ys);
				yp[r] = yr;
				if (update) {
					cr = c_old - yu - yr * u[jp];
					c[r] = cr;
				}
			}
			x_tile[rx] = cr;
		}
		if (update) {
			__syncthreads();
			tile_dots(p, base, j, x_tile, acc);
			__syncthreads();
		}
	}
	if (update)
		store_dots(p.scratch + S_DOTS_C, j, acc);
}

// c -= V w, w = T^T V^T c; the norm's partial sums below the diagonal and
// alpha = c[r0 + j].
template <typename T>
__device__ void reflect_phase(const Panel<T> &p, int j)
{
	__shared__ T w[MAX_NB];
	const int rx = threadIdx.x % TILE, ks = threadIdx.x / TILE;
	if (j > 0) {
		__shared__ T acc[MAX_NB];
		add_dots(p.scratch + S_DOTS_C, j, acc);
		/* w[k] = sum_{l <= k} T(l, k) acc[l]: a warp per k. */
		const int lane = threadIdx.x % 32;
		for (int k = threadIdx.x / 32; k < j; k += WARPS) {
			T wk = 0;
			for (int l = lane; l <= k; l += 32)
				wk += __ldcg(&p.t[l + k * p.ldt]) * acc[l];
			wk = warp_reduce(wk);
			if (lane == 0)
				w[k] = wk;
		}
		__syncthreads();
	}
	T *c = p.a + j * p.lda;
	const int64_t x0 = (int64_t)p.r0 + j + 1;
	T sq = 0, amax = 0;
	FOR_TILES(base) {
		const int64_t r = base + rx;
		T cr = ks == 0 && r < p.n ? c[r] : T(0), vw = 0;
		if (r < p.n)
#pragma unroll 4
			for (int k = ks; k < j; k += SLICES)
				vw += v_at(p, r, k) * w[k];
		if (j > 0)
			vw = slice_total(vw);
		if (ks == 0 && r < p.n) {
			if (j > 0) {
				cr -= vw;
				c[r] = cr;
			}
			if (r >= x0) {
				sq += cr * cr;
				amax = fmax(amax, fabs(cr));
			} else if (r == x0 - 1) {
				p.scratch[S_ALPHA] = cr;
			}
		}
	}
	sq = block_reduce<THREADS, T>(sq);
	amax = block_reduce<THREADS, T, true>(amax);
	if (threadIdx.x == 0) {
		p.scratch[S_NORM + blockIdx.x] = sq;
		p.scratch[S_NORM + MAX_BLOCKS + blockIdx.x] = amax;
	}
}

// Column j's reflector (every block alike; the last block stores tau and
// T(j, j)), the partial sums of V^T v_j and the GEMV.
template <typename T>
__device__ Reflector<T> product_phase(const Panel<T> &p, int j, cg::grid_group &grid)
{
	__shared__ T acc[MAX_NB], x_tile[TILE];
	T *c = p.a + j * p.lda;
	const int64_t x0 = (int64_t)p.r0 + j + 1;
	T sq, amax, alpha;
	column_norm(p, sq, amax, alpha);
	/* Huge or tiny columns: the norm of c / amax (all blocks agree); where
	 * alpha and c are below tiny, the norm of c scaled up in place instead
	 * (rescale.cuh), the reflector's of alpha and c so scaled. */
	T scale_norm = 1, up = 1;
	if (amax > 0 && (!isfinite(sq) || sq < larfg_tiny<T>())) {
		if (fmax(amax, fabs(alpha)) < larfg_tiny<T>())
			up = larfg_up(fmax(amax, fabs(alpha)));
		else
			scale_norm = amax;
		T part = 0;
		FOR_TILES(base) {
			const int64_t r = base + threadIdx.x;
			if (threadIdx.x < TILE && r >= x0 && r < p.n) {
				T x = up != 1 ? (c[r] *= up) : c[r] / scale_norm;
				part += x * x;
			}
		}
		part = block_reduce<THREADS, T>(part);
		if (threadIdx.x == 0)
			p.scratch[S_RESCALED + blockIdx.x] = part;
		grid.sync();
		sq = add_blocks<T, false>(p.scratch + S_RESCALED);
	}
	Reflector<T> h = {0, 1, alpha};
	if (amax > 0) {
		alpha *= up;
		h.beta = -copysign(hypot(alpha, scale_norm * sqrt(sq)), alpha);
		h.tau = (h.beta - alpha) / h.beta;
		h.scale = 1 / (alpha - h.beta);
		h.beta /= up;
	}
	if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) {
		p.tau[j] = h.tau;
		p.t[j + j * p.ldt] = h.tau;
	}
	for (int k = threadIdx.x; k < j; k += THREADS)
		acc[k] = 0;
	FOR_TILES(base) {
		const int64_t r = base + threadIdx.x;
		__syncthreads();
		if (threadIdx.x < TILE)
			x_tile[threadIdx.x] = r == x0 - 1 ? T(1) : r >= x0 && r < p.n ? h.scale * c[r] : T(0);
		__syncthreads();
		tile_dots(p, base, j, x_tile, acc);
	}
	store_dots(p.scratch + S_DOTS_V, j, acc);
	gemv(p, j, h.scale);
	return h;
}

template <typename T>
__global__ void __launch_bounds__(THREADS, 1) gehrd_panel(Panel<T> p)
{
	cg::grid_group grid = cg::this_grid();
	Reflector<T> h = {0, 1, 0};
	for (int j = 0; j <= p.nb; j++) {
		if (j > 0)
			rows_phase(p, j, h);
		if (j == p.nb)
			break;
		if (j > 0)
			grid.sync();
		reflect_phase(p, j);
		grid.sync();
		h = product_phase(p, j, grid);
		grid.sync();
	}
}
template <typename T>
static void panel_columns(int n, int nb, int r0, T *a, int lda, T *tau, T *t, int ldt, T *y,
                          int ldy, T *scratch, cudaStream_t stream)
{
	Panel<T> p = {n, nb, r0, a, y, t, tau, scratch, lda, ldy, ldt};
	int device, sms, per_sm;
	cudaGetDevice(&device);
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
	cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gehrd_panel<T>, THREADS, 0);
	if (per_sm < 1)
		hyla_fail("gehrd_panel's occupancy (no block fits on a multiprocessor)");
	/* A block per multiprocessor, fewer for small panels (at least 2^15
	 * entries of the first GEMV each): the barriers cost less. */
	int64_t rows = n - r0, want = rows * rows / 32768 + 1;
	int blocks = sms < MAX_BLOCKS ? sms : MAX_BLOCKS;
	if (want < blocks)
		blocks = (int)want;
	void *args[] = {&p};
	if (cudaLaunchCooperativeKernel((const void *)gehrd_panel<T>, blocks, THREADS, args, 0, stream))
		hyla_fail("the cooperative launch of gehrd_panel");
}

// V (n by nb, leading dimension ldv) of the panel whose reflector j starts at
// row r0 + j and is stored below it in column j of a.
template <typename T>
__global__ void gehrd_build_v(int n, int r0, const T *a, int64_t lda, T *v, int64_t ldv)
{
	int j = blockIdx.y;
	for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < n; row += gridDim.x * blockDim.x)
		v[row + j * ldv] = row < r0 + j ? T(0) : row == r0 + j ? T(1) : a[row + j * lda];
}

template <typename T>
static void build_v(int n, int nb, int r0, const T *a, int64_t lda, T *v, int64_t ldv,
                    cudaStream_t stream)
{
	dim3 grid((n + 255) / 256 < 64 ? (n + 255) / 256 : 64, nb);
	gehrd_build_v<T><<<grid, 256, 0, stream>>>(n, r0, a, lda, v, ldv);
	hyla_check_launch("gehrd_build_v");
}

extern "C" void hyla__cuda_gehrd_columns_d(int n, int nb, int r0, double *a, int lda, double *tau,
                                           double *t, int ldt, double *y, int ldy, double *scratch,
                                           cudaStream_t stream)
{
	panel_columns(n, nb, r0, a, lda, tau, t, ldt, y, ldy, scratch, stream);
}

extern "C" void hyla__cuda_gehrd_columns_s(int n, int nb, int r0, float *a, int lda, float *tau,
                                           float *t, int ldt, float *y, int ldy, float *scratch,
                                           cudaStream_t stream)
{
	panel_columns(n, nb, r0, a, lda, tau, t, ldt, y, ldy, scratch, stream);
}

extern "C" void hyla__cuda_gehrd_build_v_d(int n, int nb, int r0, const double *a, int64_t lda,
                                           double *v, int64_t ldv, cudaStream_t stream)
{
	build_v(n, nb, r0, a, lda, v, ldv, stream);
}

extern "C" void hyla__cuda_gehrd_build_v_s(int n, int nb, int r0, const float *a, int64_t lda,
                                           float *v, int64_t ldv, cudaStream_t stream)
{
	build_v(n, nb, r0, a, lda, v, ldv, stream);
}
