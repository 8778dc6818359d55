// The tridiagonal reduction's panel (LAPACK's DLATRD, lower) on the GPU:
// per column, the SYMV over the trailing matrix by cuBLAS between two
// cooperative kernels of ours that do the rest (before: the column brought
// up to date, its reflector, z1 = W^T v and z2 = A^T v over the panel's
// earlier columns; after: w = tau (A v - A z1 - W z2), then w += alpha v).
// Three launches and three grid-wide barriers per column in place of a
// dozen launches (coop_reflector.cuh: rows, sums, the reflector).
#include <cooperative_groups.h>
#include <cublas_v2.h>
#include "coop_reflector.cuh"
#include "kernels.h"
#include "launch.h"

namespace cg = cooperative_groups;

#define MAXNB HYLA_REDUCTION_GPU_MAX_NB
// Scratch (one allocation per panel): the blocks' partial sums (the norm's
// three slots, then z1's and z2's), then z1 and z2.
#define Z_OFFSET ((3 + 2 * MAXNB) * COOP_MAXB)
#define SCRATCH_ELEMS (Z_OFFSET + 2 * MAXNB)

template <typename T>
struct Column {
	int n, i; // the panel's rows and columns from its corner; the column
	T *a, *w, *e, *tau, *scratch;
	int64_t lda, ldw;
};

// Before the SYMV: A(i:n, i) -= A(i:n, 0:i) W(i, 0:i)^T + W(i:n, 0:i)
// A(i, 0:i)^T; the reflector of A(i+1:n, i) (v(i+1) = 1 in place, beta to
// e(i), tau(i)); z1 = W(i+1:n, 0:i)^T v, z2 = A(i+1:n, 0:i)^T v.
template <typename T>
__global__ void __launch_bounds__(COOP_THREADS) latrd_before(Column<T> c)
{
	__shared__ T arow[MAXNB], wrow[MAXNB];
	cg::grid_group grid = cg::this_grid();
	const int tid = threadIdx.x, i = c.i;
	T *col = c.a + i * c.lda, *partial = c.scratch;
	for (int k = tid; k < i; k += COOP_THREADS) {
		arow[k] = c.a[i + k * c.lda];
		wrow[k] = c.w[i + k * c.ldw];
	}
	__syncthreads();
	int r0, r1;
	coop_rows(i, c.n, &r0, &r1);
	for (int r = r0 + tid; r < r1; r += COOP_THREADS) {
		T x = col[r];
		for (int k = 0; k < i; k++)
			x -= c.a[r + k * c.lda] * wrow[k] + c.w[r + k * c.ldw] * arow[k];
		col[r] = x;
	}
	__syncthreads();
	coop_norm_parts(col, 1, max(r0, i + 2), r1, i + 1 >= r0 && i + 1 < r1 ? col[i + 1] : T(0),
	                partial);
	grid.sync();
	coop_reflect(partial, col, 1, max(r0, i + 1), r1, i + 1, &c.e[i], &c.tau[i]);
	if (i == 0)
		return;
	auto wa = [&](int s, int r) { return s < i ? c.w[r + s * c.ldw] : c.a[r + (s - i) * c.lda]; };
	coop_dots(wa, col, 1, max(r0, i + 1), r1, 2 * i, 3, partial);
	grid.sync();
	coop_sums_out(partial, 3, 2 * i, c.scratch + Z_OFFSET);
}

// After the SYMV (w = A(i+1:n, i+1:n) v in W(i+1:n, i)): w = tau (w -
// A(i+1:n, 0:i) z1 - W(i+1:n, 0:i) z2), then w += alpha v, alpha =
// -tau/2 w^T v.
template <typename T>
__global__ void __launch_bounds__(COOP_THREADS) latrd_after(Column<T> c)
{
	__shared__ T z[2 * MAXNB], alpha;
	cg::grid_group grid = cg::this_grid();
	const int tid = threadIdx.x, i = c.i;
	const T *v = c.a + i * c.lda;
	T *wi = c.w + i * c.ldw, *partial = c.scratch;
	for (int k = tid; k < 2 * i; k += COOP_THREADS)
		z[k] = c.scratch[Z_OFFSET + k];
	__syncthreads();
	const T t = c.tau[i];
	int r0, r1;
	coop_rows(i + 1, c.n, &r0, &r1);
	T dot = 0;
	for (int r = r0 + tid; r < r1; r += COOP_THREADS) {
		T y = wi[r];
		for (int k = 0; k < i; k++)
			y -= c.a[r + k * c.lda] * z[k] + c.w[r + k * c.ldw] * z[i + k];
		y *= t;
		wi[r] = y;
		dot += y * v[r];
	}
	dot = block_reduce<COOP_THREADS, T>(dot);
	if (tid == 0)
		partial[blockIdx.x] = dot;
	grid.sync();
	if (tid < 32) {
		const T s = coop_blocks_sum(partial, 0);
		if (tid == 0)
			alpha = T(-0.5) * t * s;
	}
	__syncthreads();
	for (int r = r0 + tid; r < r1; r += COOP_THREADS)
		wi[r] += alpha * v[r];
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
	if (nb > MAXNB)
		hyla_fail("the tridiagonal panel wider than 128 columns");
	T *scratch;
	if (cudaMallocAsync((void **)&scratch, sizeof(T) * SCRATCH_ELEMS, stream) != cudaSuccess)
		hyla_fail("the tridiagonal panel's scratch allocation");
	for (int i = 0; i < nb && i < n - 1; i++) {
		Column<T> c = {n, i, a, w, e, tau, scratch, lda, ldw};
		coop_launch(latrd_before<T>, coop_blocks(n - i), &c, stream, "the launch of latrd_before");
		const int m = n - i - 1;
		T *v = a + i + 1 + (int64_t)i * lda;
		symv(h, m, v + lda, lda, v, w + i + 1 + (int64_t)i * ldw);
		coop_launch(latrd_after<T>, coop_blocks(m), &c, stream, "the launch of latrd_after");
	}
	cudaFreeAsync(scratch, stream);
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
