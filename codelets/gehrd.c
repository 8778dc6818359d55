/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Codelets of the Hessenberg reduction (Tomov, Nath and Dongarra 2010):
 * the panel (LAPACK's DLAHR2 on nb columns, producing V, T and Y = A V T),
 * the update of one trailing column panel, and the last columns (DGEHD2).
 * Typed source: see runtime/precision.h.
 *
 * Panel i covers columns i..i+nb-1; reflector j has its unit element at row
 * r0 + j, r0 = i + 1. The panel reads every trailing column (its GEMVs run
 * over the whole trailing matrix), given as the column panels after its own;
 * they must be contiguous with the same leading dimension, as the views of
 * hyla__desc_register_views are. */
#include <cblas.h>
#include <stdlib.h>
#include "codelets.h"
#include "lapack.h"
#include "runtime.h"
#include "spmd_team.h"
#ifdef HYLA_WITH_CUDA
#include <starpu_cublas_v2.h>
#include "cuda/kernels.h"
_Static_assert(HYLA_GEHRD_GPU_MAX_NB == HYLA_GEHRD_MAX_NB, "one widest GPU panel");
#endif

struct gehrd_args {
	int64_t col;   /* first column of the panel */
	int64_t first; /* first column of the panel being updated (update only) */
	struct hyla_team_arg team; /* the parallel panel's cores */
};

#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))
#define LD(buf) ((int)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int)STARPU_MATRIX_GET_NX(buf))
#define COLS(buf) ((int)STARPU_MATRIX_GET_NY(buf))

/* Panel buffers: tau (W), T (W), Y (W), V (W), scratch, own panel (RW),
 * then the trailing panels (R). */
enum { P_TAU, P_T, P_Y, P_V, P_SCRATCH, P_OWN };
/* Update buffers: V, T, Y (R), workspace, then the panels updated (RW). */
enum { U_V, U_T, U_Y, U_W, U_A };
/* Y-top buffers (split panel): Y (RW), V, T (R), own panel (RW), trailing (R). */
enum { Y_Y, Y_V, Y_T, Y_OWN };

void TYPED(hyla__gehrd_build_v)(int n, int nb, int r0, const real_t *a, int lda, real_t *v, int ldv)
{
	for (int j = 0; j < nb; j++)
		for (int row = 0; row < n; row++)
			v[row + (int64_t)j * ldv] = row < r0 + j ? 0 : row == r0 + j ? 1 : a[row + (int64_t)j * lda];
}

/* A parallel task: on a combined worker the cores share the column loop
 * (codelets/gehrd_spmd.c); on one core LAPACK's DLAHR2. */
static void panel_cpu(void *buffers[], void *cl_arg)
{
	struct gehrd_args *arg = cl_arg;
	if (!hyla__contiguous_cols(buffers, P_OWN, sizeof(real_t)))
		STARPU_ABORT_MSG("gehrd panel: trailing panels are not contiguous in host memory");
	real_t *a = MAT(buffers[P_OWN]), *t = MAT(buffers[P_T]), *y = MAT(buffers[P_Y]);
	real_t *v = MAT(buffers[P_V]), *tau = MAT(buffers[P_TAU]);
	int n = ROWS(buffers[P_OWN]), nb = COLS(buffers[P_OWN]), lda = LD(buffers[P_OWN]);
	int ldt = LD(buffers[P_T]), ldy = LD(buffers[P_Y]), ldv = LD(buffers[P_V]);
	int k = (int)arg->col + 1, r0 = k;
	int size = starpu_combined_worker_get_size(), rank = starpu_combined_worker_get_rank();
	if (rank >= size)
		return; /* see hyla__spmd_cols */
	if (size > 1 && TYPED(hyla__gehrd_panel_spmd)(&arg->team, rank, size, n, nb, r0, a, lda, tau, t,
	                                              ldt, y, ldy, v, ldv))
		return;
	if (rank > 0)
		return;
	LAPACK(lahr2)(&n, &k, &nb, a, &lda, tau, t, &ldt, y, &ldy);
	TYPED(hyla__gehrd_build_v)(n, nb, r0, a, lda, v, ldv);
	/* Rows above the reduction of the panel's own columns 1..nb-1. */
	BLAS(gemm)(CblasColMajor, CblasNoTrans, CblasTrans, r0, nb - 1, nb - 1, -1, y, ldy, v + r0, ldv,
	           1, a + lda, lda);
}

void TYPED(hyla__gehrd_ytop_rows)(int t0, int t1, int n, int nb, int r0, real_t *a, int lda,
                                  const real_t *v, int ldv, const real_t *t, int ldt, real_t *y,
                                  int ldy)
{
	BLAS(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, t1 - t0, nb, n - r0, 1, a + lda + t0, lda,
	           v + r0, ldv, 0, y + t0, ldy);
	BLAS(trmm)(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, t1 - t0, nb, 1, t,
	           ldt, y + t0, ldy);
	BLAS(gemm)(CblasColMajor, CblasNoTrans, CblasTrans, t1 - t0, nb - 1, nb - 1, -1, y + t0, ldy,
	           v + r0, ldv, 1, a + lda + t0, lda);
}

/* The panel's last step (DLAHR2's and DGEHRD's): Y(0:r0, :) =
 * A(0:r0, i+1:n) V T over the panel and the trailing matrix (one matrix
 * from a), then the rows above the reduction of the panel's columns 1..nb-1. */
static void ytop_cpu(void *buffers[], void *cl_arg)
{
	const struct gehrd_args *arg = cl_arg;
	if (!hyla__contiguous_cols(buffers, Y_OWN, sizeof(real_t)))
		STARPU_ABORT_MSG("gehrd Y top: panels are not contiguous in host memory");
	real_t *a = MAT(buffers[Y_OWN]), *t = MAT(buffers[Y_T]), *y = MAT(buffers[Y_Y]);
	real_t *v = MAT(buffers[Y_V]);
	int n = ROWS(buffers[Y_OWN]), nb = COLS(buffers[Y_OWN]), lda = LD(buffers[Y_OWN]);
	int ldt = LD(buffers[Y_T]), ldy = LD(buffers[Y_Y]), ldv = LD(buffers[Y_V]);
	int r0 = (int)arg->col + 1;
	TYPED(hyla__gehrd_ytop_rows)(0, r0, n, nb, r0, a, lda, v, ldv, t, ldt, y, ldy);
}

/* (I - V T V^T) from the right, then (I - V T^T V^T) from the left, on the
 * consecutive column panels a (columns first.., all n rows): what DGEHRD's
 * DGEMM and DLARFB do to the trailing matrix (rows above r0: the paper's
 * M_i). w: workspace of nb (of its 2nb) rows by cols. A parallel task: each
 * core of a combined worker takes a slice of the columns. */
static void update_cpu(void *buffers[], void *cl_arg)
{
	const struct gehrd_args *arg = cl_arg;
	int all = hyla__contiguous_cols(buffers, U_A, sizeof(real_t)), c;
	if (!all)
		STARPU_ABORT_MSG("gehrd update: panels are not contiguous in host memory");
	int cols = hyla__spmd_cols(all, &c);
	int n = ROWS(buffers[U_A]), nb = COLS(buffers[U_V]);
	int lda = LD(buffers[U_A]), ldv = LD(buffers[U_V]), ldt = LD(buffers[U_T]);
	int ldy = LD(buffers[U_Y]), ldw = LD(buffers[U_W]), r0 = (int)arg->col + 1;
	real_t *v = MAT(buffers[U_V]), *t = MAT(buffers[U_T]), *y = MAT(buffers[U_Y]);
	real_t *a = MAT(buffers[U_A]) + (int64_t)c * lda, *w = MAT(buffers[U_W]) + (int64_t)c * ldw;
	if (cols == 0)
		return;

	BLAS(gemm)(CblasColMajor, CblasNoTrans, CblasTrans, n, cols, nb, -1, y, ldy, v + arg->first + c,
	           ldv, 1, a, lda);
	BLAS(gemm)(CblasColMajor, CblasTrans, CblasNoTrans, nb, cols, n - r0, 1, v + r0, ldv, a + r0, lda,
	           0, w, ldw);
	BLAS(trmm)(CblasColMajor, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, nb, cols, 1, t, ldt,
	           w, ldw);
	BLAS(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, n - r0, cols, nb, -1, v + r0, ldv, w, ldw,
	           1, a + r0, lda);
}

/* The last column panel with LAPACK's unblocked DGEHD2 (it touches only the
 * columns from ilo on, so it is given the user's matrix from column 0). */
static void tail_cpu(void *buffers[], void *cl_arg)
{
	const struct gehrd_args *arg = cl_arg;
	int n = ROWS(buffers[0]), lda = LD(buffers[0]), ilo = (int)arg->col + 1, info;
	real_t *a = MAT(buffers[0]) - arg->col * lda, *tau = MAT(buffers[1]) - arg->col;
	LAPACK(gehd2)(&n, &ilo, &n, a, &lda, tau, (real_t *)STARPU_VECTOR_GET_PTR(buffers[2]), &info);
}

/* The fused panel: on a GPU up to HYLA_GEHRD_MAX_NB columns; on a core only
 * when no GPU can take it or it is small (runtime.h: its size base leaves
 * out the width). */
static int panel_can_execute(unsigned worker, struct starpu_task *task, unsigned impl)
{
	size_t width = starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, P_OWN));
	int cuda = hyla__is_cuda_worker(worker);
