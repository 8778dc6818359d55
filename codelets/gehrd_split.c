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
#include "cuda/kernels.h"
#endif

struct split_args {
	int64_t col;   /* first column of the panel */
	int j;         /* the panel column (column task: nb finishes the panel) */
	int own;       /* GEMV: the task also covers the panel's own columns */
	int64_t first; /* GEMV: matrix column of its first trailing panel */
	real_t *host;  /* panel task: its pinned host memory (hyla__gehrd_split_host) */
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
/* Panel task buffers: Y, T, V, tau (W), then the panel (RW) and the trailing
 * panels (R), contiguous. */
enum { S_Y, S_T, S_V, S_TAU, S_PANEL };

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

/* The host side of the column loop: the panel (rows r0.. hold what the loop
 * reads), Y, T and tau, the panel being columns col.. of an n-by-n matrix. */
struct columns {
	real_t *a, *y, *t, *tau;
	int lda, ldy, ldt, n, nb, r0;
};

/* T's column jp = V^T v_jp for now: the part of DLAHR2's step after its
 * GEMV that does not need y_jp (so it can run beside the GEMV). */
static void column_t(const struct columns *c, int jp)
{
	if (jp > 0)
		BLAS(gemv)(CblasColMajor, CblasTrans, c->n - c->r0 - jp, jp, 1, c->a + c->r0 + jp, c->lda,
		           c->a + c->r0 + jp + (int64_t)jp * c->lda, 1, 0, c->t + (int64_t)jp * c->ldt, 1);
}

/* y_jp = tau (y_jp - Y t), t = V^T v_jp (column_t), and T's column jp: the
 * rest of DLAHR2's step, with the GEMV's sum in Y's column jp; yt: Y t if
 * made already, else NULL. */
static void column_y(const struct columns *c, int jp, const real_t *yt)
{
	int rows = c->n - c->r0;
	real_t *yj = c->y + c->r0 + (int64_t)jp * c->ldy, *tj = c->t + (int64_t)jp * c->ldt;
	if (jp > 0 && yt)
		BLAS(axpy)(rows, -1, yt, 1, yj, 1);
	else if (jp > 0)
		BLAS(gemv)(CblasColMajor, CblasNoTrans, rows, jp, -1, c->y + c->r0, c->ldy, tj, 1, 1, yj, 1);
	BLAS(scal)(rows, c->tau[jp], yj, 1);
	if (jp > 0) {
		BLAS(scal)(jp, -c->tau[jp], tj, 1);
		BLAS(trmv)(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, jp, c->t, c->ldt, tj, 1);
	}
	tj[jp] = c->tau[jp];
}

/* Column j from the right: A(r0:n, j) -= Y V(r0+j-1, :)^T. */
static void right_update(const struct columns *c, int j)
{
	real_t *col = c->a + (int64_t)j * c->lda;
	BLAS(gemv)(CblasColMajor, CblasNoTrans, c->n - c->r0, j, -1, c->y + c->r0, c->ldy,
	           c->a + c->r0 + j - 1, c->lda, 1, col + c->r0, 1);
}

/* Column j's start, from the right already: with j > 0, column j from the
 * left (I - V T^T V^T, T's last column as workspace, as DLAHR2 does) and
 * the last reflector's beta put back (*ei); then column j's reflector, its
 * beta kept in *ei and v_j in place (unit element at row r0 + j). Returns
 * v_j. */
static real_t *start_column(const struct columns *c, int j, real_t *ei)
{
	int rows = c->n - c->r0, r0 = c->r0, lda = c->lda;
	real_t *a = c->a, *col = a + (int64_t)j * lda, *w = c->t + (int64_t)(c->nb - 1) * c->ldt;
	if (j > 0) {
		BLAS(copy)(j, col + r0, 1, w, 1);
		BLAS(trmv)(CblasColMajor, CblasLower, CblasTrans, CblasUnit, j, a + r0, lda, w, 1);
		BLAS(gemv)(CblasColMajor, CblasTrans, rows - j, j, 1, a + r0 + j, lda, col + r0 + j, 1, 1,
		           w, 1);
		BLAS(trmv)(CblasColMajor, CblasUpper, CblasTrans, CblasNonUnit, j, c->t, c->ldt, w, 1);
		BLAS(gemv)(CblasColMajor, CblasNoTrans, rows - j, j, -1, a + r0 + j, lda, w, 1, 1,
		           col + r0 + j, 1);
		BLAS(trmv)(CblasColMajor, CblasLower, CblasNoTrans, CblasUnit, j, a + r0, lda, w, 1);
		BLAS(axpy)(j, -1, w, 1, col + r0, 1);
		a[r0 + j - 1 + (int64_t)(j - 1) * lda] = *ei;
	}
	real_t *alpha = col + r0 + j;
	int next = r0 + j + 1 < c->n ? r0 + j + 1 : c->n - 1;
	LAPACKE(larfg_work)(rows - j, alpha, col + next, 1, c->tau + j);
	*ei = *alpha;
	*alpha = 1;
	return alpha;
}

static struct columns columns_of(void *buffers[], int64_t col)
{
	return (struct columns){.a = MAT(buffers[K_A]), .y = MAT(buffers[K_Y]), .t = MAT(buffers[K_T]),
	                        .tau = MAT(buffers[K_TAU]), .lda = LD(buffers[K_A]),
	                        .ldy = LD(buffers[K_Y]), .ldt = LD(buffers[K_T]),
	                        .n = ROWS(buffers[K_A]), .nb = COLS(buffers[K_A]), .r0 = (int)col + 1};
}

static void column_cpu(void *buffers[], void *cl_arg)
{
	const struct split_args arg = args_of(cl_arg);
	const struct columns c = columns_of(buffers, arg.col);
	real_t *ei = VEC(buffers[K_EI]);
	int nparts = (int)STARPU_TASK_GET_NBUFFERS(starpu_task_get_current()) - K_PART, j = arg.j;
	int rows = c.n - c.r0;

	if (j > 0) { /* y_{j-1}: the partial sums, then the rest */
		real_t *yj = c.y + c.r0 + (int64_t)(j - 1) * c.ldy;
		memcpy(yj, VEC(buffers[K_PART]) + c.r0, sizeof *yj * (size_t)rows);
		for (int p = 1; p < nparts; p++)
			BLAS(axpy)(rows, 1, VEC(buffers[K_PART + p]) + c.r0, 1, yj, 1);
		column_t(&c, j - 1);
		column_y(&c, j - 1, NULL);
	}
	if (j == c.nb) {
		c.a[c.r0 + c.nb - 1 + (int64_t)(c.nb - 1) * c.lda] = *ei;
		TYPED(hyla__gehrd_build_v)(c.n, c.nb, c.r0, c.a, c.lda, MAT(buffers[K_OUT]), LD(buffers[K_OUT]));
		return;
	}
	if (j > 0)
		right_update(&c, j);
	const real_t *vj = start_column(&c, j, ei);
	memcpy(VEC(buffers[K_OUT]) + c.r0 + j, vj, sizeof *vj * (size_t)(rows - j));
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

size_t TYPED(hyla__gehrd_split_host)(int64_t n, int64_t nb)
{
	return sizeof(real_t) * (size_t)(3 * n * nb + nb * (nb + 3) + 2 * n);
}

#ifdef HYLA_WITH_CUDA
static void copy_2d(real_t *to, int ldto, const real_t *from, int ldfrom, int rows, int cols,
                    enum cudaMemcpyKind kind, cudaStream_t s)
{
	size_t el = sizeof(real_t);
	cudaMemcpy2DAsync(to, (size_t)ldto * el, from, (size_t)ldfrom * el, (size_t)rows * el,
	                  (size_t)cols, kind, s);
}

/* The whole panel on a CUDA worker: the column loop on its core, on a copy
 * of the panel's rows r0.. in pinned host memory, each column's GEMV on the
 * GPU over the panel's later columns (the GPU's copy keeps their values from
 * before the loop, as DLAHR2 wants) and the trailing matrix: v_j up, y_j
 * down, one synchronisation a column, as MAGMA's dgehrd does by hand. While
 * the GEMV runs the core makes what does not need y_j: t = V^T v_j, and in
 * one pass over Y, Y t and Y's part of the next column's update from the
 * right (its last term, y_j times the unit element, waits). Then the panel,
 * Y, T, V and tau go up; Y's top rows are the Y-top task's. */
static void panel_cuda(void *buffers[], void *cl_arg)
{
	const struct split_args arg = args_of(cl_arg);
	real_t *pa = MAT(buffers[S_PANEL]), *host = arg.host;
	int n = ROWS(buffers[S_PANEL]), nb = COLS(buffers[S_PANEL]), ld = LD(buffers[S_PANEL]);
	if (hyla__contiguous_cols(buffers, S_PANEL, sizeof(real_t)) != n - (int)arg.col)
		STARPU_ABORT_MSG("gehrd split panel: panels are not contiguous in GPU memory");
	int64_t nnb = (int64_t)n * nb;
	const struct columns c = {.a = host, .y = host + nnb, .t = host + 3 * nnb,
	                          .tau = host + 3 * nnb + nb * nb, .lda = n, .ldy = n, .ldt = nb,
	                          .n = n, .nb = nb, .r0 = (int)arg.col + 1};
	/* V (n by nb), Y [t, v row] (n by 2) and [t, v row] (nb by 2) */
	real_t *v = host + 2 * nnb, *yb = c.tau + nb, *b = yb + 2 * (int64_t)n;
	int r0 = c.r0, rows = n - r0;
	size_t el = sizeof(real_t);
	cudaStream_t s = starpu_cuda_get_local_stream();
	cublasHandle_t h = starpu_cublas_get_local_handle();
	const real_t one = 1, zero = 0;
	real_t *dv = hyla__cuda_scratch(2 * (size_t)n * el, s), *dy = dv + n, ei = 0;

	copy_2d(c.a + r0, n, pa + r0, ld, rows, nb, cudaMemcpyDeviceToHost, s);
	if (cudaStreamSynchronize(s) != cudaSuccess)
		STARPU_ABORT_MSG("gehrd split panel: copying the panel from the GPU failed");
	for (int j = 0; j < nb; j++) {
		if (j > 0) { /* y_{j-1}, then column j from the right */
			const real_t *yj = c.y + r0 + (int64_t)(j - 1) * c.ldy;
			column_y(&c, j - 1, yb + r0);
			real_t *col = c.a + r0 + (int64_t)j * c.lda;
			if (j > 1)
				BLAS(axpy)(rows, -1, yb + n + r0, 1, col, 1);
			BLAS(axpy)(rows, -1, yj, 1, col, 1);
		}
		const real_t *vj = start_column(&c, j, &ei);
		cudaMemcpyAsync(dv + r0 + j, vj, (size_t)(rows - j) * el, cudaMemcpyHostToDevice, s);
		CUBLAS(gemv)(h, CUBLAS_OP_N, rows, rows - j, &one, pa + r0 + (int64_t)(j + 1) * ld, ld,
		             dv + r0 + j, 1, &zero, dy + r0, 1);
		cudaMemcpyAsync(c.y + r0 + (int64_t)j * c.ldy, dy + r0, (size_t)rows * el,
		                cudaMemcpyDeviceToHost, s);
		column_t(&c, j);
		if (j > 0) {
			int pair = j + 1 < nb ? 2 : 1;
			BLAS(copy)(j, c.t + (int64_t)j * c.ldt, 1, b, 1);
			BLAS(copy)(j, c.a + r0 + j, c.lda, b + nb, 1);
			BLAS(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, rows, pair, j, 1, c.y + r0, c.ldy,
			           b, nb, 0, yb + r0, n);
		}
		if (cudaStreamSynchronize(s) != cudaSuccess)
			STARPU_ABORT_MSG("gehrd split panel: a column's GEMV failed on the GPU");
	}
	column_y(&c, nb - 1, yb + r0);
	c.a[r0 + nb - 1 + (int64_t)(nb - 1) * c.lda] = ei;
	TYPED(hyla__gehrd_build_v)(n, nb, r0, c.a, c.lda, v, n);

	copy_2d(pa + r0, ld, c.a + r0, c.lda, rows, nb, cudaMemcpyHostToDevice, s);
	copy_2d(MAT(buffers[S_Y]) + r0, LD(buffers[S_Y]), c.y + r0, c.ldy, rows, nb,
	        cudaMemcpyHostToDevice, s);
	copy_2d(MAT(buffers[S_V]), LD(buffers[S_V]), v, n, n, nb, cudaMemcpyHostToDevice, s);
	copy_2d(MAT(buffers[S_T]), LD(buffers[S_T]), c.t, c.ldt, nb, nb, cudaMemcpyHostToDevice, s);
	cudaMemcpyAsync(MAT(buffers[S_TAU]), c.tau, (size_t)nb * el, cudaMemcpyHostToDevice, s);
	hyla__cuda_scratch_free(dv, s);
	if (cudaStreamSynchronize(s) != cudaSuccess)
		STARPU_ABORT_MSG("gehrd split panel: copying the panel to the GPU failed");
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

#ifdef HYLA_WITH_CUDA
/* Alone where it can run (one kind of worker): nothing for a model to choose. */
static struct starpu_codelet panel_cl = {
	.cuda_funcs = {panel_cuda},
	.can_execute = hyla__on_views_node,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "gehrd_split_panel_" PREC_NAME,
};
#endif

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

int TYPED(hyla__insert_gehrd_split_panel)(const struct hyla_split_panel *p,
                                          const starpu_data_handle_t *panels, int npanels,
                                          real_t *host)
{
#ifdef HYLA_WITH_CUDA
	int count = S_PANEL + npanels;
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)count);
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a split panel task");
	descr[S_Y] = (struct starpu_data_descr){p->y, STARPU_W};
	descr[S_T] = (struct starpu_data_descr){p->t, STARPU_W};
	descr[S_V] = (struct starpu_data_descr){p->v, STARPU_W};
	descr[S_TAU] = (struct starpu_data_descr){p->tau, STARPU_W};
	for (int q = 0; q < npanels; q++)
		descr[S_PANEL + q] = (struct starpu_data_descr){panels[q], q == 0 ? STARPU_RW : STARPU_R};
	int ret = insert(&panel_cl, descr, count, (struct split_args){.col = p->col, .host = host},
	                 STARPU_CUDA);
	free(descr);
	return ret;
#else
	(void)p, (void)panels, (void)npanels, (void)host;
	return HYLA_ERROR(HYLA_ERR_NODEV, "the split panel task needs CUDA");
#endif
}
