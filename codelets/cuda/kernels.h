/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* hyla's own CUDA kernels, callable from C; all run on the given stream. */
#ifndef HYLA_CUDA_KERNELS_H
#define HYLA_CUDA_KERNELS_H

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Scratch device memory in the stream's order (hyla's pool: kept between
 * uses); a failed allocation aborts. */
void *hyla__cuda_scratch(size_t bytes, cudaStream_t stream);
void hyla__cuda_scratch_free(void *ptr, cudaStream_t stream);

/* The Gram-Schmidt QRs' look at each of the w columns of the m-row a: the
 * norm into info[j ldi] and into info[1 + j ldi] the power of two e that
 * scaled the column in place (0 for columns in codelets/gs_scaling.h's
 * range). */
void hyla__cuda_gs_columns_d(int m, int w, double *a, int64_t lda, double *info, int64_t ldi,
                             cudaStream_t stream);
void hyla__cuda_gs_columns_s(int m, int w, float *a, int64_t lda, float *info, int64_t ldi,
                             cudaStream_t stream);

/* Widest sub-panel hyla__cuda_mgs_columns handles, and its scratch size. */
#define HYLA_MGS_IB 32
#define HYLA_MGS_MAX_BLOCKS 128
#define HYLA_MGS_SCRATCH_ELEMS (HYLA_MGS_MAX_BLOCKS * HYLA_MGS_IB + 2)

/* Modified Gram-Schmidt on columns [j0, j1) of the m-row a (j1 - j0 <=
 * HYLA_MGS_IB), each projected out of the later ones up to j1; writes
 * R(j, j:j1) into r. One kernel launch per column; the column sums are
 * reduced in a fixed order, so results do not vary from run to run.
 * scratch: HYLA_MGS_SCRATCH_ELEMS elements of device memory. */
void hyla__cuda_mgs_columns_d(int m, int j0, int j1, double *a, int64_t lda, double *r,
                              int64_t ldr, double *scratch, cudaStream_t stream);
void hyla__cuda_mgs_columns_s(int m, int j0, int j1, float *a, int64_t lda, float *r,
                              int64_t ldr, float *scratch, cudaStream_t stream);

/* DLAHR2's column loop for the Hessenberg panel of nb <= HYLA_GEHRD_MAX_NB
 * columns at a (n rows, reflector j's unit element at row r0 + j), on the
 * stream: writes the reflectors into a, tau, T (upper triangle) and rows
 * r0..n-1 of Y; reads the trailing matrix after the panel's columns in a (one
 * matrix, leading dimension lda). One cooperative launch per panel, its GEMVs
 * included. scratch: HYLA_GEHRD_SCRATCH_ELEMS elements. */
#define HYLA_GEHRD_MAX_NB 128
#define HYLA_GEHRD_MAX_BLOCKS 160
#define HYLA_GEHRD_SCRATCH_ELEMS (8 + (2 * HYLA_GEHRD_MAX_NB + 3 + 512) * HYLA_GEHRD_MAX_BLOCKS)
void hyla__cuda_gehrd_columns_d(int n, int nb, int r0, double *a, int lda, double *tau, double *t,
                                int ldt, double *y, int ldy, double *scratch, cudaStream_t stream);
void hyla__cuda_gehrd_columns_s(int n, int nb, int r0, float *a, int lda, float *tau, float *t,
                                int ldt, float *y, int ldy, float *scratch, cudaStream_t stream);

/* The roots [j0, j1) of share (of shares; j0 = share k / shares) of a divide
 * and conquer merge's secular equation 1/rho + sum w_i^2 / (d_i - x) = 0
 * (k poles d ascending, rho > 0; k and rho read on the GPU, K >= k): each
 * root's value, the pole taken as its origin and its offset from it, then
 * Loewner's factors of those roots for each pole (codelets/secular.c). */
void hyla__cuda_dc_roots_d(int K, const int *k, const double *rho, const double *d,
                           const double *w, int share, int shares, double *root, double *origin,
                           double *tau, double *prod, cudaStream_t stream);
void hyla__cuda_dc_roots_s(int K, const int *k, const float *rho, const float *d, const float *w,
                           int share, int shares, float *root, float *origin, float *tau,
                           float *prod, cudaStream_t stream);

