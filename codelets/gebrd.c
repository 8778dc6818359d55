/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Codelets of the bidiagonal reduction (m >= n; Tomov, Nath and Dongarra 2010, section 3.5,
 * LAPACK's dgebrd): the panel (LAPACK's DLABRD on nb rows and columns: the
 * column and row reflectors, d, e, tauq, taup, X and Y, two GEMVs per
 * column over the trailing matrix; on a core, or on a GPU's stream with the
 * trailing matrix resident), the trailing update A -= V Y^T + X U^T
 * of a group of column panels, both in one step task (with a GPU), and the
 * last columns (LAPACK's dgebrd).
 * Typed source: see runtime/precision.h.
 *
 * Panel k starts at column c (and row c). DLABRD writes the row reflectors
 * into rows c..c+nb-1 of every trailing column, so the panel holds the
 * trailing panels RW; it leaves 1s on the diagonal and superdiagonal of
 * its block, where the caller puts d and e back at the end. */
#include <cblas.h>
#include <lapacke.h>
#include "codelets.h"
#include "lapack.h"
#include "runtime.h"
#include "spmd_team.h"
#ifdef HYLA_WITH_CUDA
#include <starpu_cublas_v2.h>
#include "cuda/kernels.h"
#endif

#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))
#define VEC(buf) ((real_t *)STARPU_VECTOR_GET_PTR(buf))
#define LD(buf) ((int)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int)STARPU_MATRIX_GET_NX(buf))
#define COLS(buf) ((int)STARPU_MATRIX_GET_NY(buf))

struct gebrd_args {
	int64_t col;   /* the panel's first column (and row) */
	int64_t first; /* update: the first column of the panels updated */
	struct hyla_team_arg team; /* the parallel panel's cores */
};

/* The task's arguments (runtime.h's struct hyla_task). */
static struct gebrd_args args_of(const void *cl_arg)
{
	return *(const struct gebrd_args *)cl_arg;
}

/* Panel buffers: d, e, tauq, taup (W, nb-by-1), X (W, m-by-nb), Y (W,
 * n-by-nb), own panel (RW), then the trailing panels (RW); a step's the
 * same, X and Y scratches. */
enum { P_D, P_E, P_TAUQ, P_TAUP, P_X, P_Y, P_OWN };
/* Update buffers: the panel (R: V), X, Y (R), then the panels updated (RW). */
enum { U_V, U_X, U_Y, U_A };

/* A parallel task: on a combined worker the cores share the rows and the
 * columns (codelets/gebrd_spmd.c); on one core LAPACK's DLABRD. */
static void panel_cpu(void *buffers[], void *cl_arg)
{
	struct gebrd_args *arg = cl_arg;
	int cols = hyla__contiguous_cols(buffers, P_OWN, sizeof(real_t));
	if (!cols)
		STARPU_ABORT_MSG("gebrd panel: trailing panels are not contiguous in host memory");
	int c = (int)arg->col, lda = LD(buffers[P_OWN]), m = ROWS(buffers[P_OWN]) - c;
	int nb = COLS(buffers[P_OWN]), ldx = LD(buffers[P_X]), ldy = LD(buffers[P_Y]);
	real_t *a = MAT(buffers[P_OWN]) + c, *d = MAT(buffers[P_D]), *e = MAT(buffers[P_E]);
	real_t *tauq = MAT(buffers[P_TAUQ]), *taup = MAT(buffers[P_TAUP]);
	real_t *x = MAT(buffers[P_X]) + c, *y = MAT(buffers[P_Y]) + c;
	int size = starpu_combined_worker_get_size(), rank = starpu_combined_worker_get_rank();
	if (rank >= size)
		return; /* see hyla__spmd_cols */
	if (size > 1 && TYPED(hyla__labrd_spmd)(&arg->team, rank, size, m, cols, nb, a, lda, d, e,
	                                         tauq, taup, x, ldx, y, ldy))
		return;
	if (rank == 0)
		LAPACK(labrd)(&m, &cols, &nb, a, &lda, d, e, tauq, taup, x, &ldx, y, &ldy);
}

#ifdef HYLA_WITH_CUDA
/* DLABRD on the worker's stream (cuda/labrd_kernels.cu). */
static void panel_cuda(void *buffers[], void *cl_arg)
{
	const struct gebrd_args arg = args_of(cl_arg);
	int cols = hyla__contiguous_cols(buffers, P_OWN, sizeof(real_t));
	if (!cols)
		STARPU_ABORT_MSG("gebrd panel: trailing panels are not contiguous on the GPU");
	int c = (int)arg.col, lda = LD(buffers[P_OWN]), m = ROWS(buffers[P_OWN]) - c;
	TYPED(hyla__cuda_labrd)(m, cols, COLS(buffers[P_OWN]), MAT(buffers[P_OWN]) + c, lda,
	                        MAT(buffers[P_D]), MAT(buffers[P_E]), MAT(buffers[P_TAUQ]),
	                        MAT(buffers[P_TAUP]), MAT(buffers[P_X]) + c, LD(buffers[P_X]),
	                        MAT(buffers[P_Y]) + c, LD(buffers[P_Y]), starpu_cuda_get_local_stream());
}
#endif

/* The group's columns [f, f + cols), rows c + nb..m-1: A -= V Y^T + X U^T
 * with V, X from row c + nb, Y's rows f.., U = rows c..c+nb-1 of the group. */
struct update_view {
	real_t *a;
	const real_t *v, *x, *y, *u;
	int rows, cols, nb, lda, ldv, ldx, ldy;
};

/* a: column f of the m-row matrix; v, x, y: row 0 of V (column c), X, Y. */
static struct update_view view_at(real_t *a, int lda, int cols, const real_t *v, int ldv,
                                  const real_t *x, int ldx, const real_t *y, int ldy, int c, int f,
                                  int m, int nb)
{
	const int r0 = c + nb;
	return (struct update_view){.a = a + r0, .v = v + r0, .x = x + r0, .y = y + f, .u = a + c,
	                            .rows = m - r0, .cols = cols, .nb = nb, .lda = lda, .ldv = ldv,
	                            .ldx = ldx, .ldy = ldy};
}

static int update_view_of(void *buffers[], void *cl_arg, struct update_view *u)
{
	const struct gebrd_args arg = args_of(cl_arg);
	int cols = hyla__contiguous_cols(buffers, U_A, sizeof(real_t));
	if (cols)
		*u = view_at(MAT(buffers[U_A]), LD(buffers[U_A]), cols, MAT(buffers[U_V]),
		             LD(buffers[U_V]), MAT(buffers[U_X]), LD(buffers[U_X]), MAT(buffers[U_Y]),
		             LD(buffers[U_Y]), (int)arg.col, (int)arg.first, ROWS(buffers[U_A]),
		             COLS(buffers[U_V]));
	return cols != 0;
}

static void update_host(const struct update_view *u)
{
	if (u->rows <= 0)
		return;
	BLAS(gemm)(CblasColMajor, CblasNoTrans, CblasTrans, u->rows, u->cols, u->nb, -1, u->v, u->ldv,
	           u->y, u->ldy, 1, u->a, u->lda);
	BLAS(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, u->rows, u->cols, u->nb, -1, u->x, u->ldx,
	           u->u, u->lda, 1, u->a, u->lda);
}

static void update_cpu(void *buffers[], void *cl_arg)
{
	struct update_view u;
	if (!update_view_of(buffers, cl_arg, &u))
		STARPU_ABORT_MSG("gebrd update: panels are not contiguous in host memory");
	update_host(&u);
}

/* The last columns c..n-1 (rows c..m-1) with LAPACK's dgebrd: tauq, taup
 * (W); d and e go to the scratch (the caller reads them off A). */
static void tail_cpu(void *buffers[], void *cl_arg)
{
	int c = (int)args_of(cl_arg).col, lda = LD(buffers[0]);
	int m = ROWS(buffers[0]) - c, t = COLS(buffers[0]);
	real_t *work = VEC(buffers[3]);
	int lwork = (int)STARPU_VECTOR_GET_NX(buffers[3]) - 2 * t;
	LAPACKE(gebrd_work)(LAPACK_COL_MAJOR, m, t, MAT(buffers[0]) + c, lda, work, work + t,
	                    MAT(buffers[1]), MAT(buffers[2]), work + 2 * t, lwork);
}

#ifdef HYLA_WITH_CUDA
/* The two products as one GEMM of depth 2 nb, A -= [V X] [Y U^T]^T: one
 * pass over A in place of two (the pass is the update's cost: nb is small).
 * The operands go side by side into a scratch (copies by cuBLAS). */
static void update_gpu(const struct update_view *up)
{
	const struct update_view u = *up;
	if (u.rows <= 0)
		return;
	cudaStream_t stream = starpu_cuda_get_local_stream();
	cublasHandle_t h = starpu_cublas_get_local_handle();
	const size_t rows = (size_t)u.rows, cols = (size_t)u.cols, nb = (size_t)u.nb;
	/* [V X]: rows by 2 nb; [Y U^T]: cols by 2 nb */
	real_t *left = hyla__cuda_scratch(sizeof(real_t) * (rows + cols) * 2 * nb, stream);
	real_t *right = left + rows * 2 * nb;
	const real_t one = 1, zero = 0, minus_one = -1;
	const struct {
		cublasOperation_t op;
		int rows, cols;
		const real_t *from;
		int ld;
		real_t *to;
		int ldto;
	} copies[] = {{CUBLAS_OP_N, u.rows, u.nb, u.v, u.ldv, left, u.rows},
	              {CUBLAS_OP_N, u.rows, u.nb, u.x, u.ldx, left + rows * nb, u.rows},
	              {CUBLAS_OP_N, u.cols, u.nb, u.y, u.ldy, right, u.cols},
	              {CUBLAS_OP_T, u.cols, u.nb, u.u, u.lda, right + cols * nb, u.cols}};
	for (int k = 0; k < 4; k++)
		CUBLAS(geam)(h, copies[k].op, CUBLAS_OP_N, copies[k].rows, copies[k].cols, &one,
		             copies[k].from, copies[k].ld, &zero, copies[k].to, copies[k].ldto, copies[k].to,
		             copies[k].ldto);
	CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_T, u.rows, u.cols, 2 * u.nb, &minus_one, left, u.rows,
	             right, u.cols, &one, u.a, u.lda);
	hyla__cuda_scratch_free(left, stream);
}

