// The bidiagonal reduction's panel (LAPACK's DLABRD, m >= n) on the GPU:
// per column, the two GEMVs over the trailing matrix by cuBLAS around three
// kernels of ours that do the rest: the column brought up to date and its
// reflector, with p1 = A^T v and p2 = X^T v over the panel's earlier
// columns; Y's column finished, the row brought up to date and its
// reflector, with q1 = Y^T u and q2 = A u; X's column finished. Five
// launches per column in place of seventeen (coop_reflector.cuh: rows,
// sums, the reflectors).
#include <cooperative_groups.h>
#include "blas_calls.cuh"
#include "coop_reflector.cuh"
#include "kernels.h"
#include "launch.h"

namespace cg = cooperative_groups;

#define MAXNB HYLA_REDUCTION_GPU_MAX_NB
// Scratch (one allocation per panel): the blocks' partial sums (a norm's
// three slots, then at most 2 MAXNB + 1 products'), then p or q.
#define Z_OFFSET ((4 + 2 * MAXNB) * COOP_MAXB)
#define SCRATCH_ELEMS (Z_OFFSET + 2 * MAXNB + 1)

template <typename T>
struct Step {
	int m, n, i; // the panel's rows and columns from its corner; the step
	T *a, *x, *y, *d, *e, *tauq, *taup, *scratch;
	int64_t lda, ldx, ldy;
};

// The column: A(i:m, i) -= A(i:m, 0:i) Y(i, 0:i)^T + X(i:m, 0:i) A(0:i, i);
// its reflector (v(i) = 1 in place, beta to d(i), tauq(i)); p1 = A(i:m,
// 0:i)^T v and p2 = X(i:m, 0:i)^T v into the scratch.
template <typename T>
__global__ void __launch_bounds__(COOP_THREADS) labrd_column(Step<T> c)
{
	__shared__ T yrow[MAXNB], acol[MAXNB];
	cg::grid_group grid = cg::this_grid();
	const int tid = threadIdx.x, i = c.i;
	T *col = c.a + (int64_t)i * c.lda, *partial = c.scratch;
	for (int k = tid; k < i; k += COOP_THREADS) {
		yrow[k] = c.y[i + k * c.ldy];
		acol[k] = col[k];
	}
	__syncthreads();
	int r0, r1;
	coop_rows(i, c.m, &r0, &r1);
	for (int r = r0 + tid; r < r1; r += COOP_THREADS) {
		T v = col[r];
		for (int k = 0; k < i; k++)
			v -= c.a[r + k * c.lda] * yrow[k] + c.x[r + k * c.ldx] * acol[k];
		col[r] = v;
	}
	__syncthreads();
	coop_norm_parts(col, 1, max(r0, i + 1), r1, i >= r0 && i < r1 ? col[i] : T(0), partial);
	grid.sync();
	coop_reflect(partial, col, 1, max(r0, i), r1, i, &c.d[i], &c.tauq[i]);
	if (i == 0)
		return;
	auto ax = [&](int s, int r) { return s < i ? c.a[r + s * c.lda] : c.x[r + (s - i) * c.ldx]; };
	coop_dots(ax, col, 1, max(r0, i), r1, 2 * i, 3, partial);
	grid.sync();
	coop_sums_out(partial, 3, 2 * i, c.scratch + Z_OFFSET);
}

