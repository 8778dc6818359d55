// CUDA kernels of the Hessenberg panel (the small steps of DLAHR2).
#include "kernels.h"
#include "launch.h"
#include <limits>

#define LARFG_THREADS 512

// LAPACK's dlarfg on (alpha, x): H (alpha; x) = (beta; 0), H = I - tau (1; v)(1; v)^T.
// x is overwritten with v, alpha with 1 (the reflector's unit element, as
// DLAHR2 needs it in place); beta is kept in *ei, tau in *tau, *t_jj, and
// -tau in *mtau. First, if restore is given, *restore = *ei (the previous
// column's beta goes back where its unit element was).
// Sum (max) over the block of one value per thread; every thread gets it.
template <typename T, bool MAX>
__device__ T block_reduce(T s, T *part)
{
	for (int off = 16; off > 0; off /= 2) {
		T o = __shfl_down_sync(0xffffffffu, s, off);
		s = MAX ? fmax(s, o) : s + o;
	}
	__syncthreads();
	if (threadIdx.x % 32 == 0)
		part[threadIdx.x / 32] = s;
	__syncthreads();
	T r = part[0];
	for (int w = 1; w < LARFG_THREADS / 32; w++)
		r = MAX ? fmax(r, part[w]) : r + part[w];
	return r;
}

// LAPACK's dlarfg on (alpha, x): H (alpha; x) = (beta; 0), H = I - tau (1; v)(1; v)^T.
// x is overwritten with v, alpha with 1 (the reflector's unit element, as
// DLAHR2 needs it in place); beta is kept in *ei, tau in *tau, *t_jj, and
// -tau in *mtau. First, if restore is given, *restore = *ei (the previous
// column's beta goes back where its unit element was). Huge or tiny columns
// get their norm scaled by the largest entry, so it neither overflows nor
// vanishes.
template <typename T>
__global__ void __launch_bounds__(LARFG_THREADS)
gehrd_larfg(int nx, T *alpha, T *x, T *tau, T *t_jj, T *mtau, T *ei, T *restore, T tiny)
{
	__shared__ T part[LARFG_THREADS / 32];
	__shared__ T scale_sh;
	if (restore && threadIdx.x == 0)
		*restore = *ei;
	T amax = 0, s = 0;
	for (int i = threadIdx.x; i < nx; i += LARFG_THREADS) {
		amax = fmax(amax, fabs(x[i]));
		s += x[i] * x[i];
	}
	amax = block_reduce<T, true>(amax, part);
	s = block_reduce<T, false>(s, part);
	/* The plain sum of squares unless it overflowed or lost digits to
	 * underflow (below tiny); then a second pass scaled by the largest entry. */
	T scale_norm = 1;
	if (amax > 0 && (!isfinite(s) || s < tiny)) {
		s = 0;
		for (int i = threadIdx.x; i < nx; i += LARFG_THREADS)
			s += (x[i] / amax) * (x[i] / amax);
		s = block_reduce<T, false>(s, part);
		scale_norm = amax;
	}
	if (threadIdx.x == 0) {
		T a = *alpha, t = 0, beta = a, scale = 1;
		if (amax > 0) {
			beta = -copysign(hypot(a, scale_norm * sqrt(s)), a);
			t = (beta - a) / beta;
			scale = 1 / (a - beta);
		}
		*tau = t;
		*t_jj = t;
		*mtau = -t;
		*ei = beta;
		*alpha = 1;
		scale_sh = scale;
	}
	__syncthreads();
	if (scale_sh != T(1))
		for (int i = threadIdx.x; i < nx; i += LARFG_THREADS)
			x[i] *= scale_sh;
}

// V (n by nb, leading dimension ldv) of the panel whose reflector j starts at
// row r0 + j and is stored below it in column j of a: zeros above, one on
// the unit position, the stored entries below.
template <typename T>
__global__ void gehrd_build_v(int n, int nb, int r0, const T *a, int64_t lda, T *v, int64_t ldv)
{
	int j = blockIdx.y;
	for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < n; row += gridDim.x * blockDim.x) {
		int unit = r0 + j;
		v[row + j * ldv] = row < unit ? T(0) : row == unit ? T(1) : a[row + j * lda];
	}
}

template <typename T>
static void larfg(int nx, T *alpha, T *x, T *tau, T *t_jj, T *mtau, T *ei, T *restore,
                  cudaStream_t stream)
{
	const T tiny = std::numeric_limits<T>::min() / std::numeric_limits<T>::epsilon();
	gehrd_larfg<T><<<1, LARFG_THREADS, 0, stream>>>(nx, alpha, x, tau, t_jj, mtau, ei, restore,
	                                                tiny);
	hyla_check_launch("gehrd_larfg");
}

template <typename T>
static void build_v(int n, int nb, int r0, const T *a, int64_t lda, T *v, int64_t ldv,
                    cudaStream_t stream)
{
	dim3 grid((n + 255) / 256 < 64 ? (n + 255) / 256 : 64, nb);
	gehrd_build_v<T><<<grid, 256, 0, stream>>>(n, nb, r0, a, lda, v, ldv);
	hyla_check_launch("gehrd_build_v");
}

extern "C" void hyla__cuda_gehrd_larfg_d(int nx, double *alpha, double *x, double *tau,
                                         double *t_jj, double *mtau, double *ei, double *restore,
                                         cudaStream_t stream)
{
	larfg(nx, alpha, x, tau, t_jj, mtau, ei, restore, stream);
}

extern "C" void hyla__cuda_gehrd_larfg_s(int nx, float *alpha, float *x, float *tau, float *t_jj,
                                         float *mtau, float *ei, float *restore,
                                         cudaStream_t stream)
{
	larfg(nx, alpha, x, tau, t_jj, mtau, ei, restore, stream);
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
