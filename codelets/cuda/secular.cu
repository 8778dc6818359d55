/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
// The roots of a divide and conquer merge's secular equation on the GPU
// (codelets/secular.c's dc_roots_gpu):
//   f(lambda) = 1/rho + sum_i w_i^2 / (d_i - lambda) = 0,
// d ascending and distinct, rho > 0: root j lies in (d_j, d_j+1), the last in
// (d_k-1, d_k-1 + rho |w|^2]. Each root is found as an offset tau from the
// nearer end of its interval (the pole it is closer to: the differences
// d_i - lambda_j = (d_i - d_o) - tau keep their relative accuracy, as in
// LAPACK's dlaed4) by the middle way's steps kept inside a bracket (a step
// that would leave it bisects instead) until a step moves tau by less than
// its last bits; each step is a sum over the poles split over a warp,
// thousands of roots at once. Then Loewner's factors of the share's roots for each
// pole, as the host's task forms them.
#include "kernels.h"
#include "launch.h"

namespace {

constexpr int WARP = 32;
constexpr int MAX_STEPS = 256;

template <typename T> __device__ T epsilon();
template <> __device__ double epsilon<double>() { return 0x1p-52; }
template <> __device__ float epsilon<float>() { return 0x1p-23f; }

// The warp's sum, the same in every lane (the lanes' branches must agree).
template <typename T> __device__ T warp_sum(T s)
{
	for (int off = WARP / 2; off > 0; off /= 2)
		s += __shfl_xor_sync(0xffffffffu, s, off);
	return __shfl_sync(0xffffffffu, s, 0);
}

// The sums of f's terms at d_o + t over the poles left of root j's interval
// (i <= j) and right of it, and of their derivatives.
template <typename T>
struct Sides {
	T left, right, dleft, dright;
};

// f at d_o + t (with sides: its terms' sums by side), every lane of the
// warp taking every 32nd pole.
template <typename T>
__device__ T secular(int k, const T *d, const T *w, T rhoinv, int o, T t, int j = 0,
                     Sides<T> *sides = nullptr)
{
	T l = 0, r = 0, dl = 0, dr = 0, dorigin = d[o];
	for (int i = threadIdx.x % WARP; i < k; i += WARP) {
		T q = w[i] / ((d[i] - dorigin) - t);
		if (i <= j)
			l += w[i] * q, dl += q * q;
		else
			r += w[i] * q, dr += q * q;
	}
	if (!sides)
		return rhoinv + warp_sum(l + r);
	*sides = {warp_sum(l), warp_sum(r), warp_sum(dl), warp_sum(dr)};
	return rhoinv + sides->left + sides->right;
}

// The step from t to the root of Li's middle way (Li, "Solving secular
// equations stably and efficiently", 1993; LAPACK's dlaed4): f near t as
// c + s / (dl - eta) + S / (dr - eta), each side's sum a pole at the
// interval's end on that side (dl, dr: the distances d_j - lambda, d_j+1 -
// lambda) with the side's value and slope at t; the last root (right:
// false) has no right pole.
template <typename T>
__device__ T middle_step(T f, const Sides<T> &p, T dl, T dr, bool right)
{
	T s = p.dleft * dl * dl, c = f - p.dleft * dl;
	if (!right)
		return c != 0 ? dl + s / c : -f / p.dleft;
	T S = p.dright * dr * dr;
	c -= p.dright * dr;
	T a = c * (dl + dr) + s + S, b = dl * dr * f, disc = sqrt(fabs(a * a - 4 * b * c));
	return c == 0 ? b / a : a <= 0 ? (a - disc) / (2 * c) : 2 * b / (a + disc);
}

// Roots [j0, j1) of share (of shares), a warp each: root, origin, tau.
template <typename T>
__global__ void roots(const int *kp, const T *rhop, const T *d, const T *w, int share, int shares,
                      T *root, T *origin, T *tau)
{
	int k = *kp, j0 = int(int64_t(share) * k / shares), j1 = int(int64_t(share + 1) * k / shares);
	int j = j0 + int((blockIdx.x * blockDim.x + threadIdx.x) / WARP);
	if (j >= j1)
		return;
	T rhoinv = T(1) / *rhop, lo = 0, hi;
	int o = j;
	if (j + 1 < k) {
		T gap = d[j + 1] - d[j], half = gap / 2;
		if (secular(k, d, w, rhoinv, j, half) < 0)
			o = j + 1, lo = half - gap, hi = 0;
		else
			hi = half;
	} else {
		T s = 0;
		for (int i = threadIdx.x % WARP; i < k; i += WARP)
			s += w[i] * w[i];
		hi = warp_sum(s) / rhoinv;
	}
	// The middle way's steps kept inside the bracket (one that would leave
	// it bisects), until a step moves t by less than its last bits.
	T t = lo + (hi - lo) / 2, eps = epsilon<T>();
	for (int step = 0; step < MAX_STEPS && t != lo && t != hi; step++) {
		Sides<T> p;
		T f = secular(k, d, w, rhoinv, o, t, j, &p);
		if (f == 0)
			break;
		(f > 0 ? hi : lo) = t;
		T dr = j + 1 < k ? (d[j + 1] - d[o]) - t : T(0);
		T next = t + middle_step(f, p, (d[j] - d[o]) - t, dr, j + 1 < k);
		bool inside = next > lo && next < hi;
		if (fabs(next - t) <= 2 * eps * fabs(t)) {
			t = inside ? next : t;
			break;
		}
		t = inside ? next : lo + (hi - lo) / 2;
	}
	if (threadIdx.x % WARP == 0) {
		int q = j - j0;
		root[q] = d[o] + t, origin[q] = T(o), tau[q] = t;
	}
}

// prod_i = product over the share's roots j of (d_i - lambda_j), divided by
// (d_i - d_j) for j != i.
template <typename T>
__global__ void loewner(const int *kp, const T *d, int share, int shares, const T *origin,
                        const T *tau, T *prod)
{
	int k = *kp, j0 = int(int64_t(share) * k / shares), j1 = int(int64_t(share + 1) * k / shares);
	int i = int(blockIdx.x * blockDim.x + threadIdx.x);
	if (i >= k)
		return;
	T p = 1, di = d[i];
	for (int j = j0; j < j1; j++) {
		T delta = (di - d[int(origin[j - j0])]) - tau[j - j0];
		p *= i == j ? delta : delta / (di - d[j]);
	}
	prod[i] = p;
}

template <typename T>
void dc_roots(int K, const int *k, const T *rho, const T *d, const T *w, int share, int shares,
              T *root, T *origin, T *tau, T *prod, cudaStream_t stream)
{
	const int threads = 256;
	int most = (K + shares - 1) / shares + 1;
	int blocks = (most * WARP + threads - 1) / threads;
	roots<T><<<blocks, threads, 0, stream>>>(k, rho, d, w, share, shares, root, origin, tau);
	hyla_check_launch("dc_roots");
	loewner<T><<<(K + threads - 1) / threads, threads, 0, stream>>>(k, d, share, shares, origin,
	                                                                 tau, prod);
	hyla_check_launch("dc_loewner");
}

constexpr int THREADS = 256;

// The block's sum, the same in every thread (a fixed order: the same
// results from run to run).
template <typename T> __device__ T block_sum(T v, T *room)
{
	v = warp_sum(v);
	if (threadIdx.x % WARP == 0)
		room[threadIdx.x / WARP] = v;
	__syncthreads();
	T total = 0;
	for (int i = 0; i < THREADS / WARP; i++)
		total += room[i];
	__syncthreads();
	return total;
}

// The merged order's element pos: root j (*root) or deflated pole j, roots
// first among equals (the host's assembly's rule), by a search of the
// merge path of the ascending roots lambda and deflated values dv.
template <typename T>
__device__ int merged(int pos, int k, int ndefl, const T *lambda, const T *dv, int *root)
{
	int lo = pos - ndefl > 0 ? pos - ndefl : 0, hi = pos < k ? pos : k;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (pos - mid >= ndefl || lambda[mid - 1] <= dv[pos - mid])
			lo = mid;
		else
			hi = mid - 1;
	}
	int b = pos - lo;
	*root = lo < k && (b >= ndefl || lambda[lo] <= dv[b]);
	return *root ? lo : b;
}

