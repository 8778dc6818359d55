/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The first stage of the two-stage tridiagonal reduction (lower; Haidar,
 * Ltaief and Dongarra 2011; LAPACK's xSYTRD_SY2SB): a symmetric matrix to a
 * band of half-bandwidth b, one step task every b columns. Step
 * at column c, with P = A(c+b:n, c:c+b) and A22 = A(c+b:n, c+b:n) (m rows):
 *   P = Q R (QR of its first w = min(b, m) columns; Q^T on the rest),
 *   X = A22 V T,  X -= 1/2 V (T^T V^T X),  A22 -= V X^T + X V^T,
 * so that A22 becomes Q^T A22 Q (the two-sided update as SYMM and SYR2K:
 * Level 3, on the GPU where one is) and R lies in the band. The reflectors
 * stay below the band (the eigenvalues alone need no Q). The last task
 * gathers the band into the bulge chase's storage (codelets/bulge.c).
 * Typed source: see runtime/precision.h. */
#include <cblas.h>
#include <lapacke.h>
#include <string.h>
#include "codelets.h"
#include "spmd_team.h"
#ifdef HYLA_WITH_CUDA
#include <starpu_cublas_v2.h>
#include "cuda/kernels.h"
#endif

#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))
#define LD(buf) ((int)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int)STARPU_MATRIX_GET_NX(buf))
#define COLS(buf) ((int)STARPU_MATRIX_GET_NY(buf))

struct sy2sb_args {
	struct hyla_team_arg team; /* first: zeroed at submission */
	int64_t col, first, b; /* the step's column, its first panel's, the band's width */
};

/* Step buffers: X (an n-by-b workspace), then the panels from the one
 * holding column col (RW, contiguous). Gather: the band (W), the panels (R). */
enum { S_X, S_OWN };

/* One step's matrices, from the first panel's pointer. */
struct step {
	real_t *p, *a22, *x;
	int m, b, w, lda, ldx;
};

static struct step step_of(void *buffers[], const struct sy2sb_args *arg)
{
	if (!hyla__contiguous_cols(buffers, S_OWN, sizeof(real_t)))
		STARPU_ABORT_MSG("sy2sb step: the panels are not contiguous");
	int lda = LD(buffers[S_OWN]), n = ROWS(buffers[S_OWN]), b = (int)arg->b, c = (int)arg->col;
	real_t *a = MAT(buffers[S_OWN]) + (c - arg->first) * lda; /* column c */
	int m = n - c - b;
	return (struct step){.p = a + c + b, .a22 = a + (int64_t)b * lda + c + b, .x = MAT(buffers[S_X]),
	                     .m = m, .b = b, .w = m < b ? m : b, .lda = lda, .ldx = LD(buffers[S_X])};
}

/* Rows [r0, r1) of x = a e for the lower m-by-m symmetric a: the rows'
 * part left of the diagonal block, the block, the part right of it (the
 * columns below the block, transposed). */
static void symm_rows(int m, int k, int r0, int r1, const real_t *a, int lda, const real_t *e,
                      int lde, real_t *x, int ldx)
{
	int h = r1 - r0;
	BLAS(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, h, k, r0, 1, a + r0, lda, e, lde, 0,
	           x + r0, ldx);
	BLAS(symm)(CblasColMajor, CblasLeft, CblasLower, h, k, 1, a + r0 + (int64_t)r0 * lda, lda,
	           e + r0, lde, 1, x + r0, ldx);
	BLAS(gemm)(CblasColMajor, CblasTrans, CblasNoTrans, h, k, m - r1, 1, a + r1 + (int64_t)r0 * lda,
	           lda, e + r1, lde, 1, x + r0, ldx);
}

/* On a combined worker of the cores (or one core): core 0 factors the
 * panel and makes its V explicit in place (R kept aside); each core its
 * rows of X, its sum of V^T X, then its equal-area columns of the SYR2K. */
static void step_cpu(void *buffers[], void *cl_arg)
{
	struct sy2sb_args *arg = cl_arg;
	int size = starpu_combined_worker_get_size(), rank = starpu_combined_worker_get_rank();
	if (rank >= size)
		return; /* see hyla__spmd_cols */
	struct step s = step_of(buffers, arg);
	int b = s.b, w = s.w, m = s.m;
	struct team t;
	/* Common: tau, T, R, then dgeqrf's (64 b) and dlarfb's (at most b^2)
	 * work; a core's slot: its V^T X, then the sum. */
	int64_t bb = (int64_t)b * b;
	if (!team_join(&t, &arg->team, rank, size, b + 3 * bb + 64 * (int64_t)b, (int)(2 * bb)))
		STARPU_ABORT_MSG("sy2sb step: no memory for the cores' sums");
	real_t *tau = t.common + C_FREE, *tt = tau + b, *r = tt + bb, *work = r + bb;
	if (rank == 0) {
		LAPACKE(geqrf_work)(LAPACK_COL_MAJOR, m, w, s.p, s.lda, tau, work, 64 * b);
		TYPED(hyla__larft_host)(m, w, s.p, s.lda, tau, tt, b);
		if (w < b)
			LAPACKE(larfb_work)(LAPACK_COL_MAJOR, 'L', 'T', 'F', 'C', m, b - w, w, s.p, s.lda, tt,
			                    b, s.p + (int64_t)w * s.lda, s.lda, work, b - w);
		for (int j = 0; j < w; j++) /* R aside, V's unit upper part in its place */
			for (int i = 0; i <= j; i++)
				r[i + j * b] = s.p[i + (int64_t)j * s.lda], s.p[i + (int64_t)j * s.lda] = i == j;
	}
	team_wait(&t);
	const real_t *e = s.p;
	int r0 = (int)((int64_t)m * rank / size), r1 = (int)((int64_t)m * (rank + 1) / size);
	real_t *part = team_slot(&t, rank) + S_DOTS, *mw = part + b * b;
	memset(part, 0, sizeof *part * (size_t)(w * w));
	if (r1 > r0) {
		symm_rows(m, w, r0, r1, s.a22, s.lda, e, s.lda, s.x, s.ldx);
		BLAS(trmm)(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, r1 - r0, w, 1,
		           tt, b, s.x + r0, s.ldx);
		BLAS(gemm)(CblasColMajor, CblasTrans, CblasNoTrans, w, w, r1 - r0, 1, e + r0, s.lda,
		           s.x + r0, s.ldx, 0, part, w);
	}
	team_wait(&t);
	memset(mw, 0, sizeof *mw * (size_t)(w * w)); /* V^T X, summed in core order */
	for (int q = 0; q < size; q++)
		for (int i = 0; i < w * w; i++)
			mw[i] += team_slot(&t, q)[S_DOTS + i];
	BLAS(trmm)(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, w, w, 1, tt, b, mw,
	           w);
	if (r1 > r0)
		BLAS(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, r1 - r0, w, w, -(real_t)0.5, e + r0,
		           s.lda, mw, w, 1, s.x + r0, s.ldx);
	team_wait(&t);
	TYPED(hyla__syr2k_columns)(m, w, (int)hyla__triangle_share(m, rank, size),
	                           (int)hyla__triangle_share(m, rank + 1, size), e, s.lda, s.x, s.ldx,
	                           s.a22, s.lda);
	team_wait(&t);
	if (rank == 0)
		for (int j = 0; j < w; j++)
			for (int i = 0; i <= j; i++)
				s.p[i + (int64_t)j * s.lda] = r[i + j * b];
	team_leave(&t);
}

#ifdef HYLA_WITH_CUDA
/* The same on the worker's stream: the panel's QR and T by hyla's kernels,
 * the rest cuBLAS. */
static void step_cuda(void *buffers[], void *cl_arg)
{
	struct step s = step_of(buffers, cl_arg);
	int b = s.b, w = s.w, m = s.m;
	cudaStream_t stream = starpu_cuda_get_local_stream();
	cublasHandle_t h = starpu_cublas_get_local_handle();
	real_t *tau = hyla__cuda_scratch(sizeof *tau * ((size_t)b + 2 * (size_t)b * b +
	                                                HYLA_GEQR2_SCRATCH_ELEMS + (size_t)m * b),
	                                 stream);
	real_t *tt = tau + b, *mw = tt + (size_t)b * b, *qr = mw + (size_t)b * b;
	real_t *e = qr + HYLA_GEQR2_SCRATCH_ELEMS;
	const real_t one = 1, zero = 0, minus_one = -1, minus_half = -(real_t)0.5;
	TYPED(hyla__cuda_geqrf_panel)(m, w, s.p, s.lda, tau, tt, b, qr, h, stream);
	if (w < b)
		TYPED(hyla__cublas_larfb)(h, 1, m, w, b - w, s.p, s.lda, tt, b, s.p + (int64_t)w * s.lda,
		                          s.lda, qr);
	TYPED(hyla__cuda_explicit_v)(m, w, s.p, s.lda, e, stream);
	hyla__cublas_check(CUBLAS(symm)(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, m, w, &one, s.a22, s.lda, e, m,
	                   &zero, s.x, s.ldx));
	hyla__cublas_check(CUBLAS(trmm)(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N,
	                   CUBLAS_DIAG_NON_UNIT, m, w, &one, tt, b, s.x, s.ldx, s.x, s.ldx));
	hyla__cublas_check(CUBLAS(gemm)(h, CUBLAS_OP_T, CUBLAS_OP_N, w, w, m, &one, e, m, s.x, s.ldx, &zero, mw, w));
	hyla__cublas_check(CUBLAS(trmm)(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T,
	                   CUBLAS_DIAG_NON_UNIT, w, w, &one, tt, b, mw, w, mw, w));
	hyla__cublas_check(CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_N, m, w, w, &minus_half, e, m, mw, w, &one, s.x,
	                   s.ldx));
	hyla__cublas_check(CUBLAS(syr2k)(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, m, w, &minus_one, e, m, s.x, s.ldx,
	                    &one, s.a22, s.lda));
	hyla__cuda_scratch_free(tau, stream);
}
#endif

