/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Codelets of modified Gram-Schmidt: the panel (column-by-column MGS inside
 * one column panel) and the update of a later panel by a factored one.
 * Typed source: see runtime/precision.h. */
#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include "codelets.h"
#include "runtime.h"
#ifdef HYLA_WITH_CUDA
#include <starpu_cublas_v2.h>
#include "cuda/kernels.h"
#endif

struct mgs_args {
	int64_t c0, c1; /* the columns of the panel being factored or applied */
	int64_t col;    /* the panel's first column in the matrix */
	hyla_sequence *seq; /* of the call: a failure skips the later tasks */
};

#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))
#define LD(buf) ((int64_t)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int64_t)STARPU_MATRIX_GET_NX(buf))
#define COLS(buf) ((int64_t)STARPU_MATRIX_GET_NY(buf))

/* The panel factors its columns in sub-panels of PANEL_IB: column by column
 * inside a sub-panel (Level 2 on at most PANEL_IB columns, which stay in
 * cache), then the sub-panel's projections are applied to the rest of the
 * panel at once (Level 3), as the update does across panels. */
#ifdef HYLA_WITH_CUDA
#define PANEL_IB HYLA_MGS_IB
#else
#define PANEL_IB 32
#endif

/* Sum over the factored columns of the number of columns each one touches. */
static double panel_span(int64_t w, int64_t c0, int64_t c1)
{
	double span = 0;
	for (int64_t j = c0; j < c1; j++)
		span += (double)(w - j);
	return span;
}

static int64_t min64(int64_t x, int64_t y)
{
	return x < y ? x : y;
}

/* MGS on columns [j0, j1) of a, each projected out of the later ones up to j1;
 * writes R(j, j:j1). */
static void columns_cpu(int64_t m, real_t *a, int64_t lda, real_t *r, int64_t ldr, int64_t j0,
                        int64_t j1)
{
	for (int64_t j = j0; j < j1; j++) {
		real_t *v = a + j * lda, *rrow = r + j + j * ldr;
		int64_t nr = j1 - j;
		/* rrow = A(:, j:j1)^T v: the squared norm of v, then the
		 * unnormalised projections of the later columns on v. */
		BLAS(gemv)(CblasColMajor, CblasTrans, m, nr, 1, v, lda, v, 1, 0, rrow, ldr);
		real_t rjj = sqrt(rrow[0]);
		rrow[0] = rjj;
		for (int64_t k = 1; k < nr; k++)
			rrow[k * ldr] /= rjj;
		for (int64_t i = 0; i < m; i++)
			v[i] /= rjj;
		if (nr > 1)
			BLAS(ger)(CblasColMajor, m, nr - 1, -1, v, 1, rrow + ldr, ldr, v + lda, lda);
	}
}

/* The projections of the b orthonormal columns q, with Gram matrix g, applied
 * to the m-by-w a: r = (I + L)^{-1} q^T a (b-by-w), a -= q r. */
static void apply_cpu(int64_t m, int64_t b, const real_t *q, int64_t ldq, const real_t *g,
                      int64_t ldg, real_t *a, int64_t lda, int64_t w, real_t *r, int64_t ldr)
{
	if (b == 1) {
		BLAS(gemv)(CblasColMajor, CblasTrans, m, w, 1, a, lda, q, 1, 0, r, ldr);
		BLAS(ger)(CblasColMajor, m, w, -1, q, 1, r, ldr, a, lda);
		return;
	}
	BLAS(gemm)(CblasColMajor, CblasTrans, CblasNoTrans, b, w, m, 1, q, ldq, a, lda, 0, r, ldr);
	BLAS(trsm)(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, b, w, 1, g, ldg,
	           r, ldr);
	BLAS(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, m, w, b, -1, q, ldq, r, ldr, 1, a, lda);
}

static void gram_cpu(int64_t m, int64_t b, const real_t *q, int64_t ldq, real_t *g, int64_t ldg)
{
	if (b > 1)
		BLAS(syrk)(CblasColMajor, CblasLower, CblasTrans, b, m, 1, q, ldq, 0, g, ldg);
}

