/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// y = A x for a symmetric m-by-m A stored in its lower triangle, inside a
// cooperative kernel (the tridiagonal panel's SYMV, latrd_kernels.cu), at
// the GPU's bandwidth: the lower triangle is cut into 64-by-64 tiles, read
// once each, whose units of SYMV_C columns are shared evenly among the
// grid's warps in row order. A warp holds a unit (two rows a lane) in
// registers: the row sums A_ij x_j accumulate along its run of tiles, the
// column sums A_ij^T x_i are reduced across the lanes by a transposing
// butterfly. Reading at the GPU's bandwidth takes two blocks (16 warps) a
// multiprocessor.
// Pieces go to a scratch (one row of pieces per warp and tile row, one
// column piece per tile) and, after a grid barrier, symv_row_part adds a
// row's pieces in a fixed order: results do not vary from run to run.
// x is a reflector as the panel holds it before scaling it: x(0) = 1 (its
// unit element), x(r) = scale x[r] below.
#ifndef HYLA_CUDA_SYMV_LOWER_CUH
#define HYLA_CUDA_SYMV_LOWER_CUH

#include <cstdint>
#include "block_reduce.cuh"

#define SYMV_H 64 // a tile's rows (two a lane) and columns
#define SYMV_C 16 // the columns a warp holds at once
#define SYMV_UNITS (SYMV_H / SYMV_C)

template <typename T>
struct SymvLower {
	const T *a, *x;
	T scale;
	int64_t lda;
	int m;
	T *row_parts; // (warps + tile rows) x SYMV_H: a warp's row sums, per tile row
	T *col_parts; // tile rows x m: tile (bi, bj)'s column sums at bi * m + bj * SYMV_H
};

// Scratch elements for m rows and at most warps warps.
static inline int64_t symv_scratch_elems(int m, int warps)
{
	const int64_t rows = (m + SYMV_H - 1) / SYMV_H;
	return (warps + rows) * SYMV_H + rows * m;
}

// The SYMV of a (lda) and x (scale), m rows, at the scratch (for at most
// warps warps).
template <typename T>
__host__ __device__ SymvLower<T> symv_lower(const T *a, const T *x, T scale, int64_t lda, int m,
                                            T *scratch, int warps)
{
	const int64_t rows = (m + SYMV_H - 1) / SYMV_H;
	return {a, x, scale, lda, m, scratch, scratch + (warps + rows) * SYMV_H};
}

// x(r), zero from m on.
template <typename T>
__device__ __forceinline__ T symv_x(const SymvLower<T> &s, int r)
{
	return r >= s.m ? T(0) : r == 0 ? T(1) : s.scale * __ldcg(&s.x[r]);
}

// The units of work: SYMV_C columns of a tile (the triangle's tiles in row
// order, a tile's units from its left).
__device__ inline int64_t symv_units_of(int m)
{
	const int64_t rows = (m + SYMV_H - 1) / SYMV_H;
	return rows * (rows + 1) / 2 * SYMV_UNITS;
}

// The warps that share the units: no more than units, so that each has one.
__device__ inline int symv_warps(int m)
{
	const int64_t all = (int64_t)gridDim.x * (blockDim.x / 32), units = symv_units_of(m);
	return (int)(all < units ? all : units);
}

// The warp whose run holds unit t (warp w runs over [w units / warps, (w +
// 1) units / warps)).
__device__ inline int symv_owner(int64_t t, int64_t units, int warps)
{
	return (int)(((t + 1) * warps + units - 1) / units - 1);
}

// Columns c0..c0+SYMV_C-1 of the tile whose rows start at r0: the lane's
// rows r0 + lane and r0 + 32 + lane into racc (x_r: their x), the columns'
// sums returned (column c0 + k's in lanes k, k + SYMV_C, ..), x_c: x(c0 +
// lane). EDGE: the
// diagonal tile (only r >= c is stored; the diagonal counts in the row sums
// alone) or the last tile row (rows from m on are not there).
template <typename T, bool EDGE>
__device__ __forceinline__ T symv_chunk(const SymvLower<T> &s, int r0, int c0, T x_r0, T x_r1,
                                        T racc[2], T &x_c)
{
	const int lane = threadIdx.x % 32, ra = r0 + lane, rb = ra + 32;
	const T *p = s.a + (int64_t)c0 * s.lda;
	x_c = symv_x(s, c0 + lane);
	T a0[SYMV_C], a1[SYMV_C];
#pragma unroll
	for (int k = 0; k < SYMV_C; k++) {
		const T *col = p + k * s.lda;
		const int c = c0 + k;
		a0[k] = !EDGE || (ra < s.m && ra >= c) ? __ldcs(&col[ra]) : T(0);
		a1[k] = !EDGE || (rb < s.m && rb >= c) ? __ldcs(&col[rb]) : T(0);
	}
#pragma unroll
	for (int k = 0; k < SYMV_C; k++) {
		const T x_k = __shfl_sync(0xffffffffu, x_c, k);
		racc[0] += a0[k] * x_k;
		racc[1] += a1[k] * x_k;
		const int c = c0 + k;
		a0[k] = (!EDGE || ra > c ? a0[k] * x_r0 : T(0)) + (!EDGE || rb > c ? a1[k] * x_r1 : T(0));
	}
	T sum = transpose_sum<SYMV_C / 2>(a0);
#pragma unroll
	for (int off = SYMV_C; off < 32; off *= 2)
		sum += __shfl_xor_sync(0xffffffffu, sum, off);
	return sum;
}

