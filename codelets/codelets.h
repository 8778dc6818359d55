/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Insert functions of hyla's internal codelets, typed by
 * runtime/precision.h (the public ones: include/hyla_codelets.h). Each
 * submits one task; handles are matrix tiles unless noted. */
#ifndef HYLA_CODELETS_H
#define HYLA_CODELETS_H

#include <starpu.h>
#include "hyla_async.h"
#include "hyla_codelets.h"
#include "precision.h"
#include "runtime.h"

/* The Gram-Schmidt QRs' first task on each panel a (RW): each column's norm
 * into row 0 of info (a 2-by-w tile, W) and into row 1 the power of two e
 * that scaled it (2^e a_j) where its entries' squares would overflow or
 * underflow (codelets/gs_scaling.h), else 0. */
int TYPED(hyla__insert_gs_columns)(starpu_data_handle_t a, starpu_data_handle_t info,
                                   int priority);

/* Classical Gram-Schmidt (algorithms/cgs.c; the blocked codelets are
 * public: include/hyla_codelets.h). The projection against the nq
 * consecutive finished panels q whose first column is R's row `first`,
 * with R's diagonal block at row c: hyla_task_dcgs_project's, which takes
 * the panels from the first on. */
int TYPED(hyla__task_cgs_project)(starpu_data_handle_t a, starpu_data_handle_t r,
                                  starpu_data_handle_t w, const starpu_data_handle_t *q, int nq,
                                  int64_t first, int64_t c, int pass, hyla_sequence *seq);
/* Its vector form: the widest panel of the vector codelets
 * (cuda/kernels.h's HYLA_CGS_MAX_COLS). */
#define HYLA_CGS_MAX_NB 256
/* Step i of Milde and Schneider's order on one panel: q_i is column j of the panel q;
 * R(i, :) = q_i^T V and U -= q_i R(i, :) over u's columns (RW), with v (R)
 * their original values and r (RW) their column of R. With q == u (q_i's
 * own panel) q_i is first normalised and only the later columns change. */
int TYPED(hyla__insert_cgs_vector)(starpu_data_handle_t q, starpu_data_handle_t u,
                                   starpu_data_handle_t v, starpu_data_handle_t r,
                                   starpu_data_handle_t w, int64_t i, int64_t j, int priority,
                                   hyla_sequence *seq);

/* Hessenberg reduction (algorithms/gehrd.c; the fused panel, the update
 * and the panel's scratch are public: include/hyla_codelets.h).
 * Tomov, Nath and Dongarra's split panel (codelets/gehrd_split.c): the column loop on the
 * CPU, one task per column, each column's GEMV as tasks over the trailing
 * matrix; or, with a GPU, the panel as one task that does both. A panel's
 * handles: its column panel (RW), a snapshot of it (n-by-nb),
 * Y, T, tau, the explicit V as for the fused panel (hyla_task_dgehrd_panel),
 * v_j (vector of n), beta of the last reflector (vector of 1). */
struct hyla_split_panel {
	starpu_data_handle_t panel, snapshot, y, t, tau, vj, ei, v;
	int64_t col;
};
#define HYLA_SPLIT_MAX_PARTS 64
/* Copies the panel into its snapshot (the GEMVs' view of the panel's later
 * columns, from before the column loop). */
int TYPED(hyla__insert_gehrd_snapshot)(starpu_data_handle_t panel, starpu_data_handle_t snapshot);
/* Column j (< nb): finishes y_{j-1} from the nparts (<= HYLA_SPLIT_MAX_PARTS)
 * partial sums (R), updates column j, forms its reflector and v_j. With
 * j = nb: finishes y_{nb-1} and writes the explicit V. CPU. */
int TYPED(hyla__insert_gehrd_column)(const struct hyla_split_panel *p, int j,
                                     const starpu_data_handle_t *parts, int nparts);
/* One partial sum (part, W vector of n) of y_j = A(r0:n, i+j+1:n) v_j: the
 * npanels consecutive trailing panels from matrix column first (R), and with
 * own the snapshot's columns j+1.. too; where: STARPU_CPU and/or STARPU_CUDA. */
int TYPED(hyla__insert_gehrd_gemv)(const struct hyla_split_panel *p, int j, starpu_data_handle_t part,
                                   const starpu_data_handle_t *panels, int npanels, int64_t first,
                                   int own, unsigned long long where);
