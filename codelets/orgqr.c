/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* Codelets that form Q = H(0) H(1) ... H(k-1) explicitly from Householder
 * reflectors stored as LAPACK's dgeqrf leaves them (reflector i: unit at row
 * i, the rest below it in column i), panel by panel from the last, as
 * LAPACK's dorgqr does:
 *   T      the panel's triangular factor (LAPACK's dlarft; on a GPU:
 *          cuda/householder_panels.cu);
 *   apply  (I - V T V^T) from the left on rows c0.. of later column panels
 *          (or its transpose: Householder QR's trailing update);
 *   form   the panel's own columns, (I - V T V^T) E with E the identity's
 *          columns c0.., zero above row c0.
 * Typed source: see runtime/precision.h. */
#include <cblas.h>
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

/* Apply buffers: V's panel, T (R), workspace, then the panels updated (RW). */
enum { A_V, A_T, A_W, A_C };
/* Form buffers: the panel (RW), T (R), workspace (2 w-by-w blocks); a
 * step's then the apply's workspace, the previous panel (R), its tau (R)
 * and T (W) if there is one, the later panels (RW; updated run by run,
 * hyla__larfb_runs) from later_index. */
enum { F_A, F_T, F_W, S_WA, S_V, S_TAU, S_TN };

static int later_index(int has_prev)
{
	return has_prev ? S_TN + 1 : S_V;
}

void TYPED(hyla__larft_host)(int rows, int w, const real_t *v, int ldv, const real_t *tau,
                             real_t *t, int ldt)
{
	LAPACKE(larft_work)(LAPACK_COL_MAJOR, 'F', 'C', rows, w, v, ldv, tau, t, ldt);
	for (int j = 0; j < w; j++)
		for (int i = j + 1; i < w; i++)
			t[i + (int64_t)j * ldt] = 0;
}

/* T (w-by-w, upper; zero below) of the panel's reflectors from row c0. */
static void t_cpu(void *buffers[], void *cl_arg)
{
	int c0 = hyla__householder_args(cl_arg)->c0;
	TYPED(hyla__larft_host)(ROWS(buffers[0]) - c0, COLS(buffers[0]), MAT(buffers[0]) + c0,
	                        LD(buffers[0]), MAT(buffers[1]), MAT(buffers[2]), LD(buffers[2]));
}

void TYPED(hyla__larfb_runs)(void *h, int trans, int rows, int nb, const real_t *v, int ldv,
                             const real_t *t, int ldt, void *buffers[], int first, int end, int c0,
                             int lo, int hi, real_t *w)
{
#ifndef HYLA_WITH_CUDA
	(void)h;
#endif
	for (int next = first, b = first, at = 0, cols;
	     (cols = hyla__next_run(buffers, &next, end, sizeof(real_t))); b = next, at += cols) {
		int from = lo > at ? lo : at, to = hi < at + cols ? hi : at + cols, ldc = LD(buffers[b]);
		if (from >= to)
			continue;
		real_t *c = MAT(buffers[b]) + c0 + (int64_t)(from - at) * ldc;
#ifdef HYLA_WITH_CUDA
		if (h) {
			TYPED(hyla__cublas_larfb)(h, trans, rows, nb, to - from, v, ldv, t, ldt, c, ldc,
			                          w + (int64_t)from * nb);
			continue;
		}
#endif
		LAPACKE(larfb_work)(LAPACK_COL_MAJOR, 'L', trans ? 'T' : 'N', 'F', 'C', rows, to - from, nb,
		                    v, ldv, t, ldt, c, ldc, w + (int64_t)from * nb, to - from);
	}
}

/* LAPACK's dlarfb; a parallel task: each core of a combined worker takes a
 * slice of the columns (and of the workspace). */
static void apply_cpu(void *buffers[], void *cl_arg)
{
	const struct householder_args *arg = cl_arg;
	struct starpu_task *task = starpu_task_get_current();
	int c0 = arg->c0, c, cols = hyla__spmd_cols((int)hyla__cols_from(task, A_C), &c);
	if (cols > 0)
		TYPED(hyla__larfb_runs)(NULL, arg->trans, ROWS(buffers[A_V]) - c0, COLS(buffers[A_V]),
		                        MAT(buffers[A_V]) + c0, LD(buffers[A_V]), MAT(buffers[A_T]),
		                        LD(buffers[A_T]), buffers, A_C, hyla__task_buffers(task), c0, c,
		                        c + cols, (real_t *)STARPU_VECTOR_GET_PTR(buffers[A_W]));
}

/* Panel = (I - V T V^T) E: zero above row c0; below it, with W = T V1^T
 * (upper triangular): V2 <- -V2 W and V1 <- I - V1 W. The panel: m-by-nb at
 * a; w: 2 nb-by-nb blocks. */
static void form_host(real_t *a, int m, int nb, int lda, int c0, const real_t *t, int ldt,
                      real_t *w)
{
	real_t *v1 = w + (int64_t)nb * nb, *top = a + c0;
	for (int j = 0; j < nb; j++) {
		memset(a + (int64_t)j * lda, 0, sizeof *a * (size_t)c0);
		memcpy(w + (int64_t)j * nb, t + (int64_t)j * ldt, sizeof *w * (size_t)nb);
		memcpy(v1 + (int64_t)j * nb, top + (int64_t)j * lda, sizeof *w * (size_t)nb);
	}
	BLAS(trmm)(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasUnit, nb, nb, 1, v1, nb, w, nb);
	BLAS(trmm)(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, m - c0 - nb, nb,
	           -1, w, nb, top + nb, lda);
	BLAS(trmm)(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, nb, nb, 1, v1, nb, w, nb);
	for (int j = 0; j < nb; j++)
		for (int i = 0; i < nb; i++)
			top[i + (int64_t)j * lda] = (i == j) - w[i + (int64_t)j * nb];
}

static void form_cpu(void *buffers[], void *cl_arg)
{
	int c0 = hyla__householder_args(cl_arg)->c0;
	form_host(MAT(buffers[F_A]), ROWS(buffers[F_A]), COLS(buffers[F_A]), LD(buffers[F_A]), c0,
	          MAT(buffers[F_T]), LD(buffers[F_T]), (real_t *)STARPU_VECTOR_GET_PTR(buffers[F_W]));
}

#ifdef HYLA_WITH_CUDA
void TYPED(hyla__cublas_larfb)(cublasHandle_t h, int trans, int rows, int nb, int cols,
                               const real_t *v, int ldv, const real_t *t, int ldt, real_t *c,
                               int ldc, real_t *w)
{
	const real_t one = 1, zero = 0, minus_one = -1;
	cudaStream_t stream;
	cublasGetStream(h, &stream);
	real_t *e = hyla__cuda_scratch(sizeof *e * ((size_t)rows * nb + (size_t)nb * cols), stream);
	real_t *tw = e + (size_t)rows * nb;
	TYPED(hyla__cuda_explicit_v)(rows, nb, v, ldv, e, stream);
	cublasStatus_t status[3] = {
		CUBLAS(gemm)(h, CUBLAS_OP_T, CUBLAS_OP_N, nb, cols, rows, &one, e, rows, c, ldc, &zero, w, nb),
		CUBLAS(gemm)(h, trans ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, nb, cols, nb, &one, t, ldt, w,
		             nb, &zero, tw, nb),
		CUBLAS(gemm)(h, CUBLAS_OP_N, CUBLAS_OP_N, rows, cols, nb, &minus_one, e, rows, tw, nb, &one, c,
		             ldc)};
	for (int i = 0; i < 3; i++)
		if (status[i] != CUBLAS_STATUS_SUCCESS)
			STARPU_CUBLAS_REPORT_ERROR(status[i]);
	hyla__cuda_scratch_free(e, stream);
}

static void apply_cuda(void *buffers[], void *cl_arg)
{
	const struct householder_args *arg = cl_arg;
	struct starpu_task *task = starpu_task_get_current();
	int c0 = arg->c0;
	TYPED(hyla__larfb_runs)(starpu_cublas_get_local_handle(), arg->trans, ROWS(buffers[A_V]) - c0,
	                        COLS(buffers[A_V]), MAT(buffers[A_V]) + c0, LD(buffers[A_V]),
	                        MAT(buffers[A_T]), LD(buffers[A_T]), buffers, A_C,
	                        hyla__task_buffers(task), c0, 0, (int)hyla__cols_from(task, A_C),
	                        (real_t *)STARPU_VECTOR_GET_PTR(buffers[A_W]));
}

static void t_cuda(void *buffers[], void *cl_arg)
{
	int c0 = hyla__householder_args(cl_arg)->c0;
	TYPED(hyla__cuda_larft)(ROWS(buffers[0]) - c0, COLS(buffers[0]), MAT(buffers[0]) + c0,
	                        LD(buffers[0]), MAT(buffers[1]), MAT(buffers[2]), LD(buffers[2]),
	                        starpu_cublas_get_local_handle(), starpu_cuda_get_local_stream());
}

/* form_host's steps with cuBLAS on h's stream. */
static void form_cublas(cublasHandle_t h, real_t *a, int m, int nb, int lda, int c0,
                        const real_t *t, int ldt, real_t *w)
{
	real_t *v1 = w + (int64_t)nb * nb, *top = a + c0;
	cudaStream_t stream;
	cublasGetStream(h, &stream);
	const real_t one = 1, minus_one = -1;
	if (c0 > 0)
		cudaMemset2DAsync(a, sizeof *a * (size_t)lda, 0, sizeof *a * (size_t)c0, (size_t)nb, stream);
	cudaMemcpy2DAsync(v1, sizeof *w * (size_t)nb, top, sizeof *a * (size_t)lda, sizeof *w * (size_t)nb,
	                  (size_t)nb, cudaMemcpyDeviceToDevice, stream);
	CUBLAS(trmm)(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_UNIT, nb, nb,
	             &one, v1, nb, t, ldt, w, nb);
	CUBLAS(trmm)(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
	             m - c0 - nb, nb, &minus_one, w, nb, top + nb, lda, top + nb, lda);
	CUBLAS(trmm)(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, nb, nb,
	             &one, v1, nb, w, nb, w, nb);
	TYPED(hyla__cuda_identity_minus)(nb, w, nb, top, lda, stream);
}

static void form_cuda(void *buffers[], void *cl_arg)
{
	int c0 = hyla__householder_args(cl_arg)->c0;
	form_cublas(starpu_cublas_get_local_handle(), MAT(buffers[F_A]), ROWS(buffers[F_A]),
	            COLS(buffers[F_A]), LD(buffers[F_A]), c0, MAT(buffers[F_T]), LD(buffers[F_T]),
	            (real_t *)STARPU_VECTOR_GET_PTR(buffers[F_W]));
}
#endif

/* Models by the flops' size: the rows from c0 on x the columns updated x
 * the panel width (apply), the rows from c0 on x the width squared (T:
 * hyla__panel_size). */
static size_t apply_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	return hyla__panel_rows(task) * hyla__cols_from(task, A_C) *
	       starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, A_V));
}

