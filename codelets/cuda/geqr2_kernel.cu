// Householder QR's panel (LAPACK's DGEQR2 on an m-by-w panel) as one
// cooperative kernel: each block keeps a slice of the panel's rows in shared
// memory for the whole column loop, and per column the blocks meet twice at
// a grid-wide barrier: for the column's norm (and its diagonal entry), then
// for y = A^T v over the later columns. Every block adds the blocks' partial
// sums itself, in block order, so all hold the same reflector and y, and
// results do not vary from run to run. Partial sums go to two buffers used
// in turn (a block may write the next sums while another still reads).
#include <cooperative_groups.h>
#include "block_reduce.cuh"
#include "kernels.h"
#include "launch.h"

namespace cg = cooperative_groups;

#define THREADS 512
#define WARPS (THREADS / 32)
#define MAXW HYLA_GEQR2_MAX_W
#define MAXB HYLA_GEQR2_MAX_BLOCKS
#define ROWS_PER_BLOCK 128 // fewer blocks (and partial sums) below it, barely more work
#define UNROLL 8           // partial sums a warp adds at once (loads in flight)

template <typename T>
struct Panel {
	int m, w, rows; // rows: each block's slice (the last one's may be shorter)
	T *a, *tau, *partial;
	int64_t lda;
};

// The blocks' sums of slots [0, nslots) of the partial buffer p (slot s of
// block b at p[s * MAXB + b]) into out, each sum in block order.
template <typename T>
__device__ void add_partials(const T *p, int nslots, T *out)
{
	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nb = gridDim.x;
	for (int s0 = warp * UNROLL; s0 < nslots; s0 += WARPS * UNROLL) {
		T acc[UNROLL];
#pragma unroll
		for (int u = 0; u < UNROLL; u++)
			acc[u] = 0;
		for (int b = lane; b < nb; b += 32)
#pragma unroll
			for (int u = 0; u < UNROLL; u++)
				if (s0 + u < nslots)
					acc[u] += __ldcg(&p[(int64_t)(s0 + u) * MAXB + b]);
#pragma unroll
		for (int u = 0; u < UNROLL; u++) {
			T s = warp_reduce<T>(acc[u]);
			if (lane == 0 && s0 + u < nslots)
				out[s0 + u] = s;
		}
	}
	__syncthreads();
}