/* The whole split panel as one task on a CUDA worker (the column loop on its
 * core, the GEMVs on its GPU, one synchronisation a column): Y, T, V, tau
 * (W), panels[0] the panel (RW), then the trailing ones (R), contiguous;
 * host: hyla__gehrd_split_host(n, nb) bytes of pinned memory no other task
 * uses meanwhile. HYLA_ERR_NODEV without CUDA. */
int TYPED(hyla__insert_gehrd_split_panel)(const struct hyla_split_panel *p,
                                          const starpu_data_handle_t *panels, int npanels,
                                          real_t *host);
size_t TYPED(hyla__gehrd_split_host)(int64_t n, int64_t nb);
/* hyla_task_dgehrd_update for the split panel's updates: no model, where
 * as for the GEMVs. */
int TYPED(hyla__insert_gehrd_split_update)(starpu_data_handle_t v, starpu_data_handle_t t,
                                           starpu_data_handle_t y, starpu_data_handle_t w,
                                           const starpu_data_handle_t *panels, int npanels,
                                           int64_t col, int64_t first, int priority,
                                           unsigned long long where);
/* The panel's last step: Y's rows above r0 = A(0:r0, col+1:n) V T and the
 * panel's own top rows; panels[0] the panel (RW), then the trailing ones (R),
 * contiguous. */
int TYPED(hyla__insert_gehrd_ytop)(starpu_data_handle_t y, starpu_data_handle_t v,
                                   starpu_data_handle_t t, const starpu_data_handle_t *panels,
                                   int npanels, int64_t col, unsigned long long where);
/* The explicit n-by-nb V of a panel (zeros above the unit elements). */
void TYPED(hyla__gehrd_build_v)(int n, int nb, int r0, const real_t *a, int lda, real_t *v, int ldv);
/* Rows t0..t1-1 (< r0) of Y = A(:, col+1:n) V T and of the panel's columns
 * 1..nb-1 (the panel at a, rows r0.. of V at v + r0). */
void TYPED(hyla__gehrd_ytop_rows)(int t0, int t1, int n, int nb, int r0, real_t *a, int lda,
                                  const real_t *v, int ldv, const real_t *t, int ldt, real_t *y,
                                  int ldy);

/* DLATRD (lower) and DLABRD (m >= n) as rank of the size cores of a
 * combined worker (codelets/sytrd_spmd.c, codelets/gebrd_spmd.c), the
 * arguments LAPACK's; arg: zeroed, shared by the cores. 0 where there was
 * no memory for the cores' sums: none did anything. */
struct hyla_team_arg;
int TYPED(hyla__latrd_spmd)(struct hyla_team_arg *arg, int rank, int size, int n, int nb,
                            real_t *a, int lda, real_t *e, real_t *tau, real_t *w, int ldw);
int TYPED(hyla__labrd_spmd)(struct hyla_team_arg *arg, int rank, int size, int m, int n, int nb,
                            real_t *a, int lda, real_t *d, real_t *e, real_t *tauq, real_t *taup,
                            real_t *x, int ldx, real_t *y, int ldy);
/* DLAHR2 on the panel at a (n rows, nb columns, reflector j's unit at row
 * r0 + j, the trailing matrix after it), then V and Y's top rows, as rank of
 * the size cores of a combined worker (codelets/gehrd_spmd.c); arg and 0 as
 * the others'. */
int TYPED(hyla__gehrd_panel_spmd)(struct hyla_team_arg *arg, int rank, int size, int n, int nb,
                                  int r0, real_t *a, int lda, real_t *tau, real_t *t, int ldt,
                                  real_t *y, int ldy, real_t *v, int ldv);

/* Reduces the last column panel a (starting at column col) with LAPACK's
 * DGEHD2 on the CPU; tau: its part of tau (W). */
int TYPED(hyla__insert_gehrd_tail)(starpu_data_handle_t a, starpu_data_handle_t tau, int64_t col);

/* Householder QR's start (algorithms/geqrf.c): the T of the reflectors of
 * the count panels v (contiguous, their tau's tau) as one block reflector
 * into t (their width square); then that block reflector on the panels
 * (contiguous; work: a vector of the width times their columns). */
int TYPED(hyla__insert_geqrf_head_t)(const starpu_data_handle_t *v, const starpu_data_handle_t *tau,
                                     int count, starpu_data_handle_t t);
