/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* What the two divide and conquer solvers' tasks share (codelets/secular.c:
 * the tridiagonal eigenproblem; codelets/singular.c: the bidiagonal SVD):
 * a node's state panels, the shares of a merge's roots, and the submission
 * of a task on groups of handles. Included by typed sources only. */
#ifndef HYLA_DC_TASKS_H
#define HYLA_DC_TASKS_H

#include <cblas.h>
#include <stdlib.h>
#include "codelets.h"
#include "runtime.h"
#ifdef HYLA_WITH_CUDA
#include <starpu_cublas_v2.h>
#endif

#define VEC(buf) ((real_t *)STARPU_VECTOR_GET_PTR(buf))
#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))
#define LD(buf) ((int64_t)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int)STARPU_MATRIX_GET_NX(buf))
#define COLS(buf) ((int)STARPU_MATRIX_GET_NY(buf))

/* A node's state panels buffers[first..first+count): row r of column j. */
static inline real_t *dc_state_at(void *buffers[], int first, int count, int r, int64_t j)
{
	for (int t = 0; t < count; t++) {
		int cols = COLS(buffers[first + t]);
		if (j < cols)
			return MAT(buffers[first + t]) + r + j * LD(buffers[first + t]);
		j -= cols;
	}
	STARPU_ABORT_MSG("dc: a column beyond a node's state");
}

/* A share of a merge's roots: a vector of K + 3 cols (cols: its most
 * roots): Loewner's factors of its roots for each pole, then for each root
 * its value, the pole the root finder took as origin and its offset tau
 * from it (the differences to the poles are recomputed from them as the
 * root finder forms them). */
struct dc_share {
	real_t *prod, *root, *origin, *tau;
};

static inline struct dc_share dc_share_of(void *buf, int K)
{
	real_t *x = VEC(buf);
	int cols = (int)(STARPU_VECTOR_GET_NX(buf) - K) / 3;
	return (struct dc_share){x, x + K, x + K + cols, x + K + 2 * cols};
}

/* val[0..count) in ascending order, idx[] carried along. */
struct dc_valued {
	real_t v;
	int i;
};

static inline int dc_by_value(const void *x, const void *y)
{
	real_t a = ((const struct dc_valued *)x)->v, b = ((const struct dc_valued *)y)->v;
	return (a > b) - (a < b);
}

static inline void dc_sort_pairs(real_t *val, int *idx, int count)
{
	struct dc_valued *v = malloc(sizeof *v * (size_t)(count ? count : 1));
	if (!v)
		STARPU_ABORT_MSG("dc: no memory to sort values");
	for (int j = 0; j < count; j++)
		v[j] = (struct dc_valued){val[j], idx[j]};
	qsort(v, (size_t)count, sizeof *v, dc_by_value);
	for (int j = 0; j < count; j++)
		val[j] = v[j].v, idx[j] = v[j].i;
	free(v);
}

/* Submits cl on the groups of handles (each with its mode; h NULL: none). */
struct dc_group {
	const starpu_data_handle_t *h;
	int64_t count;
	enum starpu_data_access_mode mode;
};

static inline int dc_submit(struct starpu_codelet *cl, const void *arg, size_t arg_size,
                            const struct dc_group *g, int ngroups, double flops)
{
	int count = 0, i = 0;
	for (int k = 0; k < ngroups; k++)
		count += g[k].h ? (int)g[k].count : 0;
	struct starpu_data_descr *data = malloc(sizeof *data * (size_t)(count ? count : 1));
	if (!data)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %s task", cl->name);
	for (int k = 0; k < ngroups; k++)
		for (int64_t t = 0; g[k].h && t < g[k].count; t++)
			data[i++] = (struct starpu_data_descr){g[k].h[t], g[k].mode};
	int ret = hyla__submit(&(struct hyla_task){.cl = cl, .data = data, .ndata = count, .arg = arg,
	                                           .arg_size = arg_size, .flops = flops});
	free(data);
	return ret;
}

