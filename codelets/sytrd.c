/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Codelets of the symmetric tridiagonal reduction (lower; Tomov, Nath and Dongarra 2010, section
 * 3.5, LAPACK's dsytrd): the panel (LAPACK's DLATRD on nb columns: the
 * reflectors, e, tau and W, one SYMV per column over the trailing matrix;
 * on a core, or on a GPU's stream with the trailing matrix resident),
 * the trailing update A -= V W^T + W V^T (lower part) of a group of column
 * panels, both in one step task (with a GPU), and the last columns
 * (LAPACK's dsytrd on them).
 * Typed source: see runtime/precision.h.
 *
 * Panel k starts at column c; its reflector j has its unit element at row
 * c + j + 1 (DLATRD leaves the 1 there; the caller puts e back at the end).
 * The panel reads the trailing panels after its own: they must be
 * contiguous with one leading dimension (hyla__desc_register_views). */
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

struct sytrd_args {
	int64_t col;   /* the panel's first column */
	int64_t first; /* update: the first column of the panels updated */
	struct hyla_team_arg team; /* the parallel panel's cores */
};

/* The task's arguments (runtime.h's struct hyla_task). */
static struct sytrd_args args_of(const void *cl_arg)
{
	return *(const struct sytrd_args *)cl_arg;
}

/* Panel buffers: e, tau (W, nb-by-1), W (W, n-by-nb), own panel (RW), then
 * the trailing panels (R); a step's the same, W a scratch and the trailing
 * panels RW. */
enum { P_E, P_TAU, P_W, P_OWN };
/* Update buffers: the panel (R: V), W (R), then the panels updated (RW). */
enum { U_V, U_W, U_A };

/* A parallel task: on a combined worker the cores share the rows
 * (codelets/sytrd_spmd.c); on one core LAPACK's DLATRD. */
static void panel_cpu(void *buffers[], void *cl_arg)
{
	struct sytrd_args *arg = cl_arg;
	if (!hyla__contiguous_cols(buffers, P_OWN, sizeof(real_t)))
		STARPU_ABORT_MSG("sytrd panel: trailing panels are not contiguous in host memory");
	int c = (int)arg->col, lda = LD(buffers[P_OWN]), ldw = LD(buffers[P_W]);
	int n = ROWS(buffers[P_OWN]) - c, nb = COLS(buffers[P_OWN]);
	real_t *a = MAT(buffers[P_OWN]) + c, *e = MAT(buffers[P_E]), *tau = MAT(buffers[P_TAU]);
	real_t *w = MAT(buffers[P_W]) + c;
	int size = starpu_combined_worker_get_size(), rank = starpu_combined_worker_get_rank();
	if (rank >= size)
		return; /* see hyla__spmd_cols */
	if (size > 1 && TYPED(hyla__latrd_spmd)(&arg->team, rank, size, n, nb, a, lda, e, tau, w, ldw))
		return;
	if (rank == 0)
		LAPACK(latrd)("L", &n, &nb, a, &lda, e, tau, w, &ldw);
}

#ifdef HYLA_WITH_CUDA
/* DLATRD on the worker's stream (cuda/latrd_kernels.cu): the SYMVs run
 * over the trailing matrix where it lives. */
static void panel_cuda(void *buffers[], void *cl_arg)
{
	const struct sytrd_args arg = args_of(cl_arg);
	if (!hyla__contiguous_cols(buffers, P_OWN, sizeof(real_t)))
		STARPU_ABORT_MSG("sytrd panel: trailing panels are not contiguous on the GPU");
	int c = (int)arg.col, lda = LD(buffers[P_OWN]), ldw = LD(buffers[P_W]);
	int n = ROWS(buffers[P_OWN]) - c, nb = COLS(buffers[P_OWN]);
	TYPED(hyla__cuda_latrd)(n, nb, MAT(buffers[P_OWN]) + c, lda, MAT(buffers[P_E]),
	                        MAT(buffers[P_TAU]), MAT(buffers[P_W]) + c, ldw,
	                        starpu_cuda_get_local_stream());
}
#endif

/* The group's columns [f, f + cols), rows f..n-1 (lower part): the
 * diagonal block by SYR2K, the rows below by two GEMMs; V and W from row f. */
struct update_view {
	real_t *add, *below;
	const real_t *vd, *vb, *wd, *wb;
	int rows, cols, nb, lda, ldv, ldw;
};

/* a: column f of the n-row matrix, v and w: row 0 of V and W. */
static struct update_view view_at(real_t *a, int lda, int cols, const real_t *v, int ldv,
                                  const real_t *w, int ldw, int f, int n, int nb)
{
	a += f, v += f, w += f;
	return (struct update_view){.add = a, .below = a + cols, .vd = v, .vb = v + cols, .wd = w,
	                            .wb = w + cols, .rows = n - f - cols, .cols = cols, .nb = nb,
	                            .lda = lda, .ldv = ldv, .ldw = ldw};
}

static int update_view_of(void *buffers[], void *cl_arg, struct update_view *u)
{
	const struct sytrd_args arg = args_of(cl_arg);
	int cols = hyla__contiguous_cols(buffers, U_A, sizeof(real_t));
	if (cols)
		*u = view_at(MAT(buffers[U_A]), LD(buffers[U_A]), cols, MAT(buffers[U_V]),
		             LD(buffers[U_V]), MAT(buffers[U_W]), LD(buffers[U_W]), (int)arg.first,
		             ROWS(buffers[U_A]), COLS(buffers[U_V]));
	return cols != 0;
}

void TYPED(hyla__syr2k_columns)(int m, int k, int j0, int j1, const real_t *v, int ldv,
                                const real_t *w, int ldw, real_t *a, int lda)
{
	int cols = j1 - j0, below = m - j1;
	if (cols <= 0)
		return;
	real_t *d = a + j0 + (int64_t)j0 * lda;
	BLAS(syr2k)(CblasColMajor, CblasLower, CblasNoTrans, cols, k, -1, v + j0, ldv, w + j0, ldw, 1,
	            d, lda);
	if (below == 0)
		return;
	BLAS(gemm)(CblasColMajor, CblasNoTrans, CblasTrans, below, cols, k, -1, v + j1, ldv, w + j0,
	           ldw, 1, d + cols, lda);
	BLAS(gemm)(CblasColMajor, CblasNoTrans, CblasTrans, below, cols, k, -1, w + j1, ldw, v + j0,
	           ldv, 1, d + cols, lda);
}

static void update_host(const struct update_view *u)
{
	TYPED(hyla__syr2k_columns)(u->cols + u->rows, u->nb, 0, u->cols, u->vd, u->ldv, u->wd, u->ldw,
	                           u->add, u->lda);
}

static void update_cpu(void *buffers[], void *cl_arg)
{
	struct update_view u;
	if (!update_view_of(buffers, cl_arg, &u))
		STARPU_ABORT_MSG("sytrd update: panels are not contiguous in host memory");
	update_host(&u);
}

/* The last columns c..n-1 with LAPACK's dsytrd: d and e (in the scratch,
 * the caller reads them off A), tau (W). */
static void tail_cpu(void *buffers[], void *cl_arg)
{
	int c = (int)args_of(cl_arg).col, lda = LD(buffers[0]), t = ROWS(buffers[0]) - c;
	real_t *work = VEC(buffers[2]);
	int lwork = (int)STARPU_VECTOR_GET_NX(buffers[2]) - 2 * t;
	LAPACKE(sytrd_work)(LAPACK_COL_MAJOR, 'L', t, MAT(buffers[0]) + c, lda,
	                    work, work + t, MAT(buffers[1]), work + 2 * t, lwork);
}

#ifdef HYLA_WITH_CUDA
static void update_gpu(const struct update_view *u)
{
	cublasHandle_t h = starpu_cublas_get_local_handle();
	const real_t one = 1, minus_one = -1;
	CUBLAS(syr2k)(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, u->cols, u->nb, &minus_one, u->vd, u->ldv,
	              u->wd, u->ldw, &one, u->add, u->lda);
	if (u->rows == 0)
		return;
	CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_T, u->rows, u->cols, u->nb, &minus_one, u->vb, u->ldv,
	             u->wd, u->ldw, &one, u->below, u->lda);
	CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_T, u->rows, u->cols, u->nb, &minus_one, u->wb, u->ldw,
	             u->vd, u->ldv, &one, u->below, u->lda);
}

