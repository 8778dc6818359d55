/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// Householder QR's panel without a barrier per column: CholeskyQR2 gives an
// orthonormal Q and R of the m-by-w panel A (G = A^T A = R1^T R1, Q1 = A
// R1^-1, again on Q1: Q = Q1 R2^-1, R = R2 R1; Fukaya, Nakatsukasa, Yanagisawa,
// Yamamoto 2014), then Householder reconstruction (Ballard, Demmel, Grigori,
// Jacquelin, Nguyen, Solomonik 2014) turns Q into LAPACK's reflectors: the
// LU factors without pivoting of Q - S, S = diag(+-1) chosen column by column
// against the pivot's sign (so every pivot is at least 1 in magnitude), are
// V (L) and U = -T V1^T S, with R's rows times S on and above the diagonal.
// Here the LU is of Q1's top block minus S R2, which gives L and U~ = U R2
// at once (the same signs: R2's diagonal is positive); then V below the top
// block is Q1 U~^-1 (one GEMM), T = -U S L^-T with U = U~ R2^-1, tau =
// diag(T). The same reflectors as LAPACK's DGEQR2 up to rounding (its beta
// = -sign(alpha) ||x|| is the pivot's sign choice) where every column has
// rows below its diagonal (m > w: a square panel's last reflector is the
// identity in LAPACK, and here a sign flip, so square panels are left to the
// column loop), and where no column's part below its diagonal is exactly
// zero (LAPACK's tau = 0 there; here tau = 2, R's row negated).
//
// CholeskyQR2 is accurate while the panel's condition is below about
// eps^-1/2; the call checks it on the GPU (each Cholesky pivot positive and
// finite, ||Q1^T Q1 - I||_F <= 1/2, so that the second pass factors a
// matrix of condition below sqrt(3)) and reads that one flag on the host
// before it changes the panel. Panels that fail (rank deficient, too
// ill-conditioned, overflowing or underflowing squares, NaN) are left as
// they were, for the column loop.
//
// The small w-by-w factorisations and triangular solves run in one block
// each, the matrix in registers, one barrier a column (see Tile); where the
// device's shared memory cannot hold a w-by-w operand, the column loop
// takes the panel.
#include <cfloat>
#include <type_traits>
#include <cublas_v2.h>
#include "block_reduce.cuh"
#include "kernels.h"
#include "launch.h"

// One block of THREADS threads holds a w-by-w matrix (w <= 128) in
// registers: thread (tx, ty) = (lane, warp) entries (tx + 32 i, ty + WARPS
// j), i < TR, j < TC (few threads, many entries each: a step's loads and
// scalars are made once for 64 multiply-adds). Each kernel is a sweep over
// k = 0..w-1 with one barrier a step, in blocks of 32 steps whose index Q is
// a constant of the code (so that row k is v[Q][.] in lane k mod 32): the
// warp holding column k + 1 publishes it to shared memory (two buffers by
// parity) after its step-k update; a warp takes row k from its own lane by
// shuffles. The columns and rows done keep what the sweep left there; their
// scalings (by the pivots) wait until the store, so that a step is loads, a
// rank-1 update and one warp's stores.
#define THREADS 256
#define WARPS (THREADS / 32)
#define TR (HYLA_CHOLQR_MAX_W / 32)    // rows a thread holds
#define TC (HYLA_CHOLQR_MAX_W / WARPS) // columns a thread holds
#define CPB (32 / WARPS)               // a warp's columns among 32 in a row