/* C = A B + beta C, on a core (ctx unused) or with cuBLAS (ctx: the
 * worker's handle). */
typedef void dc_gemm_fn(void *ctx, int m, int n, int k, const real_t *a, int64_t lda,
                        const real_t *b, int64_t ldb, real_t beta, real_t *c, int64_t ldc);

static inline void dc_gemm_blas(void *ctx, int m, int n, int k, const real_t *a, int64_t lda,
                                const real_t *b, int64_t ldb, real_t beta, real_t *c, int64_t ldc)
{
	(void)ctx;
	BLAS(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1, a, (int)lda, b, (int)ldb,
	           beta, c, (int)ldc);
}

#ifdef HYLA_WITH_CUDA
static inline void dc_gemm_cublas(void *ctx, int m, int n, int k, const real_t *a, int64_t lda,
                                  const real_t *b, int64_t ldb, real_t beta, real_t *c,
                                  int64_t ldc)
{
	const real_t one = 1;
	cublasStatus_t status = CUBLAS(gemm)(*(cublasHandle_t *)ctx, CUBLAS_OP_N, CUBLAS_OP_N, m, n,
	                                     k, &one, a, (int)lda, b, (int)ldb, &beta, c, (int)ldc);
	if (status != CUBLAS_STATUS_SUCCESS)
		STARPU_CUBLAS_REPORT_ERROR(status);
}
#endif

/* Host codelets of the divide and conquer (body##_cpu), with or without an
 * NL-regression model of the size base size: without one dmda would see
 * them as free and queue a level's tasks on one core. DC_MODELED_AS names
 * the codelet cl: one body under two models (a pass without vectors costs
 * less at the same size). */
#define DC_HOST_CODELET_AS(cl, body, label, model_ptr)                                           \
	static struct starpu_codelet cl##_cl = {HYLA_HOST_BODY(body##_cpu),                         \
	                                        .nbuffers = STARPU_VARIABLE_NBUFFERS,                \
	                                        .model = model_ptr, .name = label "_" PREC_NAME}
#define DC_HOST_CODELET(body, label, model_ptr) DC_HOST_CODELET_AS(body, body, label, model_ptr)
#define DC_MODELED_AS(cl, body, label, size)                                                     \
	static struct starpu_perfmodel cl##_model = {.type = STARPU_NL_REGRESSION_BASED,            \
	                                             .symbol = "hyla_" label "_" PREC_NAME "_v1",   \
	                                             .size_base = size,                             \
	                                             .footprint = hyla__size_footprint};            \
	DC_HOST_CODELET_AS(cl, body, label, &cl##_model)
#define DC_MODELED_CODELET(body, label, size) DC_MODELED_AS(body, body, label, size)

/* The merges' products (gemm_cpu, gemm_cuda; the size base gemm_size): on
 * the GPU where the models say, on a core up to HYLA_CORE_MAX_UPDATE. */
#ifdef HYLA_WITH_CUDA
#define DC_CUDA_BODY(f) .cuda_funcs = {f}, .cuda_flags = {STARPU_CUDA_ASYNC},
#else
#define DC_CUDA_BODY(f)
#endif
#define DC_GEMM_CODELET(label)                                                                   \
	static struct starpu_perfmodel gemm_model = {.type = STARPU_NL_REGRESSION_BASED,            \
	                                             .symbol = "hyla_" label "_" PREC_NAME "_v1",   \
	                                             .size_base = gemm_size,                        \
	                                             .footprint = hyla__size_footprint};            \
	static struct starpu_codelet gemm_cl = {.cpu_funcs = {gemm_cpu}, DC_CUDA_BODY(gemm_cuda)   \
	                                        .can_execute = hyla__update_on_views_node,          \
	                                        .nbuffers = STARPU_VARIABLE_NBUFFERS,               \
	                                        .model = &gemm_model, .name = label "_" PREC_NAME}

#endif
