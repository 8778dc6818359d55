/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// Householder QR's panel (LAPACK's DGEQR2 on an m-by-w panel) as one
// cooperative kernel: each block keeps a slice of the panel's rows in shared
// memory for the whole column loop, its threads a column each (two for
// w > 128) and a group of its rows, and per column the blocks meet once at
// a grid-wide barrier, for y = A^T v over the later columns. With y they
// add the partial sums that give the next column's norm below its diagonal
// after H(j), ||x - f v||^2 = |x|^2 - 2 f v.x + f^2 |v|^2 over the rows
// below it (f = tau y), and its diagonal entry; where that loses more than
// half of |x|^2 to cancellation (or is not finite, or too small to square
// safely), the blocks take the norm of the updated column at a second
// barrier, with a scale (the largest entry), as LAPACK's dlarfg does. Every
// block adds the blocks' partial sums itself, in block order within fixed
// groups, so all hold the same reflector and y, take the same branch, and
// results do not vary from run to run. The partial sums alternate between
// two buffers by column: a block reads one column's after the barrier and
// the next column's are written after the next barrier.
#include <cooperative_groups.h>
#include "block_reduce.cuh"
#include "kernels.h"
#include "launch.h"
#include "rescale.cuh"

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
// The scratch: two buffers of (MAXW + 8) x MAXB partial sums (a column's y
// in slots c - j - 1, the next column's norm terms from slot MAXW), then
// the second barrier's norms (3 x MAXB).
#define BUFFER ((int64_t)(MAXW + 8) * MAXB)
enum { P1_XX, P2_VX, P3_VV, P4_XD, P5_VD, NTERMS }; // the next column's norm terms

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

// Whether column j's norm from its terms (added over the blocks) is safe:
// finite, |x|^2 far from underflow, at most half of it cancelled. Then
// the reflector from it: scalars tau and the scale of x, beta.
template <typename T>
__device__ bool reflector_from_terms(const T *terms, T f, T *tau, T *scale, T *beta)
{
	const T tiny = larfg_tiny<T>();
	const T xx = terms[P1_XX], sq = xx - 2 * f * terms[P2_VX] + f * f * terms[P3_VV];
	const T alpha = terms[P4_XD] - f * terms[P5_VD];
	if (!(isfinite(xx) && xx >= tiny && isfinite(sq) && sq >= xx / 2 && isfinite(alpha)))
		return false;
	const T bj = -copysign(hypot(alpha, sqrt(sq)), alpha);
	*tau = (bj - alpha) / bj;
	*scale = 1 / (alpha - bj);
	*beta = bj;
	return true;
}