template <typename T>
struct Tile {
	T v[TR][TC];
	int tx, ty;
	__device__ Tile() : tx(threadIdx.x % 32), ty(threadIdx.x / 32) {}
	__device__ int row(int i) const { return tx + 32 * i; }
	__device__ int col(int j) const { return ty + WARPS * j; }
	// Whether row(i) > k, k = 32 Q + kl.
	template <int Q>
	__device__ bool below(int i, int kl) const
	{
		return i > Q || (i == Q && tx > kl);
	}
	// Column k (k / 32 = Q or Q + 1) in row slot i, by its holders: one of
	// the CPB + 1 slots from CPB Q on. (Spelled out: a loop of selects
	// becomes an indexed load, and v goes to local memory.)
	template <int Q>
	__device__ T in_col(int k, int i) const
	{
		static_assert(CPB == 4, "in_col picks one of five");
		constexpr int base = CPB * Q, next = base + CPB < TC ? base + CPB : base;
		const int d = k / WARPS - base;
		return d == 0   ? v[i][base]
		       : d == 1 ? v[i][base + 1]
		       : d == 2 ? v[i][base + 2]
		       : d == 3 ? v[i][base + 3]
		                : v[i][next];
	}
	// Column k (k / 32 = Q or Q + 1) into buf, by its holders.
	template <int Q>
	__device__ void publish_col(int k, T *buf) const
	{
		if (ty == k % WARPS)
#pragma unroll
			for (int i = 0; i < TR; i++)
				buf[row(i)] = in_col<Q>(k, i);
	}
	// The n-by-w matrix f(row, column), zero outside it.
	template <typename F>
	__device__ void load(int n, int w, F f)
	{
#pragma unroll
		for (int i = 0; i < TR; i++)
#pragma unroll
			for (int j = 0; j < TC; j++)
				v[i][j] = row(i) < n && col(j) < w ? f(row(i), col(j)) : T(0);
	}
	template <typename F>
	__device__ void store(int n, int w, F f) const
	{
#pragma unroll
		for (int i = 0; i < TR; i++)
#pragma unroll
			for (int j = 0; j < TC; j++)
				if (row(i) < n && col(j) < w)
					f(row(i), col(j), v[i][j]);
	}
	// v -= x y^T (x, y zero where v must keep its entries).
	__device__ void rank1(const T *x, const T *y)
	{
#pragma unroll
		for (int i = 0; i < TR; i++)
#pragma unroll
			for (int j = 0; j < TC; j++)
				v[i][j] -= x[i] * y[j];
	}
};

// step(Q, kl) for k = 32 Q + kl = 0..w-1 (kl: k's lane), Q a constant
// (std::integral_constant).
template <int Q = 0, typename F>
__device__ void sweep(int w, F step)
{
	if constexpr (Q < TR) {
		for (int kl = 0; kl < 32 && 32 * Q + kl < w; kl++)
			step(std::integral_constant<int, Q>(), kl);
		sweep<Q + 1>(w, step);
	}
}

