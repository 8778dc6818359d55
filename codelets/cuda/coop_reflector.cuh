/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// What the reductions' cooperative column kernels share (latrd_kernels.cu,
// labrd_kernels.cu): blocks own contiguous rows, partial sums go to a
// scratch (slot-major, COOP_MAXB per slot) and are added in block order,
// so every block gets the same result and results do not vary from run to
// run; LAPACK's dlarfg from the blocks' partial norms. The dots with a
// reflector before it is known (its x unscaled) take x / 2^e, e the
// exponent of the block's largest |x|, and the blocks' sums are brought to
// the largest block's exponent after the barrier: where x's squares would
// overflow or underflow (entries near the square root of either limit,
// as LAPACK's least-squares drivers give the bidiagonal reduction) the
// dots do not, and elsewhere the results are those of unscaled dots, bit
// for bit (powers of 2).
#ifndef HYLA_CUDA_COOP_REFLECTOR_CUH
#define HYLA_CUDA_COOP_REFLECTOR_CUH

#include "block_reduce.cuh"
#include "launch.h"

#define COOP_THREADS 256
#define COOP_PER_SM 2 // blocks a multiprocessor at most (16 warps)
#define COOP_MAXB 320 // blocks at most (two a multiprocessor on up to 160)
#define COOP_PER_LANE ((COOP_MAXB + 31) / 32)

// This block's share of [lo, hi): [*r0, *r1).
__device__ inline void coop_rows(int lo, int hi, int *r0, int *r1)
{
	const int chunk = (hi - lo + gridDim.x - 1) / gridDim.x;
	*r0 = min(hi, lo + (int)blockIdx.x * chunk);
	*r1 = min(hi, *r0 + chunk);
}

// The exponent by which x is divided in the dots, of the largest |x|: of a
// positive finite amax, kept where 2^-e is a normal number; else 0.
template <typename T>
__device__ int coop_exponent(T amax)
{
	constexpr int most = sizeof(T) == sizeof(double) ? 1021 : 125;
	return amax > 0 && isfinite(amax) ? max(-most, min(most, ilogb(amax))) : 0;
}

// Per block, e_b - top (e_b: the exponent of its largest |x|, top: the
// largest's), as coop_reflector_of found them: the block's shared memory.
__device__ inline int *coop_shifts()
{
	__shared__ int shifts[COOP_MAXB];
	return shifts;
}

// Sum over the blocks of slot s, in block order (warp-wide; every lane),
// the loads all in flight at once. Shifted: block b's sum is of x / 2^e_b,
// multiplied by 2^(e_b - top) first (coop_shifts).
template <typename T>
__device__ T coop_blocks_sum(const T *partial, int s, bool shifted = false)
{
	const int lane = threadIdx.x % 32;
	const int *shifts = coop_shifts();
	T v[COOP_PER_LANE], acc = 0;
#pragma unroll
	for (int k = 0; k < COOP_PER_LANE; k++) {
		const int b = lane + 32 * k;
		v[k] = b < gridDim.x ? __ldcg(&partial[(int64_t)s * COOP_MAXB + b]) : T(0);
	}
#pragma unroll
	for (int k = 0; k < COOP_PER_LANE; k++)
		acc += shifted && lane + 32 * k < gridDim.x ? scalbn(v[k], shifts[lane + 32 * k]) : v[k];
	return warp_reduce<T>(acc);
}

// The block's part of a reflector's norm into slots 0 and 1 (the largest
// |x(r)| and the sum of squares in its units, r in [lo, hi), stride inc),
// alpha's into slot 2 (the caller's value, zero unless the block holds it).
// Returns the block's largest |x(r)| (to every thread).
template <typename T>
__device__ T coop_norm_parts(const T *x, int64_t inc, int lo, int hi, T alpha, T *partial)
{
	T amax = 0, sq = 0;
	for (int r = lo + threadIdx.x; r < hi; r += COOP_THREADS)
		amax = fmax(amax, fabs(x[r * inc]));
	amax = block_reduce<COOP_THREADS, T, true>(amax);
	for (int r = lo + threadIdx.x; amax > 0 && r < hi; r += COOP_THREADS)
		sq += (x[r * inc] / amax) * (x[r * inc] / amax);
	sq = block_reduce<COOP_THREADS, T>(sq);
	if (threadIdx.x == 0) {
		partial[0 * COOP_MAXB + blockIdx.x] = amax;
		partial[1 * COOP_MAXB + blockIdx.x] = sq;
		partial[2 * COOP_MAXB + blockIdx.x] = alpha;
	}
	return amax;
}

