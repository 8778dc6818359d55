/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// CUDA kernels of classical Gram-Schmidt (Milde and Schneider; Farber): the column loop
// of a panel as one cooperative kernel (dot products with a tree reduction,
// the subtraction of projections, norms; a grid-wide sync per step), the same
// steps one kernel each for Milde and Schneider's parallel order, and its rank-1 update.
#include <cooperative_groups.h>
#include "kernels.h"
#include "launch.h"

namespace cg = cooperative_groups;

#define MAXC HYLA_CGS_MAX_COLS
#define SLOTS HYLA_CGS_SLOTS // the dot products, then the norm
#define NORM_SLOT (SLOTS - 1)
#define THREADS 256
#define WARPS (THREADS / 32)
#define CHUNK 64 // rows a block owns at a time; THREADS / CHUNK threads share a row
#define PARTS (THREADS / CHUNK)

enum { OP_NONE, OP_DOTS, OP_NORM, OP_NORM_NEXT };

template <typename T>
struct step_shared {
	T coef[MAXC], sums[SLOTS], total[SLOTS], ysh[CHUNK], zsh[CHUNK], red[PARTS][CHUNK];
	T warp_norm[CHUNK / 32];
};

// A block's part of one grid-wide step of a Gram-Schmidt column loop, on its
// own rows (chunks of CHUNK rows, grid stride) of the column y and of X
// (m-by-ncols, ncols <= MAXC):
//  1. scale_col /= divisor (finishes the previous column q);
//  2. with sub, y -= X coef (coef: sh.coef);
//  3. into sh.sums, the block's share of
//     op DOTS: X^T y (slots 0..ncols-1);
//     op NORM: ||y||^2 (NORM_SLOT);
//     op NORM_NEXT: ||y||^2, and [X, y]^T z for the next column z
//     (slots 0..ncols); op NONE: nothing.
template <typename T>
__device__ void block_step(int m, int ncols, const T *x, int64_t ldx, T *y, const T *z,
                           T *scale_col, T divisor, bool sub, int op, step_shared<T> &sh)
{
	const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
	const int row = tid % CHUNK, part = tid / CHUNK;
	const bool with_norm = op == OP_NORM || op == OP_NORM_NEXT;
	for (int c = tid; c < SLOTS; c += THREADS)
		sh.sums[c] = 0;
	__syncthreads();
	for (int64_t r0 = (int64_t)blockIdx.x * CHUNK; r0 < m; r0 += (int64_t)gridDim.x * CHUNK) {
		const int rows = m - r0 < CHUNK ? (int)(m - r0) : CHUNK;
		if (scale_col && tid < rows)
			scale_col[r0 + tid] /= divisor;
		__syncthreads();
		if (sub) {
			T s = 0;
			if (row < rows)
#pragma unroll 8
				for (int c = part; c < ncols; c += PARTS)
					s += x[r0 + row + c * ldx] * sh.coef[c];
			sh.red[part][row] = s;
			__syncthreads();
		}
		if (tid < rows) {
			T v = y[r0 + tid];
			if (sub) {
				for (int p = 0; p < PARTS; p++)
					v -= sh.red[p][tid];
				y[r0 + tid] = v;
			}
			sh.ysh[tid] = v;
			if (op == OP_NORM_NEXT)
				sh.zsh[tid] = z[r0 + tid];
		} else if (tid < CHUNK) {
			sh.ysh[tid] = 0;
			sh.zsh[tid] = 0;
		}
		__syncthreads();
		// A warp per column, two rows per lane; loads of several columns in
		// flight before their sums.
		const int nx = op == OP_NONE || op == OP_NORM ? 0 : ncols;
		const T d0 = op == OP_NORM_NEXT ? sh.zsh[lane] : sh.ysh[lane];
		const T d1 = op == OP_NORM_NEXT ? sh.zsh[lane + 32] : sh.ysh[lane + 32];
#pragma unroll 4
		for (int c = warp; c < nx; c += WARPS) {
			const T *xc = x + r0 + c * ldx;
			T a0 = lane < rows ? xc[lane] : T(0);
			T a1 = lane + 32 < rows ? xc[lane + 32] : T(0);
			T s = a0 * d0 + a1 * d1;
			for (int off = 16; off > 0; off /= 2)
				s += __shfl_down_sync(0xffffffffu, s, off);
			if (lane == 0)
				sh.sums[c] += s;
		}
		if (op == OP_NORM_NEXT && warp == WARPS - 1) { // column ncols: y itself
			T s = sh.ysh[lane] * sh.zsh[lane] + sh.ysh[lane + 32] * sh.zsh[lane + 32];
			for (int off = 16; off > 0; off /= 2)
				s += __shfl_down_sync(0xffffffffu, s, off);
			if (lane == 0)
				sh.sums[ncols] += s;
		}
		if (with_norm && warp < CHUNK / 32) {
			T s = sh.ysh[tid] * sh.ysh[tid];
			for (int off = 16; off > 0; off /= 2)
				s += __shfl_down_sync(0xffffffffu, s, off);
			if (lane == 0)
				sh.warp_norm[warp] = s;
		}
		__syncthreads();
		if (with_norm && tid == 0)
			for (int w = 0; w < CHUNK / 32; w++)
				sh.sums[NORM_SLOT] += sh.warp_norm[w];
		__syncthreads();
	}
}