/* The merge's U columns [c0, c0 + cols) (K rows each, at u, leading
 * dimension ldu) and the merged state's (3 rows each, at state): from the
 * plan (head: its K, k, ndefl, nrot; the deflation's arrays; the merged
 * first and last rows f, l) and the one share of all its roots
 * (codelets/secular.c's host assembly does the same). */
#define HYLA_DC_ASSEMBLE_DECL(suffix, T)                                                          \
	void hyla__cuda_dc_assemble_##suffix(                                                        \
	    int K, int cols, int c0, const int *head, const T *dlamda, const T *w, const T *dv,      \
	    const int *didx, const int *kept, const int *rot_p, const int *rot_i, const T *rot_c,    \
	    const T *rot_s, const T *f, const T *l, const T *root, const T *origin, const T *tau,    \
	    const T *prod, T *state, int64_t lds, T *u, int64_t ldu, cudaStream_t stream);
HYLA_DC_ASSEMBLE_DECL(d, double)
HYLA_DC_ASSEMBLE_DECL(s, float)

/* Householder QR's panel on the stream with the handle's cuBLAS, no host
 * sync: geqr2 is LAPACK's DGEQR2 on the m-by-w a (m >= w; reflectors below
 * the diagonal, R on and above it, tau; scratch: HYLA_GEQR2_SCRATCH_ELEMS
 * elements), one cooperative kernel (geqr2_fused: nonzero if it ran; it
 * does for w <= HYLA_GEQR2_MAX_W when each block's rows fit in its shared
 * memory), else cuBLAS per column; larft is
 * LAPACK's DLARFT (forward, columnwise) of such a panel into the w-by-w
 * upper t (zero below its diagonal). */
#define HYLA_GEQR2_MAX_W 256
#define HYLA_GEQR2_MAX_BLOCKS 160
#define HYLA_GEQR2_SCRATCH_ELEMS ((2 * (HYLA_GEQR2_MAX_W + 8) + 3) * HYLA_GEQR2_MAX_BLOCKS)
int hyla__cuda_geqr2_fused_d(int m, int w, double *a, int lda, double *tau, double *scratch,
                             cudaStream_t stream);
int hyla__cuda_geqr2_fused_s(int m, int w, float *a, int lda, float *tau, float *scratch,
                             cudaStream_t stream);
void hyla__cuda_geqr2_d(int m, int w, double *a, int lda, double *tau, double *scratch,
                        cublasHandle_t h, cudaStream_t stream);
void hyla__cuda_geqr2_s(int m, int w, float *a, int lda, float *tau, float *scratch,
                        cublasHandle_t h, cudaStream_t stream);
void hyla__cuda_larft_d(int m, int w, const double *a, int lda, const double *tau, double *t,
                        int ldt, cublasHandle_t h, cudaStream_t stream);
void hyla__cuda_larft_s(int m, int w, const float *a, int lda, const float *tau, float *t, int ldt,
                        cublasHandle_t h, cudaStream_t stream);
/* The panel by CholeskyQR2 and Householder reconstruction (cholqr_panel.cu):
 * LAPACK's DGEQR2 output and DLARFT's t (ldt) as above, for w <=
 * HYLA_CHOLQR_MAX_W; reads one flag on the host (a sync of the stream).
 * Returns 0, the panel untouched, where CholeskyQR2 would not be accurate. */
#define HYLA_CHOLQR_MAX_W 128
int hyla__cuda_cholqr_panel_d(int m, int w, double *a, int lda, double *tau, double *t, int ldt,
                              cublasHandle_t h, cudaStream_t stream);
int hyla__cuda_cholqr_panel_s(int m, int w, float *a, int lda, float *tau, float *t, int ldt,
                              cublasHandle_t h, cudaStream_t stream);
/* The panel and its t: by CholeskyQR2 where it is accurate, else geqr2 and
 * larft; returns 1 for the first. */
int hyla__cuda_geqrf_panel_d(int m, int w, double *a, int lda, double *tau, double *t, int ldt,
                             double *scratch, cublasHandle_t h, cudaStream_t stream);
int hyla__cuda_geqrf_panel_s(int m, int w, float *a, int lda, float *tau, float *t, int ldt,
                             float *scratch, cublasHandle_t h, cudaStream_t stream);

