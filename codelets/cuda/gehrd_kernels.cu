// CUDA column loop of the Hessenberg panel (LAPACK's DLAHR2 on the GPU).
//
// Per column j, two launches on the worker's stream and no host sync: one
// cooperative kernel whose blocks meet at grid-wide barriers,
//   rows     finish y_{j-1} (y -= Y s, y *= tau) and bring column j up to
//            date from the right (c -= Y u); partial sums of V^T c;
//   | barrier: every block adds the sums and forms w = T^T V^T c;
//   reflect  c -= V w (the update from the left), the norm of the part
//            below the diagonal;
//   | barrier: every block forms the reflector (LAPACK's dlarfg: beta, tau,
//            scale);
//   dots     scale v_j, partial sums of s = V^T v_j; the last block to
//            finish forms T(0:j, j) = -tau T s;
// then the cuBLAS gemv y_j = A v_j over the resident trailing matrix.
// Sums over blocks are added in block order, so results do not vary from
// run to run (every block adds them alike, so all hold the same values).
#include <cooperative_groups.h>
#include <cublas_v2.h>
#include <limits>
#include "kernels.h"
#include "block_reduce.cuh"
#include "launch.h"

namespace cg = cooperative_groups;

// A block works on a tile of TILE rows; SLICES threads share each row, each
// taking every SLICES-th column of the row's dot products (so many loads are
// in flight: the column loop is latency-bound, not bandwidth-bound).
#define THREADS 512
#define TILE 64
#define SLICES (THREADS / TILE)
#define WARPS (THREADS / 32)
#define MAX_NB HYLA_GEHRD_MAX_NB
#define MAX_BLOCKS HYLA_GEHRD_MAX_BLOCKS

// Scratch layout (elements): beta of the last reflector, its scale, the
// updated c[r0 + j] (alpha), a counter, s, then the blocks' partial sums:
// column dots (k of block b at k * MAX_BLOCKS + b), the norm's sum of
// squares and largest entry, the rescaled sum of squares.
enum { S_EI, S_SCALE, S_ALPHA, S_COUNT, S_S, S_DOTS = S_S + MAX_NB,
       S_NORM = S_DOTS + MAX_BLOCKS * MAX_NB, S_RESCALED = S_NORM + 2 * MAX_BLOCKS,
       S_END = S_RESCALED + MAX_BLOCKS };
static_assert(S_END <= HYLA_GEHRD_SCRATCH_ELEMS, "scratch too small");

// Entry (r, k) of the panel's V: zero above row r0 + k, one there, the
// stored reflector below.
template <typename T>
__device__ T v_at(const T *a, int64_t lda, int r0, int64_t r, int k)
{
	return r < r0 + k ? T(0) : r == r0 + k ? T(1) : a[r + k * lda];
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
		sum = warp_reduce(sum);
		if (lane == 0)
			acc[k] += sum;
	}
}

// The block's acc[0:j] to the partial sums.
template <typename T>
__device__ void store_dots(T *scratch, int j, const T *acc)
{
	__syncthreads();
	for (int k = threadIdx.x; k < j; k += THREADS)
		scratch[S_DOTS + k * MAX_BLOCKS + blockIdx.x] = acc[k];
}

// acc[0:j] = the blocks' partial sums added in block order (8 threads per
// column).
template <typename T>
__device__ void add_dots(const T *scratch, int j, T *acc)
{
	const T *part = scratch + S_DOTS;
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
}

