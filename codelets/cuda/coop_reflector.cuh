/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// What the reductions' cooperative column kernels share (latrd_kernels.cu,
// labrd_kernels.cu): blocks own contiguous rows, partial sums go to a
// scratch (slot-major, COOP_MAXB per slot) and are added in block order,
// so every block gets the same result and results do not vary from run to
// run; LAPACK's dlarfg from the blocks' partial norms. The dots with a
// reflector before it is known (its x unscaled, coop_dots) are LAPACK's
// where x's largest entry lies within 2^+-COOP_SAFE_EXP and no block's sum
// overflowed; elsewhere (entries near the square root of overflow or
// underflow, as LAPACK's least-squares drivers give the bidiagonal
// reduction) the reflector says redo: after the barrier the blocks scale x
// and alpha in place by 2^-top, top the exponent of x's largest entry, and
// take the dots and the reflector again on them; beta is scaled back. As
// xLARFG's rescaling, this keeps v = x / (alpha - beta) within range where
// x is so small that 1 / (alpha - beta) would overflow (subnormal columns).
#ifndef HYLA_CUDA_COOP_REFLECTOR_CUH
#define HYLA_CUDA_COOP_REFLECTOR_CUH

#include <cooperative_groups.h>
#include "block_reduce.cuh"
#include "launch.h"

#define COOP_THREADS 256
#define COOP_PER_SM 2 // blocks a multiprocessor at most (16 warps)
#define COOP_MAXB 320 // blocks at most (two a multiprocessor on up to 160)
#define COOP_PER_LANE ((COOP_MAXB + 31) / 32)
#define COOP_SAFE_EXP(T) (sizeof(T) == sizeof(double) ? 500 : 50)

// This block's share of [lo, hi): [*r0, *r1).
__device__ inline void coop_rows(int lo, int hi, int *r0, int *r1)
{
	const int chunk = (hi - lo + gridDim.x - 1) / gridDim.x;
	*r0 = min(hi, lo + (int)blockIdx.x * chunk);
	*r1 = min(hi, *r0 + chunk);
}

// Sum over the blocks of slot s, in block order (warp-wide; every lane),
// the loads all in flight at once.
template <typename T>
__device__ T coop_blocks_sum(const T *partial, int s)
{
	const int lane = threadIdx.x % 32;
	T v[COOP_PER_LANE], acc = 0;
#pragma unroll
	for (int k = 0; k < COOP_PER_LANE; k++) {
		const int b = lane + 32 * k;
		v[k] = b < gridDim.x ? __ldcg(&partial[(int64_t)s * COOP_MAXB + b]) : T(0);
	}
#pragma unroll
	for (int k = 0; k < COOP_PER_LANE; k++)
		acc += v[k];
	return warp_reduce<T>(acc);
}

// The block's part of a reflector's norm into slots 0 and 1 (the largest
// |x(r)| and the sum of squares in its units, r in [lo, hi), stride inc),
// alpha's into slot 2 (the caller's value, zero unless the block holds it);
// the largest's sign: minus where bad (coop_dots's).
template <typename T>
__device__ void coop_norm_parts(const T *x, int64_t inc, int lo, int hi, T alpha, T *partial, bool bad)
{
	T amax = 0, sq = 0;
	for (int r = lo + threadIdx.x; r < hi; r += COOP_THREADS)
		amax = fmax(amax, fabs(x[r * inc]));
	amax = block_reduce<COOP_THREADS, T, true>(amax);
	for (int r = lo + threadIdx.x; amax > 0 && r < hi; r += COOP_THREADS)
		sq += (x[r * inc] / amax) * (x[r * inc] / amax);
	sq = block_reduce<COOP_THREADS, T>(sq);
	if (threadIdx.x == 0) {
		partial[0 * COOP_MAXB + blockIdx.x] = copysign(amax, bad ? T(-1) : T(1));
		partial[1 * COOP_MAXB + blockIdx.x] = sq;
		partial[2 * COOP_MAXB + blockIdx.x] = alpha;
	}
}