// LAPACK's dlarfg from the blocks' parts (warp-wide, after a grid barrier):
// beta, tau and the scale of x, v = x / (alpha - beta); *top: the exponent
// of the largest |x|, and the blocks' shifts from it (coop_shifts).
template <typename T>
__device__ void coop_reflector(const T *partial, T *beta, T *tau, T *scale, int *top)
{
	const int lane = threadIdx.x % 32;
	T sb[COOP_PER_LANE], sq[COOP_PER_LANE], al[COOP_PER_LANE], s = 0, q = 0, alpha = 0;
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
		s = fmax(s, sb[k]);
		alpha += al[k];
	}
	s = warp_reduce<T, true>(s);
	alpha = warp_reduce<T>(alpha);
#pragma unroll
	for (int k = 0; k < COOP_PER_LANE; k++)
		if (sb[k] > 0)
			q += sq[k] * (sb[k] / s) * (sb[k] / s);
	q = warp_reduce<T>(q);
	const T xnorm = s * sqrt(q);
	*beta = alpha, *tau = 0, *scale = 1, *top = coop_exponent(s);
#pragma unroll
	for (int k = 0; k < COOP_PER_LANE; k++)
		if (lane + 32 * k < gridDim.x)
			coop_shifts()[lane + 32 * k] = coop_exponent(sb[k]) - *top;
	if (s > 0) { /* not xnorm: a NaN beside finite entries must spread */
		*beta = -copysign(hypot(alpha, xnorm), alpha);
		*tau = (*beta - alpha) / *beta;
		*scale = 1 / (alpha - *beta);
	}
}

// A reflector as every block holds it: v = scale x below its unit element;
// top: the exponent of x's largest entry.
template <typename T>
struct CoopReflector {
	T scale, tau;
	int top;
};

// After the grid barrier that follows coop_norm_parts, every thread of the
// block: the reflector (beta and tau to *beta_out and *tau_out, by block 0).
template <typename T>
__device__ CoopReflector<T> coop_reflector_of(const T *partial, T *beta_out, T *tau_out)
{
	__shared__ CoopReflector<T> of;
	if (threadIdx.x < 32) {
		T beta, tau, scale;
		int top;
		coop_reflector(partial, &beta, &tau, &scale, &top);
		if (threadIdx.x == 0) {
			of = {scale, tau, top};
			if (blockIdx.x == 0) {
				*beta_out = beta;
				*tau_out = tau;
			}
		}
	}
	__syncthreads();
	const CoopReflector<T> ref = of;
	__syncthreads();
	return ref;
}

// The block's sums over its rows [lo, hi) of m_s(r) v(r) / 2^e for the
// slots s in [0, count) into partial slots first + s; m_s(r) = mat(s, r);
// e = coop_exponent(amax), amax the largest |v(r)| there. Each slot
// has a group of threads (a power of two, as many as the block has for it,
// up to a warp), over the rows in turn; a butterfly adds the group's parts.
template <typename T, typename Mat>
__device__ void coop_dots(Mat mat, const T *v, int64_t inc, int lo, int hi, int count, int first,
                          T *partial, T amax)
{
	const T down = scalbn(T(1), -coop_exponent(amax));
	int group = 32;
	while (group > 1 && group * count > COOP_THREADS)
		group /= 2;
	const int member = threadIdx.x % group;
	for (int s0 = 0; s0 < count; s0 += COOP_THREADS / group) {
		const int s = s0 + threadIdx.x / group;
		T acc = 0;
#pragma unroll 4
		for (int r = lo + member; s < count && r < hi; r += group)
			acc += mat(s, r) * (v[r * inc] * down);
		for (int off = group / 2; off > 0; off /= 2)
			acc += __shfl_xor_sync(0xffffffffu, acc, off);
		if (member == 0 && s < count)
			partial[(int64_t)(first + s) * COOP_MAXB + blockIdx.x] = acc;
	}
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

// Dots with a reflector from the blocks' parts (coop_dots) over its entries
// below the unit one: out[s] = scale (slot first + s summed over the
// blocks) + unit(s) (the unit entry's term), s < count, the slots shared
// among the grid's warps; after coop_reflector_of gave ref.
template <typename T, typename Unit>
__device__ void coop_sums_out(const T *partial, int first, int count, CoopReflector<T> ref, Unit unit,
                              T *out)
{
	const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, warps = COOP_THREADS / 32;
	const T scale = scalbn(ref.scale, ref.top);
	for (int s = blockIdx.x * warps + warp; s < count; s += gridDim.x * warps) {
		const T one = unit(s), sum = coop_blocks_sum(partial, first + s, true);
		if (lane == 0)
			out[s] = scale * sum + one;
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