// The w-by-w symmetric g becomes R of its Cholesky factorisation (upper,
// zero below). The first pass factors D^-1 g D^-1 and returns R D, D powers
// of 2 within a factor 2 of the columns' norms (exact scalings: the first pass is
// CholeskyQR of the panel with its columns equilibrated, so columns of very
// different norms keep their own relative accuracy, as with Householder).
// *ok: set to 0 if a pivot is not positive and finite, or (second) if
// ||g - I||_F > 1/2; else left (second) or set to 1. The block computes L
// = R^T by columns (whose holders are warps).
template <typename T>
__global__ void __launch_bounds__(THREADS) cholesky_upper(int w, T *g, int ldg, int *ok, bool second)
{
	__shared__ int scale[HYLA_CHOLQR_MAX_W]; // D's exponents
	__shared__ T cols[2][HYLA_CHOLQR_MAX_W], scaling[HYLA_CHOLQR_MAX_W]; // 1 / L's diagonal
	const int tid = threadIdx.x;
	for (int c = tid; c < HYLA_CHOLQR_MAX_W; c += THREADS) {
		const T p = c < w ? g[c + (int64_t)c * ldg] : T(0);
		scale[c] = !second && p > 0 && isfinite(p) ? ilogb(p) / 2 : 0;
	}
	__syncthreads();
	Tile<T> a;
	a.load(w, w, [&](int r, int c) { return scalbn(g[r + (int64_t)c * ldg], -scale[r] - scale[c]); });
	T dev = 0; // ||g - I||_F^2 (second)
#pragma unroll
	for (int i = 0; i < TR; i++)
#pragma unroll
		for (int j = 0; j < TC; j++) {
			const T d = a.v[i][j] - T(a.row(i) == a.col(j) && a.row(i) < w);
			dev += second ? d * d : T(0);
		}
	a.publish_col<0>(0, cols[0]);
	dev = block_reduce<THREADS, T>(dev); // synchronises
	bool good = !second || dev <= T(0.25);
	sweep(w, [&](auto qc, int kl) {
		constexpr int Q = decltype(qc)::value;
		const int k = 32 * Q + kl;
		const T *col = cols[k % 2], p = col[k], inv = rsqrt(p);
		good = good && p > 0 && isfinite(p);
		if (tid == 0)
			scaling[k] = inv;
		T x[TR], y[TC]; // L's column k after k: over the rows, over the columns
#pragma unroll
		for (int i = 0; i < TR; i++)
			x[i] = a.template below<Q>(i, kl) ? col[a.row(i)] * inv : T(0);
#pragma unroll
		for (int j = 0; j < TC; j++)
			y[j] = a.col(j) > k ? col[a.col(j)] * inv : T(0);
		a.rank1(x, y);
		if (k + 1 < w)
			a.template publish_col<Q>(k + 1, cols[(k + 1) % 2]);
		__syncthreads();
	});
	a.store(w, w, [&](int r, int c, T x) { // L(r, c) = R(c, r), column c by its pivot
		if (r >= c)
			g[c + (int64_t)r * ldg] = scalbn(x * scaling[c], scale[r]);
		if (r > c)
			g[r + (int64_t)c * ldg] = 0;
	});
	if (tid == 0)
		*ok = good && (!second || *ok);
}

// The upper triangle of the w-by-w src (leading dimension lds; transposed:
// the strictly lower, whose transpose is unit upper) into s (leading
// dimension w + 1) without its diagonal and zero elsewhere, for
// right_solve; its diagonal's inverses into dinv (1 for the unit one).
template <typename T>
__device__ void solve_operand(int w, const T *src, int64_t lds, bool transposed, T *s, T *dinv)
{
	const int ld = w + 1;
	for (int i = threadIdx.x; i < HYLA_CHOLQR_MAX_W * ld; i += THREADS) {
		const int r = i % ld, c = i / ld; // s(r, c) = R(r, c)
		const bool in = r < w && c < w && r < c;
		s[i] = in ? (transposed ? src[c + r * lds] : src[r + c * lds]) : T(0);
	}
	for (int k = threadIdx.x; k < w; k += THREADS)
		dinv[k] = transposed ? T(1) : 1 / src[k + k * lds];
}

// b = b R^-1 in the block's registers (zero outside its n rows and w
// columns), R from solve_operand in s and dinv, column by column: at step
// k column k, published by its warp, times R(k, k)^-1 is final, and the
// columns after it lose its share; the columns take their scaling at the
// end.
template <typename T>
__device__ void right_solve(Tile<T> &b, int w, const T *s, const T *dinv,
                            T (*cols)[HYLA_CHOLQR_MAX_W])
{
	const int ld = w + 1;
	__syncthreads(); // s and dinv written, the buffers' previous readers done
	b.template publish_col<0>(0, cols[0]);
	__syncthreads();
	sweep(w, [&](auto qc, int kl) {
		constexpr int Q = decltype(qc)::value;
		const int k = 32 * Q + kl;
		const T *col = cols[k % 2], d = dinv[k];
		T x[TR], y[TC];
#pragma unroll
		for (int i = 0; i < TR; i++)
			x[i] = col[b.row(i)] * d;
#pragma unroll
		for (int j = 0; j < TC; j++)
			y[j] = s[k + b.col(j) * ld]; // zero up to column k
		b.rank1(x, y);
		if (k + 1 < w)
			b.template publish_col<Q>(k + 1, cols[(k + 1) % 2]);
		__syncthreads();
	});
#pragma unroll
	for (int j = 0; j < TC; j++) {
		const T d = b.col(j) < w ? dinv[b.col(j)] : T(0);
#pragma unroll
		for (int i = 0; i < TR; i++)
			b.v[i][j] *= d;
	}
}