template <typename T>
__global__ void __launch_bounds__(THREADS, 1) geqr2_panel(Panel<T> p)
{
	extern __shared__ __align__(16) unsigned char smem[];
	T *tile = reinterpret_cast<T *>(smem); // the block's rows, leading dimension p.rows
	__shared__ T y[MAXW], beta[MAXW], norm_parts[3];
	cg::grid_group grid = cg::this_grid();
	const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, w = p.w, ld = p.rows;
	const int r0 = blockIdx.x * p.rows, nr = min(p.rows, p.m - r0);
	for (int i = tid; i < nr * w; i += THREADS)
		tile[i % nr + i / nr * ld] = p.a[r0 + i % nr + i / nr * p.lda];
	__syncthreads();
	T *partial[2] = {p.partial, p.partial + (int64_t)MAXW * MAXB};
	int buf = 0;
	T tau_prev = 0;
	for (int j = 0; j < w; j++) {
		// Local rows at or below row j (and below it): [lo, nr), [lo1, nr).
		const int lo = min(nr, max(0, j - r0)), lo1 = min(nr, max(0, j + 1 - r0));
		if (j > 0) { // H(j-1) on columns j.., rows j-1..: A -= tau v y^T
			const int lp = min(nr, max(0, j - 1 - r0)), rows = nr - lp;
			const T *v = tile + (j - 1) * ld;
			for (int i = tid; i < rows * (w - j); i += THREADS) {
				const int r = lp + i % rows, l = j + i / rows;
				tile[r + l * ld] -= tau_prev * v[r] * y[l];
			}
			__syncthreads();
		}
		// The norm of column j below row j, as a scale (the largest entry)
		// and the sum of squares over it; the diagonal entry from its block.
		T *x = tile + j * ld, amax = 0, sq = 0;
		for (int r = lo1 + tid; r < nr; r += THREADS)
			amax = fmax(amax, fabs(x[r]));
		amax = block_reduce<THREADS, T, true>(amax);
		for (int r = lo1 + tid; amax > 0 && r < nr; r += THREADS)
			sq += (x[r] / amax) * (x[r] / amax);
		sq = block_reduce<THREADS, T>(sq);
		T *out = partial[buf];
		if (tid == 0) {
			out[0 * MAXB + blockIdx.x] = amax;
			out[1 * MAXB + blockIdx.x] = sq;
			out[2 * MAXB + blockIdx.x] = j >= r0 && j < r0 + nr ? x[j - r0] : T(0);
		}
		grid.sync();
		if (warp == 0) { // largest scale, then the sums of squares in its units
			T s = 0, q = 0, alpha = 0;
			for (int b = lane; b < gridDim.x; b += 32)
				s = fmax(s, __ldcg(&out[0 * MAXB + b]));
			s = __shfl_sync(0xffffffffu, warp_reduce<T, true>(s), 0);
			for (int b = lane; b < gridDim.x; b += 32) {
				const T sb = __ldcg(&out[0 * MAXB + b]);
				if (sb > 0)
					q += __ldcg(&out[1 * MAXB + b]) * (sb / s) * (sb / s);
				alpha += __ldcg(&out[2 * MAXB + b]);
			}
			q = warp_reduce<T>(q);
			alpha = warp_reduce<T>(alpha);
			if (lane == 0) {
				norm_parts[0] = s * sqrt(q);
				norm_parts[1] = alpha;
			}
		}
		buf ^= 1;
		__syncthreads();
		// LAPACK's dlarfg: beta, tau, v = x / (alpha - beta) with v(j) = 1.
		const T xnorm = norm_parts[0], alpha = norm_parts[1];
		T b = alpha, t = 0, scale = 1;
		if (xnorm > 0) {
			b = -copysign(hypot(alpha, xnorm), alpha);
			t = (b - alpha) / b;
			scale = 1 / (alpha - b);
		}
		for (int r = lo1 + tid; r < nr; r += THREADS)
			x[r] *= scale;
		if (tid == 0) {
			if (j >= r0 && j < r0 + nr)
				x[j - r0] = 1;
			beta[j] = b;
			if (blockIdx.x == 0)
				p.tau[j] = t;
		}
		tau_prev = t;
		__syncthreads();
		if (j + 1 == w)
			break;
		// y(l) = v^T A(:, l) for l > j: a warp per column, lanes over rows.
		out = partial[buf];
		for (int l = j + 1 + warp; l < w; l += WARPS) {
			const T *c = tile + l * ld;
			T s = 0;
			for (int r = lo + lane; r < nr; r += 32)
				s += x[r] * c[r];
			s = warp_reduce<T>(s);
			if (lane == 0)
				out[(int64_t)(l - j - 1) * MAXB + blockIdx.x] = s;
		}
		grid.sync();
		add_partials<T>(out, w - j - 1, y + j + 1);
		buf ^= 1;
	}
	// R's diagonal in place of the reflectors' 1s; the slice back.
	for (int j = tid; j < w; j += THREADS)
		if (j >= r0 && j < r0 + nr)
			tile[j - r0 + j * ld] = beta[j];
	__syncthreads();
	for (int i = tid; i < nr * w; i += THREADS)
		p.a[r0 + i % nr + i / nr * p.lda] = tile[i % nr + i / nr * ld];
}

// The launch if the panel fits (each block's rows in shared memory, a block
// per multiprocessor at most); false if not.
template <typename T>
static bool launch(int m, int w, T *a, int64_t lda, T *tau, T *partial, cudaStream_t stream)
{
	int device, sms, smem_max;
	cudaGetDevice(&device);
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
	cudaDeviceGetAttribute(&smem_max, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
	cudaFuncAttributes attr;
	cudaFuncGetAttributes(&attr, geqr2_panel<T>);
	const int64_t fit = ((int64_t)smem_max - (int64_t)attr.sharedSizeBytes) / w / (int64_t)sizeof(T);
	const int max_blocks = sms < MAXB ? sms : MAXB, least = (m + max_blocks - 1) / max_blocks;
	const int rows = least > ROWS_PER_BLOCK ? least : fit < ROWS_PER_BLOCK ? (int)fit : ROWS_PER_BLOCK;
	if (w > MAXW || rows > fit || rows < least)
		return false;
	const int64_t bytes = (int64_t)rows * w * (int64_t)sizeof(T);
	if (cudaFuncSetAttribute(geqr2_panel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
	                         (int)bytes) != cudaSuccess)
		hyla_fail("geqr2_panel's shared memory size");
	int per_sm = 0;
	cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, geqr2_panel<T>, THREADS, (size_t)bytes);
	int blocks = (m + rows - 1) / rows;
	if (per_sm < 1 || blocks > per_sm * sms)
		return false;
	Panel<T> p = {m, w, rows, a, tau, partial, lda};
	void *args[] = {&p};
	if (cudaLaunchCooperativeKernel((const void *)geqr2_panel<T>, blocks, THREADS, args,
	                                (size_t)bytes, stream))
		hyla_fail("the cooperative launch of geqr2_panel");
	return true;
}

extern "C" int hyla__cuda_geqr2_fused_d(int m, int w, double *a, int lda, double *tau,
                                        double *scratch, cudaStream_t stream)
{
	return launch(m, w, a, lda, tau, scratch, stream);
}

extern "C" int hyla__cuda_geqr2_fused_s(int m, int w, float *a, int lda, float *tau,
                                        float *scratch, cudaStream_t stream)
{
	return launch(m, w, a, lda, tau, scratch, stream);
}