static void update_cuda(void *buffers[], void *cl_arg)
{
	struct update_view u;
	if (!update_view_of(buffers, cl_arg, &u))
		STARPU_ABORT_MSG("gebrd update: panels are not contiguous on the GPU");
	update_gpu(&u);
}
#endif

/* A step, with a GPU: the panel, then the update of every later panel, in
 * one task (buffers: the panel's, X and Y scratches). The GPU panel reads
 * the whole trailing matrix, so the next panel waits for the whole update
 * anyway; one task a step in place of two spares the runtime's gap
 * between dependent GPU tasks (a median 0.1 ms on the H100 machine). */
/* After the panel's function, which checked that the panels are contiguous. */
static struct update_view step_view(void *buffers[], void *cl_arg)
{
	int c = (int)args_of(cl_arg).col, nb = COLS(buffers[P_OWN]), lda = LD(buffers[P_OWN]);
	int cols = hyla__contiguous_cols(buffers, P_OWN, sizeof(real_t)) - nb;
	real_t *v = MAT(buffers[P_OWN]);
	return view_at(v + (size_t)nb * lda, lda, cols, v, lda, MAT(buffers[P_X]), LD(buffers[P_X]),
	               MAT(buffers[P_Y]), LD(buffers[P_Y]), c, c + nb, ROWS(buffers[P_OWN]), nb);
}