/* The reductions' GPU panels (DLATRD, DLABRD) take at most this many columns
 * (as include/hyla_codelets.h says). */
#define HYLA_REDUCTION_GPU_MAX_NB 128

/* LAPACK's DLATRD (lower) for the tridiagonal panel of nb columns at a =
 * A(c, c) (n rows and columns from there, one matrix with leading dimension
 * lda), on the stream, no host sync: the reflectors into a (their unit
 * elements left in place), e, tau and W (w = W(c, 0)). */
void hyla__cuda_latrd_d(int n, int nb, double *a, int lda, double *e, double *tau, double *w,
                        int ldw, cudaStream_t stream);
void hyla__cuda_latrd_s(int n, int nb, float *a, int lda, float *e, float *tau, float *w, int ldw,
                        cudaStream_t stream);

/* LAPACK's DLABRD (m >= n) for the bidiagonal panel of nb rows and columns
 * at a = A(c, c) (m rows, n > nb columns from there, one matrix with
 * leading dimension lda), likewise: the reflectors into a (their unit
 * elements left in place), d, e, tauq, taup, X and Y (x = X(c, 0),
 * y = Y(c, 0)). */
void hyla__cuda_labrd_d(int m, int n, int nb, double *a, int lda, double *d, double *e,
                        double *tauq, double *taup, double *x, int ldx, double *y, int ldy,
                        cudaStream_t stream);
void hyla__cuda_labrd_s(int m, int n, int nb, float *a, int lda, float *d, float *e, float *tauq,
                        float *taup, float *x, int ldx, float *y, int ldy, cudaStream_t stream);

/* The explicit n-by-nb V of a Hessenberg panel whose reflector j has its unit
 * element at row r0 + j and its other entries below it in column j of a. */
void hyla__cuda_gehrd_build_v_d(int n, int nb, int r0, const double *a, int64_t lda, double *v,
                                int64_t ldv, cudaStream_t stream);
void hyla__cuda_gehrd_build_v_s(int n, int nb, int r0, const float *a, int64_t lda, float *v,
                                int64_t ldv, cudaStream_t stream);

/* Classical Gram-Schmidt (cgs_kernels.cu). Each grid-wide sum is added by
 * the last block in block order (results do not vary from run to run).
 * scratch: HYLA_CGS_SCRATCH_ELEMS elements of device memory.
 * panel: the m-by-w a's columns orthonormalised one after the other, each
 * against the earlier ones by `passes` classical projections (1: CGS, 2:
 * CGS2); the coefficients go to t's upper triangle (w <= HYLA_CGS_MAX_COLS).
 * One cooperative launch (a grid-wide sync per column for CGS, two for CGS2). */
#define HYLA_CGS_MAX_COLS 256
#define HYLA_CGS_MAX_BLOCKS 128
#define HYLA_CGS_SLOTS (HYLA_CGS_MAX_COLS + 2)
#define HYLA_CGS_SCRATCH_ELEMS (2 * HYLA_CGS_MAX_BLOCKS * HYLA_CGS_SLOTS + 2)
void hyla__cuda_cgs_panel_d(int m, int w, int passes, double *a, int64_t lda, double *t,
                            int64_t ldt, double *scratch, cudaStream_t stream);
void hyla__cuda_cgs_panel_s(int m, int w, int passes, float *a, int64_t lda, float *t, int64_t ldt,
                            float *scratch, cudaStream_t stream);
/* *norm = ||q||, then q /= *norm. */
void hyla__cuda_cgs_normalise_d(int m, double *q, double *norm, double *scratch,
                                cudaStream_t stream);
void hyla__cuda_cgs_normalise_s(int m, float *q, float *norm, float *scratch, cudaStream_t stream);
/* Milde and Schneider's dot-product kernel: out[c * ldo] = x(:, c)^T y for c < ncols
 * (<= HYLA_CGS_MAX_COLS), a tree reduction per column. */
void hyla__cuda_cgs_dots_d(int m, int ncols, const double *x, int64_t ldx, const double *y,
                           double *out, int64_t ldo, double *scratch, cudaStream_t stream);
void hyla__cuda_cgs_dots_s(int m, int ncols, const float *x, int64_t ldx, const float *y,
                           float *out, int64_t ldo, float *scratch, cudaStream_t stream);
