/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The Householder QR panel (algorithms/geqrf.c): LAPACK's dgeqrf on the
 * panel's rows from c0 on and its block reflector's T (dlarft), on a core
 * (Kerr, Campbell and Richards 2009: the panel on the host while the GPU updates), or on a GPU's
 * stream where the panel lives (cuda/cholqr_panel.cu: CholeskyQR2 and
 * Householder reconstruction, where that is accurate; else
 * cuda/geqr2_kernel.cu, the column loop as one cooperative kernel, and
 * cuda/householder_panels.cu, T, and the column loop by cuBLAS for panels
 * too tall for the kernel); the models choose. Also the QR's steps with a
 * GPU, its start (the first panels' block reflector on the rest) and its
 * wide end. Typed source: see runtime/precision.h. */
#include <lapacke.h>
#include <stdlib.h>
#include <string.h>
#include "codelets.h"
#include "householder.h"
#include "runtime.h"
#ifdef HYLA_WITH_CUDA
#include <starpu_cublas_v2.h>
#include "cuda/kernels.h"
#endif

#define MAT(buf) ((real_t *)STARPU_MATRIX_GET_PTR(buf))
#define LD(buf) ((int)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int)STARPU_MATRIX_GET_NX(buf))
#define COLS(buf) ((int)STARPU_MATRIX_GET_NY(buf))
#define VEC(buf) ((real_t *)STARPU_VECTOR_GET_PTR(buf))

/* LAPACK's block size inside the panel: the workspace is w times it. */
#define PANEL_LWORK_PER_COL 64

/* Buffers: the panel (RW), tau (W), T (W), scratch; a step's then the
 * previous panel (R) and its T (R), the update's workspace and the later
 * panels (RW; one matrix with the panel where the views are, else updated
 * run by run). */
enum { P_A, P_TAU, P_T, P_W, S_V, S_TV, S_WORK, S_REST };

/* The panel's rows from c0 on: LAPACK's dgeqrf and dlarft. */
static void factor_host(void *buffers[], int c0)
{
	int rows = ROWS(buffers[P_A]) - c0, w = COLS(buffers[P_A]), lda = LD(buffers[P_A]);
	real_t *v = MAT(buffers[P_A]) + c0, *tau = MAT(buffers[P_TAU]);
	LAPACKE(geqrf_work)(LAPACK_COL_MAJOR, rows, w, v, lda, tau, VEC(buffers[P_W]),
	                    w * PANEL_LWORK_PER_COL);
	TYPED(hyla__larft_host)(rows, w, v, lda, tau, MAT(buffers[P_T]), LD(buffers[P_T]));
}

static void panel_cpu(void *buffers[], void *cl_arg)
{
	int c0 = hyla__householder_args(cl_arg)->c0;
	factor_host(buffers, c0);
}

#ifdef HYLA_WITH_CUDA
/* The same on a stream, h its cuBLAS handle. */
static void factor_cuda(void *buffers[], int c0, cublasHandle_t h, cudaStream_t stream)
{
	int rows = ROWS(buffers[P_A]) - c0, w = COLS(buffers[P_A]), lda = LD(buffers[P_A]);
	real_t *v = MAT(buffers[P_A]) + c0, *tau = MAT(buffers[P_TAU]);
	TYPED(hyla__cuda_geqrf_panel)(rows, w, v, lda, tau, MAT(buffers[P_T]), LD(buffers[P_T]),
	                              VEC(buffers[P_W]), h, stream);
}

static void panel_cuda(void *buffers[], void *cl_arg)
{
	int c0 = hyla__householder_args(cl_arg)->c0;
	factor_cuda(buffers, c0, starpu_cublas_get_local_handle(), starpu_cuda_get_local_stream());
}
#endif

static struct starpu_perfmodel panel_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_geqrf_panel_" PREC_NAME "_v4",
	.size_base = hyla__panel_size, /* rows from c0 on times the width squared */
	.footprint = hyla__size_footprint,
};