// LAPACK's dlarfg from the blocks' parts (warp-wide, after a grid barrier):
// beta, tau and the scale of x, v = x / (alpha - beta); whether its dots
// are to be redone, and top, the exponent of x's largest entry, by which
// the second pass scales x and alpha down (raised where alpha would
// overflow).
template <typename T>
__device__ void coop_reflector(const T *partial, T *beta, T *tau, T *scale, int *top, bool *redo)
{
	const int lane = threadIdx.x % 32;
	T sb[COOP_PER_LANE], sq[COOP_PER_LANE], al[COOP_PER_LANE], s = 0, q = 0, alpha = 0;
	bool bad = false;
#pragma unroll
	for (int k = 0; k < COOP_PER_LANE; k++) {
		const int b = lane + 32 * k;
		const bool in = b < gridDim.x;
		sb[k] = in ? __ldcg(&partial[0 * COOP_MAXB + b]) : T(0);
		sq[k] = in ? __ldcg(&partial[1 * COOP_MAXB + b]) : T(0);
		al[k] = in ? __ldcg(&partial[2 * COOP_MAXB + b]) : T(0);
	}
#pragma unroll
	for (int k = 0; k < COOP_PER_LANE; k++) {
		bad = bad || signbit(sb[k]);
		sb[k] = fabs(sb[k]);
		s = fmax(s, sb[k]);
		alpha += al[k];
	}
	s = warp_reduce<T, true>(s);
	alpha = warp_reduce<T>(alpha);
	constexpr int most = sizeof(T) == sizeof(double) ? 1021 : 125; // 2^+-most normal
	*top = s > 0 && isfinite(s) ? max(-most, min(most, ilogb(s))) : 0;
	*redo = __any_sync(0xffffffffu, bad) || (s > 0 && abs(*top) > COOP_SAFE_EXP(T));
	if (alpha != 0 && isfinite(alpha))
		*top = max(*top, ilogb(alpha) - most);
#pragma unroll
	for (int k = 0; k < COOP_PER_LANE; k++)
		if (sb[k] > 0)
			q += sq[k] * (sb[k] / s) * (sb[k] / s);
	q = warp_reduce<T>(q);
	const T xnorm = s * sqrt(q);
	*beta = alpha, *tau = 0, *scale = 1;
	if (s > 0) { /* not xnorm: a NaN beside finite entries must spread */
		*beta = -copysign(hypot(alpha, xnorm), alpha);
		*tau = (*beta - alpha) / *beta;
		*scale = 1 / (alpha - *beta);
	}
}

// A reflector as every block holds it: v = scale x below its unit element
// (x as it is in memory: scaled in place where the first pass said redo).
template <typename T>
struct CoopReflector {
	T scale, tau;
	int top;
	bool redo;
};

// After the grid barrier that follows coop_norm_parts, every thread of the
// block: the reflector (beta times 2^up and tau to *beta_out and *tau_out,
// by block 0).
template <typename T>
__device__ CoopReflector<T> coop_reflector_of(const T *partial, T *beta_out, T *tau_out, int up)
{
	__shared__ CoopReflector<T> of;
	if (threadIdx.x < 32) {
		T beta, tau, scale;
		int top;
		bool redo;
		coop_reflector(partial, &beta, &tau, &scale, &top, &redo);
		if (threadIdx.x == 0) {
			of = {scale, tau, top, redo};
			if (blockIdx.x == 0) {
				*beta_out = scalbn(beta, up);
				*tau_out = tau;
			}
		}
	}
	__syncthreads();
	const CoopReflector<T> ref = of;
	__syncthreads();
	return ref;
}

// The block's entries x(r), r in [lo, hi) (stride inc), and its alpha
// (where not NULL) times down, in place; a power of two: exact but where
// the result is subnormal.
template <typename T>
__device__ void coop_scale(T *x, int64_t inc, int lo, int hi, T *alpha, T down)
{
	if (down == 1)
		return;
	for (int r = lo + threadIdx.x; r < hi; r += COOP_THREADS)
		x[r * inc] *= down;
	if (threadIdx.x == 0 && alpha)
		*alpha *= down;
	__syncthreads();
}

// The block's sums over its rows [lo, hi) of m_s(r) v(r) for the
// slots s in [0, count) into partial slots first + s; m_s(r) = mat(s, r).
// Each slot has a group of threads (a power of two, as many as the block
// has for it, up to a warp), over the rows in turn; a butterfly adds the
// group's parts. Returns whether a sum is not finite (to every thread).
template <typename T, typename Mat>
__device__ bool coop_dots(Mat mat, const T *v, int64_t inc, int lo, int hi, int count, int first,
                          T *partial)
{
	bool bad = false;
	int group = 32;
	while (group > 1 && group * count > COOP_THREADS)
		group /= 2;
	const int member = threadIdx.x % group;
	for (int s0 = 0; s0 < count; s0 += COOP_THREADS / group) {
		const int s = s0 + threadIdx.x / group;
		T acc = 0;
#pragma unroll 4
		for (int r = lo + member; s < count && r < hi; r += group)
			acc += mat(s, r) * v[r * inc];
		for (int off = group / 2; off > 0; off /= 2)
			acc += __shfl_xor_sync(0xffffffffu, acc, off);
		if (member == 0 && s < count)
			partial[(int64_t)(first + s) * COOP_MAXB + blockIdx.x] = acc;
		bad = bad || !isfinite(acc);
	}
	return __syncthreads_or(bad);
}