static void panel_cpu(void *buffers[], void *cl_arg)
{
	const struct mgs_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	real_t *a = MAT(buffers[0]), *r = MAT(buffers[1]), *g = MAT(buffers[2]);
	int64_t m = ROWS(buffers[0]), w = COLS(buffers[0]);
	int64_t lda = LD(buffers[0]), ldr = LD(buffers[1]), ldg = LD(buffers[2]);

	for (int64_t s0 = arg->c0; s0 < arg->c1; s0 += PANEL_IB) {
		int64_t s1 = min64(s0 + PANEL_IB, arg->c1), b = s1 - s0;
		real_t *q = a + s0 * lda, *gs = g + s0 + s0 * ldg;
		columns_cpu(m, a, lda, r, ldr, s0, s1);
		if (s1 < w) {
			gram_cpu(m, b, q, lda, gs, ldg);
			apply_cpu(m, b, q, lda, gs, ldg, a + s1 * lda, lda, w - s1, r + s0 + s1 * ldr, ldr);
		}
	}
	gram_cpu(m, arg->c1 - arg->c0, a + arg->c0 * lda, lda, g + arg->c0 + arg->c0 * ldg, ldg);
	for (int64_t j = arg->c0; j < arg->c1; j++)
		if (!(r[j + j * ldr] > 0)) {
			hyla__sequence_fail(arg->seq, (int)(arg->col + j + 1));
			return;
		}
}

static void update_cpu(void *buffers[], void *cl_arg)
{
	const struct mgs_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	int64_t ldq = LD(buffers[0]), ldg = LD(buffers[1]);
	apply_cpu(ROWS(buffers[2]), arg->c1 - arg->c0, MAT(buffers[0]) + arg->c0 * ldq, ldq,
	          MAT(buffers[1]) + arg->c0 + arg->c0 * ldg, ldg, MAT(buffers[2]), LD(buffers[2]),
	          COLS(buffers[2]), MAT(buffers[3]) + arg->c0, LD(buffers[3]));
}

#ifdef HYLA_WITH_CUDA
static void apply_cuda(cublasHandle_t h, int m, int b, const real_t *q, int ldq, const real_t *g,
                       int ldg, real_t *a, int lda, int w, real_t *r, int ldr)
{
	const real_t one = 1, zero = 0, minus_one = -1;
	if (b == 1) {
		CUBLAS(gemv)(h, CUBLAS_OP_T, m, w, &one, a, lda, q, 1, &zero, r, ldr);
		CUBLAS(ger)(h, m, w, &minus_one, q, 1, r, ldr, a, lda);
		return;
	}
	CUBLAS(gemm)(h, CUBLAS_OP_T, CUBLAS_OP_N, b, w, m, &one, q, ldq, a, lda, &zero, r, ldr);
	CUBLAS(trsm)(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, b, w,
	             &one, g, ldg, r, ldr);
	CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_N, m, w, b, &minus_one, q, ldq, r, ldr, &one, a, lda);
}

void TYPED(hyla__cublas_gram)(cublasHandle_t h, int rows, int w, const real_t *a, int lda,
                              real_t *g, int ldg)
{
	const real_t one = 1, zero = 0;
	cublasStatus_t status =
	        CUBLAS(gemm)(h, CUBLAS_OP_T, CUBLAS_OP_N, w, w, rows, &one, a, lda, a, lda, &zero, g, ldg);
	if (status != CUBLAS_STATUS_SUCCESS)
		STARPU_CUBLAS_REPORT_ERROR(status);
}

static void gram_cuda(cublasHandle_t h, int m, int b, const real_t *q, int ldq, real_t *g, int ldg)
{
	if (b > 1)
		TYPED(hyla__cublas_gram)(h, m, b, q, ldq, g, ldg);
}