#ifdef HYLA_WITH_CUDA
	if (width > HYLA_GEHRD_MAX_NB)
		return !cuda; /* only a core can */
#endif
	if (!cuda)
		return !hyla__leave_to_gpu(task, impl, HYLA_CORE_MAX_PANEL / width);
	return hyla__on_views_node(worker, task, impl);
}

#ifdef HYLA_WITH_CUDA
/* ytop_cpu's steps with cuBLAS. */
static void ytop_cublas(cublasHandle_t h, int n, int nb, int r0, real_t *a, int lda, const real_t *v,
                        int ldv, const real_t *t, int ldt, real_t *y, int ldy)
{
	const real_t one = 1, zero = 0, minus_one = -1;
	CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_N, r0, nb, n - r0, &one, a + lda, lda, v + r0, ldv, &zero,
	             y, ldy);
	CUBLAS(trmm)(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
	             r0, nb, &one, t, ldt, y, ldy, y, ldy);
	CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_T, r0, nb - 1, nb - 1, &minus_one, y, ldy, v + r0, ldv,
	             &one, a + lda, lda);
}

/* DLAHR2 on the worker's stream: the column loop (codelets/cuda/gehrd_kernels.cu)
 * never returns to the host; the big GEMV of each column runs over the
 * trailing matrix, which stays resident. */