static struct starpu_codelet panel_cl = {
	.cpu_funcs = {panel_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {panel_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__tall_panel_on_views_node,
	.nbuffers = 4,
	.modes = {STARPU_RW, STARPU_W, STARPU_W, STARPU_SCRATCH},
	.model = &panel_model,
	.name = "geqrf_panel_" PREC_NAME,
};

#ifdef HYLA_PREC_D
starpu_data_handle_t hyla_workspace_dgeqrf(int64_t nb)
#else
starpu_data_handle_t hyla_workspace_sgeqrf(int64_t nb)
#endif
{
	starpu_data_handle_t scratch;
	int64_t elems = nb * PANEL_LWORK_PER_COL;
#ifdef HYLA_WITH_CUDA
	if (elems < HYLA_GEQR2_SCRATCH_ELEMS)
		elems = HYLA_GEQR2_SCRATCH_ELEMS;
#endif
	starpu_vector_data_register(&scratch, -1, 0, (uint32_t)elems, sizeof(real_t));
	return scratch;
}

#ifdef HYLA_PREC_D
int hyla_task_dgeqrf_panel(starpu_data_handle_t panel, starpu_data_handle_t tau,
                           starpu_data_handle_t t, starpu_data_handle_t scratch, int64_t c0)
#else
int hyla_task_sgeqrf_panel(starpu_data_handle_t panel, starpu_data_handle_t tau,
                           starpu_data_handle_t t, starpu_data_handle_t scratch, int64_t c0)
#endif
{
	struct householder_args arg = {.c0 = (int)c0};
	double rows = (double)starpu_matrix_get_nx(panel) - (double)c0;
	double w = starpu_matrix_get_ny(panel);
	struct starpu_data_descr data[] = {
		{panel, STARPU_RW}, {tau, STARPU_W}, {t, STARPU_W}, {scratch, STARPU_SCRATCH}};
	return hyla__submit(&(struct hyla_task){
		.cl = &panel_cl, .data = data, .ndata = 4, .arg = &arg, .arg_size = sizeof arg,
		.priority = STARPU_MAX_PRIO, .flops = 2 * rows * w * w - 2 * w * w * w / 3});
}

/* A step: Q^T of the previous panel (its reflectors from row v0 = c0 - its
 * width) on this panel and the later ones (buffers[S_REST..end), later
 * columns; joined: they and the panel one matrix), then this panel
 * factored. */
struct step_view {
	int rows, nbv, w, later, end, v0, joined;
	const real_t *v, *tv;
	real_t *c, *work;
	int ldv, ldtv, ldc;
};

static struct step_view step_view(void *buffers[], int c0)
{
	struct starpu_task *task = starpu_task_get_current();
	int end = hyla__task_buffers(task), later = end > S_REST ? (int)hyla__cols_from(task, S_REST) : 0;
	int ldc = LD(buffers[P_A]), nbv = COLS(buffers[S_V]), v0 = c0 - nbv, w = COLS(buffers[P_A]);
	int joined = later && hyla__contiguous_range(buffers, S_REST, end, sizeof(real_t)) &&
	             MAT(buffers[S_REST]) == MAT(buffers[P_A]) + (int64_t)w * ldc &&
	             LD(buffers[S_REST]) == ldc;
	return (struct step_view){ROWS(buffers[P_A]) - v0, nbv, w, later, end, v0, joined,
	                          MAT(buffers[S_V]) + v0, MAT(buffers[S_TV]), MAT(buffers[P_A]) + v0,
	                          VEC(buffers[S_WORK]), LD(buffers[S_V]), LD(buffers[S_TV]), ldc};
}

/* The update of the later panels alone, run by run: on the host if h is
 * NULL, else on h's stream. */
static void step_later(void *h, void *buffers[], const struct step_view *u)
{
	TYPED(hyla__larfb_runs)(h, 1, u->rows, u->nbv, u->v, u->ldv, u->tv, u->ldtv, buffers, S_REST,
	                        u->end, u->v0, 0, u->later, u->work + (int64_t)u->nbv * u->w);
}

static void step_cpu(void *buffers[], void *cl_arg)
{
	int c0 = hyla__householder_args(cl_arg)->c0;
	const struct step_view u = step_view(buffers, c0);
	int cols = u.joined ? u.w + u.later : u.w;
	LAPACKE(larfb_work)(LAPACK_COL_MAJOR, 'L', 'T', 'F', 'C', u.rows, cols, u.nbv, u.v, u.ldv, u.tv,
	                    u.ldtv, u.c, u.ldc, u.work, cols);
	if (u.later && !u.joined)
		step_later(NULL, buffers, &u);
	factor_host(buffers, c0);
}

#ifdef HYLA_WITH_CUDA
/* On the worker's side stream (the highest priority) the update of this
 * panel, then the panel; on the worker's stream, once this panel's update
 * is done, the update of the later panels, issued before the panel (whose
 * CholeskyQR check waits on the host). */
static void step_cuda(void *buffers[], void *cl_arg)
{
	int c0 = hyla__householder_args(cl_arg)->c0;
	const struct step_view u = step_view(buffers, c0);
	cublasHandle_t side_blas;
	cudaStream_t side = hyla__side_fork(&side_blas);
	TYPED(hyla__cublas_larfb)(side_blas, 1, u.rows, u.nbv, u.w, u.v, u.ldv, u.tv, u.ldtv, u.c, u.ldc,
	                          u.work);
	hyla__side_join();
	step_later(starpu_cublas_get_local_handle(), buffers, &u);
	factor_cuda(buffers, c0, side_blas, side);
	hyla__side_join();
}
#endif

/* A step's size: its update's, the rows from c0 on x the columns updated x
 * the width (so that a core takes only the last, small steps: see
 * hyla__tall_panel_on_views_node). */
static size_t step_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	size_t w = starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, P_A));
	return hyla__panel_rows(task) * (w + hyla__cols_from(task, S_REST)) * w;
}