static void panel_cuda(void *buffers[], void *cl_arg)
{
	const struct mgs_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	real_t *a = MAT(buffers[0]), *r = MAT(buffers[1]), *g = MAT(buffers[2]);
	real_t *scratch = (real_t *)STARPU_VECTOR_GET_PTR(buffers[3]);
	int m = (int)ROWS(buffers[0]), w = (int)COLS(buffers[0]);
	int lda = (int)LD(buffers[0]), ldr = (int)LD(buffers[1]), ldg = (int)LD(buffers[2]);
	int c0 = (int)arg->c0, c1 = (int)arg->c1;
	cublasHandle_t h = starpu_cublas_get_local_handle();
	cudaStream_t stream = starpu_cuda_get_local_stream();

	for (int s0 = c0; s0 < c1; s0 += PANEL_IB) {
		int s1 = (int)min64(s0 + PANEL_IB, c1), b = s1 - s0;
		real_t *q = a + (int64_t)s0 * lda, *gs = g + s0 + (int64_t)s0 * ldg;
		TYPED(hyla__cuda_mgs_columns)(m, s0, s1, a, lda, r, ldr, scratch, stream);
		if (s1 < w) {
			gram_cuda(h, m, b, q, lda, gs, ldg);
			apply_cuda(h, m, b, q, lda, gs, ldg, a + (int64_t)s1 * lda, lda, w - s1,
			           r + s0 + (int64_t)s1 * ldr, ldr);
		}
	}
	gram_cuda(h, m, c1 - c0, a + (int64_t)c0 * lda, lda, g + c0 + (int64_t)c0 * ldg, ldg);
}

static void update_cuda(void *buffers[], void *cl_arg)
{
	const struct mgs_args *arg = cl_arg;
	if (hyla__sequence_failed(arg->seq))
		return;
	int ldq = (int)LD(buffers[0]), ldg = (int)LD(buffers[1]);
	apply_cuda(starpu_cublas_get_local_handle(), (int)ROWS(buffers[2]), (int)(arg->c1 - arg->c0),
	           MAT(buffers[0]) + arg->c0 * ldq, ldq, MAT(buffers[1]) + arg->c0 + arg->c0 * ldg,
	           ldg, MAT(buffers[2]), (int)LD(buffers[2]), (int)COLS(buffers[2]),
	           MAT(buffers[3]) + arg->c0, (int)LD(buffers[3]));
}
#endif

/* Perfmodels: cost grows with m times the columns touched; the factored
 * range (c0, c1) is a hidden parameter, so it enters the size base. */
static size_t panel_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	const struct mgs_args *arg = task->cl_arg;
	starpu_data_handle_t a = STARPU_TASK_GET_HANDLE(task, 0);
	return (size_t)(starpu_matrix_get_nx(a) * panel_span(starpu_matrix_get_ny(a), arg->c0, arg->c1));
}

static size_t update_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	const struct mgs_args *arg = task->cl_arg;
	starpu_data_handle_t a = STARPU_TASK_GET_HANDLE(task, 2);
	return (size_t)starpu_matrix_get_nx(a) * starpu_matrix_get_ny(a) * (size_t)(arg->c1 - arg->c0);
}

/* Tasks of equal cost share a footprint: the buffer sizes and the size base
 * (which accounts for the factored columns); for the panel the range itself
 * too (ranges of one span differ in their sub-panels). */
static uint32_t panel_footprint(struct starpu_task *task)
{
	const struct mgs_args *arg = task->cl_arg;
	uint64_t key[3] = {panel_size(task, 0), (uint64_t)arg->c0, (uint64_t)arg->c1};
	return starpu_hash_crc32c_be_n(key, sizeof key, starpu_task_data_footprint(task));
}

static uint32_t update_footprint(struct starpu_task *task)
{
	uint64_t size = update_size(task, 0);
	return starpu_hash_crc32c_be_n(&size, sizeof size, starpu_task_data_footprint(task));
}

/* The panel: a power law (StarPU's a n^b + c fit settles on b = 0 for its
 * samples, a constant: predictions 39-80% off, NaN in single precision). */
