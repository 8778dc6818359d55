/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// Householder QR's panel on the worker's stream: the choice between
// cholqr_panel.cu and the column loop (geqr2_kernel.cu, or here for panels
// too tall for it: LAPACK's DGEQR2, per column a one-block dlarfg kernel,
// cuBLAS GEMV and GER, the scalar kept on the device, no host sync), and
// the block reflector's T (DLARFT) of a panel the column loop factored.
#include <cublas_v2.h>
#include "kernels.h"
#include "blas_calls.cuh"
#include "block_reduce.cuh"
#include "launch.h"
#include "rescale.cuh"

#define THREADS 1024

// LAPACK's dlarfg on (x[0], x[inc], ..., x[(m - 1) inc]): the entries after
// the first scaled into the reflector, x[0] = 1 (the panels' convention),
// beta to *beta, tau to *tau (and -tau to *neg_tau unless NULL). The norm is
// taken of x / max |x|, so it neither overflows nor underflows; a tiny beta
// is rescaled (rescale.cuh).
template <typename T>
__global__ void __launch_bounds__(THREADS)
larfg(int m, T *x, int64_t inc, T *beta_out, T *tau, T *neg_tau)
{
	T alpha = x[0], amax = 0; /* read before the barriers: thread 0 writes x[0] at the end */
	for (int r = 1 + threadIdx.x; r < m; r += THREADS)
		amax = fmax(amax, fabs(x[r * inc]));
	amax = block_reduce<THREADS, T, true>(amax);
	T sq = 0;
	for (int r = 1 + threadIdx.x; amax > 0 && r < m; r += THREADS) {
		T y = x[r * inc] / amax;
		sq += y * y;
	}
	sq = block_reduce<THREADS, T>(sq);
	T beta = alpha, t = 0, scale = 1, up = 1;
	if (amax > 0) {
		beta = -copysign(hypot(alpha, amax * sqrt(sq)), alpha);
		if (fabs(beta) < larfg_tiny<T>()) { /* rescale.cuh */
			up = larfg_up(fmax(amax, fabs(alpha)));
			alpha *= up;
			beta = -copysign(hypot(alpha, amax * up * sqrt(sq)), alpha);
		}
		t = (beta - alpha) / beta;
		scale = 1 / (alpha - beta);
	}
	for (int r = 1 + threadIdx.x; r < m; r += THREADS)
		x[r * inc] = x[r * inc] * up * scale;
	if (threadIdx.x == 0) {
		x[0] = 1;
		*beta_out = beta / up;
		*tau = t;
		if (neg_tau)
			*neg_tau = -t;
	}
}

// The panel's diagonal (w entries, stride lda + 1) from beta.
template <typename T>
__global__ void put_diagonal(int w, T *a, int64_t lda, const T *beta)
{
	for (int j = threadIdx.x; j < w; j += blockDim.x)
		a[j + j * lda] = beta[j];
}

// T (w-by-w, upper, zero below) of the block reflector I - V T V^T of the
// m-by-w panel a (reflector j: unit at row j, stored below it; R above),
// LAPACK's dlarft forward columnwise, from S = V^T V: T(0:j, j) =
// -tau_j T(0:j, 0:j) S(0:j, j), T(j, j) = tau_j; in blocks, T12 =
// -T11 S12 T22. First S's strict upper part: t holds V^T V over rows
// w..m-1 (has_g) or nothing; here the top w-by-w block, where V has its
// structure, is added, one thread per entry, and the part below the
// diagonal zeroed.
template <typename T>
__global__ void larft_gram_top(int m, int w, const T *a, int64_t lda, T *t, int64_t ldt, bool has_g)
{
	const int l = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
	if (l >= w || j >= w || l == j)
		return;
	T *out = t + l + j * ldt;
	if (l > j) {
		*out = 0;
		return;
	}
	const int top = m < w ? m : w;
	const T *vl = a + l * lda, *vj = a + j * lda;
	T sum = has_g ? *out : T(0);
	if (j < top)
		sum += vl[j]; /* V(j, l) V(j, j), V(j, j) = 1 */
	for (int r = j + 1; r < top; r++)
		sum += vl[r] * vj[r];
	*out = sum;
}