static struct starpu_perfmodel step_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_geqrf_step_" PREC_NAME "_v2",
	.size_base = step_size,
	.footprint = hyla__size_footprint,
};

static struct starpu_codelet step_cl = {
	.cpu_funcs = {step_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {step_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__tall_panel_on_views_node,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.model = &step_model,
	.name = "geqrf_step_" PREC_NAME,
};

#ifdef HYLA_PREC_D
int hyla_task_dgeqrf_step(starpu_data_handle_t v, starpu_data_handle_t tv,
                          starpu_data_handle_t work, const starpu_data_handle_t *panels,
                          int npanels, starpu_data_handle_t tau, starpu_data_handle_t t,
                          starpu_data_handle_t scratch, int64_t c0)
#else
int hyla_task_sgeqrf_step(starpu_data_handle_t v, starpu_data_handle_t tv,
                          starpu_data_handle_t work, const starpu_data_handle_t *panels,
                          int npanels, starpu_data_handle_t tau, starpu_data_handle_t t,
                          starpu_data_handle_t scratch, int64_t c0)
#endif
{
	if (npanels < 1 || !panels)
		return HYLA_ERROR(-5, "npanels = %d: the step needs the panel it factors", npanels);
	if (c0 < (int64_t)starpu_matrix_get_ny(v) || c0 >= (int64_t)starpu_matrix_get_nx(panels[0]))
		return HYLA_ERROR(-9, "c0 = %lld: the previous panel's reflectors start above it, "
		                      "within the panel's rows", (long long)c0);
	int count = S_REST + npanels - 1;
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)count);
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %s task", step_cl.name);
	descr[P_A] = (struct starpu_data_descr){panels[0], STARPU_RW};
	descr[P_TAU] = (struct starpu_data_descr){tau, STARPU_W};
	descr[P_T] = (struct starpu_data_descr){t, STARPU_W};
	descr[P_W] = (struct starpu_data_descr){scratch, STARPU_SCRATCH};
	descr[S_V] = (struct starpu_data_descr){v, STARPU_R};
	descr[S_TV] = (struct starpu_data_descr){tv, STARPU_R};
	descr[S_WORK] = (struct starpu_data_descr){work, STARPU_SCRATCH};
	for (int p = 1; p < npanels; p++)
		descr[S_REST + p - 1] = (struct starpu_data_descr){panels[p], STARPU_RW};
	double rows = (double)starpu_matrix_get_nx(panels[0]) - (double)c0;
	double w = starpu_matrix_get_ny(panels[0]), nbv = starpu_matrix_get_ny(v), cols = 0;
	for (int p = 0; p < npanels; p++)
		cols += starpu_matrix_get_ny(panels[p]);
	struct householder_args arg = {.c0 = (int)c0};
	int ret = hyla__submit(&(struct hyla_task){
		.cl = &step_cl, .data = descr, .ndata = count, .arg = &arg, .arg_size = sizeof arg,
		.priority = STARPU_MAX_PRIO,
		.flops = 4 * (rows + nbv) * cols * nbv + 2 * rows * w * w - 2 * w * w * w / 3});
	free(descr);
	return ret;
}

/* The Householder QR's start while the later columns' copy to the GPU goes
 * on (algorithms/geqrf.c): the first panels' reflectors as one block
 * reflector, its T (LAPACK's dlarft over their columns), then applied to
 * later panels (dlarfb with that width). Buffers of the T task: the head's
 * panels (R, contiguous), their tau's (R), T (W); of the update: the
 * head's panels, T (R), the workspace (the width times the columns), then
 * the panels updated (RW, contiguous). */