static void panel_cuda(void *buffers[], void *cl_arg)
{
	const struct gehrd_args *arg = cl_arg;
	if (!hyla__contiguous_cols(buffers, P_OWN, sizeof(real_t)))
		STARPU_ABORT_MSG("gehrd panel: trailing panels are not contiguous in GPU memory");
	real_t *a = MAT(buffers[P_OWN]), *t = MAT(buffers[P_T]), *y = MAT(buffers[P_Y]);
	real_t *v = MAT(buffers[P_V]), *tau = MAT(buffers[P_TAU]);
	real_t *scratch = (real_t *)STARPU_VECTOR_GET_PTR(buffers[P_SCRATCH]);
	int n = ROWS(buffers[P_OWN]), nb = COLS(buffers[P_OWN]), lda = LD(buffers[P_OWN]);
	int ldt = LD(buffers[P_T]), ldy = LD(buffers[P_Y]), ldv = LD(buffers[P_V]);
	int r0 = (int)arg->col + 1;
	cublasHandle_t h = starpu_cublas_get_local_handle();
	cudaStream_t stream = starpu_cuda_get_local_stream();

	TYPED(hyla__cuda_gehrd_columns)(n, nb, r0, a, lda, tau, t, ldt, y, ldy, scratch, stream);
	TYPED(hyla__cuda_gehrd_build_v)(n, nb, r0, a, lda, v, ldv, stream);
	ytop_cublas(h, n, nb, r0, a, lda, v, ldv, t, ldt, y, ldy);
}

