/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// CUDA kernels of the Q formation and the block reflector (codelets/orgqr.c).
#include "kernels.h"
#include "launch.h"

template <typename T>
__global__ void identity_minus(int w, const T *x, int ldx, T *top, int lda)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y;
	if (i < w)
		top[i + (int64_t)j * lda] = T(i == j) - x[i + (int64_t)j * ldx];
}

template <typename T>
static void run(int w, const T *x, int ldx, T *top, int lda, cudaStream_t stream)
{
	identity_minus<T><<<dim3((w + 127) / 128, w), 128, 0, stream>>>(w, x, ldx, top, lda);
	hyla_check_launch("identity_minus");
}

extern "C" void hyla__cuda_identity_minus_d(int w, const double *x, int ldx, double *top, int lda,
                                            cudaStream_t stream)
{
	run(w, x, ldx, top, lda, stream);
}

extern "C" void hyla__cuda_identity_minus_s(int w, const float *x, int ldx, float *top, int lda,
                                            cudaStream_t stream)
{
	run(w, x, ldx, top, lda, stream);
}

// V of a block reflector in full (rows-by-w): zeros above the diagonal, ones
// on it, the stored reflectors below (above it v holds R).
template <typename T>
__global__ void explicit_v(int rows, int w, const T *v, int ldv, T *e)
{
	const int64_t count = (int64_t)rows * w;
	for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < count;
	     i += (int64_t)gridDim.x * blockDim.x) {
		const int r = (int)(i % rows), c = (int)(i / rows);
		e[i] = r < c ? T(0) : r == c ? T(1) : v[r + (int64_t)c * ldv];
	}
}

template <typename T>
static void run_explicit_v(int rows, int w, const T *v, int ldv, T *e, cudaStream_t stream)
{
	explicit_v<T><<<264, 256, 0, stream>>>(rows, w, v, ldv, e);
	hyla_check_launch("explicit_v");
}

extern "C" void hyla__cuda_explicit_v_d(int rows, int w, const double *v, int ldv, double *e,
                                        cudaStream_t stream)
{
	run_explicit_v(rows, w, v, ldv, e, stream);
}

extern "C" void hyla__cuda_explicit_v_s(int rows, int w, const float *v, int ldv, float *e,
                                        cudaStream_t stream)
{
	run_explicit_v(rows, w, v, ldv, e, stream);
}