static struct starpu_perfmodel panel_model = {
	.type = STARPU_REGRESSION_BASED,
	.symbol = "hyla_mgs_panel_" PREC_NAME "_v4",
	.size_base = panel_size,
	.footprint = panel_footprint,
};

static struct starpu_perfmodel update_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_mgs_update_" PREC_NAME "_v2",
	.size_base = update_size,
	.footprint = update_footprint,
};

static struct starpu_codelet panel_cl = {
	.cpu_funcs = {panel_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {panel_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 4,
	.modes = {STARPU_RW, STARPU_RW, STARPU_W, STARPU_SCRATCH},
	.model = &panel_model,
	.can_execute = hyla__fits_worker,
	.name = "mgs_panel_" PREC_NAME,
};

static struct starpu_codelet update_cl = {
	.cpu_funcs = {update_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {update_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 4,
	.modes = {STARPU_R, STARPU_R, STARPU_RW, STARPU_RW},
	.model = &update_model,
	.can_execute = hyla__fits_worker,
	.name = "mgs_update_" PREC_NAME,
};

static int insert(struct starpu_codelet *cl, const starpu_data_handle_t h[4],
                  const struct mgs_args *arg, double flops, int priority)
{
	struct starpu_data_descr data[4];
	for (int b = 0; b < 4; b++)
		data[b] = (struct starpu_data_descr){h[b], cl->modes[b]};
	return hyla__submit(&(struct hyla_task){
		.cl = cl, .data = data, .ndata = 4, .arg = arg, .arg_size = sizeof *arg,
		.priority = priority, .flops = flops});
}

#ifdef HYLA_PREC_D
starpu_data_handle_t hyla_workspace_dmgs(void)
#else
starpu_data_handle_t hyla_workspace_smgs(void)
#endif
{
	starpu_data_handle_t scratch;
#ifdef HYLA_WITH_CUDA
	uint32_t elems = HYLA_MGS_SCRATCH_ELEMS;
#else
	uint32_t elems = 1;
#endif
	starpu_vector_data_register(&scratch, -1, 0, elems, sizeof(real_t));
	return scratch;
}

#ifdef HYLA_PREC_D
int hyla_task_dmgs_panel(starpu_data_handle_t a, starpu_data_handle_t r, starpu_data_handle_t g,
                         starpu_data_handle_t scratch, int64_t c0, int64_t c1, int64_t col,
                         int priority, hyla_sequence *seq)
#else
int hyla_task_smgs_panel(starpu_data_handle_t a, starpu_data_handle_t r, starpu_data_handle_t g,
                         starpu_data_handle_t scratch, int64_t c0, int64_t c1, int64_t col,
                         int priority, hyla_sequence *seq)
#endif
{
	double m = (double)starpu_matrix_get_nx(a);
	double flops = 4 * m * panel_span(starpu_matrix_get_ny(a), c0, c1);
	struct mgs_args arg = {.c0 = c0, .c1 = c1, .col = col, .seq = seq};
	return insert(&panel_cl, (starpu_data_handle_t[4]){a, r, g, scratch}, &arg, flops, priority);
}

#ifdef HYLA_PREC_D
int hyla_task_dmgs_update(starpu_data_handle_t q, starpu_data_handle_t g, starpu_data_handle_t a,
                          starpu_data_handle_t r, int64_t c0, int64_t c1, int priority,
                          hyla_sequence *seq)
#else
int hyla_task_smgs_update(starpu_data_handle_t q, starpu_data_handle_t g, starpu_data_handle_t a,
                          starpu_data_handle_t r, int64_t c0, int64_t c1, int priority,
                          hyla_sequence *seq)
#endif
{
	double b = (double)(c1 - c0), m = (double)starpu_matrix_get_nx(a);
	double w = (double)starpu_matrix_get_ny(a);
	double flops = 4 * m * b * w + (b > 1 ? b * b * w : 0);
	struct mgs_args arg = {.c0 = c0, .c1 = c1, .seq = seq};
	return insert(&update_cl, (starpu_data_handle_t[4]){q, g, a, r}, &arg, flops, priority);
}