static void ytop_cuda(void *buffers[], void *cl_arg)
{
	const struct gehrd_args *arg = cl_arg;
	if (!hyla__contiguous_cols(buffers, Y_OWN, sizeof(real_t)))
		STARPU_ABORT_MSG("gehrd Y top: panels are not contiguous in GPU memory");
	ytop_cublas(starpu_cublas_get_local_handle(), ROWS(buffers[Y_OWN]), COLS(buffers[Y_OWN]),
	            (int)arg->col + 1, MAT(buffers[Y_OWN]), LD(buffers[Y_OWN]), MAT(buffers[Y_V]),
	            LD(buffers[Y_V]), MAT(buffers[Y_T]), LD(buffers[Y_T]), MAT(buffers[Y_Y]),
	            LD(buffers[Y_Y]));
}

/* update_cpu's steps in two passes over the panels instead of three, when V
 * follows Y in memory ([Y V] one n-by-2nb matrix, as gehrd's views give
 * them) and the workspace w is 2nb by nb + cols:
 *   M = V^T Y (w's first nb columns), B = [Vc^T; W] (the next cols),
 *   W = T^T (V^T A - M Vc^T), A -= [Y V] B. */
static void update_fused(cublasHandle_t h, int n, int cols, int nb, int r0, int64_t first,
                         const real_t *y, int ldy, const real_t *t, int ldt, real_t *a, int lda,
                         real_t *w, int ldw)
{
	const real_t one = 1, zero = 0, minus_one = -1;
	const real_t *v = y + (int64_t)nb * ldy;
	real_t *b = w + (int64_t)nb * ldw, *bw = b + nb;
	CUBLAS(gemm)(h, CUBLAS_OP_T, CUBLAS_OP_N, nb, nb, n - r0, &one, v + r0, ldy, y + r0, ldy, &zero,
	             w, ldw);
	CUBLAS(geam)(h, CUBLAS_OP_T, CUBLAS_OP_N, nb, cols, &one, v + first, ldy, &zero, b, ldw, b, ldw);
	CUBLAS(gemm)(h, CUBLAS_OP_T, CUBLAS_OP_N, nb, cols, n - r0, &one, v + r0, ldy, a + r0, lda,
	             &zero, bw, ldw);
	CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_N, nb, cols, nb, &minus_one, w, ldw, b, ldw, &one, bw,
	             ldw);
	CUBLAS(trmm)(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, nb,
	             cols, &one, t, ldt, bw, ldw, bw, ldw);
	CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_N, n, cols, 2 * nb, &minus_one, y, ldy, b, ldw, &one, a,
	             lda);
}