// For each row r in [r0, r1): part(r, q) for the slices q in [0,
// COOP_SLICES) (a warp each, lanes over rows), added in slice order, then
// done(r, total) in slice 0's thread. Every thread of the block calls it.
// T: a number, or a struct of them with + (T{} its zero).
#define COOP_SLICES (COOP_THREADS / 32)
template <typename T, typename Part, typename Done>
__device__ void coop_row_sums(int r0, int r1, Part part, Done done)
{
	__shared__ T pieces[COOP_SLICES][32];
	const int lane = threadIdx.x % 32, q = threadIdx.x / 32;
	for (int base = r0; base < r1; base += 32) {
		const int r = base + lane;
		pieces[q][lane] = r < r1 ? part(r, q) : T{};
		__syncthreads();
		if (q == 0 && r < r1) {
			T total = pieces[0][lane];
			for (int k = 1; k < COOP_SLICES; k++)
				total = total + pieces[k][lane];
			done(r, total);
		}
		__syncthreads();
	}
}

// Dots with a reflector from the blocks' parts over its entries below the
// unit one: out[s] = scale (slot first + s summed over the blocks) +
// unit(s) (the unit entry's term), s < count, the slots shared among the
// grid's warps.
template <typename T, typename Unit>
__device__ void coop_sums_out(const T *partial, int first, int count, T scale, Unit unit, T *out)
{
	const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = COOP_THREADS / 32;
	for (int s = blockIdx.x * warps + warp; s < count; s += gridDim.x * warps) {
		const T one = unit(s), sum = coop_blocks_sum(partial, first + s);
		if (lane == 0)
			out[s] = scale * sum + one;
	}
}

// The parts of a reflector (parts(down): each block scales its part of x
// and alpha in place by down (coop_scale), then takes its dots with x and
// its norm's parts) and, after a grid barrier, the reflector (beta and tau
// to *beta_out and *tau_out, by block 0). Where it says redo: a barrier
// (every block has read the parts), the parts again with x and alpha
// scaled by 2^-top, a barrier, and the reflector of the scaled column,
// beta scaled back. *dscale: the scale of the dots' sums (coop_sums_out's),
// the reflector's. One place in the code for both passes: the second costs
// no registers of the first.
template <typename T, typename Parts>
__device__ CoopReflector<T> coop_reflector_after(Parts parts, const T *norm, T *beta_out, T *tau_out,
                                                 cooperative_groups::grid_group &grid, T *dscale)
{
	int up = 0;
#pragma unroll 1
	for (int pass = 0;; pass++) {
		parts(scalbn(T(1), -up));
		grid.sync();
		const CoopReflector<T> ref = coop_reflector_of(norm, beta_out, tau_out, up);
		if (!ref.redo || pass == 1) {
			*dscale = ref.scale;
			return ref;
		}
		up = ref.top;
		grid.sync();
	}
}

// A cooperative launch of kernel(arg) on blocks blocks of COOP_THREADS.
template <typename Arg>
static void coop_launch(void (*kernel)(Arg), int blocks, Arg *arg, cudaStream_t stream, const char *what)
{
	void *args[] = {arg};
	if (cudaLaunchCooperativeKernel((const void *)kernel, blocks, COOP_THREADS, args, 0, stream))
		hyla_fail(what);
}

// Blocks of a persistent cooperative kernel: as many as fit on the GPU at
// once, up to COOP_PER_SM a multiprocessor and COOP_MAXB.
template <typename Arg>
static int coop_resident_blocks(void (*kernel)(Arg), const char *what)
{
	int device, sms, per_sm;
	cudaGetDevice(&device);
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
	if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, COOP_THREADS, 0))
		hyla_fail(what);
	const int blocks = sms * (per_sm < COOP_PER_SM ? per_sm : COOP_PER_SM);
	return blocks < COOP_MAXB ? blocks : COOP_MAXB;
}

#endif