// Phase one, every thread of the grid: the warps' pieces to the scratch;
// returned, the lane's part of x^T y (the pieces it wrote times their x).
template <typename T>
__device__ T symv_tiles(const SymvLower<T> &s)
{
	const int lane = threadIdx.x % 32, warps = symv_warps(s.m);
	const int w = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
	T xy = 0;
	if (w >= warps)
		return xy;
	const int64_t units = symv_units_of(s.m), end = (w + 1) * units / warps;
	int64_t t = w * units / warps, tile = t / SYMV_UNITS;
	int h = (int)(t % SYMV_UNITS), bi = (int)((sqrt(8.0 * tile + 1) - 1) / 2);
	while ((int64_t)(bi + 1) * (bi + 2) / 2 <= tile)
		bi++;
	while ((int64_t)bi * (bi + 1) / 2 > tile)
		bi--;
	int bj = (int)(tile - (int64_t)bi * (bi + 1) / 2);
	const bool last_row_partial = s.m % SYMV_H != 0;
	T racc[2] = {0, 0}, x_r0 = 0, x_r1 = 0;
	for (bool load_x = true; t < end; t++) {
		const int r0 = bi * SYMV_H, c0 = bj * SYMV_H + SYMV_C * h;
		if (load_x) {
			x_r0 = symv_x(s, r0 + lane);
			x_r1 = symv_x(s, r0 + 32 + lane);
			load_x = false;
		}
		const bool edge = bj == bi || (last_row_partial && r0 + SYMV_H > s.m);
		T x_c;
		const T sum = edge ? symv_chunk<T, true>(s, r0, c0, x_r0, x_r1, racc, x_c)
		                   : symv_chunk<T, false>(s, r0, c0, x_r0, x_r1, racc, x_c);
		if (lane < SYMV_C && c0 + lane < s.m) {
			s.col_parts[(int64_t)bi * s.m + c0 + lane] = sum;
			xy += sum * x_c;
		}
		if (++h == SYMV_UNITS) {
			h = 0;
			bj++;
		}
		if (bj > bi || t + 1 == end) {
			T *rows = s.row_parts + (int64_t)(w + bi) * SYMV_H;
			rows[lane] = racc[0];
			rows[32 + lane] = racc[1];
			xy += racc[0] * x_r0 + racc[1] * x_r1;
			racc[0] = racc[1] = 0;
			if (bj > bi) {
				bi++;
				bj = 0;
				load_x = true;
			}
		}
	}
	return xy;
}

// Phase two, after a grid barrier: the part of y(r) (0 <= r < m) that
// thread split of splits adds (their sum is y(r)): row r's pieces (the row
// sums of the warps whose runs cross its tile row, then the column sums of
// the tiles below) shared out in turn, in a fixed order.
template <typename T>
__device__ T symv_row_part(const SymvLower<T> &s, int r, int split, int splits)
{
	const int b = r / SYMV_H, rows = (s.m + SYMV_H - 1) / SYMV_H, warps = symv_warps(s.m);
	const int64_t units = symv_units_of(s.m), first = (int64_t)b * (b + 1) / 2 * SYMV_UNITS;
	const int w0 = symv_owner(first, units, warps);
	const int row_pieces = symv_owner(first + (b + 1) * SYMV_UNITS - 1, units, warps) - w0 + 1;
	const int pieces = row_pieces + rows - b;
	T sum = 0;
#pragma unroll 8
	for (int k = split; k < pieces; k += splits)
		sum += __ldcg(k < row_pieces ? &s.row_parts[(int64_t)(w0 + k + b) * SYMV_H + r % SYMV_H]
		                             : &s.col_parts[(int64_t)(b + k - row_pieces) * s.m + r]);
	return sum;
}

#endif
