// CUDA column loop of the Hessenberg panel (LAPACK's DLAHR2 on the GPU).
//
// Per column j, four launches on the worker's stream and no host sync:
//   rows(j)     finishes y_{j-1} (y -= Y s, y *= tau) and brings column j up
//               to date from the right (c -= Y u); partial sums of V^T c;
//               the last block forms w = T^T V^T c;
//   reflect(j)  c -= V w (the update from the left), then the norm of the
//               part below the diagonal; the last block forms the reflector
//               (LAPACK's dlarfg: beta, tau, scale);
//   dots(j)     scales the reflector v_j, partial sums of s = V^T v_j; the
//               last block forms T(0:j, j) = -tau T s;
//   cuBLAS gemv y_j = A v_j over the resident trailing matrix.
// "The last block" is the last to finish (an atomic counter); it adds the
// blocks' sums in block order, so results do not vary from run to run.
#include <cublas_v2.h>
#include <limits>
#include "kernels.h"
#include "launch.h"

// A block works on a tile of TILE rows; SLICES threads share each row, each
// taking every SLICES-th column of the row's dot products (so many loads are
// in flight: the column loop is latency-bound, not bandwidth-bound).
#define THREADS 512
#define TILE 64
#define SLICES (THREADS / TILE)
#define WARPS (THREADS / 32)
#define MAX_NB HYLA_GEHRD_MAX_NB
#define MAX_BLOCKS HYLA_GEHRD_MAX_BLOCKS

// Scratch layout (elements): beta of the last reflector, its scale, three
// counters, w, s, the blocks' partial sums (column k of block b at
// k * MAX_BLOCKS + b).
enum { S_EI, S_SCALE, S_COUNT, S_W = S_COUNT + 3, S_S = S_W + MAX_NB, S_PART = S_S + MAX_NB };
enum { C_ROWS, C_REFLECT, C_DOTS };
static_assert(S_PART + MAX_BLOCKS * MAX_NB <= HYLA_GEHRD_SCRATCH_ELEMS, "scratch too small");

template <typename T>
__device__ unsigned *counter(T *scratch, int which)
{
	return reinterpret_cast<unsigned *>(scratch + S_COUNT + which);
}

// Entry (r, k) of the panel's V: zero above row r0 + k, one there, the
// stored reflector below.
template <typename T>
__device__ T v_at(const T *a, int64_t lda, int r0, int64_t r, int k)
{
	return r < r0 + k ? T(0) : r == r0 + k ? T(1) : a[r + k * lda];
}

template <typename T>
__device__ T warp_sum(T s)
{
	for (int off = 16; off > 0; off /= 2)
		s += __shfl_down_sync(0xffffffffu, s, off);
	return s;
}

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

// The row's total over its SLICES threads, in the thread of slice 0 (the
// others get 0). Every thread of the block calls it.
template <typename T>
__device__ T slice_total(T v)
{
	__shared__ T buf[SLICES][TILE];
	const int rx = threadIdx.x % TILE, ks = threadIdx.x / TILE;
	buf[ks][rx] = v;
	__syncthreads();
	T s = 0;
	if (ks == 0)
		for (int q = 0; q < SLICES; q++)
			s += buf[q][rx];
	__syncthreads();
	return s;
}

// True in the block that finishes last; it resets the counter.
__device__ bool last_block(unsigned *count)
{
	__shared__ bool last;
	__threadfence();
	__syncthreads();
	if (threadIdx.x == 0) {
		last = atomicAdd(count, 1u) == gridDim.x - 1;
		if (last)
			*count = 0;
	}
	__syncthreads();
	return last;
}

// acc[k] += sum over the tile's rows base.. of V(r, k) x[r - base], k < j.
template <typename T>
__device__ void tile_dots(const T *a, int64_t lda, int r0, int n, int64_t base, int j,
                          const T *x, T *acc)
{
	const int lane = threadIdx.x % 32;
#pragma unroll 2
	for (int k = threadIdx.x / 32; k < j; k += WARPS) {
		T sum = 0;
#pragma unroll
		for (int i = lane; i < TILE; i += 32)
			if (base + i < n)
				sum += v_at(a, lda, r0, base + i, k) * x[i];
		sum = warp_sum(sum);
		if (lane == 0)
			acc[k] += sum;
	}
}

