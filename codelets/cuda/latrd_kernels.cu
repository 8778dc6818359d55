// The tridiagonal reduction's panel (LAPACK's DLATRD, lower) on the GPU:
// one persistent cooperative kernel per panel, whose blocks meet at four
// grid-wide barriers per column i and never return to the host:
//   column   row i of A and W; A(i:n, i) -= A(i:n, 0:i) W(i, 0:i)^T +
//            W(i:n, 0:i) A(i, 0:i)^T; the parts of its norm and of
//            z1 = W(i+1:n, 0:i)^T v and z2 = A(i+1:n, 0:i)^T v (v a
//            multiple of the column below its unit element);
//   | barrier
//   reflect  the reflector of A(i+1:n, i) (v(i+1) = 1 in place, beta to
//            e(i), tau(i)); z1 and z2 summed;
//   | barrier
//   symv     the SYMV's pieces over the trailing matrix (symv_lower.cuh);
//   | barrier
//   w        w = tau (A v - A(i+1:n, 0:i) z1 - W(i+1:n, 0:i) z2), partial
//            sums of w^T v;
//   | barrier
//   finish   W(i+1:n, i) = w + alpha v, alpha = -tau/2 w^T v (every block
//            alike, so the next column reads W(i+1, i) = w(i+1) + alpha).
// Blocks own contiguous rows (coop_reflector.cuh); sums over blocks are
// added in block order, so results do not vary from run to run; data
// another block wrote during the kernel is read through L2 (__ldcg): the
// panel's columns and W (the SYMV reads the trailing matrix with
// streaming loads, its columns in the panel before they change).
#include <cooperative_groups.h>
#include "coop_reflector.cuh"
#include "symv_lower.cuh"
#include "kernels.h"
#include "launch.h"

namespace cg = cooperative_groups;

namespace {

#define MAXNB HYLA_REDUCTION_GPU_MAX_NB
#define SYMV_WARPS (COOP_MAXB * COOP_THREADS / 32)
// Scratch (one allocation per panel): the blocks' partial sums (the norm's
// three slots, z1's and z2's, w^T v's), z1 and z2, w (by rows of the
// panel), then the SYMV's pieces.
#define DOT_SLOT (3 + 2 * MAXNB)
#define Z_OFFSET ((DOT_SLOT + 1) * COOP_MAXB)
#define W_OFFSET (Z_OFFSET + 2 * MAXNB)

template <typename T>
struct Panel {
	int n, nb; // rows and columns from the panel's corner; its width
	T *a, *w, *e, *tau, *scratch;
	int64_t lda, ldw;
};

template <typename T>
__device__ T *w_of(const Panel<T> &p)
{
	return p.scratch + W_OFFSET;
}

// Row r of [W(:, 0:i) A(:, 0:i)], entry s: z1 and z2's terms.
template <typename T>
__device__ T z_entry(const Panel<T> &p, int i, int s, int r)
{
	return __ldcg(s < i ? &p.w[r + s * p.ldw] : &p.a[r + (s - i) * p.lda]);
}

// Column i brought up to date; the parts of its reflector's norm and of
// z1, z2 over x = A(i+2:n, i) (v = scale x there). alpha: the previous
// column's (W(i, i-1) = w(i) + alpha, v(i) being 1).
template <typename T>
__device__ void column_phase(const Panel<T> &p, int i, T alpha, T *arow, T *wrow)
{
	const int tid = threadIdx.x;
	T *col = p.a + i * p.lda;
	for (int k = tid; k < i; k += COOP_THREADS) {
		arow[k] = __ldcg(&p.a[i + k * p.lda]);
		wrow[k] = k < i - 1 ? __ldcg(&p.w[i + k * p.ldw]) : __ldcg(&w_of(p)[i]) + alpha;
	}
	__syncthreads();
	int r0, r1;
	coop_rows(i, p.n, &r0, &r1);
	auto part = [&](int r, int q) {
		T x = 0;
		for (int k = q; k < i; k += COOP_SLICES)
			x += __ldcg(&p.a[r + k * p.lda]) * wrow[k] + __ldcg(&p.w[r + k * p.ldw]) * arow[k];
		return x;
	};
	coop_row_sums<T>(r0, r1, part, [&](int r, T x) { col[r] -= x; });
	__syncthreads();
	coop_dots([&](int s, int r) { return z_entry(p, i, s, r); }, col, 1, max(r0, i + 2), r1, 2 * i,
	          3, p.scratch);
	coop_norm_parts(col, 1, max(r0, i + 2), r1, i + 1 >= r0 && i + 1 < r1 ? col[i + 1] : T(0),
	                p.scratch);
}

// The reflector; z1 and z2 from the blocks' parts (v(i+1) = 1).
template <typename T>
__device__ void reflect_phase(const Panel<T> &p, int i)
{
	T *col = p.a + i * p.lda;
	int r0, r1;
	coop_rows(i, p.n, &r0, &r1);
	const T scale = coop_reflect(p.scratch, col, 1, max(r0, i + 1), r1, i + 1, &p.e[i], &p.tau[i]);
	coop_sums_out(p.scratch, 3, 2 * i, scale, [&](int s) { return z_entry(p, i, s, i + 1); },
	              p.scratch + Z_OFFSET);
}

// w = tau (A v - A z1 - W z2) for the block's rows of the SYMV into the
// scratch; its part of w^T v.
template <typename T>
__device__ void w_phase(const Panel<T> &p, int i, const SymvLower<T> &s, const T *z)
{
	const T *v = s.x, t = __ldcg(&p.tau[i]);
	T *w = w_of(p) + i + 1;
	int r0, r1;
	coop_rows(0, s.m, &r0, &r1);
	auto part = [&](int r, int q) {
		T y = symv_row_part(s, r, q, COOP_SLICES);
		const T *arow = p.a + i + 1 + r, *wrow = p.w + i + 1 + r; // A(., 0), W(., 0)
		for (int k = q; k < i; k += COOP_SLICES)
			y -= __ldcg(&arow[k * p.lda]) * z[k] + __ldcg(&wrow[k * p.ldw]) * z[i + k];
		return y;
	};
	T dot = 0;
	coop_row_sums<T>(r0, r1, part, [&](int r, T y) {
		w[r] = y * t;
		dot += y * t * __ldcg(&v[r]);
	});
	dot = block_reduce<COOP_THREADS, T>(dot);
	if (threadIdx.x == 0)
		p.scratch[DOT_SLOT * COOP_MAXB + blockIdx.x] = dot;
}

// W(i+1:n, i) = w + alpha v for the block's rows; alpha returned.
template <typename T>
__device__ T finish_phase(const Panel<T> &p, int i, const SymvLower<T> &s)
{
	__shared__ T alpha;
	if (threadIdx.x < 32) {
		const T sum = coop_blocks_sum(p.scratch, DOT_SLOT);
		if (threadIdx.x == 0)
			alpha = T(-0.5) * __ldcg(&p.tau[i]) * sum;
	}
	__syncthreads();
	const T *w = w_of(p) + i + 1;
	T *wi = p.w + i * p.ldw + i + 1;
	int r0, r1;
	coop_rows(0, s.m, &r0, &r1);
	for (int r = r0 + threadIdx.x; r < r1; r += COOP_THREADS)
		wi[r] = w[r] + alpha * __ldcg(&s.x[r]);
	const T a = alpha;
	__syncthreads();
	return a;
}

template <typename T>
__global__ void __launch_bounds__(COOP_THREADS, 2) latrd_panel(Panel<T> p)
{
	__shared__ T arow[MAXNB], wrow[MAXNB], z[2 * MAXNB];
	cg::grid_group grid = cg::this_grid();
	T alpha = 0;
	for (int i = 0; i < p.nb && i < p.n - 1; i++) {
		const T *v = p.a + i * p.lda + i + 1;
		const SymvLower<T> s = symv_lower(v + p.lda, v, p.lda, p.n - i - 1,
		                                  p.scratch + W_OFFSET + p.n, SYMV_WARPS);
		column_phase(p, i, alpha, arow, wrow);
		grid.sync();
		reflect_phase(p, i);
		grid.sync();
		symv_tiles(s);
		grid.sync();
		for (int k = threadIdx.x; k < 2 * i; k += COOP_THREADS)
			z[k] = __ldcg(&p.scratch[Z_OFFSET + k]);
		__syncthreads();
		w_phase(p, i, s, z);
		grid.sync();
		alpha = finish_phase(p, i, s);
	}
}

} // namespace

