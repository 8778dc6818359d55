// CUDA panels built of Householder reflectors, on the worker's stream with
// no host sync: Householder QR's (LAPACK's DGEQR2, for panels too tall for
// geqr2_kernel.cu) and its block reflector's T (DLARFT), and the bidiagonal
// reduction's (DLABRD, m >= n; the tridiagonal one's is latrd_kernels.cu).
// Per column, cuBLAS for the products (for DLABRD the two GEMVs over the
// resident trailing matrix, and the smaller GEMVs that bring columns and
// rows up to date and correct X and Y) and one-block kernels of ours for the
// reflectors (dlarfg) and the scalings, whose scalars never leave the GPU.
#include <cublas_v2.h>
#include "kernels.h"
#include "block_reduce.cuh"
#include "launch.h"

#define THREADS 1024

// LAPACK's dlarfg on (x[0], x[inc], ..., x[(m - 1) inc]): the entries after
// the first scaled into the reflector, x[0] = 1 (the panels' convention),
// beta to *beta, tau to *tau (and -tau to *neg_tau unless NULL). The norm is
// taken of x / max |x|, so it neither overflows nor underflows.
template <typename T>
__global__ void __launch_bounds__(THREADS)
larfg(int m, T *x, int64_t inc, T *beta_out, T *tau, T *neg_tau)
{
	T amax = 0;
	for (int r = 1 + threadIdx.x; r < m; r += THREADS)
		amax = fmax(amax, fabs(x[r * inc]));
	amax = block_reduce<THREADS, T, true>(amax);
	T sq = 0;
	for (int r = 1 + threadIdx.x; amax > 0 && r < m; r += THREADS) {
		T y = x[r * inc] / amax;
		sq += y * y;
	}
	sq = block_reduce<THREADS, T>(sq);
	const T alpha = x[0];
	T beta = alpha, t = 0, scale = 1;
	if (amax > 0) {
		beta = -copysign(hypot(alpha, amax * sqrt(sq)), alpha);
		t = (beta - alpha) / beta;
		scale = 1 / (alpha - beta);
	}
	for (int r = 1 + threadIdx.x; r < m; r += THREADS)
		x[r * inc] *= scale;
	if (threadIdx.x == 0) {
		x[0] = 1;
		*beta_out = beta;
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

// x *= *s (a scalar in device memory).
template <typename T>
__global__ void scale_by(int m, T *x, const T *s)
{
	const T f = *s;
	for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < m; r += gridDim.x * blockDim.x)
		x[r] *= f;
}

template <typename T>
static void reflector(int m, T *x, int64_t inc, T *beta, T *tau, cudaStream_t stream)
{
	larfg<T><<<1, THREADS, 0, stream>>>(m, x, inc, beta, tau, (T *)NULL);
	hyla_check_launch("larfg");
}

template <typename T>
static void scale(int m, T *x, const T *s, cudaStream_t stream)
{
	if (m <= 0)
		return;
	scale_by<T><<<(m + 255) / 256 < 64 ? (m + 255) / 256 : 64, 256, 0, stream>>>(m, x, s);
	hyla_check_launch("scale_by");
}

static void gemv(cublasHandle_t h, cublasOperation_t op, int m, int n, double alpha,
                 const double *a, int lda, const double *x, int incx, double beta, double *y,
                 int incy = 1)
{
	if (cublasDgemv(h, op, m, n, &alpha, a, lda, x, incx, &beta, y, incy) != CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS dgemv of a reduction's panel");
}

static void gemv(cublasHandle_t h, cublasOperation_t op, int m, int n, float alpha, const float *a,
                 int lda, const float *x, int incx, float beta, float *y, int incy = 1)
{
	if (cublasSgemv(h, op, m, n, &alpha, a, lda, x, incx, &beta, y, incy) != CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS sgemv of a reduction's panel");
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

static void syrk_upper(cublasHandle_t h, int w, int k, const double *a, int lda, double *c,
                       int ldc)
{
	const double one = 1, zero = 0;
	if (cublasDsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, w, k, &one, a, lda, &zero, c, ldc) !=
	    CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS dsyrk of dlarft");
}

static void syrk_upper(cublasHandle_t h, int w, int k, const float *a, int lda, float *c, int ldc)
{
	const float one = 1, zero = 0;
	if (cublasSsyrk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, w, k, &one, a, lda, &zero, c, ldc) !=
	    CUBLAS_STATUS_SUCCESS)
		hyla_fail("cuBLAS ssyrk of dlarft");
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

// DLARFT on the m-by-w panel a: V^T V below the top block by SYRK, the top
// block's share, the leaves' recurrences, their merges by TRMM.
template <typename T>
static void larft(int m, int w, const T *a, int lda, const T *tau, T *t, int ldt, cublasHandle_t h,
                  cudaStream_t stream)
{
	if (m > w)
		syrk_upper(h, w, m - w, a + w, lda, t, ldt);
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
	}
HYLA_QR_PANEL_INSTANCES(d, double)
HYLA_QR_PANEL_INSTANCES(s, float)

// DLABRD's loop for m >= n, 0-based: a is A(c, c) of the panel at column c
// (m rows, n > nb columns from there), x and y are X(c, 0) and Y(c, 0).
template <typename T>
static void labrd(int m, int n, int nb, T *a, int lda, T *d, T *e, T *tauq, T *taup, T *x,
                  int ldx, T *y, int ldy, cublasHandle_t h, cudaStream_t stream)
{
	const cublasOperation_t N = CUBLAS_OP_N, Tr = CUBLAS_OP_T;
	for (int i = 0; i < nb; i++) {
		T *aii = a + i + (int64_t)i * lda, *row = aii + lda;
		T *yi = y + i + 1 + (int64_t)i * ldy, *ytmp = y + (int64_t)i * ldy;
		T *xi = x + i + 1 + (int64_t)i * ldx, *xtmp = x + (int64_t)i * ldx;
		const int mi = m - i, ni = n - i - 1;
		if (i > 0) { /* A(i:m, i) -= A(i:m, 0:i) Y(i, 0:i)^T + X(i:m, 0:i) A(0:i, i) */
			gemv(h, N, mi, i, T(-1), a + i, lda, y + i, ldy, T(1), aii);
			gemv(h, N, mi, i, T(-1), x + i, ldx, a + (int64_t)i * lda, 1, T(1), aii);
		}
		reflector(mi, aii, 1, d + i, tauq + i, stream);
		/* Y(i+1:n, i) = tauq (A^T v - Y (A_left^T v) - A_top^T (X^T v)) */
		gemv(h, Tr, mi, ni, T(1), row, lda, aii, 1, T(0), yi);
		if (i > 0) {
			gemv(h, Tr, mi, i, T(1), a + i, lda, aii, 1, T(0), ytmp);
			gemv(h, N, ni, i, T(-1), y + i + 1, ldy, ytmp, 1, T(1), yi);
			gemv(h, Tr, mi, i, T(1), x + i, ldx, aii, 1, T(0), ytmp);
			gemv(h, Tr, i, ni, T(-1), a + (int64_t)(i + 1) * lda, lda, ytmp, 1, T(1), yi);
		}
		scale(ni, yi, tauq + i, stream);
		/* A(i, i+1:n) -= Y(i+1:n, 0:i+1) A(i, 0:i+1)^T + A(0:i, i+1:n)^T X(i, 0:i)^T */
		gemv(h, N, ni, i + 1, T(-1), y + i + 1, ldy, a + i, lda, T(1), row, lda);
		if (i > 0)
			gemv(h, Tr, i, ni, T(-1), a + (int64_t)(i + 1) * lda, lda, x + i, ldx, T(1), row, lda);
		reflector(ni, row, lda, e + i, taup + i, stream);
		/* X(i+1:m, i) = taup (A u - A_left (Y^T u) - X (A_top u)) */
		gemv(h, N, mi - 1, ni, T(1), row + 1, lda, row, lda, T(0), xi);
		gemv(h, Tr, ni, i + 1, T(1), y + i + 1, ldy, row, lda, T(0), xtmp);
		gemv(h, N, mi - 1, i + 1, T(-1), a + i + 1, lda, xtmp, 1, T(1), xi);
		if (i > 0) {
			gemv(h, N, i, ni, T(1), a + (int64_t)(i + 1) * lda, lda, row, lda, T(0), xtmp);
			gemv(h, N, mi - 1, i, T(-1), x + i + 1, ldx, xtmp, 1, T(1), xi);
		}
		scale(mi - 1, xi, taup + i, stream);
	}
}

extern "C" void hyla__cuda_labrd_d(int m, int n, int nb, double *a, int lda, double *d, double *e,
                                   double *tauq, double *taup, double *x, int ldx, double *y,
                                   int ldy, cublasHandle_t h, cudaStream_t stream)
{
	labrd(m, n, nb, a, lda, d, e, tauq, taup, x, ldx, y, ldy, h, stream);
}

extern "C" void hyla__cuda_labrd_s(int m, int n, int nb, float *a, int lda, float *d, float *e,
                                   float *tauq, float *taup, float *x, int ldx, float *y, int ldy,
                                   cublasHandle_t h, cudaStream_t stream)
{
	labrd(m, n, nb, a, lda, d, e, tauq, taup, x, ldx, y, ldy, h, stream);
}