// The recurrence on each diagonal block of LARFT_LEAF columns (a block of
// threads each, the block's T in shared memory), over S there.
#define LARFT_LEAF 32
template <typename T>
__global__ void __launch_bounds__(LARFT_LEAF) larft_leaves(int w, const T *tau, T *t, int64_t ldt)
{
	__shared__ T tl[LARFT_LEAF][LARFT_LEAF + 1], s[LARFT_LEAF];
	const int b0 = blockIdx.x * LARFT_LEAF, n = min(LARFT_LEAF, w - b0), l = threadIdx.x;
	T *tb = t + b0 + b0 * ldt;
	for (int j = 0; j < n; j++) {
		if (l < j)
			s[l] = tb[l + j * ldt];
		__syncthreads();
		T out = 0;
		if (l < j) {
			for (int k = l; k < j; k++)
				out += tl[l][k] * s[k];
			out *= -tau[b0 + j];
		} else if (l == j) {
			out = tau[b0 + j];
		}
		tl[l][j] = out;
		__syncthreads();
	}
	if (l < n)
		for (int j = 0; j < n; j++)
			tb[l + j * ldt] = tl[l][j];
}

static void ger(cublasHandle_t h, int m, int n, const double *alpha, const double *x,
                const double *y, double *a, int lda)
{
	if (cublasDger(h, m, n, alpha, x, 1, y, 1, a, lda) != CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS dger of the QR panel");
}

static void ger(cublasHandle_t h, int m, int n, const float *alpha, const float *x, const float *y,
                float *a, int lda)
{
	if (cublasSger(h, m, n, alpha, x, 1, y, 1, a, lda) != CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS sger of the QR panel");
}

// c = a^T a (k-by-w a, both triangles) by GEMM: cuBLAS's SYRK at these
// shapes took 650-670 us in single whatever w (12 times its double) on the
// H100, and more than GEMM in double too (bench/gram.c).
static void gram(cublasHandle_t h, int w, int k, const double *a, int lda, double *c, int ldc)
{
	const double one = 1, zero = 0;
	if (cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, w, w, k, &one, a, lda, a, lda, &zero, c, ldc) !=
	    CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS dgemm of dlarft");
}

static void gram(cublasHandle_t h, int w, int k, const float *a, int lda, float *c, int ldc)
{
	const float one = 1, zero = 0;
	if (cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, w, w, k, &one, a, lda, a, lda, &zero, c, ldc) !=
	    CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS sgemm of dlarft");
}

// DGEQR2 on the m-by-w panel a (m >= w): per column the reflector, then
// H_j applied to the columns after it (y = A^T v, A -= tau v y^T); the
// diagonal keeps the reflectors' 1s until the end, when R's betas go there.
// scratch: 3 w elements (y, beta, -tau).
template <typename T>
static void geqr2(int m, int w, T *a, int lda, T *tau, T *scratch, cublasHandle_t h,
                  cudaStream_t stream)
{
	T *y = scratch, *beta = scratch + w, *neg_tau = scratch + 2 * w;
	for (int j = 0; j < w; j++) {
		T *x = a + j + (int64_t)j * lda;
		larfg<T><<<1, THREADS, 0, stream>>>(m - j, x, 1, beta + j, tau + j, neg_tau + j);
		hyla_check_launch("larfg");
		if (j + 1 == w)
			break;
		gemv(h, CUBLAS_OP_T, m - j, w - j - 1, T(1), x + lda, lda, x, 1, T(0), y);
		cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
		ger(h, m - j, w - j - 1, neg_tau + j, x, y, x + lda, lda);
		cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
	}
	put_diagonal<T><<<1, 128, 0, stream>>>(w, a, lda, beta);
	hyla_check_launch("put_diagonal");
}

// b = alpha op(a) b (or b op(a)) in place, a upper triangular.
static void trmm_upper(cublasHandle_t h, cublasSideMode_t side, int m, int n, double alpha,
                       const double *a, int lda, double *b, int ldb)
{
	if (cublasDtrmm(h, side, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m, n, &alpha,
	                a, lda, b, ldb, b, ldb) != CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS dtrmm of dlarft");
}

static void trmm_upper(cublasHandle_t h, cublasSideMode_t side, int m, int n, float alpha,
                       const float *a, int lda, float *b, int ldb)
{
	if (cublasStrmm(h, side, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m, n, &alpha,
	                a, lda, b, ldb, b, ldb) != CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS strmm of dlarft");
}

// T of n columns whose leaves are done, S12 still above them: T12 =
// -T11 S12 T22, the halves first (split at a multiple of LARFT_LEAF).
template <typename T>
static void larft_merge(cublasHandle_t h, int n, T *t, int ldt)
{
	if (n <= LARFT_LEAF)
		return;
	const int n1 = (n / LARFT_LEAF + 1) / 2 * LARFT_LEAF, n2 = n - n1;
	T *t12 = t + (int64_t)n1 * ldt, *t22 = t12 + n1;
	larft_merge(h, n1, t, ldt);
	larft_merge(h, n2, t22, ldt);
	trmm_upper(h, CUBLAS_SIDE_LEFT, n1, n2, T(-1), t, ldt, t12, ldt);
	trmm_upper(h, CUBLAS_SIDE_RIGHT, n1, n2, T(1), t22, ldt, t12, ldt);
}

// DLARFT on the m-by-w panel a: V^T V below the top block by GEMM, the top
// block's share, the leaves' recurrences, their merges by TRMM.
template <typename T>
static void larft(int m, int w, const T *a, int lda, const T *tau, T *t, int ldt, cublasHandle_t h,
                  cudaStream_t stream)
{
	if (m > w)
		gram(h, w, m - w, a + w, lda, t, ldt);
	const dim3 block(32, 8), grid((w + 31) / 32, (w + 7) / 8);
	larft_gram_top<T><<<grid, block, 0, stream>>>(m, w, a, lda, t, ldt, m > w);
	hyla_check_launch("larft_gram_top");
	larft_leaves<T><<<(w + LARFT_LEAF - 1) / LARFT_LEAF, LARFT_LEAF, 0, stream>>>(w, tau, t, ldt);
	hyla_check_launch("larft_leaves");
	larft_merge(h, w, t, ldt);
}

#define HYLA_QR_PANEL_INSTANCES(S, T)                                                              \
	extern "C" void hyla__cuda_geqr2_##S(int m, int w, T *a, int lda, T *tau, T *scratch,          \
	                                     cublasHandle_t h, cudaStream_t stream)                    \
	{                                                                                              \
		if (!hyla__cuda_geqr2_fused_##S(m, w, a, lda, tau, scratch, stream))                       \
			geqr2(m, w, a, lda, tau, scratch, h, stream);                                          \
	}                                                                                              \
	extern "C" void hyla__cuda_larft_##S(int m, int w, const T *a, int lda, const T *tau, T *t,    \
	                                     int ldt, cublasHandle_t h, cudaStream_t stream)           \
	{                                                                                              \
		larft(m, w, a, lda, tau, t, ldt, h, stream);                                               \
	}                                                                                              \
	extern "C" int hyla__cuda_geqrf_panel_##S(int m, int w, T *a, int lda, T *tau, T *t, int ldt,  \
	                                          T *scratch, cublasHandle_t h, cudaStream_t stream)   \
	{                                                                                              \
		if (hyla__cuda_cholqr_panel_##S(m, w, a, lda, tau, t, ldt, h, stream))                     \
			return 1;                                                                              \
		hyla__cuda_geqr2_##S(m, w, a, lda, tau, scratch, h, stream);                               \
		larft(m, w, a, lda, tau, t, ldt, h, stream);                                               \
		return 0;                                                                                  \
	}
HYLA_QR_PANEL_INSTANCES(d, double)
HYLA_QR_PANEL_INSTANCES(s, float)