/* The columns of the head's count panels, one matrix. */
static int head_width(void *buffers[], int count)
{
	int w = 0;
	for (int j = 0; j < count; j++) {
		if (MAT(buffers[j]) != MAT(buffers[0]) + (int64_t)w * LD(buffers[0]) ||
		    LD(buffers[j]) != LD(buffers[0]))
			STARPU_ABORT_MSG("geqrf head: panels are not contiguous");
		w += COLS(buffers[j]);
	}
	return w;
}

static void head_t_cpu(void *buffers[], void *cl_arg)
{
	int count = hyla__householder_args(cl_arg)->count;
	int w = head_width(buffers, count), nb = COLS(buffers[0]);
	real_t *tau = malloc(sizeof *tau * (size_t)w);
	if (!tau)
		STARPU_ABORT_MSG("geqrf head: no memory for tau");
	for (int j = 0; j < count; j++)
		memcpy(tau + (int64_t)j * nb, MAT(buffers[count + j]), sizeof *tau * (size_t)COLS(buffers[j]));
	TYPED(hyla__larft_host)(ROWS(buffers[0]), w, MAT(buffers[0]), LD(buffers[0]), tau,
	                        MAT(buffers[2 * count]), LD(buffers[2 * count]));
	free(tau);
}

/* The updated panels' columns, one matrix. */
static int head_cols(void *buffers[], int first)
{
	int cols = hyla__contiguous_cols(buffers, first, sizeof(real_t));
	if (!cols)
		STARPU_ABORT_MSG("geqrf head: the panels updated are not contiguous");
	return cols;
}

static void head_apply_cpu(void *buffers[], void *cl_arg)
{
	int count = hyla__householder_args(cl_arg)->count;
	int w = head_width(buffers, count), first = count + 2, cols = head_cols(buffers, first);
	LAPACKE(larfb_work)(LAPACK_COL_MAJOR, 'L', 'T', 'F', 'C', ROWS(buffers[first]), cols, w,
	                    MAT(buffers[0]), LD(buffers[0]), MAT(buffers[count]), LD(buffers[count]),
	                    MAT(buffers[first]), LD(buffers[first]), VEC(buffers[count + 1]), cols);
}

#ifdef HYLA_WITH_CUDA
static void head_t_cuda(void *buffers[], void *cl_arg)
{
	int count = hyla__householder_args(cl_arg)->count;
	int w = head_width(buffers, count), nb = COLS(buffers[0]);
	cudaStream_t stream = starpu_cuda_get_local_stream();
	real_t *tau = hyla__cuda_scratch(sizeof *tau * (size_t)w, stream);
	for (int j = 0; j < count; j++)
		if (cudaMemcpyAsync(tau + (int64_t)j * nb, MAT(buffers[count + j]),
		                    sizeof *tau * (size_t)COLS(buffers[j]), cudaMemcpyDeviceToDevice,
		                    stream) != cudaSuccess)
			STARPU_ABORT_MSG("geqrf head: tau's copy failed");
	TYPED(hyla__cuda_larft)(ROWS(buffers[0]), w, MAT(buffers[0]), LD(buffers[0]), tau,
	                        MAT(buffers[2 * count]), LD(buffers[2 * count]),
	                        starpu_cublas_get_local_handle(), stream);
	hyla__cuda_scratch_free(tau, stream);
}

static void head_apply_cuda(void *buffers[], void *cl_arg)
{
	int count = hyla__householder_args(cl_arg)->count;
	int w = head_width(buffers, count), first = count + 2, cols = head_cols(buffers, first);
	TYPED(hyla__cublas_larfb)(starpu_cublas_get_local_handle(), 1, ROWS(buffers[first]), w, cols,
	                          MAT(buffers[0]), LD(buffers[0]), MAT(buffers[count]),
	                          LD(buffers[count]), MAT(buffers[first]), LD(buffers[first]),
	                          VEC(buffers[count + 1]));
}
#endif

/* Sizes: rows x width^2 (T); rows x columns updated x width (update). */
static size_t head_t_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	int count = hyla__householder_args(task->cl_arg)->count;
	size_t w = starpu_matrix_get_nx(STARPU_TASK_GET_HANDLE(task, 2 * (unsigned)count)); /* T's */
	return starpu_matrix_get_nx(STARPU_TASK_GET_HANDLE(task, 0)) * w * w;
}

static size_t head_apply_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	int count = hyla__householder_args(task->cl_arg)->count;
	size_t w = starpu_matrix_get_nx(STARPU_TASK_GET_HANDLE(task, (unsigned)count));
	return starpu_matrix_get_nx(STARPU_TASK_GET_HANDLE(task, 0)) * w *
	       hyla__cols_from(task, (unsigned)count + 2);
}

