// CUDA kernels of classical Gram-Schmidt (seeds 001 and 003): one grid-wide
// step of a column loop (dot products with a tree reduction, the subtraction
// of projections, norms) and the rank-1 update of the seed's parallel order.
#include "kernels.h"
#include "launch.h"

#define MAXC HYLA_CGS_MAX_COLS
#define THREADS 256
#define WARPS (THREADS / 32)
#define CHUNK 64 // rows a block owns at a time; THREADS / CHUNK threads share a row
#define PARTS (THREADS / CHUNK)

// On the m rows of the column y and of X (m-by-ncols, ncols <= MAXC):
//  1. scale_col /= *scale_by (finishes the previous column q);
//  2. y -= X sub (sub: ncols coefficients);
//  3. op DOTS: out[c * ldo] = (X^T y)[c], and acc[c * ldo] += it when acc;
//     op NORM: *out = ||y||; op NONE: nothing.
// Blocks own chunks of CHUNK rows (grid stride), so a block's steps 1-3 see
// its own rows only. The blocks' sums are added by the last block to finish,
// in block order: results do not depend on timing. partial holds
// gridDim.x * MAXC sums; counter starts at zero and is left so.
enum { OP_NONE, OP_DOTS, OP_NORM };

template <typename T>
__global__ void __launch_bounds__(THREADS)
gs_step(int m, int ncols, T *x, int64_t ldx, T *y, T *scale_col, const T *scale_by,
        const T *sub, int op, T *out, int64_t ldo, T *acc, T *partial, unsigned *counter)
{
	__shared__ T coef[MAXC], sums[MAXC], ysh[CHUNK], red[PARTS][CHUNK];
	__shared__ T warp_norm[WARPS];
	__shared__ bool last;
	const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
	const int row = tid % CHUNK, part = tid / CHUNK;
	const int nout = op == OP_DOTS ? ncols : op == OP_NORM ? 1 : 0;
	for (int c = tid; c < MAXC; c += THREADS) {
		coef[c] = sub && c < ncols ? sub[c] : T(0);
		sums[c] = 0;
	}
	const T divisor = scale_col ? *scale_by : T(1);
	__syncthreads();

	for (int64_t r0 = (int64_t)blockIdx.x * CHUNK; r0 < m; r0 += (int64_t)gridDim.x * CHUNK) {
		const int rows = m - r0 < CHUNK ? (int)(m - r0) : CHUNK;
		if (scale_col && tid < rows)
			scale_col[r0 + tid] /= divisor;
		__syncthreads();
		if (sub) {
			T s = 0;
			if (row < rows)
				for (int c = part; c < ncols; c += PARTS)
					s += x[r0 + row + c * ldx] * coef[c];
			red[part][row] = s;
			__syncthreads();
			if (tid < rows) {
				T v = y[r0 + tid];
				for (int p = 0; p < PARTS; p++)
					v -= red[p][tid];
				y[r0 + tid] = v;
				ysh[tid] = v;
			}
		} else if (tid < rows) {
			ysh[tid] = y[r0 + tid];
		}
		__syncthreads();
		if (op == OP_DOTS) {
			for (int c = warp; c < ncols; c += WARPS) {
				const T *xc = x + r0 + c * ldx;
				T s = (lane < rows ? xc[lane] * ysh[lane] : T(0)) +
				      (lane + 32 < rows ? xc[lane + 32] * ysh[lane + 32] : T(0));
				for (int off = 16; off > 0; off /= 2)
					s += __shfl_down_sync(0xffffffffu, s, off);
				if (lane == 0)
					sums[c] += s;
			}
		} else if (op == OP_NORM && warp < CHUNK / 32) {
			T v = tid < rows ? ysh[tid] : T(0), s = v * v;
			for (int off = 16; off > 0; off /= 2)
				s += __shfl_down_sync(0xffffffffu, s, off);
			if (lane == 0)
				warp_norm[warp] = s;
		}
		__syncthreads();
		if (op == OP_NORM && tid == 0)
			for (int w = 0; w < CHUNK / 32; w++)
				sums[0] += warp_norm[w];
		__syncthreads();
	}
	if (nout == 0)
		return;

	for (int c = tid; c < nout; c += THREADS)
		partial[blockIdx.x * MAXC + c] = sums[c];
	__threadfence();
	__syncthreads();
	if (tid == 0)
		last = atomicAdd(counter, 1u) == gridDim.x - 1;
	__syncthreads();
	if (!last)
		return;
	for (int c = tid; c < nout; c += THREADS) {
		T s = 0;
		for (int b = 0; b < gridDim.x; b++)
			s += __ldcg(&partial[b * MAXC + c]);
		if (op == OP_NORM) {
			*out = sqrt(s);
		} else {
			out[c * ldo] = s;
			if (acc)
				acc[c * ldo] += s;
		}
	}
	if (tid == 0)
		*counter = 0;
}

// X (m-by-ncols) -= q r^T, r with stride ldr.
template <typename T>
__global__ void rank1(int m, int ncols, T *x, int64_t ldx, const T *q, const T *r, int64_t ldr)
{
	const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= m)
		return;
	const T qi = q[i];
	for (int c = blockIdx.y; c < ncols; c += gridDim.y)
		x[i + c * ldx] -= qi * r[c * ldr];
}

template <typename T>
struct gs_scratch {
	T *partial, *coef;
	unsigned *counter;
	explicit gs_scratch(T *s)
	    : partial(s), coef(s + HYLA_CGS_MAX_BLOCKS * MAXC),
	      counter((unsigned *)(s + HYLA_CGS_MAX_BLOCKS * MAXC + MAXC))
	{
	}
};

