/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The split Hessenberg panel of Tomov, Nath and Dongarra (2010): DLAHR2's column
 * loop on the CPU, one task per column, and each column's big GEMV
 * y_j = A(r0:n, i+j+1:n) v_j as its own tasks over the trailing matrix, where
 * it lives (the GPU, or column groups on the CPU workers). Only v_j and the
 * partial sums of y_j travel. Typed source: see runtime/precision.h.
 *
 * Column j's matrix columns pair with v_j's rows: column c multiplies v_j[c]
 * (reflector j has its unit element at row r0 + j = i + j + 1). The panel's
 * own later columns enter the GEMV with their values from before the panel
 * (a snapshot taken first), as in DLAHR2. */
#include <cblas.h>
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>
#include "codelets.h"
#include "runtime.h"
#ifdef HYLA_WITH_CUDA
#include <starpu_cublas_v2.h>
#endif

struct split_args {
	int64_t col;   /* first column of the panel */
	int j;         /* the panel column (column task: nb finishes the panel) */
	int own;       /* GEMV: the task also covers the panel's own columns */
	int64_t first; /* GEMV: matrix column of its first trailing panel */
};

/* The task's arguments (runtime.h's struct hyla_task). */
static struct split_args args_of(const void *cl_arg)
{
	return *(const struct split_args *)cl_arg;
}

#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))
#define VEC(buf) ((real_t *)STARPU_VECTOR_GET_PTR(buf))
#define LD(buf) ((int)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int)STARPU_MATRIX_GET_NX(buf))
#define COLS(buf) ((int)STARPU_MATRIX_GET_NY(buf))

/* Column task buffers: panel (RW), Y, T, tau (RW), its output (W: v_j, or
 * the explicit V when j = nb), beta of the last reflector (RW), then the
 * partial sums of y_{j-1} (R). */
enum { K_A, K_Y, K_T, K_TAU, K_OUT, K_EI, K_PART };
/* GEMV task buffers: v (R), partial y (W), then the panel's snapshot if own,
 * then the trailing panels (R, contiguous). */
enum { G_VJ, G_Y, G_MAT };

static void snapshot_cpu(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	LAPACKE(lacpy_work)(LAPACK_COL_MAJOR, 'A', ROWS(buffers[0]), COLS(buffers[0]), MAT(buffers[0]),
	                    LD(buffers[0]), MAT(buffers[1]), LD(buffers[1]));
}

#ifdef HYLA_WITH_CUDA
static void snapshot_cuda(void *buffers[], void *cl_arg)
{
	(void)cl_arg;
	size_t el = sizeof(real_t);
	cudaMemcpy2DAsync(MAT(buffers[1]), LD(buffers[1]) * el, MAT(buffers[0]), LD(buffers[0]) * el,
	                  ROWS(buffers[0]) * el, (size_t)COLS(buffers[0]), cudaMemcpyDeviceToDevice,
	                  starpu_cuda_get_local_stream());
}
#endif

/* y_{j-1} = tau (sum of the partials - Y t), t = V^T v_{j-1}, and T's column
 * j-1: DLAHR2's steps after its GEMV. */
static void finish_y(void *buffers[], int nparts, int n, int r0, int jp)
{
	real_t *a = MAT(buffers[K_A]), *y = MAT(buffers[K_Y]), *t = MAT(buffers[K_T]);
	real_t *tau = MAT(buffers[K_TAU]);
	int lda = LD(buffers[K_A]), ldy = LD(buffers[K_Y]), ldt = LD(buffers[K_T]), rows = n - r0;
	real_t *yj = y + r0 + (int64_t)jp * ldy, *tj = t + (int64_t)jp * ldt;
	const real_t *vj = a + r0 + jp + (int64_t)jp * lda;
	memcpy(yj, VEC(buffers[K_PART]) + r0, sizeof *yj * (size_t)rows);
	for (int p = 1; p < nparts; p++)
		BLAS(axpy)(rows, 1, VEC(buffers[K_PART + p]) + r0, 1, yj, 1);
	if (jp > 0) {
		BLAS(gemv)(CblasColMajor, CblasTrans, rows - jp, jp, 1, a + r0 + jp, lda, vj, 1, 0, tj, 1);
		BLAS(gemv)(CblasColMajor, CblasNoTrans, rows, jp, -1, y + r0, ldy, tj, 1, 1, yj, 1);
	}
	BLAS(scal)(rows, tau[jp], yj, 1);
	if (jp > 0) {
		BLAS(scal)(jp, -tau[jp], tj, 1);
		BLAS(trmv)(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, jp, t, ldt, tj, 1);
	}
	tj[jp] = tau[jp];
}

/* Column j from the right (-Y row r0+j-1 of V) and the left (I - V T^T V^T),
 * with T's last column as workspace, as DLAHR2 does. */