static struct starpu_perfmodel head_t_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_geqrf_head_t_" PREC_NAME "_v1",
	.size_base = head_t_size,
	.footprint = hyla__size_footprint,
};

static struct starpu_perfmodel head_apply_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_geqrf_head_" PREC_NAME "_v1",
	.size_base = head_apply_size,
	.footprint = hyla__size_footprint,
};

static struct starpu_codelet head_t_cl = {
	.cpu_funcs = {head_t_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {head_t_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__panel_on_views_node,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.model = &head_t_model,
	.name = "geqrf_head_t_" PREC_NAME,
};

static struct starpu_codelet head_apply_cl = {
	.cpu_funcs = {head_apply_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {head_apply_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__update_on_views_node,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.model = &head_apply_model,
	.name = "geqrf_head_" PREC_NAME,
};

/* A task over the head's count panels, then fixed buffers, then panels. */
static int insert_head(struct starpu_codelet *cl, const starpu_data_handle_t *v, int count,
                       const struct starpu_data_descr *fixed, int nfixed,
                       const starpu_data_handle_t *panels, int npanels)
{
	int n = count + nfixed + npanels;
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)n);
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %s task", cl->name);
	for (int j = 0; j < count; j++)
		descr[j] = (struct starpu_data_descr){v[j], STARPU_R};
	for (int j = 0; j < nfixed; j++)
		descr[count + j] = fixed[j];
	for (int p = 0; p < npanels; p++)
		descr[count + nfixed + p] = (struct starpu_data_descr){panels[p], STARPU_RW};
	struct householder_args arg = {.count = count};
	int ret = hyla__submit(&(struct hyla_task){
		.cl = cl, .data = descr, .ndata = n, .arg = &arg, .arg_size = sizeof arg,
		.priority = STARPU_MAX_PRIO});
	free(descr);
	return ret;
}

int TYPED(hyla__insert_geqrf_head_t)(const starpu_data_handle_t *v, const starpu_data_handle_t *tau,
                                     int count, starpu_data_handle_t t)
{
	struct starpu_data_descr *fixed = malloc(sizeof *fixed * (size_t)(count + 1));
	if (!fixed)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %s task", head_t_cl.name);
	for (int j = 0; j < count; j++)
		fixed[j] = (struct starpu_data_descr){tau[j], STARPU_R};
	fixed[count] = (struct starpu_data_descr){t, STARPU_W};
	int ret = insert_head(&head_t_cl, v, count, fixed, count + 1, NULL, 0);
	free(fixed);
	return ret;
}

int TYPED(hyla__insert_geqrf_head)(const starpu_data_handle_t *v, int count, starpu_data_handle_t t,
                                   starpu_data_handle_t work, const starpu_data_handle_t *panels,
                                   int npanels)
{
	const struct starpu_data_descr fixed[] = {{t, STARPU_R}, {work, STARPU_SCRATCH}};
	return insert_head(&head_apply_cl, v, count, fixed, 2, panels, npanels);
}

/* Buffers: tau (W), scratch, then the panels (RW, contiguous). */
static void tail_cpu(void *buffers[], void *cl_arg)
{
	int r0 = hyla__householder_args(cl_arg)->c0;
	int cols = hyla__contiguous_cols(buffers, 2, sizeof(real_t));
	if (!cols)
		STARPU_ABORT_MSG("geqrf tail: panels are not contiguous in host memory");
	LAPACKE(geqrf_work)(LAPACK_COL_MAJOR, ROWS(buffers[2]) - r0, cols, MAT(buffers[2]) + r0,
	                    LD(buffers[2]), MAT(buffers[0]), VEC(buffers[1]), cols * PANEL_LWORK_PER_COL);
}

static struct starpu_codelet tail_cl = {
	HYLA_HOST_BODY(tail_cpu),
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "geqrf_tail_" PREC_NAME,
};

int TYPED(hyla__insert_geqrf_tail)(starpu_data_handle_t tau, starpu_data_handle_t scratch,
                                   const starpu_data_handle_t *panels, int npanels, int64_t r0)
{
	const struct starpu_data_descr fixed[] = {{tau, STARPU_W}, {scratch, STARPU_W}};
	struct householder_args arg = {.c0 = (int)r0};
	return hyla__submit_on_panels((struct hyla_task){
		.cl = &tail_cl, .data = fixed, .ndata = 2, .arg = &arg, .arg_size = sizeof arg,
		.priority = STARPU_MAX_PRIO},
	                              panels, npanels, STARPU_RW, STARPU_RW);
}
