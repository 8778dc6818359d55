// Householder QR's panel (LAPACK's DGEQR2 on an m-by-w panel) as one
// cooperative kernel: each block keeps a slice of the panel's rows in shared
// memory for the whole column loop, its threads a column each (two for
// w > 128) and a group of its rows, and per column the blocks meet twice at
// a grid-wide barrier: for the column's norm (and its diagonal entry), then
// for y = A^T v over the later columns. Every block adds the blocks'
// partial sums itself, in block order within fixed groups, so all hold the
// same reflector and y, and results do not vary from run to run. The norms'
// and y's partial sums have a buffer each: every block reads one before
// the barrier after which it is written again.
#include <cooperative_groups.h>
#include "block_reduce.cuh"
#include "kernels.h"
#include "launch.h"

namespace cg = cooperative_groups;

#define THREADS 512
#define MAXW HYLA_GEQR2_MAX_W
#define MAXB HYLA_GEQR2_MAX_BLOCKS
// A block's rows: at least ROWS_PER_BLOCK, more when that needs more than
// SPREAD blocks (every block reads every block's partial sums). H100,
// 8000 x 128: 10.2 us/column at 128 rows, 15.7 at 64, 11.1 at 192; 16384 x
// 128: 19.3 us at 128, 13.9 at 216.
#define ROWS_PER_BLOCK 128
#define SPREAD 64
#define PER_LANE ((MAXB + 31) / 32) // the blocks' norms a lane of a warp loads

template <typename T>
struct Panel {
	int m, w, rows, ld; // rows: each block's slice (the last one's may be shorter); ld: odd
	T *a, *tau, *partial;
	int64_t lda;
};

// The sum of p[ba..bb) in a fixed order, its loads issued CHUNK at a time
// (each is a trip to L2).
#define CHUNK 16
template <typename T>
__device__ T sum_loads(const T *p, int ba, int bb)
{
	T s = 0;
	for (int b = ba; b < bb; b += CHUNK) {
		T x[CHUNK];
#pragma unroll
		for (int u = 0; u < CHUNK; u++)
			x[u] = b + u < bb ? __ldcg(&p[b + u]) : T(0);
#pragma unroll
		for (int u = 0; u < CHUNK; u++)
			s += x[u];
	}
	return s;
}