// After the first GEMV (A(i:m, i+1:n)^T v in Y(i+1:n, i)), for each later
// column j: Y(j, i) = tauq (that - Y(j, 0:i) p1 - A(0:i, j)^T p2); the row
// A(i, j) -= Y(j, 0:i+1) A(i, 0:i+1)^T + A(0:i, j)^T X(i, 0:i)^T; its
// reflector (u(i+1) = 1 in place, beta to e(i), taup(i)); q1 = Y(i+1:n,
// 0:i+1)^T u and q2 = A(0:i, i+1:n) u into the scratch.
template <typename T>
__global__ void __launch_bounds__(COOP_THREADS) labrd_row(Step<T> c)
{
	__shared__ T p[2 * MAXNB], arow[MAXNB + 1], xrow[MAXNB];
	cg::grid_group grid = cg::this_grid();
	const int tid = threadIdx.x, i = c.i, ni = c.n - i - 1;
	T *row = c.a + i + (int64_t)(i + 1) * c.lda, *partial = c.scratch; // A(i, i+1), stride lda
	T *yi = c.y + i + 1 + (int64_t)i * c.ldy;                          // Y(i+1, i)
	for (int k = tid; k < 2 * i; k += COOP_THREADS)
		p[k] = c.scratch[Z_OFFSET + k];
	for (int k = tid; k <= i; k += COOP_THREADS) {
		arow[k] = c.a[i + (int64_t)k * c.lda]; /* A(i, i) = 1: the reflector's */
		xrow[k] = k < i ? c.x[i + (int64_t)k * c.ldx] : T(0);
	}
	__syncthreads();
	const T tq = c.tauq[i];
	int r0, r1;
	coop_rows(0, ni, &r0, &r1);
	for (int r = r0 + tid; r < r1; r += COOP_THREADS) {
		const int64_t j = i + 1 + r;
		const T *yj = c.y + j, *aj = c.a + j * c.lda; // Y(j, k) = yj[k ldy], A(k, j) = aj[k]
		T y = yi[r];
		for (int k = 0; k < i; k++)
			y -= yj[k * c.ldy] * p[k] + aj[k] * p[i + k];
		y *= tq;
		yi[r] = y;
		T u = row[r * c.lda] - y * arow[i];
		for (int k = 0; k < i; k++)
			u -= yj[k * c.ldy] * arow[k] + aj[k] * xrow[k];
		row[r * c.lda] = u;
	}
	__syncthreads();
	coop_norm_parts(row, c.lda, max(r0, 1), r1, r0 == 0 && r1 > 0 ? row[0] : T(0), partial);
	grid.sync();
	coop_reflect(partial, row, c.lda, r0, r1, 0, &c.e[i], &c.taup[i]);
	auto ya = [&](int s, int r) {
		return s <= i ? c.y[i + 1 + r + (int64_t)s * c.ldy] : c.a[s - i - 1 + (int64_t)(i + 1 + r) * c.lda];
	};
	coop_dots(ya, row, c.lda, r0, r1, 2 * i + 1, 3, partial);
	grid.sync();
	coop_sums_out(partial, 3, 2 * i + 1, c.scratch + Z_OFFSET);
}

// After the second GEMV (A(i+1:m, i+1:n) u in X(i+1:m, i)): X(r, i) = taup
// (that - A(r, 0:i+1) q1 - X(r, 0:i) q2).
template <typename T>
__global__ void __launch_bounds__(COOP_THREADS) labrd_x(Step<T> c)
{
	__shared__ T q[2 * MAXNB + 1];
	const int i = c.i;
	for (int k = threadIdx.x; k < 2 * i + 1; k += COOP_THREADS)
		q[k] = c.scratch[Z_OFFSET + k];
	__syncthreads();
	const T tp = c.taup[i];
	T *xi = c.x + (int64_t)i * c.ldx;
	for (int r = i + 1 + blockIdx.x * COOP_THREADS + threadIdx.x; r < c.m;
	     r += gridDim.x * COOP_THREADS) {
		T x = xi[r];
		for (int k = 0; k <= i; k++)
			x -= c.a[r + (int64_t)k * c.lda] * q[k];
		for (int k = 0; k < i; k++)
			x -= c.x[r + (int64_t)k * c.ldx] * q[i + 1 + k];
		xi[r] = x * tp;
	}
}

// DLABRD's loop for m >= n, 0-based: a is A(c, c) of the panel at column c
// (m rows, n > nb columns from there), x and y are X(c, 0) and Y(c, 0).
template <typename T>
static void labrd(int m, int n, int nb, T *a, int lda, T *d, T *e, T *tauq, T *taup, T *x,
                  int ldx, T *y, int ldy, cublasHandle_t h, cudaStream_t stream)
{
	if (nb > MAXNB)
		hyla_fail("the bidiagonal panel wider than 128 columns");
	T *scratch;
	if (cudaMallocAsync((void **)&scratch, sizeof(T) * SCRATCH_ELEMS, stream) != cudaSuccess)
		hyla_fail("the bidiagonal panel's scratch allocation");
	const cublasOperation_t N = CUBLAS_OP_N, Tr = CUBLAS_OP_T;
	for (int i = 0; i < nb; i++) {
		Step<T> c = {m, n, i, a, x, y, d, e, tauq, taup, scratch, lda, ldx, ldy};
		const int mi = m - i, ni = n - i - 1;
		T *aii = a + i + (int64_t)i * lda, *row = aii + lda;
		coop_launch(labrd_column<T>, coop_blocks(mi), &c, stream, "the launch of labrd_column");
		gemv(h, Tr, mi, ni, T(1), row, lda, aii, 1, T(0), y + i + 1 + (int64_t)i * ldy);
		coop_launch(labrd_row<T>, coop_blocks(ni), &c, stream, "the launch of labrd_row");
		gemv(h, N, mi - 1, ni, T(1), row + 1, lda, row, lda, T(0), x + i + 1 + (int64_t)i * ldx);
		labrd_x<T><<<coop_blocks(mi - 1), COOP_THREADS, 0, stream>>>(c);
		hyla_check_launch("labrd_x");
	}
	cudaFreeAsync(scratch, stream);
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