template <typename T>
__global__ void __launch_bounds__(THREADS, 1) geqr2_panel(Panel<T> p)
{
	extern __shared__ __align__(16) unsigned char smem[];
	T *tile = reinterpret_cast<T *>(smem); // the block's rows, leading dimension p.ld
	__shared__ T red[2 * THREADS], beta[MAXW], scalars[3], terms[THREADS / 32][NTERMS];
	__shared__ bool fast;
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
	if (tid == 0)
		fast = false; // column 0's norm: at the second barrier
	__syncthreads();
	T *norms = p.partial + 2 * BUFFER;
	T tau_prev = 0;
	for (int j = 0; j < w; j++) {
		const int lj = j - r0; // row j, local (may be outside the slice)
		const T *in = p.partial + (j + 1) % 2 * BUFFER; // column j - 1's sums
		T *out = p.partial + j % 2 * BUFFER;
		if (j > 0) { // y for columns j.. (the groups' sums in order), H(j-1) on them
			// Column j's norm terms: loaded (beside the sums) and added by
			// the warp whose columns run out first, which then forms the
			// reflector while the others update.
			const bool lead = g == groups - 1 && c0 < 32;
			T part[NTERMS][PER_LANE], sum[NTERMS];
			if (lead)
#pragma unroll
				for (int k = 0; k < NTERMS; k++)
#pragma unroll
					for (int i = 0; i < PER_LANE; i++) {
						const int b = lane + 32 * i;
						part[k][i] = b < nblocks ? __ldcg(&in[(MAXW + k) * MAXB + b]) : T(0);
					}
			for (int c = c0; c < w; c += lanes)
				if (c >= j)
					red[g * w + c] = sum_loads(in + (int64_t)(c - j) * MAXB, ba, bb);
			if (lead)
#pragma unroll
				for (int k = 0; k < NTERMS; k++) {
					T add = 0;
#pragma unroll
					for (int i = 0; i < PER_LANE; i++)
						add += part[k][i];
					sum[k] = warp_reduce<T>(add);
				}
			__syncthreads();
			if (lead) {
				T y = 0;
				for (int k = 0; k < groups; k++)
					y += red[k * w + j];
				T t, scale, bj;
				const bool ok = reflector_from_terms(sum, tau_prev * y, &t, &scale, &bj);
				if (lane == 0)
					fast = ok;
				if (ok && lane == 0) {
					scalars[0] = t;
					scalars[1] = scale;
					beta[j] = bj;
					if (blockIdx.x == 0)
						p.tau[j] = t;
				}
			}
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
		T *x = tile + j * ld;
		if (!fast) {
			// The norm of column j below row j as a scale (the largest
			// entry) and the sum of squares over it; the diagonal entry.
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
				T bj = alpha, t = 0, scale = 1, up = 1;
				if (s > 0) { /* not xnorm: a NaN beside finite entries must spread */
					bj = -copysign(hypot(alpha, s * sqrt(q)), alpha);
					if (fabs(bj) < larfg_tiny<T>()) { /* rescale.cuh */
						up = larfg_up(fmax(s, fabs(alpha)));
						alpha *= up;
						bj = -copysign(hypot(alpha, s * up * sqrt(q)), alpha);
					}
					t = (bj - alpha) / bj;
					scale = 1 / (alpha - bj);
				}
				if (lane == 0) {
					scalars[0] = t;
					scalars[1] = scale;
					scalars[2] = up;
					beta[j] = bj / up;
					if (blockIdx.x == 0)
						p.tau[j] = t;
				}
			}
			__syncthreads();
			if (scalars[2] != 1) {
				for (int r = max(0, lj + 1) + tid; r < nr; r += THREADS)
					x[r] *= scalars[2];
				__syncthreads();
			}
		}
		const T scale = scalars[1];
		tau_prev = scalars[0];
		// y(c) = v^T A(:, c) for the columns after j, v from column j; for
		// column j + 1 also its norm terms over the rows after j + 1 and
		// its entry (and v's) on row j + 1.
		for (int c = c0; c < w; c += lanes)
			if (c > j) {
				T acc = 0, xx = 0, vx = 0, vv = 0, xd = 0, vd = 0;
				int r = max(ra, lj);
				for (; r < rb && r <= lj + 1; r++) { // rows j and j + 1, in one block
					const T vr = r == lj ? T(1) : x[r] * scale, xr = tile[r + c * ld];
					acc += vr * xr;
					if (r == lj + 1)
						xd = xr, vd = vr;
				}
				for (; r < rb; r++) { // every column alike: no branch in the loop
					const T vr = x[r] * scale, xr = tile[r + c * ld];
					acc += vr * xr, xx += xr * xr, vx += vr * xr, vv += vr * vr;
				}
				red[g * w + c] = acc;
				if (c == j + 1) {
					terms[g][P1_XX] = xx, terms[g][P2_VX] = vx, terms[g][P3_VV] = vv;
					terms[g][P4_XD] = xd, terms[g][P5_VD] = vd;
				}
			}
		__syncthreads();
		// The groups' sums out; column j becomes the reflector, v(j) = 1.
		if (g == 0)
			for (int c = c0; c < w; c += lanes)
				if (c > j) {
					T s = 0;
					for (int k = 0; k < groups; k++)
						s += red[k * w + c];
					out[(int64_t)(c - j - 1) * MAXB + blockIdx.x] = s;
					for (int q = 0; c == j + 1 && q < NTERMS; q++) {
						T t = 0;
						for (int k = 0; k < groups; k++)
							t += terms[k][q];
						out[(MAXW + q) * MAXB + blockIdx.x] = t;
					}
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