template <typename T>
__global__ void __launch_bounds__(THREADS, 1) geqr2_panel(Panel<T> p)
{
	extern __shared__ __align__(16) unsigned char smem[];
	T *tile = reinterpret_cast<T *>(smem); // the block's rows, leading dimension p.ld
	__shared__ T red[2 * THREADS], beta[MAXW], scalars[2];
	cg::grid_group grid = cg::this_grid();
	const int tid = threadIdx.x, lane = tid % 32, w = p.w, ld = p.ld;
	// Thread: columns c0, c0 + lanes; rows [ra, rb); the blocks [ba, bb)
	// whose partial sums it adds (its group's share).
	const int lanes = w <= 32 ? 32 : w <= 64 ? 64 : 128, groups = THREADS / lanes;
	const int c0 = tid % lanes, g = tid / lanes;
	const int r0 = blockIdx.x * p.rows, nr = min(p.rows, p.m - r0), nblocks = gridDim.x;
	const int per_group = (nr + groups - 1) / groups, ra = min(nr, g * per_group);
	const int rb = min(nr, ra + per_group);
	const int ba = nblocks * g / groups, bb = nblocks * (g + 1) / groups;
	for (int i = tid; i < nr * w; i += THREADS)
		tile[i % nr + i / nr * ld] = p.a[r0 + i % nr + i / nr * p.lda];
	__syncthreads();
	T *norms = p.partial, *sums = p.partial + (int64_t)MAXW * MAXB;
	T tau_prev = 0;
	for (int j = 0; j < w; j++) {
		const int lj = j - r0; // row j, local (may be outside the slice)
		if (j > 0) { // y for columns j.. (the groups' sums in order), H(j-1) on them
			for (int c = c0; c < w; c += lanes)
				if (c >= j)
					red[g * w + c] = sum_loads(sums + (int64_t)(c - j) * MAXB, ba, bb);
			__syncthreads();
			const T *v = tile + (j - 1) * ld; // with v(j-1) = 1 in place
			for (int c = c0; c < w; c += lanes)
				if (c >= j) {
					T y = 0;
					for (int k = 0; k < groups; k++)
						y += red[k * w + c];
					const T f = tau_prev * y;
					for (int r = max(ra, lj - 1); r < rb; r++)
						tile[r + c * ld] -= v[r] * f;
				}
			__syncthreads();
		}
		// The norm of column j below row j as a scale (the largest entry)
		// and the sum of squares over it; the diagonal entry.
		T *x = tile + j * ld;
		if (tid < 32) {
			T amax = 0, sq = 0;
			for (int r = max(0, lj + 1) + lane; r < nr; r += 32)
				amax = fmax(amax, fabs(x[r]));
			amax = warp_reduce<T, true>(amax);
			for (int r = max(0, lj + 1) + lane; amax > 0 && r < nr; r += 32)
				sq += (x[r] / amax) * (x[r] / amax);
			sq = warp_reduce<T>(sq);
			if (lane == 0) {
				norms[0 * MAXB + blockIdx.x] = amax;
				norms[1 * MAXB + blockIdx.x] = sq;
				norms[2 * MAXB + blockIdx.x] = lj >= 0 && lj < nr ? x[lj] : T(0);
			}
		}
		grid.sync();
		if (tid < 32) { // LAPACK's dlarfg: beta, tau, v = x / (alpha - beta)
			T sb[PER_LANE], qb[PER_LANE], ab[PER_LANE], s = 0, q = 0, alpha = 0;
#pragma unroll
			for (int i = 0; i < PER_LANE; i++) {
				const int b = lane + 32 * i;
				sb[i] = b < nblocks ? __ldcg(&norms[0 * MAXB + b]) : T(0);
				qb[i] = b < nblocks ? __ldcg(&norms[1 * MAXB + b]) : T(0);
				ab[i] = b < nblocks ? __ldcg(&norms[2 * MAXB + b]) : T(0);
			}
#pragma unroll
			for (int i = 0; i < PER_LANE; i++)
				s = fmax(s, sb[i]);
			s = warp_reduce<T, true>(s);
#pragma unroll
			for (int i = 0; i < PER_LANE; i++) {
				if (sb[i] > 0)
					q += qb[i] * (sb[i] / s) * (sb[i] / s);
				alpha += ab[i];
			}
			q = warp_reduce<T>(q);
			alpha = warp_reduce<T>(alpha);
			const T xnorm = s * sqrt(q);
			T bj = alpha, t = 0, scale = 1;
			if (s > 0) { /* not xnorm: a NaN beside finite entries must spread */
				bj = -copysign(hypot(alpha, xnorm), alpha);
				t = (bj - alpha) / bj;
				scale = 1 / (alpha - bj);
			}
			if (lane == 0) {
				scalars[0] = t;
				scalars[1] = scale;
				beta[j] = bj;
				if (blockIdx.x == 0)
					p.tau[j] = t;
			}
		}
		__syncthreads();
		const T scale = scalars[1];
		tau_prev = scalars[0];
		// y(c) = v^T A(:, c) for the columns after j, v from column j.
		for (int c = c0; c < w; c += lanes)
			if (c > j) {
				T acc = 0;
				for (int r = max(ra, lj); r < rb; r++)
					acc += (r == lj ? T(1) : x[r] * scale) * tile[r + c * ld];
				red[g * w + c] = acc;
			}
		__syncthreads();
		// The groups' sums out; column j becomes the reflector, v(j) = 1.
		if (g == 0)
			for (int c = c0; c < w; c += lanes)
				if (c > j) {
					T s = 0;
					for (int k = 0; k < groups; k++)
						s += red[k * w + c];
					sums[(int64_t)(c - j - 1) * MAXB + blockIdx.x] = s;
				}
		for (int r = max(0, lj) + tid; r < nr; r += THREADS)
			x[r] = r == lj ? T(1) : x[r] * scale;
		if (j + 1 < w)
			grid.sync();
	}
	__syncthreads();
	// R's diagonal in place of the 1s, the slice back.
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
	/* The rows that fit with an odd leading dimension (rows | 1 <= rows + 1),
	 * a block's least share. */
	const int64_t room = (int64_t)smem_max - (int64_t)attr.sharedSizeBytes;
	const int64_t fit = room / w / (int64_t)sizeof(T) - 1;
	const int max_blocks = sms < MAXB ? sms : MAXB, least = (m + max_blocks - 1) / max_blocks;
	int rows = (m + SPREAD - 1) / SPREAD;
	rows = rows < ROWS_PER_BLOCK ? ROWS_PER_BLOCK : rows;
	rows = rows > fit ? (int)fit : rows;
	rows = rows < least ? least : rows;
	if (m < w || w > MAXW || rows > fit || rows < least)
		return false;
	const int ld = rows | 1;
	const int64_t bytes = (int64_t)ld * w * (int64_t)sizeof(T);
	/* The device's limit, the same for every call (workers sharing a GPU). */
	if (cudaFuncSetAttribute(geqr2_panel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
	                         (int)room) != cudaSuccess)
		hyla_fail("geqr2_panel's shared memory size");
	int per_sm = 0;
	cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, geqr2_panel<T>, THREADS, (size_t)bytes);
	int blocks = (m + rows - 1) / rows;
	if (per_sm < 1 || blocks > per_sm * sms)
		return false;
	Panel<T> p = {m, w, rows, ld, a, tau, partial, lda};
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