static void update_cuda(void *buffers[], void *cl_arg)
{
	struct update_view u;
	if (!update_view_of(buffers, cl_arg, &u))
		STARPU_ABORT_MSG("sytrd update: panels are not contiguous on the GPU");
	update_gpu(&u);
}
#endif

/* A step, with a GPU: the panel, then the update of every later panel, in
 * one task (buffers: the panel's, W a scratch, the later panels RW). The
 * GPU panel reads the whole trailing matrix, so the next panel waits for
 * the whole update anyway; one task a step in place of two spares the
 * runtime's gap between dependent GPU tasks (a median 0.1 ms on the H100
 * machine). */
/* After the panel's function, which checked that the panels are contiguous. */
static struct update_view step_view(void *buffers[], void *cl_arg)
{
	int c = (int)args_of(cl_arg).col, nb = COLS(buffers[P_OWN]), lda = LD(buffers[P_OWN]);
	int cols = hyla__contiguous_cols(buffers, P_OWN, sizeof(real_t)) - nb;
	real_t *v = MAT(buffers[P_OWN]);
	return view_at(v + (size_t)nb * lda, lda, cols, v, lda, MAT(buffers[P_W]), LD(buffers[P_W]),
	               c + nb, ROWS(buffers[P_OWN]), nb);
}