static void update_cuda(void *buffers[], void *cl_arg)
{
	const struct gehrd_args *arg = cl_arg;
	int cols = hyla__contiguous_cols(buffers, U_A, sizeof(real_t));
	if (!cols)
		STARPU_ABORT_MSG("gehrd update: panels are not contiguous in GPU memory");
	real_t *v = MAT(buffers[U_V]), *t = MAT(buffers[U_T]), *y = MAT(buffers[U_Y]);
	real_t *a = MAT(buffers[U_A]), *w = MAT(buffers[U_W]);
	int n = ROWS(buffers[U_A]), nb = COLS(buffers[U_V]);
	int lda = LD(buffers[U_A]), ldv = LD(buffers[U_V]), ldt = LD(buffers[U_T]);
	int ldy = LD(buffers[U_Y]), ldw = LD(buffers[U_W]), r0 = (int)arg->col + 1;
	cublasHandle_t h = starpu_cublas_get_local_handle();
	const real_t one = 1, zero = 0, minus_one = -1;

	if (v == y + (int64_t)nb * ldy && ldv == ldy && ROWS(buffers[U_W]) >= 2 * nb &&
	    COLS(buffers[U_W]) >= nb + cols) {
		update_fused(h, n, cols, nb, r0, arg->first, y, ldy, t, ldt, a, lda, w, ldw);
		return;
	}
	CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_T, n, cols, nb, &minus_one, y, ldy, v + arg->first, ldv,
	             &one, a, lda);
	CUBLAS(gemm)(h, CUBLAS_OP_T, CUBLAS_OP_N, nb, cols, n - r0, &one, v + r0, ldv, a + r0, lda,
	             &zero, w, ldw);
	CUBLAS(trmm)(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, nb,
	             cols, &one, t, ldt, w, ldw, w, ldw);
	CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_N, n - r0, cols, nb, &minus_one, v + r0, ldv, w, ldw,
	             &one, a + r0, lda);
}
#endif

/* Models: the panel's cost follows the trailing matrix it sweeps, the
 * update's its panel; the buffer sizes tell both. */
static size_t panel_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	const struct gehrd_args *arg = task->cl_arg;
	size_t n = starpu_matrix_get_nx(STARPU_TASK_GET_HANDLE(task, P_OWN));
	return n * (n - (size_t)arg->col);
}

static size_t update_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	return starpu_matrix_get_nx(STARPU_TASK_GET_HANDLE(task, U_A)) * hyla__cols_from(task, U_A) *
	       starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, U_V));
}

/* The update's cost (and flops) also follows the panel's column (the rows
 * below col + 1), so col enters its footprint. */
static uint32_t col_footprint(struct starpu_task *task)
{
	const struct gehrd_args *arg = task->cl_arg;
	return starpu_hash_crc32c_be_n(&arg->col, sizeof arg->col, hyla__size_footprint(task));
}

static struct starpu_perfmodel panel_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_gehrd_panel_" PREC_NAME "_v3",
	.size_base = panel_size,
	.footprint = hyla__size_footprint,
};

/* A power law: on the GPU the update costs about the same at every size
 * (launch-bound, 60-110 us), where StarPU's a n^b + c fit gives NaN. */
static struct starpu_perfmodel update_model = {
	.type = STARPU_REGRESSION_BASED,
	.symbol = "hyla_gehrd_update_" PREC_NAME "_v3",
	.size_base = update_size,
	.footprint = col_footprint,
};