// LU without pivoting of the top w-by-w block of q minus S R2 (r2 upper,
// leading dimension w): at column k, s_k = -sign(pivot) and row k minus s_k
// times R2's row k, so the pivot is at least R2(k, k) in magnitude. L
// (strictly lower) into a's top block, U~ (upper, zero below) into u, S
// into sign. Row k's change by S R2 and column k's scaling by the pivot
// are made in the update, and to the matrix only at the end.
template <typename T>
__global__ void __launch_bounds__(THREADS)
modified_lu(int w, const T *q, int ldq, const T *r2, T *a, int lda, T *u, T *sign)
{
	extern __shared__ __align__(16) unsigned char smem[];
	T *s = reinterpret_cast<T *>(smem); // R2, zero below, leading dimension w + 1
	__shared__ T cols[2][HYLA_CHOLQR_MAX_W], piv[HYLA_CHOLQR_MAX_W], sg[HYLA_CHOLQR_MAX_W];
	const int ld = w + 1;
	for (int i = threadIdx.x; i < HYLA_CHOLQR_MAX_W * ld; i += THREADS) {
		const int r = i % ld, c = i / ld;
		s[i] = r < w && c < w && r <= c ? r2[r + c * w] : T(0);
	}
	Tile<T> b;
	b.load(w, w, [&](int r, int c) { return q[r + (int64_t)c * ldq]; });
	b.publish_col<0>(0, cols[0]);
	__syncthreads();
	sweep(w, [&](auto qc, int kl) {
		constexpr int Q = decltype(qc)::value;
		const int k = 32 * Q + kl;
		const T *col = cols[k % 2], p = col[k];
		const T sk = -copysign(T(1), p), pk = p - sk * s[k + k * ld], inv = 1 / pk;
		if (threadIdx.x == 0)
			piv[k] = pk, sg[k] = sk;
		T x[TR], y[TC]; // L's column k, U~'s row k, after k
#pragma unroll
		for (int i = 0; i < TR; i++)
			x[i] = b.template below<Q>(i, kl) ? col[b.row(i)] * inv : T(0);
#pragma unroll
		for (int j = 0; j < TC; j++) { // row k from lane k mod 32
			const T r = __shfl_sync(0xffffffffu, b.v[Q][j], kl);
			y[j] = b.col(j) > k ? r - sk * s[k + b.col(j) * ld] : T(0);
		}
		b.rank1(x, y);
		if (k + 1 < w)
			b.template publish_col<Q>(k + 1, cols[(k + 1) % 2]);
		__syncthreads();
	});
	b.store(w, w, [&](int r, int c, T x) {
		u[r + c * w] = r <= c ? x - sg[r] * s[r + c * ld] : T(0);
		if (r > c)
			a[r + (int64_t)c * lda] = x / piv[c];
	});
	for (int k = threadIdx.x; k < w; k += THREADS)
		sign[k] = sg[k];
}

// q = a R^-1 (m-by-w, r upper w-by-w), a block for every 32 TR rows.
template <typename T>
__global__ void __launch_bounds__(THREADS)
solve_rows(int m, int w, const T *a, int lda, const T *r, T *q, int ldq)
{
	extern __shared__ __align__(16) unsigned char smem[];
	T *s = reinterpret_cast<T *>(smem); // R without its diagonal
	__shared__ T cols[2][HYLA_CHOLQR_MAX_W], dinv[HYLA_CHOLQR_MAX_W];
	const int r0 = blockIdx.x * 32 * TR, n = min(32 * TR, m - r0);
	solve_operand(w, r, w, false, s, dinv);
	Tile<T> b;
	b.load(n, w, [&](int i, int c) { return a[r0 + i + (int64_t)c * lda]; });
	right_solve(b, w, s, dinv, cols);
	b.store(n, w, [&](int i, int c, T x) { q[r0 + i + (int64_t)c * ldq] = x; });
}