int TYPED(hyla__insert_geqrf_head)(const starpu_data_handle_t *v, int count, starpu_data_handle_t t,
                                   starpu_data_handle_t work, const starpu_data_handle_t *panels,
                                   int npanels);
/* Householder QR's wide end (algorithms/geqrf.c): LAPACK's dgeqrf on rows
 * r0.. of the npanels consecutive panels (RW, contiguous), tau (W) its
 * scalars; scratch: hyla_workspace_dgeqrf(their columns). CPU. */
int TYPED(hyla__insert_geqrf_tail)(starpu_data_handle_t tau, starpu_data_handle_t scratch,
                                   const starpu_data_handle_t *panels, int npanels, int64_t r0);

/* Symmetric tridiagonal reduction, lower (algorithms/sytrd.c; the panel,
 * the update and the step are public: include/hyla_codelets.h). The last panel a (RW, from column col) with LAPACK's dsytrd: tau (W);
 * scratch: a vector of 2 t + t * 64 elements (t: the panel's rows from col). */
int TYPED(hyla__insert_sytrd_tail)(starpu_data_handle_t a, starpu_data_handle_t tau,
                                   starpu_data_handle_t scratch, int64_t col);

/* Columns [j0, j1) of the lower m-by-m a -= v w^T + w v^T (v, w: m-by-k),
 * on a core: the diagonal block by SYR2K, the rows below by two GEMMs. */
void TYPED(hyla__syr2k_columns)(int m, int k, int j0, int j1, const real_t *v, int ldv,
                                const real_t *w, int ldw, real_t *a, int lda);

/* Bidiagonal reduction, m >= n (algorithms/gebrd.c; the panel, the update
 * and the step are public: include/hyla_codelets.h). The last panel a (RW, columns and rows from col) with LAPACK's dgebrd:
 * tauq, taup (W); scratch: 2 t + 64 (rows + t) elements. */
int TYPED(hyla__insert_gebrd_tail)(starpu_data_handle_t a, starpu_data_handle_t tauq,
                                   starpu_data_handle_t taup, starpu_data_handle_t scratch,
                                   int64_t col);

/* The eigensolver's first task (codelets/syevd_prepare.c): a's panels (RW, one
 * n-by-n matrix), uplo's triangle given, with mirror the upper one copied
 * into the lower one, then that triangle scaled into LAPACK's range where
 * dsyevd would, scale (W, vector of 2) saying how. */
int TYPED(hyla__insert_syevd_prepare)(const hyla_desc *a, char uplo, int mirror,
                                       starpu_data_handle_t scale);

/* The tridiagonal eigensolver's divide and conquer (codelets/secular.c;
 * algorithms/stedc.c builds the tree). tri: a vector of 2n, [norm, d, e]
 * scaled by norm (dc_scale writes it from d's and e's tiles, R). A node's
 * state: a 3-by-K matrix in panels (its values, the first and the last row
 * of its eigenvectors); its eigenvectors: a K-by-K matrix in panels (the
 * top node's: the eigensolver's n-by-n matrix). dc_leaf: the block of
 * state->n rows from row s (state and z W; z NULL: the values alone).
 * dc_plan: the merge of the blocks first (from row s) and second (R) into
 * plan (W, a vector of hyla__dc_plan_bytes(K) bytes, K the merged size).
 * dc_roots: share index of shares (W, a vector of hyla__dc_share_len(K,
 * cols) reals, cols: K / shares rounded up), on the GPU with gpu (a CUDA
 * worker there), else on a core.
 * dc_assemble: the merged state's panel from column c0 (W) and U's (W, or
 * NULL), on the GPU with gpu (the roots in one share there). dc_gemm: the
 * merged eigenvectors' nout panels out (W, one matrix as U's panel wide)
 * from U's panel and the blocks' eigenvectors (R). dc_finish: the
 * eigenvalues into d's tiles (W), scaled back by tri and scale (the prepare
 * task's, R, or NULL).
 * A failure (LAPACK's info > 0) fails seq. */
size_t TYPED(hyla__dc_plan_bytes)(int64_t K);
size_t TYPED(hyla__dc_share_len)(int64_t K, int64_t cols);
int TYPED(hyla__insert_dc_scale)(const hyla_desc *d, const hyla_desc *e, starpu_data_handle_t tri);
int TYPED(hyla__insert_dc_leaf)(starpu_data_handle_t tri, int64_t s, const hyla_desc *state,
                                const hyla_desc *z, hyla_sequence *seq);
