/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// Reductions over a warp and over a block, shared by hyla's kernels.
#ifndef HYLA_CUDA_BLOCK_REDUCE_CUH
#define HYLA_CUDA_BLOCK_REDUCE_CUH

// Sum (max) over the warp by a butterfly; every lane gets the same result
// (lane 0's is the tree's of shfl_down: the same pairs, the same order).
template <typename T, bool MAX = false>
__device__ T warp_reduce(T s)
{
	for (int off = 16; off > 0; off /= 2) {
		T o = __shfl_xor_sync(0xffffffffu, s, off);
		s = MAX ? fmax(s, o) : s + o;
	}
	return s;
}

// v[k] summed over lanes, in lane k of each 2 OFF lanes (a transposing
// butterfly over the lanes' bits below 2 OFF: 2 OFF - 1 shuffles).
template <int OFF, typename T>
__device__ __forceinline__ T transpose_sum(T v[])
{
	const bool upper = threadIdx.x & OFF;
#pragma unroll
	for (int k = 0; k < OFF; k++) {
		const T send = upper ? v[k] : v[k + OFF], keep = upper ? v[k + OFF] : v[k];
		v[k] = keep + __shfl_xor_sync(0xffffffffu, send, OFF);
	}
	if constexpr (OFF == 1)
		return v[0];
	else
		return transpose_sum<OFF / 2>(v);
}

// Sum (max) over a block of THREADS threads of one value per thread, added
// in a fixed order; every thread gets it.
template <int THREADS, typename T, bool MAX = false>
__device__ T block_reduce(T s)
{
	__shared__ T part[THREADS / 32];
	s = warp_reduce<T, MAX>(s);
	__syncthreads();
	if (threadIdx.x % 32 == 0)
		part[threadIdx.x / 32] = s;
	__syncthreads();
	T r = part[0];
	for (int w = 1; w < THREADS / 32; w++)
		r = MAX ? fmax(r, part[w]) : r + part[w];
	__syncthreads();
	return r;
}

#endif