static struct starpu_codelet step_cl = {
	.cpu_funcs = {step_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {step_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__on_views_else_cores,
	.type = STARPU_SPMD,
	.max_parallelism = HYLA_MAX_PARALLELISM,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "sy2sb_step_" PREC_NAME,
};

int TYPED(hyla__insert_sy2sb_step)(const hyla_desc *A, starpu_data_handle_t x, int64_t col,
                                   int64_t b)
{
	int64_t k = col / A->nb;
	struct sy2sb_args arg = {.col = col, .first = k * A->nb, .b = b};
	/* X: one the cores share; on a GPU, scratch. */
	const struct starpu_data_descr fixed[] = {{x, hyla__parallel_tasks() ? STARPU_W : STARPU_SCRATCH}};
	return hyla__submit_on_panels((struct hyla_task){.cl = &step_cl, .data = fixed, .ndata = 1,
	                                                 .arg = &arg, .arg_size = sizeof arg,
	                                                 .priority = hyla__parallel_prio(STARPU_MAX_PRIO),
	                                                 .all_cores = 1},
	                              &A->tiles[k], (int)(A->nt - k), STARPU_RW, STARPU_RW);
}

/* Band entry (r, c), c <= r <= c + b, from the matrix; the fill's rows zero. */
static void gather_cpu(void *buffers[], void *cl_arg)
{
	int b = (int)((const struct sy2sb_args *)cl_arg)->b;
	if (!hyla__contiguous_cols(buffers, 1, sizeof(real_t)))
		STARPU_ABORT_MSG("sy2sb gather: the panels are not contiguous");
	const real_t *a = MAT(buffers[1]);
	int n = ROWS(buffers[1]), lda = LD(buffers[1]);
	real_t *band = (real_t *)STARPU_VECTOR_GET_PTR(buffers[0]);
	memset(band, 0, sizeof *band * TYPED(hyla__band_chase_len)(n, b));
	for (int c = 0; c < n; c++)
		for (int r = c; r <= c + b && r < n; r++)
			band[r + 2 * (int64_t)b * c] = a[r + (int64_t)c * lda];
}

#ifdef HYLA_WITH_CUDA
static void gather_cuda(void *buffers[], void *cl_arg)
{
	int b = (int)((const struct sy2sb_args *)cl_arg)->b;
	if (!hyla__contiguous_cols(buffers, 1, sizeof(real_t)))
		STARPU_ABORT_MSG("sy2sb gather: the panels are not contiguous");
	TYPED(hyla__cuda_band_gather)(ROWS(buffers[1]), b, MAT(buffers[1]), LD(buffers[1]),
	                              (real_t *)STARPU_VECTOR_GET_PTR(buffers[0]),
	                              starpu_cuda_get_local_stream());
}
#endif

static struct starpu_codelet gather_cl = {
	.cpu_funcs = {gather_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {gather_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__on_views_else_cores,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "sy2sb_gather_" PREC_NAME,
};

int TYPED(hyla__insert_sy2sb_gather)(const hyla_desc *A, starpu_data_handle_t band, int64_t b)
{
	struct sy2sb_args arg = {.b = b};
	const struct starpu_data_descr fixed[] = {{band, STARPU_W}};
	return hyla__submit_on_panels((struct hyla_task){.cl = &gather_cl, .data = fixed, .ndata = 1,
	                                                 .arg = &arg, .arg_size = sizeof arg,
	                                                 .priority = STARPU_MAX_PRIO},
	                              A->tiles, (int)A->nt, STARPU_R, STARPU_R);
}
