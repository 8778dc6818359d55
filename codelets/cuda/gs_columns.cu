/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// The Gram-Schmidt QRs' column norms and scalings (codelets/gs_columns.c):
// a block of 256 threads a column.
#include "../gs_scaling.h"
#include "block_reduce.cuh"
#include "kernels.h"
#include "launch.h"

#define THREADS 256

template <typename T>
__global__ void gs_columns_kernel(int m, T *a, int64_t lda, T *info, int64_t ldi, T safe_min,
                                  T safe_max)
{
	T *x = a + (int64_t)blockIdx.x * lda;
	T big = 0;
	for (int i = threadIdx.x; i < m; i += THREADS)
		big = fmax(big, fabs(x[i]));
	big = block_reduce<THREADS, T, true>(big);
	int e = 0;
	if (big > 0 && isfinite(big) && (big < safe_min || big > safe_max)) {
		e = -ilogb(big);
		for (int i = threadIdx.x; i < m; i += THREADS)
			x[i] = scalbn(x[i], e);
	}
	T ss = 0;
	for (int i = threadIdx.x; i < m; i += THREADS)
		ss += x[i] * x[i];
	ss = block_reduce<THREADS, T>(ss);
	if (threadIdx.x == 0) {
		info[(int64_t)blockIdx.x * ldi] = sqrt(ss);
		info[1 + (int64_t)blockIdx.x * ldi] = (T)e;
	}
}

template <typename T>
static void gs_columns(int m, int w, T *a, int64_t lda, T *info, int64_t ldi, T safe_min,
                       T safe_max, cudaStream_t stream)
{
	if (w == 0)
		return;
	gs_columns_kernel<T><<<w, THREADS, 0, stream>>>(m, a, lda, info, ldi, safe_min, safe_max);
	hyla_check_launch("gs_columns_kernel");
}

extern "C" void hyla__cuda_gs_columns_d(int m, int w, double *a, int64_t lda, double *info,
                                        int64_t ldi, cudaStream_t stream)
{
	gs_columns<double>(m, w, a, lda, info, ldi, HYLA_GS_SAFE_MIN_D, HYLA_GS_SAFE_MAX_D, stream);
}

extern "C" void hyla__cuda_gs_columns_s(int m, int w, float *a, int64_t lda, float *info,
                                        int64_t ldi, cudaStream_t stream)
{
	gs_columns<float>(m, w, a, lda, info, ldi, HYLA_GS_SAFE_MIN_S, HYLA_GS_SAFE_MAX_S, stream);
}
