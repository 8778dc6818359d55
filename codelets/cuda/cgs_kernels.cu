// CUDA kernels of classical Gram-Schmidt (seeds 001 and 003): one grid-wide
// step of a column loop (dot products with a tree reduction, the subtraction
// of projections, norms) and the rank-1 update of the seed's parallel order.
#include "kernels.h"
#include "launch.h"

#define MAXC HYLA_CGS_MAX_COLS
#define SLOTS HYLA_CGS_SLOTS // the dot products, then the norm
#define NORM_SLOT (SLOTS - 1)
#define THREADS 256
#define WARPS (THREADS / 32)
#define CHUNK 64 // rows a block owns at a time; THREADS / CHUNK threads share a row
#define PARTS (THREADS / CHUNK)

enum { OP_NONE, OP_DOTS, OP_NORM, OP_NORM_NEXT };

// One grid-wide step of a Gram-Schmidt column loop, on the m rows of the
// column y and of X (m-by-ncols, ncols <= MAXC):
//  1. scale_col /= *scale_by (finishes the previous column q);
//  2. y -= X sub (sub: ncols coefficients);
//  3. op DOTS: out[c * ldo] = (X^T y)[c], and acc[c * ldo] += it when acc;
//     op NORM: *norm = ||y||;
//     op NORM_NEXT: *norm = ||y||, and the next column z's coefficients
//     against [X, y / ||y||]: out[c] = X(:, c)^T z, out[ncols] = y^T z / ||y||
//     (y is finished by the next step's scale);
//     op NONE: nothing.
// Blocks own chunks of CHUNK rows (grid stride), so a block's steps 1-3 see
// its own rows only. The blocks' sums go to partial (slot-major); the last
// block to finish adds them, a warp per slot in a fixed order, so results do
// not depend on timing. counter starts at zero and is left so.
template <typename T>
__global__ void __launch_bounds__(THREADS)
gs_step(int m, int ncols, T *x, int64_t ldx, T *y, const T *z, T *scale_col, const T *scale_by,
        const T *sub, int op, T *out, int64_t ldo, T *acc, T *norm, T *partial, unsigned *counter)
{
	__shared__ T coef[MAXC], sums[SLOTS], ysh[CHUNK], zsh[CHUNK], red[PARTS][CHUNK];
	__shared__ T warp_norm[CHUNK / 32];
	__shared__ bool last;
	const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
	const int row = tid % CHUNK, part = tid / CHUNK;
	const bool with_norm = op == OP_NORM || op == OP_NORM_NEXT;
	// Dot products: of X's columns (and y's for NORM_NEXT) with y (or z).
	const int ndots = op == OP_DOTS ? ncols : op == OP_NORM_NEXT ? ncols + 1 : 0;
	for (int c = tid; c < SLOTS; c += THREADS) {
		if (c < MAXC)
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
#pragma unroll 8
				for (int c = part; c < ncols; c += PARTS)
					s += x[r0 + row + c * ldx] * coef[c];
			red[part][row] = s;
			__syncthreads();
		}
		if (tid < rows) {
			T v = y[r0 + tid];
			if (sub) {
				for (int p = 0; p < PARTS; p++)
					v -= red[p][tid];
				y[r0 + tid] = v;
			}
			ysh[tid] = v;
			if (op == OP_NORM_NEXT)
				zsh[tid] = z[r0 + tid];
		} else if (tid < CHUNK) {
			ysh[tid] = 0;
			zsh[tid] = 0;
		}
		__syncthreads();
		// A warp per column, two rows per lane; loads of several columns in
		// flight before their sums.
		const int nx = op == OP_NONE || op == OP_NORM ? 0 : ncols;
		const T d0 = op == OP_NORM_NEXT ? zsh[lane] : ysh[lane];
		const T d1 = op == OP_NORM_NEXT ? zsh[lane + 32] : ysh[lane + 32];
#pragma unroll 4
		for (int c = warp; c < nx; c += WARPS) {
			const T *xc = x + r0 + c * ldx;
			T a0 = lane < rows ? xc[lane] : T(0);
			T a1 = lane + 32 < rows ? xc[lane + 32] : T(0);
			T s = a0 * d0 + a1 * d1;
			for (int off = 16; off > 0; off /= 2)
				s += __shfl_down_sync(0xffffffffu, s, off);
			if (lane == 0)
				sums[c] += s;
		}
		if (op == OP_NORM_NEXT && warp == WARPS - 1) { // column ncols: y itself
			T s = ysh[lane] * zsh[lane] + ysh[lane + 32] * zsh[lane + 32];
			for (int off = 16; off > 0; off /= 2)
				s += __shfl_down_sync(0xffffffffu, s, off);
			if (lane == 0)
				sums[ncols] += s;
		}
		if (with_norm && warp < CHUNK / 32) {
			T s = ysh[tid] * ysh[tid];
			for (int off = 16; off > 0; off /= 2)
				s += __shfl_down_sync(0xffffffffu, s, off);
			if (lane == 0)
				warp_norm[warp] = s;
		}
		__syncthreads();
		if (with_norm && tid == 0)
			for (int w = 0; w < CHUNK / 32; w++)
				sums[NORM_SLOT] += warp_norm[w];
		__syncthreads();
	}
	const int nout = ndots + (with_norm ? 1 : 0);
	if (nout == 0)
		return;

	for (int o = tid; o < nout; o += THREADS) {
		int slot = o < ndots ? o : NORM_SLOT;
		partial[(int64_t)slot * HYLA_CGS_MAX_BLOCKS + blockIdx.x] = sums[slot];
	}
	__threadfence();
	__syncthreads();
	if (tid == 0)
		last = atomicAdd(counter, 1u) == gridDim.x - 1;
	__syncthreads();
	if (!last)
		return;
	__shared__ T total[SLOTS];
	for (int o = warp; o < nout; o += WARPS) {
		int slot = o < ndots ? o : NORM_SLOT;
		T s = 0;
		for (int b = lane; b < gridDim.x; b += 32)
			s += __ldcg(&partial[(int64_t)slot * HYLA_CGS_MAX_BLOCKS + b]);
		for (int off = 16; off > 0; off /= 2)
			s += __shfl_down_sync(0xffffffffu, s, off);
		if (lane == 0)
			total[slot] = s;
	}
	__syncthreads();
	const T ynorm = with_norm ? sqrt(total[NORM_SLOT]) : T(1);
	if (with_norm && tid == 0)
		*norm = ynorm;
	for (int c = tid; c < ndots; c += THREADS) {
		T d = total[c];
		if (op == OP_NORM_NEXT) {
			out[c * ldo] = c == ncols ? d / ynorm : d;
		} else {
			out[c * ldo] = d;
			if (acc)
				acc[c * ldo] += d;
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
	    : partial(s), coef(s + HYLA_CGS_MAX_BLOCKS * SLOTS),
	      counter((unsigned *)(s + HYLA_CGS_MAX_BLOCKS * SLOTS + MAXC))
	{
	}
};

static int gs_blocks(int m)
{
	int blocks = (m + CHUNK - 1) / CHUNK;
	return blocks < HYLA_CGS_MAX_BLOCKS ? blocks : HYLA_CGS_MAX_BLOCKS;
}

// A step's arguments beyond the matrix: what the kernel reads and writes.
template <typename T>
struct step_args {
	T *y;
	const T *z;
	T *scale_col;
	const T *scale_by, *sub;
	int op;
	T *out;
	int64_t ldo;
	T *acc, *norm;
};

template <typename T>
static void step(int m, int ncols, T *x, int64_t ldx, const step_args<T> &a,
                 const gs_scratch<T> &s, cudaStream_t stream)
{
	gs_step<T><<<gs_blocks(m), THREADS, 0, stream>>>(m, ncols, x, ldx, a.y, a.z, a.scale_col,
	                                                 a.scale_by, a.sub, a.op, a.out, a.ldo, a.acc,
	                                                 a.norm, s.partial, s.counter);
}

// Columns of the m-by-w panel a orthonormalised one after the other, each
// against the earlier ones by `passes` classical projections (1: CGS, 2:
// CGS2), writing the coefficients into the upper triangle of t. A column's
// norm and the next column's first coefficients share a launch: one launch
// per column for CGS, two for CGS2.
template <typename T>
static void panel(int m, int w, int passes, T *a, int64_t lda, T *t, int64_t ldt, T *scratch,
                  cudaStream_t stream)
{
	gs_scratch<T> s(scratch);
	cudaMemsetAsync(s.counter, 0, sizeof *s.counter, stream);
	for (int j = 0; j < w; j++) {
		T *v = a + (int64_t)j * lda, *tj = t + (int64_t)j * ldt;
		T *prev = j ? v - lda : NULL, *prev_norm = j ? tj - ldt + j - 1 : NULL;
		const T *sub = j ? tj : NULL;
		if (passes == 2 && j > 0) {
			step<T>(m, j, a, lda, {v, NULL, prev, prev_norm, tj, OP_DOTS, s.coef, 1, tj, NULL},
			        s, stream);
			prev = NULL;
			sub = s.coef;
		}
		// v's norm, and column j+1's coefficients against columns 0..j.
		int next = j + 1 < w;
		step<T>(m, j, a, lda, {v, v + lda, prev, prev_norm, sub, next ? OP_NORM_NEXT : OP_NORM,
		                       tj + ldt, 1, NULL, tj + j}, s, stream);
	}
	T *lastcol = a + (int64_t)(w - 1) * lda;
	step<T>(m, 0, a, lda, {lastcol, NULL, lastcol, t + (int64_t)(w - 1) * ldt + w - 1, NULL,
	                       OP_NONE, NULL, 1, NULL, NULL}, s, stream);
	hyla_check_launch("gs_step");
}

template <typename T>
static void normalise(int m, T *q, T *norm, T *scratch, cudaStream_t stream)
{
	gs_scratch<T> s(scratch);
	cudaMemsetAsync(s.counter, 0, sizeof *s.counter, stream);
	step<T>(m, 0, q, m, {q, NULL, NULL, NULL, NULL, OP_NORM, NULL, 1, NULL, norm}, s, stream);
	step<T>(m, 0, q, m, {q, NULL, q, norm, NULL, OP_NONE, NULL, 1, NULL, NULL}, s, stream);
	hyla_check_launch("gs_step");
}

template <typename T>
static void dots(int m, int ncols, const T *x, int64_t ldx, const T *y, T *out, int64_t ldo,
                 T *scratch, cudaStream_t stream)
{
	gs_scratch<T> s(scratch);
	cudaMemsetAsync(s.counter, 0, sizeof *s.counter, stream);
	step<T>(m, ncols, (T *)x, ldx, {(T *)y, NULL, NULL, NULL, NULL, OP_DOTS, out, ldo, NULL, NULL},
	        s, stream);
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