/* On a combined worker (all the cores, no GPU): the panel on every core,
 * then each core's columns of the update, with nothing between them but a
 * barrier (separate update tasks left the cores idle between panels, the
 * last task of a step holding up the next panel). */
static void step_cpu(void *buffers[], void *cl_arg)
{
	struct gebrd_args *arg = cl_arg;
	int size = starpu_combined_worker_get_size(), rank = starpu_combined_worker_get_rank();
	panel_cpu(buffers, cl_arg);
	if (rank >= size)
		return; /* see hyla__spmd_cols */
	if (size > 1)
		hyla__spmd_barrier(&arg->team.barrier, size); /* X and Y whole before any update */
	struct update_view u = step_view(buffers, cl_arg);
	int first, cols = hyla__spmd_cols(u.cols, &first);
	u.a += (int64_t)first * u.lda, u.u += (int64_t)first * u.lda, u.y += first, u.cols = cols;
	if (cols > 0)
		update_host(&u);
}

#ifdef HYLA_WITH_CUDA
static void step_cuda(void *buffers[], void *cl_arg)
{
	panel_cuda(buffers, cl_arg);
	const struct update_view u = step_view(buffers, cl_arg);
	update_gpu(&u);
}
#endif

/* The panel's size: its GEMVs' (rows times columns from the panel on)
 * times its width. */