static struct starpu_perfmodel apply_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_orgqr_apply_" PREC_NAME "_v2",
	.size_base = apply_size,
	.footprint = hyla__size_footprint,
};

/* A step's: the apply's rows x (the later panels' columns + its own, if
 * it forms them) x the width. */
static size_t step_size(struct starpu_task *task, unsigned impl)
{
	(void)impl;
	const struct householder_args *arg = hyla__householder_args(task->cl_arg);
	size_t w = starpu_matrix_get_ny(STARPU_TASK_GET_HANDLE(task, F_A));
	return hyla__panel_rows(task) *
	       (hyla__cols_from(task, (unsigned)later_index(arg->has_prev)) + (arg->no_form ? 0 : w)) * w;
}

static struct starpu_perfmodel step_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_orgqr_step_" PREC_NAME "_v1",
	.size_base = step_size,
	.footprint = hyla__size_footprint,
};

static struct starpu_perfmodel t_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_orgqr_t_" PREC_NAME "_v1",
	.size_base = hyla__panel_size,
	.footprint = hyla__size_footprint,
};

static struct starpu_codelet t_cl = {
	.cpu_funcs = {t_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {t_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__tall_panel_on_views_node,
	.nbuffers = 3,
	.modes = {STARPU_R, STARPU_R, STARPU_W},
	.model = &t_model,
	.name = "orgqr_t_" PREC_NAME,
};

static struct starpu_codelet apply_cl = {
	.cpu_funcs = {apply_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {apply_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__update_on_views_node,
	.type = STARPU_SPMD,
	.max_parallelism = HYLA_MAX_PARALLELISM,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.model = &apply_model,
	.name = "orgqr_apply_" PREC_NAME,
};

static struct starpu_codelet form_cl = {
	.cpu_funcs = {form_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {form_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.nbuffers = 3,
	.modes = {STARPU_RW, STARPU_R, STARPU_SCRATCH},
	.name = "orgqr_form_" PREC_NAME, /* no model: runtime/models.c says why */
};

/* A step of the Q formation (panel i at column c0 > 0): the panel's block
 * reflector on the later panels (buffers[first..end)), then the panel's own
 * columns (unless no_form: the panel then read only), and the previous
 * panel's T for the next step. */
struct step_view {
	int first, end, cols; /* the later panels, their columns */
	int rows, nb, ldv, ldt;
	real_t *v, *t, *wa;
};

static struct step_view step_view(void *buffers[], int c0, int has_prev)
{
	struct starpu_task *task = starpu_task_get_current();
	int first = later_index(has_prev), end = hyla__task_buffers(task);
	return (struct step_view){first, end, end > first ? (int)hyla__cols_from(task, (unsigned)first) : 0,
	                          ROWS(buffers[F_A]) - c0, COLS(buffers[F_A]), LD(buffers[F_A]),
	                          LD(buffers[F_T]), MAT(buffers[F_A]) + c0, MAT(buffers[F_T]),
	                          (real_t *)STARPU_VECTOR_GET_PTR(buffers[S_WA])};
}

/* The step's apply: on the host if h is NULL, else on h's stream. */
static void step_apply(void *h, void *buffers[], const struct step_view *u, int c0)
{
	TYPED(hyla__larfb_runs)(h, 0, u->rows, u->nb, u->v, u->ldv, u->t, u->ldt, buffers, u->first,
	                        u->end, c0, 0, u->cols, u->wa);
}

/* The previous panel's reflectors (from row c0 - its width), tau, T. */
struct next_t {
	int rows, w, ldv, ldt;
	const real_t *v, *tau;
	real_t *t;
};

static struct next_t next_t_of(void *buffers[], int c0)
{
	int w = COLS(buffers[S_V]);
	return (struct next_t){ROWS(buffers[S_V]) - c0 + w, w, LD(buffers[S_V]), LD(buffers[S_TN]),
	                       MAT(buffers[S_V]) + c0 - w, MAT(buffers[S_TAU]), MAT(buffers[S_TN])};
}

static void step_cpu(void *buffers[], void *cl_arg)
{
	const struct householder_args *arg = cl_arg;
	int c0 = arg->c0, has_prev = arg->has_prev;
	const struct step_view u = step_view(buffers, c0, has_prev);
	if (has_prev) {
		const struct next_t n = next_t_of(buffers, c0);
		TYPED(hyla__larft_host)(n.rows, n.w, n.v, n.ldv, n.tau, n.t, n.ldt);
	}
	step_apply(NULL, buffers, &u, c0);
	if (!arg->no_form)
		form_host(MAT(buffers[F_A]), ROWS(buffers[F_A]), u.nb, u.ldv, c0, u.t, u.ldt,
		          (real_t *)STARPU_VECTOR_GET_PTR(buffers[F_W]));
}

#ifdef HYLA_WITH_CUDA
/* The next T on the worker's side stream, beside the apply and the form. */
static void step_cuda(void *buffers[], void *cl_arg)
{
	const struct householder_args *arg = cl_arg;
	int c0 = arg->c0, has_prev = arg->has_prev;
	const struct step_view u = step_view(buffers, c0, has_prev);
	cublasHandle_t h = starpu_cublas_get_local_handle(), side_blas;
	if (has_prev) {
		const struct next_t n = next_t_of(buffers, c0);
		cudaStream_t side = hyla__side_fork(&side_blas);
		TYPED(hyla__cuda_larft)(n.rows, n.w, n.v, n.ldv, n.tau, n.t, n.ldt, side_blas, side);
	}
	step_apply(h, buffers, &u, c0);
	if (!arg->no_form)
		form_cublas(h, MAT(buffers[F_A]), ROWS(buffers[F_A]), u.nb, u.ldv, c0, u.t, u.ldt,
		            (real_t *)STARPU_VECTOR_GET_PTR(buffers[F_W]));
	if (has_prev)
		hyla__side_join();
}
#endif

static struct starpu_codelet step_cl = {
	.cpu_funcs = {step_cpu},
#ifdef HYLA_WITH_CUDA
	.cuda_funcs = {step_cuda},
	.cuda_flags = {STARPU_CUDA_ASYNC},
#endif
	.can_execute = hyla__update_on_views_node,
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.model = &step_model,
	.name = "orgqr_step_" PREC_NAME,
};

#ifdef HYLA_PREC_D
int hyla_task_dlarft(starpu_data_handle_t panel, starpu_data_handle_t tau, starpu_data_handle_t t,
                     int64_t c0, int priority)
#else
int hyla_task_slarft(starpu_data_handle_t panel, starpu_data_handle_t tau, starpu_data_handle_t t,
                     int64_t c0, int priority)
#endif
{
	struct householder_args arg = {.c0 = (int)c0};
	struct starpu_data_descr data[] = {{panel, STARPU_R}, {tau, STARPU_R}, {t, STARPU_W}};
	return hyla__submit(&(struct hyla_task){
		.cl = &t_cl, .data = data, .ndata = 3, .arg = &arg, .arg_size = sizeof arg,
		.priority = priority});
}

#ifdef HYLA_PREC_D
int hyla_task_dlarfb(starpu_data_handle_t v, starpu_data_handle_t t, starpu_data_handle_t w,
                     const starpu_data_handle_t *panels, int npanels, int64_t c0, int trans,
                     int priority)
#else
int hyla_task_slarfb(starpu_data_handle_t v, starpu_data_handle_t t, starpu_data_handle_t w,
                     const starpu_data_handle_t *panels, int npanels, int64_t c0, int trans,
                     int priority)
#endif
{
	int count = A_C + npanels;
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)count);
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for an apply task");
	descr[A_V] = (struct starpu_data_descr){v, STARPU_R};
	descr[A_T] = (struct starpu_data_descr){t, STARPU_R};
	descr[A_W] = (struct starpu_data_descr){w, STARPU_SCRATCH};
	double cols = 0;
	for (int p = 0; p < npanels; p++) {
		descr[A_C + p] = (struct starpu_data_descr){panels[p], STARPU_RW};
		cols += starpu_matrix_get_ny(panels[p]);
	}
	double rows = (double)starpu_matrix_get_nx(v) - (double)c0, nb = starpu_matrix_get_ny(v);
	struct householder_args arg = {.c0 = (int)c0, .trans = trans};
	int ret = hyla__submit(&(struct hyla_task){
		.cl = &apply_cl, .data = descr, .ndata = count, .arg = &arg, .arg_size = sizeof arg,
		.priority = hyla__parallel_prio(priority), .flops = 4 * rows * cols * nb});
	free(descr);
	return ret;
}

int TYPED(hyla__insert_orgqr_form)(starpu_data_handle_t panel, starpu_data_handle_t t,
                                   starpu_data_handle_t w, int64_t c0, int priority)
{
	struct householder_args arg = {.c0 = (int)c0};
	struct starpu_data_descr data[] = {{panel, STARPU_RW}, {t, STARPU_R}, {w, STARPU_SCRATCH}};
	return hyla__submit(&(struct hyla_task){
		.cl = &form_cl, .data = data, .ndata = 3, .arg = &arg, .arg_size = sizeof arg,
		.priority = priority});
}

int TYPED(hyla__insert_orgqr_step)(starpu_data_handle_t panel, starpu_data_handle_t t,
                                   starpu_data_handle_t w_form, starpu_data_handle_t w_apply,
                                   starpu_data_handle_t prev, starpu_data_handle_t prev_tau,
                                   starpu_data_handle_t prev_t, const starpu_data_handle_t *later,
                                   int nlater, int64_t c0, int form, int priority)
{
	int has_prev = prev != NULL, first = later_index(has_prev);
	if (has_prev != (prev_tau != NULL) || has_prev != (prev_t != NULL))
		return HYLA_ERROR(-5, "prev, prev_tau and prev_t must be all given or all NULL");
	if (nlater < 0 || (nlater > 0 && !later))
		return HYLA_ERROR(-9, "nlater = %d with later %s", nlater, later ? "given" : "NULL");
	if (c0 < 0 || c0 >= (int64_t)starpu_matrix_get_nx(panel))
		return HYLA_ERROR(-10, "c0 = %lld is not a row of the panel", (long long)c0);
	int count = first + nlater;
	struct starpu_data_descr *descr = malloc(sizeof *descr * (size_t)count);
	if (!descr)
		return HYLA_ERROR(HYLA_ERR_NOMEM, "no memory for a %s task", step_cl.name);
	descr[F_A] = (struct starpu_data_descr){panel, form ? STARPU_RW : STARPU_R};
	descr[F_T] = (struct starpu_data_descr){t, STARPU_R};
	descr[F_W] = (struct starpu_data_descr){w_form, STARPU_SCRATCH};
	descr[S_WA] = (struct starpu_data_descr){w_apply, STARPU_SCRATCH};
	if (has_prev) {
		descr[S_V] = (struct starpu_data_descr){prev, STARPU_R};
		descr[S_TAU] = (struct starpu_data_descr){prev_tau, STARPU_R};
		descr[S_TN] = (struct starpu_data_descr){prev_t, STARPU_W};
	}
	double cols = 0;
	for (int p = 0; p < nlater; p++) {
		descr[first + p] = (struct starpu_data_descr){later[p], STARPU_RW};
		cols += starpu_matrix_get_ny(later[p]);
	}
	double rows = (double)starpu_matrix_get_nx(panel) - (double)c0, nb = starpu_matrix_get_ny(panel);
	struct householder_args arg = {.c0 = (int)c0, .has_prev = has_prev, .no_form = !form};
	int ret = hyla__submit(&(struct hyla_task){
		.cl = &step_cl, .data = descr, .ndata = count, .arg = &arg, .arg_size = sizeof arg,
		.priority = priority, .flops = 4 * rows * (cols + (form ? nb : 0)) * nb});
	free(descr);
	return ret;
}

#ifdef HYLA_PREC_D
int hyla_task_dorgqr_step(starpu_data_handle_t panel, starpu_data_handle_t t,
                          starpu_data_handle_t w_form, starpu_data_handle_t w_apply,
                          starpu_data_handle_t prev, starpu_data_handle_t prev_tau,
                          starpu_data_handle_t prev_t, const starpu_data_handle_t *later,
                          int nlater, int64_t c0)
#else
int hyla_task_sorgqr_step(starpu_data_handle_t panel, starpu_data_handle_t t,
                          starpu_data_handle_t w_form, starpu_data_handle_t w_apply,
                          starpu_data_handle_t prev, starpu_data_handle_t prev_tau,
                          starpu_data_handle_t prev_t, const starpu_data_handle_t *later,
                          int nlater, int64_t c0)
#endif
{
	return TYPED(hyla__insert_orgqr_step)(panel, t, w_form, w_apply, prev, prev_tau, prev_t, later,
	                                      nlater, c0, 1, STARPU_MAX_PRIO);
}
