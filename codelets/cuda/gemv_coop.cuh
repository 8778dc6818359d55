/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// y = A^T u and y = A u inside a cooperative kernel (the bidiagonal panel's
// two GEMVs a column, labrd_kernels.cu), at the GPU's bandwidth: the grid's
// warps take items (an output's segment), their loads in batches; an
// output's pieces (one per segment) go to a scratch and, after a grid
// barrier, gemv_total adds them in segment order, so results do not vary
// from run to run. The vector is a reflector stored as LAPACK leaves it
// before scaling: u(0) = 1, u(k) = scale x(k inc) for k > 0.
#ifndef HYLA_CUDA_GEMV_COOP_CUH
#define HYLA_CUDA_GEMV_COOP_CUH

#include <cstdint>
#include "block_reduce.cuh"

#define GEMV_SEGS 64  // segments of an output at most
#define GEMV_BATCH 8  // loads a lane has in flight

template <typename T>
struct Reflector {
	const T *x;
	int64_t inc;
	T scale;
	__device__ T at(int k) const { return k == 0 ? T(1) : scale * __ldcg(&x[k * inc]); }
};

template <typename T>
struct Gemv {
	const T *a; // rows x cols, read with streaming loads (not yet changed by the kernel;
	            // what other blocks read of it later must go through L2, __ldcg)
	int64_t lda;
	int rows, cols;
	Reflector<T> u;
	T *pieces; // segs x outputs
	int segs;
};

// Segments per output for outputs outputs of len terms: enough items for
// the grid's warps at most once each, segments of at least min_len terms.
__device__ inline int gemv_segs(int outputs, int len, int min_len)
{
	const int warps = gridDim.x * (blockDim.x / 32), by_warps = warps / outputs;
	const int by_len = len / min_len;
	return max(1, min(min(by_warps, by_len), GEMV_SEGS));
}

#define GEMV_T_COLS 8  // the columns a warp sums at once (u's loads shared)
#define GEMV_T_BATCH 2 // their loads a lane has in flight

template <typename T>
__device__ Gemv<T> gemv_t(const T *a, int64_t lda, int rows, int cols, Reflector<T> u, T *pieces)
{
	const int groups = (cols + GEMV_T_COLS - 1) / GEMV_T_COLS;
	return {a, lda, rows, cols, u, pieces, gemv_segs(groups, rows, 256)};
}

template <typename T>
__device__ Gemv<T> gemv_n(const T *a, int64_t lda, int rows, int cols, Reflector<T> u, T *pieces)
{
	return {a, lda, rows, cols, u, pieces, gemv_segs((rows + 63) / 64, cols, 64)};
}

// Phase one of y = A^T u (y: cols): items (GEMV_T_COLS columns from j0, a
// segment of rows), lanes over rows, the warp's sums to the pieces.
template <typename T>
__device__ void gemv_t_pieces(const Gemv<T> &g)
{
	const int lane = threadIdx.x % 32, warps = gridDim.x * (blockDim.x / 32);
	const int len = (g.rows + g.segs - 1) / g.segs;
	const int64_t items = (int64_t)((g.cols + GEMV_T_COLS - 1) / GEMV_T_COLS) * g.segs;
	for (int64_t item = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; item < items;
	     item += warps) {
		const int j0 = (int)(item / g.segs) * GEMV_T_COLS, s = (int)(item % g.segs);
		const int r0 = s * len, r1 = min(g.rows, r0 + len);
		T acc[GEMV_T_COLS] = {};
		for (int base = r0; base < r1; base += 32 * GEMV_T_BATCH) {
			T a[GEMV_T_COLS][GEMV_T_BATCH], u[GEMV_T_BATCH];
#pragma unroll
			for (int b = 0; b < GEMV_T_BATCH; b++) {
				const int r = base + 32 * b + lane;
				u[b] = r < r1 ? g.u.at(r) : T(0);
#pragma unroll
				for (int c = 0; c < GEMV_T_COLS; c++)
					a[c][b] = r < r1 && j0 + c < g.cols ? __ldcs(&g.a[r + (j0 + c) * g.lda]) : T(0);
			}
#pragma unroll
			for (int b = 0; b < GEMV_T_BATCH; b++)
#pragma unroll
				for (int c = 0; c < GEMV_T_COLS; c++)
					acc[c] += a[c][b] * u[b];
		}
#pragma unroll
		for (int c = 0; c < GEMV_T_COLS; c++) {
			const T sum = warp_reduce<T>(acc[c]);
			if (lane == 0 && j0 + c < g.cols)
				g.pieces[(int64_t)s * g.cols + j0 + c] = sum;
		}
	}
}

// Phase one of y = A u (y: rows): items (64 rows, a segment of columns),
// two rows a lane; u's entries loaded a lane each, 32 at a time, and
// broadcast by shuffles.
template <typename T>
__device__ void gemv_n_pieces(const Gemv<T> &g)
{
	const int lane = threadIdx.x % 32, warps = gridDim.x * (blockDim.x / 32);
	const int len = (g.cols + g.segs - 1) / g.segs;
	const int64_t items = (int64_t)((g.rows + 63) / 64) * g.segs;
	for (int64_t item = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; item < items;
	     item += warps) {
		const int ra = (int)(item / g.segs) * 64 + lane, rb = ra + 32, s = (int)(item % g.segs);
		const int c0 = s * len, c1 = min(g.cols, c0 + len);
		T acc_a = 0, acc_b = 0;
		for (int base = c0; base < c1; base += 32) {
			const T u_lane = base + lane < c1 ? g.u.at(base + lane) : T(0);
#pragma unroll
			for (int sub = 0; sub < 32; sub += 2 * GEMV_BATCH) {
				T a[2 * GEMV_BATCH], b[2 * GEMV_BATCH];
#pragma unroll
				for (int k = 0; k < 2 * GEMV_BATCH; k++) {
					const int c = base + sub + k;
					const T *col = g.a + c * g.lda;
					a[k] = c < c1 && ra < g.rows ? __ldcs(&col[ra]) : T(0);
					b[k] = c < c1 && rb < g.rows ? __ldcs(&col[rb]) : T(0);
				}
#pragma unroll
				for (int k = 0; k < 2 * GEMV_BATCH; k++) {
					const T u = __shfl_sync(0xffffffffu, u_lane, sub + k);
					acc_a += a[k] * u;
					acc_b += b[k] * u;
				}
			}
		}
		if (ra < g.rows)
			g.pieces[(int64_t)s * g.rows + ra] = acc_a;
		if (rb < g.rows)
			g.pieces[(int64_t)s * g.rows + rb] = acc_b;
	}
}

// Phase two, after a grid barrier: output k's total (outputs: cols for
// A^T u, rows for A u).
template <typename T>
__device__ T gemv_total(const Gemv<T> &g, int outputs, int k)
{
	T sum = 0;
	for (int s = 0; s < g.segs; s++)
		sum += __ldcg(&g.pieces[(int64_t)s * outputs + k]);
	return sum;
}

#endif