/* Columns [j0, j1) of u's. */
static struct update_view columns_of(const struct update_view *u, int j0, int j1)
{
	struct update_view s = *u;
	s.add = u->add + (int64_t)j0 * u->lda + j0, s.vd = u->vd + j0, s.wd = u->wd + j0;
	s.cols = j1 - j0, s.rows = u->rows + u->cols - j1;
	s.below = s.add + s.cols, s.vb = s.vd + s.cols, s.wb = s.wd + s.cols;
	return s;
}

/* On a combined worker (all the cores, no GPU): the panel on every core,
 * then each core's share of the update, with nothing between them but a
 * barrier (separate update tasks left the cores idle a third of the time
 * between panels, the last task of a step holding up the next panel). */
static void step_cpu(void *buffers[], void *cl_arg)
{
	struct sytrd_args *arg = cl_arg;
	int size = starpu_combined_worker_get_size(), rank = starpu_combined_worker_get_rank();
	panel_cpu(buffers, cl_arg);
	if (rank >= size)
		return; /* see hyla__spmd_cols */
	if (size > 1)
		hyla__spmd_barrier(&arg->team.barrier, size); /* W whole before any update */
	const struct update_view u = step_view(buffers, cl_arg);
	/* u's columns are a lower triangle (u.rows is 0): equal areas. */
	const struct update_view mine = columns_of(&u, (int)hyla__triangle_share(u.cols, rank, size),
	                                           (int)hyla__triangle_share(u.cols, rank + 1, size));
	if (mine.cols > 0)
		update_host(&mine);
}

#ifdef HYLA_WITH_CUDA
static void step_cuda(void *buffers[], void *cl_arg)
{
	panel_cuda(buffers, cl_arg);
	const struct update_view u = step_view(buffers, cl_arg);
	update_gpu(&u);
}
#endif

/* The panel's size: its SYMVs' (the trailing matrix's rows squared) times
 * its width. */
static size_t panel_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	const struct sytrd_args arg = args_of(task->cl_arg);
	starpu_data_handle_t own = STARPU_TASK_GET_HANDLE(task, P_OWN);
	size_t rows = starpu_matrix_get_nx(own) - (size_t)arg.col;
	return rows * rows * starpu_matrix_get_ny(own);
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
	.symbol = "hyla_sytrd_panel_" PREC_NAME "_v2",
	.size_base = panel_size,
	.footprint = hyla__size_footprint,
};

/* The update's flops' size: rows from the group's first column on times its
 * columns times the panel width. */
static size_t update_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	const struct sytrd_args arg = args_of(task->cl_arg);
	starpu_data_handle_t a = STARPU_TASK_GET_HANDLE(task, U_A);
	return (starpu_matrix_get_nx(a) - (size_t)arg.first) * hyla__cols_from(task, U_A) *
	       starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, U_V));
}

static struct starpu_perfmodel update_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_sytrd_update_" PREC_NAME "_v1",
	.size_base = update_size,
	.footprint = hyla__size_footprint,
};