// The sum (or max) of the blocks' values at part[0:gridDim.x], block order.
template <typename T, bool MAX>
__device__ T add_blocks(const T *part)
{
	__shared__ T total;
	if (threadIdx.x < 32) {
		T s = 0;
		for (int b = threadIdx.x; b < gridDim.x; b += 32) {
			T x = __ldcg(&part[b]);
			s = MAX ? fmax(s, x) : s + x;
		}
		s = warp_reduce<T, MAX>(s);
		if (threadIdx.x == 0)
			total = s;
	}
	__syncthreads();
	T r = total;
	__syncthreads();
	return r;
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

// Row tiles of the block: r0 + (blockIdx.x + i gridDim.x) TILE, i = 0, 1, ...
#define FOR_TILES(base, from)                                                                     \
	for (int64_t base = (from) + (int64_t)blockIdx.x * TILE; base < n;                            \
	     base += (int64_t)gridDim.x * TILE)

// Column j of the panel (j = nb: only y_{nb-1}'s finish). One cooperative
// launch; tiny: the smallest normal number over eps (dlarfg rescales the
// norm of columns below it, or not finite).
template <typename T>
__global__ void __launch_bounds__(THREADS)
gehrd_column(int n, int nb, int r0, int j, T *a, int64_t lda, T *y, int64_t ldy, T *t,
             int64_t ldt, T *tau, T *scratch, T tiny)
{
	__shared__ T u[MAX_NB], s[MAX_NB], acc[MAX_NB], w[MAX_NB], x_tile[TILE];
	__shared__ T tau_sh, scale_sh;
	cg::grid_group grid = cg::this_grid();
	const int rx = threadIdx.x % TILE, ks = threadIdx.x / TILE, jp = j - 1;
	const bool update = j < nb;
	T *c = a + j * lda;

	/* rows: y_{j-1} finished; column j updated from the right. */
	if (j > 0) {
		for (int k = threadIdx.x; k < jp; k += THREADS)
			s[k] = scratch[S_S + k];
		for (int k = threadIdx.x; update && k < j; k += THREADS) {
			u[k] = v_at(a, lda, r0, (int64_t)r0 + jp, k);
			acc[k] = 0;
		}
		__syncthreads();
		const T taup = tau[jp];
		T *yp = y + jp * ldy;
		FOR_TILES(base, r0) {
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
				x_tile[rx] = cr;
			}
			if (update) {
				__syncthreads();
				tile_dots(a, lda, r0, n, base, j, x_tile, acc);
				__syncthreads();
			}
		}
		if (!update)
			return;
		store_dots(scratch, j, acc);
		grid.sync();
		add_dots(scratch, j, acc);
		/* w[k] = sum_{l <= k} T(l, k) acc[l]: a warp per k. */
		const int lane = threadIdx.x % 32;
		for (int k = threadIdx.x / 32; k < j; k += WARPS) {
			T wk = 0;
			for (int l = lane; l <= k; l += 32)
				wk += t[l + k * ldt] * acc[l];
			wk = warp_reduce(wk);
			if (lane == 0)
				w[k] = wk;
		}
		__syncthreads();
	}

	/* reflect: c -= V w, then the norm below the diagonal. */
	const int64_t x0 = (int64_t)r0 + j + 1;
	T sq = 0, amax = 0;
	FOR_TILES(base, r0) {
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
			} else if (r == x0 - 1) {
				scratch[S_ALPHA] = cr;
			}
		}
	}
	sq = block_reduce<THREADS, T>(sq);
	amax = block_reduce<THREADS, T, true>(amax);
	if (threadIdx.x == 0) {
		scratch[S_NORM + blockIdx.x] = sq;
		scratch[S_NORM + MAX_BLOCKS + blockIdx.x] = amax;
	}
	grid.sync();
	sq = add_blocks<T, false>(scratch + S_NORM);
	amax = add_blocks<T, true>(scratch + S_NORM + MAX_BLOCKS);
	/* Huge or tiny columns: the norm of c / amax (all blocks agree). */
	T scale_norm = 1;
	if (amax > 0 && (!isfinite(sq) || sq < tiny)) {
		scale_norm = amax;
		T part = 0;
		FOR_TILES(base, r0) {
			const int64_t r = base + threadIdx.x;
			if (threadIdx.x < TILE && r >= x0 && r < n) {
				T x = __ldcg(&c[r]) / scale_norm;
				part += x * x;
			}
		}
		part = block_reduce<THREADS, T>(part);
		if (threadIdx.x == 0)
			scratch[S_RESCALED + blockIdx.x] = part;
		grid.sync();
		sq = add_blocks<T, false>(scratch + S_RESCALED);
	}
	if (threadIdx.x == 0) {
		T alpha = __ldcg(&scratch[S_ALPHA]), tj = 0, beta = alpha, scale = 1;
		if (amax > 0) {
			beta = -copysign(hypot(alpha, scale_norm * sqrt(sq)), alpha);
			tj = (beta - alpha) / beta;
			scale = 1 / (alpha - beta);
		}
		tau_sh = tj;
		scale_sh = scale;
		if (blockIdx.x == 0) {
			if (j > 0)
				a[r0 + j - 1 + (j - 1) * lda] = scratch[S_EI];
			scratch[S_EI] = beta;
			scratch[S_SCALE] = scale;
			tau[j] = tj;
			t[j + j * ldt] = tj;
		}
	}
	__syncthreads();

	/* dots: v_j scaled (its unit element set), s = V^T v_j. */
	const T scale = scale_sh;
	for (int k = threadIdx.x; k < j; k += THREADS)
		acc[k] = 0;
	FOR_TILES(base, r0) {
		const int64_t r = base + threadIdx.x;
		if (threadIdx.x < TILE) {
			T vr = 0;
			if (r == x0 - 1) {
				vr = 1;
				c[r] = vr;
			} else if (r >= x0 && r < n) {
				vr = c[r];
				if (scale != T(1)) {
					vr *= scale;
					c[r] = vr;
				}
			}
			x_tile[threadIdx.x] = vr;
		}
		if (j > 0) {
			__syncthreads();
			tile_dots(a, lda, r0, n, base, j, x_tile, acc);
			__syncthreads();
		}
	}
	if (j == 0)
		return;
	store_dots(scratch, j, acc);
	if (!last_block(reinterpret_cast<unsigned *>(scratch + S_COUNT)))
		return;
	add_dots(scratch, j, acc);
	for (int k = threadIdx.x; k < j; k += THREADS)
		scratch[S_S + k] = acc[k];
	/* T(l, j) = -tau sum_{m >= l} T(l, m) acc[m]: a warp per l. */
	const T mtau = -tau_sh;
	const int lane = threadIdx.x % 32;
	for (int l = threadIdx.x / 32; l < j; l += WARPS) {
		T sum = 0;
		for (int m = l + lane; m < j; m += 32)
			sum += t[l + m * ldt] * acc[m];
		sum = warp_reduce(sum);
		if (lane == 0)
			t[l + j * ldt] = mtau * sum;
	}
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
	T tiny = std::numeric_limits<T>::min() / std::numeric_limits<T>::epsilon();
	const int rows = n - r0;
	int device, sms, per_sm;
	cudaGetDevice(&device);
	cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
	cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, gehrd_column<T>, THREADS, 0);
	int64_t tiles = (rows + TILE - 1) / TILE;
	int blocks = (int)(tiles < MAX_BLOCKS ? tiles : MAX_BLOCKS);
	if (blocks > sms * per_sm)
		blocks = sms * per_sm;
	int64_t lda64 = lda, ldy64 = ldy, ldt64 = ldt;
	cudaMemsetAsync(scratch + S_COUNT, 0, sizeof *scratch, stream);
	for (int j = 0; j <= nb; j++) {
		void *args[] = {&n, &nb, &r0, &j, &a, &lda64, &y, &ldy64, &t, &ldt64, &tau, &scratch, &tiny};
		if (cudaLaunchCooperativeKernel((const void *)gehrd_column<T>, blocks, THREADS, args, 0,
		                                stream))
			hyla_fail("the cooperative launch of gehrd_column");
		if (j == nb)
			break;
		T *vj = a + r0 + j + (int64_t)j * lda;
		if (gemv(h, rows, rows - j, a + r0 + (int64_t)(j + 1) * lda, lda, vj, y + r0 + (int64_t)j * ldy)
		    != CUBLAS_STATUS_SUCCESS)
			hyla_fail("cuBLAS gemv of the Hessenberg panel");
	}
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