// The blocks' sums of slots 0..ndots-1 (and NORM_SLOT with_norm) out of
// partial (slot-major, gridDim.x per slot) into sh.total: a warp per slot,
// in block order, so every block that does it gets the same result.
template <typename T>
__device__ void add_partials(const T *partial, int ndots, bool with_norm, step_shared<T> &sh)
{
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
	for (int o = warp; o < ndots + (with_norm ? 1 : 0); o += WARPS) {
		const int slot = o < ndots ? o : NORM_SLOT;
		T s = 0;
		for (int b = lane; b < gridDim.x; b += 32)
			s += __ldcg(&partial[(int64_t)slot * HYLA_CGS_MAX_BLOCKS + b]);
		for (int off = 16; off > 0; off /= 2)
			s += __shfl_down_sync(0xffffffffu, s, off);
		if (lane == 0)
			sh.total[slot] = s;
	}
	__syncthreads();
}

template <typename T>
__device__ void store_partials(T *partial, int ndots, bool with_norm, const step_shared<T> &sh)
{
	for (int o = threadIdx.x; o < ndots + (with_norm ? 1 : 0); o += THREADS) {
		const int slot = o < ndots ? o : NORM_SLOT;
		partial[(int64_t)slot * HYLA_CGS_MAX_BLOCKS + blockIdx.x] = sh.sums[slot];
	}
}

// One step as a kernel (the vector variant's dots and norms): block_step
// with op DOTS or NORM, then the last block to finish adds the blocks' sums:
// out[c * ldo] = (X^T y)[c] or *norm = ||y||. counter starts at zero and is
// left so.
template <typename T>
__global__ void __launch_bounds__(THREADS)
gs_step(int m, int ncols, const T *x, int64_t ldx, T *y, T *scale_col, const T *scale_by, int op,
        T *out, int64_t ldo, T *norm, T *partial, unsigned *counter)
{
	__shared__ step_shared<T> sh;
	__shared__ bool last;
	block_step<T>(m, ncols, x, ldx, y, NULL, scale_col, scale_col ? *scale_by : T(1), false, op,
	              sh);
	const int ndots = op == OP_DOTS ? ncols : 0;
	if (op == OP_NONE)
		return;
	store_partials<T>(partial, ndots, op == OP_NORM, sh);
	__threadfence();
	__syncthreads();
	if (threadIdx.x == 0)
		last = atomicAdd(counter, 1u) == gridDim.x - 1;
	__syncthreads();
	if (!last)
		return;
	add_partials<T>(partial, ndots, op == OP_NORM, sh);
	if (op == OP_NORM && threadIdx.x == 0)
		*norm = sqrt(sh.total[NORM_SLOT]);
	for (int c = threadIdx.x; c < ndots; c += THREADS)
		out[c * ldo] = sh.total[c];
	if (threadIdx.x == 0)
		*counter = 0;
}