int TYPED(hyla__insert_dc_plan)(starpu_data_handle_t tri, int64_t s, const hyla_desc *first,
                                const hyla_desc *second, starpu_data_handle_t plan,
                                hyla_sequence *seq);
int TYPED(hyla__insert_dc_roots)(starpu_data_handle_t plan, starpu_data_handle_t share,
                                 int64_t s, int index, int shares, int gpu, hyla_sequence *seq);
int TYPED(hyla__insert_dc_assemble)(starpu_data_handle_t plan, const starpu_data_handle_t *shares,
                                    int nshares, int64_t c0, starpu_data_handle_t state,
                                    starpu_data_handle_t u, int gpu, hyla_sequence *seq);
int TYPED(hyla__insert_dc_gemm)(starpu_data_handle_t u, const hyla_desc *first,
                                const hyla_desc *second, const starpu_data_handle_t *out,
                                int nout, hyla_sequence *seq);
int TYPED(hyla__insert_dc_finish)(starpu_data_handle_t tri, const hyla_desc *state,
                                  starpu_data_handle_t scale, const hyla_desc *d,
                                  hyla_sequence *seq);

/* The two-stage reductions' widest band (the options' nb sets it): the
 * chases cost n^2 b on the cores, the GPU's QR panels keep their fast
 * kernels up to 256 columns. */
#define HYLA_BAND_MAX 256

/* The two-stage tridiagonal reduction, lower, for the eigenvalues alone.
 * Stage 1 (codelets/sy2sb.c): the step at column col (a multiple of b, with
 * n - col - b >= 2) of the dense n-by-n A (contiguous column panels of any
 * width) to a band of half-bandwidth b; x: an n-by-b workspace; then the band
 * gathered into the chase's storage. Stage 2 (codelets/bulge.c): the band
 * (entry (r, c) at band[r + 2b c], band_chase_len = (2b + 1) n reals, the
 * fill's rows included) to tridiagonal form by bulge chasing, its diagonal
 * into d (n) and subdiagonal into e (n - 1), as a parallel task on all the
 * cores (beside a GPU too); the band is overwritten. */
int TYPED(hyla__insert_sy2sb_step)(const hyla_desc *A, starpu_data_handle_t x, int64_t col,
                                   int64_t b);
int TYPED(hyla__insert_sy2sb_gather)(const hyla_desc *A, starpu_data_handle_t band, int64_t b);
size_t TYPED(hyla__band_chase_len)(int64_t n, int64_t b);
int TYPED(hyla__insert_band_chase)(starpu_data_handle_t band, const hyla_desc *d, const hyla_desc *e,
                                   int64_t b);

/* The two-stage bidiagonal reduction, for the singular values alone: the
 * m-by-n A (m >= n, contiguous column panels) to an upper band of b
 * superdiagonals by steps every b columns (codelets/ge2gb.c), the band
 * gathered into the chase's storage (band: gb2bd_len reals), then chased to
 * bidiagonal form as a parallel task on the cores, beside a GPU too
 * (codelets/gb2bd.c), into d (n) and e (n - 1). */
int TYPED(hyla__insert_ge2gb_steps)(const hyla_desc *A, int64_t b);
int TYPED(hyla__insert_ge2gb_gather)(const hyla_desc *A, starpu_data_handle_t band, int64_t b);
size_t TYPED(hyla__gb2bd_len)(int64_t n, int64_t b);
int TYPED(hyla__insert_gb2bd)(starpu_data_handle_t band, const hyla_desc *d, const hyla_desc *e,
                              int64_t b);