static void update_column(real_t *a, int lda, const real_t *y, int ldy, real_t *t, int ldt, int nb,
                          int rows, int r0, int j)
{
	real_t *col = a + (int64_t)j * lda, *w = t + (int64_t)(nb - 1) * ldt;
	BLAS(gemv)(CblasColMajor, CblasNoTrans, rows, j, -1, y + r0, ldy, a + r0 + j - 1, lda, 1,
	           col + r0, 1);
	BLAS(copy)(j, col + r0, 1, w, 1);
	BLAS(trmv)(CblasColMajor, CblasLower, CblasTrans, CblasUnit, j, a + r0, lda, w, 1);
	BLAS(gemv)(CblasColMajor, CblasTrans, rows - j, j, 1, a + r0 + j, lda, col + r0 + j, 1, 1, w, 1);
	BLAS(trmv)(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, j, t, ldt, w, 1);
	BLAS(gemv)(CblasColMajor, CblasNoTrans, rows - j, j, -1, a + r0 + j, lda, w, 1, 1, col + r0 + j, 1);
	BLAS(trmv)(CblasColMajor, CblasLower, CblasNoTrans, CblasUnit, j, a + r0, lda, w, 1);
	BLAS(axpy)(j, -1, w, 1, col + r0, 1);
}

static void column_cpu(void *buffers[], void *cl_arg)
{
	const struct split_args a_ = args_of(cl_arg), *arg = &a_;
	real_t *a = MAT(buffers[K_A]), *ei = VEC(buffers[K_EI]);
	int n = ROWS(buffers[K_A]), nb = COLS(buffers[K_A]), lda = LD(buffers[K_A]);
	int r0 = (int)arg->col + 1, rows = n - r0, j = arg->j;
	int nparts = (int)STARPU_TASK_GET_NBUFFERS(starpu_task_get_current()) - K_PART;

	if (j > 0)
		finish_y(buffers, nparts, n, r0, j - 1);
	if (j == nb) {
		a[r0 + nb - 1 + (int64_t)(nb - 1) * lda] = *ei;
		TYPED(hyla__gehrd_build_v)(n, nb, r0, a, lda, MAT(buffers[K_OUT]), LD(buffers[K_OUT]));
		return;
	}
	real_t *col = a + (int64_t)j * lda, *tau = MAT(buffers[K_TAU]);
	if (j > 0) {
		update_column(a, lda, MAT(buffers[K_Y]), LD(buffers[K_Y]), MAT(buffers[K_T]),
		              LD(buffers[K_T]), nb, rows, r0, j);
		a[r0 + j - 1 + (int64_t)(j - 1) * lda] = *ei;
	}
	real_t *alpha = col + r0 + j;
	LAPACKE(larfg_work)(rows - j, alpha, col + (r0 + j + 1 < n ? r0 + j + 1 : n - 1), 1, tau + j);
	*ei = *alpha;
	*alpha = 1;
	memcpy(VEC(buffers[K_OUT]) + r0 + j, alpha, sizeof *alpha * (size_t)(rows - j));
}

/* Partial y_j over this task's columns: the snapshot's columns j+1.. (own)
 * and the trailing panels from matrix column first. */
static void gemv_cpu(void *buffers[], void *cl_arg)
{
	const struct split_args a_ = args_of(cl_arg), *arg = &a_;
	const real_t *v = VEC(buffers[G_VJ]);
	real_t *y = VEC(buffers[G_Y]);
	int trail = G_MAT + arg->own, cols = hyla__contiguous_cols(buffers, trail, sizeof(real_t));
	if (!cols)
		STARPU_ABORT_MSG("gehrd gemv: panels are not contiguous in host memory");
	int n = ROWS(buffers[trail]), r0 = (int)arg->col + 1, rows = n - r0, j = arg->j;
	real_t beta = 0;
	if (arg->own && j + 1 < COLS(buffers[G_MAT])) {
		int nown = COLS(buffers[G_MAT]) - j - 1, ld = LD(buffers[G_MAT]);
		BLAS(gemv)(CblasColMajor, CblasNoTrans, rows, nown, 1,
		           MAT(buffers[G_MAT]) + r0 + (int64_t)(j + 1) * ld, ld, v + r0 + j, 1, 0, y + r0, 1);
		beta = 1;
	}
	BLAS(gemv)(CblasColMajor, CblasNoTrans, rows, cols, 1, MAT(buffers[trail]) + r0,
	           LD(buffers[trail]), v + arg->first, 1, beta, y + r0, 1);
}

