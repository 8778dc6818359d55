// CUDA panel of the symmetric tridiagonal reduction (LAPACK's DLATRD, lower)
// on the worker's stream, no host sync: per column, cuBLAS for the products
// (two GEMVs to bring the column up to date, the SYMV over the resident
// trailing matrix, four GEMVs for W's corrections) and two one-block
// kernels of ours: the reflector (dlarfg) and W's last steps (scale by tau,
// the dot product, the axpy), whose scalars never leave the GPU.
#include <cublas_v2.h>
#include "kernels.h"
#include "launch.h"

#define THREADS 1024
#define WARPS (THREADS / 32)

// Sum (max) over the block of one value per thread; every thread gets it.
template <typename T, bool MAX>
__device__ T block_reduce(T s)
{
	__shared__ T part[WARPS];
	for (int off = 16; off > 0; off /= 2) {
		T o = __shfl_down_sync(0xffffffffu, s, off);
		s = MAX ? fmax(s, o) : s + o;
	}
	__syncthreads();
	if (threadIdx.x % 32 == 0)
		part[threadIdx.x / 32] = s;
	__syncthreads();
	T r = part[0];
	for (int w = 1; w < WARPS; w++)
		r = MAX ? fmax(r, part[w]) : r + part[w];
	__syncthreads();
	return r;
}

// LAPACK's dlarfg on (x[0], x[1:m]): x[1:m] scaled into the reflector,
// x[0] = 1 (DLATRD's convention), beta to *e, tau to *tau. The norm is taken
// of x / max |x|, so it neither overflows nor underflows.
template <typename T>
__global__ void __launch_bounds__(THREADS) larfg(int m, T *x, T *e, T *tau)
{
	T amax = 0;
	for (int r = 1 + threadIdx.x; r < m; r += THREADS)
		amax = fmax(amax, fabs(x[r]));
	amax = block_reduce<T, true>(amax);
	T sq = 0;
	for (int r = 1 + threadIdx.x; amax > 0 && r < m; r += THREADS) {
		T y = x[r] / amax;
		sq += y * y;
	}
	sq = block_reduce<T, false>(sq);
	const T alpha = x[0];
	T beta = alpha, t = 0, scale = 1;
	if (amax > 0) {
		beta = -copysign(hypot(alpha, amax * sqrt(sq)), alpha);
		t = (beta - alpha) / beta;
		scale = 1 / (alpha - beta);
	}
	for (int r = 1 + threadIdx.x; r < m; r += THREADS)
		x[r] *= scale;
	if (threadIdx.x == 0) {
		x[0] = 1;
		*e = beta;
		*tau = t;
	}
}

// w = tau w, then w += alpha v with alpha = -tau/2 w^T v.
template <typename T>
__global__ void __launch_bounds__(THREADS) finish_w(int m, T *w, const T *v, const T *tau)
{
	const T t = *tau;
	T dot = 0;
	for (int r = threadIdx.x; r < m; r += THREADS) {
		T wr = t * w[r];
		w[r] = wr;
		dot += wr * v[r];
	}
	const T alpha = T(-0.5) * t * block_reduce<T, false>(dot);
	for (int r = threadIdx.x; r < m; r += THREADS)
		w[r] += alpha * v[r];
}

static void gemv(cublasHandle_t h, cublasOperation_t op, int m, int n, double alpha,
                 const double *a, int lda, const double *x, int incx, double beta, double *y)
{
	if (cublasDgemv(h, op, m, n, &alpha, a, lda, x, incx, &beta, y, 1) != CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS dgemv of the tridiagonal panel");
}

static void gemv(cublasHandle_t h, cublasOperation_t op, int m, int n, float alpha, const float *a,
                 int lda, const float *x, int incx, float beta, float *y)
{
	if (cublasSgemv(h, op, m, n, &alpha, a, lda, x, incx, &beta, y, 1) != CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS sgemv of the tridiagonal panel");
}

static void symv(cublasHandle_t h, int m, const double *a, int lda, const double *x, double *y)
{
	const double one = 1, zero = 0;
	if (cublasDsymv(h, CUBLAS_FILL_MODE_LOWER, m, &one, a, lda, x, 1, &zero, y, 1) !=
	    CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS dsymv of the tridiagonal panel");
}

static void symv(cublasHandle_t h, int m, const float *a, int lda, const float *x, float *y)
{
	const float one = 1, zero = 0;
	if (cublasSsymv(h, CUBLAS_FILL_MODE_LOWER, m, &one, a, lda, x, 1, &zero, y, 1) !=
	    CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS ssymv of the tridiagonal panel");
}

// DLATRD's loop, 0-based: a is A(c, c) of the panel at column c (n rows
// and columns from there), w is W(c, 0).
template <typename T>
static void latrd(int n, int nb, T *a, int lda, T *e, T *tau, T *w, int ldw, cublasHandle_t h,
                  cudaStream_t stream)
{
	const cublasOperation_t N = CUBLAS_OP_N, Tr = CUBLAS_OP_T;
	for (int i = 0; i < nb && i < n - 1; i++) {
		T *aii = a + i + (int64_t)i * lda;
		if (i > 0) { /* A(i:n, i) -= A(i:n, 0:i) W(i, 0:i)^T + W(i:n, 0:i) A(i, 0:i)^T */
			gemv(h, N, n - i, i, T(-1), a + i, lda, w + i, ldw, T(1), aii);
			gemv(h, N, n - i, i, T(-1), w + i, ldw, a + i, lda, T(1), aii);
		}
		const int m = n - i - 1;
		T *v = aii + 1, *wi = w + i + 1 + (int64_t)i * ldw, *tmp = w + (int64_t)i * ldw;
		larfg<T><<<1, THREADS, 0, stream>>>(m, v, e + i, tau + i);
		hyla_check_launch("larfg");
		symv(h, m, v + lda, lda, v, wi);
		if (i > 0) { /* W(i+1:n, i) -= A V^T... DLATRD's four corrections */
			gemv(h, Tr, m, i, T(1), w + i + 1, ldw, v, 1, T(0), tmp);
			gemv(h, N, m, i, T(-1), a + i + 1, lda, tmp, 1, T(1), wi);
			gemv(h, Tr, m, i, T(1), a + i + 1, lda, v, 1, T(0), tmp);
			gemv(h, N, m, i, T(-1), w + i + 1, ldw, tmp, 1, T(1), wi);
		}
		finish_w<T><<<1, THREADS, 0, stream>>>(m, wi, v, tau + i);
		hyla_check_launch("finish_w");
	}
}

extern "C" void hyla__cuda_latrd_d(int n, int nb, double *a, int lda, double *e, double *tau,
                                   double *w, int ldw, cublasHandle_t h, cudaStream_t stream)
{
	latrd(n, nb, a, lda, e, tau, w, ldw, h, stream);
}

extern "C" void hyla__cuda_latrd_s(int n, int nb, float *a, int lda, float *e, float *tau,
                                   float *w, int ldw, cublasHandle_t h, cudaStream_t stream)
{
	latrd(n, nb, a, lda, e, tau, w, ldw, h, stream);
}