// The m-by-w panel a's columns orthonormalised one after the other, each
// against the earlier ones by `passes` classical projections (1: CGS, 2:
// CGS2), coefficients into t's upper triangle: one cooperative launch, a
// grid-wide sync per step. Per column: (CGS2 only: y -= Q r, r2 = Q^T y);
// y -= Q r (or r2), ||y||, and the next column's r against [Q, y] in one
// step. Every block adds the partial sums itself, in the same order, so all
// hold the same coefficients; block 0 writes them to t. partial: two
// buffers, used in turn (a block may write the next step's sums while
// another still reads this one's).
template <typename T>
__global__ void __launch_bounds__(THREADS)
gs_columns(int m, int w, int passes, T *a, int64_t lda, T *t, int64_t ldt, T *partial)
{
	__shared__ step_shared<T> sh;
	cg::grid_group grid = cg::this_grid();
	const int tid = threadIdx.x;
	const bool writer = blockIdx.x == 0;
	int buf = 0;
	T norm = 1; // of the previous column, which the next step finishes
	auto reduce = [&](int ndots, bool with_norm) {
		T *p = partial + (int64_t)buf * HYLA_CGS_MAX_BLOCKS * SLOTS;
		store_partials<T>(p, ndots, with_norm, sh);
		grid.sync();
		add_partials<T>(p, ndots, with_norm, sh);
		buf ^= 1;
	};
	for (int j = 0; j < w; j++) {
		T *v = a + (int64_t)j * lda, *tj = t + (int64_t)j * ldt;
		T *prev = j ? v - lda : NULL;
		if (passes == 2 && j > 0) {
			block_step<T>(m, j, a, lda, v, NULL, prev, norm, true, OP_DOTS, sh);
			reduce(j, false);
			for (int c = tid; c < j; c += THREADS) {
				if (writer)
					tj[c] = sh.coef[c] + sh.total[c];
				sh.coef[c] = sh.total[c];
			}
			__syncthreads();
			prev = NULL;
		}
		const bool next = j + 1 < w;
		block_step<T>(m, j, a, lda, v, next ? v + lda : NULL, prev, norm, j > 0,
		              next ? OP_NORM_NEXT : OP_NORM, sh);
		reduce(next ? j + 1 : 0, true);
		norm = sqrt(sh.total[NORM_SLOT]);
		if (writer && tid == 0)
			tj[j] = norm;
		for (int c = tid; next && c <= j; c += THREADS) {
			T r = c == j ? sh.total[c] / norm : sh.total[c];
			if (writer)
				tj[ldt + c] = r;
			sh.coef[c] = r;
		}
		__syncthreads();
	}
	T *last = a + (int64_t)(w - 1) * lda;
	for (int64_t i = (int64_t)blockIdx.x * CHUNK + tid; tid < CHUNK && i < m;
	     i += (int64_t)gridDim.x * CHUNK)
		last[i] /= norm;
}

// X (m-by-ncols) -= q r^T, r with stride ldr.
template <typename T>
__global__ void rank1(int m, int ncols, T *x, int64_t ldx, const T *q, const T *r, int64_t ldr)
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= m)
		return;
	const T qi = q[i];
	for (int c = blockIdx.y; c < ncols; c += gridDim.y)
		x[i + c * ldx] -= qi * r[c * ldr];
}

// Right-looking Cholesky in shared memory, a thread per entry.
template <typename T>
__global__ void cholesky_upper(int w, T *t, int64_t ldt)
{
	constexpr int N = HYLA_CHOLESKY_MAX;
	__shared__ T g[N][N + 1];
	const int i = threadIdx.x % N, j = threadIdx.x / N;
	const bool mine = i <= j && j < w;
	g[i][j] = mine ? t[i + j * ldt] : T(0);
	__syncthreads();
	for (int k = 0; k < w; k++) {
		if (threadIdx.x == 0)
			g[k][k] = sqrt(g[k][k]);
		__syncthreads();
		if (i == k && j > k && j < w)
			g[k][j] /= g[k][k];
		__syncthreads();
		if (i > k && mine)
			g[i][j] -= g[k][i] * g[k][j];
		__syncthreads();
	}
	if (mine)
		t[i + j * ldt] = g[i][j];
}

// Column k of r = t r (both upper triangular): block k keeps r(0:k, k) in
// shared memory, thread i forms sum over i <= l <= k of t(i, l) r(l, k).
template <typename T>
__global__ void upper_product(const T *t, int64_t ldt, T *r, int64_t ldr)
{
	extern __shared__ unsigned char shared[];
	T *col = reinterpret_cast<T *>(shared);
	const int k = blockIdx.x;
	T *rk = r + (int64_t)k * ldr;
	for (int i = threadIdx.x; i <= k; i += blockDim.x)
		col[i] = rk[i];
	__syncthreads();
	for (int i = threadIdx.x; i <= k; i += blockDim.x) {
		T sum = 0;
		for (int l = i; l <= k; l++)
			sum += t[i + l * ldt] * col[l];
		rk[i] = sum;
	}
}

template <typename T>
struct gs_scratch {
	T *partial; // two buffers of HYLA_CGS_MAX_BLOCKS * SLOTS
	unsigned *counter;
	explicit gs_scratch(T *s)
	    : partial(s), counter((unsigned *)(s + 2 * HYLA_CGS_MAX_BLOCKS * SLOTS))
	{
	}
};

static int gs_blocks(int m)
{
	int blocks = (m + CHUNK - 1) / CHUNK;
	return blocks < HYLA_CGS_MAX_BLOCKS ? blocks : HYLA_CGS_MAX_BLOCKS;
}

template <typename T>
static void step(int m, int ncols, const T *x, int64_t ldx, T *y, T *scale_col, const T *scale_by,
                 int op, T *out, int64_t ldo, T *norm, const gs_scratch<T> &s, cudaStream_t stream)
{
	gs_step<T><<<gs_blocks(m), THREADS, 0, stream>>>(m, ncols, x, ldx, y, scale_col, scale_by, op,
	                                                 out, ldo, norm, s.partial, s.counter);
}