#ifdef HYLA_WITH_CUDA
static void gemv_cuda(void *buffers[], void *cl_arg)
{
	const struct split_args a_ = args_of(cl_arg), *arg = &a_;
	const real_t *v = VEC(buffers[G_VJ]);
	real_t *y = VEC(buffers[G_Y]);
	int trail = G_MAT + arg->own, cols = hyla__contiguous_cols(buffers, trail, sizeof(real_t));
	if (!cols)
		STARPU_ABORT_MSG("gehrd gemv: panels are not contiguous in GPU memory");
	int n = ROWS(buffers[trail]), r0 = (int)arg->col + 1, rows = n - r0, j = arg->j;
	cublasHandle_t h = starpu_cublas_get_local_handle();
	const real_t one = 1, zero = 0;
	const real_t *beta = &zero;
	if (arg->own && j + 1 < COLS(buffers[G_MAT])) {
		int nown = COLS(buffers[G_MAT]) - j - 1, ld = LD(buffers[G_MAT]);
		CUBLAS(gemv)(h, CUBLAS_OP_N, rows, nown, &one, MAT(buffers[G_MAT]) + r0 + (int64_t)(j + 1) * ld,
		             ld, v + r0 + j, 1, &zero, y + r0, 1);
		beta = &one;
	}
	CUBLAS(gemv)(h, CUBLAS_OP_N, rows, cols, &one, MAT(buffers[trail]) + r0, LD(buffers[trail]),
	             v + arg->first, 1, beta, y + r0, 1);
}
#endif

/* The GEMVs and the snapshot take microseconds: below what a model can
 * time (StarPU flushed their histories for noise, run after run), so they
 * have none; dmda places them by the data they need and the queues. */
static struct starpu_codelet snapshot_cl = {
	.cpu_funcs = {snapshot_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {snapshot_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 2,
	.modes = {STARPU_R, STARPU_W},
	.name = "gehrd_snapshot_" PREC_NAME,
};

static struct starpu_codelet column_cl = {
	.cpu_funcs = {column_cpu},
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "gehrd_column_" PREC_NAME,
};

static struct starpu_codelet gemv_cl = {
	.cpu_funcs = {gemv_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {gemv_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__on_views_node,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "gehrd_gemv_" PREC_NAME,
};

static int insert(struct starpu_codelet *cl, struct starpu_data_descr *descr, int count,
                  struct split_args arg, unsigned long long where)
{
	return hyla__submit(&(struct hyla_task){
		.cl = cl, .data = descr, .ndata = count, .arg = &arg, .arg_size = sizeof arg,
		.priority = STARPU_MAX_PRIO, .flops = 0, .where = (uint32_t)where});
}

int TYPED(hyla__insert_gehrd_snapshot)(starpu_data_handle_t panel, starpu_data_handle_t copy)
{
	struct starpu_data_descr data[] = {{panel, STARPU_R}, {copy, STARPU_W}};
	return hyla__submit(&(struct hyla_task){
		.cl = &snapshot_cl, .data = data, .ndata = 2, .arg = NULL, .arg_size = 0,
		.priority = STARPU_MAX_PRIO});
}

int TYPED(hyla__insert_gehrd_column)(const struct hyla_split_panel *p, int j,
                                     const starpu_data_handle_t *parts, int nparts)
{
	struct starpu_data_descr descr[K_PART + HYLA_SPLIT_MAX_PARTS];
	/* Y, T and beta hold nothing yet at column 0, which reads none of them
	 * (StarPU refuses to read a handle never written). */
	enum starpu_data_access_mode mode = j == 0 ? STARPU_W : STARPU_RW;
	descr[K_A] = (struct starpu_data_descr){p->panel, STARPU_RW};
	descr[K_Y] = (struct starpu_data_descr){p->y, mode};
	descr[K_T] = (struct starpu_data_descr){p->t, mode};
	descr[K_TAU] = (struct starpu_data_descr){p->tau, STARPU_RW};
	descr[K_OUT] = (struct starpu_data_descr){j < (int)starpu_matrix_get_ny(p->panel) ? p->vj : p->v, STARPU_W};
	descr[K_EI] = (struct starpu_data_descr){p->ei, mode};
	for (int q = 0; q < nparts; q++)
		descr[K_PART + q] = (struct starpu_data_descr){parts[q], STARPU_R};
	return insert(&column_cl, descr, K_PART + nparts, (struct split_args){.col = p->col, .j = j},
	              STARPU_CPU);
}

int TYPED(hyla__insert_gehrd_gemv)(const struct hyla_split_panel *p, int j, starpu_data_handle_t part,
                                   const starpu_data_handle_t *panels, int npanels, int64_t first,
                                   int own, unsigned long long where)
{
	int count = G_MAT + own + npanels;
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)count);
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a GEMV task");
	descr[G_VJ] = (struct starpu_data_descr){p->vj, STARPU_R};
	descr[G_Y] = (struct starpu_data_descr){part, STARPU_W};
	if (own)
		descr[G_MAT] = (struct starpu_data_descr){p->snapshot, STARPU_R};
	for (int q = 0; q < npanels; q++)
		descr[G_MAT + own + q] = (struct starpu_data_descr){panels[q], STARPU_R};
	int ret = insert(&gemv_cl, descr, count,
	                 (struct split_args){.col = p->col, .j = j, .own = own, .first = first}, where);
	free(descr);
	return ret;
}