static int gs_blocks(int m)
{
	int blocks = (m + CHUNK - 1) / CHUNK;
	return blocks < HYLA_CGS_MAX_BLOCKS ? blocks : HYLA_CGS_MAX_BLOCKS;
}

template <typename T>
static void step(int m, int ncols, T *x, int64_t ldx, T *y, T *scale_col, const T *scale_by,
                 const T *sub, int op, T *out, int64_t ldo, T *acc, const gs_scratch<T> &s,
                 cudaStream_t stream)
{
	gs_step<T><<<gs_blocks(m), THREADS, 0, stream>>>(m, ncols, x, ldx, y, scale_col, scale_by, sub,
	                                                 op, out, ldo, acc, s.partial, s.counter);
}

// Columns of the m-by-w panel a orthonormalised one after the other, each
// against the earlier ones by `passes` classical projections (1: CGS, 2:
// CGS2), writing the coefficients into the upper triangle of t.
template <typename T>
static void panel(int m, int w, int passes, T *a, int64_t lda, T *t, int64_t ldt, T *scratch,
                  cudaStream_t stream)
{
	gs_scratch<T> s(scratch);
	cudaMemsetAsync(s.counter, 0, sizeof *s.counter, stream);
	for (int j = 0; j < w; j++) {
		T *v = a + (int64_t)j * lda, *tj = t + (int64_t)j * ldt, *tjj = tj + j;
		T *prev = j ? v - lda : NULL, *prev_norm = j ? tj - ldt + j - 1 : NULL;
		if (j == 0) {
			step<T>(m, 0, a, lda, v, NULL, NULL, NULL, OP_NORM, tjj, 1, NULL, s, stream);
		} else if (passes == 1) {
			step<T>(m, j, a, lda, v, prev, prev_norm, NULL, OP_DOTS, tj, 1, NULL, s, stream);
			step<T>(m, j, a, lda, v, NULL, NULL, tj, OP_NORM, tjj, 1, NULL, s, stream);
		} else {
			step<T>(m, j, a, lda, v, prev, prev_norm, NULL, OP_DOTS, tj, 1, NULL, s, stream);
			step<T>(m, j, a, lda, v, NULL, NULL, tj, OP_DOTS, s.coef, 1, tj, s, stream);
			step<T>(m, j, a, lda, v, NULL, NULL, s.coef, OP_NORM, tjj, 1, NULL, s, stream);
		}
	}
	T *lastcol = a + (int64_t)(w - 1) * lda;
	step<T>(m, 0, a, lda, lastcol, lastcol, t + (int64_t)(w - 1) * ldt + w - 1, NULL, OP_NONE,
	        NULL, 1, NULL, s, stream);
	hyla_check_launch("gs_step");
}

template <typename T>
static void normalise(int m, T *q, T *norm, T *scratch, cudaStream_t stream)
{
	gs_scratch<T> s(scratch);
	cudaMemsetAsync(s.counter, 0, sizeof *s.counter, stream);
	step<T>(m, 0, q, m, q, NULL, NULL, NULL, OP_NORM, norm, 1, NULL, s, stream);
	step<T>(m, 0, q, m, q, q, norm, NULL, OP_NONE, NULL, 1, NULL, s, stream);
	hyla_check_launch("gs_step");
}

template <typename T>
static void dots(int m, int ncols, const T *x, int64_t ldx, const T *y, T *out, int64_t ldo,
                 T *scratch, cudaStream_t stream)
{
	gs_scratch<T> s(scratch);
	cudaMemsetAsync(s.counter, 0, sizeof *s.counter, stream);
	step<T>(m, ncols, (T *)x, ldx, (T *)y, NULL, NULL, NULL, OP_DOTS, out, ldo, NULL, s, stream);
	hyla_check_launch("gs_step");
}

template <typename T>
static void rank1_update(int m, int ncols, T *x, int64_t ldx, const T *q, const T *r, int64_t ldr,
                         cudaStream_t stream)
{
	if (ncols == 0)
		return;
	dim3 grid((m + THREADS - 1) / THREADS, ncols < 64 ? ncols : 64);
	rank1<T><<<grid, THREADS, 0, stream>>>(m, ncols, x, ldx, q, r, ldr);
	hyla_check_launch("rank1");
}

#define HYLA_CGS_INSTANCES(S, T)                                                                   \
	extern "C" void hyla__cuda_cgs_panel_##S(int m, int w, int passes, T *a, int64_t lda,          \
	                                         T *t, int64_t ldt, T *scratch, cudaStream_t stream)   \
	{                                                                                              \
		panel(m, w, passes, a, lda, t, ldt, scratch, stream);                                      \
	}                                                                                              \
	extern "C" void hyla__cuda_cgs_normalise_##S(int m, T *q, T *norm, T *scratch,                 \
	                                             cudaStream_t stream)                              \
	{                                                                                              \
		normalise(m, q, norm, scratch, stream);                                                    \
	}                                                                                              \
	extern "C" void hyla__cuda_cgs_dots_##S(int m, int ncols, const T *x, int64_t ldx,             \
	                                        const T *y, T *out, int64_t ldo, T *scratch,           \
	                                        cudaStream_t stream)                                   \
	{                                                                                              \
		dots(m, ncols, x, ldx, y, out, ldo, scratch, stream);                                      \
	}                                                                                              \
	extern "C" void hyla__cuda_cgs_rank1_##S(int m, int ncols, T *x, int64_t ldx, const T *q,      \
	                                         const T *r, int64_t ldr, cudaStream_t stream)         \
	{                                                                                              \
		rank1_update(m, ncols, x, ldx, q, r, ldr, stream);                                         \
	}
HYLA_CGS_INSTANCES(d, double)
HYLA_CGS_INSTANCES(s, float)