// After modified_lu, three blocks: 0, U~^-1 (upper, zero below) into uinv;
// 1, T = -U S L^-T into t and its diagonal into tau (U = U~ R2^-1); 2, S R2
// R1 on and above the diagonal of a's top block.
template <typename T>
__global__ void __launch_bounds__(THREADS)
reconstruct(int w, const T *u, const T *r1, const T *r2, const T *sign, T *a, int lda, T *uinv, T *t,
            int ldt, T *tau)
{
	extern __shared__ __align__(16) unsigned char smem[];
	T *s = reinterpret_cast<T *>(smem); // the solves' R without its diagonal
	__shared__ T cols[2][HYLA_CHOLQR_MAX_W], dinv[HYLA_CHOLQR_MAX_W];
	if (blockIdx.x == 2) {
		for (int c = threadIdx.x / 32; c < w; c += WARPS)
			for (int r = threadIdx.x % 32; r <= c; r += 32) {
				T x = 0;
				for (int k = r; k <= c; k++)
					x += r2[r + k * w] * r1[k + c * w];
				a[r + (int64_t)c * lda] = sign[r] * x;
			}
		return;
	}
	Tile<T> b;
	if (blockIdx.x == 0) {
		solve_operand(w, u, w, false, s, dinv);
		b.load(w, w, [](int r, int c) { return T(r == c); });
		right_solve(b, w, s, dinv, cols);
		b.store(w, w, [&](int r, int c, T x) { uinv[r + c * w] = r <= c ? x : T(0); });
		return;
	}
	solve_operand(w, r2, w, false, s, dinv);
	b.load(w, w, [&](int r, int c) { return u[r + c * w]; });
	right_solve(b, w, s, dinv, cols); // U
#pragma unroll
	for (int j = 0; j < TC; j++) {
		const T f = b.col(j) < w ? -sign[b.col(j)] : T(0);
#pragma unroll
		for (int i = 0; i < TR; i++)
			b.v[i][j] *= f;
	}
	__syncthreads(); // s's readers done
	solve_operand(w, a, lda, true, s, dinv); // L^T
	right_solve(b, w, s, dinv, cols);
	b.store(w, w, [&](int r, int c, T x) {
		t[r + (int64_t)c * ldt] = r <= c ? x : T(0);
		if (r == c)
			tau[r] = x;
	});
}

static cublasStatus_t gemm_tn(cublasHandle_t h, int w, int m, const double *a, int lda, double *g)
{
	const double one = 1, zero = 0;
	return cublasDgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, w, w, m, &one, a, lda, a, lda, &zero, g, w);
}

static cublasStatus_t gemm_tn(cublasHandle_t h, int w, int m, const float *a, int lda, float *g)
{
	const float one = 1, zero = 0;
	return cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, w, w, m, &one, a, lda, a, lda, &zero, g, w);
}

// c = a b, a m-by-w, b w-by-w.
static cublasStatus_t gemm_nn(cublasHandle_t h, int m, int w, const double *a, int lda,
                              const double *b, double *c, int ldc)
{
	const double one = 1, zero = 0;
	return cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, w, w, &one, a, lda, b, w, &zero, c, ldc);
}

static cublasStatus_t gemm_nn(cublasHandle_t h, int m, int w, const float *a, int lda,
                              const float *b, float *c, int ldc)
{
	const float one = 1, zero = 0;
	return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, w, w, &one, a, lda, b, w, &zero, c, ldc);
}

static void blas_ok(cublasStatus_t status, const char *what)
{
	if (status != CUBLAS_STATUS_SUCCESS)
		hyla_fail(what);
}