// U's columns (of K rows) for merged positions c0 + c, c < cols, a block
// each in turn: Loewner's z over the root's differences to the poles,
// normalised, at the kept poles' rows (a deflated pole: its unit vector),
// the deflation's rotations undone, then the state's column: the value and
// the column's products with the merged problem's first and last rows f and
// l. U's column c at u + c ldu, or (own) in the block's own column of u.
template <typename T>
__global__ void assemble(int K, int cols, int c0, const int *head, const T *dlamda, const T *w,
                         const T *dv, const int *didx, const int *kept, const int *rot_p,
                         const int *rot_i, const T *rot_c, const T *rot_s, const T *f, const T *l,
                         const T *root, const T *origin, const T *tau, const T *prod, T *state,
                         int64_t lds, T *u, int64_t ldu, bool own)
{
	__shared__ T room[THREADS / WARP];
	const int k = head[1], ndefl = head[2], nrot = head[3];
	for (int c = blockIdx.x; c < cols; c += gridDim.x) {
		int isroot, j = merged(c0 + c, k, ndefl, root, dv, &isroot);
		T *x = u + (own ? blockIdx.x : c) * ldu;
		for (int i = threadIdx.x; i < K; i += THREADS)
			x[i] = 0;
		__syncthreads();
		if (!isroot || k == 1) {
			if (threadIdx.x == 0)
				x[isroot ? kept[0] : didx[j]] = 1;
		} else {
			T base = dlamda[int(origin[j])], t = tau[j], sq = 0;
			for (int i = threadIdx.x; i < k; i += THREADS) {
				T s = copysign(sqrt(-prod[i]), w[i]) / ((dlamda[i] - base) - t);
				sq += s * s;
			}
			T norm = sqrt(block_sum(sq, room));
			for (int i = threadIdx.x; i < k; i += THREADS)
				x[kept[i]] = copysign(sqrt(-prod[i]), w[i]) / ((dlamda[i] - base) - t) / norm;
		}
		__syncthreads();
		if (threadIdx.x == 0)
			for (int r = nrot - 1; r >= 0; r--) {
				T xp = x[rot_p[r]], xi = x[rot_i[r]], cs = rot_c[r], sn = rot_s[r];
				x[rot_p[r]] = cs * xp - sn * xi, x[rot_i[r]] = sn * xp + cs * xi;
			}
		__syncthreads();
		T first = 0, last = 0;
		for (int i = threadIdx.x; i < K; i += THREADS)
			first += f[i] * x[i], last += l[i] * x[i];
		first = block_sum(first, room), last = block_sum(last, room);
		if (threadIdx.x == 0) {
			T *st = state + c * lds;
			st[0] = isroot ? root[j] : dv[j], st[1] = first, st[2] = last;
		}
		__syncthreads();
	}
}

