/* Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause */
/* The distributed QR's codelets (mpi/mpi_codelets.h): BLAS and LAPACK on a
 * core, double or float by the buffers' element size. */
#include <cblas.h>
#include <lapacke.h>
#include "mpi_codelets.h"

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

/* History models by the buffers' sizes (StarPU's default footprint). */
#define MODEL(name)                                                                             \
	static struct starpu_perfmodel name##_model = {.type = STARPU_HISTORY_BASED,                \
	                                               .symbol = "hyla_mpi_" #name "_v1"}
MODEL(gram);
MODEL(solve);

struct starpu_codelet hyla__mpi_gram_cl = {.cpu_funcs = {gram}, .nbuffers = 2,
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
struct starpu_codelet hyla__mpi_solve_cl = {.cpu_funcs = {solve}, .nbuffers = 3,
                                            .modes = {STARPU_RW, STARPU_R, STARPU_R},
                                            .model = &solve_model, .name = "mpi_solve"};
struct starpu_codelet hyla__mpi_rmul_cl = {.cpu_funcs = {rmul}, .nbuffers = 3,
                                           .modes = {STARPU_RW, STARPU_R, STARPU_R},
                                           .name = "mpi_rmul"};