// Writes the block's acc[0:j] to the partial sums; in the last block,
// returns true with the totals in acc (8 threads per column, fixed order).
template <typename T>
__device__ bool total_dots(T *scratch, int which, int j, T *acc)
{
	__syncthreads();
	T *part = scratch + S_PART;
	if (threadIdx.x < j)
		part[threadIdx.x * MAX_BLOCKS + blockIdx.x] = acc[threadIdx.x];
	if (!last_block(counter(scratch, which)))
		return false;
	const int g = threadIdx.x % 8;
	for (int k0 = 0; k0 < j; k0 += THREADS / 8) {
		const int k = k0 + threadIdx.x / 8;
		T sum = 0;
		if (k < j)
#pragma unroll 4
			for (int b = g; b < gridDim.x; b += 8)
				sum += __ldcg(&part[k * MAX_BLOCKS + b]);
		for (int off = 4; off > 0; off /= 2)
			sum += __shfl_down_sync(0xffffffffu, sum, off, 8);
		if (g == 0 && k < j)
			acc[k] = sum;
	}
	__syncthreads();
	return true;
}

// Rows r0..n-1: finishes y_{j-1} = tau_{j-1} (y_{j-1} - Y(:, 0:j-1) s); if
// j < nb, updates column j from the right, c -= Y(:, 0:j) u with u row
// r0+j-1 of V, and forms w = T(0:j,0:j)^T V^T c.
template <typename T>
__global__ void __launch_bounds__(THREADS)
gehrd_rows(int n, int nb, int r0, int j, T *a, int64_t lda, T *y, int64_t ldy, const T *t,
           int64_t ldt, const T *tau, T *scratch)
{
	__shared__ T u[MAX_NB], s[MAX_NB], acc[MAX_NB], c_tile[TILE];
	const int jp = j - 1, rx = threadIdx.x % TILE, ks = threadIdx.x / TILE;
	const bool update = j < nb;
	for (int k = threadIdx.x; k < jp; k += THREADS)
		s[k] = scratch[S_S + k];
	for (int k = threadIdx.x; update && k < j; k += THREADS) {
		u[k] = v_at(a, lda, r0, (int64_t)r0 + jp, k);
		acc[k] = 0;
	}
	__syncthreads();
	const T taup = tau[jp];
	T *yp = y + jp * ldy, *c = a + j * lda;
	for (int64_t base = r0 + (int64_t)blockIdx.x * TILE; base < n;
	     base += (int64_t)gridDim.x * TILE) {
		const int64_t r = base + rx;
		T ys = 0, yu = 0;
		if (r < n)
#pragma unroll 4
			for (int k = ks; k < jp; k += SLICES) {
				T yk = y[r + k * ldy];
				ys += yk * s[k];
				yu += yk * u[k];
			}
		ys = slice_total(ys);
		if (update)
			yu = slice_total(yu);
		if (ks == 0) {
			T cr = 0;
			if (r < n) {
				T yr = taup * (yp[r] - ys);
				yp[r] = yr;
				if (update) {
					cr = c[r] - yu - yr * u[jp];
					c[r] = cr;
				}
			}
			c_tile[rx] = cr;
		}
		if (update) {
			__syncthreads();
			tile_dots(a, lda, r0, n, base, j, c_tile, acc);
			__syncthreads();
		}
	}
	if (!update || !total_dots(scratch, C_ROWS, j, acc))
		return;
	/* w[k] = sum_{l <= k} T(l, k) acc[l]: a warp per k. */
	const int lane = threadIdx.x % 32;
#pragma unroll 2
	for (int k = threadIdx.x / 32; k < j; k += WARPS) {
		T w = 0;
		for (int l = lane; l <= k; l += 32)
			w += t[l + k * ldt] * acc[l];
		w = warp_sum(w);
		if (lane == 0)
			scratch[S_W + k] = w;
	}
}

