/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The distributed QRs' codelets (mpi/mpi_internal.h): BLAS and LAPACK on a
 * core (the Level-3 ones also on a GPU: mpi/cuda.c), double or float by the
 * buffers' element size. */
#include <cblas.h>
#include <lapacke.h>
#include <stdlib.h>
#include "mpi_internal.h"

#define PTR(buf) ((void *)STARPU_MATRIX_GET_PTR(buf))
#define LD(buf) ((int)STARPU_MATRIX_GET_LD(buf))
#define ROWS(buf) ((int)STARPU_MATRIX_GET_NX(buf))
#define COLS(buf) ((int)STARPU_MATRIX_GET_NY(buf))
#define DOUBLE(buf) (STARPU_MATRIX_GET_ELEMSIZE(buf) == sizeof(double))
#define STATUS(buf) (*(int *)STARPU_VARIABLE_GET_PTR(buf))

static void gram(void *buffers[], void *arg)
{
	(void)arg;
	void *a = PTR(buffers[0]), *g = PTR(buffers[1]);
	int m = ROWS(buffers[0]), n = COLS(buffers[0]), lda = LD(buffers[0]), ldg = LD(buffers[1]);
	if (DOUBLE(buffers[0]))
		cblas_dsyrk(CblasColMajor, CblasUpper, CblasTrans, n, m, 1, a, lda, 0, g, ldg);
	else
		cblas_ssyrk(CblasColMajor, CblasUpper, CblasTrans, n, m, 1, a, lda, 0, g, ldg);
}

static void add(void *buffers[], void *arg)
{
	(void)arg;
	int n = COLS(buffers[0]), lds = LD(buffers[0]), ldg = LD(buffers[1]);
	for (int j = 0; j < n; j++)
		for (int i = 0; i <= j; i++)
			if (DOUBLE(buffers[0]))
				((double *)PTR(buffers[0]))[i + j * lds] += ((double *)PTR(buffers[1]))[i + j * ldg];
			else
				((float *)PTR(buffers[0]))[i + j * lds] += ((float *)PTR(buffers[1]))[i + j * ldg];
}

static void factor(void *buffers[])
{
	void *g = PTR(buffers[0]);
	int n = COLS(buffers[0]), ld = LD(buffers[0]);
	int info = DOUBLE(buffers[0]) ? LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'U', n, g, ld)
	                              : LAPACKE_spotrf_work(LAPACK_COL_MAJOR, 'U', n, g, ld);
	for (int j = 0; j < n; j++) /* the solves read R alone */
		for (int i = j + 1; i < n; i++)
			if (DOUBLE(buffers[0]))
				((double *)g)[i + j * ld] = 0;
			else
				((float *)g)[i + j * ld] = 0;
	STATUS(buffers[1]) = info;
}

static void chol_first(void *buffers[], void *arg)
{
	(void)arg;
	factor(buffers);
}

static void chol(void *buffers[], void *arg)
{
	(void)arg;
	if (STATUS(buffers[2]))
		STATUS(buffers[1]) = STATUS(buffers[2]);
	else
		factor(buffers);
}

static void solve(void *buffers[], void *arg)
{
	(void)arg;
	if (STATUS(buffers[2]))
		return;
	void *a = PTR(buffers[0]), *r = PTR(buffers[1]);
	int m = ROWS(buffers[0]), n = COLS(buffers[0]), lda = LD(buffers[0]), ldr = LD(buffers[1]);
	if (DOUBLE(buffers[0]))
		cblas_dtrsm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, m, n, 1, r,
		            ldr, a, lda);
	else
		cblas_strsm(CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, m, n, 1, r,
		            ldr, a, lda);
}

static void rmul(void *buffers[], void *arg)
{
	(void)arg;
	if (STATUS(buffers[2]))
		return;
	void *r1 = PTR(buffers[0]), *r2 = PTR(buffers[1]);
	int n = COLS(buffers[0]), ld1 = LD(buffers[0]), ld2 = LD(buffers[1]);
	if (DOUBLE(buffers[0]))
		cblas_dtrmm(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, n, n, 1, r2,
		            ld2, r1, ld1);
	else
		cblas_strmm(CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, n, n, 1, r2,
		            ld2, r1, ld1);
}

