/* The Householder QR panel (algorithms/geqrf.c): LAPACK's dgeqrf on the
 * panel's rows from c0 on and its block reflector's T (dlarft), on a core
 * (seed 004: the panel on the host while the GPU updates), or on a GPU's
 * stream where the panel lives (cuda/geqr2_kernel.cu: the column loop as one
 * cooperative kernel; cuda/householder_panels.cu: T, and the column loop by
 * cuBLAS for panels too tall for the kernel); the models choose. Typed
 * source: see runtime/precision.h. */
#include <lapacke.h>
#include "codelets.h"
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

/* Buffers: the panel (RW), tau (W), T (W), scratch. */
enum { P_A, P_TAU, P_T, P_W };

static void panel_cpu(void *buffers[], void *cl_arg)
{
	int c0;
	starpu_codelet_unpack_args(cl_arg, &c0, 0);
	int rows = ROWS(buffers[P_A]) - c0, w = COLS(buffers[P_A]), lda = LD(buffers[P_A]);
	real_t *v = MAT(buffers[P_A]) + c0, *tau = MAT(buffers[P_TAU]);
	LAPACKE(geqrf_work)(LAPACK_COL_MAJOR, rows, w, v, lda, tau, VEC(buffers[P_W]),
	                    w * PANEL_LWORK_PER_COL);
	TYPED(hyla__larft_host)(rows, w, v, lda, tau, MAT(buffers[P_T]), LD(buffers[P_T]));
}

#ifdef HYLA_WITH_CUDA
static void panel_cuda(void *buffers[], void *cl_arg)
{
	int c0;
	starpu_codelet_unpack_args(cl_arg, &c0, 0);
	int rows = ROWS(buffers[P_A]) - c0, w = COLS(buffers[P_A]), lda = LD(buffers[P_A]);
	real_t *v = MAT(buffers[P_A]) + c0, *tau = MAT(buffers[P_TAU]);
	cublasHandle_t h = starpu_cublas_get_local_handle();
	cudaStream_t stream = starpu_cuda_get_local_stream();
	TYPED(hyla__cuda_geqr2)(rows, w, v, lda, tau, VEC(buffers[P_W]), h, stream);
	TYPED(hyla__cuda_larft)(rows, w, v, lda, tau, MAT(buffers[P_T]), LD(buffers[P_T]), h, stream);
}
#endif

static struct starpu_perfmodel panel_model = {
	.type = STARPU_NL_REGRESSION_BASED,
	.symbol = "hyla_geqrf_panel_" PREC_NAME "_v3",
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

starpu_data_handle_t WORKSPACE(geqrf)(int64_t nb)
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

int TASK(geqrf_panel)(starpu_data_handle_t panel, starpu_data_handle_t tau, starpu_data_handle_t t,
                      starpu_data_handle_t scratch, int64_t c0)
{
	int c = (int)c0;
	double rows = (double)starpu_matrix_get_nx(panel) - (double)c0;
	double w = starpu_matrix_get_ny(panel);
	int ret = starpu_task_insert(&panel_cl, STARPU_CALLBACK, hyla__task_done, STARPU_RW, panel,
	                             STARPU_W, tau, STARPU_W, t, STARPU_SCRATCH, scratch, STARPU_VALUE,
	                             &c, sizeof c,
	                             STARPU_PRIORITY, STARPU_MAX_PRIO, STARPU_FLOPS,
	                             2 * rows * w * w - 2 * w * w * w / 3, 0);
	return hyla__submitted(ret, panel_cl.name);
}

/* Buffers: tau (W), scratch, then the panels (RW, contiguous). */
static void tail_cpu(void *buffers[], void *cl_arg)
{
	int r0;
	starpu_codelet_unpack_args(cl_arg, &r0, 0);
	int cols = hyla__contiguous_cols(buffers, 2, sizeof(real_t));
	if (!cols)
		STARPU_ABORT_MSG("geqrf tail: panels are not contiguous in host memory");
	LAPACKE(geqrf_work)(LAPACK_COL_MAJOR, ROWS(buffers[2]) - r0, cols, MAT(buffers[2]) + r0,
	                    LD(buffers[2]), MAT(buffers[0]), VEC(buffers[1]), cols * PANEL_LWORK_PER_COL);
}

static struct starpu_codelet tail_cl = {
	.cpu_funcs = {tail_cpu},
	.nbuffers = STARPU_VARIABLE_NBUFFERS,
	.name = "geqrf_tail_" PREC_NAME,
};

int TYPED(hyla__insert_geqrf_tail)(starpu_data_handle_t tau, starpu_data_handle_t scratch,
                                   const starpu_data_handle_t *panels, int npanels, int64_t r0)
{
	const struct starpu_data_descr fixed[] = {{tau, STARPU_W}, {scratch, STARPU_SCRATCH}};
	int r = (int)r0;
	return hyla__insert_on_panels(&tail_cl, fixed, 2, panels, npanels, STARPU_RW, STARPU_RW, &r,
	                              sizeof r, STARPU_MAX_PRIO);
}