// Whether the device gives each kernel with a w-by-w operand smem bytes of
// shared memory beside its own (H100: 227 KB a block; some GPUs 99 KB,
// less than double's 128 columns need). Their limit is set to the most the
// device allows: the same every call, whichever worker sharing the GPU
// makes it.
template <typename T>
static bool shared_room(size_t smem)
{
	int device, most;
	if (cudaGetDevice(&device) != cudaSuccess ||
	    cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess)
		hyla_fail("the GPU's shared memory query");
	const void *kernels[] = {(const void *)modified_lu<T>, (const void *)solve_rows<T>,
	                         (const void *)reconstruct<T>};
	for (const void *kernel : kernels) {
		cudaFuncAttributes attr;
		if (cudaFuncGetAttributes(&attr, kernel) != cudaSuccess)
			hyla_fail("a CholeskyQR kernel's attributes");
		const int room = most - (int)attr.sharedSizeBytes;
		if (room < 0 || (size_t)room < smem)
			return false;
		if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, room) !=
		    cudaSuccess)
			hyla_fail("the CholeskyQR kernels' shared memory size");
	}
	return true;
}

template <typename T>
static bool cholqr_panel(int m, int w, T *a, int lda, T *tau, T *t, int ldt, cublasHandle_t h,
                         cudaStream_t stream)
{
	if (w > HYLA_CHOLQR_MAX_W || m <= w || w < 1)
		return false;
	const size_t mw = (size_t)m * w, ww = (size_t)w * w;
	const size_t smem = sizeof(T) * (size_t)HYLA_CHOLQR_MAX_W * (w + 1);
	if (!shared_room<T>(smem))
		return false;
	T *q = static_cast<T *>(hyla__cuda_scratch(sizeof(T) * (mw + 4 * ww + w) + sizeof(int), stream));
	T *r1 = q + mw, *r2 = r1 + ww, *u = r2 + ww, *uinv = u + ww, *sign = uinv + ww;
	int *ok = reinterpret_cast<int *>(sign + w);
	static_assert(sizeof(T) >= sizeof(int), "the flag's alignment");
	// CholeskyQR on A into q, its R into r1; then on q, its R into r2.
	blas_ok(gemm_tn(h, w, m, a, lda, r1), "cuBLAS gemm of CholeskyQR");
	cholesky_upper<T><<<1, THREADS, 0, stream>>>(w, r1, w, ok, false);
	hyla_check_launch("cholesky_upper");
	solve_rows<T><<<(m + 32 * TR - 1) / (32 * TR), THREADS, smem, stream>>>(m, w, a, lda, r1, q, m);
	hyla_check_launch("solve_rows");
	blas_ok(gemm_tn(h, w, m, q, m, r2), "cuBLAS gemm of CholeskyQR");
	cholesky_upper<T><<<1, THREADS, 0, stream>>>(w, r2, w, ok, true);
	hyla_check_launch("cholesky_upper");
	int good = 0; // pageable: the copy returns once the stream got there
	if (cudaMemcpyAsync(&good, ok, sizeof good, cudaMemcpyDeviceToHost, stream) != cudaSuccess ||
	    cudaStreamSynchronize(stream) != cudaSuccess)
		hyla_fail("reading CholeskyQR's check");
	if (good) {
		modified_lu<T><<<1, THREADS, smem, stream>>>(w, q, m, r2, a, lda, u, sign);
		hyla_check_launch("modified_lu");
		reconstruct<T><<<3, THREADS, smem, stream>>>(w, u, r1, r2, sign, a, lda, uinv, t, ldt, tau);
		hyla_check_launch("reconstruct");
		// V below the top block: q's rows there times U~^-1
		blas_ok(gemm_nn(h, m - w, w, q + w, m, uinv, a + w, lda), "cuBLAS gemm of the reconstruction");
	}
	hyla__cuda_scratch_free(q, stream);
	return good;
}

extern "C" int hyla__cuda_cholqr_panel_d(int m, int w, double *a, int lda, double *tau, double *t,
                                         int ldt, cublasHandle_t h, cudaStream_t stream)
{
	return cholqr_panel(m, w, a, lda, tau, t, ldt, h, stream);
}

extern "C" int hyla__cuda_cholqr_panel_s(int m, int w, float *a, int lda, float *tau, float *t,
                                         int ldt, cublasHandle_t h, cudaStream_t stream)
{
	return cholqr_panel(m, w, a, lda, tau, t, ldt, h, stream);
}