/* A step's size: its panel's. */
static struct starpu_perfmodel step_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_sytrd_step_" PREC_NAME "_v1",
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
	.name = "sytrd_panel_" PREC_NAME,
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
	.name = "sytrd_update_" PREC_NAME,
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
	.name = "sytrd_step_" PREC_NAME,
};

static struct starpu_codelet tail_cl = {
	HYLA_HOST_BODY(tail_cpu),
	.nbuffers = 3,
	.modes = {STARPU_RW, STARPU_W, STARPU_W},
	.name = "sytrd_tail_" PREC_NAME,
};

#ifdef HYLA_PREC_D
int hyla_task_dsytrd_panel(starpu_data_handle_t e, starpu_data_handle_t tau, starpu_data_handle_t w,
                           const starpu_data_handle_t *panels, int npanels, int64_t col)
#else
int hyla_task_ssytrd_panel(starpu_data_handle_t e, starpu_data_handle_t tau, starpu_data_handle_t w,
                           const starpu_data_handle_t *panels, int npanels, int64_t col)
#endif
{
	const struct starpu_data_descr fixed[] = {{e, STARPU_W}, {tau, STARPU_W}, {w, STARPU_W}};
	struct sytrd_args arg = {.col = col};
	return hyla__submit_on_panels((struct hyla_task){
		.cl = &panel_cl, .data = fixed, .ndata = 3, .arg = &arg, .arg_size = sizeof arg,
		.priority = hyla__parallel_prio(STARPU_MAX_PRIO), .all_cores = 1},
	                              panels, npanels, STARPU_RW, STARPU_R);
}

#ifdef HYLA_PREC_D
int hyla_task_dsytrd_update(starpu_data_handle_t v, starpu_data_handle_t w,
                            const starpu_data_handle_t *panels, int npanels, int64_t col,
                            int64_t first, int priority)
#else
int hyla_task_ssytrd_update(starpu_data_handle_t v, starpu_data_handle_t w,
                            const starpu_data_handle_t *panels, int npanels, int64_t col,
                            int64_t first, int priority)
#endif
{
	const struct starpu_data_descr fixed[] = {{v, STARPU_R}, {w, STARPU_R}};
	struct sytrd_args arg = {.col = col, .first = first};
	return hyla__submit_on_panels((struct hyla_task){
		.cl = &update_cl, .data = fixed, .ndata = 2, .arg = &arg, .arg_size = sizeof arg,
		.priority = priority},
	                              panels, npanels, STARPU_RW, STARPU_RW);
}

#ifdef HYLA_PREC_D
int hyla_task_dsytrd_step(starpu_data_handle_t e, starpu_data_handle_t tau, starpu_data_handle_t w,
                          const starpu_data_handle_t *panels, int npanels, int64_t col)
#else
int hyla_task_ssytrd_step(starpu_data_handle_t e, starpu_data_handle_t tau, starpu_data_handle_t w,
                          const starpu_data_handle_t *panels, int npanels, int64_t col)
#endif
{
	/* W: each core's scratch on a GPU; one W that the cores share. */
	const struct starpu_data_descr fixed[] = {
		{e, STARPU_W}, {tau, STARPU_W}, {w, hyla__parallel_tasks() ? STARPU_W : STARPU_SCRATCH}};
	struct sytrd_args arg = {.col = col};
	return hyla__submit_on_panels((struct hyla_task){
		.cl = &step_cl, .data = fixed, .ndata = 3, .arg = &arg, .arg_size = sizeof arg,
		.priority = hyla__parallel_prio(STARPU_MAX_PRIO), .all_cores = 1},
	                              panels, npanels, STARPU_RW, STARPU_RW);
}

int TYPED(hyla__insert_sytrd_tail)(starpu_data_handle_t a, starpu_data_handle_t tau,
                                   starpu_data_handle_t scratch, int64_t col)
{
	struct sytrd_args arg = {.col = col};
	struct starpu_data_descr data[] = {{a, STARPU_RW}, {tau, STARPU_W}, {scratch, STARPU_W}};
	return hyla__submit(&(struct hyla_task){
		.cl = &tail_cl, .data = data, .ndata = 3, .arg = &arg, .arg_size = sizeof arg,
		.priority = STARPU_MAX_PRIO});
}