// Column j: c -= V w on rows r0.. (if j > 0), then LAPACK's dlarfg on
// (c[r0+j], c[r0+j+1:n]) without the scaling (dots applies it): c[r0+j] = 1,
// tau[j] = T(j,j) = tau, beta kept for the diagonal. The previous column's
// beta goes back to its place. Huge or tiny columns get their norm scaled by
// the largest entry, so it neither overflows nor vanishes below tiny.
template <typename T>
__global__ void __launch_bounds__(THREADS)
gehrd_reflect(int n, int r0, int j, T *a, int64_t lda, T *tau, T *t, int64_t ldt, T *scratch,
              T tiny)
{
	__shared__ T w[MAX_NB];
	__shared__ T norm_scale, sumsq;
	const int rx = threadIdx.x % TILE, ks = threadIdx.x / TILE;
	for (int k = threadIdx.x; k < j; k += THREADS)
		w[k] = scratch[S_W + k];
	__syncthreads();
	T *c = a + j * lda;
	const int64_t x0 = (int64_t)r0 + j + 1;
	T sq = 0, amax = 0;
	for (int64_t base = r0 + (int64_t)blockIdx.x * TILE; base < n;
	     base += (int64_t)gridDim.x * TILE) {
		const int64_t r = base + rx;
		T vw = 0;
		if (r < n)
#pragma unroll 4
			for (int k = ks; k < j; k += SLICES)
				vw += v_at(a, lda, r0, r, k) * w[k];
		if (j > 0)
			vw = slice_total(vw);
		if (ks == 0 && r < n) {
			T cr = c[r];
			if (j > 0) {
				cr -= vw;
				c[r] = cr;
			}
			if (r >= x0) {
				sq += cr * cr;
				amax = fmax(amax, fabs(cr));
			}
		}
	}
	sq = block_reduce<T, false>(sq);
	amax = block_reduce<T, true>(amax);
	T *part = scratch + S_PART;
	if (threadIdx.x == 0) {
		part[blockIdx.x] = sq;
		part[MAX_BLOCKS + blockIdx.x] = amax;
	}
	if (!last_block(counter(scratch, C_REFLECT)))
		return;
	if (threadIdx.x < 32) {
		T s = 0, m = 0;
		for (int b = threadIdx.x; b < gridDim.x; b += 32) {
			s += __ldcg(&part[b]);
			m = fmax(m, __ldcg(&part[MAX_BLOCKS + b]));
		}
		s = warp_sum(s);
		for (int off = 16; off > 0; off /= 2)
			m = fmax(m, __shfl_down_sync(0xffffffffu, m, off));
		if (threadIdx.x == 0) {
			sumsq = s;
			norm_scale = m;
		}
	}
	__syncthreads();
	T scale_norm = 1, s = sumsq;
	if (norm_scale > 0 && (!isfinite(s) || s < tiny)) {
		scale_norm = norm_scale;
		T part_sum = 0;
		for (int64_t r = x0 + threadIdx.x; r < n; r += THREADS) {
			T x = __ldcg(&c[r]) / scale_norm;
			part_sum += x * x;
		}
		s = block_reduce<T, false>(part_sum);
	}
	if (threadIdx.x == 0) {
		T alpha = __ldcg(&c[r0 + j]), tj = 0, beta = alpha, scale = 1;
		if (norm_scale > 0) {
			beta = -copysign(hypot(alpha, scale_norm * sqrt(s)), alpha);
			tj = (beta - alpha) / beta;
			scale = 1 / (alpha - beta);
		}
		if (j > 0)
			a[r0 + j - 1 + (j - 1) * lda] = scratch[S_EI];
		scratch[S_EI] = beta;
		scratch[S_SCALE] = scale;
		c[r0 + j] = 1;
		tau[j] = tj;
		t[j + j * ldt] = tj;
	}
}

// Scales v_j = c[r0+j:n] (below its unit element) and forms s = V^T v_j (the
// rows of V from r0+j), then T(0:j, j) = -tau_j T(0:j, 0:j) s.
template <typename T>
__global__ void __launch_bounds__(THREADS)
gehrd_dots(int n, int r0, int j, T *a, int64_t lda, const T *tau, T *t, int64_t ldt, T *scratch)
{
	__shared__ T acc[MAX_NB], v_tile[TILE];
	for (int k = threadIdx.x; k < j; k += THREADS)
		acc[k] = 0;
	const T scale = scratch[S_SCALE];
	T *c = a + j * lda;
	for (int64_t base = r0 + j + (int64_t)blockIdx.x * TILE; base < n;
	     base += (int64_t)gridDim.x * TILE) {
		const int64_t r = base + threadIdx.x;
		if (threadIdx.x < TILE) {
			T vr = 0;
			if (r < n) {
				vr = c[r];
				if (r > r0 + j && scale != T(1)) {
					vr *= scale;
					c[r] = vr;
				}
			}
			v_tile[threadIdx.x] = vr;
		}
		if (j > 0) {
			__syncthreads();
			tile_dots(a, lda, r0, n, base, j, v_tile, acc);
			__syncthreads();
		}
	}
	if (j == 0 || !total_dots(scratch, C_DOTS, j, acc))
		return;
	if (threadIdx.x < j)
		scratch[S_S + threadIdx.x] = acc[threadIdx.x];
	/* T(l, j) = -tau sum_{m >= l} T(l, m) acc[m]: a warp per l. */
	const T mtau = -tau[j];
	const int lane = threadIdx.x % 32;
#pragma unroll 2
	for (int l = threadIdx.x / 32; l < j; l += WARPS) {
		T sum = 0;
		for (int m = l + lane; m < j; m += 32)
			sum += t[l + m * ldt] * acc[m];
		sum = warp_sum(sum);
		if (lane == 0)
			t[l + j * ldt] = mtau * sum;
	}
}

static int blocks_for(int64_t rows)
{
	int64_t b = (rows + TILE - 1) / TILE;
	return b < 1 ? 1 : b > MAX_BLOCKS ? MAX_BLOCKS : (int)b;
}