/* The Householder codelets' row c0 (and trans) from their arguments. */
static int row_c0(void *arg, int *trans)
{
	int c0, t;
	if (trans)
		starpu_codelet_unpack_args(arg, &c0, &t);
	else
		starpu_codelet_unpack_args(arg, &c0);
	if (trans)
		*trans = t;
	return c0;
}

/* Element k of a buffer's array (of doubles or floats). */
#define AT(buf, k) ((void *)((char *)PTR(buf) + (size_t)(k) * STARPU_MATRIX_GET_ELEMSIZE(buf)))
#define VEC(buf) ((void *)STARPU_VECTOR_GET_PTR(buf))

static void zero_below(void *buffer)
{
	int w = COLS(buffer), ld = LD(buffer);
	for (int j = 0; j < w; j++)
		for (int i = j + 1; i < w; i++)
			if (DOUBLE(buffer))
				((double *)PTR(buffer))[i + j * ld] = 0;
			else
				((float *)PTR(buffer))[i + j * ld] = 0;
}

/* LAPACK's workspace of rows x cols elements of buf's type. The codelets
 * call LAPACKE's _work routines: the others scan every input for NaNs on
 * each call, a pass over the panel and V each time (22% more of the
 * cores' time in all at 3000 on 2 cores). */
static void *scratch(void *buf, int rows, int cols)
{
	void *work = malloc(STARPU_MATRIX_GET_ELEMSIZE(buf) * (size_t)rows * (size_t)cols);
	if (!work)
		STARPU_ABORT_MSG("hyla: no memory for LAPACK's workspace");
	return work;
}

/* T of the panel's reflectors from row c0 (buffers: panel, tau, T). */
static void larft(void *buffers[], int c0)
{
	int rows = ROWS(buffers[0]) - c0, w = COLS(buffers[0]), lda = LD(buffers[0]), ldt = LD(buffers[2]);
	if (DOUBLE(buffers[0]))
		LAPACKE_dlarft_work(LAPACK_COL_MAJOR, 'F', 'C', rows, w, AT(buffers[0], c0), lda,
		                    VEC(buffers[1]), PTR(buffers[2]), ldt);
	else
		LAPACKE_slarft_work(LAPACK_COL_MAJOR, 'F', 'C', rows, w, AT(buffers[0], c0), lda,
		                    VEC(buffers[1]), PTR(buffers[2]), ldt);
	zero_below(buffers[2]);
}

/* The panel from row c0 factored with its T at once (LAPACK's geqrt with
 * one block: its recursive Level-3 form where geqrf and larft's Level-2
 * loop would sit on the critical path); tau is T's diagonal. */
static void qr_panel(void *buffers[], void *arg)
{
	int c0 = row_c0(arg, NULL), rows = ROWS(buffers[0]) - c0, w = COLS(buffers[0]);
	int lda = LD(buffers[0]), ldt = LD(buffers[2]);
	void *work = scratch(buffers[0], w, w);
	if (DOUBLE(buffers[0])) {
		LAPACKE_dgeqrt_work(LAPACK_COL_MAJOR, rows, w, w, AT(buffers[0], c0), lda, PTR(buffers[2]),
		                    ldt, work);
		cblas_dcopy(w, PTR(buffers[2]), ldt + 1, VEC(buffers[1]), 1);
	} else {
		LAPACKE_sgeqrt_work(LAPACK_COL_MAJOR, rows, w, w, AT(buffers[0], c0), lda, PTR(buffers[2]),
		                    ldt, work);
		cblas_scopy(w, PTR(buffers[2]), ldt + 1, VEC(buffers[1]), 1);
	}
	free(work);
	zero_below(buffers[2]);
}

static void qr_t(void *buffers[], void *arg)
{
	larft(buffers, row_c0(arg, NULL));
}