// DLATRD's loop, 0-based: a is A(c, c) of the panel at column c (n rows
// and columns from there), w is W(c, 0). Blocks: a warp per SYMV unit of
// the first column, up to as many as fit on the GPU at once.
template <typename T>
static void latrd(int n, int nb, T *a, int lda, T *e, T *tau, T *w, int ldw, cudaStream_t stream)
{
	if (nb > MAXNB)
		hyla_fail("the tridiagonal panel wider than 128 columns");
	const int64_t rows = (n + SYMV_H - 1) / SYMV_H, units = rows * (rows + 1) / 2 * SYMV_UNITS;
	const int64_t wanted = (units + COOP_THREADS / 32 - 1) / (COOP_THREADS / 32);
	int blocks = coop_resident_blocks(latrd_panel<T>, "the tridiagonal panel's occupancy query");
	blocks = wanted < blocks ? (int)wanted : blocks;
	T *scratch;
	const size_t elems = W_OFFSET + n + symv_scratch_elems(n, SYMV_WARPS);
	if (cudaMallocAsync((void **)&scratch, sizeof(T) * elems, stream) != cudaSuccess)
		hyla_fail("the tridiagonal panel's scratch allocation");
	Panel<T> p = {n, nb, a, w, e, tau, scratch, lda, ldw};
	coop_launch(latrd_panel<T>, blocks, &p, stream, "the launch of latrd_panel");
	cudaFreeAsync(scratch, stream);
}

extern "C" void hyla__cuda_latrd_d(int n, int nb, double *a, int lda, double *e, double *tau,
                                   double *w, int ldw, cudaStream_t stream)
{
	latrd(n, nb, a, lda, e, tau, w, ldw, stream);
}

extern "C" void hyla__cuda_latrd_s(int n, int nb, float *a, int lda, float *e, float *tau,
                                   float *w, int ldw, cudaStream_t stream)
{
	latrd(n, nb, a, lda, e, tau, w, ldw, stream);
}