static size_t panel_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	const struct gebrd_args arg = args_of(task->cl_arg);
	starpu_data_handle_t own = STARPU_TASK_GET_HANDLE(task, P_OWN);
	return (starpu_matrix_get_nx(own) - (size_t)arg.col) * hyla__cols_from(task, P_OWN) *
	       starpu_matrix_get_ny(own);
}

/* Cores within HYLA_CORE_MAX_PANEL; a GPU up to its kernels' width. */
static int panel_can_execute(unsigned worker, struct starpu_task *task, unsigned impl)
{
#ifdef HYLA_WITH_CUDA
	return hyla__panel_within_width(worker, task, impl, P_OWN, HYLA_REDUCTION_GPU_MAX_NB);
#else
	return hyla__panel_on_views_node(worker, task, impl);
#endif
}

static struct starpu_perfmodel panel_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_gebrd_panel_" PREC_NAME "_v2",
	.size_base = panel_size,
	.footprint = hyla__size_footprint,
};

/* The update's flops' size: rows below the panel times columns times nb. */
static size_t update_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	const struct gebrd_args arg = args_of(task->cl_arg);
	starpu_data_handle_t v = STARPU_TASK_GET_HANDLE(task, U_V);
	size_t nb = starpu_matrix_get_ny(v);
	return (starpu_matrix_get_nx(v) - (size_t)arg.col - nb) * hyla__cols_from(task, U_A) * nb;
}

static struct starpu_perfmodel update_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_gebrd_update_" PREC_NAME "_v1",
	.size_base = update_size,
	.footprint = hyla__size_footprint,
};

/* A step's size: its panel's. */
static struct starpu_perfmodel step_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_gebrd_step_" PREC_NAME "_v1",
	.size_base = panel_size,
	.footprint = hyla__size_footprint,
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
	.name = "gebrd_panel_" PREC_NAME,
};