/* Rows c0.. of c (ldc) times (I - V T V^T) or its transpose, V the
 * reflectors in v (from its first row). */
static void larfb(void *v, void *t, void *c, int ldc, int cols, int c0, char trans)
{
	int rows = ROWS(v), w = COLS(v);
	void *work = scratch(v, cols, w);
	if (DOUBLE(v))
		LAPACKE_dlarfb_work(LAPACK_COL_MAJOR, 'L', trans, 'F', 'C', rows, cols, w, PTR(v), LD(v),
		                    PTR(t), LD(t), (double *)c + c0, ldc, work, cols);
	else
		LAPACKE_slarfb_work(LAPACK_COL_MAJOR, 'L', trans, 'F', 'C', rows, cols, w, PTR(v), LD(v),
		                    PTR(t), LD(t), (float *)c + c0, ldc, work, cols);
	free(work);
}

static void qr_update(void *buffers[], void *arg)
{
	int trans, c0 = row_c0(arg, &trans);
	larfb(buffers[1], buffers[2], PTR(buffers[0]), LD(buffers[0]), COLS(buffers[0]), c0,
	      trans ? 'T' : 'N');
}

/* V explicit, ones on its diagonal and zeros above (R's rows), so that a
 * GPU multiplies by it whole; LAPACK's larfb and larft do not read them. */
static void qr_copy_v(void *buffers[], void *arg)
{
	int c0 = row_c0(arg, NULL), rows = ROWS(buffers[1]), w = COLS(buffers[1]), ldv = LD(buffers[1]);
	if (DOUBLE(buffers[0])) {
		LAPACKE_dlacpy_work(LAPACK_COL_MAJOR, 'A', rows, w, AT(buffers[0], c0), LD(buffers[0]),
		               PTR(buffers[1]), ldv);
		LAPACKE_dlaset_work(LAPACK_COL_MAJOR, 'U', w, w, 0, 1, PTR(buffers[1]), ldv);
	} else {
		LAPACKE_slacpy_work(LAPACK_COL_MAJOR, 'A', rows, w, AT(buffers[0], c0), LD(buffers[0]),
		               PTR(buffers[1]), ldv);
		LAPACKE_slaset_work(LAPACK_COL_MAJOR, 'U', w, w, 0, 1, PTR(buffers[1]), ldv);
	}
}

/* The reflectors (rows c0..) copied aside, the panel set to E, then the
 * block reflector applied to it. */
static void qr_form(void *buffers[], void *arg)
{
	int c0 = row_c0(arg, NULL), m = ROWS(buffers[0]), w = COLS(buffers[0]), lda = LD(buffers[0]);
	int rows = m - c0, dbl = DOUBLE(buffers[0]);
	size_t es = STARPU_MATRIX_GET_ELEMSIZE(buffers[0]);
	void *v = malloc(es * (size_t)rows * (size_t)w);
	if (!v)
		STARPU_ABORT_MSG("hyla qr_form: no memory for the reflectors");
	struct starpu_matrix_interface copy = *(struct starpu_matrix_interface *)buffers[0];
	copy.ptr = (uintptr_t)v, copy.ld = (uint32_t)rows, copy.nx = (uint32_t)rows;
	if (dbl) {
		LAPACKE_dlacpy_work(LAPACK_COL_MAJOR, 'A', rows, w, AT(buffers[0], c0), lda, v, rows);
		LAPACKE_dlaset_work(LAPACK_COL_MAJOR, 'A', m, w, 0, 0, PTR(buffers[0]), lda);
		LAPACKE_dlaset_work(LAPACK_COL_MAJOR, 'A', rows, w, 0, 1, AT(buffers[0], c0), lda);
	} else {
		LAPACKE_slacpy_work(LAPACK_COL_MAJOR, 'A', rows, w, AT(buffers[0], c0), lda, v, rows);
		LAPACKE_slaset_work(LAPACK_COL_MAJOR, 'A', m, w, 0, 0, PTR(buffers[0]), lda);
		LAPACKE_slaset_work(LAPACK_COL_MAJOR, 'A', rows, w, 0, 1, AT(buffers[0], c0), lda);
	}
	larfb(&copy, buffers[1], AT(buffers[0], c0), lda, w, 0, 'N');
	free(v);
}