static cublasStatus_t gemv(cublasHandle_t h, int m, int n, const double *a, int lda,
                           const double *x, double *y)
{
	const double one = 1, zero = 0;
	return cublasDgemv(h, CUBLAS_OP_N, m, n, &one, a, lda, x, 1, &zero, y, 1);
}

static cublasStatus_t gemv(cublasHandle_t h, int m, int n, const float *a, int lda,
                           const float *x, float *y)
{
	const float one = 1, zero = 0;
	return cublasSgemv(h, CUBLAS_OP_N, m, n, &one, a, lda, x, 1, &zero, y, 1);
}

template <typename T>
static void panel_columns(int n, int nb, int r0, T *a, int lda, T *tau, T *t, int ldt, T *y,
                          int ldy, T *scratch, cublasHandle_t h, cudaStream_t stream)
{
	const T tiny = std::numeric_limits<T>::min() / std::numeric_limits<T>::epsilon();
	const int rows = n - r0;
	cudaMemsetAsync(scratch + S_COUNT, 0, 3 * sizeof *scratch, stream);
	for (int j = 0; j < nb; j++) {
		if (j > 0)
			gehrd_rows<T><<<blocks_for(rows), THREADS, 0, stream>>>(n, nb, r0, j, a, lda, y, ldy, t,
			                                                       ldt, tau, scratch);
		gehrd_reflect<T><<<blocks_for(rows), THREADS, 0, stream>>>(n, r0, j, a, lda, tau, t, ldt,
		                                                          scratch, tiny);
		gehrd_dots<T><<<blocks_for(rows - j), THREADS, 0, stream>>>(n, r0, j, a, lda, tau, t, ldt,
		                                                           scratch);
		hyla_check_launch("gehrd panel column");
		T *vj = a + r0 + j + (int64_t)j * lda;
		if (gemv(h, rows, rows - j, a + r0 + (int64_t)(j + 1) * lda, lda, vj, y + r0 + (int64_t)j * ldy)
		    != CUBLAS_STATUS_SUCCESS)
			hyla_fail("cuBLAS gemv of the Hessenberg panel");
	}
	gehrd_rows<T><<<blocks_for(rows), THREADS, 0, stream>>>(n, nb, r0, nb, a, lda, y, ldy, t, ldt,
	                                                       tau, scratch);
	hyla_check_launch("gehrd_rows");
	cudaMemcpyAsync(a + r0 + nb - 1 + (int64_t)(nb - 1) * lda, scratch + S_EI, sizeof *scratch,
	                cudaMemcpyDeviceToDevice, stream);
}

// V (n by nb, leading dimension ldv) of the panel whose reflector j starts at
// row r0 + j and is stored below it in column j of a.
template <typename T>
__global__ void gehrd_build_v(int n, int r0, const T *a, int64_t lda, T *v, int64_t ldv)
{
	int j = blockIdx.y;
	for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < n; row += gridDim.x * blockDim.x)
		v[row + j * ldv] = v_at(a, lda, r0, row, j);
}

template <typename T>
static void build_v(int n, int nb, int r0, const T *a, int64_t lda, T *v, int64_t ldv,
                    cudaStream_t stream)
{
	dim3 grid((n + 255) / 256 < 64 ? (n + 255) / 256 : 64, nb);
	gehrd_build_v<T><<<grid, 256, 0, stream>>>(n, r0, a, lda, v, ldv);
	hyla_check_launch("gehrd_build_v");
}

extern "C" void hyla__cuda_gehrd_columns_d(int n, int nb, int r0, double *a, int lda, double *tau,
                                           double *t, int ldt, double *y, int ldy, double *scratch,
                                           cublasHandle_t h, cudaStream_t stream)
{
	panel_columns(n, nb, r0, a, lda, tau, t, ldt, y, ldy, scratch, h, stream);
}

extern "C" void hyla__cuda_gehrd_columns_s(int n, int nb, int r0, float *a, int lda, float *tau,
                                           float *t, int ldt, float *y, int ldy, float *scratch,
                                           cublasHandle_t h, cudaStream_t stream)
{
	panel_columns(n, nb, r0, a, lda, tau, t, ldt, y, ldy, scratch, h, stream);
}

extern "C" void hyla__cuda_gehrd_build_v_d(int n, int nb, int r0, const double *a, int64_t lda,
                                           double *v, int64_t ldv, cudaStream_t stream)
{
	build_v(n, nb, r0, a, lda, v, ldv, stream);
}

extern "C" void hyla__cuda_gehrd_build_v_s(int n, int nb, int r0, const float *a, int64_t lda,
                                           float *v, int64_t ldv, cudaStream_t stream)
{
	build_v(n, nb, r0, a, lda, v, ldv, stream);
}