static struct starpu_codelet update_cl = {
	.cpu_funcs = {update_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {update_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__update_on_views_node,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.model = &update_model,
	.name = "gebrd_update_" PREC_NAME,
};

static struct starpu_codelet step_cl = {
	.cpu_funcs = {step_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {step_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = panel_can_execute,
	.type = STARPU_SPMD,
	.max_parallelism = HYLA_MAX_PARALLELISM,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.model = &step_model,
	.name = "gebrd_step_" PREC_NAME,
};

static struct starpu_codelet tail_cl = {
	HYLA_HOST_BODY(tail_cpu),
	.nbuffers = 4,
	.modes = {STARPU_RW, STARPU_W, STARPU_W, STARPU_W},
	.name = "gebrd_tail_" PREC_NAME,
};

#ifdef HYLA_PREC_D
int hyla_task_dgebrd_panel(const starpu_data_handle_t out[4], starpu_data_handle_t x,
                           starpu_data_handle_t y, const starpu_data_handle_t *panels, int npanels,
                           int64_t col)
#else
int hyla_task_sgebrd_panel(const starpu_data_handle_t out[4], starpu_data_handle_t x,
                           starpu_data_handle_t y, const starpu_data_handle_t *panels, int npanels,
                           int64_t col)
#endif
{
	const struct starpu_data_descr fixed[] = {{out[0], STARPU_W}, {out[1], STARPU_W},
	                                          {out[2], STARPU_W}, {out[3], STARPU_W},
	                                          {x, STARPU_W}, {y, STARPU_W}};
	struct gebrd_args arg = {.col = col};
	return hyla__submit_on_panels((struct hyla_task){
		.cl = &panel_cl, .data = fixed, .ndata = 6, .arg = &arg, .arg_size = sizeof arg,
		.priority = hyla__parallel_prio(STARPU_MAX_PRIO), .all_cores = 1},
	                              panels, npanels, STARPU_RW, STARPU_RW);
}

#ifdef HYLA_PREC_D
int hyla_task_dgebrd_step(const starpu_data_handle_t out[4], starpu_data_handle_t x,
                          starpu_data_handle_t y, const starpu_data_handle_t *panels, int npanels,
                          int64_t col)
#else
int hyla_task_sgebrd_step(const starpu_data_handle_t out[4], starpu_data_handle_t x,
                          starpu_data_handle_t y, const starpu_data_handle_t *panels, int npanels,
                          int64_t col)
#endif
{
	/* X and Y: each core's scratch on a GPU; one of each that the cores share. */
	const enum starpu_data_access_mode mode = hyla__parallel_tasks() ? STARPU_W : STARPU_SCRATCH;
	const struct starpu_data_descr fixed[] = {{out[0], STARPU_W}, {out[1], STARPU_W},
	                                          {out[2], STARPU_W}, {out[3], STARPU_W},
	                                          {x, mode}, {y, mode}};
	struct gebrd_args arg = {.col = col};
	return hyla__submit_on_panels((struct hyla_task){
		.cl = &step_cl, .data = fixed, .ndata = 6, .arg = &arg, .arg_size = sizeof arg,
		.priority = hyla__parallel_prio(STARPU_MAX_PRIO), .all_cores = 1},
	                              panels, npanels, STARPU_RW, STARPU_RW);
}

#ifdef HYLA_PREC_D
int hyla_task_dgebrd_update(starpu_data_handle_t v, starpu_data_handle_t x, starpu_data_handle_t y,
                            const starpu_data_handle_t *panels, int npanels, int64_t col,
                            int64_t first, int priority)
#else
int hyla_task_sgebrd_update(starpu_data_handle_t v, starpu_data_handle_t x, starpu_data_handle_t y,
                            const starpu_data_handle_t *panels, int npanels, int64_t col,
                            int64_t first, int priority)
#endif
{
	const struct starpu_data_descr fixed[] = {{v, STARPU_R}, {x, STARPU_R}, {y, STARPU_R}};
	struct gebrd_args arg = {.col = col, .first = first};
	return hyla__submit_on_panels((struct hyla_task){
		.cl = &update_cl, .data = fixed, .ndata = 3, .arg = &arg, .arg_size = sizeof arg,
		.priority = priority},
	                              panels, npanels, STARPU_RW, STARPU_RW);
}

int TYPED(hyla__insert_gebrd_tail)(starpu_data_handle_t a, starpu_data_handle_t tauq,
                                   starpu_data_handle_t taup, starpu_data_handle_t scratch,
                                   int64_t col)
{
	struct gebrd_args arg = {.col = col};
	struct starpu_data_descr data[] = {
		{a, STARPU_RW}, {tauq, STARPU_W}, {taup, STARPU_W}, {scratch, STARPU_W}};
	return hyla__submit(&(struct hyla_task){
		.cl = &tail_cl, .data = data, .ndata = 4, .arg = &arg, .arg_size = sizeof arg,
		.priority = STARPU_MAX_PRIO});
}
