/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// The eigensolver's first task on the GPU (codelets/syevd_prepare.c): the
// upper triangle mirrored into the lower one (32-by-32 tiles through shared
// memory), the triangle's largest |entry| and its scaling; the band of the
// two-stage reduction gathered for its second stage (codelets/sy2sb.c).
#include "block_reduce.cuh"
#include "kernels.h"
#include "launch.h"

#define THREADS 256
#define TILE 32

template <typename T>
__global__ void mirror_kernel(int n, T *a, int64_t lda)
{
	__shared__ T tile[TILE][TILE + 1];
	const int bi = blockIdx.x, bj = blockIdx.y, tx = threadIdx.x;
	if (bi < bj)
		return;
	for (int k = threadIdx.y; k < TILE; k += blockDim.y) { // the upper tile (bj, bi)
		int r = bj * TILE + tx, c = bi * TILE + k;
		if (r < n && c < n)
			tile[k][tx] = a[r + (int64_t)c * lda];
	}
	__syncthreads();
	for (int k = threadIdx.y; k < TILE; k += blockDim.y) { // its transpose below the diagonal
		int r = bi * TILE + tx, c = bj * TILE + k;
		if (r < n && c < n && r > c)
			a[r + (int64_t)c * lda] = tile[tx][k];
	}
}

// Bit patterns of non-negative floating-point numbers order as the numbers.
__device__ void max_bits(double *at, double v)
{
	atomicMax((unsigned long long *)at, (unsigned long long)__double_as_longlong(v));
}
__device__ void max_bits(float *at, float v)
{
	atomicMax((unsigned *)at, (unsigned)__float_as_int(v));
}

// Column blockIdx.x's part of the triangle: its largest |entry| into *amax,
// or, with factor != 0, the part scaled by it.
template <typename T>
__global__ void triangle_kernel(int n, T *a, int64_t lda, int lower, T factor, T *amax)
{
	const int j = blockIdx.x, from = lower ? j : 0, to = lower ? n : j + 1;
	T *x = a + (int64_t)j * lda, big = 0;
	for (int i = from + threadIdx.x; i < to; i += THREADS) {
		if (factor != 0)
			x[i] *= factor;
		else
			big = fmax(big, fabs(x[i]));
	}
	if (factor != 0)
		return;
	big = block_reduce<THREADS, T, true>(big);
	if (threadIdx.x == 0)
		max_bits(amax, big);
}

template <typename T>
static void prepare(int n, T *a, int64_t lda, int lower, int mirror, T *amax, cudaStream_t stream)
{
	if (mirror) {
		dim3 tiles((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
		mirror_kernel<T><<<tiles, dim3(TILE, 8), 0, stream>>>(n, a, lda);
		hyla_check_launch("mirror_kernel");
	}
	cudaMemsetAsync(amax, 0, sizeof *amax, stream);
	triangle_kernel<T><<<n, THREADS, 0, stream>>>(n, a, lda, lower || mirror, 0, amax);
	hyla_check_launch("triangle_kernel");
}

template <typename T>
static void scale(int n, T *a, int64_t lda, int lower, T factor, cudaStream_t stream)
{
	triangle_kernel<T><<<n, THREADS, 0, stream>>>(n, a, lda, lower, factor, nullptr);
	hyla_check_launch("triangle_kernel");
}

extern "C" void hyla__cuda_sym_prepare_d(int n, double *a, int64_t lda, int lower, int mirror,
                                         double *amax, cudaStream_t stream)
{
	prepare<double>(n, a, lda, lower, mirror, amax, stream);
}

extern "C" void hyla__cuda_sym_prepare_s(int n, float *a, int64_t lda, int lower, int mirror,
                                         float *amax, cudaStream_t stream)
{
	prepare<float>(n, a, lda, lower, mirror, amax, stream);
}

extern "C" void hyla__cuda_sym_scale_d(int n, double *a, int64_t lda, int lower, double factor,
                                       cudaStream_t stream)
{
	scale<double>(n, a, lda, lower, factor, stream);
}

extern "C" void hyla__cuda_sym_scale_s(int n, float *a, int64_t lda, int lower, float factor,
                                       cudaStream_t stream)
{
	scale<float>(n, a, lda, lower, factor, stream);
}

// The band of half-bandwidth b of the lower n-by-n a into the bulge chase's
// storage: entry (r, c), c <= r <= c + 2b, at band[r + 2b c], zero past b.
template <typename T>
__global__ void band_gather_kernel(int n, int b, const T *a, int64_t lda, T *band)
{
	int64_t len = (int64_t)(2 * b + 1) * n;
	for (int64_t i = blockIdx.x * (int64_t)THREADS + threadIdx.x; i < len;
	     i += (int64_t)gridDim.x * THREADS) {
		int64_t c = i / (2 * b + 1), r = c + i % (2 * b + 1);
		band[i] = r <= c + b && r < n ? a[r + c * lda] : T(0);
	}
}

template <typename T>
static void band_gather(int n, int b, const T *a, int64_t lda, T *band, cudaStream_t stream)
{
	int64_t len = (int64_t)(2 * b + 1) * n, blocks = (len + THREADS - 1) / THREADS;
	band_gather_kernel<T><<<(unsigned)(blocks < 4096 ? blocks : 4096), THREADS, 0, stream>>>(
	    n, b, a, lda, band);
	hyla_check_launch("band_gather_kernel");
}

// The upper band of b superdiagonals of the n-by-n a into the bidiagonal
// chase's storage: entry (i, c), c - 2b < i < c + b, at
// band[2b - 1 + i + (3b - 1) c] (3b a column), zero outside c - b <= i <= c.
template <typename T>
__global__ void upper_band_gather_kernel(int n, int b, const T *a, int64_t lda, T *band)
{
	int64_t len = (int64_t)3 * b * n;
	for (int64_t k = blockIdx.x * (int64_t)THREADS + threadIdx.x; k < len;
	     k += (int64_t)gridDim.x * THREADS) {
		int64_t c = k / (3 * b), i = c + k % (3 * b) - (2 * b - 1);
		band[k] = i >= c - b && i <= c && i >= 0 ? a[i + c * lda] : T(0);
	}
}

template <typename T>
static void upper_band_gather(int n, int b, const T *a, int64_t lda, T *band, cudaStream_t stream)
{
	int64_t len = (int64_t)3 * b * n, blocks = (len + THREADS - 1) / THREADS;
	upper_band_gather_kernel<T><<<(unsigned)(blocks < 4096 ? blocks : 4096), THREADS, 0, stream>>>(
	    n, b, a, lda, band);
	hyla_check_launch("upper_band_gather_kernel");
}

extern "C" void hyla__cuda_upper_band_gather_d(int n, int b, const double *a, int64_t lda,
                                               double *band, cudaStream_t stream)
{
	upper_band_gather(n, b, a, lda, band, stream);
}

extern "C" void hyla__cuda_upper_band_gather_s(int n, int b, const float *a, int64_t lda,
                                               float *band, cudaStream_t stream)
{
	upper_band_gather(n, b, a, lda, band, stream);
}

extern "C" void hyla__cuda_band_gather_d(int n, int b, const double *a, int64_t lda, double *band,
                                         cudaStream_t stream)
{
	band_gather(n, b, a, lda, band, stream);
}

extern "C" void hyla__cuda_band_gather_s(int n, int b, const float *a, int64_t lda, float *band,
                                         cudaStream_t stream)
{
	band_gather(n, b, a, lda, band, stream);
}