static struct starpu_codelet panel_cl = {
	.cpu_funcs = {panel_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {panel_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = panel_can_execute,
	.type = STARPU_SPMD,
	.max_parallelism = HYLA_MAX_PARALLELISM,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.model = &panel_model,
	.name = "gehrd_panel_" PREC_NAME,
};

#ifdef HYLA_WITH_CUDA
#define UPDATE_CUDA .cuda_funcs = {update_cuda}, .cuda_flags = {STARPU_CUDA_ASYNC},
#else
#define UPDATE_CUDA
#endif
/* The two update codelets: one body. The split panel's updates have no
 * model: they go where the trailing matrix lives (the GPU where there is
 * one), as its GEMVs do. Their times there carry the CUDA worker's late
 * view of each end among the panel's thousands of GEMV round trips (at
 * n = 2000 on the H100 machine predicted 109 us a task, measured 511 us),
 * which no model predicts. */
#define UPDATE_CODELET(model_, name_)                                                              \
	{.cpu_funcs = {update_cpu}, UPDATE_CUDA .can_execute = hyla__update_on_views_node,         \
	 .type = STARPU_SPMD, .max_parallelism = HYLA_MAX_PARALLELISM,                             \
	 .nbuffers = STARPU_VARIABLE_NBUFFERS, .model = (model_), .name = name_ PREC_NAME}
static struct starpu_codelet update_cl = UPDATE_CODELET(&update_model, "gehrd_update_");
static struct starpu_codelet split_update_cl = UPDATE_CODELET(NULL, "gehrd_split_update_");

/* Y top: no model, where the split panel's GEMVs go. */
static struct starpu_codelet ytop_cl = {
	.cpu_funcs = {ytop_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {ytop_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__on_views_node,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "gehrd_ytop_" PREC_NAME,
};

static struct starpu_codelet tail_cl = {
	HYLA_HOST_BODY(tail_cpu),
	.nbuffers = 3,
	.modes = {STARPU_RW, STARPU_W, STARPU_W},
	.name = "gehrd_tail_" PREC_NAME,
};

#ifdef HYLA_PREC_D
starpu_data_handle_t hyla_workspace_dgehrd(void)
#else
starpu_data_handle_t hyla_workspace_sgehrd(void)
#endif
{
	starpu_data_handle_t scratch;
	/* The GPU kernel's (the cores' panel keeps its sums in its own memory). */
#ifdef HYLA_WITH_CUDA
	uint32_t elems = HYLA_GEHRD_SCRATCH_ELEMS;
#else
	uint32_t elems = 1;
#endif
	starpu_vector_data_register(&scratch, -1, 0, elems, sizeof(real_t));
	return scratch;
}

#ifdef HYLA_PREC_D
int hyla_task_dgehrd_panel(starpu_data_handle_t tau, starpu_data_handle_t t, starpu_data_handle_t y,
                           starpu_data_handle_t v, starpu_data_handle_t scratch,
                           const starpu_data_handle_t *panels, int npanels, int64_t col,
                           unsigned long long where)
#else
int hyla_task_sgehrd_panel(starpu_data_handle_t tau, starpu_data_handle_t t, starpu_data_handle_t y,
                           starpu_data_handle_t v, starpu_data_handle_t scratch,
                           const starpu_data_handle_t *panels, int npanels, int64_t col,
                           unsigned long long where)
#endif
{
	int count = P_OWN + npanels;
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)count);
	struct gehrd_args arg = {.col = col, .first = col};
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a panel task");
	descr[P_TAU] = (struct starpu_data_descr){tau, STARPU_W};
	descr[P_T] = (struct starpu_data_descr){t, STARPU_W};
	descr[P_Y] = (struct starpu_data_descr){y, STARPU_W};
	descr[P_V] = (struct starpu_data_descr){v, STARPU_W};
	descr[P_SCRATCH] = (struct starpu_data_descr){scratch, STARPU_SCRATCH};
	for (int p = 0; p < npanels; p++)
		descr[P_OWN + p] = (struct starpu_data_descr){panels[p], p == 0 ? STARPU_RW : STARPU_R};
	double n = (double)starpu_matrix_get_nx(panels[0]), nb = (double)starpu_matrix_get_ny(panels[0]);
	double rows = n - (double)col - 1;
	double flops = 2 * rows * rows * nb + 2 * (double)col * rows * nb;
	int ret = hyla__submit(&(struct hyla_task){
		.cl = &panel_cl, .data = descr, .ndata = count, .arg = &arg, .arg_size = sizeof arg,
		.priority = hyla__parallel_prio(STARPU_MAX_PRIO), .flops = flops,
		.where = (uint32_t)where, .all_cores = 1});
	free(descr);
	return ret;
}

static int insert_update(struct starpu_codelet *cl, starpu_data_handle_t v, starpu_data_handle_t t,
                         starpu_data_handle_t y, starpu_data_handle_t w,
                         const starpu_data_handle_t *panels, int npanels, int64_t col,
                         int64_t first, int priority, unsigned long long where)
{
	int count = U_A + npanels;
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)count);
	struct gehrd_args arg = {.col = col, .first = first};
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for an update task");
	descr[U_V] = (struct starpu_data_descr){v, STARPU_R};
	descr[U_T] = (struct starpu_data_descr){t, STARPU_R};
	descr[U_Y] = (struct starpu_data_descr){y, STARPU_R};
	descr[U_W] = (struct starpu_data_descr){w, STARPU_SCRATCH};
	double cols = 0;
	for (int p = 0; p < npanels; p++) {
		descr[U_A + p] = (struct starpu_data_descr){panels[p], STARPU_RW};
		cols += starpu_matrix_get_ny(panels[p]);
	}
	double n = (double)starpu_matrix_get_nx(panels[0]), nb = (double)starpu_matrix_get_ny(v);
	double flops = 2 * n * cols * nb + 4 * (n - (double)col - 1) * cols * nb;
	int ret = hyla__submit(&(struct hyla_task){
		.cl = cl, .data = descr, .ndata = count, .arg = &arg, .arg_size = sizeof arg,
		.priority = hyla__parallel_prio(priority), .flops = flops, .where = (uint32_t)where,
		.all_cores = 1});
	free(descr);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_task_dgehrd_update(starpu_data_handle_t v, starpu_data_handle_t t, starpu_data_handle_t y,
                            starpu_data_handle_t w, const starpu_data_handle_t *panels, int npanels,
                            int64_t col, int64_t first, int priority)
#else
int hyla_task_sgehrd_update(starpu_data_handle_t v, starpu_data_handle_t t, starpu_data_handle_t y,
                            starpu_data_handle_t w, const starpu_data_handle_t *panels, int npanels,
                            int64_t col, int64_t first, int priority)
#endif
{
	return insert_update(&update_cl, v, t, y, w, panels, npanels, col, first, priority, 0);
}

int TYPED(hyla__insert_gehrd_split_update)(starpu_data_handle_t v, starpu_data_handle_t t,
                                           starpu_data_handle_t y, starpu_data_handle_t w,
                                           const starpu_data_handle_t *panels, int npanels,
                                           int64_t col, int64_t first, int priority,
                                           unsigned long long where)
{
	return insert_update(&split_update_cl, v, t, y, w, panels, npanels, col, first, priority,
	                     where);
}

int TYPED(hyla__insert_gehrd_ytop)(starpu_data_handle_t y, starpu_data_handle_t v,
                                   starpu_data_handle_t t, const starpu_data_handle_t *panels,
                                   int npanels, int64_t col, unsigned long long where)
{
	int count = Y_OWN + npanels;
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)count);
	struct gehrd_args arg = {.col = col, .first = col};
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a Y-top task");
	descr[Y_Y] = (struct starpu_data_descr){y, STARPU_RW};
	descr[Y_V] = (struct starpu_data_descr){v, STARPU_R};
	descr[Y_T] = (struct starpu_data_descr){t, STARPU_R};
	for (int p = 0; p < npanels; p++)
		descr[Y_OWN + p] = (struct starpu_data_descr){panels[p], p == 0 ? STARPU_RW : STARPU_R};
	int ret = hyla__submit(&(struct hyla_task){
		.cl = &ytop_cl, .data = descr, .ndata = count, .arg = &arg, .arg_size = sizeof arg,
		.priority = STARPU_MAX_PRIO, .flops = 0, .where = (uint32_t)where});
	free(descr);
	return ret;
}

int TYPED(hyla__insert_gehrd_tail)(starpu_data_handle_t a, starpu_data_handle_t tau, int64_t col)
{
	struct gehrd_args arg = {.col = col, .first = col};
	int64_t rows = (int64_t)starpu_matrix_get_nx(a);
	starpu_data_handle_t work = hyla__workspace_vector(rows, sizeof(real_t));
	struct starpu_data_descr data[] = {{a, STARPU_RW}, {tau, STARPU_W}, {work, STARPU_W}};
	int ret = hyla__submit(&(struct hyla_task){
		.cl = &tail_cl, .data = data, .ndata = 3, .arg = &arg, .arg_size = sizeof arg,
		.priority = STARPU_MAX_PRIO});
	hyla__workspace_release(work);
	return ret;
}