/* Milde and Schneider's orthogonalisation kernel: x (m-by-ncols) -= q r^T, r with
 * stride ldr. */
void hyla__cuda_cgs_rank1_d(int m, int ncols, double *x, int64_t ldx, const double *q,
                            const double *r, int64_t ldr, cudaStream_t stream);
void hyla__cuda_cgs_rank1_s(int m, int ncols, float *x, int64_t ldx, const float *q,
                            const float *r, int64_t ldr, cudaStream_t stream);

/* In place, the upper Cholesky factor R (R^T R = T) of the w-by-w
 * symmetric positive definite t (upper triangle read and written;
 * w <= HYLA_CHOLESKY_MAX); NaN where t is not positive definite. One block. */
#define HYLA_CHOLESKY_MAX 32
void hyla__cuda_cholesky_upper_d(int w, double *t, int64_t ldt, cudaStream_t stream);
void hyla__cuda_cholesky_upper_s(int w, float *t, int64_t ldt, cudaStream_t stream);
/* r = t r for upper triangular w-by-w t and r, in place; reads only their
 * upper triangles (what is below r's diagonal is neither read nor written). */
void hyla__cuda_upper_product_d(int w, const double *t, int64_t ldt, double *r, int64_t ldr,
                                cudaStream_t stream);
void hyla__cuda_upper_product_s(int w, const float *t, int64_t ldt, float *r, int64_t ldr,
                                cudaStream_t stream);

/* top (w-by-w, leading dimension lda) = I - x (leading dimension ldx). */
void hyla__cuda_identity_minus_d(int w, const double *x, int ldx, double *top, int lda,
                                 cudaStream_t stream);
void hyla__cuda_identity_minus_s(int w, const float *x, int ldx, float *top, int lda,
                                 cudaStream_t stream);

/* e = V of a block reflector in full, rows-by-w (leading dimension rows):
 * zeros above the diagonal, ones on it, v's reflectors below. */
void hyla__cuda_explicit_v_d(int rows, int w, const double *v, int ldv, double *e,
                             cudaStream_t stream);
void hyla__cuda_explicit_v_s(int rows, int w, const float *v, int ldv, float *e,
                             cudaStream_t stream);

/* The eigensolver's first task (cuda/symmetric.cu): with mirror the upper
 * triangle of the n-by-n a copied into the lower one, then the largest
 * |entry| of the lower (lower or mirror) or upper triangle into *amax (device
 * memory); sym_scale multiplies that triangle by factor (nonzero). */
void hyla__cuda_sym_prepare_d(int n, double *a, int64_t lda, int lower, int mirror, double *amax,
                              cudaStream_t stream);
void hyla__cuda_sym_prepare_s(int n, float *a, int64_t lda, int lower, int mirror, float *amax,
                              cudaStream_t stream);
void hyla__cuda_sym_scale_d(int n, double *a, int64_t lda, int lower, double factor,
                            cudaStream_t stream);
void hyla__cuda_sym_scale_s(int n, float *a, int64_t lda, int lower, float factor,
                            cudaStream_t stream);

/* The band of half-bandwidth b of the lower n-by-n a into the bulge
 * chase's storage (codelets/bulge.c): entry (r, c) at band[r + 2b c] for
 * c <= r <= c + 2b, zero past row c + b ((2b + 1) n elements). */
void hyla__cuda_band_gather_d(int n, int b, const double *a, int64_t lda, double *band,
                              cudaStream_t stream);
void hyla__cuda_band_gather_s(int n, int b, const float *a, int64_t lda, float *band,
                              cudaStream_t stream);

/* The upper band of b superdiagonals of the n-by-n a into the bidiagonal
 * chase's storage (codelets/gb2bd.c): entry (i, c), c - 2b < i < c + b, at
 * band[2b - 1 + i + (3b - 1) c], zero outside c - b <= i <= c (3b n
 * elements). */
void hyla__cuda_upper_band_gather_d(int n, int b, const double *a, int64_t lda, double *band,
                                    cudaStream_t stream);
void hyla__cuda_upper_band_gather_s(int n, int b, const float *a, int64_t lda, float *band,
                                    cudaStream_t stream);

#ifdef __cplusplus
}
#endif
#endif
