/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// CUDA kernels of the MGS panel: one launch per column of a sub-panel.
#include "kernels.h"
#include "launch.h"

#define IB HYLA_MGS_IB
#define THREADS 256
#define WARPS (THREADS / 32)

// Launch for column j of the sub-panel [j0, j1) of a (m rows, leading
// dimension lda), with R's rows in r:
//  1. if j > j0, finishes column j-1: q = v_{j-1} / R(j-1,j-1), and projects q
//     out of columns j..j1-1 with the coefficients R(j-1, j..j1-1);
//  2. if j < j1, forms v_j^T a_k for k = j..j1-1: each block sums its rows,
//     the last block to finish adds the blocks' sums in a fixed order (so the
//     result does not depend on timing) and writes R(j, j) = ||v_j|| and
//     R(j, k) = v_j^T a_k / ||v_j||.
// partial holds gridDim.x * IB sums; counter starts at zero and is left so.
template <typename T>
__global__ void __launch_bounds__(THREADS)
mgs_column_step(int m, int j0, int j, int j1, T *a, int64_t lda, T *r, int64_t ldr, T *partial,
                unsigned *counter)
{
	__shared__ T rprev[IB];
	__shared__ T sums[WARPS][IB];
	__shared__ bool last;
	const int nr = j1 - j;
	const bool finish = j > j0;
	if (finish && threadIdx.x <= nr)
		rprev[threadIdx.x] = r[(j - 1) + (int64_t)(j - 1 + threadIdx.x) * ldr];
	__syncthreads();

	T acc[IB];
#pragma unroll
	for (int k = 0; k < IB; k++)
		acc[k] = 0;
	const T rjj = finish ? rprev[0] : T(1);
	for (int64_t i = (int64_t)blockIdx.x * THREADS + threadIdx.x; i < m;
	     i += (int64_t)gridDim.x * THREADS) {
		T q = 0;
		if (finish) {
			q = a[i + (int64_t)(j - 1) * lda] / rjj;
			a[i + (int64_t)(j - 1) * lda] = q;
		}
		T v = 0;
#pragma unroll
		for (int k = 0; k < IB; k++) {
			if (k < nr) {
				T *x = a + i + (int64_t)(j + k) * lda;
				T val = *x;
				if (finish) {
					val -= q * rprev[k + 1];
					*x = val;
				}
				if (k == 0)
					v = val;
				acc[k] += v * val;
			}
		}
	}
	if (nr == 0)
		return;

	const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
	for (int k = 0; k < IB; k++) {
		if (k < nr) {
			T s = acc[k];
			for (int off = 16; off > 0; off /= 2)
				s += __shfl_down_sync(0xffffffffu, s, off);
			if (lane == 0)
				sums[warp][k] = s;
		}
	}
	__syncthreads();
	if (threadIdx.x < nr) {
		T s = 0;
		for (int w = 0; w < WARPS; w++)
			s += sums[w][threadIdx.x];
		partial[blockIdx.x * IB + threadIdx.x] = s;
	}
	__threadfence();
	__syncthreads();
	if (threadIdx.x == 0)
		last = atomicAdd(counter, 1u) == gridDim.x - 1;
	__syncthreads();
	if (!last)
		return;
	__shared__ T dots[IB];
	if (threadIdx.x < nr) {
		T d = 0;
		for (int b = 0; b < gridDim.x; b++)
			d += __ldcg(&partial[b * IB + threadIdx.x]);
		dots[threadIdx.x] = d;
	}
	__syncthreads();
	if (threadIdx.x < nr) {
		T norm = sqrt(dots[0]);
		r[j + (int64_t)(j + threadIdx.x) * ldr] = threadIdx.x == 0 ? norm : dots[threadIdx.x] / norm;
	}
	if (threadIdx.x == 0)
		*counter = 0;
}

template <typename T>
static void mgs_columns(int m, int j0, int j1, T *a, int64_t lda, T *r, int64_t ldr, T *scratch,
                        cudaStream_t stream)
{
	unsigned *counter = (unsigned *)(scratch + HYLA_MGS_MAX_BLOCKS * IB);
	int blocks = (m + THREADS - 1) / THREADS;
	if (blocks > HYLA_MGS_MAX_BLOCKS)
		blocks = HYLA_MGS_MAX_BLOCKS;
	cudaMemsetAsync(counter, 0, sizeof *counter, stream);
	for (int j = j0; j <= j1; j++)
		mgs_column_step<T><<<blocks, THREADS, 0, stream>>>(m, j0, j, j1, a, lda, r, ldr, scratch,
		                                                   counter);
	hyla_check_launch("mgs_column_step");
}

extern "C" void hyla__cuda_mgs_columns_d(int m, int j0, int j1, double *a, int64_t lda, double *r,
                                         int64_t ldr, double *scratch, cudaStream_t stream)
{
	mgs_columns(m, j0, j1, a, lda, r, ldr, scratch, stream);
}

extern "C" void hyla__cuda_mgs_columns_s(int m, int j0, int j1, float *a, int64_t lda, float *r,
                                         int64_t ldr, float *scratch, cudaStream_t stream)
{
	mgs_columns(m, j0, j1, a, lda, r, ldr, scratch, stream);
}
