/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The Gram-Schmidt QRs' first look at each column: its norm, and a power of
 * two that brings its largest entry near 1 where squares of its entries
 * would overflow or underflow. Gram-Schmidt commutes with scaling a column
 * by a power of two (every operation on the column scales exactly), so the
 * factorisation of the scaled matrix gives the same Q and R's column
 * scaled back (algorithms' hyla__gs_finish). The norm is what the test of a
 * dependent column compares its remainder with. Typed source: see
 * runtime/precision.h. */
#include <math.h>
#include "codelets.h"
#include "gs_scaling.h"
#include "runtime.h"
#ifdef HYLA_WITH_CUDA
#include "cuda/kernels.h"
#endif

#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))
#define LD(buf) ((int64_t)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int64_t)STARPU_MATRIX_GET_NX(buf))
#define COLS(buf) ((int64_t)STARPU_MATRIX_GET_NY(buf))

#ifdef HYLA_PREC_D
#define SAFE_MIN HYLA_GS_SAFE_MIN_D
#define SAFE_MAX HYLA_GS_SAFE_MAX_D
#else
#define SAFE_MIN HYLA_GS_SAFE_MIN_S
#define SAFE_MAX HYLA_GS_SAFE_MAX_S
#endif

static void columns_cpu(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	real_t *a = MAT(buffers[0]), *info = MAT(buffers[1]);
	int64_t m = ROWS(buffers[0]), lda = LD(buffers[0]), ldi = LD(buffers[1]);
	for (int64_t j = 0; j < COLS(buffers[0]); j++) {
		real_t *x = a + j * lda, big = 0;
		for (int64_t i = 0; i < m; i++)
			big = fmax(big, fabs(x[i]));
		int e = 0;
		if (big > 0 && isfinite(big) && (big < SAFE_MIN || big > SAFE_MAX)) {
			e = -ilogb(big);
			for (int64_t i = 0; i < m; i++)
				x[i] = scalbn(x[i], e);
		}
		real_t ss = 0;
		for (int64_t i = 0; i < m; i++)
			ss += x[i] * x[i];
		info[j * ldi] = sqrt(ss);
		info[1 + j * ldi] = (real_t)e;
	}
}

#ifdef HYLA_WITH_CUDA
static void columns_cuda(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	TYPED(hyla__cuda_gs_columns)((int)ROWS(buffers[0]), (int)COLS(buffers[0]), MAT(buffers[0]),
	                             LD(buffers[0]), MAT(buffers[1]), LD(buffers[1]),
	                             starpu_cuda_get_local_stream());
}
#endif

static size_t columns_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	starpu_data_handle_t a = STARPU_TASK_GET_HANDLE(task, 0);
	return (size_t)starpu_matrix_get_nx(a) * starpu_matrix_get_ny(a);
}

static struct starpu_perfmodel columns_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_gs_columns_" PREC_NAME "_v1",
	.size_base = columns_size,
};

static struct starpu_codelet columns_cl = {
	.cpu_funcs = {columns_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {columns_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 2,
	.modes = {STARPU_RW, STARPU_W},
	.model = &columns_model,
	.name = "gs_columns_" PREC_NAME,
};

int TYPED(hyla__insert_gs_columns)(starpu_data_handle_t a, starpu_data_handle_t info,
                                   int priority)
{
	double flops = 3 * (double)starpu_matrix_get_nx(a) * starpu_matrix_get_ny(a);
	struct starpu_data_descr data[] = {{a, STARPU_RW}, {info, STARPU_W}};
	return hyla__submit(&(struct hyla_task){
		.cl = &columns_cl, .data = data, .ndata = 2, .arg = NULL, .arg_size = 0,
		.priority = priority, .flops = flops});
}