/* The bidiagonal SVD's divide and conquer (codelets/singular.c;
 * algorithms/bdsdc.c builds the tree), on bi, the eigensolver's [norm, d,
 * e] (dc_scale writes it; dc_finish reads the top's state). A node, the
 * rows [s, s + L) of B and its columns to s + L + q: its state (3-by-L in
 * panels: the singular values, V's first and last rows), U and V's columns
 * but the null one (u: L-by-L, v: (L + q)-by-L in the same panels; NULL:
 * the values alone; the top's: the caller's, u_rw if U's panels hold what
 * the tasks must keep; the top's values descending), for q = 1 its null vector (an (L + 1)-by-1 matrix,
 * or its first and last entries with the values alone). sd_leaf: the
 * node's SVD (W; the top's U RW with u_rw). sd_plan: the merge of first and second (R; the row
 * between them from row s) into plan (W, sd_plan_bytes(K)) and the merged
 * null (W). sd_roots: as dc_roots. sd_assemble: the merged state's panel
 * from column c0 (W; the top: descending) and the panels of M's singular
 * vectors um, vm (W, or NULL). sd_gemm: the merged U's panel u and V's v
 * (W; u RW with u_rw) from um and vm (R) and the blocks' vectors (R). A failure (LAPACK's
 * info > 0) fails seq. */
struct hyla_sd_node {
	hyla_desc state, own_u, own_v;
	const hyla_desc *u, *v;
	starpu_data_handle_t null;
	int top, u_rw;
};
size_t TYPED(hyla__sd_plan_bytes)(int64_t K);
int TYPED(hyla__insert_sd_leaf)(starpu_data_handle_t bi, int64_t s, int q,
                                const struct hyla_sd_node *nd, hyla_sequence *seq);
int TYPED(hyla__insert_sd_plan)(starpu_data_handle_t bi, int64_t s, int q,
                                const struct hyla_sd_node *first, const struct hyla_sd_node *second,
                                starpu_data_handle_t plan, starpu_data_handle_t null,
                                hyla_sequence *seq);
int TYPED(hyla__insert_sd_roots)(starpu_data_handle_t plan, starpu_data_handle_t share, int64_t s,
                                 int index, int shares, hyla_sequence *seq);
int TYPED(hyla__insert_sd_assemble)(starpu_data_handle_t plan, const starpu_data_handle_t *shares,
                                    int nshares, int64_t c0, int top, starpu_data_handle_t state,
                                    starpu_data_handle_t um, starpu_data_handle_t vm,
                                    hyla_sequence *seq);
int TYPED(hyla__insert_sd_gemm)(starpu_data_handle_t um, starpu_data_handle_t vm, int q,
                                const struct hyla_sd_node *first, const struct hyla_sd_node *second,
                                starpu_data_handle_t u, int u_rw, starpu_data_handle_t v,
                                hyla_sequence *seq);

/* The last step of both reductions (codelets/bands.c), a CPU task on the
 * tiles of d and e (nb each) and the panels of a (all RW): d and e where
 * LAPACK leaves them. For the panels' columns e (and d, bidiagonal) goes
 * from the vector onto the matrix, where DLATRD / DLABRD left 1s; for the
 * last panel's columns, and the tridiagonal d everywhere, it is read off
 * the matrix. tridiagonal: e on the subdiagonal, else the superdiagonal. */
int TYPED(hyla__insert_band_finish)(const hyla_desc *d, const hyla_desc *e, const hyla_desc *a,
                                    int tridiagonal);

/* The reductions' other shapes (codelets/mirror.c), CPU tasks. reverse:
 * J a J in place on the n-by-n a's panels (RW; J the reversal: entries
 * (i, j) and (n-1-i, n-1-j) trade places), and each of the nvectors (at
 * most 3) vectors, tiles RW, reversed: dsytrd's upper reduction is the
 * lower one of J A J, mirrored. transpose: b = a^T, a's panels R, b's W. */
int TYPED(hyla__insert_reverse)(const hyla_desc *a, const hyla_desc *vectors, int nvectors);
int TYPED(hyla__insert_transpose)(const hyla_desc *a, const hyla_desc *b);
/* b = a's first b->n columns (a's panels R, b's W; any panel widths). */
int TYPED(hyla__insert_copy)(const hyla_desc *a, const hyla_desc *b);
/* y = x, two tilings of one vector's length (x's tiles R, y's W). */
int TYPED(hyla__insert_retile)(const hyla_desc *x, const hyla_desc *y);

/* Forming Q from Householder reflectors stored as dgeqrf leaves them
 * (algorithms/orgqr.c, with the public hyla_task_dlarft and _dlarfb):
 * overwrites the reflectors' panel (RW; c0 its first column and the row of
 * its first unit element) with its columns of Q, as if the identity's
 * columns c0.. went through (I - V T V^T); w: scratch vector of 2 w^2
 * elements. */
