// The tridiagonal reduction's panel (LAPACK's DLATRD, lower) on the GPU:
// per column, the SYMV over the trailing matrix by cuBLAS between two
// cooperative kernels of ours that do the rest (before: the column brought
// up to date, its reflector, z1 = W^T v and z2 = A^T v over the panel's
// earlier columns; after: w = tau (A v - A z1 - W z2), then w += alpha v).
// Three launches and three grid-wide barriers per column in place of a
// dozen launches. Blocks own contiguous rows; sums over blocks are added in
// block order, so results do not vary from run to run.
#include <cooperative_groups.h>
#include <cublas_v2.h>
#include "block_reduce.cuh"
#include "kernels.h"
#include "launch.h"

namespace cg = cooperative_groups;

#define THREADS 256
#define WARPS (THREADS / 32)
#define MAXB 160     // blocks at most
#define MAXNB 128    // panel width at most (z1, z2: 2 MAXNB sums)
#define SLOTS (2 * MAXNB + 3)
#define PER_LANE ((MAXB + 31) / 32)

// Scratch (device memory, one allocation per panel): the blocks' partial
// sums (slot-major, MAXB per slot), then z1 and z2.
#define Z_OFFSET (SLOTS * MAXB)
#define SCRATCH_ELEMS (Z_OFFSET + 2 * MAXNB)

template <typename T>
struct Column {
	int n, i; // the panel's rows and columns from its corner; the column
	T *a, *w, *e, *tau, *scratch;
	int64_t lda, ldw;
};

// This block's rows of [lo, n): [*r0, *r1).
__device__ void my_rows(int lo, int n, int *r0, int *r1)
{
	const int chunk = (n - lo + gridDim.x - 1) / gridDim.x;
	*r0 = min(n, lo + (int)blockIdx.x * chunk);
	*r1 = min(n, *r0 + chunk);
}

// Sum over the blocks of slot s, in block order (warp-wide; every lane).
template <typename T>
__device__ T blocks_sum(const T *partial, int s)
{
	const int lane = threadIdx.x % 32;
	T acc = 0;
	for (int b = lane; b < gridDim.x; b += 32)
		acc += __ldcg(&partial[(int64_t)s * MAXB + b]);
	for (int off = 16; off > 0; off /= 2)
		acc += __shfl_xor_sync(0xffffffffu, acc, off);
	return acc;
}

// Before the SYMV: A(i:n, i) -= A(i:n, 0:i) W(i, 0:i)^T + W(i:n, 0:i)
// A(i, 0:i)^T; the reflector of A(i+1:n, i) (v(i+1) = 1 in place, beta to
// e(i), tau(i)); z1 = W(i+1:n, 0:i)^T v, z2 = A(i+1:n, 0:i)^T v.
template <typename T>
__global__ void __launch_bounds__(THREADS) latrd_before(Column<T> c)
{
	__shared__ T arow[MAXNB], wrow[MAXNB], scalars[2];
	cg::grid_group grid = cg::this_grid();
	const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, i = c.i, n = c.n;
	T *col = c.a + i * c.lda, *partial = c.scratch;
	for (int k = tid; k < i; k += THREADS) {
		arow[k] = c.a[i + k * c.lda];
		wrow[k] = c.w[i + k * c.ldw];
	}
	__syncthreads();
	int r0, r1;
	my_rows(i, n, &r0, &r1);
	T amax = 0;
	for (int r = r0 + tid; r < r1; r += THREADS) {
		T x = col[r];
		for (int k = 0; k < i; k++)
			x -= c.a[r + k * c.lda] * wrow[k] + c.w[r + k * c.ldw] * arow[k];
		col[r] = x;
		if (r > i + 1)
			amax = fmax(amax, fabs(x));
	}
	amax = block_reduce<THREADS, T, true>(amax);
	T sq = 0;
	for (int r = max(r0, i + 2) + tid; amax > 0 && r < r1; r += THREADS)
		sq += (col[r] / amax) * (col[r] / amax);
	sq = block_reduce<THREADS, T>(sq);
	if (tid == 0) {
		partial[0 * MAXB + blockIdx.x] = amax;
		partial[1 * MAXB + blockIdx.x] = sq;
		partial[2 * MAXB + blockIdx.x] = i + 1 >= r0 && i + 1 < r1 ? col[i + 1] : T(0);
	}
	grid.sync();
	if (warp == 0) { // LAPACK's dlarfg: beta, tau, the scale of x
		T sb[PER_LANE], s = 0, q = 0;
#pragma unroll
		for (int k = 0; k < PER_LANE; k++) {
			const int b = lane + 32 * k;
			sb[k] = b < gridDim.x ? __ldcg(&partial[0 * MAXB + b]) : T(0);
			s = fmax(s, sb[k]);
		}
		for (int off = 16; off > 0; off /= 2)
			s = fmax(s, __shfl_xor_sync(0xffffffffu, s, off));
#pragma unroll
		for (int k = 0; k < PER_LANE; k++) {
			const int b = lane + 32 * k;
			if (b < gridDim.x && sb[k] > 0)
				q += __ldcg(&partial[1 * MAXB + b]) * (sb[k] / s) * (sb[k] / s);
		}
		for (int off = 16; off > 0; off /= 2)
			q += __shfl_xor_sync(0xffffffffu, q, off);
		const T alpha = blocks_sum(partial, 2), xnorm = s * sqrt(q);
		T beta = alpha, t = 0, scale = 1;
		if (xnorm > 0) {
			beta = -copysign(hypot(alpha, xnorm), alpha);
			t = (beta - alpha) / beta;
			scale = 1 / (alpha - beta);
		}
		if (lane == 0) {
			scalars[0] = scale;
			if (blockIdx.x == 0) {
				c.e[i] = beta;
				c.tau[i] = t;
			}
		}
	}
	__syncthreads();
	const T scale = scalars[0];
	for (int r = max(r0, i + 1) + tid; r < r1; r += THREADS)
		col[r] = r == i + 1 ? T(1) : col[r] * scale;
	__syncthreads();
	if (i == 0)
		return;
	// The block's shares of z1 (slots 3..3+i) and z2 (3+i..3+2i): a warp
	// per sum, lanes over the block's rows below row i.
	T *out = partial + 3 * MAXB;
	for (int s = warp; s < 2 * i; s += WARPS) {
		const T *m = s < i ? c.w + s * c.ldw : c.a + (s - i) * c.lda;
		T acc = 0;
		for (int r = max(r0, i + 1) + lane; r < r1; r += 32)
			acc += m[r] * col[r];
		acc = warp_reduce<T>(acc);
		if (lane == 0)
			out[(int64_t)s * MAXB + blockIdx.x] = acc;
	}
	grid.sync();
	for (int s = blockIdx.x * WARPS + warp; s < 2 * i; s += gridDim.x * WARPS) {
		const T z = blocks_sum(out, s);
		if (lane == 0)
			c.scratch[Z_OFFSET + s] = z;
	}
}