// gs_columns with as many blocks as the rows need and the GPU holds at once.
template <typename T>
static void panel(int m, int w, int passes, T *a, int64_t lda, T *t, int64_t ldt, T *scratch,
                  cudaStream_t stream)
{
	int device, sms, per_sm;
	cudaGetDevice(&device);
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
	cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gs_columns<T>, THREADS, 0);
	int blocks = gs_blocks(m);
	if (blocks > sms * per_sm)
		blocks = sms * per_sm;
	gs_scratch<T> s(scratch);
	void *args[] = {&m, &w, &passes, &a, &lda, &t, &ldt, &s.partial};
	if (cudaLaunchCooperativeKernel((const void *)gs_columns<T>, blocks, THREADS, args, 0, stream))
		hyla_fail("the cooperative launch of gs_columns");
}

template <typename T>
static void normalise(int m, T *q, T *norm, T *scratch, cudaStream_t stream)
{
	gs_scratch<T> s(scratch);
	cudaMemsetAsync(s.counter, 0, sizeof *s.counter, stream);
	step<T>(m, 0, q, m, q, NULL, NULL, OP_NORM, NULL, 1, norm, s, stream);
	step<T>(m, 0, q, m, q, q, norm, OP_NONE, NULL, 1, NULL, s, stream);
	hyla_check_launch("gs_step");
}

template <typename T>
static void dots(int m, int ncols, const T *x, int64_t ldx, const T *y, T *out, int64_t ldo,
                 T *scratch, cudaStream_t stream)
{
	gs_scratch<T> s(scratch);
	cudaMemsetAsync(s.counter, 0, sizeof *s.counter, stream);
	step<T>(m, ncols, x, ldx, (T *)y, NULL, NULL, OP_DOTS, out, ldo, NULL, s, stream);
	hyla_check_launch("gs_step");
}

template <typename T>
static void rank1_update(int m, int ncols, T *x, int64_t ldx, const T *q, const T *r, int64_t ldr,
                         cudaStream_t stream)
{
	if (ncols == 0)
		return;
	dim3 grid((m + THREADS - 1) / THREADS, ncols < 64 ? ncols : 64);
	rank1<T><<<grid, THREADS, 0, stream>>>(m, ncols, x, ldx, q, r, ldr);
	hyla_check_launch("rank1");
}

#define HYLA_CGS_INSTANCES(S, T)                                                                   \
	extern "C" void hyla__cuda_cholesky_upper_##S(int w, T *t, int64_t ldt, cudaStream_t stream)    \
	{                                                                                              \
		cholesky_upper<T><<<1, HYLA_CHOLESKY_MAX * HYLA_CHOLESKY_MAX, 0, stream>>>(w, t, ldt);     \
		hyla_check_launch("cholesky_upper");                                                       \
	}                                                                                              \
	extern "C" void hyla__cuda_upper_product_##S(int w, const T *t, int64_t ldt, T *r,             \
	                                             int64_t ldr, cudaStream_t stream)                 \
	{                                                                                              \
		upper_product<T><<<w, 128, w * sizeof(T), stream>>>(t, ldt, r, ldr);                       \
		hyla_check_launch("upper_product");                                                        \
	}                                                                                              \
	extern "C" void hyla__cuda_cgs_panel_##S(int m, int w, int passes, T *a, int64_t lda,          \
	                                         T *t, int64_t ldt, T *scratch, cudaStream_t stream)   \
	{                                                                                              \
		panel(m, w, passes, a, lda, t, ldt, scratch, stream);                                      \
	}                                                                                              \
	extern "C" void hyla__cuda_cgs_normalise_##S(int m, T *q, T *norm, T *scratch,                 \
	                                             cudaStream_t stream)                              \
	{                                                                                              \
		normalise(m, q, norm, scratch, stream);                                                    \
	}                                                                                              \
	extern "C" void hyla__cuda_cgs_dots_##S(int m, int ncols, const T *x, int64_t ldx,             \
	                                        const T *y, T *out, int64_t ldo, T *scratch,           \
	                                        cudaStream_t stream)                                   \
	{                                                                                              \
		dots(m, ncols, x, ldx, y, out, ldo, scratch, stream);                                      \
	}                                                                                              \
	extern "C" void hyla__cuda_cgs_rank1_##S(int m, int ncols, T *x, int64_t ldx, const T *q,      \
	                                         const T *r, int64_t ldr, cudaStream_t stream)         \
	{                                                                                              \
		rank1_update(m, ncols, x, ldx, q, r, ldr, stream);                                         \
	}
HYLA_CGS_INSTANCES(d, double)
HYLA_CGS_INSTANCES(s, float)