// The columns' assembly; u NULL (the values alone): U's columns in a
// scratch of a column a block, at most OWN_BLOCKS blocks.
#define OWN_BLOCKS 512
template <typename T>
void dc_assemble(int K, int cols, int c0, const int *head, const T *dlamda, const T *w,
                 const T *dv, const int *didx, const int *kept, const int *rot_p,
                 const int *rot_i, const T *rot_c, const T *rot_s, const T *f, const T *l,
                 const T *root, const T *origin, const T *tau, const T *prod, T *state,
                 int64_t lds, T *u, int64_t ldu, cudaStream_t stream)
{
	const bool own = u == nullptr;
	const int blocks = own && cols > OWN_BLOCKS ? OWN_BLOCKS : cols;
	if (own) {
		u = static_cast<T *>(hyla__cuda_scratch(sizeof(T) * (size_t)K * (size_t)blocks, stream));
		ldu = K;
	}
	assemble<T><<<blocks, THREADS, 0, stream>>>(K, cols, c0, head, dlamda, w, dv, didx, kept,
	                                            rot_p, rot_i, rot_c, rot_s, f, l, root, origin, tau,
	                                            prod, state, lds, u, ldu, own);
	hyla_check_launch("dc_assemble");
	if (own)
		hyla__cuda_scratch_free(u, stream);
}

} // namespace

#define DC_ASSEMBLE(suffix, T)                                                                    \
	extern "C" void hyla__cuda_dc_assemble_##suffix(                                            \
	    int K, int cols, int c0, const int *head, const T *dlamda, const T *w, const T *dv,      \
	    const int *didx, const int *kept, const int *rot_p, const int *rot_i, const T *rot_c,    \
	    const T *rot_s, const T *f, const T *l, const T *root, const T *origin, const T *tau,    \
	    const T *prod, T *state, int64_t lds, T *u, int64_t ldu, cudaStream_t stream)            \
	{                                                                                             \
		dc_assemble(K, cols, c0, head, dlamda, w, dv, didx, kept, rot_p, rot_i, rot_c, rot_s, f, \
		            l, root, origin, tau, prod, state, lds, u, ldu, stream);                     \
	}
DC_ASSEMBLE(d, double)
DC_ASSEMBLE(s, float)

extern "C" void hyla__cuda_dc_roots_d(int K, const int *k, const double *rho, const double *d,
                                      const double *w, int share, int shares, double *root,
                                      double *origin, double *tau, double *prod,
                                      cudaStream_t stream)
{
	dc_roots(K, k, rho, d, w, share, shares, root, origin, tau, prod, stream);
}

extern "C" void hyla__cuda_dc_roots_s(int K, const int *k, const float *rho, const float *d,
                                      const float *w, int share, int shares, float *root,
                                      float *origin, float *tau, float *prod, cudaStream_t stream)
{
	dc_roots(K, k, rho, d, w, share, shares, root, origin, tau, prod, stream);
}