/* History models by the buffers' sizes (StarPU's default footprint); the
 * version changes with what the codelet does (qr_panel: geqrt). */
#define MODEL(name, version)                                                                    \
	static struct starpu_perfmodel name##_model = {.type = STARPU_HISTORY_BASED,                \
	                                               .symbol = "hyla_mpi_" #name "_v" #version}
MODEL(gram, 1);
MODEL(solve, 1);
MODEL(qr_panel, 2);
MODEL(qr_update, 1);

/* The Level-3 codelets also on a GPU (mpi/cuda.c). */
#ifdef HYLA_WITH_CUDA
#define ON_GPU(f) .cuda_funcs = {f}, .cuda_flags = {STARPU_CUDA_ASYNC},
#else
#define ON_GPU(f)
#endif

struct starpu_codelet hyla__mpi_gram_cl = {.cpu_funcs = {gram}, ON_GPU(hyla__mpi_gram_cuda)
                                           .nbuffers = 2,
                                           .modes = {STARPU_R, STARPU_W}, .model = &gram_model,
                                           .name = "mpi_gram"};
struct starpu_codelet hyla__mpi_add_cl = {.cpu_funcs = {add}, .nbuffers = 2,
                                          .modes = {STARPU_RW, STARPU_R}, .name = "mpi_add"};
struct starpu_codelet hyla__mpi_chol_first_cl = {.cpu_funcs = {chol_first}, .nbuffers = 2,
                                                 .modes = {STARPU_RW, STARPU_W},
                                                 .name = "mpi_chol_first"};
struct starpu_codelet hyla__mpi_chol_cl = {.cpu_funcs = {chol}, .nbuffers = 3,
                                           .modes = {STARPU_RW, STARPU_W, STARPU_R},
                                           .name = "mpi_chol"};
struct starpu_codelet hyla__mpi_solve_cl = {.cpu_funcs = {solve},
                                            ON_GPU(hyla__mpi_solve_cuda) .nbuffers = 3,
                                            .modes = {STARPU_RW, STARPU_R, STARPU_R},
                                            .model = &solve_model, .name = "mpi_solve"};
struct starpu_codelet hyla__mpi_rmul_cl = {.cpu_funcs = {rmul}, .nbuffers = 3,
                                           .modes = {STARPU_RW, STARPU_R, STARPU_R},
                                           .name = "mpi_rmul"};
struct starpu_codelet hyla__mpi_qr_panel_cl = {.cpu_funcs = {qr_panel}, .nbuffers = 3,
                                               .modes = {STARPU_RW, STARPU_W, STARPU_W},
                                               .model = &qr_panel_model, .name = "mpi_qr_panel"};
struct starpu_codelet hyla__mpi_qr_t_cl = {.cpu_funcs = {qr_t}, .nbuffers = 3,
                                           .modes = {STARPU_R, STARPU_R, STARPU_W},
                                           .name = "mpi_qr_t"};
struct starpu_codelet hyla__mpi_qr_update_cl = {.cpu_funcs = {qr_update},
                                                ON_GPU(hyla__mpi_qr_update_cuda) .nbuffers = 3,
                                                .modes = {STARPU_RW, STARPU_R, STARPU_R},
                                                .model = &qr_update_model,
                                                .name = "mpi_qr_update"};
struct starpu_codelet hyla__mpi_qr_copy_v_cl = {.cpu_funcs = {qr_copy_v}, .nbuffers = 2,
                                                .modes = {STARPU_R, STARPU_W},
                                                .name = "mpi_qr_copy_v"};
struct starpu_codelet hyla__mpi_qr_form_cl = {.cpu_funcs = {qr_form}, .nbuffers = 2,
                                              .modes = {STARPU_RW, STARPU_R}, .name = "mpi_qr_form"};