// After the SYMV (w = A(i+1:n, i+1:n) v in W(i+1:n, i)): w = tau (w -
// A(i+1:n, 0:i) z1 - W(i+1:n, 0:i) z2), then w += alpha v, alpha =
// -tau/2 w^T v.
template <typename T>
__global__ void __launch_bounds__(THREADS) latrd_after(Column<T> c)
{
	__shared__ T z[2 * MAXNB];
	cg::grid_group grid = cg::this_grid();
	const int tid = threadIdx.x, i = c.i, n = c.n;
	const T *v = c.a + i * c.lda;
	T *wi = c.w + i * c.ldw, *partial = c.scratch;
	for (int k = tid; k < 2 * i; k += THREADS)
		z[k] = c.scratch[Z_OFFSET + k];
	__syncthreads();
	const T t = c.tau[i];
	int r0, r1;
	my_rows(i + 1, n, &r0, &r1);
	T dot = 0;
	for (int r = r0 + tid; r < r1; r += THREADS) {
		T y = wi[r];
		for (int k = 0; k < i; k++)
			y -= c.a[r + k * c.lda] * z[k] + c.w[r + k * c.ldw] * z[i + k];
		y *= t;
		wi[r] = y;
		dot += y * v[r];
	}
	dot = block_reduce<THREADS, T>(dot);
	if (tid == 0)
		partial[blockIdx.x] = dot;
	grid.sync();
	__shared__ T alpha;
	if (tid < 32) {
		const T s = blocks_sum(partial, 0);
		if (tid == 0)
			alpha = T(-0.5) * t * s;
	}
	__syncthreads();
	for (int r = r0 + tid; r < r1; r += THREADS)
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

template <typename T>
static void cooperative(void (*kernel)(Column<T>), int blocks, Column<T> *c, cudaStream_t stream,
                        const char *name)
{
	void *args[] = {c};
	if (cudaLaunchCooperativeKernel((const void *)kernel, blocks, THREADS, args, 0, stream))
		hyla_fail(name);
}

// DLATRD's loop, 0-based: a is A(c, c) of the panel at column c (n rows
// and columns from there), w is W(c, 0).
template <typename T>
static void latrd(int n, int nb, T *a, int lda, T *e, T *tau, T *w, int ldw, cublasHandle_t h,
                  cudaStream_t stream)
{
	if (nb > MAXNB)
		hyla_fail("the tridiagonal panel wider than 128 columns");
	int device, sms;
	cudaGetDevice(&device);
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
	int limit = sms < MAXB ? sms : MAXB;
	T *scratch;
	if (cudaMallocAsync((void **)&scratch, sizeof(T) * SCRATCH_ELEMS, stream) != cudaSuccess)
		hyla_fail("the tridiagonal panel's scratch allocation");
	for (int i = 0; i < nb && i < n - 1; i++) {
		Column<T> c = {n, i, a, w, e, tau, scratch, lda, ldw};
		/* A block per THREADS rows (so a thread has a row), at most one per
		 * multiprocessor. */
		int rows = n - i, blocks = (rows + THREADS - 1) / THREADS;
		blocks = blocks < limit ? blocks : limit;
		cooperative(latrd_before<T>, blocks, &c, stream, "the cooperative launch of latrd_before");
		const int m = n - i - 1;
		T *v = a + i + 1 + (int64_t)i * lda;
		symv(h, m, v + lda, lda, v, w + i + 1 + (int64_t)i * ldw);
		rows = m;
		blocks = (rows + THREADS - 1) / THREADS;
		blocks = blocks < limit ? blocks : limit;
		cooperative(latrd_after<T>, blocks, &c, stream, "the cooperative launch of latrd_after");
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