#ifdef HYLA_WITH_CUDA
/* A cuBLAS call's status: StarPU's report and abort unless a success. */
static inline void hyla__cublas_check(cublasStatus_t status)
{
	if (status != CUBLAS_STATUS_SUCCESS)
		STARPU_CUBLAS_REPORT_ERROR(status);
}

/* LAPACK's dlarfb (left, forward, columnwise) with cuBLAS on h's stream, on
 * the rows-by-cols c: W = V^T C, W = T W (T^T W with trans), C -= V W, as
 * three GEMMs with V in full (GPU scratch; cuBLAS's TRMMs took 10-55% more
 * on H100 at the QRs' shapes). v: rows-by-nb, unit lower on top (R above
 * its diagonal is not read); t: upper with zeros below (as larft makes it);
 * w: nb-by-cols. */
void TYPED(hyla__cublas_larfb)(cublasHandle_t h, int trans, int rows, int nb, int cols,
                               const real_t *v, int ldv, const real_t *t, int ldt, real_t *c,
                               int ldc, real_t *w);
/* The Gram matrix g = A^T A of the rows-by-w a, both triangles, by GEMM on
 * h's stream: cuBLAS's SYRK at the Gram-Schmidt panels' shapes (8000 rows,
 * 32-512 columns, H100) took 650-670 us in single whatever the width (12
 * times its double) and 52-86 us in double against GEMM's 16-80
 * (bench/gram.c). */
void TYPED(hyla__cublas_gram)(cublasHandle_t h, int rows, int w, const real_t *a, int lda,
                              real_t *g, int ldg);
#endif
/* LAPACK's dlarfb (left, forward, columnwise; on the host if h is NULL,
 * else hyla__cublas_larfb on the cuBLAS handle h's stream) on rows c0.. of
 * the columns [lo, hi) of the panels buffers[first..end), a run of panels
 * that are one matrix at a time (a matrix out of core has its panels apart
 * on the GPU); v from row c0 on; w: nb-by-(all the panels' columns). */
void TYPED(hyla__larfb_runs)(void *h, int trans, int rows, int nb, const real_t *v, int ldv,
                             const real_t *t, int ldt, void *buffers[], int first, int end, int c0,
                             int lo, int hi, real_t *w);
/* LAPACK's dlarft (forward, columnwise) of the rows-by-w reflectors v into
 * the w-by-w upper t, zero below its diagonal (the geqrf panel's T on a core). */
void TYPED(hyla__larft_host)(int rows, int w, const real_t *v, int ldv, const real_t *tau,
                             real_t *t, int ldt);
int TYPED(hyla__insert_orgqr_form)(starpu_data_handle_t panel, starpu_data_handle_t t,
                                   starpu_data_handle_t w, int64_t c0, int priority);
/* hyla_task_dorgqr_step at a priority, and without the form (form 0):
 * panel's block reflector on the later panels and prev's T, panel read only. */
int TYPED(hyla__insert_orgqr_step)(starpu_data_handle_t panel, starpu_data_handle_t t,
                                   starpu_data_handle_t w_form, starpu_data_handle_t w_apply,
                                   starpu_data_handle_t prev, starpu_data_handle_t prev_tau,
                                   starpu_data_handle_t prev_t, const starpu_data_handle_t *later,
                                   int nlater, int64_t c0, int form, int priority);

/* Q of the Hessenberg reduction (algorithms/orghr.c). LAPACK dorghr's
 * first step on the n-by-n a (0-based columns): columns [ilo, ihi) get the
 * reflectors of the columns before them in rows (j, ihi), zero outside rows
 * [ilo, ihi) (rows [ilo, j] as they were: dorgqr's Q of the block [ilo,
 * ihi) overwrites them); the other columns become the identity's. threads:
 * on threads when large (the calling thread alone where 0). */
void TYPED(hyla__orghr_shift)(int64_t n, int64_t ilo, int64_t ihi, real_t *a, int64_t lda,
                              int threads);
/* The same with ilo = 1, ihi = n as a CPU task on the npanels panels (RW,
 * contiguous), which also writes (0, tau) into the nshifted tiles (W) of
 * the shifted tau; tau: a vector of n-1 (R), NULL for n = 1. */
int TYPED(hyla__insert_orghr_shift)(starpu_data_handle_t tau, const starpu_data_handle_t *shifted,
                                    int nshifted, const starpu_data_handle_t *panels, int npanels);

#endif
